"""Errors with a position, and the catalogue of error codes every command reports.

A problem found in a record is a :class:`Diagnostic`: a code (``BZ201``), a message that names the rule, and a
:class:`Span`. The command line prints it as ``FILE:LINE:COL: error: CODE message`` followed by the source line and
a caret under the offending token.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "CODES",
    "BeziqueError",
    "Diagnostic",
    "NotationError",
    "RuleProfileError",
    "RuleViolation",
    "Span",
    "catalogue_markdown",
    "format_diagnostic",
]


@dataclass(frozen=True, slots=True)
class Span:
    """A place in a record: 1-based line and column, and the length of the token to underline."""

    line: int
    column: int
    length: int = 1


@dataclass(frozen=True)
class Diagnostic:
    """One problem in a record."""

    code: str
    message: str
    span: Span | None
    path: str = "<record>"
    severity: str = "error"

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


@dataclass
class NotationError(BeziqueError):
    """A record that does not parse, or whose statements are out of place."""

    diagnostics: list[Diagnostic] = field(default_factory=list)

    def __str__(self) -> str:
        return "; ".join(f"{d.location()}: {d.code} {d.message}" for d in self.diagnostics)


class RuleProfileError(BeziqueError):
    """A rule profile (YAML) that is missing, malformed or inconsistent; the message names the file and key."""


class RuleViolation(BeziqueError):
    """Raised by the engine when an action breaks a rule; carries the error code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


# The catalogue: code -> (one-line title, what it concerns). docs/errors.md is generated from it.
CODES: dict[str, tuple[str, str]] = {
    "BZ001": ("syntax error", "the notation grammar"),
    "BZ002": ("unexpected character", "the notation grammar"),
    "BZ003": ("not a card", "card spelling: rank then suit, e.g. QS, 10C, Q♠, Д пики"),
    "BZ004": ("unterminated comment", "comments are written { ... }"),
    "BZ101": ("statement out of place", "record structure: game, headers, deal, tricks, end of deal"),
    "BZ102": ("duplicate header", "record structure"),
    "BZ103": ("unknown profile", "the profile header names a YAML rule profile"),
    "BZ104": ("bad option", "options are name=value pairs the profile defines"),
    "BZ105": ("unknown seat", "the seats the profile and the players header define"),
    "BZ106": ("trick out of order", "tricks are numbered 1, 2, 3, … within a deal"),
    "BZ107": ("missing deal information", "trump, turn-up and both initial hands"),
    "BZ108": ("wrong number of cards", "hand size, packs"),
    "BZ109": ("unknown meld kind", "the profile's meld table"),
    "BZ201": ("card not held", "a player plays only a card he holds, in hand or on the table"),
    "BZ202": ("wrong player", "the winner of a trick leads to the next; players play in turn"),
    "BZ203": ("must follow suit", "phase 2: follow suit if able"),
    "BZ204": ("must win the trick", "phase 2: win the trick if able"),
    "BZ205": ("must trump", "phase 2: trump when void in the suit led"),
    "BZ206": ("wrong trick winner", "highest trump wins, else highest card of the suit led; first of equals wins"),
    "BZ207": ("incomplete trick", "every player plays one card to each trick"),
    "BZ301": ("declaration by a player who did not win the trick", "declare only after winning a trick"),
    "BZ302": ("declaration out of phase", "no declarations once the stock is exhausted"),
    "BZ303": ("meld card not held", "every card of a declaration is held at once, in hand or on the table"),
    "BZ304": ("not a meld", "the profile's meld table"),
    "BZ305": ("wrong points", "the profile's meld table and scoring values"),
    "BZ306": ("no new card", "re-use: a declaration needs a card not yet scored in its class"),
    "BZ307": ("card re-used in the same kind", "re-use: a card scores once in each kind of combination"),
    "BZ308": ("too many declarations after one trick", "one declaration scored per won trick"),
    "BZ309": ("invalid seven exchange", "exchange the trump seven for the turn-up after winning a trick"),
    "BZ310": ("claimed score did not happen", "automatic scores: seven played, last trick, turn-up seven"),
    "BZ401": ("draw out of order", "the trick winner draws first, then the loser"),
    "BZ402": ("missing or extra draw", "each player draws one card after each phase-1 trick"),
    "BZ403": ("draw against the stock", "cards come off the stock in its stated order; the turn-up is last"),
    "BZ404": ("card conservation", "each card exists once per pack"),
    "BZ501": ("wrong running score", "the stated score must equal the rules' total at that point"),
    "BZ502": ("wrong brisques", "10 for each ace and ten in won tricks"),
    "BZ503": ("wrong deal result", "the deal's final scores"),
    "BZ504": ("wrong game total", "game totals over deals"),
    "BZ505": ("wrong game winner", "the target and the tie rule"),
    "BZ506": ("incomplete deal", "a deal is played out to its last trick"),
}


def format_diagnostic(diag: Diagnostic, source: str | None = None) -> str:
    """``FILE:LINE:COL: error: CODE message``, then the source line and a caret line when the source is known."""
    head = f"{diag.location()}: {diag.severity}: {diag.code} {diag.message}"
    if source is None or diag.span is None:
        return head
    lines = source.splitlines()
    if not 1 <= diag.span.line <= len(lines):
        return head
    text = lines[diag.span.line - 1].expandtabs(1)
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
        "| code | problem | rule or syntax concerned |",
        "|---|---|---|",
    ]
    for code, (title, concern) in CODES.items():
        lines.append(f"| {code} | {title} | {concern} |")
    lines.append("")
    return "\n".join(lines)
