"""The sampled analysis of every play (``bezique analyse --all``): perfect-information Monte Carlo on the core.

At each play of a deal, from what the acting seat knows (:mod:`replayer.rules.knowledge`), N complete deals are
drawn that agree with it; each legal card is played in each of them and the deal is played out to its end
(:func:`playout`): by the :class:`Heuristic` policy while the stock lasts, by the exact solver (replayer/solver.py)
once it is empty. A card's value is the points each side takes from that play to the end of the deal (melds, the
trump seven, brisques or card points, the last trick), averaged over the samples, with its standard error. Every
card of a play is tried on the SAME samples, so that the differences between cards are sharp; the seed of each play
is made from the run's seed and the play's place in the record, so that a run is reproducible and the same whatever
the number of processes.

When the seat knows every card (two seats, the stock empty) there is one deal to try and the values are the solver's
own: ``exact``, standard error 0. Every rule, score and draw is the core's: the playout only drives it.

Covered: every two-seat profile of hands of at most :data:`MAX_HAND` cards whose last tricks the solver covers
(classic, no-trump, ru19, ruwiki, sixty-six, ua2). Not covered, and said so per deal: three and four seats (the
solver values their last tricks double-dummy only, and one deal of them takes seconds to solve), larger hands (the
six- and eight-pack profiles, infuzorka: a playout's last tricks take seconds), and profiles whose trick points
depend on the final scores (Rubicon's brisques). A playout whose last tricks the solver does not finish within
:data:`SOLVE_BUDGET` nodes has them played by the policy, and the judged play says how many (``unsolved``).
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from .cards import CARDS, display_key
from .distribute import run_tasks
from .profile import MeldSpec
from .rules.deal import DealState
from .rules.endgame import Endgame, NotCovered
from .rules.knowledge import Facts, Inconsistent, Knowledge, sample
from .solver import OverBudget, Solver

__all__ = [
    "DEFAULT_SAMPLES",
    "MAX_HAND",
    "MISTAKE_POINTS",
    "UNSOLVED",
    "Heuristic",
    "Policy",
    "banked",
    "judge",
    "not_covered",
    "play_points",
    "playout",
    "settle",
]

DEFAULT_SAMPLES = 64
"""Sampled deals per play (``--samples``)."""

MISTAKE_POINTS = 10
"""A play is a mistake when its cost is at least this many points and at least twice its standard error."""

SOLVE_BUDGET = 200_000
"""Nodes the solver may visit for one playout's last tricks; past it the policy plays them (never in a covered
two-seat deal of eight cards a hand, which takes a few thousand)."""


UNSOLVED = [0]
"""Playouts (in this process) whose last tricks the solver did not finish within :data:`SOLVE_BUDGET`: the policy
played them, and a judged play says how many of its playouts did (``unsolved``)."""

MAX_HAND = 8
"""The largest hand the sampled analysis covers: past it the playouts' last tricks take seconds each to solve."""


class Policy(Protocol):
    """Who chooses in a playout: the card, the declaration, the exchange (all among what the core allows)."""

    def play(self, deal: DealState, seat: int, legal: list[int], facts: Facts | None) -> int:
        """The card ``seat`` plays among ``legal`` (ints); ``facts``: what the play has shown so far, when kept."""
        ...

    def declaration(
        self, deal: DealState, seat: int, offers: list[tuple[MeldSpec, tuple[int, ...]]]
    ) -> tuple[MeldSpec, tuple[int, ...]] | None:
        """The combination ``seat`` declares among ``offers`` (None: none)."""
        ...


class Heuristic:
    """The playout policy: the better player's rules of thumb (replayer/player.py, ``heuristic_card``) for the
    cards; the combination worth most, always; the trump seven always exchanged (or shown)."""

    def play(self, deal: DealState, seat: int, legal: list[int], facts: Facts | None = None) -> int:
        """The heuristic's card."""
        from .player import heuristic_card

        return heuristic_card(deal, seat, legal)

    def declaration(
        self, deal: DealState, seat: int, offers: list[tuple[MeldSpec, tuple[int, ...]]]
    ) -> tuple[MeldSpec, tuple[int, ...]] | None:
        """The offer worth most."""
        return max(offers, key=lambda offer: offer[0].points) if offers else None


def banked(deal: DealState) -> list[int]:
    """Each scorer's points were the hand to end now: the running scores and what the cards won so far add at the
    end (brisques, card points counted then), as the core's ``finish`` counts them."""
    trial = deal.copy()
    trial.finish()
    return trial.scores()


def settle(deal: DealState, policy: Policy, facts: Facts | None = None, declare: bool = True) -> None:
    """Between two tricks: the exchanges, the winner's declaration, the draws, then the exchanges a draw opens, as
    the core allows them (``facts``, when given, learns what the others see). ``declare`` False: the declaration
    has been chosen already (a declaration judged)."""
    _exchanges(deal, facts)
    if declare and deal.window_open:
        declarer = deal.declarer if deal.declarer >= 0 else deal.winner
        offers = deal.legal_declarations(declarer)
        chosen = policy.declaration(deal, declarer, offers) if offers else None
        if chosen is not None:
            deal.declare(declarer, chosen[0].kind, list(chosen[1]))
    if facts is not None:
        facts.sync(deal)
    while deal.to_draw:
        seat = deal.to_draw[0]
        turnup = deal.stock_left == 0
        card = deal.turnup if turnup else deal.stock[0] if deal.stock else -1
        deal.draw(seat, card)
        if facts is not None:
            facts.drew(seat, card if turnup else -1)
    _exchanges(deal, facts)


def _exchanges(deal: DealState, facts: Facts | None) -> None:
    # One at a time, asked again after each: an exchange makes the turn-up a seven, which ends the others' (or
    # turns them into showing the second seven, where the profile scores it).
    while offers := deal.legal_exchanges():
        seat, seven = offers[0]
        before = deal.turnup
        shown = before == seven
        deal.exchange(seat, seven)
        if facts is not None:
            facts.gained(seat, seven if shown else before)


def playout(
    state: DealState,
    policy: Policy,
    rng: random.Random,
    facts: Facts | None = None,
    solve: bool = True,
    solver: Solver | None = None,
) -> list[int]:
    """Play ``state`` (changed in place) to the end of the deal: ``policy`` chooses while the stock lasts, the
    exact solver plays the last tricks (with two scorers, where it covers them within :data:`SOLVE_BUDGET`).
    Returns each scorer's final points, as :func:`banked` counts them. ``rng`` is for a policy that draws; the
    heuristic does not. ``solve`` False: the policy plays the last tricks too (a match between players).
    ``solver``: one whose tables the playouts of a play share (its node count starts again at each search).

    The one loop that drives the core through a deal (the sampled analysis, the sampler player, the match)."""
    deal = state
    # (max^n on three scorers takes seconds a deal: their last tricks are played by the policy)
    solve = solve and len(deal.rules.scorers) == 2
    settled = False
    while not deal.finished:
        if not settled and (deal.to_draw or (deal.window_open and not deal.plays)):
            settle(deal, policy, facts)
            settled = True
            continue
        if solve and deal.phase == 2:
            try:
                position = Endgame.of(deal)
                if solver is None or position.declarable or position.target:
                    # (their tables count points from the position's start: not to be shared)
                    searcher = Solver(SOLVE_BUDGET)
                else:
                    searcher = solver
                    searcher.nodes = 0
                value = searcher.value(position)
            except NotCovered:
                solve = False
            except OverBudget:
                solve = False
                UNSOLVED[0] += 1
            else:
                return [b + v for b, v in zip(banked(deal), value, strict=True)]
        settled = False
        plays = deal.plays
        seat = deal.next_seat[plays[-1][0]] if plays else deal.leader
        legal = sorted(deal.legal_plays(seat))
        card = policy.play(deal, seat, legal, facts) if len(legal) > 1 else legal[0]
        if facts is not None:
            facts.play(deal, seat, card)
        deal.play(seat, card)
        if deal.breaches:
            raise AssertionError(f"a playout broke a rule: {deal.breaches}")
    deal.finish()
    return deal.scores()


def not_covered(deal: DealState) -> str | None:
    """Why the sampled analysis does not judge the plays of this deal (None: it does)."""
    rules = deal.rules
    if rules.players != 2:
        return (
            f"the sampled analysis covers two seats; with {rules.players} it judges only the last tricks "
            "(double-dummy), the solver taking seconds a deal"
        )
    if rules.brisques_conditional:
        return "the brisques count only on a tie or to reach the rubicon, so no playout can value a trick"
    if rules.hand_size > MAX_HAND:
        return (
            f"hands of {rules.hand_size} cards: the last tricks of each playout would take seconds to solve (the "
            f"sampled analysis covers hands of {MAX_HAND} cards or fewer)"
        )
    return None


@dataclass
class Judgement:
    """The values of every legal card of one play (see :func:`judge`)."""

    cards: list[int]
    """The legal cards, in display order."""
    points: list[list[list[int]]]
    """Per card, per sample, each scorer's points from the play to the end of the deal."""
    exact: bool
    unsolved: int = 0
    """Playouts whose last tricks the policy played, the solver being over its budget."""


def judge(
    deal: DealState,
    seat: int,
    facts: Facts | None,
    samples: int,
    rng: random.Random,
    policy: Policy | None = None,
) -> Judgement:
    """Every legal card of ``seat`` in ``deal`` (not changed) valued on the same ``samples`` deals drawn from what
    the seat knows (one deal, exact, when it knows every card)."""
    policy = policy or Heuristic()
    know = Knowledge.of(deal, seat, facts)
    cards = sorted(deal.legal_plays(seat), key=lambda c: (*display_key(c), c))
    exact = know.complete
    positions = [deal] if exact else [sample(deal, know, rng) for _ in range(samples)]

    def play(trial: DealState, card: int) -> None:
        trial.play(seat, card)

    before = UNSOLVED[0]
    points = _played_out(positions, cards, play, policy, rng)
    return Judgement(cards, points, exact and UNSOLVED[0] == before, UNSOLVED[0] - before)


def _played_out(
    positions: Sequence[DealState],
    options: Sequence[Any],
    make: Any,
    policy: Policy,
    rng: random.Random,
) -> list[list[list[int]]]:
    """Each option made (``make(trial, option)``) on a copy of each position and played out: per option, per
    position, each scorer's points from the position to the end of the deal."""
    starts = [banked(p) for p in positions]
    # The last tricks of every playout of this choice share one solver's tables: a position's value is the same
    # whichever playout reaches it (a table keyed by the hands and the leader).
    solver = Solver(SOLVE_BUDGET)
    points: list[list[list[int]]] = []
    for option in options:
        row = []
        for position, start in zip(positions, starts, strict=True):
            trial = position.copy()
            make(trial, option)
            final = playout(trial, policy, rng, solver=solver)
            row.append([f - s for f, s in zip(final, start, strict=True)])
        points.append(row)
    return points


def summary(
    judgement: Judgement,
    seat: int,
    played: int,
    names: Sequence[str],
    side: int,
    labels: Sequence[str] | None = None,
    key: str = "card",
) -> dict[str, Any]:
    """A judged play as the ``analyse --json`` data: each option's mean points per side and the standard error of
    its difference (the acting side's points less the other's), the best options, the played card's cost in points
    of that difference and the cost's standard error (of the paired differences, the samples being shared).
    ``labels`` name the options (default: the cards), under ``key`` in each option."""
    diffs = [[p[side] - p[1 - side] for p in row] for row in judgement.points]
    means = [sum(d) / len(d) for d in diffs]
    top = max(means)
    best_index = means.index(top)
    chosen = judgement.cards.index(played)
    if labels is None:
        labels = [str(CARDS[c]) for c in judgement.cards]
    options = []
    for label, row, d in zip(labels, judgement.points, diffs, strict=True):
        n = len(row)
        mean = {name: _round(sum(p[i] for p in row) / n) for i, name in enumerate(names)}
        options.append({key: label, "mean": mean, "stderr": _round(_stderr(d))})
    paired = [b - c for b, c in zip(diffs[best_index], diffs[chosen], strict=True)]
    cost = top - means[chosen]
    unsolved = {"unsolved": judgement.unsolved} if judgement.unsolved else {}
    return {
        **unsolved,
        "samples": len(diffs[0]),
        "exact": judgement.exact,
        "options": options,
        "best": [label for label, m in zip(labels, means, strict=True) if m == top],
        "cost": _round(cost),
        "cost_stderr": _round(_stderr(paired)) if cost else 0,
    }


def is_mistake(play: dict[str, Any]) -> bool:
    """A cost of at least :data:`MISTAKE_POINTS` and at least twice its standard error."""
    return bool(play["cost"] >= MISTAKE_POINTS and play["cost"] >= 2 * play["cost_stderr"])


def _stderr(values: Sequence[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


def _round(x: float) -> float | int:
    return int(x) if x == int(x) else round(x, 2)


def play_points(tricks: Sequence[Any], players: int) -> Iterator[tuple[Any, int, int, DealState, Facts]]:
    """Every play of a replayed deal (its ``TrickResult`` list, each with the core's state before it): the trick,
    the seat, the card, a copy of the core's state just before the play, and the facts learnt so far. The states
    between the plays of a trick are made by the core from the state before the trick."""
    for kind, trick, seat, card, deal, facts in _walk(tricks, players, False):
        if kind == "play":
            assert isinstance(card, int)
            yield trick, seat, card, deal, facts


Offer = tuple[MeldSpec, tuple[int, ...]]


def window_points(
    tricks: Sequence[Any], players: int
) -> Iterator[tuple[Any, int, tuple[str, tuple[int, ...]] | None, DealState, Facts]]:
    """Every declaration a replayed deal's trick winner could choose while the stock lasts: the trick, the winner,
    what the record declared first after it ((kind, cards), None: nothing), the core's state at that moment (the
    trick played, the record's exchange made) and the facts learnt so far."""
    for kind, trick, seat, made, deal, facts in _walk(tricks, players, True):
        if kind == "window":
            assert not isinstance(made, int)
            yield trick, seat, made, deal, facts


def _walk(
    tricks: Sequence[Any], players: int, windows: bool
) -> Iterator[tuple[str, Any, int, int | tuple[str, tuple[int, ...]] | None, DealState, Facts]]:
    facts = Facts(players)
    previous = None
    for trick in tricks:
        state = trick.state
        if previous is not None:
            _learn(facts, previous, state)
        deal = state.copy()
        seat_index = deal.rules.seat_index
        for seat_name, card in trick.plays:
            seat = seat_index[seat_name]
            yield "play", trick, seat, card.index, deal.copy(), facts.copy()
            facts.play(deal, seat, card.index)
            deal.play(seat, card.index)
        facts.sync(deal)
        if windows and deal.window_open and deal.to_draw and deal.winner >= 0:
            window = _window(trick, deal, facts)
            if window is not None:
                yield "window", trick, deal.winner, window[0], window[1], window[2]
        previous = (trick, deal)


def _window(
    trick: Any, deal: DealState, facts: Facts
) -> tuple[tuple[str, tuple[int, ...]] | None, DealState, Facts] | None:
    """The winner's declaration to choose after ``trick`` (None where he has none to choose)."""
    rules = deal.rules
    winner = deal.winner
    name = rules.seats[winner]
    window = deal.copy()
    learnt = facts.copy()
    made = None
    for scoring in trick.scoring:
        if scoring.seat != name:
            continue
        if scoring.kind in ("seven_exchange", "seven_shown") and window.legal_exchanges():
            seven = scoring.cards[0].index
            before = window.turnup
            window.exchange(winner, seven)
            learnt.gained(winner, seven if before == seven else before)
        elif made is None and scoring.kind in rules.meld_by_kind and not rules.meld_by_kind[scoring.kind].whole_hand:
            made = (scoring.kind, tuple(c.index for c in scoring.cards))
    window.breaches.clear()
    window.events.clear()
    if not window.legal_declarations(winner):
        return None
    return made, window, learnt


def judge_window(
    deal: DealState, seat: int, facts: Facts | None, samples: int, rng: random.Random, policy: Policy | None = None
) -> tuple[list[Offer | None], Judgement]:
    """The declaration ``seat`` may make now, each offer and none, valued on the same ``samples`` deals drawn from
    what the seat knows, each played out from there (the exchanges and draws first, as :func:`settle` makes them).
    Returns the choices (None: no declaration) and their values (in :attr:`Judgement.cards`, their indices)."""
    policy = policy or Heuristic()
    know = Knowledge.of(deal, seat, facts)
    choices: list[Offer | None] = [None, *deal.legal_declarations(seat)]
    positions = [sample(deal, know, rng) for _ in range(samples)]

    def declare(trial: DealState, choice: Offer | None) -> None:
        if choice is not None:
            trial.declare(seat, choice[0].kind, list(choice[1]))
        settle(trial, policy, declare=False)

    before = UNSOLVED[0]
    points = _played_out(positions, choices, declare, policy, rng)
    return choices, Judgement(list(range(len(choices))), points, False, UNSOLVED[0] - before)


def _label(choice: Offer | tuple[str, tuple[int, ...]] | None) -> str:
    if choice is None:
        return "none"
    kind = choice[0] if isinstance(choice[0], str) else choice[0].kind
    return f"{kind} {' '.join(str(CARDS[c]) for c in sorted(choice[1], key=lambda c: (*display_key(c), c)))}"


def _learn(facts: Facts, previous: tuple[Any, DealState], state: DealState) -> None:
    """What the seats saw between a trick (its plays made on ``deal``) and the state before the next: the turn-up
    taken by an exchange or a seven shown, the draws (the last of the turn-up), the tables."""
    trick, deal = previous
    seat_index = deal.rules.seat_index
    if state.gained != deal.gained and state.gained[0] >= 0:
        facts.gained(state.gained[0], state.gained[1])
    if state.sevens_shown > deal.sevens_shown:
        for scoring in trick.scoring:
            if scoring.kind == "seven_shown":
                facts.gained(seat_index[scoring.seat], scoring.cards[0].index)
    turnup_drawn = deal.turnup_waiting and not state.turnup_waiting
    for i, (seat_name, card) in enumerate(trick.draws):
        last = i == len(trick.draws) - 1
        facts.drew(seat_index[seat_name], card.index if turnup_drawn and last else -1)
    facts.sync(state)


def seed_for(seed: int, *place: object) -> random.Random:
    """The random generator of one play: from the run's seed and the play's place (reproducible, the same in any
    process)."""
    return random.Random(":".join(str(p) for p in (seed, *place)))


# --- a replayed record, every play -----------------------------------------------------------------------------

_Task = tuple[str, DealState, int, Facts, int, tuple[int, ...]]
"""A play or declaration a run judges: (kind, state, seat, facts, samples, place)."""

_WINDOW = 99
"""The last part of a declaration's place in the record, apart from the plays of its trick (its seed)."""


def _judge(task: _Task) -> tuple[list[str] | None, Judgement]:
    kind, state, seat, facts, samples, (seed, *place) = task
    rng = seed_for(seed, *place)
    if kind == "play":
        return None, judge(state, seat, facts, samples, rng)
    choices, judged = judge_window(state, seat, facts, samples, rng)
    return [_label(c) for c in choices], judged


def judge_deals(
    deals: Sequence[Any], samples: int, seed: int, jobs: int = 1, cluster: str | None = None
) -> list[dict[str, Any]]:
    """Every play of each replayed deal (``DealResult`` with the core's states, as ``(game, deal)`` pairs of the
    record's numbering and the deal), judged on ``samples`` sampled deals, and every declaration a trick's winner
    could choose while the stock lasts: for each deal ``{"plays": [...], "choices": [...]}``, or ``{"plays": None,
    "reason": ...}`` where the sampled analysis does not cover it. ``jobs`` processes share the work, or the workers
    of the Dask scheduler at ``cluster``; the numbers are the same for any ``jobs`` and on a cluster (each play's
    seed is made from ``seed`` and its place)."""
    tasks: list[_Task] = []
    found: list[dict[str, Any]] = []
    where: list[list[tuple[int, Any, int, Any]]] = []
    for game, result in deals:
        tricks = [t for t in result.tricks if t.state is not None]
        rules = tricks[0].state.rules if tricks else None
        reason = "the deal has no trick" if rules is None else not_covered(tricks[0].state)
        found.append({"plays": None, "reason": reason} if reason else {"plays": [], "choices": []})
        rows: list[tuple[int, Any, int, Any]] = []
        where.append(rows)
        if reason or rules is None:
            continue
        mine: list[_Task] = []
        place = (seed, game, result.number)
        try:
            for trick, seat, card, state, facts in play_points(tricks, rules.players):
                Knowledge.of(state, seat, facts)  # (raises where the record does not place every card)
                rows.append((len(tasks) + len(mine), trick, seat, card))
                mine.append(("play", state, seat, facts, samples, (*place, trick.n, seat)))
            for trick, seat, made, state, facts in window_points(tricks, rules.players):
                rows.append((len(tasks) + len(mine), trick, seat, made))
                mine.append(("window", state, seat, facts, samples, (*place, trick.n, seat, _WINDOW)))
        except Inconsistent:
            found[-1] = {
                "plays": None,
                "reason": "the record does not say where every card is (a position from a book, without the "
                "cards played before it): what a seat knows cannot be worked out",
            }
            rows.clear()
            continue
        tasks.extend(mine)
    judged = run_tasks(_judge, tasks, cluster, jobs)
    for deal, rows in zip(found, where, strict=True):
        if deal["plays"] is None:
            continue
        for index, trick, seat, what in rows:
            rules = tasks[index][1].rules
            names = list(rules.scorers)
            labels, judgement = judged[index]
            head = {"trick": trick.n, "seat": rules.seats[seat]}
            side = rules.scorer[seat]
            if labels is None:
                found_play = summary(judgement, seat, what, names, side)
                deal["plays"].append({**head, "played": str(CARDS[what]), **found_play})
                continue
            label = _label(what)
            if label not in labels:
                continue  # (the record declared cards the core would have laid out otherwise: not comparable)
            chosen = judgement.cards[labels.index(label)]
            choice = summary(judgement, seat, chosen, names, side, labels, key="choice")
            deal["choices"].append({**head, "kind": "declaration", "made": label, **choice})
    return found


__all__ += [
    "Inconsistent",
    "Judgement",
    "is_mistake",
    "judge_deals",
    "judge_window",
    "seed_for",
    "summary",
    "window_points",
]
