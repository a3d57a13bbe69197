"""Declarations: which melds cards form, which physical cards a declaration uses, and the re-use rules.

Cards are ints (see :mod:`replayer.rules.compiled`). A declared card lies face up on its owner's table as a
:class:`TabledCard`, which remembers what it has been scored in: the re-use rules of the profiles (RULES.md §2.a
rule 14, §2.d rule 13, §2.e rules 10-12) are questions about those records.

A problem is a breach: ``(code, key, args)``, which :mod:`replayer.explain` puts into words.
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable, Sequence

from ..cards import WILD_INDEX
from ..profile import MeldSpec
from .compiled import Rules

__all__ = [
    "Assignment",
    "Breach",
    "TabledCard",
    "choose_instances",
    "extends_problem",
    "identify",
    "mark_scored",
    "matches",
    "may_form_any",
    "meld_targets",
    "reuse_problem",
    "table_signature",
    "trumps_to_try",
]

Breach = tuple[str, str, tuple[object, ...]]
"""A broken rule: its code (``BZ201``), the key of its explanation, and what the explanation names."""


class TabledCard:
    """A declared card lying face up on the table, with what it has been scored in: ``kinds`` and ``classes``;
    ``partners``, the uids of the cards it was married to (for the re-marriage exception and the marriage swap);
    ``scored_at``, the trick after which it was scored in each kind; ``declared_with``, per kind, each combination
    it was scored in, as the uids of the other cards (a combination broken by a play may be refilled)."""

    __slots__ = ("card", "classes", "declared_with", "kinds", "partners", "scored_at", "uid")

    def __init__(self, uid: int, card: int) -> None:
        self.uid = uid
        self.card = card
        self.kinds: set[str] = set()
        self.classes: set[str] = set()
        self.partners: set[int] = set()
        self.scored_at: dict[str, int] = {}
        self.declared_with: dict[str, list[frozenset[int]]] = {}

    def copy(self) -> TabledCard:
        """An independent copy."""
        other = TabledCard(self.uid, self.card)
        other.kinds = set(self.kinds)
        other.classes = set(self.classes)
        other.partners = set(self.partners)
        other.scored_at = dict(self.scored_at)
        other.declared_with = {k: list(v) for k, v in self.declared_with.items()}
        return other


def matches(rules: Rules, spec: MeldSpec, cards: Sequence[int], trump: int) -> bool:
    """True when ``cards`` form exactly the meld ``spec`` with this trump suit (-1: none yet).

    A wild card stands for any card it is declared with (RULES.md §2.l rule 10): the other cards must be part of the
    meld, and at least one card is not wild. A whole-hand meld (carte blanche) is never formed by declared cards.
    """
    if spec.whole_hand or len(cards) != spec.size:
        return False
    real = [c for c in cards if c != WILD_INDEX]
    if not real:
        return False
    if spec.cards or spec.trump_ranks or spec.partner_ranks:
        exact = rules.exact(spec, trump)
        return bool(exact) and not Counter(real) - Counter(exact)
    if spec.rank is not None:
        rank = int(spec.rank)
        different = len({c >> 3 for c in real}) == len(real)
        return all(c & 7 == rank for c in real) and (not spec.distinct or different)
    suits = {c >> 3 for c in real}
    if len(suits) != 1:
        return False
    suit = next(iter(suits))
    if spec.suit == "trump" and suit != trump:
        return False
    if spec.suit == "plain" and (trump < 0 or suit == trump):
        return False
    ranks = Counter(c & 7 for c in real)
    missing = Counter(int(r) for r in spec.ranks) - ranks
    return not ranks - Counter(int(r) for r in spec.ranks) and sum(missing.values()) == len(cards) - len(real)


def trumps_to_try(rules: Rules, spec: MeldSpec, trump: int) -> tuple[int, ...]:
    """The trump suits under which ``spec`` may be declared while the trump suit is ``trump`` (-1: none yet): that
    one, and before trumps are fixed, for a kind that fixes them (a first marriage), every suit it would fix."""
    if trump < 0 and spec.kind in rules.fixing:
        return (trump, 0, 1, 2, 3)
    return (trump,)


def may_form_any(rules: Rules, held: Sequence[int], trump: int) -> bool:
    """False when ``held`` (a count per card, no wild card) forms no meld of the rules under the trump suit ``trump``
    or, before trumps are fixed, any suit a meld would fix: none of the exact card sets is held whole, nor enough
    cards of the rank a meld of one rank needs. True tells nothing more (the caller enumerates). After most tricks the
    winner can declare nothing: this answers it without the enumeration."""
    sketch = rules.sketches.get(trump)
    if sketch is None:
        sets: set[frozenset[int]] = set()
        ranks: set[tuple[int, int, int, int, int]] = set()
        for spec in rules.melds:
            if spec.whole_hand:
                continue
            for t in trumps_to_try(rules, spec, trump):
                if spec.rank is not None and not spec.distinct:
                    rank = int(spec.rank)
                    ranks.add((rank, 8 + rank, 16 + rank, 24 + rank, spec.count))  # (the rank in each suit)
                else:
                    sets.update(frozenset(cards) for cards, _ in meld_targets(rules, spec, t))
        # A set that holds another is held only where the other is (a sequence holds the royal marriage): the
        # smallest sets answer alone, and most are two cards (a marriage, the bezique), tested without a loop.
        least = sorted(tuple(sorted(s)) for s in sets if not any(other < s for other in sets))
        pairs = tuple((cards[0], cards[1]) for cards in least if len(cards) == 2)
        sketch = rules.sketches[trump] = (pairs, tuple(c for c in least if len(c) != 2), tuple(sorted(ranks)))
    pairs, sets_needed, ranks_needed = sketch
    for a, b in pairs:
        if held[a] and held[b]:
            return True
    for cards in sets_needed:
        for c in cards:
            if not held[c]:
                break
        else:
            return True
    for a, b, c, d, count in ranks_needed:  # noqa: SIM110 (a rank's four suits; a loop makes no generator)
        if held[a] + held[b] + held[c] + held[d] >= count:
            return True
    return False


def meld_targets(rules: Rules, spec: MeldSpec, trump: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    """The exact card sets a meld can be under these trumps (-1: none yet), each with its cards counted; a pattern
    of n cards of one rank in any suits gives its first n suits (the caller counts those by rank). Worked out once
    per meld and trump suit (kept in ``rules.targets``)."""
    key = (spec.kind, trump)
    found = rules.targets.get(key)
    if found is None:
        found = rules.targets[key] = _targets(rules, spec, trump)
    return found


def _targets(rules: Rules, spec: MeldSpec, trump: int) -> list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]:
    if spec.whole_hand:
        return []
    if spec.cards or spec.trump_ranks or spec.partner_ranks:
        sets = [rules.exact(spec, trump)]
    elif spec.rank is not None:  # of different suits
        sets = [tuple(s * 8 + int(spec.rank) for s in range(4))[: spec.count]]
    else:
        sets = [
            tuple(suit * 8 + int(r) for r in spec.ranks)
            for suit in range(4)
            if not (spec.suit == "trump" and suit != trump)
            and not (spec.suit == "plain" and (trump < 0 or suit == trump))
        ]
    return [(cards, tuple(Counter(cards).items())) for cards in sets if cards]


_IDENTIFIED_MAX = 4096
"""How many combinations :func:`identify` remembers per game's rules."""


def identify(rules: Rules, cards: Sequence[int], trump: int) -> tuple[MeldSpec, ...]:
    """Every meld of the rules that these cards form (usually zero or one)."""
    key = (tuple(cards), trump)
    known = rules.identified
    found = known.get(key)
    if found is None:  # records declare the same few combinations again and again: each is tried once
        if len(known) >= _IDENTIFIED_MAX:  # a corpus of odd declarations must not grow the memory without bound
            known.clear()
        found = known[key] = tuple(spec for spec in rules.melds if matches(rules, spec, cards, trump))
    return found


class Assignment:
    """Which physical cards a declaration uses: tabled ones by uid, the rest from the concealed hand."""

    __slots__ = ("from_hand", "tabled")

    def __init__(self, tabled: tuple[int, ...], from_hand: tuple[int, ...]) -> None:
        self.tabled = tabled
        self.from_hand = from_hand


def _options_for(need: int, uids: Sequence[int], in_hand: int) -> list[tuple[tuple[int, ...], int]]:
    result = []
    for k in range(min(need, len(uids)), -1, -1):
        if need - k > in_hand:
            continue
        for combo in itertools.combinations(uids, k):
            result.append((combo, need - k))
    return result


def choose_instances(cards: Sequence[int], hand: Sequence[int], tabled: Sequence[TabledCard]) -> list[Assignment]:
    """All ways to take ``cards`` from the table and the concealed hand (``hand``: a count per card), those using
    the most tabled cards first."""
    need: dict[int, int] = {}
    for card in cards:
        need[card] = need.get(card, 0) + 1
    uids: dict[int, list[int]] = {}
    for t in tabled:
        if t.card in need:
            uids.setdefault(t.card, []).append(t.uid)
    if not uids:
        # (none of them on the table: the hand alone, the one way there is; asked after most tricks of a playout)
        for card, n in need.items():
            if hand[card] < n:
                return []
        if len(need) == len(cards):  # (no card needed twice: the cards as they are)
            return [Assignment((), tuple(cards))]
        return [Assignment((), tuple(card for card, n in need.items() for _ in range(n)))]
    per_card = []
    for card, n in need.items():
        if n == 1:  # (most cards of a combination are needed once)
            options: list[tuple[tuple[int, ...], int]] = [((u,), 0) for u in uids.get(card, ())]
            if hand[card]:
                options.append(((), 1))
        else:
            options = _options_for(n, uids.get(card, ()), hand[card])
        if not options:
            return []
        per_card.append(options)
    order = list(need)
    assignments = []
    for choice in itertools.product(*per_card):
        taken: list[int] = []
        hand_cards: list[int] = []
        for card, (combo, from_hand) in zip(order, choice, strict=True):
            if combo:
                taken.extend(combo)
            if from_hand:
                hand_cards.extend([card] * from_hand)
        assignments.append(Assignment(tuple(taken), tuple(hand_cards)))
    if len(assignments) > 1:
        assignments.sort(key=lambda a: -len(a.tabled))
    return assignments


def table_signature(tables: Sequence[Sequence[TabledCard]]) -> tuple[object, ...]:
    """What the re-use rules can still tell apart in the seats' tables: each tabled card with what it was scored in,
    its combinations and partners named by card (a card since played named -1), not by uid. Two choices of
    identical copies that leave the same signature leave the same declarations legal (issue 25 item 12)."""
    card_of = {t.uid: t.card for table in tables for t in table}
    seats = []
    for table in tables:
        described = []
        for t in table:
            combinations = tuple(
                sorted(
                    (kind, tuple(sorted(tuple(sorted(card_of.get(u, -1) for u in c)) for c in combos)))
                    for kind, combos in t.declared_with.items()
                )
            )
            partners = tuple(sorted(card_of.get(u, -1) for u in t.partners))
            described.append(
                (t.card, tuple(sorted(t.classes)), tuple(sorted(t.scored_at.items())), combinations, partners)
            )
        seats.append(tuple(sorted(described)))
    return tuple(seats)


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
        t.declared_with.setdefault(spec.kind, []).append(frozenset(others))
        if spec.marriage:
            t.partners.update(others)


def reuse_problem(
    rules: Rules, spec: MeldSpec, assignment: Assignment, tabled: Sequence[TabledCard], trick: int
) -> Breach | None:
    """Why this use of cards breaks the profile's re-use rule; None when it is allowed.

    Modes (RULES.md §2.a rule 14): ``text_with_remarriage``, ``strict_text``, ``new_card_refill``; ``refill``, the
    multi-pack games' rule (see :func:`_refill_problem`); ``refill_swap``: ``refill`` and the marriage swap of §2.e
    rule 11 (:func:`_swap`); and ``higher_other_kind`` (RULES.md §2.d rule 13, 004:L181): a declared card serves again
    only in a meld of another kind worth more than every meld it was scored in. ``no_reuse`` lists (kind, earlier
    kind) pairs: a card scored in the earlier kind may not be used in the kind (an option of RULES.md §2.b rule 13 for
    double marriages). ``tabled`` is the declaring side's whole table. ``trick`` is the trick just won: under
    ``higher_other_kind``, combinations laid out together after it are not "already declared" for one another
    (004:L185: K♠ Q♠ J♦ score the bezique now and the marriage after the next trick), whatever order the record
    writes them in.
    """
    if not assignment.tabled and assignment.from_hand:
        return None  # (no declared card serves again: no re-use rule applies)
    by_uid = {t.uid: t for t in tabled}
    used = [by_uid[u] for u in assignment.tabled]
    mode = rules.reuse
    for t in used:
        for kind, earlier in rules.no_reuse:
            if spec.kind == kind and earlier in t.kinds:
                return ("BZ307", "reuse_forbidden_base", (t.card, earlier, spec.kind))
    if mode == "higher_other_kind":
        values = rules.meld_points
        for t in used:
            if spec.kind in t.kinds:
                return ("BZ307", "reuse_same_kind_other", (t.card, spec.kind))
            earlier_kinds = {k for k in t.kinds if t.scored_at.get(k, -1) < trick}
            best = max((values.get(k, 0) for k in earlier_kinds), default=0)
            if earlier_kinds and spec.points <= best:
                earlier = max(earlier_kinds, key=lambda k: values.get(k, 0))
                return ("BZ307", "reuse_not_higher", (t.card, earlier, best, spec.kind, spec.points))
        return None
    if mode == "refill_swap" and _swap(spec, assignment, used, by_uid):
        return None
    if not assignment.from_hand and all(spec.klass in t.classes for t in used):
        return ("BZ306", "no_new_card", (spec.kind, tuple(t.card for t in used), spec.klass))
    if mode == "new_card_refill":
        return None
    if mode in ("refill", "refill_swap"):
        return _refill_problem(spec, used, by_uid)
    on_table = set(by_uid)
    for t in used:
        if spec.kind not in t.kinds:
            continue
        if mode == "text_with_remarriage" and spec.marriage and not (t.partners & on_table):
            continue  # re-marriage: its first partner has been played (the worked deal, trick 22)
        return ("BZ307", "reuse_same_kind", (t.card, spec.kind))
    return None


def _refill_problem(spec: MeldSpec, used: Sequence[TabledCard], by_uid: dict[int, TabledCard]) -> Breach | None:
    """The re-use rule of the multi-pack games (Rubicon, six, eight packs), written once from four seed lines.

    A declared card stays playable and "одна и та же карта может учитываться в разных комбинациях" (000:L457): it may
    serve in a combination of another kind at will. In a combination of a kind it was already scored in, it may serve
    again only as a refill: "Карта, которую однажды засчитали, не может быть использована для формирования еще
    одной такой же комбинации" (000:L49), unless "игрок ходит с карты, лежащей в заявленной комбинации" and "эта
    комбинация может быть дополнена подходящей картой и засчитана снова" (000:L315; 001:L65 "якщо дама, яка
    входить в комбінацію з чотирьох дам, використана в грі, то інша дама може бути додана"). So: every combination
    of this kind the card was scored in has lost a card to a play (a combination still whole may not be scored
    again, in whole or in part), and the new combination adds a card never scored in this kind (from the hand or
    from the table). A re-marriage after the partner was played is such a refill.
    """
    # (The card never scored in this kind is asked for by the class rule before this, BZ306: a kind is in one class.)
    for t in used:
        for combination in t.declared_with.get(spec.kind, ()):
            if combination <= by_uid.keys():
                return ("BZ307", "reuse_intact", (t.card, spec.kind))
    return None


def extends_problem(spec: MeldSpec, assignment: Assignment, table: Sequence[TabledCard]) -> Breach | None:
    """A kind that adds a card to a declared one needs all its other cards already scored in that kind."""
    if spec.extends is None:
        return None
    by_uid = {t.uid: t for t in table}
    scored = sum(1 for u in assignment.tabled if spec.extends in by_uid[u].kinds)
    if scored >= spec.size - 1:
        return None
    return ("BZ304", "extends_too_few", (spec.kind, spec.extends, spec.size - 1, scored))


def _swap(spec: MeldSpec, assignment: Assignment, used: Sequence[TabledCard], by_uid: dict[int, TabledCard]) -> bool:
    """The Rubicon marriage swap (RULES.md §2.e rule 11, 000:L319): "если игрок заявляет два марьяжа одной масти, он
    может поменять местами королей и дам, выложенных на столе, и заявить еще два". A king and a queen on the table,
    each married once so far, to partners still on the table, are married to each other without a new card. Each
    card is swapped once: the two marriages give "еще два", not every pairing of their cards (issue 25 item 13)."""
    if not spec.marriage or assignment.from_hand or len(used) != 2:
        return False
    first, second = used
    return (
        spec.kind in first.kinds
        and spec.kind in second.kinds
        and len(first.partners) == 1
        and len(second.partners) == 1
        and second.uid not in first.partners
        and first.partners <= by_uid.keys()
        and second.partners <= by_uid.keys()
    )
