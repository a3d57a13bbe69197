"""The rules of a game over its hands: who deals next, who has won, and how a one-hand game is scored.

The one-hand games (Rubicon, the six- and eight-pack games) follow RULES.md §2.e rules 13-15, §2.h rule 13 and §2.i
rule 6, with the numbers of the profile's ``game_scoring``; the games played to a target stop when a scorer reaches
it, the tie rule deciding between several (RULES.md §2.a rule 22).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..profile import GameScoring
from .compiled import Rules
from .melds import Breach

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (a validation's start needs none of it)
if TYPE_CHECKING:
    from typing import TypeVar

    _K = TypeVar("_K")

__all__ = [
    "GameState",
    "brisques_counted",
    "decide",
    "first_dealer",
    "game_score",
    "game_winner",
    "next_dealer",
    "redeal_problem",
]


def brisques_counted(scores: Sequence[int], brisques: Sequence[int], rubicon: int) -> bool:
    """Whether the brisques count at all (RULES.md §2.e rule 13, 000:L323): only when the scores are equal, or when
    they lift a scorer from below the rubicon to it. If one counts them, all do ([BI]/[CM], inferred)."""
    if len(set(scores)) == 1:
        return True
    return any(score < rubicon <= score + won for score, won in zip(scores, brisques, strict=True))


def game_winner(scores: Mapping[_K, int]) -> _K | None:
    """The scorer with the higher score (None on a tie: nobody wins the game)."""
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def game_score(rules: GameScoring, scores: Mapping[_K, int]) -> dict[_K, int]:
    """Each scorer's score for the game, from the hand's final scores (brisques already counted or not).

    Normal case (the loser reached the rubicon): with ``difference`` the winner scores the game bonus and the
    difference (001:L65 "500 очок і різницю"), the loser nothing; without it the winner adds the bonus to his own
    score (000:L465 "добавляя себе 1000 очков") and the loser keeps his. A rubiconed loser's score is added to the
    winner's with the rubicon bonus (000:L327, 001:L65), and the low bonus when he scored below ``low_score``; the
    loser scores nothing. A tie: nobody wins, both keep their scores.
    """
    winner = game_winner(scores)
    if winner is None:
        return dict(scores)
    loser_points = max(v for s, v in scores.items() if s != winner)
    result = dict.fromkeys(scores, 0)
    own = scores[winner]
    if loser_points >= rules.rubicon:
        if rules.difference:
            result[winner] = rules.game_bonus + own - loser_points
        else:
            result = dict(scores)
            result[winner] = own + rules.game_bonus
        return result
    result[winner] = own + loser_points + rules.rubicon_bonus
    if loser_points < rules.low_score:
        result[winner] += rules.low_bonus
    return result


def next_dealer(rules: Rules, dealer: int, won: Sequence[int], redealt: bool = False) -> int:
    """The next hand's dealer after ``dealer``'s hand, which scored ``won`` game points per seat: the winner or the
    loser of that hand where the profile's ``next_dealer`` says so (RULES.md §2.k rule 4), else the next seat. A
    misdeal is dealt again by the same dealer (002:L18 "нуждается в пересдаче"; who redeals is inferred)."""
    if redealt:
        return dealer
    winners = [seat for seat, points in enumerate(won) if points]
    following = rules.next_seat[dealer]
    if rules.next_dealer == "alternate" or len(winners) != 1:
        return following
    return winners[0] if rules.next_dealer == "winner" else rules.next_seat[winners[0]]


def first_dealer(rules: Rules, leader: int) -> int:
    """The dealer of a deal whose first leader is ``leader``: the profile's ``first_leader`` step taken back (the
    seat to the dealer's left leads in most profiles, the seat to his right in seed 004's three-handed game)."""
    return (leader - rules.first_leader_step) % rules.players


def redeal_problem(rules: Rules, tricks: int) -> Breach | None:
    """Why a deal may not be declared a misdeal and dealt again (``redeal``): the profile has no such rule, or play
    has begun (002:L18 "Неправильная сдача нуждается в пересдаче": the deal, not a hand played on it)."""
    if not rules.redeal:
        return ("BZ113", "no_redeal_rule", ())
    if tricks:
        return ("BZ113", "redeal_after_play", (tricks,))
    return None


def decide(
    rules: Rules,
    totals: Sequence[int],
    trick_winners: Sequence[int],
    claimed: int = -1,
    barred: Sequence[int] = (),
) -> int:
    """The scorer who has won a game played to a target, after a hand whose tricks ``trick_winners`` won (a seat
    each, -1 for a trick without a winner); -1 while nobody has reached the target.

    When several reach it in one hand the tie rule decides: the winner of the hand's last trick (the trick the
    last-trick bonus goes to); when a third player (or side) took it, of those over the target the one who won a
    trick last (001:L7, RULES.md §2.b rule 19). Otherwise, and by the other rule, the higher total.

    ``claimed``: the scorer who has rightly claimed the game, whose it is (002:L16); ``barred``: the scorers a false
    claim has cost the right to this game's prize (002:L16 "теряет право на этот приз"), who cannot win it.
    """
    target = rules.target
    if target is None:
        return -1
    if claimed >= 0:
        return claimed
    over = [scorer for scorer, total in enumerate(totals) if total >= target and scorer not in barred]
    if not over:
        return -1
    if len(over) == 1:
        return over[0]
    if rules.tie_by_last_trick:
        for seat in reversed(trick_winners[: rules.last_trick]):
            if seat >= 0 and rules.scorer[seat] in over:
                return rules.scorer[seat]
    return max(over, key=lambda scorer: totals[scorer])


class GameState:
    """A game over its deals: who deals each one, each scorer's total, the claims, and when the game is won.

    The deal-level rules are :class:`~replayer.rules.deal.DealState`'s; this object holds what lies between deals.
    A game played to a target ends at the end of the first deal after which a scorer has reached it (001:L6-L7, 002:L16,
    003:L27, 004:L63); a one-hand game (Rubicon and the other profiles with ``game_scoring``) ends with its hand. No
    deal may follow: :meth:`begin_deal` answers the breach ``BZ508``. A misdeal dealt again (``redeal``) is no
    deal of the game.
    """

    __slots__ = (
        "_redealt",
        "_won",
        "barred",
        "claimed",
        "dealer",
        "deals",
        "decided",
        "history",
        "over_after",
        "rules",
        "totals",
    )

    rules: Rules
    totals: list[int]
    """Each scorer's total from the deals ended so far (game points where the profile counts them)."""
    dealer: int
    """The dealer of the last deal begun (-1: none yet)."""
    deals: int
    """Deals ended (misdeals not counted)."""
    decided: int
    """The scorer who has won the game (-1: nobody, or a one-hand game tied)."""
    over_after: int
    """The deal after which the game ended (0: it goes on)."""
    claimed: int
    """The scorer who has rightly claimed the game (002:L16; -1: nobody)."""
    barred: list[int]
    """The scorers a false claim has cost the right to win this game (002:L16)."""
    history: list[tuple[int, tuple[int, ...]]]
    """After each deal ended: the scorer who had won the game by then (-1: nobody yet), and the totals."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.totals = [0] * len(rules.scorers)
        self.dealer = -1
        self.deals = 0
        self.decided = -1
        self.over_after = 0
        self.claimed = -1
        self.barred = []
        self.history = []
        self._won: list[int] = []
        self._redealt = False

    def copy(self) -> GameState:
        """A copy that the game's later deals do not change (the rules shared)."""
        copied = GameState.__new__(GameState)
        for name in GameState.__slots__:
            value = getattr(self, name)
            setattr(copied, name, list(value) if type(value) is list else value)
        return copied

    @property
    def over(self) -> bool:
        """The game has ended: no deal may follow."""
        return self.over_after > 0

    def expected_dealer(self) -> int | None:
        """Who deals the next deal by the rules (None at the first deal, where the record says or the leader
        tells)."""
        if self.dealer < 0:
            return None
        return next_dealer(self.rules, self.dealer, self._won, self._redealt)

    def dealer_rule(self) -> str:
        """Which rule names the next dealer: ``alternate`` (the deal passes in turn), ``winner`` or ``loser`` (of
        the hand before), ``no_winner`` (the hand before had no single winner, so the deal passes in turn:
        inferred, 003:L13 speaks only of the loser), ``redeal`` (a misdeal is dealt again by the same dealer)."""
        rule = self.rules.next_dealer
        if self._redealt:
            return "redeal"
        if rule != "alternate" and sum(1 for points in self._won if points) != 1:
            return "no_winner"
        return rule

    def dealer_of(self, written: int | None, leader: int | None, number: int) -> tuple[int | None, Breach | None]:
        """The dealer of deal ``number`` (1-based, misdeals counted), which the record names ``written`` (a seat; -1:
        a name that is no seat; None: not named) and whose first leader it names ``leader`` (None: not named, or no
        seat): as written, else as the rules expect, else from the leader by the profile's step. The breach when the
        written dealer is not the one the rules expect (where the profile checks it); None when nothing tells."""
        expected = self.expected_dealer()
        if written is None:
            written = expected
        elif expected is not None and written != expected and self.rules.checks_dealer:
            return written, ("BZ110", "wrong_dealer", (expected, number, self.dealer_rule()))
        if written is None and leader is not None:
            written = first_dealer(self.rules, leader)
        return written, None

    def winner_problem(self, written: int, said: str, deals: int) -> Breach | None:
        """A record's ``winner`` line, standing after the game's first ``deals`` deals and naming ``written`` (a
        scorer, spelt ``said``; -1: no seat or side of the game): the breach when by then the rules make another
        scorer the winner, or nobody yet."""
        if written < 0:
            return ("BZ105", "no_such_winner", (said,))
        decided, totals = self.after(deals)
        if written == decided:
            return None
        return ("BZ505", "wrong_game_winner", (said, decided, self.rules.target, totals))

    def begin_deal(self, dealer: int) -> Breach | None:
        """Start a deal dealt by ``dealer``; the breach when the game was already over (the deal is still played, so
        that its own faults are found too)."""
        self.dealer = dealer
        if not self.over:
            return None
        rules = self.rules
        if rules.game_scoring is not None:
            return ("BZ508", "one_hand_game", (self.deals + 1,))
        decided, totals = self.after(self.over_after)
        return ("BZ508", "game_won", (self.deals + 1, decided, self.over_after, rules.target, totals))

    def claim(self, scorer: int, right: bool | None) -> None:
        """A claim of the game by ``scorer``: a right one wins it (002:L16), a false one may cost him the right to
        it where the profile says so (``false_claim_loses``)."""
        if right and self.claimed < 0:
            self.claimed = scorer
        elif right is False and self.rules.false_claim_loses and scorer not in self.barred:
            self.barred.append(scorer)

    def end_deal(
        self, scores: Sequence[int], game_points: Sequence[int], trick_winners: Sequence[int], redealt: bool = False
    ) -> None:
        """End the deal begun: ``scores`` per scorer (the hand's points), ``game_points`` per seat where the profile
        counts game points (sixty-six; empty otherwise), ``trick_winners`` the seat that won each trick (-1: none).
        Adds to the totals and decides the game."""
        rules = self.rules
        self._won = list(game_points) if game_points else [0] * rules.players
        self._redealt = redealt
        if redealt:
            return
        self.deals += 1
        if game_points:
            for seat, points in enumerate(game_points):
                self.totals[rules.scorer[seat]] += points
        else:
            for scorer, points in enumerate(scores):
                self.totals[scorer] += points
        if not self.over:
            if rules.game_scoring is not None:
                winner = game_winner(dict(enumerate(scores)))
                self.decided = winner if winner is not None else -1
                self.over_after = self.deals
            else:
                self.decided = decide(rules, self.totals, trick_winners, self.claimed, self.barred)
                if self.decided >= 0:
                    self.over_after = self.deals
        self.history.append((self.decided, tuple(self.totals)))

    def after(self, deals: int) -> tuple[int, tuple[int, ...]]:
        """The game after its first ``deals`` deals: the scorer who had won it by then (-1: nobody yet), and the
        totals."""
        if 0 < deals <= len(self.history):
            return self.history[deals - 1]
        return -1, (0,) * len(self.totals)
