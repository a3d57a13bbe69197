"""Issue 25, seed fidelity: what independent referees and a second audit found. Each test cites the seed lines it
checks (seed NNN line L is NNN:LL, ../shared/seeds/) and fails on the code before its fix."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping

import pytest
from conftest import ROOT, C, cards, draw, phase_two, play, violation
from test_profiles_rubicon import declare, holding, won_trick
from test_profiles_rubicon import table as two_handed

from replayer.cards import Card, Suit
from replayer.check import check_text
from replayer.engine import EngineState, apply_declare, apply_exchange, apply_play, legal_plays, start_deal
from replayer.generate import generate_game
from replayer.lesson.rules_pages import build_rules
from replayer.profiles import load_profile, profile_names
from replayer.rulebook import describe


def table(
    profile: str,
    hands: Mapping[str, str],
    turnup: str | None = "10C",
    dealer: str = "N",
    options: Mapping[str, str] | None = None,
) -> EngineState:
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
    assert phase_two(table("4h-six-000", hands, turnup=None, dealer="S")).leader == "W"
    state = phase_two(table("4h-six-000", hands, turnup=None, dealer="S"), "E", Suit.D)
    assert state.trump == Suit.D
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


# --- items 16 and 13: the re-use rule of the multi-pack games ------------------------------------------------------
# (000:L49 a card once scored forms no second combination of the kind; L315 a combination broken by a play may be
# refilled and scored again; L457 table cards are playable and a card counts in different combinations; 001:L65.)

MULTI_PACK = ["rubicon-000", "rubicon-001", "chinese-000", "8p-000"]


@pytest.mark.parametrize("profile", MULTI_PACK)
def test_a_broken_four_is_refilled_with_a_table_card(profile: str) -> None:
    """Item 16, too strict: four queens QC QD QH QH, a marriage KS QS, QH led, then four queens QC QD QH QS: the QS
    lies on the table, never scored in a four queens (000:L457, L315)."""
    state = won_trick(holding(two_handed(profile), "S", "QC QD QH QH KS QS KD 7D"), "S")
    state = won_trick(declare(state, "S", None, "KD QD", 40).state, "S")  # (diamonds trumps)
    state = won_trick(declare(state, "S", "four_queens", "QC QD QH QH", 60).state, "S")
    state = declare(state, "S", "marriage", "KS QS", 20).state
    state = won_trick(state, "S", lead="QH")
    assert declare(state, "S", "four_queens", "QC QD QH QS", 60).events[-1].points == 60


@pytest.mark.parametrize("profile", MULTI_PACK)
def test_a_refilled_marriage_after_its_queen_served_in_a_four(profile: str) -> None:
    """Item 16, too strict (001:L65 "Карти з комбінацій дозволяється використовувати"): KH QH married, that QH
    played, another QH drawn and scored in four queens, then KH QH married again."""
    state = won_trick(holding(two_handed(profile), "S", "KH QH KC QC QD QS 7D"), "S")
    state = won_trick(declare(state, "S", None, "KC QC", 40).state, "S")
    state = declare(state, "S", "marriage", "KH QH", 20).state
    state = won_trick(draw(won_trick(state, "S", lead="QH"), "S QH", "N 7S"), "S")  # (the next trick won)
    state = won_trick(declare(state, "S", "four_queens", "QH QD QS QC", 60).state, "S")
    assert declare(state, "S", "marriage", "KH QH", 20).events[-1].points == 20


@pytest.mark.parametrize("profile", MULTI_PACK)
def test_a_whole_four_is_not_scored_again(profile: str) -> None:
    """Item 16, too lax: four jacks refilled once (JD led, JC added) and still whole; three of its jacks with a
    fresh JH are not another four jacks (000:L49; 000:L315 asks for a card of it to be played first)."""
    state = won_trick(holding(two_handed(profile), "S", "JS JH JH JD JC JH 7D"), "S")
    state = declare(state, "S", "four_jacks", "JS JH JH JD", 40).state
    state = won_trick(state, "S", lead="JD")
    state = won_trick(declare(state, "S", "four_jacks", "JS JH JH JC", 40).state, "S")
    assert violation(declare, state, "S", "four_jacks", "JS JH JH JH").code == "BZ307"


def test_a_refill_needs_a_card_of_the_refilled_four_played() -> None:
    """Item 13: four aces AH AH AD AC, AC led, refilled with AS; AH AH AD and a new AC are not scored again while
    the refilled four lies whole (000:L315 "если игрок ходит с карты, лежащей в заявленной комбинации"). (The
    issue refills with AS; ``won_trick`` leads an AS, so here the refill is a second AD.)"""
    state = won_trick(holding(two_handed("rubicon-000"), "S", "AH AH AD AC AD AC 7D"), "S")
    state = declare(state, "S", "four_aces", "AH AH AD AC", 100).state
    state = won_trick(state, "S", lead="AC")
    state = won_trick(declare(state, "S", "four_aces", "AH AH AD AD", 100).state, "S")
    assert violation(declare, state, "S", "four_aces", "AH AH AD AC").code == "BZ307"


def test_the_marriage_swap_gives_each_card_one_new_partner() -> None:
    """Item 13: "поменять местами королей и дам … и заявить еще два" (000:L319): three heart marriages and their
    swaps make at most six heart marriages (each card swapped once), not the nine pairings of three kings and three
    queens that the rule before issue 25 accepted."""
    state = won_trick(holding(two_handed("rubicon-000"), "N", "KH QH KH QH KH QH KC QC"), "N")
    state = won_trick(declare(state, "N", None, "KC QC", 40).state, "N")
    accepted = 0
    while accepted < 9:
        step = apply_declare(state, "N", "marriage", cards("KH QH"), 20, force=True)
        if step.violations:
            assert step.violations[0].code in ("BZ306", "BZ307")
            break
        accepted += 1
        state = won_trick(step.state, "N")
    assert accepted == 6


# --- item 15: sixty-six ----------------------------------------------------------------------------------------------


def test_reaching_66_without_goes_out_is_named_as_such() -> None:
    """Item 15: a complete record that reaches 66 (003:L25 "заканчивает игру") but leaves out its 'goes out' line is
    answered BZ507 at the hand's end, not BZ603 ("leaves cards unknown") on its deal line, whichever trick ends it."""
    codes: Counter[str] = Counter()
    for seed in range(1, 11):
        text = generate_game("sixty-six", seed)
        assert "goes out" in text
        result = check_text("\n".join(line for line in text.split("\n") if "goes out" not in line), "x.bzq")
        codes.update(d.code for d in result.diagnostics)
    assert set(codes) == {"BZ507"}, codes


def test_sixty_six_says_who_deals_after_a_hand_nobody_won() -> None:
    """Item 15: 003:L13 names only the loser; after a hand nobody won the deal passes in turn, marked inferred."""
    text = describe(load_profile("sixty-six"))
    assert "after a hand nobody won, the next seat (inferred" in text


# --- item 14: the third trump seven -------------------------------------------------------------------------------


@pytest.mark.parametrize(("options", "third"), [({}, 10), ({"other_sevens": "first_only"}, None)])
def test_each_holder_of_a_trump_seven_scores_it(options: dict[str, str], third: int | None) -> None:
    """Item 14: three packs, clubs trumps. S exchanges 7C, E shows a 7C, N shows the third: 001:L7 read literally
    ("Той гравець, у якого виявиться на руках козирна сімка, записує собі 10 очок") scores each; the option
    first_only scores only the first one shown (BZ309 for the third)."""
    hands = {"N": "7C AH JC QC KC 9C 8C 7S", "E": "7C AD JC QC KC 9C 8C 7S", "S": "7C AS JC QC KC 9C 8C 9D"}
    state = table("three-handed", hands, turnup="10C", dealer="E", options=options)
    assert state.leader == "S"
    state = play(state, "S AS", "N 7S", "E 7S").state  # S wins and exchanges ...
    state = apply_exchange(state, "S", C("7C"), 10).state
    state = play(draw(state, "S 8S", "N 8H", "E 7H"), "S 9D", "N 8H", "E AD").state  # ... E wins and shows ...
    assert apply_exchange(state, "E", C("7C"), 10).events[-1].points == 10
    state = apply_exchange(state, "E", C("7C"), 10).state
    state = play(draw(state, "S 9S", "N 9S", "E 9H"), "E 7H", "S 8S", "N AH").state  # ... N wins
    assert state.winner == "N"
    if third is None:
        assert violation(apply_exchange, state, "N", C("7C"), 10).code == "BZ309"
    else:
        assert apply_exchange(state, "N", C("7C"), 10).events[-1].points == third
    assert "other seven shown        10  (once the turn-up is a seven; each other trump seven, inferred" in (
        describe(load_profile("three-handed"))
    )


# --- items 1 to 9: the profiles' texts and options -------------------------------------------------------------


def _yaml(name: str) -> str:
    return (ROOT / "replayer" / "profiles" / f"{name}.yaml").read_text(encoding="utf-8")


def test_infuzorka_exchange_comment_says_why_a_won_trick() -> None:
    """Item 1: "после того как перекроете" is a won trick in 004-C (L123 «Ход всегда принадлежит перекрывающему»,
    L161 «т. е. не заручившись ходом»): the comment beside exchange_when says so."""
    text = _yaml("infuzorka")
    at = text.index("exchange_when: won_trick")
    assert "Ход всегда принадлежит перекрывающему" in text[at - 600 : at]


def test_no_trump_cites_the_target_where_it_is_written() -> None:
    """Item 3: the game of 1000 is 001:L6-L7, not 001:L50."""
    doc = load_profile("no-trump").options["players"].doc
    assert re.search(r"game of 1000[^.]*001:L6", doc)
    assert not re.search(r"game of\s+1000 \(001:L50\)", doc)


def test_no_trump_names_the_table_it_refuses() -> None:
    """Item 4: three players with 004:L95's four packs leave 104 stock cards, which three cannot draw evenly:
    `bezique rules` names the refusal and its reason."""
    text = describe(load_profile("no-trump"))
    assert "players=3 with packs=4: not played:" in text and "104 cards" in text


def test_no_trump_on_seed_004s_own_base() -> None:
    """Item 5: 004:L363, L375 put no-trump on 004's base: ruwiki's play, 004-E's penalties, 80 and 300 (L367,
    L369), the lead from the dealer's right with three (L343), and 004-E's claim (L333)."""
    nt = load_profile("no-trump")
    ruwiki = load_profile("ruwiki")
    on = nt.with_options(nt.resolve_options({"base": "004"}))
    assert (on.draw_order, on.phase1_play, on.phase2_play, on.reuse) == (
        ruwiki.draw_order,
        ruwiki.phase1_play,
        ruwiki.phase2_play,
        ruwiki.reuse,
    )
    assert dict(on.penalties) == dict(ruwiki.penalties)
    assert dict(on.trump_fixing)["double_royal_marriage"] == 80 and on.meld("sequence").points == 300
    assert on.claim == "hand_end"
    three = nt.with_options(nt.resolve_options({"base": "004", "players": "3"}))
    assert three.first_leader == "dealer_right"
    assert check_text(generate_game("no-trump", 3, options={"base": "004"}), "x.bzq").valid


def test_chinese_001_play_rules_change_the_last_tricks_too() -> None:
    """Item 6: the option play_rules gives Rubicon-001's phase 2 (001:L7, follow suit else trump) by default and
    chinese-000's (000:L461, follow suit and win) with chinese_000."""
    six = load_profile("chinese-001")
    old = six.with_options(six.resolve_options({"play_rules": "chinese_000"}))
    assert six.phase2_play == load_profile("rubicon-001").phase2_play == "follow_trump"
    assert old.phase2_play == load_profile("chinese-000").phase2_play


@pytest.mark.parametrize(("name", "size"), [("rubicon-001", 9), ("chinese-001", 12), ("8p-001", 13)])
def test_the_001_penalties_are_read_for_the_hand_size(name: str, size: int) -> None:
    """Item 7: 001:L38-L41 speak of 8-card hands; with larger hands `bezique rules` and the YAML read them for the
    profile's size, marked inferred."""
    text = describe(load_profile(name))
    assert f"nine_cards               120  (a hand of {size + 1}: 001's 8-card wording adapted" in text
    assert f"the last {size} cards" in text and "inferred" in text
    assert f"here a hand of\n                                   # {size + 1}" in _yaml(name)
    assert "adapted" not in describe(load_profile("ua2"))


def test_ru19_conduct_marks_what_it_infers() -> None:
    """Item 8: 002:L16 says the claimer wins the game, not that the hand ends; 002:L18 says a misdeal is dealt
    again, not before which trick nor by whom: `bezique rules` and docs/notation.md mark both inferred."""
    text = describe(load_profile("ru19"))
    assert re.search(r"right, it ends the hand and wins the game \(inferred", text)
    assert re.search(r"misdeal .*002:L18\); before the first trick, by the same dealer: inferred", text)
    notation = (ROOT / "docs" / "notation.md").read_text(encoding="utf-8")
    assert "the hand ends and the game is its (inferred" in notation
    assert "same dealer deals again are inferred" in notation


def test_each_table_option_shows_its_own_seed_lines() -> None:
    """Item 9: players=3 of no-trump shows the three-handed line (001:L46), not the four-handed one (001:L50)."""
    text = describe(load_profile("no-trump"))
    three = re.search(r"\n  players=3: [^\n]*\n {6}([^\n]*)", text)
    four = re.search(r"\n  players=4: [^\n]*\n {6}([^\n]*)", text)
    assert three is not None and four is not None
    assert "001:L46" in three.group(1) and "001:L50" not in three.group(1)
    assert "001:L50" in four.group(1) and "001:L46" not in four.group(1)


# --- item 12: identical copies ---------------------------------------------------------------------------------------


def test_a_played_copy_is_the_one_that_keeps_the_record_legal_infuzorka() -> None:
    """Item 12: North shows four trump kings, plays a KH while holding a fifth, and adds a fifth to the four
    (004:L139, L145): legal when the KH played was the one from his hand, which the record need not say."""
    hands = {
        "N": "KH KH KH KH KH KH AS AS AD AD AC AC 10S 10S 10D 10D 10C 10C",
        "S": "JS JS JD JD JC JC QS QS QD QD QC QC 9S 9S 9D 9D 9C 9C",
    }
    state = table("infuzorka", hands, turnup="AH", dealer="S")
    assert state.leader == "N"
    state = play(state, "N AS", "S JS").state
    state = apply_declare(state, "N", "four_trump_kings", cards("KH KH KH KH"), 88).state
    state = draw(state, *(f"{seat} 10S" for seat in state.to_draw))
    state = play(state, "N KH", "S JD").state  # (his hand still holds two KH: this one may be either)
    step = apply_declare(state, "N", "five_trump_kings", cards("KH KH KH KH KH"), 50)
    assert step.events[-1].points == 50


def test_a_played_copy_is_the_one_that_keeps_the_record_legal_rubicon() -> None:
    """Item 12: S marries KC QC, scores four queens with a second QC, plays a QC at two tricks and marries KC again
    with a QC from his hand: legal when the married QC was one of those played (000:L315). (The trump marriage's QD
    serves in the four too, a card counting in different kinds, 000:L457: the ninth card of the hand leads.)"""
    state = won_trick(holding(two_handed("rubicon-000"), "S", "KC QC QC QC QD QH QS KD"), "S")
    state = won_trick(declare(state, "S", None, "KD QD", 40).state, "S")  # (diamonds trumps)
    state = won_trick(declare(state, "S", "marriage", "KC QC", 20).state, "S")
    state = declare(state, "S", "four_queens", "QC QD QH QS", 60).state
    state = won_trick(state, "S", lead="QC")
    state = won_trick(state, "S", lead="QC")
    assert declare(state, "S", "marriage", "KC QC", 20).events[-1].points == 20


def test_infuzorka_packs_go_with_the_players() -> None:
    """Item 2: 004:L109 ties the packs to the players; three hands leave 160 of ten packs (not divisible by three)
    and 120 of eight, so two play with 10 and three or four with 8 (inferred, arithmetic); 8 with two is an option.
    The pairing is marked inferred in the YAML and in `bezique rules`."""
    rules = load_profile("infuzorka")
    packs = {
        key: rules.with_options(rules.resolve_options(chosen)).packs
        for key, chosen in (("2", {}), ("3", {"players": "3"}), ("4", {"players": "4"}), ("2/8", {"packs": "8"}))
    }
    assert packs == {"2": 10, "3": 8, "4": 8, "2/8": 8}
    assert (
        re.search(r"^packs: 10 .*\n(?:\s+#.*\n)*?\s+#.*inferred", _yaml("infuzorka"), re.M)
        or "Inferred" in (_yaml("infuzorka").split("packs: 10", 1)[1][:300])
    )
    text = describe(rules)
    assert "the number of packs goes with the number of players: inferred" in text


# --- item 10: seed content modelled or listed -------------------------------------------------------------------


def test_three_handed_004_claims_as_004_e() -> None:
    """Item 10: 004-E's claim rule (004:L333) reaches three players through 004:L343 «Вышеприведенные правила
    прилагаются и для безика втроем»: the 004 reading of three-handed bezique claims as ruwiki does."""
    rules = load_profile("three-handed")
    reading = rules.with_options(rules.resolve_options({"reading": "004"}))
    assert reading.claim == load_profile("ruwiki").claim == "hand_end"
    assert "`N claims game`, once the hand is played out" in describe(reading)


def test_the_seed_notes_answer_what_no_profile_models() -> None:
    """Item 10: docs/seed-notes.md lists each point no profile models, with its seed line, in both languages."""
    notes = (ROOT / "docs" / "seed-notes.md").read_text(encoding="utf-8")
    for cite in ("004:L35", "000:L311", "004:L87", "004:L91", "001:L4"):
        assert cite in notes, cite
    assert "## По-русски" in notes


def test_the_rules_pages_mark_the_adapted_penalties_in_both_languages() -> None:
    """Items 7 and 2: the lesson rules page reads 001's 8-card penalties for rubicon-001's 9 cards and says it is
    inferred, in English and Russian; ua2's page keeps the source's words. Infuzorka's page shows the packs' pairing
    as inferred through its option text."""
    for lang, mark in (("en", "inferred"), ("ru", "выведено")):
        names = [name for _, name, _ in build_rules(load_profile("rubicon-001"), lang).penalties]
        assert any("9" in name and mark in name for name in names), names
        assert not any(mark in name for _, name, _ in build_rules(load_profile("ua2"), lang).penalties)
        packs = next(o for o in build_rules(load_profile("infuzorka"), lang).options if o.name == "packs")
        assert mark in packs.doc and packs.default == "by_players"
