"""The language server, ``bezique lsp``: the replayer in the transcriber's editor, over stdio.

On every change the server reads and replays the record as ``bezique validate`` does (:func:`check_text_record`,
every error in one pass) and publishes the same codes, positions and messages. It answers hovers (a card's name; a
trick's hands, tables, scores and each seat's unseen cards before it; a meld kind's rule from the profile), goes
from a meld kind to its entry in the profile's YAML, formats through ``bezique fmt``, offers code actions (an
unknown card completed as the inference completes it; a stated number set to what the rules give) and completes
the cards that the player to move may legally play.

What the server answers is worked out by the functions of :class:`Workbench` from the text alone, without pygls,
which only the server itself (:func:`build_server`) imports: pygls and lsprotocol come with the ``editor`` extra
(``pip install 'bezique-replayer[editor]'``); :func:`missing` says which are missing. Positions: the protocol's
lines and characters count from 0; the replayer's from 1. A character is counted as one code point: every
character of the notation (the suit symbols, Cyrillic) is one UTF-16 unit as well.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .cards import CARDS, Card, CardParseError, CardPattern, Suit, parse_card_like
from .check import check_text_record
from .errors import Diagnostic, NotationError
from .reader import SEAT_ALIASES

if TYPE_CHECKING:
    from .record import Record
    from .replay import DealResult, GameResult, ReplayResult, TrickResult

__all__ = ["Action", "Workbench", "build_server", "main", "missing"]

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


class Workbench:
    """A record's text read and replayed once, and every answer the server gives about it."""

    def __init__(self, text: str, path: str = "<record>") -> None:
        self.text = text
        self.path = path
        self.lines = text.split("\n")
        record, result = check_text_record(text, path, analyse=False, views=True)
        self.record: Record | None = record
        self.result: ReplayResult = result

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """The diagnostics ``bezique validate`` reports for the text."""
        return self.result.diagnostics

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

    # --- formatting

    def formatted(self) -> str | None:
        """The canonical form (``bezique fmt``); None when the record does not read (nothing is changed)."""
        from .fmt import FormatCheckError, format_text

        try:
            return format_text(self.text, self.path)
        except (NotationError, FormatCheckError):
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
        for line in range(first, min(last, len(self.lines) - 1) + 1):
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
        _, result = check_text_record(before, self.path, analyse=False, views=True)
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


def _range(types: Any, line: int, start: int, end: int) -> Any:
    return types.Range(start=types.Position(line=line, character=start), end=types.Position(line=line, character=end))


def _lsp_diagnostic(types: Any, diag: Diagnostic) -> Any:
    span = diag.span
    line = span.line - 1 if span is not None else 0
    start = span.column - 1 if span is not None else 0
    length = span.length if span is not None else 1
    severity = types.DiagnosticSeverity.Warning if diag.severity == "warning" else types.DiagnosticSeverity.Error
    return types.Diagnostic(
        range=_range(types, line, start, start + max(1, length)),
        message=diag.message,
        severity=severity,
        code=diag.code,
        source="bezique",
    )


def build_server() -> Any:
    """The language server (pygls), its features registered."""
    from lsprotocol import types
    from pygls.lsp.server import LanguageServer

    from . import __version__

    server = LanguageServer("bezique", __version__)
    benches: dict[str, Workbench] = {}

    def bench(uri: str) -> Workbench:
        document = server.workspace.get_text_document(uri)
        found = benches.get(uri)
        if found is None or found.text != document.source:
            path = document.path or uri
            found = benches[uri] = Workbench(document.source, path)
        return found

    def publish(uri: str) -> None:
        try:
            diagnostics = [_lsp_diagnostic(types, d) for d in bench(uri).diagnostics]
        except Exception as exc:  # a bug must not take the editor's server down: it is shown as a diagnostic
            diagnostics = [
                types.Diagnostic(
                    range=_range(types, 0, 0, 1),
                    message=f"bezique: internal error: {type(exc).__name__}: {exc}",
                    severity=types.DiagnosticSeverity.Error,
                    source="bezique",
                )
            ]
        server.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=diagnostics))

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Any, params: types.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Any, params: types.DidChangeTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Any, params: types.DidCloseTextDocumentParams) -> None:
        benches.pop(params.text_document.uri, None)
        server.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=params.text_document.uri, diagnostics=[])
        )

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: Any, params: types.HoverParams) -> types.Hover | None:
        answer = _safe(lambda: bench(params.text_document.uri).hover(params.position.line, params.position.character))
        if not answer:
            return None
        return types.Hover(contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value=answer))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    def definition(ls: Any, params: types.DefinitionParams) -> types.Location | None:
        found = _safe(
            lambda: bench(params.text_document.uri).definition(params.position.line, params.position.character)
        )
        if not found:
            return None
        path, line = found
        return types.Location(uri=path.as_uri(), range=_range(types, line, 0, 0))

    @server.feature(types.TEXT_DOCUMENT_FORMATTING)
    def formatting(ls: Any, params: types.DocumentFormattingParams) -> list[types.TextEdit] | None:
        work = bench(params.text_document.uri)
        canonical = _safe(work.formatted)
        if canonical is None or canonical == work.text:
            return [] if canonical is not None else None
        end = types.Position(line=len(work.lines), character=0)
        return [
            types.TextEdit(range=types.Range(start=types.Position(line=0, character=0), end=end), new_text=canonical)
        ]

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix]),
    )
    def code_action(ls: Any, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        found = _safe(lambda: bench(uri).actions(params.range.start.line, params.range.end.line)) or []
        return [
            types.CodeAction(
                title=action.title,
                kind=types.CodeActionKind.QuickFix,
                edit=types.WorkspaceEdit(
                    changes={
                        uri: [
                            types.TextEdit(
                                range=_range(types, action.line, action.start, action.end), new_text=action.new
                            )
                        ]
                    }
                ),
            )
            for action in found
        ]

    @server.feature(types.TEXT_DOCUMENT_COMPLETION, types.CompletionOptions(trigger_characters=[" ", ","]))
    def completion(ls: Any, params: types.CompletionParams) -> types.CompletionList:
        cards = _safe(
            lambda: bench(params.text_document.uri).legal_cards(params.position.line, params.position.character)
        )
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
