"""Mutation testing of the validator (tests/mutate.py): every single-point change that breaks a rule or a stated
fact is rejected, with its rule, on its line; every change that alters nothing is accepted.

The corpus is the records of games/ and generated records of every profile, sampled so that the suite stays fast;
``python tests/mutate.py --random 20`` runs every mutant of games/ and of 20 generated records.
"""

from __future__ import annotations

import random
from collections import Counter
from pathlib import Path

import mutate
import pytest
from conftest import GAMES
from mutate import (
    Mutant,
    NoOp,
    NotApplicable,
    Outcome,
    Walk,
    check,
    check_no_op,
    mutants,
    no_ops,
    walk,
)

from replayer.generate import generate_game
from replayer.profiles import load_profile, profile_names


def _mutable(path: Path) -> bool:
    """True for a record the tool can mutate: valid, every card known."""
    try:
        walk(path.read_text(encoding="utf-8"))
    except NotApplicable:  # not valid, or cards left unknown
        return False
    return True


def _cap(text: str, usual: int) -> int:
    """Mutants of each kind for a record: one for the long many-pack deals (64 to 128 tricks; each mutant replays
    the whole deal), so that every operator still meets every profile and the suite stays fast."""
    return usual if text.count("\ntrick ") <= 32 else 1


# (name, text, at most this many mutants of each kind)
CORPUS = (
    [("worked-deal-000", (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8"), 16)]
    + [
        (path.name, text, _cap(text, 3))
        for path in sorted(GAMES.glob("*.bzq"))
        if path.name != "worked-deal-000.bzq" and _mutable(path)
        for text in [path.read_text(encoding="utf-8")]
    ]
    + [(f"classic seed {seed}", generate_game("classic", seed, 1 + seed % 2), 4) for seed in (0, 1, 2)]
    + [
        (f"{name} seed 5", text, _cap(text, 2))
        for name in profile_names()
        # The profiles of more seats have a constructed record in games/ (above): their long deals are mutated once.
        if name != "classic" and load_profile(name).players == 2
        for text in [generate_game(name, 5)]
    ]
)

OPERATORS = [
    "card-not-held",
    "wrong-winner",
    "changed-points",
    "meld-card-not-held",
    "redeclared",
    "second-declaration",
    "loser-declares",
    "phase-2-declaration",
    "revoke",
    "not-winning",
    "not-trumping",
    "swapped-draws",
    "draw-out-of-order",
    "wrong-running-score",
    "wrong-brisques",
    "wrong-result",
    "wrong-total",
    "trick-number",
    "exchange-not-seven",
    "claim-by-other",
]


def declares_after_drawing(w: Walk) -> bool:
    """True when a trick of the record has a declaration or an exchange after its draws (as ua2 plays)."""
    for deal, _ in w.deals:
        for trick in deal.tricks:
            kinds = [type(i).__name__ for i in trick.items]
            if "Draws" in kinds and any(k in ("Declare", "Exchange") for k in kinds[kinds.index("Draws") :]):
                return True
    return False


def known_no_op_bug(change: NoOp, w: Walk) -> bool:
    """No-op changes the validator is known to reject wrongly: none now. (Draws left out with the stock given used
    to be taken after the trick's last statement, wrong where players declare after drawing; fixed in replay.py.)"""
    del change, w
    return False


@pytest.fixture(scope="module")
def walks() -> list[tuple[str, Walk, int]]:
    return [(name, walk(text), cap) for name, text, cap in CORPUS]


@pytest.fixture(scope="module")
def outcomes(walks: list[tuple[str, Walk, int]]) -> list[Outcome]:
    rng = random.Random(7)
    return [check(m) for _, w, cap in walks for m in mutants(w, cap, rng)]


@pytest.fixture(scope="module")
def changes(walks: list[tuple[str, Walk, int]]) -> list[tuple[str, NoOp, str | None, bool]]:
    rng = random.Random(7)
    # The long records of games/ (cap 1) are not checked: the generated record of their profile has the same no-ops
    # (their changes are still drawn, so that the others' random choices stay the same).
    drawn = [(name, cap, w, change) for name, w, cap in walks for change in no_ops(w, rng)]
    return [
        (name, change, check_no_op(change, w.text), known_no_op_bug(change, w))
        for name, cap, w, change in drawn
        if cap > 1 or not name.endswith(".bzq")
    ]


def test_every_operator_makes_mutants(outcomes: list[Outcome]) -> None:
    made = Counter(o.mutant.operator for o in outcomes)
    assert set(made) == set(OPERATORS), made
    assert sum(made.values()) >= 300


@pytest.mark.parametrize("operator", OPERATORS)
def test_mutants_are_rejected_with_their_rule_on_their_line(outcomes: list[Outcome], operator: str) -> None:
    mine = [o for o in outcomes if o.mutant.operator == operator]
    wrong = [
        f"{o.status}: {o.mutant.description}: expected {sorted(o.mutant.codes)} on line {o.mutant.line}, "
        f"found {list(o.found)[:5]}"
        for o in mine
        if o.status != "rejected"
    ]
    assert mine and not wrong, "\n".join(wrong)


def test_mutants_point_at_the_changed_token(outcomes: list[Outcome]) -> None:
    # The line and the rule are what matters; the column too, but for two documented cases: the points of a seven
    # exchange or of a claimed score are reported at its card or kind (the record keeps no position for them), and
    # a missing meld card written several times is reported at its first occurrence.
    loose = [
        o
        for o in outcomes
        if o.status == "rejected"
        and not o.column_exact
        and not (
            o.mutant.operator == "changed-points"
            and ("exchange" in o.mutant.description or "claim" in o.mutant.description)
        )
        and o.mutant.operator != "meld-card-not-held"
    ]
    assert not loose, [(o.mutant.description, o.mutant.column, o.found[:3]) for o in loose]


def test_changes_that_alter_nothing_are_accepted(changes: list[tuple[str, NoOp, str | None, bool]]) -> None:
    kinds = Counter(change.operator for _, change, _, _ in changes)
    assert len(kinds) >= 20
    wrong = [
        f"{name}: {change.operator} ({change.description}): {problem}"
        for name, change, problem, known in changes
        if problem and not known
    ]
    assert not wrong, "\n".join(wrong)


def test_draws_left_out_are_taken_before_a_later_declaration(
    changes: list[tuple[str, NoOp, str | None, bool]],
) -> None:
    # Not strict: only a profile whose players declare after drawing (ua2) shows the bug.
    assert not [change for _, change, problem, known in changes if known and problem]


def test_the_tool_reports_a_validator_that_misses_a_mutation(monkeypatch: pytest.MonkeyPatch) -> None:
    # The checker itself can fail: with BZ206 filtered out of the replay, a wrong winner is "accepted".
    real = mutate.check_text

    def blind(text: str, path: str = "<record>"):  # type: ignore[no-untyped-def]
        result = real(text, path)
        result.diagnostics = [d for d in result.diagnostics if d.code != "BZ206"]
        return result

    w = walk(CORPUS[0][1])
    mutant: Mutant = next(m for m in mutants(w) if m.operator == "wrong-winner")
    assert check(mutant).status == "rejected"
    monkeypatch.setattr(mutate, "check_text", blind)
    assert check(mutant).status == "accepted"


def test_a_record_that_is_not_valid_is_not_mutated() -> None:
    text = CORPUS[0][1].replace("result N 590", "result N 600")
    with pytest.raises(mutate.NotApplicable):
        walk(text)
