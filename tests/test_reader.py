"""The reader (replayer/reader.py) against Lark, and its tables (replayer/grammar_tables.py) against the grammar.

The reader reads a statement with the regular expressions that replayer/grammar_compiler.py makes from
grammar/bezique.lark. The property checked here on every text: the reader accepts it exactly when Lark does, and
then reads the same statements as Lark's tree, each with the same rule and the same tokens (terminal, text, line,
column). The texts: the records of games/ and tests/data/invalid/, generated games of every profile, lines at the
edges of the notation, edits of valid records (the strategies of tests/test_fuzz.py), and statements and records
generated from the grammar itself (hypothesis.extra.lark), with example counts as tests/test_fuzz.py sets them.
"""

from __future__ import annotations

import pickle
import re
from functools import cache
from typing import Any

import pytest
from conftest import DATA, GAMES
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import from_lark
from test_fuzz import EXAMPLES, FUZZ, byte_edits, line_edits, records, token_edits

from replayer import grammar_tables, notation, reader
from replayer.errors import NotationError
from replayer.generate import generate_game
from replayer.grammar_compiler import generate, grammar_path, grammar_sha256, tables_path
from replayer.profiles import profile_names
from replayer.record import Record


def test_the_tables_are_compiled_from_the_grammar_as_it_is() -> None:
    """The generated tables hold the grammar's hash and are what the compiler writes now (run
    `python -m replayer.grammar_compiler` if not)."""
    text = grammar_path().read_text(encoding="utf-8")
    stale = "stale replayer/grammar_tables.py: run python -m replayer.grammar_compiler"
    assert grammar_sha256(text) == grammar_tables.GRAMMAR_SHA256, stale
    assert tables_path().read_text(encoding="utf-8") == generate(text), stale


def _flat(node: Any) -> list[tuple[str, str, int, int]]:
    """The tokens under a node of Lark's tree, in order."""
    from lark import Tree

    found = []
    for child in node.children:
        if isinstance(child, Tree):
            found.extend(_flat(child))
        else:
            found.append((child.type, str(child), child.line, child.column))
    return found


def lark_statements(text: str) -> list[tuple[str, list[tuple[str, str, int, int]]]] | None:
    """Lark's statements of a text (rule and tokens), or None when Lark rejects it."""
    from lark.exceptions import UnexpectedInput

    try:
        tree = notation._parser().parse(text)
    except UnexpectedInput:
        return None
    return [(str(stmt.data), _flat(stmt)) for stmt in tree.children]


def reader_statements(text: str) -> list[tuple[str, list[tuple[str, str, int, int]]]] | None:
    """The reader's statements of a text, or None when it rejects it."""
    try:
        found = reader.statements(text)
    except NotationError:
        return None
    return [(s.rule, [(t.type, t.text, t.line, t.column) for t in s.tokens()]) for s in found]


def _outcome(text: str) -> object:
    """The Record of a text, or its diagnostics."""
    try:
        return reader.read_record(text, "p.bzq")
    except NotationError as exc:
        return exc.diagnostics


def read_from_tokens(text: str) -> object:
    """The Record (or the diagnostics) with every statement built from its tokens: no statement read straight from
    its groups, no block of statements read with one match."""
    fast, block = reader._FAST, reader._block
    reader._FAST, reader._block = {}, lambda: re.compile("(?!)")  # type: ignore[assignment]
    try:
        return _outcome(text)
    finally:
        reader._FAST, reader._block = fast, block  # type: ignore[assignment]


def agrees(text: str) -> bool:
    """Check the property for one text; True when both accept it. Also: the statements the reader builds straight
    from their groups make the same Record (positions included) as when built from their tokens, and the Record
    pickles."""
    mine, lark = reader_statements(text), lark_statements(text)
    assert (mine is None) == (lark is None), "the reader accepts" if lark is None else "Lark accepts"
    assert mine == lark
    outcome = _outcome(text)
    assert type(outcome) is type(read_from_tokens(text))
    assert outcome == read_from_tokens(text)
    if isinstance(outcome, Record):  # (its positions may refer to the reader's matches until asked for)
        assert pickle.loads(pickle.dumps(outcome)) == outcome
    return mine is not None


RECORDS = sorted(GAMES.glob("*.bzq")) + sorted((DATA / "invalid").glob("*.bzq"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_records(path: Any) -> None:
    agrees(path.read_text(encoding="utf-8"))


def test_the_worked_games_are_read() -> None:
    for name in ("worked-deal-000.bzq", "worked-deal-000-as-printed.bzq"):
        assert agrees((GAMES / name).read_text(encoding="utf-8")), name


@pytest.mark.parametrize("profile", profile_names())
def test_generated_records_of_every_profile(profile: str) -> None:
    text = "\n".join(generate_game(profile, seed, deals) for seed, deals in ((1, 1), (2, 2), (3, 3)))
    assert agrees(text)


# Lines at the edges of the notation: other spellings, blanks, breaks, comments over lines, lexer contexts.
EDGES = [
    "N declares qs",
    "N declares marriage KH QH = 20 { c } {d}",
    "N declares = 40",
    "N shows marriage KS QS",
    "S scores seven_played = 10",
    "hand N: QSKS",
    "hand N:QS KS",
    "hand N:",
    "stock:",
    "hand N: ?? Q? ?S 10? T? ? Q",
    "hand N: QS with",
    "trick 1: S 9C / N QC -> N",
    "trick 1: S 9C, N QC / E 7C",
    "trick 1: S 9C",
    "trick 1: {? why | QC } S 9C, {?x} N QC ->N",
    "trick 1: S 9C, N QC -> N { a\n b } { c }",
    "trick 1: {? a\n b | 9C } S 9C, N QC",
    "trick 1: S 9C, N QC, E 7C, W 8C -> E",
    "trick 1: S 9C, N QC, {? q } E 7C -> E {c}",
    'game"x"',
    'game "x" { c }',
    'game "a{b"',
    "game",
    "note:   ",
    "note:  a } b { c }",
    "note: a { b } c",
    "note:{ only a comment }",
    "title: { only a comment }",
    "title::",
    "title:,",
    "title: x\r",
    "title[ru]: Привет",
    "options: a=1b=2",
    "options: a=1, b=x c=24",
    "option: last_trick = 24",
    "options: a=bc=d",
    "target: 1234567890",
    "target: 123456789",
    "target: ໖१",
    "deal 1 { c }",
    "deal",
    "deal1",
    "сдача 2",
    "trump: S",
    "trumps: s",
    "trump: SS",
    "trump: пики",
    "turnup: 10C",
    "turn-up: QS",
    "turnup: qs",
    "dealer: N{c}",
    "leader: South",
    'players: N "Ann", S',
    'players: N"Ann"',
    "draws N KC, S 9D",
    "draw N KC,S 9D",
    "draws N KC S 9D",
    "draws N KC, S 9D, E 7C {x}",
    "score N 10, S 0",
    "score N 10S",
    "ſcore N 10, S 0",
    "Score N 10, S 0",
    "brisques N 60, S 100",
    "result N 590, S 730",
    "total N 1240, S 980",
    "winner N",
    "{ a } { b }",
    "{ a\nb } trick 1: S 9C, N QC",
    "{ never closed",
    "{? a question alone }",
    "N exchanges 7C = 10",
    "N exchange 7C=10",
    "Nexchanges 7C",
    "TRICK 1: S 9C, N QC",
    "trick 1: s 9c, n qc",
    "trick 1: S 9C, N QC\r",
    "trick 1: S 9C, N QC\r\n",
    "\ttrick 1: S 9C, N QC",
    "\u00a0trick 1: S 9C, N QC",
    "\x0ctrick 1: S 9C, N QC",
    "",
    "\n\n",
    " \n \r\n\t\n",
    "game score N 1, S 0",
    "game score N+S 100, E+W 50 { c }",
    "game  score",
    "gamescore N 1",
    "score N+S 10, E+W 0",
    "score N+ S 10",
    "cut: 24",
    "guess:3",
    "cut 24",
    "N goes out",
    "N goes \t out = 10",
    "S penalty extra_card = 50",
    "S PENALTY extra_card",
    "S penalty  extra_card=50  { drew two }",
    "S penalty Extra = 50",
    "S penaltyextra_card = 50",
    "S штраф extra_card = 50",
    "N goesout",
    "N passes to S",
    "N pass to S { c }",
    "N passes S",
    "profile: 8p-000",
    "profile: 4h-three-001 { c }",
    "profile:8p",
    "profile: 8p-000x.1",
    "profile: 8p-",
    "profile: classic-2",
    "trick 3: N *, S QS -> N",
    "trick 3: N *,S *",
    "trick 3: N *x, S QS",
    "trick 3: N **, S QS",
    "trick 3: N инфузорка, S Д пики",
    "trick 3: Север Д♣, Юг 9 треф -> Север",
    "hand N: * * QS 9H",
    "draws N *, S 9C",
    "N declares four_wilds * * * * = 100",
    "N declares marriage KS*",
    "N exchanges *",
    "turnup: *",
    "winner N+S",
    "winner E+W { c }",
    "winner N+Sx",
    "winner N+",
    "N declares with",
    "N declares within QS",
    "N declares with S QS",
    "N declares four_queens QH QC with S QS QD = 600",
    "N declares bezique QS with S JD { c }",
    "N declares bezique QS with S",
    "N declares bezique QS with SJD",
    "N declares bezique QS withS JD",
]


@pytest.mark.parametrize("line", EDGES)
def test_edges(line: str) -> None:
    head = 'game "g"\ndeal 1\ntrick 1: S 9C, N QC -> N\n'
    agrees(line)
    agrees(head + line + "\n")
    agrees(head + line)
    agrees(line + "\n" + head)


@settings(FUZZ, max_examples=EXAMPLES["bytes"])
@given(byte_edits())
def test_byte_edits(data: bytes) -> None:
    agrees(data.decode("utf-8", errors="replace"))


@settings(FUZZ, max_examples=EXAMPLES["tokens"])
@given(token_edits())
def test_token_edits(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["lines"])
@given(line_edits())
def test_line_edits(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(records())
def test_records_from_the_fuzz_strategy(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(
    st.lists(
        st.sampled_from([*EDGES, "trick 2: N QS, S KS -> N", "  draws N 7C, S 8C", "  score N 0, S 0", "{ x }"]),
        max_size=12,
    ),
    st.sampled_from(["\n", "\n\n", "\n  ", "\r\n", " \n"]),
)
def test_mixed_edges(lines: list[str], separator: str) -> None:
    agrees(separator.join(lines))


# --- texts generated from the grammar itself -----------------------------------------------------------------------

STATEMENT_RULES = sorted({key for key in grammar_tables.STATEMENTS if key != "unordered_trick"})


@cache
def _grammar_parser() -> Any:
    """Lark on the grammar with every statement rule as a start (for hypothesis to generate from)."""
    import lark

    text = grammar_path().read_text(encoding="utf-8")
    return lark.Lark(text, parser="lalr", lexer="contextual", start=["start", *STATEMENT_RULES])


@st.composite
def grammar_statements(draw: st.DrawFn, rule: str) -> str:
    return draw(from_lark(_grammar_parser(), start=rule))


@pytest.mark.parametrize("rule", STATEMENT_RULES)
def test_statements_from_the_grammar(rule: str) -> None:
    """Statements of each rule as the grammar makes them (any terminal text its expression allows), alone and among
    others: most are read, some are not (two terminals that lex otherwise side by side), and Lark agrees."""

    @settings(FUZZ, max_examples=max(10, EXAMPLES["grammar"] // 4))
    @given(grammar_statements(rule), st.lists(st.sampled_from(EDGES[:40]), max_size=3))
    def check(statement: str, others: list[str]) -> None:
        agrees(statement)
        agrees("\n".join([*others, statement, *others]))

    check()


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(st.lists(st.sampled_from(STATEMENT_RULES).flatmap(grammar_statements), min_size=1, max_size=8))
def test_records_of_statements_from_the_grammar(statements: list[str]) -> None:
    agrees("\n".join(statements))


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(st.deferred(lambda: from_lark(_grammar_parser(), start="start")))
def test_whole_records_from_the_grammar(text: str) -> None:
    agrees(text)
