"""``--cluster ADDRESS`` (issue 22): ``analyse --all``, ``puzzles`` and ``match`` run their deals on a Dask
distributed scheduler with the same results as ``--jobs``; without Dask, a usage error (exit status 2)."""

from __future__ import annotations

import builtins
import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

from replayer.check import check_text
from replayer.cli import main
from replayer.generate import generate_game
from replayer.match import match
from replayer.puzzles import mine_paths
from replayer.sampling import judge_deals

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A local scheduler with two worker threads in this process (no processes started), its address."""
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as local:
        yield local.scheduler_address


def test_the_sampled_analysis_on_a_cluster_equals_jobs(cluster: str) -> None:
    deal = check_text(generate_game("classic", 3, player="solver"), states=True).games[0].deals[0]
    late = SimpleNamespace(number=1, tricks=deal.tricks[21:])
    here = judge_deals([(1, late)], samples=2, seed=5, jobs=2)
    there = judge_deals([(1, late)], samples=2, seed=5, cluster=cluster)
    assert there == here
    assert len(there[0]["plays"]) == sum(len(t.plays) for t in deal.tricks[21:])


def test_a_match_on_a_cluster_equals_jobs(cluster: str) -> None:
    here = match(["better", "random"], 4, seed=2, jobs=2)
    assert match(["better", "random"], 4, seed=2, cluster=cluster) == here


def test_puzzles_on_a_cluster_equal_jobs(cluster: str, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus.bzq"
    # (seeds 126 and 137 hold a puzzle in their last tricks; 1 and 2 none)
    corpus.write_text("".join(generate_game("classic", seed) for seed in (1, 126, 2, 137)), encoding="utf-8")
    here = mine_paths([corpus], jobs=2, progress=False, early=0)
    there = mine_paths([corpus], progress=False, early=0, cluster=cluster)
    assert [p.record for p in there] == [p.record for p in here] and here


def test_the_cli_takes_a_cluster(cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["match", "--players", "better,random", "--deals", "2", "--cluster", cluster, "--json"]) == 0
    there = json.loads(capsys.readouterr().out)
    assert main(["match", "--players", "better,random", "--deals", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == there


def test_without_dask_the_flag_is_a_usage_error(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    real = builtins.__import__

    def no_dask(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "distributed" or name.startswith(("distributed.", "dask")):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_dask)
    record = ROOT / "games" / "worked-deal-000.bzq"
    out = tmp_path / "puzzles"
    for argv in (
        ["analyse", str(record), "--all", "--cluster", "tcp://127.0.0.1:1"],
        ["puzzles", str(record), "--out", str(out), "--cluster", "tcp://127.0.0.1:1"],
        ["match", "--players", "better,random", "--deals", "1", "--cluster", "tcp://127.0.0.1:1"],
    ):
        assert main(argv) == 2
        assert "pip install 'bezique-replayer[cluster]'" in capsys.readouterr().err
