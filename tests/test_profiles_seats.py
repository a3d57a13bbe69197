"""The profiles with more than two seats: ``three-handed`` and ``4h-three-001``, rule by rule.

Every expected value comes from ../shared/RULES.md: each test names the section and rule it checks (§2.f is the
three-handed game, §2.g.2 the four-handed game with three packs). The last tests play hundreds of seeded random
deals per profile through the engine and replay a sample of them from their text.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path

import pytest
from conftest import GAMES, C, cards, draw, edited_profile, phase_two, play, position_of, soak_deal, violation

from replayer.cards import Card, Suit
from replayer.check import check_text
from replayer.cli import main
from replayer.engine import (
    EngineState,
    apply_declare,
    apply_draw,
    apply_pass,
    apply_play,
    legal_plays,
    start_deal,
)
from replayer.generate import generate_game
from replayer.profiles import load_profile
from replayer.reader import read_record
from replayer.replay import to_json

SEATED = ("three-handed", "4h-three-001", "4h-six-000")


def table(
    profile: str,
    hands: Mapping[str, str],
    turnup: str | None = "10C",
    dealer: str = "N",
    options: Mapping[str, str | int] | None = None,
) -> EngineState:
    """A deal of ``profile`` with the given hands (and turn-up: None for a profile without one)."""
    rules = load_profile(profile)
    opts = rules.resolve_options({k: str(v) for k, v in (options or {}).items()})
    up = Card.parse(turnup) if turnup is not None else None
    return start_deal(rules, opts, dealer, None, up, {s: cards(h) for s, h in hands.items()}).state


THREE = {"N": "AS 10S KS QS JS 9S 8S 7S", "E": "AH 10H KH QH JH 9H 8H 7H", "S": "AD 10D KD QD JD 9D 8D 7D"}
FOUR = {**THREE, "W": "AC AC KC QC JC 9C 8C 7C"}


# --- the profiles' data -----------------------------------------------------------------------------------------


def test_three_handed_values() -> None:
    rules = load_profile("three-handed")
    # §2.f rule 1: three packs, 96 cards; rule 4: 8 each, the 25th card turned up; rule 6: 24 + 8 tricks.
    assert (rules.players, rules.packs, rules.deck_size, rules.hand_size) == (3, 3, 96, 8)
    assert rules.stock_size == 96 - 24 and rules.phase1_tricks == 24 and rules.total_tricks == 32
    # §2.f rule 2: triple bezique 1500; rule 3: the game is 1500; rule 6: last trick 10.
    assert rules.meld("triple_bezique").points == 1500
    assert sorted(str(c) for c in rules.meld("triple_bezique").cards) == ["JD", "JD", "JD", "QS", "QS", "QS"]
    assert rules.default_options()["target"] == 1500 and rules.last_trick_points == 10
    assert rules.default_options()["last_trick"] == "final"


def test_three_handed_readings_follow_their_base_game() -> None:
    rules = load_profile("three-handed")
    on = {r: rules.with_options({**rules.default_options(), "reading": r}) for r in ("001", "000", "004")}
    # §2.f rule 6: each reading is its seed's two-handed game (§2.b ua2, §2.a classic, §2.d ruwiki).
    for reading, base in (("001", "ua2"), ("000", "classic"), ("004", "ruwiki")):
        two = load_profile(base)
        assert on[reading].draw_order == two.draw_order, reading
        assert on[reading].phase1_play == two.phase1_play, reading
        assert bool(on[reading].card_points) == bool(two.card_points), reading
        assert {m.kind for m in on[reading].melds} == {m.kind for m in two.melds} | {"triple_bezique"}, reading
    assert on["000"].brisque_points == 10 and on["000"].seven_played == 10  # §2.a rules 15c, 16
    assert on["004"].reuse == "higher_other_kind"  # §2.d rule 13
    assert on["000"].phase2_play == "follow_win_overtrump"  # §2.a rule 18, §2.f rule 7 ([BR9])


@pytest.mark.parametrize(
    ("options", "leader"),
    [
        ({}, "E"),  # §2.f rule 5, 3h-001: "зліва від здавальника" (001:L46)
        ({"reading": "004"}, "S"),  # 3h-004: "по правую строну от сдатчика" (004:L35)
        ({"reading": "000"}, "E"),  # 3h-000: open, left by default
        ({"reading": "004", "first_leader": "left"}, "E"),
        ({"first_leader": "right"}, "S"),
    ],
)
def test_three_handed_first_leader(options: dict[str, str], leader: str) -> None:
    # Seats play N, E, S: the dealer N's left-hand neighbour is E, his right-hand neighbour S.
    assert table("three-handed", THREE, dealer="N", options=options).leader == leader


def test_four_handed_first_leader_and_turnup() -> None:
    # §2.g.2 rule 7: the player on the dealer's left leads; the 33rd card is turned up (96 - 32 = 64 with it).
    state = table("4h-three-001", FOUR, dealer="W")
    assert state.leader == "N" and state.stock_count == 64
    assert load_profile("4h-three-001").phase1_tricks == 16 and load_profile("4h-three-001").total_tricks == 24


# --- play and draw with three or four ----------------------------------------------------------------------------


def test_three_handed_draw_order() -> None:
    # §2.f rule 7: 3h-001 draws as 001:L7, the leader first, then clockwise; the others the winner first, then
    # the others in playing order.
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "AS 8C 7C 9C 8H 7H 9D 8D", "S": "10S 8C 7C 9C 8H 7H 9D 7D"}
    for options, order in (({}, ["N", "E", "S"]), ({"reading": "000"}, ["E", "S", "N"])):
        state = table("three-handed", hands, dealer="S", options=options)
        step = play(state, "N 9S", "E AS", "S 10S")
        assert step.winner == "E" and step.state.to_draw == order, options
        assert violation(apply_draw, step.state, order[1], C("7S")).code == "BZ401"
        apply_draw(step.state, order[0], C("7S"))


def test_phase_1_follow_suit_with_three() -> None:
    # §2.f rule 6 → §2.b rule 6: in 3h-001 each follower follows suit if able while the stock lasts.
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "AS 8C 7C 9C 8H 7H 9D 8D", "S": "10S 8C 7C 9C 8H 7H 9D 7D"}
    state = table("three-handed", hands, dealer="S")
    after_n = play(state, "N 9S").state
    assert violation(apply_play, after_n, "E", C("8C")).code == "BZ203"
    # 3h-000 (classic, §2.a rule 7): no obligation in phase 1.
    free = table("three-handed", hands, dealer="S", options={"reading": "000"})
    play(free, "N 9S", "E 8C", "S 7D")


def test_phase_2_beat_the_highest_card_so_far() -> None:
    # §2.f rule 7 (3h-000, classic's must-win rule): follow suit and beat the highest card so far, if able.
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "KS 8C 7C 9C 8H 7H 9D 8D", "S": "AS QS 7C 9C 8H 7H 9D 7D"}
    state = phase_two(table("three-handed", hands, dealer="S", options={"reading": "000"}))
    after = play(state, "N 9S", "E KS").state
    assert legal_plays(after, "S") == {C("AS")}  # QS follows but does not beat the king
    assert violation(apply_play, after, "S", C("QS")).code == "BZ204"


def test_phase_2_in_3h_001_follows_the_base_game() -> None:
    # §2.f rule 6 → §2.b rule 17 (001:L7): follow suit, else trump; no obligation to beat. RULES.md §2.f rule 7's
    # must-beat reading is the option phase2_play=follow_win_trump.
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "KS 8C 7C 9C 8H 7H 9D 8D", "S": "AS QS 7C 9C 8H 7H 9D 7D"}
    state = phase_two(table("three-handed", hands, dealer="S"))
    assert legal_plays(play(state, "N 9S", "E KS").state, "S") == {C("AS"), C("QS")}
    state = phase_two(table("three-handed", hands, dealer="S", options={"phase2_play": "follow_win_trump"}))
    assert legal_plays(play(state, "N 9S", "E KS").state, "S") == {C("AS")}


def test_phase_2_third_hand_may_discard_when_it_cannot_overtrump() -> None:
    # §2.f rule 7 ([BR9]): void in the suit led and unable to win by trumping, the third hand may discard anything;
    # able to overtrump, he must.
    trumps = "C"
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "KC 8C 7C 9C 8H 7H 9D 8D", "S": "QC 7C 9H 8H 7H 9D 7D 8D"}
    state = phase_two(table("three-handed", hands, turnup=f"10{trumps}", dealer="S", options={"reading": "000"}))
    after = play(state, "N 9S", "E KC").state  # E, void in spades, trumps with the king
    assert legal_plays(after, "S") == set(cards("QC 7C 9H 8H 7H 9D 7D 8D"))
    play(after, "S 8H")
    hands["S"] = "AC 7C 9H 8H 7H 9D 7D 8D"
    state = phase_two(table("three-handed", hands, turnup=f"10{trumps}", dealer="S", options={"reading": "000"}))
    after = play(state, "N 9S", "E KC").state
    assert legal_plays(after, "S") == {C("AC")}
    assert violation(apply_play, after, "S", C("8H")).code == "BZ204"


def test_phase_2_beat_even_the_partner() -> None:
    # §2.g.2 rule 7 → §2.g.1 rule 7 (option follow_win_trump): beat the highest card so far, even a partner's.
    hands = {**FOUR, "N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "JS 8C 7C 9C 8H 7H 9D 8D", "S": "AS QS 7C 9C 8H 7H 9D 7D"}
    state = phase_two(table("4h-three-001", hands, dealer="W", options={"phase2_play": "follow_win_trump"}))
    after = play(state, "N 9S", "E JS").state
    assert legal_plays(after, "S") == {C("AS"), C("QS")}
    hands["N"] = "KS 8S 7S 9H 8H 7H 9D 8D"
    state = phase_two(table("4h-three-001", hands, dealer="W", options={"phase2_play": "follow_win_trump"}))
    after = play(state, "N KS", "E JS").state
    assert legal_plays(after, "S") == {C("AS")}  # partner N's king is the card to beat
    # The default, 001:L50's "Решта правила ... як і в Безик удвох" (§2.b rule 17): follow suit only.
    state = phase_two(table("4h-three-001", hands, dealer="W"))
    assert legal_plays(play(state, "N KS", "E JS").state, "S") == {C("AS"), C("QS")}


# --- declarations ----------------------------------------------------------------------------------------------------


def test_triple_bezique_over_a_double() -> None:
    # §2.f rule 2 ([BR9]): a third bezique may be added to a declared double bezique; it scores 1500.
    hands = {"N": "QS QS QS JD JD JD 9H 8H", "E": "AS 8C 7C 9C 8H 7H 9D 8D", "S": "10S 8C 7C 9C 8H 7H 9D 7D"}
    state = table("three-handed", hands, dealer="S")
    step = play(state, "N 9H", "E 8H", "S 7H")
    assert step.winner == "N"
    step = apply_declare(step.state, "N", "double_bezique", cards("QS QS JD JD"))
    # N's next won trick: the draws, then of the two 8H the first played wins.
    step = play(draw(step.state, "N AH", "E AH", "S AC"), "N 8H", "E 7H", "S 8H")
    assert step.winner == "N"
    step = apply_declare(step.state, "N", "triple_bezique", cards("QS QS QS JD JD JD"))
    assert step.events[-1].points == 1500 and step.state.seats["N"].score == 500 + 1500 + 0


def test_partners_score_jointly() -> None:
    # §2.g.2 rule 2: "Лік очкам партнерів ведеться спільно" (001:L50): every point of N or S is N+S's.
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "JS 8C 7C 9C 8H 7H 9D 8D", "S": "AS KH QH 9C 8H 7H 9D 7D"}
    state = table("4h-three-001", {**FOUR, **hands}, turnup="10D", dealer="W")
    step = play(state, "N 9S", "E JS", "S AS", "W 7C")
    assert step.winner == "S" and step.state.scores() == {"N+S": 11 + 2, "E+W": 0}  # card points, §2.b rule 15
    step = apply_declare(step.state, "S", "marriage", cards("KH QH"))
    assert step.state.scores() == {"N+S": 13 + 20, "E+W": 0}
    # §2.g.2 rule 3: only the player who won the trick declares; there is no passing to the partner here.
    lost = play(state, "N 9S", "E JS", "S AS", "W 7C").state
    assert violation(apply_declare, lost, "N", "marriage", cards("KH QH")).code == "BZ301"
    assert violation(apply_pass, step.state, "S", "N").code == "BZ311"


def test_last_trick_to_the_side() -> None:
    # §2.g.2 rule 5: the last trick's 10 is "ділиться навпіл між партнерами" (001:L50): 10 to the side (default);
    # option halves: 5 to each side.
    for share, expected in (("side", {"N+S": 10, "E+W": 0}), ("halves", {"N+S": 5, "E+W": 5})):
        hands = {"N": "AS", "E": "9S", "S": "8S", "W": "7S"}
        state = table("4h-three-001", FOUR, dealer="W", options={"last_trick_share": share})
        state = position_of(state, state.rules.total_tricks, 0, "N", hands)
        step = play(state, "N AS", "E 9S", "S 8S", "W 7S")
        last = {k: v - (11 if k == "N+S" else 0) for k, v in step.state.scores().items()}
        assert last == expected, share
        assert [e.kind for e in step.events].count("last_trick") == (1 if share == "side" else 2)


def test_partnership_declaration_needs_the_profile() -> None:
    # Passing and joint declarations (RULES.md §2.g.1 rule 4) are 4h-six-000's; the three-pack game has neither.
    hands = {"N": "9S 8S 7S 9H 8H 7H 9D 8D", "E": "JS 8C 7C 9C 8H 7H 9D 8D", "S": "AS KH QH 9C 8H 7H 9D QS"}
    state = table("4h-three-001", {**FOUR, **hands, "N": "JD 9S 7S 9H 8H 7H 9D 8D"}, turnup="10D", dealer="W")
    step = play(state, "N 9S", "E JS", "S AS", "W 7C")
    assert step.winner == "S"
    problem = violation(apply_declare, step.state, "S", "bezique", cards("QS"), partner_cards=cards("JD"))
    assert problem.code == "BZ312"


# --- the notation: sides ----------------------------------------------------------------------------------------------


def test_side_scores_in_the_notation() -> None:
    text = generate_game("4h-three-001", 7)
    assert "score N+S " in text and "result N+S " in text
    result = check_text(text)
    assert result.valid, [d.message for d in result.diagnostics][:3]
    scores = result.games[0].deals[0].scores
    # The side may be written in either order, or by one of its seats (docs/notation.md, "Seats and sides").
    first = next(line for line in text.splitlines() if line.startswith("result "))
    for written in ("S+N", "N"):
        changed = text.replace(first, first.replace("N+S", written, 1))
        assert check_text(changed).valid, written
    wrong = text.replace(first, f"result N+S {scores['N+S'] + 1}, E+W {scores['E+W']}")
    assert [d.code for d in check_text(wrong).diagnostics] == ["BZ503"]
    mixed = text.replace(first, first.replace("N+S", "N+E", 1))
    assert [d.code for d in check_text(mixed).diagnostics] == ["BZ105"]


def _over_target(profile: str, want_third: bool) -> tuple[str, dict[str, int], str]:
    """A generated one-deal game and a target that two scorers pass, the last trick won by the lower of them (or,
    with ``want_third``, by a third player)."""
    rules = load_profile(profile)
    for seed in range(300):
        text = generate_game(profile, seed)
        data = to_json(check_text(text))["games"][0]
        totals = data["scores"]
        tricks = data["deals"][0]["tricks"]
        last = rules.scorer(tricks[-1]["winner"])
        ranked = sorted(totals, key=lambda s: -totals[s])
        if want_third:
            if last != ranked[-1] or totals[ranked[1]] == totals[ranked[2]]:
                continue
            later = next(rules.scorer(t["winner"]) for t in reversed(tricks) if rules.scorer(t["winner"]) != last)
            if later == ranked[1]:  # the lower of the two over the target won a trick last
                lowered = text.replace(f"profile: {profile}\n", f"profile: {profile}\ntarget: {totals[later]}\n")
                return lowered, totals, later
        elif totals[last] < max(totals.values()):
            low = min(totals.values())
            return text.replace(f"profile: {profile}\n", f"profile: {profile}\ntarget: {low}\n"), totals, last
    raise AssertionError("no such seed")


def test_three_pass_the_target_a_third_took_the_last_trick() -> None:
    # §2.b rule 19 (001:L7): "Якщо останній хабар взяв третій інший гравець, то переможцем з цієї пари вважається
    # гравець, який взяв хабар останнім" — of the two over the target, the one who won a trick later.
    text, totals, expected = _over_target("three-handed", want_third=True)
    result = check_text(text + f"winner {expected}\n")
    assert result.valid, [d.message for d in result.diagnostics][:3]
    assert result.games[0].winner == expected and totals[expected] < max(totals.values())


def test_both_sides_pass_the_target_the_last_trick_wins() -> None:
    # §2.g.2 rule 6 → §2.b rule 19: both sides over the target in one deal: the side of the last trick wins.
    text, totals, last = _over_target("4h-three-001", want_third=False)
    result = check_text(text + f"winner {last}\n")
    assert result.valid and result.games[0].winner == last
    other = next(s for s in totals if s != last)
    assert [d.code for d in check_text(text + f"winner {other}\n").diagnostics] == ["BZ505"]


def test_multi_deal_game_to_the_target() -> None:
    # §2.g.2 rule 6 (004:L355): points accumulate over the hands; the game ends when a side passes the target.
    text = generate_game("4h-three-001", 11, deals=3)
    result = check_text(text)
    assert result.valid
    game = result.games[0]
    assert len(game.deals) == 3 and game.winner is None  # 3 deals stay below 1000 per side here
    assert game.scores == {s: sum(d.scores[s] for d in game.deals) for s in ("N+S", "E+W")}
    # The dealer passes to the left: N, E, S (RULES.md §2.b rule 5; every deal's dealer is stated).
    assert [d.dealer for d in game.deals] == ["W", "N", "E"]


# --- the command line and the records ----------------------------------------------------------------------------


def test_profiles_and_rules_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out
    assert "three-handed " in out and "4h-three-001 " in out
    assert main(["rules", "4h-three-001"]) == 0
    out = capsys.readouterr().out
    assert "partnerships (joint score): N+S, E+W" in out
    assert re.search(r"^  triple bezique +triple_bezique +1500 ", out, re.MULTILINE)  # (its name, the record's word)
    assert main(["rules", "three-handed"]) == 0
    assert "seats in playing order: N E S" in capsys.readouterr().out


@pytest.mark.parametrize("profile", SEATED)
def test_constructed_record_validates(profile: str) -> None:
    path = GAMES / f"constructed-{profile}.bzq"
    result = check_text(path.read_text(encoding="utf-8"), str(path))
    assert result.valid, [f"{d.span}: {d.code} {d.message}" for d in result.diagnostics][:3]
    assert read_record(path.read_text(encoding="utf-8")).games[0].profile == profile


# --- hundreds of random deals ----------------------------------------------------------------------------------

DEALS = 200
SAMPLE = 10
"""Every SAMPLE-th deal is also written, parsed and replayed from its text."""

VARIANTS: dict[str, list[dict[str, str]]] = {
    "three-handed": [
        {"reading": "000"},
        {"reading": "004", "declare_after_tricks": "4"},
        {"reading": "000", "last_trick": "24", "first_leader": "right"},
        {"phase2_play": "follow_win_trump", "tie_rule": "higher_total"},
    ],
    "4h-three-001": [
        {"last_trick_share": "halves", "phase2_play": "follow_win_trump"},
        {"draw_order": "winner_first"},
    ],
    "4h-six-000": [{"fours": "trump_only"}],
}


def _check_deal(profile: str, options: dict[str, str], seed: int, round_trip: bool) -> None:
    played = soak_deal(profile, options, seed, round_trip)
    rules = load_profile(profile)
    chosen = rules.resolve_options(options)
    effective = rules.with_options(chosen)
    last = [n for n, events in enumerate(played.trick_events, start=1) if any(e.kind == "last_trick" for e in events)]
    assert last == [rules.phase1_tricks if chosen.get("last_trick") == "24" else rules.total_tricks]
    if effective.card_points:  # packs × 4 suits × (11 + 10 + 4 + 3 + 2)
        assert sum(e.points for e in played.events if e.kind == "card_points") == rules.packs * 4 * 30
    else:  # an ace and a ten of each suit in each pack, or nothing where brisques do not count (§2.g.1 rule 5)
        brisques = sum(e.points for e in played.events if e.kind == "brisques")
        assert brisques == rules.packs * 8 * effective.brisque_points
    meld_kinds = {m.kind for m in effective.melds if not m.whole_hand}
    for n, events in enumerate(played.trick_events, start=1):
        assert len([e for e in events if e.kind in meld_kinds]) <= 1 or n > rules.phase1_tricks


@pytest.mark.parametrize("profile", SEATED)
def test_random_deals(profile: str) -> None:
    for seed in range(DEALS):
        _check_deal(profile, {}, seed, round_trip=seed % SAMPLE == 0)


@pytest.mark.parametrize(
    ("profile", "options"),
    [(p, o) for p, variants in VARIANTS.items() for o in variants],
    ids=[f"{p}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for p, variants in VARIANTS.items() for o in variants],
)
def test_random_deals_under_options(profile: str, options: dict[str, str]) -> None:
    for seed in range(16):
        _check_deal(profile, options, 1000 + seed, round_trip=seed % 4 == 0)


def test_trumps_are_the_turnup_suit() -> None:
    # §2.f rule 4 / §2.g.2 rule 7: the turned-up card fixes trumps.
    assert table("three-handed", THREE, turnup="9H").trump == Suit.H


# --- partners declaring for and with each other (the engine's generic keys, RULES.md §2.g.1 rule 4) ----------------


PARTNERS = {**FOUR, "N": "JD 9S 7S 9H 8H 7H 9D 8D", "E": "8C 7C 9C 8H 7H 9D 8D 10H", "S": "AS KH QH 9C 8H 7H 9D QS"}


def _partnership_profile(tmp_path: Path) -> str:
    """4h-three-001 with the declaring keys of RULES.md §2.g.1 rule 4 switched on (as 4h-six-000 has them)."""
    return str(
        edited_profile(
            tmp_path,
            "4h-three-001",
            "  reuse: text_with_remarriage      # §2.b rule 13",
            "  by: winner_or_partner\n  joint: true\n  reuse: text_with_remarriage      # §2.b rule 13",
        )
    )


def test_the_winner_lets_his_partner_declare(tmp_path: Path) -> None:
    # §2.g.1 rule 4 (000:L373): "после выигрыша взятки игрок может либо объявить ее сам, либо позволить сделать это
    # своему партнеру".
    state = table(_partnership_profile(tmp_path), PARTNERS, turnup="10D", dealer="W")
    won = play(state, "N 9S", "E 8C", "S AS", "W 7C").state
    assert won.winner == "S"
    # Without passing, North may not declare after South's trick.
    assert violation(apply_declare, won, "N", "bezique", cards("JD"), partner_cards=cards("QS")).code == "BZ301"
    passed = apply_pass(won, "S", "N").state
    step = apply_declare(passed, "N", "bezique", cards("JD"), partner_cards=cards("QS"))
    assert step.state.scores() == {"N+S": 11 + 40, "E+W": 0}
    # Each part lies on its owner's table.
    assert [t.card for t in step.state.seats["N"].table] == [C("JD")]
    assert [t.card for t in step.state.seats["S"].table] == [C("QS")]
    # Having passed, South may not declare himself; nor pass to a player who is not his partner.
    assert violation(apply_declare, passed, "S", "marriage", cards("KH QH")).code == "BZ301"
    assert violation(apply_pass, won, "S", "E").code == "BZ311"
    # After a declaration the winner can no longer pass.
    declared = apply_declare(won, "S", "marriage", cards("KH QH")).state
    assert violation(apply_pass, declared, "S", "N").code == "BZ311"


def test_pass_and_joint_declaration_in_a_record(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The record names the shipped profile; the replay (its headers) reads the edited one in its place.
    edited = load_profile(_partnership_profile(tmp_path))
    monkeypatch.setattr("replayer.headers.load_profile", lambda name: edited)
    text = "\n".join(
        [
            'game "partners"',
            "profile: 4h-three-001",
            "deal 1",
            "dealer: W",
            "turnup: 10D",
            *(f"hand {s}: {h}" for s, h in PARTNERS.items()),
            "trick 1: N 9S, E 8C, S AS, W 7C -> S",
            "  S PASSES to N",
            "  N declares bezique JD WITH South QS = 40",
            "  draws N 7S, E 7S, S 8S, W 8S",
            "  score S+N 51, W+E 0",
            "",
        ]
    )
    # One trick of the deal: only the unfinished hand is reported (the pass, the joint declaration and the side's
    # stated score are checked and agree).
    assert [d.code for d in check_text(text).diagnostics] == ["BZ506"]
    from replayer.fmt import format_text

    canonical = format_text(text)
    assert "  S passes to N\n" in canonical and "N declares bezique JD with S QS = 40" in canonical
    assert "score S+N 51, W+E 0" in canonical  # the side as written (either order is read)
    wrong = text.replace("  S PASSES to N\n", "")
    assert [d.code for d in check_text(wrong).diagnostics] == ["BZ301", "BZ506"]


def test_random_deals_with_partners_declaring_together(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The seeded player passes to the partner and joins the partner's cards where the keys allow it; every record
    # re-validates to the same scores.
    path = _partnership_profile(tmp_path)
    edited = load_profile(path)
    monkeypatch.setattr("replayer.headers.load_profile", lambda name: edited)
    passes = joint = 0
    for seed in range(40):
        text = generate_game(path, seed).replace(f"profile: {path}", "profile: 4h-three-001")
        passes += text.count(" passes to ")
        joint += text.count(" with ")
        result = check_text(text)
        assert result.valid, (seed, [f"{d.span}: {d.code} {d.message}" for d in result.diagnostics][:3])
    assert passes and joint


@pytest.mark.parametrize("profile", SEATED)
def test_generate_command(profile: str, tmp_path: Path) -> None:
    out = tmp_path / "g.bzq"
    assert main(["generate", "--profile", profile, "--seed", "3", "--deals", "2", "--out", str(out)]) == 0
    result = check_text(out.read_text(encoding="utf-8"))
    # A one-hand game (4h-six-000 is scored as Rubicon) ends with its hand: no second deal follows it.
    one_hand = result.games[0].deals[0].game_scores != {}
    assert result.valid and len(result.games[0].deals) == (1 if one_hand else 2)


def test_lossy_records_of_more_seats_are_completed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 21: the completion of unknown cards (replayer/infer.py) asks the core for the seats that play, so a
    # three-handed record that lost a suit is completed, and the card it lost is the one written back.
    text = (GAMES / "constructed-three-handed.bzq").read_text(encoding="utf-8")
    lossy = text.replace("trick 2: S 10H, N 8H, E QH -> S", "trick 2: S 10H, N 8?, E QH -> S")
    path = tmp_path / "lossy.bzq"
    path.write_text(lossy, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    out = tmp_path / "out.bzq"
    assert main(["infer", str(path), "--out", str(out)]) == 0
    assert "trick 2: S 10H, N 8H, E QH -> S" in out.read_text(encoding="utf-8")
    capsys.readouterr()


# --- 4h-six-000: six packs, partnerships, Rubicon (RULES.md §2.g.1) -----------------------------------------------

SIX = {
    "N": "QS QS QS JD JD 9H 8H 7H 9C",
    "E": "AS 10S 9S 8S 7S 9D 8D 7D 8C",
    "S": "QS QS JD JD JD KS 8C 7C 9D",
    "W": "AC 10C 9C 8C 7C AH 10H 9H 8D",
}


def test_four_handed_six_pack_values() -> None:
    rules = load_profile("4h-six-000")
    # §2.g.1 rules 1-2: six packs, 192 cards, 9 each, 156 in the stock: 39 tricks with draws and 9 without.
    assert (rules.players, rules.packs, rules.deck_size, rules.hand_size) == (4, 6, 192, 9)
    assert rules.stock_size == 156 and rules.phase1_tricks == 39 and rules.total_tricks == 48
    assert rules.scorers == ("N+S", "E+W") and not rules.turnup
    # §2.g.1 rule 5 (000:L353-L369).
    points = {m.kind: m.points for m in rules.melds}
    assert points["carte_blanche"] == 100 and points["quintuple_bezique"] == 13500
    assert points["sextuple_bezique"] == 40500
    assert [points[f"four_{r}"] for r in ("aces", "tens", "kings", "queens", "jacks")] == [1000, 900, 800, 600, 400]
    assert rules.brisque_points == 0 and not rules.card_points  # "бриски не учитываются"
    assert rules.game_scoring is not None
    assert (rules.game_scoring.rubicon, rules.game_scoring.game_bonus) == (2500, 1000)
    # §2.g.1 rule 6 → §2.e rule 8: 50 for the last trick of the hand.
    assert rules.last_trick_points == 50
    # §2.g.1 rule 3: the player on the dealer's left leads; no turn-up, no trumps until a marriage or sequence.
    state = table("4h-six-000", SIX, turnup=None, dealer="W")
    assert state.leader == "N" and state.trump is None and state.stock_count == 156


def test_four_handed_fours_option() -> None:
    # §2.g.1 rule 5, open: "Любые 4 ..." literally (any), or trump fours as in the six-pack game (trump_only), with
    # Rubicon's any fours at 100 / 80 / 60 / 40.
    rules = load_profile("4h-six-000")
    trump_only = rules.with_options({**rules.default_options(), "fours": "trump_only"})
    points = {m.kind: m.points for m in trump_only.melds}
    assert points["four_trump_aces"] == 1000 and points["four_trump_tens"] == 900 and points["four_aces"] == 100
    assert "four_tens" not in points


def _won_by_n(profile: str = "4h-six-000", hands: Mapping[str, str] = SIX) -> EngineState:
    """Trick 1 of a 4h-six-000 deal, won by North (no trumps yet: the highest card of the suit led wins)."""
    state = table(profile, hands, turnup=None, dealer="W")
    step = play(state, "N 9H", "E 9D", "S 8C", "W 8D")
    assert step.winner == "N"
    return step.state


def test_quintuple_bezique_only_with_the_partner() -> None:
    # §2.g.1 rule 4: "пятерной безик ... может быть заявлен лишь с помощью партнера" (000:L373); 13 500 (rule 5).
    state = _won_by_n()
    assert violation(apply_declare, state, "N", "quintuple_bezique", cards("QS QS QS JD JD QS QS JD JD JD")).code == (
        "BZ303"
    )
    step = apply_declare(
        state, "N", "quintuple_bezique", cards("QS QS QS JD JD"), partner_cards=cards("QS QS JD JD JD"), partner="S"
    )
    assert step.state.scores() == {"N+S": 13500, "E+W": 0}
    assert len(step.state.seats["N"].table) == 5 and len(step.state.seats["S"].table) == 5


def test_the_winner_passes_and_the_partner_declares() -> None:
    # §2.g.1 rule 4: the winner lets his partner declare; his partner's own cards then form the declaration.
    state = _won_by_n()
    assert violation(apply_declare, state, "S", "double_bezique", cards("QS QS JD JD")).code == "BZ301"
    passed = apply_pass(state, "N", "S").state
    step = apply_declare(passed, "S", "double_bezique", cards("QS QS JD JD"))
    assert step.state.scores() == {"N+S": 500, "E+W": 0}
    assert violation(apply_declare, passed, "N", "bezique", cards("QS JD")).code == "BZ301"


def test_trumps_fixed_by_a_joint_marriage_change_the_bezique_cards() -> None:
    # §2.g.1 rule 3 → §2.e rule 4: the first marriage fixes trumps and scores 40; rule 5 and §3.2 D9: with spades
    # trumps the bezique is Q♣ + J♥ (000:L353), at every level (inferred).
    hands = {**SIX, "N": "KS QC QC QC JD JD 9H 8H 7H", "S": "QS QS JH JH JD KS 8C 7C 9D"}
    state = _won_by_n(hands=hands)
    step = apply_declare(state, "N", "royal_marriage", cards("KS"), partner_cards=cards("QS"))
    assert step.state.trump == Suit.S and step.events[-1].points == 40
    # North's next won trick: the draws, then hearts led that nobody follows or trumps.
    later = draw(step.state, "N 10D", "E 10D", "S 10D", "W 10D")
    won = play(later, "N 8H", "E 7D", "S 7C", "W 7C")
    assert won.winner == "N"
    later = won.state
    problem = violation(apply_declare, later, "S", "bezique", cards("QS JD"))
    assert problem.code in ("BZ301", "BZ304")
    passed = apply_pass(later, "N", "S").state
    assert violation(apply_declare, passed, "S", "bezique", cards("QS JD")).code == "BZ304"
    step = apply_declare(passed, "S", "double_bezique", cards("JH JH"), partner_cards=cards("QC QC"))
    assert step.events[-1].points == 500


def test_phase_2_beat_the_partner_in_the_six_pack_game() -> None:
    # §2.g.1 rule 7 ([BI]): follow suit and beat the highest card so far, even a partner's.
    hands = {
        **SIX,
        "N": "KS 9H 8H 7H 9C 8C 7C 9D 8D",
        "E": "JS 9D 8D 7D 8C 7C 9C 8H 7H",
        "S": "AS QS 7C 9D 8H 9H 7H 8C 9C",
    }
    state = phase_two(table("4h-six-000", hands, turnup=None, dealer="W"))
    after = play(state, "N KS", "E JS").state
    assert legal_plays(after, "S") == {C("AS")}


def test_rubicon_scoring_for_the_sides() -> None:
    # §2.g.1 rules 5-6: game bonus 1000, rubicon 2500; the winning side scores 1000 + the difference, or, over a
    # rubiconed side, both scores and the 1000 (inferred from rubicon-000).
    from replayer.rules import game_score

    rules = load_profile("4h-six-000")
    assert rules.game_scoring is not None
    assert game_score(rules.game_scoring, {"N+S": 4000, "E+W": 3000}) == {"N+S": 2000, "E+W": 0}
    assert game_score(rules.game_scoring, {"N+S": 4000, "E+W": 2400}) == {"N+S": 7400, "E+W": 0}
    text = generate_game("4h-six-000", 2)
    result = check_text(text)
    assert result.valid and "game score N+S " in text
    assert result.games[0].winner in ("N+S", "E+W")


def test_double_carte_blanche() -> None:
    # §2.g.1 rule 5 (000:L353): "Двойной карт-бланш; оба партнера при сдаче не получили ни одной фигурной карты —
    # 50", as printed (open: option double_carte_blanche); before the first trick, once for the side.
    hands = {**SIX, "N": "AS 10S 9S 8S 7S 9H 8H 7H 9C", "S": "AD 10D 9D 8D 7D AC 10C 9C 8C"}
    hands["E"] = "KS 10S 9S 8S 7S 9D 8D 7D 8C"  # East holds a king; his partner West none
    state = table("4h-six-000", hands, turnup=None, dealer="W")
    step = apply_declare(state, "N", "double_carte_blanche", [], points=50)
    assert step.state.scores() == {"N+S": 50, "E+W": 0}
    # Each partner may still score his own carte blanche (100); the side's double only once.
    assert apply_declare(step.state, "S", "carte_blanche", []).state.scores()["N+S"] == 150
    assert violation(apply_declare, step.state, "S", "double_carte_blanche", []).code == "BZ308"
    assert violation(apply_declare, state, "W", "double_carte_blanche", []).code == "BZ304"
    assert (
        violation(
            apply_declare, play(state, "N 9H", "E 9D", "S 8C", "W 8D").state, "N", "double_carte_blanche", []
        ).code
        == "BZ301"
    )
    # Read as a garble, it scores nothing.
    none = table("4h-six-000", hands, turnup=None, dealer="W", options={"double_carte_blanche": "none"})
    assert apply_declare(none, "N", "double_carte_blanche", []).state.scores()["N+S"] == 0
