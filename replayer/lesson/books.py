"""Each seat's bookkeeping before a trick, in Python: the cards it has not seen, the cards it knows another holds,
and which combinations are still possible for whom.

Whatever a rule decides for the books is decided here, and given to the page's script as data
(``static/lesson.js`` lays out, and neither counts nor decides a rule): the combinations a deal has (the core's own
enumeration, :func:`targets_of`), what a trick shows everybody besides its plays (:func:`shown_by`), which rows of
the table of combinations a declaration scores (:func:`scores_row`), how many cards each seat still draws
(:func:`draws_left`), and the books themselves, which the builder writes into each step's data for the script to
show. The cards are counted as lists of small ints, indices into the lesson's pack
(:class:`Pack`): a book asks about every combination, for every seat, at every step.
"""

from __future__ import annotations

import functools
import operator
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any, NamedTuple

from ..cards import CARDS, SUITS, Card, Rank, Suit, suit_of
from ..explain import Scoring
from ..profile import MeldSpec, RuleProfile
from ..replay import Snapshot, TrickResult
from ..rules.compiled import compile_rules
from ..rules.melds import meld_targets, trumps_to_try
from .views import Board, Book, CardView, TargetView, card_view
from .words import Words, interface

__all__ = [
    "BookKeeper",
    "Kit",
    "Knowledge",
    "Pack",
    "Target",
    "draws_left",
    "kit",
    "scores_row",
    "shown_by",
    "targets_of",
]


@dataclass(frozen=True)
class Target:
    """One combination as concrete cards: a pattern of the profile resolved for this deal's trumps (and a suit).

    Cards are indices into the lesson's pack (see :class:`Pack`): a book asks about every combination, for every
    seat, at every step.
    """

    spec: MeldSpec
    suit: Suit | None
    """The suit of a plain or any-suit pattern (shown in its name); None otherwise."""
    needed: tuple[tuple[int, int], ...]
    """The exact cards and how many of each, in page order, for fixed and same-suit patterns."""
    pictures: tuple[int, ...]
    """The cards that picture the combination in a book."""
    of_rank: tuple[int, ...] = ()
    """An n-of-a-kind pattern: its rank in every suit, of which it needs ``count`` cards."""
    count: int = 0
    rank: Rank | None = None
    mask: int = 0
    """Its cards' bytes in a packed count (:meth:`Pack.mask`): a packed count ``&`` it is the key of the
    combination's state."""
    shape_id: int = 0
    """Its :attr:`shape` numbered in its pack (:meth:`Pack.shape_id`): a key that hashes as an int."""

    @functools.cached_property
    def cards(self) -> tuple[int, ...]:
        """Every card whose count matters to the combination."""
        return self.of_rank if self.count else tuple(k for k, _ in self.needed)

    @functools.cached_property
    def size(self) -> int:
        """How many cards the combination has."""
        return self.count or sum(n for _, n in self.needed)

    @functools.cached_property
    def shape(self) -> tuple[object, ...]:
        """What, besides the counts of its cards, its state depends on: the same for a combination of the same cards
        under other trumps."""
        return (self.needed, self.of_rank, self.count)


_INDEX = operator.attrgetter("index")


class Pack:
    """The distinct cards of a lesson's pack, numbered in page order (suit by suit, high ranks first, the wild card
    last), so that the books count cards in lists of small ints rather than in dictionaries keyed by Card."""

    def __init__(self, profile: RuleProfile) -> None:
        pack = Counter(profile.pack())
        self.cards = sorted(pack, key=lambda c: c.sort_key)
        self.index = {card: i for i, card in enumerate(self.cards)}
        self.deck = [pack[c] for c in self.cards]
        """How many copies of each card the deck holds."""
        # A lesson numbers some two thousand cards: by their (suit, rank), which is what makes two cards equal, the
        # dictionary hashes and compares in C rather than through Card's own __hash__ and __eq__; and by the core's
        # index of the card (one int for its suit and rank), which needs no tuple made for each card.
        self._numbers = {(c.suit, c.rank): i for i, c in enumerate(self.cards)}
        self._by_index = {c.index: i for i, c in enumerate(self.cards)}
        size = len(self.cards)
        self.size = size
        # The books count cards as one int, a byte a card (card 0 in the highest byte: its bytes read in page order),
        # so that a count is taken from another, or a combination's cards picked out of it, in one int operation
        # rather than a loop over the pack at every step of every seat.
        self.units = [1 << (8 * (size - 1 - k)) for k in range(size)]
        """Each card's 1 in a packed count."""
        self.high = int.from_bytes(b"\x80" * size, "big")
        """The top bit of every byte: a packed count holds at most 127 of a card (a pack of ten, ten)."""
        self.packed_deck = self.pack_counts(self.deck)
        self._shapes: dict[tuple[object, ...], int] = {}
        self._board: tuple[Board, list[int], list[int]] | None = None

    def number(self, card: Card) -> int:
        """The card's number."""
        return self._by_index[card.index]

    def ids(self, cards: Iterable[Card]) -> list[int]:
        """The cards' numbers."""
        # A lesson numbers its boards' cards, some twenty a trick: looked up in one C loop.
        return list(map(self._by_index.__getitem__, map(_INDEX, cards)))

    def counts(self, *groups: Iterable[Card]) -> list[int]:
        """How many of each card the groups hold together."""
        counts = [0] * len(self.cards)
        numbers = self._numbers
        for group in groups:
            for card in group:
                counts[numbers[card.suit, card.rank]] += 1
        return counts

    def pack_counts(self, counts: Sequence[int]) -> int:
        """A list of counts, one per card, as one packed count."""
        return int.from_bytes(bytes(counts), "big")

    def pack_ids(self, ids: Iterable[int]) -> int:
        """Cards given by number as one packed count."""
        return sum(map(self.units.__getitem__, ids))

    def board_counts(self, board: Board) -> tuple[list[int], list[int]]:
        """A board's cards packed, each seat's (in seat order): those on its table, and those it holds (hand and
        table). Worked out once per board: what the seats know after a trick and their books before the next both
        start from the same board."""
        found = self._board
        if found is None or found[0] is not board:
            found = self._board = (board, *self.seat_counts(board.tables, board.hands))
        return found[1], found[2]

    def seat_counts(
        self, tables: Iterable[Iterable[int]], hands: Iterable[Iterable[int]]
    ) -> tuple[list[int], list[int]]:
        """Each seat's cards (given by number) packed: those on its table, and those it holds (hand and table)."""
        on_table = [self.pack_ids(table) for table in tables]
        return on_table, [table + self.pack_ids(hand) for table, hand in zip(on_table, hands, strict=True)]

    def unpack(self, packed: int) -> bytes:
        """A packed count as one count per card (bytes read as small ints)."""
        return packed.to_bytes(self.size, "big")

    def minus(self, base: int, part: int) -> int:
        """``base - part`` card by card, none below zero, in packed counts."""
        high = self.high
        left = (base | high) - part
        # A byte whose top bit the subtraction took is a card of which ``part`` held more than ``base``: it is 0.
        kept = left & high
        return left & (kept - (kept >> 7))

    def shape_id(self, shape: tuple[object, ...]) -> int:
        """The number of a combination's shape (:attr:`Target.shape`), the same for every combination of that shape."""
        return self._shapes.setdefault(shape, len(self._shapes))

    def mask(self, cards: Iterable[int]) -> int:
        """The bytes of these cards, set: a packed count ``&`` it keeps only their counts."""
        return sum(0xFF * self.units[k] for k in set(cards))

    def target(self, spec: MeldSpec, suit: Suit | None, cards: Iterable[Card]) -> Target:
        """A combination of exactly these cards."""
        need = Counter(self.ids(cards))
        ordered = sorted(need.items())
        shape = self.shape_id((tuple(ordered), (), 0))
        return Target(spec, suit, tuple(ordered), tuple(sorted(need.elements())), mask=self.mask(need), shape_id=shape)

    def of_kind(self, spec: MeldSpec, rank: Rank, count: int) -> Target:
        """A combination of ``count`` cards of ``rank`` in any suits."""
        of_rank = tuple(self.index[Card(s, rank)] for s in Suit if Card(s, rank) in self.index)
        shape = self.shape_id(((), of_rank, count))
        return Target(spec, None, (), of_rank[:count], of_rank, count, rank, self.mask(of_rank), shape)


def targets_of(profile: RuleProfile, trump: Suit | None, pack: Pack) -> list[Target]:
    """Every combination a seat could declare in a deal with these trumps (None: not fixed yet), as the core
    enumerates them (:func:`replayer.rules.melds.meld_targets`): one per suit for plain and any-suit patterns, and
    before trumps are fixed, one per suit for a kind that fixes them."""
    rules = compile_rules(profile, profile.default_options())
    fixed = SUITS.index(trump) if trump is not None else -1
    targets: list[Target] = []
    for spec in profile.melds:
        if spec.rank is not None and spec.count and not spec.distinct:
            targets.append(pack.of_kind(spec, spec.rank, spec.count))
            continue
        # A suit pattern names its suit, except the trump suit's once trumps are fixed (it is the trump marriage).
        named = bool(spec.ranks and spec.suit) and not (spec.suit == "trump" and fixed >= 0)
        seen: set[tuple[int, ...]] = set()
        for suit in trumps_to_try(rules, spec, fixed):
            for cards, _ in meld_targets(rules, spec, suit):
                if cards not in seen:
                    seen.add(cards)
                    targets.append(
                        pack.target(spec, SUITS[suit_of(cards[0])] if named else None, (CARDS[c] for c in cards))
                    )
    return targets


def scores_row(target: Target, cards: Iterable[Card]) -> bool:
    """True when a declaration of ``target``'s kind made of ``cards`` scores that row of the table of combinations: a
    combination named by its suit (a common marriage ♠) counts in that suit only."""
    return target.suit is None or all(c.suit == target.suit for c in cards)


def shown_by(trick: TrickResult) -> list[tuple[str, Card, int]]:
    """What a trick shows everybody about the cards a seat holds, besides the cards played: (seat, card, +1 when
    the seat is now known to hold it, -1 when no longer). The seven's exchange takes the turn-up into the hand and
    lays the seven in its place; whoever draws the stock's last card takes the turn-up, which everybody has seen."""
    before, after = trick.before, trick.after
    changes: list[tuple[str, Card, int]] = []
    for event in trick.scoring:
        if event.kind == "seven_exchange" and before.turnup is not None:
            changes.extend((event.seat, card, -1) for card in event.cards)
            changes.append((event.seat, before.turnup, 1))
    if before.turnup is not None and after.turnup is None and trick.draws:
        seat, card = trick.draws[-1]
        changes.append((seat, card, 1))
    return changes


def draws_left(profile: RuleProfile, stock: int) -> int:
    """How many more cards each seat will draw from a stock of ``stock`` cards (the turn-up included), shared out
    evenly among those who draw (a dealer who sits the hand out draws nothing)."""
    players = profile.playing
    return stock // players if players else 0


class Kit:
    """What every lesson of one profile in one language shares: the numbered pack, each card's view and each trump
    suit's combinations. Made once for all of a site's lessons of that profile (see :func:`_kit`) rather than once
    per lesson: they cost about as much as a twentieth of a lesson page."""

    def __init__(self, profile: RuleProfile, lang: str) -> None:
        self.profile = profile
        """Kept so that the profile, whose ``id`` names this kit, outlives it."""
        self.strings = interface(lang)
        self.pack = Pack(profile)
        # A lesson shows the same few dozen cards thousands of times (hands, books, meld pictures): each card's view
        # is made once. The views are frozen, so sharing one between places (and lessons) is safe.
        self.views: dict[int, CardView] = {}
        self._targets: dict[Suit | None, list[Target]] = {}
        self.target_views: dict[Suit | None, list[TargetView]] = {}
        """Each trump suit's rows of the tables of combinations (see :meth:`_Builder.target_views`)."""
        self.page_data: dict[str, Any] = {}
        """What every lesson's data block of the profile and language holds alike (see :meth:`_Builder.data`)."""
        self.stock_texts: dict[int, str] = {}
        """What the stock's size says ("40 cards left, the turn-up included"), by the size."""
        self.hidden_labels: dict[int, str] = {}
        """What a screen reader hears for a hidden hand, by its number of cards."""
        self.unseen_texts: dict[tuple[int, int], str] = {}
        """The sentence of a book's unseen cards, by (unseen, face down in the stock): the lessons of a site say
        much the same."""
        self.news: dict[tuple[int, Suit | None, str, str], str] = {}
        """The sentence that a combination has become impossible for a seat, by (the identity of its pattern, which
        the kit's profile keeps; its suit; the seat; the reason): the lessons of a site say much the same."""
        self.state_pairs: list[tuple[str, str]] = []
        """Every (state, text) pair of the tables of combinations that the kit's lessons met, numbered as they came
        (a lesson numbers those it uses in its own order, see :meth:`BookKeeper.state`)."""
        self.pair_numbers: dict[tuple[str, str], int] = {}
        """The number of each pair of :attr:`state_pairs`."""
        self.keyed: dict[tuple[Any, ...], int] = {}
        """The pair a key of :meth:`BookKeeper.state_of` names, by the key: each text written once per kit."""
        self.states: dict[tuple[int, ...], int] = {}
        """The pairs of combinations not yet scored, worked out so far, by the combination's :attr:`Target.shape`
        and what else they depend on (see :meth:`BookKeeper.book`): the lessons of a site ask much the same. A cell
        of a book is one lookup here, then one in the lesson's numbering."""

    def view(self, card: Card) -> CardView:
        """The card's view (made once per card)."""
        # Keyed by the core's index of the card (its suit and rank in one int), as Pack numbers cards: a lesson asks
        # for some two hundred views.
        key = card.index
        found = self.views.get(key)
        if found is None:
            found = self.views[key] = card_view(card, self.strings)
        return found

    def targets(self, trump: Suit | None) -> list[Target]:
        """The combinations of a deal with these trumps (see :func:`_targets`); the list is shared: not to be
        changed."""
        found = self._targets.get(trump)
        if found is None:
            found = self._targets[trump] = targets_of(self.profile, trump, self.pack)
        return found


KITS: dict[tuple[int, str], Kit] = {}


def kit(profile: RuleProfile, lang: str) -> Kit:
    """The kit of a profile (by identity: profiles are made once per name and options) in a language."""
    found = KITS.get((id(profile), lang))
    if found is None:
        if len(KITS) >= 64:  # a caller that makes profiles afresh must not make this grow without end
            KITS.clear()
        found = KITS[id(profile), lang] = Kit(profile, lang)
    return found


class Knowledge:
    """What the seats know about each other's cards during one deal, as packed counts of the lesson's cards
    (:meth:`Pack.pack_counts`).

    A player sees his own cards, every card played to a trick, the turn-up and the cards declared on the table.
    Some cards stay known after they go out of sight: the turn-up taken by the seven's exchange or as the last
    card of the stock, and declared cards taken back into the hand for the last tricks. ``public[seat]`` counts
    the cards everybody knows ``seat`` holds; it is a lower bound (with two packs, seeing one ♠Q played does not
    say which of two was played), so it only shrinks when such a card is played.
    """

    def __init__(self, profile: RuleProfile, seats: Sequence[str], pack: Pack) -> None:
        self.pack = pack
        self.deck = pack.deck
        self.played = 0
        """Cards played to tricks so far (packed)."""
        self.unplayed = pack.packed_deck
        """``deck - played`` (packed), kept up to date trick by trick rather than subtracted again at every step."""
        self.public: dict[str, int] = {s: 0 for s in seats}
        self.seats = list(seats)
        self.profile = profile
        self.scored: dict[tuple[str, str], list[tuple[int, Scoring]]] = {}
        """What each seat has scored so far, by (seat, kind), newest first, with the number of the trick (0 for the
        deal): a book asks it for every combination and seat at every step."""
        self.kinds: set[str] = set()
        """The kinds anybody has scored so far (most combinations nobody has)."""
        self.log: list[tuple[str, str]] = []
        """(seat, kind) of every score so far, in order: a book asks what was scored since the one before."""

    @property
    def dead(self) -> list[int]:
        """Cards played to tricks so far, one count per card."""
        return list(self.pack.unpack(self.played))

    @property
    def left(self) -> list[int]:
        """Cards not played yet, one count per card."""
        return list(self.pack.unpack(self.unplayed))

    def add_scoring(self, n: int, events: Iterable[Scoring]) -> None:
        """Take in the points scored at trick ``n`` (0: at the deal)."""
        for event in events:
            self.scored.setdefault((event.seat, event.kind), []).insert(0, (n, event))
            self.kinds.add(event.kind)
            self.log.append((event.seat, event.kind))

    def after_trick(self, trick: TrickResult, board: Board | None = None) -> None:
        """Take in what a trick showed everybody (``board``, when given, holds the cards of ``trick.after`` already
        numbered, each seat's in seat order)."""
        after = trick.after
        pack = self.pack
        number, units, minus = pack.number, pack.units, pack.minus
        public = self.public
        for seat, card in trick.plays:
            unit = units[number(card)]
            self.played += unit
            self.unplayed -= unit
            public[seat] = minus(public[seat], unit)
        for seat, card, change in shown_by(trick):
            # (a card no longer known that was not known stays at none: the counts below start from the table)
            unit = units[number(card)]
            public[seat] = public[seat] + unit if change > 0 else minus(public[seat], unit)
        tables, holds = pack.board_counts(board) if board is not None else ([], [])
        for k, (seat, known) in enumerate(public.items()):
            # Known cards are those known before or lying on the table, but never more than the seat still holds
            # (when nothing was known, that is the table itself).
            table = tables[k] if board else pack.pack_ids(pack.ids(after.tables.get(seat, ())))
            if known:
                held = holds[k] if board else table + pack.pack_ids(pack.ids(after.hands.get(seat, ())))
                most = table + minus(known, table)
                table = most - minus(most, held)
            public[seat] = table

    def draws_left(self, snap: Snapshot) -> int:
        """How many more cards each seat will draw (the stock, turn-up included, is shared out evenly)."""
        return draws_left(self.profile, snap.stock)


class BookKeeper:
    """The books' part of a lesson's builder: the states of the combinations, numbered once per lesson, and each
    seat's book before a trick."""

    def __init__(self, profile: RuleProfile, seats: Sequence[str], lang: str) -> None:
        self.profile = profile
        self.seats = list(seats)
        self.kit = kit(profile, lang)
        self.t: Words = self.kit.strings
        self.pack = self.kit.pack
        self.view: Callable[[Card], CardView] = self.kit.view
        """The card's view in the lesson's language (made once per card and language, see :class:`Kit`)."""
        # The books' states and their texts are the kit's, each written once for all its lessons; a lesson numbers
        # those it uses as they first come (the page names each by its number).
        self.state_list: list[tuple[str, str]] = []
        """The lesson's (state, text) pairs, by their number in the lesson."""
        self._numbers: dict[int, int] = {}
        """The lesson's number of each pair of the kit's (:attr:`Kit.state_pairs`) that it uses."""
        self._shared = self.kit.states
        self._unseen_texts = self.kit.unseen_texts
        self._seat_names: dict[str, str] = {}
        self._impossible: set[int] = set()
        """The numbers of the states that say a combination is impossible."""
        self.incremental = True
        """Work out only the cells of a table of combinations that changed since the seat's book before (False:
        every cell at every step, as a check of that)."""
        self._column_cache: dict[
            int, tuple[Sequence[Target], tuple[list[int], list[str], list[int], list[int], int]]
        ] = {}

    def seat(self, seat: str | None) -> str:
        """A seat's name ("North"), or a side's ("North & South")."""
        if seat is None:
            return ""
        found = self._seat_names.get(seat)
        if found is None:
            if "+" in seat:  # a side of a partnership game: "North & South"
                found = " & ".join(self.seat(s) for s in seat.split("+"))
            else:
                found = self.t.get(f"seat_{seat}", seat)
            self._seat_names[seat] = found
        return found

    def meld_name(self, spec: MeldSpec, suit: Suit | None = None, form: str = "meldname") -> str:
        """A combination's name ("common marriage ♠"); ``form`` ``meld`` is the one that follows "declares"."""
        name = self.t.get(f"{form}_{spec.kind}") or self.t.get(f"meldname_{spec.kind}") or spec.label
        return f"{name} {suit.glyph}" if suit is not None else name

    def news(self, target: Target, seat: str, reason: str) -> str:
        """The news that ``target`` has become impossible for ``seat``, and why (made once per kit)."""
        key = (id(target.spec), target.suit, seat, reason)
        found = self.kit.news.get(key)
        if found is None:
            meld = self.meld_name(target.spec, target.suit, form=self.t["news_meld_form"])
            found = self.t["news_impossible"].format(reason=reason, meld=meld, seat=self.seat(seat))
            self.kit.news[key] = found
        return found

    def seen_reason(self, card: int, available: int, copies: int) -> str:
        glyph = self.view(self.pack.cards[card]).glyph
        seen = copies - available
        if available == 0:
            if copies == 2:
                return self.t["seen_all_2"].format(card=glyph)
            if copies == 1:
                return self.t["seen_only"].format(card=glyph)
            return self.t["seen_all"].format(card=glyph, n=copies)
        return self.t["seen_some"].format(card=glyph, k=seen, n=copies)

    def state(self, state: str, text: str) -> int:
        """The lesson's number of a (state, text) pair of the tables of combinations."""
        return self.numbered(self._pair(state, text))

    def _pair(self, state: str, text: str) -> int:
        """The kit's number of a (state, text) pair."""
        kit = self.kit
        found = kit.pair_numbers.get((state, text))
        if found is None:
            found = kit.pair_numbers[state, text] = len(kit.state_pairs)
            kit.state_pairs.append((state, text))
        return found

    def numbered(self, pair: int) -> int:
        """The lesson's number of the kit's pair ``pair``, given when the lesson first uses it."""
        found = self._numbers.get(pair)
        if found is None:
            found = self._numbers[pair] = len(self.state_list)
            state = self.kit.state_pairs[pair]
            self.state_list.append(state)
            if state[0] == "impossible":
                self._impossible.add(found)
        return found

    def state_of(self, key: tuple[Any, ...]) -> int:
        """The lesson's number of the state a key names (see :meth:`open_state`)."""
        return self.numbered(self._keyed(key))

    def _keyed(self, key: tuple[Any, ...]) -> int:
        """The kit's number of the state a key names, its text written the first time the kit is asked for it."""
        found = self.kit.keyed.get(key)
        if found is not None:
            return found
        t = self.t
        what = key[0]
        if what == "scored":
            found = self._pair("scored", t["meld_scored"].format(n=key[1]))
        elif what == "possible":
            found = self._pair("possible", t["meld_possible"])
        elif what == "ready":
            found = self._pair("ready", t["meld_ready"])
        elif what == "has":
            found = self._pair("possible", t["meld_has"].format(k=key[1], n=key[2]))
        elif what == "needs":
            cards = " ".join(self.view(self.pack.cards[c]).glyph for c in key[1:])
            found = self._pair("possible", t["meld_needs"].format(cards=cards))
        elif what == "draws":
            k, d = key[1], key[2]
            text = t["draws_left"].format(missing=t.count("missing_cards", k), left=t.count("draws_remaining", d))
            found = self._pair("impossible", text)
        elif what == "kind_left":
            found = self._pair("impossible", t.count(f"kind_left_{key[2]}", key[1]))
        else:  # "seen": the cards of which too many are seen, with how many are left and the copies
            reasons = [self.seen_reason(*triple) for triple in key[1:]]
            found = self._pair("impossible", ", ".join(reasons))
        self.kit.keyed[key] = found
        return found

    def scored_state(self, target: Target, events: Sequence[tuple[int, Scoring]]) -> int:
        """The state of a combination a seat has scored (``events``: what it scored of that kind), or -1."""
        for n, event in events:
            if scores_row(target, event.cards):
                return self.state_of(("scored", n))
        return -1

    def open_state(
        self,
        target: Target,
        own: bool,
        available: Sequence[int],
        held: Sequence[int],
        draws: int,
        deck: Sequence[int],
    ) -> int:
        """The state of a combination not yet scored for a seat, as a viewer can tell (``own``: the viewer's own
        row; ``held`` is the viewer's cards, ``available`` what the seat may still gather), as the kit numbers it."""
        if target.count:
            left = sum(available[k] for k in target.of_rank)
            if left < target.count:
                return self._keyed(("kind_left", left, target.rank.symbol if target.rank else ""))
        else:
            seen = tuple((k, available[k], deck[k]) for k, need in target.needed if available[k] < need)
            if seen:
                return self._keyed(("seen", *seen))
        if not own:
            return self._keyed(("possible",))
        if target.count:
            has = min(sum(held[k] for k in target.of_rank), target.count)
            missing = target.count - has
            detail: tuple[Any, ...] = ("has", has, target.count)
        else:
            # ``needed`` is in page order already, so the lacking cards come out sorted.
            lacking = [k for k, n in target.needed for _ in range(n - held[k])]
            missing = len(lacking)
            detail = ("needs", *lacking)
        if missing == 0:
            return self._keyed(("ready",))
        if missing > draws:
            return self._keyed(("draws", missing, draws))
        return self._keyed(detail)

    def _columns(self, targets: Sequence[Target]) -> tuple[list[int], list[str], list[int], list[int], int]:
        """A deal's combinations as columns, for the table of combinations' inner loop: their masks, kinds, shapes
        and sizes, and the largest size (made once per list of combinations: the kit's lists are shared)."""
        found = self._column_cache.get(id(targets))
        if found is None or found[0] is not targets:
            columns = (
                [g.mask for g in targets],
                [g.spec.kind for g in targets],
                [g.shape_id for g in targets],
                [g.size for g in targets],
                max((g.size for g in targets), default=0),
            )
            found = self._column_cache[id(targets)] = (targets, columns)
        return found[1]

    def unseen_text(self, total: int, facedown: int) -> str:
        found = self._unseen_texts.get((total, facedown))
        if found is None:
            found = self._unseen_texts[total, facedown] = self.t.count(
                "unseen_text", total, stock=min(facedown, total), hands=max(total - facedown, 0)
            )
        return found

    def book(
        self,
        viewer: str,
        knowledge: Knowledge,
        targets: Sequence[Target],
        held_by: Mapping[str, int],
        tables: Mapping[str, int],
        before: Memory | None,
        step: _Step,
    ) -> tuple[Book, Memory]:
        """One seat's bookkeeping before a trick; also returns what the next step of the deal needs of it (what the
        seat knows to be impossible, and what its table of combinations was worked out from: ``before``, the seat's
        memory of its book before, made over).

        ``held_by`` counts each seat's cards (hand and table), ``tables`` its cards on the table, both packed
        (:meth:`Pack.pack_counts`); ``step`` is what every seat's book of the step shares (:meth:`_step`).
        """
        pack = self.pack
        minus = pack.minus
        held = held_by[viewer]
        public = knowledge.public
        unplayed = step.unplayed
        # What the viewer knows the others hold: what is known of every seat but its own. (Packed counts add and
        # take away card by card without a carry: no card has a hundred copies.)
        known_by_others = step.public - public[viewer]
        counts = pack.unpack(minus(unplayed, held + known_by_others + step.turnup))
        total = sum(counts)
        known: list[int] = []
        for seat, cards in public.items():
            if seat != viewer and cards:
                # (most often what is known of a seat is what lies on its table: nothing in its hand)
                in_hand = minus(cards, tables[seat])
                if in_hand:
                    known.extend(k for k, n in enumerate(pack.unpack(in_hand)) if n for _ in range(n))
        known.sort()
        melds: list[int] = []
        news: list[str] = []
        memory = before if before is not None else Memory()
        declaring = step.declaring
        if declaring:
            seats = self.seats
            # What each seat may still gather, as the viewer knows it: the same for every combination.
            available = [
                minus(unplayed, known_by_others if s == viewer else held + known_by_others - public[s]) for s in seats
            ]
            draws = step.draws
            own = seats.index(viewer)
            masks, kinds_of, shapes, sizes, _ = step.columns
            # Until it is scored, a combination's state depends only on how many of its cards the seat may still
            # gather, and in the viewer's own row on how many the viewer holds and how many draws are left (no more
            # than the combination has cards can matter): from one step to the next, only the cells of the cards
            # that changed, and those of the kinds somebody scored, are worked out again.
            cap = step.cap
            kinds = knowledge.kinds
            log = knowledge.log
            width = len(seats)
            earlier = before.melds if before is not None and before.melds else None
            # What changed for each seat since its book before (every bit: work the whole row out again), and the
            # (seat, kind) pairs scored since: a cell is worked out again when its cards are in the one or its
            # kind is in the other. The cells are gone through in the table's order, so that new states are
            # numbered as a whole table would number them.
            since: Set[tuple[int, str]] = _NONE
            scored_kinds: Set[str] = _NONE
            if earlier is None or not self.incremental:
                melds = [0] * (len(targets) * width)
                changes = [-1] * width
            else:
                assert before is not None
                melds = list(earlier)
                was = before.available
                changes = [available[s] ^ was[s] for s in range(width)]
                changes[own] = -1 if cap != before.cap else changes[own] | (held ^ before.held)
                if len(log) > before.events:
                    since = {(seats.index(seat), kind) for seat, kind in log[before.events :] if seat in seats}
                    scored_kinds = {kind for _, kind in since}
            # A row none of whose cells is worked out again is passed over whole (-1, every bit, for a whole row).
            touched = 0
            for changed in changes:
                touched |= changed
            # A cell is news when it becomes impossible: it was not so in the seat's table before (the states that
            # say "impossible" stay so, and a table of another phase has no cells).
            scored, shared, numbers, deck = knowledge.scored, self._shared, self._numbers, knowledge.deck
            dead_ends = self._impossible
            fresh: list[int] = []
            for t, mask in enumerate(masks):
                kind = kinds_of[t]
                if not (touched < 0 or mask & touched or kind in scored_kinds):
                    continue
                for s, changed in enumerate(changes):
                    if not (changed < 0 or mask & changed or (since and (s, kind) in since)):
                        continue
                    i = t * width + s
                    state = self.scored_state(targets[t], scored.get((seats[s], kind), ())) if kind in kinds else -1
                    if state < 0:
                        # The same combination of cards, with the same counts, is in the same state whatever the
                        # deal's trumps: a key the lesson's deals, and the kit's lessons, share.
                        if s == own:
                            key: tuple[int, ...] = (shapes[t], available[s] & mask, held & mask, min(draws, sizes[t]))
                        else:
                            key = (shapes[t], available[s] & mask)
                        pair = shared.get(key)
                        if pair is None:
                            pair = shared[key] = self.open_state(
                                targets[t], s == own, pack.unpack(available[s]), pack.unpack(held), draws, deck
                            )
                        state = numbers.get(pair, -1)
                        if state < 0:
                            state = self.numbered(pair)
                    melds[i] = state
                    if state in dead_ends and (earlier is None or earlier[i] not in dead_ends):
                        fresh.append(i)
            # Said once, where it becomes true (``fresh`` is in the table's order).
            for i in fresh:
                news.append(self.news(targets[i // width], seats[i % width], self.state_list[melds[i]][1]))
            memory.melds, memory.available, memory.held, memory.cap = melds, available, held, cap
            memory.events = len(log)
        else:
            memory.melds = None
        text = self.unseen_text(total, step.facedown)
        return Book(viewer, counts, total, text, known, news, melds, declaring), memory

    def books(
        self,
        snap: Snapshot,
        phase: int,
        knowledge: Knowledge,
        targets: Sequence[Target],
        memory: dict[str, Memory],
        board: Board | None = None,
    ) -> list[Book]:
        """Every seat's book before a trick (``board``, when given, holds the snapshot's cards already numbered);
        ``memory`` keeps each seat's last book of the deal for the next (empty at the deal's start)."""
        pack = self.pack
        if board is None:
            tables, holds = pack.seat_counts(
                [pack.ids(snap.on_table.get(s, ())) for s in self.seats],
                [pack.ids(snap.in_hand.get(s, ())) for s in self.seats],
            )
        else:
            tables, holds = pack.board_counts(board)
        on_table = dict(zip(self.seats, tables, strict=True))
        held_by = dict(zip(self.seats, holds, strict=True))
        step = self._step(snap, phase, knowledge, targets)
        books = []
        for viewer in self.seats:
            book, memory[viewer] = self.book(viewer, knowledge, targets, held_by, on_table, memory.get(viewer), step)
            books.append(book)
        return books

    def _step(self, snap: Snapshot, phase: int, knowledge: Knowledge, targets: Sequence[Target]) -> _Step:
        """What every seat's book before a trick shares."""
        pack = self.pack
        turnup = snap.turnup
        declaring = phase in self.profile.declare_phases
        draws = knowledge.draws_left(snap) if declaring else 0
        columns = self._columns(targets)
        return _Step(
            pack.units[pack.number(turnup)] if turnup is not None else 0,
            max(snap.stock - (1 if turnup is not None else 0), 0),
            declaring,
            draws,
            columns,
            min(draws, columns[4]),
            knowledge.unplayed,
            sum(knowledge.public.values()),
        )


class _Step(NamedTuple):
    """What every seat's book before a trick shares (see :meth:`BookKeeper.book`)."""

    turnup: int
    """The turn-up as a packed count (0 for none): every seat has seen it."""
    facedown: int
    """The stock's cards face down."""
    declaring: bool
    draws: int
    """The draws left to each seat (0 outside the declaring phases)."""
    columns: tuple[list[int], list[str], list[int], list[int], int]
    """The combinations' columns (:meth:`BookKeeper._columns`)."""
    cap: int
    """The draws left, up to the largest combination's size."""
    unplayed: int
    """The cards not played yet (packed)."""
    public: int
    """Every seat's cards that everybody knows it holds, together (packed)."""


_NONE: frozenset[Any] = frozenset()


class Memory:
    """What the next step of a deal needs of a seat's book: its table of combinations (a cell that says
    "impossible" is news only once) and the counts it was worked out from."""

    __slots__ = ("available", "cap", "events", "held", "melds")

    def __init__(self) -> None:
        self.melds: list[int] | None = None
        """The table's cells (None outside the declaring phases)."""
        self.available: list[int] = []
        """What each seat may still gather, as the seat knew it (packed)."""
        self.held = 0
        """The seat's own cards (packed)."""
        self.cap = 0
        """The draws left, up to the largest combination's size."""
        self.events = 0
        """How many scores the deal had (:attr:`Knowledge.log`)."""
