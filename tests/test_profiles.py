"""The two-handed profiles of seeds 001, 002 and 004 (``ua2``, ``ru19``, ``ruwiki``), rule by rule.

Every expected value comes from ../shared/RULES.md: each test names the section and rule it checks (§2.b is ua2,
§2.c ru19, §2.d ruwiki). The last tests play hundreds of seeded random deals per profile through the engine and
replay a sample of them from their text.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
from conftest import C, cards, deal, draw, edited_profile, phase_two, play, soak_deal, violation

from replayer.cards import Suit
from replayer.check import check_text
from replayer.cli import main
from replayer.engine import (
    EngineState,
    apply_declare,
    apply_draw,
    apply_exchange,
    apply_play,
    apply_show,
    finish_deal,
    identify,
    legal_declarations,
    legal_exchanges,
    legal_plays,
)
from replayer.errors import RuleProfileError
from replayer.generate import generate_game
from replayer.profiles import load_profile
from replayer.replay import to_json

PROFILES = ("ua2", "ru19", "ruwiki")


# --- the profiles' data -----------------------------------------------------------------------------------------


def test_ua2_values() -> None:
    rules = load_profile("ua2")
    # §2.b rule 12: the meld table of 001:L21-L33.
    assert {m.kind: m.points for m in rules.melds} == {
        "two_trump_sevens": 20,
        "marriage": 20,
        "royal_marriage": 40,
        "double_marriage": 40,
        "bezique": 40,
        "four_jacks": 40,
        "four_queens": 60,
        "four_kings": 80,
        "double_royal_marriage": 80,
        "four_aces": 100,
        "plain_sequence": 100,
        "sequence": 250,
        "double_bezique": 500,
    }
    # §2.b rules 5, 6, 8, 17: the non-dealer leads; follow suit in phase 1; the leader draws first; phase 2 follow
    # suit, else trump, with no obligation to win.
    assert (rules.first_leader, rules.phase1_play, rules.draw_order, rules.phase2_play) == (
        "dealer_left",
        "follow_suit",
        "leader_first",
        "follow_trump",
    )
    # §2.b rule 9: declare after a won trick, before one's own lead; rule 14: sevens 10 / 10 / 10 (second seven).
    assert rules.declare_until == "lead"
    assert (rules.seven_turnup, rules.seven_exchange, rules.seven_second, rules.seven_played) == (10, 10, 10, 0)
    # §2.b rule 15: card points A 11, 10 10, K 4, Q 3, J 2 in won tricks, instead of brisques.
    assert dict((r.symbol, p) for r, p in rules.card_points) == {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
    assert rules.card_points_when == "trick" and rules.brisque_points == 0
    # §2.b rules 16 and 19: 10 for the last trick (no last_trick option: the final trick); game 1000, tie → last trick.
    assert rules.last_trick_points == 10 and "last_trick" not in rules.options
    assert rules.default_options() == {
        "target": 1000,
        "tie_rule": "last_trick",
        "declare_after_tricks": "0",
        "draw_order": "leader_first",
        "seven_holder": "second_seven",
        "reuse": "text_with_remarriage",
        "double_marriage_over_marriage": "allowed",
        "deal_packets": "three_two_three",
    }


def test_ru19_values() -> None:
    rules = load_profile("ru19")
    # §2.c rule 14: the meld table of 002:L8 (no plain-suit quint).
    assert {m.kind: m.points for m in rules.melds} == {
        "four_aces": 100,
        "four_kings": 80,
        "four_queens": 60,
        "four_jacks": 40,
        "royal_marriage": 40,
        "marriage": 20,
        "double_royal_marriage": 80,
        "double_marriage": 40,
        "bezique": 40,
        "double_bezique": 500,
        "sequence": 250,
        "two_trump_sevens": 20,
    }
    # §2.c rules 3, 9, 10: pairs; no obligation in phase 1; phase 2 "перекрывать и даже бить козырем".
    assert rules.deal_packets == (2, 2, 2, 2)
    assert (rules.phase1_play, rules.phase2_play, rules.draw_order) == ("free", "follow_win_trump", "winner_first")
    # §2.c rule 5: dealer's turn-up seven 10, the holder exchanges for 10 (no won trick needed: open, option).
    assert (rules.seven_turnup, rules.seven_exchange, rules.seven_exchange_when, rules.seven_second) == (
        10,
        10,
        "any_time",
        0,
    )
    # §2.c rules 16-18: card points at the end of the hand, trump seven not counted again; last trick 10; 1000.
    assert dict((r.symbol, p) for r, p in rules.card_points) == {"A": 11, "10": 10, "K": 4, "Q": 3, "J": 2}
    assert (rules.card_points_when, rules.card_points_trump_seven, rules.last_trick_points) == ("end", 0, 10)
    assert rules.default_options() == {
        "target": 1000,
        "tie_rule": "last_trick",
        "seven_exchange": "any_time",
        "trump_seven_card_points": "no",
        "declarations_per_trick": "1",
        "reuse": "text_with_remarriage",
        "double_marriage_over_marriage": "allowed",
    }


def test_ruwiki_values() -> None:
    rules = load_profile("ruwiki")
    # §2.d rule 12: 004-E's table (004:L289-L313) plus the double trump marriage, 80, inferred.
    assert {m.kind: m.points for m in rules.melds} == {
        "four_aces": 100,
        "four_kings": 80,
        "four_queens": 60,
        "four_jacks": 40,
        "marriage": 20,
        "royal_marriage": 40,
        "double_marriage": 40,
        "double_royal_marriage": 80,
        "bezique": 40,
        "double_bezique": 500,
        "two_trump_sevens": 20,
        "plain_sequence": 100,
        "sequence": 250,
    }
    # §2.d rules 5, 7, 8, 9, 13: free phase 1, the winner draws first, phase 2 004-B literal, declare holding seven
    # cards (before drawing), re-use only in another kind worth more.
    assert (rules.phase1_play, rules.draw_order, rules.phase2_play) == ("free", "winner_first", "follow_trump")
    assert (rules.declare_until, rules.reuse) == ("draw", "higher_other_kind")
    # §2.d rules 6, 14, 15: card points trick by trick; the seven only through the exchange; last trick 32.
    assert rules.card_points_when == "trick"
    assert (rules.seven_turnup, rules.seven_exchange, rules.seven_second, rules.seven_played) == (10, 10, 0, 0)
    assert rules.default_options() == {
        "target": 1000,
        "tie_rule": "last_trick",
        "last_trick": "final",
        "phase2_play": "follow_trump",
        "trick_scoring": "card_points",
        "seven_rule": "exchange",
        "declarations_per_trick": "1",
        "declare_after_tricks": "0",
        "false_declaration": "all",  # §2.d rule 17 (open): tests/test_penalties.py
    }


def test_ruwiki_options_change_the_rules() -> None:
    rules = load_profile("ruwiki")
    # §2.d rule 14 a-d: the seven of trumps in 004-B, 004-A, 004-D and 004-E.
    a = rules.with_options({"seven_rule": "exchange"})
    b = rules.with_options({"seven_rule": "exchange_and_win"})
    c = rules.with_options({"seven_rule": "exchange_and_second"})
    d = rules.with_options({"seven_rule": "exchange_20"})
    assert a is rules
    assert (b.seven_played, b.seven_played_must_win, b.seven_exchange) == (10, True, 10)
    assert (c.seven_exchange, c.seven_second) == (10, 10)
    assert (d.seven_exchange, d.seven_second) == (20, 10)
    # §2.d rule 6: brisques instead of card points (004-A, 004-D); rule 8: must win in phase 2 (004-D).
    e = rules.with_options({"trick_scoring": "brisques", "phase2_play": "follow_win_trump"})
    assert (e.card_points, e.brisque_points, e.phase2_play) == ((), 10, "follow_win_trump")
    assert rules.with_options({"trick_scoring": "brisques"}) is rules.with_options({"trick_scoring": "brisques"})


def test_extra_melds_are_recognised() -> None:
    # §2.b rule 12 / §2.c rule 14 / §2.d rule 12, with clubs trumps.
    ua2, ru19, ruwiki = (load_profile(p) for p in PROFILES)
    table = [
        ("7C 7C", "two_trump_sevens", 20),
        ("KH KH QH QH", "double_marriage", 40),
        ("KC KC QC QC", "double_royal_marriage", 80),
        ("AH 10H KH QH JH", "plain_sequence", 100),
        ("AC 10C KC QC JC", "sequence", 250),
    ]
    for text, kind, points in table:
        for rules in (ua2, ruwiki):
            assert [(m.kind, m.points) for m in identify(rules, cards(text), Suit.C)] == [(kind, points)]
    # 002 has no plain-suit quint (§2.c rule 14); two sevens of a plain suit are no meld anywhere.
    assert identify(ru19, cards("AH 10H KH QH JH"), Suit.C) == []
    assert identify(ua2, cards("7H 7H"), Suit.C) == []


def test_the_melds_found_are_remembered_within_a_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    # identify() remembers its answers on the compiled rules; a corpus of ever new declarations must not grow that
    # without end, and an answer worked out again after the memory is cleared is the same.
    import replayer.rules.melds
    from replayer.rules import compile_rules
    from replayer.rules import identify as identify_indices

    monkeypatch.setattr(replayer.rules.melds, "_IDENTIFIED_MAX", 3)
    profile = load_profile("classic")
    rules = compile_rules(profile, profile.default_options())
    rules.identified.clear()

    def kinds(text: str, trump: int) -> list[str]:
        return [m.kind for m in identify_indices(rules, [c.index for c in cards(text)], trump)]

    assert kinds("AC 10C KC QC JC", 3) == ["sequence"]
    for text in ("KH QH", "KS QS", "AH AS AD AC", "QS JD"):
        kinds(text, 3)
        assert len(rules.identified) <= 3
    assert kinds("AC 10C KC QC JC", 3) == ["sequence"]
    assert kinds("AC 10C KC QC JC", 1) == []


# --- play: following suit, draws, card points -------------------------------------------------------------------

UA_N = "AS KH QH KH QH 9C 8C 7D"
UA_S = "9S 8S 7H JD 8D 9D 10C AC"


def test_ua2_follows_suit_in_phase_1() -> None:
    # §2.b rule 6 (001:L7): the follower must follow suit if he can; void, he may play any card, trump or not.
    state = deal(UA_N, UA_S, turnup="JC", dealer="S", profile="ua2")
    led = play(state, "N AS").state
    assert legal_plays(led, "S") == {C("9S"), C("8S")}
    v = violation(apply_play, led, "S", C("10C"))
    assert v.code == "BZ203" and "must follow suit" in v.message
    # Classic leaves the follower free while the stock lasts (§2.a rule 7).
    free = play(deal(UA_N, UA_S, turnup="JC", dealer="S"), "N AS").state
    assert legal_plays(free, "S") == set(cards(UA_S))
    # Void in the suit led: any card, not necessarily a trump (and it need not win).
    state = deal("AD 9S KH QH KH QH 9C 8C", "9S 8S 7H JH 8H 9H 10C AC", turnup="JC", dealer="S", profile="ua2")
    led = play(state, "N AD").state
    assert legal_plays(led, "S") == set(cards("9S 8S 7H JH 8H 9H 10C AC"))


def test_ua2_leader_draws_first() -> None:
    # §2.b rule 8 (001:L7 "Першим бере гравець, який ходив першим"): the leader draws first even when he lost.
    state = deal(UA_N, UA_S, turnup="JC", dealer="S", profile="ua2")
    step = play(state, "N 7D", "S 8D")
    assert step.winner == "S" and step.state.to_draw == ["N", "S"]
    v = violation(apply_draw, step.state, "S", C("9H"))
    assert v.code == "BZ401" and "the trick's leader draws first" in v.message
    after = draw(step.state, "N 9H", "S JH")
    assert after.leader == "S"  # the winner leads the next trick (§2.b rule 5)
    # Open (a mistranslation of "the winner"?): option draw_order=winner_first.
    options: dict[str, str | int] = {"draw_order": "winner_first"}
    lost = play(deal(UA_N, UA_S, turnup="JC", dealer="S", profile="ua2", options=options), "N 7D", "S 8D")
    assert lost.state.to_draw == ["S", "N"]
    # The other profiles: the winner draws first (§2.c rule 8, §2.d rule 7).
    for profile in ("ru19", "ruwiki"):
        lost = play(deal(UA_N, UA_S, turnup="JC", dealer="S", profile=profile), "N 7D", "S 8D")
        assert lost.state.to_draw == ["S", "N"]


def test_card_points_as_each_trick_is_won() -> None:
    # §2.b rule 15 and §2.d rule 6: A 11 + 10 10 = 21 for the trick's winner, at once; 9, 8, 7 count nothing.
    for profile in ("ua2", "ruwiki"):
        state = deal("AS KH QH KH QH 9C 8C 7D", "10S 8S 7H JD 8D 9D 10C AC", turnup="JC", dealer="S", profile=profile)
        step = play(state, "N AS", "S 10S")
        assert [(e.seat, e.kind, e.points) for e in step.events] == [("N", "card_points", 21)]
        assert step.state.scores() == {"N": 21, "S": 0}
        nothing = play(draw(step.state, "N 9H", "S JH"), "N 7D", "S 8D")
        assert nothing.events == [] and nothing.winner == "S"


def test_ru19_counts_card_points_at_the_end() -> None:
    # §2.c rule 16 (002:L16): the card points of the tricks are added "В конце всякой партии".
    state = deal("AS KH QH KH QH 9C 8C 7D", "10S 8S 7H JD 8D 9D 10C AC", turnup="JC", dealer="S", profile="ru19")
    step = play(state, "N AS", "S 10S")
    assert step.events == [] and step.state.scores() == {"N": 0, "S": 0}
    end = finish_deal(step.state, force=True)
    assert [(e.seat, e.kind, e.points) for e in end.events] == [("N", "card_points", 21), ("S", "card_points", 0)]
    assert end.state.scores() == {"N": 21, "S": 0}


def test_ru19_trump_seven_card_points_option() -> None:
    # §2.c rule 16, open: a trump seven in a won trick counts 10 only with trump_seven_card_points=yes.
    hands = ("AS KH QH KH QH 9C 8C 7C", "10S 8S 7H JD 8D 9D 10C AC")
    for value, points in (("no", 0), ("yes", 10)):
        state = deal(*hands, turnup="JC", dealer="S", profile="ru19", options={"trump_seven_card_points": value})
        step = play(state, "N 7C", "S 10C")  # S wins with the ten of trumps and takes the seven
        end = finish_deal(step.state, force=True)
        assert {e.seat: e.points for e in end.events} == {"N": 0, "S": 10 + points}


# --- phase 2 -----------------------------------------------------------------------------------------------------


def test_phase_2_obligations() -> None:
    north, south = "AS KH QH KH QH 9C 8C 7D", "10S 8S 7H JD 8D 9D 10C AC"
    # §2.b rule 17 (ua2): follow suit, but no obligation to win: 8S may go under KS.
    ua2 = phase_two(deal(north, south, turnup="JC", dealer="N", profile="ua2"))
    led = play(ua2, "S 8D").state
    assert legal_plays(led, "N") == {C("7D")}
    ua2 = phase_two(
        deal("KS 9H KH QH KH QH 9C 8C", "10S 8S 7H JD 8D 9D 10C AC", turnup="JC", dealer="S", profile="ua2")
    )
    led = play(ua2, "N KS").state
    assert legal_plays(led, "S") == {C("10S"), C("8S")}
    # Void in the suit led: trump if able (§2.b rule 17 "повинен класти козирну карту").
    led = play(ua2, "N 9H").state
    assert legal_plays(led, "S") == {C("7H")}
    led = play(phase_two(deal(north, "10S 8S 9S JD 8D 9D 10C AC", turnup="JC", dealer="N", profile="ua2")), "S 10S")
    assert legal_plays(led.state, "N") == {C("AS")}
    void = play(phase_two(deal("AS KS QS 9S 8S 7S JS 10S", south, turnup="JC", dealer="S", profile="ua2")), "N 9S")
    v = violation(apply_play, void.state, "S", C("8D"))
    assert v.code == "BZ203"
    # §2.c rule 10 (ru19): "должен перекрывать": 8S under KS is refused when 10S beats it.
    ru19 = phase_two(
        deal("KS 9H KH QH KH QH 9C 8C", "10S 8S 7H JD 8D 9D 10C AC", turnup="JC", dealer="S", profile="ru19")
    )
    led = play(ru19, "N KS").state
    assert legal_plays(led, "S") == {C("10S")}
    assert violation(apply_play, led, "S", C("8S")).code == "BZ204"
    # §2.d rule 8 (ruwiki): 004-B's literal rule by default, 004-D's must-win as the option.
    for option, allowed in (("follow_trump", {C("10S"), C("8S")}), ("follow_win_trump", {C("10S")})):
        hands = ("KS 9H KH QH KH QH 9C 8C", "10S 8S 7H JD 8D 9D 10C AC")
        state = deal(*hands, turnup="JC", dealer="S", profile="ruwiki", options={"phase2_play": option})
        assert legal_plays(play(phase_two(state), "N KS").state, "S") == allowed


def test_phase_2_void_must_trump_in_ua2() -> None:
    # §2.b rule 17: void in the suit led and holding a trump, the follower must trump.
    state = phase_two(
        deal("KS 9H KH QH KH QH 9C 8C", "7S 8S 10D JD 8D 9D 10C AC", turnup="JC", dealer="S", profile="ua2")
    )
    led = play(state, "N 9H").state
    assert legal_plays(led, "S") == {C("10C"), C("AC")}
    assert violation(apply_play, led, "S", C("8D")).code == "BZ205"


# --- declarations -------------------------------------------------------------------------------------------------


def test_ua2_declares_until_the_next_lead() -> None:
    # §2.b rule 9 (001:L7 "перед своїм ходом"): after winning a trick, before leading, so also after the draws.
    state = deal(UA_N, UA_S, turnup="JC", dealer="S", profile="ua2")
    won = draw(play(state, "N AS", "S 9S").state, "N 9H", "S JH")
    step = apply_declare(won, "N", "marriage", cards("KH QH"), 20)
    assert step.state.scores()["N"] == 11 + 20
    # The same after drawing in classic is refused: there the window closes with the draw (§2.a rule 10).
    classic = draw(play(deal(UA_N, UA_S, turnup="JC", dealer="S"), "N AS", "S 9S").state, "N 9H", "S JH")
    v = violation(apply_declare, classic, "N", "marriage", cards("KH QH"), 20)
    assert v.code == "BZ301" and "before drawing" in v.message
    # Leading ends it (§2.b rule 9 "після чого гравець робить хід").
    led = play(won, "N 9C").state
    assert violation(apply_declare, led, "N", "marriage", cards("KH QH")).code == "BZ301"


def _four_tricks(profile: str, options: dict[str, str | int]) -> list[EngineState]:
    """North wins tricks 1-4 (AS, AH, AD, 9S led); the state after each trick's draws."""
    state = deal(
        "AS AH AD 9S KH QH QS JD", "7S 7H 7D 8C 9D 8H 8D 10C", turnup="JC", dealer="S", profile=profile, options=options
    )
    states = []
    tricks = (("AS", "7S", "9C", "9H"), ("AH", "7H", "8S", "JH"), ("AD", "7D", "10H", "10D"), ("9S", "8D", "AC", "QD"))
    for lead, follow, north_draws, south_draws in tricks:
        step = play(state, f"N {lead}", f"S {follow}")
        assert step.winner == "N"
        states.append(step.state)
        state = draw(step.state, f"N {north_draws}", f"S {south_draws}")
    return states


def test_ua2_waits_for_four_tricks_when_asked() -> None:
    # §2.b rule 10 (001:L7 "після взяття чотирьох хабарів"): option declare_after_tricks=4, every combination.
    after = _four_tricks("ua2", {"declare_after_tricks": "4"})
    v = violation(apply_declare, after[0], "N", "marriage", cards("KH QH"))
    assert v.code == "BZ302" and "after winning 4 tricks" in v.message
    assert violation(apply_declare, after[2], "N", "bezique", cards("QS JD")).code == "BZ302"
    assert legal_declarations(after[2], "N") == []
    # Three aces won (11 each), then 9S and 8D (nothing), and the marriage.
    assert apply_declare(after[3], "N", "marriage", cards("KH QH"), 20).state.scores()["N"] == 3 * 11 + 20
    # By default ("відразу") the first won trick is enough.
    assert apply_declare(_four_tricks("ua2", {})[0], "N", "marriage", cards("KH QH"), 20)


def test_ruwiki_four_trick_rule_covers_marriages_and_quints_only() -> None:
    # §2.d rule 10 (004:L315): "ни марьяжа, ни квинты": bezique may be declared at once, a marriage may not.
    after = _four_tricks("ruwiki", {"declare_after_tricks": "4"})
    assert violation(apply_declare, after[0], "N", "marriage", cards("KH QH")).code == "BZ302"
    assert apply_declare(after[0], "N", "bezique", cards("QS JD"), 40)
    assert {spec.kind for spec, _ in legal_declarations(after[0], "N")} == {"bezique"}
    assert {spec.kind for spec, _ in legal_declarations(after[3], "N")} == {"bezique", "marriage"}


def _won(profile: str, north: str, options: dict[str, str | int] | None = None, turnup: str = "9D") -> EngineState:
    """North leads AS to trick 1 and wins it (South throws 7S)."""
    state = deal(north, "7S 7H 8H 8C 9C 8D 10C 7C", turnup=turnup, dealer="S", profile=profile, options=options)
    return play(state, "N AS", "S 7S").state


def _next_trick(state: EngineState, lead: str = "N 7D", follow: str = "S 8D") -> EngineState:
    """Draws for the last trick, then North wins another trick (7D led, 8D... the leader's suit, trumps are D)."""
    first, second = state.to_draw
    state = draw(state, f"{first} 9H", f"{second} JH")
    step = play(state, lead, follow)
    assert step.winner == "N", step.winner
    return step.state


def test_double_marriage_over_a_declared_marriage() -> None:
    # §2.b rule 13, open: by default a double marriage may be built on a declared marriage of its suit (20 + 40).
    north = "AS KH KH QH QH 7D 8S 9S"
    state = _won("ua2", north)
    state = apply_declare(state, "N", "marriage", cards("KH QH"), 20).state
    state = _next_trick(state, "N 8S", "S 7H")
    assert apply_declare(state, "N", "double_marriage", cards("KH KH QH QH"), 40).state.scores()["N"] == 11 + 20 + 40
    # With the option "forbidden" the double marriage needs four cards not yet scored in a marriage.
    state = _won("ua2", north, {"double_marriage_over_marriage": "forbidden"})
    state = apply_declare(state, "N", "marriage", cards("KH QH"), 20).state
    state = _next_trick(state, "N 8S", "S 7H")
    v = violation(apply_declare, state, "N", "double_marriage", cards("KH KH QH QH"))
    assert v.code == "BZ307" and "may not be built on it" in v.message


def test_ruwiki_reuse_only_in_another_kind_worth_more() -> None:
    # §2.d rule 13 (004:L181): "четыре короля могут быть объявлены с использованием короля, ранее объявленного для
    # брака. Брак не может быть позже объявлен с использованием короля, ... в составе четырех королей".
    north = "AS KH QH KS KD KC 8S 9S"
    state = apply_declare(_won("ruwiki", north), "N", "marriage", cards("KH QH"), 20).state
    state = _next_trick(state, "N 8S", "S 7H")
    assert apply_declare(state, "N", "four_kings", cards("KH KS KD KC"), 80).state.scores()["N"] == 11 + 100

    state = apply_declare(_won("ruwiki", north), "N", "four_kings", cards("KH KS KD KC"), 80).state
    state = _next_trick(state, "N 8S", "S 7H")
    v = violation(apply_declare, state, "N", "marriage", cards("KH QH"))
    assert v.code == "BZ307" and "worth more" in v.message
    # Classic's rule allows exactly that (the worked deal's trick 12, §2.a rule 14b).
    classic = apply_declare(_won("classic", north), "N", "four_kings", cards("KH KS KD KC"), 80).state
    assert apply_declare(_next_trick(classic, "N 8S", "S 7H"), "N", "marriage", cards("KH QH"), 20)
    # No card twice in one kind: four kings again with one new king is refused ("другого типа").
    state = apply_declare(_won("ruwiki", "AS KH KH KS KD KC 8S 9S"), "N", "four_kings", cards("KH KS KD KC")).state
    state = _next_trick(state, "N 8S", "S 7H")
    assert violation(apply_declare, state, "N", "four_kings", cards("KH KS KD KC")).code == "BZ307"


def test_ruwiki_bezique_then_double_bezique() -> None:
    # §2.d rule 13: double bezique (500) is another kind worth more than bezique (40): allowed.
    state = apply_declare(_won("ruwiki", "AS QS QS JD JD 7D 8S 9S"), "N", "bezique", cards("QS JD"), 40).state
    state = _next_trick(state, "N 8S", "S 7H")
    assert apply_declare(state, "N", "double_bezique", cards("QS QS JD JD"), 500).state.scores()["N"] == 11 + 540


def test_ruwiki_shown_together_scored_later() -> None:
    # §2.d rule 13, 004:L185: "наличие K♠ Q♠ J♦ дает Безике 40 очков, а после выигрыша следующей взятки больше 20".
    # Both are laid out after one trick (the marriage shown, the bezique scored); the marriage scores after the next.
    state = _won("ruwiki", "AS KS QS JD 7D 9H 8S 9S")
    state = apply_show(state, "N", "marriage", cards("KS QS")).state
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    v = violation(apply_declare, state, "N", "marriage", cards("KS QS"))
    assert v.code == "BZ308"  # one declaration per won trick (§2.d rule 9)
    state = _next_trick(state, "N 8S", "S 7H")
    assert apply_declare(state, "N", "marriage", cards("KS QS"), 20).state.scores()["N"] == 11 + 40 + 20
    # Written the other way round (the bezique scored, then the marriage shown): still one lay-out, still allowed.
    state = _won("ruwiki", "AS KS QS JD 7D 9H 8S 9S")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    state = apply_show(state, "N", "marriage", cards("KS QS")).state
    state = _next_trick(state, "N 8S", "S 7H")
    assert apply_declare(state, "N", "marriage", cards("KS QS"), 20).state.scores()["N"] == 11 + 40 + 20
    # Shown only after a later trick, the marriage would re-use a queen declared in a combination worth more.
    state = _won("ruwiki", "AS KS QS JD 7D 9H 8S 9S")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    state = _next_trick(state, "N 8S", "S 7H")
    assert violation(apply_show, state, "N", "marriage", cards("KS QS")).code == "BZ307"


# --- the seven of trumps --------------------------------------------------------------------------------------------


def test_ua2_the_other_seven_is_shown_for_10() -> None:
    # §2.b rule 14b-c: North exchanges his trump seven (10); the turn-up is then a seven, so South's cannot be
    # exchanged: he shows it after his next won trick for 10 (option seven_holder, default second_seven).
    north, south = "AS 7C KH QH 9S 8S 9D 8D", "10S 8H 7C JD 7S AD 10H AH"
    state = deal(north, south, turnup="JC", dealer="S", profile="ua2")
    state = play(state, "N AS", "S 10S").state
    step = apply_exchange(state, "N", C("7C"), 10)
    assert [(e.kind, e.points) for e in step.events] == [("seven_exchange", 10)]
    state = draw(step.state, "N 9H", "S JH")
    assert state.turnup == C("7C") and state.seats["N"].hand[C("JC")] == 1
    step = play(state, "N 9S", "S 7S")
    assert step.winner == "N"
    state = draw(step.state, "N 8C", "S 9C")
    won = play(state, "N 9D", "S AD")
    assert won.winner == "S"
    assert legal_exchanges(won.state) == [("S", C("7C"))]
    shown = apply_exchange(won.state, "S", C("7C"), 10)
    assert [(e.seat, e.kind, e.points) for e in shown.events] == [("S", "seven_shown", 10)]
    assert shown.state.seats["S"].hand[C("7C")] == 1 and shown.state.turnup == C("7C")
    v = violation(apply_exchange, shown.state, "S", C("7C"))
    assert v.code == "BZ309" and "already been shown" in v.message
    # seven_holder=exchange_only: the sentence of 001:L7 only repeats the exchange; nothing more scores.
    plain = deal(north, south, turnup="JC", dealer="S", profile="ua2", options={"seven_holder": "exchange_only"})
    plain = apply_exchange(play(plain, "N AS", "S 10S").state, "N", C("7C")).state
    plain = draw(plain, "N 9H", "S JH")
    plain = draw(play(plain, "N 9S", "S 7S").state, "N 8C", "S 9C")
    plain = play(plain, "N 9D", "S AD").state
    assert violation(apply_exchange, plain, "S", C("7C")).message == "the turn-up is already a seven (7C)"


def test_ua2_dealer_turns_up_a_seven() -> None:
    # §2.b rule 14a: the dealer scores 10; the holder of the other trump seven shows it for 10 (rule 14c).
    state = deal("AS 7C KH QH 9S 8S 9D 8D", "10S 8H 7H JD 7S AD 10H AH", turnup="7C", dealer="S", profile="ua2")
    assert state.scores() == {"N": 0, "S": 10}
    state = play(state, "N AS", "S 10S").state
    assert [(e.kind, e.points) for e in apply_exchange(state, "N", C("7C"), 10).events] == [("seven_shown", 10)]


def test_ru19_exchange_needs_no_won_trick() -> None:
    # §2.c rule 5 (002:L9): the holder exchanges for 10; no won trick required (open; option seven_exchange).
    north, south = "AS KH QH KH QH 9C 8C 7D", "10S 8S 7C JD 8D 9D 10C AC"
    state = play(deal(north, south, turnup="JC", dealer="S", profile="ru19"), "N AS", "S 10S").state
    step = apply_exchange(state, "S", C("7C"), 10)
    assert [(e.seat, e.kind, e.points) for e in step.events] == [("S", "seven_exchange", 10)]
    # ... between tricks, after the draws too, but not in the middle of a trick.
    drawn = draw(state, "N 9H", "S JH")
    assert apply_exchange(drawn, "S", C("7C"))
    half = play(drawn, "N 9C").state
    assert violation(apply_exchange, half, "S", C("7C")).code == "BZ309"
    # With seven_exchange=won_trick only the trick's winner may, as in classic.
    strict = deal(north, south, turnup="JC", dealer="S", profile="ru19", options={"seven_exchange": "won_trick"})
    strict = play(strict, "N AS", "S 10S").state
    assert violation(apply_exchange, strict, "S", C("7C")).code == "BZ309"


def test_ruwiki_seven_rules() -> None:
    north, south = "7C KH QH KH QH 9S 8C 7D", "9H 8S 7H JD 8D 9D 10C AC"
    # §2.d rule 14a (004-B, default): no points for winning a trick with the trump seven.
    state = deal(north, south, turnup="JC", dealer="N", profile="ruwiki")
    assert play(state, "S 9H", "N 7C").events == []
    # §2.d rule 14b (004-A "если игрок берет взятку на козырную семерку"): 10 for winning with it.
    state = deal(north, south, turnup="JC", dealer="N", profile="ruwiki", options={"seven_rule": "exchange_and_win"})
    step = play(state, "S 9H", "N 7C")
    assert [(e.seat, e.kind, e.points) for e in step.events] == [("N", "seven_played", 10)]
    # ... and nothing when it is played and loses (North leads it, South takes it with the ace of trumps).
    state = deal(north, south, turnup="JC", dealer="S", profile="ruwiki", options={"seven_rule": "exchange_and_win"})
    lost = play(state, "N 7C", "S AC")
    assert [(e.seat, e.kind) for e in lost.events] == [("S", "card_points")]
    # §2.d rule 14d (004-E): 10 for holding it and 10 for making it the turn-up: 20.
    state = deal(north, south, turnup="JC", dealer="S", profile="ruwiki", options={"seven_rule": "exchange_20"})
    state = play(state, "N 9S", "S 8S").state
    assert [(e.kind, e.points) for e in apply_exchange(state, "N", C("7C"), 20).events] == [("seven_exchange", 20)]


def test_ruwiki_brisques_option() -> None:
    # §2.d rule 6: trick_scoring=brisques scores 10 per ace and ten at the end instead of card points per trick.
    options: dict[str, str | int] = {"trick_scoring": "brisques"}
    state = deal(UA_N, "10S 8S 7H JD 8D 9D 10C AC", turnup="JC", dealer="S", profile="ruwiki", options=options)
    step = play(state, "N AS", "S 10S")
    assert step.events == []
    end = finish_deal(step.state, force=True)
    assert [(e.seat, e.kind, e.points) for e in end.events] == [("N", "brisques", 20), ("S", "brisques", 0)]


# --- profiles: errors in option changes -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("exchange_20: {seven: {exchange: 20", "exchange_20: {seven: {exchangee: 20", "unknown key"),
        ("exchange_20: {seven:", "exchange_21: {seven:", "'exchange_21' is not among the values"),
        ("exchange_20: {seven: {exchange: 20, second: 10}}", "exchange_20: {hand_size: 9}", "not change 'hand_size'"),
        ("follow_win_trump: {phase2_play: follow_win_trump}", "follow_win_trump: {phase2_play: win}", "phase2_play"),
        ("reuse: higher_other_kind", "reuse: anything_goes", "key 'declare.reuse'"),
        ("wait_kinds: [royal_marriage,", "wait_kinds: [royal_wedding,", "no meld 'royal_wedding'"),
        ('values: {A: 11, "10": 10', 'values: {A: eleven, "10": 10', "expected int"),
    ],
)
def test_broken_option_changes(tmp_path: Path, old: str, new: str, message: str) -> None:
    path = edited_profile(tmp_path, "ruwiki", old, new)
    with pytest.raises(RuleProfileError) as info:
        load_profile(str(path))
    assert str(path) in str(info.value) and message in str(info.value)


# --- the command line ----------------------------------------------------------------------------------------------


def test_profiles_and_rules_commands(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    out = capsys.readouterr().out.splitlines()
    for name, seed in (("ua2", "seed 001"), ("ru19", "seed 002"), ("ruwiki", "seed 004")):
        line = next(line for line in out if line.startswith(name + " "))
        assert seed in line and "card points" in line
    assert main(["rules", "ua2"]) == 0
    out = capsys.readouterr().out
    assert "two trump sevens" in out and "the leader draws first" in out and "A 11, 10 10, K 4, Q 3, J 2" in out
    assert "follow suit if able, else any card" in out and "trick 32, the final one" in out
    assert main(["rules", "ruwiki"]) == 0
    out = capsys.readouterr().out
    assert "higher_other_kind" in out
    assert "exchange_20: seven exchanged 20 (after a won trick); other seven shown 10" in out
    assert main(["rules", "ru19"]) == 0
    assert "at the end of the hand" in capsys.readouterr().out


def test_generate_with_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "g.bzq"
    argv = ["generate", "--profile", "ruwiki", "--seed", "4", "--option", "seven_rule=exchange_20", "--out", str(out)]
    assert main(argv) == 0
    text = out.read_text(encoding="utf-8")
    assert "options: seven_rule=exchange_20" in text
    assert check_text(text).valid
    assert main(["generate", "--profile", "ruwiki", "--option", "seven_rule=never"]) == 2
    assert "option seven_rule is one of" in capsys.readouterr().err
    assert main(["generate", "--profile", "ua2", "--option", "nonsense"]) == 2


# --- the game: target and tie (§2.b rule 19, §2.c rule 18, §2.d rule 16) -------------------------------------------


def _tied_game(profile: str) -> tuple[str, dict[str, int], str]:
    """A generated one-deal game where both pass a low target and the last trick's winner has the lower total."""
    for seed in range(200):
        text = generate_game(profile, seed)
        data = to_json(check_text(text))["games"][0]
        totals = data["scores"]
        last = data["deals"][0]["tricks"][-1]["winner"]
        if totals["N"] != totals["S"] and totals[last] < max(totals.values()):
            return text, totals, last
    raise AssertionError("no such seed")


@pytest.mark.parametrize("profile", PROFILES)
def test_both_over_the_target_the_last_trick_wins(profile: str) -> None:
    text, totals, last = _tied_game(profile)
    low = min(totals.values())
    lowered = text.replace(f"profile: {profile}\n", f"profile: {profile}\ntarget: {low}\n", 1)
    result = check_text(lowered + f"winner {last}\n")
    assert result.valid, [d.message for d in result.diagnostics]
    assert result.games[0].winner == last
    higher = max(totals, key=lambda s: totals[s])
    assert not check_text(lowered + f"winner {higher}\n").valid
    if profile == "ruwiki":  # 004:L63: the higher total, by agreement
        agreed = lowered.replace("target:", "options: tie_rule=higher_total\ntarget:", 1)
        assert check_text(agreed).games[0].winner == higher
    # One player over the target wins alone.
    alone = text.replace(f"profile: {profile}\n", f"profile: {profile}\ntarget: {max(totals.values())}\n", 1)
    assert check_text(alone).games[0].winner == higher


# --- hundreds of random deals -----------------------------------------------------------------------------------

DEALS = 200
SAMPLE = 8
"""Every SAMPLE-th deal is also written, parsed and replayed from its text."""

VARIANTS: dict[str, list[dict[str, str]]] = {
    "ua2": [
        {"declare_after_tricks": "4"},
        {"seven_holder": "exchange_only", "draw_order": "winner_first"},
        {"double_marriage_over_marriage": "forbidden", "reuse": "strict_text"},
        {"reuse": "new_card_refill"},
    ],
    "ru19": [
        {"seven_exchange": "won_trick"},
        {"trump_seven_card_points": "yes"},
        {"declarations_per_trick": "unlimited_disjoint"},
    ],
    "ruwiki": [
        {"last_trick": "24"},
        {"phase2_play": "follow_win_trump"},
        {"trick_scoring": "brisques"},
        {"seven_rule": "exchange_and_win"},
        {"seven_rule": "exchange_and_second"},
        {"seven_rule": "exchange_20", "declare_after_tricks": "4"},
        {"declarations_per_trick": "unlimited_disjoint", "tie_rule": "higher_total"},
    ],
}


def _check_deal(profile: str, options: dict[str, str], seed: int, round_trip: bool) -> None:
    played = soak_deal(profile, options, seed, round_trip)
    rules = load_profile(profile)
    chosen = rules.resolve_options(options)
    effective = rules.with_options(chosen)
    assert sum(s.tricks_won for s in played.state.seats.values()) == rules.total_tricks == 32
    kinds = Counter(e.kind for e in played.events)
    # The last trick is scored once: the final trick (§2.b rule 16, §2.c rule 17, §2.d rule 15) or 24 by option.
    last = [n for n, events in enumerate(played.trick_events, start=1) if any(e.kind == "last_trick" for e in events)]
    assert last == [24 if chosen.get("last_trick") == "24" else 32]
    # Won tricks: card points add up to 240 (2 × (11 + 10 + 4 + 3 + 2) × 4), plus 10 per trump seven when counted.
    if effective.card_points:
        extra = 2 * effective.card_points_trump_seven
        assert sum(e.points for e in played.events if e.kind == "card_points") == 240 + extra
        assert "brisques" not in kinds
    else:
        assert sum(e.points for e in played.events if e.kind == "brisques") == 160
    # Declarations: at most one scored per won trick unless the option says otherwise; only in phase 1.
    meld_kinds = {m.kind for m in rules.melds}
    for n, events in enumerate(played.trick_events, start=1):
        melds = [e for e in events if e.kind in meld_kinds]
        if chosen.get("declarations_per_trick", "1") == "1":
            assert len(melds) <= 1
        if n > rules.phase1_tricks:
            assert not melds and not [e for e in events if e.kind in ("seven_exchange", "seven_shown")]
    # The sevens: at most one exchange and one seven shown in a deal.
    assert kinds["seven_exchange"] <= 1 and kinds["seven_shown"] <= (1 if effective.seven_second else 0)


@pytest.mark.parametrize("profile", PROFILES)
def test_random_deals(profile: str) -> None:
    for seed in range(DEALS):
        _check_deal(profile, {}, seed, round_trip=seed % SAMPLE == 0)


@pytest.mark.parametrize(
    ("profile", "options"),
    [(p, o) for p, variants in VARIANTS.items() for o in variants],
    ids=[f"{p}-{'-'.join(f'{k}={v}' for k, v in o.items())}" for p, variants in VARIANTS.items() for o in variants],
)
def test_random_deals_under_options(profile: str, options: dict[str, str]) -> None:
    for seed in range(24):
        _check_deal(profile, options, 1000 + seed, round_trip=seed % 4 == 0)


def test_generated_records_are_canonical_and_render(tmp_path: Path) -> None:
    from replayer.fmt import format_text
    from replayer.render import render_site

    results = []
    for profile in PROFILES:
        text = generate_game(profile, 21, deals=2)
        assert format_text(text) == text
        result = check_text(text, f"{profile}.bzq")
        assert result.valid
        results.append(result)
    written = render_site(results, tmp_path / "site")
    assert {p.name for p in written} >= {f"rules-{p}.html" for p in PROFILES}
