"""The language server, ``bezique lsp``: the replayer in the transcriber's editor, over stdio.

After each pause in the changes (:data:`DEBOUNCE`) the server reads and replays the record as ``bezique validate``
does, game by game (:func:`check_text_record`, every error in one pass; only the games an edit touched, the
others kept from before), and publishes the same codes, positions and messages, with the document's version; a
newer change cancels the validation of an older text between two games. It answers hovers (a card's name; a
trick's hands, tables, scores and each seat's unseen cards before it; a meld kind's rule from the profile), goes
from a meld kind to its entry in the profile's YAML, formats through ``bezique fmt``, offers code actions (an
unknown card completed as the inference completes it; a stated number set to what the rules give) and completes
the cards that the player to move may legally play.

What the server answers is worked out by the functions of :class:`Workbench` from the text alone, without pygls,
which only the server itself (:func:`build_server`) imports: pygls and lsprotocol come with the ``editor`` extra
(``pip install 'bezique-replayer[editor]'``); :func:`missing` says which are missing. Positions: the protocol's
lines and characters count from 0, the replayer's from 1; the protocol's lines end at ``\\n``, ``\\r\\n`` and ``\\r``
only and its characters are code units of the negotiated encoding (UTF-16 by default, UTF-8 wherever the client
offers it), the replayer's lines end at ``\\n`` and its columns are code points: :class:`Document` keeps the
server's copy of the text as the client's (never pygls's, whose lines break where ``str.splitlines`` breaks them)
and converts between the two.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cards import CARDS, Card, CardParseError, CardPattern, Suit, parse_card_like
from .check import GameCheck, check_text_record
from .collector import no_cycle_collection
from .errors import Diagnostic, NotationError, Span
from .reader import SEAT_ALIASES

if TYPE_CHECKING:
    from collections.abc import Iterator

    from .replay import DealResult, GameResult, ReplayResult, TrickResult

__all__ = ["Action", "Document", "Workbench", "build_server", "code_points", "main", "missing", "units"]

EXTRA = "editor"
"""The extra that brings the server's dependencies."""

_WORD = re.compile(r"[^\s,/:=>{}]+")
_TRICK_LINE = re.compile(r"^\s*(?:trick|взятка)\s+(\d+)\s*:", re.IGNORECASE)
_KIND_AFTER = re.compile(
    r"^\s*(?:\S+)\s+(?:declares?|shows?|scores|penalty|штраф)\s+([a-z]+(?:_[a-z]+)*)", re.IGNORECASE
)
_GIVES = re.compile(r"the rules give (-?\d+)")
_PLAY = re.compile(r"(North|South|East|West|Север|Юг|Восток|Запад|[NSEW])\s+(\S+(?:\s+[«\"]?[а-яіїє]+[»\"]?)?)", re.I)


def missing() -> list[str]:
    """The server's dependencies that are not installed (empty when it can run)."""
    from importlib.util import find_spec

    return [name for name in ("pygls", "lsprotocol") if find_spec(name) is None]


class Action:
    """A code action: its title, the line and the columns (0-based, end excluded) it replaces, and the new text."""

    __slots__ = ("end", "line", "new", "start", "title")

    def __init__(self, title: str, line: int, start: int, end: int, new: str) -> None:
        self.title = title
        self.line = line
        self.start = start
        self.end = end
        self.new = new

    def __repr__(self) -> str:
        return f"Action({self.title!r}, {self.line}, {self.start}, {self.end}, {self.new!r})"


_BREAK = re.compile(r"\r\n|\r|\n")
_NEWLINE = re.compile(r"\n")
POSITION_ENCODINGS = ("utf-8", "utf-16", "utf-32")
"""The position encodings of LSP: how a position's ``character`` counts (UTF-16 code units unless negotiated)."""


def units(text: str, encoding: str = "utf-16") -> int:
    """The length of a text in the code units of a position encoding."""
    if encoding == "utf-32" or text.isascii():
        return len(text)
    if encoding == "utf-8":
        return len(text.encode("utf-8", "surrogatepass"))
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def code_points(text: str, count: int, encoding: str = "utf-16") -> int:
    """How many code points of a text its first ``count`` code units hold: all of it when ``count`` is past its end
    (LSP: a character past the line's end is its end), and a count inside a character stops before it."""
    if count <= 0:
        return 0
    if encoding == "utf-32" or text.isascii():
        return min(count, len(text))
    used = 0
    wide = encoding == "utf-8"
    for index, char in enumerate(text):
        code = ord(char)
        if wide:
            used += 1 if code < 0x80 else 2 if code < 0x800 else 3 if code < 0x10000 else 4
        else:
            used += 2 if code > 0xFFFF else 1
        if used > count:
            return index
    return len(text)


class Document:
    """The server's copy of an open document, kept exactly as the client's: its text, version, and positions
    counted as the client counts them.

    LSP ends a line at ``\\n``, ``\\r\\n`` or ``\\r`` only, not at the other breaks of ``str.splitlines`` (a form
    feed, a vertical tab, U+001C to U+001E, NEL, U+2028, U+2029), which a record may hold in a comment; a position's
    character counts code units of the negotiated encoding (UTF-16 unless the client offers another), not code
    points. The reader counts lines at ``\\n`` only and columns in code points: :meth:`reader_offset` and
    :meth:`reader_position` convert between the two."""

    def __init__(self, text: str, version: int | None = None, encoding: str = "utf-16") -> None:
        self.text = text
        self.version = version
        self.encoding = encoding if encoding in POSITION_ENCODINGS else "utf-16"
        self._starts: list[int] | None = None
        self._reader_starts: list[int] | None = None

    @property
    def starts(self) -> list[int]:
        """The offset of each line's first character, lines as LSP splits them."""
        if self._starts is None:
            self._starts = [0, *(m.end() for m in _BREAK.finditer(self.text))]
        return self._starts

    def _line_end(self, line: int) -> int:
        """The offset of a line's end, before its line break."""
        starts = self.starts
        if line + 1 >= len(starts):
            return len(self.text)
        end = starts[line + 1]
        text = self.text
        if text[end - 1] == "\n":
            end -= 1
            if end > starts[line] and text[end - 1] == "\r":
                end -= 1
        else:  # a lone "\r"
            end -= 1
        return end

    def line(self, line: int) -> str:
        """A line's text without its line break ("" past the end)."""
        if not 0 <= line < len(self.starts):
            return ""
        return self.text[self.starts[line] : self._line_end(line)]

    def offset(self, line: int, character: int) -> int:
        """The offset in the text of a position as the client counts it; a position past a line's end is that
        end, a line past the document's end is the document's end (as LSP says)."""
        starts = self.starts
        if line < 0:
            return 0
        if line >= len(starts):
            return len(self.text)
        start = starts[line]
        return start + code_points(self.text[start : self._line_end(line)], character, self.encoding)

    def position(self, offset: int) -> tuple[int, int]:
        """The position (line, character as the client counts it) of an offset in the text; an offset between the
        ``\\r`` and the ``\\n`` of a line break is the line's end."""
        from bisect import bisect_right

        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.starts, offset) - 1
        start = self.starts[line]
        end = min(offset, self._line_end(line))
        return line, units(self.text[start:end], self.encoding)

    def end(self) -> tuple[int, int]:
        """The position of the document's end (on its last line: never a line past it)."""
        return self.position(len(self.text))

    def change(self, text: str, start: tuple[int, int] | None = None, end: tuple[int, int] | None = None) -> None:
        """Apply a change: ``text`` replaces the range from ``start`` to ``end`` (positions as the client counts
        them), or the whole text when no range is given."""
        if start is None or end is None:
            self.text = text
        else:
            first, last = self.offset(*start), self.offset(*end)
            if last < first:
                first, last = last, first
            self.text = self.text[:first] + text + self.text[last:]
        self._starts = self._reader_starts = None

    # --- the reader's positions: lines at "\n" only, columns in code points, both 0-based here

    @property
    def reader_starts(self) -> list[int]:
        if self._reader_starts is None:
            self._reader_starts = [0, *(m.end() for m in _NEWLINE.finditer(self.text))]
        return self._reader_starts

    def reader_offset(self, line: int, column: int) -> int:
        """The offset of a reader's position (0-based line and column), kept inside the document."""
        starts = self.reader_starts
        if line < 0:
            return 0
        if line >= len(starts):
            return len(self.text)
        return min(starts[line] + max(0, column), len(self.text))

    def reader_position(self, offset: int) -> tuple[int, int]:
        """The reader's position (0-based line and column) of an offset in the text."""
        from bisect import bisect_right

        offset = max(0, min(offset, len(self.text)))
        line = bisect_right(self.reader_starts, offset) - 1
        return line, offset - self.reader_starts[line]

    def from_reader(self, line: int, column: int) -> tuple[int, int]:
        """A reader's position (0-based) as the client counts it."""
        return self.position(self.reader_offset(line, column))

    def to_reader(self, line: int, character: int) -> tuple[int, int]:
        """A client's position as the reader counts it (0-based)."""
        return self.reader_position(self.offset(line, character))

    def span_range(self, diag: Diagnostic) -> tuple[tuple[int, int], tuple[int, int]]:
        """Where a diagnostic is, as the client counts positions: inside the document, at least one character
        where the document has one."""
        span = diag.span
        if span is None:
            start, length = 0, 1
        else:
            start, length = self.reader_offset(span.line - 1, span.column - 1), max(1, span.length)
        end = min(start + length, len(self.text))
        return self.position(start), self.position(end)


def _card_at(line: str, column: int) -> tuple[int, int, Card | CardPattern] | None:
    """The card written at a 0-based column of a line, with its columns; None when no card is there. A Russian
    spelling (``Д пики``) spans two words."""
    for found in _WORD.finditer(line):
        if not found.start() <= column < found.end() + 1:
            continue
        nxt = _WORD.match(line, found.end() + 1) if found.end() < len(line) else None
        candidates = [(found.start(), found.end())]
        if nxt is not None:
            candidates.insert(0, (found.start(), nxt.end()))
        before = list(_WORD.finditer(line[: found.start()]))
        if before:
            candidates.append((before[-1].start(), found.end()))
        for start, end in candidates:
            try:
                return start, end, parse_card_like(line[start:end])
            except CardParseError:
                continue
    return None


def _pack(profile: Any) -> Counter[Card]:
    """Every card of a profile's packs (the wild cards added)."""
    pack: Counter[Card] = Counter()
    for suit in Suit:
        for rank in profile.ranks:
            pack[Card(suit, rank)] += profile.packs
    for card, count in profile.extra_cards:
        pack[card] += count
    return pack


def _cards(cards: Any) -> str:
    return " ".join(c.glyph for c in sorted(cards, key=lambda c: c.sort_key)) or "—"


def _games(text: str) -> list[tuple[int, str]]:
    """A text's games as ``validate`` splits a file (:func:`replayer.check.game_texts`): (the line number of each
    game's first line, its text)."""
    from .check import game_texts

    return game_texts(text)


def _shared(one: str, other: str) -> int:
    """The length of the longest start two texts share."""
    low, high = 0, min(len(one), len(other))
    while low < high:  # (a binary search: each comparison of two starts runs in C)
        middle = (low + high + 1) // 2
        if one[:middle] == other[:middle]:
            low = middle
        else:
            high = middle - 1
    return low


class Workbench:
    """A record's text read and replayed game by game, as ``bezique validate`` reads a file, and every answer the
    server gives about it.

    A game is independent of the others: ``cache`` keeps each game's reading and replay by its text, so that after
    an edit only the game it touched is read and replayed again (the others are found in the cache, wherever their
    lines moved). ``build``: False to replay the games step by step (:meth:`steps`), as the server does between
    the messages of the editor. Lines and columns are the text's (0-based where a method says so); each game is
    replayed in its own lines and its answers placed in the text's."""

    def __init__(
        self, text: str, path: str = "<record>", cache: dict[str, _Game] | None = None, build: bool = True
    ) -> None:
        self.text = text
        self.path = path
        self.lines = text.split("\n")
        self.cache: dict[str, _Game] = cache if cache is not None else {}
        self.chunks = _games(text)
        self.parts: list[tuple[int, _Game]] = []
        if build:
            for _ in self.steps():
                pass

    def steps(self) -> Iterator[None]:
        """Read and replay the games not in the cache, one at a time (a step after each); the cache then holds
        the text's games only."""
        parts = []
        kept = {text for _, text in self.chunks}
        # The cached games that the text no longer holds are those an edit changed: a game's new text is validated
        # from the checkpoints of the one closest to it (the same game before the edit, most likely).
        spare = [game for text, game in self.cache.items() if text not in kept]
        for first, text in self.chunks:
            game = self.cache.get(text)
            if game is None:
                previous = None
                if spare:
                    previous = spare[0] if len(spare) == 1 else max(spare, key=lambda old: _shared(old.text, text))
                    spare.remove(previous)
                game = self.cache[text] = _Game(text, self.path, previous)
                yield
            parts.append((first, game))
        self.parts = parts
        for text in [t for t in self.cache if t not in kept]:
            del self.cache[text]

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The diagnostics ``bezique validate`` reports for the text, game by game."""
        found = []
        for first, game in self.parts:
            for diag in game.diagnostics:
                span = diag.span
                if first != 1 and span is not None:
                    span = Span(span.line + first - 1, span.column, span.length)
                    diag = Diagnostic(diag.code, diag.message, span, diag.path, diag.severity)
                found.append(diag)
        return found

    def part(self, line: int) -> tuple[int, _Game] | None:
        """The game a 0-based line of the text belongs to, and the number of lines before it."""
        found = None
        for first, game in self.parts:
            if first - 1 <= line:
                found = (first - 1, game)
        return found

    def hover(self, line: int, column: int) -> str | None:
        """Markdown for a 0-based position: a card's name, a meld kind's rule, or the moment before a trick."""
        found = self.part(line)
        return None if found is None else found[1].hover(line - found[0], column)

    def completion_of(self, line: int, column: int) -> Card | None:
        """The card the inference put for the unknown card written at a 1-based line and column."""
        found = self.part(line - 1)
        return None if found is None else found[1].completion_of(line - found[0], column)

    def definition(self, line: int, column: int) -> tuple[Path, int] | None:
        """From a meld kind (0-based position) to its entry in the profile's YAML: (file, 0-based line)."""
        found = self.part(line)
        return None if found is None else found[1].definition(line - found[0], column)

    def legal_cards(self, line: int, column: int) -> list[Card]:
        """The cards the player to move may legally play, for a trick being written at a 0-based position."""
        found = self.part(line)
        return [] if found is None else found[1].legal_cards(line - found[0], column)

    def actions(self, first: int, last: int) -> list[Action]:
        """The code actions for the 0-based lines ``first`` to ``last`` (see :meth:`_Game.actions`)."""
        found = []
        for start, game in self.parts:
            before = start - 1
            for action in game.actions(first - before, last - before):
                action.line += before
                found.append(action)
        return found

    def formatted(self) -> str | None:
        """The canonical form (``bezique fmt``); None when the record does not read (nothing is changed)."""
        from .fmt import FormatCheckError, format_text

        try:
            return format_text(self.text, self.path)
        except (NotationError, FormatCheckError):
            return None


class _Game:
    """One game of a text (:func:`_games`), read and replayed once, and the answers about it, in its own lines.

    ``previous``: the same game before an edit, whose checkpoints the validation resumes from
    (:class:`~replayer.check.GameCheck`: only the deals from the first one the edit changed are read and replayed
    again)."""

    def __init__(self, text: str, path: str = "<record>", previous: _Game | None = None) -> None:
        self.text = text
        self.path = path
        self.lines = text.split("\n")
        # (the collector, paused, does not walk the other games' objects again and again meanwhile)
        with no_cycle_collection():
            self.checked: GameCheck = GameCheck(text, path, previous=previous.checked if previous is not None else None)
            self.diagnostics: list[Diagnostic] = self.checked.diagnostics
        self._viewed: GameCheck | None = None
        # The replay with views that the first answer to need one resumes from: the previous game's (or the one
        # it would have resumed from, when no answer needed it).
        self._viewed_from: GameCheck | None = None if previous is None else previous._viewed or previous._viewed_from

    @property
    def result(self) -> ReplayResult:
        """The replay with what a hover shows of each trick (its views), made when an answer first needs it: the
        diagnostics alone need none of it, and a keystroke costs half as much."""
        if self._viewed is None:
            self._viewed = GameCheck(self.text, self.path, views=True, previous=self._viewed_from)
            self._viewed_from = None
        return self._viewed.result

    # --- where a line is

    def game_at(self, line: int) -> GameResult | None:
        """The replayed game a 1-based line belongs to."""
        found = None
        for game in self.result.games:
            if game._line <= line:
                found = game
        return found

    def deal_at(self, line: int) -> DealResult | None:
        game = self.game_at(line)
        found = None
        if game is not None:
            for deal in game.deals:
                if deal._line <= line:
                    found = deal
        return found

    def trick_at(self, line: int) -> tuple[DealResult, TrickResult] | None:
        """The trick whose statements hold a 1-based line (from its ``trick`` line to the next)."""
        deal = self.deal_at(line)
        if deal is None:
            return None
        found = None
        for trick in deal.tricks:
            if trick.line <= line:
                found = trick
        return (deal, found) if found is not None else None

    # --- hover

    def hover(self, line: int, column: int) -> str | None:
        """Markdown for a 0-based position: a card's name, a meld kind's rule, or the moment before a trick."""
        if not 0 <= line < len(self.lines):
            return None
        text = self.lines[line]
        kind = _KIND_AFTER.match(text)
        if kind is not None and kind.start(1) <= column < kind.end(1):
            return self.kind_hover(line + 1, kind[1])
        card = _card_at(text, column)
        if card is not None:
            value = card[2]
            if isinstance(value, Card):
                named = f"**{value.glyph}** {value.english}"
                if _TRICK_LINE.match(text) is None:
                    return named
                return named + "\n\n" + (self.trick_hover(line + 1) or "")
            return f"**{value}** an unknown card ({self.unknown_hover(line + 1, card[0] + 1) or 'not completed'})"
        if _TRICK_LINE.match(text):
            return self.trick_hover(line + 1)
        return None

    def kind_hover(self, line: int, kind: str) -> str | None:
        game = self.game_at(line)
        if game is None:
            return None
        profile = game.profile
        spec = profile.meld(kind)
        if spec is not None:
            cards = f"; cards: {_cards(spec.cards)}" if spec.cards else ""
            return (
                f"**{spec.label}** (`{spec.kind}`): {spec.points} points, re-use class {spec.klass}{cards} "
                f"(profile `{profile.name}`; `bezique rules {profile.name}`)"
            )
        penalty = dict(profile.penalties).get(kind)
        if penalty is not None:
            return f"**penalty** `{kind}`: {penalty} (profile `{profile.name}`)"
        return f"`{kind}`: not a meld kind of the `{profile.name}` profile (`bezique rules {profile.name}` lists them)"

    def trick_hover(self, line: int) -> str | None:
        """Before a trick: each seat's hand and table, the scores, the stock, and what each seat has not seen."""
        found = self.trick_at(line)
        game = self.game_at(line)
        if found is None or game is None:
            return None
        deal, trick = found
        before = trick.before
        played: Counter[Card] = Counter()
        for earlier in deal.tricks:
            if earlier is trick:
                break
            played.update(card for _, card in earlier.plays)
        tabled: Counter[Card] = Counter()
        for cards in before.tables.values():
            tabled.update(cards)
        pack = _pack(game.profile)
        rows = [f"**Trick {trick.n}**, led by {trick.leader} (phase {trick.phase}); before it:", ""]
        for seat, hand in before.hands.items():
            unseen = pack - Counter(hand) - tabled - played
            if before.turnup is not None:
                unseen -= Counter([before.turnup])
            table = before.tables.get(seat) or []
            rows.append(
                f"- {seat}: hand {_cards(hand)}; table {_cards(table)}; score {before.scores.get(seat, 0)}; "
                f"not seen by {seat}: {len(list(unseen.elements()))} cards ({_cards(unseen.elements())})"
            )
        rows.append(f"- stock: {before.stock} card(s); turn-up {before.turnup.glyph if before.turnup else '—'}")
        scores = ", ".join(f"{s} {v}" for s, v in before.scores.items())
        rows.append(f"- scores: {scores}")
        return "\n".join(rows)

    def unknown_hover(self, line: int, column: int) -> str | None:
        value = self.completion_of(line, column)
        return None if value is None else f"completed as {value.glyph}"

    # --- the inference's completion of an unknown card

    def completion_of(self, line: int, column: int) -> Card | None:
        """The card the inference put for the unknown card written at a 1-based line and column."""
        deal = self.deal_at(line)
        inference = deal.inference if deal is not None else None
        if inference is None or inference.deal is None:
            return None
        for unknown in inference.unknowns:
            span = unknown.span
            if span is not None and span.line == line and span.column == column:
                value = inference.values.get(unknown.tag)
                return value if isinstance(value, Card) else None
        return None

    # --- go to definition

    def definition(self, line: int, column: int) -> tuple[Path, int] | None:
        """From a meld kind (0-based position) to its entry in the profile's YAML: (file, 0-based line)."""
        if not 0 <= line < len(self.lines):
            return None
        kind = _KIND_AFTER.match(self.lines[line])
        game = self.game_at(line + 1)
        if kind is None or game is None or not kind.start(1) <= column <= kind.end(1):
            return None
        from .profiles import _profile_folder

        path = _profile_folder() / f"{game.profile.name}.yaml"
        try:
            lines = path.read_text(encoding="utf-8").split("\n")
        except OSError:
            return None
        wanted = re.compile(rf"^\s*(?:-\s*kind:\s*{kind[1]}\s*$|{kind[1]}\s*:)")
        for number, text in enumerate(lines):
            if wanted.match(text):
                return path, number
        return None

    # --- code actions

    def actions(self, first: int, last: int) -> list[Action]:
        """The code actions for the 0-based lines ``first`` to ``last``: every stated number the rules contradict,
        set to what they give; every unknown card, completed as the inference completes it."""
        found: list[Action] = []
        for diag in self.diagnostics:
            span = diag.span
            if span is None or not first <= span.line - 1 <= last:
                continue
            gives = _GIVES.search(diag.message)
            if gives is not None and diag.code in ("BZ501", "BZ502", "BZ503", "BZ504"):
                start = span.column - 1
                found.append(
                    Action(
                        f"Set the stated score to what the rules give ({gives[1]})",
                        span.line - 1,
                        start,
                        start + span.length,
                        gives[1],
                    )
                )
        for line in range(max(first, 0), min(last, len(self.lines) - 1) + 1):
            text = self.lines[line]
            for word in _WORD.finditer(text):
                if "?" not in word[0]:
                    continue
                value = self.completion_of(line + 1, word.start() + 1)
                if value is not None:
                    found.append(
                        Action(f"Complete this unknown card as {value}", line, word.start(), word.end(), str(value))
                    )
        return found

    # --- completion

    def legal_cards(self, line: int, column: int) -> list[Card]:
        """The cards the player to move may legally play, for a trick being written at a 0-based position: the
        record up to that line is replayed, and the plays already written on the line are played."""
        if not 0 <= line < len(self.lines):
            return []
        prefix = self.lines[line][:column]
        head = _TRICK_LINE.match(prefix)
        if head is None:
            return []
        before = "\n".join(self.lines[:line]) + "\n"
        # The state before the line is all it needs: not the forced draws left out (their analysis is long), nor a
        # completion of unknown cards that takes long (a deal cut short at the line rejects candidate after
        # candidate: 26 s in the fuzz campaign), which leaves no cards to offer.
        _, result = check_text_record(
            before, self.path, analyse=False, views=True, left_out=False, time_limit=LEGAL_CARDS_TIME
        )
        if not result.games or not result.games[-1].deals:
            return []
        state = result.games[-1].deals[-1]._state
        if state is None or state.finished:
            return []
        rules = state.rules
        state = state.copy()
        rest = prefix[head.end() :]
        typed = []
        for part in re.split(r"[,/]", rest):
            play = _PLAY.search(part.split("}")[-1])
            if play is None:
                continue
            try:
                card = parse_card_like(play[2].strip())
            except CardParseError:
                continue
            if isinstance(card, Card):
                seat = play[1].upper()
                typed.append((SEAT_ALIASES.get(seat, seat), card))
        order = rules.order[state.leader]
        for seat, card in typed:
            index = rules.seat_index.get(seat)
            if index is None:
                return []
            state.play(index, card.index)
            state.breaches.clear()
        if len(typed) >= len(order):
            return []
        mover = order[len(typed)]
        return sorted((CARDS[c] for c in state.legal_plays(mover)), key=lambda c: c.sort_key)


def _range(types: Any, start: tuple[int, int], end: tuple[int, int]) -> Any:
    return types.Range(
        start=types.Position(line=start[0], character=start[1]), end=types.Position(line=end[0], character=end[1])
    )


def _lsp_diagnostic(types: Any, diag: Diagnostic, document: Document) -> Any:
    severity = types.DiagnosticSeverity.Warning if diag.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(
        range=_range(types, *document.span_range(diag)),
        message=diag.message,
        severity=severity,
        code=diag.code,
        source="bezique",
    )


LEGAL_CARDS_TIME = 1.0
"""Seconds the completion of a deal's unknown cards may take when the cards to offer are worked out."""

DOCUMENT_REQUEST = "bezique/document"
"""The server's own request: ``{"uri": ...}`` answers the server's copy of that open document, ``{"text", "version",
"encoding"}`` (null when it is not open)."""

DEBOUNCE = 0.05
"""Seconds the server waits after a change before it validates: a burst of keystrokes is validated once."""


def build_server() -> Any:
    """The language server (pygls), its features registered.

    The server keeps its own copy of each open document (:class:`Document`), not pygls's workspace, whose lines
    break where ``str.splitlines`` breaks them (at a form feed or U+2028 in a comment, which the client does not
    count as a line break): an edit would then be applied to the wrong line."""
    import asyncio

    from lsprotocol import types
    from pygls.lsp.server import LanguageServer
    from pygls.protocol import LanguageServerProtocol
    from pygls.protocol.language_server import lsp_method
    from pygls.uris import to_fs_path

    from . import __version__

    class Protocol(LanguageServerProtocol):
        """pygls's protocol with the documents' synchronisation left to the server's own handlers, and UTF-8
        positions wherever the client offers them (pygls takes the client's first choice; UTF-16 otherwise)."""

        @lsp_method(types.INITIALIZE)
        def lsp_initialize(self, params: types.InitializeParams) -> Any:
            general = params.capabilities.general
            offered = list(general.position_encodings or []) if general is not None else []
            if general is not None and types.PositionEncodingKind.Utf8 in offered:
                offered.remove(types.PositionEncodingKind.Utf8)
                general.position_encodings = [types.PositionEncodingKind.Utf8, *offered]
            return (yield from super().lsp_initialize(params))

        @lsp_method(types.TEXT_DOCUMENT_DID_OPEN)
        def lsp_text_document__did_open(self, params: types.DidOpenTextDocumentParams) -> Any:
            if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_OPEN)) is not None:
                yield handler, (params,), None

        @lsp_method(types.TEXT_DOCUMENT_DID_CHANGE)
        def lsp_text_document__did_change(self, params: types.DidChangeTextDocumentParams) -> Any:
            if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CHANGE)) is not None:
                yield handler, (params,), None

        @lsp_method(types.TEXT_DOCUMENT_DID_CLOSE)
        def lsp_text_document__did_close(self, params: types.DidCloseTextDocumentParams) -> Any:
            if (handler := self.fm.features.get(types.TEXT_DOCUMENT_DID_CLOSE)) is not None:
                yield handler, (params,), None

    server = LanguageServer("bezique", __version__, protocol_cls=Protocol)
    documents: dict[str, Document] = {}
    benches: dict[str, Workbench] = {}
    caches: dict[str, dict[str, _Game]] = {}
    pending: dict[str, asyncio.Task[None]] = {}

    def encoding() -> str:
        chosen = server.workspace.position_encoding
        return str(getattr(chosen, "value", chosen) or "utf-16")

    def document(uri: str) -> Document:
        found = documents.get(uri)
        if found is None:  # (a request about a document the client did not open: read from the disk)
            path = to_fs_path(uri)
            text = Path(path).read_text(encoding="utf-8") if path else ""
            found = documents[uri] = Document(text, None, encoding())
        return found

    def bench(uri: str) -> Workbench:
        """The document's workbench, its games not yet replayed replayed now (a request wants an answer)."""
        text = document(uri).text
        found = benches.get(uri)
        if found is None or found.text != text:
            found = benches[uri] = Workbench(text, to_fs_path(uri) or uri, caches.setdefault(uri, {}))
        return found

    def publish(uri: str) -> None:
        doc = documents.get(uri)
        if doc is None:
            return
        try:
            diagnostics = [_lsp_diagnostic(types, d, doc) for d in bench(uri).diagnostics]
        except Exception as exc:  # a bug must not take the editor's server down: it is shown as a diagnostic
            diagnostics = [
                types.Diagnostic(
                    range=_range(types, (0, 0), doc.position(1)),
                    message=f"bezique: internal error: {type(exc).__name__}: {exc}",
                    severity=types.DiagnosticSeverity.Error,
                    source="bezique",
                )
            ]
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics, version=doc.version)
        )

    async def publish_later(uri: str) -> None:
        """Validate after a pause, a game at a time, the editor's messages read between games: a change cancels
        this (the games replayed so far stay in the cache) and schedules the validation of the new text."""
        await asyncio.sleep(DEBOUNCE)
        doc = documents.get(uri)
        if doc is None:
            return
        work = benches.get(uri)
        if work is None or work.text != doc.text:
            work = Workbench(doc.text, to_fs_path(uri) or uri, caches.setdefault(uri, {}), build=False)
            for _ in work.steps():
                await asyncio.sleep(0)
            benches[uri] = work
        pending.pop(uri, None)
        publish(uri)

    def schedule(uri: str) -> None:
        """Validate after a pause in the changes: a change cancels the validation still waiting."""
        waiting = pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        pending[uri] = asyncio.ensure_future(publish_later(uri))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: types.DidOpenTextDocumentParams) -> None:
        item = params.text_document
        documents[item.uri] = Document(item.text, item.version, encoding())
        publish(item.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = document(uri)
        for change in params.content_changes:
            if isinstance(change, types.TextDocumentContentChangePartial):
                start, end = change.range.start, change.range.end
                doc.change(change.text, (start.line, start.character), (end.line, end.character))
            else:
                doc.change(change.text)
        doc.version = params.text_document.version
        schedule(uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Any, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        waiting = pending.pop(uri, None)
        if waiting is not None:
            waiting.cancel()
        documents.pop(uri, None)
        benches.pop(uri, None)
        caches.pop(uri, None)
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    def reader_position(uri: str, position: types.Position) -> tuple[int, int]:
        return document(uri).to_reader(position.line, position.character)

    @server.feature(DOCUMENT_REQUEST)
    def server_copy(ls: Any, params: Any) -> dict[str, Any] | None:
        """The server's copy of a document (its text and version): what an edit was applied to, for a client (or
        a test) to compare with its own."""
        uri = params.uri if hasattr(params, "uri") else params["uri"]
        doc = documents.get(uri)
        return None if doc is None else {"text": doc.text, "version": doc.version, "encoding": doc.encoding}

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: Any, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        answer = _safe(lambda: bench(uri).hover(*reader_position(uri, params.position)))
        if not answer:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=answer))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: Any, params: types.DefinitionParams) -> types.Location | None:
        uri = params.text_document.uri
        found = _safe(lambda: bench(uri).definition(*reader_position(uri, params.position)))
        if not found:
            return None
        path, line = found
        return types.Location(uri=path.as_uri(), range=_range(types, (line, 0), (line, 0)))

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: Any, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        uri = params.text_document.uri
        doc = document(uri)
        canonical = _safe(lambda: bench(uri).formatted())
        if canonical is None or canonical == doc.text:
            return [] if canonical is not None else None
        return [types.TextEdit(range=_range(types, (0, 0), doc.end()), new_text=canonical)]

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: Any, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        doc = document(uri)
        first = reader_position(uri, params.range.start)[0]
        last = reader_position(uri, params.range.end)[0]
        found = _safe(lambda: bench(uri).actions(first, last)) or []
        return [
            types.CodeAction(
                title=action.title,
                kind=types.CodeActionKind.QuickFix,
                edit=types.WorkspaceEdit(
                    changes={
                        uri: [
                            types.TextEdit(
                                range=_range(
                                    types,
                                    doc.from_reader(action.line, action.start),
                                    doc.from_reader(action.line, action.end),
                                ),
                                new_text=action.new,
                            )
                        ]
                    }
                ),
            )
            for action in found
        ]

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ","]))
    def completion(ls: Any, params: types.CompletionParams) -> types.CompletionList:
        uri = params.text_document.uri
        cards = _safe(lambda: bench(uri).legal_cards(*reader_position(uri, params.position)))
        items = [
            types.CompletionItem(label=str(card), detail=card.english, kind=types.CompletionItemKind.Value)
            for card in cards or []
        ]
        return types.CompletionList(is_incomplete=False, items=items)

    return server


def _safe(answer: Any) -> Any:
    """An answer of the workbench, or None where it fails: a request never takes the server down."""
    try:
        return answer()
    except Exception:  # (reported through the diagnostics of the document, where it fails too)
        return None


def main() -> int:
    """``bezique lsp``: serve over stdio; exit 2, saying how to install them, when the dependencies are missing."""
    import sys

    absent = missing()
    if absent:
        print(
            f"bezique lsp needs {' and '.join(absent)}: install the editor extra, "
            f"pip install 'bezique-replayer[{EXTRA}]' (from a checkout: pip install '.[{EXTRA}]')",
            file=sys.stderr,
        )
        return 2
    build_server().start_io()
    return 0
