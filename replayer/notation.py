"""The notation's grammar (grammar/bezique.lark) read by Lark: the syntax errors of a record, and where the package's
data folders are.

Records are read by :mod:`replayer.reader`, with the regular expressions that :mod:`replayer.grammar_compiler` makes
from the grammar; Lark parses a record only when that reader finds a statement it cannot read, to report the syntax
errors (:func:`syntax_errors`) with Lark's positions and expectations. Lark is imported only then (and by the grammar
compiler and the tests), which keeps it out of a command's start-up.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING

from .errors import Diagnostic, Span

if TYPE_CHECKING:
    from lark import Lark
    from lark.exceptions import UnexpectedInput

__all__ = ["data_dir", "syntax_errors"]

_MAX_SYNTAX_ERRORS = 20
_HEADER_NAMES = (
    "title, source, url, page, date, event, site, annotator, translator, note, language, round, players, "
    "profile, options, target, dealer, leader, trump, turnup, hand, stock"
)

# Friendly names for the grammar's terminals in "expected ..." messages.
_TERMINAL_NAMES = {
    "SEAT": "a seat (N, S, E, W)",
    "CARD": "a card (e.g. QS, 10C, Q♠)",
    "INT": "a number",
    "SCORE_INT": "a number",
    "_NL": "the end of the line",
    "COMMA": "','",
    "COLON": "':'",
    "EQUAL": "'='",
    "__ANON_0": "'->'",
    "KIND": "a meld kind (e.g. royal_marriage)",
    "NAME": "a name",
    "PROFILE_NAME": "a profile name",
    "SUIT": "a suit (S, H, D, C)",
    "STRING": "a quoted string",
    "TEXT": "text",
    "COMMENT": "a comment",
    "QUESTION": "a question",
    "MINUSGT": "'->'",
    "SLASH": "'/'",
    "SIDE": "a side (e.g. N+S)",
}


def data_dir(name: str) -> Path:
    """Locate a data folder shipped beside the package (``grammar``, ``site_templates``).

    In a source checkout they sit at the top level, beside ``replayer/``; an installed wheel carries them inside
    the package (pyproject.toml maps them there).
    """
    here = Path(__file__).resolve().parent
    for candidate in (here / name, here.parent / name):
        if candidate.is_dir():
            return candidate
    raise FileNotFoundError(f"the {name} folder is missing from the installation ({here})")


@lru_cache(maxsize=1)
def _parser() -> Lark:
    import lark

    grammar = (data_dir("grammar") / "bezique.lark").read_text(encoding="utf-8")
    # cache=True keeps the compiled parser in the temporary folder: a cold start skips compiling the grammar.
    return lark.Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False, cache=True)


def _expected(names: set[str]) -> str:
    readable = sorted({_TERMINAL_NAMES.get(n, n.lower() if n.isupper() else n) for n in names})
    if len(readable) > 6:
        readable = [*readable[:6], "…"]
    return ", ".join(readable)


_LONG_NUMBER = re.compile(r"-?\d{10,}")
_MAX_DIGITS = 9
"""The digits a number of the notation may have (the grammar's INT and SCORE_INT: up to 999,999,999)."""


def _syntax_diagnostic(exc: UnexpectedInput, text: str, path: str) -> Diagnostic:
    from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedToken

    line, column = exc.line, exc.column
    at = exc.pos_in_stream if isinstance(exc, UnexpectedCharacters) else None
    if isinstance(exc, UnexpectedToken):
        at = exc.token.start_pos
    long = _LONG_NUMBER.match(text, at) if at is not None and at >= 0 else None
    if long is not None:
        digits = len(long[0].lstrip("-"))
        return Diagnostic(
            "BZ001",
            f"a number of {digits} digits: a number has at most {_MAX_DIGITS} digits (up to 999,999,999)",
            Span(line, column, len(long[0])),
            path,
        )
    if isinstance(exc, UnexpectedCharacters):
        pos = exc.pos_in_stream or 0
        char = text[pos] if pos < len(text) else ""
        if char == "{":
            return Diagnostic("BZ004", "unterminated comment: '{' has no closing '}'", Span(line, column), path)
        word = text[pos:].split(None, 1)[0] if text[pos:].strip() else char
        word = word.split(",")[0] or char
        if len(word) > 40:
            word = word[:40] + "…"
        expected = _expected(set(exc.allowed or ()))
        if "CARD" in (exc.allowed or ()):
            return Diagnostic(
                "BZ003",
                f"not a card: {word!r} (write rank then suit, e.g. QS, 10C, Q♠, Д пики); expected {expected}",
                Span(line, column, len(word)),
                path,
            )
        return Diagnostic("BZ002", f"unexpected {word!r}; expected {expected}", Span(line, column, len(word)), path)
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        if (
            "CARD" in (exc.expected or ())
            and token.type
            in (
                "NAME",
                "PROFILE_NAME",
                "KIND",
                "SEAT",
                "INT",
                "SCORE_INT",
                "SUIT",
                "TEXT",
            )
            and str(token).split()
        ):  # (a token of blanks only is not a misspelt card: the general message below)
            word = str(token).split()[0].rstrip(",")
            return Diagnostic(
                "BZ003",
                f"not a card: {word!r} (write rank then suit, e.g. QS, 10C, Q♠, Д пики)",
                Span(token.line or line, token.column or column, len(word)),
                path,
            )
        rest = text[(token.end_pos or 0) :].lstrip(" \t")
        if token.type in ("NAME", "KIND", "SEAT") and rest.startswith(":"):
            return Diagnostic(
                "BZ001",
                f"unknown header {str(token) + ':'!r} (headers: {_HEADER_NAMES})",
                Span(token.line or line, token.column or column, len(str(token)) + 1),
                path,
            )
        if len(str(token)) > 40:
            token = token.update(value=str(token)[:40] + "…")
        shown = "end of line" if token.type == "_NL" else ("end of file" if token.type == "$END" else repr(str(token)))
        expected = _expected(set(exc.expected or ()))
        return Diagnostic(
            "BZ001",
            f"unexpected {shown}; expected {expected}",
            Span(token.line or line, token.column or column, max(1, len(str(token).strip()))),
            path,
        )
    if isinstance(exc, UnexpectedEOF):
        return Diagnostic(
            "BZ001",
            f"unexpected end of file; expected {_expected(set(exc.expected))}",
            Span(max(1, text.count("\n")), 1),
            path,
        )
    return Diagnostic("BZ001", "syntax error", Span(line, column), path)


def _blank_line(text: str, line: int) -> str:
    lines = text.split("\n")
    if 1 <= line <= len(lines):
        lines[line - 1] = " " * len(lines[line - 1])
    return "\n".join(lines)


def syntax_errors(text: str, path: str = "<record>", limit: int = _MAX_SYNTAX_ERRORS) -> list[Diagnostic]:
    """Lark's syntax errors of a text, each as a diagnostic (up to ``limit``); empty when Lark accepts it.

    Lark reports the first error; the line it is on is then blanked and the text parsed again, for the next one.
    """
    from lark.exceptions import UnexpectedInput

    diagnostics: list[Diagnostic] = []
    work = text
    while True:
        try:
            _parser().parse(work)
            break
        except UnexpectedInput as exc:
            diag = _syntax_diagnostic(exc, text, path)
            if diagnostics and diagnostics[-1].span == diag.span:
                break
            diagnostics.append(diag)
            if len(diagnostics) >= limit or diag.code == "BZ004" or diag.span is None:
                break
            work = _blank_line(work, diag.span.line)
    return diagnostics
