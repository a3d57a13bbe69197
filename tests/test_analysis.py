"""The endgame analysis (bezique analyse), what-if lines in the notation, the lessons' values and the puzzles."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from replayer.analysis import analyse, text
from replayer.check import check_text
from replayer.cli import main
from replayer.fmt import format_text
from replayer.generate import generate_game
from replayer.lesson import build_lesson
from replayer.puzzles import MARGIN, mine_game, write_puzzles
from replayer.reader import read_record
from replayer.render import render_site
from replayer.replay import to_json

ROOT = Path(__file__).resolve().parent.parent
WORKED = ROOT / "games" / "worked-deal-000.bzq"


def _with_mistake() -> tuple[str, dict[str, object]]:
    """A generated classic game whose last tricks hold a mistake, and its analysis."""
    for seed in range(1, 60):
        record = generate_game("classic", seed)
        found = analyse(check_text(record, states=True))
        endgame = found["games"][0]["deals"][0]["endgame"]
        if any(p["cost"] for p in endgame["plays"]):
            return record, found
    raise AssertionError("no generated game with a mistake")


def test_analyse_json_shape_and_values(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(WORKED), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    deal = data["games"][0]["deals"][0]
    endgame = deal["endgame"]
    assert deal["number"] == 1 and endgame["first_trick"] == 25 and endgame["trump"] == "C"
    assert set(endgame["value"]) == {"N", "S"} and set(endgame["actual"]) == {"N", "S"}
    plays = endgame["plays"]
    assert len(plays) == 16  # every play of the last eight tricks
    assert [p["trick"] for p in plays] == [t for t in range(25, 33) for _ in range(2)]
    for play in plays:
        cards = [o["card"] for o in play["options"]]
        assert len(cards) == len(set(cards)), "identical copies are one option"
        assert play["played"] in cards and set(play["best"]) <= set(cards)
        assert play["cost"] >= 0
    # The optimum and the points taken add up to the brisques left in the last tricks (classic: aces and tens).
    assert sum(endgame["value"].values()) == sum(endgame["actual"].values())


def test_analyse_text_shows_every_card_and_the_mistakes(capsys: pytest.CaptureFixture[str]) -> None:
    _, found = _with_mistake()
    printed = text(found)
    endgame = found["games"][0]["deals"][0]["endgame"]  # type: ignore[index]
    mistakes = [p for p in endgame["plays"] if p["cost"]]
    for play in mistakes:
        assert f"mistake: trick {play['trick']}, {play['seat']} plays {play['played']}" in printed
        assert f"costs {play['cost']}" in printed
    assert printed.count(" trick ") >= len(endgame["plays"])
    lost = sum(endgame["lost"].values())
    assert lost == sum(p["cost"] for p in endgame["plays"]) and lost > 0


def test_write_variations_validates_and_never_overwrites(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    record, found = _with_mistake()
    source = tmp_path / "game.bzq"
    source.write_text(record, encoding="utf-8")
    assert main(["analyse", str(source), "--write-variations", str(source)]) == 2
    out = tmp_path / "lines.bzq"
    assert main(["analyse", str(source), "--write-variations", str(out)]) == 0
    written = out.read_text(encoding="utf-8")
    assert source.read_text(encoding="utf-8") == record
    result = check_text(written, str(out))
    assert result.valid, [d.message for d in result.diagnostics]
    assert format_text(written) == written
    endgame = found["games"][0]["deals"][0]["endgame"]  # type: ignore[index]
    mistakes = [p for p in endgame["plays"] if p["cost"]]
    tricks = result.games[0].deals[0].tricks
    lines = [line for t in tricks for line in t.variations]
    assert len(lines) == len(mistakes)
    # Each line plays the best card at the mistake, and is replayed from the branch point to the end of the deal.
    for play, line in zip(mistakes, lines, strict=True):
        assert line[0].n == play["trick"]
        assert str(dict(line[0].plays)[play["seat"]]) == play["best"][0]
        assert line[-1].n == 32
    assert main(["analyse", str(source), "--write-variations", str(out)]) == 2  # exists: --force needed


def test_invalid_record_gets_errors_and_no_analysis(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "broken.bzq"
    broken.write_text(WORKED.read_text(encoding="utf-8").replace("result N 590", "result N 591"), encoding="utf-8")
    assert main(["analyse", str(broken)]) == 1
    captured = capsys.readouterr()
    assert "BZ503" in captured.err and "not analysed" in captured.err and captured.out == ""


def test_uncovered_profile_gets_a_one_line_reason(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", str(ROOT / "games" / "constructed-rubicon-000.bzq")]) == 0
    out = capsys.readouterr().out
    assert re.search(r"not analysed: the brisques count only on a tie or to reach the rubicon", out)
    assert "Traceback" not in out


VARIATION = """
  (  { what if North had kept the queen? }
  trick {n}: {plays}
    {{[ru] а если бы Север сохранил даму? }}
  )
"""


def _game_with_variation(illegal: bool) -> tuple[str, int]:
    """A generated game with a variation after trick 26 replacing it (an illegal card in it when asked); the
    variation's line number."""
    record = generate_game("classic", 5)
    lines = record.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("trick 27:"))
    trick = next(line for line in lines if line.startswith("trick 26:"))
    plays = trick.split(": ", 1)[1]
    if illegal:
        plays = "N QS, S 8H -> N"  # South holds the ten of spades: he must follow suit
    block = ["  (  { what if? }", f"  trick 26: {plays}", "    {[ru] а если? }", "  )"]
    return "\n".join([*lines[:at], *block, *lines[at:]]) + "\n", at + 2


def test_variation_read_formatted_replayed_and_in_json() -> None:
    record, _ = _game_with_variation(illegal=False)
    parsed = read_record(record)
    trick = parsed.games[0].deals[0].tricks[25]
    assert len(trick.variations) == 1 and trick.variations[0].tricks[0].number == 26
    assert [c.text for c in trick.variations[0].comments] == ["what if?"]
    formatted = format_text(record)
    assert "  (  { what if? }\n  trick 26:" in formatted and "{ [ru] а если? }" in formatted
    assert format_text(formatted) == formatted
    result = check_text(record)
    assert result.valid, [d.message for d in result.diagnostics]
    data = to_json(result)
    tricks = data["games"][0]["deals"][0]["tricks"]
    assert all("variations" in t for t in tricks)
    (line,) = tricks[25]["variations"]
    assert line[0]["n"] == 26 and line[0]["plays"] == tricks[25]["plays"] and line[0]["variations"] == []
    # The main line is not changed by its variation.
    plain = to_json(check_text(generate_game("classic", 5)))
    assert plain["games"][0]["deals"][0]["scores"] == data["games"][0]["deals"][0]["scores"]


def test_illegal_play_in_a_variation_has_its_position() -> None:
    record, line = _game_with_variation(illegal=True)
    result = check_text(record, "v.bzq")
    assert not result.valid
    (problem,) = result.diagnostics
    assert problem.code == "BZ203" and problem.span is not None and problem.span.line == line
    assert problem.span.column == record.splitlines()[line - 1].index("8H") + 1


def test_unclosed_and_stray_variation_marks() -> None:
    record, _ = _game_with_variation(illegal=False)
    with pytest.raises(Exception, match="BZ101"):
        read_record(record.replace("  )\n", "", 1))
    with pytest.raises(Exception, match="BZ101"):
        read_record(record.replace("trick 1:", ")\ntrick 1:", 1))


def test_nested_variations() -> None:
    record, _ = _game_with_variation(illegal=False)
    nested = record.replace("    {[ru] а если? }\n", "    (\n    trick 26: N QS, S 10S -> S\n    )\n", 1)
    parsed = read_record(nested)
    inner = parsed.games[0].deals[0].tricks[25].variations[0].tricks[0].variations
    assert len(inner) == 1
    assert "    (\n    trick 26:" in format_text(nested)
    result = check_text(nested)
    assert result.valid and len(result.games[0].deals[0].tricks[25].variations[0][0].variations) == 1


def test_lessons_show_values_best_line_and_side_lines(tmp_path: Path) -> None:
    record, found = _with_mistake()
    source = tmp_path / "game.bzq"
    source.write_text(record, encoding="utf-8")
    out = tmp_path / "lines.bzq"
    assert main(["analyse", str(source), "--write-variations", str(out)]) == 0
    result = check_text(out.read_text(encoding="utf-8"), str(out), states=True)
    analysis = found["games"][0]["deals"]  # type: ignore[index]
    for lang, best in (("en", "best"), ("ru", "лучший")):
        lesson = build_lesson(result.games[0], lang, analysis=analysis)
        steps = [s for s in lesson.deals[0].steps if s.kind == "trick" and s.number >= 25]
        values = [p.value for s in steps for p in s.plays]
        assert len(values) == 16 and all(v == best or v.startswith("−") for v in values)
        mistakes = [p for s in steps for p in s.plays if p.mistake]
        assert len(mistakes) == sum(1 for p in analysis[0]["endgame"]["plays"] if p["cost"])
        assert all(any(line.tricks for line in s.lines) for s in steps if any(p.mistake for p in s.plays))
        assert any(line.title in ("Side line", "Вариант") for s in steps for line in s.lines)
        assert lesson.optimum
    site = tmp_path / "site"
    render_site([result], site, lang=["en", "ru"])
    page = (site / "lines-1.html").read_text(encoding="utf-8")
    assert 'class="dd-value"' in page and "play mistake" in page and 'details class="line"' in page
    assert "Points lost in the last tricks against the best play" in (site / "index.html").read_text(encoding="utf-8")


def test_puzzles_from_generated_games(tmp_path: Path) -> None:
    puzzles = []
    for seed in range(100, 160):
        puzzles.extend(mine_game(generate_game("classic", seed), f"seed-{seed}.bzq", 1, seed))
    assert puzzles, "no puzzle in sixty generated deals"
    for puzzle in puzzles:
        data = puzzle.data
        assert all(w["loss"] >= MARGIN for w in data["wrong"]) and data["wrong"]
        assert data["answer"]["card"] not in [w["card"] for w in data["wrong"]]
    written = write_puzzles(puzzles, tmp_path / "puzzles")
    for path in written:
        if path.suffix == ".bzq":
            content = path.read_text(encoding="utf-8")
            result = check_text(content, str(path))
            assert result.valid, [d.message for d in result.diagnostics]
            questions = [q for t in result.games[0].deals[-1].tricks for _, q in t.questions]
            assert questions and format_text(content) == content
    index = (tmp_path / "puzzles" / "index.html").read_text(encoding="utf-8")
    assert index.count('class="puzzle"') == len(puzzles)


def test_every_record_of_games_is_analysed_or_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    """Each deal of games/ gets its values or a one-line reason, never a traceback (a dealer who sits the hand out,
    infuzorka for four, once sent the solver to a seat with no cards)."""
    from replayer.analysis import analyse_deal
    from replayer.render import RENDER_BUDGET

    reasons = []
    for path in sorted((ROOT / "games").glob("*.bzq")):
        result = check_text(path.read_text(encoding="utf-8"), str(path), states=True)
        for game in result.games:
            for deal in game.deals:
                analysis = analyse_deal(deal, RENDER_BUDGET)
                assert analysis["endgame"] is not None or analysis["reason"], path.name
                if analysis["endgame"] is None:
                    reasons.append(analysis["reason"])
    assert reasons and all("\n" not in r and "Traceback" not in r for r in reasons)


def test_a_puzzle_whose_line_exceeds_the_budget_is_left_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """A deal solved within the budget whose answer's line is not (a many-pack endgame once raised OverBudget out
    of `bezique puzzles`): the puzzle is left out, never a traceback."""
    from replayer import puzzles as module
    from replayer.solver import OverBudget

    found = [p for seed in range(100, 130) for p in mine_game(generate_game("classic", seed), "s.bzq", 1, seed)]
    assert found, "no puzzle in thirty generated deals"

    def over(*_: object) -> None:
        raise OverBudget(1)

    monkeypatch.setattr(module, "best_line", over)
    assert [p for seed in range(100, 130) for p in mine_game(generate_game("classic", seed), "s.bzq", 1, seed)] == []
