"""The better player of ``bezique generate --player solver``: a heuristic for the first phase, the solver for the last
tricks.

While the stock lasts, the player does not know the other hand, and plays by a few rules of thumb, the ones the card
books teach:

1. **Keep brisques and meld cards.** Every card has a keeping value: its points in a won trick (the brisques, or the
   card points), a share of each combination it may still form with the cards held (a king beside its queen is worth
   part of the marriage, the Q♠ beside the J♦ part of the bezique, three aces part of the four aces), a bonus for a
   trump, and, while the turn-up can still be taken, a large one for the card exchanged for it (the trump seven);
   a seven that can no longer be exchanged (the turn-up drawn, or itself a seven) gets none: a dead seven.
   A card thrown away is the one of least keeping value.
2. **Win tricks to declare.** Only the winner of a trick declares: holding a combination not yet scored, the player
   leads his surest winner (his highest trump, else an ace; with neither, his least valuable card) and, second to
   play, wins the trick with the card of least keeping value that wins it.
3. **Take what is worth taking.** Second to play, he wins a trick that holds points (a brisque led) when he can do so
   with a card worth less than what he takes; otherwise he throws his least valuable card.
4. **Lead to draw out trumps.** Holding four trumps or more and nothing to declare, he leads his smallest trump, so
   that the other hand's trumps fall before the last tricks; otherwise he leads his least valuable card. A trump
   seven whose play scores (classic: 10 in the first phase) is led as soon as the exchange is past.
5. He always exchanges the trump seven, always declares when he may (the combination worth most), and always
   declares a carte blanche.

Once the stock is empty both hands are known, and the solver (replayer/solver.py) plays the last tricks perfectly:
each card it plays keeps the optimum. Every choice is among the cards the core allows (the chooser is handed the
legal cards); nothing here decides a rule.
"""

from __future__ import annotations

from .cards import CARD_INDICES, CARDS, Card, Rank, card_index, rank_of, suit_of
from .engine import EngineState
from .profile import MeldSpec
from .rules.compiled import Rules
from .rules.deal import DealState, exchange_card, trick_winner
from .rules.endgame import Endgame, NotCovered, move_card
from .rules.melds import meld_targets, trumps_to_try
from .solver import OverBudget, Solver

__all__ = ["better_card", "choose_declaration", "choose_play", "heuristic_card", "keeping_values"]

_BUDGET = 200_000
"""Nodes the solver may visit for one card of the last tricks (past it, the heuristic plays)."""


_EXCHANGE_KEEP = 50.0
"""The keeping value added to the card exchanged for the turn-up while the exchange is still to come."""


_PATTERNS: dict[tuple[int, int], tuple[Rules, list[tuple[int, tuple[int, ...], int, bool]]]] = {}


def _patterns(rules: Rules, trump: int) -> list[tuple[int, tuple[int, ...], int, bool]]:
    """Each card set a meld can be declared in under these trumps (before trumps are fixed, in each suit a first
    declaration would fix), as the core enumerates them (``trumps_to_try``, ``meld_targets``): (points, its
    distinct cards, the cards it needs, whether it is n of a kind, counted over the rank's four suits). Kept per
    rules and trump suit (by the rules' identity, hashing them costs more than the work): a playout asks at every
    card."""
    kept = _PATTERNS.get((id(rules), trump))
    if kept is not None and kept[0] is rules:
        return kept[1]
    found = []
    for spec in rules.melds:
        if spec.hand:
            continue
        of_a_kind = bool(spec.count and spec.rank is not None)
        for cards, _ in (target for t in trumps_to_try(rules, spec, trump) for target in meld_targets(rules, spec, t)):
            if of_a_kind:
                # (the core gives the first n suits of the rank; any n of its four suits form the meld)
                distinct = tuple(sorted({card_index(suit, rank_of(cards[0])) for suit in range(4)}))
                found.append((spec.points, distinct, spec.count, True))
            else:
                distinct = tuple(sorted(set(cards)))
                found.append((spec.points, distinct, len(distinct), False))
    _PATTERNS[(id(rules), trump)] = (rules, found)
    return found


_BASE: dict[tuple[int, int], tuple[Rules, list[float]]] = {}


def _base_values(rules: Rules, trump: int) -> list[float]:
    """Each card's keeping value before the hand is looked at: its points in a won trick, a little for its rank, a
    bonus for a trump. Worked out once per rules and trump suit (kept by the rules' identity)."""
    kept = _BASE.get((id(rules), trump))
    if kept is not None and kept[0] is rules:
        return kept[1]
    values = rules.values(trump)
    base = [0.0] * CARD_INDICES
    for card in range(CARD_INDICES):
        if card >= 32:
            base[card] = 6.0  # (the wild card stands for any card of a combination)
            continue
        worth = values[card] + (rules.brisque_points if rules.brisque[card] else 0)
        base[card] = worth + rank_of(card) * 0.1 + (3.0 if suit_of(card) == trump else 0.0)
    _BASE[(id(rules), trump)] = (rules, base)
    return base


def keeping_values(deal: DealState, seat: int) -> list[float]:
    """Each card's keeping value for ``seat`` now (rule 1 of the module docstring), indexed by card int."""
    rules = deal.rules
    trump = deal.trump
    held = deal.held[seat]
    keep = list(_base_values(rules, trump))
    count = held.__getitem__
    for points, cards, size, of_a_kind in _patterns(rules, trump):
        # (the counts summed in C: this is asked at every card of a playout)
        have = min(sum(map(count, cards)), size) if of_a_kind else sum(map(bool, map(count, cards)))
        if have * 2 < size or have == 0:
            continue
        share = points * have / size / size
        for c in cards:
            if held[c]:
                keep[c] += share
    exchange = _exchange_ahead(deal)
    if exchange:
        keep[exchange_card(rules, trump)] += exchange  # taken for the turn-up (or shown) at the next won trick
    elif trump >= 0 and rules.seven_played and 1 in rules.seven_played_phases and not rules.seven_played_must_win:
        keep[card_index(trump, 0)] -= 20.0  # (the seven) its play scores: out with it
    return keep


def _exchange_ahead(deal: DealState) -> float:
    """What keeping the trump seven (the card exchanged for the turn-up) is still worth: the exchange's keeping value
    while the turn-up waits and is not itself that card, the points of showing it where the profile scores a second
    seven not yet shown; 0 once neither can happen (a dead seven: the turn-up drawn, or already a seven)."""
    rules = deal.rules
    trump = deal.trump
    if trump < 0 or not deal.turnup_waiting or deal.turnup < 0 or not rules.exchange_exists:
        return 0.0
    seven = exchange_card(rules, trump)
    if deal.turnup != seven:
        return _EXCHANGE_KEEP if rules.seven_exchange else 0.0
    return float(rules.seven_second) if deal.sevens_shown < rules.sevens_to_show else 0.0


def _has_declaration(deal: DealState, seat: int) -> bool:
    """Whether ``seat`` holds a combination he could score after winning a trick (asked of the core)."""
    if 1 not in deal.rules.declare_phases:
        return False
    # The question is asked of the deal itself, as if the seat had just won a trick (the core's answer reads these
    # fields and changes nothing), and the fields are put back: a copy of the deal would cost more than the answer.
    saved = (deal.winner, deal.window_open, deal.declared, deal.declarer, deal.to_draw)
    deal.winner, deal.window_open, deal.declared, deal.declarer, deal.to_draw = seat, True, [], -1, []
    try:
        return deal.can_declare(seat)
    finally:
        deal.winner, deal.window_open, deal.declared, deal.declarer, deal.to_draw = saved


def _solved(deal: DealState, legal: list[int]) -> int | None:
    """The solver's card in the last tricks (None where it does not cover the position or runs out of budget)."""
    try:
        pos = Endgame.of(deal)
        best = Solver(_BUDGET).best(pos)
    except (NotCovered, OverBudget):
        return None
    for move in best:
        if move_card(move) in legal:
            return move_card(move)
    return None


def choose_play(state: EngineState, seat_name: str, legal_cards: list[Card]) -> Card:
    """The card the better player plays (a :data:`replayer.generate.PlayChooser`)."""
    deal = state.core
    return CARDS[better_card(deal, deal.rules.seat_index[seat_name], [c.index for c in legal_cards])]


def better_card(deal: DealState, seat: int, legal: list[int]) -> int:
    """The better player's card (ints): the solver's in the last tricks where it covers them, else the heuristic's."""
    if deal.phase == 2:
        found = _solved(deal, legal)
        if found is not None:
            return found
    return heuristic_card(deal, seat, legal)


def heuristic_card(deal: DealState, seat: int, legal: list[int]) -> int:
    """The card the rules of thumb of the module docstring play for ``seat`` among the ``legal`` cards (ints): the
    better player's choice while the stock lasts, and the sampled analysis's playout policy."""
    rules = deal.rules
    keep = keeping_values(deal, seat)
    trump = deal.trump
    cheapest = min(legal, key=lambda c: (keep[c], c))
    # The core's answer to "holds a combination" costs more than the rest of the choice: it is asked only where
    # the card it picks differs from the one played without it.
    if not deal.plays:
        trumps = [c for c in legal if suit_of(c) == trump]
        held = deal.held[seat]
        if trump >= 0 and sum(1 for rank in range(8) if held[card_index(trump, rank)]) >= 4 and trumps:
            usual = min(trumps, key=lambda c: (keep[c], c))
        else:
            usual = cheapest
        # (not the seven kept for the turn-up: led, it is gone before the exchange)
        sure = [c for c in trumps if keep[c] < _EXCHANGE_KEEP] or [c for c in legal if rank_of(c) == int(Rank.ACE)]
        if sure:  # (no sure winner: a card of little value, as on any lead)
            winner = max(sure, key=lambda c: (rank_of(c), -keep[c]))
            if winner != usual and _has_declaration(deal, seat):
                return winner
        return usual
    played = [c for _, c in deal.plays]
    winners = [c for c in legal if trick_winner([*played, c], trump) == len(played)]
    if winners:
        cheapest_win = min(winners, key=lambda c: (keep[c], c))
        if cheapest_win == cheapest:
            return cheapest
        values = rules.values(trump)
        on_table = sum(values[c] + (rules.brisque_points if rules.brisque[c] else 0) for c in played)
        if on_table > keep[cheapest_win] - 3.0 or _has_declaration(deal, seat):
            return cheapest_win
    return cheapest


def choose_declaration(
    state: EngineState, seat: str, offers: list[tuple[MeldSpec, tuple[Card, ...]]]
) -> tuple[MeldSpec, tuple[Card, ...]] | None:
    """The combination the better player declares: always one, the one worth most (a
    :data:`replayer.generate.DeclarationChooser`)."""
    if not offers:
        return None
    return max(offers, key=lambda offer: offer[0].points)
