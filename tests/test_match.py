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
