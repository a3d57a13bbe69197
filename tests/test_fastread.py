"""The fast reader (replayer/fastread.py) against Lark: whatever it accepts, Lark accepts with the same tree.

The builder turns either tree into the record, so equal trees (every rule, token type, value, line and column) mean
equal records and equal diagnostics. Where the fast reader gives up, Lark reads the record as before. The commonest
statements the builder reads straight from the fast reader's match, without a tree: every text checked here is also
built both ways, to the same record and the same diagnostics.
"""

from __future__ import annotations

from typing import Any

import pytest
from conftest import DATA, GAMES
from hypothesis import given, settings
from hypothesis import strategies as st
from test_fuzz import EXAMPLES, FUZZ, byte_edits, line_edits, records, token_edits

from replayer.fastread import read_statements, read_tree
from replayer.generate import generate_game
from replayer.notation import _MATCHED, _Builder, _parser
from replayer.profiles import profile_names


def shape(node: Any) -> Any:
    """A tree as nested tuples: rule names, and each token's type, text, line and column."""
    if isinstance(node, str):
        return (node.type, str(node), node.line, node.column)
    return (node.data, [shape(child) for child in node.children])


def lark_shape(text: str) -> Any:
    """Lark's tree, or None when Lark rejects the text."""
    from lark.exceptions import UnexpectedInput

    try:
        return shape(_parser().parse(text))
    except UnexpectedInput:
        return None


def agrees(text: str) -> bool:
    """Check the property for one text; True when the fast reader accepted it."""
    fast = read_tree(text)
    if fast is None:
        return False
    lark = lark_shape(text)
    assert lark is not None, "the fast reader accepts a record that Lark rejects"
    assert shape(fast) == lark
    from_tree, from_lines = _Builder("p.bzq", text), _Builder("p.bzq", text)
    from_tree.build(fast.children)
    lines = read_statements(text, 1, _MATCHED)
    assert lines is not None
    from_lines.build(lines)
    assert from_lines.diagnostics == from_tree.diagnostics
    assert from_lines.record == from_tree.record
    return True


RECORDS = sorted(GAMES.glob("*.bzq")) + sorted((DATA / "invalid").glob("*.bzq"))


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_records(path: Any) -> None:
    agrees(path.read_text(encoding="utf-8"))


def test_the_worked_game_is_read_fast() -> None:
    """The common records take the fast path (a slower fallback would go unnoticed)."""
    for name in ("worked-deal-000.bzq", "worked-deal-000-as-printed.bzq"):
        assert agrees((GAMES / name).read_text(encoding="utf-8")), name


@pytest.mark.parametrize("profile", profile_names())
def test_generated_records_of_every_profile(profile: str) -> None:
    """Every profile's generated records take the fast path: numbered profile names, the wild card, partner cards
    and partnership winners included."""
    text = "\n".join(generate_game(profile, seed, deals) for seed, deals in ((1, 1), (2, 2), (3, 3)))
    assert agrees(text)


# Lines at the edges of what the fast reader takes: each either agrees with Lark or is left to it.
EDGES = [
    "N declares qs",  # a two-letter kind might be a card: left to Lark
    "N declares marriage KH QH = 20 { c } {d}",
    "N declares = 40",
    "N shows marriage KS QS",
    "S scores seven_played = 10",
    "hand N: QSKS",
    "hand N:QS KS",
    "hand N:",
    "stock:",
    "hand N: ?? Q? ?S 10? T? ? Q",
    "trick 1: S 9C / N QC -> N",
    "trick 1: S 9C, N QC / E 7C",
    "trick 1: S 9C",
    "trick 1: {? why | QC } S 9C, {?x} N QC ->N",
    "trick 1: S 9C, N QC -> N { a\n b } { c }",
    "trick 1: {? a\n b | 9C } S 9C, N QC",
    'game"x"',
    'game "x" { c }',
    "game",
    "note:   ",
    "note:  a } b { c }",
    "note: a { b } c",
    "title: { only a comment }",
    "options: a=1b=2",
    "options: a=1, b=x c=24",
    "option: last_trick = 24",
    "options: a=bc=d",
    "target: 1234567890",
    "target: 123456789",
    "deal 1 { c }",
    "deal",
    "deal1",
    "trump: S",
    "trumps: s",
    "trump: SS",
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
    "score N 10, S 0",
    "score N 10S",
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
    "\ttrick 1: S 9C, N QC",
    "\u00a0trick 1: S 9C, N QC",
    "",
    "\n\n",
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
    "profile:8p",  # a name that starts with a digit holds a hyphen: left to Lark
    "profile: 8p-000x.1",
    "profile: 8p-",
    "profile: classic-2",
    "trick 3: N *, S QS -> N",
    "trick 3: N *,S *",
    "trick 3: N *x, S QS",
    "trick 3: N **, S QS",
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
    "winner N",
    "N declares with",  # after "declares", "with" is Lark's keyword WITH, not a kind
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
def test_records_from_the_grammar(text: str) -> None:
    agrees(text)


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(
    st.lists(
        st.sampled_from([*EDGES, "trick 2: N QS, S KS -> N", "  draws N 7C, S 8C", "  score N 0, S 0", "{ x }"]),
        max_size=12,
    ),
    st.sampled_from(["\n", "\n\n", "\n  "]),
)
def test_mixed_edges(lines: list[str], separator: str) -> None:
    agrees(separator.join(lines))


def test_a_penalty_is_read_fast() -> None:
    head = 'game "g"\ndeal 1\ntrick 1: S 9C, N QC -> N\n'
    assert agrees(head + "  S penalty extra_card = 50  { drew two }\n")
