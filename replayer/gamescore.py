"""End-of-game scoring for the one-hand games (Rubicon, six- and eight-pack). Pure functions, no I/O.

The rules are RULES.md §2.e rules 13-15 (Rubicon), §2.h rule 13 (six-pack) and §2.i rule 6 (eight-pack); the
numbers come from the profile's ``game_scoring`` (:class:`~replayer.rules.GameScoring`).
"""

from __future__ import annotations

from collections.abc import Mapping

from .rules import GameScoring

__all__ = ["brisques_counted", "game_score", "game_winner"]


def brisques_counted(scores: Mapping[str, int], brisques: Mapping[str, int], rubicon: int) -> bool:
    """Whether the brisques count at all (RULES.md §2.e rule 13, 000:L323): only when the scores are equal, or when
    they lift a player from below the rubicon to it. If one player counts them, both do ([BI]/[CM], inferred)."""
    if len(set(scores.values())) == 1:
        return True
    return any(scores[s] < rubicon <= scores[s] + brisques.get(s, 0) for s in scores)


def game_winner(scores: Mapping[str, int]) -> str | None:
    """The seat with the higher score (None on a tie: nobody wins the game)."""
    ranked = sorted(scores.items(), key=lambda item: -item[1])
    if len(ranked) > 1 and ranked[0][1] == ranked[1][1]:
        return None
    return ranked[0][0]


def game_score(rules: GameScoring, scores: Mapping[str, int]) -> dict[str, int]:
    """Each seat's score for the game, from the hand's final scores (brisques already counted or not).

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
