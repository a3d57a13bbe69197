"""The better player (replayer/player.py): its rules of thumb on positions built through the core."""

from __future__ import annotations

from replayer.cards import Card
from replayer.player import heuristic_card, keeping_values
from replayer.profiles import load_profile
from replayer.rules import DealState, compile_rules


def _cards(text: str) -> list[int]:
    return [Card.parse(c).index for c in text.split()]


def _deal(turnup: str) -> DealState:
    """Classic, clubs trumps, South holding the 7C beside an ace and a ten, North to lead."""
    rules = compile_rules(load_profile("classic"), {})
    north = _cards("AC 9S 8S KD 9H 8H JD 9C")
    south = _cards("7C AS 10S JH 9D 8D QH 10H")
    return DealState.start(rules, 1, -1, Card.parse(turnup).index, [north, south])


def test_the_seven_is_kept_only_while_it_can_be_exchanged() -> None:
    seven = Card.parse("7C").index
    live = keeping_values(_deal("10C"), 1)
    # The turn-up is itself a seven: the exchange cannot happen, the 7C is a dead seven.
    dead = keeping_values(_deal("7C"), 1)
    assert live[seven] >= 50 > dead[seven]
    assert dead[seven] < min(dead[c] for c in _cards("AS 10S 10H"))


def test_a_dead_seven_goes_on_a_lost_trick_before_an_ace_or_ten() -> None:
    for turnup, thrown_seven in (("7C", True), ("10C", False)):
        deal = _deal(turnup)
        deal.play(0, Card.parse("AC").index)  # (a trick South cannot win: his only trump is the seven)
        assert not deal.breaches
        legal = sorted(deal.legal_plays(1))
        card = heuristic_card(deal, 1, legal)
        assert (card == Card.parse("7C").index) is thrown_seven
        assert card not in _cards("AS 10S 10H")
