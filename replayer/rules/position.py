"""A deal in play, move by move: the legal moves, ``push`` and ``pop``, and the deal from a shuffled pack.

:class:`Position` is what a player, a playout or a search works on, as python-chess's ``Board`` is: a
:class:`~replayer.rules.deal.DealState` whose stock order is known, the seat to act, every move allowed now
(:meth:`Position.legal_moves`), and an undo stack (:meth:`Position.push`, :meth:`Position.pop`). Every rule stays the
deal's: a move is carried out by the deal's own action (``DealState.play``, ``DealState.draw``, ``DealState.exchange``,
``DealState.declare``, ``DealState.go_out``) and is legal when the deal offers it (``DealState.legal_plays``,
``DealState.legal_exchanges``, ``DealState.legal_declarations``). As python-chess keeps a snapshot of the board's state
for each move, the undo stack keeps the deal's state before each move: a move is undone exactly, whatever rule it set
off.

The moves a position offers are the plays, the draws (forced: the next card of the stock), the exchange (or show)
of the trump seven, the declarations of the trick's winner, and ``goes out`` where a hand target is reached. The
conduct events of a record (claims, forfeits, penalties, a misdeal, the six-pack cut, a carte blanche, a partner's
declaration) are the record's to state and the replay's to carry out; a position does not generate them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from itertools import compress
from typing import NamedTuple

from ..cards import CARD_INDICES, WILD_INDEX
from .compiled import Rules
from .deal import DealState

__all__ = [
    "DECLARE",
    "DRAW",
    "EXCHANGE",
    "GO_OUT",
    "PLAY",
    "Move",
    "Position",
    "deal_pack",
    "pack",
    "served",
    "shuffle",
]

PLAY, DRAW, EXCHANGE, DECLARE, GO_OUT = range(5)
"""The kinds of :class:`Move`."""

_KIND_NAMES = ("play", "draw", "exchange", "declare", "go_out")


class Move(NamedTuple):
    """One action of a seat: a card played, drawn or exchanged; a combination declared (its kind and cards); or the
    seat that goes out. Cards are the core's ints (``Card.index``); ``Move.text`` names them for a reader."""

    kind: int
    seat: int
    card: int = -1
    meld: str = ""
    cards: tuple[int, ...] = ()

    def text(self, seats: Sequence[str]) -> str:
        """The move in words close to the notation's (``N plays QS``, ``S declares marriage KH QH``)."""
        from ..cards import CARDS  # (the core works on ints; only this view names cards)

        seat = seats[self.seat]
        if self.kind == DECLARE:
            return f"{seat} declares {self.meld} {' '.join(str(CARDS[c]) for c in self.cards)}"
        if self.kind == GO_OUT:
            return f"{seat} goes out"
        verb = {PLAY: "plays", DRAW: "draws", EXCHANGE: "exchanges"}[self.kind]
        return f"{seat} {verb} {CARDS[self.card]}"

    def __repr__(self) -> str:
        return f"Move({_KIND_NAMES[self.kind]}, seat={self.seat}, card={self.card}, meld={self.meld!r})"


_SIMPLE = [[[Move(kind, seat, card) for card in range(CARD_INDICES)] for seat in range(8)] for kind in range(3)]
"""The plays, draws and exchanges, made once: ``_SIMPLE[kind][seat][card]`` (a move is immutable)."""


def pack(rules: Rules) -> list[int]:
    """Every card of the packs the game plays with, in index order (each copy once)."""
    kept = _PACKS.get(id(rules))
    if kept is None or kept[0] is not rules:
        kept = _PACKS[id(rules)] = (
            rules,
            tuple(card for card in range(CARD_INDICES) for _ in range(rules.copies[card])),
        )
    return list(kept[1])


_PACKS: dict[int, tuple[Rules, tuple[int, ...]]] = {}
"""The pack of each rules, kept by the rules' identity (a playout deals one at every deal)."""


def shuffle(cards: list[int], rng: random.Random) -> None:
    """Shuffle ``cards`` in place as ``rng.shuffle(cards)`` does, to the same order with the same numbers drawn
    (tests/test_position.py holds them equal), without its call for each card: a playout deals a pack at every deal.

    The swaps of ``random.shuffle``: from the last place down, each card swapped with one at or before it, the
    place drawn as ``Random._randbelow`` draws it (the fewest bits that hold the count, drawn again while too large).
    """
    getrandbits = rng.getrandbits
    for i, count, bits in _swaps(len(cards)):
        j = getrandbits(bits)
        while j >= count:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]


def _swaps(size: int) -> tuple[tuple[int, int, int], ...]:
    """The places :func:`shuffle` swaps in a pack of ``size`` cards, last first, each with the count of places it
    draws from and the bits that hold it: worked out once per size."""
    steps = _SWAPS.get(size)
    if steps is None:
        steps = _SWAPS[size] = tuple((i, i + 1, (i + 1).bit_length()) for i in range(size - 1, 0, -1))
    return steps


_SWAPS: dict[int, tuple[tuple[int, int, int], ...]] = {}


def served(rules: Rules, dealer: int) -> list[int]:
    """The seats dealt a hand, in the order they are served: the seat order, or the dealer first where the profile
    says so (seed 003, RULES.md §2.k rule 3); a dealer who sits the hand out is dealt none (004:L117)."""
    seats = [s for s in range(rules.players) if not (rules.dealer_sits_out and s == dealer)]
    if rules.profile.deal_order == "dealer_first":
        seats = [dealer, *(s for s in seats if s != dealer)]
    return seats


def deal_pack(rules: Rules, dealer: int, cards: Sequence[int]) -> tuple[list[list[int]], int, list[int]]:
    """DealState a shuffled pack: each seat's hand (in seat order; empty for a dealer who sits out, 004:L117), the
    turn-up (-1 without one) and the face-down stock, top first.

    The hands are dealt in the order :func:`served` gives, each its ``hand_size`` cards from the top; then the
    turn-up, never the wild card (RULES.md §2.l rule 3: the next card is turned up instead).
    """
    order = served(rules, dealer)
    size = rules.hand_size
    hands: list[list[int]] = [[] for _ in range(rules.players)]
    for i, seat in enumerate(order):
        hands[seat] = list(cards[i * size : (i + 1) * size])
    rest = list(cards[len(order) * size :])
    if not rules.turnup:
        return hands, -1, rest
    if rest[0] == WILD_INDEX:
        turned = next(i for i, c in enumerate(rest) if c != WILD_INDEX)
        rest[0], rest[turned] = rest[turned], rest[0]
    return hands, rest[0], rest[1:]


class Position:
    """A deal in play with its undo stack (see the module docstring). The deal's stock order must be known."""

    __slots__ = ("_states", "deal", "move_stack")

    deal: DealState
    move_stack: list[Move]
    """The moves pushed so far, oldest first."""

    def __init__(self, deal: DealState) -> None:
        if deal.stock is None and deal.stock_left:
            raise ValueError("a position needs the stock's order (a deal that states or samples it)")
        self.deal = deal
        self.move_stack = []
        self._states: list[DealState] = []

    @classmethod
    def new(cls, rules: Rules, dealer: int, rng: random.Random) -> Position:
        """A new deal: the packs shuffled with ``rng`` and dealt by ``dealer``."""
        cards = pack(rules)
        shuffle(cards, rng)
        return cls.dealt(rules, dealer, cards)

    @classmethod
    def dealt(cls, rules: Rules, dealer: int, cards: Sequence[int]) -> Position:
        """The deal of the pack ``cards`` (top first) by ``dealer``."""
        hands, turnup, stock = deal_pack(rules, dealer, cards)
        trump = turnup >> 3 if turnup >= 0 else -1
        return cls(DealState.start(rules, dealer, trump, turnup, hands, stock))

    # --- what the position shows --------------------------------------------------------------------------------

    @property
    def rules(self) -> Rules:
        """The rules the deal is played under."""
        return self.deal.rules

    @property
    def over(self) -> bool:
        """The hand has ended: every trick played, or a seat has gone out (and said so)."""
        deal = self.deal
        if deal.out >= 0:
            return deal.out_stated
        return deal.finished

    @property
    def turn(self) -> int:
        """The seat to act: the one to draw, else the one to play (the trick's winner may first declare)."""
        deal = self.deal
        if deal.out >= 0 and not deal.out_stated:
            return deal.out
        if deal.to_draw:
            return deal.to_draw[0]
        plays = deal.plays
        return deal.next_seat[plays[-1][0]] if plays else deal.leader

    def legal_moves(self) -> list[Move]:
        """Every move allowed now: the winner's exchanges and declarations while he may make them, then the draw
        that is due or the plays of the seat to play. A position that is :attr:`over` has none."""
        deal = self.deal
        if deal.out >= 0:
            return [] if deal.out_stated else [Move(GO_OUT, deal.out)]
        plays = deal.plays
        if not plays and (deal.trick_no >= deal.rules.total_tricks or deal.claimed >= 0):
            return []  # (``deal.finished``, asked at every move: its terms the out seat's aside)
        to_draw = deal.to_draw
        if deal.window_open and deal.winner >= 0:
            winner = deal.winner
            exchanges = deal.legal_exchanges()
            moves = [Move(EXCHANGE, seat, card) for seat, card in exchanges] if exchanges else []
            declarations = deal.legal_declarations(winner)
            if declarations:
                moves += [Move(DECLARE, winner, -1, spec.kind, cards) for spec, cards in declarations]
        elif (to_draw or not plays) and deal.rules.exchange_any_time:
            # An exchange allowed at any time (``seven.exchange_when: any_time``) is offered outside the window too
            # (the only exchange there is: elsewhere the deal would answer none, asked before every draw and lead).
            exchanges = deal.legal_exchanges()
            moves = [_SIMPLE[EXCHANGE][seat][card] for seat, card in exchanges] if exchanges else []
        else:
            moves = None
        if to_draw:
            draw = _SIMPLE[DRAW][to_draw[0]][deal.next_card()]
            if not moves:
                return [draw]
            moves.append(draw)
            return moves
        seat = deal.next_seat[plays[-1][0]] if plays else deal.leader  # (``turn``: no draw is due, nobody out)
        allowed = deal.play_restriction(seat)
        if allowed is None:  # (every card held, in index order: the moves picked by the counts)
            found: Iterable[Move] = compress(_SIMPLE[PLAY][seat], deal.held[seat])
        else:
            found = map(_SIMPLE[PLAY][seat].__getitem__, allowed)
        if not moves:
            return list(found)
        moves += found
        return moves

    # --- push and pop -------------------------------------------------------------------------------------------

    def push(self, move: Move) -> None:
        """Carry out ``move`` (which should be legal: a breach it causes stays in ``deal.breaches``)."""
        self._states.append(self.deal.copy())
        self.move_stack.append(move)
        self._apply(self.deal, move)

    def pop(self) -> Move:
        """Take back the last move pushed, and return it."""
        self.deal = self._states.pop()
        return self.move_stack.pop()

    def play_on(self, move: Move) -> None:
        """Carry out ``move``, one of :meth:`legal_moves` just asked (a play is not held to the obligation again),
        with no way back (a playout, which never pops: no snapshot is kept)."""
        deal = self.deal
        kind, seat, card, _, _ = move  # (unpacked at once: cheaper than three field lookups)
        if kind == PLAY:  # (a playout's moves are mostly plays and draws: no dispatch call for them)
            deal.play(seat, card, True)
            deal.events.clear()
        elif kind == DRAW:
            deal.draw(seat, card)
            deal.events.clear()
        else:
            self._apply(deal, move)

    @staticmethod
    def _apply(deal: DealState, move: Move) -> None:
        kind = move.kind
        if kind == PLAY:
            deal.play(move.seat, move.card)
        elif kind == DRAW:
            deal.draw(move.seat, move.card)
        elif kind == DECLARE:
            deal.declare(move.seat, move.meld, list(move.cards))
        elif kind == EXCHANGE:
            deal.exchange(move.seat, move.card)
        else:
            deal.go_out(move.seat)
        deal.events.clear()

    def copy(self) -> Position:
        """An independent position at the same point, with an empty undo stack."""
        return Position(self.deal.copy())

    def scores(self) -> list[int]:
        """The final scores by scorer of a position that is :attr:`over` (the end of the hand counted on a copy),
        or the running scores of one that is not."""
        if not self.over:
            return self.deal.scores()
        end = self.deal.copy()
        end.finish()
        return end.scores()
