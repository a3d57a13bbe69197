"""Completing lossy records: unknown cards inferred from the rules, card conservation and the stated facts.

A record may leave cards unknown: a suit lost in transcription (``Q?``), a whole card (``??``), a hand or the
draws left out, or who led a trick (``N K? / S A?``). Such a record is valid when at least one completion of
its unknowns satisfies every rule and every stated fact.

How it works. The deal becomes a satisfiability problem whose variables say which card each play is. Card
conservation and possession are exact constraints: every copy is played exactly once, and each seat's plays are
matched one to one with what it was dealt, drew or took in an exchange, each acquired before it is played.
The stated trick winners, the trick-winner rule and the last-eight obligations (both asked of the rules engine
for each pair of cards), the declarations (the cards held at that moment), and the stated scores (the points
that depend on the unknown cards counted in tens) are constraints too. The SAT solver propagates them and
learns from conflicts; each completion it proposes is then replayed by the rules engine itself, which has the
last word (anything the encoding leaves out, such as the re-use rules, is checked there, and a rejected
completion is excluded before the solver is asked again).

The solver (python-sat's Glucose) earns its place: the worked deal printed without suits has about 150 unknown
cards whose constraints reach across the whole deal (a ten drawn at trick 16 must win trick 17), where a
search trick by trick backtracks without end; the solver answers in a fraction of a second and names the
conflicting statements (an unsatisfiable core) when there is no completion.
"""

from __future__ import annotations

import copy
import itertools
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import CARD_INDICES, SUITS, Card, CardLike, CardPattern, Rank, Suit
from .errors import Span
from .profile import RuleProfile
from .record import Claim, Deal, Declare, Draw, Draws, Exchange, Penalty, ScoreCheck, deal_has_unknowns
from .replay import replay_deal
from .rules import compile_rules, matches, obligation, trick_winner

__all__ = ["Inference", "Statement", "Unknown", "deal_has_unknowns", "infer_deal", "unsupported"]

if TYPE_CHECKING:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver


def _load_solver() -> None:
    """Import the SAT solver on first use: records without unknown cards never pay for it at start-up."""
    global CardEnc, EncType, IDPool, Solver
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver


@dataclass
class Unknown:
    """One unknown card of a record and where it stands."""

    tag: int
    pattern: CardPattern
    where: str
    """Human description: "trick 4, N's card", "N's hand", "trick 8, S's draw"."""
    span: Span | None
    seat: str

    @property
    def trick(self) -> int | None:
        """The trick it belongs to (None for a dealt card)."""
        if not self.where.startswith("trick "):
            return None
        return int(self.where.split(",")[0].split()[1])

    @property
    def role(self) -> str:
        """ "card" (played), "draw", "hand" (dealt), "exchange" or "declaration"."""
        if self.where.endswith("'s hand"):
            return "hand"
        if "'s card" in self.where:
            return "card"
        if "'s draw" in self.where:
            return "draw"
        if "exchanged seven" in self.where:
            return "exchange"
        return "declaration"


@dataclass
class Statement:
    """A stated fact of the record that the inference must satisfy (reported when facts conflict)."""

    text: str
    span: Span | None


@dataclass
class Inference:
    """The result of completing one deal."""

    deal: Deal | None
    """The completed deal (a copy of the record's), or None when no completion exists."""
    unknowns: list[Unknown]
    values: dict[int, Card] = field(default_factory=dict)
    """The completion chosen, by unknown tag."""
    possible: dict[int, set[Card]] = field(default_factory=dict)
    """Every value some completion gives each unknown (after the analysis)."""
    analysed: bool = False
    conflict: list[Statement] = field(default_factory=list)
    """When there is no completion: a small set of stated facts that cannot all hold."""
    failure: str = ""
    seconds: float = 0.0
    solver_calls: int = 0
    replays: int = 0
    undecided: dict[int, set[Card]] = field(default_factory=dict)
    """Values whose possibility the analysis could not settle within its budget."""
    hands: dict[str, Any] = field(default_factory=dict)
    """For seats dealt unknown cards: {"slots": how many, "certain": Counter of cards every completion deals}."""
    lenient: bool = False
    """The completion lets go of stated facts that conflict (a repaired deal: see :func:`infer_deal`)."""

    def status(self, unknown: Unknown) -> tuple[str, list[Card]]:
        """("forced" | "open" | "chosen", the other possible values) of one unknown; "chosen" when not analysed."""
        value = self.values.get(unknown.tag)
        others = sorted(self.possible.get(unknown.tag, set()) - ({value} if value else set()), key=lambda c: c.sort_key)
        if not self.analysed or self.undecided.get(unknown.tag):
            return "chosen", others
        return ("open" if others else "forced"), others

    def forced(self) -> list[Unknown]:
        """Unknowns (other than dealt cards) with exactly one possible value."""
        return [
            u
            for u in self.unknowns
            if not self._dealt(u) and len(self.possible.get(u.tag, ())) == 1 and not self.undecided.get(u.tag)
        ]

    def open(self) -> list[Unknown]:
        """Unknowns (other than dealt cards) with more than one possible value."""
        return [u for u in self.unknowns if not self._dealt(u) and len(self.possible.get(u.tag, ())) > 1]

    @staticmethod
    def _dealt(unknown: Unknown) -> bool:
        return unknown.where.endswith("'s hand")


def unsupported(profile: RuleProfile) -> str | None:
    """Why the completion of unknown cards does not handle this profile (None when it does).

    The encoding plays every card of the pack exactly once and knows only the seven of trumps as the exchanged
    card: a hand that may end before its cards are all played (``hand_target``) or another exchanged rank is not
    encoded, so a lossy record of such a profile is refused with a reason rather than answered wrongly.
    """
    if profile.hand_target:
        return f"a {profile.name} hand may end before every card is played (at {profile.hand_target})"
    if profile.extra_cards:
        return f"the {profile.name} deck adds cards to its packs (nines, wild cards)"
    if profile.seven_rank != Rank.SEVEN:
        return f"the {profile.name} profile exchanges the trump {profile.seven_rank.english}, not the seven"
    if profile.players != 2 or profile.sides:
        return f"the {profile.name} profile has {profile.players} players (the completion encodes two)"
    if profile.card_points:
        # The stated scores are encoded with the brisques only: a card's points in a won trick would leave every
        # running score unmatched, and a completable deal answered "no completion" (BZ601).
        return f"the {profile.name} profile scores card points in won tricks (the completion counts brisques)"
    if not profile.turnup:
        # Trumps are fixed by the first marriage or sequence declared there; the encoding takes them from the
        # turn-up, so a completable deal would be answered "no completion" (BZ601).
        return (
            f"the {profile.name} profile has no turn-up: trumps come from the first declaration, "
            "which the completion does not encode"
        )
    return None


# --- the deal, as the encoding sees it ---------------------------------------------------------------------


@dataclass
class _Play:
    index: int
    seat: str
    trick: int
    time: float
    pattern: CardLike
    play: Any
    """The record's Play (to write the value back)."""
    domain: list[Card] = field(default_factory=list)
    give: bool = False
    """An exchange: the seven leaves the hand without being played to a trick."""


@dataclass
class _Acq:
    index: int
    seat: str
    time: float
    pattern: CardLike
    target: tuple[str, Any, Any] | None
    """Where to write the value back: ("attr", obj, name) or ("item", list, index)."""
    tag: int | None = None
    where_auto: bool = False
    """A draw the record leaves out."""


def _set(target: tuple[str, Any, Any], value: Any) -> None:
    how, obj, key = target
    if how == "item":
        obj[key] = value
    else:
        setattr(obj, key, value)


class _Encoding:
    """The deal as clauses. Every soft clause carries the selector of the statement it comes from."""

    def __init__(self, deal: Deal, profile: RuleProfile, options: dict[str, str | int], dealer: str) -> None:
        _load_solver()
        self.profile = profile.with_options(options)
        """The profile as the deal plays it: an option may change its packs (no-trump's four packs of 004-B)."""
        self.options = options
        self.rules = compile_rules(profile, options)
        self.dealer = dealer
        self.deal = copy.deepcopy(deal)
        self.trump: Suit | None = self.deal.trump or (
            self.deal.turnup.suit if isinstance(self.deal.turnup, Card) else None
        )
        self.trump_index = SUITS.index(self.trump) if self.trump is not None else -1
        """Trumps as the rules core counts suits (-1: none)."""
        self.pack = [Card(s, r) for s in Suit for r in profile.ranks]
        self.pool = IDPool()
        self.hard: list[list[int]] = []
        self.soft: list[tuple[int, list[int]]] = []
        self.statements: dict[int, Statement] = {}
        self.unknowns: list[Unknown] = []
        self.targets: dict[int, tuple[str, Any, Any]] = {}
        self.plays: list[_Play] = []
        self.acqs: list[_Acq] = []
        self.declarations: list[tuple[Declare, float, list[tuple[int, list[Card]]]]] = []
        self.autodraws: list[tuple[Draws, list[_Acq]]] = []
        self._defined: set[Any] = set()
        self.uses: dict[int, list[tuple[float, int]]] = {}
        self.kinds: dict[tuple[str, str], list[tuple[float, Any]]] = {}
        self.fixed_values: dict[int, Card] = {}
        self.leaders: dict[int, dict[str, int]] = {}
        self.winners: dict[int, dict[str, int] | str] = {}
        self._collect()
        self._encode()

    # variables ---------------------------------------------------------------------------------------------

    def x(self, play: _Play, card: Card) -> int:
        return self.pool.id(("x", play.index, card))

    def m(self, acq: _Acq, play: _Play) -> int:
        return self.pool.id(("m", acq.index, play.index))

    def new(self) -> int:
        return self.pool.id(("aux", self.pool.top + 1))

    def selector(self, text: str, span: Span | None) -> int:
        lit = self.pool.id(("sel", len(self.statements)))
        self.statements[lit] = Statement(text, span)
        return lit

    def add(self, clause: list[int], selector: int | None = None) -> None:
        if selector is None:
            self.hard.append(clause)
        else:
            self.soft.append((selector, clause))

    def card_constraint(self, lits: list[int], bound: int, kind: str, selector: int | None = None) -> None:
        if kind == "atleast" and bound <= 0:
            return
        if kind == "atleast" and bound > len(lits):
            self.add([], selector) if selector is None else self.add([-selector], None)
            return
        if kind == "equals" and (bound > len(lits) or bound < 0):
            self.add([]) if selector is None else self.add([-selector])
            return
        encode = {"atleast": CardEnc.atleast, "atmost": CardEnc.atmost, "equals": CardEnc.equals}[kind]
        formula = encode(lits=lits, bound=bound, vpool=self.pool, encoding=EncType.seqcounter)
        for clause in formula.clauses:
            self.add(list(clause), selector)

    # collecting the deal ------------------------------------------------------------------------------------

    def tag(self, pattern: CardPattern, where: str, span: Span | None, seat: str, target: tuple[str, Any, Any]) -> int:
        tag = len(self.unknowns)
        self.unknowns.append(Unknown(tag, pattern, where, span, seat))
        self.targets[tag] = target
        return tag

    def _acq(
        self,
        seat: str,
        time_: float,
        card: CardLike,
        target: tuple[str, Any, Any] | None,
        where: str,
        span: Span | None,
    ) -> _Acq:
        acq = _Acq(len(self.acqs), seat, time_, card, target)
        if isinstance(card, CardPattern) and target is not None:
            acq.tag = self.tag(card, where, span, seat, target)
        self.acqs.append(acq)
        return acq

    def _play(
        self,
        seat: str,
        trick: int,
        time_: float,
        card: CardLike,
        play: Any,
        where: str,
        span: Span | None,
        give: bool = False,
    ) -> _Play:
        entry = _Play(len(self.plays), seat, trick, time_, card, play, give=give)
        entry.domain = [card] if isinstance(card, Card) else [c for c in self.pack if card.matches(c)]
        if isinstance(card, CardPattern) and play is not None:
            self.tag(card, where, span, seat, ("attr", play, "card"))
        self.plays.append(entry)
        return entry

    def _collect(self) -> None:
        deal, profile = self.deal, self.profile
        for seat in profile.seats:
            if seat not in deal.hands:
                deal.hands[seat] = [CardPattern(None, None)] * profile.hand_size
            hand = deal.hands[seat]
            for i, card in enumerate(hand):
                self._acq(seat, 0.0, card, ("item", hand, i), f"{seat}'s hand", deal.hand_spans.get(seat))
        self.exchange_seven: Card | None = None
        for k, trick in enumerate(deal.tricks):
            t = float(trick.number)
            for play in trick.plays:
                self._play(
                    play.seat, trick.number, t, play.card, play, f"trick {trick.number}, {play.seat}'s card", play.span
                )
            clock = t + 0.1
            has_draws = False
            for item in trick.items:
                clock += 0.01
                if isinstance(item, Exchange):
                    seven = Card(self.trump, Rank.SEVEN) if self.trump else None
                    if isinstance(item.card, CardPattern) and seven is not None:
                        # Only the seven of trumps can be exchanged: the rule itself fills this unknown.
                        self.fixed_values[len(self.unknowns)] = seven
                        self.tag(
                            item.card,
                            f"trick {trick.number}, {item.seat}'s exchanged seven",
                            item.card_span,
                            item.seat,
                            ("attr", item, "card"),
                        )
                    if seven is not None and isinstance(deal.turnup, Card):
                        self._play(item.seat, trick.number, clock, seven, None, "", None, give=True)
                        self._acq(item.seat, clock + 0.001, deal.turnup, None, "", None)
                        self.exchange_seven = seven
                elif isinstance(item, Declare):
                    self._declaration(item, clock, trick.number)
                elif isinstance(item, Draws):
                    has_draws = True
                    for draw in item.draws:
                        clock += 0.001
                        self._acq(
                            draw.seat,
                            clock,
                            draw.card,
                            ("attr", draw, "card"),
                            f"trick {trick.number}, {draw.seat}'s draw",
                            draw.span,
                        )
            if not has_draws and k < profile.phase1_tricks and deal.stock is None:
                added = Draws([], trick.span)
                trick.items.append(added)
                acqs = []
                for seat in profile.seats:
                    draw = Draw(seat, CardPattern(None, None), trick.span, trick.span)
                    added.draws.append(draw)
                    acqs.append(
                        self._acq(
                            seat,
                            t + 0.5,
                            draw.card,
                            ("attr", draw, "card"),
                            f"trick {trick.number}, {seat}'s draw (not in the record)",
                            trick.span,
                        )
                    )
                for acq in acqs:
                    acq.where_auto = True
                self.autodraws.append((added, acqs))
        # The last card drawn is the turn-up, or the seven exchanged into its place.
        self.last_value = self.exchange_seven or (deal.turnup if isinstance(deal.turnup, Card) else None)
        self.last_draws: list[_Acq] = []
        if self.profile.turnup and len(deal.tricks) >= profile.phase1_tricks:
            trick = deal.tricks[profile.phase1_tricks - 1]
            self.last_trick = trick.number
            self.last_draws = [
                a for a in self.acqs if a.target is not None and trick.number < a.time < trick.number + 1
            ]
            explicit = [a for a in self.last_draws if not a.where_auto]
            if self.last_value is not None and len(explicit) == len(self.last_draws) and explicit:
                last = explicit[-1]
                if isinstance(last.pattern, CardPattern) and last.pattern.matches(self.last_value):
                    last.pattern = self.last_value

    def _declaration(self, item: Declare, clock: float, trick: int) -> None:
        spec = self.profile.meld(item.kind) if item.kind else None
        if not item.cards and spec is not None:
            if spec.cards:
                item.cards = list(spec.cards)
            elif spec.rank is not None:
                item.cards = [CardPattern(None, spec.rank)] * spec.count
            else:
                suit = self.trump if spec.suit == "trump" else None
                item.cards = [CardPattern(suit, r) for r in spec.ranks]
            item.card_spans = [item.span] * len(item.cards)
        tags = []
        for k, card in enumerate(item.cards):
            if isinstance(card, CardPattern):
                # Each unknown card of a declaration described and placed on its own, so that a listing tells
                # which ``?`` is which.
                where = f"trick {trick}, {item.seat}'s {item.kind or 'declaration'}"
                if len(item.cards) > 1:
                    where += f", card {k + 1} of {len(item.cards)}"
                span = item.card_spans[k] if k < len(item.card_spans) else item.span
                tags.append(self.tag(card, where, span, item.seat, ("item", item.cards, k)))
        domains = [[c] if isinstance(c, Card) else [d for d in self.pack if c.matches(d)] for c in item.cards]
        options: list[tuple[int, list[Card]]] = []
        seen: set[tuple[Card, ...]] = set()
        for combo in itertools.product(*domains):
            key = tuple(sorted(combo, key=lambda c: c.sort_key))
            if key in seen or any(n > self.profile.packs for n in Counter(combo).values()):
                continue
            seen.add(key)
            if spec is not None and not matches(self.rules, spec, [c.index for c in combo], self.trump_index):
                continue
            options.append((self.new(), list(combo)))
        self.declarations.append((item, clock, options))

    # the clauses -----------------------------------------------------------------------------------------------

    def _encode(self) -> None:
        self._exactly_one_card()
        self._conservation()
        self._possession()
        self._tricks()
        self._turnup_to_the_loser()
        self._declare()
        self._scores()

    def _turnup_to_the_loser(self) -> None:
        """When the record leaves out the last draws, the loser of the last phase-1 trick takes the turn-up."""
        autos = [a for a in self.last_draws if a.where_auto]
        winners = self.winners.get(getattr(self, "last_trick", -1))
        if self.last_value is None or not autos or not isinstance(winners, dict):
            return
        for acq in autos:
            for play in self.plays:
                lit = self.pool.obj2id.get(("m", acq.index, play.index))
                if not lit:
                    continue
                clause = [-lit, winners[acq.seat]]  # either this seat won (it draws face down) ...
                if self.last_value in play.domain:
                    clause.append(self.x(play, self.last_value))  # ... or it takes the turn-up
                self.add(clause)

    def _exactly_one_card(self) -> None:
        for play in self.plays:
            lits = [self.x(play, c) for c in play.domain]
            self.card_constraint(lits, 1, "equals")

    def _conservation(self) -> None:
        real = [p for p in self.plays if not p.give]
        if len(real) != self.profile.deck_size:
            return  # an incomplete deal: conservation is checked by the engine only
        for card in self.pack:
            lits = [self.x(p, card) for p in real if card in p.domain]
            self.card_constraint(lits, self.profile.packs, "equals")

    def _possession(self) -> None:
        """Each seat's plays are matched one to one with what it acquired before playing them."""
        for seat in self.profile.seats:
            plays = [p for p in self.plays if p.seat == seat]
            acqs = [a for a in self.acqs if a.seat == seat]
            by_acq: dict[int, list[int]] = {a.index: [] for a in acqs}
            for play in plays:
                lits = []
                for acq in acqs:
                    if acq.time >= play.time:
                        continue
                    fits = [c for c in play.domain if _fits(acq.pattern, c)]
                    if not fits:
                        continue
                    lit = self.m(acq, play)
                    lits.append(lit)
                    by_acq[acq.index].append(lit)
                    if len(fits) < len(play.domain):
                        self.add([-lit] + [self.x(play, c) for c in fits])
                self.card_constraint(lits, 1, "equals")
            for acq in acqs:
                self.card_constraint(by_acq[acq.index], 1, "equals")

    def held(self, play: _Play, card: Card, moment: float) -> int:
        """A literal implying that ``play`` is ``card`` and that this card was already held at ``moment``."""
        key = ("h", play.index, card, moment)
        lit = self.pool.id(key)
        if key not in self._defined:
            self._defined.add(key)
            self.add([-lit, self.x(play, card)])
            earlier = [
                self.m(a, play)
                for a in self.acqs
                if a.seat == play.seat and a.time < moment and self.pool.obj2id.get(("m", a.index, play.index))
            ]
            self.add([-lit, *earlier])
        return lit

    def _tricks(self) -> None:
        profile, tricks = self.profile, self.deal.tricks
        by_trick: dict[int, list[_Play]] = {}
        for play in self.plays:
            if not play.give:
                by_trick.setdefault(play.trick, []).append(play)
        previous_winner: dict[str, int] | str | None = None
        for k, trick in enumerate(tricks):
            plays = by_trick.get(trick.number, [])
            if len(plays) != profile.players:
                previous_winner = None
                continue
            stated = trick.winner
            if stated is None and k + 1 < len(tricks) and tricks[k + 1].ordered and tricks[k + 1].plays:
                stated = tricks[k + 1].plays[0].seat
            for item in trick.items:
                if stated is None and isinstance(item, Declare):
                    stated = item.seat
            selector = None
            if stated is not None:
                selector = self.selector(f"{stated} wins trick {trick.number}", trick.winner_span or trick.span)
            if trick.ordered:
                order = plays
                leaders: dict[str, int] | None = None
            else:
                leaders = self._leader_literals(trick.number, previous_winner)
                order = plays
            winner_lits = {seat: self.new() for seat in profile.seats}
            self.card_constraint(list(winner_lits.values()), 1, "equals")
            if stated is not None:
                self.add([winner_lits[stated]], selector)
            self.winners[trick.number] = winner_lits
            self._winner_rule(trick.number, order, leaders, winner_lits)
            if k >= profile.phase1_tricks and profile.phase2_play != "free" and profile.players == 2:
                self._obligations(trick.number, order, leaders)
            previous_winner = winner_lits

    def _leader_literals(self, number: int, previous: dict[str, int] | str | None) -> dict[str, int]:
        lits = {seat: self.new() for seat in self.profile.seats}
        self.card_constraint(list(lits.values()), 1, "equals")
        if isinstance(previous, dict):
            for seat, lit in lits.items():
                self.add([-previous[seat], lit])
        self.leaders[number] = lits
        return lits

    def _seat_orders(
        self, plays: list[_Play], leaders: dict[str, int] | None
    ) -> Iterable[tuple[int | None, list[_Play]]]:
        if leaders is None:
            yield None, plays
            return
        by_seat = {p.seat: p for p in plays}
        seats = self.profile.seats
        for leader, lit in leaders.items():
            order = [by_seat[seats[(seats.index(leader) + j) % len(seats)]] for j in range(len(seats))]
            yield lit, order

    def _winner_rule(
        self, number: int, plays: list[_Play], leaders: dict[str, int] | None, winners: dict[str, int]
    ) -> None:
        for leader_lit, order in self._seat_orders(plays, leaders):
            for combo in itertools.product(*(p.domain for p in order)):
                seq = [(p.seat, c) for p, c in zip(order, combo, strict=True)]
                if any(n > self.profile.packs for n in Counter(combo).values()):
                    continue
                who = seq[trick_winner([c.index for _, c in seq], self.trump_index)][0]
                clause = [-self.x(p, c) for p, c in zip(order, combo, strict=True)] + [winners[who]]
                if leader_lit is not None:
                    clause.append(-leader_lit)
                self.add(clause)

    def _obligations(self, number: int, plays: list[_Play], leaders: dict[str, int] | None) -> None:
        """Last-eight obligations: a card the follower plays later proves what he held (the engine judges)."""
        rule = self.rules.phase2_play
        for leader_lit, order in self._seat_orders(plays, leaders):
            lead, follow = order[0], order[1]
            later = [p for p in self.plays if p.seat == follow.seat and p.time > follow.time and not p.give]
            for c_lead in lead.domain:
                for c_follow in follow.domain:
                    for other in later:
                        for c_other in other.domain:
                            held = [0] * CARD_INDICES
                            held[c_follow.index] = held[c_other.index] = 1
                            allowed, _ = obligation(rule, held, [c_lead.index], self.trump_index)
                            if allowed is None or c_follow.index in allowed:
                                continue
                            clause = [-self.x(lead, c_lead), -self.x(follow, c_follow), -self.x(other, c_other)]
                            if leader_lit is not None:
                                clause.append(-leader_lit)
                            self.add(clause)

    def _declare(self) -> None:
        """Each declaration: the cards it shows are held at that moment (one physical card, i.e. one later play,
        for each), and at least one of them was not yet scored in a combination of the same class (the new-card
        rule that every re-use option of the profiles shares; the stricter rules are left to the engine)."""
        used: dict[tuple[str, str], dict[int, list[int]]] = {}
        shown: set[tuple[str, str]] = set()
        for item, moment, options in self.declarations:
            text = f"{item.seat} declares {item.kind or 'a combination'} " + " ".join(str(c) for c in item.cards)
            selector = self.selector(text.strip(), item.span)
            if not options:
                self.add([-selector])
                continue
            self.add([-selector] + [lit for lit, _ in options])
            plays = [p for p in self.plays if p.seat == item.seat and p.time > moment and not p.give]
            spec = self.profile.meld(item.kind) if item.kind else None
            klass = (item.seat, spec.klass) if spec is not None else None
            earlier = used.setdefault(klass, {}) if klass is not None else {}
            novelty = klass is not None and item.scored and (item.seat, item.kind or "") not in shown
            chosen_here: dict[int, list[int]] = {}
            structure: list[list[list[tuple[_Play, int]]]] = []
            for lit, cards in options:
                fresh = []
                by_play: dict[int, list[int]] = {}
                positions: list[list[tuple[_Play, int]]] = []
                structure.append(positions)
                for card in cards:
                    picks = []
                    positions.append([])
                    for play in plays:
                        if card not in play.domain:
                            continue
                        pick = self.new()
                        self.add([-pick, self.held(play, card, moment)])
                        picks.append(pick)
                        positions[-1].append((play, pick))
                        by_play.setdefault(play.index, []).append(pick)
                        chosen_here.setdefault(play.index, []).append(pick)
                        if novelty:
                            new_card = self.new()
                            self.add([-new_card, pick])
                            for before in earlier.get(play.index, []):
                                self.add([-new_card, -before])
                            fresh.append(new_card)
                    if not picks:
                        self.add([-lit])
                        break
                    self.add([-lit, *picks])
                for picks in by_play.values():
                    # One physical card stands for one card of the combination.
                    for a, b in itertools.combinations(picks, 2):
                        self.add([-a, -b])
                if novelty:
                    self.add([-lit, *fresh])
            if klass is not None:
                for index, picks in chosen_here.items():
                    earlier.setdefault(index, []).extend(picks)
            for index, picks in chosen_here.items():
                self.uses.setdefault(index, []).extend((moment, pick) for pick in picks)
            if spec is not None and item.scored:
                self._same_kind(item.seat, spec, moment, structure)
            if not item.scored:
                shown.add((item.seat, item.kind or ""))
        self._declared_copies_played_first()

    def _same_kind(self, seat: str, spec: Any, moment: float, structure: list[list[list[tuple[_Play, int]]]]) -> None:
        """No card scores twice in one kind (re-use options ``text_with_remarriage`` and ``strict_text``); under
        the first, a king or queen may be married again once its first partner has been played."""
        mode = self.rules.reuse
        key = (seat, spec.kind)
        if mode != "new_card_refill":
            for before_moment, before in self.kinds.get(key, []):
                for positions in structure:
                    for k, picks in enumerate(positions):
                        for play, pick in picks:
                            for earlier_positions in before:
                                for k2, earlier_picks in enumerate(earlier_positions):
                                    for play2, pick2 in earlier_picks:
                                        if play2.index != play.index:
                                            continue
                                        if mode == "text_with_remarriage" and spec.marriage:
                                            # Allowed once the earlier partner is gone (played before now).
                                            for k3, partner_picks in enumerate(earlier_positions):
                                                if k3 == k2:
                                                    continue
                                                for partner, pick3 in partner_picks:
                                                    if partner.time > moment:
                                                        self.add([-pick, -pick2, -pick3])
                                        else:
                                            self.add([-pick, -pick2])
                        del k
                del before_moment
        self.kinds.setdefault(key, []).append((moment, structure))

    def _declared_copies_played_first(self) -> None:
        """Mirror the engine: of two held copies of a card, the one already declared is the one played.

        Without this the solver could declare one copy and play the other, a completion the engine (which plays
        the declared copy) would replay differently.
        """
        for seat in self.profile.seats:
            plays = sorted((p for p in self.plays if p.seat == seat and not p.give), key=lambda p: p.time)
            for k, first in enumerate(plays):
                for later in plays[k + 1 :]:
                    before = [a for t, a in self.uses.get(later.index, []) if t < first.time]
                    if not before:
                        continue
                    mine = [a for t, a in self.uses.get(first.index, []) if t < first.time]
                    acquired = [
                        self.pool.obj2id[("m", a.index, later.index)]
                        for a in self.acqs
                        if a.seat == seat and a.time < first.time and ("m", a.index, later.index) in self.pool.obj2id
                    ]
                    if not acquired:
                        continue
                    held_then = self.new()
                    for m in acquired:
                        self.add([-m, held_then])
                    used_then = self.new()
                    for a in before:
                        self.add([-a, used_then])
                    for card in set(first.domain) & set(later.domain):
                        self.add([-self.x(first, card), -self.x(later, card), -held_then, -used_then, *mine])

    def _scores(self) -> None:
        """Stated scores: the points that depend on unknown cards (sevens, last trick, brisques) counted in tens."""
        profile = self.profile
        seats = profile.seats
        fixed = dict.fromkeys(seats, 0)
        units: dict[str, list[tuple[int, int]]] = {s: [] for s in seats}
        broken = dict.fromkeys(seats, False)
        if isinstance(self.deal.turnup, Card) and self.trump and self.deal.turnup.rank == Rank.SEVEN:
            fixed[self.dealer] += profile.seven_turnup
        last_no = self.rules.last_trick
        seven = Card(self.trump, Rank.SEVEN) if self.trump else None
        by_trick: dict[int, list[_Play]] = {}
        for play in self.plays:
            if not play.give:
                by_trick.setdefault(play.trick, []).append(play)
        for k, trick in enumerate(self.deal.tricks):
            phase1 = k < profile.phase1_tricks
            for play in by_trick.get(trick.number, []):
                if (
                    phase1
                    and seven is not None
                    and seven in play.domain
                    and profile.seven_played
                    and not profile.seven_played_must_win
                ):
                    units[play.seat].append((self.x(play, seven), profile.seven_played))
            winners = self.winners.get(trick.number)
            if trick.number == last_no and profile.last_trick_points:
                if isinstance(winners, dict):
                    for seat in seats:
                        units[seat].append((winners[seat], profile.last_trick_points))
                else:
                    broken = dict.fromkeys(seats, True)
            for item in trick.items:
                if isinstance(item, Exchange):
                    fixed[item.seat] += profile.seven_exchange
                elif isinstance(item, Declare):
                    spec = profile.meld(item.kind) if item.kind else None
                    if spec is None:
                        broken[item.seat] = True
                    elif item.scored:
                        fixed[item.seat] += spec.points
                elif isinstance(item, Penalty):
                    # A fixed penalty is a known sum; one that depends on the score (all points) is not encoded.
                    amount = dict(profile.penalties).get(item.kind)
                    if isinstance(amount, int):
                        fixed[item.seat] -= amount
                    else:
                        broken[item.seat] = True
                elif isinstance(item, Claim) and item.kind == "seven_played" and seven is not None:
                    selector = self.selector(f"{item.seat} scores seven_played in trick {trick.number}", item.span)
                    lits = [
                        self.x(p, seven)
                        for p in by_trick.get(trick.number, [])
                        if p.seat == item.seat and seven in p.domain
                    ]
                    self.add([-selector, *lits])
                elif isinstance(item, ScoreCheck):
                    for value in item.values:
                        if value.seat in fixed and not broken[value.seat]:
                            self._sum(
                                units[value.seat],
                                value.value - fixed[value.seat],
                                f"{value.seat} has {value.value} after trick {trick.number}",
                                value.span,
                            )
        brisque_units: dict[str, list[tuple[int, int]]] = {s: [] for s in seats}
        for trick in self.deal.tricks:
            winners = self.winners.get(trick.number)
            plays = by_trick.get(trick.number, [])
            if not isinstance(winners, dict):
                if any(c.rank in profile.brisque_ranks for p in plays for c in p.domain):
                    brisque_units = {}
                    break
                continue
            for play in plays:
                sure = bool(play.domain) and all(c.rank in profile.brisque_ranks for c in play.domain)
                for seat in seats:
                    if sure:
                        brisque_units[seat].append((winners[seat], profile.brisque_points))
                        continue
                    for card in play.domain:
                        if card.rank in profile.brisque_ranks:
                            # unit <-> (this play is that brisque) and (this seat wins the trick)
                            unit = self.new()
                            self.add([-unit, self.x(play, card)])
                            self.add([-unit, winners[seat]])
                            self.add([unit, -self.x(play, card), -winners[seat]])
                            brisque_units[seat].append((unit, profile.brisque_points))
        for check in self.deal.end:
            for value in check.values:
                if value.seat not in fixed or not brisque_units:
                    continue
                if check.what == "brisques":
                    self._sum(
                        brisque_units[value.seat], value.value, f"{value.seat}'s brisques are {value.value}", value.span
                    )
                elif check.what == "result" and not broken[value.seat]:
                    self._sum(
                        units[value.seat] + brisque_units[value.seat],
                        value.value - fixed[value.seat],
                        f"{value.seat} ends the deal with {value.value}",
                        value.span,
                    )

    def _sum(self, terms: list[tuple[int, int]], total: int, text: str, span: Span | None) -> None:
        """sum(points for each true literal) == total, as a cardinality over unit literals."""
        selector = self.selector(text, span)
        unit = 0
        for _, points in terms:
            unit = _gcd(unit, points)
        if unit == 0:
            if total != 0:
                self.add([-selector])
            return
        if total % unit or total < 0:
            self.add([-selector])
            return
        lits: list[int] = []
        for lit, points in terms:
            lits.extend([lit] * (points // unit))
        if len(set(lits)) != len(lits):
            # Repeated literals: give each copy its own equivalent variable so the cardinality counts them.
            expanded = []
            for lit in lits:
                copy_lit = self.new()
                self.add([-copy_lit, lit])
                self.add([copy_lit, -lit])
                expanded.append(copy_lit)
            lits = expanded
        self.card_constraint(lits, total // unit, "equals", selector)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _fits(pattern: CardLike, card: Card) -> bool:
    return pattern == card if isinstance(pattern, Card) else pattern.matches(card)


# --- solving ---------------------------------------------------------------------------------------------------


class _GaveUp(Exception):
    """The replay budget ran out before the solver's candidates satisfied the engine."""


class _TimeUp(_GaveUp):
    """The time limit passed: nothing more is tried (see :func:`infer_deal`)."""


class _Solver:
    def __init__(self, enc: _Encoding) -> None:
        self.enc = enc
        self.solver = Solver(name="glucose4", bootstrap_with=enc.hard)
        for selector, clause in enc.soft:
            self.solver.add_clause([-selector, *clause])
        self.selectors = list(enc.statements)
        self.calls = 0
        self.replays = 0

    def solve(self, extra: Sequence[int] = ()) -> dict[int, bool] | None:
        self.calls += 1
        if not self.solver.solve(assumptions=[*self.selectors, *extra]):
            return None
        model = self.solver.get_model() or []
        return {abs(v): v > 0 for v in model}

    def core(self) -> list[int]:
        return [lit for lit in (self.solver.get_core() or []) if lit in self.enc.statements]

    def block(self, model: dict[int, bool], upto: float) -> None:
        """Exclude this completion up to a moment (sound: the violation happened there)."""
        enc = self.enc
        lits: list[int] = []
        for play in enc.plays:
            if play.time <= upto:
                lits.extend(-enc.x(play, c) for c in play.domain if model.get(enc.x(play, c)))
        for acq in enc.acqs:
            if acq.time <= upto:
                for play in enc.plays:
                    key = ("m", acq.index, play.index)
                    lit = enc.pool.obj2id.get(key)
                    if lit and model.get(lit):
                        lits.append(-lit)
        self.solver.add_clause(lits)


def _decode(enc: _Encoding, model: dict[int, bool]) -> tuple[dict[int, Card], Deal]:
    values: dict[int, Card] = dict(enc.fixed_values)
    card_of: dict[int, Card] = {}
    for play in enc.plays:
        for c in play.domain:
            if model.get(enc.x(play, c)):
                card_of[play.index] = c
    tag_of_play = {}
    for tag, target in enc.targets.items():
        if target[0] == "attr" and target[2] == "card":
            tag_of_play[id(target[1])] = tag
    for play in enc.plays:
        if play.play is not None and id(play.play) in tag_of_play:
            values[tag_of_play[id(play.play)]] = card_of[play.index]
    for acq in enc.acqs:
        if acq.tag is None:
            continue
        for play in enc.plays:
            lit = enc.pool.obj2id.get(("m", acq.index, play.index))
            if lit and model.get(lit):
                values[acq.tag] = card_of[play.index]
    chosen: dict[int, list[Card]] = {}
    for index, (_item, _, options) in enumerate(enc.declarations):
        for lit, cards in options:
            if model.get(lit):
                chosen[index] = cards
                break
    for tag, target in enc.targets.items():
        if target[0] == "item" and tag not in values:
            seq, position = target[1], target[2]
            for index, (item, _, _) in enumerate(enc.declarations):
                if seq is item.cards and index in chosen:
                    values[tag] = chosen[index][position]
    deal, targets, decls = copy.deepcopy((enc.deal, enc.targets, [d[0] for d in enc.declarations]))
    for tag, card in values.items():
        _set(targets[tag], card)
    for index, item in enumerate(decls):
        if index in chosen and any(isinstance(c, CardPattern) for c in item.cards):
            item.cards = list(chosen[index])
    _order_autodraws(deal, enc, model)
    return values, deal


def _order_autodraws(deal: Deal, enc: _Encoding, model: dict[int, bool]) -> None:
    """Draws the record left out are written winner first, as the rules draw them."""
    for trick in deal.tricks:
        winners = enc.winners.get(trick.number)
        if not isinstance(winners, dict):
            continue
        winner = next((s for s, lit in winners.items() if model.get(lit)), None)
        for item in trick.items:
            autodrawn = isinstance(item, Draws) and item.draws and all(d.span == trick.span for d in item.draws)
            if autodrawn and winner is not None and isinstance(item, Draws):
                item.draws.sort(key=lambda d: 0 if d.seat == winner else 1)


def infer_deal(
    deal: Deal,
    profile: RuleProfile,
    options: dict[str, str | int],
    dealer: str,
    analyse: bool = False,
    max_replays: int = 200,
    lenient: bool = False,
    time_limit: float | None = None,
    progress: Callable[[int, int, float], None] | None = None,
) -> Inference:
    """Complete a deal's unknowns; with ``analyse``, also find which are forced and which stay open.

    ``lenient``: for a deal whose unknown cards were made up for lines that did not read
    (:func:`replayer.reader.read_record_recovering`). When no completion satisfies every stated fact, the facts of
    the smallest conflicts are let go one by one (the latest of each first) until one does; the replay then reports
    every stated fact that completion breaks, as it would in a complete record, instead of BZ601.

    ``time_limit``: seconds after which no more candidates are tried: what is proven by then is reported (the
    values not yet settled are undecided, :attr:`Inference.undecided`) instead of running on. ``progress``: called
    as the analysis goes, with (unknown cards analysed, unknown cards, seconds so far).
    """
    refused = unsupported(profile.with_options(options))
    if refused is not None:
        return Inference(None, [], failure=refused)
    started = time.perf_counter()
    deadline = started + time_limit if time_limit is not None else None
    enc = _Encoding(deal, profile, options, dealer)
    inference = Inference(None, enc.unknowns)
    solver = _Solver(enc)

    def complete(extra: Sequence[int] = ()) -> tuple[dict[int, Card], Deal] | None:
        """A completion accepted by the engine; None when none exists; raises _GaveUp past the budget."""
        for _ in range(max_replays):
            if deadline is not None and time.perf_counter() > deadline:
                raise _TimeUp
            model = solver.solve(extra)
            if model is None:
                return None
            values, completed = _decode(enc, model)
            solver.replays += 1
            problems = replay_deal(completed, profile, options, dealer)
            if not problems:
                return values, completed
            solver.block(model, problems[0])
        raise _GaveUp

    try:
        found = complete()
    except _TimeUp:
        found = None
        inference.failure = f"no completion found within the time limit ({time_limit:g} s)"
    except _GaveUp:
        found = None
        inference.failure = f"no completion found after {max_replays} candidate replays"
    if found is None and lenient:
        found = _lenient(enc, solver)
        if found is not None:
            inference.failure = ""
            inference.lenient = True
    if found is None:
        if inference.failure:
            pass
        else:
            inference.conflict = _minimal_conflict(solver)
            inference.failure = "no completion satisfies every stated fact"
    else:
        inference.values, inference.deal = found
        if analyse:
            tick = None
            if progress is not None:
                report = progress

                def tick(done: int, total: int) -> None:
                    report(done, total, time.perf_counter() - started)

            _analyse(enc, solver, inference, complete, tick)
    inference.solver_calls = solver.calls
    inference.replays = solver.replays
    inference.seconds = time.perf_counter() - started
    return inference


def _lenient(enc: _Encoding, solver: _Solver) -> tuple[dict[int, Card], Deal] | None:
    """A completion that satisfies as many stated facts as the conflicts allow (see :func:`infer_deal`): the latest
    statement of each conflict is let go until the rest hold together. Not checked by a replay: the replay that
    follows reports what it breaks."""
    while True:
        model = solver.solve()
        if model is not None:
            values, deal = _decode(enc, model)
            # A declaration whose statement was let go may keep unknown cards (no choice of its cards holds): it
            # stood on a line that did not read, already reported, and is left out rather than replayed.
            for trick in deal.tricks:
                trick.items = [item for item in trick.items if not _unfilled(item)]
            deal.opening = [item for item in deal.opening if not _unfilled(item)]
            return values, deal
        core = solver.core()
        if not core:
            return None
        latest = max(core, key=lambda s: _position(enc.statements[s]))
        solver.selectors.remove(latest)


def _unfilled(item: object) -> bool:
    """A declaration that still holds an unknown card."""
    return isinstance(item, Declare) and any(isinstance(c, CardPattern) for c in (*item.cards, *item.partner_cards))


def _position(statement: Statement) -> tuple[int, int]:
    span = statement.span
    return (span.line, span.column) if span is not None else (0, 0)


def _minimal_conflict(solver: _Solver) -> list[Statement]:
    """A small set of statements that cannot all hold (an unsatisfiable core, shrunk by deletion)."""
    core = solver.core()
    if not core:
        return []
    others = [s for s in solver.selectors if s not in core]
    current = list(core)
    for lit in list(current):
        trial = [s for s in current if s != lit]
        # Statements outside the core are dropped too (assumed false) so that only the core's subset is tested.
        if not solver.solver.solve(assumptions=[*trial, *[-s for s in others], -lit]):
            current = trial
    return [solver.enc.statements[s] for s in current]


def _analyse(
    enc: _Encoding,
    solver: _Solver,
    inference: Inference,
    complete: Any,
    tick: Callable[[int, int], None] | None = None,
) -> None:
    """Which values each unknown can take: each candidate value not yet seen is asked of the solver.

    A value counts as possible only when the rules engine accepts a whole completion with it; an impossible one is
    proved so by the solver. Dealt cards are analysed as a hand (which cards it must contain), since the order of a
    hand's unknown cards means nothing.
    """
    possible: dict[int, set[Card]] = {tag: {card} for tag, card in inference.values.items()}

    def ask(assumption: int, tag: int, card: Card) -> None:
        if card in possible.get(tag, set()):
            return
        try:
            found = complete([assumption])
        except _GaveUp:
            inference.undecided.setdefault(tag, set()).add(card)
            return
        if found is not None:
            for t, value in found[0].items():
                possible.setdefault(t, set()).add(value)

    plays_by_target = {id(p.play): p for p in enc.plays if p.play is not None}
    acqs_by_tag = {a.tag: a for a in enc.acqs if a.tag is not None}
    for done, unknown in enumerate(enc.unknowns):
        if tick is not None:
            tick(done, len(enc.unknowns))
        if unknown.tag in enc.fixed_values:
            continue
        target = enc.targets[unknown.tag]
        play = plays_by_target.get(id(target[1])) if target[0] == "attr" else None
        if play is not None:
            for card in play.domain:
                ask(enc.x(play, card), unknown.tag, card)
            continue
        acq = acqs_by_tag.get(unknown.tag)
        if acq is not None and acq.time > 0:
            for card in enc.pack:
                if unknown.pattern.matches(card):
                    ask(_acquired_as(enc, solver, acq, card), unknown.tag, card)
    for index, (item, _, options) in enumerate(enc.declarations):
        tags = [t for t, target in enc.targets.items() if target[0] == "item" and target[1] is item.cards]
        for lit, cards in options:
            if all(cards[enc.targets[t][2]] in possible.get(t, set()) for t in tags):
                continue
            try:
                found = complete([lit])
            except _GaveUp:
                for t in tags:
                    inference.undecided.setdefault(t, set()).add(cards[enc.targets[t][2]])
                continue
            if found is not None:
                for t, value in found[0].items():
                    possible.setdefault(t, set()).add(value)
                for t in tags:
                    possible.setdefault(t, set()).add(cards[enc.targets[t][2]])
        del index
    inference.hands = _analyse_hands(enc, solver, inference, complete)
    inference.possible = possible
    inference.analysed = True


def _acquired_as(enc: _Encoding, solver: _Solver, acq: _Acq, card: Card) -> int:
    """A literal meaning "this acquisition is ``card``" (defined on first use)."""
    key = ("v", acq.index, card)
    if key in enc.pool.obj2id:
        return enc.pool.id(key)
    lit = enc.pool.id(key)
    ways = []
    for play in enc.plays:
        m = enc.pool.obj2id.get(("m", acq.index, play.index))
        if not m or card not in play.domain:
            continue
        way = enc.pool.id(("way", acq.index, play.index, card))
        solver.solver.add_clause([-way, m])
        solver.solver.add_clause([-way, enc.x(play, card)])
        solver.solver.add_clause([way, -m, -enc.x(play, card)])
        solver.solver.add_clause([-way, lit])
        ways.append(way)
    solver.solver.add_clause([-lit, *ways])
    return lit


def _analyse_hands(enc: _Encoding, solver: _Solver, inference: Inference, complete: Any) -> dict[str, Any]:
    """For each seat with unknown dealt cards: the cards every completion deals it, and how many stay open."""
    result: dict[str, Any] = {}
    for seat in enc.profile.seats:
        slots = [a for a in enc.acqs if a.seat == seat and a.time == 0 and a.tag is not None]
        if not slots:
            continue
        dealt = Counter(inference.values[a.tag] for a in slots if a.tag in inference.values)
        certain: Counter[Card] = Counter()
        for card, count in dealt.items():
            lits = [_acquired_as(enc, solver, a, card) for a in slots]
            # Is there a completion with fewer copies of this card dealt? Ask for at most count - 1.
            for k in range(count, 0, -1):
                guard = enc.pool.id(("fewer", seat, card, k))
                formula = CardEnc.atmost(lits=lits, bound=k - 1, vpool=enc.pool, encoding=EncType.seqcounter)
                for clause in formula.clauses:
                    solver.solver.add_clause([-guard, *clause])
                try:
                    proved = complete([guard]) is None
                except _GaveUp:
                    proved = False
                if proved:
                    certain[card] = k
                    break
        result[seat] = {"slots": len(slots), "certain": certain}
    return result
