"""The fuzz campaign's own bookkeeping (bench/fuzz_campaign.py): a case that fails or hangs is counted and kept, and
the campaign goes on, even where the case is stuck inside a C call that no Python signal handler interrupts."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import GAMES

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def campaign() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fuzz_campaign", ROOT / "bench" / "fuzz_campaign.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fuzz_campaign"] = module
    spec.loader.exec_module(module)
    return module


def _run(campaign: ModuleType, monkeypatch: Any, tmp_path: Path, check: Any, isolate: bool = True) -> str:
    worked = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    monkeypatch.setattr(campaign, "bases", lambda: [worked])
    monkeypatch.setattr(campaign, "check", check)
    runner = campaign.Campaign(1, 1.0, tmp_path, 40, 0.0, isolate)
    outcome, planted, seconds = runner.case(7)
    assert planted is False and seconds >= 0
    return str(outcome)


def test_a_case_stuck_in_a_c_call_is_a_hang_and_kept(campaign: ModuleType, monkeypatch: Any, tmp_path: Path) -> None:
    # sum() over a huge range runs in C: the CPU alarm's Python handler cannot run until it returns; the kernel's
    # CPU limit on the forked child stops it.
    assert _run(campaign, monkeypatch, tmp_path, lambda text, rng, bench: sum(range(10**15))) == "hang"
    assert [p.name for p in tmp_path.iterdir()] == ["hang-7.bzq"]


def test_a_failing_case_is_kept_with_its_traceback(campaign: ModuleType, monkeypatch: Any, tmp_path: Path) -> None:
    def broken(text: str, rng: object, bench: object) -> None:
        raise ValueError("planted")

    assert _run(campaign, monkeypatch, tmp_path, broken) == "fail"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fail-7.bzq", "fail-7.txt"]
    assert "ValueError: planted" in (tmp_path / "fail-7.txt").read_text(encoding="utf-8")


@pytest.mark.parametrize("isolate", [True, False])
def test_a_passing_case_is_ok_in_a_child_or_in_process(
    campaign: ModuleType, monkeypatch: Any, tmp_path: Path, isolate: bool
) -> None:
    assert _run(campaign, monkeypatch, tmp_path, lambda text, rng, bench: None, isolate) == "ok"
    assert list(tmp_path.iterdir()) == []
