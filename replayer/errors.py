"""Errors with a position, and the catalogue of error codes every command reports.

A problem found in a record is a :class:`Diagnostic`: a code (``BZ201``), a message that names the rule, and a
:class:`Span`. The command line prints it as ``FILE:LINE:COL: error: CODE message`` followed by the source line and
a caret under the offending token.
"""

from __future__ import annotations

from collections.abc import Iterator

__all__ = [
    "CODES",
    "BeziqueError",
    "Diagnostic",
    "ErrorCode",
    "NotationError",
    "RuleProfileError",
    "RuleViolation",
    "Span",
    "UsageError",
    "catalogue_markdown",
    "format_diagnostic",
]


# Plain classes, not dataclasses: every command needs these, and a dataclass is made at import by running generated
# code (a third of a millisecond each, and the dataclasses module imports inspect): a fifth of a short run's start.


class Span:
    """A place in a record: 1-based line and column, and the length of the token to underline. Immutable."""

    __slots__ = ("column", "length", "line")

    line: int
    column: int
    length: int

    def __init__(self, line: int, column: int, length: int = 1) -> None:
        # The slots' own setters (__setattr__ refuses): a record holds a span per card, seat and number.
        _set_line(self, line)
        _set_column(self, column)
        _set_length(self, length)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Span):
            return NotImplemented
        return (self.line, self.column, self.length) == (other.line, other.column, other.length)

    def __hash__(self) -> int:
        return hash((self.line, self.column, self.length))

    def __repr__(self) -> str:
        return f"Span(line={self.line!r}, column={self.column!r}, length={self.length!r})"

    def __reduce__(self) -> tuple[type[Span], tuple[int, int, int]]:
        return Span, (self.line, self.column, self.length)


_set_line = Span.__dict__["line"].__set__
_set_column = Span.__dict__["column"].__set__
_set_length = Span.__dict__["length"].__set__


class Diagnostic:
    """One problem in a record. Immutable."""

    __slots__ = ("code", "message", "path", "severity", "span")

    code: str
    message: str
    span: Span | None
    path: str
    severity: str

    def __init__(
        self, code: str, message: str, span: Span | None, path: str = "<record>", severity: str = "error"
    ) -> None:
        _set = object.__setattr__
        _set(self, "code", code)
        _set(self, "message", message)
        _set(self, "span", span)
        _set(self, "path", path)
        _set(self, "severity", severity)

    def _fields(self) -> tuple[str, str, Span | None, str, str]:
        return (self.code, self.message, self.span, self.path, self.severity)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Diagnostic):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        code, message, span, path, severity = self._fields()
        return f"Diagnostic(code={code!r}, message={message!r}, span={span!r}, path={path!r}, severity={severity!r})"

    def __reduce__(self) -> tuple[type[Diagnostic], tuple[str, str, Span | None, str, str]]:
        return Diagnostic, self._fields()

    def location(self) -> str:
        """``FILE:LINE:COL`` (or just ``FILE`` when the problem has no position)."""
        if self.span is None:
            return self.path
        return f"{self.path}:{self.span.line}:{self.span.column}"

    def to_json(self) -> dict[str, object]:
        """A JSON-ready dictionary."""
        return {
            "path": self.path,
            "line": self.span.line if self.span else None,
            "column": self.span.column if self.span else None,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
        }


class BeziqueError(ValueError):
    """Base of the project's own errors."""


class NotationError(BeziqueError):
    """A record that does not parse, or whose statements are out of place."""

    def __init__(self, diagnostics: list[Diagnostic] | None = None) -> None:
        self.diagnostics = diagnostics if diagnostics is not None else []

    def __str__(self) -> str:
        return "; ".join(f"{d.location()}: {d.code} {d.message}" for d in self.diagnostics)


class UsageError(BeziqueError):
    """A problem with a command's arguments (a bad flag, a missing file): exit status 2."""


class RuleProfileError(BeziqueError):
    """A rule profile (YAML) that is missing, malformed or inconsistent; the message names the file and key."""


class OptionError(BeziqueError):
    """A record's options that its profile does not take: ``option`` is the one at fault, or the last of those that
    together describe no playable deal (None when no option was given)."""

    def __init__(self, message: str, option: str | None) -> None:
        super().__init__(message)
        self.option = option


class RuleViolation(BeziqueError):
    """Raised by the engine when an action breaks a rule; carries the error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class ErrorCode:
    """One entry of the catalogue: what the problem is, the rule or syntax it concerns, and an example: a record
    line that produces the error (tests/test_error_codes.py replays each one)."""

    __slots__ = ("concern", "example", "title")

    def __init__(self, title: str, concern: str, example: str) -> None:
        self.title = title
        self.concern = concern
        self.example = example

    def __iter__(self) -> Iterator[str]:
        return iter((self.title, self.concern, self.example))


# The catalogue: code -> (one-line title, what it concerns, an example line). docs/errors.md is generated from it.
CODES: dict[str, ErrorCode] = {
    "BZ001": ErrorCode("syntax error", "the notation grammar", "trick 5: N JC S JH -> N"),
    "BZ002": ErrorCode(
        "not UTF-8 text",
        "records are UTF-8 text; the position is the first byte that cannot be read",
        "source: Bézique  { this é saved as Latin-1, byte 0xe9 }",
    ),
    "BZ003": ErrorCode(
        "not a card", "card spelling: rank then suit, e.g. QS, 10C, Q♠, Д пики", "trick 9: S 9S, N 10X -> N"
    ),
    "BZ004": ErrorCode("unterminated comment", "comments are written { ... }", "{ South was lucky enough"),
    "BZ005": ErrorCode(
        "not in the canonical form (bezique fmt --check)",
        "the canonical form (docs/notation.md)",
        "trick  2: N 9C, S 7H -> N",
    ),
    "BZ006": ErrorCode(
        "no game in the record",
        "a record holds at least one game with a deal; an empty file or one of comments only is not a record",
        "{ nothing but this comment }",
    ),
    "BZ101": ErrorCode(
        "statement out of place",
        "record structure: game, headers, deal, tricks, end of deal",
        "dealer: S  { after trick 1 }",
    ),
    "BZ102": ErrorCode("duplicate header", "record structure", "title: A second title"),
    "BZ103": ErrorCode("unknown profile", "the profile header names a YAML rule profile", "profile: pinochle"),
    "BZ104": ErrorCode("bad option", "options are name=value pairs the profile defines", "options: last_trick=25"),
    "BZ105": ErrorCode("unknown seat", "the seats the profile and the players header define", "dealer: E"),
    "BZ106": ErrorCode(
        "trick out of order", "tricks are numbered 1, 2, 3, … within a deal", "trick 11: N 8S, S 8S -> N"
    ),
    "BZ107": ErrorCode(
        "missing deal information", "trump, turn-up and both initial hands", "turnup: 10H  { trump: C }"
    ),
    "BZ108": ErrorCode("wrong number of cards", "hand size, packs", "hand N: 7C QC QC JC QH AH 7H"),
    "BZ109": ErrorCode("unknown meld kind", "the profile's meld table", "N declares royal_wedding KC QC = 40"),
    "BZ110": ErrorCode(
        "wrong dealer",
        "who deals the next hand, where the profile says it (sixty-six: the winner of the hand before)",
        "dealer: S  { deal 2 of a sixty-six game that S lost }",
    ),
    "BZ111": ErrorCode(
        "game without a deal",
        "record structure: a game holds at least one deal (its hands, or a position, and its tricks)",
        'game "Headers only"',
    ),
    "BZ112": ErrorCode(
        "position does not hold",
        "a book fragment's position (docs/notation.md): its hands, stock, scores and leader, all stated",
        "table N: marriage KH QH",
    ),
    "BZ113": ErrorCode(
        "misdeal not dealt again",
        "a misdeal is dealt again before play, where the profile has the rule (ru19: 002:L18)",
        "redeal  { classic has no redeal }",
    ),
    "BZ114": ErrorCode(
        "missing trick",
        "a deal's tricks are all written, numbered 1, 2, 3, …; reported at the gap, the trick read as unknown cards",
        "trick 10: N 8S, S 8S -> N  { trick 9 left out }",
    ),
    "BZ115": ErrorCode(
        "variations nested too deep",
        "a variation nests in another at most 50 deep (reader.MAX_NESTING)",
        "(  { the 51st variation open at once }",
    ),
    "BZ116": ErrorCode(
        "trick written twice",
        "a deal's tricks are written once each; a block of tricks repeated card for card is reported once and left out",
        "trick 9: S 9S, N 10S -> N  { trick 9 again, after trick 10 }",
    ),
    "BZ201": ErrorCode(
        "card not held", "a player plays only a card he holds, in hand or on the table", "trick 3: N 7S, S 9D -> N"
    ),
    "BZ202": ErrorCode(
        "wrong player", "the winner of a trick leads to the next; players play in turn", "trick 2: S 7H, N 9C -> N"
    ),
    "BZ203": ErrorCode("must follow suit", "phase 2: follow suit if able", "trick 29: S 10H, N KS -> S"),
    "BZ204": ErrorCode("must win the trick", "phase 2: win the trick if able", "trick 25: N KD, S KD -> N"),
    "BZ205": ErrorCode("must trump", "phase 2: trump when void in the suit led", "trick 31: S KD, N KH -> S"),
    "BZ206": ErrorCode(
        "wrong trick winner",
        "highest trump wins, else highest card of the suit led; first of equals wins",
        "trick 9: S 9S, N 10S -> S",
    ),
    "BZ207": ErrorCode("incomplete trick", "every player plays one card to each trick", "trick 2: N 9C -> N"),
    "BZ208": ErrorCode(
        "the hand is over",
        "a player who reaches the hand's target (66 in sixty-six) ends the hand at once",
        "trick 5: N KC, S 9S -> N  { N went out after trick 4 }",
    ),
    "BZ209": ErrorCode(
        "must lead a declared card",
        "sixty-six: the declarer of a marriage leads one of its cards to the next trick",
        "trick 2: S 9S, N AS -> N  { S declared marriage KC QC }",
    ),
    "BZ301": ErrorCode(
        "declaration by a player who did not win the trick",
        "declare only after winning a trick",
        "S declares bezique QS JD = 40  { N won trick 9 }",
    ),
    "BZ302": ErrorCode(
        "declaration out of phase",
        "no declarations once the stock is exhausted",
        "S declares marriage KD QD = 20  { after trick 25 }",
    ),
    "BZ303": ErrorCode(
        "meld card not held",
        "every card of a declaration is held at once, in hand or on the table",
        "N declares four_aces AH AC AD AS = 100",
    ),
    "BZ304": ErrorCode("not a meld", "the profile's meld table", "N declares royal_marriage KC JC = 40"),
    "BZ305": ErrorCode(
        "wrong points", "the profile's meld table and scoring values", "S declares four_queens QS QS QD QD = 80"
    ),
    "BZ306": ErrorCode(
        "no new card",
        "re-use: a declaration needs a card not yet scored in its class",
        "N declares four_kings KC KC KH KS = 80  { again after trick 19 }",
    ),
    "BZ307": ErrorCode(
        "card re-used in the same kind",
        "re-use: a card scores once in each kind of combination",
        "N declares marriage KH QH = 20  { reuse=strict_text; this KH was married at trick 3 }",
    ),
    "BZ308": ErrorCode(
        "too many declarations after one trick",
        "one declaration scored per won trick",
        "N declares four_aces AH AC AC AS = 100  { a second declaration after trick 2 }",
    ),
    "BZ309": ErrorCode(
        "invalid seven exchange",
        "exchange the trump seven for the turn-up after winning a trick",
        "S exchanges 7C = 10  { N won trick 1 }",
    ),
    "BZ310": ErrorCode(
        "claimed score did not happen",
        "automatic scores: seven played, last trick, turn-up seven",
        "N scores seven_played = 10  { trick 2: N 9C, S 7H }",
    ),
    "BZ311": ErrorCode(
        "invalid pass to the partner",
        "partnership profiles: the trick's winner lets his partner declare, before declaring himself",
        "N passes to S  { classic has no partners }",
    ),
    "BZ312": ErrorCode(
        "declaration with the partner's cards not allowed",
        "only profiles that let partners declare together",
        "N declares bezique QS with S JD = 40  { classic has no partners }",
    ),
    "BZ313": ErrorCode(
        "no such penalty",
        "the penalties the profile's table lists (RULES.md §3.6)",
        "N penalty extra_card = 50  { classic lists no penalties }",
    ),
    "BZ314": ErrorCode(
        "wrong penalty points",
        "the points of the profile's penalty table",
        "N penalty extra_card = 60  { ua2: 50 }",
    ),
    "BZ315": ErrorCode(
        "card just gained declared",
        "classic: the card an exchange gains goes into a declaration only after a later trick ([EW] iii)",
        "N declares royal_marriage KH QH = 40",
    ),
    "BZ316": ErrorCode(
        "claim of the game out of turn",
        "the game is claimed when the profile allows it (ru19: once the stock is gone, 002:L16)",
        "N claims game  { the stock on the table }",
    ),
    "BZ317": ErrorCode(
        "wrong forfeit",
        "the points won by an illegal play are given up after its trick (ru19: 002:L13)",
        "N forfeits  { no illegal play in trick 1 }",
    ),
    "BZ401": ErrorCode("draw out of order", "the trick winner draws first, then the loser", "draws S 8S, N JS"),
    "BZ402": ErrorCode(
        "missing or extra draw",
        "each player draws one card after each phase-1 trick",
        "draws N 7S  { after trick 25 }",
    ),
    "BZ403": ErrorCode(
        "draw against the stock",
        "cards come off the stock in its stated order; the turn-up is last",
        "draws N KH, S 7D  { the turn-up is 7C }",
    ),
    "BZ404": ErrorCode("card conservation", "each card exists once per pack", "draws N QC, S 9D  { a third QC }"),
    "BZ405": ErrorCode(
        "draw left out that the rules force (a warning; an error with validate --strict)",
        "each player draws after each phase-1 trick; a record may leave draws out, but a forced one is reported",
        "trick 9: S 9S, N 10S -> N  { its draws N JS, S 8S left out }",
    ),
    "BZ501": ErrorCode(
        "wrong running score", "the stated score must equal the rules' total at that point", "score N 330, S 0"
    ),
    "BZ502": ErrorCode("wrong brisques", "10 for each ace and ten in won tricks", "brisques N 60, S 110"),
    "BZ503": ErrorCode("wrong deal result", "the deal's final scores", "result N 600, S 730"),
    "BZ504": ErrorCode("wrong game total", "game totals over deals", "total N 600, S 730"),
    "BZ505": ErrorCode("wrong game winner", "the target and the tie rule", "winner S  { target 2000 not reached }"),
    "BZ506": ErrorCode(
        "incomplete deal", "a deal is played out to its last trick", "brisques N 60, S 100  { after trick 25 }"
    ),
    "BZ507": ErrorCode(
        "wrong going out",
        "'N goes out' is written where the seat reaches the hand's target, with its score",
        "N goes out = 60",
    ),
    "BZ508": ErrorCode(
        "deal after the game is over",
        "a game ends with the deal in which a player reaches the target; a one-hand game with its hand",
        "dealer: N  { N won the game in deal 5 }",
    ),
    "BZ601": ErrorCode(
        "no completion of the unknown cards",
        "a record with unknown cards (Q?, ??) is valid when some completion satisfies every rule and stated fact",
        "trick 4: N Q?, S 9? -> N  ... score N 330, S 0",
    ),
    "BZ602": ErrorCode(
        "conflicting statement",
        "one of the smallest set of stated facts that no completion of the unknown cards satisfies together",
        "score N 330, S 0  { with the declarations before it }",
    ),
    "BZ701": ErrorCode(
        "question leaves out the card played (a warning)",
        "a lesson's question accepts the card the record plays, or is marked {?[better] ...} when the book's play was "
        "a slip",
        "trick 2: {? Which card? | 9S } N 9C, S 7H -> N",
    ),
    "BZ603": ErrorCode(
        "unknown cards not completed here",
        "unknown cards are completed from the deal on, in a player's own cards: a declaration before the first "
        "trick, a carte blanche or a partner's card in a joint declaration names its cards",
        "N declares bezique Q? JD  { before trick 1 }",
    ),
}


_split: tuple[str, list[str]] | None = None


def _lines(source: str) -> list[str]:
    """The source's lines as the reader counts them (at ``\\n`` only: a form feed or U+2028 in a comment, where
    ``str.splitlines`` would break, is no line break), split once for all the diagnostics of one record (printing
    stays linear)."""
    global _split
    if _split is None or _split[0] is not source:
        _split = (source, [line.removesuffix("\r") for line in source.split("\n")])
    return _split[1]


def format_diagnostic(diag: Diagnostic, source: str | None = None, first_line: int = 1) -> str:
    """``FILE:LINE:COL: error: CODE message``, then the source line and a caret line when the source is known.

    ``first_line`` is the line number of the source's first line, when the source is a part of the file.
    """
    head = f"{diag.location()}: {diag.severity}: {diag.code} {diag.message}"
    if source is None or diag.span is None:
        return head
    lines = _lines(source)
    if not first_line <= diag.span.line < first_line + len(lines):
        return head
    text = lines[diag.span.line - first_line].expandtabs(1)
    caret = " " * (diag.span.column - 1) + "^" * max(1, min(diag.span.length, len(text) - diag.span.column + 1))
    return f"{head}\n    {text}\n    {caret}"


def catalogue_markdown() -> str:
    """The error catalogue as Markdown (docs/errors.md is this text; a test keeps them equal)."""
    lines = [
        "# Error codes",
        "",
        "Every problem `bezique` reports has a stable code. Messages name the rule that was broken;",
        "`FILE:LINE:COL: error: CODE message` is followed by the source line and a caret under the offending token.",
        "",
        "The example is a record line that produces the error (in its context; tests/test_error_codes.py replays",
        "each one and checks the code and the position).",
        "",
        "| code | problem | rule or syntax concerned | example |",
        "|---|---|---|---|",
    ]
    for code, entry in CODES.items():
        # (A | in a table cell is escaped, in a code span too, as GitHub's tables read it.)
        escaped = entry.example.replace("|", "\\|")
        example = f"`{escaped}`" if not entry.example.startswith("(") else escaped
        lines.append(f"| {code} | {entry.title} | {entry.concern} | {example} |")
    lines.append("")
    return "\n".join(lines)
