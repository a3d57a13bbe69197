"""The canonical form of a record, as ``bezique fmt`` prints it (docs/notation.md, "Canonical form").

The formatter re-writes a record statement by statement, in the order written, so every header, comment and
question stays where it was; only spellings, spacing and indentation change:

- keywords are lower-case English (``взятка`` becomes ``trick``, ``turn-up`` becomes ``turnup``), seats are
  letters (``North`` becomes ``N``) and cards are printed as ``str(card)`` (``Д пики`` becomes ``QS``);
- tokens are separated by one space, lists by ``", "``, ``=`` has a space on each side except in options;
- trick items (exchanges, declarations, shows, claimed scores, draws, running scores) are indented 2 spaces,
  every other statement starts at column 1;
- a comment standing on its own line is indented 2 when it follows a statement directly, and starts at column 1
  at the top of the file, after a blank line, after ``game`` or ``deal``, or after a comment at column 1;
- comments and questions keep their words and the author's line breaks; each of their lines is re-spaced
  (one space between words), a line longer than :data:`WIDTH` is wrapped, and continuation lines are indented
  2 more than the comment (4 more than the statement for a comment or question written inside a statement line);
  a comment of one line that holds a ``{`` is not wrapped (over two lines it would read as one left open);
- runs of blank lines become one blank line; there is none at the start or the end, and the file ends with one
  newline.

Only a record that parses is formatted; :func:`format_text` raises :class:`~replayer.errors.NotationError`
otherwise. The result parses to the same games, deals, tricks, comments and questions (so it replays to the same
events), and formatting it again changes nothing.
"""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass
from typing import Any

from . import cards
from . import writer as write
from .cards import Card, CardLike, parse_suit
from .errors import BeziqueError, NotationError, Span

# The formatter reads the reader's statements and tokens (and its card reader), so that it formats exactly what the
# reader accepts.
from .reader import SEAT_ALIASES, Statement, Token, read_record, statements
from .record import Record

__all__ = ["WIDTH", "FormatCheckError", "format_text", "record_shape"]

WIDTH = 120
"""Comment and question lines are wrapped to this many characters (statements themselves are never wrapped)."""

_ITEM_INDENT = 2
"""Indentation of the statements that belong to a trick."""

_TRICK_ITEMS = frozenset(
    (
        "exchange_stmt",
        "declare_stmt",
        "show_stmt",
        "pass_stmt",
        "claim_stmt",
        "out_stmt",
        "penalty_stmt",
        "claim_game_stmt",
        "forfeit_stmt",
        "draws_stmt",
        "score_stmt",
    ),
)

_KEYWORDS = {
    "GAME": "game",
    "DEAL": "deal",
    "TRICK": "trick",
    "PLAYERS": "players",
    "PROFILE": "profile",
    "OPTIONS": "options",
    "TARGET": "target",
    "DEALER": "dealer",
    "LEADER": "leader",
    "TRUMP": "trump",
    "TURNUP": "turnup",
    "HAND": "hand",
    "STOCK": "stock",
    "CUT": "cut",
    "GUESS": "guess",
    "POSITION": "position",
    "TABLE": "table",
    "EXCHANGES": "exchanges",
    "DECLARES": "declares",
    "SHOWS": "shows",
    "SCORES": "scores",
    "GOES_OUT": "goes out",
    "PENALTY": "penalty",
    "DRAWS": "draws",
    "SCORE": "score",
    "BRISQUES": "brisques",
    "RESULT": "result",
    "TOTAL": "total",
    "WINNER": "winner",
    "PASSES": "passes",
    "TO": "to",
    "WITH": "with",
    "CLAIMS": "claims",
    "FORFEITS": "forfeits",
    "REDEAL": "redeal",
}


class FormatCheckError(BeziqueError):
    """The canonical form would not read back as the same record: a bug in the formatter, never written out."""


def format_text(text: str, path: str = "<record>") -> str:
    """The canonical form of a record; raises :class:`~replayer.errors.NotationError` when it does not parse.

    The result is checked before it is returned: it must read back as the same record (every game, header, deal,
    trick, statement, comment and question; only positions may differ). If it does not, that is a bug in the
    formatter and :class:`FormatCheckError` is raised, so that a file is never rewritten into something else.
    """
    before = read_record(text, path, whole=False)  # only a record that reads (syntax and structure) is formatted
    if text.startswith("\ufeff"):
        text = text[1:]
    canonical = _Formatter(path, text).run(statements(text))
    try:
        after = read_record(canonical, path, whole=False)
    except NotationError as exc:
        raise FormatCheckError(
            f"{path}: the canonical form does not parse ({exc}); the record is left as it is"
        ) from None
    if record_shape(after) != record_shape(before):
        raise FormatCheckError(f"{path}: the canonical form reads as a different record; the record is left as it is")
    return canonical


def record_shape(value: Any) -> Any:
    """A record (or any part of it) as nested tuples without positions, to compare two readings of a record."""
    if isinstance(value, Span):
        return None
    if isinstance(value, Record):
        return record_shape(value.games)
    if isinstance(value, enum.Enum):
        return value.value
    if type(value).__module__ == cards.__name__:  # a card, known or not (``Q?``): compared as printed
        return str(value)
    names = _fields(value)
    if names is not None:
        fields = [name for name in names if not _is_positions(getattr(value, name))]
        return (type(value).__name__, *((name, record_shape(getattr(value, name))) for name in fields))
    if isinstance(value, dict):
        return tuple((k, record_shape(v)) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return tuple(record_shape(v) for v in value)
    return value


def _fields(value: Any) -> tuple[str, ...] | None:
    """The fields of a record's part (replayer/record.py lists them in ``__match_args__``) or of a dataclass."""
    if type(value).__module__ == _record_module:
        return tuple(type(value).__match_args__)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return tuple(f.name for f in dataclasses.fields(value))
    return None


_record_module = Record.__module__


def _is_positions(value: Any) -> bool:
    """True for a position or a collection of positions (``card_spans``, ``option_spans``, ...)."""
    if isinstance(value, Span):
        return True
    if isinstance(value, dict):
        value = list(value.values())
    return isinstance(value, list) and bool(value) and all(isinstance(v, Span) for v in value)


# --- layout ---------------------------------------------------------------------------------------------------


@dataclass
class _Braced:
    """A comment or question: its opening (``{`` or ``{?``) and its lines of words (the closing ``}`` is added)."""

    opening: str
    rows: list[list[str]]


def _rows(body: str) -> list[list[str]]:
    """The words of each line of a comment's body; runs of empty lines become one."""
    rows: list[list[str]] = []
    for line in body.split("\n"):
        words = line.split()
        if not words and rows and not rows[-1]:
            continue
        rows.append(words)
    return rows


def _emit(cur: str, unit: str, indent: int, out: list[str]) -> str:
    """Append a word to the current line, or start a continuation line when it would pass :data:`WIDTH`."""
    if cur.strip() and len(cur) + 1 + len(unit) > WIDTH:
        out.append(cur.rstrip())
        return " " * indent + unit
    return f"{cur} {unit}"


def _render_braced(piece: _Braced, cur: str, out: list[str], cont: int, close: int) -> str:
    """Lay out a comment or question from the current line on; returns the (unfinished) last line."""
    rows = [list(r) for r in piece.rows] or [[]]
    if not any(rows):
        return cur + piece.opening + " }"
    # The opening brace and the first word, and the last word and the closing brace, are never separated: a
    # line break before a comment would end the statement it belongs to.
    if rows[0]:
        rows[0][0] = f"{piece.opening} {rows[0][0]}"
    else:
        rows[0] = [piece.opening]
    if rows[-1]:
        rows[-1][-1] += " }"
    else:
        rows[-1] = ["}"]
    last = len(rows) - 1
    # A comment of one line with a "{" in its words stays on one line: spread over two, the reader would take that
    # "{" for a comment left open that runs on over the statements (BZ004, replayer/reader.py _suspect_comment).
    wraps = last > 0 or "{" not in " ".join(rows[0])[len(piece.opening) :]
    for index, row in enumerate(rows):
        if index == 0:
            cur += row[0]
        else:
            out.append(cur.rstrip())
            if not row:
                cur = ""
                continue
            cur = " " * (close if index == last and row == ["}"] else cont) + row[0]
        for unit in row[1:]:
            cur = _emit(cur, unit, cont, out) if wraps else f"{cur} {unit}"
    return cur


def _layout(indent: int, pieces: list[str | _Braced], cont: int) -> list[str]:
    """The output lines of one statement: text pieces (with their leading separators) and comments."""
    out: list[str] = []
    cur = " " * indent
    for piece in pieces:
        if isinstance(piece, str):
            cur += piece
        else:
            cur = _render_braced(piece, cur, out, cont, indent)
    out.append(cur.rstrip())
    return out


# --- statements -----------------------------------------------------------------------------------------------

# The statements whose number, if any, is the points after "=" (their ``points`` rule).
_WITH_POINTS = frozenset(
    ("exchange_stmt", "declare_stmt", "claim_stmt", "out_stmt", "penalty_stmt", "forfeit_stmt"),
)


def _item(text: str) -> str:
    """A trick item as the writer spells it, its indentation left to the layout (which nests variations)."""
    return text.removeprefix(write.ITEM)


def _after_with(words: list[Token], token: Token) -> bool:
    """Whether ``token`` stands after a declaration's ``with`` (a partner's card)."""
    return any(t.type == "WITH" and t.pos < token.pos for t in words)


class _Formatter:
    """Formats a record statement by statement, from the reader's tokens."""

    def __init__(self, path: str, text: str) -> None:
        self.path = path
        self.text = text

    def run(self, read: list[Statement]) -> str:
        out: list[str] = []
        previous: str | None = None
        previous_end = 0
        previous_indent = 0
        depth = 0  # variations open: their statements are indented 2 more per level
        for stmt in read:
            tokens = stmt.tokens()
            start = tokens[0].line
            blank = bool(out) and start - previous_end > 1
            if blank:
                out.append("")
            kind = stmt.rule
            if kind in _TRICK_ITEMS:
                indent = _ITEM_INDENT
            elif kind == "comment_stmt":
                at_margin = (
                    previous is None
                    or blank
                    or previous in ("game_stmt", "deal_stmt")
                    or (previous == "comment_stmt" and previous_indent == 0)
                )
                indent = 0 if at_margin else _ITEM_INDENT
            else:
                indent = 0
            if kind == "variation_end_stmt":
                depth = max(depth - 1, 0)
            if kind in ("variation_stmt", "variation_end_stmt"):
                indent = _ITEM_INDENT
            indent += 2 * depth
            if kind == "variation_stmt":
                depth += 1
            if kind == "comment_stmt":
                pieces: list[str | _Braced] = []
                for i, comment in enumerate(self.comments(tokens)):
                    pieces.extend(["  ", comment] if i else [comment])
                out.extend(_layout(indent, pieces, indent + 2))
            else:
                out.extend(_layout(indent, self.statement(kind, tokens), indent + 4))
            previous, previous_end, previous_indent = kind, tokens[-1].end_line, indent
        return "\n".join(out) + "\n" if out else ""

    # --- tokens

    def card(self, token: Token) -> str:
        return str(self.card_like(token))

    def card_like(self, token: Token) -> CardLike:
        return cards.parse_card_like(token.text)

    def seat(self, token: Token) -> str:
        raw = token.text
        return SEAT_ALIASES.get(raw.upper(), raw.upper())

    def word(self, token: Token) -> str:
        """One token in its canonical spelling."""
        kind = token.type
        if kind in _KEYWORDS:
            return _KEYWORDS[kind]
        if kind == "SEAT":
            return self.seat(token)
        if kind == "SIDE":
            return token.text.upper()
        if kind == "CARD":
            return self.card(token)
        if kind == "SUIT":
            return parse_suit(token.text).value
        if kind in ("INT", "SCORE_INT"):
            return str(int(token.text))
        if kind == "TEXT_KEY":
            return token.text.lower()
        return token.text

    def comments(self, tokens: list[Token]) -> list[_Braced]:
        return [_Braced("{", _rows(t.text[1:-1])) for t in tokens if t.type == "COMMENT"]

    def question(self, token: Token) -> _Braced:
        body = token.text[2:-1]
        suffix: list[str] = []
        if "|" in body:
            body, _, accepted = body.rpartition("|")
            suffix = ["|", *(str(Card.parse(w)) for w in accepted.replace(",", " ").split())]
        rows = _rows(body)
        rows[-1].extend(suffix)
        return _Braced("{?", rows)

    # --- statements

    def statement(self, kind: str, tokens: list[Token]) -> list[str | _Braced]:
        """The pieces of one statement: its canonical text, then its comments."""
        handler = getattr(self, f"on_{kind}", None)
        words = [t for t in tokens if t.type != "COMMENT"]
        if handler is None:
            return [self.verbatim(tokens)]
        text: list[str | _Braced] = handler(kind, words)
        for comment in self.comments(tokens):
            text.extend(["  ", comment])
        return text

    def verbatim(self, tokens: list[Token]) -> str:
        """A statement the formatter does not know (the grammar grew): kept as written, comments and all."""
        return self.text[tokens[0].pos : tokens[-1].end]

    def plain(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        """A statement that is its words with single spaces (and ``=`` before points)."""
        result = []
        for token in words:
            if token.type == "INT" and kind in _WITH_POINTS:
                result.append("=")
            result.append(self.word(token))
        return [write.words(result)]

    def points(self, words: list[Token]) -> int | None:
        """A statement's points (after ``=``): its last number, if any."""
        return int(words[-1].text) if words and words[-1].type == "INT" else None

    def on_exchange_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        seat, _, card = words[:3]
        return [_item(write.exchange(self.seat(seat), self.card_like(card), self.points(words)))]

    def on_declare_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        """``N declares marriage KS QS with S ... = 20``: the kind, the partner's part and the points may be absent."""
        seat = self.seat(words[0])
        kinds = [t.text for t in words[2:] if t.type == "KIND"]
        partner = next((self.seat(t) for t in words[2:] if t.type == "SEAT"), None)
        own: list[CardLike] = []
        theirs: list[CardLike] = []
        for token in words[2:]:
            if token.type == "CARD":
                (theirs if _after_with(words, token) else own).append(self.card_like(token))
        text = write.declare(seat, kinds[0] if kinds else None, own, self.points(words), partner, theirs)
        return [_item(text)]

    def on_show_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        kinds = [t.text for t in words[2:] if t.type == "KIND"]
        shown = [self.card_like(t) for t in words[2:] if t.type == "CARD"]
        return [_item(write.show(self.seat(words[0]), kinds[0] if kinds else None, shown))]

    def on_pass_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        return [_item(write.passes(self.seat(words[0]), self.seat(words[-1])))]

    def on_out_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        return [_item(write.goes_out(self.seat(words[0]), self.points(words)))]

    on_game_stmt = plain
    on_deal_stmt = plain
    on_claim_stmt = plain
    on_penalty_stmt = plain
    on_variation_stmt = plain
    on_variation_end_stmt = plain
    on_claim_game_stmt = plain
    on_forfeit_stmt = plain
    on_redeal_stmt = plain
    on_winner_stmt = plain

    def header(self, words: list[Token], values: list[str]) -> list[str | _Braced]:
        return [write.header(self.word(words[0]), *values)]

    def simple_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        return self.header(words, [self.word(t) for t in words[1:]])

    on_profile_header = simple_header
    on_target_header = simple_header
    on_dealer_header = simple_header
    on_leader_header = simple_header
    on_trump_header = simple_header
    on_turnup_header = simple_header
    on_stock_header = simple_header
    on_cut_header = simple_header
    on_guess_header = simple_header

    def on_text_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        return self.header(words, [t.text.strip() for t in words[1:] if t.text.strip()])

    def on_players_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        players: list[str] = []
        for token in words[1:]:
            if token.type == "SEAT":
                players.append(self.seat(token))
            else:  # the player's name, after his seat
                players[-1] += " " + token.text
        return self.header(words, [", ".join(players)])

    def on_options_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        values = words[1:]
        return [write.options([(name.text, value.text) for name, value in zip(values[::2], values[1::2], strict=True)])]

    def on_position_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        """``position: trick 12, stock 9, N 120, S 80``: the trick, the stock and each score, comma-separated."""
        pairs = [(self.word(a), int(b.text)) for a, b in zip(words[1::2], words[2::2], strict=True)]
        stock = pairs[1][1] if len(pairs) > 1 and pairs[1][0] == "stock" else None
        return [write.position(pairs[0][1], stock, pairs[2 if stock is not None else 1 :])]

    def on_table_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        _, seat, meld, *cards = words
        return [write.table(self.seat(seat), meld.text, [self.card_like(c) for c in cards])]

    def on_hand_header(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        _, seat, *cards = words
        return [write.hand(self.seat(seat), [self.card_like(c) for c in cards])]

    def on_draws_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        rest = words[1:]
        drawn = [(self.seat(a), self.card_like(b)) for a, b in zip(rest[::2], rest[1::2], strict=True)]
        return [_item(write.draws(drawn))]

    def scores(self, keyword: str, words: list[Token]) -> list[str | _Braced]:
        """``score N 10, S 0`` and the like: seat (or side) and number pairs, in the order written."""
        values = [(self.word(a), int(b.text)) for a, b in zip(words[::2], words[1::2], strict=True)]
        return [write.scores(keyword, values)]

    def on_score_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        return self.scores(self.word(words[0]), words[1:])

    on_brisques_stmt = on_score_stmt
    on_result_stmt = on_score_stmt
    on_total_stmt = on_score_stmt

    def on_game_score_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        return self.scores("game score", words[2:])

    def on_trick_stmt(self, kind: str, words: list[Token]) -> list[str | _Braced]:
        separator = ", " if kind == "trick_stmt" else " / "  # unordered_trick: ``trick 25: N K? / S A?``
        plays: list[tuple[str, CardLike]] = []
        asked: list[list[str | _Braced]] = []  # the questions before each play
        questions: list[str | _Braced] = []
        winner = None
        for index in range(2, len(words)):
            token = words[index]
            if token.type == "QUESTION":  # before the play it asks about
                questions.extend([self.question(token), " "])
            elif token.type == "SEAT" and index + 1 < len(words) and words[index + 1].type == "CARD":
                plays.append((self.seat(token), self.card_like(words[index + 1])))
                asked.append(questions)
                questions = []
            elif token.type == "SEAT":
                winner = self.seat(token)
        head, played, tail = write.trick_parts(int(words[1].text), plays, winner)
        pieces: list[str | _Braced] = [head]
        for k, (play, before) in enumerate(zip(played, asked, strict=True)):
            pieces.append(separator if k else " ")
            pieces.extend(before)
            pieces.append(play)
        if tail:
            pieces.append(tail)
        return pieces

    on_unordered_trick = on_trick_stmt
