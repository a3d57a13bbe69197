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
completion is excluded, with every other that writes the same cards up to the rule it breaks, before the solver is
asked again). A deal is completed once however often it is replayed (:func:`infer_deal` keeps the last ones).

What varies between profiles is never modelled here: the seats that play and their order, the packs and their
copies (the wild card), the trumps (a turn-up, or the declaration that fixes them, its suit a variable when unknown),
the trick winner, the obligations, which cards form a meld, the points of a won card and of the last trick are the
rules core's answers (:mod:`replayer.rules`), asked for each combination of the cards a statement may hold; so are the
points of the seven played, of each declaration (the repeat rule, the one that fixes trumps), of the exchange and of a
fixed penalty. A rule the encoding does not state (the re-use exceptions, a carte blanche, whether a joint
declaration's cards form its combination) is left to the replay, so that the encoding may allow too much but never too
little: a value it excludes is impossible.

The solver (python-sat's Glucose) earns its place: the worked deal printed without suits has about 150 unknown
cards whose constraints reach across the whole deal (a ten drawn at trick 16 must win trick 17), where a
search trick by trick backtracks without end; the solver answers in a fraction of a second and names the
conflicting statements (an unsatisfiable core) when there is no completion.
"""

from __future__ import annotations

import itertools
import math
import pickle
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import CARD_INDICES, CARDS, SUITS, Card, CardLike, CardPattern, Rank, Suit, card_index, suit_of
from .errors import Span
from .profile import RuleProfile
from .record import (
    Claim,
    ClaimGame,
    Deal,
    Declare,
    Draw,
    Draws,
    Exchange,
    Forfeit,
    GoesOut,
    Penalty,
    ScoreCheck,
    deal_has_unknowns,
)
from .replay import replay_deal
from .rules import DealState, compile_rules, matches, obligation, trick_winner
from .rules.compiled import FREE
from .rules.deal import (
    brisque_worth,
    declaration_points,
    end_worth,
    exchange_card,
    exchange_points,
    first_to_draw,
    fixed_penalty,
    last_trick_bonus,
    last_trick_shares,
    seven_played_bonus,
    trick_worth,
)
from .rules.melds import meld_targets, trumps_to_try

__all__ = ["Inference", "Statement", "Unknown", "deal_has_unknowns", "infer_deal"]

if TYPE_CHECKING:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver


_NEW_CARD_MODES = ("text_with_remarriage", "strict_text", "new_card_refill", "refill", "refill_swap")
"""The re-use modes under which a declaration needs a card not yet scored in its class (the core's
:func:`replayer.rules.melds.reuse_problem`; under ``refill_swap`` a marriage may do without, by the swap;
``higher_other_kind`` has no such rule)."""
_SAME_KIND_MODES = ("text_with_remarriage", "strict_text")
"""The re-use modes under which no card scores twice in one kind (bar a re-marriage), as the encoding states it."""

_MAX_COMBINATIONS = 4096
"""A trick whose unknown cards have more combinations than this leaves its winner to the replay."""
_MAX_DECLARED_LISTED = 50_000
"""A declaration whose unknown cards have more sets of cards than this (each a question to the core) is not listed."""
_MAX_OBLIGATION_CASES = 1 << 18
"""A follower's obligation in a trick whose cases (the cards before his, his card and one more card he may hold, the
trumps) are more than this is left to the replay: each case is a question to the core and may be a clause per later
card, about a second of the encoding's time for this many."""
_MAX_CONFLICTS = 20_000
"""The solver's budget of conflicts for each search: a candidate, another once the replay rejected some, each question
of the analysis (a few seconds at most)."""
_MAX_QUESTION_CONFLICTS = _MAX_CONFLICTS
"""The budget of each question of the analysis (may this unknown card be that one?)."""
_MAX_PROPAGATIONS = 30_000_000
"""The solver's budget of propagations for each search, beside its conflicts: where three packs' running scores are
cardinality constraints, one conflict can cost twenty thousand propagations and 20,000 conflicts a minute. About three
seconds; the largest search of 1,600 fuzz cases and of games/ and tests/data used 5.6 million."""
_MAX_DEAL_PROPAGATIONS = 100_000_000
"""The budget of propagations of all of a deal's searches together (candidates, questions, the conflict's
shrinking): about ten seconds; the most any deal of that survey used was 29 million."""
_MAX_WHOLE_SUM = 20_000
"""A stated score larger than this as a whole sum is stated as the difference from the scorer's previous one."""
_MAX_SUM_SIZE = 200_000
"""A stated score whose cardinality encoding would be larger than this (unit literals times the bound) is left to
the replay."""


def _load_solver() -> None:
    """Import the SAT solver on first use: records without unknown cards never pay for it at start-up."""
    global CardEnc, EncType, IDPool, Solver
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver


ROLES = ("hand", "card", "draw", "exchange", "declaration")
"""What an unknown card is: dealt, played to a trick, drawn, exchanged for the turn-up, or shown in a declaration."""


@dataclass
class Unknown:
    """One unknown card of a record and where it stands, as data (:attr:`where` says it in words)."""

    tag: int
    pattern: CardPattern
    role: str
    """One of :data:`ROLES`."""
    seat: str
    span: Span | None
    trick: int | None = None
    """The trick it belongs to (None for a dealt card)."""
    kind: str | None = None
    """A declaration's kind (None: not a declaration, or a declaration that names none)."""
    position: tuple[int, int] | None = None
    """A declaration's card: (which, of how many), from 1; None for a declaration of one card."""
    recorded: bool = True
    """False for a draw the record leaves out (the completion adds it)."""

    @property
    def where(self) -> str:
        """In words: "trick 4, N's card", "N's hand", "trick 8, S's draw"."""
        if self.role == "hand":
            return f"{self.seat}'s hand"
        what = {
            "card": "card",
            "draw": "draw" if self.recorded else "draw (not in the record)",
            "exchange": "exchanged seven",
            "declaration": self.kind or "declaration",
        }[self.role]
        text = f"trick {self.trick}, {self.seat}'s {what}"
        if self.position is not None:
            text += f", card {self.position[0]} of {self.position[1]}"
        return text


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
        return unknown.role == "hand"


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
    kept: bool = False
    """A card still held when the deal ends: played at no trick."""


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
    """The deal as clauses. Every soft clause carries the selector of the statement it comes from.

    What varies between profiles is read from the rules core, never modelled here: the pack and its copies, the
    seats that play and their order, the trick winner and the obligations (asked of the core for each combination
    of cards), which cards form a meld, the points of a won card and of the last trick. A rule the encoding does not
    state is left to the replay, which checks each candidate: the encoding may allow too much, never too little.
    """

    def __init__(self, deal: Deal, profile: RuleProfile, options: dict[str, str | int], dealer: str) -> None:
        _load_solver()
        self.profile = profile.with_options(options)
        """The profile as the deal plays it: an option may change its packs (no-trump's four packs of 004-B)."""
        self.options = options
        self.rules = rules = compile_rules(profile, options)
        self.dealer = dealer
        self.deal = _copied(deal)
        self.trump: Suit | None = self.deal.trump or (
            self.deal.turnup.suit if isinstance(self.deal.turnup, Card) and not self.deal.turnup.is_wild else None
        )
        if rules.fixing:
            self.trump = None  # (no trumps at the deal: a declaration fixes them, see :meth:`trumps_at`)
        self.trump_index = SUITS.index(self.trump) if self.trump is not None else -1
        """Trumps as the rules core counts suits, when the deal fixes them (-1: none, or fixed during the deal)."""
        ordered = [Card(suit, rank) for suit in Suit for rank in self.profile.ranks]
        self.pack = [c for c in ordered if rules.copies[c.index]]
        self.pack += [c for c in CARDS if rules.copies[c.index] and c not in self.pack]
        """The cards of the deal's packs (the wild card, added ranks too), suit by suit in the profile's rank order."""
        self.copies = {card: rules.copies[card.index] for card in self.pack}
        seats = list(rules.seats)
        turnup = self.deal.turnup.index if isinstance(self.deal.turnup, Card) else -1
        self.start = DealState.start(
            rules, seats.index(dealer) if dealer in seats else 0, self.trump_index, turnup, [[] for _ in seats]
        )
        """The core's state at the deal, without cards: its playing order (``order``) is the encoding's, its scores
        what the deal itself scores (:meth:`_dealt_points`)."""
        self.active = [seat for k, seat in enumerate(seats) if self.start.order[k]]
        """The seats that play this deal, in table order (the dealer left out where he sits out)."""
        self.pool = IDPool()
        self._x: dict[tuple[int, Card], int] = {}
        self._x_rows: list[tuple[_Play, list[tuple[Card, int]]]] | None = None
        self._m_rows: list[tuple[_Acq, list[tuple[_Play, int]]]] | None = None
        self.hard: list[list[int]] = []
        self.soft: list[tuple[int, list[int]]] = []
        self.statements: dict[int, Statement] = {}
        self.unknowns: list[Unknown] = []
        self.targets: dict[int, tuple[str, Any, Any]] = {}
        self.plays: list[_Play] = []
        self.acqs: list[_Acq] = []
        self.declarations: list[tuple[Declare, float, list[tuple[int, list[Card]]]]] = []
        self.joint: list[tuple[Declare, float]] = []
        """Joint declarations whose cards are all known, and when they are made."""
        self.autodraws: list[tuple[Draws, list[_Acq]]] = []
        self._defined: set[Any] = set()
        self._barred: dict[tuple[int, tuple[int, ...], int, int, int], bool] = {}
        self.uses: dict[int, list[tuple[float, int]]] = {}
        self.kinds: dict[tuple[str, str], list[tuple[float, Any]]] = {}
        self.fixed_values: dict[int, Card] = {}
        self.leaders: dict[int, dict[str, int]] = {}
        self.winners: dict[int, dict[str, int] | str] = {}
        self.stated: dict[int, str] = {}
        """The winner the record states of each trick (or shows: the next trick's leader, a declarer)."""
        self.unencoded: set[str] = set()
        """Seats with a declaration the encoding leaves to the replay: their stated scores are not encoded."""
        self.fix_moment: float | None = None
        self.fixing_item: Declare | None = None
        """Without a turn-up: when the first declaration of a fixing kind fixes trumps (None: never)."""
        self.trump_lits: dict[int, int] = {}
        self.unlisted: list[tuple[Declare, list[CardPattern]]] = []
        """Declarations whose unknown cards have too many choices to state (see :meth:`_declaration`), with them."""
        """Without a turn-up, when the fixing declaration's suit is unknown: a literal per suit, "trumps are it"."""
        self._collect()
        self._encode()

    # variables ---------------------------------------------------------------------------------------------

    def x(self, play: _Play, card: Card) -> int:
        # (asked millions of times: a dictionary of its own spares the pool's generic look-up)
        key = (play.index, card)
        lit = self._x.get(key)
        if lit is None:
            lit = self._x[key] = self.pool.id(("x", play.index, card))
        return lit

    def model_cards(self, model: _Model) -> list[tuple[_Play, Card, int]]:
        """The card a model gives each play, as (play, card, its literal), in the order of the plays."""
        values, size, found = model.values, len(model.values), []
        for play, lits in self._x_table():
            for card, lit in lits:
                if lit <= size and values[lit - 1] > 0:
                    found.append((play, card, lit))
                    break
        return found

    def model_matches(self, model: _Model) -> dict[int, _Play]:
        """The play each acquisition with a tag is matched with in a model, by the acquisition's index."""
        values, size, found = model.values, len(model.values), {}
        for acq, lits in self._m_table():
            for play, lit in lits:
                if lit <= size and values[lit - 1] > 0:
                    found[acq.index] = play
                    break
        return found

    def _x_table(self) -> list[tuple[_Play, list[tuple[Card, int]]]]:
        if self._x_rows is None:
            self._x_rows = [(play, [(c, self.x(play, c)) for c in play.domain]) for play in self.plays]
        return self._x_rows

    def _m_table(self) -> list[tuple[_Acq, list[tuple[_Play, int]]]]:
        if self._m_rows is None:
            get = self.pool.obj2id.get
            self._m_rows = []
            for acq in self.acqs:
                if acq.tag is None:
                    continue
                lits = [(play, get(("m", acq.index, play.index))) for play in self.plays]
                self._m_rows.append((acq, [(play, lit) for play, lit in lits if lit]))
        return self._m_rows

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
        if kind == "atmost" and bound >= len(lits):
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

    def trumps_at(self, moment: float) -> list[tuple[int | None, int]]:
        """The trumps at a moment of the deal, as (condition literal or None, trump index) pairs, one of which holds.

        With a turn-up (or stated trumps) one pair; without, no trumps until the fixing declaration, then its suit:
        one pair when its cards say the suit, else one per suit, under that suit's literal.
        """
        if self.fix_moment is None or moment < self.fix_moment:
            return [(None, self.trump_index)]
        if self.trump_lits:
            return [(lit, suit) for suit, lit in self.trump_lits.items()]
        return [(None, self.fixed_suit)]

    # collecting the deal ------------------------------------------------------------------------------------

    def tag(self, unknown: Unknown, target: tuple[str, Any, Any]) -> int:
        unknown.tag = len(self.unknowns)
        self.unknowns.append(unknown)
        self.targets[unknown.tag] = target
        return unknown.tag

    def _acq(
        self,
        seat: str,
        time_: float,
        card: CardLike,
        target: tuple[str, Any, Any] | None,
        role: str = "",
        span: Span | None = None,
        trick: int | None = None,
        recorded: bool = True,
    ) -> _Acq:
        acq = _Acq(len(self.acqs), seat, time_, card, target)
        if isinstance(card, CardPattern) and target is not None:
            acq.tag = self.tag(Unknown(0, card, role, seat, span, trick, recorded=recorded), target)
            acq.where_auto = not recorded
        self.acqs.append(acq)
        return acq

    def _play(
        self,
        seat: str,
        trick: int,
        time_: float,
        card: CardLike,
        play: Any,
        span: Span | None = None,
        give: bool = False,
        kept: bool = False,
    ) -> _Play:
        entry = _Play(len(self.plays), seat, trick, time_, card, play, give=give, kept=kept)
        entry.domain = [card] if isinstance(card, Card) else [c for c in self.pack if _fits(card, c)]
        if isinstance(card, CardPattern) and play is not None:
            self.tag(Unknown(0, card, "card", seat, span, trick), ("attr", play, "card"))
        self.plays.append(entry)
        return entry

    def _collect(self) -> None:
        deal, profile = self.deal, self.profile
        for seat in profile.seats:
            if seat not in deal.hands:
                dealt = profile.hand_size if seat in self.active else 0
                deal.hands[seat] = [CardPattern(None, None)] * dealt
            hand = deal.hands[seat]
            for i, card in enumerate(hand):
                self._acq(seat, 0.0, card, ("item", hand, i), "hand", deal.hand_spans.get(seat))
        self._find_fixing()
        self.exchange_seven: Card | None = None
        turnup = deal.turnup
        for k, trick in enumerate(deal.tricks):
            t = float(trick.number)
            for play in trick.plays:
                self._play(play.seat, trick.number, t, play.card, play, play.span)
            clock = t + 0.1
            has_draws = False
            for item in trick.items:
                clock += 0.01
                if isinstance(item, Exchange):
                    seven = CARDS[exchange_card(self.rules, self.trump_index)] if self.trump_index >= 0 else None
                    if isinstance(item.card, CardPattern) and seven is not None:
                        # Only the trump seven (or the rank the profile exchanges) can be exchanged: the rule itself
                        # fills this unknown.
                        self.fixed_values[len(self.unknowns)] = seven
                        self.tag(
                            Unknown(0, item.card, "exchange", item.seat, item.card_span, trick.number),
                            ("attr", item, "card"),
                        )
                    if seven is not None and isinstance(turnup, Card):
                        # The card beside the stock is taken: the turn-up, or the seven an earlier exchange put there.
                        self._play(item.seat, trick.number, clock, seven, None, give=True)
                        self._acq(item.seat, clock + 0.001, turnup, None)
                        self.exchange_seven = turnup = seven
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
                            "draw",
                            draw.span,
                            trick.number,
                        )
            ended = any(isinstance(item, GoesOut) for item in trick.items)
            if not has_draws and not ended and k < profile.phase1_tricks and deal.stock is None:
                added = Draws([], trick.span)
                if self.rules.declare_until_draw:
                    trick.items.append(added)  # (the draws end the trick's declarations)
                    moment = t + 0.5
                else:
                    # Declaring goes on after the draws: drawn first, the cards may be in what is declared.
                    trick.items.insert(0, added)
                    moment = t + 0.105
                for seat in self.active:
                    draw = Draw(seat, CardPattern(None, None), trick.span, trick.span)
                    added.draws.append(draw)
                    self._acq(seat, moment, draw.card, ("attr", draw, "card"), "draw", trick.span, trick.number, False)
                self.autodraws.append((added, self.acqs[-len(self.active) :]))
        self._kept_cards()
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
                if isinstance(last.pattern, CardPattern) and _fits(last.pattern, self.last_value):
                    last.pattern = self.last_value

    def _kept_cards(self) -> None:
        """The cards a hand still holds when the deal ends (a hand target reached, a deal cut short): one slot each,
        played at no trick, so that every card acquired is matched with one slot, as in a deal played out."""
        # (after the last trick and before the end of the deal, which the replay's problems place at 1000)
        end = max((t.number for t in self.deal.tricks), default=0) + 0.9
        for seat in self.profile.seats:
            acquired = sum(1 for a in self.acqs if a.seat == seat)
            played = sum(1 for p in self.plays if p.seat == seat)
            for _ in range(acquired - played):
                self._play(seat, 0, end, CardPattern(None, None), None, kept=True)

    def _find_fixing(self) -> None:
        """Without a turn-up: the first declaration of a kind that fixes trumps, when, and its suit if known."""
        self.fixed_suit = -1
        if not self.rules.fixing:
            return
        for trick in self.deal.tricks:
            for item in trick.items:
                if isinstance(item, Declare) and item.scored and item.kind in self.rules.fixing:
                    self.fixing_item = item
                    suits = {c.suit for c in item.cards if isinstance(c, Card)}
                    suits |= {c.suit for c in item.cards if isinstance(c, CardPattern) and c.suit is not None}
                    if len(suits) == 1:
                        self.fixed_suit = SUITS.index(next(iter(suits)))
                    else:
                        self.trump_lits = {suit: self.pool.id(("trump", suit)) for suit in range(len(SUITS))}
                        self.card_constraint(list(self.trump_lits.values()), 1, "equals")
                    return

    def _declaration(self, item: Declare, clock: float, trick: int) -> None:
        spec = self.profile.meld(item.kind) if item.kind else None
        fixing = item is self.fixing_item
        if fixing:
            self.fix_moment = clock
        if (spec is not None and spec.whole_hand) or item.partner_cards:
            # A carte blanche shows the whole hand, a joint declaration a partner's cards too: the replay judges
            # them, and the scores of the seat's side are left to the replay as well. A joint declaration whose
            # cards are all known still says who holds them then (see :meth:`_joint_held`).
            self.unencoded.add(item.seat)
            known = all(isinstance(c, Card) for c in (*item.cards, *item.partner_cards))
            if item.partner_cards and item.partner is not None and known and not (spec and spec.whole_hand):
                self.joint.append((item, clock))
            return
        trumps = self.trumps_at(clock)
        if not item.cards and spec is not None:
            if spec.cards:
                item.cards = list(spec.cards)
            elif spec.rank is not None:
                item.cards = [CardPattern(None, spec.rank)] * spec.count
            else:
                suit = self.trump if spec.suit == "trump" else None
                item.cards = [CardPattern(suit, r) for r in spec.ranks]
            item.card_spans = [item.span] * len(item.cards)
        domains = self._declared_domains(item, spec, trumps, fixing)
        # What each choice of cards needs: None, a wasted literal (kept: the numbering stays that of the listing
        # before), a trump suit the fixing declaration implies, or the trump conditions it holds under.
        chosen: list[tuple[list[Card], Any]] = []
        listed = 0
        for combo in _multisets(domains):
            listed += 1
            if listed > _MAX_DECLARED_LISTED or len(chosen) > _MAX_COMBINATIONS:
                break
            if any(n > self.copies.get(c, 0) for c, n in Counter(combo).items()):
                continue
            indices = [c.index for c in combo]
            if fixing:
                # The fixing declaration is judged as if its cards' suit were trumps already (the core's rule).
                fixed = suit_of(indices[0]) if indices and not combo[0].is_wild else -1
                if spec is not None and not matches(self.rules, spec, indices, fixed):
                    continue
                chosen.append((list(combo), ("suit", fixed) if self.trump_lits else None))
                continue
            fits = [cond for cond, t in trumps if spec is None or matches(self.rules, spec, indices, t)]
            if fits:
                chosen.append((list(combo), None if None in fits else ("fits", fits)))
        if listed > _MAX_DECLARED_LISTED or len(chosen) > _MAX_COMBINATIONS:
            # Too many choices of its unknown cards to state (five ``??`` of any kind are 200,000 sets of cards):
            # without a line that did not read, the completion gives up and says so (see :func:`infer_deal`).
            self.unencoded.add(item.seat)
            self.unlisted.append((item, [c for c in item.cards if isinstance(c, CardPattern)]))
            return
        tags = []
        for k, card in enumerate(item.cards):
            if isinstance(card, CardPattern):
                # Each unknown card of a declaration described and placed on its own, so that a listing tells
                # which ``?`` is which.
                span = item.card_spans[k] if k < len(item.card_spans) else item.span
                position = (k + 1, len(item.cards)) if len(item.cards) > 1 else None
                unknown = Unknown(0, card, "declaration", item.seat, span, trick, item.kind, position)
                tags.append(self.tag(unknown, ("item", item.cards, k)))
        options: list[tuple[int, list[Card]]] = []
        for cards, needs in chosen:
            lit = self.new()
            if needs is not None and needs[0] == "suit":
                if needs[1] < 0:
                    continue
                self.add([-lit, self.trump_lits[needs[1]]])
            elif needs is not None:
                # Only under some trumps: the option implies one of them.
                self.add([-lit, *(cond for cond in needs[1] if cond is not None)])
            options.append((lit, cards))
        self.declarations.append((item, clock, options))

    def _declared_domains(
        self, item: Declare, spec: Any, trumps: list[tuple[int | None, int]], fixing: bool
    ) -> list[list[Card]]:
        """The cards each card of a declaration may be: a known card itself; an unknown one, the cards of the pack it
        fits that some set of the meld holds under the trumps it may be declared with (the core's
        :func:`~replayer.rules.melds.meld_targets`: a meld of one rank in any suit, each card of that rank), or a wild
        card. Only a narrowing: the core's ``matches`` still judges each combination."""
        allowed: set[Card] | None = None
        if spec is not None:
            suits = {t for _, t in trumps} | (set(trumps_to_try(self.rules, spec, -1)) if fixing else set())
            targets = {CARDS[i] for t in suits for cards, _ in meld_targets(self.rules, spec, t) for i in cards}
            ranks = {c.rank for c in targets} if spec.rank is not None else set()
            allowed = {c for c in self.pack if c in targets or c.is_wild or (not c.is_wild and c.rank in ranks)}
        return [
            [c] if isinstance(c, Card) else [d for d in self.pack if _fits(c, d) and (allowed is None or d in allowed)]
            for c in item.cards
        ]

    # the clauses -----------------------------------------------------------------------------------------------

    def _encode(self) -> None:
        self._exactly_one_card()
        self._conservation()
        self._possession()
        self._tricks()
        self._turnup_to_the_last_drawer()
        self._declare()
        self._joint_held()
        self._scores()

    def _turnup_to_the_last_drawer(self) -> None:
        """When the record leaves out the last draws, the seat that draws last after the last phase-1 trick takes the
        turn-up: the last of the core's order of the draws from the trick's winner (where the trick's leader draws
        first instead, left to the replay)."""
        rules = self.rules
        if not rules.winner_draws_first:
            return
        autos = [a for a in self.last_draws if a.where_auto]
        winners = self.winners.get(getattr(self, "last_trick", -1))
        if self.last_value is None or not autos or not isinstance(winners, dict):
            return
        seats, index = rules.seats, rules.seat_index
        last = {won: seats[self.start.order[first_to_draw(rules, index[won], -1)][-1]] for won in self.active}
        for acq in autos:
            # Either a seat won after which this one does not draw last (it draws face down) ...
            others = [winners[won] for won in self.active if last[won] != acq.seat]
            for play in self.plays:
                lit = self.pool.obj2id.get(("m", acq.index, play.index))
                if not lit:
                    continue
                clause = [-lit, *others]
                if self.last_value in play.domain:
                    clause.append(self.x(play, self.last_value))  # ... or it takes the turn-up
                self.add(clause)

    def _exactly_one_card(self) -> None:
        for play in self.plays:
            lits = [self.x(play, c) for c in play.domain]
            self.card_constraint(lits, 1, "equals")

    def _conservation(self) -> None:
        """Each card of the pack is played or kept as many times as the packs hold it: exactly when the deal's
        cards are all accounted for, at most when some stay in the stock (a hand that ended early)."""
        real = [p for p in self.plays if not p.give]
        kind = "equals" if len(real) == sum(self.copies.values()) else "atmost"
        # A deal that ends before the stock runs out leaves the turn-up (or the seven exchanged for it) beside the
        # stock: that copy is never drawn, and never played.
        stuck = self.last_value if kind == "atmost" and not self.last_draws else None
        for card in self.pack:
            lits = [self.x(p, card) for p in real if card in p.domain]
            self.card_constraint(lits, self.copies[card] - (card == stuck), kind)

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

    def held(self, play: _Play, card: Card, moment: float, exact: bool = False) -> int:
        """A literal implying that ``play`` is ``card`` and that this card was already held at ``moment``; with
        ``exact``, also implied by them (true whenever they hold)."""
        key = ("h", play.index, card, moment)
        lit = self.pool.id(key)
        if key in self._defined and (not exact or ("exact", key) in self._defined):
            return lit  # (asked again and again by the obligations: the acquisitions are looked through once)
        earlier = [
            self.m(a, play)
            for a in self.acqs
            if a.seat == play.seat and a.time < moment and self.pool.obj2id.get(("m", a.index, play.index))
        ]
        if key not in self._defined:
            self._defined.add(key)
            self.add([-lit, self.x(play, card)])
            self.add([-lit, *earlier])
        if exact and ("exact", key) not in self._defined:
            self._defined.add(("exact", key))
            for m in earlier:
                self.add([lit, -self.x(play, card), -m])
        return lit

    def _tricks(self) -> None:
        profile, tricks = self.profile, self.deal.tricks
        # (a revoke in a trick a seat forfeits is settled by the forfeit, not a breach: such deals leave the
        # obligations to the replay)
        forfeits = any(isinstance(item, Forfeit) for trick in tricks for item in trick.items)
        by_trick = self.by_trick()
        previous_winner: dict[str, int] | str | None = None
        for k, trick in enumerate(tricks):
            plays = by_trick.get(trick.number, [])
            if len(plays) != len(self.active) or {p.seat for p in plays} != set(self.active):
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
                self.stated[trick.number] = stated
                selector = self.selector(f"{stated} wins trick {trick.number}", trick.winner_span or trick.span)
            if trick.ordered:
                order = plays
                leaders: dict[str, int] | None = None
            else:
                leaders = self._leader_literals(trick.number, previous_winner)
                order = plays
            winner_lits = {seat: self.new() for seat in self.active}
            self.card_constraint(list(winner_lits.values()), 1, "equals")
            if stated is not None:
                self.add([winner_lits[stated]] if stated in winner_lits else [], selector)
            self.winners[trick.number] = winner_lits
            self._winner_rule(trick.number, order, leaders, winner_lits)
            rule = self.rules.phase2_play if k >= profile.phase1_tricks else self.rules.phase1_play
            if rule != FREE and not forfeits:
                self._obligations(trick.number, rule, order, leaders)
            previous_winner = winner_lits

    def by_trick(self) -> dict[int, list[_Play]]:
        """The cards played to each trick (not the exchanged seven, not the cards kept at the end)."""
        found: dict[int, list[_Play]] = {}
        for play in self.plays:
            if not play.give and not play.kept:
                found.setdefault(play.trick, []).append(play)
        return found

    def _leader_literals(self, number: int, previous: dict[str, int] | str | None) -> dict[str, int]:
        lits = {seat: self.new() for seat in self.active}
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
        seats = self.rules.seats
        for leader, lit in leaders.items():
            yield lit, [by_seat[seats[k]] for k in self.start.order[self.rules.seat_index[leader]]]

    def _winner_rule(
        self, number: int, plays: list[_Play], leaders: dict[str, int] | None, winners: dict[str, int]
    ) -> None:
        if math.prod(len(p.domain) for p in plays) > _MAX_COMBINATIONS:
            return  # (too many cards unknown in one trick to list: the replay judges its winner)
        trumps = self.trumps_at(float(number))
        for leader_lit, order in self._seat_orders(plays, leaders):
            for combo in itertools.product(*(p.domain for p in order)):
                if any(n > self.copies.get(c, 0) for c, n in Counter(combo).items()):
                    continue
                indices = [c.index for c in combo]
                for cond, trump in trumps:
                    who = order[trick_winner(indices, trump)].seat
                    clause = [-self.x(p, c) for p, c in zip(order, combo, strict=True)] + [winners[who]]
                    if leader_lit is not None:
                        clause.append(-leader_lit)
                    if cond is not None:
                        clause.append(-cond)
                    self.add(clause)

    def _obligations(self, number: int, rule: int, plays: list[_Play], leaders: dict[str, int] | None) -> None:
        """The obligations of each seat that follows (the core's ``obligation`` judges each case, given the cards
        played before his): a card the follower played later (or kept, or gave in the exchange) and already held
        then proves what he could play. A trick whose earlier cards have too many combinations is left to the
        replay.

        What the follower held is one literal per card (:meth:`held_at`), whichever later play proves it: a case the
        core bars is one clause, not one per later card (a four-pack deal has a hundred of them)."""
        trumps = self.trumps_at(float(number))
        for leader_lit, order in self._seat_orders(plays, leaders):
            for j in range(1, len(order)):
                before, follow = order[:j], order[j]
                if math.prod(len(p.domain) for p in before) > _MAX_COMBINATIONS:
                    continue
                later = [p for p in self.plays if p.seat == follow.seat and p.time > follow.time]
                others = list(dict.fromkeys(c for other in later for c in other.domain))
                cases = math.prod(len(p.domain) for p in before) * len(follow.domain) * len(others) * len(trumps)
                if cases > _MAX_OBLIGATION_CASES:
                    continue  # (the cards of the trick and the follower's later cards are mostly unknown)
                for combo in itertools.product(*(p.domain for p in before)):
                    if any(n > self.copies.get(c, 0) for c, n in Counter(combo).items()):
                        continue
                    played = tuple(c.index for c in combo)
                    for c_follow in follow.domain:
                        for c_other in others:
                            for cond, trump in trumps:
                                if not self.barred(rule, played, c_follow.index, c_other.index, trump):
                                    continue
                                clause = [-self.x(p, c) for p, c in zip(before, combo, strict=True)]
                                clause += [-self.x(follow, c_follow), -self.held_at(follow, later, c_other)]
                                if leader_lit is not None:
                                    clause.append(-leader_lit)
                                if cond is not None:
                                    clause.append(-cond)
                                self.add(clause)

    def barred(self, rule: int, played: tuple[int, ...], card: int, other: int, trump: int) -> bool:
        """The core's answer: may a seat holding ``card`` and ``other`` not play ``card`` to these cards? Asked once
        per encoding (the tricks of unknown cards ask the same questions)."""
        key = (rule, played, card, other, trump)
        found = self._barred.get(key)
        if found is None:
            held = [0] * CARD_INDICES
            held[card] = held[other] = 1
            allowed, _ = obligation(rule, held, played, trump, explain=False)
            found = self._barred[key] = allowed is not None and card not in allowed
        return found

    def held_at(self, follow: _Play, later: list[_Play], card: Card) -> int:
        """A literal true whenever one of the follower's ``later`` plays is ``card``, already held when he played
        ``follow``."""
        key = ("held-at", follow.index, card)
        lit = self.pool.id(key)
        if key not in self._defined:
            self._defined.add(key)
            # (once the follower acquires nothing more, every card he plays later was held now)
            acquires = any(a.seat == follow.seat and a.time > follow.time for a in self.acqs)
            for other in later:
                if card in other.domain:
                    proof = self.held(other, card, float(follow.trick), exact=True) if acquires else self.x(other, card)
                    self.add([-proof, lit])
        return lit

    def _declare(self) -> None:
        """Each declaration: the cards it shows are held at that moment (one physical card, i.e. one later play,
        for each), and at least one of them was not yet scored in a combination of the same class (the new-card
        rule that every re-use option of the profiles shares; the stricter rules are left to the engine)."""
        used: dict[tuple[str, str], dict[int, list[int]]] = {}
        in_kind: dict[tuple[str, str], dict[int, list[int]]] = {}
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
            novelty = (
                klass is not None
                and item.scored
                and (item.seat, item.kind or "") not in shown
                and self.rules.reuse in _NEW_CARD_MODES
            )
            # The marriage swap: a king and a queen each scored in a marriage of this kind may marry again without a
            # new card (stated here as "each card scored in this kind before"; the replay checks the rest).
            swap = novelty and spec is not None and spec.marriage and self.rules.reuse == "refill_swap"
            same_kind = in_kind.setdefault((item.seat, item.kind or ""), {})
            chosen_here: dict[int, list[int]] = {}
            structure: list[list[list[tuple[_Play, int]]]] = []
            for lit, cards in options:
                fresh = []
                again: list[int] = []
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
                    if swap:
                        again.append(self._again(positions[-1], same_kind))
                    if not picks:
                        self.add([-lit])
                        break
                    self.add([-lit, *picks])
                for picks in by_play.values():
                    # One physical card stands for one card of the combination.
                    for a, b in itertools.combinations(picks, 2):
                        self.add([-a, -b])
                if swap:
                    swapped = self.new()
                    for card_again in again:
                        self.add([-swapped, card_again])
                    fresh.append(swapped)
                if novelty:
                    self.add([-lit, *fresh])
            for index, picks in chosen_here.items():
                same_kind.setdefault(index, []).extend(picks)
            if klass is not None:
                for index, picks in chosen_here.items():
                    earlier.setdefault(index, []).extend(picks)
            for index, picks in chosen_here.items():
                self.uses.setdefault(index, []).extend((moment, pick) for pick in picks)
            if spec is not None and item.scored and self.rules.reuse in _SAME_KIND_MODES:
                self._same_kind(item.seat, spec, moment, structure)
            if not item.scored:
                shown.add((item.seat, item.kind or ""))
        self._declared_copies_played_first()

    def _joint_held(self) -> None:
        """A joint declaration's cards are held at that moment, each part by its owner (one physical card, i.e. one
        later play, for each); that they form the combination is the replay's to judge."""
        for item, moment in self.joint:
            text = f"{item.seat} declares {item.kind or 'a combination'} with {item.partner}"
            selector = self.selector(text, item.span)
            for seat, cards in ((item.seat, item.cards), (item.partner, item.partner_cards)):
                plays = [p for p in self.plays if p.seat == seat and p.time > moment and not p.give]
                by_play: dict[int, list[int]] = {}
                for card in cards:
                    assert isinstance(card, Card)
                    picks = []
                    for play in plays:
                        if card in play.domain:
                            pick = self.new()
                            self.add([-pick, self.held(play, card, moment)])
                            picks.append(pick)
                            by_play.setdefault(play.index, []).append(pick)
                    self.add(picks, selector)
                for picks in by_play.values():
                    for a, b in itertools.combinations(picks, 2):
                        self.add([-a, -b])

    def _again(self, picks: list[tuple[_Play, int]], earlier: dict[int, list[int]]) -> int:
        """A literal implying that the card of these picks was picked before in a declaration of the same kind."""
        lit = self.new()
        ways = []
        for play, pick in picks:
            before = earlier.get(play.index, [])
            if not before:
                continue
            way = self.new()
            self.add([-way, pick])
            self.add([-way, *before])
            ways.append(way)
        self.add([-lit, *ways])
        return lit

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
                    for card in [c for c in first.domain if c in later.domain]:
                        self.add([-self.x(first, card), -self.x(later, card), -held_then, -used_then, *mine])

    def _scores(self) -> None:
        """Stated scores, as sums over literals of what depends on the unknown cards, with the points of each card
        won, of the last trick and of the seven played read from the core's tables (:class:`Rules`); the points
        that do not depend on them (declarations, the exchange, fixed penalties) are added up as the record states
        them. A score the encoding cannot sum (a penalty worth a share of the score, a carte blanche, a forfeit,
        trumps not known when a card's value depends on them) is left to the replay."""
        rules = self.rules
        scorer_of = {seat: rules.scorer[rules.seat_index[seat]] for seat in rules.seats}
        scorers = range(len(rules.scorers))
        fixed = dict.fromkeys(scorers, 0)
        units: dict[int, list[tuple[int, int]]] = {s: [] for s in scorers}
        broken = {s: any(scorer_of[seat] == s for seat in self.unencoded) for s in scorers}
        unknown_trumps = bool(self.trump_lits)
        if unknown_trumps and (rules.seven_played or rules.trump_seven_value):
            broken = dict.fromkeys(scorers, True)  # (a card's value would depend on trumps not yet known)
        if rules.seven_played and rules.seven_played_must_win:
            broken = dict.fromkeys(scorers, True)
        trump = self.trump_index if not unknown_trumps else -1
        for scorer, points in enumerate(self._dealt_points()):
            fixed[scorer] += points
        for item in self.deal.opening:
            if isinstance(item, Declare):  # (before the first trick: a carte blanche, left to the replay)
                broken[scorer_of[item.seat]] = True
        seven = CARDS[card_index(trump, int(Rank.SEVEN))] if trump >= 0 else None
        by_trick = self.by_trick()
        declared: dict[str, Counter[str]] = {seat: Counter() for seat in rules.seats}
        turnup = self.deal.turnup.index if isinstance(self.deal.turnup, Card) else -1
        shows_seven = self.trump_index >= 0 and turnup == exchange_card(rules, self.trump_index)
        chain: dict[int, tuple[int | None, int, int]] = {}
        """Per scorer, the last stated score encoded: its selector, its units, its points less the fixed ones."""
        for k, trick in enumerate(self.deal.tricks):
            phase = 1 if k < rules.phase1_tricks else 2
            for play in by_trick.get(trick.number, []):
                for card in play.domain:
                    bonus = seven_played_bonus(rules, trump, card.index, phase)
                    if bonus:
                        units[scorer_of[play.seat]].append((self.x(play, card), bonus))
            winners = self.winners.get(trick.number)
            self._won_points(units, broken, by_trick.get(trick.number, []), winners, trick_worth(rules, trump))
            self._last_trick(units, fixed, broken, trick.number, winners)
            for item in trick.items:
                if isinstance(item, Exchange):
                    fixed[scorer_of[item.seat]] += exchange_points(rules, shows_seven)
                elif isinstance(item, Declare):
                    spec = rules.meld_by_kind.get(item.kind or "")
                    if spec is None:
                        broken[scorer_of[item.seat]] = True
                    elif item.scored:
                        counted, _, points = declaration_points(
                            rules, spec, declared[item.seat], item is self.fixing_item
                        )
                        declared[item.seat][counted] += 1
                        fixed[scorer_of[item.seat]] += points
                elif isinstance(item, Penalty):
                    # A fixed penalty is a known sum; one that depends on the score (all points) is not encoded.
                    deducted = fixed_penalty(rules, item.kind)
                    if deducted is not None:
                        fixed[scorer_of[item.seat]] -= deducted
                    else:
                        broken[scorer_of[item.seat]] = True
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
                        scorer = rules.scorer_named(value.seat)
                        if scorer >= 0 and not broken[scorer]:
                            selector = self._sum(
                                units[scorer],
                                value.value - fixed[scorer],
                                f"{value.seat} has {value.value} after trick {trick.number}",
                                value.span,
                                chain.get(scorer, (None, 0, 0)),
                            )
                            chain[scorer] = (selector, len(units[scorer]), value.value - fixed[scorer])
                elif isinstance(item, (ClaimGame, Forfeit)):
                    broken = dict.fromkeys(scorers, True)  # (what a claim or a forfeit ends: left to the replay)
        self._end_scores(units, fixed, broken, by_trick, trump, chain)

    def _last_trick(
        self,
        units: dict[int, list[tuple[int, int]]],
        fixed: dict[int, int],
        broken: dict[int, bool],
        number: int,
        winners: dict[str, int] | str | None,
    ) -> None:
        """The core's last-trick bonus for trick ``number``: a known sum where it goes the same way whoever wins (shared
        out between the sides), else a unit for each seat's winning the trick."""
        rules = self.rules
        bonus = last_trick_bonus(rules, number)
        if not bonus:
            return
        shares = {seat: last_trick_shares(rules, bonus, rules.seat_index[seat]) for seat in self.active}
        if len({tuple(s) for s in shares.values()}) == 1:
            for seat, points in next(iter(shares.values())):
                fixed[rules.scorer[seat]] += points
        elif isinstance(winners, dict):
            for won_by, booked in shares.items():
                for seat, points in booked:
                    units[rules.scorer[seat]].append((winners[won_by], points))
        else:
            for scorer in broken:
                broken[scorer] = True

    def _dealt_points(self) -> list[int]:
        """What each scorer has before the first trick (a trump seven turned up, the bonuses of the cut), as the core
        scores it on a deal without cards."""
        deal = self.deal
        state = self.start.copy()
        if deal.cut is not None:
            state.cut(deal.cut, deal.guess)
        return state.scores()

    def _won_points(
        self,
        units: dict[int, list[tuple[int, int]]],
        broken: dict[int, bool],
        plays: list[_Play],
        winners: dict[str, int] | str | None,
        values: Sequence[int],
    ) -> None:
        """The points each scorer gets for the cards of one trick, by the core's values of the cards won."""
        rules = self.rules
        if not any(values[c.index] for p in plays for c in p.domain):
            return
        if not isinstance(winners, dict):
            for scorer in broken:
                broken[scorer] = True
            return
        for play in plays:
            worth = {values[c.index] for c in play.domain}
            for seat, won in winners.items():
                scorer = rules.scorer[rules.seat_index[seat]]
                if len(worth) == 1:
                    units[scorer].append((won, next(iter(worth))))
                    continue
                for card in play.domain:
                    if values[card.index]:
                        units[scorer].append((self._both(self.x(play, card), won), values[card.index]))

    def _both(self, a: int, b: int) -> int:
        """A literal equivalent to ``a and b``."""
        key = ("and", a, b)
        if key in self.pool.obj2id:
            return self.pool.id(key)
        unit = self.pool.id(key)
        self.add([-unit, a])
        self.add([-unit, b])
        self.add([unit, -a, -b])
        return unit

    def _end_scores(
        self,
        units: dict[int, list[tuple[int, int]]],
        fixed: dict[int, int],
        broken: dict[int, bool],
        by_trick: dict[int, list[_Play]],
        trump: int,
        chain: dict[int, tuple[int | None, int, int]],
    ) -> None:
        """The brisques and the result the record states, with the points the core counts at the end of the hand
        for each card won (brisques, the card points counted then)."""
        rules = self.rules
        brisque = brisque_worth(rules)
        at_end = end_worth(rules, trump)
        ended: dict[int, list[tuple[int, int]]] = {s: [] for s in units}
        counted: dict[int, list[tuple[int, int]]] = {s: [] for s in units}
        sure = not rules.brisques_conditional and not (rules.points_at_end and self.trump_lits)
        for trick in self.deal.tricks:
            plays = by_trick.get(trick.number, [])
            winners = self.winners.get(trick.number)
            if not isinstance(winners, dict):
                if any(at_end[c.index] for p in plays for c in p.domain):
                    sure = False
                continue
            for target, table in ((counted, brisque), (ended, at_end)):
                scratch = dict.fromkeys(units, False)
                self._won_points(target, scratch, plays, winners, table)
        for check in self.deal.end:
            for stated in check.values:
                scorer = rules.scorer_named(stated.seat)
                if scorer < 0 or not sure:
                    continue
                if check.what == "brisques":
                    text = f"{stated.seat}'s brisques are {stated.value}"
                    self._sum(counted[scorer], stated.value, text, stated.span)
                elif check.what == "result" and not broken[scorer]:
                    text = f"{stated.seat} ends the deal with {stated.value}"
                    total = stated.value - fixed[scorer]
                    self._sum(units[scorer] + ended[scorer], total, text, stated.span, chain.get(scorer, (None, 0, 0)))

    def _sum(
        self,
        terms: list[tuple[int, int]],
        total: int,
        text: str,
        span: Span | None,
        since: tuple[int | None, int, int] = (None, 0, 0),
    ) -> int:
        """sum(points for each true literal) == total, as a cardinality over unit literals; returns the statement's
        selector. ``since``: an earlier stated score of the same scorer (its selector, how many of ``terms`` it
        counted, its total): where the whole sum would be large (every card with its own points), the difference
        from it is stated instead, which holds when both statements do."""
        selector = self.selector(text, span)
        guard = selector
        earlier, start, before = since
        if earlier is not None and _size(terms, total) > _MAX_WHOLE_SUM:
            terms, total = terms[start:], total - before
            guard = self.new()
            self.add([-selector, -earlier, guard])
        unit = 0
        for _, points in terms:
            unit = _gcd(unit, points)
        if unit == 0:
            if total != 0:
                self.add([-guard])
            return selector
        if total % unit or total < 0:
            self.add([-guard])
            return selector
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
        if len(lits) * max(1, total // unit) > _MAX_SUM_SIZE:
            return selector  # (too large to state: the replay checks this score)
        self.card_constraint(lits, total // unit, "equals", guard)
        return selector


def _multisets(domains: list[list[Card]]) -> Iterable[tuple[Card, ...]]:
    """Each choice of one card per domain once as a set of cards: among neighbouring unknown cards of one domain
    (``?? ?? ??``) their order is no choice. In the order of a listing of every choice that keeps the first of each
    set (the first of each set is the one sorted within each run of equal domains)."""
    runs: list[tuple[list[Card], int]] = []
    for domain in domains:
        if runs and runs[-1][0] == domain:
            runs[-1] = (domain, runs[-1][1] + 1)
        else:
            runs.append((domain, 1))
    seen: set[tuple[Card, ...]] = set()
    for parts in _lazy_product(runs):
        combo = tuple(card for part in parts for card in part)
        key = tuple(sorted(combo, key=lambda c: c.sort_key))
        if key not in seen:  # (runs of different domains may still give one set twice: ``K? ??``)
            seen.add(key)
            yield combo


def _lazy_product(runs: list[tuple[list[Card], int]]) -> Iterator[tuple[tuple[Card, ...], ...]]:
    """``itertools.product`` of each run's choices (``combinations_with_replacement``), in its order, without making
    any run's list first: ``product`` makes a tuple of each of its iterables before it yields, which for eleven
    unknown cards of a 32-card pack is C(42, 11), four billion choices (seed 38, case 30522), where the caller stops
    after :data:`_MAX_DECLARED_LISTED`."""
    depth = len(runs)
    if not depth:
        yield ()
        return
    stack = [itertools.combinations_with_replacement(*runs[0])]
    parts: list[tuple[Card, ...]] = []  # (the choice of each run below the top of the stack)
    while stack:
        part = next(stack[-1], None)
        if part is None:
            stack.pop()
            if parts:
                parts.pop()
        elif len(stack) == depth:
            yield (*parts, part)
        else:
            parts.append(part)
            stack.append(itertools.combinations_with_replacement(*runs[len(stack)]))


def _size(terms: list[tuple[int, int]], total: int) -> int:
    """The size of a sum's cardinality encoding: unit literals times the bound."""
    unit = 0
    for _, points in terms:
        unit = _gcd(unit, points)
    if unit == 0:
        return 0
    return sum(points // unit for _, points in terms) * max(1, total // unit)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return abs(a)


def _fits(pattern: CardLike, card: Card) -> bool:
    """Whether ``card`` is a value of ``pattern``; the wild card only of ``??`` (its suit is a placeholder)."""
    if isinstance(pattern, Card):
        return pattern == card
    if card.is_wild:
        return pattern.suit is None and pattern.rank is None
    return pattern.matches(card)


# --- solving ---------------------------------------------------------------------------------------------------


class _GaveUp(Exception):
    """The replay budget ran out before the solver's candidates satisfied the engine."""


class _OutOfConflicts(_GaveUp):
    """The solver's search ran past its budget of conflicts or propagations (see :data:`_MAX_CONFLICTS`,
    :data:`_MAX_PROPAGATIONS` and :data:`_MAX_DEAL_PROPAGATIONS`)."""


class _TimeUp(_GaveUp):
    """The time limit passed: nothing more is tried (see :func:`infer_deal`)."""


class _Model:
    """A solver's model: whether each variable is true (the solver's list, variable ``v`` at ``v - 1``, read as it
    is: a dictionary of a deal's hundred thousand variables cost more than the solving)."""

    __slots__ = ("values",)

    def __init__(self, values: list[int]) -> None:
        self.values = values

    def get(self, var: int) -> bool:
        """Whether ``var`` is true (False for a variable made after the model)."""
        return 0 < var <= len(self.values) and self.values[var - 1] > 0


class _Solver:
    def __init__(self, enc: _Encoding) -> None:
        self.enc = enc
        self.solver = Solver(name="glucose4", bootstrap_with=enc.hard)
        for selector, clause in enc.soft:
            self.solver.add_clause([-selector, *clause])
        self.selectors = list(enc.statements)
        self.calls = 0
        self.replays = 0
        self.blocker = enc.pool.id(("blocker",))
        """Assumed while the completions the replay rejected are excluded (:meth:`block`)."""
        self.blocking = False
        self.propagations_left = _MAX_DEAL_PROPAGATIONS
        """What is left of the deal's budget of propagations (:data:`_MAX_DEAL_PROPAGATIONS`)."""

    def limited(self, assumptions: list[int], conflicts: int = _MAX_CONFLICTS) -> bool:
        """Whether the clauses and ``assumptions`` are satisfiable, within a budget of ``conflicts`` and of
        propagations (a search's and what is left of the deal's); raises :class:`_OutOfConflicts` past it."""
        if self.propagations_left <= 0:
            raise _OutOfConflicts(f"the deal's {_MAX_DEAL_PROPAGATIONS:,} propagations")
        propagations = min(_MAX_PROPAGATIONS, self.propagations_left)
        self.solver.conf_budget(conflicts)
        # (pysat's budgets count from the call that sets them: each search sets both)
        self.solver.prop_budget(propagations)
        before = self.solver.accum_stats()
        found = self.solver.solve_limited(assumptions=assumptions)
        after = self.solver.accum_stats()
        used = after["propagations"] - before["propagations"]
        self.propagations_left -= used
        if found is None:
            if after["conflicts"] - before["conflicts"] >= conflicts:
                raise _OutOfConflicts(f"{conflicts:,} conflicts")
            if propagations < _MAX_PROPAGATIONS:
                raise _OutOfConflicts(f"the deal's {_MAX_DEAL_PROPAGATIONS:,} propagations")
            raise _OutOfConflicts(f"{_MAX_PROPAGATIONS:,} propagations")
        return found

    def solve(self, extra: Sequence[int] = (), budget: int = _MAX_CONFLICTS) -> _Model | None:
        """A model of the statements (and ``extra``), none excluded by :meth:`block`; None when there is none;
        raises :class:`_OutOfConflicts` past a budget of ``budget`` conflicts or of propagations (:meth:`limited`)."""
        self.calls += 1
        blocking = [self.blocker] if self.blocking else []
        if not self.limited([*self.selectors, *blocking, *extra], budget):
            return None
        return _Model(self.solver.get_model() or [])

    def core(self) -> list[int]:
        return [lit for lit in (self.solver.get_core() or []) if lit in self.enc.statements]

    def block(self, model: _Model, upto: float) -> None:
        """Exclude every completion that writes the same cards as this one up to a moment (sound: the replay, which
        reads only what is written, breaks a rule there). Completions that differ only in which copy of a card was
        acquired when, or in the cards a seat keeps at the end, are one: each is excluded with the first."""
        enc = self.enc
        lits: list[int] = []
        card_of: dict[int, Card] = {}
        for play, card, lit in enc.model_cards(model):
            card_of[play.index] = card
            if play.time <= upto and play.play is not None and len(play.domain) > 1:
                lits.append(-lit)
        matches = enc.model_matches(model)
        for acq in enc.acqs:
            if acq.time <= upto and acq.index in matches:
                lits.append(-self.value(acq, card_of[matches[acq.index].index]))
        for _item, moment, options in enc.declarations:
            if moment <= upto:
                lits.extend(-lit for lit, _ in options if model.get(lit))
        # (the order written for draws left out follows the trick's winner and leader)
        for number, found in (*enc.winners.items(), *enc.leaders.items()):
            if number <= upto and isinstance(found, dict):
                lits.extend(-lit for lit in found.values() if model.get(lit))
        # (under the blocker: a lenient completion may take one of them when none is left, see :func:`_lenient`)
        self.solver.add_clause([*lits, -self.blocker])
        self.blocking = True

    def unblocked(self) -> bool:
        """Whether some completion satisfies every stated fact, the ones the replay rejected included (when not,
        :meth:`core` names the statements); raises :class:`_OutOfConflicts` past the budget."""
        self.calls += 1
        return self.limited(list(self.selectors))

    def value(self, acq: _Acq, card: Card) -> int:
        """A literal true whenever the card acquired is ``card`` (whichever play it is matched with)."""
        enc = self.enc
        key = ("value", acq.index, card)
        known = enc.pool.obj2id.get(key)
        if known:
            return int(known)
        lit = enc.pool.id(key)
        for play in enc.plays:
            m = enc.pool.obj2id.get(("m", acq.index, play.index))
            if m and card in play.domain:
                self.solver.add_clause([-m, -enc.x(play, card), lit])
        return lit


def _copied(value: Any) -> Any:
    """A deep copy, made by pickling: twice as fast as :func:`copy.deepcopy` for a deal's statements, which are
    pickled and copied alike (:class:`replayer.record._Node`)."""
    return pickle.loads(pickle.dumps(value, 5))


def _decode(enc: _Encoding, model: _Model) -> tuple[dict[int, Card], Deal]:
    values: dict[int, Card] = dict(enc.fixed_values)
    card_of = {play.index: card for play, card, _ in enc.model_cards(model)}
    tag_of_play = {}
    for tag, target in enc.targets.items():
        if target[0] == "attr" and target[2] == "card":
            tag_of_play[id(target[1])] = tag
    for play in enc.plays:
        if play.play is not None and id(play.play) in tag_of_play:
            values[tag_of_play[id(play.play)]] = card_of[play.index]
    matches = enc.model_matches(model)
    for acq in enc.acqs:
        if acq.tag is not None and acq.index in matches:
            values[acq.tag] = card_of[matches[acq.index].index]
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
    return values, _written(enc, values, chosen, model)


def _written(enc: _Encoding, values: dict[int, Card], chosen: dict[int, list[Card]], model: _Model | None) -> Deal:
    """A copy of the deal with the unknown cards written: ``values`` by tag, ``chosen`` the cards of declarations
    by their index."""
    deal, targets, decls = _copied((enc.deal, enc.targets, [d[0] for d in enc.declarations]))
    for tag, card in values.items():
        _set(targets[tag], card)
    for index, item in enumerate(decls):
        if index in chosen and any(isinstance(c, CardPattern) for c in item.cards):
            item.cards = list(chosen[index])
    _order_autodraws(deal, enc, model)
    return deal


def _as_played(enc: _Encoding) -> tuple[dict[int, Card], Deal] | None:
    """A completion of a deal that leaves out only cards acquired (draws, a hand), for when the rules allow none:
    each unknown card acquired is the first card its seat then plays without holding it, of the cards no other
    acquisition accounts for; the rest of those cards in the pack's order. Not checked by a replay: the replay that
    follows reports, on their lines, the plays still not held and every other rule broken, where a rule broken in
    a written card (a card not held, a suit not followed) admits no completion at all (the solver's possession and
    obligations are hard). None when a written card is unknown, or the cards left do not fit what is left out."""
    if any(len(p.domain) != 1 for p in enc.plays if not p.kept):
        return None
    left = Counter(enc.copies)
    for acq in enc.acqs:
        if isinstance(acq.pattern, Card):
            left[acq.pattern] -= 1
    for play in enc.plays:
        if play.give:
            left[play.domain[0]] += 1  # (the seven exchanged takes the turn-up's place: it is acquired again)
    # The turn-up (or the seven in its place) is the last card drawn: only a last draw takes it (when the record
    # does not write it taken).
    last = enc.last_value
    if any(a.pattern == last for a in enc.last_draws if isinstance(a.pattern, Card)):
        last = None
    if last is not None:
        left[last] -= 1
    lasts = {a.index for a in enc.last_draws}

    def fits(acq: _Acq, card: Card) -> bool:
        if not _fits(acq.pattern, card):
            return False
        return left[card] > 0 or (card == last and acq.index in lasts)

    def take(acq: _Acq, card: Card) -> None:
        nonlocal last
        values[acq.tag] = card  # type: ignore[index]
        if left[card] > 0:
            left[card] -= 1
        else:
            last = None  # (the turn-up is taken)

    values: dict[int, Card] = dict(enc.fixed_values)
    pending: list[_Acq] = []
    for seat in enc.profile.seats:
        # (at one moment the plays come first: a card acquired then is held only after them)
        timeline = sorted(
            [(a.time, 1, a.index, a) for a in enc.acqs if a.seat == seat]
            + [(p.time, 0, p.index, p) for p in enc.plays if p.seat == seat and not p.kept]
        )
        hand: Counter[Card] = Counter()
        waiting: list[_Acq] = []
        for *_, event in timeline:
            if isinstance(event, _Acq):
                if isinstance(event.pattern, Card):
                    hand[event.pattern] += 1
                elif event.tag is not None:
                    waiting.append(event)
                continue
            card = event.domain[0]
            if hand[card] > 0:
                hand[card] -= 1
                continue
            taken = next((a for a in waiting if fits(a, card)), None)
            if taken is not None:
                waiting.remove(taken)
                take(taken, card)
        pending += waiting
    for acq in sorted(pending, key=lambda a: a.index in lasts):  # (the last draws last: they alone take the turn-up)
        choice = next((c for c in enc.pack if fits(acq, c)), None)
        if choice is None:
            return None
        take(acq, choice)
    if any(tag not in values for tag in enc.targets):
        return None
    return values, _written(enc, values, {}, None)


def _order_autodraws(deal: Deal, enc: _Encoding, model: _Model | None) -> None:
    """Draws the record left out are written in the order the rules draw them (without a ``model``: after the
    winner the record states, :attr:`_Encoding.stated`)."""
    for trick in deal.tricks:
        winners = enc.winners.get(trick.number)
        if not isinstance(winners, dict):
            continue
        if model is None:
            winner = enc.stated.get(trick.number)
        else:
            winner = next((s for s, lit in winners.items() if model.get(lit)), None)
        if trick.ordered and trick.plays:
            leader: str | None = trick.plays[0].seat
        elif model is None:
            leader = None
        else:
            leader = next((s for s, lit in enc.leaders.get(trick.number, {}).items() if model.get(lit)), None)
        seats, index = enc.rules.seats, enc.rules.seat_index
        first = first_to_draw(enc.rules, index.get(winner or "", -1), index.get(leader or "", -1))
        if first < 0:
            continue
        order = [seats[k] for k in enc.start.order[first]]
        for item in trick.items:
            autodrawn = isinstance(item, Draws) and item.draws and all(d.span == trick.span for d in item.draws)
            if autodrawn and isinstance(item, Draws):
                item.draws.sort(key=lambda d: order.index(d.seat) if d.seat in order else len(order))


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
    if progress is not None:  # (a listener is told as the work goes: nothing is kept)
        return _infer_deal(deal, profile, options, dealer, analyse, max_replays, lenient, time_limit, progress)
    key = (pickle.dumps(deal, 5), id(profile), tuple(sorted(options.items())), dealer, analyse, max_replays, lenient)
    kept = _COMPLETIONS.get(key)
    # A completion found without a time limit (or a longer one) answers a question asked with one: the same deal is
    # completed for the diagnostics, the hover's replay, the legal cards' and validate's.
    if (
        kept is not None
        and kept[0] is profile
        and (kept[1] is None or (time_limit is not None and time_limit <= kept[1]))
    ):
        _COMPLETIONS.move_to_end(key)
        return kept[2]
    inference = _infer_deal(deal, profile, options, dealer, analyse, max_replays, lenient, time_limit, None)
    _COMPLETIONS[key] = (profile, time_limit, inference)
    if len(_COMPLETIONS) > _COMPLETIONS_KEPT:
        _COMPLETIONS.popitem(last=False)
    return inference


_COMPLETIONS: OrderedDict[tuple[Any, ...], tuple[RuleProfile, float | None, Inference]] = OrderedDict()
"""The last completions made, by what they were asked (the deal as pickled, with its positions), latest last. An
:class:`Inference` is not changed once made: the replays that read it share it."""
_COMPLETIONS_KEPT = 32


def _infer_deal(
    deal: Deal,
    profile: RuleProfile,
    options: dict[str, str | int],
    dealer: str,
    analyse: bool,
    max_replays: int,
    lenient: bool,
    time_limit: float | None,
    progress: Callable[[int, int, float], None] | None,
) -> Inference:
    """:func:`infer_deal` without remembering."""
    started = time.perf_counter()
    deadline = started + time_limit if time_limit is not None else None
    enc = _Encoding(deal, profile, options, dealer)
    inference = Inference(None, enc.unknowns)
    if enc.unlisted and not lenient:
        # (a repaired deal's declaration on a line that did not read is left out by the replay instead)
        item, unknowns = enc.unlisted[0]
        inference.unknowns = enc.unknowns + [
            Unknown(len(enc.unknowns) + k, card, "declaration", item.seat, item.span, None, item.kind)
            for k, card in enumerate(unknowns)
        ]
        where = f" (line {item.span.line})" if item.span is not None else ""
        inference.failure = (
            f"{item.seat}'s declaration{where} leaves {len(unknowns)} cards unknown, with more choices than the "
            "completion lists: write some of them"
        )
        inference.seconds = time.perf_counter() - started
        return inference
    solver = _Solver(enc)

    furthest: list[tuple[float, _Model]] = []
    """The rejected completion whose replay went furthest (the moment of its first problem), and its model."""

    def complete(extra: Sequence[int] = ()) -> tuple[dict[int, Card], Deal] | None:
        """A completion accepted by the engine; None when none exists; raises _GaveUp past the budget."""
        for _ in range(max_replays):
            if deadline is not None and time.perf_counter() > deadline:
                raise _TimeUp
            # (the search for another candidate once some were rejected may be a proof that none is left, which
            # can take minutes where copies of a card abound: six packs, a deal cut short; it has a budget)
            # Every search has the budget: the first candidate, another once some were rejected, and the analysis's
            # questions (``extra``: may this unknown be that card?). In a deal of many packs (copies abound) one
            # search could take the solver minutes inside one call; past the budget the deal is not completed, or
            # the card is undecided, and said so.
            model = solver.solve(extra, _MAX_QUESTION_CONFLICTS if extra else _MAX_CONFLICTS)
            if model is None:
                return None
            values, completed = _decode(enc, model)
            solver.replays += 1
            problems = replay_deal(completed, profile, options, dealer)
            if not problems:
                return values, completed
            if not extra and (not furthest or problems[0] > furthest[0][0]):
                furthest[:] = [(problems[0], model)]
            solver.block(model, problems[0])
        raise _GaveUp

    try:
        found = complete()
    except _TimeUp:
        found = None
        inference.failure = f"no completion found within the time limit ({time_limit:g} s)"
    except _OutOfConflicts as spent:
        found = None
        inference.failure = (
            f"no completion found after {solver.replays} candidate replays (the search for another gave up after "
            f"{spent})"
            if solver.replays
            else f"no completion found: the solver's search gave up after {spent}"
        )
    except _GaveUp:
        found = None
        inference.failure = f"no completion found after {max_replays} candidate replays"
    if found is None and lenient:
        found = _lenient(enc, solver, furthest[0][1] if furthest else None)
        if found is None and not (deal.lossy or deal.repaired):
            found = _as_played(enc)
        if found is not None:
            inference.failure = ""
            inference.lenient = True
    if found is None and not inference.failure:
        try:
            replayed = solver.blocking and solver.unblocked()
        except _OutOfConflicts as spent:
            inference.failure = f"no completion found: the solver's search gave up after {spent}"
        else:
            if replayed:
                # Every completion was replayed (each choice of the cards written once, whichever copy is which).
                inference.failure = (
                    f"each of the {solver.replays} completions the rules allow breaks a rule when replayed"
                )
            else:
                inference.conflict = _minimal_conflict(solver)
                inference.failure = "no completion satisfies every stated fact"
    if found is not None:
        inference.values, inference.deal = found
        if analyse and not inference.lenient:  # (a completion that lets statements go: "forced" would say nothing)
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


def _lenient(enc: _Encoding, solver: _Solver, furthest: _Model | None = None) -> tuple[dict[int, Card], Deal] | None:
    """A completion that satisfies as many stated facts as the conflicts allow (see :func:`infer_deal`): the latest
    statement of each conflict is let go until the rest hold together. Not checked by a replay: the replay that
    follows reports what it breaks. When every completion that satisfies them was replayed and rejected, the one
    whose replay went furthest (``furthest``)."""
    while True:
        try:
            model = solver.solve()
            gave_up = False
        except _OutOfConflicts:
            model, gave_up = None, True
        if gave_up and not solver.blocking:
            return None  # (the solver's budget spent without an answer: no conflict to let go is known)
        if model is None and solver.blocking and (gave_up or _unblocked_or_unknown(solver)):
            # Every completion that satisfies the statements left was replayed and rejected: the one whose replay
            # went furthest (it satisfies them all).
            if furthest is None:
                solver.blocking = False
                continue
            model = furthest
        if model is not None:
            # (a declaration whose statement was let go may keep unknown cards, no choice of its cards holding: it
            # stood on a line that did not read, and the replay leaves it out, its points taken as written)
            return _decode(enc, model)
        core = solver.core()
        if not core:
            return None
        latest = max(core, key=lambda s: _position(enc.statements[s]))
        solver.selectors.remove(latest)


def _unblocked_or_unknown(solver: _Solver) -> bool:
    """:meth:`_Solver.unblocked`, or True when its search runs past the budget (the replayed completions are then
    taken as all there is: the one that went furthest is used, never a conflict the solver did not prove)."""
    try:
        return solver.unblocked()
    except _OutOfConflicts:
        return True


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
        try:
            if not solver.limited([*trial, *[-s for s in others], -lit]):
                current = trial
        except _OutOfConflicts:
            break  # (past the budget the core is kept as it stands: still a conflict, only perhaps not minimal)
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
