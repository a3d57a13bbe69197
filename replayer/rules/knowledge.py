"""What a seat knows of a deal, and random complete deals consistent with it (for the sampled analysis).

A seat sees its own hand, the cards on every table (declared and not yet played), the cards played, the turn-up,
and how many cards each hand and the stock hold. From the play it has learnt more, which the core's :class:`DealState`
does not keep and :class:`Facts` does, fed with each public action as it happens:

- a card known to lie in a hand off the table: the card an exchange gained (the turn-up), the turn-up drawn by the
  last draw, a trump seven shown and kept (``seven.second``), the declared cards taken back into the hands when the
  stock ends (they were on the table);
- cards a seat has shown it does not hold: a play that the core's :func:`~replayer.rules.deal.obligation` would have
  forbidden to a hand holding also card X shows that the hand holds no X (a suit not followed, trumps not played,
  a card of the suit led not beaten). The test is asked of the core, card by card, with the two-card hand {played,
  X}: the obligations only narrow as a hand grows, so the answer holds for any hand. Such a void lasts until the
  seat's next draw (a card drawn may be of the suit).

:class:`Knowledge` is that knowledge for one seat at one moment: the unseen pool (a count per card), the cards of
each other hand already known, how many unknown cards each hand and the stock hold, and the cards each hand cannot
hold. :func:`sample` deals the pool into the unknown places uniformly at random among the arrangements of the
physical cards (each copy a card) that respect the voids: the chance of each completion under a fair shuffle, with
no inference from the other seats' choices (the "perfect-information Monte Carlo" of bridge's GIB). The voids are
met by rejection, which keeps the draw uniform; past :data:`MAX_TRIES` tries a :class:`Inconsistent` says so, never
a guess.

Every profile and number of seats is covered: partners do not see each other's hands, the dealer who sits a hand
out holds none, the wild card is a card like any other.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from ..cards import CARD_INDICES
from .compiled import FREE
from .deal import DealState, obligation

__all__ = ["MAX_TRIES", "Facts", "Inconsistent", "Knowledge", "card_counts", "sample"]

MAX_TRIES = 10_000
"""Shuffles tried for one sample that respects the voids before :func:`sample` gives up."""


class Inconsistent(Exception):
    """No complete deal was found that agrees with what the seat knows (within :data:`MAX_TRIES` shuffles)."""


class Facts:
    """The public facts of one deal that the core's state does not keep (see the module docstring), one list per
    seat. Fed by whoever drives the core: :meth:`play` before each play, :meth:`drew` after each draw,
    :meth:`gained` after an exchange or a seven shown, :meth:`sync` after a declaration and at the end of the stock.
    """

    __slots__ = ("excluded", "located")

    def __init__(self, players: int) -> None:
        self.located: list[list[int]] = [[0] * CARD_INDICES for _ in range(players)]
        """Per seat, a count per card known to be in its hand or on its table."""
        self.excluded: list[set[int]] = [set() for _ in range(players)]
        """Per seat, the cards it has shown it does not hold (until its next draw)."""

    def copy(self) -> Facts:
        """An independent copy."""
        other = Facts.__new__(Facts)
        other.located = [list(row) for row in self.located]
        other.excluded = [set(row) for row in self.excluded]
        return other

    def play(self, deal: DealState, seat: int, card: int) -> None:
        """``seat`` is about to play ``card`` in ``deal`` (its state before the play): what the play shows."""
        located = self.located[seat]
        if located[card]:
            located[card] -= 1
        plays = deal.plays
        if not plays:
            return
        rules = deal.rules
        rule = rules.phase1_play if (deal.stock_left > 0 or deal.turnup_waiting) else rules.phase2_play
        if rule == FREE:
            return
        played = [c for _, c in plays]
        hand = [0] * CARD_INDICES
        hand[card] = 1
        excluded = self.excluded[seat]
        for other in range(CARD_INDICES):
            if other == card or other in excluded:
                continue
            hand[other] += 1
            allowed, _ = obligation(rule, hand, played, deal.trump, False)
            hand[other] -= 1
            if allowed is not None and card not in allowed:
                excluded.add(other)

    def drew(self, seat: int, card: int = -1) -> None:
        """``seat`` has drawn a card: ``card`` when the others saw it (the turn-up), else -1."""
        self.excluded[seat].clear()
        if card >= 0:
            self.located[seat][card] += 1

    def gained(self, seat: int, card: int) -> None:
        """``seat`` is seen to hold ``card`` (the turn-up taken by an exchange, a seven shown and kept)."""
        self.located[seat][card] += 1

    def sync(self, deal: DealState) -> None:
        """What the tables show is known to be held: kept when the declared cards go back into the hands."""
        for seat, table in enumerate(deal.tables):
            if not table:
                continue
            counts = [0] * CARD_INDICES
            for t in table:
                counts[t.card] += 1
            located = self.located[seat]
            for card, n in enumerate(counts):
                if n > located[card]:
                    located[card] = n


class Knowledge:
    """What ``seat`` knows of a deal now (see the module docstring). Made by :meth:`of`."""

    __slots__ = ("excluded", "known", "pool", "seat", "slots", "stock")

    seat: int
    pool: list[int]
    """A count per card of the cards the seat can neither see nor place: the unknown cards of the other hands and
    the face-down stock."""
    known: list[list[int]]
    """Per seat, a count per card of what it is known to hold (the seat itself: its whole hand)."""
    slots: list[int]
    """Per seat, how many of its cards are unknown (0 for the seat itself)."""
    stock: int
    """Face-down cards in the stock (all unknown; the turn-up is seen)."""
    excluded: list[frozenset[int]]
    """Per seat, the cards it cannot hold."""

    @classmethod
    def of(cls, deal: DealState, seat: int, facts: Facts | None = None) -> Knowledge:
        """What ``seat`` knows in ``deal`` (not changed), with the ``facts`` of the play so far (None: only what the
        state shows)."""
        rules = deal.rules
        players = rules.players
        know = cls.__new__(cls)
        know.seat = seat
        pool = list(rules.copies)
        known: list[list[int]] = []
        slots: list[int] = []
        for other in range(players):
            held = deal.held[other]
            if other == seat:
                row = list(held)
            else:
                row = list(facts.located[other]) if facts is not None else [0] * CARD_INDICES
                table = [0] * CARD_INDICES
                for t in deal.tables[other]:
                    table[t.card] += 1
                row = [max(a, b) for a, b in zip(row, table, strict=True)]
            known.append(row)
            slots.append(sum(held) - sum(row))
            for card, n in enumerate(row):
                pool[card] -= n
        for cards in deal.won:
            for card in cards:
                pool[card] -= 1
        for _, card in deal.plays:
            pool[card] -= 1
        if deal.turnup >= 0 and deal.turnup_waiting:
            pool[deal.turnup] -= 1
        know.pool = pool
        know.known = known
        know.slots = slots
        know.stock = deal.stock_left
        know.excluded = [
            frozenset(facts.excluded[s]) if facts is not None and s != seat else frozenset() for s in range(players)
        ]
        if min(pool) < 0 or sum(pool) != sum(slots) + know.stock:
            raise Inconsistent(f"the cards do not add up for seat {rules.seats[seat]} (the facts disagree)")
        return know

    @property
    def complete(self) -> bool:
        """Nothing is hidden from the seat: one deal is consistent with what it knows (the unseen cards, if any,
        can only be the one hand that has room for them)."""
        return not self.stock and sum(1 for n in self.slots if n) <= 1


def sample(deal: DealState, know: Knowledge, rng: random.Random) -> DealState:
    """A complete deal consistent with ``know`` (made of ``deal``, which is not changed), drawn uniformly at random
    (see the module docstring): the seat's own hand, the tables, the cards played and the turn-up as they are; the
    unknown cards dealt to the other hands and the stock (top first), ready to play on."""
    cards = [card for card, n in enumerate(know.pool) for _ in range(n)]
    holders = [(s, n) for s, n in enumerate(know.slots) if n]
    constrained = any(know.excluded[s] for s, _ in holders)
    for _ in range(MAX_TRIES):
        rng.shuffle(cards)
        if not constrained or _respects(cards, holders, know.excluded):
            break
    else:
        raise Inconsistent(f"no deal respecting the voids in {MAX_TRIES:,} shuffles")
    new = deal.copy()
    start = 0
    for seat, n in holders:
        held = list(know.known[seat])
        for card in cards[start : start + n]:
            held[card] += 1
        new.held[seat] = held
        start += n
    new.stock = cards[start:]
    new.seen = card_counts(new)
    return new


def _respects(cards: Sequence[int], holders: Sequence[tuple[int, int]], excluded: Sequence[frozenset[int]]) -> bool:
    start = 0
    for seat, n in holders:
        barred = excluded[seat]
        if barred:
            for card in cards[start : start + n]:
                if card in barred:
                    return False
        start += n
    return True


def card_counts(deal: DealState) -> list[int]:
    """Every card of the deal wherever it is (hands, tricks won, the trick in progress, the turn-up, the listed
    stock), a count per card: what the core's card conservation counts."""
    seen = [0] * CARD_INDICES
    for held in deal.held:
        for card, n in enumerate(held):
            seen[card] += n
    for cards in deal.won:
        for card in cards:
            seen[card] += 1
    for _, card in deal.plays:
        seen[card] += 1
    if deal.turnup >= 0 and deal.turnup_waiting:
        seen[deal.turnup] += 1
    for card in deal.stock or ():
        seen[card] += 1
    return seen
