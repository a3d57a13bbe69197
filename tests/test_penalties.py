"""Penalties (RULES.md §3.6): the seeds' tables as profile data, stated in a record and deducted from the score."""

from __future__ import annotations

import re

import pytest

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.profiles import load_profile
from replayer.replay import ReplayResult


def _unchecked(profile: str, seed: int, deals: int = 2) -> str:
    """A generated game without its stated scores, so that a penalty put in changes no checked line."""
    text = generate_game(profile, seed, deals=deals)
    return "\n".join(
        line for line in text.splitlines() if not re.match(r"\s*(score|brisques|result|total|winner)\b", line)
    )


def _after_line(text: str, pattern: str, statement: str, nth: int = 0) -> str:
    lines = text.splitlines()
    hits = [i for i, line in enumerate(lines) if re.match(pattern, line)]
    lines.insert(hits[nth] + 1, statement)
    return "\n".join(lines) + "\n"


def _penalty_events(result: ReplayResult, deal: int) -> list[tuple[str, str, int]]:
    return [
        (e.seat, e.kind, e.points)
        for trick in result.games[0].deals[deal].tricks
        for e in trick.scoring
        if e.kind.startswith("penalty_")
    ]


def test_the_seeds_penalty_tables() -> None:
    # RULES.md §2.b rule 20 (001:L37-L42), §2.c rule 19 (002:L19), §2.d rule 17 (004:L329-L331); classic: §3.6 X5.
    assert dict(load_profile("ua2").penalties) == {
        "declared_before_trick": 10,
        "revoke_last_eight": 20,
        "played_before_drawing": 30,
        "extra_card": 50,
        "nine_cards": 120,
        "false_declaration": "all",
    }
    assert dict(load_profile("ru19").penalties) == {"extra_card": 60, "nine_cards": 120}
    assert dict(load_profile("ruwiki").penalties) == {"extra_card": 50, "false_declaration": "all"}
    unscored = load_profile("ruwiki").with_options({"false_declaration": "unscored"})
    assert dict(unscored.penalties)["false_declaration"] == "unscored"
    assert load_profile("classic").penalties == ()


@pytest.mark.parametrize(("profile", "points"), [("ua2", 50), ("ru19", 60), ("ruwiki", 50)])
def test_an_extra_card_costs_the_tables_points(profile: str, points: int) -> None:
    # RULES.md §3.6 X1: an extra card drawn costs 50 (001, 004) or 60 (002).
    text = _unchecked(profile, 4)
    before = check_text(text)
    assert before.valid
    after = check_text(_after_line(text, r"trick 3:", f"  S penalty extra_card = {points}"))
    assert after.valid, after.diagnostics
    assert after.games[0].deals[0].scores["S"] == before.games[0].deals[0].scores["S"] - points
    assert after.games[0].deals[0].scores["N"] == before.games[0].deals[0].scores["N"]
    assert _penalty_events(after, 0) == [("S", "penalty_extra_card", -points)]
    # Written without its points, the penalty is still deducted; Russian "штраф" is the same statement.
    same = check_text(_after_line(text, r"trick 3:", "  S штраф extra_card"))
    assert same.valid and same.games[0].deals[0].scores == after.games[0].deals[0].scores


def test_a_false_declaration_takes_every_point_of_the_game() -> None:
    # RULES.md §2.b rule 20: "всі очки гравця обнуляється і рахунок ведеться знову заново" (001:L42): the points of
    # earlier hands go too, so the game total starts again from what is scored after the penalty.
    text = _unchecked("ua2", 6)
    before = check_text(text)
    after = check_text(_after_line(text, r"trick 5:", "  N penalty false_declaration", nth=1))
    assert after.valid, after.diagnostics
    (seat, kind, points), *_ = _penalty_events(after, 1)
    earlier = before.games[0].deals[0].scores["N"]
    in_this_hand = 0
    for trick in after.games[0].deals[1].tricks:
        for event in trick.scoring:
            if event.kind.startswith("penalty_"):
                break
            if event.seat == "N":
                in_this_hand += event.points
        else:
            continue
        break
    assert (seat, kind) == ("N", "penalty_false_declaration")
    assert earlier + in_this_hand > 0 and points == -(earlier + in_this_hand)
    assert after.games[0].scores["N"] == before.games[0].scores["N"] - earlier - in_this_hand


def test_the_unscored_reading_costs_no_points() -> None:
    # RULES.md §2.d rule 17 (004:L329), option false_declaration=unscored: only shown, unscored combinations go.
    text = _unchecked("ruwiki", 3).replace("profile: ruwiki", "profile: ruwiki\noptions: false_declaration=unscored")
    before = check_text(text)
    after = check_text(_after_line(text, r"trick 4:", "  N penalty false_declaration = 0"))
    assert after.valid, after.diagnostics
    assert after.games[0].scores == before.games[0].scores


def test_penalty_errors_name_the_rule_and_position() -> None:
    text = _unchecked("ua2", 4)
    wrong = check_text(_after_line(text, r"trick 3:", "  S penalty extra_card = 60"), "p.bzq")
    line = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("trick 3:")) + 1
    assert [(d.code, d.span.line, d.span.column) for d in wrong.diagnostics if d.span] == [("BZ314", line, 26)]
    assert "extra_card penalty costs S 50 points here, not 60" in wrong.diagnostics[0].message
    unknown = check_text(_after_line(_unchecked("classic", 4), r"trick 3:", "  N penalty extra_card = 50"), "c.bzq")
    assert [d.code for d in unknown.diagnostics] == ["BZ313"]
    assert "classic profile has no penalty 'extra_card' (penalties: none)" in unknown.diagnostics[0].message


def test_a_penalty_in_canonical_form_and_in_the_lesson() -> None:
    from replayer.fmt import format_text
    from replayer.lesson import build_lesson

    text = _after_line(_unchecked("ua2", 4), r"trick 3:", "  S   ШТРАФ extra_card =50 { he drew two cards }")
    canonical = format_text(text)
    assert "\n  S penalty extra_card = 50  { he drew two cards }\n" in canonical
    result = check_text(canonical)
    assert result.valid
    lesson = build_lesson(result.games[0])
    shown = [s for step in lesson.deals[0].steps for s in step.scoring if "extra card" in s.text]
    assert [(s.seat, s.points) for s in shown] == [("S", -50)]
