"""Recognising declarations and applying the re-use rules of declared cards. Pure functions."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from .cards import Card, Suit
from .rules import MeldSpec, RuleProfile

__all__ = [
    "Assignment",
    "TabledCard",
    "choose_instances",
    "extends_problem",
    "identify",
    "matches",
    "reuse_problem",
]


class TabledCard:
    """A declared card lying face up on the table, with what it has been scored in: ``kinds`` and ``classes``;
    ``partners``, the uids of the cards it was married to (for the re-marriage exception); ``scored_at``, the trick
    after which it was scored in each kind; ``declared_with``, per kind, the uids of the cards it was scored with (a
    combination broken by a play may be refilled)."""

    # Plain classes, not dataclasses: see replayer/errors.py (this module is needed to check any declaration).
    __slots__ = ("card", "classes", "declared_with", "kinds", "partners", "scored_at", "uid")

    def __init__(
        self,
        uid: int,
        card: Card,
        kinds: set[str] | None = None,
        classes: set[str] | None = None,
        partners: set[int] | None = None,
        scored_at: dict[str, int] | None = None,
        declared_with: dict[str, set[int]] | None = None,
    ) -> None:
        self.uid = uid
        self.card = card
        self.kinds: set[str] = set() if kinds is None else kinds
        self.classes: set[str] = set() if classes is None else classes
        self.partners: set[int] = set() if partners is None else partners
        self.scored_at: dict[str, int] = {} if scored_at is None else scored_at
        self.declared_with: dict[str, set[int]] = {} if declared_with is None else declared_with

    def _fields(self) -> tuple[object, ...]:
        return (self.uid, self.card, self.kinds, self.classes, self.partners, self.scored_at, self.declared_with)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TabledCard):
            return NotImplemented
        return self._fields() == other._fields()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"TabledCard(uid={self.uid!r}, card={self.card!r}, kinds={self.kinds!r}, classes={self.classes!r}, "
            f"partners={self.partners!r}, scored_at={self.scored_at!r}, declared_with={self.declared_with!r})"
        )

    def copy(self) -> TabledCard:
        """An independent copy."""
        return TabledCard(
            self.uid,
            self.card,
            set(self.kinds),
            set(self.classes),
            set(self.partners),
            dict(self.scored_at),
            {k: set(v) for k, v in self.declared_with.items()},
        )


def matches(spec: MeldSpec, cards: Sequence[Card], trump: Suit | None) -> bool:
    """True when ``cards`` form exactly the meld ``spec`` with this trump suit.

    A wild card stands for any card it is declared with (RULES.md §2.l rule 10): the other cards must be part of the
    meld, and at least one card is not wild. A whole-hand meld (carte blanche) is never formed by declared cards.
    """
    if spec.whole_hand or len(cards) != spec.size:
        return False
    real = [c for c in cards if not c.is_wild]
    if not real:
        return False
    wild = len(cards) - len(real)
    exact = spec.cards_for(trump)
    if spec.cards or spec.trump_ranks or spec.partner_ranks:
        return bool(exact) and not Counter(real) - Counter(exact)
    if spec.rank is not None:
        different = len({c.suit for c in real}) == len(real)
        return all(c.rank == spec.rank for c in real) and (not spec.distinct or different)
    suits = {c.suit for c in real}
    if len(suits) != 1:
        return False
    suit = next(iter(suits))
    if spec.suit == "trump" and suit != trump:
        return False
    if spec.suit == "plain" and (trump is None or suit == trump):
        return False
    missing = Counter(spec.ranks) - Counter(c.rank for c in real)
    return not Counter(c.rank for c in real) - Counter(spec.ranks) and sum(missing.values()) == wild


_IDENTIFIED_MAX = 4096
"""How many combinations :func:`identify` remembers per profile."""


def identify(profile: RuleProfile, cards: Sequence[Card], trump: Suit | None) -> list[MeldSpec]:
    """Every meld of the profile that these cards form (usually zero or one)."""
    key = (tuple(cards), trump)
    known = profile.identified
    found = known.get(key)
    if found is None:  # records declare the same few combinations again and again: each is tried once
        if len(known) >= _IDENTIFIED_MAX:  # a corpus of odd declarations must not grow the memory without bound
            known.clear()
        found = known[key] = tuple(spec for spec in profile.melds if matches(spec, cards, trump))
    return list(found)


class Assignment:
    """Which physical cards a declaration uses: tabled ones by uid, the rest from the concealed hand. Immutable."""

    __slots__ = ("from_hand", "tabled")

    tabled: tuple[int, ...]
    from_hand: tuple[Card, ...]

    def __init__(self, tabled: tuple[int, ...], from_hand: tuple[Card, ...]) -> None:
        object.__setattr__(self, "tabled", tabled)
        object.__setattr__(self, "from_hand", from_hand)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Assignment):
            return NotImplemented
        return (self.tabled, self.from_hand) == (other.tabled, other.from_hand)

    def __hash__(self) -> int:
        return hash((self.tabled, self.from_hand))

    def __repr__(self) -> str:
        return f"Assignment(tabled={self.tabled!r}, from_hand={self.from_hand!r})"


def _options_for(
    card: Card, need: int, tabled: Sequence[TabledCard], in_hand: int
) -> list[tuple[tuple[int, ...], int]]:
    uids = [t.uid for t in tabled if t.card == card]
    result = []
    for k in range(min(need, len(uids)), -1, -1):
        if need - k > in_hand:
            continue
        for combo in itertools.combinations(uids, k):
            result.append((combo, need - k))
    return result


def choose_instances(
    cards: Sequence[Card],
    hand: Counter[Card],
    tabled: Sequence[TabledCard],
) -> Iterable[Assignment]:
    """All ways to take ``cards`` from the table and the hand, those using the most tabled cards first."""
    need = Counter(cards)
    per_card = [(card, _options_for(card, n, tabled, hand[card])) for card, n in need.items()]
    if any(not options for _, options in per_card):
        return []
    assignments = []
    for choice in itertools.product(*(options for _, options in per_card)):
        uids: list[int] = []
        hand_cards: list[Card] = []
        for (card, _), (combo, from_hand) in zip(per_card, choice, strict=True):
            uids.extend(combo)
            hand_cards.extend([card] * from_hand)
        assignments.append(Assignment(tuple(uids), tuple(hand_cards)))
    assignments.sort(key=lambda a: -len(a.tabled))
    return assignments


def mark_scored(table: Iterable[TabledCard], uids: Sequence[int], spec: MeldSpec, trick: int) -> None:
    """Record on the tabled cards ``uids`` that they were scored together in ``spec`` after ``trick`` (what
    :func:`reuse_problem` later reads)."""
    for t in table:
        if t.uid not in uids:
            continue
        others = [u for u in uids if u != t.uid]
        t.kinds.add(spec.kind)
        t.scored_at.setdefault(spec.kind, trick)
        t.classes.add(spec.klass)
        t.declared_with.setdefault(spec.kind, set()).update(others)
        if spec.marriage:
            t.partners.update(others)


def reuse_problem(
    spec: MeldSpec,
    assignment: Assignment,
    tabled: Sequence[TabledCard],
    mode: str,
    points: Mapping[str, int] | None = None,
    no_reuse: Sequence[tuple[str, str]] = (),
    trick: int | None = None,
) -> tuple[str, str] | None:
    """Why this use of cards breaks the re-use rule ``mode``, as (code, message); None when it is allowed.

    Modes (RULES.md §2.a rule 14): ``text_with_remarriage``, ``strict_text``, ``new_card_refill``; ``refill``
    (Rubicon, RULES.md §2.e rules 10, 12): a card scores again in the same kind only when a card of the combination it
    was scored in has since been played and the new declaration adds a card from the hand (which also covers the
    re-marriage); ``refill_swap``: ``refill`` and the marriage swap of §2.e rule 11; and
    ``higher_other_kind`` (RULES.md §2.d rule 13, 004:L181): a declared card serves again only in a meld of another
    kind worth more than every meld it was scored in (``points`` gives each kind's value). ``no_reuse`` lists
    (kind, earlier kind) pairs: a card scored in the earlier kind may not be used in the kind (an option of
    RULES.md §2.b rule 13 for double marriages). ``trick`` is the trick just won: under ``higher_other_kind``,
    combinations laid out together after it are not "already declared" for one another (004:L185: K♠ Q♠ J♦ score
    the bezique now and the marriage after the next trick), whatever order the record writes them in.
    """
    by_uid = {t.uid: t for t in tabled}
    used = [by_uid[u] for u in assignment.tabled]
    for t in used:
        for kind, earlier in no_reuse:
            if spec.kind == kind and earlier in t.kinds:
                return (
                    "BZ307",
                    f"{t.card} was already scored in a {earlier.replace('_', ' ')}; under this profile's options a "
                    f"{spec.label} may not be built on it",
                )
    if mode == "higher_other_kind":
        values = points or {}
        for t in used:
            if spec.kind in t.kinds:
                return (
                    "BZ307",
                    f"{t.card} was already scored in a {spec.label}; a declared card serves again only in "
                    f"another kind of combination",
                )
            earlier_kinds = {k for k in t.kinds if trick is None or t.scored_at.get(k, -1) < trick}
            best = max((values.get(k, 0) for k in earlier_kinds), default=0)
            if earlier_kinds and spec.points <= best:
                earlier = max(earlier_kinds, key=lambda k: values.get(k, 0)).replace("_", " ")
                return (
                    "BZ307",
                    f"{t.card} was already scored in a {earlier} ({best}); a declared card serves again only in a "
                    f"combination worth more, not in a {spec.label} ({spec.points})",
                )
        return None
    if mode == "refill_swap" and _swap(spec, assignment, used):
        return None
    if not assignment.from_hand and all(spec.klass in t.classes for t in used):
        names = " ".join(str(t.card) for t in used)
        return (
            "BZ306",
            f"{spec.label} adds no new card: {names} already scored in this class of combination "
            f"(a declaration needs at least one card not yet scored in a {_class_name(spec.klass)})",
        )
    if mode == "new_card_refill":
        return None
    on_table = set(by_uid)
    for t in used:
        if spec.kind not in t.kinds:
            continue
        if mode == "text_with_remarriage" and spec.marriage and not (t.partners & on_table):
            continue  # re-marriage: its first partner has been played (the worked deal, trick 22)
        if (
            mode in ("refill", "refill_swap")
            and assignment.from_hand
            and t.declared_with.get(spec.kind, set()) - on_table
        ):
            continue  # refill: a card of the combination it was scored in has been played (RULES.md §2.e rule 10)
        return (
            "BZ307",
            f"{t.card} was already scored in a {spec.label}; a card scores only once in each kind of combination",
        )
    return None


def extends_problem(spec: MeldSpec, assignment: Assignment, table: Sequence[TabledCard]) -> tuple[str, str] | None:
    """A kind that adds a card to a declared one needs all its other cards already scored in that kind."""
    if spec.extends is None:
        return None
    by_uid = {t.uid: t for t in table}
    scored = sum(1 for u in assignment.tabled if spec.extends in by_uid[u].kinds)
    if scored >= spec.size - 1:
        return None
    earlier = spec.extends.replace("_", " ")
    return (
        "BZ304",
        f"a {spec.label} adds one card to a declared {earlier}: {spec.size - 1} of its cards must already be "
        f"scored in a {earlier} (here {scored})",
    )


def _swap(spec: MeldSpec, assignment: Assignment, used: Sequence[TabledCard]) -> bool:
    """The Rubicon marriage swap (RULES.md §2.e rule 11, 000:L319): a king and a queen on the table, each already
    scored in a marriage of this kind but never with each other, are married again without a new card."""
    if not spec.marriage or assignment.from_hand or len(used) != 2:
        return False
    first, second = used
    return (
        spec.kind in first.kinds
        and spec.kind in second.kinds
        and second.uid not in first.partners
        and first.uid not in second.partners
    )


def _class_name(klass: str) -> str:
    names = {"M": "marriage or sequence", "B": "bezique", "F": "four of a kind", "S": "trump-seven combination"}
    return names.get(klass, f"class {klass}")
