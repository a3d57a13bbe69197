"""The rules engine: a deal's state and the actions that change it. Pure: no I/O, no globals.

Every action is ``apply_*(state, ...) -> Step``. The input state is never changed: the step carries a new state,
the events that happened and the rule violations found. With ``force=False`` an action that breaks a rule raises
:class:`~replayer.errors.RuleViolation` instead; with ``force=True`` (how a replay reads a record) the action is
carried out as far as it can be, so that checking goes on after the first problem.

A state whose owner set ``in_place`` (the replay, which keeps no earlier state) is changed by the actions
themselves instead of a copy, which saves copying the whole state at every action.

The engine is generic: everything a variant changes is read from the :class:`~replayer.rules.RuleProfile`.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field

from .cards import WILD, Card, CardLike, CardPattern, Rank, Suit
from .errors import RuleViolation
from .gamescore import brisques_counted
from .melds import Assignment, TabledCard, choose_instances, extends_problem, identify, mark_scored, reuse_problem
from .rules import MeldSpec, RuleProfile

__all__ = [
    "DealState",
    "Scoring",
    "SeatState",
    "Step",
    "apply_carte_blanche",
    "apply_cut",
    "apply_declare",
    "apply_draw",
    "apply_exchange",
    "apply_out",
    "apply_pass",
    "apply_penalty",
    "apply_play",
    "apply_show",
    "finish_deal",
    "game_points",
    "legal_carte_blanche",
    "legal_declarations",
    "legal_exchanges",
    "legal_joint_declarations",
    "legal_plays",
    "next_dealer",
    "start_deal",
    "trick_winner",
]


@dataclass(frozen=True)
class Scoring:
    """Points scored: a declaration, a seven, the last trick, brisques."""

    seat: str
    kind: str
    cards: tuple[Card, ...]
    points: int


@dataclass
class SeatState:
    """What one seat holds and has won."""

    hand: Counter[Card] = field(default_factory=Counter)
    """Concealed cards."""
    table: list[TabledCard] = field(default_factory=list)
    """Declared cards lying face up; still part of the hand."""
    won: list[Card] = field(default_factory=list)
    score: int = 0
    pending: list[tuple[str, tuple[int, ...]]] = field(default_factory=list)
    """Combinations shown but not yet scored: (kind, tabled uids)."""
    unknown: list[CardPattern] = field(default_factory=list)
    """Cards held but not known (a lossy record): each becomes a known card when it is played or declared."""
    tricks_won: int = 0
    """Tricks won so far in this hand (some profiles let a seat declare only after winning several)."""
    declared_kinds: Counter[str] = field(default_factory=Counter)
    """How many times each kind has been scored in this hand (repeats score more in 004-C, RULES.md §2.l rule 9)."""
    blanche: int = 0
    """Carte blanche: 0 not declared, 1 declared (a non-court card drawn may be shown for another), 2 ended by a
    court card drawn (RULES.md §2.e rule 9)."""
    blanche_card: Card | None = None
    """The non-court card just drawn that may be shown for another carte blanche (until the seat plays)."""

    def held(self) -> Counter[Card]:
        """Hand and table cards together."""
        total = Counter(self.hand)
        for t in self.table:
            total[t.card] += 1
        return total

    def held_kinds(self) -> set[Card]:
        """The distinct cards of hand and table (the keys of :meth:`held`, without counting them)."""
        return {*self.hand, *(t.card for t in self.table)}

    def copy(self) -> SeatState:
        """An independent copy."""
        return SeatState(
            Counter(self.hand),
            [t.copy() for t in self.table],
            list(self.won),
            self.score,
            list(self.pending),
            list(self.unknown),
            self.tricks_won,
            Counter(self.declared_kinds),
            self.blanche,
            self.blanche_card,
        )

    def unknown_slot(self, card: Card) -> int | None:
        """Index of the most specific unknown card that may be ``card`` (None when none may)."""
        best = None
        for i, pattern in enumerate(self.unknown):
            if pattern.matches(card) and (best is None or pattern.specificity > self.unknown[best].specificity):
                best = i
        return best

    def can_hold(self, card: Card) -> bool:
        """True when ``card`` is held, known or possibly among the unknown cards."""
        return self.hand[card] > 0 or any(t.card == card for t in self.table) or self.unknown_slot(card) is not None


@dataclass
class DealState:
    """The state of one deal between actions."""

    profile: RuleProfile
    options: Mapping[str, str | int]
    dealer: str
    trump: Suit | None
    turnup: Card | None
    seats: dict[str, SeatState]
    stock: list[Card] | None
    """Face-down stock, top first, when the record gives its order; None when only draws tell it."""
    stock_left: int
    """Face-down cards left (the turn-up is not counted)."""
    seen: Counter[Card]
    """Cards dealt, drawn or turned up so far, for card conservation."""
    leader: str
    trick_no: int = 0
    """Tricks completed."""
    plays: list[tuple[str, Card]] = field(default_factory=list)
    """Cards played to the trick in progress."""
    winner: str | None = None
    """Winner of the last completed trick, while he may still act on it."""
    window_open: bool = False
    """The last trick's winner may still exchange or declare (before drawing)."""
    declared: list[tuple[Card, ...]] = field(default_factory=list)
    """Declarations scored after the current trick."""
    to_draw: list[str] = field(default_factory=list)
    """Seats that still draw after the last trick, in order."""
    next_uid: int = 0
    exchanged: bool = False
    turnup_waiting: bool = True
    """The turn-up still lies beside the stock."""
    revealed: dict[int, Card] = field(default_factory=dict)
    """What each tagged unknown card turned out to be (see CardPattern.tag)."""
    second_seven_shown: bool = False
    """The trump seven that could not be exchanged has been shown and scored (profiles with ``seven.second``)."""
    in_place: bool = field(default=False, compare=False, repr=False)
    """Actions change this state itself instead of a copy (its owner keeps no earlier state); copies are not."""
    out: str | None = None
    """The seat whose score reached the profile's ``hand_target``: the hand ended there (RULES.md §2.k rule 10)."""
    out_stated: bool = False
    """The record has said so (``N goes out``)."""
    must_lead: tuple[Card, ...] = ()
    """The cards of a declaration one of which its declarer must lead next (``declare.lead_from``)."""
    declarer: str | None = None
    """Who may declare after the last trick when its winner has let his partner declare (``N passes to S``)."""
    side_blanche: tuple[str, ...] = ()
    """The sides that have scored a double carte blanche (neither partner dealt a court card)."""

    @property
    def phase(self) -> int:
        """1 while the stock (with the turn-up) has cards or draws are due, else 2."""
        return 1 if (self.stock_left > 0 or self.turnup_in_stock or self.to_draw) else 2

    @property
    def turnup_in_stock(self) -> bool:
        """The turn-up has not been drawn yet."""
        return self.turnup is not None and self.turnup_waiting

    @property
    def stock_count(self) -> int:
        """Cards left to draw, turn-up included."""
        return self.stock_left + (1 if self.turnup_in_stock else 0)

    @property
    def finished(self) -> bool:
        """Every trick of the hand has been played, or a seat has reached the hand's target."""
        return (self.trick_no >= self.profile.total_tricks or self.out is not None) and not self.plays

    def option(self, name: str) -> str | int:
        """An option's value for this deal."""
        return self.options[name]

    def copy(self) -> DealState:
        """An independent copy (profiles and cards are immutable and shared)."""
        return DealState(
            profile=self.profile,
            options=self.options,
            dealer=self.dealer,
            trump=self.trump,
            turnup=self.turnup,
            seats={k: v.copy() for k, v in self.seats.items()},
            stock=list(self.stock) if self.stock is not None else None,
            stock_left=self.stock_left,
            seen=Counter(self.seen),
            leader=self.leader,
            trick_no=self.trick_no,
            plays=list(self.plays),
            winner=self.winner,
            window_open=self.window_open,
            declared=list(self.declared),
            to_draw=list(self.to_draw),
            next_uid=self.next_uid,
            exchanged=self.exchanged,
            turnup_waiting=self.turnup_waiting,
            revealed=dict(self.revealed),
            second_seven_shown=self.second_seven_shown,
            out=self.out,
            out_stated=self.out_stated,
            must_lead=self.must_lead,
            declarer=self.declarer,
            side_blanche=self.side_blanche,
        )

    def scores(self) -> dict[str, int]:
        """Running scores by scorer: each seat, or each side (``N+S``) where partners keep a joint score."""
        profile = self.profile
        if not profile.sides:  # everyone scores for himself, the seats in order (the common case)
            return {seat: seat_state.score for seat, seat_state in self.seats.items()}
        totals = dict.fromkeys(profile.scorers, 0)
        scorer_of = profile.scorer_of
        for seat, seat_state in self.seats.items():
            totals[scorer_of[seat]] += seat_state.score
        return totals

    def next_seat(self, seat: str) -> str:
        """The seat after ``seat`` in playing order."""
        order = self.profile.seats
        return order[(order.index(seat) + 1) % len(order)]


@dataclass
class Step:
    """The result of one action."""

    state: DealState
    events: list[Scoring] = field(default_factory=list)
    violations: list[RuleViolation] = field(default_factory=list)
    winner: str | None = None
    """Set when the action completed a trick."""

    def check(self, force: bool) -> Step:
        if self.violations and not force:
            raise self.violations[0]
        return self


def _successor(state: DealState) -> DealState:
    """The state an action changes: a copy, unless the state's owner lets actions change it in place."""
    return state if state.in_place else state.copy()


_COURT = frozenset({Rank.KING, Rank.QUEEN, Rank.JACK})
"""The court cards (figures): a carte blanche is a hand without any."""


def _is_trump_seven(card: Card, trump: Suit | None) -> bool:
    return trump is not None and card.suit == trump and card.rank == Rank.SEVEN


def _is_exchange_card(profile: RuleProfile, card: Card, trump: Suit | None) -> bool:
    """The trump card that is exchanged for the turn-up: the seven, or what ``seven.rank`` names (the ten in 003)."""
    return trump is not None and card.suit == trump and card.rank == profile.seven_rank


def _reach_target(state: DealState, seat: str) -> None:
    """A seat whose score reaches ``hand_target`` ends the hand at once: no more draws, declarations or tricks."""
    target = state.profile.hand_target
    if target and state.out is None and state.seats[seat].score >= target:
        state.out = seat
        state.to_draw = []
        state.window_open = False


def start_deal(
    profile: RuleProfile,
    options: Mapping[str, str | int],
    dealer: str,
    trump: Suit | None,
    turnup: Card | None,
    hands: Mapping[str, Sequence[CardLike]],
    stock: Sequence[Card] | None = None,
    leader: str | None = None,
    force: bool = False,
) -> Step:
    """The state after the deal: hands dealt, the turn-up showing (and the dealer's 10 for a trump seven).

    A seat missing from ``hands`` was dealt unknown cards; a hand may also hold unknown cards (``Q?``, ``??``).
    The deal is played under ``profile.with_options(options)``: options that change the rules are applied here.
    """
    profile = profile.with_options(options)
    violations: list[RuleViolation] = []
    if turnup is not None and trump is None:
        trump = turnup.suit
    if trump is not None and profile.trump_fixing:
        # RULES.md §2.e rule 4, §2.j rule 2: no trumps at the deal; a declaration fixes them (the deal plays without).
        violations.append(
            RuleViolation(
                "BZ107",
                f"the {profile.name} profile has no trumps at the deal: the first marriage or sequence declared "
                f"fixes them",
            )
        )
        trump = None
    if turnup is not None and turnup.is_wild:
        violations.append(RuleViolation("BZ107", "the wild card has no suit and cannot be turned up (004:L157)"))
    elif turnup is not None and turnup.suit != trump:
        violations.append(
            RuleViolation(
                "BZ107",
                f"the turn-up {turnup} fixes trumps as {turnup.suit.english}, not {trump.english if trump else 'none'}",
            )
        )
    seats = {}
    seen: Counter[Card] = Counter()
    for seat in profile.seats:
        cards = list(hands[seat]) if seat in hands else [CardPattern(None, None)] * profile.hand_size
        if len(cards) != profile.hand_size:
            violations.append(
                RuleViolation(
                    "BZ108", f"{seat} is dealt {len(cards)} cards; the {profile.name} profile deals {profile.hand_size}"
                )
            )
        known = [c for c in cards if isinstance(c, Card)]
        seats[seat] = SeatState(hand=Counter(known), unknown=[c for c in cards if isinstance(c, CardPattern)])
        seen.update(known)
    if turnup is not None:
        seen[turnup] += 1
    face_down = profile.stock_size - (1 if profile.turnup else 0)
    if stock is not None:
        seen.update(stock)
        if len(stock) != face_down:
            violations.append(
                RuleViolation(
                    "BZ108", f"the stock lists {len(stock)} face-down cards; {face_down} remain after the deal"
                )
            )
    violations.extend(_conservation(profile, seen))
    if leader is None:
        leader = _first_leader(profile, dealer)
    state = DealState(
        profile=profile,
        options=options,
        dealer=dealer,
        trump=trump,
        turnup=turnup,
        seats=seats,
        stock=list(stock) if stock is not None else None,
        stock_left=face_down,
        seen=seen,
        leader=leader,
        turnup_waiting=turnup is not None,
    )
    events = []
    if turnup is not None and profile.seven_turnup and _is_trump_seven(turnup, trump):
        seats[dealer].score += profile.seven_turnup
        events.append(Scoring(dealer, "turnup_seven", (turnup,), profile.seven_turnup))
    return Step(state, events, violations).check(force)


def _first_leader(profile: RuleProfile, dealer: str) -> str:
    """Who leads to trick 1: the seat after the dealer in playing order (his left, the non-dealer of two), or the
    seat before him (his right, RULES.md §2.f rule 5, 004:L35)."""
    order = profile.seats
    step = -1 if profile.first_leader == "dealer_right" else 1
    return order[(order.index(dealer) + step) % len(order)]


def _conservation(profile: RuleProfile, seen: Mapping[Card, int]) -> list[RuleViolation]:
    problems = []
    for card, n in seen.items():
        copies = profile.copies(card)
        if not copies:
            problems.append(RuleViolation("BZ404", f"{card} is not in the {profile.name} pack"))
        elif n > copies:
            problems.append(RuleViolation("BZ404", f"{card} appears {n} times; the {profile.name} deck holds {copies}"))
    return problems


def trick_winner(plays: Sequence[tuple[str, Card]], trump: Suit | None) -> int:
    """Index of the winning play: highest trump, else highest card of the suit led; first of equals wins.

    The wild card has no value of its own (RULES.md §2.l rule 10, option wild_trick): it wins no trick, and when it
    is led the next card played wins over it.
    """
    best = 0
    for i in range(1, len(plays)):
        card, top = plays[i][1], plays[best][1]
        if card.is_wild or top.is_wild:
            if top.is_wild and not card.is_wild:
                best = i
        elif card.suit == top.suit:
            if card.rank > top.rank:
                best = i
        elif trump is not None and card.suit == trump:
            best = i
    return best


def legal_plays(state: DealState, seat: str) -> set[Card]:
    """The cards ``seat`` may play now (any held card in phase 1 unless the profile obliges following)."""
    held = state.seats[seat].held_kinds()
    if not state.plays:
        if seat == state.leader and held & set(state.must_lead):
            return held & set(state.must_lead)
        return held
    rule = state.profile.phase2_play if state.phase == 2 else state.profile.phase1_play
    return _obliged(rule, held, state.plays, state.trump)[0]


def _obliged(
    rule: str, held: set[Card], plays: Sequence[tuple[str, Card]], trump: Suit | None
) -> tuple[set[Card], str, str]:
    """(allowed cards, code, reason) under a play rule for the current trick."""
    if rule == "free" or plays[0][1].is_wild:
        return held, "", ""  # (a wild card led has no suit to follow: any card)
    led = plays[0][1].suit
    top = plays[trick_winner(plays, trump)][1]
    same = {c for c in held if c.suit == led and not c.is_wild}
    if same:
        if rule == "follow_win_trump" and top.suit == led:
            higher = {c for c in same if c.rank > top.rank}
            if higher:
                best = sorted(higher, key=lambda c: c.sort_key)
                return higher, "BZ204", f"must win the trick: holds {best[0]} which beats {top}"
        named = " ".join(str(c) for c in sorted(same, key=lambda c: c.sort_key))
        return same, "BZ203", f"must follow suit: holds {named} of the {led.english} led"
    if rule in ("follow_win_trump", "follow_trump") and trump is not None:
        trumps = {c for c in held if c.suit == trump and not c.is_wild}
        if trumps:
            if top.suit == trump:
                over = {c for c in trumps if c.rank > top.rank}
                if over:
                    return (
                        over,
                        "BZ204",
                        f"must win the trick: holds {sorted(over, key=lambda c: c.sort_key)[0]} which beats {top}",
                    )
                if rule == "follow_win_trump":
                    # Only with three or more cards to a trick: an earlier player has trumped and no trump held
                    # beats his; the third hand "unable to follow or win by trumping" may discard anything
                    # (RULES.md §2.f rule 7, [BR9]).
                    return held, "", ""
            named = " ".join(str(c) for c in sorted(trumps, key=lambda c: c.sort_key))
            return trumps, "BZ205", f"must trump: void in {led.english}, holds {named}"
    return held, "", ""


def _take(seat_state: SeatState, card: Card, revealed: dict[int, Card]) -> bool | None:
    """Remove a card from the table (most-used instance first), the hand or the unknown cards.

    Returns True when it was known to be held, None when it was one of the unknown cards, False when not held.
    """
    on_table = [t for t in seat_state.table if t.card == card]
    if on_table:
        on_table.sort(key=lambda t: -len(t.kinds))
        chosen = on_table[0]
        seat_state.table.remove(chosen)
        seat_state.pending = [p for p in seat_state.pending if chosen.uid not in p[1]]
        return True
    if seat_state.hand[card] > 0:
        seat_state.hand[card] -= 1
        if not seat_state.hand[card]:
            del seat_state.hand[card]
        return True
    slot = seat_state.unknown_slot(card)
    if slot is not None:
        tag = seat_state.unknown.pop(slot).tag
        if tag is not None:
            revealed[tag] = card
        return None
    return False


def _reveal(state: DealState, seat: str, card: Card) -> list[RuleViolation]:
    """An unknown card of ``seat`` turns out to be ``card``: it joins the known hand (card conservation checked)."""
    seat_state = state.seats[seat]
    slot = seat_state.unknown_slot(card)
    if slot is None:
        return []
    tag = seat_state.unknown.pop(slot).tag
    if tag is not None:
        state.revealed[tag] = card
    seat_state.hand[card] += 1
    state.seen[card] += 1
    return _conservation(state.profile, {card: state.seen[card]})


def apply_play(state: DealState, seat: str, card: Card, force: bool = False) -> Step:
    """Play a card to the current trick; completing a trick decides its winner and its automatic scores."""
    new = _successor(state)
    step = Step(new)
    v = step.violations
    profile = new.profile
    if new.to_draw:
        missing = ", ".join(new.to_draw)
        v.append(RuleViolation("BZ402", f"trick {new.trick_no} is not finished: {missing} must still draw"))
        new.to_draw = []
    new.window_open = False
    new.winner = None
    new.seats[seat].blanche_card = None
    expected = new.leader if not new.plays else new.next_seat(new.plays[-1][0])
    if seat != expected:
        if not new.plays:
            v.append(RuleViolation("BZ202", f"{expected} leads to trick {new.trick_no + 1}, not {seat}"))
        else:
            v.append(RuleViolation("BZ202", f"{expected} plays next to trick {new.trick_no + 1}, not {seat}"))
    if new.trick_no >= profile.total_tricks:
        v.append(RuleViolation("BZ207", f"the hand has only {profile.total_tricks} tricks"))
    elif new.out is not None:
        v.append(
            RuleViolation(
                "BZ208",
                f"the hand is over: {new.out} reached {profile.hand_target} after trick {new.trick_no}, which ends it",
            )
        )
    if not new.plays and new.must_lead:
        if seat == new.leader and card not in new.must_lead:
            named = " or ".join(str(c) for c in dict.fromkeys(new.must_lead))
            v.append(RuleViolation("BZ209", f"{seat} must lead a card of the combination he declared: {named}"))
        new.must_lead = ()
    seat_state = new.seats[seat]
    phase = new.phase
    rule = profile.phase2_play if phase == 2 else profile.phase1_play
    if not seat_state.can_hold(card):
        v.append(RuleViolation("BZ201", f"{seat} plays {card} but does not hold it"))
    elif new.plays and rule != "free":  # (under the free rule any card held may follow: nothing to work out)
        # Unknown cards cannot oblige: only the known ones (and the card played) are judged.
        held = seat_state.held_kinds()
        allowed, code, reason = _obliged(rule, held | {card}, new.plays, new.trump)
        if card not in allowed:
            led = new.plays[0][1].suit
            same = sorted((c for c in held if c.suit == led), key=lambda c: c.sort_key)
            if code == "BZ204" and card.suit != led and same:
                # Not following suit at all is the first fault (a revoke), even when a winning card of the suit is
                # held.
                code = "BZ203"
                reason = f"must follow suit: holds {' '.join(str(c) for c in same)} of the {led.english} led"
            v.append(RuleViolation(code, f"{seat} plays {card} but {reason}"))
    if _take(seat_state, card, new.revealed) is None:
        new.seen[card] += 1
        v.extend(_conservation(profile, {card: new.seen[card]}))
    new.plays.append((seat, card))
    if (
        phase in profile.seven_played_phases
        and profile.seven_played
        and not profile.seven_played_must_win
        and _is_trump_seven(card, new.trump)
    ):
        seat_state.score += profile.seven_played
        step.events.append(Scoring(seat, "seven_played", (card,), profile.seven_played))
    if len(new.plays) == profile.players:
        _finish_trick(new, step, phase)
    return step.check(force)


def _finish_trick(state: DealState, step: Step, phase: int) -> None:
    profile = state.profile
    i = trick_winner(state.plays, state.trump)
    winner, winning_card = state.plays[i]
    trick_leader = state.plays[0][0]
    state.trick_no += 1
    state.seats[winner].won.extend(c for _, c in state.plays)
    state.seats[winner].tricks_won += 1
    if profile.card_points and profile.card_points_when == "trick":
        cards = tuple(c for _, c in state.plays)
        points = sum(profile.card_value(c, state.trump) for c in cards)
        if points:
            state.seats[winner].score += points
            step.events.append(Scoring(winner, "card_points", cards, points))
    if (
        phase in profile.seven_played_phases
        and profile.seven_played
        and profile.seven_played_must_win
        and _is_trump_seven(winning_card, state.trump)
    ):
        state.seats[winner].score += profile.seven_played
        step.events.append(Scoring(winner, "seven_played", (winning_card,), profile.seven_played))
    last = state.option("last_trick") if "last_trick" in state.options else "final"
    last_no = profile.phase1_tricks if str(last) == "24" else profile.total_tricks
    if state.trick_no == last_no and profile.last_trick_points:
        if profile.last_trick_to == "halves" and profile.sides:
            # Shared out between the sides (one reading of 001:L50, 004:L357): the first seat of each side books it.
            share = profile.last_trick_points // len(profile.sides)
            for side in profile.sides:
                state.seats[side[0]].score += share
                step.events.append(Scoring(side[0], "last_trick", (), share))
        else:
            state.seats[winner].score += profile.last_trick_points
            step.events.append(Scoring(winner, "last_trick", (), profile.last_trick_points))
    state.plays = []
    state.leader = winner
    state.winner = winner
    state.declarer = None
    step.winner = winner
    state.declared = []
    if phase == 1:
        state.window_open = True
        order = [winner if profile.draw_order == "winner_first" else trick_leader]
        while len(order) < profile.players:
            order.append(state.next_seat(order[-1]))
        state.to_draw = order
    elif 2 in profile.declare_phases and profile.declare_until == "lead":
        # Where declaring goes on with the last tricks (sixty-six, RULES.md §2.k rule 8), the winner may declare
        # before he leads again.
        state.window_open = True
    _reach_target(state, winner)


def _window_problem(state: DealState, seat: str, what: str, declaring: bool = True) -> RuleViolation | None:
    """Why ``seat`` may not declare (or, with ``declaring=False``, exchange) now; None when he may."""
    if state.out is not None:
        target = state.profile.hand_target
        return RuleViolation("BZ208", f"{seat} cannot {what}: the hand is over ({state.out} reached {target})")
    if state.phase not in state.profile.declare_phases:
        return RuleViolation(
            "BZ302", f"{what} after trick {state.trick_no}: no declarations once the stock is exhausted (phase 2)"
        )
    if state.winner is None or not state.window_open:
        until = "drawing" if state.profile.declare_until == "draw" else "leading to the next trick"
        return RuleViolation("BZ301", f"{seat} cannot {what} now: only the winner of a trick, before {until}")
    if declaring and state.declarer is not None:
        if seat != state.declarer:
            return RuleViolation(
                "BZ301", f"{state.winner} let {state.declarer} declare after trick {state.trick_no}; {seat} may not"
            )
        return None
    if seat != state.winner:
        partner = state.profile.partner(state.winner) if state.profile.declare_by == "winner_or_partner" else None
        hint = f" (or his partner {partner}, after '{state.winner} passes to {partner}')" if partner == seat else ""
        return RuleViolation(
            "BZ301",
            f"{seat} did not win trick {state.trick_no} ({state.winner} did); only the trick's winner{hint} may {what}",
        )
    return None


def apply_pass(state: DealState, seat: str, partner: str, force: bool = False) -> Step:
    """The trick's winner lets his partner declare instead of himself (RULES.md §2.g.1 rule 4, 000:L373).

    Only where the profile says so (``declare.by: winner_or_partner``), before anything is declared after the trick.
    """
    new = _successor(state)
    step = Step(new)
    v = step.violations
    profile = new.profile
    if profile.declare_by != "winner_or_partner":
        v.append(RuleViolation("BZ311", f"the {profile.name} profile does not let a player pass his declaration"))
    elif profile.partner(seat) != partner:
        v.append(RuleViolation("BZ311", f"{partner} is not {seat}'s partner (sides: {' '.join(profile.scorers)})"))
    else:
        problem = _window_problem(new, seat, "pass the declaration")
        if problem is not None:
            v.append(problem)
        elif new.declared:
            v.append(RuleViolation("BZ311", f"{seat} has already declared after trick {new.trick_no}"))
    if not v or force:
        new.declarer = partner
    return step.check(force)


def _exchange_window(state: DealState, seat: str) -> RuleViolation | None:
    """Why ``seat`` may not exchange (or show) the trump seven now; None when he may."""
    if state.profile.seven_exchange_when == "any_time":
        # RULES.md §2.c rule 5 (002:L9): the holder exchanges; no won trick is required, only a pause between tricks.
        if state.plays:
            return RuleViolation("BZ309", f"{seat} cannot exchange the seven in the middle of a trick")
        return None
    problem = _window_problem(state, seat, "exchange the seven", declaring=False)
    if problem is not None and problem.code == "BZ301":
        problem.code = "BZ309"
    return problem


def apply_exchange(state: DealState, seat: str, card: Card, points: int | None = None, force: bool = False) -> Step:
    """Exchange the trump seven for the turn-up (after winning a trick, or as the profile allows).

    When the turn-up is already a trump seven and the profile scores the other seven (``seven.second``), the same
    statement shows that seven instead: it scores and stays in the hand.
    """
    new = _successor(state)
    step = Step(new)
    v = step.violations
    profile = new.profile
    problem = _exchange_window(new, seat)
    if problem is not None:
        v.append(problem)
    seat_state = new.seats[seat]
    if _is_exchange_card(profile, card, new.trump) and seat_state.held()[card] <= 0:
        v.extend(_reveal(new, seat, card))
    show = False
    if not _is_exchange_card(profile, card, new.trump):
        what = profile.seven_rank.english
        v.append(RuleViolation("BZ309", f"only the {what} of trumps is exchanged for the turn-up, not {card}"))
    elif new.turnup is None or not new.turnup_in_stock:
        v.append(RuleViolation("BZ309", "there is no turn-up left to exchange"))
    elif _is_exchange_card(profile, new.turnup, new.trump) and not profile.seven_second:
        v.append(RuleViolation("BZ309", f"the turn-up is already a {profile.seven_rank.english} ({new.turnup})"))
    elif _is_exchange_card(profile, new.turnup, new.trump) and new.second_seven_shown:
        v.append(RuleViolation("BZ309", "the other seven of trumps has already been shown and scored"))
    elif seat_state.held()[card] <= 0:
        v.append(RuleViolation("BZ309", f"{seat} exchanges {card} but does not hold it"))
    else:
        show = _is_exchange_card(profile, new.turnup, new.trump)
    awarded = profile.seven_second if show else profile.seven_exchange
    if points is not None and points != awarded:
        what = "showing the other seven" if show else "the seven exchange"
        v.append(RuleViolation("BZ305", f"{what} is claimed for {points}; the {profile.name} profile scores {awarded}"))
    if not v or force:
        if show:
            new.second_seven_shown = True
            seat_state.score += awarded
            step.events.append(Scoring(seat, "seven_shown", (card,), awarded))
            return step.check(force)
        if seat_state.held()[card] > 0 and new.turnup is not None:
            # A seven declared in a combination lies on the table; it is still the player's to exchange.
            _take(seat_state, card, new.revealed)
            seat_state.hand[new.turnup] += 1
            new.turnup = card
        new.exchanged = True
        seat_state.score += awarded
        step.events.append(Scoring(seat, "seven_exchange", (card,), awarded))
    return step.check(force)


def legal_exchanges(state: DealState) -> list[tuple[str, Card]]:
    """Every (seat, trump seven) that may be exchanged for the turn-up, or shown, now."""
    if state.trump is None or not state.turnup_in_stock or state.turnup is None:
        return []
    seven = Card(state.trump, state.profile.seven_rank)
    found = []
    for seat in state.profile.seats:
        if state.seats[seat].held()[seven] <= 0 or _exchange_window(state, seat) is not None:
            continue
        done = not state.profile.seven_second or state.second_seven_shown
        if _is_exchange_card(state.profile, state.turnup, state.trump) and done:
            continue
        found.append((seat, seven))
    return found


def _pick(
    state: DealState, parts: Sequence[tuple[str, Sequence[Card]]], spec: MeldSpec, check_reuse: bool
) -> tuple[list[Assignment] | None, RuleViolation | None]:
    """Choose the physical cards for a declaration, one assignment per (seat, cards) part (two parts for a
    declaration formed with the partner's cards): the first legal choice, preferring tabled cards."""
    per_part = []
    for seat, cards in parts:
        seat_state = state.seats[seat]
        options = list(choose_instances(cards, seat_state.hand, seat_state.table))
        if not options:
            missing = Counter(cards) - seat_state.held()
            names = " ".join(str(c) for c in sorted(missing.elements(), key=lambda c: c.sort_key))
            return None, RuleViolation(
                "BZ303", f"{spec.label} needs {names}, which {seat} does not hold (in hand or on the table)"
            )
        per_part.append(options)
    choices = [list(c) for c in itertools.product(*per_part)]
    if not check_reuse:
        return choices[0], None
    first_problem = None
    profile = state.profile
    mode = str(state.option("reuse")) if "reuse" in state.options else profile.reuse
    points = {m.kind: m.points for m in profile.melds}
    # The whole side's table: a combination declared with the partner's cards is still intact (not refillable)
    # while the partner's part lies on his table.
    side = profile.scorer(parts[0][0])
    table = [t for seat in profile.seats if profile.scorer(seat) == side for t in state.seats[seat].table]
    for choice in choices:
        merged = Assignment(tuple(u for a in choice for u in a.tabled), tuple(c for a in choice for c in a.from_hand))
        problem = reuse_problem(spec, merged, table, mode, points, profile.no_reuse, state.trick_no)
        if problem is None:
            problem = extends_problem(spec, merged, table)
        if problem is None:
            return choice, None
        if first_problem is None:
            first_problem = RuleViolation(*problem)
    return choices[0], first_problem


def _reveal_all(state: DealState, seat: str, cards: Sequence[Card]) -> list[RuleViolation]:
    """Unknown cards that a declaration shows become known (as far as the known cards do not cover it)."""
    missing = Counter(cards) - state.seats[seat].held()
    problems = []
    for card in missing.elements():
        problems.extend(_reveal(state, seat, card))
    return problems


def _lay_out(state: DealState, seat: str, assignment: Assignment) -> tuple[int, ...]:
    seat_state = state.seats[seat]
    uids = list(assignment.tabled)
    for card in assignment.from_hand:
        seat_state.hand[card] -= 1
        if not seat_state.hand[card]:
            del seat_state.hand[card]
        seat_state.table.append(TabledCard(state.next_uid, card))
        uids.append(state.next_uid)
        state.next_uid += 1
    return tuple(uids)


def _wait_problem(state: DealState, seat: str, spec: MeldSpec) -> RuleViolation | None:
    """A meld declared before its seat has won the tricks the profile makes it wait for (RULES.md §3.2 row D3)."""
    profile = state.profile
    waits = not profile.declare_wait_kinds or spec.kind in profile.declare_wait_kinds
    won = state.seats[seat].tricks_won
    if not waits or won >= profile.declare_after_tricks:
        return None
    return RuleViolation(
        "BZ302",
        f"{seat} has won {won} trick(s); a {spec.label} may be declared only after winning "
        f"{profile.declare_after_tricks} tricks in the hand",
    )


def _fixing(state: DealState, cards: Sequence[Card]) -> tuple[list[MeldSpec], Suit | None]:
    """While no suit is trumps: the melds that these cards form as the declaration fixing trumps, and that suit.

    RULES.md §2.e rule 4: without a turn-up the first marriage (or sequence) declared fixes trumps; its cards are
    judged as if their suit were trumps already, so the first marriage is the royal one.
    """
    if state.trump is not None or not state.profile.trump_fixing or not cards:
        return [], None
    suit = cards[0].suit
    kinds = dict(state.profile.trump_fixing)
    found = [spec for spec in identify(state.profile, cards, suit) if spec.kind in kinds]
    return found, suit if found else None


def _resolve_kind(
    state: DealState, cards: Sequence[Card], kind: str | None
) -> tuple[MeldSpec | None, RuleViolation | None]:
    profile = state.profile
    found = identify(profile, cards, state.trump) + _fixing(state, cards)[0]
    names = " ".join(str(c) for c in cards)
    if kind is not None:
        spec = profile.meld(kind)
        if spec is None:
            known = ", ".join(m.kind for m in profile.melds)
            return None, RuleViolation("BZ109", f"the {profile.name} profile has no meld {kind!r} (melds: {known})")
        if spec.whole_hand:
            return spec, RuleViolation("BZ304", f"a {spec.label} shows the whole hand (and then each card drawn)")
        if spec not in found:
            actual = f" (they form a {found[0].label})" if found else ""
            return spec, RuleViolation("BZ304", f"{names} do not form a {spec.label}{actual}")
        return spec, None
    if not found:
        return None, RuleViolation("BZ304", f"{names} do not form any meld of the {profile.name} profile")
    return found[0], None


def apply_declare(
    state: DealState,
    seat: str,
    kind: str | None,
    cards: Sequence[Card],
    points: int | None = None,
    force: bool = False,
    partner_cards: Sequence[Card] = (),
    partner: str | None = None,
) -> Step:
    """Declare (score) a combination after winning a trick.

    ``partner_cards`` are the cards of the declarer's partner (``partner``, checked when given) that complete the
    combination, where the profile lets partners declare together (``declare.joint``, RULES.md §2.g.1 rule 4); each
    part lies on its owner's table.
    With ``force`` a declaration that breaks a rule is still scored as the record says (what the rules give for
    its cards, or the points claimed when they form no meld), so that later stated scores are not all reported
    again; the violation is reported once.
    """
    spec_named = state.profile.meld(kind) if kind is not None else None
    if spec_named is not None and spec_named.whole_hand:
        return apply_carte_blanche(state, seat, spec_named, cards, points, force)
    new = _successor(state)
    step = Step(new)
    v = step.violations
    profile = new.profile
    seat_state = new.seats[seat]
    parts: list[tuple[str, Sequence[Card]]] = [(seat, cards)]
    if partner_cards:
        if not profile.declare_joint or profile.partner(seat) is None:
            v.append(
                RuleViolation(
                    "BZ312", f"the {profile.name} profile does not let partners declare with each other's cards"
                )
            )
        elif partner is not None and partner != profile.partner(seat):
            v.append(RuleViolation("BZ312", f"{partner} is not {seat}'s partner ({' '.join(profile.scorers)})"))
        elif not cards:
            # "из карт как его самого, так и его партнера" (000:L373): his own and his partner's; a combination
            # wholly the partner's is declared by the partner, after a pass.
            v.append(
                RuleViolation(
                    "BZ312", f"{seat} adds none of his own cards; his partner declares it himself after a pass"
                )
            )
        else:
            parts.append((profile.partner(seat) or seat, partner_cards))
    everything = [*cards, *partner_cards]
    problem = _window_problem(new, seat, "declare")
    if problem is not None:
        v.append(problem)
    spec, kind_problem = _resolve_kind(new, everything, kind)
    if kind_problem is not None:
        v.append(kind_problem)
    if spec is not None and problem is None:
        problem = _wait_problem(new, seat, spec)
        if problem is not None:
            v.append(problem)
    per_trick = str(new.options.get("declarations_per_trick", "1"))
    if new.declared and problem is None:
        if per_trick == "1":
            v.append(
                RuleViolation(
                    "BZ308",
                    f"{seat} already scored a declaration after trick {new.trick_no}; one declaration is scored "
                    f"per trick won (others wait for a later trick)",
                )
            )
        elif any(set(everything) & set(prev) for prev in new.declared):
            v.append(RuleViolation("BZ308", "declarations scored after one trick may not share a card"))
    if spec is None or kind_problem is not None:
        if force and points:
            seat_state.score += points
            step.events.append(Scoring(seat, kind or "declaration", tuple(everything), points))
        return step.check(force)
    uids: tuple[int, ...] = ()
    for owner, part in parts:
        v.extend(_reveal_all(new, owner, part))
    pending = _pending_match(seat_state, spec, cards) if len(parts) == 1 else None
    if pending is not None:
        uids = seat_state.pending.pop(pending)[1]
    else:
        assignments, hold_problem = _pick(new, parts, spec, check_reuse=problem is None)
        if hold_problem is not None and problem is None:
            v.append(hold_problem)
        if assignments is not None:
            uids = tuple(u for (owner, _), a in zip(parts, assignments, strict=True) for u in _lay_out(new, owner, a))
    # A kind declared again in the hand may score more (004-C's progressions, RULES.md §2.l rule 9).
    nth = seat_state.declared_kinds[spec.kind] + 1
    value = spec.points_for(nth, profile.repeat_rule)
    fixing, suit = _fixing(new, everything)
    if spec in fixing and suit is not None:
        # The declaration that fixes trumps scores what the profile gives it (RULES.md §2.e rule 4, §2.j rule 3).
        new.trump = suit
        value = dict(profile.trump_fixing)[spec.kind]
    if points is not None and points != value:
        again = f" (declared for the {_ordinal(nth)} time)" if nth > 1 else ""
        scores = f"the {profile.name} profile scores {value}{again}"
        v.append(RuleViolation("BZ305", f"{spec.label} claimed for {points}, {scores}"))
    for owner, _ in parts:
        mark_scored(new.seats[owner].table, uids, spec, new.trick_no)
    seat_state.score += value
    seat_state.declared_kinds[spec.kind] += 1
    new.declared.append(tuple(everything))
    step.events.append(Scoring(seat, spec.kind, tuple(everything), value))
    if profile.declare_lead_from:
        new.must_lead = tuple(cards)
    _reach_target(new, seat)
    return step.check(force)


def _ordinal(n: int) -> str:
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


def _pending_match(seat_state: SeatState, spec: MeldSpec, cards: Sequence[Card]) -> int | None:
    """Index of the shown (not yet scored) combination these cards repeat, if any."""
    wanted = sorted(cards, key=lambda c: c.sort_key)
    for i, (kind, uids) in enumerate(seat_state.pending):
        tabled = [t.card for t in seat_state.table if t.uid in uids]
        if kind == spec.kind and len(tabled) == len(uids) and sorted(tabled, key=lambda c: c.sort_key) == wanted:
            return i
    return None


def apply_show(state: DealState, seat: str, kind: str | None, cards: Sequence[Card], force: bool = False) -> Step:
    """Lay out a combination after winning a trick without scoring it; it may be scored after a later trick."""
    new = _successor(state)
    step = Step(new)
    v = step.violations
    problem = _window_problem(new, seat, "show a combination")
    if problem is not None:
        v.append(problem)
    spec, kind_problem = _resolve_kind(new, cards, kind)
    if kind_problem is not None:
        v.append(kind_problem)
    if spec is None:
        return step.check(force)
    if problem is None:
        wait = _wait_problem(new, seat, spec)
        if wait is not None:
            v.append(wait)
    v.extend(_reveal_all(new, seat, cards))
    assignments, hold_problem = _pick(new, [(seat, cards)], spec, check_reuse=True)
    if hold_problem is not None:
        v.append(hold_problem)
    if assignments is not None:
        uids = _lay_out(new, seat, assignments[0])
        new.seats[seat].pending.append((spec.kind, uids))
    return step.check(force)


def apply_draw(state: DealState, seat: str, card: CardLike, force: bool = False) -> Step:
    """Draw a card from the stock after a trick; the last card drawn is the turn-up.

    An unknown card (``Q?``, ``??``) joins the seat's unknown cards unless the stock's order makes it known.
    """
    new = _successor(state)
    step = Step(new)
    v = step.violations
    if not new.to_draw:
        if new.stock_count == 0:
            v.append(RuleViolation("BZ402", f"{seat} draws {card} but the stock is exhausted"))
        else:
            v.append(RuleViolation("BZ402", f"{seat} draws {card} but no draw is due (draws follow a trick)"))
    elif new.to_draw[0] != seat:
        first = new.to_draw[0]
        why = (
            "the trick's winner draws first"
            if new.profile.draw_order == "winner_first"
            else "the trick's leader draws first"
        )
        v.append(RuleViolation("BZ401", f"{first} draws before {seat} after trick {new.trick_no}: {why}"))
    if seat in new.to_draw:
        new.to_draw.remove(seat)
    if new.profile.declare_until == "draw":
        new.window_open = False
    drawn: CardLike = card
    if new.stock_left > 0:
        if new.stock:  # (a stated stock shorter than the deal leaves was reported by start_deal, BZ108)
            expected = new.stock[0]
            if not _agrees(card, expected):
                v.append(RuleViolation("BZ403", f"{seat} draws {card} but the next card of the stock is {expected}"))
            drawn = new.stock.pop(0)
        elif isinstance(card, Card):
            new.seen[card] += 1
            v.extend(_conservation(new.profile, {card: new.seen[card]}))
        new.stock_left -= 1
    elif new.turnup_in_stock and new.turnup is not None:
        if not _agrees(card, new.turnup):
            v.append(RuleViolation("BZ403", f"{seat} draws {card} but the last card is the turn-up, {new.turnup}"))
        drawn = new.turnup
        new.turnup_waiting = False
    if isinstance(drawn, Card):
        new.seats[seat].hand[drawn] += 1
        if new.seats[seat].blanche == 1:
            # RULES.md §2.e rule 9 (001:L60): each non-court card drawn may be shown for another carte blanche,
            # until the first court card drawn ends it.
            court = drawn.rank in _COURT
            new.seats[seat].blanche = 2 if court else 1
            new.seats[seat].blanche_card = None if court else drawn
    else:
        new.seats[seat].unknown.append(drawn)
    if new.phase == 2:
        _take_up_table(new)
    return step.check(force)


def _agrees(stated: CardLike, actual: Card) -> bool:
    return stated == actual if isinstance(stated, Card) else stated.matches(actual)


def _take_up_table(state: DealState) -> None:
    """Phase 2 begins: table cards go back into the hands and pending combinations lapse."""
    for seat_state in state.seats.values():
        for t in seat_state.table:
            seat_state.hand[t.card] += 1
        seat_state.table = []
        seat_state.pending = []


def finish_deal(state: DealState, force: bool = False) -> Step:
    """End of the hand: brisques, card points counted at the end (and checks that it was played out)."""
    new = _successor(state)
    step = Step(new)
    if not new.finished:
        step.violations.append(
            RuleViolation("BZ506", f"the deal ends after {new.trick_no} tricks; a hand has {new.profile.total_tricks}")
        )
    elif new.out is not None and not new.out_stated:
        step.violations.append(
            RuleViolation(
                "BZ507",
                f"{new.out} reached {new.profile.hand_target} after trick {new.trick_no}, which ends the hand: the "
                f"record says so with '{new.out} goes out'",
            )
        )
    profile = new.profile
    count_brisques = True
    if profile.brisques_when == "tie_or_rubicon" and profile.game_scoring is not None:
        won = dict.fromkeys(profile.scorers, 0)  # by seat, or by side where partners score jointly
        for seat, st in new.seats.items():
            won[profile.scorer(seat)] += sum(c.rank in profile.brisque_ranks for c in st.won) * profile.brisque_points
        count_brisques = brisques_counted(new.scores(), won, profile.game_scoring.rubicon)
    for seat, seat_state in new.seats.items():
        brisques = [c for c in seat_state.won if c.rank in profile.brisque_ranks]
        points = len(brisques) * profile.brisque_points if count_brisques else 0
        seat_state.score += points
        if profile.brisque_points:
            step.events.append(Scoring(seat, "brisques", tuple(brisques), points))
        if profile.card_points and profile.card_points_when == "end":
            counted = tuple(c for c in seat_state.won if profile.card_value(c, new.trump))
            total = sum(profile.card_value(c, new.trump) for c in counted)
            seat_state.score += total
            step.events.append(Scoring(seat, "card_points", counted, total))
    return step.check(force)


def apply_out(state: DealState, seat: str, points: int | None = None, force: bool = False) -> Step:
    """``N goes out``: the record says that ``seat`` has reached the hand's target, which ended the hand.

    The end is automatic (RULES.md §2.k rule 10: reaching 66 "заканчивает игру"); the statement makes the record say
    it where it happens, and is checked: the seat has reached the target, and ``points`` is its score.
    """
    new = _successor(state)
    step = Step(new)
    target = new.profile.hand_target
    score = new.seats[seat].score
    if not target:
        step.violations.append(RuleViolation("BZ507", f"the {new.profile.name} profile plays every hand out"))
    elif new.out != seat:
        why = f"{new.out} went out first" if new.out is not None else f"{seat} has {score}, not {target}"
        step.violations.append(RuleViolation("BZ507", f"{seat} cannot go out: {why}"))
    elif new.out_stated:
        step.violations.append(RuleViolation("BZ507", f"{seat} has already gone out"))
    elif points is not None and points != score:
        step.violations.append(RuleViolation("BZ507", f"{seat} goes out with {score}, not {points}"))
    if new.out == seat and not new.out_stated:
        new.out_stated = True
        # Scores nothing itself (the hand's points are in): the event lets a replay and a lesson show the end.
        step.events.append(Scoring(seat, "goes_out", (), 0))
    return step.check(force)


def apply_penalty(
    state: DealState, seat: str, kind: str, points: int | None = None, banked: int = 0, force: bool = False
) -> Step:
    """``N penalty extra_card = 50``: deduct a penalty of the profile's table from ``seat``'s score (RULES.md §3.6).

    The record states the penalty; the offence itself is told in its commentary. ``banked`` is what the seat's
    scorer has from earlier hands of the game: a penalty of ``all`` points ("всі очки гравця обнуляється", 001:L42)
    takes those too, so that the game total starts again from 0. ``unscored`` cancels the combinations the seat has
    shown but not yet scored (004:L329, one reading).
    """
    new = _successor(state)
    step = Step(new)
    table = dict(new.profile.penalties)
    if kind not in table:
        listed = ", ".join(table) or "none"
        step.violations.append(
            RuleViolation("BZ313", f"the {new.profile.name} profile has no penalty {kind!r} (penalties: {listed})")
        )
        return step.check(force)
    amount = table[kind]
    seat_state = new.seats[seat]
    if amount == "all":
        deducted = banked + new.scores()[new.profile.scorer(seat)]
    elif amount == "unscored":
        deducted = 0
        seat_state.pending = []
    else:
        deducted = int(amount)
    if points is not None and points != deducted:
        step.violations.append(
            RuleViolation("BZ314", f"the {kind} penalty costs {seat} {deducted} points here, not {points}")
        )
    seat_state.score -= deducted
    step.events.append(Scoring(seat, f"penalty_{kind}", (), -deducted))
    return step.check(force)


def game_points(state: DealState) -> dict[str, int]:
    """What a finished hand scores toward the game under the profile's ``game_points`` table (empty without one).

    The winner is the seat that reached the hand's target (or, under ``played_out: last_trick_wins``, the winner of
    the last trick of a hand played out); he scores the first row whose threshold the loser's score reaches.
    """
    profile = state.profile
    if not profile.game_points:
        return {}
    result = dict.fromkeys(profile.seats, 0)
    winner = state.out
    if winner is None and profile.played_out == "last_trick_wins" and state.finished:
        winner = state.winner
    if winner is None:
        return result
    loser = max((s for s in profile.seats if s != winner), key=lambda s: state.seats[s].score)
    lost = state.seats[loser].score
    result[winner] = next(points for lowest, points in profile.game_points if lost >= lowest)
    return result


def next_dealer(profile: RuleProfile, dealer: str, won: Mapping[str, int]) -> str:
    """The next hand's dealer after ``dealer``'s hand, which scored ``won`` game points: the winner or the loser of
    that hand where the profile's ``next_dealer`` says so (RULES.md §2.k rule 4), else the next seat."""
    seats = profile.seats
    winners = [s for s, v in won.items() if v]
    following = seats[(seats.index(dealer) + 1) % len(seats)]
    if profile.next_dealer == "alternate" or len(winners) != 1:
        return following
    return winners[0] if profile.next_dealer == "winner" else seats[(seats.index(winners[0]) + 1) % len(seats)]


def _offers(state: DealState, seat: str, pool: Counter[Card]) -> Iterator[tuple[MeldSpec, tuple[Card, ...]]]:
    """The combinations the cards of ``pool`` form that ``seat`` might declare now (nothing when he may not declare
    at all): every meld he need not wait for, under the trump suit or, before trumps are fixed, the suit it would fix;
    none sharing a card with a declaration already scored after this trick."""
    if _window_problem(state, seat, "declare") is not None:
        return
    if state.declared and str(state.options.get("declarations_per_trick", "1")) == "1":
        return
    fixing = dict(state.profile.trump_fixing) if state.trump is None else {}
    for spec in state.profile.melds:
        if spec.whole_hand or _wait_problem(state, seat, spec) is not None:
            continue
        candidates = _candidate_sets(spec, pool, state.trump)
        if spec.kind in fixing:
            for suit in Suit:
                candidates += _candidate_sets(spec, pool, suit)
        for cards in candidates:
            if not (state.declared and any(set(cards) & set(prev) for prev in state.declared)):
                yield spec, cards


def legal_declarations(state: DealState, seat: str) -> list[tuple[MeldSpec, tuple[Card, ...]]]:
    """Every combination ``seat`` could score now (after winning the last trick, before drawing)."""
    found: list[tuple[MeldSpec, tuple[Card, ...]]] = []
    for spec, cards in _offers(state, seat, state.seats[seat].held()):
        assignments, problem = _pick(state, [(seat, cards)], spec, check_reuse=True)
        if assignments is not None and problem is None:
            found.append((spec, cards))
    return found


def legal_joint_declarations(state: DealState, seat: str) -> list[tuple[MeldSpec, tuple[Card, ...], tuple[Card, ...]]]:
    """Every combination ``seat`` could score now only with his partner's cards: (meld, his cards, the partner's).

    Empty unless the profile lets partners declare together (``declare.joint``, RULES.md §2.g.1 rule 4). Each
    combination is split once: as many of its cards as ``seat`` holds are his, the rest his partner's.
    """
    partner = state.profile.partner(seat)
    if not state.profile.declare_joint or partner is None:
        return []
    own = state.seats[seat].held()
    found = []
    for spec, cards in _offers(state, seat, own + state.seats[partner].held()):
        mine = Counter(cards) & own
        rest = Counter(cards) - mine
        if not rest or not mine:
            continue  # he can declare it alone, or it is all his partner's (who declares it after a pass)
        parts = [(seat, tuple(mine.elements())), (partner, tuple(rest.elements()))]
        assignments, problem = _pick(state, parts, spec, check_reuse=True)
        if assignments is not None and problem is None:
            found.append((spec, parts[0][1], parts[1][1]))
    return found


def _candidate_sets(spec: MeldSpec, held: Counter[Card], trump: Suit | None) -> list[tuple[Card, ...]]:
    if spec.rank is not None and not spec.distinct:
        if sum(n for c, n in held.items() if c.rank == spec.rank) < spec.count:
            return []
        pool = sorted((c for c in held.elements() if c.rank == spec.rank), key=lambda c: c.sort_key)
        return list(dict.fromkeys(itertools.combinations(pool, spec.count)))
    wild = held[WILD]
    result = []
    for cards, need in _meld_targets(spec, trump):
        result.extend(_with_wild(cards, need, held, wild))
    return result


@functools.cache
def _meld_targets(
    spec: MeldSpec, trump: Suit | None
) -> tuple[tuple[tuple[Card, ...], tuple[tuple[Card, int], ...]], ...]:
    """The exact card sets a meld can be under these trumps, each with its cards counted (computed once: this runs
    for every meld after every trick of a random deal)."""
    if spec.cards or spec.trump_ranks or spec.partner_ranks:
        sets = [spec.cards_for(trump)]
    elif spec.rank is not None:  # of different suits
        sets = [tuple(Card(s, spec.rank) for s in Suit)[: spec.count]]
    else:
        sets = [
            tuple(Card(suit, r) for r in spec.ranks)
            for suit in Suit
            if not (spec.suit == "trump" and suit != trump)
            and not (spec.suit == "plain" and (trump is None or suit == trump))
        ]
    return tuple((cards, tuple(Counter(cards).items())) for cards in sets if cards)


def _with_wild(
    cards: tuple[Card, ...], need: tuple[tuple[Card, int], ...], held: Counter[Card], wild: int
) -> list[tuple[Card, ...]]:
    """``cards`` as the seat can lay them out: as they are, or with wild cards for the missing ones (at most as
    many as it holds, and never all of them)."""
    present: list[Card] = []
    for card, n in need:
        present.extend([card] * min(n, held[card]))
    gap = len(cards) - len(present)
    if gap == 0:
        return [cards]
    if gap > wild or not present:
        return []
    return [(*present, *(WILD,) * gap)]


def legal_carte_blanche(state: DealState, seat: str, spec: MeldSpec | None = None) -> bool:
    """True when ``seat`` may declare a carte blanche now (the first before trick 1, or a repeat after a draw);
    ``spec`` picks one of several whole-hand melds (the profile's first by default)."""
    spec = spec or next((m for m in state.profile.melds if m.whole_hand), None)
    return spec is not None and not _blanche_problems(state, seat, spec, [])


def _side_blanche_problems(state: DealState, seat: str, spec: MeldSpec) -> list[RuleViolation]:
    """Why ``seat`` may not declare his side's double carte blanche now: neither partner was dealt a court card
    (RULES.md §2.g.1 rule 5, 000:L353); shown before the first trick, once for the side."""
    profile = state.profile
    partner = profile.partner(seat)
    if partner is None:
        return [RuleViolation("BZ312", f"a {spec.label} needs partners; the {profile.name} profile has none")]
    if state.trick_no or state.plays:
        return [RuleViolation("BZ301", f"a {spec.label} is declared before the first trick is played")]
    if profile.scorer(seat) in state.side_blanche:
        return [RuleViolation("BZ308", f"{profile.scorer(seat)} has already scored its {spec.label}")]
    for who in (seat, partner):
        held = state.seats[who].held()
        courts = sorted((c for c in held.elements() if c.rank in _COURT), key=lambda c: c.sort_key)
        if courts or state.seats[who].unknown:
            shown = " ".join(str(c) for c in courts) or "unknown cards"
            return [
                RuleViolation("BZ304", f"{who} holds {shown}: a {spec.label} needs both hands without a court card")
            ]
    return []


def _blanche_problems(state: DealState, seat: str, spec: MeldSpec, cards: Sequence[Card]) -> list[RuleViolation]:
    """Why ``seat`` may not declare this carte blanche now (RULES.md §2.e rule 9); empty when he may."""
    if spec.hand == "no_court_side":
        return _side_blanche_problems(state, seat, spec)
    seat_state = state.seats[seat]
    if seat_state.blanche == 0:
        if state.trick_no or state.plays:
            return [RuleViolation("BZ301", f"a {spec.label} is declared before the first trick is played")]
        held = seat_state.held()
        courts = sorted((c for c in held.elements() if c.rank in _COURT), key=lambda c: c.sort_key)
        if courts or seat_state.unknown:
            shown = " ".join(str(c) for c in courts) or "unknown cards"
            return [RuleViolation("BZ304", f"{seat} holds {shown}: a {spec.label} is a hand without a court card")]
        if cards and Counter(cards) != held:
            return [RuleViolation("BZ304", f"a {spec.label} shows the whole hand: {_names(held.elements())}")]
        return []
    if seat_state.blanche == 2:
        return [RuleViolation("BZ301", f"{seat}'s {spec.label} ended with the court card he drew")]
    if seat_state.blanche_card is None:
        return [
            RuleViolation(
                "BZ301",
                f"another {spec.label} is scored by showing the non-court card just drawn, before playing again",
            )
        ]
    if list(cards) not in ([], [seat_state.blanche_card]):
        return [RuleViolation("BZ304", f"{seat} shows the card he drew, {seat_state.blanche_card}")]
    return []


def _names(cards: Iterable[Card]) -> str:
    return " ".join(str(c) for c in sorted(cards, key=lambda c: c.sort_key))


def apply_carte_blanche(
    state: DealState, seat: str, spec: MeldSpec, cards: Sequence[Card], points: int | None = None, force: bool = False
) -> Step:
    """Declare a carte blanche: the whole hand without a court card, shown before the first trick; then again for
    each non-court card drawn, shown before playing, until a court card is drawn (RULES.md §2.e rule 9).

    ``cards`` is the hand shown (the first time) or the card drawn (a repeat); it may be left empty. No trick need
    be won, and it is not the trick's one declaration.
    """
    new = _successor(state)
    step = Step(new, violations=_blanche_problems(new, seat, spec, cards))
    if points is not None and points != spec.points:
        step.violations.append(
            RuleViolation(
                "BZ305", f"{spec.label} claimed for {points}, the {new.profile.name} profile scores {spec.points}"
            )
        )
    seat_state = new.seats[seat]
    if spec.hand == "no_court_side":
        if not step.violations or force:
            new.side_blanche = (*new.side_blanche, new.profile.scorer(seat))
            partner = new.profile.partner(seat) or seat
            shown = tuple(cards) or tuple(seat_state.held().elements()) + tuple(new.seats[partner].held().elements())
            seat_state.score += spec.points
            step.events.append(Scoring(seat, spec.kind, shown, spec.points))
        return step.check(force)
    if not step.violations or force:
        shown = tuple(cards) or (
            tuple(seat_state.held().elements())
            if seat_state.blanche == 0
            else ((seat_state.blanche_card,) if seat_state.blanche_card else ())
        )
        seat_state.blanche = max(seat_state.blanche, 1)
        seat_state.blanche_card = None
        seat_state.score += spec.points
        step.events.append(Scoring(seat, spec.kind, shown, spec.points))
    return step.check(force)


def apply_cut(state: DealState, lifted: int | None, guess: int | None) -> Step:
    """The six-pack deal bonuses (RULES.md §2.h rule 3, 000:L395): the non-dealer scores the guess bonus when he
    guessed exactly how many cards the dealer lifted; the dealer scores the lift bonus when he lifted exactly the
    profile's count (24). Facts of the deal, stated in the record (``cut:``, ``guess:``)."""
    new = _successor(state)
    step = Step(new)
    guess_points, lift_points, lift_count = new.profile.cut_bonus
    if lifted is None:
        return step
    if guess is not None and guess == lifted and guess_points:
        other = new.next_seat(new.dealer)
        new.seats[other].score += guess_points
        step.events.append(Scoring(other, "cut_guess", (), guess_points))
    if lifted == lift_count and lift_points:
        new.seats[new.dealer].score += lift_points
        step.events.append(Scoring(new.dealer, "cut_lift", (), lift_points))
    return step
