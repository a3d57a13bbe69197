"""A fast accept path for validation: one game's text replayed on a lean state, valid or "don't know".

Validating a record the full way builds tokens, trees, spans and record objects for every statement and replays
them through the generic engine (replayer/engine.py), which is what it takes to report a problem exactly where it
is. Most records have no problem, and most of their lines are plays, draws and stated scores. This module reads
the statements a typical record uses with a few regular expressions straight into small ints (a card is
``suit * 8 + rank``) and replays them on counts of cards, under the rules of the record's profile.

It only ever says "valid": :func:`accept` returns the number of games when every check the full path makes passes,
and None on anything it does not handle or doubts (a statement of another shape, a comment over several lines, an
unknown card, a profile feature it does not implement, any broken rule at all). The caller then runs the full path,
which reports exactly what is wrong; so the output of ``bezique validate`` is the same either way.
tests/test_quick.py checks that it never accepts what the full path rejects, over records, generated games and
mutants of them.

What it covers: profiles without a hand target or game points: with a turn-up (classic, ua2, ru19,
ruwiki), or without one and trumps fixed by the first marriage or sequence declared, with carte blanche, the six-pack
cut bonuses, brisques counted only to break a tie or to escape the rubicon, and one-hand game scoring (rubicon-000/001,
chinese-000/001, 8p-000/001, no-trump); of two seats or more, each for himself or in partnerships of two with a joint
score (three-handed, 4h-three-001, 4h-six-000: the last trick shared out, a partner let declare, a declaration with
the partner's cards, the side's double carte blanche). Statements ``game``, text headers, ``players``, ``profile``,
``deal``, ``dealer``, ``trump``, ``turnup``, ``hand``, ``cut``, ``guess``, ``trick`` (ordered), ``exchanges``,
``declares`` (``with`` the partner's cards), ``passes to``, ``draws``, ``score``, ``brisques``, ``result``,
``total``, ``game score`` and ``winner`` (of a seat or a side, ``N+S``), with comments closed on their line.
Declarations go through the meld logic of replayer/melds.py, and the one-hand game's score through
replayer/gamescore.py, as in the engine and the replay.

The many-pack game of 004-C (infuzorka) too: cards added to the packs, the wild card (``*``, an int of its own
that follows no suit, wins no trick and may not be turned up; in a declaration it stands for a card as
melds.matches() judges it), the kinds that extend a declared one (melds.extends_problem(), as the engine picks
the cards), the repeat progressions and distinct fours as the meld specs score and match them.

It imports neither Lark nor the reader, the record classes or the engine, so that a valid file is validated without
loading them.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from itertools import permutations, product

from .cards import WILD, Card, Rank, Suit
from .errors import RuleProfileError
from .gamescore import brisques_counted, game_score, game_winner
from .melds import (
    Assignment,
    TabledCard,
    choose_instances,
    extends_problem,
    identify,
    mark_scored,
    matches,
    reuse_problem,
)
from .rules import MeldSpec, RuleProfile, load_rules

__all__ = ["accept"]


class _Doubt(Exception):
    """The fast path cannot say the game is valid: the full path decides."""


_SUITS = "SHDC"
_RANK_TEXT = {"7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING}
_RANK_TEXT.update({"10": Rank.TEN, "T": Rank.TEN, "A": Rank.ACE})
_WILD = 32
"""The wild card's int (004-C's "инфузорка"): of a suit of its own, 4, that no real card has, so that it follows
no suit and trumps nothing."""
_CARD_OF_TEXT = {r + s: _SUITS.index(s) * 8 + int(rank) for r, rank in _RANK_TEXT.items() for s in _SUITS}
_CARD_OF_TEXT["*"] = _WILD
"""A card's ASCII spelling (``QS``, ``10C``, ``TC``, the wild card ``*``) as its int."""
_CARDS = [*(Card(Suit(_SUITS[i // 8]), Rank(i % 8)) for i in range(32)), WILD]
"""The card of each int."""
_SEVEN = int(Rank.SEVEN)
_COURT = [card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK) for card in _CARDS]
"""Whether each card is a court card (a figure), which a carte blanche may not hold."""

# Subsets of the grammar's statements (grammar/bezique.lark), as replayer/fastread.py reads them: ASCII spellings,
# upper case cards and seats, lower case keywords. A line of any other shape is a doubt.
_W = r"[ \t\f]*"
_G = r"[ \t\f]+"
_CARD = r"(?:(?:10|[AKQJT987])[SHDC]|\*)"
_INT = r"\d{1,9}"
_SEAT = r"[NSEW]"
_SCORER = r"[NSEW](?:\+[NSEW])?"
"""A seat, or a side of a partnership game (``N+S``)."""
# The first two plays, draws or values in groups of their own, those of more seats (rarer) as one more group.
_TRICK = re.compile(
    rf"trick{_G}({_INT}){_W}:{_W}({_SEAT}){_G}({_CARD}){_W},{_W}({_SEAT}){_G}({_CARD})"
    rf"((?:{_W},{_W}{_SEAT}{_G}{_CARD})*)(?:{_W}->{_W}({_SEAT}))?"
)
_DRAWS = re.compile(
    rf"draws?{_G}({_SEAT}){_G}({_CARD})(?:{_W},{_W}({_SEAT}){_G}({_CARD}))?((?:{_W},{_W}{_SEAT}{_G}{_CARD})*)"
)
_VALUES = re.compile(
    rf"(score|brisques|result|total|game{_G}score){_G}({_SCORER}){_G}({_INT})(?:{_W},{_W}({_SCORER}){_G}({_INT}))?"
    rf"((?:{_W},{_W}{_SCORER}{_G}{_INT})*)"
)
_EXCHANGE = re.compile(rf"({_SEAT}){_G}exchanges?{_G}({_CARD})(?:{_W}={_W}({_INT}))?")
_DECLARE = re.compile(
    rf"({_SEAT}){_G}declares?(?:{_G}(?!with\b)((?=[a-z_]{{3}})[a-z]+(?:_[a-z]+)*))?((?:{_G}{_CARD})*)"
    rf"(?:{_G}with{_G}({_SEAT})((?:{_G}{_CARD})+))?(?:{_W}={_W}({_INT}))?"
)
_PASS = re.compile(rf"({_SEAT}){_G}pass(?:es)?{_G}to{_G}({_SEAT})")
_CLAIM = re.compile(rf"({_SEAT}){_G}scores{_G}((?=[a-z_]{{3}})[a-z]+(?:_[a-z]+)*)(?:{_W}={_W}({_INT}))?")
_QUESTION = re.compile(r"\{\?([^}]*)\}")
# Questions asked one after the other before the same play (one a language, {?[ru] ...}).
_NEXT_QUESTION = re.compile(r"\s*\{\?")
# A comment's or question's leading tags ({[ru] ...}, {[note] ...}, {?[better] ...}: notation._tags).
_TAGS = re.compile(r"\{(\?)?\s*\[([^\]}]*)\]")
# Where the grammar puts a question: just before a play of a trick.
_ASKED_AT = re.compile(rf"[ \t\f]*trick{_G}{_INT}{_W}:(?:{_W}{_SEAT}{_G}{_CARD}{_W},)*{_W}")
_ASKED_OF = re.compile(rf"{_W}{_SEAT}{_G}{_CARD}")
_GAME = re.compile(rf'game(?:{_G}"[^"\n]*")?')
_TEXT_HEADER = re.compile(
    rf"((?:title|source|url|page|date|event|site|annotator|translator|note|language|round)(?:\[[a-z]{{2}}\])?)"
    rf"{_W}:[^\n{{]*"
)
_PLAYERS = re.compile(rf'players{_W}:{_W}({_SEAT}(?:{_G}"[^"\n]*")?(?:{_W},{_W}{_SEAT}(?:{_G}"[^"\n]*")?)*)')
_PLAYER = re.compile(rf'({_SEAT})(?:{_G}"[^"\n]*")?')
_NAME = r"[A-Za-z][\w.-]*(?![\w.-])"
_OPTION = rf"{_NAME}{_W}={_W}(?:{_INT}(?!\d)|{_NAME})"
_OPTIONS = re.compile(rf"options?{_W}:{_W}({_OPTION}(?:{_W},?{_W}{_OPTION})*)")
_OPTION_PAIR = re.compile(rf"({_NAME}){_W}={_W}({_INT}(?!\d)|{_NAME})")
_TARGET = re.compile(rf"target{_W}:{_W}({_INT})")
_PROFILE = re.compile(rf"profile{_W}:{_W}([A-Za-z][\w.-]*|\d[\w.]*-[\w.-]*)")
_DEAL = re.compile(rf"deal(?:{_G}{_INT})?")
_DEALER = re.compile(rf"dealer{_W}:{_W}({_SEAT})")
_TRUMP = re.compile(rf"trumps?{_W}:{_W}([SHDC])")
_TURNUP = re.compile(rf"turn-?up{_W}:{_W}({_CARD})")
_CUT = re.compile(rf"(cut|guess){_W}:{_W}({_INT})")
_HAND = re.compile(rf"hand{_G}({_SEAT}){_W}:((?:{_W}{_CARD}(?:{_G}{_CARD})*)?)")
_WINNER = re.compile(rf"winner{_G}({_SCORER})")
# What str.splitlines() breaks at besides "\n" (see replayer/stream.py): such a text is left to the full path.
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class _Rules:
    """What the fast path needs of a profile, worked out once (see :func:`_rules`)."""

    def __init__(self, profile: RuleProfile, options: dict[str, str | int]) -> None:
        self.profile = profile
        self.options = options
        self.seats = profile.seats
        self.players = len(profile.seats)
        self.scorers = profile.scorers
        """Who keeps a score: the seats, or the sides (``N+S``) where partners score jointly."""
        self.scorer = [profile.scorers.index(profile.scorer(seat)) for seat in profile.seats]
        """The index in ``scorers`` of each seat's score."""
        self.scorer_of_text = {
            "+".join(written): self.scorer[profile.seats.index(side[0])]
            for side in profile.sides
            for written in permutations(side)
        }
        """A score's key as a record writes it (a seat stands for its side too, as ``resolve_scorer`` reads it)."""
        self.scorer_of_text.update((seat, self.scorer[i]) for i, seat in enumerate(profile.seats))
        self.mates = [[other for other in range(self.players) if self.scorer[other] == own] for own in self.scorer]
        """The seats of each seat's side (itself alone where everyone scores for himself), in seat order."""
        partners = [profile.partner(seat) for seat in profile.seats]
        self.partner = [profile.seats.index(p) if p is not None else -1 for p in partners]
        self.order = [[(first + i) % self.players for i in range(self.players)] for first in range(self.players)]
        """The seats in playing order from each seat."""
        self.first_leader = -1 if profile.first_leader == "dealer_right" else 1
        """The first leader's place after the dealer in playing order (the engine's ``_first_leader``)."""
        self.copies = [profile.copies(card) for card in _CARDS]
        self.brisque = [card.rank in profile.brisque_ranks for card in _CARDS]
        points = dict(profile.card_points)
        self.card_points = [points.get(card.rank, 0) for card in _CARDS]
        self.points_at_trick = bool(profile.card_points) and profile.card_points_when == "trick"
        self.points_at_end = bool(profile.card_points) and profile.card_points_when == "end"
        self.face_down = profile.stock_size - (1 if profile.turnup else 0)
        self.total_tricks = profile.total_tricks
        last = str(options.get("last_trick", "final"))
        self.last_trick = profile.phase1_tricks if last == "24" else profile.total_tricks
        self.seven_played = profile.seven_played
        self.seven_played_phases = frozenset(profile.seven_played_phases)
        self.exchange_rank = int(profile.seven_rank)
        self.exchange_any_time = profile.seven_exchange_when == "any_time"
        self.declare_until_draw = profile.declare_until == "draw"
        self.one_per_trick = str(options.get("declarations_per_trick", "1")) == "1"
        self.reuse = str(options["reuse"]) if "reuse" in options else profile.reuse
        self.meld_points = {m.kind: m.points for m in profile.melds}
        target = options.get("target")
        self.target = target if isinstance(target, int) else None
        self.fixing = dict(profile.trump_fixing)
        """The kinds whose first declaration fixes trumps, with what it scores then (no turn-up)."""
        self.game_scoring = profile.game_scoring
        self.brisques_conditional = profile.brisques_when == "tie_or_rubicon" and profile.game_scoring is not None
        self.last_trick_halves = profile.last_trick_to == "halves" and bool(profile.sides)

    def scorer_index(self, written: str) -> int:
        """The score a record's seat or side names (``N``, ``N+S``); a doubt where the full path reports it."""
        index = self.scorer_of_text.get(written)
        if index is None:
            raise _Doubt
        return index


def _supported(profile: RuleProfile) -> bool:
    """The profiles whose rules this module implements: the games of the classic family, with a turn-up, or without
    one and trumps fixed by the first declaration of a marriage or sequence (Rubicon, the six- and eight-pack games,
    no-trump), scored to a target or as a one-hand game; of two seats or more, each for himself or in partnerships
    of two (three-handed, the four-handed games), partners declaring for and with each other; with cards added to
    the packs, the wild card among them, and kinds that extend a declared one (004-C's many-pack game)."""
    return (
        profile.players == len(profile.seats)
        and profile.turnup != bool(profile.trump_fixing)
        and not (profile.trump_fixing and profile.card_points_trump_seven)
        and all(len(side) == 2 for side in profile.sides)
        and not profile.hand_target
        and not profile.game_points
        and not profile.declare_lead_from
        and (not profile.declare_joint or bool(profile.sides))
        and profile.declare_by in ("winner", "winner_or_partner")
        and profile.declare_after == "won_trick"
        and profile.declare_phases == (1,)
        and profile.declare_until in ("draw", "lead")
        and profile.seven_exchange_when in ("won_trick", "any_time")
        and profile.phase1_play in ("free", "follow_suit")
        and profile.phase2_play in ("free", "follow_suit", "follow_trump", "follow_win_trump")
        and profile.draw_order in ("winner_first", "leader_first")
        and profile.last_trick_to in ("winner", "halves")
        and profile.brisques_when in ("always", "tie_or_rubicon")
        and profile.next_dealer == "alternate"
        and set(profile.ranks) <= set(_RANK_TEXT.values())
        and all(m.hand in (None, "no_court", "no_court_side") for m in profile.melds)
    )


@cache
def _rules(name: str, given: tuple[tuple[str, str], ...], target: int | None) -> _Rules | None:
    """The rules of a profile played with a record's options (and ``target`` header); None when the fast path does
    not play them."""
    if name.endswith((".yaml", ".yml")):
        return None
    try:
        base = load_rules(name)
        options = base.resolve_options(dict(given))
    except (RuleProfileError, ValueError):
        return None
    if target is not None and "target" in options:
        options["target"] = target
    profile = base.with_options(options)
    # (The replay checks the next dealer by the profile's own rule, before options: both must alternate; it scores
    # a one-hand game by the profile's own game scoring too.)
    if not _supported(profile) or base.next_dealer != "alternate" or base.game_scoring != profile.game_scoring:
        return None
    return _Rules(profile, options)


def _best(cards: list[int], trump: int) -> int:
    """The index of the winning card (the engine's ``trick_winner``): the highest trump, else the highest card of
    the suit led; of equal cards the first played; never the wild card while another card is played."""
    best = 0
    for i in range(1, len(cards)):
        card, top = cards[i], cards[best]
        if card >> 3 == top >> 3:
            if card & 7 > top & 7:
                best = i
        elif card >> 3 == trump or top == _WILD:  # (the wild card wins no trick: led, the next card beats it)
            best = i
    return best


class _Deal:
    """One deal on a lean state: per seat (its index in the profile's seats) the count of each card held, in hand
    and on the table together; the scores per scorer (a seat, or a side). ``trump`` and ``turnup`` are -1 while
    there are none (a profile without a turn-up, before trumps are fixed)."""

    def __init__(
        self, rules: _Rules, dealer: int, trump: int, turnup: int, hands: list[list[int]], cut: dict[str, int]
    ) -> None:
        self.rules = rules
        self.trump = trump
        self.turnup = turnup
        self.turnup_waiting = turnup >= 0
        self.stock_left = rules.face_down
        players = rules.players
        self.held = [[0] * len(_CARDS) for _ in range(players)]
        seen = [0] * len(_CARDS)
        for seat, cards in enumerate(hands):
            held = self.held[seat]
            for card in cards:
                held[card] += 1
                seen[card] += 1
        if turnup >= 0:
            seen[turnup] += 1
        copies = rules.copies
        if any(n > copies[card] for card, n in enumerate(seen) if n):
            raise _Doubt
        self.seen = seen
        self.tables: list[list[TabledCard]] = [[] for _ in range(players)]
        self.next_uid = 0
        profile = rules.profile
        self.leader = (dealer + rules.first_leader) % players
        scorer = rules.scorer
        self.scores = [0] * len(rules.scorers)
        if profile.seven_turnup and turnup >= 0 and turnup == trump * 8 + _SEVEN:
            self.scores[scorer[dealer]] += profile.seven_turnup
        # The six-pack deal's bonuses (the engine's apply_cut): the non-dealer's exact guess of the cards the dealer
        # lifted, and the dealer's lift of exactly the profile's count.
        guess_points, lift_points, lift_count = profile.cut_bonus
        lifted = cut.get("cut")
        if lifted is not None and cut.get("guess") == lifted and guess_points:
            self.scores[scorer[(dealer + 1) % players]] += guess_points
        if lifted is not None and lifted == lift_count and lift_points:
            self.scores[scorer[dealer]] += lift_points
        self.trick_no = 0
        self.events: list[tuple[int, str, int]] = []
        """The automatic scores of the last trick and its exchange, (seat, kind, points): what a claim names."""
        self.winner = -1
        """The last trick's winner while he may still act on it (-1: nobody)."""
        self.window_open = False
        self.declarer = -1
        """Who may declare after the last trick when its winner has let his partner declare (-1: the winner)."""
        self.to_draw: list[int] = []
        self.declared: list[set[int]] = []
        self.second_seven_shown = False
        self.brisques = [0] * players
        """The brisques won per seat; per scorer once the deal is finished."""
        self.points_at_end = [0] * players
        self.tricks_won = [0] * players
        self.declared_kinds: list[Counter[str]] = [Counter() for _ in range(players)]
        self.winners: list[int] = []
        self.blanche = [0] * players
        """Carte blanche per seat: 0 not declared, 1 declared (each non-court card drawn may be shown for another),
        2 ended by a court card drawn (the engine's ``SeatState.blanche``)."""
        self.blanche_card = [-1] * players
        """The non-court card just drawn that may be shown for another carte blanche, until the seat plays."""
        self.side_blanche: set[int] = set()
        """The sides (scorers) that have scored a double carte blanche."""
        values = list(rules.card_points)
        if self.rules.profile.card_points_trump_seven:  # (with a turn-up: trumps known from the deal)
            values[trump * 8 + _SEVEN] = self.rules.profile.card_points_trump_seven
        self.values = values

    @property
    def phase(self) -> int:
        return 1 if (self.stock_left > 0 or self.turnup_waiting or self.to_draw) else 2

    def trick(self, number: int, seats: list[int], cards: list[int], stated: int) -> None:
        """The plays of a trick (the seats and their cards), every seat's in playing order from the leader, its
        winner and automatic scores, and the draws due after it."""
        rules = self.rules
        leader = self.leader
        if number != self.trick_no + 1 or self.to_draw or seats != rules.order[leader] or number > rules.total_tricks:
            raise _Doubt
        phase = self.phase
        self.winner = -1
        self.declarer = -1
        self.window_open = False
        self.blanche_card = [-1] * rules.players
        profile = rules.profile
        rule = profile.phase2_play if phase == 2 else profile.phase1_play
        take = self._take
        if rule == "free":
            for seat, card in zip(seats, cards, strict=True):
                take(seat, card)
        else:
            for i, seat in enumerate(seats):
                if i and not self._may_follow(rule, seat, cards[:i], cards[i]):
                    raise _Doubt
                take(seat, cards[i])
        trump = self.trump
        seven = trump * 8 + _SEVEN if trump >= 0 else -1
        scores = self.scores
        scorer = rules.scorer
        events = self.events = []
        played = 0 if profile.seven_played_must_win else rules.seven_played  # (for playing it, not winning with it)
        if played and seven in cards and phase in rules.seven_played_phases:
            for seat, card in zip(seats, cards, strict=True):
                if card == seven:
                    scores[scorer[seat]] += played
                    events.append((seat, "seven_played", played))
        best = _best(cards, trump)
        winner, top = seats[best], cards[best]
        if stated >= 0 and stated != winner:
            raise _Doubt
        self.trick_no = number
        self.tricks_won[winner] += 1
        brisque = rules.brisque
        self.brisques[winner] += sum(map(brisque.__getitem__, cards))
        values = self.values
        if rules.points_at_trick:
            points = sum(map(values.__getitem__, cards))
            if points:  # (the engine books no card points for a trick without any: nothing for a claim to name)
                scores[scorer[winner]] += points
                events.append((winner, "card_points", points))
        elif rules.points_at_end:
            self.points_at_end[winner] += sum(map(values.__getitem__, cards))
        seven_won = top == seven
        if phase in rules.seven_played_phases and rules.seven_played and profile.seven_played_must_win and seven_won:
            scores[scorer[winner]] += rules.seven_played
            events.append((winner, "seven_played", rules.seven_played))
        if number == rules.last_trick and profile.last_trick_points:
            if rules.last_trick_halves:  # shared out between the sides: the first seat of each books it
                share = profile.last_trick_points // len(profile.sides)
                for side in profile.sides:
                    first_seat = rules.seats.index(side[0])
                    scores[scorer[first_seat]] += share
                    events.append((first_seat, "last_trick", share))
            else:
                scores[scorer[winner]] += profile.last_trick_points
                events.append((winner, "last_trick", profile.last_trick_points))
        self.winners.append(winner)
        self.leader = self.winner = winner
        self.declared = []
        if phase == 1:
            self.window_open = True
            self.to_draw = list(rules.order[winner if profile.draw_order == "winner_first" else leader])

    def _may_follow(self, rule: str, seat: int, played: list[int], card: int) -> bool:
        """Whether ``card`` may be played to the trick's cards so far under a play rule (the engine's ``_obliged``)."""
        if rule == "free":
            return True
        if played[0] == _WILD:
            return True  # (a wild card led has no suit to follow)
        held = self.held[seat]
        led = played[0] >> 3
        top = played[_best(played, self.trump)]
        if any(held[led * 8 : led * 8 + 8]):
            if card >> 3 != led:
                return False
            if rule == "follow_win_trump" and top >> 3 == led and card & 7 <= top & 7:
                return not any(held[led * 8 + (top & 7) + 1 : led * 8 + 8])
            return True
        trump = self.trump
        if rule in ("follow_win_trump", "follow_trump") and trump >= 0 and any(held[trump * 8 : trump * 8 + 8]):
            if top >> 3 == trump:
                if any(held[trump * 8 + (top & 7) + 1 : trump * 8 + 8]):
                    return card >> 3 == trump and card & 7 > top & 7
                if rule == "follow_win_trump":
                    return True  # a third hand that can neither follow nor over-trump may discard anything
            return card >> 3 == trump
        return True

    def _take(self, seat: int, card: int) -> None:
        """A card leaves the seat: from the table first (the instance scored in most kinds), as the engine does."""
        held = self.held[seat]
        if not held[card]:
            raise _Doubt
        held[card] -= 1
        table = self.tables[seat]
        if table:
            on_table = [t for t in table if t.card == _CARDS[card]]
            if on_table:
                table.remove(max(on_table, key=lambda t: len(t.kinds)))

    def draw(self, seat: int, card: int) -> None:
        """A card drawn after a trick: the winner (or leader) first, the turn-up last."""
        if not self.to_draw or self.to_draw[0] != seat:
            raise _Doubt
        del self.to_draw[0]
        if self.rules.declare_until_draw:
            self.window_open = False
        if self.stock_left > 0:
            self.seen[card] += 1
            if self.seen[card] > self.rules.copies[card]:
                raise _Doubt
            self.stock_left -= 1
        elif self.turnup_waiting and card == self.turnup:
            self.turnup_waiting = False
        else:
            raise _Doubt
        self.held[seat][card] += 1
        if self.blanche[seat] == 1:
            # Each non-court card drawn may be shown for another carte blanche; the first court card ends it.
            self.blanche[seat] = 2 if _COURT[card] else 1
            self.blanche_card[seat] = -1 if _COURT[card] else card
        if not self.to_draw and self.stock_left == 0 and not self.turnup_waiting:
            self.tables = [[] for _ in self.tables]  # phase 2: the declared cards go back into the hands

    def _window(self, seat: int, declaring: bool = True) -> None:
        """The engine's ``_window_problem``: only the winner of the last trick, while his window is open (or, to
        declare, the partner he has passed it to)."""
        if self.phase != 1 or self.winner < 0 or not self.window_open:
            raise _Doubt
        if seat != (self.declarer if declaring and self.declarer >= 0 else self.winner):
            raise _Doubt

    def pass_to(self, seat: int, partner: int) -> None:
        """``N passes to S``: the trick's winner lets his partner declare instead (the engine's ``apply_pass``)."""
        rules = self.rules
        if rules.profile.declare_by != "winner_or_partner" or rules.partner[seat] != partner:
            raise _Doubt
        self._window(seat)
        if self.declared:
            raise _Doubt
        self.declarer = partner

    def exchange(self, seat: int, card: int, points: int | None) -> None:
        """The trump seven exchanged for the turn-up (or, where it scores, the other seven shown)."""
        rules = self.rules
        profile = rules.profile
        if not rules.exchange_any_time:
            self._window(seat, declaring=False)
        exchange_card = self.trump * 8 + rules.exchange_rank
        if card != exchange_card or not self.turnup_waiting or not self.held[seat][card]:
            raise _Doubt
        show = self.turnup == exchange_card
        if show and (not profile.seven_second or self.second_seven_shown):
            raise _Doubt
        awarded = profile.seven_second if show else profile.seven_exchange
        if points is not None and points != awarded:
            raise _Doubt
        self.scores[rules.scorer[seat]] += awarded
        self.events.append((seat, "seven_shown" if show else "seven_exchange", awarded))
        if show:
            self.second_seven_shown = True
            return
        self._take(seat, card)
        self.held[seat][self.turnup] += 1
        self.turnup = card

    def declare(
        self,
        seat: int,
        kind: str | None,
        cards: list[int],
        points: int | None,
        partner: int = -1,
        theirs: list[int] | None = None,
    ) -> None:
        """A declaration scored after a won trick: the engine's ``apply_declare`` for one seat's own cards, or with
        his partner's (``theirs``, ``partner``) where partners declare together (and its ``apply_carte_blanche`` for a
        whole-hand meld named)."""
        rules = self.rules
        profile = rules.profile
        named = profile.meld(kind) if kind is not None else None
        if named is not None and named.whole_hand:
            if theirs:
                raise _Doubt
            self._carte_blanche(seat, named, cards, points)
            return
        theirs = theirs or []
        parts = [(seat, cards)]
        if theirs:
            if not profile.declare_joint or partner != rules.partner[seat] or not cards:
                raise _Doubt
            parts.append((partner, theirs))
        self._window(seat)
        trump = Suit(_SUITS[self.trump]) if self.trump >= 0 else None
        everything = cards + theirs
        shown = [_CARDS[c] for c in everything]
        # Before trumps are fixed, the fixing kinds the cards form as if their suit were trumps (engine's _fixing).
        fixing: list[MeldSpec] = []
        if trump is None and rules.fixing and shown:
            fixing = [m for m in identify(profile, shown, shown[0].suit) if m.kind in rules.fixing]
        if kind is None:
            found = identify(profile, shown, trump) + fixing
            spec = found[0] if found else None
        else:  # (the kind named must be one the cards form: identify()'s test of that kind alone)
            spec = named
            if spec is not None and not matches(spec, shown, trump) and spec not in fixing:
                spec = None
        if spec is None:
            raise _Doubt
        waits = not profile.declare_wait_kinds or spec.kind in profile.declare_wait_kinds
        if waits and self.tricks_won[seat] < profile.declare_after_tricks:
            raise _Doubt
        as_set = set(everything)
        if self.declared and (rules.one_per_trick or any(as_set & prev for prev in self.declared)):
            raise _Doubt
        chosen = self._choose(seat, spec, parts)
        uids: list[int] = []
        for (owner, _), assignment in zip(parts, chosen, strict=True):
            table = self.tables[owner]
            uids.extend(assignment.tabled)
            for card in assignment.from_hand:
                table.append(TabledCard(self.next_uid, card))
                uids.append(self.next_uid)
                self.next_uid += 1
        nth = self.declared_kinds[seat][spec.kind] + 1
        value = spec.points_for(nth, profile.repeat_rule)
        if spec in fixing:  # the first marriage (or sequence) fixes trumps and scores what the profile gives it
            self.trump = everything[0] >> 3
            value = rules.fixing[spec.kind]
        if points is not None and points != value:
            raise _Doubt
        for owner, _ in parts:
            mark_scored(self.tables[owner], uids, spec, self.trick_no)
        self.scores[rules.scorer[seat]] += value
        self.declared_kinds[seat][spec.kind] += 1
        self.declared.append(as_set)

    def _choose(self, seat: int, spec: MeldSpec, parts: list[tuple[int, list[int]]]) -> tuple[Assignment, ...]:
        """The physical cards of a declaration, one assignment per part (the engine's ``_pick``): the first choice
        that breaks no re-use rule, judged against the tables of the declarer's whole side."""
        rules = self.rules
        per_part = []
        for owner, part in parts:
            held = self.held[owner]
            table = self.tables[owner]
            # The concealed cards among those declared (the only ones choose_instances() looks up).
            on_table = Counter(t.card for t in table)
            hand = Counter({_CARDS[c]: held[c] - on_table[_CARDS[c]] for c in set(part)})
            per_part.append(choose_instances([_CARDS[c] for c in part], hand, table))
        mates = rules.mates[seat]
        tables = self.tables
        side = tables[seat] if len(mates) == 1 else [t for other in mates for t in tables[other]]
        profile = rules.profile
        # (One part, the common case, is tried lazily: the first choice without a problem is taken.)
        choices = ((a,) for a in per_part[0]) if len(parts) == 1 else product(*per_part)
        for choice in choices:
            merged = (
                choice[0]
                if len(choice) == 1
                else Assignment(
                    tuple(u for a in choice for u in a.tabled), tuple(c for a in choice for c in a.from_hand)
                )
            )
            problem = reuse_problem(spec, merged, side, rules.reuse, rules.meld_points, profile.no_reuse, self.trick_no)
            if problem is None and (spec.extends is None or extends_problem(spec, merged, side) is None):
                return choice
        raise _Doubt

    def _carte_blanche(self, seat: int, spec: MeldSpec, cards: list[int], points: int | None) -> None:
        """A carte blanche: the whole hand without a court card shown before the first trick, then again each
        non-court card drawn, shown before the seat plays (the engine's ``apply_carte_blanche``). No trick need be
        won, and it is not the trick's one declaration. A side's double carte blanche: neither partner was dealt a
        court card, once for the side, before the first trick."""
        if points is not None and points != spec.points:
            raise _Doubt
        rules = self.rules
        if spec.hand == "no_court_side":
            partner = rules.partner[seat]
            side = rules.scorer[seat]
            if cards or partner < 0 or self.trick_no or side in self.side_blanche:
                raise _Doubt  # (cards shown: the engine takes none, the fast path doubts them)
            if any(n and _COURT[card] for who in (seat, partner) for card, n in enumerate(self.held[who])):
                raise _Doubt
            self.side_blanche.add(side)
            self.scores[side] += spec.points
            return
        if self.blanche[seat] == 0:
            held = self.held[seat]
            if self.trick_no or any(n and _COURT[card] for card, n in enumerate(held)):
                raise _Doubt
            if cards and Counter(cards) != Counter({card: n for card, n in enumerate(held) if n}):
                raise _Doubt
        elif self.blanche_card[seat] < 0 or cards not in ([], [self.blanche_card[seat]]):
            raise _Doubt  # (also once a court card drawn has ended it: no card may then be shown)
        self.blanche[seat] = 1
        self.blanche_card[seat] = -1
        self.scores[rules.scorer[seat]] += spec.points

    def claim(self, seat: int, kind: str, points: int | None) -> None:
        """``N scores seven_played = 10``: an automatic score of this trick, stated (the replay's ``claim``)."""
        found = next((p for s, k, p in self.events if s == seat and k == kind), None)
        if found is None or (points is not None and points != found):
            raise _Doubt

    def finish(self) -> None:
        """The end of the hand: every trick played, brisques and the card points counted at the end."""
        if self.trick_no != self.rules.total_tricks:
            raise _Doubt
        rules = self.rules
        points = rules.profile.brisque_points
        won = [0] * len(self.scores)
        at_end = [0] * len(self.scores)
        for seat, scorer in enumerate(rules.scorer):
            won[scorer] += self.brisques[seat] * points
            at_end[scorer] += self.points_at_end[seat]
        if rules.brisques_conditional and rules.game_scoring is not None:
            # Rubicon: the brisques count only to break a tie or to lift a score to the rubicon (all or none).
            scorers = rules.scorers
            counted = brisques_counted(
                dict(zip(scorers, self.scores, strict=True)),
                dict(zip(scorers, won, strict=True)),
                rules.game_scoring.rubicon,
            )
            won = won if counted else [0] * len(won)
        self.brisques = won
        for scorer, points in enumerate(won):
            self.scores[scorer] += points + at_end[scorer]


class _Game:
    """One game read statement by statement (the fixed order a record's statements keep)."""

    def __init__(self) -> None:
        self.profile_name = "classic"
        self.options: dict[str, str] = {}
        self.target: int | None = None
        self.headers: set[str] = set()
        self.players: set[str] = set()
        self.rules: _Rules | None = None
        self.seat_index: dict[str, int] = {}
        self.deals = 0
        self.totals: list[int] = []
        self.decided = -1
        self.winner: str | None = None
        # The deal being read: its headers until its first trick, then its state.
        self.deal: _Deal | None = None
        self.dealer = -1
        self.trump = -1
        self.turnup = -1
        self.hands: dict[int, list[int]] = {}
        self.cut: dict[str, int] = {}
        """The deal's ``cut`` and ``guess`` headers."""
        self.ended = False
        """The deal's end statements (brisques, result, total, game score) have begun."""
        self.game_scores: list[int] | None = None
        """A one-hand game's scores after the deal (Rubicon scoring), once it has ended."""

    def start(self) -> _Rules:
        """The game's headers are read: its rules."""
        if self.rules is None:
            rules = _rules(self.profile_name, tuple(self.options.items()), self.target)
            if rules is None or not self.players <= set(rules.seats):
                raise _Doubt
            self.rules = rules
            self.seat_index = {seat: i for i, seat in enumerate(rules.seats)}
            self.totals = [0] * len(rules.scorers)
        return self.rules

    def new_deal(self) -> None:
        self.close_deal()
        self.start()
        self.deals += 1
        self.deal = None
        self.dealer = self.trump = self.turnup = -1
        self.hands = {}
        self.cut = {}
        self.ended = False

    def seat(self, letter: str) -> int:
        index = self.seat_index.get(letter)
        if index is None:
            raise _Doubt
        return index

    def playing(self) -> _Deal:
        """The deal's state, set up from its headers at its first trick (or a declaration before it: a carte
        blanche)."""
        deal = self.deal
        if deal is None:
            rules = self.rules
            if self.deals == 0 or rules is None or self.ended or self.dealer < 0:
                raise _Doubt
            if len(self.hands) != rules.players or any(len(h) != rules.profile.hand_size for h in self.hands.values()):
                raise _Doubt
            # A turn-up where the profile turns one up, which fixes trumps (a ``trump`` header may only agree);
            # without one, no trumps until a declaration fixes them.
            if rules.profile.turnup != (self.turnup >= 0) or (self.turnup < 0 and self.trump >= 0):
                raise _Doubt
            trump = self.turnup >> 3 if self.turnup >= 0 else -1
            if self.trump >= 0 and trump != self.trump:
                raise _Doubt
            hands = [self.hands[seat] for seat in range(rules.players)]
            deal = self.deal = _Deal(rules, self.dealer, trump, self.turnup, hands, self.cut)
        elif self.ended:
            raise _Doubt
        return deal

    def current(self) -> _Deal:
        """The deal's state for a statement that follows a trick (draws, a score, an exchange, a claim)."""
        deal = self.deal
        if deal is None or self.ended or not deal.trick_no:
            raise _Doubt
        return deal

    def end(self, what: str, values: list[tuple[str, int]]) -> None:
        """A deal's end statement: ``brisques``, ``result``, ``total`` or ``game score``, each value of a seat or
        a side."""
        deal = self.deal
        if deal is None:
            raise _Doubt
        rules = self.rules
        if not self.ended and rules is not None:
            self.ended = True
            deal.finish()
            for scorer, points in enumerate(deal.scores):
                self.totals[scorer] += points
            if rules.game_scoring is not None:
                scores = game_score(rules.game_scoring, dict(zip(rules.scorers, deal.scores, strict=True)))
                self.game_scores = [scores[scorer] for scorer in rules.scorers]
            self.decide(deal)
        actual = {"brisques": deal.brisques, "result": deal.scores, "total": self.totals, "game": self.game_scores}
        checked = actual["game" if what.startswith("game") else what]
        if checked is None:
            raise _Doubt  # a game score where the game is played to a target
        assert rules is not None
        for written, value in values:
            if checked[rules.scorer_index(written)] != value:
                raise _Doubt

    def close_deal(self) -> None:
        """The deal ends (a new deal, the winner, the end of the text): its end counted if not yet."""
        if self.deals and not self.ended:
            self.end("result", [])

    def decide(self, deal: _Deal) -> None:
        """The game's winner: of a one-hand game the seat with more points, else once a seat reaches the target
        (the replay's ``decide``); while there is none, the next deal decides."""
        rules = self.rules
        if self.decided >= 0 or rules is None:
            return
        if rules.game_scoring is not None:
            winner = game_winner(dict(zip(rules.scorers, deal.scores, strict=True)))
            self.decided = -1 if winner is None else rules.scorers.index(winner)
            return
        if rules.target is None:
            return
        over = [scorer for scorer, total in enumerate(self.totals) if total >= rules.target]
        if len(over) == 1:
            self.decided = over[0]
            return
        if over and rules.options.get("tie_rule") == "last_trick":
            # The winner of the last trick; when a third player (or side) took it, of those over the target the one
            # who won a trick last.
            last = str(rules.options.get("last_trick", "final"))
            index = rules.profile.phase1_tricks if last == "24" else len(deal.winners)
            scorer = rules.scorer
            self.decided = next((scorer[w] for w in reversed(deal.winners[:index]) if scorer[w] in over), -1)
        if over and self.decided < 0:
            self.decided = max(over, key=lambda s: self.totals[s])


def _statements(text: str) -> list[str]:
    """The text's statements, one a line, without blank lines and comments (a comment may span lines, as long as
    nothing but comments follows it on the line where it closes)."""
    if "[" in text:
        _check_tags(text)
    if "{?" in text:
        text = _without_questions(text)
    result = []
    open_ = False
    for line in text.split("\n"):
        if open_:
            close = line.find("}")
            if close >= 0:
                open_ = _comments_after(line, close + 1)
            continue
        line = line.strip(" \t\f")
        brace = line.find("{")
        if brace >= 0:
            open_ = _comments_after(line, brace)
            line = line[:brace].rstrip(" \t\f")
        if "}" in line:
            raise _Doubt
        if line:
            result.append(line)
    if open_:
        raise _Doubt  # a comment left open at the end: a syntax error
    return result


def _without_questions(text: str) -> str:
    """The text with its questions taken out. A question is a comment whose accepted answers must be cards, and
    the grammar allows it only just before a play of a trick: anywhere else (in a comment too) it is a doubt."""
    parts = []
    pos = 0
    for m in _QUESTION.finditer(text):
        start = m.start()
        if pos and not text[pos:start].strip():
            # The next question of a run before one play (the same question in another language): taken out with
            # the space before it, so that the trick's line stays one line.
            pos = start
        else:
            line_start = text.rfind("\n", 0, start) + 1
            if text.rfind("{", 0, start) > text.rfind("}", 0, start):
                raise _Doubt  # inside a comment left open
            if not _ASKED_AT.fullmatch(text, line_start, start):
                raise _Doubt
        if not _ASKED_OF.match(text, m.end()) and not _NEXT_QUESTION.match(text, m.end()):
            raise _Doubt
        body = m.group(1)
        if "|" in body and any(
            word not in _CARD_OF_TEXT or word == "*" for word in body.rpartition("|")[2].replace(",", " ").split()
        ):
            raise _Doubt
        parts.append(text[pos:start])
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts)


def _check_tags(text: str) -> None:
    """Doubt a comment or question whose leading tags the reader does not know (it reports them as BZ001)."""
    for m in _TAGS.finditer(text):
        words = m.group(2).split()
        if not words or not all(w.isalpha() and w.islower() for w in words):
            continue  # not tags: text that starts with a bracket
        allowed = "better" if m.group(1) else "note"
        lang = False
        for word in words:
            if word == allowed:
                continue
            if len(word) != 2 or lang:
                raise _Doubt
            lang = True


def _comments_after(line: str, pos: int) -> bool:
    """Whether a comment is still open at the end of this line, where only comments follow ``pos``."""
    while True:
        while pos < len(line) and line[pos] in " \t\f":
            pos += 1
        if pos == len(line):
            return False
        if line[pos] != "{" or line.startswith("{?", pos):
            raise _Doubt  # a statement after a comment, or a question (its answers are checked)
        close = line.find("}", pos)
        if close < 0:
            return True
        pos = close + 1


def accept(data: bytes, first_line: int = 1) -> int | None:
    """The number of games in one part of a file (the bytes of a game, as replayer/stream.py splits a file) when
    the full path finds every one valid with no diagnostic; None when the full path must decide."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    text = text.replace("\r\n", "\n")
    if (first_line == 1 and text.startswith("\ufeff")) or _OTHER_BREAKS.search(text):
        return None
    try:
        return _replay(_statements(text))
    except _Doubt:
        return None


def _replay(statements: list[str], whole: bool = True) -> int:
    """The number of games of a part's statements (raises :class:`_Doubt`); with ``whole=False`` the statements
    are the first ones of a part, whose end is not checked (the tests check each statement this way)."""
    if not statements:
        return 0  # comments only (before a file's first game): no game, nothing to check
    if not _GAME.fullmatch(statements[0]):
        raise _Doubt
    game = _Game()
    for line in statements[1:]:
        head = line[0]
        if head == "t" and line.startswith("trick"):
            m = _TRICK.fullmatch(line)
            if m is None:
                raise _Doubt
            number, first, lead, second, follow, more, stated = m.groups()
            seat_index = game.seat_index  # (a seat not the profile's, -1, plays out of turn)
            seats = [seat_index.get(first, -1), seat_index.get(second, -1)]
            cards = [_CARD_OF_TEXT[lead], _CARD_OF_TEXT[follow]]
            if more:
                words = more.replace(",", " ").split()
                seats += [seat_index.get(who, -1) for who in words[0::2]]
                cards += [_CARD_OF_TEXT[card] for card in words[1::2]]
            game.playing().trick(int(number), seats, cards, game.seat(stated) if stated else -1)
        elif head == "d" and line.startswith("draw"):
            m = _DRAWS.fullmatch(line)
            if m is None:
                raise _Doubt
            deal = game.current()
            seat_a, card_a, seat_b, card_b, more = m.groups()
            deal.draw(game.seat(seat_a), _CARD_OF_TEXT[card_a])
            if seat_b is not None:
                deal.draw(game.seat(seat_b), _CARD_OF_TEXT[card_b])
            if more:
                words = more.replace(",", " ").split()
                for i in range(0, len(words), 2):
                    deal.draw(game.seat(words[i]), _CARD_OF_TEXT[words[i + 1]])
        elif (m := _VALUES.fullmatch(line)) is not None:
            what, scorer_a, value_a, scorer_b, value_b, more = m.groups()
            values = [(scorer_a, int(value_a))]
            if scorer_b is not None:
                values.append((scorer_b, int(value_b)))
            if more:
                words = more.replace(",", " ").split()
                values += [(words[i], int(words[i + 1])) for i in range(0, len(words), 2)]
            if what == "score":
                deal = game.current()
                scores, scorer_of_text = deal.scores, deal.rules.scorer_of_text
                for written, value in values:
                    index = scorer_of_text.get(written)
                    if index is None or scores[index] != value:
                        raise _Doubt
            else:
                game.end(what, values)
        else:
            _other(game, line)
    if not whole:
        return 1
    if game.winner is None:
        game.close_deal()
    if not game.deals:
        raise _Doubt
    return 1


def _other(game: _Game, line: str) -> None:
    """The statements that come a few times a deal or a game."""
    if (m := _EXCHANGE.fullmatch(line)) is not None:
        seat, card, points = m.groups()
        game.current().exchange(game.seat(seat), _CARD_OF_TEXT[card], int(points) if points else None)
    elif (m := _DECLARE.fullmatch(line)) is not None:
        seat, kind, cards, partner, theirs, points = m.groups()
        if not cards and kind is None:
            raise _Doubt  # (the reader's BZ304: a declaration names its kind, its cards, or both)
        game.playing().declare(
            game.seat(seat),
            kind,
            [_CARD_OF_TEXT[c] for c in cards.split()],
            int(points) if points else None,
            game.seat(partner) if partner is not None else -1,
            [_CARD_OF_TEXT[c] for c in theirs.split()] if theirs is not None else None,
        )
    elif (m := _PASS.fullmatch(line)) is not None:
        game.current().pass_to(game.seat(m.group(1)), game.seat(m.group(2)))
    elif (m := _CLAIM.fullmatch(line)) is not None:
        seat, kind, points = m.groups()
        game.current().claim(game.seat(seat), kind, int(points) if points else None)
    elif game.winner is not None:
        raise _Doubt  # nothing but comments after the winner
    elif _DEAL.fullmatch(line):
        game.new_deal()
    elif (m := _WINNER.fullmatch(line)) is not None:
        game.close_deal()
        game.start()
        game.winner = m.group(1)
        if game.start().scorer_index(game.winner) != game.decided:
            raise _Doubt
    elif game.deal is not None or game.ended:
        raise _Doubt
    elif game.deals:
        _deal_header(game, line)
    else:
        _game_header(game, line)


def _deal_header(game: _Game, line: str) -> None:
    """``dealer``, ``trump``, ``turnup``, ``hand``, ``cut`` and ``guess``, each once, before the deal's first trick
    (no turn-up where the profile turns none up, no trumps where a declaration fixes them)."""
    if (m := _HAND.fullmatch(line)) is not None:
        seat = game.seat(m.group(1))
        if seat in game.hands:
            raise _Doubt
        game.hands[seat] = [_CARD_OF_TEXT[c] for c in m.group(2).split()]
    elif (m := _DEALER.fullmatch(line)) is not None and game.dealer < 0:
        game.dealer = game.seat(m.group(1))
    elif (m := _TURNUP.fullmatch(line)) is not None and game.turnup < 0 and game.start().profile.turnup:
        game.turnup = _CARD_OF_TEXT[m.group(1)]
        if game.turnup == _WILD:
            raise _Doubt  # (the engine's BZ107: the wild card has no suit to turn up)
    elif (m := _TRUMP.fullmatch(line)) is not None and game.trump < 0 and not game.start().fixing:
        game.trump = _SUITS.index(m.group(1))
    elif (m := _CUT.fullmatch(line)) is not None and m.group(1) not in game.cut:
        game.cut[m.group(1)] = int(m.group(2))
    else:
        raise _Doubt


def _game_header(game: _Game, line: str) -> None:
    """The text headers, ``players`` and ``profile``, each once, before the first deal."""
    if (m := _TEXT_HEADER.fullmatch(line)) is not None:
        key = m.group(1).replace("[en]", "")  # (English is the untagged header)
        if key in game.headers:
            raise _Doubt
        game.headers.add(key)
    elif (m := _PROFILE.fullmatch(line)) is not None and "profile" not in game.headers:
        game.headers.add("profile")
        game.profile_name = m.group(1)
    elif (m := _OPTIONS.fullmatch(line)) is not None:
        game.options.update((p.group(1), p.group(2)) for p in _OPTION_PAIR.finditer(m.group(1)))
    elif (m := _TARGET.fullmatch(line)) is not None:
        game.target = int(m.group(1))
    elif (m := _PLAYERS.fullmatch(line)) is not None:
        game.players.update(p.group(1) for p in _PLAYER.finditer(m.group(1)))
    else:
        raise _Doubt
