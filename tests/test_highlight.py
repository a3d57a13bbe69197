"""The Pygments lexer (replayer/highlight.py): registered as ``bezique``, it lexes every record of games/, the docs'
record examples and generated records of every profile without an error token, and tells cards, seats, keywords,
numbers and comments apart."""

from __future__ import annotations

import re
import subprocess
import sys
from typing import Any

import pytest
from conftest import GAMES, ROOT

pytest.importorskip("pygments")
from pygments.lexers import find_lexer_class_for_filename, get_lexer_by_name
from pygments.token import Comment, Error, Keyword, Literal, Name, Number, String, Token

from replayer.generate import generate_game
from replayer.highlight import BeziqueLexer
from replayer.profiles import profile_names


def tokens(text: str) -> list[tuple[Any, str]]:
    return list(BeziqueLexer().get_tokens(text))


def errors(text: str) -> list[str]:
    return [value for kind, value in tokens(text) if kind in Error]


def kinds(text: str) -> dict[str, Any]:
    """Each token's kind by its text (the last one, for a text met twice), whitespace left out."""
    return {value: kind for kind, value in tokens(text) if value.strip()}


def test_registered_through_the_entry_point() -> None:
    assert type(get_lexer_by_name("bezique")) is BeziqueLexer
    assert type(get_lexer_by_name("bzq")) is BeziqueLexer
    assert find_lexer_class_for_filename("deal.bzq") is BeziqueLexer


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.bzq")), ids=lambda p: p.name)
def test_every_record_lexes_without_an_error_token(path: Any) -> None:
    assert errors(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("name", profile_names())
def test_generated_records_of_every_profile_lex(name: str) -> None:
    assert errors(generate_game(name, 7)) == []


def test_the_docs_record_examples_are_marked_and_lex() -> None:
    blocks = []
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = doc.read_text(encoding="utf-8")
        blocks += re.findall(r"^```bzq\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    assert len(blocks) >= 6
    for block in blocks:
        assert errors(block) == [], block


def test_the_words_of_a_record_are_told_apart() -> None:
    text = (
        'game "g"\ntitle: A deal { x }\nprofile: chinese-000\ntrump: S\nhand N: QS 10C\n'
        "trick 1: S 9C, N QC -> N\n  N declares royal_marriage KC QC = 40\n  score N+S 10, E+W 0\n"
    )
    seen = kinds(text)
    assert seen["game"] in Keyword and seen["trick"] in Keyword and seen["declares"] in Keyword
    assert seen['"g"'] in String.Double
    assert seen[" A deal "] in String and seen["{ x }"] in Comment
    assert seen["chinese-000"] in Name.Constant
    assert seen["QS"] in Literal.String.Symbol and seen["10C"] in Literal.String.Symbol
    assert seen["N"] in Name.Builtin and seen["N+S"] in Name.Builtin
    assert seen["royal_marriage"] in Name.Function
    assert seen["40"] in Number.Integer
    trump = [kind for kind, value in tokens("trump: S\n") if value == "S"]
    assert trump == [Literal.String.Symbol]
    assert errors(text) == []


def test_what_is_not_notation_is_an_error_token() -> None:
    assert errors("trick 1: S 9C § N QC\n") == ["§"]
    assert all(kind in Token for kind, _ in tokens("§"))


def test_pygmentize_colours_a_record() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pygments", "-l", "bezique", "-f", "html", str(GAMES / "worked-deal-000.bzq")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert '<span class="k">trick</span>' in done.stdout
    assert '<span class="ss">9C</span>' in done.stdout
