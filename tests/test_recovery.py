"""Every error in one pass (issue 16): a line that does not read is reported with Lark's diagnostic, the record is
read on past it (its bad word read as an unknown card, a missing comma supplied, or the line skipped), and the replay
reports the problems after it; empty and dealless records are invalid."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import GAMES

from replayer.check import check_text, recovered_lines
from replayer.cli import main
from replayer.notation import syntax_errors
from replayer.reader import Recovered, read_record_recovering

WORKED = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")


def edited(*edits: tuple[str, str]) -> str:
    text = WORKED
    for old, new in edits:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def line_of(text: str, fragment: str) -> int:
    return text[: text.index(fragment)].count("\n") + 1


def found(text: str) -> list[tuple[str, int]]:
    return [(d.code, d.span.line) for d in check_text(text, "r.bzq").diagnostics if d.span is not None]


def test_a_card_typo_at_trick_1_and_a_wrong_score_at_trick_10_in_one_run() -> None:
    text = edited(
        ("9C } S 9C, N QC -> N", "9C } S 9C, N QX -> N"),
        ("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N 330, S 110"),
    )
    result = check_text(text, "r.bzq")
    typo, score = line_of(text, "N QX"), line_of(text, "score N 330, S 110")
    assert [(d.code, d.span.line) for d in result.diagnostics if d.span] == [("BZ003", typo), ("BZ501", score)]
    # The typo is reported exactly as Lark reports it on its own.
    assert result.diagnostics[0] == syntax_errors(text, "r.bzq")[0]
    assert result.recovered == [Recovered(typo, "unknown card")]
    assert "line 65: the word that is not a card read as an unknown card" in recovered_lines(result)[0]
    # The typo's card is completed from the rest of the deal (every card is played once): the queen it was.
    (deal,) = result.games[0].deals
    assert deal.inference is not None and [str(v) for v in deal.inference.values.values()] == ["QC"]


def test_a_missing_comma_is_supplied_and_nothing_follows_from_it() -> None:
    text = edited(("9C } S 9C, N QC -> N", "9C } S 9C N QC -> N"))
    assert found(text) == [("BZ001", line_of(text, "9C N QC"))]


def test_a_trick_that_does_not_read_is_read_as_unknown_cards() -> None:
    text = edited(
        ("trick 10: N 8S, S 8S -> N", "trick 10: N 8S, S 8S => N"),
        ("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N 330, S 110"),
    )
    codes = found(text)
    assert codes[0] == ("BZ001", line_of(text, "=> N"))
    assert check_text(text).recovered == [Recovered(line_of(text, "=> N"), "unknown trick")]
    assert ("BZ501", line_of(text, "score N 330, S 110")) in codes
    assert len(codes) == 2, codes


def test_errors_on_several_lines_are_each_reported_once() -> None:
    text = edited(
        ("trick 9: S 9S, N 10S -> N", "trick 9: S 9S, N 10X -> N"),
        ("trick 10: N 8S, S 8S -> N", "trick 10: N 8S S 8S -> N"),
        ("trick 13: S 7S, N JS -> N", "trick 13: S 7S, N JS -> N N"),
    )
    _, diagnostics, recovered = read_record_recovering(text, "r.bzq")
    assert [d.code for d in diagnostics] == ["BZ003", "BZ001", "BZ001"]
    assert [r.how for r in recovered] == ["unknown card", "comma", "word left out"]
    assert found(text) == [(d.code, d.span.line) for d in diagnostics if d.span]


def test_more_than_twenty_bad_lines_stop_the_reading() -> None:
    result = check_text(WORKED + "trick 1 N\n" * 30, "r.bzq")
    assert len(result.diagnostics) == 20 and not result.games


@pytest.mark.parametrize(
    ("text", "code"),
    [("", "BZ006"), ("\n\n", "BZ006"), ("{ only a comment }\n", "BZ006"), ('game "x"\n', "BZ111")],
)
def test_records_that_hold_no_deal_are_invalid(text: str, code: str, tmp_path: Path) -> None:
    path = tmp_path / "r.bzq"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert [d.code for d in check_text(text).diagnostics] == [code]
    assert main(["render", str(path), "--out", str(tmp_path / "site")]) == 1


def test_a_card_typo_in_a_declaration_never_reaches_the_replay_unknown() -> None:
    # Found by the fuzz campaign (bench/fuzz_campaign.py): the declaration's bad card read as unknown, its
    # statement let go by the lenient completion, reached the replay with the unknown card in it.
    text = (GAMES / "constructed-8p-001.bzq").read_text(encoding="utf-8")
    at = text.index("declares sequence AC 10C") + len("declares sequence ")
    codes = [d.code for d in check_text(text[:at] + "W" + text[at:]).diagnostics]
    assert codes[0] == "BZ003"


def test_an_unknown_card_in_a_declaration_before_the_first_trick_is_an_error_not_a_crash() -> None:
    # Found by the fuzz campaign: a carte blanche before trick 1 (chinese-001) with a card that does not read.
    text = (GAMES / "constructed-chinese-001.bzq").read_text(encoding="utf-8")
    first = text.index("\ntrick 1:") + 1
    opening = "  S declares marriage K? QS = 20\n"
    codes = [d.code for d in check_text(text[:first] + opening + text[first:]).diagnostics]
    assert "BZ603" in codes
    typo = "  S declares marriage KX QS = 20\n"
    codes = [d.code for d in check_text(text[:first] + typo + text[first:]).diagnostics]
    assert codes[0] == "BZ003" and "BZ603" not in codes


def test_an_unknown_partner_card_is_an_error_not_a_crash() -> None:
    # Found by the fuzz campaign: a partner's card (four-handed, declared together) that does not read, or that is
    # written unknown, where unknown cards are not completed.
    text = (GAMES / "constructed-4h-six-000.bzq").read_text(encoding="utf-8")
    joint = "with S QS QS JD JD = 13500"
    assert joint in text
    typo = [d.code for d in check_text(text.replace(joint, "with S 900 QS QS JD JD = 13500")).diagnostics]
    assert typo[0] == "BZ003" and "BZ603" not in typo
    unknown = [d.code for d in check_text(text.replace(joint, "with S QS QS JD ?? = 13500")).diagnostics]
    assert unknown[0] == "BZ603"


def test_a_lossy_deal_whose_trick_winner_is_no_seat_is_bz105_not_a_crash() -> None:
    # Found by the fuzz campaign: the completion of unknown cards met a winner outside the profile's seats.
    text = (GAMES / "worked-deal-000-as-printed.bzq").read_text(encoding="utf-8")
    at = text.index("\ntrick 8:")
    at = text.index("-> ", at) + len("-> ")
    diagnostics = check_text(text[:at] + "E" + text[at + 1 :]).diagnostics
    assert [d.code for d in diagnostics] == ["BZ105"] and "E is not a seat" in diagnostics[0].message


def test_a_blank_that_python_splits_on_is_a_syntax_error_not_a_crash() -> None:
    # Found by the fuzz campaign: a token of characters str.split() takes for blanks (\x0c, \x1c) where a card
    # was expected.
    text = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    edited = text.replace("hand S: QS QD 10D", "hand S: QS QD\x0c\x1c{Z 10D", 1)
    assert "BZ001" in [d.code for d in check_text(edited).diagnostics]
