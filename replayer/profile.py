"""The rule profile: what one variant's rules are, as data, validated once and frozen.

A :class:`RuleProfile` is made from a mapping (what a YAML profile holds) by :func:`build_profile`, which checks every
key and value and names the file and key of any problem. The rules core (:mod:`replayer.rules`) compiles a profile
and a record's options into the one object every rule reads; reading profiles from files is
:mod:`replayer.profiles`'s job.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cached_property
from types import MappingProxyType

from .cards import Card, CardParseError, Rank, Suit, make_pack, parse_rank, parse_suit
from .errors import OptionError, RuleProfileError

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import Any, Self, dataclass_transform
else:

    def dataclass_transform(**_: object):  # at run time a no-op, so that typing is not imported
        return lambda cls: cls


__all__ = [
    "REUSE_MODES",
    "GameScoring",
    "MeldSpec",
    "OptionSpec",
    "RuleProfile",
    "build_profile",
    "partner_suit",
]


# The transform tells the type checker that subclasses are made by keyword from their annotated fields, so a wrong or
# missing field is still a type error, as it was when these were dataclasses.
@dataclass_transform(kw_only_default=True, frozen_default=True)
class _Value:
    """Base of the profile's immutable values: made by keyword from the fields the class annotates (a field given a
    value in the class body is optional, that value its default), equal and hashed field by field except those in
    ``_uncompared`` (which are not printed either), printed as ``Name(field=value, ...)``.

    Plain classes rather than dataclasses: a dataclass runs generated code when it is made (3 ms for RuleProfile's
    sixty fields) and its module imports inspect, and every command loads a profile."""

    _fields: tuple[str, ...] = ()
    _compared: tuple[str, ...] = ()
    _uncompared: tuple[str, ...] = ()

    def __init_subclass__(cls) -> None:
        super().__init_subclass__()
        cls._fields = tuple(vars(cls).get("__annotations__", {}))
        cls._compared = tuple(name for name in cls._fields if name not in cls._uncompared)

    def __init__(self, **values: Any) -> None:
        cls = type(self)
        for name in self._fields:
            if name in values:
                object.__setattr__(self, name, values.pop(name))
            elif hasattr(cls, name):
                object.__setattr__(self, name, getattr(cls, name))
            else:
                raise TypeError(f"{cls.__name__}() needs {name!r}")
        if values:
            raise TypeError(f"{cls.__name__}() has no field {next(iter(values))!r}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"cannot delete field {name!r}")

    def _key(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self._compared)

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return self._key() == other._key()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self._compared)
        return f"{type(self).__name__}({fields})"

    def replace(self, **changes: Any) -> Self:
        """A copy with the fields named changed (``dataclasses.replace``)."""
        return type(self)(**{name: getattr(self, name) for name in self._fields} | changes)


class MeldSpec(_Value):
    """One line of a profile's meld table."""

    kind: str
    """Stable name used in records and JSON (``royal_marriage``)."""
    klass: str
    """Re-use class (``M``, ``B``, ``F``): a new declaration needs a card not yet scored in its class."""
    points: int
    suit: str | None = None
    """``trump``, ``plain`` or ``any`` for same-suit patterns."""
    ranks: tuple[Rank, ...] = ()
    """Ranks of a same-suit pattern."""
    rank: Rank | None = None
    """Rank of an n-of-a-kind pattern."""
    count: int = 0
    """Size of an n-of-a-kind pattern."""
    cards: tuple[Card, ...] = ()
    """Exact cards of a fixed pattern (bezique)."""
    marriage: bool = False
    """A king-queen pair: the re-marriage exception may apply."""
    distinct: bool = False
    """An n-of-a-kind pattern whose cards are of different suits ("четыре дамы разной масти", RULES.md §2.l rule 9)."""
    trump_ranks: tuple[Rank, ...] = ()
    """Ranks of the trump suit in a trump-relative pattern (the bezique of 004-C: the trump queen ...)."""
    partner_ranks: tuple[Rank, ...] = ()
    """... and ranks of the other suit of the trumps' colour (... with the jack of that suit, RULES.md §2.l rule 8)."""
    repeats: tuple[int, ...] = ()
    """The points of the 1st, 2nd, ... declaration of the kind in a hand (25, 50, 100, 200 for 004-C's bezique);
    past the list each repeat doubles. Empty: ``points`` each time, or as the profile's ``repeat_rule`` says."""
    extends: str | None = None
    """The kind this one adds a card to: all but one of its cards must already be scored in that kind (the fifth
    queen added "к имеющимся у него четырем открытым", RULES.md §2.l rule 9)."""
    when_trump: tuple[tuple[Suit, tuple[Card, ...]], ...] = ()
    """Exact cards that replace ``cards`` when the given suit is trumps (the six-pack bezique, RULES.md §2.h.10)."""
    hand: str | None = None
    """A whole-hand meld: ``no_court`` is carte blanche (no king, queen or jack held; RULES.md §2.e rule 9)."""
    counts_as: str | None = None
    """The kind whose progression this one shares: its declarations are counted with that kind's for ``repeats``
    (004-C's quint with the bezique jack is the n-th quint, "или при безиковом валете", 004:L155)."""

    @property
    def label(self) -> str:
        """Human name: ``royal marriage``."""
        return self.kind.replace("_", " ")

    @property
    def size(self) -> int:
        """Number of cards in the meld."""
        return len(self.ranks) or self.count or len(self.cards) or len(self.trump_ranks) + len(self.partner_ranks)

    def cards_for(self, trump: Suit | None) -> tuple[Card, ...]:
        """The exact cards of a fixed or trump-relative pattern under these trumps (empty for other patterns)."""
        for suit, cards in self.when_trump:
            if suit == trump:
                return cards
        if self.cards:
            return self.cards
        if (self.trump_ranks or self.partner_ranks) and trump is not None:
            partner = partner_suit(trump)
            return tuple(Card(trump, r) for r in self.trump_ranks) + tuple(Card(partner, r) for r in self.partner_ranks)
        return ()

    def points_for(self, nth: int, repeat_rule: str = "none") -> int:
        """The points of the ``nth`` declaration of this kind in a hand (1 for the first)."""
        if self.repeats:
            if nth <= len(self.repeats):
                return self.repeats[nth - 1]
            return self.repeats[-1] * 2 ** (nth - len(self.repeats))
        return self.points * nth if repeat_rule == "multiply" else self.points

    @property
    def whole_hand(self) -> bool:
        """True for a meld judged on the whole hand (carte blanche) rather than on the cards declared."""
        return self.hand is not None


def partner_suit(suit: Suit) -> Suit:
    """The other suit of the same colour: spades and clubs, hearts and diamonds (RULES.md §2.l rule 8)."""
    return {Suit.S: Suit.C, Suit.C: Suit.S, Suit.H: Suit.D, Suit.D: Suit.H}[suit]


class GameScoring(_Value):
    """How a one-hand game is scored (RULES.md §2.e rule 15, §2.h rule 13, §2.i rule 6).

    Normal case (the loser reached ``rubicon``): with ``difference`` the winner scores ``game_bonus`` + the
    difference and the loser nothing; without it the winner adds ``game_bonus`` to his own score and the loser keeps
    his. Rubiconed loser: the winner scores his own and the loser's points + ``rubicon_bonus`` (+ ``low_bonus`` when
    the loser scored below ``low_score``); the loser nothing.
    """

    rubicon: int
    game_bonus: int
    rubicon_bonus: int
    difference: bool = True
    low_score: int = 0
    low_bonus: int = 0


class OptionSpec(_Value):
    """A house-rule option a record's header may set."""

    name: str
    default: str | int
    values: tuple[str, ...] = ()
    type: str = "choice"
    doc: str = ""
    sets: Mapping[str, Any] = MappingProxyType({})
    """Per value, the profile keys that value changes (a partial profile, merged into the YAML; ``null`` deletes
    a key). The engine plays with :meth:`RuleProfile.with_options`, so an option needs no code of its own."""

    def coerce(self, raw: str) -> str | int:
        """Check and convert a value written in a record; raises ``ValueError`` naming the allowed values."""
        if self.type == "int":
            try:
                return int(raw)
            except ValueError:
                raise ValueError(f"option {self.name} takes a whole number, not {raw!r}") from None
        if raw not in self.values:
            allowed = ", ".join(self.values)
            raise ValueError(f"option {self.name} is one of {allowed}, not {raw!r}")
        return raw


class RuleProfile(_Value):
    """A validated rule profile."""

    name: str
    title: str
    description: str
    source: str
    players: int
    seats: tuple[str, ...]
    packs: int
    ranks: tuple[Rank, ...]
    hand_size: int
    deal_packets: tuple[int, ...]
    turnup: bool
    first_leader: str
    draw_order: str
    phase1_play: str
    phase2_play: str
    table_cards_playable: bool
    declare_after: str
    declare_phases: tuple[int, ...]
    melds: tuple[MeldSpec, ...]
    seven_turnup: int
    seven_exchange: int
    seven_played: int
    seven_played_phases: tuple[int, ...]
    seven_played_must_win: bool
    last_trick_points: int
    brisque_ranks: tuple[Rank, ...]
    brisque_points: int
    options: Mapping[str, OptionSpec] = MappingProxyType({})
    path: str = ""
    declare_until: str = "draw"
    """How long the winner of a trick may declare or exchange: until he ``draw``s, or until he leads (``lead``)."""
    declare_after_tricks: int = 0
    """A seat may declare only once it has won this many tricks in the hand (0: at once)."""
    declare_wait_kinds: tuple[str, ...] = ()
    """The meld kinds that wait for ``declare_after_tricks`` (empty: every kind)."""
    reuse: str = "strict_text"
    """The re-use mode of declared cards when no ``reuse`` option is given (:func:`replayer.melds.reuse_problem`)."""
    no_reuse: tuple[tuple[str, str], ...] = ()
    """(kind, earlier kind): a card scored in the earlier kind may not be used in the kind."""
    seven_exchange_when: str = "won_trick"
    """``won_trick``: only the trick's winner exchanges, in his declaring window; ``any_time``: the holder, between
    any two tricks while the turn-up lies."""
    seven_second: int = 0
    """Points for showing the other trump seven once the turn-up is a seven (it cannot be exchanged any more)."""
    seven_second_each: bool = False
    """With more than two packs: each other trump seven is shown and scored (001:L7 read literally, "Той гравець, у
    якого виявиться на руках козирна сімка, записує собі 10 очок"); False: only the first one shown scores."""
    card_points: tuple[tuple[Rank, int], ...] = ()
    """Points of each rank in the tricks a seat wins (A 11, 10 10, K 4, Q 3, J 2 where a profile counts them)."""
    card_points_when: str = "trick"
    """``trick``: scored as each trick is won; ``end``: added at the end of the hand."""
    card_points_trump_seven: int = 0
    """Card points of a trump seven in a won trick (ranks not in ``card_points`` count 0)."""
    seven_rank: Rank = Rank.SEVEN
    """The rank of the trump card exchanged for the turn-up (``seven.rank``; the sixty-six of seed 003 swaps the trump
    ten, RULES.md §2.k rule 6)."""
    deal_order: str = "non_dealer_first"
    """Who is served first in the deal (``dealer_first`` in seed 003, RULES.md §2.k rule 3); only the random player
    uses it, since a record states the dealt hands."""
    declare_lead_from: bool = False
    """A declarer must lead one of the declared cards to the next trick (RULES.md §2.k rule 8)."""
    hand_target: int = 0
    """A seat whose score reaches this many points ends the hand at once (66 in sixty-six; 0: hands are played out)."""
    game_points: tuple[tuple[int, int], ...] = ()
    """(lowest loser's score, game points): what the winner of a hand scores toward the game, first row that fits.
    Empty: the game adds up the hands' points themselves."""
    played_out: str = "no_game_points"
    """With ``hand_target``: a hand played out without either seat reaching it scores ``no_game_points``, or the
    winner of the last trick scores as if he had reached it (``last_trick_wins``)."""
    penalties: tuple[tuple[str, int | str], ...] = ()
    """(kind, points) of the penalties a source lists, deducted from the offender's score when a record states one;
    ``all`` takes every point the offender has in the game, ``unscored`` the combinations he has shown but not yet
    scored (RULES.md §3.6)."""
    extra_cards: tuple[tuple[Card, int], ...] = ()
    """Cards added to the packs, with their numbers (004-C: three nines of each suit and two wild cards)."""
    repeat_rule: str = "none"
    """How a kind declared again in a hand scores where its meld has no ``repeats``: ``none`` (the same), or
    ``multiply`` (the n-th time n times, "дважды ... вдвойне, трижды — втройне", 004:L149)."""
    next_dealer: str = "alternate"
    """Who deals the next hand of a game: ``alternate``, the ``winner`` or the ``loser`` of the hand before (a hand
    without a winner alternates)."""
    sides: tuple[tuple[str, ...], ...] = ()
    """Partnerships: the seats of each side, whose score is kept jointly (empty: everyone plays for himself)."""
    last_trick_at: str = "final"
    """Which trick earns ``last_trick_points``: the ``final`` trick of the hand, or the trick after which the stock is
    empty (``stock_end``: trick 24 of the worked deal, 000:L207)."""
    tie_rule: str = "higher_total"
    """Who wins a game that two or more pass the target in one hand: the ``higher_total``, or the winner of the
    hand's ``last_trick`` (the trick ``last_trick_at`` names)."""
    declare_per_trick: str = "one"
    """Declarations scored after one won trick: ``one``, or any number that share no card (``disjoint``)."""
    last_trick_to: str = "winner"
    """``winner``: the last-trick bonus goes to the trick's winner (his side); ``halves``: it is shared out evenly
    between the sides (a reading of "делится между всеми партнерами пополам", RULES.md §2.g.2 rule 5)."""
    declare_by: str = "winner"
    """``winner``: only the trick's winner declares; ``winner_or_partner``: he declares or lets his partner
    declare instead (``N passes to S``)."""
    declare_joint: bool = False
    """A declaration may be formed from the declarer's and his partner's cards together."""
    trump_fixing: tuple[tuple[str, int], ...] = ()
    """Without a turn-up: the meld kinds that fix trumps when declared while there are none, with the points they
    then score (RULES.md §2.e rule 4: the first marriage 40, a sequence 250; §2.j rule 3)."""
    game_scoring: GameScoring | None = None
    """One hand is one game, scored as Rubicon (RULES.md §2.e rule 15); None: the game is played to a target."""
    brisques_when: str = "always"
    """``always``; ``tie_or_rubicon``: only to break a tie or to escape the rubicon (RULES.md §2.e rule 13)."""
    cut_bonus: tuple[int, int, int] = (0, 0, 0)
    """(guess, lift, lift count): the six-pack deal bonuses (RULES.md §2.h rule 3); zeros when the profile has none."""
    sit_out: str = "none"
    """``dealer``: with four at the table the dealer deals to the other three and sits the hand out ("При игре
    вчетвером, раздающий не принимает участия в розыгрыше", 004:L117); ``none``: every seat plays."""
    seven_gained: str = "same_trick"
    """When the card the exchange gains (the turn-up) may go into a declaration: ``same_trick``, or only after a later
    won trick (``later``: "the card exchanged not being used in such declaration", [EW] iii, RULES.md §2.a rule
    15b)."""
    seven_exchange_players: tuple[int, ...] = ()
    """The numbers of playing seats for which the exchange exists (empty: every number; 004:L115 names it for
    three)."""
    option_defaults: tuple[tuple[str, str | int], ...] = ()
    """Other options' defaults as this profile plays (an option that sets ``players: 3`` also makes the target 1500,
    001:L46): used for the options a record does not give."""
    claim: str = "none"
    """When a player may claim the game (``N claims game``): ``none`` (no rule: a claim is an error), ``stock_out``
    (not while the stock lies on the table, 002:L16), ``hand_end`` (only after the last trick, 004:L63, L333)."""
    false_claim: str = "none"
    """The effect of a false claim: ``loses_game`` (the claimant "теряет право на этот приз", 002:L16: he cannot win
    this game), or ``none`` (no effect is stated)."""
    forfeit: bool = False
    """Points won by an illegal play are forfeited and earlier tricks stand (002:L13): ``N forfeits = P``."""
    redeal: bool = False
    """A misdeal is dealt again (002:L18): a deal that says ``redeal`` scores nothing, and its dealer deals again."""
    raw: Any = None
    """The YAML data the profile was built from (options that change the profile are merged into it)."""

    _uncompared = ("raw",)

    @cached_property
    def deck_size(self) -> int:
        """Cards in play: packs × ranks × 4 suits, and the extra cards."""
        return self.packs * len(self.ranks) * 4 + sum(n for _, n in self.extra_cards)

    def copies(self, card: Card) -> int:
        """How many of ``card`` the deck holds (0: not in this profile's deck)."""
        copies = self._copies.get(card)
        if copies is None:
            extra = sum(n for c, n in self.extra_cards if c == card)
            copies = self._copies[card] = (self.packs if card.rank in self.ranks and not card.is_wild else 0) + extra
        return copies

    # Answers worked out once per profile (the replay asks after every card drawn, every score line, every
    # declaration); a profile is immutable, so they never go stale.

    @cached_property
    def _copies(self) -> dict[Card, int]:
        return {}

    @cached_property
    def _scorer_keys(self) -> dict[str, str | None]:
        return {}

    def pack(self) -> list[Card]:
        """Every card of the deck: the packs, then the extra cards."""
        return make_pack(self.packs, self.ranks) + [c for c, n in self.extra_cards for _ in range(n)]

    @cached_property
    def playing(self) -> int:
        """The seats dealt a hand and playing it: every seat, or all but the dealer (``sit_out``)."""
        return self.players - 1 if self.sit_out == "dealer" else self.players

    @cached_property
    def stock_size(self) -> int:
        """Cards left after the deal, turn-up included."""
        return self.deck_size - self.playing * self.hand_size

    @cached_property
    def phase1_tricks(self) -> int:
        """Tricks played while the stock lasts (each takes one card per player from it)."""
        return self.stock_size // self.playing

    @cached_property
    def total_tricks(self) -> int:
        """Tricks in a hand."""
        return self.deck_size // self.playing

    def scorer(self, seat: str) -> str:
        """Who a seat's points go to: the seat itself, or its side written ``N+S`` (the sides' seat order)."""
        return self.scorer_of.get(seat, seat)

    @cached_property
    def scorer_of(self) -> dict[str, str]:
        """:meth:`scorer` of every seat, worked out once: the replay asks for the scores after every trick."""
        scorer_of: dict[str, str] = {}
        for side in self.sides:
            for seat in side:
                scorer_of.setdefault(seat, "+".join(side))
        for seat in self.seats:
            scorer_of.setdefault(seat, seat)
        return scorer_of

    @cached_property
    def scorers(self) -> tuple[str, ...]:
        """Everyone who keeps a score, in seat order: the seats, or the sides of a partnership game."""
        return tuple(dict.fromkeys(self.scorer(s) for s in self.seats))

    def partner(self, seat: str) -> str | None:
        """The seat's partner (the other seat of a two-seat side), or None."""
        for side in self.sides:
            if seat in side and len(side) == 2:
                return side[1 - side.index(seat)]
        return None

    def resolve_scorer(self, written: str) -> str | None:
        """The score key a record names (``N+S``, ``S+N``, or one seat standing for its side); None if unknown."""
        keys = self._scorer_keys
        if written not in keys:
            keys[written] = self._resolve_scorer(written)
        return keys[written]

    def _resolve_scorer(self, written: str) -> str | None:
        seats = written.split("+")
        if any(s not in self.seats for s in seats):
            return None
        keys = {self.scorer(s) for s in seats}
        if len(keys) != 1:
            return None
        key = keys.pop()
        if len(seats) > 1 and sorted(seats) != sorted(key.split("+")):
            return None
        return key

    def meld(self, kind: str) -> MeldSpec | None:
        """The meld spec of a kind, or None."""
        for spec in self.melds:
            if spec.kind == kind:
                return spec
        return None

    def card_value(self, card: Card, trump: Suit | None) -> int:
        """The card points of ``card`` in a won trick under this profile (0 where it counts none)."""
        if self.card_points_trump_seven and trump is not None and card.suit == trump and card.rank == Rank.SEVEN:
            return self.card_points_trump_seven
        return dict(self.card_points).get(card.rank, 0)

    def with_options(self, options: Mapping[str, str | int]) -> RuleProfile:
        """The profile as a deal plays it: each option value's ``sets`` merged in (self when none applies)."""
        changes = [
            (name, str(options[name]))
            for name, spec in self.options.items()
            if name in options and str(options[name]) in spec.sets
        ]
        if not changes:
            return self
        key = (self.path, self.name, tuple(changes))
        effective = _EFFECTIVE.get(key)
        if effective is None:
            data = self.raw
            for name, value in changes:
                data = _merge(data, self.options[name].sets[value])
            effective = _build(data, self.path, check_sets=False)
            _EFFECTIVE[key] = effective
        return effective

    def default_options(self) -> dict[str, str | int]:
        """Every option at its default value."""
        return {name: spec.default for name, spec in self.options.items()}

    def resolve_options(self, given: Mapping[str, str]) -> dict[str, str | int]:
        """Defaults overridden by a record's options; raises :class:`~replayer.errors.OptionError` (a ``ValueError``)
        naming the option at fault for an unknown name or value, and for values that together describe no playable
        deal (the stock of ten packs does not divide between three: the last option given is named).

        An option the record leaves out takes the default of the profile as the other options make it play
        (``option_defaults``: three players of no-trump play to 1500)."""
        values = self.default_options()
        for name, raw in given.items():
            spec = self.options.get(name)
            if spec is None:
                known = ", ".join(sorted(self.options)) or "none"
                raise OptionError(f"profile {self.name} has no option {name!r} (options: {known})", name)
            try:
                values[name] = spec.coerce(raw)
            except ValueError as exc:
                raise OptionError(str(exc), name) from None
        try:
            for _ in range(2):  # (a default taken from the options may itself be an option that sets keys)
                effective = self.with_options(values)
                for name, default in effective.option_defaults:
                    if name not in given:
                        values[name] = self.options[name].coerce(str(default))
            self.with_options(values)
        except RuleProfileError as exc:
            chosen = ", ".join(f"{n}={given[n]}" for n in given)
            reason = str(exc).split(": ", 1)[-1].split(" (with option")[0]
            raise OptionError(
                f"options {chosen} of profile {self.name} describe no playable deal: {reason}",
                list(given)[-1] if given else None,
            ) from None
        return values


REUSE_MODES = ("text_with_remarriage", "strict_text", "new_card_refill", "higher_other_kind", "refill", "refill_swap")
"""Re-use modes of declared cards (:func:`replayer.melds.reuse_problem` says what each allows)."""
_EFFECTIVE: dict[tuple[str, str, tuple[tuple[str, str], ...]], RuleProfile] = {}

# What an option's ``sets`` may not change: the profile's identity and its options. The seats, sides and packs may
# change (three or four players of no-trump, ten packs of 004-C): every reader of the seats reads the profile as the
# game plays it (``Rules.profile``), never the profile as the record names it.
_FIXED_KEYS = frozenset({"name", "title", "description", "source", "ranks", "hand_size", "options"})


def _merge(base: Any, change: Any) -> Any:
    """``change`` merged into ``base``: mappings key by key, ``None`` deletes a key, ``KEY+: [...]`` appends to the
    list ``KEY`` (a meld added to a table without restating it), anything else replaces."""
    if not isinstance(base, dict) or not isinstance(change, dict):
        return change
    merged = dict(base)
    for key, value in change.items():
        if isinstance(key, str) and key.endswith("+") and isinstance(value, list):
            merged[key[:-1]] = [*(merged.get(key[:-1]) or []), *value]
        elif value is None:
            merged.pop(key, None)
        else:
            merged[key] = _merge(base.get(key), value)
    return merged


def merge_profile_data(base: Any, change: Any) -> Any:
    """``change`` merged into ``base`` as an option's ``sets`` or a profile that ``extends`` another is (see
    :func:`_merge`)."""
    return _merge(base, change)


class _Reader:
    """Typed access to a YAML mapping that names the file and key in every error."""

    def __init__(self, data: Any, where: str, prefix: str = "") -> None:
        if not isinstance(data, dict):
            raise RuleProfileError(f"{where}: {prefix or 'the profile'} must be a mapping")
        self.data = data
        self.where = where
        self.prefix = prefix
        self.used: set[str] = set()

    def _key(self, key: str) -> str:
        return f"{self.prefix}.{key}" if self.prefix else key

    def fail(self, key: str, message: str) -> RuleProfileError:
        return RuleProfileError(f"{self.where}: key {self._key(key)!r}: {message}")

    def get(self, key: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        self.used.add(key)
        if key not in self.data:
            if default is ...:
                raise RuleProfileError(f"{self.where}: missing key {self._key(key)!r}")
            return default
        value = self.data[key]
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            names = kind.__name__ if isinstance(kind, type) else " or ".join(k.__name__ for k in kind)
            raise self.fail(key, f"expected {names}, got {type(value).__name__}")
        return value

    def sub(self, key: str, default: Any = ...) -> _Reader:
        return _Reader(self.get(key, dict, default), self.where, self._key(key))

    def finish(self) -> None:
        extra = sorted(set(self.data) - self.used)
        if extra:
            raise self.fail(extra[0], "unknown key")


def _ranks(reader: _Reader, key: str, values: list[Any]) -> tuple[Rank, ...]:
    try:
        return tuple(parse_rank(str(v)) for v in values)
    except CardParseError as exc:
        raise reader.fail(key, str(exc)) from None


def _ints(reader: _Reader, key: str) -> list[int]:
    values = reader.get(key, list, [])
    if not all(type(v) is int for v in values):
        raise reader.fail(key, "expected a list of whole numbers")
    return values


def _extra_cards(reader: _Reader) -> tuple[tuple[Card, int], ...]:
    """``extra_cards``: ``[{card: "*", count: 2}, {rank: "9", per_suit: 3}]`` (cards added to the packs)."""
    result: list[tuple[Card, int]] = []
    for i, raw in enumerate(reader.get("extra_cards", list, [])):
        e = _Reader(raw, reader.where, f"extra_cards[{i}]")
        if "card" in e.data:
            try:
                result.append((Card.parse(str(e.get("card", str))), e.get("count", int)))
            except CardParseError as exc:
                raise e.fail("card", str(exc)) from None
        else:
            rank = _ranks(e, "rank", [e.get("rank", (str, int))])[0]
            result.extend((Card(suit, rank), e.get("per_suit", int)) for suit in Suit)
        e.finish()
    return tuple(result)


PENALTY_AMOUNTS = ("all", "unscored")
"""Penalties that are not a fixed number of points (see :attr:`RuleProfile.penalties`)."""


def _penalties(reader: _Reader) -> tuple[tuple[str, int | str], ...]:
    """The ``penalties`` table: ``{kind: points}``, points a whole number >= 0 or one of :data:`PENALTY_AMOUNTS`."""
    table = reader.sub("penalties", {})
    rows: list[tuple[str, int | str]] = []
    for kind in list(table.data):
        value = table.get(str(kind), (int, str))
        if not isinstance(kind, str) or not kind.replace("_", "").isalpha() or not kind.islower():
            raise table.fail(str(kind), "a penalty's name is lower-case words joined by '_'")
        if (isinstance(value, int) and value < 0) or (isinstance(value, str) and value not in PENALTY_AMOUNTS):
            raise table.fail(kind, f"expected points (0 or more) or one of {', '.join(PENALTY_AMOUNTS)}")
        rows.append((kind, value))
    table.finish()
    return tuple(rows)


def _game_points(reader: _Reader) -> tuple[tuple[int, int], ...]:
    """The ``game_points`` table: ``[[lowest loser's score, points], ...]``, highest threshold first, ending at 0."""
    rows = []
    for i, row in enumerate(reader.get("game_points", list, [])):
        if not (isinstance(row, list) and len(row) == 2 and all(type(x) is int for x in row)):
            raise reader.fail(f"game_points[{i}]", "expected [lowest loser's score, game points]")
        rows.append((row[0], row[1]))
    if rows and ([r[0] for r in rows] != sorted((r[0] for r in rows), reverse=True) or rows[-1][0] != 0):
        raise reader.fail("game_points", "thresholds go from the highest down to 0")
    return tuple(rows)


def _sides(r: _Reader) -> tuple[tuple[str, ...], ...]:
    sides = r.get("sides", list, [])
    if not all(isinstance(side, list) and side and all(isinstance(s, str) for s in side) for side in sides):
        raise r.fail("sides", "expected a list of sides, each a list of seats")
    return tuple(tuple(side) for side in sides)


def build_profile(data: Any, where: str) -> RuleProfile:
    """The profile a mapping describes (what ``yaml.safe_load`` makes of a profile file), checked key by key;
    ``where`` names the file in errors. Raises :class:`~replayer.errors.RuleProfileError`."""
    return _build(data, where)


def _build(data: Any, where: str, check_sets: bool = True) -> RuleProfile:
    r = _Reader(data, where)
    melds = []
    for i, raw in enumerate(r.get("melds", list)):
        m = _Reader(raw, where, f"melds[{i}]")
        p = m.sub("pattern")
        spec_args: dict[str, Any] = {
            "kind": m.get("kind", str),
            "klass": m.get("class", str),
            "points": m.get("points", int),
            "marriage": m.get("marriage", bool, False),
            "repeats": tuple(_ints(m, "repeats")),
            "extends": m.get("extends", str, None),
            "counts_as": m.get("counts_as", str, None),
        }
        if "hand" in p.data:
            spec_args["hand"] = p.get("hand", str)
            if spec_args["hand"] not in ("no_court", "no_court_side"):
                raise p.fail("hand", "expected no_court or no_court_side")
        elif "trump" in p.data or "partner" in p.data:
            spec_args["trump_ranks"] = _ranks(p, "trump", p.get("trump", list, []))
            spec_args["partner_ranks"] = _ranks(p, "partner", p.get("partner", list, []))
        elif "cards" in p.data:
            try:
                spec_args["cards"] = tuple(Card.parse(str(c)) for c in p.get("cards", list))
                when = p.get("when_trump", dict, {})
                spec_args["when_trump"] = tuple(
                    (parse_suit(str(suit)), tuple(Card.parse(str(c)) for c in cards)) for suit, cards in when.items()
                )
            except (CardParseError, ValueError) as exc:
                raise p.fail("cards", str(exc)) from None
        elif "rank" in p.data:
            spec_args["rank"] = _ranks(p, "rank", [p.get("rank", (str, int))])[0]
            spec_args["count"] = p.get("count", int)
            spec_args["distinct"] = p.get("distinct", bool, False)
            if spec_args["distinct"] and spec_args["count"] > len(Suit):
                raise p.fail("count", "cards of different suits: at most four")
        else:
            spec_args["suit"] = p.get("suit", str)
            if spec_args["suit"] not in ("trump", "plain", "any"):
                raise p.fail("suit", "expected trump, plain or any")
            spec_args["ranks"] = _ranks(p, "ranks", p.get("ranks", list))
        p.finish()
        m.finish()
        melds.append(MeldSpec(**spec_args))
    kinds = [s.kind for s in melds]
    if len(set(kinds)) != len(kinds):
        raise r.fail("melds", "two melds share a kind")
    for spec in melds:
        if spec.extends is not None and spec.extends not in kinds:
            raise r.fail("melds", f"{spec.kind} extends {spec.extends!r}, which is not a meld of this profile")
        if spec.counts_as is not None and spec.counts_as not in kinds:
            raise r.fail("melds", f"{spec.kind} counts as {spec.counts_as!r}, which is not a meld of this profile")
    # ``meld_points`` overrides the table's values: an option may change a meld's points without restating melds.
    overrides = r.sub("meld_points", {})
    for kind in list(overrides.data):
        value = overrides.get(kind, int)
        if kind not in kinds:
            raise overrides.fail(kind, "no such meld in this profile")
        melds = [m.replace(points=value) if m.kind == kind else m for m in melds]
    overrides.finish()

    options: dict[str, OptionSpec] = {}
    opts = r.sub("options", {})
    for name in list(opts.data):
        o = opts.sub(name)
        default = o.get("default", (str, int))
        typ = o.get("type", str, "choice")
        values = tuple(str(v) for v in o.get("values", list, []))
        if typ == "choice" and str(default) not in values:
            raise o.fail("default", f"{default!r} is not among the values")
        sets = {str(k): v for k, v in o.get("sets", dict, {}).items()}
        for value, change in sets.items():
            if value not in values:
                raise o.fail("sets", f"{value!r} is not among the values")
            if not isinstance(change, dict):
                raise o.fail("sets", f"the change for {value!r} must be a mapping of profile keys")
            fixed = sorted(set(change) & _FIXED_KEYS)
            if fixed:
                raise o.fail("sets", f"an option may not change {fixed[0]!r}")
        options[name] = OptionSpec(
            name=name,
            default=default if typ == "int" else str(default),
            values=values,
            type=typ,
            doc=o.get("doc", str, ""),
            sets=sets,
        )
        o.finish()
    opts.finish()

    declare = r.sub("declare")
    seven = r.sub("seven", {})
    conduct = r.sub("conduct", {})
    defaults = r.sub("option_defaults", {})
    option_defaults = []
    for option_name in list(defaults.data):
        value = defaults.get(str(option_name), (str, int))
        option = options.get(str(option_name))
        if option is None:
            raise defaults.fail(str(option_name), "no such option in this profile")
        try:
            option.coerce(str(value))
        except ValueError as exc:
            raise defaults.fail(str(option_name), str(exc)) from None
        option_defaults.append((str(option_name), value))
    defaults.finish()
    brisque = r.sub("brisque", {})
    trumps = r.sub("trumps", {})
    fixing = trumps.sub("fixed_by", {})
    trump_fixing = tuple((kind, fixing.get(kind, int)) for kind in list(fixing.data))
    game_reader = r.sub("game_scoring", {})
    game_scoring = None
    if game_reader.data:
        game_scoring = GameScoring(
            rubicon=game_reader.get("rubicon", int),
            game_bonus=game_reader.get("game_bonus", int),
            rubicon_bonus=game_reader.get("rubicon_bonus", int),
            difference=game_reader.get("difference", bool, True),
            low_score=game_reader.get("low_score", int, 0),
            low_bonus=game_reader.get("low_bonus", int, 0),
        )
    cut = r.sub("cut_bonus", {})
    cut_bonus = (cut.get("guess", int, 0), cut.get("lift", int, 0), cut.get("lift_count", int, 0))
    card_points = r.sub("card_points", {})
    point_reader = card_points.sub("values", {})
    point_list = []
    for raw_rank, points in point_reader.data.items():
        point_reader.used.add(raw_rank)
        if not isinstance(points, int) or isinstance(points, bool):
            raise point_reader.fail(str(raw_rank), f"expected int, got {type(points).__name__}")
        point_list.append((_ranks(point_reader, str(raw_rank), [raw_rank])[0], points))
    point_table = tuple(point_list)
    no_reuse = []
    for i, pair in enumerate(declare.get("no_reuse", list, [])):
        if not (isinstance(pair, list) and len(pair) == 2 and all(isinstance(k, str) for k in pair)):
            raise declare.fail(f"no_reuse[{i}]", "expected [kind, earlier kind]")
        no_reuse.append((pair[0], pair[1]))
    seats = tuple(str(s) for s in r.get("seats", list))
    profile = RuleProfile(
        name=r.get("name", str),
        title=r.get("title", str),
        description=r.get("description", str),
        source=r.get("source", str),
        players=r.get("players", int),
        seats=seats,
        packs=r.get("packs", int),
        ranks=_ranks(r, "ranks", r.get("ranks", list)),
        hand_size=r.get("hand_size", int),
        deal_packets=tuple(r.get("deal_packets", list, [])),
        turnup=r.get("turnup", bool),
        first_leader=r.get("first_leader", str),
        draw_order=r.get("draw_order", str),
        phase1_play=r.get("phase1_play", str),
        phase2_play=r.get("phase2_play", str),
        table_cards_playable=r.get("table_cards_playable", bool, True),
        declare_after=declare.get("after", str),
        declare_phases=tuple(declare.get("phases", list)),
        melds=tuple(melds),
        seven_turnup=seven.get("turnup", int, 0),
        seven_exchange=seven.get("exchange", int, 0),
        seven_played=seven.get("played", int, 0),
        seven_played_phases=tuple(seven.get("played_phases", list, [1])),
        seven_played_must_win=seven.get("played_must_win", bool, False),
        last_trick_points=r.get("last_trick_points", int, 0),
        brisque_ranks=_ranks(brisque, "ranks", brisque.get("ranks", list, [])),
        brisque_points=brisque.get("points", int, 0),
        options=options,
        path=where,
        declare_until=declare.get("until", str, "draw"),
        declare_after_tricks=declare.get("after_tricks", int, 0),
        declare_wait_kinds=tuple(declare.get("wait_kinds", list, [])),
        reuse=declare.get("reuse", str, "strict_text"),
        no_reuse=tuple(no_reuse),
        seven_exchange_when=seven.get("exchange_when", str, "won_trick"),
        seven_second=seven.get("second", int, 0),
        seven_second_each=seven.get("second_each", bool, False),
        card_points=point_table,
        card_points_when=card_points.get("when", str, "trick"),
        card_points_trump_seven=card_points.get("trump_seven", int, 0),
        seven_rank=_ranks(seven, "rank", [seven.get("rank", (str, int), "7")])[0],
        deal_order=r.get("deal_order", str, "non_dealer_first"),
        declare_lead_from=declare.get("lead_from", bool, False),
        hand_target=r.get("hand_target", int, 0),
        game_points=_game_points(r),
        played_out=r.get("played_out", str, "no_game_points"),
        next_dealer=r.get("next_dealer", str, "alternate"),
        extra_cards=_extra_cards(r),
        penalties=_penalties(r),
        repeat_rule=r.get("repeat_rule", str, "none"),
        sides=_sides(r),
        last_trick_at=r.get("last_trick_at", str, "final"),
        tie_rule=r.get("tie_rule", str, "higher_total"),
        declare_per_trick=declare.get("per_trick", str, "one"),
        last_trick_to=r.get("last_trick_to", str, "winner"),
        declare_by=declare.get("by", str, "winner"),
        declare_joint=declare.get("joint", bool, False),
        trump_fixing=trump_fixing,
        game_scoring=game_scoring,
        brisques_when=brisque.get("when", str, "always"),
        cut_bonus=cut_bonus,
        sit_out=r.get("sit_out", str, "none"),
        seven_gained=seven.get("gained", str, "same_trick"),
        seven_exchange_players=tuple(_ints(seven, "exchange_players")),
        option_defaults=tuple(option_defaults),
        claim=conduct.get("claim", str, "none"),
        false_claim=conduct.get("false_claim", str, "none"),
        forfeit=conduct.get("forfeit", bool, False),
        redeal=conduct.get("redeal", bool, False),
        raw=data,
    )
    for reader in (declare, seven, brisque, point_reader, card_points, fixing, trumps, game_reader, cut, conduct):
        reader.finish()
    r.finish()
    if len(seats) != profile.players:
        raise r.fail("seats", f"{len(seats)} seats for {profile.players} players")
    # Values that parse but describe no playable deal: caught here, not as a crash in the engine or the generator.
    for count_key, count, least in (
        ("players", profile.players, 2),
        ("packs", profile.packs, 1),
        ("hand_size", profile.hand_size, 1),
    ):
        if count < least:
            raise r.fail(count_key, f"must be at least {least}, not {count}")
    if profile.playing * profile.hand_size > profile.deck_size:
        raise r.fail(
            "hand_size",
            f"{profile.playing} hands of {profile.hand_size} need more than the {profile.deck_size} cards of the packs",
        )
    if profile.sit_out == "dealer" and profile.players < 3:
        raise r.fail("sit_out", "the dealer sits out only with three or more seats")
    bad_phases = [p for p in profile.declare_phases if p not in (1, 2)]
    if bad_phases:
        raise declare.fail("phases", f"phases are 1 (while the stock lasts) and 2, not {bad_phases[0]!r}")
    sided = [s for side in profile.sides for s in side]
    if profile.sides and sorted(sided) != sorted(seats):
        raise r.fail("sides", "every seat belongs to exactly one side")
    if (profile.declare_by != "winner" or profile.declare_joint) and not profile.sides:
        raise declare.fail("by" if profile.declare_by != "winner" else "joint", "needs partnerships (key 'sides')")
    choices = {
        "first_leader": ("non_dealer", "dealer_left", "dealer_right"),
        "last_trick_to": ("winner", "halves"),
        "last_trick_at": ("final", "stock_end"),
        "tie_rule": ("higher_total", "last_trick"),
        "draw_order": ("winner_first", "leader_first"),
        "phase1_play": ("free", "follow_suit"),
        "phase2_play": ("follow_win_trump", "follow_win_overtrump", "follow_trump", "follow", "free"),
        "deal_order": ("non_dealer_first", "dealer_first"),
        "played_out": ("no_game_points", "last_trick_wins"),
        "next_dealer": ("alternate", "winner", "loser"),
        "repeat_rule": ("none", "multiply"),
        "sit_out": ("none", "dealer"),
    }
    for key, allowed in choices.items():
        if getattr(profile, key) not in allowed:
            raise r.fail(key, f"expected one of {', '.join(allowed)}")
    sub_choices = {
        (declare, "until", profile.declare_until): ("draw", "lead"),
        (declare, "reuse", profile.reuse): REUSE_MODES,
        (seven, "exchange_when", profile.seven_exchange_when): ("won_trick", "any_time"),
        (card_points, "when", profile.card_points_when): ("trick", "end"),
        (declare, "by", profile.declare_by): ("winner", "winner_or_partner"),
        (declare, "per_trick", profile.declare_per_trick): ("one", "disjoint"),
        (brisque, "when", profile.brisques_when): ("always", "tie_or_rubicon"),
        (seven, "gained", profile.seven_gained): ("same_trick", "later"),
        (conduct, "claim", profile.claim): ("none", "stock_out", "hand_end"),
        (conduct, "false_claim", profile.false_claim): ("none", "loses_game"),
    }
    for (reader, key, value), allowed in sub_choices.items():
        if value not in allowed:
            raise reader.fail(key, f"expected one of {', '.join(allowed)}")
    meld_kinds = {m.kind for m in profile.melds}
    for key, named in (("wait_kinds", profile.declare_wait_kinds), ("no_reuse", sum(profile.no_reuse, ()))):
        unknown = sorted(set(named) - meld_kinds)
        if unknown:
            raise declare.fail(key, f"no meld {unknown[0]!r} in this profile")
    for kind, _ in profile.trump_fixing:
        if kind not in meld_kinds:
            raise fixing.fail(kind, "no such meld in this profile")
    if profile.trump_fixing and profile.turnup:
        raise trumps.fail("fixed_by", "a profile with a turn-up takes trumps from it")
    if profile.brisques_when == "tie_or_rubicon" and profile.game_scoring is None:
        raise brisque.fail("when", "tie_or_rubicon needs game_scoring (its rubicon)")
    reuse_option = profile.options.get("reuse")
    if reuse_option is not None and not set(reuse_option.values) <= set(REUSE_MODES):
        raise r.fail("options.reuse", f"values are among {', '.join(REUSE_MODES)}")
    if check_sets:
        for option in profile.options.values():
            for value, change in option.sets.items():
                try:
                    _build(_merge(data, change), where, check_sets=False)
                except RuleProfileError as exc:
                    raise RuleProfileError(f"{exc} (with option {option.name}={value})") from None
    if profile.stock_size % profile.playing:
        raise r.fail(
            "hand_size",
            f"the stock of {profile.stock_size} cards does not divide evenly between the {profile.playing} players",
        )
    return profile
