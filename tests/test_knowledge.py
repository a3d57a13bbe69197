"""What a seat knows (replayer/rules/knowledge.py): the facts learnt from the play are true, every sampled deal
agrees with what the seat knows and with card conservation, and the sampling is uniform."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from functools import cache

import pytest

from replayer.check import check_text
from replayer.generate import generate_game
from replayer.rules import DealState
from replayer.rules.knowledge import Facts, Inconsistent, Knowledge, card_counts, sample
from replayer.sampling import Heuristic, play_points, playout


@cache
def _points(profile: str, seed: int) -> list[tuple[int, int, int, DealState, Facts]]:
    result = check_text(generate_game(profile, seed), states=True)
    assert result.valid, [d.message for d in result.diagnostics]
    deal = result.games[0].deals[0]
    players = result.games[0].deals[0].tricks[0].state.rules.players  # type: ignore[union-attr]
    return [(t.n, seat, card, state, facts) for t, seat, card, state, facts in play_points(deal.tricks, players)]


def _cases() -> Iterator[tuple[str, int]]:
    yield from (("classic", 3), ("classic", 8), ("ua2", 5), ("three-handed", 2))


@pytest.mark.parametrize(("profile", "seed"), list(_cases()))
def test_facts_are_true(profile: str, seed: int) -> None:
    """What the facts say each seat holds it holds, and what they say it cannot hold it does not."""
    voids = 0
    for _, _, _, state, facts in _points(profile, seed):
        for seat, held in enumerate(state.held):
            assert all(held[c] >= n for c, n in enumerate(facts.located[seat])), (seat, facts.located[seat])
            assert not [c for c in facts.excluded[seat] if held[c]]
            voids += bool(facts.excluded[seat])
    if profile in ("ua2", "three-handed"):
        assert voids, "following suit is obliged: some void must have been shown"


@pytest.mark.parametrize(("profile", "seed"), list(_cases()))
def test_every_sample_agrees_with_what_the_seat_knows(profile: str, seed: int) -> None:
    rng = random.Random(seed)
    points = _points(profile, seed)
    for _, seat, _, state, facts in points[:: max(1, len(points) // 12)]:
        know = Knowledge.of(state, seat, facts)
        rules = state.rules
        for _ in range(3):
            new = sample(state, know, rng)
            assert card_counts(new) == list(rules.copies), "card conservation"
            assert new.held[seat] == state.held[seat]
            assert [[t.card for t in table] for table in new.tables] == [[t.card for t in t2] for t2 in state.tables]
            assert new.won == state.won and new.plays == state.plays and new.turnup == state.turnup
            assert len(new.stock or ()) == state.stock_left
            for other, held in enumerate(new.held):
                assert sum(held) == sum(state.held[other])
                assert all(held[c] >= n for c, n in enumerate(know.known[other]))
                assert not [c for c in know.excluded[other] if held[c]]
            final = playout(new.copy(), Heuristic(), rng)  # (raises on any rule broken)
            assert len(final) == len(rules.scorers)


def _position(trick: int) -> tuple[int, DealState, Facts]:
    """The leader's position before ``trick`` of a generated classic deal (phase 1)."""
    for n, seat, _, state, facts in _points("classic", 3):
        if n == trick and not state.plays:
            return seat, state, facts
    raise AssertionError(f"no lead at trick {trick}")


def _chi_square(counts: Counter[object], expected: dict[object, float]) -> float:
    return sum((counts[k] - e) ** 2 / e for k, e in expected.items())


def test_sampling_is_uniform() -> None:
    """Before trick 24 one face-down card is left: each unseen card is that one with a chance proportional to its
    copies among the unseen (the other hand holds the rest)."""
    seat, state, facts = _position(24)
    know = Knowledge.of(state, seat, facts)
    assert know.stock == 1 and not know.complete
    rng = random.Random(7)
    draws = 4000
    counts = Counter((sample(state, know, rng).stock or [-1])[0] for _ in range(draws))
    total = sum(know.pool)
    expected = {card: draws * n / total for card, n in enumerate(know.pool) if n}
    assert set(counts) == set(expected)
    # chi-square with len(expected) - 1 degrees of freedom (at most 8): 26.1 is its 0.1% point
    assert _chi_square(counts, expected) < 26.1


def test_sampling_with_a_void_stays_uniform() -> None:
    """A card the other hand cannot hold lies in the stock, in each of its places equally often."""
    seat, state, facts = _position(23)
    facts = facts.copy()
    other = 1 - seat
    know = Knowledge.of(state, seat, facts)
    barred = next(c for c, n in enumerate(know.pool) if n == 1)
    facts.excluded[other].add(barred)
    know = Knowledge.of(state, seat, facts)
    assert know.stock == 3
    rng = random.Random(3)
    draws = 3000
    places: Counter[object] = Counter()
    for _ in range(draws):
        new = sample(state, know, rng)
        assert not new.held[other][barred]
        places[(new.stock or []).index(barred)] += 1
    assert _chi_square(places, {p: draws / 3 for p in range(3)}) < 13.8  # 2 degrees of freedom, 0.1%


def test_an_impossible_void_is_refused() -> None:
    seat, state, facts = _position(24)
    facts = facts.copy()
    know = Knowledge.of(state, seat, facts)
    facts.excluded[1 - seat].update(c for c, n in enumerate(know.pool) if n)
    with pytest.raises(Inconsistent):
        sample(state, Knowledge.of(state, seat, facts), random.Random(1))


def test_the_last_tricks_are_known_to_both_seats() -> None:
    for _, seat, _, state, facts in _points("classic", 3):
        assert Knowledge.of(state, seat, facts).complete == (state.phase == 2)
