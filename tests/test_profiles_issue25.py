"""Issue 25, seed fidelity: what independent referees and a second audit found. Each test cites the seed lines it
checks (seed NNN line L is NNN:LL, ../shared/seeds/) and fails on the code before its fix."""

from __future__ import annotations

from collections.abc import Mapping

from conftest import C, cards, phase_two, play, violation

from replayer.cards import Card, Suit
from replayer.engine import DealState, apply_play, legal_plays, start_deal
from replayer.profiles import load_profile, profile_names
from replayer.rulebook import describe


def table(
    profile: str,
    hands: Mapping[str, str],
    turnup: str | None = "10C",
    dealer: str = "N",
    options: Mapping[str, str] | None = None,
) -> DealState:
    """A deal of ``profile`` with the given hands (and turn-up: None for a profile without one)."""
    rules = load_profile(profile)
    opts = rules.resolve_options(dict(options or {}))
    up = Card.parse(turnup) if turnup is not None else None
    return start_deal(rules, opts, dealer, None, up, {s: cards(h) for s, h in hands.items()}).state


# --- items 11 and 17: the obligations of the last tricks ----------------------------------------------------------

_THREE = {"N": "AH 9S 8S 7S 9D 8D 7D 9H", "E": "KC 9S 8S 7S 9D 8D 7D JS", "S": "AC 8C 9S QS KS JD QD KD"}


def test_follow_trump_asks_no_over_trump_with_three() -> None:
    """Item 11: 001:L7 "масті … якщо такої карти немає, то повинен класти козирну карту": with clubs trumps, N leads
    AH, E (void in hearts) trumps KC, and S, void in hearts and holding AC and 8C, may play either trump. The
    three-handed 000 reading keeps [BR9]'s duty to win by trumping (RULES.md §2.f rule 7)."""
    state = phase_two(table("three-handed", _THREE, dealer="S"))
    after = play(state, "N AH", "E KC").state
    assert legal_plays(after, "S") == {C("AC"), C("8C")}
    play(after, "S 8C")
    assert violation(apply_play, after, "S", C("9S")).code == "BZ205"  # void, a trump held: trump
    old = phase_two(table("three-handed", _THREE, dealer="S", options={"reading": "000"}))
    assert legal_plays(play(old, "N AH", "E KC").state, "S") == {C("AC")}


def test_four_handed_three_packs_never_beats_the_partner_by_obligation() -> None:
    """Item 11: 4h-three-001 (001:L50 → L7) and 4h-three-004 (004:L359 → L61 "давать карты в масть или бить
    козырем"): W leads KS, N and E (void in spades) trump, S void in spades may under-trump his partner N."""
    hands = {
        "N": "8H 9C 8C 7C 9D 8D 7D AC",
        "E": "7H 9C 8C 7C 9D 8D 7D AD",
        "S": "10H 8H 9C 8C 7C 9D KD QD",
        "W": "KS 9S 8S 7S JD QC KC 10C",
    }
    for profile in ("4h-three-001", "4h-three-004"):
        state = phase_two(table(profile, hands, turnup="JH", dealer="S"))
        assert state.leader == "W", profile
        after = play(state, "W KS", "N 8H", "E 7H").state
        assert legal_plays(after, "S") == {C("10H"), C("8H")}, profile
        assert play(after, "S 8H").winner == "N", profile
    forced = phase_two(table("4h-three-004", hands, turnup="JH", dealer="S", options={"phase2_play": "follow_trump"}))
    assert legal_plays(play(forced, "W KS", "N 8H", "E 7H").state, "S") == {C("10H"), C("8H")}


def test_six_packs_four_hands_trump_when_void() -> None:
    """Item 17: 4h-six-000's last tricks (RULES.md §2.g.1 rule 7, inferred from [BI]: "trump if void"): diamonds
    trumps, W has trumped with KD; N, void in clubs and holding only 8D below it, must still trump."""
    hands = {
        "N": "8D JS 9S 8S 7S 9H 8H 7H QS",
        "E": "AC 9S 8S 7S 9H 8H 7H QS KS",
        "S": "KC 9S 8S 7S 9H 8H 7H QS KS",
        "W": "KD 9S 8S 7S 9H 8H 7H QS KS",
    }
    state = phase_two(table("4h-six-000", hands, turnup=None, dealer="S"))
    state.core.trump = list(Suit).index(Suit.D)
    assert state.leader == "W"
    state.leader = "E"
    after = play(state, "E AC", "S KC", "W KD").state
    assert legal_plays(after, "N") == {C("8D")}
    assert violation(apply_play, after, "N", C("JS")).code == "BZ205"


def test_every_profile_plays_the_last_tricks_as_its_rules_text_says() -> None:
    """Item 11: `bezique rules` names each profile's last-trick rule in the words of the rule the core plays."""
    words = {
        "follow_trump": "follow suit if able, else trump, else any card",
        "follow_win_trump": "follow suit and win if able, else trump (over-trump if able), else any card",
        "follow_win_overtrump": "follow suit and win if able, else win by trumping if able, else any card",
        "free": "any card",
    }
    for name in profile_names():
        profile = load_profile(name)
        for chosen in [
            {},
            *({o.name: v} for o in profile.options.values() for v in o.sets if "phase2_play" in o.sets[v]),
        ]:
            effective = profile.with_options(profile.resolve_options(chosen))
            text = describe(effective)
            assert f"last tricks: {words[effective.phase2_play]}" in text, (name, chosen)


def test_the_rules_say_the_last_draw_ends_the_declarations() -> None:
    """Item 11: a profile that lets the winner declare after drawing says that the winner of the trick that empties
    the stock declares before he draws (RULES.md §3 D4; the core refuses a declaration after that draw, BZ302)."""
    text = describe(load_profile("ua2"))
    assert "the winner of the trick that empties the stock declares before he draws" in text
    assert "empties the stock" not in describe(load_profile("classic"))  # (classic declares before drawing anyway)
