"""Invalid records: each file in tests/data/invalid states, in its first comment, every error it must produce.

    { invalid: what the file shows
      expect: LINE:COL CODE message
    }

The replayer must report exactly those errors: no more (no cascade), no fewer, at the right place.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from conftest import DATA

from replayer.check import check_text
from replayer.cli import main

FILES = sorted((DATA / "invalid").glob("*.bzq"))
EXPECT = re.compile(r"^\s*expect: (\d+):(\d+) (BZ\d{3}) (.+)$", re.MULTILINE)


def expectations(text: str) -> list[tuple[int, int, str, str]]:
    header = text[: text.index("}")]
    return [(int(a), int(b), code, message.strip()) for a, b, code, message in EXPECT.findall(header)]


def test_there_are_enough_invalid_records() -> None:
    assert len(FILES) >= 12
    codes = {e[2] for path in FILES for e in expectations(path.read_text(encoding="utf-8"))}
    # illegal play, phase-2 revoke / failure to win / to trump, wrong winner, wrong points, meld card not held,
    # declaration by the loser, re-use, declaration in phase 2, draw order, running score, syntax errors
    assert {
        "BZ201",
        "BZ203",
        "BZ204",
        "BZ205",
        "BZ206",
        "BZ305",
        "BZ303",
        "BZ301",
        "BZ306",
        "BZ302",
        "BZ401",
        "BZ501",
        "BZ001",
        "BZ003",
    } <= codes


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_invalid_record_reports_exactly_its_errors(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    expected = expectations(text)
    assert expected, f"{path.name} states no expected error"
    result = check_text(text, str(path))
    found = [(d.span.line, d.span.column, d.code, d.message) for d in result.diagnostics if d.span]
    assert found == expected
    assert not result.valid


def test_cli_exit_code_and_format(capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / "invalid" / "running-score.bzq"
    assert main(["validate", str(path)]) == 1
    line, col, code, message = expectations(path.read_text(encoding="utf-8"))[0]
    assert f"{path}:{line}:{col}: error: {code} {message}" in capsys.readouterr().err
