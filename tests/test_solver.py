"""The endgame solver against a brute-force minimax written here (memoised, no pruning, no merging of cards).

The endgames are the first trick of the last tricks of the random player's seeded games (replayer.generate), for
every two-seat profile with a turn-up, with the last-trick bonus at the final trick and without it. The brute force
plays on plain tuples with the core's own rules (``obligation``, ``trick_winner``, the card values of ``Rules``):
the scoring of a trick is written here again, on purpose, so that the solver's position (replayer/rules/endgame.py)
is checked against an independent reading; the best lines are then replayed on the core's ``DealState`` itself, whose
final scores must match the values. Sixty-six, which declares marriages on lead in the last tricks and ends the hand
at 66, is brute-forced on copies of the core's ``DealState`` (its endgames are six tricks at most).
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from functools import cache

import pytest

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.rules import DealState, obligation, trick_winner
from replayer.rules.compiled import FREE
from replayer.rules.endgame import Endgame, NotCovered
from replayer.solver import OverBudget, Solver

# Every two-seat profile with a turn-up, with the last-trick bonus at the final trick ("final") and without it.
CONFIGS = [
    ("classic", {"last_trick": "final"}),
    ("classic", {}),
    ("ruwiki", {}),
    ("ruwiki", {"last_trick": "24"}),
    ("ua2", {}),
    ("ru19", {}),
    ("infuzorka", {"last_trick_bonus": "10"}),
    ("infuzorka", {}),
    ("sixty-six", {}),
    ("sixty-six", {"last_trick_bonus": "0"}),
]
ENDGAMES = int(os.environ.get("BEZIQUE_SOLVER_ENDGAMES", "3"))
"""Endgames per configuration: a few in the everyday run (the brute force takes about 0.3 s an endgame); the
acceptance run sets ``BEZIQUE_SOLVER_ENDGAMES=500`` (its figures are in bench/RESULTS.md)."""


def endgames(profile: str, options: dict[str, str], count: int, later: int = 0) -> Iterator[DealState]:
    """The core's state at the first trick of the last tricks (``later`` tricks on, played at random) of seeded
    games of ``profile``, ``count`` of them."""
    seed = 0
    found = 0
    while found < count:
        seed += 1
        text = generate_game(profile, seed, options=options)
        result = check_text(text, f"seed-{seed}.bzq", states=True)
        assert result.valid, [d.message for d in result.diagnostics]
        tricks = result.games[0].deals[0].tricks
        first = next((t for t in tricks if t.phase == 2), None)
        if first is None or first.state is None:
            continue  # sixty-six: a hand often ends at 66 before the stock is gone
        deal = first.state
        rng = random.Random(seed)
        for _ in range(later * deal.rules.players):
            if deal.finished:
                break
            seat = deal.rules.next_seat[deal.plays[-1][0]] if deal.plays else deal.leader
            deal.play(seat, rng.choice(sorted(deal.legal_plays(seat))))
        if deal.finished or deal.out >= 0:
            continue
        found += 1
        yield deal


def brute_tuples(deal: DealState) -> int:
    """The first seat's points minus the second's from ``deal`` to the end of the hand with best play, by a
    memoised minimax without pruning over every distinct card (no hand target, no declaration)."""
    rules = deal.rules
    trump = deal.trump
    values = rules.values(trump) if (rules.points_at_trick or rules.points_at_end) else [0] * 33
    worth = [values[c] + (rules.brisque_points if rules.brisque[c] else 0) for c in range(33)]
    rule = rules.phase2_play
    total = rules.total_tricks

    @cache
    def search(hands: tuple[tuple[int, ...], ...], leader: int, trick: tuple[int, ...], done: int) -> int:
        if done == total:
            return 0
        seat = (leader + len(trick)) % 2
        held = hands[seat]
        cards = [c for c in range(33) if held[c]]
        if trick and rule != FREE:
            allowed, _ = obligation(rule, held, list(trick), trump, False)
            if allowed is not None:
                cards = sorted(allowed)
        results = []
        for card in cards:
            hand = list(held)
            hand[card] -= 1
            new = (tuple(hand), hands[1]) if seat == 0 else (hands[0], tuple(hand))
            played = (*trick, card)
            if len(played) < 2:
                results.append(search(new, leader, played, done))
                continue
            winner = (leader + trick_winner(played, trump)) % 2
            points = sum(worth[c] for c in played)
            if done + 1 == rules.last_trick:
                points += rules.last_trick_points
            sign = 1 if winner == 0 else -1
            results.append(sign * points + search(new, winner, (), done + 1))
        return max(results) if seat == 0 else min(results)

    hands = tuple(tuple(h) for h in deal.held)
    return search(hands, deal.leader, tuple(c for _, c in deal.plays), deal.trick_no)


def brute_deal(deal: DealState) -> int:
    """The same on copies of the core's ``DealState`` itself (its declarations, its hand target): the first seat's final
    score minus the second's, with best play; memoised on the state, no pruning."""
    memo: dict[object, int] = {}

    def search(state: DealState) -> int:
        if state.finished:
            end = state.copy()
            end.finish()
            return end.score[0] - end.score[1]
        key = (
            tuple(map(tuple, state.held)),
            state.leader,
            tuple(state.plays),
            state.window_open,
            state.winner,
            tuple(state.must_lead),
            tuple(state.score),
            tuple(len(t) for t in state.tables),
        )
        if key in memo:
            return memo[key]
        seat = state.rules.next_seat[state.plays[-1][0]] if state.plays else state.leader
        results = []
        if not state.plays and state.window_open and state.winner == seat and not state.declared:
            for spec, cards in state.legal_declarations(seat):
                child = state.copy()
                child.declare(seat, spec.kind, list(cards))
                if not child.breaches:
                    results.append(search(child))
        for card in sorted(state.legal_plays(seat)):
            child = state.copy()
            child.play(seat, card)
            assert not child.breaches
            results.append(search(child))
        value = max(results) if seat == 0 else min(results)
        memo[key] = value
        return value

    start = deal.copy()
    start.finish()
    return search(deal) - (start.score[0] - start.score[1])


def replay_line(deal: DealState, pos: Endgame, moves: list[int]) -> list[int]:
    """Play a solver's line on a copy of the core's deal (declarations included); every move must be legal. The
    points each seat takes from the start of the line to the end of the hand, as the core scores them."""
    start = deal.copy()
    start.finish()
    state = deal.copy()
    for i, move in enumerate(moves):
        seat = state.rules.next_seat[state.plays[-1][0]] if state.plays else state.leader
        if move >= 64:
            offer = pos.offers[(move >> 6) - 1]
            state.declare(seat, offer[3], list(offer[1]))
            assert not state.breaches, state.breaches
            if state.out >= 0:
                # (sixty-six: a declaration that reaches the target ends the hand before the lead the move names,
                # which scores nothing: the line ends there)
                assert i == len(moves) - 1, moves
                break
        state.play(seat, move & 63)
        assert not state.breaches, state.breaches
    assert state.finished or state.out >= 0
    if state.out >= 0:
        state.go_out(state.out)  # (sixty-six: the record says so)
    state.finish()
    assert not state.breaches, state.breaches
    return [a - b for a, b in zip(state.score, start.score, strict=True)]


@pytest.mark.parametrize(("profile", "options"), CONFIGS, ids=lambda v: str(v))
def test_solver_equals_brute_force(profile: str, options: dict[str, str]) -> None:
    later = 10 if profile == "infuzorka" else 0  # eight packs: the last 8 of its 18 last tricks
    checked = 0
    for number, deal in enumerate(endgames(profile, options, ENDGAMES, later)):
        pos = Endgame.of(deal)
        solver = Solver()
        value = solver.value(pos)
        expected = brute_deal(deal) if pos.declarable or pos.target else brute_tuples(deal)
        assert value[0] - value[1] == expected, (profile, number)
        # The best line replays valid on the core's deal and scores what the solver says.
        assert replay_line(deal, pos, solver.line(pos)) == list(value)
        if number % 25 == 0:
            # Every option's value: the move's points and the best play after it.
            for move, points in solver.options(pos):
                pos.make(move)
                rest = solver.line(pos)
                pos.unmake()
                assert replay_line(deal, pos, [move, *rest]) == list(points)
        checked += 1
    assert checked == ENDGAMES


def test_not_covered_gives_a_reason() -> None:
    text = generate_game("classic", 3)
    result = check_text(text, states=True)
    first = result.games[0].deals[0].tricks[0].state
    assert first is not None
    with pytest.raises(NotCovered, match="stock still has"):
        Endgame.of(first)
    rubicon = check_text(generate_game("rubicon-000", 3), states=True)
    last = next(t for t in rubicon.games[0].deals[0].tricks if t.phase == 2).state
    assert last is not None
    with pytest.raises(NotCovered, match="rubicon"):
        Endgame.of(last)


def test_budget_is_stated_not_guessed() -> None:
    deal = next(endgames("classic", {}, 1))
    with pytest.raises(OverBudget, match="not solved within 10 nodes"):
        Solver(budget=10).value(Endgame.of(deal))


@pytest.mark.parametrize(("profile", "options"), [("classic", {}), ("infuzorka", {})])
def test_the_searchs_move_orders_are_its_rule_of_thumb(profile: str, options: dict[str, str]) -> None:
    """The solver sorts by keys kept per rules and trumps (one int a card): they give the order its docstring
    states, written here as tuples: a leader's high cards first (rank, then eight times the card's worth); a
    follower's winning cards first, the highest first, then the rest by worth, then rank. Every card led, every
    card that may follow (the wild card too, in infuzorka), the trumps of a few deals."""
    from replayer.solver import _follow_keys, _orders

    trumps = set()
    for deal in endgames(profile, options, 3):
        pos = Endgame.of(deal)
        trumps.add(pos.trump)
        lead, by_led = _orders(pos)
        worth = pos.trick_points
        cards = [c for c in range(33) if pos.rules.copies[c]]
        assert sorted(cards, key=lead.__getitem__) == sorted(cards, key=lambda c: -((c & 7) + 8 * worth[c]))
        for led in cards:
            keys = by_led.get(led) or _follow_keys(pos, by_led, led)

            def rule(card: int, led: int = led, trump: int = pos.trump, worth: list[int] = worth) -> tuple[int, ...]:
                if trick_winner([led, card], trump) == 1:
                    return (0, -(card & 7), 0)
                return (1, worth[card], card & 7)

            assert sorted(cards, key=keys.__getitem__) == sorted(cards, key=rule)
    assert trumps
