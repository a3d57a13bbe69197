"""The endgame solver: the exact value of every card in the last tricks, searched on the core's rules.

The position is the core's :class:`~replayer.rules.endgame.Endgame` (every rule of play and every point is the
core's). Here is only the search:

- two scorers (two players, or two partnerships): alpha-beta on the difference of their points (the first scorer's
  minus the second's), with a transposition table of bounds at the start of each trick, the best move of a trick
  tried first, identical and equivalent cards merged by the position. Where every point still to come goes to
  somebody (no hand target, no declaration), each scorer's points follow from the difference and the points left;
  otherwise they are read off the best line;
- three scorers (three-handed, each for himself): max^n (each seat maximises its own points) with a table of exact
  values, no pruning.

A search counts its nodes against a budget; past it, :class:`OverBudget` (never a guess). Games of three or four
seats are solved double-dummy: all hands open, every side playing for its own points.
"""

from __future__ import annotations

from .cards import CARD_INDICES, rank_of
from .rules.deal import trick_winner
from .rules.endgame import Endgame, move_card

__all__ = ["DEFAULT_BUDGET", "OverBudget", "Solver"]

DEFAULT_BUDGET = 2_000_000
"""Nodes one solver may visit (over all its searches) before it gives up: ample for an 8+8 endgame, not for the
longest six- and eight-pack ones."""

_INF = 1 << 30


class OverBudget(Exception):
    """The search visited more nodes than its budget allows."""

    def __init__(self, budget: int) -> None:
        super().__init__(f"not solved within {budget:,} nodes")
        self.budget = budget


class Solver:
    """Searches endgame positions; keeps its tables between searches of the same deal (positions of one deal share
    most of their subtrees)."""

    def __init__(self, budget: int = DEFAULT_BUDGET) -> None:
        self.budget = budget
        self.nodes = 0
        self.table: dict[object, tuple[int, int, int]] = {}
        self.vectors: dict[object, tuple[tuple[int, ...], int]] = {}
        # The sort keys of the position searched last (see _sorted).
        self._keyed: Endgame | None = None
        self._lead: list[int] = []
        self._by_led: dict[int, list[int]] = {}

    # --- the public searches ------------------------------------------------------------------------------------

    def value(self, pos: Endgame) -> tuple[int, ...]:
        """The points each scorer takes from ``pos`` to the end of the deal with best play by all."""
        if pos.scorers == 2:
            diff = self._ab(pos, -_INF, _INF)
            if pos.constant_sum:
                left = pos.remaining()
                return ((left + diff) // 2, (left - diff) // 2)
            return self._walk(pos)
        return self._maxn(pos)

    def options(self, pos: Endgame) -> list[tuple[int, tuple[int, ...]]]:
        """Every legal move now (identical copies once), with the points each scorer takes from here, this move's
        trick included, if it is made and everyone plays best afterwards."""
        found = []
        for move in pos.legal():
            before = list(pos.gained)
            pos.make(move)
            gained = [g - b for g, b in zip(pos.gained, before, strict=True)]
            rest = self.value(pos)
            pos.unmake()
            found.append((move, tuple(g + r for g, r in zip(gained, rest, strict=True))))
        return found

    def best(self, pos: Endgame) -> list[int]:
        """The best moves now (every one that keeps the optimum for the seat to move)."""
        own = pos.scorer[pos.to_move]
        if pos.scorers == 2:
            sign = 1 if own == 0 else -1
            scores = [(move, sign * value) for move, value in self._differences(pos)]
        else:
            scores = [(move, points[own]) for move, points in self.options(pos)]
        top = max(s for _, s in scores)
        return [move for move, s in scores if s == top]

    def _differences(self, pos: Endgame) -> list[tuple[int, int]]:
        """Each legal move with the first scorer's points minus the second's from here, the move included."""
        found = []
        gained = pos.gained
        for move in pos.legal():
            before = gained[0] - gained[1]
            pos.make(move)
            step = gained[0] - gained[1] - before
            found.append((move, step + self._ab(pos, -_INF, _INF)))
            pos.unmake()
        return found

    def line(self, pos: Endgame) -> list[int]:
        """A best line from ``pos`` to the end of the deal (``pos`` is left as it was)."""
        moves = []
        while not pos.over:
            move = self.best(pos)[0]
            moves.append(move)
            pos.make(move)
        for _ in moves:
            pos.unmake()
        return moves

    # --- two scorers: alpha-beta --------------------------------------------------------------------------------

    def _ab(self, pos: Endgame, alpha: int, beta: int) -> int:
        """The first scorer's points minus the second's from ``pos`` on, exact inside (alpha, beta), a bound
        outside it (fail-soft)."""
        if pos.out >= 0:
            return 0  # (a declaration reached the hand's target: the hand ends before the lead the move names)
        plays = pos.plays
        boundary = not plays
        hint = -1
        key: object = None
        total = pos.total
        if total >= 0:
            # What is left bounds the difference: nothing to search when it cannot leave the window.
            gained = pos.gained
            left = total - gained[0] - gained[1]
            if left <= alpha:
                return left
            if -left >= beta:
                return -left
        if boundary:
            if pos.trick_no >= pos.total_tricks:
                return 0  # (over: every trick played; a hand target reached returned above)
            key = pos.key()
            entry = self.table.get(key)
            if entry is not None:
                low, high, hint = entry
                if low >= beta:
                    return low
                if high <= alpha:
                    return high
                if low == high:
                    return low
                alpha = max(alpha, low)
                beta = min(beta, high)
        self.nodes += 1
        if self.nodes > self.budget:
            raise OverBudget(self.budget)
        maximise = pos.scorer[pos.next_seat[plays[-1][0]] if plays else pos.leader] == 0
        moves = self._sorted(pos)
        if hint >= 0 and moves[0] != hint and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        gained = pos.gained
        best = -_INF if maximise else _INF
        best_move = moves[0]
        a, b = alpha, beta
        for move in moves:
            before = gained[0] - gained[1]
            pos.make(move)
            step = gained[0] - gained[1] - before
            value = step + self._ab(pos, a - step, b - step)
            pos.unmake()
            if maximise:
                if value > best:
                    best, best_move = value, move
                    if value > a:
                        a = value
                        if a >= b:
                            break
            else:
                if value < best:
                    best, best_move = value, move
                    if value < b:
                        b = value
                        if a >= b:
                            break
        if boundary:
            low, high = -_INF, _INF
            entry = self.table.get(key)
            if entry is not None:
                low, high = entry[0], entry[1]
            if best <= alpha:
                high = min(high, best)
            elif best >= beta:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high, best_move)
        return best

    def _ordered(self, pos: Endgame, hint: int) -> list[int]:
        """The moves to try, the likeliest best first: the table's move; a follower's winning cards, highest first,
        else his cheapest card; a leader's high cards."""
        moves = self._sorted(pos)
        if hint >= 0 and moves[0] != hint and hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        return moves

    def _sorted(self, pos: Endgame) -> list[int]:
        moves = pos.moves()
        if len(moves) < 2:
            return moves
        plays = pos.plays
        if len(plays) < 2:
            # The two orders below as one int a card, worked out once per rules and trumps: the sort asks the
            # table, not a function (a search sorts at most nodes).
            if pos is not self._keyed:
                self._keyed = pos
                self._lead, self._by_led = _orders(pos)
            if plays:
                led = plays[0][1]
                keys = self._by_led.get(led) or _follow_keys(pos, self._by_led, led)
                moves.sort(key=keys.__getitem__)
            elif pos.declarable:
                lead = self._lead
                moves.sort(key=lambda m: lead[move_card(m)])
            else:
                moves.sort(key=self._lead.__getitem__)
            return moves
        worth = pos.trick_points
        if pos.plays:
            cards = [c for _, c in pos.plays]
            trump = pos.trump

            def follow(move: int) -> tuple[int, int, int]:
                # A card that wins the trick so far first, the highest first (it keeps the trick); else the cheapest.
                card = move_card(move)
                if trick_winner([*cards, card], trump) == len(cards):
                    return (0, -rank_of(card), 0)
                return (1, worth[card], rank_of(card))

            moves.sort(key=follow)
        else:
            moves.sort(key=lambda m: -(rank_of(m) + 8 * worth[move_card(m)]))
        return moves

    def _walk(self, pos: Endgame) -> tuple[int, ...]:
        """Each scorer's points along a best line (where they do not follow from the difference)."""
        start = list(pos.gained)
        moves = self.line(pos)
        for move in moves:
            pos.make(move)
        points = tuple(g - s for g, s in zip(pos.gained, start, strict=True))
        for _ in moves:
            pos.unmake()
        return points

    # --- three scorers: max^n -----------------------------------------------------------------------------------

    def _maxn(self, pos: Endgame) -> tuple[int, ...]:
        """Each scorer's points from ``pos`` on, every seat maximising its own (first best move on a tie)."""
        if pos.out >= 0:
            return (0,) * pos.scorers
        boundary = not pos.plays
        key: object = None
        if boundary:
            if pos.over:
                return (0,) * pos.scorers
            key = pos.key()
            found = self.vectors.get(key)
            if found is not None:
                return found[0]
        self.nodes += 1
        if self.nodes > self.budget:
            raise OverBudget(self.budget)
        own = pos.scorer[pos.to_move]
        best: tuple[int, ...] | None = None
        best_move = -1
        gained = pos.gained
        for move in self._ordered(pos, -1):
            before = list(gained)
            pos.make(move)
            step = [g - b for g, b in zip(gained, before, strict=True)]
            rest = self._maxn(pos)
            pos.unmake()
            value = tuple(s + r for s, r in zip(step, rest, strict=True))
            if best is None or value[own] > best[own]:
                best, best_move = value, move
        assert best is not None
        if boundary:
            self.vectors[key] = (best, best_move)
        return best


_ORDERS: dict[tuple[int, int], tuple[object, list[int], dict[int, list[int]]]] = {}


def _orders(pos: Endgame) -> tuple[list[int], dict[int, list[int]]]:
    """:meth:`Solver._sorted`'s orders as sort keys per card, for the rules and trumps of ``pos``: a leader's (its
    high cards first), and per card led, a follower's as :func:`_follow_keys` fills them in. The same orders as the
    tuples there, one int a card; kept by the rules' identity, for every search."""
    kept = _ORDERS.get((id(pos.rules), pos.trump))
    if kept is None or kept[0] is not pos.rules:
        worth = pos.trick_points
        lead = [-(rank_of(c) + 8 * worth[c]) for c in range(CARD_INDICES)]
        kept = _ORDERS[(id(pos.rules), pos.trump)] = (pos.rules, lead, {})
    return kept[1], kept[2]


def _follow_keys(pos: Endgame, by_led: dict[int, list[int]], led: int) -> list[int]:
    """A follower's order after ``led`` as a key per card: a card that wins the trick first, the highest first (it
    keeps the trick); else the cheapest (its worth, then its rank). Kept in ``by_led``."""
    trump = pos.trump
    worth = pos.trick_points
    # (winners before every other card: their keys below any worth * 8 + rank)
    keys = by_led[led] = [
        -(1 << 20) - rank_of(c) if trick_winner([led, c], trump) == 1 else worth[c] * 8 + rank_of(c)
        for c in range(CARD_INDICES)
    ]
    return keys


def _diff(points: tuple[int, ...], own: int) -> int:
    """A two-scorer value from the side of scorer ``own``: his points minus the other's."""
    return points[own] - points[1 - own]
