"""The rules core in Card objects and sentences: the engine API of the random player, the lessons and the tests.

Every rule is the core's (:mod:`replayer.rules`); this module only translates. A :class:`EngineState` wraps the core's
:class:`~replayer.rules.DealState` and shows it with seat names and :class:`~replayer.cards.Card` objects; every action
is ``apply_*(state, ...) -> Step``, which leaves the input state as it was (the step carries a new state) unless its
owner set ``in_place``. With ``force=False`` an action that breaks a rule raises the first
:class:`~replayer.errors.RuleViolation`; with ``force=True`` it is carried out as far as it can be, its violations
listed in the step.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

from .cards import CARDS, SUITS, Card, CardLike, Suit
from .errors import RuleViolation
from .explain import Scoring, explain, scoring
from .profile import MeldSpec, RuleProfile
from .rules import DealState, Rules, TabledCard, compile_rules
from .rules import identify as _identify
from .rules import matches as _matches
from .rules import next_dealer as _next_dealer
from .rules import trick_winner as _trick_winner

__all__ = [
    "EngineState",
    "Scoring",
    "SeatState",
    "Step",
    "TableCard",
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
    "identify",
    "legal_carte_blanche",
    "legal_declarations",
    "legal_exchanges",
    "legal_joint_declarations",
    "legal_plays",
    "matches",
    "next_dealer",
    "start_deal",
    "trick_winner",
]


def _cards(indices: Sequence[int]) -> tuple[Card, ...]:
    return tuple(CARDS[i] for i in indices)


class TableCard:
    """A declared card lying face up, as a view shows it: the card and the kinds it has been scored in."""

    __slots__ = ("card", "kinds", "uid")

    def __init__(self, tabled: TabledCard) -> None:
        self.uid = tabled.uid
        self.card = CARDS[tabled.card]
        self.kinds = frozenset(tabled.kinds)

    def __repr__(self) -> str:
        return f"TableCard(uid={self.uid!r}, card={self.card!r}, kinds={set(self.kinds)!r})"


class SeatState:
    """What one seat holds and has won, read from the core's state (read-only: a test states a position instead,
    :func:`from_position`)."""

    __slots__ = ("_deal", "_seat")

    def __init__(self, deal: DealState, seat: int) -> None:
        self._deal = deal
        self._seat = seat

    @property
    def hand(self) -> Counter[Card]:
        """Concealed cards (a copy)."""
        return Counter({CARDS[c]: n for c, n in enumerate(self._deal.hand(self._seat)) if n})

    @property
    def table(self) -> list[TableCard]:
        """Declared cards lying face up; still part of the hand."""
        return [TableCard(t) for t in self._deal.tables[self._seat]]

    @property
    def won(self) -> list[Card]:
        """The cards of the tricks the seat has won (a copy)."""
        return [CARDS[c] for c in self._deal.won[self._seat]]

    @property
    def pending(self) -> list[tuple[str, tuple[int, ...]]]:
        """Combinations shown but not yet scored: (kind, tabled uids)."""
        return list(self._deal.pending[self._seat])

    @property
    def unknown(self) -> list[CardLike]:
        """Cards held but not known: none (the replay completes a lossy record before it plays it)."""
        return []

    @property
    def tricks_won(self) -> int:
        """Tricks won so far in this hand."""
        return self._deal.tricks_won[self._seat]

    @property
    def declared_kinds(self) -> Counter[str]:
        """How many times each kind has been scored in this hand."""
        return Counter(self._deal.declared_kinds[self._seat])

    @property
    def blanche(self) -> int:
        """Carte blanche: 0 not declared, 1 declared, 2 ended by a court card drawn."""
        return self._deal.blanche[self._seat]

    @property
    def blanche_card(self) -> Card | None:
        """The non-court card just drawn that may be shown for another carte blanche (until the seat plays)."""
        card = self._deal.blanche_card[self._seat]
        return CARDS[card] if card >= 0 else None

    @property
    def score(self) -> int:
        """The seat's points in this hand."""
        return self._deal.score[self._seat]

    def held(self) -> Counter[Card]:
        """Hand and table cards together."""
        return Counter({CARDS[c]: n for c, n in enumerate(self._deal.held[self._seat]) if n})

    def held_kinds(self) -> set[Card]:
        """The distinct cards of hand and table."""
        return {CARDS[c] for c, n in enumerate(self._deal.held[self._seat]) if n}

    def can_hold(self, card: Card) -> bool:
        """True when ``card`` is held."""
        return self._deal.held[self._seat][card.index] > 0


class EngineState:
    """The state of one deal between actions, in seat names and cards (the core's :class:`~replayer.rules.DealState`
    underneath, as ``core``). Its views are read-only: a test states a position instead (:func:`from_position`)."""

    __slots__ = ("core", "in_place")

    def __init__(self, core: DealState, in_place: bool = False) -> None:
        self.core = core
        self.in_place = in_place
        """Actions change this state itself instead of a copy (its owner keeps no earlier state)."""

    @property
    def rules(self) -> Rules:
        """The compiled rules of the deal."""
        return self.core.rules

    @property
    def profile(self) -> RuleProfile:
        """The profile as the deal plays it (its options merged in)."""
        return self.core.rules.profile

    @property
    def options(self) -> Mapping[str, str | int]:
        """The game's options."""
        return self.core.rules.options

    def option(self, name: str) -> str | int:
        """An option's value for this deal."""
        return self.core.rules.options[name]

    @property
    def seats(self) -> dict[str, SeatState]:
        """Each seat's state, by seat name."""
        return {name: SeatState(self.core, i) for i, name in enumerate(self.core.rules.seats)}

    def _name(self, seat: int) -> str | None:
        return self.core.rules.seats[seat] if seat >= 0 else None

    @property
    def dealer(self) -> str:
        """Who dealt."""
        return self.core.rules.seats[self.core.dealer]

    @property
    def trump(self) -> Suit | None:
        """Trumps (None while no declaration has fixed them, without a turn-up)."""
        return SUITS[self.core.trump] if self.core.trump >= 0 else None

    @property
    def turnup(self) -> Card | None:
        """The card turned up beside the stock (after an exchange, the seven)."""
        return CARDS[self.core.turnup] if self.core.turnup >= 0 else None

    @property
    def stock(self) -> list[Card] | None:
        """The face-down stock, top first, when the record gives its order."""
        return None if self.core.stock is None else list(_cards(self.core.stock))

    @property
    def stock_left(self) -> int:
        """Face-down cards left (the turn-up is not counted)."""
        return self.core.stock_left

    @property
    def turnup_waiting(self) -> bool:
        """The turn-up still lies beside the stock."""
        return self.core.turnup_waiting

    @property
    def to_draw(self) -> list[str]:
        """Seats that still draw after the last trick, in order."""
        return [self.core.rules.seats[s] for s in self.core.to_draw]

    @property
    def leader(self) -> str:
        """Who leads (or led) the trick in progress."""
        return self.core.rules.seats[self.core.leader]

    @property
    def trick_no(self) -> int:
        """Tricks completed."""
        return self.core.trick_no

    @property
    def plays(self) -> list[tuple[str, Card]]:
        """Cards played to the trick in progress."""
        seats = self.core.rules.seats
        return [(seats[s], CARDS[c]) for s, c in self.core.plays]

    @property
    def winner(self) -> str | None:
        """Winner of the last completed trick, while he may still act on it."""
        return self._name(self.core.winner)

    @property
    def window_open(self) -> bool:
        """The last trick's winner may still exchange or declare."""
        return self.core.window_open

    @property
    def declared(self) -> list[tuple[Card, ...]]:
        """Declarations scored after the current trick."""
        return [_cards(cards) for cards in self.core.declared]

    @property
    def exchanged(self) -> bool:
        """The trump seven has been exchanged for the turn-up."""
        return self.core.exchanged

    @property
    def out(self) -> str | None:
        """The seat whose score reached the profile's ``hand_target``: the hand ended there."""
        return self._name(self.core.out)

    @property
    def out_stated(self) -> bool:
        """The record has said so (``N goes out``)."""
        return self.core.out_stated

    @property
    def must_lead(self) -> tuple[Card, ...]:
        """The cards of a declaration one of which its declarer must lead next."""
        return _cards(self.core.must_lead)

    @property
    def declarer(self) -> str | None:
        """Who may declare after the last trick when its winner has let his partner declare."""
        return self._name(self.core.declarer)

    @property
    def phase(self) -> int:
        """1 while the stock (with the turn-up) has cards or draws are due, else 2."""
        return self.core.phase

    @property
    def turnup_in_stock(self) -> bool:
        """The turn-up has not been drawn yet."""
        return self.core.turnup_in_stock

    @property
    def stock_count(self) -> int:
        """Cards left to draw, turn-up included."""
        return self.core.stock_count

    @property
    def finished(self) -> bool:
        """Every trick of the hand has been played, or a seat has reached the hand's target."""
        return self.core.finished

    def copy(self) -> EngineState:
        """An independent copy (not ``in_place``)."""
        return EngineState(self.core.copy())

    def scores(self) -> dict[str, int]:
        """Running scores by scorer: each seat, or each side (``N+S``) where partners keep a joint score."""
        return dict(zip(self.core.rules.scorers, self.core.scores(), strict=True))

    def next_seat(self, seat: str) -> str:
        """The seat after ``seat`` in this deal's playing order (a dealer who sits the hand out is left out)."""
        rules = self.core.rules
        return rules.seats[self.core.next_seat[rules.seat_index[seat]]]

    @property
    def playing(self) -> list[str]:
        """The seats that play this deal, in seat order (all but a dealer who sits it out, 004:L117)."""
        rules = self.core.rules
        dealer = self.core.dealer if rules.dealer_sits_out else -1
        return [name for i, name in enumerate(rules.seats) if i != dealer]


class Step:
    """The result of one action: the state after it, what it scored, the rules it broke, and the trick's winner
    when it completed a trick."""

    __slots__ = ("events", "state", "violations", "winner")

    def __init__(
        self,
        state: EngineState,
        events: list[Scoring] | None = None,
        violations: list[RuleViolation] | None = None,
        winner: str | None = None,
    ) -> None:
        self.state = state
        self.events = events if events is not None else []
        self.violations = violations if violations is not None else []
        self.winner = winner

    def check(self, force: bool) -> Step:
        """Raise the first violation unless ``force``."""
        if self.violations and not force:
            raise self.violations[0]
        return self


def _successor(state: EngineState) -> EngineState:
    """The state an action changes: a copy, unless the state's owner lets actions change it in place."""
    return state if state.in_place else state.copy()


def _step(new: EngineState, force: bool, trick_before: int | None = None) -> Step:
    """The step of an action just carried out on ``new``: its breaches and events taken from the core."""
    core = new.core
    rules = core.rules
    violations = [RuleViolation(code, explain(rules, (code, key, args))) for code, key, args in core.breaches]
    events = [scoring(rules, e) for e in core.events]
    core.breaches.clear()
    core.events.clear()
    winner = None
    if trick_before is not None and core.trick_no != trick_before:
        winner = rules.seats[core.winner]
    return Step(new, events, violations, winner).check(force)


def _seat(state: EngineState, seat: str) -> int:
    return state.core.rules.seat_index[seat]


def start_deal(
    profile: RuleProfile,
    options: Mapping[str, str | int],
    dealer: str,
    trump: Suit | None,
    turnup: Card | None,
    hands: Mapping[str, Sequence[Card]],
    stock: Sequence[Card] | None = None,
    leader: str | None = None,
    force: bool = False,
) -> Step:
    """The state after the deal: hands dealt, the turn-up showing (and the dealer's 10 for a trump seven).

    The deal is played under ``profile.with_options(options)``: options that change the rules are applied here.
    """
    rules = compile_rules(profile, options)
    core = DealState.start(
        rules,
        rules.seat_index[dealer],
        SUITS.index(trump) if trump is not None else -1,
        turnup.index if turnup is not None else -1,
        [[c.index for c in hands.get(seat, ())] for seat in rules.seats],
        [c.index for c in stock] if stock is not None else None,
        rules.seat_index[leader] if leader is not None else None,
    )
    return _step(EngineState(core), force)


def from_position(text: str) -> EngineState:
    """The state a book fragment stands at (docs/notation.md, "Book fragments"): its ``position:``, hands,
    ``table`` lines and leader, then any tricks it plays, read by the reader and given to the core as ``validate``
    gives them (its checks included: raises :class:`ValueError` naming the first fault). Tests stage a position
    with it, as chess tests use FEN, rather than writing the core's fields past its checks."""
    from .check import check_text  # (the pipeline imports the engine's users: only when a test asks)

    result = check_text(text, "<position>")
    faults = [f"{d.code} {d.message}" for d in result.diagnostics if d.severity == "error"]
    deal = result.games[0].deals[-1] if result.games and result.games[0].deals else None
    if faults or deal is None or deal._state is None:
        raise ValueError(f"not a position: {faults[0] if faults else 'no deal'}")
    return EngineState(deal._state.copy())


def apply_play(state: EngineState, seat: str, card: Card, force: bool = False) -> Step:
    """Play a card to the current trick; completing a trick decides its winner and its automatic scores."""
    new = _successor(state)
    before = new.core.trick_no
    new.core.play(_seat(new, seat), card.index)
    return _step(new, force, before)


def apply_draw(state: EngineState, seat: str, card: Card, force: bool = False) -> Step:
    """Draw a card from the stock after a trick; the last card drawn is the turn-up."""
    new = _successor(state)
    new.core.draw(_seat(new, seat), card.index)
    return _step(new, force)


def apply_exchange(state: EngineState, seat: str, card: Card, points: int | None = None, force: bool = False) -> Step:
    """Exchange the trump seven for the turn-up (after winning a trick, or as the profile allows); or show the other
    seven where the profile scores it (``seven.second``)."""
    new = _successor(state)
    new.core.exchange(_seat(new, seat), card.index, points)
    return _step(new, force)


def apply_pass(state: EngineState, seat: str, partner: str, force: bool = False) -> Step:
    """The trick's winner lets his partner declare instead of himself (RULES.md §2.g.1 rule 4, 000:L373)."""
    new = _successor(state)
    new.core.pass_to(_seat(new, seat), new.core.rules.seat_index.get(partner, -1))
    return _step(new, force)


def apply_declare(
    state: EngineState,
    seat: str,
    kind: str | None,
    cards: Sequence[Card],
    points: int | None = None,
    force: bool = False,
    partner_cards: Sequence[Card] = (),
    partner: str | None = None,
) -> Step:
    """Declare (score) a combination after winning a trick (``partner_cards``: the partner's cards that complete
    it, where the profile lets partners declare together)."""
    new = _successor(state)
    index = new.core.rules.seat_index
    new.core.declare(
        index[seat],
        kind,
        [c.index for c in cards],
        points,
        [c.index for c in partner_cards],
        index.get(partner, -2) if partner is not None else -1,
    )
    return _step(new, force)


def apply_show(state: EngineState, seat: str, kind: str | None, cards: Sequence[Card], force: bool = False) -> Step:
    """Lay out a combination after winning a trick without scoring it; it may be scored after a later trick."""
    new = _successor(state)
    new.core.show(_seat(new, seat), kind, [c.index for c in cards])
    return _step(new, force)


def apply_carte_blanche(
    state: EngineState, seat: str, spec: MeldSpec, cards: Sequence[Card], points: int | None = None, force: bool = False
) -> Step:
    """Declare a carte blanche (``spec``, a whole-hand meld): the whole hand shown before the first trick, or the
    non-court card just drawn for another (RULES.md §2.e rule 9)."""
    return apply_declare(state, seat, spec.kind, cards, points, force)


def apply_cut(state: EngineState, lifted: int | None, guess: int | None) -> Step:
    """The six-pack deal bonuses for the cut and the guess (RULES.md §2.h rule 3, 000:L395)."""
    new = _successor(state)
    new.core.cut(lifted, guess)
    return _step(new, True)


def apply_out(state: EngineState, seat: str, points: int | None = None, force: bool = False) -> Step:
    """``N goes out``: the record says that ``seat`` has reached the hand's target, which ended the hand."""
    new = _successor(state)
    new.core.go_out(_seat(new, seat), points)
    return _step(new, force)


def apply_penalty(
    state: EngineState, seat: str, kind: str, points: int | None = None, banked: int = 0, force: bool = False
) -> Step:
    """``N penalty extra_card = 50``: deduct a penalty of the profile's table from ``seat``'s score."""
    new = _successor(state)
    new.core.penalty(_seat(new, seat), kind, points, banked)
    return _step(new, force)


def finish_deal(state: EngineState, force: bool = False) -> Step:
    """End of the hand: brisques, card points counted at the end (and checks that it was played out)."""
    new = _successor(state)
    new.core.finish()
    return _step(new, force)


def game_points(state: EngineState) -> dict[str, int]:
    """What a finished hand scores toward the game under the profile's ``game_points`` table (empty without one)."""
    won = state.core.game_points()
    return dict(zip(state.core.rules.seats, won, strict=True)) if won else {}


def next_dealer(
    profile: RuleProfile, dealer: str, won: Mapping[str, int], options: Mapping[str, str | int] | None = None
) -> str:
    """The next hand's dealer after ``dealer``'s hand, which scored ``won`` game points (see
    :func:`replayer.rules.next_dealer`), under ``options`` (the profile's defaults when None)."""
    rules = compile_rules(profile, profile.default_options() if options is None else options)
    seats = rules.seats
    return seats[_next_dealer(rules, rules.seat_index[dealer], [won.get(s, 0) for s in seats])]


def trick_winner(plays: Sequence[tuple[str, Card]], trump: Suit | None) -> int:
    """Index of the winning play (see :func:`replayer.rules.trick_winner`)."""
    return _trick_winner([c.index for _, c in plays], SUITS.index(trump) if trump is not None else -1)


def identify(profile: RuleProfile, cards: Sequence[Card], trump: Suit | None) -> list[MeldSpec]:
    """Every meld of the profile (its options at their defaults) that these cards form under these trumps."""
    rules = compile_rules(profile, profile.default_options())
    return list(_identify(rules, [c.index for c in cards], SUITS.index(trump) if trump is not None else -1))


def matches(profile: RuleProfile, spec: MeldSpec, cards: Sequence[Card], trump: Suit | None) -> bool:
    """True when ``cards`` form exactly the meld ``spec`` of the profile under these trumps."""
    rules = compile_rules(profile, profile.default_options())
    return _matches(rules, spec, [c.index for c in cards], SUITS.index(trump) if trump is not None else -1)


def legal_plays(state: EngineState, seat: str) -> set[Card]:
    """The cards ``seat`` may play now."""
    return {CARDS[c] for c in state.core.legal_plays(_seat(state, seat))}


def legal_exchanges(state: EngineState) -> list[tuple[str, Card]]:
    """Every (seat, trump seven) that may be exchanged for the turn-up, or shown, now."""
    seats = state.core.rules.seats
    return [(seats[s], CARDS[c]) for s, c in state.core.legal_exchanges()]


def legal_declarations(state: EngineState, seat: str) -> list[tuple[MeldSpec, tuple[Card, ...]]]:
    """Every combination ``seat`` could score now."""
    return [(spec, _cards(cards)) for spec, cards in state.core.legal_declarations(_seat(state, seat))]


def legal_joint_declarations(
    state: EngineState, seat: str
) -> list[tuple[MeldSpec, tuple[Card, ...], tuple[Card, ...]]]:
    """Every combination ``seat`` could score now only with his partner's cards: (meld, his cards, the partner's)."""
    found = state.core.legal_joint_declarations(_seat(state, seat))
    return [(spec, _cards(mine), _cards(theirs)) for spec, mine, theirs in found]


def legal_carte_blanche(state: EngineState, seat: str, spec: MeldSpec | None = None) -> bool:
    """True when ``seat`` may declare a carte blanche now."""
    return state.core.legal_carte_blanche(_seat(state, seat), spec)
