"""A deal's state on ints, and every rule of play: the one place where the rules are decided.

A :class:`DealState` is the state of one hand between actions: what each seat holds (a count per card, hand and table
together), the declared cards lying on each table, the stock, the trick in progress, the scores. Each action
(:meth:`DealState.play`, :meth:`DealState.draw`, :meth:`DealState.exchange`, :meth:`DealState.declare`, ...) changes it
in place and is carried out as far as it can be even when it breaks a rule, so that checking goes on after a problem:
every rule it breaks is appended to :attr:`DealState.breaches` as ``(code, key, args)``, which :mod:`replayer.explain`
puts into words. The automatic scores and the declarations an action scores are appended to :attr:`DealState.events` as
``(seat, kind, cards, points)``. Nothing here makes a Card, a Span or a sentence: that is for the layers above, and only
where something failed or a view asks for it.

Cards are ints (``suit * 8 + rank``, the wild card 32), seats their index in the profile's seats; trumps and the
turn-up are -1 while there are none (a profile without a turn-up, before a declaration fixes trumps).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterator, Sequence
from itertools import compress
from operator import gt

from ..cards import CARD_INDICES, WILD_INDEX
from ..profile import MeldSpec
from .compiled import COURT, FOLLOW_TRUMP, FOLLOW_WIN_OVERTRUMP, FOLLOW_WIN_TRUMP, FREE, Rules
from .game import brisques_counted
from .melds import (
    Assignment,
    Breach,
    TabledCard,
    choose_instances,
    extends_problem,
    identify,
    mark_scored,
    may_form_any,
    meld_targets,
    reuse_problem,
    table_signature,
    trumps_to_try,
)

__all__ = [
    "DealState",
    "Event",
    "brisque_worth",
    "declaration_points",
    "end_worth",
    "exchange_card",
    "exchange_points",
    "first_to_draw",
    "fixed_penalty",
    "last_trick_bonus",
    "last_trick_shares",
    "obligation",
    "score_trick",
    "seven_played_bonus",
    "trick_winner",
    "trick_worth",
    "winning_reason",
]

Event = tuple[int, str, tuple[int, ...], int]
"""Points scored: (seat, kind, cards, points), e.g. a declaration, a seven played, the last trick, brisques."""

_SEVEN = 0
"""The rank of a seven (``card & 7``)."""

_ALL_CARDS = range(CARD_INDICES)
"""Every card index, to pick the cards a count per card holds (``compress(_ALL_CARDS, counts)``)."""


def trick_winner(cards: Sequence[int], trump: int) -> int:
    """Index of the winning card among the cards of a trick in the order played: the highest trump, else the highest
    card of the suit led; of equal cards the first played wins.

    The wild card has no value of its own (RULES.md §2.l rule 10, option wild_trick): it wins no trick, and when it
    is led the next card played wins over it.
    """
    best = i = 0
    top = cards[0]
    for card in cards:  # (the first card is compared with itself: never higher; no range made for two cards)
        if card >> 3 == top >> 3:
            if card & 7 > top & 7:
                best, top = i, card
        elif card >> 3 == trump or top == WILD_INDEX:
            best, top = i, card
        i += 1  # noqa: SIM113 (enumerate's pairs cost more than the count, at every trick of a playout)
    return best


def winning_reason(cards: Sequence[int], trump: int) -> str:
    """Why :func:`trick_winner`'s card wins, as a key :mod:`replayer.explain` puts into words: ``wild`` (a wild card
    in the trick, which wins nothing), ``trump`` (a trump on a plain suit led), ``first_copy`` (of identical cards
    the first played), else ``suit_led`` (the highest card of the suit led)."""
    if WILD_INDEX in cards:
        return "wild"
    if trump >= 0 and cards[0] >> 3 != trump and any(c >> 3 == trump for c in cards):
        return "trump"
    if len(set(cards)) < len(cards):
        return "first_copy"
    return "suit_led"


def score_trick(rules: Rules, trump: int, cards: Sequence[int], trick_no: int, phase: int) -> tuple[int, int, int, int]:
    """What a trick scores as it is won, the one rule for it: ``cards`` in the order played, ``trick_no`` its number
    (from 1), ``phase`` 1 while the stock lasts. Returns (the index of the winning card, the card points booked at
    the trick, the bonus of a trump seven that wins it, the last-trick bonus); the last-trick bonus goes to the
    winner, or is shared out between the sides where ``last_trick_halves`` says so (the caller books the shares).
    Brisques and the card points counted at the end of the hand are :func:`end_worth`'s."""
    best = trick_winner(cards, trump)
    points = 0
    if rules.points_at_trick:  # (most games book no card points at the trick: no table to ask)
        worth = trick_worth(rules, trump)
        for card in cards:
            points += worth[card]
    seven = 0
    if (
        rules.seven_played
        and rules.seven_played_must_win
        and trump >= 0
        and cards[best] == trump * 8 + _SEVEN
        and phase in rules.seven_played_phases
    ):
        seven = rules.seven_played
    return best, points, seven, last_trick_bonus(rules, trick_no)


_NO_WORTH = (0,) * CARD_INDICES


def trick_worth(rules: Rules, trump: int) -> Sequence[int]:
    """What each card adds to the score of the seat that wins it, booked as the trick is won: its card points where
    the profile counts them at the trick (``points_at_trick``), else nothing. What the end of the hand adds for it is
    :func:`end_worth`'s."""
    return rules.values(trump) if rules.points_at_trick else _NO_WORTH


def last_trick_bonus(rules: Rules, trick_no: int) -> int:
    """The bonus for winning trick ``trick_no`` (from 1): the last-trick points when it is the trick that scores them
    (the last of the hand, or of the stock where the profile says), else 0."""
    return rules.last_trick_points if trick_no == rules.last_trick else 0


def last_trick_shares(rules: Rules, points: int, winner: int) -> list[tuple[int, int]]:
    """Who books a last-trick bonus of ``points`` that ``winner`` won, as (seat, points): the winner, or, where
    ``last_trick_halves`` says so, the first seat of each side its share (one reading of 001:L50, 004:L357)."""
    if not points:
        return []
    if rules.last_trick_halves:
        share = points // len(rules.sides)
        return [(side[0], share) for side in rules.sides]
    return [(winner, points)]


def seven_played_bonus(rules: Rules, trump: int, card: int, phase: int) -> int:
    """What playing ``card`` scores at once where the trump seven scores when played, won or not (RULES.md §2.b
    rule 14b); a seven that must win the trick to score is :func:`score_trick`'s."""
    if (
        rules.seven_played
        and not rules.seven_played_must_win
        and trump >= 0
        and card == trump * 8 + _SEVEN
        and phase in rules.seven_played_phases
    ):
        return rules.seven_played
    return 0


def end_worth(rules: Rules, trump: int) -> list[int]:
    """What each card won in a trick adds to its winner's score at the end of the hand: its brisque, and its card
    points where they are counted then (``points_at_end``). Whether the brisques count at all is
    :func:`~replayer.rules.game.brisques_counted`'s."""
    worth = brisque_worth(rules)
    if rules.points_at_end:
        values = rules.values(trump)
        worth = [w + v for w, v in zip(worth, values, strict=True)]
    return worth


def brisque_worth(rules: Rules) -> list[int]:
    """What each card won adds at the end of the hand as a brisque (the profile's brisque points, or nothing); whether
    the brisques count at all is :func:`~replayer.rules.game.brisques_counted`'s."""
    return [rules.brisque_points if b else 0 for b in rules.brisque]


def exchange_card(rules: Rules, trump: int) -> int:
    """The card exchanged for the turn-up under trumps ``trump``: the trump seven, or the rank ``seven.rank`` names
    (the ten in 003); -1 while no suit is trumps."""
    return trump * 8 + rules.exchange_rank if trump >= 0 else -1


def exchange_points(rules: Rules, shows: bool) -> int:
    """What the exchange statement scores: the exchange of the trump seven for the turn-up, or, where the turn-up is
    itself that seven (``shows``), the other seven shown (``seven.second``)."""
    return rules.seven_second if shows else rules.seven_exchange


def declaration_points(
    rules: Rules, spec: MeldSpec, declared: Counter[str], fixes_trumps: bool = False
) -> tuple[str, int, int]:
    """What a declaration of ``spec`` scores, the one rule for it, given ``declared`` (how many declarations the seat
    has scored in this hand, by the kind whose progression they count in): (that kind for this one, its place in the
    progression from 1, its points). A kind declared again may score more (004-C's progressions, RULES.md §2.l rule
    9; a kind may share another's progression, 004:L155); the declaration that fixes trumps (``fixes_trumps``)
    scores what the profile gives it (RULES.md §2.e rule 4, §2.j rule 3)."""
    counted = spec.counts_as or spec.kind
    nth = declared[counted] + 1
    points = rules.fixing[spec.kind] if fixes_trumps else spec.points_for(nth, rules.repeat_rule)
    return counted, nth, points


def first_to_draw(rules: Rules, winner: int, leader: int) -> int:
    """Who draws first after a trick of the first phase: its winner, or, where the profile says, the seat that led
    it; the others draw after him in playing order."""
    return winner if rules.winner_draws_first else leader


def fixed_penalty(rules: Rules, kind: str) -> int | None:
    """What penalty ``kind`` of the profile's table deducts when that does not depend on the score (``unscored``
    deducts nothing: it cancels the combinations shown but not scored); None for one that takes all the points, or
    for a kind the table lacks."""
    amount = rules.penalties.get(kind)
    if amount is None or amount == "all":
        return None
    return 0 if amount == "unscored" else int(amount)


def _by_display(cards: Iterator[int] | Sequence[int] | set[int]) -> tuple[int, ...]:
    """Cards in display order: spades, hearts, diamonds, clubs; high ranks first (``Card.sort_key``)."""
    return tuple(sorted(cards, key=lambda c: (c >> 3, -(c & 7))))


def obligation(
    rule: int, held: Sequence[int], played: Sequence[int], trump: int, explain: bool = True
) -> tuple[set[int] | None, Breach]:
    """What a seat holding ``held`` (a count per card) may play to a trick whose cards so far are ``played``, under
    a phase's play rule (RULES.md §2.a rule 18): the cards allowed (None: any), and the rule that obliges him.

    The breach's args are completed by the caller with the seat and the card played; with ``explain`` False (a
    search, which needs only the cards allowed) the breach's cards are left out.
    """
    lead = played[0]
    if rule == FREE or lead == WILD_INDEX:
        return None, ("", "", ())  # (a wild card led has no suit to follow: any card)
    led = lead >> 3
    top = played[trick_winner(played, trump)]
    base = led * 8
    same = list(compress(range(base, base + 8), held[base : base + 8]))  # (the suit's cards held, low ranks first)
    wins = rule in (FOLLOW_WIN_TRUMP, FOLLOW_WIN_OVERTRUMP)
    if same:
        if wins and top >> 3 == led:
            higher = {c for c in same if c > top}
            if higher:
                return higher, ("BZ204", "must_win", (max(higher), top))
        # (one suit: high ranks first)
        return set(same), ("BZ203", "must_follow", (tuple(same[::-1]), led) if explain else ())
    if rule in (FOLLOW_WIN_TRUMP, FOLLOW_WIN_OVERTRUMP, FOLLOW_TRUMP) and trump >= 0:
        base = trump * 8
        trumps = list(compress(range(base, base + 8), held[base : base + 8]))
        if trumps:
            if wins and top >> 3 == trump:
                # Only with three or more cards to a trick can an earlier player have trumped. The rule to win
                # obliges an over-trump; "follow suit, else trump" does not (001:L7, issue 25 item 11).
                over = {c for c in trumps if c > top}
                if over:
                    return over, ("BZ204", "must_win", (max(over), top))
                if rule == FOLLOW_WIN_OVERTRUMP:
                    # The third hand "unable to follow or win by trumping" may discard anything (RULES.md §2.f
                    # rule 7, [BR9]); under FOLLOW_WIN_TRUMP he still trumps (§2.g.1 rule 7, issue 25 item 17).
                    return None, ("", "", ())
            return set(trumps), ("BZ205", "must_trump", (led, tuple(trumps[::-1])) if explain else ())
    return None, ("", "", ())


class DealState:
    """The state of one deal between actions (see the module docstring). Made by :meth:`start`."""

    __slots__ = (
        "blanche",
        "blanche_card",
        "breaches",
        "claimed",
        "dealer",
        "dealt",
        "declared",
        "declared_kinds",
        "declarer",
        "events",
        "exchanged",
        "forfeit_trick",
        "forfeited",
        "forfeits",
        "gained",
        "held",
        "last_gain",
        "last_trick",
        "leader",
        "must_lead",
        "next_seat",
        "next_uid",
        "order",
        "out",
        "out_stated",
        "pending",
        "playing",
        "plays",
        "revokes",
        "rules",
        "score",
        "seen",
        "shown_by",
        "side_blanche",
        "stock",
        "stock_left",
        "tables",
        "to_draw",
        "trick_no",
        "tricks_won",
        "trump",
        "turnup",
        "turnup_waiting",
        "window_open",
        "winner",
        "won",
        "world_base",
        "world_log",
    )

    rules: Rules
    dealer: int
    trump: int
    turnup: int
    turnup_waiting: bool
    """The turn-up still lies beside the stock."""
    stock: list[int] | None
    """The face-down stock, top first, when the record gives its order; None when only draws tell it."""
    stock_left: int
    """Face-down cards left (the turn-up is not counted)."""
    seen: list[int]
    """Cards dealt, drawn or turned up so far, a count per card (card conservation)."""
    dealt: tuple[tuple[int, ...], ...]
    """Per seat, the cards dealt, in the order the record gives them."""
    held: list[list[int]]
    """Per seat, a count per card held: the concealed hand and the declared cards on the table together."""
    tables: list[list[TabledCard]]
    """Per seat, the declared cards lying face up (still part of the hand)."""
    pending: list[list[tuple[str, tuple[int, ...]]]]
    """Per seat, combinations shown but not yet scored: (kind, tabled uids)."""
    won: list[list[int]]
    score: list[int]
    """Per seat (a side's score is the sum of its seats')."""
    tricks_won: list[int]
    declared_kinds: list[Counter[str]]
    """Per seat, how many times each kind has been scored in this hand (repeats score more in 004-C)."""
    blanche: list[int]
    """Carte blanche per seat: 0 not declared, 1 declared (a non-court card drawn may be shown for another), 2
    ended by a court card drawn (RULES.md §2.e rule 9)."""
    blanche_card: list[int]
    """Per seat, the non-court card just drawn that may be shown for another carte blanche (-1: none)."""
    side_blanche: tuple[int, ...]
    """The sides (scorers) that have scored a double carte blanche."""
    leader: int
    trick_no: int
    """Tricks completed."""
    plays: list[tuple[int, int]]
    """The trick in progress: (seat, card) in the order played."""
    winner: int
    """The winner of the last completed trick, while he may still act on it (-1: nobody)."""
    window_open: bool
    """The last trick's winner may still exchange or declare."""
    declared: list[tuple[int, ...]]
    """The declarations scored after the current trick."""
    to_draw: list[int]
    """Seats that still draw after the last trick, in order."""
    next_uid: int
    world_base: tuple[tuple[_World, ...], int] | None
    """Which of several identical copies a play took, or a declaration used, is not written, and a record is legal
    when some choice of copies makes it legal (docs/notation.md, issue 25 item 12). ``tables`` and ``pending`` are the
    choice kept first; the others are worked out only when a declaration breaks a rule under it (:meth:`_worlds`),
    from ``world_base``, the choices as they stood when a second became possible (the first first) and the uid to
    number from, and ``world_log``, what has touched the tables since. None while one choice is all there is."""
    world_log: list[_WorldStep]
    """Since ``world_base``: each card taken and each combination laid out, with what it read (see :meth:`_worlds`)."""
    exchanged: bool
    shown_by: list[int]
    """Per seat, the trump sevens that could not be exchanged and that it has shown and scored (profiles with
    ``seven.second``; each copy it holds is shown once)."""
    out: int
    """The seat whose score reached the profile's ``hand_target``: the hand ended there (-1: none)."""
    out_stated: bool
    """The record has said so (``N goes out``)."""
    must_lead: tuple[int, ...]
    """The cards of a declaration one of which its declarer must lead next (``declare.lead_from``)."""
    declarer: int
    """Who may declare after the last trick when its winner has let his partner declare (-1: the winner)."""
    next_seat: Sequence[int]
    """Who plays after each seat in this deal (the dealer left out where he sits out, 004:L117)."""
    order: Sequence[Sequence[int]]
    """The seats that play this deal, in playing order from each seat."""
    playing: int
    """How many seats play this deal."""
    gained: tuple[int, int, int]
    """(seat, card, trick): the card an exchange gained from the turn-up, who gained it, and the trick after which
    (-1, -1, -1: none). Where the profile says so it may not be declared after that same trick ([EW] iii)."""
    forfeits: list[int]
    """The seats that have said they forfeit what an illegal play of the current trick won (002:L13): their
    obligations broken in it are the forfeit's to settle, not breaches."""
    forfeit_trick: int
    """The trick whose plays ``forfeits`` concerns (its number)."""
    revokes: list[tuple[int, Breach]]
    """The obligations broken in that trick by a seat that forfeits (seat, breach)."""
    forfeited: list[list[int]]
    """Per seat, the cards of won tricks whose points it has forfeited (not counted at the end of the hand)."""
    last_trick: tuple[int, ...]
    """The cards of the last completed trick, in the order played (what its winner is checked against)."""
    last_gain: tuple[int, int]
    """(winner, points): what the last completed trick scored its winner as it was won (card points, the last
    trick, a seven winning it)."""
    claimed: int
    """The seat that has rightly claimed the game, which ends the hand (-1: none)."""
    breaches: list[Breach]
    """The rules broken so far (the caller takes them away as it reports them)."""
    events: list[Event]
    """The points scored so far (the caller takes them away as it reads them)."""

    @classmethod
    def start(
        cls,
        rules: Rules,
        dealer: int,
        trump: int,
        turnup: int,
        hands: Sequence[Sequence[int]],
        stock: Sequence[int] | None = None,
        leader: int | None = None,
        hand_size: int | None = None,
    ) -> DealState:
        """The state after the deal: hands dealt (one list of cards per seat, in seat order), the turn-up showing,
        and the dealer's points for a trump seven turned up. The deal's own faults (a turn-up that contradicts the
        trumps, wrong hand sizes, more copies of a card than the packs hold) are its first breaches. ``hand_size``:
        the cards each hand holds, when not the profile's deal (a fragment's position, :meth:`resume`)."""
        deal = cls.__new__(cls)
        breaches: list[Breach] = []
        deal.breaches = breaches
        deal.events = []
        deal.rules = rules
        profile = rules.profile
        if turnup >= 0 and trump < 0 and turnup != WILD_INDEX:
            trump = turnup >> 3
        if trump >= 0 and rules.fixing and hand_size is None:
            # RULES.md §2.e rule 4, §2.j rule 2: no trumps at the deal; a declaration fixes them (a fragment's
            # position may state the trumps a declaration before it fixed).
            breaches.append(("BZ107", "no_trumps_at_deal", ()))
            trump = -1
        if turnup == WILD_INDEX:
            breaches.append(("BZ107", "wild_turnup", ()))
        elif turnup >= 0 and turnup >> 3 != trump:
            breaches.append(("BZ107", "turnup_not_trumps", (turnup, trump)))
        players = rules.players
        held = [[0] * CARD_INDICES for _ in range(players)]
        seen = [0] * CARD_INDICES
        sitter = dealer if rules.dealer_sits_out else -1
        for seat in range(players):
            cards = hands[seat]
            if seat == sitter:
                if cards:
                    breaches.append(("BZ108", "sits_out", (seat, len(cards))))
            elif hand_size is None:
                if len(cards) != rules.hand_size:
                    breaches.append(("BZ108", "hand_size", (seat, len(cards))))
            elif len(cards) != hand_size:
                breaches.append(("BZ112", "position_hand", (seat, len(cards), hand_size)))
            counts = held[seat]
            for card in cards:
                counts[card] += 1
                seen[card] += 1
        if turnup >= 0:
            seen[turnup] += 1
        if stock is not None:
            for card in stock:
                seen[card] += 1
            if len(stock) != rules.face_down:
                breaches.append(("BZ108", "stock_size", (len(stock),)))
        deal._conservation(seen, _ALL_CARDS)
        deal.dealer = dealer
        deal.trump = trump
        deal.turnup = turnup
        deal.turnup_waiting = turnup >= 0
        deal.stock = list(stock) if stock is not None else None
        deal.stock_left = rules.face_down
        deal.seen = seen
        deal.held = held
        deal.dealt = tuple(tuple(cards) for cards in hands)
        deal.tables = [[] for _ in range(players)]
        deal.pending = [[] for _ in range(players)]
        deal.world_base = None
        deal.world_log = []
        deal.won = [[] for _ in range(players)]
        deal.score = [0] * players
        deal.tricks_won = [0] * players
        deal.declared_kinds = [Counter() for _ in range(players)]
        deal.blanche = [0] * players
        deal.blanche_card = [-1] * players
        deal.side_blanche = ()
        if sitter >= 0:
            active = [seat for seat in range(players) if seat != sitter]
            deal.next_seat = [
                active[(active.index(s) + 1) % len(active)] if s != sitter else -1 for s in range(players)
            ]
            deal.order = [
                [active[(active.index(s) + k) % len(active)] for k in range(len(active))] if s != sitter else []
                for s in range(players)
            ]
            deal.playing = len(active)
        else:
            deal.next_seat = rules.next_seat
            deal.order = rules.order
            deal.playing = players
        deal.gained = (-1, -1, -1)
        deal.forfeits = []
        deal.forfeit_trick = -1
        deal.revokes = []
        deal.forfeited = [[] for _ in range(players)]
        deal.last_gain = (-1, 0)
        deal.last_trick = ()
        deal.claimed = -1
        deal.leader = leader if leader is not None else (dealer + rules.first_leader_step) % players
        deal.trick_no = 0
        deal.plays = []
        deal.winner = -1
        deal.window_open = False
        deal.declared = []
        deal.to_draw = []
        deal.next_uid = 0
        deal.exchanged = False
        deal.shown_by = [0] * players
        deal.out = -1
        deal.out_stated = False
        deal.must_lead = ()
        deal.declarer = -1
        if turnup >= 0 and profile.seven_turnup and turnup == trump * 8 + _SEVEN:
            deal._score(dealer, "turnup_seven", (turnup,), profile.seven_turnup)
        return deal

    @staticmethod
    def position_hand_size(rules: Rules, trick: int) -> int:
        """The cards a hand holds (concealed and on the table) before trick ``trick`` (from 1) of a whole deal: the
        deal's hand while the stock lasts, then one fewer a trick."""
        return min(rules.hand_size, rules.total_tricks - (trick - 1))

    @staticmethod
    def position_stock(rules: Rules, trick: int) -> int:
        """The cards left to draw (the turn-up included) before trick ``trick`` (from 1) of a whole deal."""
        start = rules.face_down + (1 if rules.profile.turnup else 0)
        return max(0, start - rules.players * (trick - 1))

    def resume(
        self,
        trick: int,
        stock: int | None,
        scores: Sequence[tuple[int, int]],
        tables: Sequence[tuple[int, str, Sequence[int]]],
        listed: Sequence[int] | None = None,
    ) -> None:
        """Move a state just made by :meth:`start` (with the position's hands, its table cards among them, and
        ``hand_size`` :meth:`position_hand_size`) to a book fragment's position before trick ``trick`` (from 1):
        the cards left to draw (checked against the trick when stated), the running scores (scorer, points), and the
        melds lying on the tables, declared before the position (seat, kind, cards), which the re-use rules then
        know; ``listed``: the face-down cards left, top first, when the record lists them (``stock:``). The dealer's
        turn-up seven is not scored again: the stated scores hold it."""
        rules = self.rules
        breaches = self.breaches
        self.events.clear()
        self.score = [0] * rules.players
        self.trick_no = trick - 1
        left = self.position_stock(rules, trick)
        if stock is not None and stock != left:
            breaches.append(("BZ112", "position_stock", (stock, trick, left)))
        if left == 0 or not self.turnup_waiting:
            self.stock_left = left
        else:
            self.stock_left = left - 1
        if left == 0:
            self.turnup_waiting = False
        self.stock = None
        if listed is not None:
            if len(listed) != self.stock_left:
                breaches.append(("BZ112", "position_listed", (len(listed), trick, self.stock_left)))
            self.stock = list(listed)
            for card in listed:
                self.seen[card] += 1
            self._conservation(self.seen, sorted(set(listed)))
        for scorer, points in scores:
            self.score[rules.scorer.index(scorer)] += points  # (a side's score is its seats' sum)
        for seat, kind, cards in tables:
            spec = rules.meld_by_kind.get(kind)
            if spec is None:
                breaches.append(("BZ109", "no_such_meld", (kind,)))
                continue
            spec, problem = self._resolve_kind(cards, kind)
            if problem is not None or spec is None:
                breaches.append(problem or ("BZ109", "no_such_meld", (kind,)))
                continue
            options = choose_instances(cards, self.hand(seat), self.tables[seat])
            if not options:
                continue  # (the table's cards are the hand's: start() has them)
            uids = self._lay_out(seat, options[0])
            mark_scored(self.tables[seat], uids, spec, self.trick_no - 1)
            self.declared_kinds[seat][spec.kind] += 1

    def copy(self) -> DealState:
        """An independent copy (the rules are shared; breaches and events start empty)."""
        other = DealState.__new__(DealState)
        for name in _SHARED_SLOTS:
            setattr(other, name, getattr(self, name))
        other.breaches = []
        other.events = []
        other.stock = list(self.stock) if self.stock is not None else None
        other.seen = list(self.seen)
        other.held = [list(h) for h in self.held]
        other.tables = [[t.copy() for t in table] for table in self.tables]
        other.pending = [list(p) for p in self.pending]
        other.world_log = list(self.world_log)  # (world_base is never changed: it is shared)
        other.won = [list(w) for w in self.won]
        other.score = list(self.score)
        other.tricks_won = list(self.tricks_won)
        other.declared_kinds = [Counter(k) for k in self.declared_kinds]
        other.blanche = list(self.blanche)
        other.shown_by = list(self.shown_by)
        other.blanche_card = list(self.blanche_card)
        other.plays = list(self.plays)
        other.declared = list(self.declared)
        other.to_draw = list(self.to_draw)
        other.forfeits = list(self.forfeits)
        other.revokes = list(self.revokes)
        other.forfeited = [list(f) for f in self.forfeited]
        return other

    # --- what the state shows ---------------------------------------------------------------------------------

    @property
    def phase(self) -> int:
        """1 while the stock (with the turn-up) has cards or draws are due, else 2."""
        return self.phase_now()

    def phase_now(self) -> int:
        """:attr:`phase`, as a call: cheaper than the property where a playout asks it (before a follow, a
        declaration)."""
        return 1 if (self.stock_left > 0 or self.turnup_waiting or self.to_draw) else 2

    @property
    def turnup_in_stock(self) -> bool:
        """The turn-up has not been drawn yet."""
        return self.turnup >= 0 and self.turnup_waiting

    @property
    def stock_count(self) -> int:
        """Cards left to draw, the turn-up included."""
        return self.stock_left + (1 if self.turnup >= 0 and self.turnup_waiting else 0)

    def next_card(self) -> int:
        """The card the next draw takes from a stock whose order is known: its top card, then the turn-up (-1: none
        left, or the order is not known). A call, not a property: a playout asks before every draw, and a property
        costs more."""
        if self.stock_left > 0:
            return self.stock[0] if self.stock else -1
        return self.turnup if self.turnup_waiting else -1

    @property
    def finished(self) -> bool:
        """Every trick of the hand has been played, or a seat has reached the hand's target."""
        return (self.trick_no >= self.rules.total_tricks or self.out >= 0 or self.claimed >= 0) and not self.plays

    def scores(self) -> list[int]:
        """The running scores by scorer: each seat, or each side where partners keep a joint score."""
        rules = self.rules
        if not rules.has_sides:
            return list(self.score)
        totals = [0] * len(rules.scorers)
        for seat, points in enumerate(self.score):
            totals[rules.scorer[seat]] += points
        return totals

    @property
    def sevens_shown(self) -> int:
        """The trump sevens shown and scored (not exchanged) so far, by every seat."""
        return sum(self.shown_by)

    def hand(self, seat: int) -> list[int]:
        """The seat's concealed cards, a count per card (what it holds but has not laid on the table)."""
        counts = list(self.held[seat])
        for t in self.tables[seat]:
            counts[t.card] -= 1
        return counts

    # --- helpers ----------------------------------------------------------------------------------------------

    def _score(self, seat: int, kind: str, cards: tuple[int, ...], points: int) -> None:
        self.score[seat] += points
        self.events.append((seat, kind, cards, points))

    def _conservation(self, seen: Sequence[int], cards: Iterator[int] | range | Sequence[int]) -> None:
        copies = self.rules.copies
        if cards is _ALL_CARDS and not any(map(gt, seen, copies)):
            return  # (every deal asks about every card: mostly none is over, answered in C)
        for card in cards:
            n = seen[card]
            if n and n > copies[card]:
                if not copies[card]:
                    self.breaches.append(("BZ404", "not_in_pack", (card,)))
                else:
                    self.breaches.append(("BZ404", "too_many_copies", (card, n, copies[card])))

    def _take(self, seat: int, card: int) -> None:
        """A held card leaves the seat: from the table first (the instance scored in most kinds), else the hand.

        Where another copy could have left instead (a tabled copy with another history, or one from the hand), that
        choice is possible too (:attr:`world_base`), for the declarations still to come."""
        held = self.held[seat]
        held[card] -= 1
        table = self.tables[seat]
        if self.world_base is None:
            if not table:
                return
            copies = [t for t in table if t.card == card]
            if not copies:
                return
            if len(copies) == 1 and not held[card]:
                _remove((self.tables, self.pending), seat, copies[0])  # (the one copy there is: no choice)
                return
            self.world_base = ((_copy_world(self.tables, self.pending),), self.next_uid)
        self.world_log.append(("take", seat, card, held[card]))
        chosen = _taken_first(table, card)  # (the choice kept first: the others are _take_in's, when asked)
        if chosen is not None:
            _remove((self.tables, self.pending), seat, chosen)

    def _reach_target(self, seat: int) -> None:
        """A seat whose score reaches ``hand_target`` ends the hand at once: no more draws, declarations or tricks."""
        target = self.rules.hand_target
        if target and self.out < 0 and self.score[seat] >= target:
            self.out = seat
            self.to_draw = []
            self.window_open = False

    def _is_exchange_card(self, card: int) -> bool:
        """The trump card exchanged for the turn-up: the seven, or what ``seven.rank`` names (the ten in 003)."""
        return self.trump >= 0 and card == exchange_card(self.rules, self.trump)

    # --- tricks -----------------------------------------------------------------------------------------------

    def play(self, seat: int, card: int, checked: bool = False) -> None:
        """Play a card to the current trick; completing a trick decides its winner and its automatic scores.

        ``checked``: the card is one of the legal moves just asked (a playout's, as python-chess's ``push`` trusts
        its move: the seat to play, a card held that the obligation and a lead's restriction allow, the hand not
        over), so no rule of play is looked at again; a record's play is always checked."""
        rules = self.rules
        if self.to_draw:
            self.close_draws()
        self.window_open = False
        self.winner = -1
        self.blanche_card[seat] = -1
        plays = self.plays
        held = self.held[seat]
        phase = 1 if (self.stock_left > 0 or self.turnup_waiting) else 2  # (no draws are due: see above)
        if not checked:  # (the rules of play, before the card leaves the hand)
            breaches = self.breaches
            expected = self.next_seat[plays[-1][0]] if plays else self.leader
            if seat != expected:
                breaches.append(("BZ202", "plays_next" if plays else "leads", (expected, self.trick_no + 1, seat)))
            if self.trick_no >= rules.total_tricks:
                breaches.append(("BZ207", "no_more_tricks", (rules.total_tricks,)))
            elif self.out >= 0:
                breaches.append(("BZ208", "hand_over", (self.out, rules.hand_target, self.trick_no)))
            elif self.claimed >= 0:
                breaches.append(("BZ208", "hand_over_claimed", (self.claimed, self.trick_no)))
            if self.must_lead and not plays and seat == self.leader and card not in self.must_lead:
                breaches.append(("BZ209", "must_lead", (seat, tuple(dict.fromkeys(self.must_lead)))))
            if not held[card]:
                holding = _by_display([c for c, count in enumerate(held) for _ in range(count)])
                breaches.append(("BZ201", "not_held", (seat, card, holding)))
            elif plays:
                rule = rules.phase2_play if phase == 2 else rules.phase1_play
                if rule != FREE:  # (under the free rule any card held may follow)
                    self._check_obligation(seat, card, rule)
        if self.must_lead and not plays:
            self.must_lead = ()
        if held[card]:
            if self.world_base is None and not self.tables[seat]:
                held[card] -= 1  # (what _take does when nothing lies on the table: no copy to choose)
            else:
                self._take(seat, card)
        plays.append((seat, card))
        if rules.seven_played and card & 7 == _SEVEN:  # (only a seven scores when played: not asked at every card)
            bonus = seven_played_bonus(rules, self.trump, card, phase)
            if bonus:
                self._score(seat, "seven_played", (card,), bonus)
        if len(plays) == self.playing:
            self._finish_trick(phase)

    def _check_obligation(self, seat: int, card: int, rule: int) -> None:
        """A card held that follows to the current trick against the phase's play ``rule``: the breach appended to
        :attr:`breaches` (to :attr:`revokes` where the seat forfeits the trick)."""
        held = self.held[seat]
        plays = self.plays
        played = [c for _, c in plays]
        allowed, _ = obligation(rule, held, played, self.trump, False)
        if allowed is None or card in allowed:
            return
        # (the breach's words are worked out only for a card the rule refuses)
        _, (code, key, args) = obligation(rule, held, played, self.trump)
        led = plays[0][1] >> 3
        if code == "BZ204" and card >> 3 != led and any(held[led * 8 : led * 8 + 8]):
            # Not following suit at all is the first fault (a revoke), even when a winning card of the suit is held.
            same = [led * 8 + r for r in range(7, -1, -1) if held[led * 8 + r]]
            code, key, args = "BZ203", "must_follow", (tuple(same), led)
        if seat in self.forfeits and self.forfeit_trick == self.trick_no + 1 and self.rules.forfeit:
            # The seat says it forfeits what this play won (002:L13): settled by the forfeit, not a breach.
            self.revokes.append((seat, (code, key, (seat, card, *args))))
        else:
            self.breaches.append((code, key, (seat, card, *args)))

    def close_draws(self) -> None:
        """The next trick starts: draws still due after the last one are a breach, and are not made (the seats
        play on with the cards they hold). Asked by :meth:`play`, and by a replay before a trick's first play."""
        if self.to_draw:
            self.breaches.append(("BZ402", "draws_due", (self.trick_no, tuple(self.to_draw), self.stock_count)))
            self.to_draw = []

    def check_winner(self, stated: str) -> None:
        """The record names ``stated`` as the winner of the trick just completed: a breach when the rules give it to
        another seat."""
        winner, cards = self.winner, self.last_trick
        if winner < 0 or not cards or stated == self.rules.seats[winner]:
            return
        best = trick_winner(cards, self.trump)
        reason = winning_reason(cards, self.trump)
        self.breaches.append(("BZ206", "wrong_winner", (winner, self.trick_no, cards[best], reason, stated)))

    def draw_due(self) -> list[tuple[int, int]]:
        """The draws due after a trick, taken from a stock whose order is known: (seat, card) of each."""
        drawn: list[tuple[int, int]] = []
        if self.stock is None:
            return drawn
        for seat in list(self.to_draw):
            card = self.next_card()
            if card < 0:
                break
            self.draw(seat, card)
            drawn.append((seat, card))
        return drawn

    def check_claim(self, seat: int, kind: str, points: int | None) -> None:
        """The record claims for ``seat`` an automatic score ``kind`` (the last trick, the seven played, ...) of the
        trick just completed, at ``points`` when it says: a breach when the rules scored no such thing, or another
        amount."""
        events = self.events
        match = [e for e in events if e[0] == seat and e[1] == kind]
        if not match:
            happened = tuple((e[0], e[1], e[3]) for e in events)
            self.breaches.append(("BZ310", "claim_none", (seat, kind, happened)))
        elif points is not None and match[0][3] != points:
            self.breaches.append(("BZ305", "claim_points", (kind, points, match[0][3])))

    def _finish_trick(self, phase: int) -> None:
        rules = self.rules
        plays = self.plays
        if len(plays) == 2:  # (most games: two hands, a trick of two cards taken apart without a loop)
            (trick_leader, first), (_, second) = plays
            cards: tuple[int, ...] = (first, second)
        else:
            cards = tuple([c for _, c in plays])
            trick_leader = plays[0][0]
        self.trick_no += 1
        best, points, seven, last = score_trick(rules, self.trump, cards, self.trick_no, phase)
        winner, winning_card = plays[best]
        gained_before = self.score[winner]
        self.won[winner].extend(cards)
        self.tricks_won[winner] += 1
        if points:  # (no card points booked for a trick worth none: nothing for a claim to name)
            self._score(winner, "card_points", cards, points)
        if seven:
            self._score(winner, "seven_played", (winning_card,), seven)
        if last:
            for seat, share in last_trick_shares(rules, last, winner):
                self._score(seat, "last_trick", (), share)
        self.last_gain = (winner, self.score[winner] - gained_before)
        self.last_trick = cards
        self.plays = []
        self.leader = winner
        self.winner = winner
        self.declarer = -1
        self.declared = []
        if phase == 1:
            self.window_open = True
            self.to_draw = list(self.order[first_to_draw(rules, winner, trick_leader)])
        elif 2 in rules.declare_phases and not rules.declare_until_draw:
            # Where declaring goes on with the last tricks (sixty-six, RULES.md §2.k rule 8), the winner may declare
            # before he leads again.
            self.window_open = True
        if rules.hand_target:
            self._reach_target(winner)

    def legal_plays(self, seat: int) -> set[int]:
        """The cards ``seat`` may play now (any held card in phase 1 unless the profile obliges following)."""
        return set(self.legal_play_list(seat))

    def legal_play_list(self, seat: int) -> list[int]:
        """:meth:`legal_plays` in index order, each card once."""
        allowed = self.play_restriction(seat)
        return list(compress(_ALL_CARDS, self.held[seat])) if allowed is None else allowed

    def play_restriction(self, seat: int) -> list[int] | None:
        """The cards ``seat`` may play now in index order, or None when he may play any card he holds (asked at
        every play of a playout: a free play costs no obligation, no set and no list)."""
        plays = self.plays
        if not plays:
            must = self.must_lead
            if must and seat == self.leader:
                held = self.held[seat]
                led = [c for c in compress(_ALL_CARDS, held) if c in must]
                if led:
                    return led
            return None
        rules = self.rules
        rule = rules.phase2_play if self.phase_now() == 2 else rules.phase1_play
        if rule == FREE:
            return None
        allowed, _ = obligation(rule, self.held[seat], [c for _, c in plays], self.trump, False)
        return None if allowed is None else sorted(allowed)

    # --- draws ------------------------------------------------------------------------------------------------

    def draw(self, seat: int, card: int) -> None:
        """Draw a card from the stock after a trick; the last card drawn is the turn-up."""
        rules = self.rules
        to_draw = self.to_draw
        if to_draw and to_draw[0] == seat:
            del to_draw[0]  # (the draw due: what ``remove`` finds first)
        elif not to_draw:
            why = "draw_exhausted" if self.stock_count == 0 else "draw_not_due"
            self.breaches.append(("BZ402", why, (seat, card)))
        else:
            self.breaches.append(("BZ401", "draw_order", (to_draw[0], seat, self.trick_no)))
            if seat in to_draw:
                to_draw.remove(seat)
        if rules.declare_until_draw:
            self.window_open = False
        stock_left = self.stock_left
        if stock_left > 0:
            stock = self.stock
            if stock:  # (a stated stock shorter than the deal leaves was reported at the start, BZ108)
                drawn = stock.pop(0)
                if card != drawn:
                    self.breaches.append(("BZ403", "draw_not_next", (seat, card, drawn)))
            else:
                drawn = card
                seen = self.seen
                seen[card] += 1
                if seen[card] > rules.copies[card]:  # (asked at every draw of a record: mostly no card is over)
                    self._conservation(seen, (card,))
            self.stock_left = stock_left = stock_left - 1
        elif self.turnup >= 0 and self.turnup_waiting:
            if card != self.turnup:
                self.breaches.append(("BZ403", "draw_not_turnup", (seat, card, self.turnup)))
            drawn = self.turnup
            self.turnup_waiting = False
        else:
            drawn = card
        self.held[seat][drawn] += 1
        if self.blanche[seat] == 1:
            # RULES.md §2.e rule 9 (001:L60): each non-court card drawn may be shown for another carte blanche,
            # until the first court card drawn ends it.
            court = COURT[drawn]
            self.blanche[seat] = 2 if court else 1
            self.blanche_card[seat] = -1 if court else drawn
        if not to_draw and stock_left == 0 and not (self.turnup >= 0 and self.turnup_waiting):
            # Phase 2 begins: the declared cards go back into the hands and shown combinations lapse.
            for seat_index in range(rules.players):
                self.tables[seat_index] = []
                self.pending[seat_index] = []
            self.world_base = None
            self.world_log = []

    # --- declaring: who may, when ------------------------------------------------------------------------------

    def window_problem(self, seat: int, what: str, declaring: bool = True) -> Breach | None:
        """Why ``seat`` may not declare (``what``: "declare", "show a combination", ...; with ``declaring=False``,
        exchange) now; None when he may."""
        rules = self.rules
        if self.out >= 0:
            return ("BZ208", "window_hand_over", (seat, what, self.out, rules.hand_target))
        if self.phase_now() not in rules.declare_phases:
            return ("BZ302", "window_phase_2", (what, self.trick_no))
        if self.winner < 0 or not self.window_open:
            return ("BZ301", "window_closed", (seat, what, rules.declare_until_draw))
        if declaring and self.declarer >= 0:
            if seat != self.declarer:
                return ("BZ301", "window_passed", (self.winner, self.declarer, self.trick_no, seat))
            return None
        if seat != self.winner:
            partner = rules.partner[self.winner] if rules.declare_by_partner else -1
            return ("BZ301", "window_not_winner", (seat, self.trick_no, self.winner, what, partner == seat))
        return None

    def _wait_problem(self, seat: int, spec: MeldSpec) -> Breach | None:
        """A meld declared before its seat has won the tricks the profile makes it wait for (RULES.md §3.2 row D3)."""
        rules = self.rules
        waits = not rules.declare_wait_kinds or spec.kind in rules.declare_wait_kinds
        won = self.tricks_won[seat]
        if not waits or won >= rules.declare_after_tricks:
            return None
        return ("BZ302", "wait_tricks", (seat, won, spec.kind, rules.declare_after_tricks))

    def pass_to(self, seat: int, partner: int) -> None:
        """The trick's winner lets his partner declare instead of himself (RULES.md §2.g.1 rule 4, 000:L373)."""
        rules = self.rules
        if not rules.declare_by_partner:
            self.breaches.append(("BZ311", "no_passing", ()))
        elif rules.partner[seat] != partner:
            self.breaches.append(("BZ311", "not_partner", (partner, seat)))
        else:
            problem = self.window_problem(seat, "pass the declaration")
            if problem is not None:
                self.breaches.append(problem)
            elif self.declared:
                self.breaches.append(("BZ311", "pass_after_declaring", (seat, self.trick_no)))
        self.declarer = partner

    # --- the trump seven ----------------------------------------------------------------------------------------

    def _exchange_window(self, seat: int) -> Breach | None:
        """Why ``seat`` may not exchange (or show) the trump seven now; None when he may."""
        if self.rules.exchange_any_time:
            # RULES.md §2.c rule 5 (002:L9): the holder exchanges; no won trick is required, only a pause between
            # tricks.
            return ("BZ309", "exchange_mid_trick", (seat,)) if self.plays else None
        problem = self.window_problem(seat, "exchange the seven", declaring=False)
        if problem is not None and problem[0] == "BZ301":
            return ("BZ309", *problem[1:])
        return problem

    def exchange(self, seat: int, card: int, points: int | None = None) -> None:
        """Exchange the trump seven for the turn-up (after winning a trick, or as the profile allows).

        When the turn-up is already a trump seven and the profile scores the other seven (``seven.second``), the
        same statement shows that seven instead: it scores and stays in the hand.
        """
        rules = self.rules
        breaches = self.breaches
        problem = self._exchange_window(seat)
        if problem is not None:
            breaches.append(problem)
        held = self.held[seat]
        show = False
        turnup = self.turnup
        if not rules.exchange_exists:
            breaches.append(("BZ309", "exchange_not_in_game", (self.playing,)))
        elif not self._is_exchange_card(card):
            breaches.append(("BZ309", "exchange_not_seven", (card,)))
        elif turnup < 0 or not self.turnup_waiting:
            breaches.append(("BZ309", "exchange_no_turnup", ()))
        elif self._is_exchange_card(turnup) and not rules.seven_second:
            breaches.append(("BZ309", "exchange_turnup_is_seven", (turnup,)))
        elif self._is_exchange_card(turnup) and self.sevens_shown >= rules.sevens_to_show:
            breaches.append(("BZ309", "exchange_second_shown", ()))
        elif held[card] <= 0:
            breaches.append(("BZ309", "exchange_not_held", (seat, card)))
        elif self._is_exchange_card(turnup) and self.shown_by[seat] >= held[card]:
            breaches.append(("BZ309", "seven_shown_twice", (seat, card)))
        else:
            show = self._is_exchange_card(turnup)
        awarded = exchange_points(rules, show)
        if points is not None and points != awarded:
            breaches.append(("BZ305", "exchange_points", (show, points, awarded)))
        if show:
            self.shown_by[seat] += 1
            self._score(seat, "seven_shown", (card,), awarded)
            return
        if held[card] > 0 and turnup >= 0:
            # A seven declared in a combination lies on the table; it is still the player's to exchange.
            self._take(seat, card)
            held[turnup] += 1
            self.turnup = card
            self.gained = (seat, turnup, self.trick_no)
        self.exchanged = True
        self._score(seat, "seven_exchange", (card,), awarded)

    def legal_exchanges(self) -> list[tuple[int, int]]:
        """Every (seat, trump seven) that may be exchanged for the turn-up, or shown, now."""
        if not self.turnup_waiting or self.trump < 0 or self.turnup < 0:
            return []
        rules = self.rules
        if not rules.exchange_exists:
            return []
        if not rules.exchange_any_time and (self.winner < 0 or not self.window_open):
            # (outside a trick winner's window :meth:`window_problem` refuses every seat: asked before every lead
            # and draw of the first phase, answered without working out each refusal)
            return []
        seven = exchange_card(rules, self.trump)
        found: list[tuple[int, int]] = []
        done = None
        hands = self.held
        # (outside ``exchange_any_time`` :meth:`window_problem` lets the trick's winner alone act: the others' sevens
        # are not looked at)
        for seat in range(len(hands)) if rules.exchange_any_time else (self.winner,):
            held = hands[seat]
            if held[seven] <= 0:
                continue  # (asked before every draw and lead of the first phase: mostly nobody holds it)
            if done is None:
                done = not rules.seven_second or self.sevens_shown >= rules.sevens_to_show
            if self._exchange_window(seat) is not None:
                continue
            if self._is_exchange_card(self.turnup) and (done or self.shown_by[seat] >= self.held[seat][seven]):
                continue
            found.append((seat, seven))
        return found

    # --- declarations ------------------------------------------------------------------------------------------

    def _fixing(self, cards: Sequence[int]) -> tuple[list[MeldSpec], int]:
        """While no suit is trumps: the melds that these cards form as the declaration fixing trumps, and that suit.

        RULES.md §2.e rule 4: without a turn-up the first marriage (or sequence) declared fixes trumps; its cards are
        judged as if their suit were trumps already, so the first marriage is the royal one.
        """
        fixing = self.rules.fixing
        if self.trump >= 0 or not fixing or not cards:
            return [], -1
        suit = cards[0] >> 3
        found = [spec for spec in identify(self.rules, cards, suit) if spec.kind in fixing]
        return found, suit if found else -1

    def _resolve_kind(self, cards: Sequence[int], kind: str | None) -> tuple[MeldSpec | None, Breach | None]:
        rules = self.rules
        found = [*identify(rules, cards, self.trump), *self._fixing(cards)[0]]
        if kind is not None:
            spec = rules.meld_by_kind.get(kind)
            if spec is None:
                return None, ("BZ109", "no_such_meld", (kind,))
            if spec.whole_hand:
                return spec, ("BZ304", "whole_hand_cards", (spec.kind,))
            if spec not in found:
                return spec, ("BZ304", "not_this_meld", (tuple(cards), spec.kind, found[0].kind if found else ""))
            return spec, None
        if not found:
            return None, ("BZ304", "not_a_meld", (tuple(cards),))
        return found[0], None

    def _pick(
        self,
        parts: Sequence[tuple[int, Sequence[int]]],
        spec: MeldSpec,
        check_reuse: bool,
        others: list[list[Assignment]] | None = None,
    ) -> tuple[list[Assignment] | None, Breach | None]:
        """Choose the physical cards for a declaration, one assignment per (seat, cards) part (two parts for a
        declaration formed with the partner's cards): the first legal choice, preferring tabled cards. ``others``,
        when given, receives a few more legal choices that leave the tables otherwise (kept as other worlds)."""
        per_part = []
        gained_problem: Breach | None = None
        for seat, cards in parts:
            tabled = self.tables[seat]
            # (with nothing on the table the concealed hand is all that is held: read, not copied)
            hand = self.hand(seat) if tabled else self.held[seat]
            options = choose_instances(cards, hand, tabled)
            if not options:
                held = self.held[seat]
                missing = Counter(cards)
                for card in list(missing):
                    missing[card] -= held[card]
                return None, ("BZ303", "meld_not_held", (spec.kind, _by_display(missing.elements()), seat))
            gainer, gained, trick = self.gained
            if gainer == seat and trick == self.trick_no and gained in cards and self.rules.gained_waits:
                # The card the exchange just gained is not declared after this trick ("the card exchanged not being
                # used in such declaration", [EW] iii): another copy of it may be.
                hand = list(hand)
                hand[gained] -= 1
                without = choose_instances(cards, hand, tabled)
                if without:
                    options = without
                elif gained_problem is None:
                    gained_problem = ("BZ315", "gained_declared", (seat, gained, spec.kind, trick))
            per_part.append(options)
        if gained_problem is not None or not check_reuse:
            return [options[0] for options in per_part], gained_problem
        choices = list(itertools.product(*per_part))  # (one part: its options, each alone in a tuple)
        rules = self.rules
        # The whole side's table: a combination declared with the partner's cards is still intact (not refillable)
        # while the partner's part lies on his table.
        mates = rules.mates[parts[0][0]]
        table = self.tables[mates[0]] if len(mates) == 1 else [t for seat in mates for t in self.tables[seat]]
        first_problem = None
        found: list[Assignment] | None = None
        for tried, choice in enumerate(choices):
            if found is not None and (others is None or len(others) >= _CHOICES_MAX or tried >= _CHOICES_TRIED):
                break
            merged = (
                choice[0]
                if len(choice) == 1
                else Assignment(
                    tuple(u for a in choice for u in a.tabled), tuple(c for a in choice for c in a.from_hand)
                )
            )
            problem = reuse_problem(rules, spec, merged, table, self.trick_no)
            if problem is None:
                problem = extends_problem(spec, merged, table)
            if problem is None:
                if found is None:
                    found = list(choice)
                elif others is not None:
                    others.append(list(choice))
                continue
            # A choice that takes a fresh card from the hand names the real breach (a card scored again in the same
            # kind, BZ307) better than one that adds no card from the hand (BZ306), which is only the first choice
            # because tabled cards are preferred.
            if first_problem is None or (first_problem[1] == "no_new_card" and merged.from_hand):
                first_problem = problem
        if found is not None:
            return found, None
        return list(choices[0]), first_problem

    def _place(
        self,
        seat: int,
        parts: Sequence[tuple[int, Sequence[int]]],
        spec: MeldSpec,
        cards: Sequence[int],
        check_reuse: bool,
        score: bool,
        branch: bool = True,
    ) -> tuple[Breach | None, list[_World], _World | None]:
        """Lay out the cards of a declaration (``score``: marked as scored in ``spec``; a shown combination of the
        same cards is scored as it lies) or of a show, in the tables kept first; the rule the choice of cards breaks,
        the worlds of the other legal choices of copies (a declaration's copies are not written either; none made
        unless ``branch``), and when there are any, the tables as they were before."""
        if score:
            pending = self._pending_match(seat, spec, cards) if len(parts) == 1 else -1
            if pending >= 0:
                uids = self.pending[seat].pop(pending)[1]
                mark_scored(self.tables[seat], uids, spec, self.trick_no)
                return None, [], None
        others: list[list[Assignment]] | None = [] if score else None
        assignments, problem = self._pick(parts, spec, check_reuse, others)
        if assignments is None:
            return problem, [], None
        if not score:
            self.pending[seat].append((spec.kind, self._lay_out(seat, assignments[0])))
            return problem, [], None
        # Each legal choice of copies lays out its cards from the same uid; the cards laid out next are numbered from
        # past the most new cards any of them lays out, whether the other choices are kept as worlds (``branch``)
        # or not.
        first = self.next_uid
        last = first + max(sum(len(a.from_hand) for a in choice) for choice in [assignments, *(others or ())])
        spawned = [(_copy_world(self.tables, self.pending), choice) for choice in others or ()] if branch else []
        before = _copy_world(self.tables, self.pending) if spawned else None
        here = (self.tables, self.pending)
        for world, choice in [(here, assignments), *spawned]:
            self.tables, self.pending = world
            self.next_uid = first
            uids = tuple(u for (owner, _), a in zip(parts, choice, strict=True) for u in self._lay_out(owner, a))
            for owner, _ in parts:
                mark_scored(self.tables[owner], uids, spec, self.trick_no)
        self.tables, self.pending = here
        self.next_uid = last
        return problem, [world for world, _ in spawned], before

    def _in_worlds(
        self,
        seat: int,
        parts: Sequence[tuple[int, Sequence[int]]],
        spec: MeldSpec,
        cards: Sequence[int],
        check: bool | None,
    ) -> Breach | None:
        """Lay out a declaration's cards (:meth:`_place`) under the choice of copies kept first; where that breaks a
        rule and other choices are possible, under every choice (:meth:`_worlds`): the choices under which it breaks
        no rule are kept, the first of them first, with the other legal choices of copies it made; when it breaks a
        rule under all, the first choice's breach is the answer and that choice alone is kept."""
        score = check is not None
        reuse = True if check is None else check  # (a combination shown is held to the re-use rules too)
        if self.world_base is None:
            first = self.next_uid
            problem, _, before = self._place(seat, parts, spec, cards, reuse, score)
            if before is not None:  # (another choice of copies is legal too: from here on, two or more)
                self.world_base = ((before,), first)
                self.world_log.append(self._place_step(seat, parts, spec, cards, reuse, score))
            return problem
        step = self._place_step(seat, parts, spec, cards, reuse, score)
        first = self.next_uid
        kept, problem = _place_in([(self.tables, self.pending)], self, step, first, branch=False)
        if problem is None:
            self.world_log.append(step)
            return None
        # The first choice breaks a rule here: what do the others say?
        worlds, uid = self._worlds()
        kept, problem = _place_in(worlds, self, step, max(uid, first), branch=True)
        self.tables, self.pending = kept[0]
        self.world_base = ((*(_copy_world(*w) for w in kept),), self.next_uid) if len(kept) > 1 else None
        self.world_log = []
        return problem

    def _place_step(
        self,
        seat: int,
        parts: Sequence[tuple[int, Sequence[int]]],
        spec: MeldSpec,
        cards: Sequence[int],
        reuse: bool,
        score: bool,
    ) -> _WorldStep:
        """A declaration's entry in :attr:`world_log`: what it lays out, and what of the state it reads."""
        held = [list(h) for h in self.held]
        return ("place", seat, tuple(parts), spec, tuple(cards), reuse, score, held, self.trick_no, self.gained)

    def _worlds(self) -> tuple[list[_World], int]:
        """Every choice of copies kept (the first first), worked out from :attr:`world_base` by carrying out
        :attr:`world_log` under each, and the uid to number from next; the state's own tables are left alone."""
        assert self.world_base is not None
        base, uid = self.world_base
        worlds = [_copy_world(*w) for w in base]
        saved = (self.tables, self.pending, self.held, self.trick_no, self.gained, self.next_uid)
        try:
            for step in self.world_log:
                if step[0] == "take":
                    _, seat, card, left = step
                    worlds = _take_in(worlds, seat, card, left, True)
                elif step[0] == "unscored":
                    for _, pending in worlds:
                        pending[step[1]] = []
                else:
                    worlds, _ = _place_in(worlds, self, step, uid, branch=True)
                    uid = self.next_uid
        finally:
            self.tables, self.pending, self.held, self.trick_no, self.gained, self.next_uid = saved
        return worlds, uid

    def _lay_out(self, seat: int, assignment: Assignment) -> tuple[int, ...]:
        table = self.tables[seat]
        uids = list(assignment.tabled)
        for card in assignment.from_hand:
            table.append(TabledCard(self.next_uid, card))
            uids.append(self.next_uid)
            self.next_uid += 1
        return tuple(uids)

    def _pending_match(self, seat: int, spec: MeldSpec, cards: Sequence[int]) -> int:
        """Index of the shown (not yet scored) combination these cards repeat (-1: none)."""
        wanted = sorted(cards)
        for i, (kind, uids) in enumerate(self.pending[seat]):
            tabled = [t.card for t in self.tables[seat] if t.uid in uids]
            if kind == spec.kind and len(tabled) == len(uids) and sorted(tabled) == wanted:
                return i
        return -1

    def _judge(
        self, seat: int, what: str, cards: Sequence[int], kind: str | None
    ) -> tuple[Breach | None, MeldSpec | None, Breach | None]:
        """What a declaration (or a show, ``what``) of these cards breaks before its cards are looked for: the
        window (who may declare, when) or the tricks the meld waits for, and the kind named. Each breach is recorded;
        returns (the window's or the wait's breach, the meld, the kind's breach)."""
        problem = self.window_problem(seat, what)
        if problem is not None:
            self.breaches.append(problem)
        spec, kind_problem = self._resolve_kind(cards, kind)
        if kind_problem is not None:
            self.breaches.append(kind_problem)
        if spec is not None and problem is None:
            problem = self._wait_problem(seat, spec)
            if problem is not None:
                self.breaches.append(problem)
        return problem, spec, kind_problem

    def declare(
        self,
        seat: int,
        kind: str | None,
        cards: Sequence[int],
        points: int | None = None,
        partner_cards: Sequence[int] = (),
        partner: int = -1,
    ) -> None:
        """Declare (score) a combination after winning a trick.

        ``partner_cards`` are the cards of the declarer's partner (``partner``, checked when given: -1 is not
        given) that complete the combination, where the profile lets partners declare together (``declare.joint``,
        RULES.md §2.g.1 rule 4); each part lies on its owner's table. A declaration that breaks a rule is still
        scored as the record says (what the rules give for its cards, or the points claimed when they form no meld),
        so that later stated scores are not all reported again; the breach is reported once.
        """
        rules = self.rules
        named = rules.meld_by_kind.get(kind) if kind is not None else None
        if named is not None and named.whole_hand:
            self._carte_blanche(seat, named, cards, points)
            return
        breaches = self.breaches
        parts: list[tuple[int, Sequence[int]]] = [(seat, cards)]
        if partner_cards:
            mate = rules.partner[seat]
            if not rules.declare_joint or mate < 0:
                breaches.append(("BZ312", "no_joint", ()))
            elif partner >= 0 and partner != mate:
                breaches.append(("BZ312", "not_partner_joint", (partner, seat)))
            elif not cards:
                # "из карт как его самого, так и его партнера" (000:L373): his own and his partner's; a combination
                # wholly the partner's is declared by the partner, after a pass.
                breaches.append(("BZ312", "joint_none_own", (seat,)))
            else:
                parts.append((mate, partner_cards))
        everything = (*cards, *partner_cards)
        problem, spec, kind_problem = self._judge(seat, "declare", everything, kind)
        if self.declared and problem is None:
            if rules.one_per_trick:
                breaches.append(("BZ308", "one_per_trick", (seat, self.trick_no)))
            elif any(set(everything) & set(prev) for prev in self.declared):
                breaches.append(("BZ308", "shared_card", ()))
        if spec is None or kind_problem is not None:
            if points:
                self._score(seat, kind or "declaration", everything, points)
            return
        hold_problem = self._in_worlds(seat, parts, spec, cards, problem is None)
        if hold_problem is not None and problem is None:
            breaches.append(hold_problem)
        fixing, suit = self._fixing(everything)
        fixes = spec in fixing and suit >= 0
        counted, nth, value = declaration_points(rules, spec, self.declared_kinds[seat], fixes)
        if fixes:
            self.trump = suit
        if points is not None and points != value:
            breaches.append(("BZ305", "meld_points", (spec.kind, points, value, nth)))
        self.declared_kinds[seat][counted] += 1
        self.declared.append(everything)
        self._score(seat, spec.kind, everything, value)
        if rules.lead_from:
            self.must_lead = tuple(cards)
        self._reach_target(seat)

    def show(self, seat: int, kind: str | None, cards: Sequence[int]) -> None:
        """Lay out a combination after winning a trick without scoring it; it may be scored after a later trick."""
        _, spec, _ = self._judge(seat, "show a combination", cards, kind)
        if spec is None:
            return
        hold_problem = self._in_worlds(seat, [(seat, cards)], spec, cards, None)
        if hold_problem is not None:
            self.breaches.append(hold_problem)

    # --- carte blanche ------------------------------------------------------------------------------------------

    def _side_blanche_problem(self, seat: int, spec: MeldSpec) -> Breach | None:
        """Why ``seat`` may not declare his side's double carte blanche now: neither partner was dealt a court card
        (RULES.md §2.g.1 rule 5, 000:L353); shown before the first trick, once for the side."""
        rules = self.rules
        partner = rules.partner[seat]
        if partner < 0:
            return ("BZ312", "blanche_needs_partners", (spec.kind,))
        if self.trick_no or self.plays:
            return ("BZ301", "blanche_before_trick_1", (spec.kind,))
        if rules.scorer[seat] in self.side_blanche:
            return ("BZ308", "side_blanche_again", (rules.scorer[seat], spec.kind))
        for who in (seat, partner):
            courts = _by_display(c for c in range(CARD_INDICES) for _ in range(self.held[who][c]) if COURT[c])
            if courts:
                return ("BZ304", "side_blanche_court", (who, courts, spec.kind))
        return None

    def _blanche_problem(self, seat: int, spec: MeldSpec, cards: Sequence[int]) -> Breach | None:
        """Why ``seat`` may not declare this carte blanche now (RULES.md §2.e rule 9); None when he may."""
        if spec.hand == "no_court_side":
            return self._side_blanche_problem(seat, spec)
        state = self.blanche[seat]
        if state == 0:
            if self.trick_no or self.plays:
                return ("BZ301", "blanche_before_trick_1", (spec.kind,))
            held = self.held[seat]
            courts = _by_display(c for c in range(CARD_INDICES) for _ in range(held[c]) if COURT[c])
            if courts:
                return ("BZ304", "blanche_court", (seat, courts, spec.kind))
            if cards and Counter(cards) != Counter({c: n for c, n in enumerate(held) if n}):
                whole = _by_display(c for c in range(CARD_INDICES) for _ in range(held[c]))
                return ("BZ304", "blanche_whole_hand", (spec.kind, whole))
            return None
        if state == 2:
            return ("BZ301", "blanche_ended", (seat, spec.kind))
        if self.blanche_card[seat] < 0:
            return ("BZ301", "blanche_show_drawn", (spec.kind,))
        if list(cards) not in ([], [self.blanche_card[seat]]):
            return ("BZ304", "blanche_wrong_card", (seat, self.blanche_card[seat]))
        return None

    def _carte_blanche(self, seat: int, spec: MeldSpec, cards: Sequence[int], points: int | None) -> None:
        """A carte blanche: the whole hand without a court card, shown before the first trick; then again for each
        non-court card drawn, shown before playing, until a court card is drawn (RULES.md §2.e rule 9). ``cards`` is
        the hand shown (the first time) or the card drawn (a repeat); it may be left empty. No trick need be won,
        and it is not the trick's one declaration."""
        rules = self.rules
        problem = self._blanche_problem(seat, spec, cards)
        if problem is not None:
            self.breaches.append(problem)
        if points is not None and points != spec.points:
            self.breaches.append(("BZ305", "blanche_points", (spec.kind, points, spec.points)))
        if spec.hand == "no_court_side":
            self.side_blanche = (*self.side_blanche, rules.scorer[seat])
            mate = rules.partner[seat] if rules.partner[seat] >= 0 else seat
            shown = tuple(cards) or (*self._whole_hand(seat), *self._whole_hand(mate))
            self._score(seat, spec.kind, shown, spec.points)
            return
        if cards:
            shown = tuple(cards)
        elif self.blanche[seat] == 0:
            shown = self._whole_hand(seat)
        else:
            shown = (self.blanche_card[seat],) if self.blanche_card[seat] >= 0 else ()
        self.blanche[seat] = max(self.blanche[seat], 1)
        self.blanche_card[seat] = -1
        self._score(seat, spec.kind, shown, spec.points)

    def _whole_hand(self, seat: int) -> tuple[int, ...]:
        """The hand a carte blanche shows: as dealt (in the record's order, copies together) before the first
        trick, else in display order."""
        if not self.trick_no and not self.plays:
            return tuple(Counter(self.dealt[seat]).elements())
        return _by_display(_elements(self.held[seat]))

    def legal_carte_blanche(self, seat: int, spec: MeldSpec | None = None) -> bool:
        """True when ``seat`` may declare a carte blanche now (the first before trick 1, or a repeat after a draw);
        ``spec`` picks one of several whole-hand melds (the profile's first by default)."""
        spec = spec or next((m for m in self.rules.melds if m.whole_hand), None)
        return spec is not None and self._blanche_problem(seat, spec, ()) is None

    # --- what may be declared now -------------------------------------------------------------------------------

    def _offers(
        self, seat: int, pool: Sequence[int], checked: bool = False
    ) -> Iterator[tuple[MeldSpec, tuple[int, ...]]]:
        """The combinations the cards of ``pool`` (a count per card) form that ``seat`` might declare now (nothing
        when he may not declare at all): every meld he need not wait for, under the trump suit or, before trumps are
        fixed, the suit it would fix; none sharing a card with a declaration already scored after this trick.
        ``checked``: :meth:`_may_offer` has said yes already."""
        if not checked and not self._may_offer(seat, pool):
            return
        rules = self.rules
        wild = pool[WILD_INDEX]
        declared = self.declared
        waits = self.tricks_won[seat] < rules.declare_after_tricks
        for spec, targets, tries, of_rank in _offer_plan(rules, self.trump):
            if waits and self._wait_problem(seat, spec) is not None:
                continue
            if targets is None:
                if pool[of_rank[0]] + pool[of_rank[1]] + pool[of_rank[2]] + pool[of_rank[3]] < spec.count:
                    continue  # (too few of the rank: what _candidate_sets finds first)
                candidates = _candidate_sets(rules, spec, pool, self.trump) * tries
            elif wild:
                candidates = [c for cards, need in targets for c in _with_wild(cards, need, pool, wild)]
            else:
                candidates = []
                for cards, need in targets:
                    for card, n in need:
                        if pool[card] < n:
                            break
                    else:
                        candidates.append(cards)
            for cards in candidates:
                if not (declared and any(set(cards) & set(prev) for prev in declared)):
                    yield spec, cards

    def _may_offer(self, seat: int, pool: Sequence[int]) -> bool:
        """False when :meth:`_offers` has nothing for ``seat`` and ``pool``: he may not declare now, or has declared
        after this trick where one declaration a trick is the rule, or the cards form no meld at all (most hands
        after most tricks: answered without the enumeration). The cards are asked first: a playout asks in every
        window of the first phase, where they mostly form nothing."""
        if self.declared and self.rules.one_per_trick:
            return False
        if not pool[WILD_INDEX] and not may_form_any(self.rules, pool, self.trump):
            return False
        return self.window_problem(seat, "declare") is None

    def legal_declarations(self, seat: int) -> list[tuple[MeldSpec, tuple[int, ...]]]:
        """Every combination ``seat`` could score now (after winning the last trick, before drawing)."""
        if not self._may_offer(seat, self.held[seat]):
            return []  # (asked after every trick of a playout: the answer is mostly this one)
        return list(self._legal_offers(seat, True))

    def can_declare(self, seat: int) -> bool:
        """Whether ``seat`` could score some combination now: :meth:`legal_declarations`, stopped at the first."""
        if not self._may_offer(seat, self.held[seat]):
            return False
        return any(True for _ in self._legal_offers(seat, True))

    def _legal_offers(self, seat: int, checked: bool = False) -> Iterator[tuple[MeldSpec, tuple[int, ...]]]:
        for spec, cards in self._offers(seat, self.held[seat], checked):
            assignments, problem = self._pick([(seat, cards)], spec, check_reuse=True)
            if assignments is not None and problem is None:
                yield spec, cards

    def legal_joint_declarations(self, seat: int) -> list[tuple[MeldSpec, tuple[int, ...], tuple[int, ...]]]:
        """Every combination ``seat`` could score now only with his partner's cards: (meld, his cards, the
        partner's). Empty unless the profile lets partners declare together (``declare.joint``, RULES.md §2.g.1
        rule 4). Each combination is split once: as many of its cards as ``seat`` holds are his, the rest his
        partner's."""
        rules = self.rules
        partner = rules.partner[seat]
        if not rules.declare_joint or partner < 0:
            return []
        own = self.held[seat]
        pool = [a + b for a, b in zip(own, self.held[partner], strict=True)]
        found = []
        for spec, cards in self._offers(seat, pool):
            mine: Counter[int] = Counter()
            rest: Counter[int] = Counter()
            for card, n in Counter(cards).items():
                mine[card] = min(n, own[card])
                rest[card] = n - mine[card]
            mine, rest = +mine, +rest
            if not rest or not mine:
                continue  # he can declare it alone, or it is all his partner's (who declares it after a pass)
            parts = [(seat, tuple(mine.elements())), (partner, tuple(rest.elements()))]
            assignments, problem = self._pick(parts, spec, check_reuse=True)
            if assignments is not None and problem is None:
                found.append((spec, parts[0][1], parts[1][1]))
        return found

    # --- the end of a hand ------------------------------------------------------------------------------------

    def go_out(self, seat: int, points: int | None = None) -> None:
        """``N goes out``: the record says that ``seat`` has reached the hand's target, which ended the hand.

        The end is automatic (RULES.md §2.k rule 10: reaching 66 "заканчивает игру"); the statement makes the record
        say it where it happens, and is checked: the seat has reached the target, and ``points`` is its score.
        """
        rules = self.rules
        score = self.score[seat]
        if not rules.hand_target:
            self.breaches.append(("BZ507", "no_hand_target", ()))
        elif self.out != seat:
            self.breaches.append(("BZ507", "cannot_go_out", (seat, self.out, score, rules.hand_target)))
        elif self.out_stated:
            self.breaches.append(("BZ507", "gone_out_already", (seat,)))
        elif points is not None and points != score:
            self.breaches.append(("BZ507", "out_points", (seat, score, points)))
        if self.out == seat and not self.out_stated:
            self.out_stated = True
            # Scores nothing itself (the hand's points are in): the event lets a replay and a lesson show the end.
            self.events.append((seat, "goes_out", (), 0))

    def penalty(self, seat: int, kind: str, points: int | None = None, banked: int = 0) -> None:
        """``N penalty extra_card = 50``: deduct a penalty of the profile's table from ``seat``'s score (RULES.md
        §3.6). ``banked`` is what the seat's scorer has from earlier hands of the game: a penalty of ``all`` points
        ("всі очки гравця обнуляється", 001:L42) takes those too, so that the game total starts again from 0.
        ``unscored`` cancels the combinations the seat has shown but not yet scored (004:L329, one reading)."""
        rules = self.rules
        amount = rules.penalties.get(kind)
        if amount is None:
            self.breaches.append(("BZ313", "no_such_penalty", (kind, tuple(rules.penalties))))
            return
        fixed = fixed_penalty(rules, kind)
        deducted = banked + self.scores()[rules.scorer[seat]] if fixed is None else fixed
        if amount == "unscored":
            self.pending[seat] = []
            if self.world_base is not None:
                self.world_log.append(("unscored", seat))
        if points is not None and points != deducted:
            self.breaches.append(("BZ314", "penalty_points", (kind, seat, deducted, points)))
        self._score(seat, f"penalty_{kind}", (), -deducted)

    def cut(self, lifted: int | None, guess: int | None) -> None:
        """The six-pack deal bonuses (RULES.md §2.h rule 3, 000:L395): the non-dealer scores the guess bonus when he
        guessed exactly how many cards the dealer lifted; the dealer scores the lift bonus when he lifted exactly the
        profile's count (24). Facts of the deal, stated in the record (``cut:``, ``guess:``)."""
        guess_points, lift_points, lift_count = self.rules.cut_bonus
        if lifted is None:
            return
        if guess is not None and guess == lifted and guess_points:
            self._score(self.rules.next_seat[self.dealer], "cut_guess", (), guess_points)
        if lifted == lift_count and lift_points:
            self._score(self.dealer, "cut_lift", (), lift_points)

    def finish(self) -> None:
        """End of the hand: brisques and the card points counted at the end (and checks that it was played out)."""
        rules = self.rules
        if not self.finished:
            self.breaches.append(("BZ506", "deal_incomplete", (self.trick_no, rules.total_tricks)))
        elif self.out >= 0 and not self.out_stated:
            self.breaches.append(("BZ507", "out_unstated", (self.out, rules.hand_target, self.trick_no)))
        brisque = rules.brisque
        count_brisques = True
        counted_won = self._counted_won()
        if rules.brisques_conditional and rules.game_scoring is not None:
            won = [0] * len(rules.scorers)  # by seat, or by side where partners score jointly
            for seat, cards in enumerate(counted_won):
                won[rules.scorer[seat]] += sum(brisque[c] for c in cards) * rules.brisque_points
            count_brisques = brisques_counted(self.scores(), won, rules.game_scoring.rubicon)
        values = rules.values(self.trump)
        for seat, cards in enumerate(counted_won):
            brisques = tuple(c for c in cards if brisque[c])
            points = len(brisques) * rules.brisque_points if count_brisques else 0
            self.score[seat] += points
            if rules.brisque_points:
                self.events.append((seat, "brisques", brisques, points))
            if rules.points_at_end:
                counted = tuple(c for c in cards if values[c])
                self._score(seat, "card_points", counted, sum(values[c] for c in counted))

    def _counted_won(self) -> list[list[int]]:
        """The cards of each seat's won tricks that count at the end of the hand: all but those it forfeited."""
        if not any(self.forfeited):
            return self.won
        counted = []
        for seat, cards in enumerate(self.won):
            left = Counter(self.forfeited[seat])
            kept = []
            for card in cards:
                if left[card]:
                    left[card] -= 1
                else:
                    kept.append(card)
            counted.append(kept)
        return counted

    def _end_points(self, seat: int) -> int:
        """What the cards a seat has won so far will add at the end of the hand (brisques, card points counted then)."""
        rules = self.rules
        worth = end_worth(rules, self.trump)
        return sum(worth[c] for c in self._counted_won()[seat])

    # --- conduct: a claim of the game, a forfeit --------------------------------------------------------------

    def claim_game(self, seat: int, banked: int = 0) -> bool | None:
        """``N claims game``: ``seat`` says he has reached the game's target (RULES.md §2.c rule 18). ``banked`` is
        what his scorer has from the earlier hands. Returns whether the claim is right (None when the profile has
        no claim: a breach).

        Not while the stock lies on the table (002:L16, ``stock_out``), or only once the hand is played out
        (004:L63, L333, ``hand_end``). Right when his total, counting what the cards he has won will add at the end
        of the hand, reaches the target: the game is his and the hand ends. A false claim costs what the profile
        says (``false_claim``; 002:L16: he "теряет право на этот приз", which the game applies)."""
        rules = self.rules
        if rules.claim == "none" or rules.target is None:
            self.breaches.append(("BZ316", "no_claim_rule", ()))
            return None
        if self.plays:
            self.breaches.append(("BZ316", "claim_mid_trick", (seat,)))
        elif rules.claim == "stock_out" and self.phase == 1:
            self.breaches.append(("BZ316", "claim_stock_on_table", (seat, self.stock_count)))
        elif rules.claim == "hand_end" and self.trick_no < rules.total_tricks:
            self.breaches.append(("BZ316", "claim_before_hand_end", (seat, self.trick_no, rules.total_tricks)))
        if self.claimed >= 0:
            self.breaches.append(("BZ316", "claimed_already", (self.claimed,)))
            return None
        scorer = rules.scorer[seat]
        total = banked + self.scores()[scorer] + sum(self._end_points(s) for s in rules.mates[seat])
        right = total >= rules.target
        if right:
            self.claimed = seat
            self.to_draw = []
            self.window_open = False
        self.events.append((seat, "claim_game" if right else "false_claim", (), 0))
        return right

    def will_forfeit(self, seat: int) -> None:
        """The record says, after the next trick, that ``seat`` forfeits what an illegal play of it won (002:L13):
        the obligations he breaks in that trick are the forfeit's to settle (:meth:`forfeit`), not breaches."""
        if self.forfeit_trick != self.trick_no + 1:
            self.forfeits = []
            self.revokes = []
        self.forfeit_trick = self.trick_no + 1
        self.forfeits.append(seat)

    def forfeit(self, seat: int, points: int | None = None) -> None:
        """``N forfeits = P``: the points ``seat`` won by an illegal play of the trick just played are not his, and
        the earlier tricks stand ("он не имеет права приписывать себе очки, доставшиеся ему незаконно, но прежние
        взятки сохраняют свою силу", 002:L13). What the trick scored him as it was won is taken off now, and its
        cards count nothing for him at the end of the hand (brisques, card points counted then); ``points`` is
        checked against the two together."""
        rules = self.rules
        if not rules.forfeit:
            self.breaches.append(("BZ317", "no_forfeit_rule", ()))
            return
        illegal = [breach for who, breach in self.revokes if who == seat] if self.forfeit_trick == self.trick_no else []
        if not illegal or self.plays:
            self.breaches.append(("BZ317", "nothing_to_forfeit", (seat, self.trick_no)))
            return
        winner, gained = self.last_gain
        now = gained if winner == seat else 0
        later = 0
        cards: tuple[int, ...] = ()
        if winner == seat and self.trick_no:
            cards = tuple(self.won[seat][-self.playing :])
            later = self._end_points(seat)
            self.forfeited[seat].extend(cards)
            later -= self._end_points(seat)
        if points is not None and points != now + later:
            self.breaches.append(("BZ317", "forfeit_points", (seat, now + later, points, self.trick_no)))
        self.forfeits = [s for s in self.forfeits if s != seat]
        self._score(seat, "forfeit", cards, -now)

    def game_points(self) -> list[int]:
        """What a finished hand scores toward the game under the profile's ``game_points`` table, per seat (empty
        without one). The winner is the seat that reached the hand's target (or, under ``played_out:
        last_trick_wins``, the winner of the last trick of a hand played out); he scores the first row whose
        threshold the loser's score reaches."""
        rules = self.rules
        if not rules.game_points:
            return []
        result = [0] * rules.players
        winner = self.out
        if winner < 0 and rules.played_out_wins and self.finished:
            winner = self.winner
        if winner < 0:
            return result
        loser = max((s for s in range(rules.players) if s != winner), key=lambda s: self.score[s])
        lost = self.score[loser]
        result[winner] = next(points for lowest, points in rules.game_points if lost >= lowest)
        return result


_World = tuple[list[list[TabledCard]], list[list[tuple[str, tuple[int, ...]]]]]
"""The seats' tables and shown combinations under one choice of identical copies (see :attr:`DealState.world_base`)."""

_CHOICES_MAX = 2
"""How many other legal choices of copies a declaration keeps as worlds."""

_CHOICES_TRIED = 24
"""How many choices of copies a declaration tries before it stops looking for other legal ones."""

_WORLDS_MAX = 6
"""How many choices of copies a deal keeps at once (the first included): enough for the few copies a hand holds,
bounded so that a many-pack deal stays fast; past it the later choices are let go."""


TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from typing import Any

    _WorldStep = tuple[Any, ...]
else:
    _WorldStep = tuple
"""What touched the tables (:attr:`DealState.world_log`): ``("take", seat, card, copies left)``, ``("unscored",
seat)``, or ``("place", seat, parts, meld, cards, check re-use, score, held, trick number, card gained)``."""


_COPIED_SLOTS = frozenset(
    [
        "breaches",
        "events",
        "stock",
        "seen",
        "held",
        "tables",
        "pending",
        "world_log",
        "won",
        "score",
        "tricks_won",
        "declared_kinds",
        "blanche",
        "shown_by",
        "blanche_card",
        "plays",
        "declared",
        "to_draw",
        "forfeits",
        "revokes",
        "forfeited",
    ]
)
"""The slots :meth:`DealState.copy` makes anew (each push of a position copies the state)."""

_SHARED_SLOTS = tuple(name for name in DealState.__slots__ if name not in _COPIED_SLOTS)
"""The slots a copy shares with its original: the rules, ints, tuples and what is never changed in place."""


def _take_in(worlds: list[_World], seat: int, card: int, left: int, branch: bool) -> list[_World]:
    """A card of ``seat`` leaves, under each choice of copies in ``worlds`` (``left``: the copies it still holds):
    the tabled instance scored in most kinds, and (``branch``) the other choices as further worlds."""
    if not any(t.card == card for tables, _ in worlds for t in tables[seat]):
        return worlds
    successors: list[_World] = []
    for tables, pending in worlds:
        copies = sorted((t for t in tables[seat] if t.card == card), key=_kinds_scored, reverse=True)
        choices: list[TabledCard | None] = list(copies)  # (the first: :func:`_taken_first`'s)
        if left + 1 > len(copies):
            choices.append(None)  # a copy from the concealed hand
        branches = []
        for chosen in choices[1:] if branch else ():
            other = _copy_world(tables, pending)
            if chosen is not None:
                _remove(other, seat, other[0][seat][tables[seat].index(chosen)])
            branches.append(other)
        if choices[0] is not None:
            _remove((tables, pending), seat, choices[0])
        successors.append((tables, pending))
        successors.extend(branches)
    return [successors[0], *_distinct(successors[0], successors[1:])]


def _kinds_scored(tabled: TabledCard) -> int:
    return len(tabled.kinds)


def _taken_first(table: Sequence[TabledCard], card: int) -> TabledCard | None:
    """The tabled copy of ``card`` a play takes under the choice of copies kept first: the one scored in most kinds
    (the first of them, as :func:`_take_in` orders its choices); None when no copy lies on the table."""
    copies = [t for t in table if t.card == card]
    return max(copies, key=_kinds_scored) if copies else None


def _place_in(
    worlds: list[_World], state: DealState, step: _WorldStep, uid: int, branch: bool
) -> tuple[list[_World], Breach | None]:
    """A declaration's cards laid out (``step``) under each choice of copies in ``worlds``, numbered from ``uid``:
    the choices under which it breaks no rule, the first first, with (``branch``) the other legal choices of copies
    it made; when it breaks a rule under all, the first alone. Also the first kept choice's breach."""
    _, seat, parts, spec, cards, reuse, score, held, trick_no, gained = step
    saved = state.held, state.trick_no, state.gained
    state.held, state.trick_no, state.gained = held, trick_no, gained  # (what the declaration saw)
    results = []
    try:
        for world in worlds:
            state.tables, state.pending = world
            state.next_uid = uid
            problem, spawned, _ = state._place(seat, parts, spec, cards, reuse, score, branch)
            results.append((world, problem, spawned if branch else [], state.next_uid))
    finally:
        state.held, state.trick_no, state.gained = saved
    kept = [r for r in results if r[1] is None] or results[:1]
    found = [w for world, _, spawned, _ in kept for w in (world, *spawned)]
    state.tables, state.pending = found[0]
    state.next_uid = max(r[3] for r in kept)
    return [found[0], *_distinct(found[0], found[1:])], kept[0][1]


def _copy_world(tables: list[list[TabledCard]], pending: list[list[tuple[str, tuple[int, ...]]]]) -> _World:
    return [[t.copy() for t in table] for table in tables], [list(p) for p in pending]


def _remove(world: _World, seat: int, chosen: TabledCard) -> None:
    """The tabled card ``chosen`` leaves ``seat``'s table, and the shown combinations it was part of lapse."""
    tables, pending = world
    tables[seat].remove(chosen)
    if pending[seat]:
        pending[seat] = [p for p in pending[seat] if chosen.uid not in p[1]]


def _world_key(world: _World) -> tuple[object, ...]:
    tables, pending = world
    card_of = {t.uid: t.card for table in tables for t in table}
    shown = tuple(
        tuple(sorted((kind, tuple(sorted(card_of.get(u, -1) for u in uids))) for kind, uids in p)) for p in pending
    )
    return table_signature(tables), shown


def _distinct(first: _World, others: Sequence[_World]) -> list[_World]:
    """The worlds of ``others`` that differ from ``first`` and from one another, at most ``_WORLDS_MAX - 1``."""
    if not others:
        return []
    seen = {_world_key(first)}
    kept = []
    for world in others:
        key = _world_key(world)
        if key in seen:
            continue
        seen.add(key)
        kept.append(world)
        if len(kept) == _WORLDS_MAX - 1:
            break
    return kept


def _elements(counts: Sequence[int]) -> tuple[int, ...]:
    """The cards a count per card holds, each as many times as it is held, in index order."""
    return tuple(c for c, n in enumerate(counts) for _ in range(n))


_Target = tuple[tuple[int, ...], tuple[tuple[int, int], ...]]
_Plan = list[tuple[MeldSpec, list[_Target] | None, int, tuple[int, ...]]]
_PLANS: dict[tuple[int, int], tuple[Rules, _Plan]] = {}


def _offer_plan(rules: Rules, trump: int) -> _Plan:
    """What :meth:`DealState._offers` looks for under the trump suit ``trump``: per meld a hand may declare, its
    exact card sets under each suit it may be declared in (``trumps_to_try``, ``meld_targets``, in that order), or
    None for n cards of one rank (:func:`_candidate_sets` counts those, the rank's four cards given), with how many
    suits are tried. Worked out
    once per rules and trump suit, kept by the rules' identity (hashing the rules costs more than the work): a
    playout asks after every trick."""
    kept = _PLANS.get((id(rules), trump))
    if kept is not None and kept[0] is rules:
        return kept[1]
    plan: _Plan = []
    for spec in rules.melds:
        if spec.whole_hand:
            continue
        tries = trumps_to_try(rules, spec, trump)
        if spec.rank is not None and not spec.distinct:
            plan.append((spec, None, len(tries), tuple(s * 8 + int(spec.rank) for s in range(4))))
        else:
            plan.append((spec, [target for t in tries for target in meld_targets(rules, spec, t)], len(tries), ()))
    _PLANS[(id(rules), trump)] = (rules, plan)
    return plan


def _candidate_sets(rules: Rules, spec: MeldSpec, held: Sequence[int], trump: int) -> list[tuple[int, ...]]:
    if spec.rank is not None and not spec.distinct:
        rank = int(spec.rank)
        of_rank = [s * 8 + rank for s in range(4)]
        if sum(held[c] for c in of_rank) < spec.count:
            return []
        pool = _by_display(c for c in of_rank for _ in range(held[c]))
        return list(dict.fromkeys(itertools.combinations(pool, spec.count)))
    wild = held[WILD_INDEX]
    result = []
    for cards, need in meld_targets(rules, spec, trump):
        result.extend(_with_wild(cards, need, held, wild))
    return result


def _with_wild(
    cards: tuple[int, ...], need: tuple[tuple[int, int], ...], held: Sequence[int], wild: int
) -> list[tuple[int, ...]]:
    """``cards`` as the seat can lay them out: as they are, or with wild cards for the missing ones (at most as
    many as it holds, and never all of them)."""
    if not wild:
        for card, n in need:
            if held[card] < n:
                return []
        return [cards]
    present: list[int] = []
    for card, n in need:
        present.extend([card] * min(n, held[card]))
    gap = len(cards) - len(present)
    if gap == 0:
        return [cards]
    if gap > wild or not present:
        return []
    return [(*present, *(WILD_INDEX,) * gap)]
