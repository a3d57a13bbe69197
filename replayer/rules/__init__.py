"""The rules core: every rule of bezique, for every profile, decided in one place on a compact representation.

- :mod:`.compiled`: a profile and a game's options compiled once into :class:`Rules`, the one object every rule
  reads (each option is interpreted there, or by its ``sets`` in the profile's YAML, and nowhere else);
- :mod:`.deal`: a deal's state (:class:`DealState`) and its actions: plays and the obligations of each phase, the trick
  winner over any number of seats, draws, the trump seven, declarations and when they may be made, every automatic
  score, penalties, the end of a hand;
- :mod:`.melds`: which melds cards form, which physical cards a declaration uses, and the re-use rules;
- :mod:`.game`: a game over its deals (:class:`GameState`): the dealers, the totals, claims, the game's end and
  winner, and the scoring of a one-hand game.

Cards are ints (``Card.index``), seats and scorers their index in the profile. The core answers "legal", or records
a breach ``(code, key, args)``; :mod:`replayer.explain` says it in words, and :mod:`replayer.engine` offers the same
rules in Card objects for the random player, the lessons and the tests. Nothing here does I/O.
"""

from __future__ import annotations

from .compiled import Rules, compile_rules
from .deal import DealState, Event, end_worth, obligation, score_trick, seven_played_bonus, trick_winner, winning_reason
from .game import (
    GameState,
    brisques_counted,
    decide,
    first_dealer,
    game_score,
    game_winner,
    next_dealer,
    redeal_problem,
)
from .melds import Breach, TabledCard, identify, matches

__all__ = [
    "Breach",
    "DealState",
    "Event",
    "GameState",
    "Rules",
    "TabledCard",
    "brisques_counted",
    "compile_rules",
    "decide",
    "end_worth",
    "first_dealer",
    "game_score",
    "game_winner",
    "identify",
    "matches",
    "next_dealer",
    "obligation",
    "redeal_problem",
    "score_trick",
    "seven_played_bonus",
    "trick_winner",
    "winning_reason",
]
