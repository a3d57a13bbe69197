"""Validating game by game (replayer/check.py): the same report as the whole file, in flat memory."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from conftest import DATA, GAMES
from hypothesis import given, settings
from test_fuzz import EXAMPLES, FUZZ, byte_edits, line_edits

from replayer.check import NotStreamable, Outcome, _validate_by_game, _validate_whole, game_chunks, validate_one
from replayer.generate import generate_game

MANY = "\n".join(generate_game(profile, seed) for seed, profile in enumerate(["classic", "ua2", "ru19", "ruwiki"] * 2))


def same_report(path: Path, analyse: bool = True) -> bool:
    """The game-by-game report equals the whole file's; True when the file could be read game by game."""
    whole = _validate_whole(str(path), True, analyse)
    try:
        parts = _validate_by_game(str(path), True, analyse)
    except NotStreamable:
        return False
    assert _untimed(parts) == _untimed(whole)
    return True


def _untimed(outcome: Outcome) -> Outcome:
    """The outcome without the inference's running time (it differs between two runs)."""
    stdout = re.sub(r"completed in [0-9.]+ s", "completed", outcome.stdout)
    return Outcome(outcome.path, outcome.valid, outcome.games, outcome.errors, outcome.stderr, stdout)


@pytest.mark.parametrize(
    "path", sorted(GAMES.glob("*.bzq")) + sorted((DATA / "invalid").glob("*.bzq")), ids=lambda p: p.name
)
def test_records(path: Path) -> None:
    same_report(path)


def test_the_worked_games_are_read_game_by_game() -> None:
    assert all(same_report(GAMES / name) for name in ("worked-deal-000.bzq", "worked-deal-000-as-printed.bzq"))


def _write(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "r.bzq"
    if isinstance(text, str):
        text = text.encode("utf-8")
    path.write_bytes(text)
    return path


def test_many_games_with_problems_and_comments(tmp_path: Path) -> None:
    worked = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    text = '{ a preamble\n game "not a game: inside a comment" }\n' + MANY + "\n" + worked
    # a wrong score in the third game and in the last: positions and source lines are the file's
    text = text.replace("score N 0, S 0", "score N 5, S 0", 1)
    parts = text.split('game "')
    parts[3] = parts[3].replace("score ", "score N 1, ", 1)
    path = _write(tmp_path, 'game "'.join(parts))
    assert same_report(path)
    assert not validate_one((str(path), True, True)).valid
    assert same_report(_write(tmp_path, MANY.replace("\n", "\r\n")))  # CRLF line ends


@pytest.mark.parametrize(
    "text",
    [
        "\ufeff" + MANY,  # a byte-order mark
        MANY + "\ntrick 1: S 9X, N QC\n",  # a syntax error after the first games
        MANY.replace("deal 1", "deal 1\u2028", 3),  # a line break that str.splitlines() knows
        MANY + "\nhand N: AS\n",  # a structure error (a header after the tricks)
    ],
)
def test_the_whole_file_path_where_needed(tmp_path: Path, text: str) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(NotStreamable):
        _validate_by_game(str(path), False, True)
    assert _untimed(validate_one((str(path), False, True))) == _untimed(_validate_whole(str(path), False, True))


def test_not_utf8(tmp_path: Path) -> None:
    path = _write(tmp_path, MANY.encode("utf-8") + b"\n{ \xff }\n")
    with pytest.raises(NotStreamable):
        _validate_by_game(str(path), False, True)


def test_parts_start_at_game_statements_outside_comments() -> None:
    text = b'{ x\ngame "in a comment" }\ngame "a"\ndeal 1\n  game "b" {\n}\ngamer\ngame score N 1\nGAME\n'
    parts = list(game_chunks(io.BytesIO(text)))
    # (the comments before the first game are read with it: a part of comments only is not a record, BZ006)
    assert [first for first, _ in parts] == [1, 5, 9]
    assert b"".join(data for _, data in parts) == text


@settings(FUZZ, max_examples=EXAMPLES["bytes"])
@given(byte_edits())
def test_byte_edits(data: bytes) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        same_report(_write(Path(folder), data + b"\n" + MANY.encode("utf-8")), analyse=False)


@settings(FUZZ, max_examples=EXAMPLES["lines"])
@given(line_edits())
def test_line_edits(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        same_report(_write(Path(folder), MANY + "\n" + text), analyse=False)


@pytest.mark.skipif(not Path("/proc/self/status").is_file(), reason="reads the peak memory from /proc")
def test_a_large_file_validates_in_bounded_memory(tmp_path: Path) -> None:
    """About 10 MB of games: the peak memory stays far below what holding the file's records takes."""
    game = generate_game("classic", 3)
    count = 10_000_000 // len(game.encode("utf-8")) + 1
    path = tmp_path / "large.bzq"
    with path.open("w", encoding="utf-8") as handle:
        for _ in range(count):
            handle.write(game + "\n")
    # The peak of the process's own memory: VmHWM starts afresh at exec (ru_maxrss would count the memory of the
    # forked test process before the exec).
    code = (
        "import re, sys; from replayer.cli import main; status = main(['validate', '-q', sys.argv[1]]); "
        "print(re.search(r'VmHWM:\\s*(\\d+) kB', open('/proc/self/status').read()).group(1)); sys.exit(status)"
    )
    done = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    peak_mib = int(done.stdout.split()[-1]) / 1024
    # Reading the whole file takes several hundred MiB here; one game at a time, Python and the modules (~40).
    assert peak_mib < 100, f"peak memory {peak_mib:.0f} MiB"


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    from replayer.cli import main

    status = main(argv)
    out, err = capsys.readouterr()
    return status, out, err


def test_jobs_spread_the_games_of_one_file_in_order(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = MANY.replace("score N 0, S 0", "score N 5, S 0") + "\n" + MANY.replace("score ", "score N 1, ", 1)
    path = _write(tmp_path, text)
    one = _run(["validate", str(path)], capsys)
    assert one[0] == 1 and one[2].count("BZ501") >= 2
    assert _run(["validate", str(path), "--jobs", "2"], capsys) == one
    summary = _run(["validate", str(path), "--summary", "json"], capsys)
    assert _run(["validate", str(path), "--summary", "json", "--jobs", "3"], capsys) == summary
    # a file that must be read whole (a syntax error in a later game) reports the same with processes
    broken = _write(tmp_path, MANY + "\ntrick 1: S 9X, N QC\n")
    whole = _run(["validate", str(broken)], capsys)
    assert whole[0] == 1 and "BZ003" in whole[2]
    assert _run(["validate", str(broken), "--jobs", "2"], capsys) == whole


class _Terminal(io.StringIO):
    def __init__(self, tty: bool) -> None:
        super().__init__()
        self.tty = tty

    def isatty(self) -> bool:
        return self.tty


def test_progress_only_on_a_terminal_and_erased() -> None:
    from replayer.check import Progress

    for tty in (True, False):
        stream = _Terminal(tty)
        progress = Progress(1000, stream, delay=0.0)
        progress.advance(500, 3)
        drawn = stream.getvalue()
        progress.close()
        if tty:
            assert "validating:  50% of 0.0 MB, 3 game(s)" in drawn
            assert stream.getvalue().endswith("\r" + " " * (len(drawn) - 1) + "\r")
        else:
            assert stream.getvalue() == ""


def test_no_progress_when_stderr_is_not_a_terminal(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What validate prints on stderr (a pipe, a file) has no progress line, however long the run."""
    status, _, err = _run(["validate", str(_write(tmp_path, MANY))], capsys)
    assert status == 0 and err == ""


def test_progress_in_a_pseudo_terminal(tmp_path: Path) -> None:
    """On a terminal a long run shows the progress line; it is erased, and the report follows as usual."""
    import os
    import pty

    path = _write(tmp_path, "\n".join([MANY] * 3))
    code = (
        "import sys; from replayer import check, cli; "
        "check.Progress.__init__.__defaults__ = (None, 0.0); "  # draw at once (a long run waits a second)
        "sys.exit(cli.main(['validate', sys.argv[1]]))"
    )
    controller, terminal = pty.openpty()
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)], stdout=subprocess.PIPE, stderr=terminal, check=False, timeout=300
    )
    os.close(terminal)
    chunks = []
    while True:
        try:
            chunk = os.read(controller, 65536)
        except OSError:
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(controller)
    shown = b"".join(chunks).decode()
    assert done.returncode == 0
    assert "validating:" in shown and shown.endswith("\r")
    assert b"ok (24 game(s))" in done.stdout


# --- issue 23: a game of many deals is read a deal at a time ---------------------------------------------------------

# (a target out of reach: a game ends with the deal that reaches its target)
LONG = generate_game("classic", 3, deals=20, options={"target": "10000000"})
"""A game of 20 deals: more than replayer.check._DEAL_BY_DEAL, so its deals are read one at a time."""


def test_a_long_game_read_deal_by_deal_reports_what_the_whole_file_does(tmp_path: Path) -> None:
    from replayer import check

    assert LONG.count("\ndeal ") >= check._DEAL_BY_DEAL
    lines = LONG.split("\n")
    scores = [i for i, line in enumerate(lines) if line.strip().startswith("score ")]
    for at in (scores[5], scores[-3]):  # a wrong score in an early deal and in the last
        lines[at] = lines[at].replace("score N ", "score N 1", 1)
    text = "{ before the game }\n" + "\n".join(lines) + "\n{ after the last deal }\nwinner S\n"
    assert same_report(_write(tmp_path, text))
    assert not validate_one((str(_write(tmp_path, text)), False, True)).valid
    # A deal that does not read on its own, or a header after a deal: the whole file's report.
    for bad in (text.replace("deal 7\n", "deal 7\ntrick 1: N 9X\n", 1), text.replace("deal 9\n", "deal 9\ntitle: x\n")):
        path = _write(tmp_path, bad)
        with pytest.raises(NotStreamable):
            _validate_by_game(str(path), False, True)
        assert _untimed(validate_one((str(path), False, True))) == _untimed(_validate_whole(str(path), False, True))


def test_the_deals_read_one_at_a_time_are_let_go_after_their_replay() -> None:
    import gc

    from replayer import infer
    from replayer.check import _Deals, check_record, read_part
    from replayer.record import Deal

    # The inference keeps its last completions (each with its deal, at most infer._COMPLETIONS_KEPT): those of the
    # tests before this one are not this record's. This record has no unknown card, so it adds none.
    infer._COMPLETIONS.clear()
    record = read_part(1, LONG.encode("utf-8"), "long.bzq", deal_by_deal=True)
    deals = record.games[0].deals
    assert isinstance(deals, _Deals) and len(deals) == 20
    alive: list[int] = []
    original = _Deals.__iter__

    def watched(self: _Deals) -> Any:
        for deal in original(self):
            gc.collect()
            alive.append(sum(1 for o in gc.get_objects() if type(o) is Deal))
            yield deal

    _Deals.__iter__ = watched  # type: ignore[method-assign]
    try:
        result = check_record(record, views=False)
    finally:
        _Deals.__iter__ = original  # type: ignore[method-assign]
    assert result.valid and len(result.games[0].deals) == 20 and len(alive) == 20
    assert max(alive) <= 2  # the deal being replayed and the one before it at most, never the game's
    assert not infer._COMPLETIONS
