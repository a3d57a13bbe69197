"""The formatter (``bezique fmt``): the canonical form, its guarantees, and the command line."""

from __future__ import annotations

import io
import os
import re
import stat
from pathlib import Path

import pytest
from conftest import DATA, GAMES, ROOT

from replayer import cli, fmt
from replayer.check import check_text
from replayer.cli import main
from replayer.errors import NotationError
from replayer.fmt import WIDTH, FormatCheckError, format_text, record_shape
from replayer.generate import generate_game
from replayer.profiles import profile_names
from replayer.reader import read_record
from replayer.replay import to_json

WORKED = GAMES / "worked-deal-000.bzq"


def _parses(path: Path) -> bool:
    try:
        read_record(path.read_text(encoding="utf-8"))
    except NotationError:
        return False
    return True


RECORDS = sorted(GAMES.glob("*.bzq")) + [p for p in sorted((DATA / "invalid").glob("*.bzq")) if _parses(p)]
SEEDS = [
    (profile, seed, 1 + seed % 3) for profile in profile_names() for seed in range(6 if profile == "classic" else 3)
]


def same_replay(a: str, b: str) -> None:
    """Two texts replay to the same games and events and report the same problems (positions aside)."""
    ra, rb = check_text(a, "x.bzq"), check_text(b, "x.bzq")
    ja, jb = to_json(ra), to_json(rb)
    assert ja["games"] == jb["games"]
    assert [(e["code"], e["message"]) for e in ja["errors"]] == [(e["code"], e["message"]) for e in jb["errors"]]
    assert record_shape(read_record(a)) == record_shape(read_record(b))


# --- the canonical form -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.bzq")), ids=lambda p: p.name)
def test_the_records_of_games_are_canonical(path: Path) -> None:
    # As `ruff format --check` keeps the code in one form: `bezique fmt --write games` fixes a failure here.
    text = path.read_text(encoding="utf-8")
    assert format_text(text) == text


@pytest.mark.parametrize(("profile", "seed", "deals"), SEEDS)
def test_generated_records_are_canonical(profile: str, seed: int, deals: int) -> None:
    text = generate_game(profile, seed, deals)
    assert format_text(text) == text
    # Canonical or not, the formatted record replays to the same events (format_text also checks that it reads as
    # the same record); here the same text is compared after a round through a messier spelling.
    messy = re.sub(r"(?m)^trick (\d+): (.*)$", lambda m: f"TRICK  {m[1]} :{m[2].replace(', ', ' ,')}  ", text)
    assert format_text(messy) == text
    same_replay(messy, text)


@pytest.mark.parametrize("path", RECORDS, ids=[p.name for p in RECORDS])
def test_records_keep_their_meaning_and_are_idempotent(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    canonical = format_text(text)
    assert format_text(canonical) == canonical
    same_replay(text, canonical)


MESSY = """\
{ a header
  comment }
ПАРТИЯ   "Messy"
Title:   A   messy   record   {  on the title }
players: North "Ann" , Юг
option: last_trick=final reuse=strict_text
target: 01000
сдача 01
dealer:Север
turn-up: 10♣
hand Север: 7♣ Д♣ JC QD QH KH 9H AS
hand S:Д пики 9C 8C 7C 7H 9D 10D JS


{ deal comment }
взятка 1: S 9 треф , {?Which   card
   wins? |QC,JC} North QC->N   { trick comment that is long enough to need wrapping because it goes on and \
on and on and on }
N exchange 7C=10
      N declares royal_marriage KC QC = 040 { on the declaration }
  draws N KC , S 9D
score N 10,S 0
{ after


the score }
trick 2: N 9H, S 7H -> N
{ a comment at the end
}
"""

CANONICAL = """\
{ a header
  comment }
game "Messy"
title: A   messy   record  { on the title }
players: N "Ann", S
options: last_trick=final, reuse=strict_text
target: 1000
deal 1
dealer: N
turnup: 10C
hand N: 7C QC JC QD QH KH 9H AS
hand S: QS 9C 8C 7C 7H 9D 10D JS

{ deal comment }
trick 1: S 9C, {? Which card
    wins? | QC JC } N QC -> N  { trick comment that is long enough to need wrapping because it goes on and on and on and
    on }
  N exchanges 7C = 10
  N declares royal_marriage KC QC = 40  { on the declaration }
  draws N KC, S 9D
  score N 10, S 0
  { after

    the score }
trick 2: N 9H, S 7H -> N
  { a comment at the end
  }
"""


def test_messy_record_has_this_canonical_form() -> None:
    assert format_text(MESSY) == CANONICAL
    assert format_text(CANONICAL) == CANONICAL
    same_replay(MESSY, CANONICAL)


def test_spacing_of_lines_and_files() -> None:
    text = WORKED.read_text(encoding="utf-8")
    messy = "\ufeff\n\n" + text.replace("\n", "  \r\n").replace("\r\n\r\n", "\r\n\r\n\r\n") + "\n\n"
    assert format_text(messy) == text


def test_comment_words_and_line_breaks_are_kept() -> None:
    words = " ".join(f"word{i}" for i in range(80))
    text = "game\n{ " + words + "\n  second   line }\n"
    out = format_text(text)
    lines = out.splitlines()
    assert all(len(line) <= WIDTH for line in lines)
    assert len(lines) > 3
    assert out.split() == text.replace("   ", " ").split()
    assert lines[-1] == "  second line }"  # the author's line break is kept
    assert format_text(out) == out


def test_a_comment_with_a_brace_in_its_words_stays_on_its_line() -> None:
    # seed 37, case 19784: a long comment of one line with a "{" among its words reads (a comment does not nest),
    # but wrapped over two lines it would read as a comment left open (BZ004): the formatter refused the record.
    words = " ".join(f"word{i}" for i in range(40))
    for comment in (f"{{ {words} {{ {words} }}", f"{{ {{{words} {words} }}"):
        text = f"game\ndeal\ntrick 1: N QC, S KC -> S  {comment}\n  {comment}\n"
        assert format_text(text) == text
    # A comment of several lines is wrapped as before (one with a "{" does not read at all).
    wrapped = format_text(f"game\n{{ {words} {words}\nmore }}\n").splitlines()
    assert len(wrapped) > 3 and all(len(line) <= WIDTH for line in wrapped) and wrapped[-1] == "  more }"


def test_a_word_longer_than_the_width_stays_whole() -> None:
    text = "game\n{ " + "x" * (WIDTH + 10) + " y }\n"
    assert format_text(text) == f"game\n{{ {'x' * (WIDTH + 10)}\n  y }}\n"


@pytest.mark.parametrize(
    ("question", "canonical"),
    [
        ("{?  Which? |  QC , Д♣ }", "{? Which? | QC QC }"),
        ("{? Which? | }", "{? Which? | }"),
        ("{? a | b | QC }", "{? a | b | QC }"),
        ("{? a | b | }", "{? a | b | }"),
        ("{? Which? }", "{? Which? }"),
        ("{?}", "{? }"),
        ("{? | QC }", "{? | QC }"),
    ],
)
def test_questions(question: str, canonical: str) -> None:
    head = "deal\ndealer: N\nturnup: 10C\n"
    text = f"{head}trick 1: S 9C, {question} N QC -> N\n"
    out = format_text(text)
    assert out == f"{head}trick 1: S 9C, {canonical} N QC -> N\n"
    assert record_shape(read_record(out)) == record_shape(read_record(text))


def test_comments_indentation() -> None:
    text = (
        "{ top }\n{ top too }\ngame\n{ under game }\ntitle: t\n{ under the title }\n{ and again }\n\n"
        "{ paragraph }\ndeal\n{ deal }\ndealer: N\n   { under the dealer }\n"
    )
    assert format_text(text) == (
        "{ top }\n{ top too }\ngame\n{ under game }\ntitle: t\n  { under the title }\n  { and again }\n\n"
        "{ paragraph }\ndeal\n{ deal }\ndealer: N\n  { under the dealer }\n"
    )


def test_empty_records() -> None:
    assert format_text("") == ""
    assert format_text("\n \n\t\n") == ""
    assert format_text("{}") == "{ }\n"


def test_a_record_that_does_not_parse_is_refused() -> None:
    with pytest.raises(NotationError):
        format_text("trick 1: S 9C N QC -> N\n")
    with pytest.raises(NotationError):  # parses, but a statement is out of place (BZ101)
        format_text("draws N KC, S 9D\n")


def test_every_statement_of_the_grammar_has_a_rule() -> None:
    grammar = (ROOT / "grammar" / "bezique.lark").read_text(encoding="utf-8")
    block = grammar[grammar.index("_statement:") : grammar.index("\n\n", grammar.index("_statement:"))]
    names = set(re.findall(r"\b([a-z_]+_(?:stmt|header))\b", block))
    names |= set(re.findall(r"->\s*([a-z_]+)", grammar))
    assert names, "the grammar's statements were not found"
    missing = sorted(n for n in names - {"comment_stmt"} if not hasattr(fmt._Formatter, f"on_{n}"))
    assert not missing, f"the formatter keeps these statements as written: {missing}"


def test_an_unknown_statement_is_kept_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    # As when the grammar grows before the formatter does: the statement is copied, comments and all.
    monkeypatch.delattr(fmt._Formatter, "on_trick_stmt")
    text = WORKED.read_text(encoding="utf-8").replace("trick 2: N 9C, S 7H", "trick  2 :N 9C ,S 7H")
    out = format_text(text)
    assert "trick  2 :N 9C ,S 7H -> N" in out
    same_replay(text, out)


def test_a_formatter_bug_is_caught_before_anything_is_written(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(fmt._Formatter, "on_score_stmt", lambda self, *statement: ["score N 0, S 0"])
    text = WORKED.read_text(encoding="utf-8")
    with pytest.raises(FormatCheckError, match="reads as a different record"):
        format_text(text)
    path = tmp_path / "w.bzq"
    path.write_text(text.replace("trick 2:", "trick  2:"), encoding="utf-8")
    before = path.read_bytes()
    assert main(["fmt", "--write", str(path)]) == 1
    assert path.read_bytes() == before
    assert "reads as a different record" in capsys.readouterr().err


# --- the command line -------------------------------------------------------------------------------------------


def _messy_file(tmp_path: Path, name: str = "messy.bzq") -> Path:
    path = tmp_path / name
    path.write_text(MESSY, encoding="utf-8")
    return path


def test_cli_prints_the_canonical_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _messy_file(tmp_path)
    assert main(["fmt", str(path)]) == 0
    out = capsys.readouterr()
    assert out.out == CANONICAL and out.err == ""
    assert path.read_text(encoding="utf-8") == MESSY


def test_cli_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _messy_file(tmp_path)
    assert main(["fmt", "--check", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:3:1: error: BZ005 not in the canonical form" in err
    assert main(["fmt", "--check", str(WORKED)]) == 0
    assert "0 not canonical, 1 already canonical" in capsys.readouterr().out
    crlf = tmp_path / "crlf.bzq"
    crlf.write_bytes(WORKED.read_bytes().replace(b"\n", b"\r\n"))
    assert main(["fmt", "--check", str(crlf)]) == 1
    assert f"{crlf}:1:1: error: BZ005" in capsys.readouterr().err


def test_cli_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = _messy_file(tmp_path)
    os.chmod(path, 0o640)
    link = tmp_path / "link.bzq"
    link.symlink_to(path.name)
    assert main(["fmt", "--write", str(link)]) == 0
    assert path.read_text(encoding="utf-8") == CANONICAL
    assert link.is_symlink()  # the link's target was rewritten, the link kept
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["link.bzq", "messy.bzq"]  # no temporary file left
    assert "reformatted" in capsys.readouterr().out
    mtime = path.stat().st_mtime_ns
    assert main(["fmt", "--write", str(path)]) == 0  # already canonical: not written again
    assert path.stat().st_mtime_ns == mtime


def test_cli_write_leaves_invalid_files_alone(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _messy_file(tmp_path, "a.bzq")
    bad = tmp_path / "b.bzq"
    bad.write_text(MESSY.replace("score N 10,S 0", "score N 10 S 0"), encoding="utf-8")
    before = bad.read_bytes()
    assert main(["fmt", "--write", str(tmp_path)]) == 1
    assert bad.read_bytes() == before
    assert good.read_text(encoding="utf-8") == CANONICAL
    captured = capsys.readouterr()
    assert re.search(rf"{re.escape(str(bad))}:\d+:\d+: error: BZ001 ", captured.err)
    assert "1 reformatted, 0 already canonical, 1 invalid" in captured.out


@pytest.mark.parametrize(
    "argv",
    [
        ["fmt"],
        ["fmt", "--check", "--write", "x.bzq"],
        ["fmt", "no-such-file.bzq"],
        ["fmt", "--write", "-"],
    ],
)
def test_cli_usage_errors(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    try:
        status = main(argv)
    except SystemExit as exc:  # argparse's own usage errors
        status = int(exc.code or 0)
    assert status == 2
    assert capsys.readouterr().err


def test_cli_reads_standard_input(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(MESSY))
    assert main(["fmt", "-"]) == 0
    assert capsys.readouterr().out == CANONICAL


def test_cli_stdin_that_is_not_utf8(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    class Stdin:
        buffer = io.BytesIO('game "Bézique"\n'.encode("latin-1"))

    monkeypatch.setattr("sys.stdin", Stdin())
    # Invalid input, not a usage error: exit 1, with the position of the first byte that is not UTF-8.
    assert main(["fmt", "-"]) == 1
    assert "<stdin>:1:8: error: BZ002 not UTF-8 text" in capsys.readouterr().err


def test_cli_write_that_fails(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # A folder that cannot be written (as a read-only one, for a user other than root): a message, no traceback.
    def refuse(path: object, text: str) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(cli, "write_atomic", refuse)
    path = _messy_file(tmp_path)
    assert main(["fmt", "--write", str(path)]) == 2
    assert f"{path}: cannot rewrite it: Permission denied" in capsys.readouterr().err
    assert path.read_text(encoding="utf-8") == MESSY
