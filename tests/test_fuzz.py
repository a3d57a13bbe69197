"""Fuzzing: whatever text a record holds, the tool answers with a replay or its own errors, never a traceback.

Property tests (hypothesis) over records built from the grammar and over random byte, token and line edits of
valid records. The only outcomes allowed are a valid replay or the project's own diagnostics, each with a code
of the catalogue and a position inside the text; a record that parses also has a canonical form, which is stable.
The work done per record is bounded (a deterministic count of function calls grows linearly with the input),
and the text of a record stays inert in the lessons; rule profiles are fuzzed the same way.

Hypothesis examples per test are set in ``EXAMPLES`` (the total is printed by ``pytest -s -k fuzz_count``).
"""

from __future__ import annotations

import contextlib
import cProfile
import io
import itertools
import os
import pstats
import re
import tempfile
from collections import Counter
from collections.abc import Callable
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from conftest import GAMES, ROOT
from edits import LINE_EDITS, VOCABULARY, edit_lines
from hypothesis import HealthCheck, given, reject, settings
from hypothesis import strategies as st

from replayer import notation
from replayer.cards import make_pack
from replayer.check import check_text
from replayer.cli import main
from replayer.errors import CODES, Diagnostic, NotationError, RuleProfileError, Span, format_diagnostic
from replayer.fmt import format_text
from replayer.generate import generate_game
from replayer.infer import deal_has_unknowns
from replayer.profiles import load_profile
from replayer.reader import read_record
from replayer.render import render_site
from replayer.replay import ReplayResult, to_json

# Examples per test in CI; BEZIQUE_FUZZ_SCALE=20 runs twenty times as many (a longer campaign, by hand).
SCALE = int(os.environ.get("BEZIQUE_FUZZ_SCALE", "1"))
EXAMPLES = {
    k: v * SCALE
    for k, v in {"bytes": 40, "tokens": 40, "lines": 30, "grammar": 60, "cli": 15, "lessons": 8, "profiles": 40}.items()
}
FUZZ = settings(
    deadline=None,  # no test asserts time: the work bound below is a count of calls
    database=None,  # nothing written into the working tree; a failure prints its example
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.large_base_example,
        HealthCheck.filter_too_much,
    ],
)

WORKED = (GAMES / "worked-deal-000.bzq").read_text(encoding="utf-8")
BASES = [WORKED, generate_game("classic", 11), generate_game("classic", 12, 2)]
PACK = sorted(set(make_pack(1, load_profile("classic").ranks)), key=lambda c: c.sort_key)

# Build the parser, load the profile and import the inference once, so that no example pays for them.
for _text in (WORKED, WORKED.replace("trick 3: N 7H, S 9D", "trick 3: N 7?, S 9D")):
    format_text(_text)
    check_text(_text)

# The reader's work is at most this many function calls per character of the record (about 5 for a valid one,
# and each syntax error costs one more parse, up to 20).
CALLS_PER_CHAR = 150
CALLS_BASE = 200_000
# Completing unknown cards (replayer/infer.py) is a search with its own budget, not linear in the text.
INFERENCE_CALLS = 20_000_000

# Crashes found by the fuzzer and not yet fixed would be set aside here (counted, each with a strict xfail test), so
# that the properties keep checking everything else. None at present.
KNOWN_CRASHES: Counter[str] = Counter()


def calls(function: Callable[..., Any], *args: Any) -> tuple[Any, int]:
    """Run a function and count the function calls it makes: a measure of work that does not depend on time."""
    profile = cProfile.Profile()
    result = profile.runcall(function, *args)
    return result, pstats.Stats(profile).total_calls  # type: ignore[attr-defined]


def needs_inference(text: str) -> bool:
    """True when a deal of the record leaves cards unknown, so that the replay searches for a completion: the
    record as the replay reads it, on past the lines that do not read (a hand line that does not read leaves the
    hand unknown)."""
    from replayer.reader import read_record_recovering

    try:
        record = read_record_recovering(text, "fuzz.bzq")[0]
        return any(deal_has_unknowns(d, load_profile(g.profile)) for g in record.games for d in g.deals)
    except (NotationError, RuleProfileError):
        return False


def _known_crash(exc: BaseException, inference: bool) -> str | None:
    """A crash already reported and not yet fixed, to set aside (none at present: all found so far are fixed)."""
    del exc, inference
    return None


def check_record(text: str) -> ReplayResult:
    """The properties every text must have: replayed, or rejected with positioned diagnostics of the catalogue."""
    inference = needs_inference(text)
    try:
        result, work = calls(check_text, text, "fuzz.bzq")
    except Exception as exc:
        known = _known_crash(exc, inference)
        if known is None:
            raise
        KNOWN_CRASHES[known] += 1
        reject()
    bound = CALLS_BASE + CALLS_PER_CHAR * len(text) + (INFERENCE_CALLS if inference else 0)
    assert work <= bound, f"{work} calls for {len(text)} characters"
    line_count = text.count("\n") + 1
    for diag in result.diagnostics:
        assert diag.code in CODES, diag
        assert diag.span is not None, diag
        assert 1 <= diag.span.line <= line_count and diag.span.column >= 1, (diag, line_count)
        where = f"fuzz.bzq:{diag.span.line}:{diag.span.column}"
        assert format_diagnostic(diag, text).startswith(f"{where}: {diag.severity}: "), diag
        assert diag.severity == "error" or diag.code in WARNINGS, diag
    to_json(result)
    through_the_editor(text, result)
    try:
        read_record(text)
    except NotationError:
        return result
    # It parses: its canonical form reads as the same record (format_text checks that) and is stable.
    canonical = format_text(text)
    assert format_text(canonical) == canonical
    return result


def through_the_editor(text: str, result: ReplayResult) -> None:
    """Issue 16: the language server reports what validate reports (game by game) and answers at any place without
    raising; the Pygments lexer gives the text back (as Pygments normalises it: no byte-order mark, "\n" line ends,
    the leading and trailing line ends stripped)."""
    from replayer.check import game_texts
    from replayer.highlight import BeziqueLexer
    from replayer.lsp import Workbench

    bench = Workbench(text, "fuzz.bzq")
    if len(game_texts(text)) == 1:  # (several games are replayed each on its own, as validate replays a file)
        assert [(d.code, d.span) for d in bench.diagnostics] == [(d.code, d.span) for d in result.diagnostics]
    line_count = text.count("\n") + 1
    assert all(d.span is not None and 1 <= d.span.line <= line_count for d in bench.diagnostics)
    lines = text.split("\n")
    for line in {0, len(lines) // 2, len(lines) - 1}:
        for column in {0, len(lines[line]) // 2}:
            bench.hover(line, column)
            bench.legal_cards(line, column)
            bench.definition(line, column)
    bench.actions(0, len(lines) - 1)
    lexed = "".join(value for _, value in BeziqueLexer().get_tokens(text))
    given = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    assert lexed.strip("\n") == given.strip("\n")


# --- edits of valid records -------------------------------------------------------------------------------------


@st.composite
def byte_edits(draw: st.DrawFn) -> bytes:
    data = bytearray(draw(st.sampled_from(BASES)).encode("utf-8"))
    for _ in range(draw(st.integers(1, 6))):
        pos = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["insert", "delete", "replace", "duplicate"]))
        if kind == "insert":
            data[pos:pos] = draw(st.binary(min_size=1, max_size=4))
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 40))]
        elif kind == "replace" and pos < len(data):
            data[pos] = draw(st.integers(0, 255))
        else:
            data[pos:pos] = data[pos : pos + draw(st.integers(1, 200))]
    return bytes(data)


@st.composite
def token_edits(draw: st.DrawFn) -> str:
    tokens = re.split(r"(\s+)", draw(st.sampled_from(BASES)))
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(tokens) - 1))
        kind = draw(st.sampled_from(["delete", "duplicate", "swap", "replace", "insert"]))
        if kind == "delete":
            del tokens[i]
        elif kind == "duplicate":
            tokens.insert(i, tokens[i])
        elif kind == "swap" and i + 2 < len(tokens):
            tokens[i], tokens[i + 2] = tokens[i + 2], tokens[i]
        elif kind == "replace":
            tokens[i] = draw(st.sampled_from(VOCABULARY))
        else:
            tokens.insert(i, draw(st.sampled_from(VOCABULARY)) + " ")
    return "".join(tokens)


@st.composite
def line_edits(draw: st.DrawFn) -> str:
    lines = draw(st.sampled_from(BASES)).split("\n")
    for _ in range(draw(st.integers(1, 5))):
        i = draw(st.integers(0, len(lines) - 1))
        j = draw(st.integers(0, len(lines) - 1))
        edit_lines(lines, draw(st.sampled_from(LINE_EDITS)), i, j)
    return "\n".join(lines)


@settings(FUZZ, max_examples=EXAMPLES["bytes"])
@given(byte_edits())
def test_byte_edits(data: bytes) -> None:
    check_record(data.decode("utf-8", errors="replace"))


@settings(FUZZ, max_examples=EXAMPLES["tokens"])
@given(token_edits())
def test_token_edits(text: str) -> None:
    check_record(text)


@settings(FUZZ, max_examples=EXAMPLES["lines"])
@given(line_edits())
def test_line_edits(text: str) -> None:
    check_record(text)


WARNINGS = {"BZ405", "BZ701"}
"""The codes of likely slips that break no rule (the record stays valid)."""
_ERROR_LINE = re.compile(r"^(?P<path>.+?):(?P<line>\d+):(?P<col>\d+): error: (?P<code>BZ\d{3}) \S")


@settings(FUZZ, max_examples=EXAMPLES["cli"])
@given(byte_edits())
def test_cli_on_edited_files(data: bytes) -> None:
    # The file as a user has it: any bytes. Exit 0 or 1, every error line in the project's format (bytes that are
    # not UTF-8 too: BZ002 at the first of them).
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "edited.bzq"
        path.write_bytes(data)
        for command in (["validate", str(path)], ["fmt", "--check", str(path)], ["replay", "--json", str(path)]):
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = main(command)
            try:
                data.decode("utf-8")
            except UnicodeDecodeError:
                assert status == 1 and ": error: BZ002 not UTF-8 text" in err.getvalue()
                continue
            assert status in (0, 1), (command, status, err.getvalue()[-500:])
            for line in err.getvalue().splitlines():
                if line.startswith(str(path)) and ": error: " in line:
                    match = _ERROR_LINE.match(line)
                    assert match and match["path"] == str(path) and match["code"] in CODES, line


# --- records built from the grammar -----------------------------------------------------------------------------

WORDS = st.text(st.characters(blacklist_characters="{}\n\r|", blacklist_categories=("Cs",)), max_size=30)
SEATS = st.sampled_from(["N", "S", "N", "S", "E", "North", "South", "Север", "Юг"])


@st.composite
def cards(draw: st.DrawFn) -> str:
    card = draw(st.sampled_from(PACK))
    rank, suit = card.rank.symbol, card.suit.value
    style = draw(st.integers(0, 9))
    if style == 7:
        return f"{rank}{'♠♥♦♣'['SHDC'.index(suit)]}"
    if style == 8:
        return draw(st.sampled_from([f"{rank}?", "??", f"?{suit}"]))
    if style == 9:
        return f"{rank} {['пики', 'червы', 'бубны', 'трефы']['SHDC'.index(suit)]}"
    return str(card)


def _comment(draw: st.DrawFn) -> str:
    return f"  {{ {draw(WORDS)} }}" if draw(st.integers(0, 4)) == 0 else ""


@st.composite
def trick(draw: st.DrawFn, number: int) -> list[str]:
    plays = []
    for _ in range(draw(st.integers(1, 3))):
        question = f"{{? {draw(WORDS)} | {draw(cards())} }} " if draw(st.integers(0, 9)) == 0 else ""
        plays.append(f"{question}{draw(SEATS)} {draw(cards())}")
    separator = ", " if draw(st.booleans()) else " / "
    winner = f" -> {draw(SEATS)}" if draw(st.booleans()) else ""
    lines = [f"trick {number}: {separator.join(plays)}{winner}{_comment(draw)}"]
    for _ in range(draw(st.integers(0, 3))):
        seat = draw(SEATS)
        kind = draw(st.sampled_from(["marriage", "royal_marriage", "bezique", "four_aces", "sequence", "nope"]))
        points = f" = {draw(st.integers(0, 600))}" if draw(st.booleans()) else ""
        some = " ".join(draw(st.lists(cards(), max_size=5)))
        lines.append(
            "  "
            + draw(
                st.sampled_from(
                    [
                        f"{seat} exchanges {draw(cards())}{points}",
                        f"{seat} declares {kind} {some}{points}",
                        f"{seat} declares {some}{points}",
                        f"{seat} shows {kind} {draw(cards())} {some}",
                        f"{seat} scores {draw(st.sampled_from(['seven_played', 'last_trick', 'x']))}{points}",
                        f"draws {draw(SEATS)} {draw(cards())}, {draw(SEATS)} {draw(cards())}",
                        f"score {draw(SEATS)} {draw(st.integers(0, 999))}, {draw(SEATS)} {draw(st.integers(0, 999))}",
                    ]
                )
            )
            + _comment(draw)
        )
    return lines


@st.composite
def records(draw: st.DrawFn) -> str:
    lines = [f'game "{draw(WORDS).replace(chr(34), "")}"']
    keys = ["title", "source", "url", "note", "players", "options", "target"]
    for key in draw(st.lists(st.sampled_from(keys), unique=True)):
        if key == "players":
            lines.append(f'players: N "{draw(WORDS).replace(chr(34), "")}", S')
        elif key == "options":
            lines.append(f"options: {draw(st.sampled_from(['last_trick=24', 'last_trick=final', 'reuse=x', 'y=1']))}")
        elif key == "target":
            lines.append(f"target: {draw(st.integers(0, 3000))}")
        else:
            lines.append(f"{key}: {draw(WORDS)}")
    lines.append(f"profile: {draw(st.sampled_from(['classic', 'classic', 'nope']))}")
    for deal_number in range(1, draw(st.integers(1, 2)) + 1):
        lines.append(f"deal {deal_number}")
        if draw(st.integers(0, 5)):
            lines.append(f"dealer: {draw(SEATS)}")
        if draw(st.integers(0, 3)):
            lines.append(f"turnup: {draw(cards())}")
        if draw(st.integers(0, 5)) == 0:
            lines.append(f"trump: {draw(st.sampled_from('SHDC'))}")
        for seat in draw(st.sampled_from([["N", "S"], ["N", "S"], ["N"], []])):
            size = draw(st.sampled_from([8, 8, 8, 7, 9]))
            hand = draw(st.lists(cards(), min_size=size, max_size=size))
            lines.append(f"hand {seat}: {' '.join(hand)}{_comment(draw)}")
        if draw(st.integers(0, 5)) == 0:
            lines.append(f"stock: {' '.join(draw(st.lists(cards(), max_size=50)))}")
        for number in range(1, draw(st.one_of(st.integers(0, 8), st.integers(0, 34))) + 1):
            lines.extend(draw(trick(number if draw(st.integers(0, 20)) else number + 1)))
        for what in draw(st.lists(st.sampled_from(["brisques", "result", "total"]), max_size=3)):
            lines.append(f"{what} N {draw(st.integers(0, 999))}, S {draw(st.integers(0, 999))}")
    if draw(st.booleans()):
        lines.append(f"winner {draw(SEATS)}")
    return "\n".join(lines) + "\n"


@settings(FUZZ, max_examples=EXAMPLES["grammar"])
@given(records())
def test_records_from_the_grammar(text: str) -> None:
    check_record(text)


# --- known crashes and bounds -----------------------------------------------------------------------------------


@pytest.mark.parametrize("statement", ["trick {n}: N QS, S QH", "deal {n}", "target: {n}"])
def test_huge_numbers_are_errors_not_crashes(statement: str) -> None:
    check_record(statement.format(n="9" * 5000) + "\n")


_UNKNOWN_DEAL = (
    "profile: classic\ndeal 1\ndealer: N\ntrump: S\nhand N: AS AS AS AS AS AS AS AS\nhand S: AS AS AS AS AS AS AS A?\n"
)


@pytest.mark.parametrize(
    "trick",
    ["trick 1: N 10S, E AS", "trick 1: N AS / N AS", "trick 1: N AS, S AS\n  E exchanges AS", "trick 1: E AS, S AS"],
)
def test_unknown_cards_with_odd_seats_are_errors_not_crashes(trick: str) -> None:
    # Found by test_records_from_the_grammar: the completion of unknown cards looks seats up in the profile's
    # seats without checking them first.
    result = check_text(_UNKNOWN_DEAL + trick + "\n")
    assert not result.valid and all(d.span is not None for d in result.diagnostics)


_KNOWN_DEAL = (
    "profile: classic\ndeal 1\ndealer: N\nturnup: AS\nhand N: AS AS AS AS AS AS AS\nhand S: AS AS AS AS AS AS AS\n"
)


@pytest.mark.parametrize(
    "trick",
    [
        "trick 1: N AS, E AS",
        "trick 1: E AS, S AS",
        "trick 2: N AS\n  N exchanges AS\n  draws N AS, E AS",
        "trick 2: {?  | AS } N AS\n  E exchanges AS",
        "trick 1: N AS, S AS\n  W declares marriage KS QS",
    ],
)
def test_odd_seats_in_a_known_deal_are_errors_not_crashes(trick: str) -> None:
    # Found by test_records_from_the_grammar: the engine looks seats up in the profile's seats, and the replay
    # checked them only in a deal whose unknown cards it completes.
    result = check_text(_KNOWN_DEAL + trick + "\n")
    assert not result.valid and all(d.span is not None for d in result.diagnostics)
    assert "BZ105" in {d.code for d in result.diagnostics}


def test_syntax_errors_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # Each syntax error costs one more parse of the whole text; the reader stops after 20 of them.
    parser = notation._parser()
    count = itertools.count()
    real = parser.parse
    monkeypatch.setattr(parser, "parse", lambda text: (next(count), real(text))[1])
    result = check_text(WORKED + "trick 1 N\n" * 500)
    assert len(result.diagnostics) == 20
    assert next(count) <= 21


FAMILIES: dict[str, Callable[[int], str]] = {
    "games": lambda n: generate_game("classic", 1) * n,
    "a long comment": lambda n: WORKED + "{ " + "word " * (2000 * n) + "}\n",
    "syntax errors": lambda n: WORKED + "trick 1 N\n" * (100 * n),
    "a long hand": lambda n: WORKED.replace("hand N: 7C", "hand N: " + "7C " * (200 * n) + "7C"),
    "a long trick": lambda n: WORKED.replace("trick 2: N 9C, S 7H", "trick 2: " + ", ".join(["N 9C", "S 7H"] * 20 * n)),
    "tricks after the deal": lambda n: WORKED.replace(
        "\nbrisques", "".join(f"\ntrick {33 + i}: N 9C, S 7H -> N" for i in range(40 * n)) + "\nbrisques"
    ),
    "draws": lambda n: WORKED.replace("  draws N KC, S 9D", "  draws " + ", ".join(["N KC", "S 9D"] * 30 * n)),
    "declarations": lambda n: WORKED.replace(
        "  N declares royal_marriage KC QC = 40\n", "  N declares royal_marriage KC QC = 40\n" * 30 * n
    ),
    "a long header": lambda n: WORKED.replace("title: ", "title: " + "x" * 5000 * n),
}


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_work_grows_linearly(family: str) -> None:
    # Four times the input must cost about four times the work (16 times would be quadratic).
    make = FAMILIES[family]
    small, large = make(1), make(4)
    _, small_calls = calls(check_text, small)
    _, large_calls = calls(check_text, large)
    assert large_calls <= 5 * small_calls, (small_calls, large_calls)
    try:
        read_record(small)
    except NotationError:
        return
    _, small_calls = calls(format_text, small)
    _, large_calls = calls(format_text, large)
    assert large_calls <= 5 * small_calls, ("fmt", small_calls, large_calls)


class _CountingText(str):
    """A source text that counts the characters scanned when it is split into lines."""

    scanned = 0

    def splitlines(self, keepends: bool = False) -> list[str]:  # type: ignore[override]
        _CountingText.scanned += len(self)
        return super().splitlines(keepends)


def test_printing_diagnostics_is_linear() -> None:
    source = _CountingText(WORKED)
    diagnostics = [Diagnostic("BZ201", "x", Span(1 + i % 200, 1)) for i in range(1000)]
    for diag in diagnostics:
        format_diagnostic(diag, source)
    assert _CountingText.scanned <= 10 * len(source)


# --- the text of a record is inert in the lessons ---------------------------------------------------------------

_HOSTILE_PARTS = [
    "<zq1>",
    "</script><zq2>",
    '" onmouseover="zq3',
    "' onload='zq4",
    "{{ 7*7 }}",
    "&amp;",
    "javascript:zq5",
]


def hostile(forbidden: str) -> st.SearchStrategy[str]:
    """Text meant to break out of HTML, without the characters the notation does not allow where it goes."""
    parts = [p for p in _HOSTILE_PARTS if not set(p) & set(forbidden)] + ["x"]
    return st.lists(st.sampled_from(parts), min_size=1, max_size=4).map(" ".join)


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: set[str] = set()
        self.attributes: list[tuple[str, str]] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.add(tag)
        self.attributes.extend((name, value or "") for name, value in attrs)


@settings(FUZZ, max_examples=EXAMPLES["lessons"])
@given(hostile('"'), hostile('"'), hostile("{"), hostile("{}|"))
def test_record_text_is_inert_in_lessons(title: str, name: str, header: str, comment: str) -> None:
    text = generate_game("classic", 4)
    text = re.sub(r'^game ".*"$', f'game "{title}"', text, count=1, flags=re.M)
    players = f'players: N "{name}", S "{name}"'
    text = re.sub(r"^source: .*$", lambda _: f"source: {header}", text, count=1, flags=re.M)
    text = text.replace("profile: classic", f"profile: classic\n{players}\nurl: {header}\nnote: {header}", 1)
    text = re.sub(r"^(trick 1: .*)$", rf"\1  {{ {comment} }}", text, count=1, flags=re.M)
    text = re.sub(r"^trick 2: ", f"trick 2: {{? {comment} }} ", text, count=1, flags=re.M)
    result = check_text(text, "hostile.bzq")
    assert result.valid, result.diagnostics[:3]
    with tempfile.TemporaryDirectory() as folder:
        render_site([result], Path(folder) / "site")
        for page in (Path(folder) / "site").rglob("*.html"):
            html = page.read_text(encoding="utf-8")
            assert not re.search(r"<zq|zq[0-9]*>|<script>zq", html), page.name
            tags = _Tags()
            tags.feed(html)
            assert not {t for t in tags.tags if t.startswith("zq")}
            assert not [a for a in tags.attributes if a[0].startswith("on")]
            assert not [a for a in tags.attributes if a[0] == "href" and "zq" in a[1]]


# --- rule profiles ----------------------------------------------------------------------------------------------

CLASSIC_YAML = (ROOT / "replayer" / "profiles" / "classic.yaml").read_text(encoding="utf-8")
_profile_files = itertools.count()


@st.composite
def profile_edits(draw: st.DrawFn) -> str:
    lines = CLASSIC_YAML.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        kind = draw(st.sampled_from(["delete", "value", "key", "duplicate", "indent"]))
        if kind == "delete":
            del lines[i]
        elif kind == "value" and ":" in lines[i]:
            key = lines[i].split(":", 1)[0]
            value = draw(
                st.sampled_from(
                    ["0", "-1", "x", "[]", "{}", "null", "true", "[1, a]", "!!python/object:os.system", "2.5"]
                )
            )
            lines[i] = f"{key}: {value}"
        elif kind == "key" and ":" in lines[i]:
            lines[i] = lines[i].replace(":", "_x:", 1)
        elif kind == "duplicate":
            lines.insert(i, lines[i])
        else:
            lines[i] = " " + lines[i]
    return "\n".join(lines)


@settings(FUZZ, max_examples=EXAMPLES["profiles"])
@given(profile_edits())
def test_profiles_load_or_fail_naming_the_file(text: str) -> None:
    # yaml.safe_load and the schema: a broken profile is a RuleProfileError naming the file, never another error.
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"profile-{next(_profile_files)}.yaml"  # load_profile caches by path
        path.write_text(text, encoding="utf-8")
        try:
            profile = load_profile(str(path))
        except RuleProfileError as exc:
            assert str(path) in str(exc)
            assert re.search(r"key '[^']+'|not valid YAML|must be a mapping", str(exc)), str(exc)
            return
        # A profile that loads must be usable: a deal can be replayed with it.
        assert profile.hand_size > 0 and profile.players > 0


@pytest.mark.parametrize(
    ("old", "new", "key"),
    [
        ("hand_size: 8", "hand_size: 0", "hand_size"),
        ("hand_size: 8", "hand_size: 100", "hand_size"),  # more cards than the packs hold
        ("packs: 2", "packs: 0", "packs"),
        ("phases: [1]", "phases: [one]", "declare.phases"),
    ],
)
def test_profile_values_out_of_range_are_errors(old: str, new: str, key: str) -> None:
    # They once loaded, and `bezique generate` then failed with an IndexError.
    assert old in CLASSIC_YAML
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / f"profile-{next(_profile_files)}.yaml"
        path.write_text(CLASSIC_YAML.replace(old, new, 1), encoding="utf-8")
        try:
            load_profile(str(path))
        except RuleProfileError as exc:
            assert str(path) in str(exc) and f"'{key}'" in str(exc)
            return
        raise AssertionError(f"{new!r} was accepted")


def test_fuzz_count() -> None:
    """The number of hypothesis examples the fuzz tests ask for, and the inputs set aside for known crashes."""
    total = sum(EXAMPLES.values())
    print(f"\nfuzz examples per run: {total} ({', '.join(f'{k} {v}' for k, v in EXAMPLES.items())})")
    print(f"set aside for known crashes: {dict(KNOWN_CRASHES) or 'none'}")
    assert total >= 200
