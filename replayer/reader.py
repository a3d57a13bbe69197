"""The reader: a record's text read into its statements and into the :class:`~replayer.record.Record` (games,
deals, tricks), with every syntax and structure problem reported.

grammar/bezique.lark is the one definition of the notation. Its statements are read here with the regular
expressions that ``python -m replayer.grammar_compiler`` makes from it (replayer/grammar_tables.py): one per
statement rule, matched where Lark's lexer and parser would read that statement, with a named group for each token
the statement's tree keeps and a region for each repeated part (read again, where needed, by that part's own
expression). A statement is read once, by this module, into one typed statement (replayer/record.py), so that
reading a valid record needs neither Lark nor the grammar file. Where no statement's expression matches, the text
has a syntax error: Lark parses it (:func:`replayer.notation.syntax_errors`), only to report its errors as it
always has. tests/test_reader.py checks, on the records of the project and on texts made from the grammar, that
this reader accepts exactly what Lark accepts, with the same statements and tokens.

The builder below groups the statements into games, deals and tricks and reports the statements out of place
(BZ101, BZ102, BZ107), the cards that do not read (BZ003) and the unknown tags of comments (BZ001). Each statement
rule has one builder. The commonest (the tricks, draws and scores, the scores at the end of a deal, the hands and
the declarations: _GROUPS) are built from their match: the tokens of their groups directly, their repeated parts
(more plays, draws, seats or cards, questions, partners' cards, comments) by their elements' expressions over
their regions. Most lines of a record are a trick of two plays, its two draws and the running score: the tables'
blocks read such lines with one match, whose groups are laid out for each statement as in the statement's own
expression, so that the same builder builds it. Every other statement is built from its tokens. While it builds a
deal, the builder notes what the replay would otherwise walk the deal again for (the seats it names, a seat that
plays twice to a trick, unknown cards: see :class:`~replayer.record.Deal`). :func:`statements` gives every
statement with its tokens, their lines and columns, for the formatter and the tests (which check the Records
built here against a reference built from those tokens).
"""

from __future__ import annotations

import re

from .cards import _CANONICAL, Card, CardLike, CardParseError, CardPattern, parse_card_like, parse_suit
from .collector import no_cycle_collection
from .errors import Diagnostic, NotationError, Span
from .grammar_tables import BLOCKS, DISPATCH, ELEMENTS, GRAMMAR_SHA256, LAYOUT, PRELUDE, STATEMENTS, TERMINALS
from .record import (
    Claim,
    ClaimGame,
    Comment,
    Deal,
    Declare,
    Draw,
    Draws,
    Exchange,
    Forfeit,
    Game,
    GoesOut,
    Item,
    Pass,
    Penalty,
    Play,
    Position,
    Question,
    Record,
    ScoreCheck,
    SeatValue,
    TableMeld,
    Trick,
    Variation,
    _made,
)
from .regex_cache import CachedPatterns

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator
    from pathlib import Path
    from typing import Any

__all__ = [
    "MAX_NESTING",
    "REPLAYABLE",
    "SEAT_ALIASES",
    "Recovered",
    "Statement",
    "Token",
    "read_file",
    "read_record",
    "read_record_recovering",
    "statements",
]

SEAT_ALIASES = {
    "NORTH": "N",
    "SOUTH": "S",
    "EAST": "E",
    "WEST": "W",
    "СЕВЕР": "N",
    "ЮГ": "S",
    "ВОСТОК": "E",
    "ЗАПАД": "W",
}
_SEATS = {"N": "N", "S": "S", "E": "E", "W": "W"}
# A seat spelt with one letter is that seat (SEAT's other spellings are words): a seat's text is in this string
# exactly when it is one letter. (_SEAT_LETTERS: the same, for a seat that may be missing, a side written instead.)
_LETTERS = "NSEW"
_SEAT_LETTERS = frozenset("NSEW")

Where = tuple[int, int, int] | tuple[int, int, tuple[int, int]] | tuple[int, int, re.Match[str], int]
"""A position as replayer/record.py takes it (it makes a Span of it when it is asked for)."""


# --- the expressions ------------------------------------------------------------------------------------------

_compiled: dict[str, re.Pattern[str]] = {}
_CACHE = CachedPatterns({**STATEMENTS, **ELEMENTS, **{f"block:{k}": v for k, v in BLOCKS.items()}}, GRAMMAR_SHA256)


def _pattern(key: str) -> re.Pattern[str]:
    """A statement's or an element's expression, compiled when first needed (a record uses few of them)."""
    pattern = _compiled.get(key)
    if pattern is None:
        pattern = _compiled[key] = _CACHE.get(key)
    return pattern


_PRELUDE = re.compile(PRELUDE)


def _scan(text: str) -> list[tuple[str, re.Match[str]]] | int:
    """Every statement of a text as (rule, match), in order; or, at a syntax error, the offset of the statement
    that no rule's expression matches."""
    found: list[tuple[str, re.Match[str]]] = []
    add = found.append
    pos = _PRELUDE.match(text).end()  # type: ignore[union-attr]
    end = len(text)
    dispatch = DISPATCH
    compiled = _compiled
    while pos < end:
        keys = dispatch.get(text[pos])
        if keys is None:
            return pos
        for key in keys:
            match = (compiled.get(key) or _pattern(key)).match(text, pos)
            if match is not None:
                add((key, match))
                pos = match.end()
                break
        else:
            return pos
    return found


# --- tokens ---------------------------------------------------------------------------------------------------


class Token:
    """A token of a statement: its terminal's name, its text, and where it is (1-based line and column of its
    first character; offsets in the text read). Not Lark's Token: the reader's own."""

    __slots__ = ("column", "end", "end_line", "line", "pos", "text", "type")

    def __init__(self, type_: str, text: str, line: int, column: int, pos: int, end_line: int) -> None:
        self.type = type_
        self.text = text
        self.line = line
        self.column = column
        self.pos = pos
        self.end = pos + len(text)
        self.end_line = end_line

    def __repr__(self) -> str:
        return f"Token({self.type!r}, {self.text!r}, {self.line}, {self.column})"


_layouts: dict[str, tuple[tuple[int, str, bool], ...]] = {}


def _layout(key: str) -> tuple[tuple[int, str, bool], ...]:
    """LAYOUT's entries of an expression with the numbers of their groups: (group, terminal or element, region)."""
    layout = _layouts.get(key)
    if layout is None:
        index = _pattern(key).groupindex
        layout = _layouts[key] = tuple((index[name], target, region) for name, target, region in LAYOUT[key])
    return layout


def _elements(key: str, match: re.Match[str], group: int) -> Iterator[re.Match[str]]:
    """The matches of the element ``key`` over the region that the group ``group`` of ``match`` holds, in order."""
    start, stop = match.span(group)
    element = _compiled.get(key) or _pattern(key)
    text = match.string
    while start < stop:
        part = element.match(text, start)
        assert part is not None, f"the element {key} does not read its region"
        yield part
        start = part.end()


def _raw_tokens(key: str, match: re.Match[str], text: str) -> list[tuple[str, str, int]]:
    """The tokens the tree of a statement (or of an element) keeps, in order: (terminal, text, offset)."""
    found: list[tuple[str, str, int]] = []
    regs = match.regs
    for group, target, region in _layout(key):
        start, stop = regs[group]
        if start < 0:
            continue
        if not region:
            found.append((target, text[start:stop], start))
        elif start < stop:
            for part in _elements(target, match, group):
                found.extend(_raw_tokens(target, part, text))
    return found


class Statement:
    """One statement as read: its rule (the name of the tree Lark makes for it, ``unordered_trick`` for a trick
    written with slashes), its tokens on demand, and where it is."""

    __slots__ = ("line", "match", "rule", "text")

    def __init__(self, rule: str, match: re.Match[str], text: str, line: int) -> None:
        self.rule = rule
        self.match = match
        self.text = text
        self.line = line

    def tokens(self) -> list[Token]:
        """The tokens the statement's tree keeps, in order, with their lines and columns."""
        result = []
        where = _Where(self.text, self.match.start(), self.line)
        for type_, value, pos in _raw_tokens(self.rule, self.match, self.text):
            line, column = where.at(pos)
            result.append(Token(type_, value, line, column, pos, line + value.count("\n")))
        return result


class _Where:
    """Lines and columns of offsets in a statement (several lines when a comment or a question spans them)."""

    __slots__ = ("base", "line", "one_line", "start", "text")

    def __init__(self, text: str, start: int, line: int, end: int = -1) -> None:
        self.text = text
        self.start = start
        self.line = line
        self.base = text.rfind("\n", 0, start)  # the offset before the statement's line
        # Whether nothing before ``end`` (the statement's line break) spans lines: a comment or a question may.
        self.one_line = end >= 0 and text.find("\n", start, end) < 0

    def at(self, pos: int) -> tuple[int, int]:
        """The 1-based line and column of an offset in the statement."""
        text = self.text
        before = text.rfind("\n", self.start, pos)
        if before < 0:
            return self.line, pos - self.base
        return self.line + text.count("\n", self.start, pos), pos - before

    def span(self, pos: int, value: str) -> Where:
        """The position of a token: a token over several lines is underlined on its first."""
        if self.one_line:
            return self.line, self.base, (pos, pos + len(value))
        line, column = self.at(pos)
        cut = value.find("\n")
        return line, column, max(1, len(value) if cut < 0 else cut)


def statements(text: str, first_line: int = 1) -> list[Statement]:
    """The statements of a record; raises :class:`NotationError` (with Lark's diagnostics) at a syntax error."""
    scanned = _scan(text)
    if isinstance(scanned, int):
        raise NotationError(_syntax_errors(text, "<record>", first_line))
    result = []
    line = first_line + text.count("\n", 0, scanned[0][1].start()) if scanned else first_line
    for rule, match in scanned:
        result.append(Statement(rule, match, text, line))
        line += text.count("\n", match.start(), match.end())
    return result


def _syntax_errors(text: str, path: str, first_line: int, limit: int = 20) -> list[Diagnostic]:
    """Lark's diagnostics of a text the reader does not accept (Lark is imported only now)."""
    from .notation import syntax_errors

    diagnostics = syntax_errors(text, path, limit)
    if not diagnostics:
        raise AssertionError(
            f"{path}: Lark accepts a text that the reader rejects: a bug of replayer/grammar_compiler.py"
        )
    if first_line == 1:
        return diagnostics
    shift = first_line - 1
    return [
        d
        if d.span is None
        else Diagnostic(d.code, d.message, Span(d.span.line + shift, d.span.column, d.span.length), d.path)
        for d in diagnostics
    ]


# --- reading a record ---------------------------------------------------------------------------------------------


def read_file(path: str | Path) -> Record:
    """Read a record file (UTF-8). Raises :class:`NotationError` or ``OSError``."""
    from pathlib import Path

    return read_record(Path(path).read_text(encoding="utf-8"), str(path))


def read_record(text: str, path: str = "<record>", first_line: int = 1, whole: bool = True) -> Record:
    """Read a record; every syntax error (up to a limit), or else every structure error, is reported in one
    :class:`NotationError`.

    ``first_line`` is the line number of the text's first line in its file, when the text is a part of the file
    (a game of a file read game by game): positions are then the file's. A byte-order mark at the start of a file
    is passed over. ``whole``: the text is a whole record, which holds a game with a deal (BZ006, BZ111); the
    formatter reads any part of one.
    """
    if first_line == 1 and text.startswith("\ufeff"):
        text = text[1:]
    builder = _Builder(path, text)
    with no_cycle_collection():  # (a file of 1,000 games is read twice as fast: see replayer/collector.py)
        read = builder.build(first_line)
    if not read:
        # (a comment left open before the statement that does not read is the likelier cause)
        unclosed = [d for d in builder.diagnostics if d.code == "BZ004"][:1]
        raise NotationError(unclosed or _syntax_errors(text, path, first_line))
    builder.close_variations()
    if whole:
        builder.fill_gaps()
        builder.finish(first_line)
    if builder.diagnostics:
        raise NotationError(builder.diagnostics)
    return builder.record


# --- reading on past a line that does not read -------------------------------------------------------------------


class Recovered:
    """A line that did not read, and how the record was read past it: ``how`` is ``"unknown card"`` (the word that
    is not a card read as ``??``), ``"comma"`` (a missing comma supplied), ``"word left out"``, ``"keyword"`` (a
    misspelt keyword read as the keyword it is closest to), ``"comment closed"`` (a comment that does not end on
    its line closed there), ``"unknown trick"`` (a trick line read as its trick with every card unknown) or
    ``"skipped"``. ``shifts``: where a keyword read in place of a misspelt one changed the line's length, (the
    0-based column after which the line as read is shifted, by how many characters), so that positions read
    after it are brought back to the line as written (:meth:`written`)."""

    __slots__ = ("how", "line", "shifts")

    def __init__(self, line: int, how: str, shifts: list[tuple[int, int]] | None = None) -> None:
        self.line = line
        self.how = how
        self.shifts = shifts or []

    def written(self, column: int) -> int:
        """A 1-based column of the line as read, on the line as written."""
        return column - sum(delta for after, delta in self.shifts if column - 1 > after)

    def __repr__(self) -> str:
        return f"Recovered({self.line!r}, {self.how!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Recovered) and (self.line, self.how) == (other.line, other.how)

    __hash__ = None  # type: ignore[assignment]


_SYNTAX_CODES = frozenset(("BZ001", "BZ003"))
REPLAYABLE = frozenset(("BZ001", "BZ003", "BZ004", "BZ114", "BZ116"))
"""The reader's codes after which the record as read is replayed, so that the problems after them are reported in
the same run: a syntax error (its line read on past), a comment's unknown tag (the comment is kept), an unterminated
comment (closed on its line), a missing trick (read as a trick of unknown cards), a trick written twice (the repeat
left out). Any other structure error stops
the replay: what follows may follow from a statement read otherwise."""
MAX_NESTING = 50
"""How deep variations may nest (BZ115 beyond): every command handles a record this deep."""
_MAX_RECOVERED = 20
"""The lines that do not read past which a text is read on: as many syntax errors as are reported (Lark's 20)."""
_TRICK_LINE = re.compile(r"[ \t\f]*(?:trick|взятка)[ \t]+(\d{1,9})(?!\d)", re.IGNORECASE)
_SEAT_WORD = re.compile(r"(?<![\w+])(North|South|East|West|Север|Юг|Восток|Запад|[NSEW])(?![\w♠♤♥♡♦♢♣♧+])", re.I)
# How the statements made up for a line that does not read bring unknown cards into a deal (the replay then
# completes them leniently: see replayer/infer.py).
_UNKNOWING = frozenset(("unknown card", "unknown trick", "skipped"))


def _reads_past(lines: list[str], index: int) -> bool:
    """Whether the text reads past the line ``index`` (a statement may span lines: a question or a comment)."""
    text = "\n".join(lines)
    scanned = _scan(text)
    if not isinstance(scanned, int):
        return True
    return scanned > len("\n".join(lines[: index + 1]))


_keywords: list[str] = []


def _keyword_list() -> list[str]:
    """The keywords of the notation (``trick``, ``draws``, ``dealer``, ``взятка``…), from the grammar's terminals."""
    if not _keywords:
        found = set()
        for pattern, priority in TERMINALS.values():
            if priority < 2:
                continue
            for body in re.findall(r"\(\?i:\(?([^()\\]+?)\)?(?:\\b|\(\\\[)", pattern):
                for word in body.split("|"):
                    word = word.replace("-?", "-").rstrip("?")
                    if re.fullmatch(r"[a-zа-яіїє-]+", word) and len(word) >= 3:
                        found.add(word)
        _keywords.extend(sorted(found))
    return _keywords


def _distance(a: str, b: str) -> int:
    """The edit distance of two words, a swap of two neighbours counting one (optimal string alignment)."""
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        row = [i]
        for j, y in enumerate(b, 1):
            cost = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y))
            if i > 1 and j > 1 and x == b[j - 2] and a[i - 2] == y:
                cost = min(cost, previous2[j - 2] + 1)
            row.append(cost)
        previous2, previous = previous, row
    return previous[-1]


def _near_keywords(word: str) -> list[str]:
    """The keywords a misspelt word may stand for, closest first: one edit away (two for a word of six letters or
    more); none for a word that is a keyword."""
    lower = word.lower()
    if len(lower) < 3 or not lower.isalpha():
        return []
    limit = 2 if len(lower) >= 6 else 1
    found = []
    for keyword in _keyword_list():
        if keyword == lower:
            return []
        distance = _distance(lower, keyword)
        if distance <= limit:
            found.append((distance, keyword))
    return [keyword for _, keyword in sorted(found)]


def _repairs(line: str, column: int, code: str) -> list[tuple[str, str, int]]:
    """The readings to try of a line that does not read, at the (0-based) column Lark names: the word there read
    as an unknown card (where a card was expected), as the keyword it misspells, a missing comma before it, the
    word left out; each with the change of the line's length (only a keyword may change it), so that the positions
    of the rest of the line are brought back to the line as written."""
    if not 0 <= column < len(line):
        return []
    end = column
    while end < len(line) and line[end] not in " \t,":
        end += 1
    if end == column:
        end = column + 1
    word = end - column
    tries = []
    if code == "BZ003":
        tries.append(("unknown card", line[:column] + "??".ljust(word) + line[end:], 0))
    stem = re.match(r"[^\W\d_]+", line[column:end])
    if stem is not None:
        for keyword in _near_keywords(stem[0]):
            tries.append(("keyword", line[:column] + keyword + line[column + stem.end() :], len(keyword) - stem.end()))
    if column > 0 and line[column - 1] in " \t":
        tries.append(("comma", line[: column - 1] + "," + line[column:], 0))
    tries.append(("word left out", line[:column] + " " * word + line[end:], 0))
    return tries


def _suspect_comment(raw: str) -> bool:
    """Whether a comment that spans lines looks like one left open that runs on over the statements after it, to
    the ``}`` of a later comment: a ``{`` inside it (comments do not nest). (A line of prose that reads as a
    statement is no sign: a comment may quote one.)"""
    return "\n" in raw and "{" in raw[1:-1]


def _unknown_trick(line: str) -> str | None:
    """A trick line that does not read, as its trick with every card unknown and no order (``trick 5: N ?? / S
    ??``), when its number and at least two seats can be made out."""
    found = _TRICK_LINE.match(line)
    if found is None:
        return None
    seats: list[str] = []
    for word in _SEAT_WORD.findall(line[found.end() :]):
        seat = SEAT_ALIASES.get(word.upper(), word.upper())
        if seat not in seats:
            seats.append(seat)
    if len(seats) < 2:
        return None
    return f"trick {found[1]}: " + " / ".join(f"{seat} ??" for seat in seats)


def read_record_recovering(text: str, path: str = "<record>") -> tuple[Record, list[Diagnostic], list[Recovered]]:
    """Read a record that has syntax errors: every one is reported (Lark's diagnostics, as :func:`read_record`
    reports them), and the record is read on past each line that does not read, so that it can be replayed.

    A line is read, in this order of preference, with the word Lark stops at read as an unknown card ``??`` (where
    a card was expected), as the keyword it misspells (``trik`` as ``trick``), with a missing comma supplied, or
    without that word; a reading that only moves the error further along the line (a second typo on it) is taken
    too, and the line read on from there. A trick line that reads none of these ways is read as its trick with
    every card unknown; any other line is skipped. A comment that does not end on its line, where it runs on over
    statements (see :func:`_suspect_comment`) or to the end of the text, is reported where it opens (BZ004) and
    closed at the end of that line. The deals that get unknown cards this way are marked ``repaired`` (the replay
    completes them without holding the record's stated facts to the made-up cards). Returns the record, the
    reader's diagnostics (syntax errors, then the structure errors of the record read) and how each line was
    read; raises :class:`NotationError` when the text cannot be read on.
    """
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    diagnostics: list[Diagnostic] = []
    recovered: dict[int, Recovered] = {}
    work = text

    def written(diag: Diagnostic) -> Diagnostic:
        """A diagnostic of the text as read, placed on the text as written (a keyword read may shift a line)."""
        span = diag.span
        done = recovered.get(span.line) if span is not None else None
        if span is None or done is None or not done.shifts:
            return diag
        return Diagnostic(diag.code, diag.message, Span(span.line, done.written(span.column), span.length), diag.path)

    def note(line: int, how: str, shift: tuple[int, int] | None = None) -> None:
        done = recovered.get(line)
        if done is None:
            done = recovered[line] = Recovered(line, how)
        elif done.how not in _UNKNOWING:
            done.how = how
        if shift is not None and shift[1]:
            done.shifts.append(shift)

    # One line at a time: Lark's first error, then the line read on, then Lark again on the text as read, so that
    # an error is reported where Lark finds it in the text as written and nothing is reported that follows only
    # from an earlier line (Lark on its own blanks each line it stops at, which cuts a statement spanning lines).
    for _ in range(_MAX_RECOVERED):
        builder = _Builder(path, work, {line for line, done in recovered.items() if done.how in _UNKNOWING})
        built = builder.build(1)
        if builder.unclosed:
            # A comment left open runs on over statements: reported where it opens, closed at its line's end.
            opened_at = builder.unclosed[0].line
            diagnostics.append(Diagnostic("BZ004", _UNCLOSED, builder.unclosed[0], path))
            lines[opened_at - 1] += "}"
            note(opened_at, "comment closed")
            work = "\n".join(lines)
            continue
        if built:
            break
        diag = written(_syntax_errors(work, path, 1, limit=1)[0])
        diagnostics.append(diag)
        if diag.span is None or not 1 <= diag.span.line <= len(lines):
            raise NotationError(diagnostics)
        index = diag.span.line - 1
        if diag.code == "BZ004":  # a comment open to the end of the text: closed at the end of its line
            lines[index] += "}"
            note(diag.span.line, "comment closed")
            work = "\n".join(lines)
            continue
        opened = _left_open(work, diag.span.line)
        if opened is not None:  # the error follows from a comment left open before it: reported where it opens
            diagnostics[-1] = Diagnostic("BZ004", _UNCLOSED, Span(*opened), path)
            lines[opened[0] - 1] += "}"
            note(opened[0], "comment closed")
            work = "\n".join(lines)
            continue
        if diag.code not in _SYNTAX_CODES:
            raise NotationError(diagnostics)
        line = lines[index]
        done = recovered.get(diag.span.line)
        column = diag.span.column - 1
        if done is not None:  # (a second error on a line already read on: its column in the line as read)
            column += sum(delta for after, delta in done.shifts if column > after)
        how = ""
        for way, tried, delta in _repairs(line, column, diag.code):
            lines[index] = tried
            if _reads_past(lines, index) or (way in ("unknown card", "keyword") and _further(lines, index, column)):
                how = way
                note(diag.span.line, way, (column, delta))
                break
        else:
            tried = _unknown_trick(line) or ""
            how = "unknown trick" if tried else "skipped"
            lines[index] = tried or " " * len(line)
            note(diag.span.line, how)
            recovered[diag.span.line].shifts.clear()
        work = "\n".join(lines)
    else:
        raise NotationError(diagnostics)
    builder.close_variations()
    builder.fill_gaps()
    builder.finish(1)
    record = builder.record
    record.text = text
    unknowing = sorted(line for line, done in recovered.items() if done.how in _UNKNOWING)
    for game in record.games:
        deals = game.deals
        for index, deal in enumerate(deals):
            start = deal.span.line
            stop = deals[index + 1].span.line if index + 1 < len(deals) else None
            if deal.repaired or any(start <= line and (stop is None or line < stop) for line in unknowing):
                deal.repaired = True
    return (
        record,
        diagnostics + [written(d) for d in builder.diagnostics],
        [recovered[line] for line in sorted(recovered)],
    )


_COMMENT = re.compile(r"\{[^}]*\}")
_UNCLOSED = "unterminated comment: '{' has no closing '}' on its line (it runs on to the end of a later comment)"


def _left_open(text: str, line: int) -> tuple[int, int] | None:
    """Where a comment opens (1-based line and column) that spans lines up to ``line`` (where the text stops
    reading) and looks left open (:func:`_suspect_comment`); None when there is none."""
    limit = 0
    for _ in range(line - 1):
        limit = text.find("\n", limit) + 1
        if limit == 0:
            return None
    end = text.find("\n", limit)
    end = len(text) if end < 0 else end
    for found in _COMMENT.finditer(text, 0, end):
        if found.end() > limit and "\n" in found[0] and _suspect_comment(found[0]):
            start = found.start()
            return text.count("\n", 0, start) + 1, start - text.rfind("\n", 0, start)
    return None


def _further(lines: list[str], index: int, column: int) -> bool:
    """Whether the text as read now stops further along the same line (the line holds a second error)."""
    from .notation import syntax_errors

    found = syntax_errors("\n".join(lines), "<record>", limit=1)
    span = found[0].span if found else None
    return span is not None and span.line == index + 1 and span.column - 1 > column and found[0].code in _SYNTAX_CODES


# --- comments, questions and cards ----------------------------------------------------------------------------------

_COMMENT_TAGS = ("note",)
_QUESTION_TAGS = ("better",)


def _comment_text(token: str, strip: int) -> str:
    inner = token[strip:-1]
    return " ".join(inner.split())


def _tags(body: str, allowed: tuple[str, ...]) -> tuple[str, str | None, set[str]] | str:
    """A comment's or question's body without its leading tags (``[ru]``, ``[note ru]``): (text, language, other
    tags); or, when a tag is not known, the message to report. A body not starting with ``[`` has no tags."""
    stripped = body.lstrip()
    if not stripped.startswith("["):
        return body, None, set()
    end = stripped.find("]")
    words = stripped[1:end].split() if end > 0 else []
    if end < 0 or not words or not all(w.isalpha() and w.islower() for w in words):
        return body, None, set()  # not tags: text that starts with a bracket, such as "[7C] ..."
    lang = None
    tags = set()
    for word in words:
        if word in allowed:
            tags.add(word)
        elif len(word) == 2 and lang is None:
            lang = word
        else:
            known = ", ".join(allowed)
            return f"unknown tag {word!r} (tags: a two-letter language such as ru, and {known})"
    return stripped[end + 1 :], None if lang == "en" else lang, tags


_Tok = tuple[str, str, int]
"""A token as the builder reads it: terminal, text, offset."""

# The statements built from their groups (the rest are built from their tokens), with the groups their builders read
# by number, in order: a statement's expression has these groups, then ``nl`` (the blanks and line break after it),
# whether it is matched alone or in a block. A grammar that changes them must change the builders too.
_SEAT_POINTS = (
    "seat_points1_SEAT",
    "seat_points1_SIDE",
    "seat_points1_SCORE_INT",
    "seat_points2_SEAT",
    "seat_points2_SIDE",
    "seat_points2_SCORE_INT",
    "seat_points_rep",
    "comment_rep",
)
_PLAYS = (
    "TRICK",
    "INT",
    "play1_question_rep",
    "play1_SEAT",
    "play1_CARD",
    "play2_question_rep",
    "play2_SEAT",
    "play2_CARD",
    "play_rep",
    "winner1_SEAT",
    "comment_rep",
)
_GROUPS = {
    "trick_stmt": _PLAYS,
    "unordered_trick": _PLAYS,
    "draws_stmt": (
        "DRAWS",
        "seat_card1_SEAT",
        "seat_card1_CARD",
        "seat_card2_SEAT",
        "seat_card2_CARD",
        "seat_card_rep",
        "comment_rep",
    ),
    "hand_header": ("HAND", "SEAT", "CARD", *(f"CARD_{n}" for n in range(2, 10)), "CARD_rep", "comment_rep"),
    "declare_stmt": (
        "SEAT",
        "DECLARES",
        "KIND",
        "CARD",
        "CARD_2",
        "CARD_rep",
        "partner_cards1_WITH",
        "partner_cards1_SEAT",
        "partner_cards1_CARD",
        "partner_cards1_CARD_rep",
        "points1_INT",
        "comment_rep",
    ),
    "game_score_stmt": ("GAME", "SCORE", *_SEAT_POINTS),
    **{
        key: (key.split("_")[0].upper(), *_SEAT_POINTS)
        for key in ("score_stmt", "brisques_stmt", "result_stmt", "total_stmt")
    },
}
# ... and the groups of the elements that read their regions (by the region's name, after the statement's key).
_ELEMENT_GROUPS = {
    "play1_question_rep": ("question1_QUESTION",),
    "play2_question_rep": ("question1_QUESTION",),
    "play_rep": ("play1_question_rep", "play1_SEAT", "play1_CARD"),
    "play_rep.play1_question_rep": ("question1_QUESTION",),
    "seat_card_rep": ("seat_card1_SEAT", "seat_card1_CARD"),
    "seat_points_rep": ("seat_points1_SEAT", "seat_points1_SIDE", "seat_points1_SCORE_INT"),
    "CARD_rep": ("CARD",),
    "partner_cards1_CARD_rep": ("CARD",),
    "comment_rep": ("comment1_COMMENT",),
}
# The statements of the end of a deal: what their ScoreCheck says, and where their numbers start (after the keyword).
_END_RULES = {
    "brisques_stmt": ("brisques", 1),
    "result_stmt": ("result", 1),
    "total_stmt": ("total", 1),
    "game_score_stmt": ("game", 2),
}


def _check_layout() -> None:
    """The groups the builders read are the tables' (LAYOUT), in the statements and in the elements of their
    regions."""

    def check(key: str, names: tuple[str, ...]) -> None:
        found = tuple(entry[0] for entry in LAYOUT[key])
        if found != names:
            raise ImportError(f"replayer/grammar_tables.py: {key} has the groups {found}, the reader reads {names}")
        for _, target, region in LAYOUT[key]:
            if region:
                check(target, _ELEMENT_GROUPS[target.split(".", 1)[1]])

    for key, names in _GROUPS.items():
        check(key, names)


_blocks: dict[str, re.Pattern[str]] = {}

# The statements a block reads (BLOCKS), in order; each after the other's groups, as in its own expression.
_BLOCK_RULES = {"trick_block": ("trick_stmt", "draws_stmt", "score_stmt"), "draws_block": ("draws_stmt", "score_stmt")}


def _block(key: str) -> re.Pattern[str]:
    """The expression of a block (BLOCKS), whose groups the build reads by number."""
    pattern = _blocks.get(key)
    if pattern is None:
        pattern = _CACHE.get(f"block:{key}")
        names = tuple(name.split("_", 1)[1] for name in sorted(pattern.groupindex, key=pattern.groupindex.__getitem__))
        expected = tuple(name for rule in _BLOCK_RULES[key] for name in (*_GROUPS[rule], "nl"))
        if names != expected:
            raise ImportError(f"replayer/grammar_tables.py: the block {key} has the groups {names}")
        _blocks[key] = pattern
    return pattern


class _Numbers(dict[str, int]):
    """A number's value by its text: those below 1000 (most numbers of tricks and scores) looked up, without int()."""

    def __missing__(self, text: str) -> int:
        return int(text)


_NUMBERS = _Numbers((str(n), n) for n in range(1000))

_SYNC = 2048
"""How far (in characters) the line that the build counts positions from may be behind the statement read."""

_NEW_DEAL = "a trick after the end of the deal (brisques/result); start a new deal with 'deal'"


class _Builder:
    """Groups the flat statements into games, deals and tricks.

    Each statement is built by one method: the commonest rules (:data:`_GROUPS`) from the groups of their match, the
    others from their tokens (``on_<rule>``). While it builds a deal, it notes what the replay would otherwise walk
    the deal again for (:class:`~replayer.record.Deal`'s ``seats_named``, ``repeated_seat`` and ``lossy``).
    """

    def __init__(self, path: str, text: str, skipped: set[int] | None = None) -> None:
        self.path = path
        self.text = text
        self.skipped = skipped or set()
        """Lines that did not read and were skipped or read with unknown cards: a missing trick there is not
        reported again (BZ114)."""
        self.too_deep = 0
        """Variations open beyond :data:`MAX_NESTING` (BZ115), which are not read into the record."""
        self.unclosed: list[Span] = []
        """Where comments open that look left open (:func:`_suspect_comment`), in order."""
        self.record = Record(path, text)
        self.diagnostics: list[Diagnostic] = []
        self.game: Game | None = None
        self.deal: Deal | None = None
        self.trick: Trick | None = None
        self.target: Any = None  # where the next comment goes: the last game, deal, trick or statement
        self.preamble: list[Comment] = []
        self.where: _Where = _Where(text, 0, 1)
        self.open_lines: list[tuple[Deal, list[Trick], Trick, Variation]] = []
        """The variations open (innermost last): the deal, its line's tricks and the trick they branch from, and the
        variation whose tricks the deal's ``tricks`` stands for meanwhile (so that the trick builder adds to it)."""

    def build(self, first_line: int) -> bool:
        """Read the statements of the text and add them, each at its line (the text's first line is
        ``first_line``); False at a syntax error (a statement that no rule's expression matches)."""
        text = self.text
        pos = _PRELUDE.match(text).end()  # type: ignore[union-attr]
        size = len(text)
        count = text.count
        rfind = text.rfind
        # A line at or before the statement read and the offset before its first character, which the positions of
        # the statements built from their groups count their lines from (see replayer/record.py): brought up to the
        # statement only for a statement built from its tokens, or every _SYNC characters.
        base = rfind("\n", 0, pos)
        line = first_line + count("\n", 0, pos)
        dispatch = _entries
        compiled = _compiled
        grouped = _BUILDERS
        handlers = _HANDLERS
        while pos < size:
            if pos - base > _SYNC:
                line, base = line + count("\n", base + 1, pos), rfind("\n", 0, pos)
            entry = dispatch.get(text[pos]) or _entry(text[pos])
            if entry is _NO_ENTRY:
                return False
            keys, block, parts = entry
            if block is not None:
                # Most lines are a trick of two plays, its two draws and the score: one match reads them, and each
                # is built as when it is matched alone.
                match = block.match(text, pos)
                if match is not None:
                    groups = match.groups()
                    for build, key, first in parts:
                        if groups[first] is not None:  # (else a statement of the block that is not there)
                            build(self, key, match, groups, first, line, base)
                    pos = match.end()
                    continue
            for key in keys:
                match = (compiled.get(key) or _pattern(key)).match(text, pos)
                if match is not None:
                    break
            else:
                return False
            build = grouped.get(key)  # type: ignore[assignment]
            if build is not None:
                build(self, key, match, match.groups(), 0, line, base)
            else:
                line, base = line + count("\n", base + 1, pos), rfind("\n", 0, pos)
                self.where = _Where(text, pos, line, match.start("nl"))
                handlers[key](self, key, _raw_tokens(key, match, text))
            pos = match.end()
        return True

    def finish(self, first_line: int) -> None:
        """What only the whole text shows: a record with no game (empty, or comments only), a game with no deal."""
        if not self.record.games:
            what = "only comments" if self.preamble else "nothing"
            self.error(
                "BZ006",
                f"the record holds {what}: a record is at least a game with a deal (see docs/notation.md)",
                Span(first_line, 1),
            )
        for game in self.record.games:
            if not game.deals:
                self.error(
                    "BZ111",
                    "this game has no deal: write its hands and tricks after 'deal' (or the deal headers)",
                    game.span,
                )

    # --- helpers

    def error(self, code: str, message: str, span: Span | Where) -> None:
        self.diagnostics.append(Diagnostic(code, message, span if isinstance(span, Span) else _made(span), self.path))

    def seat(self, raw: str) -> str:
        seat = _SEATS.get(raw)
        if seat is None:
            raw = raw.upper()
            seat = SEAT_ALIASES.get(raw, raw)
        return seat

    def span(self, token: _Tok) -> Where:
        return self.where.span(token[2], token[1])

    def card(self, raw: str, span: Where) -> CardLike | None:
        """The card a token spells (a card of the current deal); None (and a diagnostic at its position) when it
        spells none. An unknown card (``Q?``) makes the deal lossy."""
        card = _CANONICAL.get(raw)
        if card is not None:
            return card
        try:
            read = parse_card_like(raw)
        except CardParseError as exc:
            self.error("BZ003", str(exc), span)
            return None
        if read.__class__ is CardPattern and self.deal is not None:
            self.deal.lossy = True
        return read

    def ensure_game(self, span: Where) -> Game:
        if self.game is None:
            self.game = Game(span, comments=self.take_preamble())
            self.record.games.append(self.game)
            self.target = self.game
        return self.game

    def take_preamble(self) -> list[Comment]:
        comments, self.preamble = self.preamble, []
        return comments

    def ensure_deal(self, span: Where) -> Deal:
        game = self.ensure_game(span)
        if self.deal is None:
            self.deal = Deal(None, span)
            game.deals.append(self.deal)
            self.target = self.deal
        return self.deal

    def attach(self, comments: list[Comment]) -> None:
        if not comments:
            return
        if self.target is None:
            # Comments before the first statement (a file's preamble) go to the first game, whenever it starts.
            self.preamble.extend(comments)
            return
        self.target.comments.extend(comments)

    def comments(self, tokens: list[_Tok]) -> list[Comment]:
        return [self.comment(t[1], self.span(t)) for t in tokens if t[0] == "COMMENT"]

    def comment(self, raw: str, span: Where) -> Comment:
        """A comment ``{ ... }`` with its tags read (``{[ru] ...}``, ``{[note] ...}``)."""
        if "\n" in raw and _suspect_comment(raw):
            self.unclosed.append(_made(span))
            self.error("BZ004", _UNCLOSED, span)
        tagged = _tags(raw[1:-1], _COMMENT_TAGS)
        if isinstance(tagged, str):
            self.error("BZ001", tagged, span)
            return Comment(_comment_text(raw, 1), span)
        body, lang, tags = tagged
        return Comment(" ".join(body.split()), span, lang, "note" in tags)

    def question(self, text: str, span: Where) -> Question:
        tagged = _tags(text[2:-1], _QUESTION_TAGS)
        if isinstance(tagged, str):
            self.error("BZ001", tagged, span)
            tagged = (text[2:-1], None, set())
        body, lang, tags = tagged
        answers: list[Card] = []
        if "|" in body:
            body, _, accepted = body.rpartition("|")
            for word in accepted.replace(",", " ").split():
                try:
                    answers.append(Card.parse(word))
                except CardParseError:
                    self.error("BZ003", f"the question's accepted answer {word!r} is not a card", span)
        return Question(" ".join(body.split()), answers, span, lang, "better" in tags)

    def trick_item(self, span: Where) -> Trick | None:
        """The trick a statement after a trick belongs to (None, and a diagnostic at ``span``, when there is none)."""
        if self.trick is None or (self.deal is not None and self.deal.end):
            self.error("BZ101", "this statement belongs after a trick ('trick N: ...')", span)
            return None
        return self.trick

    def add_item(self, trick: Trick, item: Item, seat: str | None) -> None:
        """An item after the current deal's last trick, made by ``seat`` (None: a draws or score statement)."""
        trick.items.append(item)
        self.target = item
        if seat is not None and self.deal is not None:
            self.deal.seats_named.add(seat)

    # --- the statements built from their groups (_GROUPS)
    #
    # Each takes the statement's rule (``key``; in a block, the rule of the statement there), its match, the match's
    # texts (``groups``), ``first``: the index in ``groups`` of the statement's first group (its groups follow in the
    # order of _GROUPS, then ``nl``, whether the statement is matched alone or in a block: group numbers are indexes
    # plus one), ``line``: a line at or before the statement's first (see build), and ``base``: the offset before
    # that line's first character. A token is placed by its group: (line, base, match, group), in the statement's
    # match or, for a token of a repeated part (a region, ``*_rep``, read by its element's expression), in the
    # element's match (replayer/record.py counts its line when its position is asked for).

    def comments_in(self, key: str, match: re.Match[str], group: int, line: int, base: int) -> list[Comment]:
        """The comments of the region ``group`` (the statement's ``comment_rep``)."""
        return [self.comment(part[1], (line, base, part, 1)) for part in _elements(f"{key}.comment_rep", match, group)]

    def questions_in(self, element: str, match: re.Match[str], group: int, line: int, base: int) -> list[Question]:
        """The questions of the region ``group``, read by ``element``, before a play."""
        return [self.question(part[1], (line, base, part, 1)) for part in _elements(element, match, group)]

    def build_trick(self, key: str, match: Any, groups: Any, first: int, line: int, base: int) -> None:
        """``trick N: S 9C, N QC -> N`` (``unordered_trick``: plays written with ``/``): the plays, each after its
        questions, the winner, comments."""
        (_, number, questions1, seat1, card1, questions2, seat2, card2, more, winner, notes) = groups[
            first : first + 11
        ]
        comments = self.comments_in(key, match, first + 11, line, base) if notes else None
        span = (line, base, match, first + 1)
        deal = self.deal
        if deal is None:
            deal = self.ensure_deal(span)
        if deal.end:
            self.error("BZ101", _NEW_DEAL, span)
        named = deal.seats_named
        plays: list[Play] = []
        questions = None
        if questions1:
            questions = self.questions_in(f"{key}.play1_question_rep", match, first + 3, line, base)
        card = _CANONICAL.get(card1) or self.card(card1, (line, base, match, first + 5))
        if card is not None:
            seat1 = seat1 if seat1 in _LETTERS else self.seat(seat1)
            plays.append(Play(seat1, card, (line, base, match, first + 5), (line, base, match, first + 4), questions))
            if seat1 not in named:
                named.add(seat1)
        else:
            seat1 = None
        if seat2 is not None:
            questions = None
            if questions2:
                questions = self.questions_in(f"{key}.play2_question_rep", match, first + 6, line, base)
            card = _CANONICAL.get(card2) or self.card(card2, (line, base, match, first + 8))
            if card is not None:
                seat2 = seat2 if seat2 in _LETTERS else self.seat(seat2)
                plays.append(
                    Play(seat2, card, (line, base, match, first + 8), (line, base, match, first + 7), questions)
                )
                if seat2 not in named:
                    named.add(seat2)
                if seat2 == seat1:
                    deal.repeated_seat = True
        if more:
            for part in _elements(f"{key}.play_rep", match, first + 9):
                questions = None
                if part[1]:
                    questions = self.questions_in(f"{key}.play_rep.play1_question_rep", part, 1, line, base)
                card = _CANONICAL.get(part[3]) or self.card(part[3], (line, base, part, 3))
                if card is not None:
                    seat = self.seat(part[2])
                    if any(play.seat == seat for play in plays):
                        deal.repeated_seat = True
                    plays.append(Play(seat, card, (line, base, part, 3), (line, base, part, 2), questions))
                    named.add(seat)
        if winner is None:
            trick = Trick(_NUMBERS[number], plays, None, None, span)
        else:
            trick = Trick(
                _NUMBERS[number],
                plays,
                winner if winner in _LETTERS else self.seat(winner),
                (line, base, match, first + 10),
                span,
            )
        if key != "trick_stmt":
            trick.ordered = False
            deal.lossy = True
        deal.tricks.append(trick)
        self.trick = self.target = trick
        if comments:
            self.attach(comments)

    def fill_gaps(self) -> None:
        """Tricks left out: where a line of play (a deal's tricks, or a variation's) goes from trick n to trick m
        beyond n + 1 and on to m + 1, and no later trick of the line is numbered m, reported at the gap
        (:meth:`missing_tricks`). Otherwise m is taken as misnumbered (BZ106, the replay's): a line that ends at m,
        or numbers another trick m, or where trick n is itself numbered back."""
        # (variations nested past the limit leave their tricks to the one they are in: no copy to look for there)
        deep = any(diagnostic.code == "BZ115" for diagnostic in self.diagnostics)
        for game in self.record.games:
            for deal in game.deals:
                lines = [deal.tricks]
                while lines:  # (variations nest: a stack, not recursion)
                    tricks = lines.pop()
                    lines.extend(variation.tricks for trick in tricks for variation in trick.variations)
                    if not deep:
                        self.drop_repeats(tricks)
                    first = tricks[0].number if tricks else 0
                    if [t.number for t in tricks] == list(range(first, first + len(tricks))):
                        continue  # (numbered one after another: no gap)
                    index = 1
                    while index < len(tricks):
                        last, trick = tricks[index - 1], tricks[index]
                        if (
                            trick.number > last.number + 1
                            and (index == 1 or tricks[index - 2].number < last.number)  # (not numbered back)
                            and index + 1 < len(tricks)
                            and tricks[index + 1].number == trick.number + 1
                            and all(later.number != trick.number for later in tricks[index + 2 :])
                        ):
                            made = self.missing_tricks(deal, last, trick)
                            tricks[index:index] = made
                            index += len(made)
                        index += 1

    def drop_repeats(self, tricks: list[Trick]) -> None:
        """Tricks written twice: where a line of play goes back to a trick number it has passed, and the tricks from
        there repeat the earlier ones card for card (a block copied twice), each numbered one after the other and
        followed by the trick that comes next (or by nothing), the repeat is reported once (BZ116) and left out, so
        that the rest of the deal is replayed and checked as usual. A trick numbered back that plays other cards is
        left to the replay (BZ106: out of order)."""
        index = 1
        while index < len(tricks):
            last = tricks[index - 1].number
            start = tricks[index].number
            if start > last:
                index += 1
                continue
            earlier = {trick.number: trick for trick in tricks[:index]}
            end = index
            while (
                end < len(tricks)
                and tricks[end].number == start + (end - index)
                and tricks[end].number <= last
                and (twin := earlier.get(tricks[end].number)) is not None
                and _same_trick(twin, tricks[end])
            ):
                end += 1
            if end == index or (end < len(tricks) and tricks[end].number != last + 1):
                index += 1
                continue
            first, final = tricks[index], tricks[end - 1]
            which = f"trick {start} is" if end - index == 1 else f"tricks {start} to {final.number} are"
            self.error(
                "BZ116",
                f"{which} written twice: the same cards at line {earlier[start].span.line}; the repeat (to line "
                f"{final.span.line}) is left out of the replay",
                first.span,
            )
            del tricks[index:end]

    def missing_tricks(self, deal: Deal, last: Trick, trick: Trick) -> list[Trick]:
        """The tricks left out between ``last`` and ``trick``: reported at the gap (BZ114, unless a line there did
        not read), and read as tricks of unknown cards played by the last trick's seats, so that the deal is
        completed and replayed on."""
        span = trick.span
        if not any(last.span.line < line < span.line for line in self.skipped):
            left = (
                f"trick {last.number + 1} is"
                if trick.number == last.number + 2
                else f"tricks {last.number + 1} to {trick.number - 1} are"
            )
            self.error(
                "BZ114",
                f"{left} missing: the record goes from trick {last.number} (line {last.span.line}) to trick "
                f"{trick.number}",
                span,
            )
        seats = [play.seat for play in last.plays]
        # A trick line left out leaves its draws and score to the trick before, which then draws twice: what
        # follows that trick's own draws and score goes to the trick left out (the last, where several are).
        draws = [index for index, item in enumerate(last.items) if type(item) is Draws]
        moved: list[Item] = []
        if len(draws) > 1:
            cut = draws[0] + 1
            if cut < len(last.items) and type(last.items[cut]) is ScoreCheck:
                cut += 1
            moved, last.items[cut:] = last.items[cut:], []
        made = []
        for number in range(last.number + 1, trick.number):
            plays = [Play(seat, CardPattern(None, None), span, span) for seat in seats]
            gap = Trick(number, plays, None, None, span)
            gap.ordered = False
            made.append(gap)
        made[-1].items.extend(moved)
        deal.lossy = True
        deal.repaired = True
        return made

    def build_draws(self, key: str, match: Any, groups: Any, first: int, line: int, base: int) -> None:
        """``draws N KC, S 9D``: the draws, comments."""
        (_, seat1, card1, seat2, card2, more, notes) = groups[first : first + 7]
        comments = self.comments_in(key, match, first + 7, line, base) if notes else None
        span = (line, base, match, first + 1)
        trick = self.trick
        deal = self.deal
        if trick is None or deal is None or deal.end:
            trick = self.trick_item(span)  # (None, reported)
            named: set[str] = set()  # (draws after no trick name no seat of the deal)
        else:
            named = deal.seats_named
        draws = []
        card = _CANONICAL.get(card1) or self.card(card1, (line, base, match, first + 3))
        if card is not None:
            seat1 = seat1 if seat1 in _LETTERS else self.seat(seat1)
            draws.append(Draw(seat1, card, (line, base, match, first + 3), (line, base, match, first + 2)))
            if seat1 not in named:
                named.add(seat1)
        if seat2 is not None:
            card = _CANONICAL.get(card2) or self.card(card2, (line, base, match, first + 5))
            if card is not None:
                seat2 = seat2 if seat2 in _LETTERS else self.seat(seat2)
                draws.append(Draw(seat2, card, (line, base, match, first + 5), (line, base, match, first + 4)))
                if seat2 not in named:
                    named.add(seat2)
        if more:
            for part in _elements(f"{key}.seat_card_rep", match, first + 6):
                card = _CANONICAL.get(part[2]) or self.card(part[2], (line, base, part, 2))
                if card is not None:
                    seat = self.seat(part[1])
                    draws.append(Draw(seat, card, (line, base, part, 2), (line, base, part, 1)))
                    named.add(seat)
        if trick is not None:
            item = Draws(draws, span)
            trick.items.append(item)
            self.target = item
        if comments:
            self.attach(comments)

    def seat_values(self, key: str, match: Any, groups: Any, at: int, line: int, base: int) -> list[SeatValue]:
        """The numbers stated for seats (or sides), whose first seat is ``groups[at]``."""
        seat1, side1, value1, seat2, side2, value2, more = groups[at : at + 7]
        values = [
            SeatValue(
                seat1 if seat1 in _SEAT_LETTERS else self.seat(seat1 or side1),
                _NUMBERS[value1],
                (line, base, match, at + 3),
            )
        ]
        if value2 is not None:
            values.append(
                SeatValue(
                    seat2 if seat2 in _SEAT_LETTERS else self.seat(seat2 or side2),
                    _NUMBERS[value2],
                    (line, base, match, at + 6),
                )
            )
        if more:
            for part in _elements(f"{key}.seat_points_rep", match, at + 7):
                values.append(SeatValue(self.seat(part[1] or part[2]), _NUMBERS[part[3]], (line, base, part, 3)))
        return values

    def build_score(self, key: str, match: Any, groups: Any, first: int, line: int, base: int) -> None:
        """``score N 10, S 0``: the running score after a trick."""
        values = self.seat_values(key, match, groups, first + 1, line, base)
        comments = self.comments_in(key, match, first + 9, line, base) if groups[first + 8] else None
        span = (line, base, match, first + 1)
        trick = self.trick
        deal = self.deal
        if trick is None or deal is None or deal.end:
            self.trick_item(span)  # (None, reported)
        else:
            item = ScoreCheck("score", values, span)
            trick.items.append(item)
            self.target = item
        if comments:
            self.attach(comments)

    def build_end(self, key: str, match: Any, groups: Any, first: int, line: int, base: int) -> None:
        """``brisques``, ``result``, ``total``, ``game score``: numbers stated after the deal's last trick."""
        what, offset = _END_RULES[key]
        at = first + offset
        self.end_statement((line, base, match, first + 1), what, self.seat_values(key, match, groups, at, line, base))
        if groups[at + 7]:
            self.attach(self.comments_in(key, match, at + 8, line, base))

    def end_statement(self, span: Where, what: str, values: list[SeatValue]) -> None:
        deal = self.ensure_deal(span)
        item = ScoreCheck(what, values, span)
        deal.end.append(item)
        self.target = item

    def build_hand(self, key: str, match: Any, groups: Any, first: int, line: int, base: int) -> None:
        """``hand N: ...``: the cards dealt to a seat, comments."""
        deal = self.deal_header_at(groups[first], (line, base, match, first + 1))
        cards: list[tuple[str, Where]] = []
        for index in range(first + 2, first + 11):
            card = groups[index]
            if card is None:
                break
            cards.append((card, (line, base, match, index + 1)))
        if groups[first + 11]:
            cards.extend((part[1], (line, base, part, 1)) for part in _elements(f"{key}.CARD_rep", match, first + 12))
        self.hand(deal, groups[first + 1], (line, base, match, first + 2), cards)
        if groups[first + 12]:
            self.attach(self.comments_in(key, match, first + 13, line, base))

    def hand(self, deal: Deal | None, seat: str, seat_span: Where, cards: list[tuple[str, Where]]) -> None:
        """The cards dealt to a seat: each (as written, where)."""
        seat = self.seat(seat)
        read = [_CANONICAL.get(card) or self.card(card, span) for card, span in cards]
        if deal is not None:
            if seat in deal.hands:
                self.error("BZ102", f"a second hand for {seat} in this deal", seat_span)
            deal.hands[seat] = [c for c in read if c is not None]
            deal.hand_spans[seat] = _made(seat_span)
            deal._hand_card_spans[seat] = [span for _, span in cards]

    def build_declare(self, key: str, match: Any, groups: Any, first: int, line: int, base: int) -> None:
        """``N declares royal_marriage KC QC = 40``: the kind, the cards, the partner's cards (``with S JD``), the
        points, comments. Before the deal's first trick (a carte blanche), the deal's."""
        (seat, _, kind, card1, card2, more, _, partner, partner_card, partner_more, points, notes) = groups[
            first : first + 12
        ]
        span = (line, base, match, first + 1)
        opening = self.trick is None and self.deal is not None and not self.deal.tricks
        trick = None if opening else self.trick_item(span)
        cards: list[CardLike] = []
        spans: list[Where] = []
        found: list[tuple[str, Where]] = []
        if card1 is not None:
            found.append((card1, (line, base, match, first + 4)))
            if card2 is not None:
                found.append((card2, (line, base, match, first + 5)))
                if more:
                    found.extend(
                        (part[1], (line, base, part, 1)) for part in _elements(f"{key}.CARD_rep", match, first + 6)
                    )
        for text, at in found:
            card = _CANONICAL.get(text) or self.card(text, at)
            if card is not None:
                cards.append(card)
                spans.append(at)
        partner_cards: list[CardLike] = []
        partner_spans: list[Where] = []
        if partner is not None:
            found = [(partner_card, (line, base, match, first + 9))]
            if partner_more:
                found.extend(
                    (part[1], (line, base, part, 1))
                    for part in _elements(f"{key}.partner_cards1_CARD_rep", match, first + 10)
                )
            for text, at in found:
                card = _CANONICAL.get(text) or self.card(text, at)
                if card is not None:
                    partner_cards.append(card)
                    partner_spans.append(at)
            partner = self.seat(partner)
        if kind is None and not cards:
            self.error("BZ304", "a declaration names its kind, its cards, or both", span)
        elif trick is not None or opening:
            item = Declare(
                seat if seat in _LETTERS else self.seat(seat),
                kind,
                cards,
                None if points is None else int(points),
                span,
                None if kind is None else (line, base, match, first + 3),
                None if points is None else (line, base, match, first + 11),
                spans,
                partner=partner,
                partner_cards=partner_cards,
                partner_card_spans=partner_spans,
            )
            if trick is not None:
                self.add_item(trick, item, item.seat)
            elif self.deal is not None:
                self.deal.opening.append(item)
                self.target = item
        if notes:
            self.attach(self.comments_in(key, match, first + 12, line, base))

    # --- the other statements, from their tokens

    def on_comment_stmt(self, key: str, tokens: list[_Tok]) -> None:
        self.attach(self.comments(tokens))

    def on_game_stmt(self, key: str, tokens: list[_Tok]) -> None:
        self.game = Game(self.span(tokens[0]), comments=self.take_preamble())
        self.record.games.append(self.game)
        self.deal = None
        self.trick = None
        for token in tokens[1:]:
            if token[0] == "STRING":
                self.game.title = token[1][1:-1]
        self.target = self.game
        self.attach(self.comments(tokens))

    def game_header(self, keyword: _Tok) -> Game | None:
        game = self.ensure_game(self.span(keyword))
        if game.deals:
            self.error(
                "BZ101",
                f"the {keyword[1].lower()} header belongs before the first deal of the game",
                self.span(keyword),
            )
            return None
        return game

    def on_text_header(self, key: str, tokens: list[_Tok]) -> None:
        game = self.game_header(tokens[0])
        name = tokens[0][1].lower().replace("[en]", "")  # (English is the untagged header)
        value = ""
        for token in tokens[1:]:
            if token[0] == "TEXT":
                value = token[1].strip()
        if game is not None:
            if name in game.headers:
                self.error("BZ102", f"a second {name} header (the first is kept)", self.span(tokens[0]))
            else:
                game.headers[name] = value
                if name == "title" and game.title is None:
                    game.title = value
        self.target = game or self.target
        self.attach(self.comments(tokens))

    def on_players_header(self, key: str, tokens: list[_Tok]) -> None:
        game = self.game_header(tokens[0])
        for index, token in enumerate(tokens):
            if token[0] != "SEAT":
                continue
            following = tokens[index + 1] if index + 1 < len(tokens) else None
            name = following[1][1:-1] if following is not None and following[0] == "STRING" else ""
            if game is not None:
                game.players[self.seat(token[1])] = name
                game.player_spans[self.seat(token[1])] = _made(self.span(token))
        self.attach(self.comments(tokens))

    def on_profile_header(self, key: str, tokens: list[_Tok]) -> None:
        game = self.game_header(tokens[0])
        if game is not None:
            game.profile = tokens[1][1]
            game.profile_span = _made(self.span(tokens[1]))
        self.attach(self.comments(tokens))

    def on_options_header(self, key: str, tokens: list[_Tok]) -> None:
        game = self.game_header(tokens[0])
        values = [t for t in tokens[1:] if t[0] != "COMMENT"]
        for name, value in zip(values[::2], values[1::2], strict=True):
            if game is not None:
                game.options[name[1]] = value[1]
                game.option_spans[name[1]] = _made(self.span(name))
        self.attach(self.comments(tokens))

    def on_target_header(self, key: str, tokens: list[_Tok]) -> None:
        game = self.game_header(tokens[0])
        if game is not None:
            game.target = int(tokens[1][1])
            game.target_span = _made(self.span(tokens[1]))
        self.attach(self.comments(tokens))

    def deal_header(self, keyword: _Tok) -> Deal | None:
        return self.deal_header_at(keyword[1], self.span(keyword))

    def deal_header_at(self, keyword: str, span: Where) -> Deal | None:
        """The deal a header (its keyword as written, and where) belongs to; None (and a diagnostic) when it is out
        of place or written twice."""
        deal = self.ensure_deal(span)
        if deal.tricks:
            self.error(
                "BZ101",
                f"the {keyword.lower()} header belongs before the deal's first trick (start a new deal with 'deal')",
                span,
            )
            return None
        name = keyword.lower()
        if name in deal.spans and name != "hand":
            self.error("BZ102", f"a second {name} header in this deal", span)
            return None
        deal.spans[name] = _made(span)
        return deal

    def on_dealer_header(self, key: str, tokens: list[_Tok]) -> None:
        deal = self.deal_header(tokens[0])
        if deal is not None:
            deal.dealer = self.seat(tokens[1][1])
        self.attach(self.comments(tokens))

    def on_leader_header(self, key: str, tokens: list[_Tok]) -> None:
        deal = self.deal_header(tokens[0])
        if deal is not None:
            deal.leader = self.seat(tokens[1][1])
        self.attach(self.comments(tokens))

    def on_trump_header(self, key: str, tokens: list[_Tok]) -> None:
        deal = self.deal_header(tokens[0])
        if deal is not None:
            deal.trump = parse_suit(tokens[1][1])
        self.attach(self.comments(tokens))

    def on_turnup_header(self, key: str, tokens: list[_Tok]) -> None:
        deal = self.deal_header(tokens[0])
        card = self.card(tokens[1][1], self.span(tokens[1]))
        if isinstance(card, Card) or card is None:
            if deal is not None:
                deal.turnup = card
        else:
            self.error("BZ107", "the turn-up must be known (it fixes trumps)", self.span(tokens[1]))
        self.attach(self.comments(tokens))

    def on_stock_header(self, key: str, tokens: list[_Tok]) -> None:
        deal = self.deal_header(tokens[0])
        cards = [self.card(t[1], self.span(t)) for t in tokens[1:] if t[0] == "CARD"]
        if deal is not None:
            deal.stock = [c for c in cards if c is not None]
        self.attach(self.comments(tokens))

    def on_cut_header(self, key: str, tokens: list[_Tok]) -> None:
        self.number_header(tokens, "cut")

    def on_guess_header(self, key: str, tokens: list[_Tok]) -> None:
        self.number_header(tokens, "guess")

    def on_position_header(self, key: str, tokens: list[_Tok]) -> None:
        """``position: trick 12, stock 9, N 120, S 80``: where a book fragment starts."""
        deal = self.deal_header(tokens[0])
        words = [t for t in tokens[1:] if t[0] != "COMMENT"]
        trick = int(words[1][1])
        stock = None
        rest = words[2:]
        if rest and rest[0][0] == "STOCK":
            stock, rest = int(rest[1][1]), rest[2:]
        scores = [
            SeatValue(self.seat(seat[1]), int(value[1]), self.span(value))
            for seat, value in zip(rest[::2], rest[1::2], strict=True)
        ]
        if deal is not None:
            deal.position = Position(trick, stock, scores, self.span(tokens[0]))
        self.attach(self.comments(tokens))

    def on_table_header(self, key: str, tokens: list[_Tok]) -> None:
        """``table N: royal_marriage KC QC``: a fragment's meld declared before its position, lying on the table
        (one line per meld, so that a seat's table may be written over several lines)."""
        span = self.span(tokens[0])
        deal = self.ensure_deal(span)
        cards = [self.card(t[1], self.span(t)) for t in tokens[3:] if t[0] == "CARD"]
        if deal.tricks:
            self.error("BZ101", "the table header belongs before the deal's first trick", span)
        else:
            deal.spans.setdefault("table", _made(span))
            meld = TableMeld(self.seat(tokens[1][1]), tokens[2][1], [c for c in cards if c is not None], span)
            deal.table.append(meld)
        self.attach(self.comments(tokens))

    def number_header(self, tokens: list[_Tok], name: str) -> None:
        """``cut: 24``, ``guess: 20``: a number stated for the deal (the six-pack deal bonuses)."""
        deal = self.deal_header(tokens[0])
        if deal is not None:
            setattr(deal, name, int(tokens[1][1]))
        self.attach(self.comments(tokens))

    def on_deal_stmt(self, key: str, tokens: list[_Tok]) -> None:
        span = self.span(tokens[0])
        game = self.ensure_game(span)
        number = None
        for token in tokens[1:]:
            if token[0] == "INT":
                number = int(token[1])
        self.deal = Deal(number, span)
        game.deals.append(self.deal)
        self.trick = None
        self.target = self.deal
        self.attach(self.comments(tokens))

    def points(self, tokens: list[_Tok]) -> _Tok | None:
        """The points stated after ``=`` (the statement's only number)."""
        for token in tokens:
            if token[0] == "INT":
                return token
        return None

    def on_exchange_stmt(self, key: str, tokens: list[_Tok]) -> None:
        trick = self.trick_item(self.span(tokens[0]))
        points = self.points(tokens)
        card = self.card(tokens[2][1], self.span(tokens[2]))
        if trick is not None and card is not None:
            seat = self.seat(tokens[0][1])
            item = Exchange(
                seat, card, None if points is None else int(points[1]), self.span(tokens[0]), self.span(tokens[2])
            )
            self.add_item(trick, item, seat)
        self.attach(self.comments(tokens))

    def on_show_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``N shows marriage KS QS``: cards shown, not scored (a declaration after a trick)."""
        trick = self.trick_item(self.span(tokens[0]))
        kind = kind_span = None
        cards: list[CardLike] = []
        spans: list[Where] = []
        for token in tokens[2:]:
            if token[0] == "KIND":
                kind, kind_span = token[1], self.span(token)
            elif token[0] == "CARD":
                card = self.card(token[1], self.span(token))
                if card is not None:
                    cards.append(card)
                    spans.append(self.span(token))
        if kind is None and not cards:
            self.error("BZ304", "a declaration names its kind, its cards, or both", self.span(tokens[0]))
        elif trick is not None:
            seat = self.seat(tokens[0][1])
            item = Declare(seat, kind, cards, None, self.span(tokens[0]), kind_span, None, spans, scored=False)
            self.add_item(trick, item, seat)
        self.attach(self.comments(tokens))

    def on_pass_stmt(self, key: str, tokens: list[_Tok]) -> None:
        trick = self.trick_item(self.span(tokens[0]))
        if trick is not None:
            seat = self.seat(tokens[0][1])
            item = Pass(seat, self.seat(tokens[3][1]), self.span(tokens[0]), self.span(tokens[3]))
            self.add_item(trick, item, seat)
        self.attach(self.comments(tokens))

    def on_claim_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``S scores last_trick = 10``: an automatic score stated after its trick; before the deal's first trick,
        the deal's own (the dealer's turned-up seven, ``N scores turnup_seven = 10``)."""
        opening = self.trick is None and self.deal is not None and not self.deal.tricks
        trick = None if opening else self.trick_item(self.span(tokens[0]))
        if trick is not None or opening:
            points = self.points(tokens)
            seat = self.seat(tokens[0][1])
            item = Claim(seat, tokens[2][1], None if points is None else int(points[1]), self.span(tokens[2]))
            if trick is not None:
                self.add_item(trick, item, seat)
            elif self.deal is not None:
                self.deal.opening.append(item)
                self.target = item
        self.attach(self.comments(tokens))

    def on_out_stmt(self, key: str, tokens: list[_Tok]) -> None:
        trick = self.trick_item(self.span(tokens[0]))
        if trick is not None:
            points = self.points(tokens)
            seat = self.seat(tokens[0][1])
            item = GoesOut(seat, None if points is None else int(points[1]), self.span(tokens[0]))
            self.add_item(trick, item, seat)
        self.attach(self.comments(tokens))

    def on_penalty_stmt(self, key: str, tokens: list[_Tok]) -> None:
        trick = self.trick_item(self.span(tokens[0]))
        if trick is not None:
            points = self.points(tokens)
            seat = self.seat(tokens[0][1])
            item = Penalty(
                seat,
                tokens[2][1],
                None if points is None else int(points[1]),
                self.span(tokens[0]),
                self.span(tokens[2]),
                None if points is None else self.span(points),
            )
            self.add_item(trick, item, seat)
        self.attach(self.comments(tokens))

    def on_variation_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``(``: a what-if line opens after the current trick, replacing it (nested as PGN nests them)."""
        span = self.span(tokens[0])
        trick = self.trick
        deal = self.deal
        if trick is None or deal is None or deal.end:
            self.error("BZ101", "a variation '(' opens after a trick, which it replaces", span)
            self.attach(self.comments(tokens))
            return
        if len(self.open_lines) >= MAX_NESTING:
            # Deeper lines are not read into the record (every command walks it, and none then meets a depth it
            # cannot handle): the record is reported, not replayed; the statements up to the matching ")" go on
            # in the line open at the limit.
            if not self.too_deep:  # (once for a run of lines too deep)
                self.error(
                    "BZ115", f"a variation nested more than {MAX_NESTING} deep (close some with ')' first)", span
                )
            self.too_deep += 1
            self.attach(self.comments(tokens))
            return
        variation = Variation(span, self.comments(tokens))
        trick.variations.append(variation)
        self.open_lines.append((deal, deal.tricks, trick, variation))
        deal.tricks = variation.tricks
        self.trick = None
        self.target = variation

    def on_variation_end_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``)``: the innermost open variation ends; the line it branched from goes on."""
        span = self.span(tokens[0])
        if self.too_deep:
            self.too_deep -= 1
            self.attach(self.comments(tokens))
            return
        if not self.open_lines or self.open_lines[-1][0] is not self.deal:
            self.error("BZ101", "')' closes no variation of this deal", span)
            self.attach(self.comments(tokens))
            return
        deal, tricks, trick, variation = self.open_lines.pop()
        if not variation.tricks:
            self.error("BZ101", "a variation holds at least one trick", span)
        deal.tricks = tricks
        variation.comments.extend(self.comments(tokens))
        self.trick = trick
        self.target = trick

    def close_variations(self) -> None:
        """After the last statement: a variation still open is an error at its ``(``."""
        while self.open_lines:
            deal, tricks, _, variation = self.open_lines.pop()
            deal.tricks = tricks
            self.error("BZ101", "this variation is not closed: end it with ')' before the next deal", variation.span)

    def on_claim_game_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``N claims game``: a claim of the game, after a trick (002:L16, 004:L333)."""
        trick = self.trick_item(self.span(tokens[0]))
        if trick is not None:
            seat = self.seat(tokens[0][1])
            self.add_item(trick, ClaimGame(seat, self.span(tokens[0])), seat)
        self.attach(self.comments(tokens))

    def on_forfeit_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``N forfeits = 15``: the points an illegal play of the trick won are given up (002:L13)."""
        trick = self.trick_item(self.span(tokens[0]))
        if trick is not None:
            points = self.points(tokens)
            seat = self.seat(tokens[0][1])
            item = Forfeit(
                seat,
                None if points is None else int(points[1]),
                self.span(tokens[0]),
                None if points is None else self.span(points),
            )
            self.add_item(trick, item, seat)
        self.attach(self.comments(tokens))

    def on_redeal_stmt(self, key: str, tokens: list[_Tok]) -> None:
        """``redeal``: the deal is a misdeal and is dealt again (002:L18); it stands before the deal's first trick."""
        span = self.span(tokens[0])
        deal = self.deal
        if deal is None or deal.tricks or deal.end:
            self.error("BZ101", "a redeal belongs to a deal, before its first trick ('deal N' ... 'redeal')", span)
        elif deal.redeal:
            self.error("BZ102", "this deal already says 'redeal'", span)
        else:
            deal.redeal = True
            deal._redeal_span = span
            self.target = deal
        self.attach(self.comments(tokens))

    def on_winner_stmt(self, key: str, tokens: list[_Tok]) -> None:
        game = self.ensure_game(self.span(tokens[0]))
        game.winner = self.seat(tokens[1][1])
        game.winner_span = _made(self.span(tokens[1]))
        self.target = game
        self.attach(self.comments(tokens))


if TYPE_CHECKING:
    _Build = Callable[[_Builder, str, Any, Any, int, int, int], None]

_BUILDERS: dict[str, _Build] = {
    "trick_stmt": _Builder.build_trick,
    "unordered_trick": _Builder.build_trick,
    "draws_stmt": _Builder.build_draws,
    "score_stmt": _Builder.build_score,
    **dict.fromkeys(_END_RULES, _Builder.build_end),
    "hand_header": _Builder.build_hand,
    "declare_stmt": _Builder.build_declare,
}
"""The builder of each statement built from its groups (_GROUPS)."""
_HANDLERS: dict[str, Callable[[_Builder, str, list[_Tok]], None]] = {
    key: getattr(_Builder, f"on_{key}") for key in STATEMENTS if key not in _BUILDERS
}
"""The builder of each other statement, from its tokens."""


def _parts(key: str) -> tuple[tuple[_Build, str, int], ...]:
    """The statements of a block: (its builder, its rule, the index of its first group)."""
    parts = []
    first = 0
    for rule in _BLOCK_RULES[key]:
        parts.append((_BUILDERS[rule], rule, first))
        first += len(_GROUPS[rule]) + 1  # (and nl)
    return tuple(parts)


# The block to try at a line that may be the statement its first reads.
_BLOCK_OF = {"trick_stmt": "trick_block", "draws_stmt": "draws_block"}
_BLOCK_PARTS = {rule: _parts(key) for rule, key in _BLOCK_OF.items()}
_check_layout()
if set(_BUILDERS) != set(_GROUPS):
    raise ImportError("replayer/reader.py: a statement of _GROUPS without its builder")

if TYPE_CHECKING:
    _Entry = tuple[tuple[str, ...], re.Pattern[str] | None, tuple[Any, ...]]
_NO_ENTRY: _Entry = ((), None, ())
_entries: dict[str, _Entry] = {}


def _entry(char: str) -> _Entry:
    """What a line starting with ``char`` may be: (the statements to try, the block to try first or None, the
    block's statements), found once per character."""
    keys = DISPATCH.get(char)
    if keys is None:
        entry = _NO_ENTRY
    elif keys[0] in _BLOCK_OF:
        entry = (keys, _block(_BLOCK_OF[keys[0]]), _BLOCK_PARTS[keys[0]])
    else:
        entry = (keys, None, ())
    _entries[char] = entry
    return entry


def _same_trick(one: Trick, other: Trick) -> bool:
    """Whether two tricks play the same cards by the same seats, in the same order, to the same winner."""
    return one.winner == other.winner and [(p.seat, str(p.card)) for p in one.plays] == [
        (p.seat, str(p.card)) for p in other.plays
    ]
