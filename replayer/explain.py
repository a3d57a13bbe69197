"""The rules core seen in cards and words: the message of every rule a record can break, and the scores it books.

The core (:mod:`replayer.rules`) records a broken rule as ``(code, key, args)`` and a score as ``(seat, kind, cards,
points)``: cards and seats as ints, as it counts them. This module is where they become the sentences a transcriber
reads (``N plays 9C but must follow suit: holds KS 7S of the spades led``) and the :class:`Scoring` values a view
shows; they are made only for a rule that was broken, or for a view that asks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .cards import CARDS, SUITS, Card
from .rules import Breach, Event, Rules

__all__ = ["WINNING_REASONS", "Scoring", "explain", "meld_label", "ordinal", "scoring"]


class Scoring:
    """Points scored: a declaration, a seven, the last trick, brisques. Immutable.

    A plain class rather than a dataclass: see replayer/errors.py (a validation's start loads no ``dataclasses``).
    """

    __slots__ = ("cards", "kind", "points", "seat")

    seat: str
    kind: str
    cards: tuple[Card, ...]
    points: int

    def __init__(self, seat: str, kind: str, cards: tuple[Card, ...], points: int) -> None:
        object.__setattr__(self, "seat", seat)
        object.__setattr__(self, "kind", kind)
        object.__setattr__(self, "cards", cards)
        object.__setattr__(self, "points", points)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}")

    def _fields(self) -> tuple[str, str, tuple[Card, ...], int]:
        return (self.seat, self.kind, self.cards, self.points)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Scoring):
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        seat, kind, cards, points = self._fields()
        return f"Scoring(seat={seat!r}, kind={kind!r}, cards={cards!r}, points={points!r})"


WINNING_REASONS = {
    "wild": "the wild card wins no trick",
    "trump": "the highest trump",
    "first_copy": "of identical cards the first played wins",
    "suit_led": "the highest card of the suit led",
}
"""Why a trick's card wins, in words (the keys of :func:`replayer.rules.deal.winning_reason`)."""


def scoring(rules: Rules, event: Event) -> Scoring:
    """A score the core booked, in cards and seat names."""
    seat, kind, cards, points = event
    return Scoring(rules.seats[seat], kind, tuple(CARDS[c] for c in cards), points)


def _card(index: int) -> str:
    return str(CARDS[index])


def _cards(indices: Iterable[int]) -> str:
    return " ".join(str(CARDS[i]) for i in indices)


def meld_label(kind: str) -> str:
    """A meld kind as words: ``royal_marriage`` is "royal marriage"."""
    return kind.replace("_", " ")


def ordinal(n: int) -> str:
    """``1st``, ``2nd``, ``3rd``, ``4th``, ... ``11th``, ``21st``."""
    return f"{n}{'th' if 10 <= n % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(n % 10, 'th')}"


_CLASS_NAMES = {"M": "marriage or sequence", "B": "bezique", "F": "four of a kind", "S": "trump-seven combination"}


_DEALER_RULES = {
    "alternate": "the deal passes in turn",
    "no_winner": "the deal passes in turn when nobody won the hand before (inferred)",
    "redeal": "a misdeal is dealt again by the same dealer",
}
"""Which rule names the next dealer (:meth:`replayer.rules.GameState.dealer_rule`), in words; the others are ``the
winner (loser) of the hand before deals next``."""


def _class_name(klass: str) -> str:
    return _CLASS_NAMES.get(klass, f"class {klass}")


def _court_holder(rules: Rules, seat: int, courts: tuple[int, ...]) -> str:
    return f"{rules.seats[seat]} holds {_cards(courts) or 'unknown cards'}"


# Each message takes the rules and the breach's args, in the order the core records them.
_MESSAGES: dict[str, Callable[..., str]] = {
    # The deal.
    "no_trumps_at_deal": lambda r: (
        f"the {r.name} profile has no trumps at the deal: the first marriage or sequence declared fixes them"
    ),
    "wild_turnup": lambda r: "the wild card has no suit and cannot be turned up (004:L157)",
    "turnup_not_trumps": lambda r, turnup, trump: (
        f"the turn-up {_card(turnup)} fixes trumps as {CARDS[turnup].suit.english}, "
        f"not {SUITS[trump].english if trump >= 0 else 'none'}"
    ),
    "hand_size": lambda r, seat, n: f"{r.seats[seat]} is dealt {n} cards; the {r.name} profile deals {r.hand_size}",
    "sits_out": lambda r, seat, n: (
        f"{r.seats[seat]} deals and sits this hand out (the dealer deals to the other three, 004:L117), but is dealt "
        f"{n} cards"
    ),
    "position_hand": lambda r, seat, n, size: (
        f"{r.seats[seat]} holds {n} cards at this position (hand and table); at this trick a hand holds {size}"
    ),
    "position_stock": lambda r, n, trick, left: (
        f"the position says {n} cards are left to draw before trick {trick}; the {r.name} profile leaves {left}"
    ),
    "position_listed": lambda r, n, trick, left: (
        f"the stock lists {n} face-down cards; {left} are left before trick {trick} (the turn-up apart)"
    ),
    "stock_size": lambda r, n: f"the stock lists {n} face-down cards; {r.face_down} remain after the deal",
    "not_in_pack": lambda r, card: f"{_card(card)} is not in the {r.name} pack",
    "too_many_copies": lambda r, card, n, copies: f"{_card(card)} appears {n} times; the {r.name} deck holds {copies}",
    # Tricks.
    "draws_due": lambda r, n, seats, left: (
        f"no draws after trick {n}: {' and '.join(r.seats[s] for s in seats)} must draw before the next trick "
        f"(the stock has {left} cards)"
    ),
    "leads": lambda r, expected, n, seat: f"{r.seats[expected]} leads to trick {n}, not {r.seats[seat]}",
    "plays_next": lambda r, expected, n, seat: f"{r.seats[expected]} plays next to trick {n}, not {r.seats[seat]}",
    "no_more_tricks": lambda r, total: f"the hand has only {total} tricks",
    "hand_over": lambda r, out, target, n: (
        f"the hand is over: {r.seats[out]} reached {target} after trick {n}, which ends it"
    ),
    "hand_over_claimed": lambda r, seat, n: (
        f"the hand is over: {r.seats[seat]} rightly claimed the game after trick {n}"
    ),
    "must_lead": lambda r, seat, cards: (
        f"{r.seats[seat]} must lead a card of the combination he declared: {' or '.join(_card(c) for c in cards)}"
    ),
    # (Held: in hand or on the table. Never a card left unknown: a deal is replayed once its unknown cards are
    # completed, and a completion holds every card played, else the deal is not replayed: BZ601.)
    "not_held": lambda r, seat, card, holding: (
        f"{r.seats[seat]} plays {_card(card)} but does not hold it: "
        f"{r.seats[seat]} holds {_cards(holding) or 'nothing'}"
    ),
    "must_win": lambda r, seat, card, best, top: (
        f"{r.seats[seat]} plays {_card(card)} but must win the trick: holds {_card(best)} which beats {_card(top)}"
    ),
    "must_follow": lambda r, seat, card, same, led: (
        f"{r.seats[seat]} plays {_card(card)} but must follow suit: holds {_cards(same)} of the "
        f"{SUITS[led].english} led"
    ),
    "must_trump": lambda r, seat, card, led, trumps: (
        f"{r.seats[seat]} plays {_card(card)} but must trump: void in {SUITS[led].english}, holds {_cards(trumps)}"
    ),
    "wrong_winner": lambda r, winner, n, card, reason, stated: (
        f"wrong trick winner: {r.seats[winner]} wins trick {n} with {_card(card)} ({WINNING_REASONS[reason]}), "
        f"not {stated}"
    ),
    "claim_none": lambda r, seat, kind, happened: (
        f"{r.seats[seat]} scores no {kind.replace('_', ' ')} in this trick (automatic scores here: "
        + (", ".join(f"{r.seats[s]} {k.replace('_', ' ')} {p}" for s, k, p in happened) or "none")
        + ")"
    ),
    "claim_points": lambda r, kind, points, scored: (
        f"{kind.replace('_', ' ')} claimed for {points}, the {r.name} profile scores {scored}"
    ),
    # Draws.
    "draw_exhausted": lambda r, seat, card: f"{r.seats[seat]} draws {_card(card)} but the stock is exhausted",
    "draw_not_due": lambda r, seat, card: (
        f"{r.seats[seat]} draws {_card(card)} but no draw is due (draws follow a trick)"
    ),
    "draw_order": lambda r, first, seat, n: (
        f"{r.seats[first]} draws before {r.seats[seat]} after trick {n}: the trick's "
        f"{'winner' if r.winner_draws_first else 'leader'} draws first"
    ),
    "draw_not_next": lambda r, seat, card, expected: (
        f"{r.seats[seat]} draws {_card(card)} but the next card of the stock is {_card(expected)}"
    ),
    "draw_not_turnup": lambda r, seat, card, turnup: (
        f"{r.seats[seat]} draws {_card(card)} but the last card is the turn-up, {_card(turnup)}"
    ),
    # Who may declare, and when.
    "window_hand_over": lambda r, seat, what, out, target: (
        f"{r.seats[seat]} cannot {what}: the hand is over ({r.seats[out]} reached {target})"
    ),
    "window_phase_2": lambda r, what, n: (
        f"{what} after trick {n}: no declarations once the stock is exhausted (phase 2)"
    ),
    "window_closed": lambda r, seat, what, until_draw: (
        f"{r.seats[seat]} cannot {what} now: only the winner of a trick, before "
        f"{'drawing' if until_draw else 'leading to the next trick'}"
    ),
    "window_passed": lambda r, winner, declarer, n, seat: (
        f"{r.seats[winner]} let {r.seats[declarer]} declare after trick {n}; {r.seats[seat]} may not"
    ),
    "window_not_winner": lambda r, seat, n, winner, what, partner_may: (
        f"{r.seats[seat]} did not win trick {n} ({r.seats[winner]} did); only the trick's winner"
        + (
            f" (or his partner {r.seats[seat]}, after '{r.seats[winner]} passes to {r.seats[seat]}')"
            if partner_may
            else ""
        )
        + f" may {what}"
    ),
    "wait_tricks": lambda r, seat, won, kind, n: (
        f"{r.seats[seat]} has won {won} trick(s); a {meld_label(kind)} may be declared only after winning "
        f"{n} tricks in the hand"
    ),
    "no_passing": lambda r: f"the {r.name} profile does not let a player pass his declaration",
    "not_partner": lambda r, partner, seat: (
        f"{r.seats[partner]} is not {r.seats[seat]}'s partner (sides: {' '.join(r.scorers)})"
    ),
    "pass_after_declaring": lambda r, seat, n: f"{r.seats[seat]} has already declared after trick {n}",
    # The trump seven.
    "exchange_mid_trick": lambda r, seat: f"{r.seats[seat]} cannot exchange the seven in the middle of a trick",
    "exchange_not_seven": lambda r, card: (
        f"only the {r.profile.seven_rank.english} of trumps is exchanged for the turn-up, not {_card(card)}"
    ),
    "exchange_no_turnup": lambda r: "there is no turn-up left to exchange",
    "exchange_not_in_game": lambda r, n: (
        f"under these options the {r.profile.seven_rank.english} of trumps is exchanged only with "
        f"{' or '.join(map(str, r.profile.seven_exchange_players))} players, not {n}"
    ),
    "gained_declared": lambda r, seat, card, kind, n: (
        f"{r.seats[seat]} gained {_card(card)} by the exchange after trick {n}: it may go into a declaration only "
        f'after a later trick, not into this {meld_label(kind)} ("the card exchanged not being used in such '
        f'declaration")'
    ),
    "exchange_turnup_is_seven": lambda r, turnup: (
        f"the turn-up is already a {r.profile.seven_rank.english} ({_card(turnup)})"
    ),
    "exchange_second_shown": lambda r: "the other seven of trumps has already been shown and scored",
    "seven_shown_twice": lambda r, seat, card: (
        f"{r.seats[seat]} has already shown his {_card(card)}: each seven of trumps held is shown once"
    ),
    "exchange_not_held": lambda r, seat, card: f"{r.seats[seat]} exchanges {_card(card)} but does not hold it",
    "exchange_points": lambda r, show, points, awarded: (
        f"{'showing the other seven' if show else 'the seven exchange'} is claimed for {points}; "
        f"the {r.name} profile scores {awarded}"
    ),
    # Declarations.
    "no_such_meld": lambda r, kind: (
        f"the {r.name} profile has no meld {kind!r} (melds: {', '.join(m.kind for m in r.melds)})"
    ),
    "whole_hand_cards": lambda r, kind: f"a {meld_label(kind)} shows the whole hand (and then each card drawn)",
    "not_this_meld": lambda r, cards, kind, actual: (
        f"{_cards(cards)} do not form a {meld_label(kind)}" + (f" (they form a {meld_label(actual)})" if actual else "")
    ),
    "not_a_meld": lambda r, cards: f"{_cards(cards)} do not form any meld of the {r.name} profile",
    "meld_not_held": lambda r, kind, missing, seat: (
        f"{meld_label(kind)} needs {_cards(missing)}, which {r.seats[seat]} does not hold (in hand or on the table)"
    ),
    "meld_points": lambda r, kind, points, value, nth: (
        f"{meld_label(kind)} claimed for {points}, the {r.name} profile scores {value}"
        + (f" (declared for the {ordinal(nth)} time)" if nth > 1 else "")
    ),
    "one_per_trick": lambda r, seat, n: (
        f"{r.seats[seat]} already scored a declaration after trick {n}; one declaration is scored per trick won "
        f"(others wait for a later trick)"
    ),
    "shared_card": lambda r: "declarations scored after one trick may not share a card",
    "no_joint": lambda r: f"the {r.name} profile does not let partners declare with each other's cards",
    "not_partner_joint": lambda r, partner, seat: (
        f"{r.seats[partner]} is not {r.seats[seat]}'s partner ({' '.join(r.scorers)})"
    ),
    "joint_none_own": lambda r, seat: (
        f"{r.seats[seat]} adds none of his own cards; his partner declares it himself after a pass"
    ),
    # Re-use of declared cards.
    "reuse_forbidden_base": lambda r, card, earlier, kind: (
        f"{_card(card)} was already scored in a {meld_label(earlier)}; under this profile's options a "
        f"{meld_label(kind)} may not be built on it"
    ),
    "reuse_same_kind_other": lambda r, card, kind: (
        f"{_card(card)} was already scored in a {meld_label(kind)}; a declared card serves again only in "
        f"another kind of combination"
    ),
    "reuse_not_higher": lambda r, card, earlier, best, kind, points: (
        f"{_card(card)} was already scored in a {meld_label(earlier)} ({best}); a declared card serves again only "
        f"in a combination worth more, not in a {meld_label(kind)} ({points})"
    ),
    "no_new_card": lambda r, kind, cards, klass: (
        f"{meld_label(kind)} adds no new card: {_cards(cards)} already scored in this class of combination "
        f"(a declaration needs at least one card not yet scored in a {_class_name(klass)})"
    ),
    "reuse_same_kind": lambda r, card, kind: (
        f"{_card(card)} was already scored in a {meld_label(kind)}; a card scores only once in each kind of combination"
    ),
    "reuse_intact": lambda r, card, kind: (
        f"{_card(card)} is still in a {meld_label(kind)} scored earlier, from which no card has been played; a "
        f"combination is scored again only after one of its cards is played, refilled with a like card (000:L49, "
        f"L315)"
    ),
    "extends_too_few": lambda r, kind, extends, n, scored: (
        f"a {meld_label(kind)} adds one card to a declared {meld_label(extends)}: {n} of its cards must already be "
        f"scored in a {meld_label(extends)} (here {scored})"
    ),
    # Carte blanche.
    "blanche_needs_partners": lambda r, kind: f"a {meld_label(kind)} needs partners; the {r.name} profile has none",
    "blanche_before_trick_1": lambda r, kind: f"a {meld_label(kind)} is declared before the first trick is played",
    "side_blanche_again": lambda r, scorer, kind: f"{r.scorers[scorer]} has already scored its {meld_label(kind)}",
    "side_blanche_court": lambda r, who, courts, kind: (
        f"{_court_holder(r, who, courts)}: a {meld_label(kind)} needs both hands without a court card"
    ),
    "blanche_court": lambda r, seat, courts, kind: (
        f"{_court_holder(r, seat, courts)}: a {meld_label(kind)} is a hand without a court card"
    ),
    "blanche_whole_hand": lambda r, kind, whole: f"a {meld_label(kind)} shows the whole hand: {_cards(whole)}",
    "blanche_ended": lambda r, seat, kind: f"{r.seats[seat]}'s {meld_label(kind)} ended with the court card he drew",
    "blanche_show_drawn": lambda r, kind: (
        f"another {meld_label(kind)} is scored by showing the non-court card just drawn, before playing again"
    ),
    "blanche_wrong_card": lambda r, seat, card: f"{r.seats[seat]} shows the card he drew, {_card(card)}",
    "blanche_points": lambda r, kind, points, value: (
        f"{meld_label(kind)} claimed for {points}, the {r.name} profile scores {value}"
    ),
    # The end of a hand.
    "deal_incomplete": lambda r, n, total: f"the deal ends after {n} tricks; a hand has {total}",
    "out_unstated": lambda r, out, target, n: (
        f"{r.seats[out]} reached {target} after trick {n}, which ends the hand: the record says so with "
        f"'{r.seats[out]} goes out'"
    ),
    "no_hand_target": lambda r: f"the {r.name} profile plays every hand out",
    "cannot_go_out": lambda r, seat, out, score, target: (
        f"{r.seats[seat]} cannot go out: "
        + (f"{r.seats[out]} went out first" if out >= 0 else f"{r.seats[seat]} has {score}, not {target}")
    ),
    "gone_out_already": lambda r, seat: f"{r.seats[seat]} has already gone out",
    "out_points": lambda r, seat, score, points: f"{r.seats[seat]} goes out with {score}, not {points}",
    # Conduct: a claim of the game, a forfeit, a redeal.
    "no_claim_rule": lambda r: f"the {r.name} profile has no rule for claiming the game",
    "claim_mid_trick": lambda r, seat: f"{r.seats[seat]} claims the game in the middle of a trick",
    "claim_stock_on_table": lambda r, seat, left: (
        f'{r.seats[seat]} claims the game while the stock is on the table ({left} cards): "ему не позволяется об '
        f'этом говорить, пока колода еще на столе" (002:L16)'
    ),
    "claim_before_hand_end": lambda r, seat, n, total: (
        f"{r.seats[seat]} claims the game after trick {n}: the game is claimed only when the hand is played out "
        f"(trick {total}; 004:L63, L333)"
    ),
    "claimed_already": lambda r, seat: f"{r.seats[seat]} has already claimed the game",
    "no_forfeit_rule": lambda r: f"the {r.name} profile has no rule forfeiting the points of an illegal play",
    "nothing_to_forfeit": lambda r, seat, n: (
        f"{r.seats[seat]} made no illegal play in trick {n}: there is nothing to forfeit (write the forfeit after "
        f"the trick of the illegal play)"
    ),
    "forfeit_points": lambda r, seat, value, points, n: (
        f"{r.seats[seat]} won {value} points by the illegal play of trick {n}, not {points}"
    ),
    "no_redeal_rule": lambda r: f"the {r.name} profile has no rule for dealing a misdeal again",
    "redeal_after_play": lambda r, n: f"a misdeal is dealt again before play, not after {n} trick(s)",
    # The end of a game.
    "game_won": lambda r, number, winner, after, target, totals: (
        f"deal {number} is played after the game was won: {r.scorers[winner]} reached the target {target} at the end "
        f"of deal {after} ({', '.join(f'{s} {v}' for s, v in zip(r.scorers, totals, strict=True))}); a game ends "
        f"with the deal in which a player reaches the target"
    ),
    "wrong_dealer": lambda r, expected, number, rule: (
        f"{r.seats[expected]} deals hand {number}: under this profile "
        f"{_DEALER_RULES.get(rule) or f'the {rule} of the hand before deals next'}"
    ),
    "no_such_winner": lambda r, said: f"{said} is not a seat or side of the {r.name} profile",
    "wrong_game_winner": lambda r, said, won, target, totals: (
        f"the record names {said} as the winner; by the rules "
        f"{f'{r.scorers[won]} wins' if won >= 0 else 'nobody has reached the target yet'} (target {target}, totals "
        f"{', '.join(f'{s} {v}' for s, v in zip(r.scorers, totals, strict=True))})"
    ),
    "one_hand_game": lambda r, number: (
        f"deal {number} is played after the game ended: under the {r.name} profile one hand is the game"
    ),
    # Penalties.
    "no_such_penalty": lambda r, kind, listed: (
        f"the {r.name} profile has no penalty {kind!r} (penalties: {', '.join(listed) or 'none'})"
    ),
    "penalty_points": lambda r, kind, seat, deducted, points: (
        f"the {kind} penalty costs {r.seats[seat]} {deducted} points here, not {points}"
    ),
}


def explain(rules: Rules, breach: Breach) -> str:
    """The message of a breach the rules core recorded under ``rules``."""
    _, key, args = breach
    return _MESSAGES[key](rules, *args)
