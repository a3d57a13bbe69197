"""bench.py's comparison with another version (``--reference``): both versions are timed on the games the other
version holds valid, and the reference's validation runs in a child process under its own tree."""

from __future__ import annotations

from pathlib import Path

from benchmodule import load_bench

from replayer.generate import generate_game

ROOT = Path(__file__).resolve().parent.parent


def test_common_games_leave_out_what_the_reference_rejects(tmp_path: Path) -> None:
    bench = load_bench()
    games = [generate_game("classic", seed) for seed in (1, 2, 3)]
    # The second game's last stated score is made wrong: the reference (here this tree) reports it.
    lines = games[1].rstrip("\n").split("\n")
    last = max(i for i, line in enumerate(lines) if line.strip().startswith("score "))
    lines[last] = lines[last].replace(" 0", " 7", 1) if " 0" in lines[last] else lines[last] + "0"
    games[1] = "\n".join(lines) + "\n"
    text = "\n".join(games)
    path = tmp_path / "corpus.bzq"
    path.write_text(text, encoding="utf-8")
    kept = bench.common_games(text, path, ROOT)
    assert bench.split_games(kept) == [games[0], games[2]]


def test_reference_run_times_a_warm_validation(tmp_path: Path) -> None:
    bench = load_bench()
    path = tmp_path / "corpus.bzq"
    path.write_text("\n".join(generate_game("classic", seed) for seed in (4, 5)), encoding="utf-8")
    seconds, valid, games = bench.reference_run(ROOT, path, "time")
    assert valid and games == 2 and seconds > 0
