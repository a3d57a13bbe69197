"""Every error code of the catalogue is produced by a test record, at the right place.

Each case edits the worked deal (games/worked-deal-000.bzq) so that it breaks one rule; the line that the error
must be reported on is the code's documented example (``CODES[code].example``), so the examples in docs/errors.md
are checked too. A code added to the catalogue without a case here fails ``test_every_code_has_a_case``.
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import pytest
from conftest import GAMES

from replayer.check import check_text
from replayer.cli import main
from replayer.errors import CODES
from replayer.generate import generate_game

WORKED = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
SIXTY = (GAMES / "constructed-sixty-six.bzq").read_text(encoding="utf-8")
UA2 = (GAMES / "constructed-ua2.bzq").read_text(encoding="utf-8")
RU19 = (GAMES / "constructed-ru19.bzq").read_text(encoding="utf-8")
# A generated classic deal (seed 15) played under the old reading of the exchange, the option taken away: its trick 22
# declares the KH just gained by the exchange.
GAINED = generate_game("classic", 15, options={"exchange_declaration": "gained_card_same_trick"}).replace(
    "options: exchange_declaration=gained_card_same_trick\n", ""
)


def _one_deal_too_many() -> str:
    """ua2, seed 3: N wins the game in deal 5 (1,108 to 782); a sixth deal follows it."""
    import random
    import re

    from replayer.generate import play_deal
    from replayer.profiles import load_profile

    won = re.sub(r"^winner .*\n", "", generate_game("ua2", 3, deals=30), flags=re.M).rstrip("\n")
    profile = load_profile("ua2")
    extra = "\n".join(play_deal(profile, random.Random(3), "N", profile.default_options(), 6).lines)
    return won + "\n\n" + extra.replace("dealer: N\n", "dealer: N  { N won the game in deal 5 }\n") + "\n"


OVER = _one_deal_too_many()

# code -> (edits as (old text, new text), each old text occurring once; the token the column points at)
CASES: dict[str, tuple[list[tuple[str, str]], str]] = {
    "BZ001": ([("trick 5: N JC, S JH -> N", "trick 5: N JC S JH -> N")], "S JH"),
    "BZ003": ([("trick 9: S 9S, N 10S -> N", "trick 9: S 9S, N 10X -> N")], "10X"),
    "BZ004": ([("down to 140. }\n", "down to 140. }\n{ South was lucky enough\n")], "{"),
    "BZ005": ([("trick 2: N 9C, S 7H -> N", "trick  2: N 9C, S 7H -> N")], "trick"),
    # A record that is not one: nothing but comments, a game with no deal (issue 16).
    "BZ006": ([(WORKED, "{ nothing but this comment }\n")], "{"),
    "BZ111": (
        [
            ('game "Illustrative deal: North and South"', 'game "Headers only"'),
            (WORKED[WORKED.index("deal 1\n") :], ""),
        ],
        "game",
    ),
    # A book fragment's table in a whole deal (issue 16).
    "BZ112": ([("\nhand N:", "\ntable N: marriage KH QH\nhand N:")], "table"),
    "BZ101": ([("  draws N KC, S 9D\n", "  draws N KC, S 9D\ndealer: S  { after trick 1 }\n")], "dealer"),
    "BZ102": (
        [("title: Illustrative two-handed deal\n", "title: Illustrative two-handed deal\ntitle: A second title\n")],
        "title",
    ),
    "BZ103": ([("profile: classic", "profile: pinochle")], "pinochle"),
    "BZ104": ([("options: last_trick=24", "options: last_trick=25")], "last_trick"),
    "BZ105": ([("dealer: N", "dealer: E")], "dealer"),
    "BZ106": ([("trick 10: N 8S, S 8S -> N", "trick 11: N 8S, S 8S -> N")], "trick"),
    "BZ107": ([("turnup: 10C", "turnup: 10H  { trump: C }")], "turnup"),
    "BZ108": ([("hand N: 7C QC QC JC QH AH 7H 9C", "hand N: 7C QC QC JC QH AH 7H")], "N"),
    "BZ109": ([("N declares royal_marriage KC QC = 40", "N declares royal_wedding KC QC = 40")], "royal_wedding"),
    # Issue 23: a trick line left out is reported at the gap; variations nest at most reader.MAX_NESTING deep.
    "BZ114": (
        [
            ("trick 9: S 9S, N 10S -> N\n", ""),
            ("trick 10: N 8S, S 8S -> N\n", "trick 10: N 8S, S 8S -> N  { trick 9 left out }\n"),
        ],
        "trick",
    ),
    "BZ115": (
        [
            (
                "trick 10: N 8S, S 8S -> N\n  draws N 8H, S JH\n  score N 320, S 110\n",
                "trick 10: N 8S, S 8S -> N\n  draws N 8H, S JH\n  score N 320, S 110\n"
                + "(\ntrick 10: N 8S, S 8S -> N\n" * 50
                + "(  { the 51st variation open at once }\ntrick 10: N 8S, S 8S -> N\n"
                + ")\n" * 51,
            )
        ],
        "(",
    ),
    "BZ116": (
        [
            (
                "trick 11: N 8H, S 10H -> S\n",
                "trick 9: S 9S, N 10S -> N  { trick 9 again, after trick 10 }\n  draws N JS, S 8S\n"
                "trick 11: N 8H, S 10H -> S\n",
            )
        ],
        "trick",
    ),
    "BZ201": ([("trick 3: N 7H, S 9D -> N", "trick 3: N 7S, S 9D -> N")], "7S"),
    "BZ202": ([("trick 2: N 9C, S 7H -> N", "trick 2: S 7H, N 9C -> N")], "S"),
    "BZ203": (
        [
            ("trick 29: S 10H, N QH -> S", "trick 29: S 10H, N KS -> S"),
            ("trick 30: S 10S, N KS", "trick 30: S 10S, N QH"),
        ],
        "KS",
    ),
    "BZ204": ([("trick 25: N KH, S AH -> S", "trick 25: N KD, S KD -> N")], "KD -> N"),
    "BZ205": (
        [
            ("trick 31: S KD, N 8C -> N", "trick 31: S KD, N KH -> S"),
            ("trick 32: N KH, S 7C -> S", "trick 32: S 7C, N 8C -> S"),
        ],
        "KH",
    ),
    "BZ206": ([("trick 9: S 9S, N 10S -> N", "trick 9: S 9S, N 10S -> S")], "S\n"),
    "BZ207": ([("trick 2: N 9C, S 7H -> N", "trick 2: N 9C -> N")], "trick"),
    "BZ301": (
        [
            (
                "trick 9: S 9S, N 10S -> N\n",
                "trick 9: S 9S, N 10S -> N\n  S declares bezique QS JD = 40  { N won trick 9 }\n",
            )
        ],
        "S",
    ),
    "BZ302": (
        [
            (
                "trick 25: N KH, S AH -> S\n",
                "trick 25: N KH, S AH -> S\n  S declares marriage KD QD = 20  { after trick 25 }\n",
            )
        ],
        "S",
    ),
    "BZ303": ([("N declares four_aces AH AC AC AS = 100", "N declares four_aces AH AC AD AS = 100")], "AD"),
    "BZ304": ([("N declares royal_marriage KC QC = 40", "N declares royal_marriage KC JC = 40")], "royal_marriage"),
    "BZ305": ([("S declares four_queens QS QS QD QD = 60", "S declares four_queens QS QS QD QD = 80")], "80"),
    "BZ306": (
        [
            (
                "trick 19: N 9H, S JD -> N\n",
                "trick 19: N 9H, S JD -> N\n  N declares four_kings KC KC KH KS = 80  { again after trick 19 }\n",
            )
        ],
        "KC",
    ),
    "BZ307": (
        [
            ("options: last_trick=24", "options: last_trick=24, reuse=strict_text"),
            (
                "  N declares marriage KH QH = 20\n  draws N KS",
                "  N declares marriage KH QH = 20  { reuse=strict_text; this KH was married at trick 3 }\n  draws N KS",
            ),
        ],
        "KH",
    ),
    "BZ308": (
        [
            (
                "  N declares royal_marriage KC QC = 40\n",
                "  N declares royal_marriage KC QC = 40\n"
                "  N declares four_aces AH AC AC AS = 100  { a second declaration after trick 2 }\n",
            )
        ],
        "N",
    ),
    "BZ309": ([("  N exchanges 7C = 10\n", "  S exchanges 7C = 10  { N won trick 1 }\n")], "7C"),
    "BZ310": (
        [
            (
                "  N declares royal_marriage KC QC = 40\n",
                "  N declares royal_marriage KC QC = 40\n  N scores seven_played = 10  { trick 2: N 9C, S 7H }\n",
            )
        ],
        "seven_played",
    ),
    "BZ311": (
        [
            (
                "trick 9: S 9S, N 10S -> N\n",
                "trick 9: S 9S, N 10S -> N\n  N passes to S  { classic has no partners }\n",
            )
        ],
        "S  {",
    ),
    "BZ312": (
        [
            (
                "trick 9: S 9S, N 10S -> N\n",
                "trick 9: S 9S, N 10S -> N\n  N declares bezique QS with S JD = 40  { classic has no partners }\n",
            )
        ],
        "N",
    ),
    "BZ313": (
        [
            (
                "trick 9: S 9S, N 10S -> N\n",
                "trick 9: S 9S, N 10S -> N\n  N penalty extra_card = 50  { classic lists no penalties }\n",
            )
        ],
        "extra_card",
    ),
    "BZ314": (
        [("trick 3: N 9H, S QH -> S\n", "trick 3: N 9H, S QH -> S\n  N penalty extra_card = 60  { ua2: 50 }\n")],
        "60",
    ),
    "BZ401": ([("  draws N JS, S 8S", "  draws S 8S, N JS")], "8S"),
    "BZ701": ([("trick 2: N 9C, S 7H -> N", "trick 2: {? Which card? | 9S } N 9C, S 7H -> N")], "{?"),
    "BZ402": ([("trick 25: N KH, S AH -> S\n", "trick 25: N KH, S AH -> S\n  draws N 7S  { after trick 25 }\n")], "7S"),
    "BZ403": ([("  draws N KH, S 7C", "  draws N KH, S 7D  { the turn-up is 7C }")], "7D"),
    "BZ404": ([("  draws N KC, S 9D", "  draws N QC, S 9D  { a third QC }")], "QC"),
    "BZ405": (
        [
            (
                "trick 9: S 9S, N 10S -> N\n  draws N JS, S 8S\n",
                "trick 9: S 9S, N 10S -> N  { its draws N JS, S 8S left out }\n",
            )
        ],
        "trick",
    ),
    "BZ501": ([("  score N 320, S 0\n  { Now North", "  score N 330, S 0\n  { Now North")], "330"),
    "BZ502": ([("brisques N 60, S 100", "brisques N 60, S 110")], "110"),
    "BZ503": ([("result N 590, S 730", "result N 600, S 730")], "600"),
    "BZ504": ([("result N 590, S 730\n", "result N 590, S 730\ntotal N 600, S 730\n")], "600"),
    "BZ505": ([("result N 590, S 730\n", "result N 590, S 730\nwinner S  { target 2000 not reached }\n")], "S "),
    "BZ506": (
        [
            (
                WORKED[WORKED.index("trick 26:") : WORKED.index("\nbrisques N 60, S 100\n") + 22],
                "brisques N 60, S 100  { after trick 25 }\n",
            )
        ],
        "brisques",
    ),
    # Unknown cards (replayer/infer.py): no completion of a trick of unknown cards fits the score stated after it.
    "BZ601": (
        [
            ("Which one? | QH } N QH, S 9D -> N", "Which one? | QH } N Q?, S 9? -> N"),
            (
                "  score N 320, S 0\n  { Now North",
                "  score N 330, S 0  { with the declarations before it }\n  { Now North",
            ),
        ],
        "deal",
    ),
    "BZ602": (
        [
            ("Which one? | QH } N QH, S 9D -> N", "Which one? | QH } N Q?, S 9? -> N"),
            (
                "  score N 320, S 0\n  { Now North",
                "  score N 330, S 0  { with the declarations before it }\n  { Now North",
            ),
        ],
        "330",
    ),
    # sixty-six (RULES.md §2.k): the rules of game points, going out at 66 and marriages on lead.
    "BZ110": ([("deal 2\ndealer: N\n", "deal 2\ndealer: S  { deal 2 of a sixty-six game that S lost }\n")], "dealer"),
    "BZ208": (
        [("  N goes out = 75\n", "  N goes out = 75\ntrick 5: N KC, S 9S -> N  { N went out after trick 4 }\n")],
        "KC",
    ),
    "BZ209": (
        [
            (
                SIXTY[SIXTY.index("trick 2: {? South declared") : SIXTY.index("N AS -> S\n") + 10],
                "trick 2: S 9S, N AS -> N  { S declared marriage KC QC }\n",
            )
        ],
        "9S",
    ),
    "BZ507": ([("  N goes out = 75\n", "  N goes out = 60\n")], "N"),
    "BZ508": ([], "dealer"),
    "BZ603": ([("\ntrick 1: {?", "\n  N declares bezique Q? JD  { before trick 1 }\ntrick 1: {?")], "N"),
    # Issue 17: the card just gained, and the conduct rules of ru19 (002:L13-L18).
    "BZ113": ([("dealer: N\n", "dealer: N\nredeal  { classic has no redeal }\n")], "redeal"),
    "BZ315": ([], "N"),
    "BZ316": (
        [("trick 3: N 10S, S 8C -> N\n", "N claims game  { the stock on the table }\ntrick 3: N 10S, S 8C -> N\n")],
        "N",
    ),
    "BZ317": (
        [("trick 2: S 7C, N JC -> N\n", "N forfeits  { no illegal play in trick 1 }\ntrick 2: S 7C, N JC -> N\n")],
        "N",
    ),
}
BASES = (
    {code: SIXTY for code in ("BZ110", "BZ208", "BZ209", "BZ507")}
    | {"BZ314": UA2, "BZ315": GAINED, "BZ508": OVER}
    | {code: RU19 for code in ("BZ316", "BZ317")}
)
"""The record a case edits, where it is not the worked deal."""

# The line an error is reported on, for the codes whose example is a description rather than a record line.
REPORTED_AT = {"BZ601": "deal 1"}
# Codes reported after another one on an earlier line, by design.
AFTER = {"BZ602": "BZ601"}


def record_for(code: str) -> str:
    """The worked deal with the case's edits."""
    text = BASES.get(code, WORKED)
    for old, new in CASES[code][0]:
        assert text.count(old) == 1, f"{code}: {old!r} occurs {text.count(old)} times in the record"
        text = text.replace(old, new)
    return text


def expected_position(code: str, text: str) -> tuple[int, int]:
    """The line of the code's example in the record, and the column of the case's token on it."""
    example = REPORTED_AT.get(code, CODES[code].example)
    lines = [i for i, line in enumerate(text.split("\n"), 1) if line.strip() == example]
    assert len(lines) == 1, f"{code}: the example {example!r} should be one line of the record"
    line = text.split("\n")[lines[0] - 1]
    token = CASES[code][1]
    column = line.index(token.rstrip("\n")) if not token.endswith("\n") else len(line) - len(token.rstrip("\n"))
    return lines[0], column + 1


def test_every_code_has_a_case() -> None:
    # (CASES may run ahead of the catalogue while a code is being introduced.)
    assert set(CODES) <= set(CASES) | {"BZ002"}  # BZ002 is about bytes: see test_bytes_that_are_not_utf8


@pytest.mark.parametrize("code", sorted(set(CASES) & set(CODES) - {"BZ005"}))
def test_code_is_reported_at_its_example(code: str) -> None:
    text = record_for(code)
    line, column = expected_position(code, text)
    result = check_text(text, "case.bzq")
    found = [(d.code, d.span.line, d.span.column) for d in result.diagnostics if d.span is not None]
    assert (code, line, column) in found, found
    # Nothing is reported before the broken line: the error is found where it is, not earlier.
    earlier = [f for f in found if f[1] < line]
    assert not earlier or {f[0] for f in earlier} == {AFTER.get(code)}, found


def test_not_canonical_is_reported_by_fmt_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = record_for("BZ005")
    line, column = expected_position("BZ005", text)
    path = tmp_path / "case.bzq"
    path.write_text(text, encoding="utf-8")
    assert main(["fmt", "--check", str(path)]) == 1
    assert f"{path}:{line}:{column}: error: BZ005 " in capsys.readouterr().err
    assert check_text(text).valid  # not canonical, but valid


@pytest.mark.parametrize("code", sorted(CODES))
def test_catalogue_entry_is_complete(code: str) -> None:
    entry = CODES[code]
    assert entry.title and entry.concern and entry.example
    assert "|" not in entry.title + entry.concern, "a | would break the Markdown table (examples are escaped)"
    assert "\n" not in "".join(entry)


# --- the same exit codes and error format in every command ------------------------------------------------------

INVALID = Path(__file__).parent / "data" / "invalid"


def _commands(path: Path, tmp_path: Path) -> dict[str, list[str]]:
    return {
        "validate": ["validate", str(path)],
        "replay": ["replay", str(path)],
        "replay --json": ["replay", "--json", str(path)],
        "render": ["render", str(path), "--out", str(tmp_path / "site"), "--force"],
        "fmt": ["fmt", str(path)],
        "fmt --check": ["fmt", "--check", str(path)],
        "infer": ["infer", str(path), "--out", str(tmp_path / "out.bzq"), "--force"],
    }


_RULES = ("validate", "replay", "replay --json", "render", "infer")  # fmt judges the form, not the rules
CASES_1 = [("running-score.bzq", "71:11: error: BZ501 ", c) for c in _RULES] + [
    ("syntax-missing-comma.bzq", "81:15: error: BZ001 ", c) for c in _commands(Path("x"), Path("y"))
]


@pytest.mark.parametrize(("record", "position", "command"), CASES_1)
def test_invalid_input_exits_1_with_positioned_errors(
    record: str, position: str, command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = INVALID / record
    assert main(_commands(path, tmp_path)[command]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{position}" in err, err[-800:]


@pytest.mark.parametrize("command", list(_commands(Path("x"), Path("y"))))
def test_valid_input_exits_0(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = GAMES / "worked-deal-000.bzq"
    assert main(_commands(path, tmp_path)[command]) == 0
    assert ": error: " not in capsys.readouterr().err


@pytest.mark.parametrize("command", list(_commands(Path("x"), Path("y"))))
def test_usage_errors_exit_2(command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "missing.bzq"
    assert main(_commands(missing, tmp_path)[command]) == 2
    assert capsys.readouterr().err.startswith("bezique: error: ")
    with pytest.raises(SystemExit) as info:  # argparse: an unknown option
        main([*_commands(missing, tmp_path)[command], "--no-such-option"])
    assert info.value.code == 2


def test_bytes_that_are_not_utf8_get_the_same_answer_from_every_command(tmp_path: Path) -> None:
    path = tmp_path / "latin1.bzq"
    path.write_bytes(WORKED.replace("«Безик»", "Bézique").encode("latin-1", errors="replace"))
    statuses = set()
    for argv in _commands(path, tmp_path).values():
        err = io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
            statuses.add(main(argv))
        assert "not UTF-8" in err.getvalue()
    assert len(statuses) == 1


def test_bytes_that_are_not_utf8_are_invalid_input(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # BZ002's example: one line saved as Latin-1 in a UTF-8 record. It is reported at the byte that is not UTF-8.
    example = CODES["BZ002"].example
    text = WORKED.replace(WORKED.split("\n")[2], example, 1)
    line = text.split("\n").index(example) + 1
    column = example.index("é") + 1
    path = tmp_path / "latin1.bzq"
    path.write_bytes(text.encode("utf-8").replace("é".encode(), b"\xe9"))
    assert main(["validate", str(path)]) == 1
    assert f"{path}:{line}:{column}: error: BZ002 not UTF-8 text" in capsys.readouterr().err
