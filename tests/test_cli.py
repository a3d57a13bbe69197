"""The command line: exit codes (0 valid, 1 invalid, 2 usage), message format, JSON, generate."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import GAMES, ROOT

from replayer.cli import main
from replayer.generate import generate_game


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "g.bzq"
    path.write_text(generate_game("classic", 5), encoding="utf-8")
    return path


def test_validate_valid(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(game_file)]) == 0
    assert "1 valid, 0 invalid" in capsys.readouterr().out


def test_validate_invalid_reports_file_line_col(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    lines = game_file.read_text(encoding="utf-8").splitlines()
    n = next(i for i, line in enumerate(lines) if line.strip().startswith("score N") and " 0," not in line)
    old = lines[n]
    value = old.split()[2].rstrip(",")
    lines[n] = old.replace(f"N {value},", f"N {int(value) + 10},")
    game_file.write_text("\n".join(lines), encoding="utf-8")
    assert main(["validate", str(game_file)]) == 1
    err = capsys.readouterr().err
    col = lines[n].index(str(int(value) + 10)) + 1
    assert f"{game_file}:{n + 1}:{col}: error: BZ501 wrong running score" in err
    assert "^" in err


def test_validate_folder_json(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(game_file.parent), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["valid"] is True and data["files"][0]["games"] == 1


def test_usage_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", str(tmp_path / "missing.bzq")]) == 2
    assert "no such file or folder" in capsys.readouterr().err
    assert main(["validate", str(tmp_path)]) == 2  # an empty folder: nothing to validate
    with pytest.raises(SystemExit) as info:
        main(["frobnicate"])
    assert info.value.code == 2
    assert main(["rules", "nope"]) == 2


def test_replay_json_shape(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(game_file), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    game = data["games"][0]
    assert {"profile", "options", "players", "deals", "scores"} <= set(game)
    deal = game["deals"][0]
    assert {"dealer", "trump", "turnup", "hands", "tricks", "brisques", "scores"} <= set(deal)
    trick = deal["tricks"][0]
    assert {"n", "leader", "plays", "winner", "scoring", "draws", "scores"} <= set(trick)
    assert set(trick["plays"][0]) == {"player", "card"}


def test_replay_text(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(game_file)]) == 0
    out = capsys.readouterr().out
    assert "Trick 1:" in out and "Trick 32:" in out and "Deal result:" in out


def test_profiles_and_rules(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["profiles"]) == 0
    assert "classic" in capsys.readouterr().out
    assert main(["rules", "classic"]) == 0
    out = capsys.readouterr().out
    assert "double bezique" in out and "500" in out and "last_trick = 24" in out


def test_generate_refuses_to_overwrite(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "r.bzq"
    assert main(["generate", "--seed", "2", "--out", str(out)]) == 0
    first = out.read_text(encoding="utf-8")
    assert main(["generate", "--seed", "3", "--out", str(out)]) == 2
    assert out.read_text(encoding="utf-8") == first
    assert main(["generate", "--seed", "3", "--out", str(out), "--force"]) == 0
    assert out.read_text(encoding="utf-8") != first


def test_generate_takes_a_positive_number_of_jobs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["generate", "--player", "sampler", "--jobs", "0"]) == 2
    assert "--jobs" in capsys.readouterr().err


def test_written_files_get_the_usual_permissions(tmp_path: Path) -> None:
    # A new file follows the umask, like any file the user makes; an overwritten one keeps its mode.
    old = os.umask(0o022)
    try:
        out = tmp_path / "r.bzq"
        assert main(["generate", "--seed", "2", "--out", str(out)]) == 0
        assert out.stat().st_mode & 0o777 == 0o644
        out.chmod(0o600)
        assert main(["generate", "--seed", "3", "--out", str(out), "--force"]) == 0
        assert out.stat().st_mode & 0o777 == 0o600
    finally:
        os.umask(old)


def test_module_runs_from_another_directory(tmp_path: Path, game_file: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "replayer", "validate", str(game_file)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert (ROOT / "grammar" / "bezique.lark").is_file()


def test_validate_jobs_keep_the_order_and_summary_counts_codes(capsys: pytest.CaptureFixture[str]) -> None:
    from conftest import DATA

    folders = [str(ROOT / "games"), str(DATA / "invalid")]
    assert main(["validate", *folders]) == 1
    serial = capsys.readouterr()
    assert main(["validate", *folders, "--jobs", "2"]) == 1
    parallel = capsys.readouterr()

    def untimed(text: str) -> str:
        return re.sub(r"in [0-9.]+ s", "in _ s", text)

    assert untimed(parallel.out) == untimed(serial.out) and parallel.err == serial.err
    assert main(["validate", *folders, "--summary", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    invalid = len(list((DATA / "invalid").glob("*.bzq")))
    assert report["invalid_files"] == invalid and report["errors"] == sum(report["errors_by_code"].values())
    assert report["errors_by_code"]["BZ501"] == 1


def test_rules_describe_an_option_that_changes_the_meld_table(capsys: pytest.CaptureFixture[str]) -> None:
    # RULES.md §2.g.1 rule 5: option fours=trump_only swaps the fours; the listing names the kinds, not raw YAML.
    assert main(["rules", "4h-six-000"]) == 0
    out = capsys.readouterr().out
    assert "trump_only: adds four_trump_aces 1000" in out
    assert "re-prices four_aces 1000 -> 100" in out
    assert '"melds"' not in out


def test_the_plain_validate_arguments_are_read_as_argparse_reads_them() -> None:
    """`validate` with only -q/--quiet/--json/--unknowns/--strict and paths skips argparse: whatever it accepts,
    argparse reads the same; everything else (other options, help, errors) is left to argparse."""
    import itertools

    from replayer.cli import _plain_validate, build_parser

    words = [
        "-q",
        "--quiet",
        "--json",
        "--unknowns",
        "--strict",
        "a.bzq",
        "b",
        "",
        "-",
        "--jobs",
        "2",
        "--qui",
        "-h",
        "validate",
    ]
    accepted = 0
    for length in range(4):
        for rest in itertools.product(words, repeat=length):
            argv = ["validate", *rest]
            plain = _plain_validate(argv)
            if plain is None:
                continue
            accepted += 1
            assert vars(plain) == vars(build_parser().parse_args(argv)), argv
    assert accepted > 100
    assert _plain_validate(["validate", "a", "-q", "b"]) is None  # argparse refuses b after a flag
    assert _plain_validate(["validate"]) is None and _plain_validate(["replay", "a"]) is None


def test_a_warning_leaves_the_record_valid_and_is_counted_apart(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # BZ701: the question leaves out the card played; a likely slip, not a broken rule.
    text = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    path = tmp_path / "slip.bzq"
    path.write_text(text.replace("trick 2: N 9C, S 7H -> N", "trick 2: {? Which card? | 9S } N 9C, S 7H -> N"))
    assert main(["validate", str(path)]) == 0
    out, err = capsys.readouterr()
    assert f"{path}: ok (1 game(s), 1 warning(s))" in out and "0 invalid, 1 warning(s)" in out
    assert "warning: BZ701 " in err
    assert main(["validate", "--summary", "json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["errors"], report["warnings"], report["errors_by_code"]) == (0, 1, {})


# --- issue 16, item 7: words a record can use, help that says what a command does, CI annotations


def test_every_command_says_what_it_does(capsys: pytest.CaptureFixture[str]) -> None:
    from replayer.cli import build_parser

    commands = next(a for a in build_parser()._actions if a.dest == "command").choices
    assert commands is not None and {"validate", "infer", "generate", "rules", "lsp"} <= set(commands)
    for name, parser in commands.items():  # type: ignore[union-attr]
        assert parser.description and len(parser.description) > 40, name
        with pytest.raises(SystemExit) as done:
            main([name, "--help"])
        assert done.value.code == 0
        said = " ".join(capsys.readouterr().out.split())
        assert " ".join(parser.description.split())[:60] in said, name


def test_rules_print_the_words_a_record_writes(capsys: pytest.CaptureFixture[str]) -> None:
    from replayer.check import check_text
    from replayer.profiles import load_profile

    assert main(["rules", "classic"]) == 0
    out = capsys.readouterr().out
    for meld in load_profile("classic").melds:
        assert re.search(rf"^  {re.escape(meld.label)} +{meld.kind} +{meld.points} ", out, re.MULTILINE), meld.kind
    # The word printed is one a record can write: the worked deal's royal marriage, written with it, still reads.
    worked = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    assert "royal_marriage" in worked and check_text(worked).valid


def test_validate_format_github_prints_annotations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    worked = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    path = tmp_path / "a, b.bzq"
    planted = worked.replace("  draws N 8H, S JH\n  score N 320", "  draws N 8H, S JH\n  score N 330")
    path.write_text(planted, "utf-8")
    line = planted[: planted.index("score N 330")].count("\n") + 1
    assert main(["validate", "--format", "github", str(path)]) == 1
    captured = capsys.readouterr()
    name = str(path).replace(",", "%2C").replace(":", "%3A")
    annotation = f"::error file={name},line={line},col=11,title=BZ501::BZ501 wrong running score: the record says N 330"
    assert annotation in captured.out
    assert captured.err == ""  # (the annotations replace the usual report, not add to it)
    assert main(["validate", "--format", "github", str(GAMES / "worked-deal-000.bzq")]) == 0
    assert "::" not in capsys.readouterr().out


def test_readme_shows_todays_validate_output(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["validate", "games"]) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    assert f"\n{last}\n" in (ROOT / "README.md").read_text(encoding="utf-8")


# --- issue 23: the small ones ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["replay", "analyse", "infer"])
def test_a_folder_where_one_file_is_read_is_named_a_folder(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = [command, str(GAMES)] + (["--out", str(tmp_path / "x.bzq")] if command == "infer" else [])
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert f"{GAMES} is a folder: bezique {command} reads one record file" in err and "no such file" not in err


def test_infer_writes_to_standard_output_and_makes_no_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lossy = str(GAMES / "worked-deal-000-as-printed.bzq")
    assert main(["infer", lossy, "--out", "-"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith('game "Illustrative deal') and "unknown card(s) completed" in err
    written = tmp_path / "w.bzq"
    assert main(["infer", lossy, "--out", str(written)]) == 0
    assert written.read_text(encoding="utf-8") == out
    missing = tmp_path / "no" / "such" / "w.bzq"
    assert main(["infer", lossy, "--out", str(missing)]) == 2
    assert "no such folder" in capsys.readouterr().err and not (tmp_path / "no").exists()


def test_a_number_too_long_says_the_limit(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
    path = tmp_path / "long.bzq"
    path.write_text(text.replace("score N 320, S 110", "score N 4294967296, S 110", 1), encoding="utf-8")
    assert main(["validate", str(path)]) == 1
    assert "BZ001 a number of 10 digits: a number has at most 9 digits" in capsys.readouterr().err


def test_generate_says_its_profile_and_default(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["generate", "--help"])
    said = " ".join(capsys.readouterr().out.split())
    assert "--profile NAME the rule profile the deals are played under (default: classic" in said
