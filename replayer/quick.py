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

What it covers: profiles of two seats without sides, a hand target, game points or joint declarations: with a
turn-up (classic, ua2, ru19, ruwiki), or without one and trumps fixed by the first marriage or sequence declared,
with carte blanche, the six-pack cut bonuses, brisques counted only to break a tie or to escape the rubicon, and
one-hand game scoring (rubicon-000/001, chinese-000/001, 8p-000/001, no-trump). Statements ``game``, text headers,
``players``, ``profile``, ``deal``, ``dealer``, ``trump``, ``turnup``, ``hand``, ``cut``, ``guess``, ``trick``
(ordered), ``exchanges``, ``declares``, ``draws``, ``score``, ``brisques``, ``result``, ``total``, ``game score`` and
``winner``, with comments closed on their line. Declarations go through the meld logic of replayer/melds.py, and
the one-hand game's score through replayer/gamescore.py, as in the engine and the replay.

It imports neither Lark nor the reader, the record classes or the engine, so that a valid file is validated without
loading them.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache

from .cards import Card, Rank, Suit
from .errors import RuleProfileError
from .gamescore import brisques_counted, game_score, game_winner
from .melds import TabledCard, choose_instances, identify, mark_scored, matches, reuse_problem
from .rules import MeldSpec, RuleProfile, load_rules

__all__ = ["accept"]


class _Doubt(Exception):
    """The fast path cannot say the game is valid: the full path decides."""


_SUITS = "SHDC"
_RANK_TEXT = {"7": Rank.SEVEN, "8": Rank.EIGHT, "9": Rank.NINE, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING}
_RANK_TEXT.update({"10": Rank.TEN, "T": Rank.TEN, "A": Rank.ACE})
_CARD_OF_TEXT = {r + s: _SUITS.index(s) * 8 + int(rank) for r, rank in _RANK_TEXT.items() for s in _SUITS}
"""A card's ASCII spelling (``QS``, ``10C``, ``TC``) as its int."""
_CARDS = [Card(Suit(_SUITS[i // 8]), Rank(i % 8)) for i in range(32)]
"""The card of each int."""
_SEVEN = int(Rank.SEVEN)
_COURT = [card.rank in (Rank.KING, Rank.QUEEN, Rank.JACK) for card in _CARDS]
"""Whether each card is a court card (a figure), which a carte blanche may not hold."""

# Subsets of the grammar's statements (grammar/bezique.lark), as replayer/fastread.py reads them: ASCII spellings,
# upper case cards and seats, lower case keywords. A line of any other shape is a doubt.
_W = r"[ \t\f]*"
_G = r"[ \t\f]+"
_CARD = r"(?:10|[AKQJT987])[SHDC]"
_INT = r"\d{1,9}"
_SEAT = r"[NSEW]"
_TRICK = re.compile(
    rf"trick{_G}({_INT}){_W}:{_W}({_SEAT}){_G}({_CARD}){_W},{_W}({_SEAT}){_G}({_CARD})(?:{_W}->{_W}({_SEAT}))?"
)
_DRAWS = re.compile(rf"draws?{_G}({_SEAT}){_G}({_CARD})(?:{_W},{_W}({_SEAT}){_G}({_CARD}))?")
_VALUES = re.compile(
    rf"(score|brisques|result|total|game{_G}score){_G}({_SEAT}){_G}({_INT})(?:{_W},{_W}({_SEAT}){_G}({_INT}))?"
)
_EXCHANGE = re.compile(rf"({_SEAT}){_G}exchanges?{_G}({_CARD})(?:{_W}={_W}({_INT}))?")
_DECLARE = re.compile(
    rf"({_SEAT}){_G}declares?(?:{_G}(?!with\b)((?=[a-z_]{{3}})[a-z]+(?:_[a-z]+)*))?((?:{_G}{_CARD})*)"
    rf"(?:{_W}={_W}({_INT}))?"
)
_CLAIM = re.compile(rf"({_SEAT}){_G}scores{_G}((?=[a-z_]{{3}})[a-z]+(?:_[a-z]+)*)(?:{_W}={_W}({_INT}))?")
_QUESTION = re.compile(r"\{\?([^}]*)\}")
# Where the grammar puts a question: just before a play of a trick (the first or the second).
_ASKED_AT = re.compile(rf"[ \t\f]*trick{_G}{_INT}{_W}:(?:{_W}{_SEAT}{_G}{_CARD}{_W},)?{_W}")
_ASKED_OF = re.compile(rf"{_W}{_SEAT}{_G}{_CARD}")
_GAME = re.compile(rf'game(?:{_G}"[^"\n]*")?')
_TEXT_HEADER = re.compile(
    rf"(title|source|url|page|date|event|site|annotator|translator|note|language|round){_W}:[^\n{{]*"
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
_WINNER = re.compile(rf"winner{_G}({_SEAT})")
# What str.splitlines() breaks at besides "\n" (see replayer/stream.py): such a text is left to the full path.
_OTHER_BREAKS = re.compile("[\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")


class _Rules:
    """What the fast path needs of a profile, worked out once (see :func:`_rules`)."""

    def __init__(self, profile: RuleProfile, options: dict[str, str | int]) -> None:
        self.profile = profile
        self.options = options
        self.seats = profile.seats
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


def _supported(profile: RuleProfile) -> bool:
    """The profiles whose rules this module implements: the two-seat games of the classic family, with a turn-up,
    or without one and trumps fixed by the first declaration of a marriage or sequence (Rubicon, the six- and
    eight-pack games, no-trump), scored to a target or as a one-hand game."""
    return (
        profile.players == 2
        and profile.turnup != bool(profile.trump_fixing)
        and not (profile.trump_fixing and profile.card_points_trump_seven)
        and not profile.sides
        and not profile.hand_target
        and not profile.game_points
        and not profile.declare_lead_from
        and not profile.declare_joint
        and profile.declare_by == "winner"
        and profile.declare_after == "won_trick"
        and profile.declare_phases == (1,)
        and profile.declare_until in ("draw", "lead")
        and not profile.extra_cards
        and profile.seven_exchange_when in ("won_trick", "any_time")
        and profile.phase1_play in ("free", "follow_suit")
        and profile.phase2_play in ("free", "follow_suit", "follow_trump", "follow_win_trump")
        and profile.draw_order in ("winner_first", "leader_first")
        and profile.last_trick_to == "winner"
        and profile.brisques_when in ("always", "tie_or_rubicon")
        and profile.next_dealer == "alternate"
        and set(profile.ranks) <= set(_RANK_TEXT.values())
        and all(m.hand in (None, "no_court") and m.extends is None for m in profile.melds)
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


class _Deal:
    """One deal on a lean state: per seat (0, 1) the count of each card held, in hand and on the table together.
    ``trump`` and ``turnup`` are -1 while there are none (a profile without a turn-up, before trumps are fixed)."""

    def __init__(
        self, rules: _Rules, dealer: int, trump: int, turnup: int, hands: list[list[int]], cut: dict[str, int]
    ) -> None:
        self.rules = rules
        self.trump = trump
        self.turnup = turnup
        self.turnup_waiting = turnup >= 0
        self.stock_left = rules.face_down
        self.held = [[0] * 32, [0] * 32]
        seen = [0] * 32
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
        self.tables: list[list[TabledCard]] = [[], []]
        self.next_uid = 0
        profile = rules.profile
        self.leader = 1 - dealer  # of two seats, the dealer's left and his right are the same seat
        self.scores = [0, 0]
        if profile.seven_turnup and turnup >= 0 and turnup == trump * 8 + _SEVEN:
            self.scores[dealer] += profile.seven_turnup
        # The six-pack deal's bonuses (the engine's apply_cut): the non-dealer's exact guess of the cards the dealer
        # lifted, and the dealer's lift of exactly the profile's count.
        guess_points, lift_points, lift_count = profile.cut_bonus
        lifted = cut.get("cut")
        if lifted is not None and cut.get("guess") == lifted and guess_points:
            self.scores[1 - dealer] += guess_points
        if lifted is not None and lifted == lift_count and lift_points:
            self.scores[dealer] += lift_points
        self.trick_no = 0
        self.events: list[tuple[int, str, int]] = []
        """The automatic scores of the last trick and its exchange, (seat, kind, points): what a claim names."""
        self.winner = -1
        """The last trick's winner while he may still act on it (-1: nobody)."""
        self.window_open = False
        self.to_draw: list[int] = []
        self.declared: list[set[int]] = []
        self.second_seven_shown = False
        self.brisques = [0, 0]
        self.points_at_end = [0, 0]
        self.tricks_won = [0, 0]
        self.declared_kinds: list[Counter[str]] = [Counter(), Counter()]
        self.winners: list[int] = []
        self.blanche = [0, 0]
        """Carte blanche per seat: 0 not declared, 1 declared (each non-court card drawn may be shown for another),
        2 ended by a court card drawn (the engine's ``SeatState.blanche``)."""
        self.blanche_card = [-1, -1]
        """The non-court card just drawn that may be shown for another carte blanche, until the seat plays."""
        values = list(rules.card_points)
        if self.rules.profile.card_points_trump_seven:  # (with a turn-up: trumps known from the deal)
            values[trump * 8 + _SEVEN] = self.rules.profile.card_points_trump_seven
        self.values = values

    @property
    def phase(self) -> int:
        return 1 if (self.stock_left > 0 or self.turnup_waiting or self.to_draw) else 2

    def trick(self, number: int, first: int, lead: int, second: int, follow: int, stated: int) -> None:
        """Both plays of a trick, its winner and automatic scores, and the draws due after it."""
        rules = self.rules
        if number != self.trick_no + 1 or self.to_draw or first != self.leader or second != 1 - first:
            raise _Doubt
        if number > rules.total_tricks:
            raise _Doubt
        phase = self.phase
        self.winner = -1
        self.window_open = False
        self.blanche_card = [-1, -1]
        self._take(first, lead)
        profile = rules.profile
        if not self._may_follow(profile.phase2_play if phase == 2 else profile.phase1_play, second, lead, follow):
            raise _Doubt
        self._take(second, follow)
        trump = self.trump
        seven = trump * 8 + _SEVEN if trump >= 0 else -1
        scores = self.scores
        events = self.events = []
        if phase in rules.seven_played_phases and rules.seven_played and not profile.seven_played_must_win:
            for seat, card in ((first, lead), (second, follow)):
                if card == seven:
                    scores[seat] += rules.seven_played
                    events.append((seat, "seven_played", rules.seven_played))
        if (follow >> 3 == lead >> 3 and follow & 7 > lead & 7) or (follow >> 3 == trump and lead >> 3 != trump):
            winner, top = second, follow
        else:
            winner, top = first, lead
        if stated >= 0 and stated != winner:
            raise _Doubt
        self.trick_no = number
        self.tricks_won[winner] += 1
        self.brisques[winner] += rules.brisque[lead] + rules.brisque[follow]
        values = self.values
        if rules.points_at_trick:
            scores[winner] += values[lead] + values[follow]
            events.append((winner, "card_points", values[lead] + values[follow]))
        elif rules.points_at_end:
            self.points_at_end[winner] += values[lead] + values[follow]
        seven_won = top == seven
        if phase in rules.seven_played_phases and rules.seven_played and profile.seven_played_must_win and seven_won:
            scores[winner] += rules.seven_played
            events.append((winner, "seven_played", rules.seven_played))
        if number == rules.last_trick and profile.last_trick_points:
            scores[winner] += profile.last_trick_points
            events.append((winner, "last_trick", profile.last_trick_points))
        self.winners.append(winner)
        self.leader = self.winner = winner
        self.declared = []
        if phase == 1:
            self.window_open = True
            self.to_draw = [winner if profile.draw_order == "winner_first" else first]
            self.to_draw.append(1 - self.to_draw[0])

    def _may_follow(self, rule: str, seat: int, lead: int, card: int) -> bool:
        """Whether the second card may be played to this lead under a play rule (the engine's ``_obliged``)."""
        if rule == "free":
            return True
        held = self.held[seat]
        led = lead >> 3
        if card >> 3 == led:
            if rule == "follow_win_trump" and card & 7 <= lead & 7:
                return not any(held[c] for c in range(led * 8 + (lead & 7) + 1, led * 8 + 8))
            return True
        if any(held[led * 8 : led * 8 + 8]):
            return False
        if rule in ("follow_win_trump", "follow_trump") and self.trump >= 0 and card >> 3 != self.trump:
            return not any(held[self.trump * 8 : self.trump * 8 + 8])
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
            self.tables = [[], []]  # phase 2: the declared cards go back into the hands

    def _window(self, seat: int) -> None:
        """The engine's ``_window_problem``: only the winner of the last trick, while his window is open."""
        if self.phase != 1 or self.winner != seat or not self.window_open:
            raise _Doubt

    def exchange(self, seat: int, card: int, points: int | None) -> None:
        """The trump seven exchanged for the turn-up (or, where it scores, the other seven shown)."""
        rules = self.rules
        profile = rules.profile
        if not rules.exchange_any_time:
            self._window(seat)
        exchange_card = self.trump * 8 + rules.exchange_rank
        if card != exchange_card or not self.turnup_waiting or not self.held[seat][card]:
            raise _Doubt
        show = self.turnup == exchange_card
        if show and (not profile.seven_second or self.second_seven_shown):
            raise _Doubt
        awarded = profile.seven_second if show else profile.seven_exchange
        if points is not None and points != awarded:
            raise _Doubt
        self.scores[seat] += awarded
        self.events.append((seat, "seven_shown" if show else "seven_exchange", awarded))
        if show:
            self.second_seven_shown = True
            return
        self._take(seat, card)
        self.held[seat][self.turnup] += 1
        self.turnup = card

    def declare(self, seat: int, kind: str | None, cards: list[int], points: int | None) -> None:
        """A declaration scored after a won trick: the engine's ``apply_declare`` for one seat's own cards (and its
        ``apply_carte_blanche`` for a whole-hand meld named)."""
        rules = self.rules
        profile = rules.profile
        named = profile.meld(kind) if kind is not None else None
        if named is not None and named.whole_hand:
            self._carte_blanche(seat, named, cards, points)
            return
        self._window(seat)
        trump = Suit(_SUITS[self.trump]) if self.trump >= 0 else None
        shown = [_CARDS[c] for c in cards]
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
        as_set = set(cards)
        if self.declared and (rules.one_per_trick or any(as_set & prev for prev in self.declared)):
            raise _Doubt
        held = self.held[seat]
        table = self.tables[seat]
        # The concealed cards among those declared (the only ones choose_instances() looks up).
        on_table = Counter(t.card for t in table)
        hand = Counter({_CARDS[c]: held[c] - on_table[_CARDS[c]] for c in as_set})
        chosen = None
        for assignment in choose_instances(shown, hand, table):
            problem = reuse_problem(
                spec, assignment, table, rules.reuse, rules.meld_points, profile.no_reuse, self.trick_no
            )
            if problem is None:
                chosen = assignment
                break
        if chosen is None:
            raise _Doubt
        uids = list(chosen.tabled)
        for card in chosen.from_hand:
            table.append(TabledCard(self.next_uid, card))
            uids.append(self.next_uid)
            self.next_uid += 1
        nth = self.declared_kinds[seat][spec.kind] + 1
        value = spec.points_for(nth, profile.repeat_rule)
        if spec in fixing:  # the first marriage (or sequence) fixes trumps and scores what the profile gives it
            self.trump = cards[0] >> 3
            value = rules.fixing[spec.kind]
        if points is not None and points != value:
            raise _Doubt
        mark_scored(table, uids, spec, self.trick_no)
        self.scores[seat] += value
        self.declared_kinds[seat][spec.kind] += 1
        self.declared.append(as_set)

    def _carte_blanche(self, seat: int, spec: MeldSpec, cards: list[int], points: int | None) -> None:
        """A carte blanche: the whole hand without a court card shown before the first trick, then again each
        non-court card drawn, shown before the seat plays (the engine's ``apply_carte_blanche``). No trick need be
        won, and it is not the trick's one declaration."""
        if points is not None and points != spec.points:
            raise _Doubt
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
        self.scores[seat] += spec.points

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
        won = [n * points for n in self.brisques]
        if rules.brisques_conditional and rules.game_scoring is not None:
            # Rubicon: the brisques count only to break a tie or to lift a seat to the rubicon (both seats or none).
            seats = rules.seats
            counted = brisques_counted(
                dict(zip(seats, self.scores, strict=True)),
                dict(zip(seats, won, strict=True)),
                rules.game_scoring.rubicon,
            )
            won = won if counted else [0, 0]
        self.brisques = won
        for seat in (0, 1):
            self.scores[seat] += won[seat] + self.points_at_end[seat]


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
        self.totals = [0, 0]
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
            if len(self.hands) != 2 or any(len(h) != rules.profile.hand_size for h in self.hands.values()):
                raise _Doubt
            # A turn-up where the profile turns one up, which fixes trumps (a ``trump`` header may only agree);
            # without one, no trumps until a declaration fixes them.
            if rules.profile.turnup != (self.turnup >= 0) or (self.turnup < 0 and self.trump >= 0):
                raise _Doubt
            trump = self.turnup >> 3 if self.turnup >= 0 else -1
            if self.trump >= 0 and trump != self.trump:
                raise _Doubt
            hands = [self.hands[0], self.hands[1]]
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
        """A deal's end statement: ``brisques``, ``result`` or ``total``."""
        deal = self.deal
        if deal is None:
            raise _Doubt
        rules = self.rules
        if not self.ended and rules is not None:
            self.ended = True
            deal.finish()
            for seat in (0, 1):
                self.totals[seat] += deal.scores[seat]
            if rules.game_scoring is not None:
                scores = game_score(rules.game_scoring, dict(zip(rules.seats, deal.scores, strict=True)))
                self.game_scores = [scores[seat] for seat in rules.seats]
            self.decide(deal)
        actual = {"brisques": deal.brisques, "result": deal.scores, "total": self.totals, "game": self.game_scores}
        checked = actual["game" if what.startswith("game") else what]
        if checked is None:
            raise _Doubt  # a game score where the game is played to a target
        for letter, value in values:
            if checked[self.seat(letter)] != value:
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
            winner = game_winner(dict(zip(rules.seats, deal.scores, strict=True)))
            self.decided = -1 if winner is None else rules.seats.index(winner)
            return
        if rules.target is None:
            return
        over = [seat for seat in (0, 1) if self.totals[seat] >= rules.target]
        if len(over) == 1:
            self.decided = over[0]
        elif over and rules.options.get("tie_rule") == "last_trick":
            last = str(rules.options.get("last_trick", "final"))
            index = rules.profile.phase1_tricks if last == "24" else len(deal.winners)
            self.decided = deal.winners[index - 1]
        elif over:
            self.decided = max(over, key=lambda s: self.totals[s])


def _statements(text: str) -> list[str]:
    """The text's statements, one a line, without blank lines and comments (a comment may span lines, as long as
    nothing but comments follows it on the line where it closes)."""
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
        line_start = text.rfind("\n", 0, start) + 1
        if text.rfind("{", 0, start) > text.rfind("}", 0, start):
            raise _Doubt  # inside a comment left open
        if not _ASKED_AT.fullmatch(text, line_start, start) or not _ASKED_OF.match(text, m.end()):
            raise _Doubt
        body = m.group(1)
        if "|" in body and any(word not in _CARD_OF_TEXT for word in body.rpartition("|")[2].replace(",", " ").split()):
            raise _Doubt
        parts.append(text[pos:start])
        pos = m.end()
    parts.append(text[pos:])
    return "".join(parts)


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
            number, first, lead, second, follow, stated = m.groups()
            seat = game.seat
            game.playing().trick(
                int(number),
                seat(first),
                _CARD_OF_TEXT[lead],
                seat(second),
                _CARD_OF_TEXT[follow],
                seat(stated) if stated else -1,
            )
        elif head == "d" and line.startswith("draw"):
            m = _DRAWS.fullmatch(line)
            if m is None:
                raise _Doubt
            deal = game.current()
            seat_a, card_a, seat_b, card_b = m.groups()
            deal.draw(game.seat(seat_a), _CARD_OF_TEXT[card_a])
            if seat_b is not None:
                deal.draw(game.seat(seat_b), _CARD_OF_TEXT[card_b])
        elif (m := _VALUES.fullmatch(line)) is not None:
            what, seat_a, value_a, seat_b, value_b = m.groups()
            values = [(seat_a, int(value_a))]
            if seat_b is not None:
                values.append((seat_b, int(value_b)))
            if what == "score":
                scores = game.current().scores
                if any(scores[game.seat(letter)] != value for letter, value in values):
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
        seat, kind, cards, points = m.groups()
        if not cards and kind is None:
            raise _Doubt  # (the reader's BZ304: a declaration names its kind, its cards, or both)
        game.playing().declare(
            game.seat(seat), kind, [_CARD_OF_TEXT[c] for c in cards.split()], int(points) if points else None
        )
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
        if game.seat(game.winner) != game.decided:
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
    elif (m := _TRUMP.fullmatch(line)) is not None and game.trump < 0 and not game.start().fixing:
        game.trump = _SUITS.index(m.group(1))
    elif (m := _CUT.fullmatch(line)) is not None and m.group(1) not in game.cut:
        game.cut[m.group(1)] = int(m.group(2))
    else:
        raise _Doubt


def _game_header(game: _Game, line: str) -> None:
    """The text headers, ``players`` and ``profile``, each once, before the first deal."""
    if (m := _TEXT_HEADER.fullmatch(line)) is not None:
        key = m.group(1)
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
