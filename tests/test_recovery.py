"""Every error in one pass (issue 16): a line that does not read is reported with Lark's diagnostic, the record is
read on past it (its bad word read as an unknown card, a missing comma supplied, or the line skipped), and the replay
reports the problems after it; empty and dealless records are invalid."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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


# --- issue 23: every error in one pass, for every statement ---------------------------------------------------------

PLANTED = ("  draws N 8H, S JH\n  score N 320, S 110", "  draws N 8H, S JH\n  score N 330, S 110")
"""A wrong running score at trick 10 (BZ501), planted beside each reader's problem: it must be reported too."""


def codes_with_planted(*edits: tuple[str, str]) -> tuple[str, list[tuple[str, int, int]]]:
    text = edited(*edits, PLANTED)
    result = check_text(text, "r.bzq")
    return text, [(d.code, d.span.line, d.span.column) for d in result.diagnostics if d.span is not None]


def test_a_tag_typo_is_reported_and_the_rules_are_still_checked() -> None:
    text, codes = codes_with_planted(("{ [ru] Следующая партия", "{ [ryu] Следующая партия"))
    assert codes == [("BZ001", line_of(text, "[ryu]"), 1), ("BZ501", line_of(text, "score N 330, S 110"), 11)]


@pytest.mark.parametrize(
    ("old", "new", "word"),
    [
        ("trick 5: N JC, S JH -> N", "trik 5: N JC, S JH -> N", "trik"),
        ("  N declares marriage KH QH = 20\n  draws N AC", "  N declars marriage KH QH = 20\n  draws N AC", "declars"),
        ("  draws N 8D, S QS", "  drwas N 8D, S QS", "drwas"),
    ],
)
def test_a_keyword_typo_is_read_as_its_keyword_and_nothing_follows_from_it(old: str, new: str, word: str) -> None:
    text, codes = codes_with_planted((old, new))
    line = line_of(text, word)
    assert codes == [("BZ001", line, text.split("\n")[line - 1].index(word) + 1), ("BZ501", line_of(text, "N 330"), 11)]
    assert [r.how for r in check_text(text).recovered] == ["keyword"]


def test_two_typos_on_one_line_are_both_reported_at_their_columns() -> None:
    text, codes = codes_with_planted(("trick 9: S 9S, N 10S -> N", "trik 9: S 9X, N 10Y -> N"))
    line = line_of(text, "trik 9")
    # The keyword read in place of "trik" is one letter longer: the cards after it keep their columns as written.
    assert codes == [
        ("BZ001", line, 1),
        ("BZ003", line, len("trik 9: S ") + 1),
        ("BZ003", line, len("trik 9: S 9X, N ") + 1),
        ("BZ501", line_of(text, "N 330"), 11),
    ]


def test_an_unterminated_comment_is_reported_where_it_opens() -> None:
    # The comment opened before trick 12 runs on to the end of the question of trick 12: it swallows the trick.
    text, codes = codes_with_planted(("\ntrick 12:", "\n{ South was lucky\ntrick 12:"))
    opened = line_of(text, "{ South was lucky")
    assert ("BZ004", opened, 1) in codes and ("BZ501", line_of(text, "N 330"), 11) in codes
    assert [c for c in codes if c[0] not in ("BZ004", "BZ501")] == []
    # And where it runs to the end of the text.
    cut = WORKED[: WORKED.index("\ntrick 31:")] + "\n{ the last tricks\ntrick 31: S KD, N 8C -> N\n"
    found_codes = found(cut)
    assert found_codes[0] == ("BZ004", line_of(cut, "{ the last tricks"))


@pytest.mark.parametrize("whole", [True, False])
def test_a_missing_trick_is_reported_at_the_gap_with_the_tricks_around_it(whole: bool) -> None:
    # The trick line alone left out (its draws and score stay), or the trick with its statements.
    lines = WORKED.split("\n")
    start = line_of(WORKED, "trick 9: S 9S") - 1
    stop = start + (4 if whole else 1)
    text = "\n".join(lines[:start] + lines[stop:]).replace(*PLANTED)
    result = check_text(text, "r.bzq")
    gap = line_of(text, "trick 10: N 8S")
    (missing,) = [d for d in result.diagnostics if d.code == "BZ114"]
    assert (missing.span.line, missing.span.column) == (gap, 1)
    assert missing.message == (
        f"trick 9 is missing: the record goes from trick 8 (line {line_of(text, 'trick 8: N 8D')}) to trick 10"
    )
    assert "BZ601" not in [d.code for d in result.diagnostics]
    if not whole:  # the trick's own draws and score read as the missing trick's: nothing else is wrong
        assert [(d.code, d.span.line) for d in result.diagnostics] == [
            ("BZ114", gap),
            ("BZ501", line_of(text, "score N 330, S 110")),
        ]


def _with_block_repeated(text: str, first: int, last: int) -> tuple[str, int]:
    """The text with the statements of tricks ``first`` to ``last`` written again after trick ``last``'s; and the
    line where the repeat starts."""
    lines = text.split("\n")
    start = line_of(text, f"\ntrick {first}:")
    stop = line_of(text, f"\ntrick {last + 1}:")
    block = lines[start:stop]
    return "\n".join(lines[:stop] + block + lines[stop:]), stop + 1


@pytest.mark.parametrize(("first", "last"), [(9, 9), (13, 16), (31, 31)])
def test_a_block_of_tricks_written_twice_is_reported_once_and_left_out(first: int, last: int) -> None:
    text, repeat = _with_block_repeated(WORKED.replace(*PLANTED), first, last)
    result = check_text(text, "r.bzq")
    codes = [(d.code, d.span.line) for d in result.diagnostics]
    # The repeat is reported at its first line; the rest of the deal is replayed (the planted score is found).
    assert sorted(codes) == [("BZ116", repeat), ("BZ501", line_of(text, "score N 330, S 110"))]
    (twice,) = [d for d in result.diagnostics if d.code == "BZ116"]
    which = f"trick {first} is" if first == last else f"tricks {first} to {last} are"
    assert twice.message.startswith(f"{which} written twice: the same cards at line {line_of(text, f'trick {first}:')}")


def test_a_repeat_in_a_record_with_unknown_cards_is_still_completed() -> None:
    # The worked deal as printed leaves cards unknown: a block repeated there used to leave only a BZ601.
    printed = (GAMES / "worked-deal-000-as-printed.bzq").read_text(encoding="utf-8")
    text, repeat = _with_block_repeated(printed, 9, 10)
    assert [(d.code, d.span.line) for d in check_text(text, "r.bzq").diagnostics] == [("BZ116", repeat)]


def test_a_trick_numbered_back_is_not_a_copy_nor_a_gap() -> None:
    # Trick 9 again after trick 10, with its own draws: misnumbered (BZ106, the replay's), not written twice, and
    # the step from it to trick 11 is no gap (trick 10 is there).
    text = edited(
        ("trick 11: N 8H, S 10H -> S\n", "trick 9: S 9H, N 10H -> N\n  draws N 7D, S 7S\ntrick 11: N 8H, S 10H -> S\n")
    )
    codes = [code for code, _ in found(text)]
    assert ("BZ106", line_of(text, "trick 9: S 9H")) in found(text)
    assert "BZ116" not in codes and "BZ114" not in codes
    # Out of order once: the trick after it (11, the 12th played) too, and none of the tricks numbered on from there.
    assert [line for code, line in found(text) if code == "BZ106"] == [
        line_of(text, "trick 9: S 9H"),
        line_of(text, "trick 11: N 8H"),
    ]


def test_a_misnumbered_trick_is_out_of_order_not_missing() -> None:
    text = edited(("trick 10: N 8S, S 8S -> N", "trick 11: N 8S, S 8S -> N"))
    assert found(text) == [("BZ106", line_of(text, "trick 11: N 8S"))]
    last = edited(("trick 32: N KH, S 7C -> S", "trick 33: N KH, S 7C -> S"))
    assert found(last) == [("BZ106", line_of(last, "trick 33:"))]


def test_a_forced_draw_left_out_is_a_warning_and_strict_makes_it_an_error(tmp_path: Path, capsys: Any) -> None:
    text = edited(("  draws N JS, S 8S\n", ""))
    result = check_text(text, "r.bzq")
    (warning,) = result.diagnostics
    assert (warning.code, warning.severity, warning.span.line) == ("BZ405", "warning", line_of(text, "trick 9: S 9S"))
    assert "draws N JS, S 8S" in warning.message and result.valid
    path = tmp_path / "r.bzq"
    path.write_text(text, encoding="utf-8")
    assert main(["validate", str(path)]) == 0
    assert "warning: BZ405" in capsys.readouterr().err
    assert main(["validate", "--strict", str(path)]) == 1
    assert "error: BZ405" in capsys.readouterr().err
    assert main(["validate", str(path), "--strict", "--json"]) == 1


@pytest.mark.parametrize(
    ("planted", "code", "at"),
    [
        (("trick 13: S 7S, N JS -> N", "trick 13: S 7S, N JS -> S"), "BZ206", "trick 13: S 7S"),
        (PLANTED, "BZ501", "score N 330, S 110"),
    ],
)
def test_a_draw_left_out_does_not_hide_a_rule_broken_elsewhere(planted: tuple[str, str], code: str, at: str) -> None:
    # The completion of the draw left out cannot hold every stated fact when one of them is wrong: it lets the wrong
    # one go, and the replay reports it, where one BZ601 for the whole deal used to hide it.
    text = edited(("  draws N JS, S 8S\n", ""), planted)
    found_codes = found(text)
    assert found_codes == [(code, line_of(text, at))]


@pytest.mark.parametrize(("profile", "seed"), [("classic", 0), ("classic", 1), ("rubicon-000", 0), ("sixty-six", 0)])
def test_a_draw_left_out_does_not_hide_a_card_not_held_or_a_suit_not_followed(profile: str, seed: int) -> None:
    # A rule broken in a written card (a card not held, a revoke) admits no completion of the draw left out at all:
    # the completion then gives each card left out to the first play that needs it, and the replay reports the
    # mutant's rule on its line, where one BZ601 for the whole deal used to be all.
    import random

    from mutate import mutants, walk

    from replayer.generate import generate_game

    rng = random.Random(seed)
    checked = set()
    for mutant in mutants(walk(generate_game(profile, seed)), per_operator=1, rng=rng):
        lines = mutant.text.split("\n")
        draws = [
            n for n, line in enumerate(lines, 1) if line.lstrip().startswith("draws ") and abs(n - mutant.line) > 1
        ]
        gone = rng.choice(draws)
        text = "\n".join(line for n, line in enumerate(lines, 1) if n != gone)
        at = mutant.line - (gone < mutant.line)
        # (a trick numbered on past a trick whose draws are left out reads as a trick left out: BZ114 on its line)
        codes = mutant.codes | {"BZ114"} if mutant.operator == "trick-number" else mutant.codes
        errors = [(d.code, d.span.line) for d in check_text(text, "r.bzq").diagnostics if d.severity == "error"]
        assert any(code in codes and line == at for code, line in errors), (mutant.description, gone, errors)
        checked.add(mutant.operator)
    assert {"card-not-held", "wrong-winner", "wrong-running-score"} <= checked


@pytest.mark.parametrize(
    "written",
    [
        "N declares sequance ZZ ZZ ZZ ZZ ZZ = 250",  # (a kind and five cards that do not read: too many choices)
        "N declares sequence AC 10C KC QC JC ZZ = 250",  # (a sixth card that does not read: no choice holds)
    ],
)
def test_a_declaration_left_out_on_a_line_that_does_not_read_keeps_its_points(written: str) -> None:
    # Its points are taken as written: the scores after it (320 after trick 4, the result) follow from it alone.
    text = edited(("N declares sequence AC 10C KC QC JC = 250", written), PLANTED)
    line = line_of(text, written)
    assert {code for code, at in found(text) if at == line} == {"BZ003"}
    assert [f for f in found(text) if f[1] != line] == [("BZ501", line_of(text, "score N 330, S 110"))]


def test_a_draw_left_out_that_the_rules_do_not_force_is_silent() -> None:
    # The worked deal as printed leaves cards unknown: its draws are not all forced, and nothing is said of them.
    text = (GAMES / "worked-deal-000-as-printed.bzq").read_text(encoding="utf-8")
    assert "BZ405" not in [d.code for d in check_text(text).diagnostics]


def test_variations_nested_past_the_limit_are_a_coded_error_not_a_crash(tmp_path: Path) -> None:
    from replayer.reader import MAX_NESTING

    def nested(depth: int) -> str:
        line = "trick 10: N 8S, S 8S -> N\n"
        anchor = line + "  draws N 8H, S JH\n  score N 320, S 110\n"
        return WORKED.replace(anchor, anchor + ("(\n" + line) * depth + ")\n" * depth, 1)

    assert check_text(nested(MAX_NESTING)).valid
    deep = nested(330)
    diagnostics = check_text(deep).diagnostics
    assert [d.code for d in diagnostics] == ["BZ115"]
    assert diagnostics[0].span.line == deep.split("\n").index("(") + MAX_NESTING * 2 + 1
    path = tmp_path / "deep.bzq"
    path.write_text(deep, encoding="utf-8")
    for command in (["validate"], ["replay"], ["replay", "--json"], ["fmt", "--check"]):
        assert main([*command, str(path)]) == 1
