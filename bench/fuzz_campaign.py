"""A fuzz campaign run by hand, outside CI (issue 16): edited records through validate, fmt, the language server's
answers and the Pygments lexer, checking that each ends in a replay or the project's own diagnostics, never a
traceback or a hang.

    python bench/fuzz_campaign.py --cases 100000 --seed 1          # prints progress, then the counts

Each case takes a record (every record of games/ and tests/data/invalid/, and generated records of every profile),
nine times in ten only its first lines (``--max-lines``: a record cut short is a case too, and a short one is
quick), and makes one to six random edits of one kind (bytes, tokens from the notation's vocabulary, or whole lines:
deleted, duplicated, swapped, moved). The checks are those of tests/test_fuzz.py (a code of the catalogue and a
position inside the text for every diagnostic; a text that parses has a stable canonical form), plus: the server
(:class:`replayer.lsp.Workbench`) reports the same diagnostics and answers hovers, completions, definitions, code
actions and formatting at random places without raising; the lexer gives back the text it was given. A case that
runs longer than ``--hang`` seconds is a hang. A failing case is written to ``--out`` (default: a temporary folder)
and the campaign goes on; the exit status is 1 when any case failed.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from edits import LINE_EDITS, edit_lines  # noqa: E402
from edits import VOCABULARY as TEST_VOCABULARY  # noqa: E402

from replayer.errors import CODES, NotationError  # noqa: E402
from replayer.fmt import format_text  # noqa: E402
from replayer.generate import generate_game  # noqa: E402
from replayer.highlight import BeziqueLexer  # noqa: E402
from replayer.lsp import Workbench  # noqa: E402
from replayer.profiles import profile_names  # noqa: E402

# The fuzz tests' words, and those of the notation's newer statements (fragments, negative scores).
VOCABULARY = [*TEST_VOCABULARY, "position:", "table N:", "trick 3", "stock 9", "-40", "turnup_seven"]


class Hang(Exception):
    """A case ran past the time allowed."""


def _alarm(signum: int, frame: object) -> None:
    raise Hang


def bases() -> list[str]:
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "games").glob("*.bzq"))]
    texts += [p.read_text(encoding="utf-8") for p in sorted((ROOT / "tests" / "data" / "invalid").glob("*.bzq"))]
    for seed, name in enumerate(profile_names()):
        texts.append(generate_game(name, seed))
    return texts


def edit(text: str, rng: random.Random) -> str:
    kind = rng.choice(["bytes", "tokens", "lines"])
    if kind == "bytes":
        data = bytearray(text.encode("utf-8"))
        for _ in range(rng.randint(1, 6)):
            pos = rng.randint(0, len(data))
            how = rng.choice(["insert", "delete", "replace", "duplicate"])
            if how == "insert":
                data[pos:pos] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 4)))
            elif how == "delete":
                del data[pos : pos + rng.randint(1, 40)]
            elif how == "replace" and pos < len(data):
                data[pos] = rng.randrange(256)
            else:
                data[pos:pos] = data[pos : pos + rng.randint(1, 200)]
        return data.decode("utf-8", errors="replace")
    if kind == "tokens":
        tokens = text.split(" ")
        for _ in range(rng.randint(1, 5)):
            i = rng.randrange(len(tokens))
            how = rng.choice(["delete", "duplicate", "swap", "replace", "insert"])
            if how == "delete" and len(tokens) > 1:
                del tokens[i]
            elif how == "duplicate":
                tokens.insert(i, tokens[i])
            elif how == "swap" and i + 1 < len(tokens):
                tokens[i], tokens[i + 1] = tokens[i + 1], tokens[i]
            elif how == "replace":
                tokens[i] = rng.choice(VOCABULARY)
            else:
                tokens.insert(i, rng.choice(VOCABULARY))
        return " ".join(tokens)
    lines = text.split("\n")
    for _ in range(rng.randint(1, 5)):
        i, j = rng.randrange(len(lines)), rng.randrange(len(lines))
        edit_lines(lines, rng.choice(LINE_EDITS), i, j)
    return "\n".join(lines)


def check(text: str, rng: random.Random) -> None:
    """Every property of one case (an AssertionError, or any other exception, is a failure)."""
    bench = Workbench(text, "fuzz.bzq")  # validate's pipeline: read (every error in one pass), complete, replay
    line_count = text.count("\n") + 1
    for diag in bench.diagnostics:
        assert diag.code in CODES, diag
        assert diag.span is not None and 1 <= diag.span.line <= line_count and diag.span.column >= 1, diag
    lines = text.split("\n")
    for k in range(3):
        line = rng.randrange(len(lines))
        column = rng.randint(0, len(lines[line]))
        bench.hover(line, column)
        if k == 0:  # (it replays the record up to the line)
            bench.legal_cards(line, column)
        bench.definition(line, column)
        bench.completion_of(line + 1, column + 1)  # (1-based, as a diagnostic's position)
    bench.actions(0, len(lines) - 1)
    try:
        canonical = format_text(text)  # what bezique fmt (and the server's formatting) gives
    except NotationError:
        pass  # (a text that does not read is left as it is)
    else:
        assert format_text(canonical) == canonical, "the canonical form is not stable"
    lexed = "".join(value for _, value in BeziqueLexer().get_tokens(text))
    # Pygments drops a byte-order mark, makes every line end "\n" and strips the text's leading and trailing line
    # ends (adding one at the end); the lexer itself neither drops nor adds a character.
    given = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    assert lexed.strip("\n") == given.strip("\n"), "the lexer changed the text"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hang", type=float, default=30.0, help="seconds after which a case is a hang")
    parser.add_argument("--out", type=Path, default=None, help="folder for the failing cases")
    parser.add_argument(
        "--max-lines", type=int, default=40, help="cut nine cases in ten to at most this many first lines"
    )
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bezique-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    texts = bases()
    rng = random.Random(args.seed)
    signal.signal(signal.SIGALRM, _alarm)
    failures = hangs = 0
    slowest = 0.0
    started = time.perf_counter()
    for case in range(1, args.cases + 1):
        base = rng.choice(texts)
        if rng.random() < 0.9:
            base = "\n".join(base.split("\n")[: rng.randint(1, args.max_lines)])
        text = edit(base, rng)
        signal.setitimer(signal.ITIMER_REAL, args.hang)
        began = time.perf_counter()
        try:
            check(text, random.Random(case))
        except Hang:
            hangs += 1
            (out / f"hang-{case}.bzq").write_text(text, encoding="utf-8")
        except Exception:  # every failure is kept, with its traceback, and the campaign goes on
            failures += 1
            (out / f"fail-{case}.bzq").write_text(text, encoding="utf-8")
            (out / f"fail-{case}.txt").write_text(traceback.format_exc(), encoding="utf-8")
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
        slowest = max(slowest, time.perf_counter() - began)
        if case % 1000 == 0:
            rate = case / (time.perf_counter() - started)
            print(f"{case} cases, {failures} failures, {hangs} hangs, {rate:.0f} cases/s", flush=True)
    seconds = time.perf_counter() - started
    print(
        f"done: {args.cases} cases in {seconds:.0f} s (seed {args.seed}), {failures} failures, {hangs} hangs "
        f"(longer than {args.hang:g} s), slowest case {slowest:.2f} s; failing cases in {out}"
    )
    return 1 if failures or hangs else 0


if __name__ == "__main__":
    sys.exit(main())
