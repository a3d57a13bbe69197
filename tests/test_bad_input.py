"""Bad input gets a clear error, never "ok" (issue 16, item 5): negative scores, the turned-up seven's claim, and
the re-use breach named for what it is."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import GAMES

from replayer.check import check_text
from replayer.fmt import format_text

WORKED = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
FOUR_KINGS = (GAMES / "fragment-ruwiki-four-kings.bzq").read_text(encoding="utf-8")
FOUR_HANDED = (GAMES / "constructed-4h-three-001.bzq").read_text(encoding="utf-8")


def codes(text: str) -> list[str]:
    return [d.code for d in check_text(text).diagnostics]


def test_a_wrong_negative_score_is_bz501_not_a_syntax_error() -> None:
    text = WORKED.replace("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N -320, S 110")
    result = check_text(text)
    assert [d.code for d in result.diagnostics] == ["BZ501"]
    assert "the record says N -320, the rules give 320" in result.diagnostics[0].message


def test_a_penalty_takes_a_score_below_zero() -> None:
    text = FOUR_KINGS.replace("N 150, S 130", "N 150, S 30").replace("score N 230, S 130", "score N 230, S 30")
    text = text.replace(
        "  draws S 10H, N 8S\n  score N 230, S 30",
        "  S penalty extra_card = 50\n  draws S 10H, N 8S\n  score N 230, S -20\nresult N 230, S -20",
    )
    assert codes(text) == []
    assert format_text(text) == text
    assert codes(text.replace("S -20\nresult", "S -30\nresult")) == ["BZ501"]
    assert codes(text.replace("result N 230, S -20", "result N 230, S 20")) == ["BZ503"]


def test_the_turned_up_seven_is_claimed_before_trick_1() -> None:
    # West deals and turns up the seven of trumps (constructed-4h-three-001.bzq).
    at = FOUR_HANDED.index("hand W: ")
    at = FOUR_HANDED.index("\n", at) + 1

    def claimed(claim: str) -> str:
        return FOUR_HANDED[:at] + claim + "\n" + FOUR_HANDED[at:]

    assert codes(claimed("  W scores turnup_seven = 10")) == []
    assert format_text(claimed("  W scores turnup_seven = 10")) == claimed("  W scores turnup_seven = 10")
    assert codes(claimed("  W scores turnup_seven = 20")) == ["BZ305"]
    assert codes(claimed("  N scores turnup_seven = 10")) == ["BZ310"]


def test_a_problem_after_odd_line_breaks_in_a_comment_prints_its_own_line(tmp_path: Path, capsys: Any) -> None:
    # Issue 23: a form feed, U+2028 or a lone CR in a comment is no line break for the reader, nor for the report.
    from replayer.cli import main

    text = WORKED.replace("{ The following game", "{ The\x0c following\u2028 game\r\x1c", 1)
    text = text.replace("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N 330, S 110")
    path = tmp_path / "odd.bzq"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    line = text[: text.index("score N 330, S 110")].count("\n") + 1
    err = capsys.readouterr().err
    assert f"odd.bzq:{line}:11: error: BZ501 " in err
    assert "\n      score N 330, S 110\n" in err
