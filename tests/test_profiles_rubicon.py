"""The no-turn-up family (``rubicon-000``, ``rubicon-001``, ``chinese-000``, ``chinese-001``, ``8p-000``,
``8p-001``, ``no-trump``), rule by rule.

Every expected value comes from ../shared/RULES.md: each test names the section and rule it checks (§2.e Rubicon,
§2.h six-pack, §2.i eight-pack, §2.j no-trump, §3 the disagreements). The last tests play 200 seeded random deals
per profile through the engine and replay a sample of them from their text.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from pathlib import Path

import pytest
from conftest import C, cards, draw, edited_profile, play, position_of, soak_deal, violation

from replayer.cards import Card, Suit, make_pack
from replayer.check import check_text
from replayer.cli import main
from replayer.engine import (
    EngineState,
    Step,
    apply_carte_blanche,
    apply_cut,
    apply_declare,
    apply_draw,
    apply_play,
    finish_deal,
    identify,
    legal_carte_blanche,
    legal_declarations,
    legal_plays,
    start_deal,
    trick_winner,
)
from replayer.errors import RuleProfileError
from replayer.generate import generate_game
from replayer.profile import RuleProfile
from replayer.profiles import load_profile
from replayer.rules import brisques_counted, game_score

PROFILES = ("rubicon-000", "rubicon-001", "chinese-000", "chinese-001", "8p-000", "8p-001", "no-trump")
ONE_HAND = PROFILES[:-1]


def table(profile: str, **options: str) -> EngineState:
    """A deal of ``profile`` with made-up hands (North dealt, South leads); the hands are replaced by the test."""
    rules = load_profile(profile)
    chosen = rules.resolve_options(options)
    pack = make_pack(rules.packs, rules.ranks)
    hands = {s: pack[i * rules.hand_size : (i + 1) * rules.hand_size] for i, s in enumerate(rules.seats)}
    return start_deal(rules, chosen, "N", None, None, hands).state


LEADS = ("AS", "10S", "AD", "10D", "AC", "10C", "AH", "10H")
"""The cards a winner leads to win a staged trick, in order (the first not used up by the pack)."""
LOW = tuple(f"{rank}{suit}" for rank in ("7", "8", "9") for suit in "SHDC")
"""Cards that form no combination and lose to every lead above: the other seat's hand, and the holder's padding."""


def _spare(rules: RuleProfile, used: Counter[Card], wanted: Sequence[str], count: int) -> list[Card]:
    """``count`` cards from ``wanted`` (cycled) that the pack still has after ``used``, counted into ``used``."""
    out: list[Card] = []
    while len(out) < count:
        before = len(out)
        for text in wanted:
            card = C(text)
            if len(out) < count and used[card] < rules.copies(card):
                used[card] += 1
                out.append(card)
        assert len(out) > before, "the pack has no spare card left"
    return out


def holding(state: EngineState, seat: str, text: str, others: str = "") -> EngineState:
    """The first trick of ``state``'s deal, led by ``seat``, who holds these cards (padded to a hand with a card of
    :data:`LEADS` and low cards); the other seat holds ``others`` and low cards of every suit. A position, so the
    core checks it."""
    rules = state.profile
    mine, theirs = cards(text), cards(others)
    used = Counter(mine + theirs)
    mine += _spare(rules, used, (*LEADS[:1], *LOW[::-1]), rules.hand_size - len(mine))
    hands = {seat: " ".join(map(str, mine))}
    for other in rules.seats:
        if other != seat:
            dealt = theirs + _spare(rules, used, LOW, rules.hand_size - len(theirs))
            hands[other] = " ".join(map(str, dealt))
    return position_of(state, 1, None, seat, hands)


def won_trick(state: EngineState, winner: str, lead: str | None = None, drawn: str | None = None) -> EngineState:
    """``state`` just after ``winner`` won a trick of phase 1 (he may declare, everyone still draws): the draws due
    are made first (``winner`` draws ``drawn``, or a card of :data:`LEADS`; the others a low card of the suit to be
    led), then ``winner`` leads ``lead`` (or his first card of :data:`LEADS`) and the others answer with a legal card
    that loses."""
    assert state.leader == winner or state.to_draw, "the winner leads the staged trick"
    rules = state.profile
    seats = state.profile.seats
    used = sum((s.held() + Counter(s.won) for s in state.seats.values()), Counter[Card]())
    if state.to_draw:
        mine = C(drawn) if drawn else _spare(rules, used, LEADS, 1)[0]
        hand = state.seats[winner].held() + Counter([mine])
        led = C(lead) if lead else next(C(t) for t in LEADS if hand[C(t)])
        low = [t for t in LOW if t.endswith(led.suit.value)] + list(LOW)
        for seat in list(state.to_draw):
            card = mine if seat == winner else _spare(rules, used, low, 1)[0]
            state = apply_draw(state, seat, card).state
    hand = state.seats[winner].held()
    led = C(lead) if lead else next(C(t) for t in LEADS if hand[C(t)])
    step = apply_play(state, winner, led)
    while step.state.plays:
        seat = seats[(seats.index(winner) + len(step.state.plays)) % len(seats)]
        plays = step.state.plays
        losing = sorted(
            (c for c in legal_plays(step.state, seat) if trick_winner([*plays, (seat, c)], step.state.trump) == 0),
            key=lambda c: (str(c) not in LOW, str(c)),
        )
        assert losing, f"{seat} cannot lose to {led}"
        step = apply_play(step.state, seat, losing[0])
    assert step.winner == winner
    return step.state


def declare(state: EngineState, seat: str, kind: str | None, text: str, points: int | None = None) -> Step:
    return apply_declare(state, seat, kind, cards(text), points)


def melds(profile: str, **options: str) -> dict[str, int]:
    rules = load_profile(profile)
    return {m.kind: m.points for m in rules.with_options(rules.resolve_options(options)).melds}


# --- the profiles' data -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("profile", "packs", "hand", "phase1", "phase2"),
    [
        ("rubicon-000", 4, 9, 55, 9),  # §2.e rules 1-2: 128 cards, 9 each, 110 in the stock
        ("rubicon-001", 4, 9, 55, 9),
        ("chinese-000", 6, 12, 84, 12),  # §2.h rules 1, 3, 4: 192 cards, 12 each, stock 168
        ("chinese-001", 6, 12, 84, 12),
        ("8p-000", 8, 15, 113, 15),  # §2.i rules 1-2: 256 cards, 15 each (000:L473), stock 226
        ("8p-001", 8, 13, 115, 13),  # §2.i rule 2: 13 each (001:L73), stock 230
        ("no-trump", 2, 8, 24, 8),  # §2.j rules 1-2: the base game's two packs and 8 cards (inferred)
    ],
)
def test_packs_hands_and_tricks(profile: str, packs: int, hand: int, phase1: int, phase2: int) -> None:
    rules = load_profile(profile)
    assert (rules.packs, rules.hand_size, rules.phase1_tricks) == (packs, hand, phase1)
    assert rules.total_tricks - rules.phase1_tricks == phase2
    # §2.e rule 3, §2.h rule 4, §2.j rule 2, §3.1 P3: no turn-up, so no seven of trumps scores anything (§3.4 S6).
    assert not rules.turnup
    assert (rules.seven_turnup, rules.seven_exchange, rules.seven_played, rules.seven_second) == (0, 0, 0, 0)


def test_rubicon_meld_tables() -> None:
    # §2.e rule 8: the base-game values with carte blanche 50, plain sequence 150, triple 1500 and quadruple 4500.
    common = {
        "carte_blanche": 50,
        "sequence": 250,
        "plain_sequence": 150,
        "four_aces": 100,
        "four_kings": 80,
        "four_queens": 60,
        "four_jacks": 40,
        "royal_marriage": 40,
        "marriage": 20,
        "bezique": 40,
        "double_bezique": 500,
        "triple_bezique": 1500,
        "quadruple_bezique": 4500,
    }
    assert melds("rubicon-000") == common
    # rubicon-001 keeps ua2's double marriages, 40 and 80 (inherited, open); no two trump sevens (§3.4 S6).
    assert melds("rubicon-001") == {**common, "double_marriage": 40, "double_royal_marriage": 80}
    for profile in ("rubicon-000", "rubicon-001"):
        rules = load_profile(profile)
        # §2.e rule 8: 50 for the last trick of the hand; §2.e rules 13-14: brisques 10 each, rubicon 1000.
        assert rules.last_trick_points == 50 and rules.brisque_points == 10
        assert rules.brisques_when == "tie_or_rubicon"
        assert rules.game_scoring is not None and rules.game_scoring.rubicon == 1000


def test_six_and_eight_pack_meld_tables() -> None:
    # §2.h rule 9: trump fours 1000/900/800/600/400 beside the any-fours 100/80/60/40; carte blanche 250.
    six = {
        "carte_blanche": 250,
        "sequence": 250,
        "plain_sequence": 150,
        "four_trump_aces": 1000,
        "four_trump_tens": 900,
        "four_trump_kings": 800,
        "four_trump_queens": 600,
        "four_trump_jacks": 400,
        "four_aces": 100,
        "four_kings": 80,
        "four_queens": 60,
        "four_jacks": 40,
        "royal_marriage": 40,
        "marriage": 20,
        "bezique": 40,
        "double_bezique": 500,
        "triple_bezique": 1500,
        "quadruple_bezique": 4500,
    }
    assert melds("chinese-000") == six
    assert melds("chinese-001") == six
    # §2.i rules 4-5: bezique 50, quintuple 9000, trump fives 2000/1800/1600/1200/800 in place of the trump fours.
    fives = {
        "five_trump_aces": 2000,
        "five_trump_tens": 1800,
        "five_trump_kings": 1600,
        "five_trump_queens": 1200,
        "five_trump_jacks": 800,
    }
    no_trump_fours = {k: v for k, v in six.items() if not k.startswith("four_trump")}
    assert melds("8p-000") == {**no_trump_fours, **fives, "bezique": 50, "quintuple_bezique": 9000}
    # 8p-001 is Rubicon (rubicon-001) with those changes: carte blanche 50, ua2's double marriages.
    assert melds("8p-001") == {
        **melds("rubicon-001"),
        **fives,
        "bezique": 50,
        "quintuple_bezique": 9000,
    }
    # §2.h rule 12: the six-pack last trick is open, 50 or 250.
    for profile in ("chinese-000", "chinese-001", "8p-000"):
        rules = load_profile(profile)
        assert rules.last_trick_points == 50
        assert rules.with_options({"last_trick_points": "250"}).last_trick_points == 250
        # §2.h rule 6: brisques and won tricks are not counted.
        assert not rules.brisque_points and not rules.card_points


def test_no_trump_options() -> None:
    # §2.j rule 3: the first marriage 40, a first double marriage 50 (001:L54) or 80 (004:L367).
    rules = load_profile("no-trump")
    assert dict(rules.trump_fixing) == {"royal_marriage": 40, "double_royal_marriage": 50}
    eighty = rules.with_options({"nt_double_first_marriage": "80"})
    assert dict(eighty.trump_fixing) == {"royal_marriage": 40, "double_royal_marriage": 80}
    # §2.j rule 5: the trump quint 250, or 300 (004:L369).
    assert melds("no-trump")["sequence"] == 250
    assert melds("no-trump", nt_trump_quint="300")["sequence"] == 300
    # §2.j rule 6: no two-trump-sevens meld; §2.j rule 7: ua2's other values.
    assert "two_trump_sevens" not in melds("no-trump")
    assert melds("no-trump")["double_marriage"] == 40


# --- no turn-up: trumps from the first marriage or sequence -----------------------------------------------------


def test_until_trumps_exist_the_suit_led_wins() -> None:
    # §2.e rule 4 (inferred): a trick goes to the highest card of the suit led; another suit never wins.
    state = table("rubicon-000")
    assert state.trump is None
    assert trick_winner([("S", C("9H")), ("N", C("AS"))], None) == 0
    assert trick_winner([("S", C("9H")), ("N", C("10H"))], None) == 1


@pytest.mark.parametrize("profile", ONE_HAND)
def test_first_marriage_fixes_trumps_and_scores_40(profile: str) -> None:
    # §2.e rule 4, §2.h rule 4: the first marriage declared, of any suit, fixes trumps and counts as royal, 40.
    state = won_trick(holding(table(profile), "S", "KH QH KC QC 7D"), "S")
    step = declare(state, "S", None, "KH QH", 40)
    assert step.state.trump == Suit.H
    assert [(e.kind, e.points) for e in step.events] == [("royal_marriage", 40)]
    # Later marriages of other suits are common marriages, 20.
    later = won_trick(step.state, "S")
    step = declare(later, "S", None, "KC QC", 20)
    assert [(e.kind, e.points) for e in step.events] == [("marriage", 20)]


def test_a_sequence_before_any_marriage_fixes_trumps_at_250() -> None:
    # §2.e rule 4 ([HO]): a sequence declared before any marriage fixes its suit as trumps and scores 250.
    state = won_trick(holding(table("rubicon-000"), "N", "AD 10D KD QD JD 7C"), "N")
    step = declare(state, "N", "sequence", "AD 10D KD QD JD", 250)
    assert step.state.trump == Suit.D
    # Before trumps a plain sequence cannot be scored: the first sequence is the trump sequence.
    assert violation(declare, state, "N", "plain_sequence", "AD 10D KD QD JD").code == "BZ304"


def test_beziques_and_fours_before_trumps() -> None:
    # §2.j rule 4 (001:L54, 004:L373): beziques and fours may be declared before the leading suit is fixed.
    state = won_trick(holding(table("no-trump"), "S", "QS JD AH AC AD AS 7C"), "S")
    assert declare(state, "S", "bezique", "QS JD", 40).state.trump is None
    assert declare(state, "S", "four_aces", "AH AC AD AS", 100).state.trump is None


def test_no_trump_quint_only_after_trumps() -> None:
    # §2.j rule 5: the trump quint only once the leading suit is fixed; a sequence does not fix it.
    rules = load_profile("no-trump")
    assert "sequence" not in dict(rules.trump_fixing)
    state = won_trick(holding(table("no-trump"), "S", "AH 10H KH QH JH 7C"), "S")
    assert violation(declare, state, "S", "sequence", "AH 10H KH QH JH").code == "BZ304"
    assert not [spec for spec, _ in legal_declarations(state, "S") if spec.kind == "sequence"]
    # After the first marriage (hearts) the quint is a trump quint: 250, or 300 under nt_trump_quint.
    for options, points in (({}, 250), ({"nt_trump_quint": "300"}, 300)):
        state = won_trick(holding(table("no-trump", **options), "S", "AH 10H KH QH JH 7C"), "S")
        fixed = won_trick(declare(state, "S", None, "KH QH", 40).state, "S")
        assert declare(fixed, "S", "sequence", "AH 10H KH QH JH", points).events[-1].points == points


@pytest.mark.parametrize(("value", "points"), [("50", 50), ("80", 80)])
def test_no_trump_double_first_marriage(value: str, points: int) -> None:
    # §2.j rule 3, §3.2 D7: a double marriage that fixes trumps scores 50 (001:L54) or 80 (004:L367).
    state = won_trick(holding(table("no-trump", nt_double_first_marriage=value), "N", "KS KS QS QS 7C"), "N")
    step = declare(state, "N", None, "KS KS QS QS", points)
    assert step.state.trump == Suit.S and step.events[-1].points == points
    # Once trumps exist a double trump marriage is worth ua2's 80 (§2.j rule 7).
    assert load_profile("no-trump").meld("double_royal_marriage").points == 80  # type: ignore[union-attr]


# --- carte blanche ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("profile", "points"), [("rubicon-000", 50), ("rubicon-001", 50), ("chinese-000", 250)])
def test_carte_blanche_and_its_repeats(profile: str, points: int) -> None:
    # §2.e rule 9 (000:L289, 001:L60); §2.h rule 9: 250 in the six-pack game.
    state = table(profile)
    size = state.profile.hand_size
    plain = " ".join((["7S", "8S", "9S", "10S", "AS", "7H", "8H", "9H", "10H", "AH", "7D", "8D"])[:size])
    state = holding(state, "S", plain)
    spec = state.profile.meld("carte_blanche")
    assert spec is not None
    assert legal_carte_blanche(state, "S")
    step = apply_declare(state, "S", "carte_blanche", [], points)
    assert [(e.kind, e.points) for e in step.events] == [("carte_blanche", points)]
    state = step.state
    # Each non-court card drawn (after the trick S wins) may be shown for another, before the player plays again ...
    state = draw(won_trick(state, "S"), "S 7C", "N 8C")
    assert legal_carte_blanche(state, "S")
    assert apply_carte_blanche(state, "S", spec, [C("7C")], points).events[-1].points == points
    # ... a card other than the one drawn is refused; the repeat lapses when he plays.
    assert violation(apply_carte_blanche, state, "S", spec, [C("9S")]).code == "BZ304"
    # ... and the first court card drawn ends the carte blanche.
    state = draw(won_trick(state, "S"), "S QC", "N 9C")
    assert not legal_carte_blanche(state, "S")
    assert violation(apply_carte_blanche, state, "S", spec, [C("QC")]).code == "BZ301"
    state = draw(won_trick(state, "S"), "S 9D", "N 9C")
    assert not legal_carte_blanche(state, "S")


def test_carte_blanche_needs_a_hand_without_court_cards_before_the_first_trick() -> None:
    # §2.e rule 9 ([FO]): declared before the first trick, with no king, queen or jack in the hand.
    state = holding(table("rubicon-000"), "S", "7S 8S 9S 10S AS 7H 8H 9H JH")
    assert violation(apply_declare, state, "S", "carte_blanche", []).code == "BZ304"
    state = holding(state, "S", "7S 8S 9S 10S AS 7H 8H 9H 10H")
    assert violation(apply_declare, state, "S", "carte_blanche", cards("7S 8S")).code == "BZ304"
    assert violation(apply_declare, state, "S", "carte_blanche", [], 250).code == "BZ305"
    after = won_trick(state, "S")
    assert violation(apply_declare, after, "S", "carte_blanche", []).code == "BZ301"


# --- beziques, fours --------------------------------------------------------------------------------------------


def test_six_pack_bezique_changes_with_trumps() -> None:
    # §2.h rule 10 (000:L413 with [WT]): with spades or diamonds trumps, bezique is QC + JH; otherwise QS + JD, and
    # QS + JD until trumps are fixed (inferred).
    rules = load_profile("chinese-000")
    for trump in (Suit.S, Suit.D):
        assert [m.kind for m in identify(rules, cards("QC JH"), trump)] == ["bezique"]
        assert identify(rules, cards("QS JD"), trump) == []
        assert [m.kind for m in identify(rules, cards("QC QC QC JH JH JH"), trump)] == ["triple_bezique"]
    for trump in (Suit.H, Suit.C, None):
        assert [m.kind for m in identify(rules, cards("QS JD"), trump)] == ["bezique"]
        assert identify(rules, cards("QC JH"), trump) == []
    # chinese-001 keeps QS + JD whatever the trumps (§2.h rule 10 is chinese-000 only).
    assert [m.kind for m in identify(load_profile("chinese-001"), cards("QS JD"), Suit.S)] == ["bezique"]


def test_multiple_beziques_build_on_each_other() -> None:
    # §2.e rule 8 (001:L62-L63): bezique 40, double 500, triple 1500, quadruple 4500, each adding new cards
    # (§2.a rule 14c: one card not yet scored in the class).
    state = won_trick(holding(table("rubicon-001"), "N", "QS QS QS QS JD JD JD JD AS"), "N")
    total = 0
    for kind, text, points in (
        ("bezique", "QS JD", 40),
        ("double_bezique", "QS QS JD JD", 500),
        ("triple_bezique", "QS QS QS JD JD JD", 1500),
        ("quadruple_bezique", "QS QS QS QS JD JD JD JD", 4500),
    ):
        step = declare(state, "N", kind, text, points)
        total += points
        state = won_trick(step.state, "N")
    assert state.seats["N"].score == total == 6540


def test_trump_fours_beside_any_fours() -> None:
    # §2.h rule 9: four trump aces 1000 (and also "any four aces", 100: one kind per declaration).
    state = won_trick(holding(table("chinese-000"), "S", "KC QC AC AC AC AC AH 7D"), "S")
    state = won_trick(declare(state, "S", None, "KC QC", 40).state, "S")
    assert state.trump == Suit.C
    assert declare(state, "S", None, "AC AC AC AC", 1000).events[-1].kind == "four_trump_aces"
    assert declare(state, "S", "four_aces", "AC AC AC AH", 100).events[-1].points == 100
    # §2.i rule 5: five trump jacks 800 in the eight-pack game.
    eight = won_trick(holding(table("8p-000"), "N", "KH QH JH JH JH JH JH 7D"), "N")
    eight = won_trick(declare(eight, "N", None, "KH QH", 40).state, "N")
    assert declare(eight, "N", None, "JH JH JH JH JH", 800).events[-1].kind == "five_trump_jacks"


# --- re-use: refill and the marriage swap -----------------------------------------------------------------------


def _four_queens_declared(profile: str) -> EngineState:
    state = won_trick(holding(table(profile), "S", "QS QH QD QC QC 7D 8D 9D"), "S")
    return won_trick(declare(state, "S", "four_queens", "QS QH QD QC", 60).state, "S")


@pytest.mark.parametrize("profile", ["rubicon-000", "rubicon-001", "chinese-000"])
def test_a_broken_four_is_refilled(profile: str) -> None:
    # §2.e rule 10 (000:L315, 001:L65): after a card of a declared four was played, a like card re-forms it.
    state = _four_queens_declared(profile)
    # Not before one of its cards was played: the same kind again is refused (§2.a rule 14).
    assert violation(declare, state, "S", "four_queens", "QH QD QC QC").code == "BZ307"
    state = won_trick(state, "S", lead="QS")
    assert declare(state, "S", "four_queens", "QH QD QC QC", 60).events[-1].points == 60


def test_classic_does_not_refill() -> None:
    # §3.3 R4: refilling is Rubicon's; the classic rule (text_with_remarriage) forbids it.
    assert load_profile("classic").default_options()["reuse"] == "text_with_remarriage"
    assert load_profile("rubicon-000").reuse == "refill_swap"


def _two_marriages(profile: str) -> tuple[EngineState, list[int]]:
    state = won_trick(holding(table(profile), "N", "KH QH KH QH KC QC 7D"), "N")
    state = won_trick(declare(state, "N", None, "KC QC", 40).state, "N")  # clubs trumps
    state = won_trick(declare(state, "N", "marriage", "KH QH", 20).state, "N")
    state = won_trick(declare(state, "N", "marriage", "KH QH", 20).state, "N")
    return state, [t.uid for t in state.seats["N"].table if t.card.suit == Suit.H]


def test_the_marriage_swap() -> None:
    # §2.e rule 11 (000:L319): two declared marriages of one suit, K1Q1 and K2Q2, re-paired as K1Q2 and K2Q1,
    # each after its own won trick (declarations_per_trick = 1).
    state, _ = _two_marriages("rubicon-000")
    step = declare(state, "N", "marriage", "KH QH", 20)
    assert step.events[-1].points == 20
    again = won_trick(step.state, "N")
    assert declare(again, "N", "marriage", "KH QH", 20).events[-1].points == 20
    # A third time re-pairs cards already married together: no new card (§2.a rule 14c).
    third = won_trick(declare(again, "N", "marriage", "KH QH", 20).state, "N")
    assert violation(declare, third, "N", "marriage", "KH QH").code in ("BZ306", "BZ307")


def test_no_marriage_swap_in_rubicon_001() -> None:
    # §3.3 R7: the swap is rubicon-000's only.
    state, _ = _two_marriages("rubicon-001")
    assert violation(declare, state, "N", "marriage", "KH QH").code == "BZ306"


def test_one_declaration_per_won_trick() -> None:
    # §2.e rule 6, §2.h rule 7, §2.i rule 3, §2.j rule 7: declarations_per_trick = 1.
    for profile in PROFILES:
        state = won_trick(holding(table(profile), "S", "KH QH QS JD 7C"), "S")
        step = declare(state, "S", "bezique", "QS JD", None)
        assert violation(declare, step.state, "S", None, "KH QH").code == "BZ308"


# --- end of the hand and of the game ---------------------------------------------------------------------------


def test_brisques_count_only_for_a_tie_or_the_rubicon() -> None:
    # §2.e rule 13 (000:L323): brisques count when the scores are equal, or to escape the rubicon (then for both).
    assert brisques_counted([900, 900], [100, 60], 1000)
    assert brisques_counted([950, 1200], [60, 100], 1000)
    assert not brisques_counted([900, 1200], [60, 100], 1000)
    assert not brisques_counted([1100, 1200], [60, 100], 1000)
    # In the engine: at the end of the hand the brisques are scored only then.
    # From trick 57 (no trumps fixed, no card points at the trick), N wins AS AH 10D 10C 7S 7S and S wins AD 8S;
    # the hand is then ended early.
    rules = load_profile("rubicon-000")
    hands = {"N": "AS AH 10C 8S 7C 8C 9C 7H", "S": "AD 7S 7S 10D 7D 8D 9D JD"}
    tricks = ["S AD", "N 8S", "S 7S", "N AS", "N AH", "S 7S", "N 10C", "S 10D"]
    for north, expected in ((980, {"N": 1020, "S": 1210}), (900, {"N": 900, "S": 1200})):
        state = position_of(table("rubicon-000"), 57, 0, "S", hands, {"N": north, "S": 1200})
        state = play(state, *tricks).state
        assert sorted(map(str, state.seats["N"].won)) == sorted(["AS", "AH", "10D", "10C", "7S", "7S"])
        assert finish_deal(state, force=True).state.scores() == expected
    assert rules.game_scoring is not None


@pytest.mark.parametrize(
    ("profile", "scores", "expected"),
    [
        # §2.e rule 15: 500 + the difference when the loser reached 1000 (001:L65; inferred for 000).
        ("rubicon-000", {"N": 1500, "S": 1200}, {"N": 800, "S": 0}),
        ("rubicon-001", {"N": 1500, "S": 1200}, {"N": 800, "S": 0}),
        # Rubiconed: the loser's score added, + 1300 (000:L327) or + 1000 + 320 (001:L65).
        ("rubicon-000", {"N": 1500, "S": 800}, {"N": 3600, "S": 0}),
        ("rubicon-001", {"N": 1500, "S": 800}, {"N": 3620, "S": 0}),
        # ... and 100 more when the loser did not reach 100 (000:L327, 001:L65).
        ("rubicon-000", {"N": 60, "S": 1500}, {"N": 0, "S": 2960}),
        # Both below 1000: the higher score wins and the rubicon applies (001:L65, [CM]).
        ("rubicon-001", {"N": 700, "S": 900}, {"N": 0, "S": 2920}),
        # §2.h rule 13: the six-pack winner adds 1000 (000:L465); a loser below 3000 is rubiconed.
        ("chinese-000", {"N": 4000, "S": 3500}, {"N": 5000, "S": 3500}),
        ("chinese-000", {"N": 4000, "S": 2500}, {"N": 7500, "S": 0}),
        # chinese-001: Rubicon scoring with 1000 for the game (001:L69).
        ("chinese-001", {"N": 4000, "S": 3500}, {"N": 1500, "S": 0}),
        # §2.i rule 6: 8p-000 loses below 5000.
        ("8p-000", {"N": 6000, "S": 4900}, {"N": 11900, "S": 0}),
        ("8p-001", {"N": 1600, "S": 1500}, {"N": 600, "S": 0}),
        # A tie: nobody wins.
        ("rubicon-000", {"N": 1200, "S": 1200}, {"N": 1200, "S": 1200}),
    ],
)
def test_game_scores(profile: str, scores: dict[str, int], expected: dict[str, int]) -> None:
    rules = load_profile(profile).game_scoring
    assert rules is not None
    assert game_score(rules, scores) == expected


def test_six_pack_cut_bonuses() -> None:
    # §2.h rule 3 (000:L395): 150 to the non-dealer for the exact guess, 250 to the dealer for lifting exactly 24.
    state = table("chinese-000")
    assert {(e.seat, e.kind, e.points) for e in apply_cut(state, 24, 24).events} == {
        ("S", "cut_guess", 150),
        ("N", "cut_lift", 250),
    }
    assert [(e.seat, e.points) for e in apply_cut(state, 23, 23).events] == [("S", 150)]
    assert [(e.seat, e.points) for e in apply_cut(state, 24, 20).events] == [("N", 250)]
    assert apply_cut(state, 25, 20).events == []
    # No such bonus in chinese-001 (§2.h rule 3: "No guessing bonus is mentioned").
    assert apply_cut(table("chinese-001"), 24, 24).events == []


# --- records ----------------------------------------------------------------------------------------------------

RECORD = """game "cut, carte blanche, trumps and the game score"
profile: chinese-000

deal 1
dealer: N
cut: 24
guess: 24
{hands}

  S declares carte_blanche = 250
trick 1: S 7S, N 8S -> N
  draws N 9C, S 9D
"""


def test_statements_of_the_family_are_read_and_checked() -> None:
    # docs/notation.md: cut:/guess: headers, a carte blanche before trick 1, trumps by a declaration, game score.
    hand_s = "7S 8S 9S 10S AS 7H 8H 9H 10H AH 7D 8D"
    hand_n = "8S KS QS JS KH QH KD QD JD KC QC JC"
    text = RECORD.format(hands=f"hand N: {hand_n}\nhand S: {hand_s}") + "  score N 250, S 400\n"
    result = check_text(text)
    # Only the incomplete hand is reported: the bonuses and the carte blanche are scored and checked.
    assert [d.code for d in result.diagnostics] == ["BZ506"]
    deal = result.games[0].deals[0]
    assert [(e.seat, e.kind, e.points) for e in deal.scoring] == [
        ("S", "cut_guess", 150),
        ("N", "cut_lift", 250),
        ("S", "carte_blanche", 250),
    ]
    wrong = check_text(text.replace("score N 250, S 400", "score N 250, S 150"))
    assert "BZ501" in [d.code for d in wrong.diagnostics]


def test_cli_lists_the_profiles(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    listed = capsys.readouterr().out
    # The rubicon of each one-hand game: §2.e rules 14-15 (1300; 1000 + 320), §2.h rule 13 (3000), §2.i rule 6 (5000).
    rubicons = {
        "rubicon-000": "rubicon below 1000: both scores + 1300",
        "rubicon-001": "rubicon below 1000: both scores + 1320",
        "chinese-000": "rubicon below 3000: both scores + 1000",
        "chinese-001": "rubicon below 1000: both scores + 1320",
        "8p-000": "rubicon below 5000: both scores + 1000",
        "8p-001": "rubicon below 1000: both scores + 1320",
    }
    for profile in PROFILES:
        assert profile in listed
        assert main(["rules", profile]) == 0
        shown = capsys.readouterr().out
        assert "trumps: none at the deal" in shown
        assert ("carte blanche" in shown) == (profile != "no-trump")
        assert rubicons.get(profile, "game (one hand)") in shown or profile == "no-trump"


# --- seeded random deals ----------------------------------------------------------------------------------------

DEALS = 200
SAMPLE = 40


def _check_deal(profile: str, seed: int, round_trip: bool) -> None:
    played = soak_deal(profile, {}, seed, round_trip)
    rules = load_profile(profile)
    # The last trick: once, the final trick of the hand (§2.e rule 8, §2.h rule 12, §2.i rule 3).
    last = [n for n, events in enumerate(played.trick_events, start=1) if any(e.kind == "last_trick" for e in events)]
    assert last == [rules.total_tricks]
    # One declaration per won trick, only in phase 1; carte blanche repeats only with a non-court card.
    kinds = {m.kind for m in rules.melds if not m.whole_hand}
    for n, events in enumerate(played.trick_events, start=1):
        scored = [e for e in events if e.kind in kinds]
        assert len(scored) <= 1
        assert n <= rules.phase1_tricks or not scored
        for e in events:
            if e.kind == "carte_blanche":
                assert len(e.cards) == 1 and e.cards[0].rank.symbol not in "KQJ"


@pytest.mark.parametrize("profile", PROFILES)
def test_random_deals(profile: str) -> None:
    for seed in range(DEALS):
        _check_deal(profile, seed, round_trip=seed % SAMPLE == 0)


def test_generated_records_are_canonical() -> None:
    from replayer.fmt import format_text

    for profile in PROFILES:
        text = generate_game(profile, 7)
        assert format_text(text) == text
        assert check_text(text, f"{profile}.bzq").valid


def test_constructed_record_statements_are_checked() -> None:
    # docs/notation.md: the game score (RULES.md §2.e rule 15), the carte blanche and its repeats (§2.e rule 9).
    from conftest import GAMES

    text = (GAMES / "constructed-rubicon-000.bzq").read_text(encoding="utf-8")
    result = check_text(text)
    assert result.valid
    deal = result.games[0].deals[0]
    assert deal.game_scores == game_score(load_profile("rubicon-000").game_scoring, deal.scores)  # type: ignore[arg-type]
    assert result.games[0].winner == max(deal.game_scores, key=lambda s: deal.game_scores[s])
    # A repeat written without its card shows the card just drawn: still valid.
    assert check_text(text.replace("S declares carte_blanche 8C = 50", "S declares carte_blanche = 50")).valid
    for old, new, code in (
        ("game score N 3060, S 0", "game score N 3000, S 0", "BZ504"),
        ("  S declares carte_blanche = 50\n", "  S declares carte_blanche = 250\n", "BZ305"),
        ("S declares carte_blanche 8C = 50", "S declares carte_blanche 9C = 50", "BZ304"),
        ("winner N", "winner S", "BZ505"),
    ):
        assert old in text
        broken = check_text(text.replace(old, new, 1), "case.bzq")
        line = text[: text.index(old)].count("\n") + 1
        found = [(d.code, d.span.line if d.span else None) for d in broken.diagnostics]
        assert (code, line) in found, found


def test_a_trump_header_is_refused_without_a_turn_up() -> None:
    # §2.e rule 4, §2.j rule 2: no trumps at the deal in these profiles; the record may not name them.
    from conftest import GAMES

    text = (GAMES / "constructed-rubicon-000.bzq").read_text(encoding="utf-8")
    broken = check_text(text.replace("dealer: N\n", "dealer: N\ntrump: H\n", 1), "case.bzq")
    line = text[: text.index("dealer: N\n")].count("\n") + 2
    assert ("BZ107", line) in [(d.code, d.span.line if d.span else None) for d in broken.diagnostics]


def test_a_fragment_states_the_trumps_fixed_before_it() -> None:
    # §2.e rule 4: a fragment after the first marriage states its trumps (docs/notation.md, "Book fragments"); then
    # a marriage of another suit is a common one, 20, and fixes nothing.
    hands = {"S": "KS QS AS 9D 8D 7D 9C 8C 7C", "N": "7S 8S 9S 7H 8H 9H 7D 8D 9D"}
    state = position_of(table("rubicon-000"), 5, None, "S", hands, trump=Suit.H)
    assert state.trump == Suit.H
    state = play(state, "S AS", "N 7S").state
    step = declare(state, "S", None, "KS QS", 20)
    assert [(e.kind, e.points) for e in step.events] == [("marriage", 20)] and step.state.trump == Suit.H
    # Without the header the same marriage fixes trumps, as the first one does.
    first = play(position_of(table("rubicon-000"), 5, None, "S", hands), "S AS", "N 7S").state
    assert declare(first, "S", None, "KS QS", 40).state.trump == Suit.S


def test_rubicon_001_trick_scoring_option() -> None:
    # §2.e rule 13: open for rubicon-001; card_points is ua2's A 11, 10 10, K 4, Q 3, J 2 per won trick (001:L7).
    state = table("rubicon-001", trick_scoring="card_points")
    assert state.profile.brisque_points == 0
    state = holding(state, "S", "AS 10S 7C", others="KS 8D 9D")
    step = apply_play(state, "S", C("AS"))
    step = apply_play(step.state, "N", C("KS"))
    assert [(e.seat, e.kind, e.points) for e in step.events] == [("S", "card_points", 15)]
    # brisques_conditional (the default) scores nothing per trick.
    plain = holding(table("rubicon-001"), "S", "AS 10S 7C", others="KS 8D 9D")
    step = apply_play(apply_play(plain, "S", C("AS")).state, "N", C("KS"))
    assert step.events == []


@pytest.mark.parametrize(
    ("profile", "options"),
    [
        ("rubicon-001", {"trick_scoring": "card_points", "draw_order": "winner_first"}),
        ("rubicon-001", {"declare_after_tricks": "4", "phase1_play": "free"}),
        ("no-trump", {"nt_double_first_marriage": "80", "nt_trump_quint": "300"}),
        ("rubicon-000", {"declarations_per_trick": "unlimited_disjoint"}),
    ],
)
def test_random_deals_under_options(profile: str, options: dict[str, str]) -> None:
    for seed in range(12):
        assert soak_deal(profile, options, 500 + seed, round_trip=seed % 4 == 0).state.finished


def test_lessons_show_the_game_score_and_the_trumps_fixed() -> None:
    # RULES.md §2.e rule 15: the game score decides a one-hand game; §2.e rule 4: trumps from the first marriage.
    from conftest import GAMES

    from replayer.lesson import build_lesson

    result = check_text((GAMES / "constructed-rubicon-000.bzq").read_text(encoding="utf-8"))
    game = result.games[0]
    lesson = build_lesson(game, "en")
    scored = game.deals[0].game_scores
    assert f"North {scored['N']}, South {scored['S']}" in lesson.result
    fixed = game.deals[0].trump_fixed
    assert fixed is not None and game.deals[0].trump is None
    assert fixed[1].glyph in "".join(str(step.trump) for deal in lesson.deals for step in deal.steps)


@pytest.mark.parametrize(
    ("profile", "old", "new", "message"),
    [
        ("rubicon-000", "fixed_by: {royal_marriage: 40", "fixed_by: {royal_wedding: 40", "no such meld"),
        ("rubicon-000", "pattern: {hand: no_court}", "pattern: {hand: no_aces}", "expected no_court"),
        ("no-trump", '"300": {meld_points: {sequence: 300}}', '"300": {meld_points: {quint: 300}}', "no such meld"),
        ("rubicon-000", "  when: tie_or_rubicon", "  when: sometimes", "expected one of always, tie_or_rubicon"),
        ("rubicon-000", "  rubicon_bonus: 1300", "  rubicon_bonus: lots", "expected int"),
        ("chinese-000", "when_trump: {S: [QC, JH]", "when_trump: {X: [QC, JH]", "key 'melds[14].pattern.cards'"),
        ("classic", "turnup: true", "turnup: true\ntrumps: {fixed_by: {royal_marriage: 40}}", "takes trumps from it"),
    ],
)
def test_bad_profiles_name_the_key(tmp_path: Path, profile: str, old: str, new: str, message: str) -> None:
    # Profile errors are RuleProfileError naming the file and key, never a traceback (the new keys of this family).
    path = edited_profile(tmp_path, profile, old, new)
    load_profile.cache_clear()
    with pytest.raises(RuleProfileError) as info:
        load_profile(str(path))
    assert message in str(info.value)
