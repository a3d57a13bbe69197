"""bench.py's random playouts (issue 21's figure) pick the moves ``random.Random.choice`` would: the same deals
are timed however the loop draws its random numbers."""

from __future__ import annotations

import random
from pathlib import Path

from benchmodule import load_bench

from replayer.profiles import load_profile
from replayer.rules import compile_rules
from replayer.rules.position import Position

ROOT = Path(__file__).resolve().parent.parent


def test_random_playouts_choose_as_random_choice() -> None:
    profile = load_profile("classic")
    rules = compile_rules(profile, profile.default_options())
    fast = random.Random(7)
    made = load_bench().random_playouts(rules, 6, fast)
    slow = random.Random(7)
    moves: list[list[str]] = []
    for n in range(6):
        pos = Position.new(rules, n % 2, slow)
        moves.append([])
        while legal := pos.legal_moves():
            move = slow.choice(legal)
            moves[-1].append(move.text(rules.seats))
            pos.play_on(move)
    # The same numbers drawn (the generator's state after them) and as many moves: the same choices.
    assert made == sum(map(len, moves))
    assert fast.getstate() == slow.getstate()
    assert any("declares" in m for deal in moves for m in deal)  # (the deals reach declarations, not only plays)
