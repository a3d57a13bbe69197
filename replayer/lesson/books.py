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
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
    "minus",
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

    @functools.cached_property
    def pick(self) -> Callable[[Sequence[int]], object]:
        """The counts of its cards out of a count of the whole pack, in one call (a key the books look states up by)."""
        return operator.itemgetter(*self.cards)


_SUIT_AND_RANK = operator.attrgetter("suit", "rank")


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
        # dictionary hashes and compares in C rather than through Card's own __hash__ and __eq__.
        self._numbers = {(c.suit, c.rank): i for i, c in enumerate(self.cards)}

    def number(self, card: Card) -> int:
        """The card's number."""
        return self._numbers[card.suit, card.rank]

    def ids(self, cards: Iterable[Card]) -> list[int]:
        """The cards' numbers."""
        # A lesson numbers its boards' cards, some twenty a trick: looked up in one C loop.
        return list(map(self._numbers.__getitem__, map(_SUIT_AND_RANK, cards)))

    def counts(self, *groups: Iterable[Card]) -> list[int]:
        """How many of each card the groups hold together."""
        counts = [0] * len(self.cards)
        numbers = self._numbers
        for group in groups:
            for card in group:
                counts[numbers[card.suit, card.rank]] += 1
        return counts

    def target(self, spec: MeldSpec, suit: Suit | None, cards: Iterable[Card]) -> Target:
        """A combination of exactly these cards."""
        need = Counter(self.ids(cards))
        ordered = sorted(need.items())
        return Target(spec, suit, tuple(ordered), tuple(sorted(need.elements())))

    def of_kind(self, spec: MeldSpec, rank: Rank, count: int) -> Target:
        """A combination of ``count`` cards of ``rank`` in any suits."""
        of_rank = tuple(self.index[Card(s, rank)] for s in Suit if Card(s, rank) in self.index)
        return Target(spec, None, (), of_rank[:count], of_rank, count, rank)


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
        self.views: dict[tuple[Suit, Rank], CardView] = {}
        self._targets: dict[Suit | None, list[Target]] = {}
        self.target_views: dict[Suit | None, list[TargetView]] = {}
        """Each trump suit's rows of the tables of combinations (see :meth:`_Builder.target_views`)."""
        self.page_data: dict[str, Any] = {}
        """What every lesson's data block of the profile and language holds alike (see :meth:`_Builder.data`)."""
        self.states: dict[tuple[object, ...], tuple[str, str]] = {}
        """The (state, text) pairs of combinations not yet scored, worked out so far, by the combination's
        :attr:`Target.shape` and what else they depend on (see :meth:`_Builder.book`): the lessons of a site ask
        much the same."""

    def view(self, card: Card) -> CardView:
        """The card's view (made once per card)."""
        # Keyed by (suit, rank), hashed in C, as Pack numbers cards: a lesson asks for some two hundred views.
        key = _SUIT_AND_RANK(card)
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


def minus(base: Sequence[int], *parts: Sequence[int]) -> list[int]:
    """``base - parts[0] - parts[1] - …`` card by card, none below zero (a count the viewer cannot place)."""
    if not parts:
        return list(base)
    left: Iterable[int] = base
    for part in parts:
        left = map(operator.sub, left, part)
    return [n if n > 0 else 0 for n in left]


class Knowledge:
    """What the seats know about each other's cards during one deal, as counts of the lesson's cards.

    A player sees his own cards, every card played to a trick, the turn-up and the cards declared on the table.
    Some cards stay known after they go out of sight: the turn-up taken by the seven's exchange or as the last
    card of the stock, and declared cards taken back into the hand for the last tricks. ``public[seat]`` counts
    the cards everybody knows ``seat`` holds; it is a lower bound (with two packs, seeing one ♠Q played does not
    say which of two was played), so it only shrinks when such a card is played.
    """

    def __init__(self, profile: RuleProfile, seats: Sequence[str], pack: Pack) -> None:
        self.pack = pack
        self.deck = pack.deck
        self.dead = [0] * len(pack.deck)
        """Cards played to tricks so far."""
        self.left = list(self.deck)
        """``deck - dead``, kept up to date trick by trick rather than subtracted again at every step."""
        self.public: dict[str, list[int]] = {s: [0] * len(pack.deck) for s in seats}
        self.seats = list(seats)
        self.profile = profile
        self.scored: dict[tuple[str, str], list[tuple[int, Scoring]]] = {}
        """What each seat has scored so far, by (seat, kind), newest first, with the number of the trick (0 for the
        deal): a book asks it for every combination and seat at every step."""
        self.kinds: set[str] = set()
        """The kinds anybody has scored so far (most combinations nobody has)."""

    def add_scoring(self, n: int, events: Iterable[Scoring]) -> None:
        """Take in the points scored at trick ``n`` (0: at the deal)."""
        for event in events:
            self.scored.setdefault((event.seat, event.kind), []).insert(0, (n, event))
            self.kinds.add(event.kind)

    def after_trick(self, trick: TrickResult) -> None:
        """Take in what a trick showed everybody."""
        after = trick.after
        number = self.pack.number
        for seat, card in trick.plays:
            k = number(card)
            self.dead[k] += 1
            self.left[k] -= 1
            known = self.public[seat]
            if known[k] > 0:
                known[k] -= 1
        for seat, card, change in shown_by(trick):
            self.public[seat][number(card)] += change
        for seat, known in self.public.items():
            # Known cards are those known before or lying on the table, but never more than the seat still holds
            # (when nothing was known, that is the table itself).
            table = self.pack.counts(after.tables.get(seat, ()))
            if any(known):
                held = self.pack.counts(after.hands.get(seat, ()), after.tables.get(seat, ()))
                table = [min(k if k > t else t, h) for k, t, h in zip(known, table, held, strict=True)]
            self.public[seat] = table

    def others_known(self, viewer: str, but: str | None = None) -> list[list[int]]:
        """Cards the viewer knows the other seats (except ``but``) hold: one count for each seat known to hold any."""
        return [known for seat, known in self.public.items() if seat != viewer and seat != but and any(known)]

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
        # The books' states and their texts, each made once per lesson: from one step to the next most do not
        # change, and the page names each by its number.
        self.meld_states: dict[tuple[str, str], int] = {}
        self.state_list: list[tuple[str, str]] = []
        self._texts: dict[tuple[Any, ...], int] = {}
        self._asked: dict[tuple[object, ...], int] = {}
        """The states worked out in the current deal, by what they depend on (see :meth:`book`)."""
        self._shared = self.kit.states
        """The same for all the lessons of the profile and language so far, as (state, text) pairs."""
        self._unseen_texts: dict[tuple[int, int], str] = {}
        self._seat_names: dict[str, str] = {}

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
        """The number of a (state, text) pair of the tables of combinations."""
        found = self.meld_states.get((state, text))
        if found is None:
            found = self.meld_states[state, text] = len(self.state_list)
            self.state_list.append((state, text))
        return found

    def state_of(self, key: tuple[Any, ...]) -> int:
        """The state a key names (see :meth:`open_state`), its text written the first time it is asked for."""
        found = self._texts.get(key)
        if found is not None:
            return found
        t = self.t
        what = key[0]
        if what == "scored":
            found = self.state("scored", t["meld_scored"].format(n=key[1]))
        elif what == "possible":
            found = self.state("possible", t["meld_possible"])
        elif what == "ready":
            found = self.state("ready", t["meld_ready"])
        elif what == "has":
            found = self.state("possible", t["meld_has"].format(k=key[1], n=key[2]))
        elif what == "needs":
            cards = " ".join(self.view(self.pack.cards[c]).glyph for c in key[1:])
            found = self.state("possible", t["meld_needs"].format(cards=cards))
        elif what == "draws":
            k, d = key[1], key[2]
            text = t["draws_left"].format(missing=t.count("missing_cards", k), left=t.count("draws_remaining", d))
            found = self.state("impossible", text)
        elif what == "kind_left":
            found = self.state("impossible", t.count(f"kind_left_{key[2]}", key[1]))
        else:  # "seen": the cards of which too many are seen, with how many are left and the copies
            reasons = [self.seen_reason(*triple) for triple in key[1:]]
            found = self.state("impossible", ", ".join(reasons))
        self._texts[key] = found
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
        row; ``held`` is the viewer's cards, ``available`` what the seat may still gather)."""
        if target.count:
            left = sum(available[k] for k in target.of_rank)
            if left < target.count:
                return self.state_of(("kind_left", left, target.rank.symbol if target.rank else ""))
        else:
            seen = tuple((k, available[k], deck[k]) for k, need in target.needed if available[k] < need)
            if seen:
                return self.state_of(("seen", *seen))
        if not own:
            return self.state_of(("possible",))
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
            return self.state_of(("ready",))
        if missing > draws:
            return self.state_of(("draws", missing, draws))
        return self.state_of(detail)

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
        snap: Snapshot,
        phase: int,
        knowledge: Knowledge,
        targets: Sequence[Target],
        held_by: Mapping[str, list[int]],
        tables: Mapping[str, list[int]],
        before: set[int] | None,
    ) -> tuple[Book, set[int]]:
        """One seat's bookkeeping before a trick; also returns what it knows to be impossible (positions in its
        ``melds``), for the next step.

        ``held_by`` counts each seat's cards (hand and table), ``tables`` its cards on the table.
        """
        held = held_by[viewer]
        others = knowledge.others_known(viewer)
        unseen = minus(knowledge.left, held, *others)
        if snap.turnup is not None:
            k = self.pack.number(snap.turnup)
            unseen[k] = max(unseen[k] - 1, 0)
        total = sum(unseen)
        facedown = max(snap.stock - (1 if snap.turnup is not None else 0), 0)
        known: list[int] = []
        for seat in self.seats:
            if seat != viewer and any(knowledge.public[seat]):
                known.extend(k for k, n in enumerate(minus(knowledge.public[seat], tables[seat])) for _ in range(n))
        known.sort()
        melds: list[int] = []
        news: list[str] = []
        impossible: set[int] = set()
        declaring = phase in self.profile.declare_phases
        if declaring:
            seats = self.seats
            # What each seat may still gather, as the viewer knows it: the same for every combination.
            available = [
                minus(knowledge.left, *others)
                if s == viewer
                else minus(knowledge.left, held, *knowledge.others_known(viewer, but=s))
                for s in seats
            ]
            draws = knowledge.draws_left(snap)
            scored, asked, deck = knowledge.scored, self._asked, knowledge.deck
            own = seats.index(viewer)
            for t, target in enumerate(targets):
                # Until it is scored, a combination's state depends only on how many of its cards the seat may
                # still gather, and in the viewer's own row on how many the viewer holds and how many draws are
                # left (no more than the combination has cards can matter): most steps ask again what an earlier
                # step of the deal asked.
                pick, kind = target.pick, target.spec.kind
                anybody = kind in knowledge.kinds
                mine = (pick(held), min(draws, target.size))
                for s, seat in enumerate(seats):
                    state = self.scored_state(target, scored.get((seat, kind), ())) if anybody else -1
                    if state < 0:
                        key = (t, pick(available[s]), mine) if s == own else (t, pick(available[s]))
                        state = asked.get(key, -1)
                        if state < 0:
                            shared = (target.shape, *key[1:])
                            pair = self._shared.get(shared)
                            if pair is None:
                                state = self.open_state(target, s == own, available[s], held, draws, deck)
                                self._shared[shared] = self.state_list[state]
                            else:
                                state = self.state(*pair)
                            asked[key] = state
                    melds.append(state)
            impossible = {i for i, state in enumerate(melds) if self.state_list[state][0] == "impossible"}
            # Said once, where it becomes true: the combinations the step before did not know to be impossible.
            for i in sorted(impossible if before is None else impossible - before):
                target, seat = targets[i // len(seats)], seats[i % len(seats)]
                meld = self.meld_name(target.spec, target.suit, form=self.t["news_meld_form"])
                reason = self.state_list[melds[i]][1]
                news.append(self.t["news_impossible"].format(reason=reason, meld=meld, seat=self.seat(seat)))
        text = self.unseen_text(total, facedown)
        return Book(viewer, unseen, total, text, known, news, melds, declaring), impossible

    def books(
        self,
        snap: Snapshot,
        phase: int,
        knowledge: Knowledge,
        targets: Sequence[Target],
        memory: dict[str, set[int]],
        board: Board | None = None,
    ) -> list[Book]:
        """Every seat's book before a trick (``board``, when given, holds the snapshot's cards already numbered)."""
        if board is None:
            hands = {s: self.pack.ids(snap.hands.get(s, ())) for s in self.seats}
            tables = {s: self.pack.ids(snap.tables.get(s, ())) for s in self.seats}
        else:
            hands = dict(zip(self.seats, board.hands, strict=True))
            tables = dict(zip(self.seats, board.tables, strict=True))
        size = len(self.pack.deck)
        held_by: dict[str, list[int]] = {}
        on_table: dict[str, list[int]] = {}
        for seat in self.seats:
            table = [0] * size
            for k in tables[seat]:
                table[k] += 1
            held = list(table)
            for k in hands[seat]:
                held[k] += 1
            held_by[seat], on_table[seat] = held, table
        books = []
        for viewer in self.seats:
            book, impossible = self.book(viewer, snap, phase, knowledge, targets, held_by, on_table, memory.get(viewer))
            memory[viewer] = impossible
            books.append(book)
        return books
