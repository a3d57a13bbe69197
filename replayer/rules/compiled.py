"""A profile and a game's options compiled once into :class:`Rules`, the one object every rule reads.

Every option of a profile is data: its value's ``sets`` are merged into the profile (``RuleProfile.with_options``)
before anything is compiled, so no rule asks for an option by name. The one option read here by name is ``target``,
the score a game is played to, because it is a number rather than a choice.

Cards are ints (``Card.index``: ``suit * 8 + rank``, the wild card 32), seats and scorers are their indices in the
profile's ``seats`` and ``scorers``. The tables below are indexed by them, so that a rule costs a list look-up.
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import permutations

from ..cards import CARD_INDICES, CARDS, SUITS, WILD_INDEX, Rank
from ..profile import GameScoring, MeldSpec, RuleProfile

__all__ = [
    "FOLLOW",
    "FOLLOW_TRUMP",
    "FOLLOW_WIN_OVERTRUMP",
    "FOLLOW_WIN_TRUMP",
    "FREE",
    "Rules",
    "compile_rules",
]

FREE, FOLLOW, FOLLOW_TRUMP, FOLLOW_WIN_TRUMP, FOLLOW_WIN_OVERTRUMP = range(5)
"""The play rules of a phase: any card; follow suit; follow suit, else any trump (001:L7, 004:L61); follow suit and
win, else trump, over-trumping if able (RULES.md §2.a rule 18, §2.g.1 rule 7); follow suit and win, else win by
trumping if able, else any card (RULES.md §2.f rule 7, [BR9]: the third hand may discard)."""
_PLAY_RULES = {
    "free": FREE,
    "follow_trump": FOLLOW_TRUMP,
    "follow_win_trump": FOLLOW_WIN_TRUMP,
    "follow_win_overtrump": FOLLOW_WIN_OVERTRUMP,
}
COURT = tuple(card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK) for card in CARDS)
"""Whether each card is a court card (a figure), which a carte blanche may not hold."""
_SEVEN = int(Rank.SEVEN)


class Rules:
    """The rules of one game: its profile with the game's options merged in, worked out into the tables the rules
    core reads. Immutable by convention; made by :func:`compile_rules`, which keeps one per profile and options."""

    def __init__(self, profile: RuleProfile, options: Mapping[str, str | int]) -> None:
        self.named = profile
        """The profile as the record names it, before the options."""
        self.options = dict(options)
        p = self.profile = profile.with_options(options)
        """The profile as the game plays it, every option's ``sets`` merged in."""
        self.name = p.name
        seats = self.seats = p.seats
        players = self.players = len(seats)
        self.seat_index = {seat: i for i, seat in enumerate(seats)}
        self.next_seat = [(i + 1) % players for i in range(players)]
        self.order = [[(first + k) % players for k in range(players)] for first in range(players)]
        """The seats in playing order from each seat."""
        self.dealer_sits_out = p.sit_out == "dealer"
        """With four at the table the dealer deals to the other three and sits the hand out (004:L117): a deal's
        own playing order (``DealState.next_seat``, ``DealState.order``) leaves him out."""
        self.playing = p.playing
        """The seats that play a hand."""
        self.first_leader_step = -1 if p.first_leader == "dealer_right" else 1
        """Who leads to trick 1: the seat after the dealer in playing order, or before him (RULES.md §2.f rule 5)."""

        # Scores: every seat for himself, or sides (``N+S``) that keep one score.
        self.scorers = p.scorers
        self.scorer = [p.scorers.index(p.scorer(seat)) for seat in seats]
        """The index in ``scorers`` of each seat's score."""
        self.has_sides = bool(p.sides)
        self.sides = tuple(tuple(self.seat_index[s] for s in side) for side in p.sides)
        self.partner = [self.seat_index[q] if (q := p.partner(seat)) is not None else -1 for seat in seats]
        self.mates = [[other for other in range(players) if self.scorer[other] == own] for own in self.scorer]
        """The seats of each seat's side (itself alone where everyone scores for himself), in seat order."""
        scorer_of_text = {
            "+".join(written): self.scorer[self.seat_index[side[0]]]
            for side in p.sides
            for written in permutations(side)
        }
        scorer_of_text.update((seat, self.scorer[i]) for i, seat in enumerate(seats))
        self.scorer_of_text = scorer_of_text
        """A score's key as a record writes it: a seat (standing for its side too), or a side in any order."""

        # The deck.
        self.copies = [p.copies(card) for card in CARDS]
        self.hand_size = p.hand_size
        self.turnup = p.turnup
        self.face_down = p.stock_size - (1 if p.turnup else 0)
        """Face-down cards of the stock after the deal (the turn-up not counted)."""
        self.phase1_tricks = p.phase1_tricks
        self.total_tricks = p.total_tricks

        # Tricks.
        self.phase1_play = _PLAY_RULES.get(p.phase1_play, FOLLOW)
        self.phase2_play = _PLAY_RULES.get(p.phase2_play, FOLLOW)
        self.winner_draws_first = p.draw_order == "winner_first"
        self.brisque = [card.rank in p.brisque_ranks and card.index != WILD_INDEX for card in CARDS]
        self.brisque_points = p.brisque_points
        points = dict(p.card_points)
        self._values = [points.get(card.rank, 0) if card.index != WILD_INDEX else 0 for card in CARDS]
        self.trump_seven_value = p.card_points_trump_seven
        self.points_at_trick = bool(p.card_points) and p.card_points_when == "trick"
        self.points_at_end = bool(p.card_points) and p.card_points_when == "end"
        self.last_trick = p.phase1_tricks if p.last_trick_at == "stock_end" else p.total_tricks
        """The trick whose winner scores ``last_trick_points``."""
        self.last_trick_points = p.last_trick_points
        self.last_trick_halves = p.last_trick_to == "halves" and bool(p.sides)

        # The trump seven (or the card ``seven.rank`` names) and the turn-up.
        self.exchange_rank = int(p.seven_rank)
        self.seven_turnup = p.seven_turnup
        self.seven_exchange = p.seven_exchange
        self.seven_second = p.seven_second
        self.sevens_to_show = max(p.copies(CARDS[_SEVEN]) - 1, 1) if p.seven_second_each else 1
        """How many other trump sevens may be shown and scored in a deal (the turn-up's, or the exchanged, is not)."""
        self.seven_played = p.seven_played
        self.seven_played_phases = frozenset(p.seven_played_phases)
        self.seven_played_must_win = p.seven_played_must_win
        self.exchange_any_time = p.seven_exchange_when == "any_time"
        self.exchange_exists = not p.seven_exchange_players or p.playing in p.seven_exchange_players
        """The exchange is part of this game (004:L115 names it for three players; an option limits it to them)."""
        self.gained_waits = p.seven_gained == "later"
        """The card gained by the exchange may not go into a declaration after the same trick ([EW] iii)."""

        # Declarations.
        self.melds = p.melds
        self.meld_by_kind = {m.kind: m for m in p.melds}
        self.meld_points = {m.kind: m.points for m in p.melds}
        self.declare_phases = frozenset(p.declare_phases)
        self.declare_until_draw = p.declare_until == "draw"
        self.declare_by_partner = p.declare_by == "winner_or_partner"
        self.declare_joint = p.declare_joint
        self.declare_after_tricks = p.declare_after_tricks
        self.declare_wait_kinds = frozenset(p.declare_wait_kinds)
        self.one_per_trick = p.declare_per_trick == "one"
        self.lead_from = p.declare_lead_from
        self.reuse = p.reuse
        self.no_reuse = p.no_reuse
        self.repeat_rule = p.repeat_rule
        self.fixing = dict(p.trump_fixing)
        """Without a turn-up: the kinds whose first declaration fixes trumps, with what it scores then."""
        self.identified: dict[tuple[tuple[int, ...], int], tuple[MeldSpec, ...]] = {}
        """The melds that cards form with a trump suit, as :func:`replayer.rules.melds.identify` found them."""
        self._exact: dict[tuple[str, int], tuple[int, ...]] = {}
        self.targets: dict[tuple[str, int], list[tuple[tuple[int, ...], tuple[tuple[int, int], ...]]]] = {}
        """The exact card sets each meld can be under each trump suit, each with its cards counted (the core's
        meld enumeration fills it as it asks)."""
        self.sketches: dict[
            int,
            tuple[tuple[tuple[int, int], ...], tuple[tuple[int, ...], ...], tuple[tuple[int, int, int, int, int], ...]],
        ] = {}
        """Per trump suit, what any meld needs at least (:func:`replayer.rules.melds.may_form_any`)."""

        # The end of a hand and of a game.
        self.hand_target = p.hand_target
        self.game_points = p.game_points
        self.played_out_wins = p.played_out == "last_trick_wins"
        self.next_dealer = p.next_dealer
        self.checks_dealer = profile.next_dealer != "alternate"
        """Only a profile with a rule for the next dealer (sixty-six) checks the dealer a record names, whatever the
        value of its option; the others let a record name any dealer."""
        self.game_scoring: GameScoring | None = p.game_scoring
        self.brisques_conditional = p.brisques_when == "tie_or_rubicon" and p.game_scoring is not None
        self.cut_bonus = p.cut_bonus
        self.penalties = dict(p.penalties)
        self.tie_by_last_trick = p.tie_rule == "last_trick"
        self.claim = p.claim
        """When a player may claim the game: ``none``, ``stock_out`` (002:L16), ``hand_end`` (004:L63, L333)."""
        self.false_claim_loses = p.false_claim == "loses_game"
        self.forfeit = p.forfeit
        self.redeal = p.redeal
        target = options.get("target")
        self.target = target if isinstance(target, int) else None
        """The score the game is played to (None: one hand is the game, or the profile counts game points)."""

    def values(self, trump: int) -> list[int]:
        """The card points of each card in a won trick under these trumps (-1: none yet)."""
        if not self.trump_seven_value or trump < 0:
            return self._values
        values = list(self._values)
        values[trump * 8 + _SEVEN] = self.trump_seven_value
        return values

    def exact(self, spec: MeldSpec, trump: int) -> tuple[int, ...]:
        """The exact cards of a fixed or trump-relative meld under these trumps (empty for other patterns)."""
        key = (spec.kind, trump)
        found = self._exact.get(key)
        if found is None:
            found = self._exact[key] = tuple(c.index for c in spec.cards_for(SUITS[trump] if trump >= 0 else None))
        return found

    def scorer_named(self, written: str) -> int:
        """The score a record's seat or side names (``N``, ``N+S``, ``S+N``); -1 when it names none of this game."""
        return self.scorer_of_text.get(written, -1)


_COMPILED: dict[tuple[int, tuple[tuple[str, str | int], ...]], tuple[RuleProfile, Rules]] = {}


def compile_rules(profile: RuleProfile, options: Mapping[str, str | int]) -> Rules:
    """The rules of ``profile`` played with ``options`` (resolved: every option of the profile has a value), compiled
    once per profile and options."""
    key = (id(profile), tuple(sorted((name, value) for name, value in options.items())))
    found = _COMPILED.get(key)
    if found is None or found[0] is not profile:
        found = _COMPILED[key] = (profile, Rules(profile, options))
    return found[1]


assert len(CARDS) == CARD_INDICES
