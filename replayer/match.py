"""Players measured against each other (``bezique match``), and the sampler player.

The players, each a policy of :func:`replayer.sampling.playout` (which drives the core through the deal):

- ``random``: a random legal card; a random one of the combinations it may declare, six times in seven;
- ``better`` (``solver`` is its old name): the rules of thumb of replayer/player.py while the stock lasts, the solver
  for the last tricks, the combination worth most;
- ``sampler``: at each card while the stock lasts, every legal card valued by the sampled analysis
  (replayer/sampling.py: :data:`SAMPLER_SAMPLES` deals drawn from what the seat knows, each played out); the best
  mean difference is played where the better player's card would be a mistake by the analysis's measure (a cost of
  10 points and two standard errors), else the better player's card; the last tricks exactly (the seat knows every
  card); the combination worth most.

Every player takes every exchange (the core's ``legal_exchanges``) and no carte blanche is declared.

A match deals each deal from a seeded pack and plays it twice, the players' seats swapped, so that the cards' luck
cancels: each pair's value is the mean of A's points less B's over its two deals. The result is the mean over the
pairs with its 95% confidence interval (normal, 1.96 standard errors) and each player's share of the deals won (a
tie counts half to each). Two-seat profiles only. Each pair's generator is seeded from the match's seed and the
pair's number, so the result is the same for any ``--jobs``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from .cards import WILD_INDEX
from .distribute import run_tasks
from .profile import MeldSpec
from .profiles import load_profile
from .rules import DealState, compile_rules
from .rules.compiled import Rules
from .rules.knowledge import Facts
from .sampling import Heuristic, Policy, is_mistake, judge, playout, seed_for, summary

__all__ = [
    "PLAYERS",
    "SAMPLER_SAMPLES",
    "Better",
    "RandomPlayer",
    "Sampler",
    "SamplerChooser",
    "make_player",
    "match",
    "text",
]

SAMPLER_SAMPLES = 8
"""Sampled deals per card the sampler player tries (``--samples`` of ``bezique match``)."""

PLAYERS = ("random", "better", "solver", "sampler")
"""The players a match knows (``solver`` is the better player's old name)."""


class RandomPlayer:
    """A random legal card; a random combination six times in seven."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def play(self, deal: DealState, seat: int, legal: list[int], facts: Facts | None = None) -> int:
        """Any legal card."""
        return self.rng.choice(legal)

    def declaration(
        self, deal: DealState, seat: int, offers: list[tuple[MeldSpec, tuple[int, ...]]]
    ) -> tuple[MeldSpec, tuple[int, ...]] | None:
        """Any offer, most of the time."""
        return self.rng.choice(offers) if offers and self.rng.random() < 6 / 7 else None


class Better(Heuristic):
    """The better player of replayer/player.py: the heuristic, then the solver."""

    def play(self, deal: DealState, seat: int, legal: list[int], facts: Facts | None = None) -> int:
        """The better player's card."""
        from .player import better_card

        return better_card(deal, seat, legal)


class Sampler(Heuristic):
    """The sampler player: each card chosen by the sampled analysis (see the module docstring)."""

    def __init__(self, rng: random.Random, samples: int = SAMPLER_SAMPLES, fallback: bool = True) -> None:
        self.rng = rng
        self.samples = samples
        self.fallback = fallback
        """False: always the best mean, however small its lead (the sampler measured before, issue 22)."""

    def play(self, deal: DealState, seat: int, legal: list[int], facts: Facts | None = None) -> int:
        """The legal card with the best mean difference on the sampled deals (the first in display order of equal
        ones), where the better player's card would be a mistake by the analysis's own measure
        (:func:`~replayer.sampling.is_mistake`: a cost of at least 10 points and two standard errors); else the
        better player's card. A few samples a card are noisy: a card that only looks better by less than its error
        is more often the noise's than the position's (measured in bench/RESULTS.md, issue 22)."""
        from .player import better_card

        judged = judge(deal, seat, facts, self.samples, self.rng)
        side = deal.rules.scorer[seat]
        means = [sum(p[side] - p[1 - side] for p in row) / len(row) for row in judged.points]
        best = judged.cards[max(range(len(means)), key=lambda i: means[i])]
        if judged.exact or not self.fallback:
            return best
        usual = better_card(deal, seat, legal)
        if usual not in judged.cards:
            return best
        return best if is_mistake(summary(judged, seat, usual, deal.rules.scorers, side)) else usual


def make_player(name: str, rng: random.Random, samples: int = SAMPLER_SAMPLES) -> Policy:
    """The policy of a player by name (one of :data:`PLAYERS`); raises ``ValueError`` for another."""
    if name == "random":
        return RandomPlayer(rng)
    if name in ("better", "solver"):
        return Better()
    if name == "sampler":
        return Sampler(rng, samples)
    raise ValueError(f"unknown player {name!r} (players: {', '.join(PLAYERS)})")


class _Table:
    """The policy of a deal: each seat's player."""

    def __init__(self, players: Sequence[Policy]) -> None:
        self.players = players

    def play(self, deal: DealState, seat: int, legal: list[int], facts: Facts | None) -> int:
        return self.players[seat].play(deal, seat, legal, facts)

    def declaration(
        self, deal: DealState, seat: int, offers: list[tuple[MeldSpec, tuple[int, ...]]]
    ) -> tuple[MeldSpec, tuple[int, ...]] | None:
        return self.players[seat].declaration(deal, seat, offers)


def _shuffled(rules: Rules, rng: random.Random) -> tuple[list[list[int]], int, list[int]]:
    """A shuffled pack dealt: the two hands, the turn-up (-1: none), the stock top first. The wild card is not turned
    up (the next card is)."""
    pack = [c.index for c in rules.profile.pack()]
    rng.shuffle(pack)
    size = rules.hand_size
    hands = [pack[:size], pack[size : 2 * size]]
    rest = pack[2 * size :]
    turnup = -1
    if rules.turnup:
        at = next(i for i, c in enumerate(rest) if c != WILD_INDEX)
        turnup = rest.pop(at)
    return hands, turnup, rest


def play_pair(rules: Rules, names: Sequence[str], seed: int, pair: int, samples: int) -> tuple[int, int]:
    """One pair of deals: the same cards, A in seat 0 then in seat 1. Returns A's points less B's in each."""
    rng = seed_for(seed, "pair", pair)
    hands, turnup, stock = _shuffled(rules, rng)
    found = []
    for a_seat in (0, 1):
        order = list(names) if a_seat == 0 else list(names[::-1])
        players = [make_player(name, seed_for(seed, "pair", pair, a_seat, s), samples) for s, name in enumerate(order)]
        deal = DealState.start(rules, 1, -1, turnup, hands, stock=list(stock))
        final = playout(deal, _Table(players), rng, Facts(2), solve=False)
        found.append(final[a_seat] - final[1 - a_seat])
    return found[0], found[1]


def _pair(task: tuple[Rules, list[str], int, int, int]) -> tuple[int, int]:
    rules, names, seed, pair, samples = task
    return play_pair(rules, names, seed, pair, samples)


def match(
    players: Sequence[str],
    deals: int,
    profile: str = "classic",
    seed: int = 0,
    jobs: int = 1,
    samples: int = SAMPLER_SAMPLES,
    cluster: str | None = None,
) -> dict[str, Any]:
    """Play ``deals`` pairs of deals between two players (see the module docstring): the ``bezique match --json``
    data, the pairs played in ``jobs`` processes or on the Dask scheduler at ``cluster`` (the same result). Raises
    ``ValueError`` for an unknown player or a profile that is not two-seat."""
    if len(players) != 2:
        raise ValueError("a match is between two players: --players A,B")
    for name in players:
        make_player(name, random.Random(0))
    rules = compile_rules(load_profile(profile), {})
    if rules.players != 2 or rules.dealer_sits_out:
        raise ValueError(f"a match is played under a two-seat profile; {profile} has {rules.players} seats")
    pairs = run_tasks(_pair, [(rules, list(players), seed, pair, samples) for pair in range(deals)], cluster, jobs)
    values = [(a + b) / 2 for a, b in pairs]
    mean = sum(values) / len(values)
    spread = math.sqrt(sum((v - mean) ** 2 for v in values) / (len(values) - 1)) if len(values) > 1 else 0.0
    half = 1.96 * spread / math.sqrt(len(values))
    won = sum(1.0 if d > 0 else 0.5 if d == 0 else 0.0 for pair in pairs for d in pair) / (2 * len(pairs))
    a, b = players[0], players[1] if players[1] != players[0] else f"{players[1]}#2"
    return {
        "players": [players[0], players[1]],
        "profile": profile,
        "deals": deals,
        "samples": samples if "sampler" in players else None,
        "mean": round(mean, 2),
        "ci95": [round(mean - half, 2), round(mean + half, 2)],
        "wins": {a: round(won, 4), b: round(1 - won, 4)},
    }


def text(result: dict[str, Any]) -> str:
    """The match for a terminal: the mean difference per deal from A's side with its interval, the win shares."""
    a, b = result["players"]
    lo, hi = result["ci95"]
    shares = ", ".join(f"{name} {share:.1%}" for name, share in result["wins"].items())
    samples = f", sampler {result['samples']} samples a card" if result["samples"] else ""
    return (
        f"{a} against {b}, {result['profile']}, {result['deals']} deals each played twice (seats swapped){samples}\n"
        f"  mean {result['mean']:+.1f} points a deal for {a} (95% interval {lo:+.1f} to {hi:+.1f})\n"
        f"  deals won: {shares}\n"
    )


class SamplerChooser:
    """The sampler as the chooser of ``bezique generate --player sampler`` (a :data:`replayer.generate.PlayChooser`).
    It chooses every card of the deal, so it sees every play; between its calls it sees the state: an exchange
    (the turn-up taken), the draws (a void lasts until the next draw), the tables."""

    def __init__(self, seed: int, samples: int = SAMPLER_SAMPLES) -> None:
        self.sampler = Sampler(seed_for(seed, "generate"), samples)
        self.facts: Facts | None = None
        self.gained: tuple[int, int, int] = (-1, -1, -1)
        self.stock = -1

    def __call__(self, state: Any, seat_name: str, legal_cards: Sequence[Any]) -> Any:
        from .cards import CARDS

        deal: DealState = state.core
        players = deal.rules.players
        if self.facts is None or (deal.trick_no == 0 and not deal.plays):
            self.facts = Facts(players)
            self.gained = deal.gained
            self.stock = deal.stock_count
        facts = self.facts
        if deal.gained != self.gained and deal.gained[0] >= 0:
            facts.gained(deal.gained[0], deal.gained[1])
        self.gained = deal.gained
        if deal.stock_count != self.stock:
            for seat in range(players):
                facts.drew(seat)
            self.stock = deal.stock_count
        facts.sync(deal)
        seat = deal.rules.seat_index[seat_name]
        legal = [c.index for c in legal_cards]
        card = self.sampler.play(deal, seat, legal, facts) if len(legal) > 1 else legal[0]
        facts.play(deal, seat, card)
        return CARDS[card]
