"""The notation's Pygments lexer: ``pygmentize -l bezique record.bzq`` (aliases ``bzq``; files ``*.bzq``).

It is registered through the ``pygments.lexers`` entry point (pyproject.toml), and comes with the ``editor`` extra
(``pip install 'bezique-replayer[editor]'``), which brings Pygments. Everything it knows of the notation is the
grammar's (grammar/bezique.lark): the regular expressions of its terminals, as the grammar compiler writes them into
replayer/grammar_tables.py (``TERMINALS``, in the order Lark's lexer tries them). A terminal of priority 2 is a
keyword; the others are coloured by what they are (a card, a seat or a side, a number, a meld kind, a comment, a
question, a string). A text header's value is free text to the end of the line, as in the grammar. The lexer
colours tokens; it does not check the record (``bezique validate`` and the language server do).
"""

from __future__ import annotations

import re
from typing import Any

from pygments.lexer import RegexLexer, bygroups
from pygments.token import (
    Comment,
    Keyword,
    Literal,
    Name,
    Number,
    Operator,
    Punctuation,
    String,
    Text,
    Whitespace,
)

from .grammar_tables import TERMINALS

__all__ = ["BeziqueLexer"]

# What each terminal is, by its name in the grammar; a terminal not named here is a keyword when its priority is 2,
# and punctuation when it is a literal (an anonymous terminal or one Lark names after its characters).
_KINDS: dict[str, Any] = {
    "COMMENT": Comment.Multiline,
    "QUESTION": Comment.Special,
    "CARD": Literal.String.Symbol,
    "SUIT": Literal.String.Symbol,
    "SIDE": Name.Builtin,
    "SEAT": Name.Builtin,
    "INT": Number.Integer,
    "SCORE_INT": Number.Integer,
    "STRING": String.Double,
    "KIND": Name.Function,
    "PROFILE_NAME": Name.Constant,
    "NAME": Name,
}
_LEFT_OUT = {"_NL", "TEXT", "TEXT_KEY", "SUIT"}
"""Read by the lexer's own rules: line breaks, a text header (its key, ``:`` and the free text after it) and a suit
(only ``trump:`` has one, and elsewhere ``S`` is South)."""
_FIRST = ("SIDE", "CARD", "SEAT", "INT", "SCORE_INT", "STRING", "KIND", "NAME")
"""The terminals whose order a regular expression lexer must be told: Lark's contextual lexer only tries the
terminals a place may hold, a regular expression lexer takes the first that matches anywhere (a seat before a name,
which would take ``N``; a side before a seat, which would stop at ``+``)."""


def _uncaptured(regex: str) -> str:
    """The regular expression with its groups made non-capturing, so that it can be one group of a ``bygroups``
    rule (the grammar's terminals have no ``(`` inside a character class)."""
    return re.sub(r"(?<!\\)\((?!\?)", "(?:", regex)


def _rules() -> dict[str, list[Any]]:
    keywords = []
    others = []
    punctuation = []
    first = {name: i for i, name in enumerate(_FIRST)}
    for name, (regex, priority) in sorted(TERMINALS.items(), key=lambda item: first.get(item[0], len(first))):
        if name in _LEFT_OUT:
            continue
        if name.startswith("__IGNORE"):
            others.append((regex, Whitespace))
        elif name == "KIND":
            # A meld kind is a whole word: not the start of a name such as an option's value ``chinese_000``.
            others.append((regex + r"(?![\w.-])", _KINDS[name]))
        elif name in _KINDS:
            others.append((regex, _KINDS[name]))
        elif priority == 2:
            # A keyword is not the start of a longer word (the grammar's keywords end at a word boundary).
            keywords.append((regex, Keyword))
        else:
            punctuation.append((regex, Operator if regex in ("\\->", "=") else Punctuation))
    comment, question = TERMINALS["COMMENT"][0], TERMINALS["QUESTION"][0]
    text_key, profile, name, profile_name, trump, suit = (
        _uncaptured(TERMINALS[t][0]) for t in ("TEXT_KEY", "PROFILE", "NAME", "PROFILE_NAME", "TRUMP", "SUIT")
    )
    return {
        "root": [
            (r"\r?\n", Whitespace),
            (rf"({text_key})([ \t\f]*)(:)", bygroups(Keyword.Declaration, Whitespace, Punctuation), "text"),
            # A profile's name (chinese-000, 8p-000) is a NAME or PROFILE_NAME only there: elsewhere a word is a meld
            # kind first, which would stop at the hyphen.
            (
                rf"({profile})([ \t\f]*)(:)([ \t\f]*)({profile_name}|{name})",
                bygroups(Keyword, Whitespace, Punctuation, Whitespace, Name.Constant),
            ),
            (
                rf"({trump})([ \t\f]*)(:)([ \t\f]*)({suit})",
                bygroups(Keyword, Whitespace, Punctuation, Whitespace, Literal.String.Symbol),
            ),
            # Lark's lexer takes the longest match of the terminals it may meet; a regular expression lexer takes the
            # first that matches: comments and keywords first, then the terminals in the order of ``_FIRST`` and
            # Lark's.
            (comment, Comment.Multiline),
            (question, Comment.Special),
            *keywords,
            *others,
            *punctuation,
            (r"\+", Punctuation),
        ],
        "text": [
            (TERMINALS["TEXT"][0], String),
            (comment, Comment.Multiline),
            (r"\r?\n", Whitespace, "#pop"),
        ],
    }


class BeziqueLexer(RegexLexer):
    """The bezique record notation (``.bzq``), from its grammar's terminals."""

    name = "Bezique"
    aliases = ["bezique", "bzq"]  # noqa: RUF012 (Pygments reads these class attributes as they are)
    filenames = ["*.bzq"]  # noqa: RUF012
    mimetypes = ["text/x-bezique"]  # noqa: RUF012
    url = "https://github.com/"  # (the project's own documentation: docs/notation.md)
    tokens = _rules()


_ = Text  # (Pygments' plain text token, for the unmatched characters RegexLexer marks as Error)
