"""The game over its deals, in the core (``replayer.rules.GameState``): dealers, totals, the end of a game.

A game played to a target ends with the deal in which someone reaches it (001:L6-L7, 002:L16, 003:L27, 004:L63); a
one-hand game ends with its hand. No deal may follow (BZ508), `generate --deals` stops there, and a ``winner`` line
is checked against the game as it stands where it is written.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from conftest import GAMES

from replayer.check import check_text
from replayer.generate import generate_game, play_deal
from replayer.profiles import load_profile
from replayer.replay import to_json
from replayer.rules import GameState, compile_rules, first_dealer

# Games played to a target that a few seeded deals win (profile, seed): each reaches its target before deal 12.
TARGET_GAMES = [
    ("ua2", 3),
    ("ru19", 3),
    ("ruwiki", 3),
    ("no-trump", 3),
    ("three-handed", 3),
    ("4h-three-001", 3),
    ("4h-three-004", 3),
    ("sixty-six", 3),
]


def _codes(text: str) -> list[str]:
    return [d.code for d in check_text(text).diagnostics if d.severity == "error"]


@pytest.mark.parametrize(("profile", "seed"), TARGET_GAMES)
def test_generate_stops_at_the_deal_that_wins_the_game(profile: str, seed: int) -> None:
    text = generate_game(profile, seed, deals=30)
    result = check_text(text)
    assert result.valid, [d.message for d in result.diagnostics]
    game = result.games[0]
    rules = compile_rules(game.profile, game.options)
    assert rules.target is not None
    counted = [d.game_points or d.scores for d in game.deals]
    before_last = {s: sum(c.get(s, 0) for c in counted[:-1]) for s in rules.scorers}
    # Nobody had the target before the last deal; somebody has it after, and the record names him.
    assert max(before_last.values()) < rules.target <= max(game.scores.values())
    assert game.winner is not None and re.search(rf"^winner {re.escape(game.winner)}$", text, re.M)


def _one_deal_too_many(profile: str, seed: int) -> tuple[str, int]:
    """A generated game that is won, with one more deal written after it (and no winner line); the line of that
    deal's dealer."""
    text = generate_game(profile, seed, deals=30)
    text = re.sub(r"^winner .*\n", "", text, flags=re.M).rstrip("\n")
    game = check_text(text).games[0]
    rules = compile_rules(game.profile, game.options)
    state = GameState(rules)
    for deal in game.deals:
        state.begin_deal(rules.seat_index[deal.dealer])
        won = [deal.game_points.get(s, 0) for s in rules.seats] if deal.game_points else []
        state.end_deal(
            [deal.scores[s] for s in rules.scorers],
            won,
            [rules.seat_index.get(t.winner or "", -1) for t in deal.tricks],
        )
    expected = state.expected_dealer()
    assert expected is not None
    extra = play_deal(
        load_profile(profile), random.Random(seed), rules.seats[expected], game.options, len(game.deals) + 1
    )
    lines = text.split("\n")
    dealer_line = len(lines) + 2 + extra.lines.index(f"dealer: {rules.seats[expected]}")
    return "\n".join([*lines, "", *extra.lines, ""]), dealer_line


@pytest.mark.parametrize(("profile", "seed"), TARGET_GAMES)
def test_a_deal_after_the_game_is_won_is_an_error(profile: str, seed: int) -> None:
    text, line = _one_deal_too_many(profile, seed)
    result = check_text(text)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["BZ508"], [d.message for d in errors]
    assert errors[0].span is not None and errors[0].span.line == line
    assert "after the game was won" in errors[0].message


def test_a_one_hand_game_has_one_deal() -> None:
    text = generate_game("rubicon-000", 5)
    game = check_text(text).games[0]
    rules = compile_rules(game.profile, game.options)
    second = play_deal(load_profile("rubicon-000"), random.Random(1), game.deals[0].dealer, game.options, 2)
    codes = _codes(text.rstrip("\n") + "\n\n" + "\n".join(second.lines) + "\n")
    assert codes == ["BZ508"]
    assert rules.game_scoring is not None


def test_generate_plays_one_deal_of_a_one_hand_game() -> None:
    text = generate_game("rubicon-000", 5, deals=4)
    assert len(re.findall(r"^deal \d+", text, re.M)) == 1


def test_the_winner_line_is_checked_where_it_stands() -> None:
    # ua2, seed 3: N passes 1,000 after deal 5. A winner line written after deal 4 names a winner too early.
    text = generate_game("ua2", 3, deals=30)
    assert re.search(r"^winner N$", text, re.M)
    text = re.sub(r"^winner .*\n", "", text, flags=re.M)
    fifth = text.index("\ndeal 5\n")
    early = text[:fifth] + "\nwinner N\n" + text[fifth:]
    result = check_text(early)
    errors = [d for d in result.diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["BZ505"]
    assert "nobody has reached the target yet" in errors[0].message
    # The same line at the end is right.
    assert check_text(text.rstrip("\n") + "\n\nwinner N\n").valid


def test_first_dealer_takes_the_profile_step_back() -> None:
    left = compile_rules(load_profile("three-handed"), {"first_leader": "left"})
    right = compile_rules(load_profile("three-handed"), {"first_leader": "right"})
    for rules in (left, right):
        for dealer in range(rules.players):
            leader = (dealer + rules.first_leader_step) % rules.players
            assert first_dealer(rules, leader) == dealer
    assert first_dealer(left, 0) != first_dealer(right, 0)


def test_three_handed_dealer_from_the_leader_follows_first_leader() -> None:
    # A three-handed record that names only the leader: with first_leader=right the dealer sits on the leader's
    # left (004:L35), so when N leads, E deals.
    text = generate_game("three-handed", 4, options={"first_leader": "right"})
    dealer = re.search(r"^dealer: (\w+)$", text, re.M)
    assert dealer is not None
    game = check_text(text).games[0]
    rules = compile_rules(game.profile, game.options)
    leader = game.deals[0].leader
    assert rules.seats[first_dealer(rules, rules.seat_index[leader])] == dealer.group(1)
    without = text.replace(dealer.group(0), f"leader: {leader}")
    data = to_json(check_text(without))
    assert data["games"][0]["deals"][0]["dealer"] == dealer.group(1)
    assert json.dumps(data)


def test_a_target_header_where_one_hand_is_the_game_is_refused() -> None:
    text = (GAMES / "constructed-rubicon-000.bzq").read_text(encoding="utf-8")
    text = text.replace("profile: rubicon-000\n", "profile: rubicon-000\ntarget: 777\n")
    errors = [d for d in check_text(text).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["BZ104"]
    assert errors[0].span is not None and text.split("\n")[errors[0].span.line - 1] == "target: 777"
    assert "one hand is the game" in errors[0].message


def test_a_target_written_twice_is_refused_unless_the_same() -> None:
    text = (GAMES / "constructed-three-handed.bzq").read_text(encoding="utf-8")
    assert "target: 1500\n" in text
    twice = text.replace("target: 1500\n", "target: 1500\noptions: target=1000\n")
    errors = [d for d in check_text(twice).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["BZ104"] and "written twice" in errors[0].message
    assert check_text(text.replace("target: 1500\n", "target: 1500\noptions: target=1500\n")).valid


def test_a_seven_of_trumps_is_shown_once_by_its_holder() -> None:
    # Three packs (three-handed, seed 2): S exchanged his 7D for the turn-up, so the turn-up is a trump seven and E,
    # who holds one 7D, shows it for 10. Showing the same seven again is refused (found by the sampled analysis's
    # facts: a second show named a card E did not hold twice).
    text = generate_game("three-handed", 2)
    line = "  E exchanges 7D = 10\n"
    assert text.count(line) == 1 and check_text(text).valid
    errors = [d for d in check_text(text.replace(line, line + line)).diagnostics if d.severity == "error"]
    assert errors[0].code == "BZ309" and "already shown" in errors[0].message


def test_a_copy_of_a_game_state_is_not_changed_by_later_deals() -> None:
    rules = compile_rules(load_profile("classic"), {**load_profile("classic").default_options(), "target": 300})
    game = GameState(rules)
    game.begin_deal(0)
    game.end_deal([120, 90], [], [0, 1])
    kept = game.copy()
    game.claim(1, False)
    game.begin_deal(1)
    game.end_deal([250, 30], [], [0, 0])
    assert (kept.totals, kept.deals, kept.decided, len(kept.history)) == ([120, 90], 1, -1, 1)
    assert (game.totals, game.deals, game.decided) == ([370, 120], 2, 0)
    assert kept.rules is game.rules and kept.expected_dealer() == 1


def test_the_dealer_is_as_written_else_expected_else_from_the_leader() -> None:
    rules = compile_rules(load_profile("three-handed"), {"first_leader": "right"})
    game = GameState(rules)
    # The first deal: nothing expected, so the written dealer stands, or the leader tells by the profile's step.
    assert game.dealer_of(2, None, 1) == (2, None)
    assert game.dealer_of(None, 0, 1) == (first_dealer(rules, 0), None)
    assert game.dealer_of(None, None, 1) == (None, None)
    game.begin_deal(0)
    game.end_deal([100, 50, 20], [], [0])
    expected = game.expected_dealer()
    assert expected is not None
    assert game.dealer_of(None, None, 2) == (expected, None)
    other = (expected + 1) % rules.players
    # A profile without a rule for the next dealer lets a record name any.
    assert game.dealer_of(other, None, 2) == (other, None)
    # Sixty-six: the winner of the hand before deals next.
    sixty = GameState(compile_rules(load_profile("sixty-six"), load_profile("sixty-six").default_options()))
    sixty.begin_deal(0)
    sixty.end_deal([70, 30], [2, 0], [0])
    assert sixty.dealer_of(None, None, 2) == (0, None)
    dealer, breach = sixty.dealer_of(1, None, 2)
    assert dealer == 1 and breach == ("BZ110", "wrong_dealer", (0, 2, sixty.dealer_rule()))
    # A name that is no seat is not the expected dealer either.
    assert sixty.dealer_of(-1, None, 2)[1] is not None


def test_the_winner_line_is_judged_after_the_deals_before_it() -> None:
    rules = compile_rules(load_profile("classic"), {**load_profile("classic").default_options(), "target": 300})
    game = GameState(rules)
    game.begin_deal(0)
    game.end_deal([120, 90], [], [0, 1])
    game.begin_deal(1)
    game.end_deal([250, 30], [], [0, 0])
    assert game.winner_problem(0, "N", 2) is None
    problem = game.winner_problem(0, "N", 1)
    assert problem == ("BZ505", "wrong_game_winner", ("N", -1, 300, (120, 90)))
    assert game.winner_problem(1, "S", 2) == ("BZ505", "wrong_game_winner", ("S", 0, 300, (370, 120)))


def test_a_winner_line_naming_no_seat_is_refused_at_the_line() -> None:
    text = generate_game("ua2", 3, deals=30)
    assert re.search(r"^winner N$", text, re.M)
    wrong = re.sub(r"^winner N$", "winner E", text, flags=re.M)
    errors = [d for d in check_text(wrong).diagnostics if d.severity == "error"]
    assert [d.code for d in errors] == ["BZ105"]
    assert errors[0].message == "E is not a seat or side of the ua2 profile"
    assert errors[0].span is not None and wrong.split("\n")[errors[0].span.line - 1] == "winner E"
