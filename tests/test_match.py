"""Players against each other (replayer/match.py, ``bezique match``) and the sampler player of ``generate``."""

from __future__ import annotations

import json

import pytest

from replayer.check import check_text
from replayer.cli import main
from replayer.generate import generate_game
from replayer.match import match


def test_a_match_swaps_seats_so_a_player_against_itself_scores_nothing() -> None:
    found = match(["better", "solver"], 3, seed=2)
    assert found["mean"] == 0 and found["ci95"] == [0, 0]
    assert found["wins"] == {"better": 0.5, "solver": 0.5}


def test_the_better_player_beats_random_the_same_in_any_number_of_processes() -> None:
    found = match(["better", "random"], 8, seed=1)
    assert found == match(["better", "random"], 8, seed=1, jobs=2)
    assert set(found) >= {"players", "profile", "deals", "mean", "ci95", "wins"}
    assert found["players"] == ["better", "random"] and found["deals"] == 8 and found["profile"] == "classic"
    lo, hi = found["ci95"]
    assert lo <= found["mean"] <= hi
    assert found["wins"]["better"] + found["wins"]["random"] == pytest.approx(1)
    assert found["mean"] > 0 and found["wins"]["better"] > 0.5  # (eight pairs: far above chance, not a measurement)


def test_match_command(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--players", "better,random", "--deals", "2", "--seed", "4", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["players"] == ["better", "random"] and data["deals"] == 2
    assert main(["match", "--players", "better,random", "--deals", "2", "--seed", "4"]) == 0
    out = capsys.readouterr().out
    assert f"mean {data['mean']:+.1f} points a deal for better" in out and "95% interval" in out
    assert main(["match", "--players", "better,expert", "--deals", "2"]) == 2
    assert main(["match", "--players", "better,random", "--profile", "three-handed", "--deals", "2"]) == 2
    assert main(["match", "--players", "better,random", "--deals", "0"]) == 2
    assert "unknown player" in capsys.readouterr().err


def test_the_sampler_plays_legal_games() -> None:
    text = generate_game("sixty-six", 1, player="sampler")
    assert "--player sampler" in text
    result = check_text(text)
    assert result.valid, [d.message for d in result.diagnostics]


def test_the_sampler_leaves_the_better_players_card_only_for_a_clear_mistake() -> None:
    """Where the better player's card is not a mistake by the analysis's measure (a cost of 10 points and two
    standard errors on the sampled deals), the sampler plays it; else the best mean. Without the fall-back, the best
    mean always."""
    import math
    import random

    from replayer.check import check_text
    from replayer.match import Sampler
    from replayer.player import better_card
    from replayer.sampling import MISTAKE_POINTS, judge, play_points

    deal = check_text(generate_game("classic", 7, player="random"), states=True).games[0].deals[0]
    tricks = [t for t in deal.tricks if t.state is not None]
    kept = left = 0
    for n, (trick, seat, _, state, facts) in enumerate(play_points(tricks, 2)):
        legal = sorted(state.legal_plays(seat))
        if trick.phase != 1 or len(legal) < 2 or n % 3:
            continue
        chosen = Sampler(random.Random(n), 4).play(state, seat, legal, facts)
        greedy = Sampler(random.Random(n), 4, fallback=False).play(state, seat, legal, facts)
        judged = judge(state, seat, facts, 4, random.Random(n))
        side = state.rules.scorer[seat]
        diffs = [[p[side] - p[1 - side] for p in row] for row in judged.points]
        means = [sum(d) / len(d) for d in diffs]
        best = max(range(len(means)), key=lambda i: means[i])
        assert greedy == judged.cards[best]
        usual = judged.cards.index(better_card(state, seat, legal))
        paired = [b - u for b, u in zip(diffs[best], diffs[usual], strict=True)]
        cost = means[best] - means[usual]
        se = math.sqrt(sum((x - cost) ** 2 for x in paired) / (len(paired) - 1) / len(paired))
        mistake = cost >= MISTAKE_POINTS and cost >= 2 * se
        assert chosen == (judged.cards[best] if mistake else judged.cards[usual])
        kept += not mistake
        left += mistake
    assert kept and left, (kept, left)
