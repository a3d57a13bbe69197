"""The last tricks as a lean position with make and unmake, for a search (replayer/solver.py).

Once the stock is empty every card is in a hand and the play is a game of perfect information. :class:`Endgame` is
that position, built from a :class:`~replayer.rules.deal.DealState` of the core and decided by the core's own rules: the
cards allowed are :func:`~replayer.rules.deal.obligation` under the profile's phase-2 play rule, the trick's winner
and what a trick scores are the core's functions that :meth:`DealState.play` and :meth:`DealState.finish` call:
:func:`~replayer.rules.deal.score_trick` (the winner, card points at the trick, a seven winning it, the last-trick
bonus, shared where the profile shares it), :func:`~replayer.rules.deal.seven_played_bonus` and
:func:`~replayer.rules.deal.end_worth` (the brisques and card points the end of the hand adds). A profile that
declares in the last tricks (sixty-six: a marriage shown on lead, whose king or queen must then be led) has the
declarations the core's ``DealState.legal_declarations`` offers, scored as ``DealState.declare`` scores them, and
a declaration rules out the others the core's re-use rule forbids after it; a profile with a hand target ends the
hand when a seat reaches it, as ``DealState._reach_target`` does.

Identical copies of a card are one move (the hands are counts), and so are cards of one suit that are equivalent
now: held by the same seat, worth the same, with every card ranked between them already played (partition-free
"touching cards" of bridge solvers). A profile whose trick points depend on the final scores (brisques counted only
on a tie or to reach the rubicon, RULES.md §2.e rule 13) is not covered: :class:`NotCovered` says why.
"""

from __future__ import annotations

from itertools import compress

from ..cards import CARD_INDICES, WILD_INDEX
from .compiled import FREE, Rules
from .deal import DealState, end_worth, last_trick_bonus, obligation, score_trick, seven_played_bonus

__all__ = ["Endgame", "NotCovered", "move_card", "move_offer"]

_SEVEN = 0

_CARDS = range(CARD_INDICES)

_TRICKS: dict[tuple[int, int], tuple[Rules, dict[object, tuple[int, int]]]] = {}
"""Per rules and trump suit, what each trick of the last tricks scores, as ``score_trick`` and ``end_worth`` say
(see :func:`_trick_table`)."""

_TRICKS_MAX = 200_000
"""How many tricks one table remembers (four seats' searches could meet many)."""


def _trick_table(rules: Rules, trump: int) -> dict[object, tuple[int, int]]:
    """The core's answer for each trick of the last tricks met so far under these rules and trumps, keyed by its
    cards in the order played (two seats: ``first * 64 + second``): the index of the winning card and the points
    its winner takes for it, the last-trick bonus apart (score_trick's points and trump seven, and what the end of
    the hand adds for the cards, end_worth's). Kept by the rules' identity (hashing them costs more than the work)
    and shared by every search: a playout's search meets the same few hundred tricks again and again."""
    kept = _TRICKS.get((id(rules), trump))
    if kept is None or kept[0] is not rules or len(kept[1]) > _TRICKS_MAX:
        kept = _TRICKS[(id(rules), trump)] = (rules, {})
    return kept[1]


def _window(deal: DealState, seat: int) -> DealState:
    """A trial copy of ``deal`` in which ``seat`` has just won a trick and may declare."""
    trial = deal.copy()
    trial.winner = seat
    trial.window_open = True
    trial.declared = []
    trial.declarer = -1
    trial.out = -1
    return trial


def move_card(move: int) -> int:
    """The card an endgame move plays (a declaration's move leads this card after it)."""
    return move & 63


def move_offer(move: int) -> int:
    """The index in ``Endgame.offers`` of the declaration a move makes before its card (-1: none)."""
    return (move >> 6) - 1


class NotCovered(Exception):
    """The position is not one the endgame covers; the message says why in one line."""


class Endgame:
    """A position of the last tricks (see the module docstring). Made by :meth:`of`; changed in place by
    :meth:`make` and :meth:`unmake`.

    A move is a card int, or, where the profile declares on lead in the last tricks, ``card | (offer + 1) << 6``:
    the offer's declaration, then that card led. ``gained`` holds each scorer's points since the position was made.
    """

    __slots__ = (
        "_allowed",
        "_bits",
        "_last",
        "_tricks",
        "_unit",
        "_worth",
        "base",
        "blocks",
        "code",
        "deal",
        "declarable",
        "declared",
        "end",
        "gained",
        "held",
        "last_trick",
        "leader",
        "must_lead",
        "next_seat",
        "offers",
        "out",
        "players",
        "playing",
        "plays",
        "rule",
        "rules",
        "scorer",
        "scorers",
        "seven",
        "seven_bonus",
        "shares",
        "stack",
        "target",
        "total",
        "total_tricks",
        "trick_no",
        "trick_points",
        "trump",
        "window",
    )

    @classmethod
    def of(cls, deal: DealState) -> Endgame:
        """The position of ``deal`` (not changed), which must be in its last tricks: the stock empty, no draw due.
        Raises :class:`NotCovered` with the reason otherwise."""
        return cls(deal)

    def __init__(self, deal: DealState) -> None:
        rules = deal.rules
        if deal.phase != 2:
            raise NotCovered(f"the stock still has {deal.stock_count} card(s): only the last tricks are solved")
        if rules.brisques_conditional:
            raise NotCovered(
                "the brisques count only on a tie or to reach the rubicon (RULES.md §2.e rule 13), "
                "so a trick's worth depends on the final scores"
            )
        self.deal = deal
        self.rules = rules
        self.players = rules.players
        # The seats that play this deal, in order: a dealer who sits the hand out (infuzorka for four, 004:L117)
        # is not one of them.
        self.next_seat = deal.next_seat
        self.playing = deal.playing
        self.scorers = len(rules.scorers)
        self.scorer = list(rules.scorer)
        self.trump = deal.trump
        self.rule = rules.phase2_play
        self.held = [list(h) for h in deal.held]
        self.leader = deal.leader
        self.plays = list(deal.plays)
        self.trick_no = deal.trick_no
        self.total_tricks = rules.total_tricks
        self.out = deal.out
        self.base = list(deal.score)
        self.target = rules.hand_target
        self.gained = [0] * self.scorers
        self.stack: list[
            tuple[tuple[int, int, int, bool, int, int, tuple[int, ...]], tuple[int, ...], list[tuple[int, int]] | None]
        ] = []
        # What a card won is worth: its points booked at the trick (score_trick's), and what the end of the hand
        # adds for it (end_worth's). The trick's own bonuses are asked of score_trick as each trick is won.
        at_trick = rules.values(self.trump) if rules.points_at_trick else [0] * CARD_INDICES
        self.end = end_worth(rules, self.trump)
        self.trick_points = [a + e for a, e in zip(at_trick, self.end, strict=True)]
        self.seven_bonus = [seven_played_bonus(rules, self.trump, c, 2) for c in range(CARD_INDICES)]
        self.last_trick = rules.last_trick
        self.shares: tuple[int, ...] = ()
        if rules.last_trick_halves:
            self.shares = tuple(side[0] for side in rules.sides)
        # A trump seven that scores when played, or when it wins the trick (for the search's card worth below).
        seven = self.trump * 8 + _SEVEN if self.trump >= 0 and 2 in rules.seven_played_phases else -1
        self.seven = seven if rules.seven_played else -1
        # What a card is worth to the search, for telling equivalent cards apart: its points, and a seven's bonus.
        self._worth = [
            self.trick_points[c] * 4 + (1 if c == self.seven else 0) + (2 if c == WILD_INDEX else 0)
            for c in range(CARD_INDICES)
        ]
        most = max(rules.copies)
        self._bits = 2 if most < 4 else 4
        # One card of a seat in the hands' code (``key``): its unit, per seat * CARD_INDICES + card.
        self._unit = [1 << (self._bits * i) for i in range(self.players * CARD_INDICES)]
        self.code = 0
        for seat in range(self.players):
            for card, n in enumerate(self.held[seat]):
                if n:
                    self.code += n * self._unit[seat * CARD_INDICES + card]
        self._tricks = _trick_table(rules, self.trump)
        self._last = [last_trick_bonus(rules, n) for n in range(self.total_tricks + 2)]
        self.must_lead = tuple(dict.fromkeys(deal.must_lead))
        self.offers: list[tuple[int, tuple[int, ...], int, str]] = []
        self.blocks: list[int] = []
        self.declarable = False
        self.window = False
        self.declared = 0
        if 2 in rules.declare_phases and not rules.declare_until_draw:
            self._find_offers(deal)
        self.total = self.remaining() if self.constant_sum else -1
        self._allowed: dict[tuple[tuple[int, ...], int, int], list[int]] = {}

    def _find_offers(self, deal: DealState) -> None:
        """The declarations each seat could make on lead with the cards it holds now, each with its points, asked of
        the core: a trial copy of the deal opens the seat's window and declares."""
        self.declarable = True
        after: list[DealState] = []
        for seat in range(self.players):
            trial = _window(deal, seat)
            for spec, cards in trial.legal_declarations(seat):
                scored = trial.copy()
                scored.declare(seat, spec.kind, list(cards))
                if scored.breaches:
                    continue
                points = sum(e[3] for e in scored.events if e[1] == spec.kind)
                self.offers.append((seat, tuple(cards), points, spec.kind))
                after.append(scored)
        # Which offers a declaration rules out: those its seat may no longer score once it has scored it (a card
        # used again against the profile's re-use rule), asked of the core in a later window.
        self.blocks = [0] * len(self.offers)
        for i, (seat, _, _, _) in enumerate(self.offers):
            for j, (other, cards, _, kind) in enumerate(self.offers):
                if j != i and other == seat:
                    again = _window(after[i], seat)
                    again.declare(seat, kind, list(cards))
                    if again.breaches:
                        self.blocks[i] |= 1 << j
        # The deal's own window: the last trick's winner, on lead, may still declare (until he leads).
        self.window = deal.window_open and deal.winner == deal.leader and not deal.plays and not deal.declared

    # --- what the position shows --------------------------------------------------------------------------------

    @property
    def over(self) -> bool:
        """Every trick has been played, or a seat has reached the hand's target."""
        return self.out >= 0 or (self.trick_no >= self.total_tricks and not self.plays)

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        plays = self.plays
        return self.next_seat[plays[-1][0]] if plays else self.leader

    def key(self) -> object:
        """The position at the start of a trick, for a transposition table: the hands and the leader (and, where
        they matter, the declarations made and the points gained toward a hand target)."""
        if not self.declarable and not self.target:
            return self.code * 4 + self.leader
        return (self.code, self.leader, self.declared, self.window, self.must_lead, tuple(self.gained))

    def legal(self) -> list[int]:
        """Every move allowed now, identical copies once (a card int, or a declaration with its lead)."""
        return self._legal(self.to_move)

    def _legal(self, seat: int) -> list[int]:
        held = self.held[seat]
        if self.plays:
            allowed = None
            if self.rule != FREE:
                played = tuple(c for _, c in self.plays)
                # What is allowed depends on the cards of the trick and on what the seat holds of the suit led and
                # of trumps only (the arguments ``obligation`` reads): each answer is kept under those.
                bits = self._bits
                hand = self.code >> (bits * seat * CARD_INDICES)
                mask = (1 << (8 * bits)) - 1
                trump = self.trump
                key = (
                    played,
                    (hand >> (8 * bits * (played[0] >> 3))) & mask if played[0] != WILD_INDEX else -1,
                    (hand >> (8 * bits * trump)) & mask if trump >= 0 else -1,
                )
                found = self._allowed.get(key)
                if found is None:
                    allowed, _ = obligation(self.rule, held, list(played), trump, False)
                    found = self._allowed[key] = sorted(allowed) if allowed is not None else []
                if found:
                    return list(found)
            return list(compress(_CARDS, held))
        cards = list(compress(_CARDS, held))
        if self.must_lead:
            forced = [c for c in cards if c in self.must_lead]
            if forced:
                cards = forced
        moves = list(cards)
        if self.window and not self.must_lead:
            for i, (owner, meld, _, _) in enumerate(self.offers):
                if owner == seat and not self.declared >> i & 1 and self._holds(seat, meld):
                    moves.extend(c | (i + 1) << 6 for c in dict.fromkeys(meld))
        return moves

    def _holds(self, seat: int, cards: tuple[int, ...]) -> bool:
        held = self.held[seat]
        need: dict[int, int] = {}
        for c in cards:
            need[c] = need.get(c, 0) + 1
        return all(held[c] >= n for c, n in need.items())

    def moves(self) -> list[int]:
        """The moves a search need try: :meth:`legal`, with cards equivalent now merged into the highest of them."""
        plays = self.plays
        seat = self.next_seat[plays[-1][0]] if plays else self.leader
        legal = self._legal(seat)
        if len(legal) < 2 or self.declarable:
            return legal
        held = self.held
        own = held[seat]
        # What the other seats hold of each card (one list with two players: no sum to make).
        elsewhere = held[1 - seat] if self.players == 2 else [sum(h[c] for h in held) - own[c] for c in range(33)]

        worth = self._worth
        in_trick = [c for _, c in self.plays]
        legal.sort(reverse=True)
        kept = [legal[0]]
        previous = legal[0]
        for card in legal[1:]:
            if previous >> 3 == card >> 3 and worth[previous] == worth[card] and card != WILD_INDEX:
                # Touching: no other seat holds a copy of these two cards or of one between them, none of them is
                # in the trick, and what this seat holds between them is worth the same: playing either is the same.
                for between in range(card, previous + 1):
                    if elsewhere[between] or between in in_trick:
                        break
                    if own[between] and worth[between] != worth[card]:
                        break
                else:
                    continue
            kept.append(card)
            previous = card
        return kept

    # --- make and unmake ----------------------------------------------------------------------------------------

    def make(self, move: int) -> None:
        """Play ``move`` for the seat to move (its declaration first, when it has one)."""
        plays = self.plays
        seat = self.next_seat[plays[-1][0]] if plays else self.leader
        card = move & 63
        gained = self.gained
        scored: tuple[int, ...] = ()
        frame = (seat, card, self.leader, self.window, self.declared, self.out, self.must_lead)
        if move >= 64:
            offer = (move >> 6) - 1
            points = self.offers[offer][2]
            self.declared |= 1 << offer
            self.declared |= self.blocks[offer]
            gained[self.scorer[seat]] += points
            scored = (self.scorer[seat], points)
            self._reach(seat)
        self.window = False
        self.must_lead = ()
        self.held[seat][card] -= 1
        self.code -= self._unit[seat * CARD_INDICES + card]
        plays.append((seat, card))
        bonus = self.seven_bonus[card]
        if bonus:
            gained[self.scorer[seat]] += bonus
            scored += (self.scorer[seat], bonus)
        if len(plays) < self.playing:
            self.stack.append((frame, scored, None))
            return
        self.trick_no += 1
        key: object = plays[0][1] * 64 + plays[1][1] if len(plays) == 2 else tuple(c for _, c in plays)
        known = self._tricks.get(key)
        if known is None:
            cards = [c for _, c in plays]
            best, points, seven, _ = score_trick(self.rules, self.trump, cards, self.trick_no, 2)
            points += seven
            for c in cards:
                points += self.end[c]
            known = self._tricks[key] = (best, points)
        best, points = known
        last = self._last[self.trick_no]
        winner = plays[best][0]
        scorer = self.scorer[winner]
        if last:
            if self.shares:
                share = last // len(self.shares)
                for first in self.shares:
                    gained[self.scorer[first]] += share
                    scored += (self.scorer[first], share)
            else:
                points += last
        gained[scorer] += points
        scored += (scorer, points)
        self.stack.append((frame, scored, plays))
        self.plays = []
        self.leader = winner
        self.window = self.declarable
        if self.target:
            self._reach(winner)

    def _reach(self, seat: int) -> None:
        if self.target and self.out < 0 and self.base[seat] + self.gained[self.scorer[seat]] >= self.target:
            self.out = seat

    def unmake(self) -> None:
        """Take back the last move."""
        frame, scored, trick = self.stack.pop()
        seat, card, self.leader, self.window, self.declared, self.out, self.must_lead = frame
        gained = self.gained
        for i in range(0, len(scored), 2):
            gained[scored[i]] -= scored[i + 1]
        if trick is not None:
            self.plays = trick
            self.trick_no -= 1
        self.plays.pop()
        self.held[seat][card] += 1
        self.code += self._unit[seat * CARD_INDICES + card]

    @property
    def left(self) -> int:
        """The points still to be taken (-1 where they are not known in advance: see :attr:`constant_sum`)."""
        return self.total - sum(self.gained) if self.total >= 0 else -1

    def remaining(self) -> int:
        """The points still to be taken by all scorers together when no hand target can end the hand early: the
        cards' points, a seven's bonus and the last-trick bonus still to come (the sum the scorers share)."""
        tp = self.trick_points
        total = sum(tp[c] * n for h in self.held for c, n in enumerate(h)) + sum(tp[c] for _, c in self.plays)
        if self.seven >= 0:
            total += self.rules.seven_played * sum(h[self.seven] for h in self.held)
        if self.trick_no < self.last_trick:
            total += self.rules.last_trick_points
        return total

    @property
    def constant_sum(self) -> bool:
        """Every point still to come goes to someone: no declarations, no hand target to end the hand early."""
        return not self.declarable and not self.target
