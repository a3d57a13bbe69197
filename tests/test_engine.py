"""The classic rules engine, rule by rule. Expected values cite ../shared/RULES.md §2.a (classic profile)."""

from __future__ import annotations

import pytest
from conftest import C, cards, deal, draw, phase_two, violation

from replayer.engine import (
    EngineState,
    apply_declare,
    apply_draw,
    apply_exchange,
    apply_play,
    apply_show,
    legal_declarations,
    legal_plays,
    trick_winner,
)


def play(state: EngineState, *plays: str) -> EngineState:
    """Play cards written 'S 9H', 'N KH' in order; strict (raises on a violation)."""
    for text in plays:
        seat, card = text.split()
        state = apply_play(state, seat, C(card)).state
    return state


# §1.5 rules 1-2: highest trump wins, else the highest card of the suit led; of identical cards the first wins.
@pytest.mark.parametrize(
    ("first", "second", "trump", "winner"),
    [
        ("9H", "KH", "C", 1),
        ("KH", "10H", "C", 1),  # the ten ranks above the king (§1.1)
        ("10H", "AH", "C", 1),
        ("9H", "7C", "C", 1),  # any trump beats a plain card
        ("9H", "AS", "C", 0),  # a card of another plain suit never wins
        ("QS", "QS", "C", 0),  # identical cards: the first played wins (000:L125, trick 10)
        ("10C", "AC", "C", 1),
        ("AC", "7H", "C", 0),
        ("7C", "8C", "C", 1),
    ],
)
def test_trick_winner(first: str, second: str, trump: str, winner: int) -> None:
    from replayer.cards import parse_suit

    assert trick_winner([("S", C(first)), ("N", C(second))], parse_suit(trump)) == winner


NORTH = "7C QC JC QD QH KH 9H AS"
SOUTH = "QS 9C 8C 7C 7H 9D 10D JS"


def test_deal_sets_trump_and_leader() -> None:
    state = deal(NORTH, SOUTH)
    assert state.trump is not None and state.trump.value == "C"
    assert state.leader == "S"  # §2.a rule 6: the non-dealer leads
    assert state.stock_count == 48  # §2.a rule 3: 47 face down + the turn-up
    assert state.phase == 1


def test_phase1_play_is_free() -> None:
    state = deal(NORTH, SOUTH)
    state = play(state, "S 9D")
    # §2.a rule 7: no obligation to follow suit, trump or win while the stock lasts.
    assert legal_plays(state, "N") == set(cards(NORTH))
    state = play(state, "N AS")
    assert state.leader == "S" and state.to_draw == ["S", "N"]


def test_card_not_held() -> None:
    state = deal(NORTH, SOUTH)
    v = violation(apply_play, state, "S", C("AH"))
    assert v.code == "BZ201" and "does not hold" in v.message


def test_wrong_player_leads() -> None:
    v = violation(apply_play, deal(NORTH, SOUTH), "N", C("QC"))
    assert v.code == "BZ202" and "S leads to trick 1" in v.message


def test_draws_winner_first() -> None:
    # §2.a rule 8: the winner draws first, then the loser.
    state = play(deal(NORTH, SOUTH), "S 9D", "N AS")
    v = violation(apply_draw, state, "N", C("8S"))
    assert v.code == "BZ401"
    state = draw(state, "S 8S", "N 8D")
    assert state.stock_count == 46 and not state.to_draw


def test_conservation() -> None:
    # Two packs hold each card twice: South was dealt QS, draws the second, and a third is impossible.
    state = play(deal(NORTH, SOUTH), "S 9D", "N AS")
    state = draw(state, "S QS", "N 8D")
    state = play(state, "S 8C", "N 9H")
    v = violation(apply_draw, state, "S", C("QS"))
    assert v.code == "BZ404" and "3 times" in v.message


def phase2(north: str, south: str, leader: str = "N") -> EngineState:
    """A state after the stock is exhausted (trick 24 played), with these hands: a fragment's position."""
    return phase_two(deal(north, south), leader)


# §2.a rule 18: in the last eight tricks follow suit and win if able; trump when void.
def test_phase2_must_win() -> None:
    state = play(phase2("JH 8S 9S 7S 8D 9D 7D 8C", "QH 8H AC KS 10D KD 9C 7H"), "N JH")
    assert legal_plays(state, "S") == {C("QH")}
    v = violation(apply_play, state, "S", C("8H"))
    assert v.code == "BZ204" and v.message == "S plays 8H but must win the trick: holds QH which beats JH"


def test_phase2_must_follow() -> None:
    state = play(phase2("AH 8S 9S 7S 8D 9D 7D 8C", "QH 8H AC KS 10D KD 9C 7S"), "N AH")
    assert legal_plays(state, "S") == {C("QH"), C("8H")}
    v = violation(apply_play, state, "S", C("AC"))
    assert v.code == "BZ203" and "must follow suit: holds QH 8H" in v.message


def test_phase2_must_trump_when_void() -> None:
    state = play(phase2("AH 8S 9S 7S 8D 9D 7D 8C", "AS 8S KS KS 10D KD 9C 7S"), "N AH")
    assert legal_plays(state, "S") == {C("9C")}
    v = violation(apply_play, state, "S", C("AS"))
    assert v.code == "BZ205" and "must trump: void in hearts, holds 9C" in v.message


def test_phase2_must_overtrump_trump_lead() -> None:
    state = play(phase2("9C 8S 9S 7S 8D 9D 7D 8H", "AS 7C KC KS 10D KD 9H 7S"), "N 9C")
    assert legal_plays(state, "S") == {C("KC")}


def test_phase2_void_without_trump_plays_anything() -> None:
    state = play(phase2("AH 8S 9S 7S 8D 9D 7D 8C", "AS 8S KS KS 10D KD 9D 7S"), "N AH")
    assert legal_plays(state, "S") == set(cards("AS 8S KS KS 10D KD 9D 7S"))


# §2.a rule 15: the seven of trumps.
def test_turnup_seven_scores_for_dealer() -> None:
    state = deal("AC QC JC QD QH KH 9H AS", "QS 9C 8C 10C 7H 9D 10D JS", turnup="7C")
    assert state.scores() == {"N": 10, "S": 0}


def test_seven_exchange_after_winning() -> None:
    state = play(deal(NORTH, SOUTH), "S 9C", "N QC")
    step = apply_exchange(state, "N", C("7C"), 10)
    assert step.state.scores()["N"] == 10
    assert step.state.turnup == C("7C")
    assert step.state.seats["N"].hand[C("10C")] == 1
    assert [e.kind for e in step.events] == ["seven_exchange"]


def test_seven_exchange_needs_won_trick() -> None:
    state = play(deal(NORTH, SOUTH), "S 9C", "N 9H")  # South wins
    v = violation(apply_exchange, state, "N", C("7C"))
    assert v.code == "BZ309"


def test_seven_played_in_phase1_scores_even_when_lost() -> None:
    # 000:L113: South leads the trump seven at trick 7 and scores 10 though North wins.
    state = play(deal(NORTH, SOUTH), "S 7C", "N QC")
    assert state.scores() == {"N": 0, "S": 10}


def test_seven_played_in_phase2_scores_nothing() -> None:
    state = play(phase2("AH 8S 9S 7S 8D 9D 7D 8C", "7C 8H AC KS 10D KD 9C 7H", leader="S"), "S 7C", "N 8C")
    assert state.scores() == {"N": 0, "S": 0}


def won(north: str, south: str, s_card: str, n_card: str, **kw: object) -> EngineState:
    """A deal dealt by South in which North leads ``n_card`` to trick 1 and South plays ``s_card``."""
    return play(deal(north, south, dealer="S", **kw), f"N {n_card}", f"S {s_card}")  # type: ignore[arg-type]


# §2.a rules 10-14: declarations.
def test_declaration_by_trick_loser() -> None:
    state = won("QC KC JC QD QH KH 9H AS", SOUTH, "7C", "9H")  # South trumps and wins
    v = violation(apply_declare, state, "N", "royal_marriage", cards("KC QC"), 40)
    assert v.code == "BZ301" and "did not win trick 1" in v.message


def test_wrong_points() -> None:
    state = won("QC QS QD QH KH 9H AS 8S", SOUTH, "9D", "AS")
    v = violation(apply_declare, state, "N", "four_queens", cards("QC QS QD QH"), 80)
    assert v.code == "BZ305" and v.message == "four queens claimed for 80, the classic profile scores 60"


def test_meld_card_not_held() -> None:
    state = won("QC QS QD 9D KH 9H AS 8S", SOUTH, "9D", "AS")
    v = violation(apply_declare, state, "N", "four_queens", cards("QC QS QD QH"), 60)
    assert v.code == "BZ303" and "QH" in v.message


def test_not_a_meld() -> None:
    state = won("QC KD JC QD QH KH 9H AS", SOUTH, "9D", "AS")
    v = violation(apply_declare, state, "N", "marriage", cards("KD QH"))
    assert v.code == "BZ304"


def test_one_declaration_per_trick() -> None:
    state = won("QC KC QD KD QH KH 9H AS", SOUTH, "9D", "AS")
    state = apply_declare(state, "N", "royal_marriage", cards("KC QC"), 40).state
    v = violation(apply_declare, state, "N", "marriage", cards("KD QD"), 20)
    assert v.code == "BZ308"


def test_unlimited_disjoint_option() -> None:
    state = won("QC KC QD KD QH KH 9H AS", SOUTH, "9D", "AS", options={"declarations_per_trick": "unlimited_disjoint"})
    state = apply_declare(state, "N", "royal_marriage", cards("KC QC"), 40).state
    state = apply_declare(state, "N", "marriage", cards("KD QD"), 20).state
    assert state.scores()["N"] == 60


def next_trick(state: EngineState, n_draw: str, s_draw: str, lead: str, follow: str, leader: str = "N") -> EngineState:
    """Draw after the last trick (winner first), then play the next trick."""
    first, second = ("N", "S") if state.winner == "N" else ("S", "N")
    draws = {"N": n_draw, "S": s_draw}
    state = draw(state, f"{first} {draws[first]}", f"{second} {draws[second]}")
    other = "S" if leader == "N" else "N"
    return play(state, f"{leader} {lead}", f"{other} {follow}")


def test_royal_marriage_then_sequence_scores_full() -> None:
    # §2.a rule 14c: 40 at trick 2, then the sequence for the full 250 at trick 4 (000:L87, L99).
    state = won("QC KC JC AC 9H 9D AS 8S", SOUTH, "9D", "AS")
    state = apply_declare(state, "N", "royal_marriage", cards("KC QC"), 40).state
    state = next_trick(state, "10C", "8D", "9H", "7H")
    state = apply_declare(state, "N", "sequence", cards("AC 10C KC QC JC"), 250).state
    assert state.scores()["N"] == 290


def test_royal_marriage_out_of_a_sequence_is_refused() -> None:
    state = won("QC KC JC AC 10C 9D AS 8S", SOUTH, "9D", "AS")
    state = apply_declare(state, "N", "sequence", cards("AC 10C KC QC JC"), 250).state
    state = next_trick(state, "9H", "8D", "9D", "7H")
    v = violation(apply_declare, state, "N", "royal_marriage", cards("KC QC"), 40)
    assert v.code == "BZ306" and "no new card" in v.message


def test_bezique_then_double_bezique_scores_500() -> None:
    # §2.a rule 14c and the worked deal: bezique at trick 6 (40), double bezique at trick 17 (500).
    state = won("QS JD QS JD 9H 9D AS 8S", "KS 9C 8C 7C 7H 8D 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    state = next_trick(state, "9S", "7D", "9H", "7H")
    state = apply_declare(state, "N", "double_bezique", cards("QS QS JD JD"), 500).state
    assert state.scores()["N"] == 540


def test_second_bezique_then_double_is_refused() -> None:
    state = won("QS JD QS JD 9H 9D AS 8S", "KS 9C 8C 7C 7H 8D 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    state = next_trick(state, "9S", "7D", "9H", "7H")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state  # the other pair: new cards
    state = next_trick(state, "AH", "7S", "9S", "7S")
    v = violation(apply_declare, state, "N", "double_bezique", cards("QS QS JD JD"), 500)
    assert v.code == "BZ306"


def test_four_of_a_kind_refill_is_refused() -> None:
    # §2.a rule 14d: no new king added to the three remaining for four kings again ([FO], 000:L303, L315).
    state = won("KS KH KD KC 9H 9D AS 8S", "QS 9C 8C 7C 7H 8D 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "four_kings", cards("KS KH KD KC"), 80).state
    state = next_trick(state, "KS", "7D", "KH", "7H")  # North plays a declared king, drew a new one
    state = next_trick(state, "9S", "7S", "9H", "7D")
    v = violation(apply_declare, state, "N", "four_kings", cards("KS KS KD KC"), 80)
    assert v.code == "BZ307" and "already scored in a four kings" in v.message
    refill = deal(
        "KS KH KD KC 9H 9D AS 8S", "QS 9C 8C 7C 7H 8D 10D JS", dealer="S", options={"reuse": "new_card_refill"}
    )
    refill = play(refill, "N AS", "S 8D")
    refill = apply_declare(refill, "N", "four_kings", cards("KS KH KD KC"), 80).state
    refill = next_trick(refill, "KS", "7D", "KH", "7H")
    refill = next_trick(refill, "9S", "7S", "9H", "7D")
    assert apply_declare(refill, "N", "four_kings", cards("KS KS KD KC"), 80).state.scores()["N"] == 160


def test_remarriage_after_first_partner_played() -> None:
    # §2.a rule 14d exception (worked deal trick 22): KH married again to a new QH once the first QH was played.
    state = won("KH QH 9C 8C 9D 9S AS 8S", "QS 7D 8D 7C 7H 8H 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "marriage", cards("KH QH"), 20).state
    state = next_trick(state, "QH", "7S", "QH", "7H")
    state = next_trick(state, "9H", "9D", "9S", "8H")
    step = apply_declare(state, "N", "marriage", cards("KH QH"), 20)
    assert step.state.scores()["N"] == 40
    strict = deal("KH QH 9C 8C 9D 9S AS 8S", "QS 7D 8D 7C 7H 8H 10D JS", dealer="S", options={"reuse": "strict_text"})
    strict = play(strict, "N AS", "S 8D")
    strict = apply_declare(strict, "N", "marriage", cards("KH QH"), 20).state
    strict = next_trick(strict, "QH", "7S", "QH", "7H")
    strict = next_trick(strict, "9H", "9D", "9S", "8H")
    v = violation(apply_declare, strict, "N", "marriage", cards("KH QH"), 20)
    assert v.code == "BZ307"


def test_remarriage_while_first_partner_on_table_is_refused() -> None:
    state = won("KH QH QH 8C 9D 9S AS 8S", "QS 7D 8D 7C 7H 8H 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "marriage", cards("KH QH"), 20).state
    state = next_trick(state, "9H", "7S", "9S", "7H")
    v = violation(apply_declare, state, "N", "marriage", cards("KH QH"), 20)
    # A fresh QH is held: the breach is the king married again while his queen is on the table, not "no new card".
    assert v.code == "BZ307" and "KH" in v.message


def test_queen_of_four_queens_in_a_marriage() -> None:
    # §2.a rule 14b (worked deal trick 12): a queen of a declared four queens marries a new king.
    state = won("QC QS QD QH 9D 9S AS 8S", "KS 7D 8D 7C 7H 8H 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "four_queens", cards("QC QS QD QH"), 60).state
    state = next_trick(state, "KD", "7S", "9S", "7H")
    assert apply_declare(state, "N", "marriage", cards("KD QD"), 20).state.scores()["N"] == 80


def test_shown_combination_scored_after_a_later_trick() -> None:
    # §2.a rule 11a-b (004:L185): KS QS JD laid out; bezique scored now, the spade marriage after the next trick.
    state = won("KS QS JD 9C 9D 9S AS 8S", "QH 7D 8D 7C 7H 8H 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    state = apply_show(state, "N", "marriage", cards("KS QS")).state
    assert state.scores()["N"] == 40
    assert len(state.seats["N"].table) == 3
    state = next_trick(state, "9H", "7S", "9S", "7H")
    state = apply_declare(state, "N", "marriage", cards("KS QS"), 20).state
    assert state.scores()["N"] == 60


def test_shown_combination_lapses_when_a_card_is_played() -> None:
    state = won("KS QS JD 9C 9D 9S AS 8S", "QH 7D 8D 7C 7H 8H 10D JS", "8D", "AS")
    state = apply_declare(state, "N", "bezique", cards("QS JD"), 40).state
    state = apply_show(state, "N", "marriage", cards("KS QS")).state
    state = next_trick(state, "9H", "7S", "QS", "7H")
    assert state.seats["N"].pending == []
    v = violation(apply_declare, state, "N", "marriage", cards("KS QS"), 20)
    assert v.code == "BZ303"


def test_no_declaration_in_phase2() -> None:
    state = play(phase2("KH QH 8S 9S 8D 9D 7D 8C", "AS 8H AC KS 10D KD 9C 7H"), "N KH", "S 8H")
    v = violation(apply_declare, state, "N", "marriage", cards("KH QH"), 20)
    assert v.code == "BZ302"


def test_legal_declarations_lists_melds() -> None:
    state = won("QC KC JC QD KD QH KH AS", SOUTH, "9D", "AS")
    kinds = sorted(spec.kind for spec, _ in legal_declarations(state, "N"))
    assert kinds == ["marriage", "marriage", "royal_marriage"]
