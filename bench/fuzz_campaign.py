"""A fuzz campaign run by hand, outside CI (issue 16): edited records through validate, fmt, the language server's
answers and the Pygments lexer, checking that each ends in a replay or the project's own diagnostics, never a
traceback or a hang.

    python bench/fuzz_campaign.py --cases 100000 --seed 1          # prints progress, then the counts
    nice -n 10 python bench/fuzz_campaign.py --jobs 2 --stop-after 3600   # as many as an hour allows

Every case runs in the campaign's processes (``--jobs``, each given ``--batch`` cases at a time), made from its own
random generator: the same seed gives the same cases whatever the processes, and ``--seed 23 --case 551`` runs that
case again. The cases are numbered in order and finished in order: a campaign stopped by ``--stop-after`` after
cases 1 to N goes on later, on the same code, with ``--first N+1``.

Each case takes a record (every record of games/ and tests/data/invalid/, and generated records of every profile),
nine times in ten only its first lines (``--max-lines``: a record cut short is a case too, and a short one is
quick), and makes one to six random edits of one kind (bytes, tokens from the notation's vocabulary, or whole lines:
deleted, duplicated, swapped, moved). A share of the cases (``--planted``, issue 23) instead plants one to four
independent errors in a whole valid record, each on its own line: a misspelt keyword, a misspelt comment tag, one
or two card typos on a trick line, a wrong running score, a trick line left out, a comment's closing bracket left
out (:func:`plant`); each must be reported on its line in the one run, by validate's pipeline and by the server.
The checks are those of tests/test_fuzz.py (a code of the catalogue and a
position inside the text for every diagnostic; a text that parses has a stable canonical form), plus: the server
(:class:`replayer.lsp.Workbench`) reports the same diagnostics and answers hovers, completions, definitions, code
actions and formatting at random places without raising; the lexer gives back the text it was given. A case that
runs longer than ``--hang`` seconds of CPU time is a hang: each case runs in a forked child that the kernel stops
at that CPU limit (SIGXCPU), so that a case stuck inside a C call is a hang too, not the campaign's end. A failing
case is written to ``--out`` (default: a temporary folder) and the campaign goes on; the exit status is 1 when any
case failed.
"""

from __future__ import annotations

import argparse
import itertools
import math
import os
import random
import re
import resource
import signal
import sys
import tempfile
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from edits import LINE_EDITS, edit_lines  # noqa: E402
from edits import VOCABULARY as TEST_VOCABULARY  # noqa: E402

from replayer.check import _in_order  # noqa: E402
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


# --- planted errors (issue 23): independent errors on their own lines, each to be reported on its line -------------

_KEYWORD_LINE = re.compile(r"^(\s*)(trick|draws|score)(\s)")
_DECLARES = re.compile(r"^(\s*[NSEW] )(declares)( )")
_TAG = re.compile(r"\{ ?\[(ru|note|en)\]")
_CARD = re.compile(r"(?<=[NSEW] )(?:10|[AKQJ987])[SHDC](?=[ ,\n]|$)")
_SCORE = re.compile(r"^\s*score [NSEW] (\d+)")
_TRICK = re.compile(r"^trick (\d+):")


_SPELLINGS = {"draw", "draws", "declare", "declares", "score", "scores", "trick"}
"""Keywords a typo must not make (``draws`` less its ``s`` is ``draw``, another spelling of the keyword)."""


def _typo(word: str, rng: random.Random) -> str:
    """A word one edit away: a letter dropped, or two neighbours swapped (never a spelling of a keyword)."""
    while True:
        i = rng.randrange(len(word) - 1)
        dropped, swapped = word[:i] + word[i + 1 :], word[:i] + word[i + 1] + word[i] + word[i + 2 :]
        typo = dropped if rng.random() < 0.5 else swapped
        if typo not in _SPELLINGS:
            return typo


def _valid(texts: list[str]) -> list[str]:
    """The bases that validate: planted errors are then the only ones."""
    from replayer.check import check_text

    return [text for text in texts if check_text(text).valid and not check_text(text).diagnostics]


def plant(text: str, rng: random.Random) -> tuple[str, list[tuple[int, set[str]]]]:
    """One to four independent errors planted in a valid record, each on its own line, at least three lines apart:
    a misspelt keyword (BZ001), a misspelt comment tag (BZ001), a card typo or two on one trick line (BZ003), a
    wrong running score (BZ501; BZ602 where the deal's cards are not all known), a trick line left out (BZ114 at
    the next trick), a comment's closing bracket left out (BZ004 where it opens; planted last, since it swallows
    what follows up to the next comment's end). Returns the text and (1-based line, the codes expected there)."""
    lines = text.split("\n")
    candidates: dict[str, list[int]] = {"keyword": [], "tag": [], "card": [], "score": [], "trick": [], "bracket": []}
    tricks = [(i, int(m[1])) for i, line in enumerate(lines) if (m := _TRICK.match(line))]
    # A comment's later lines may start like a statement ("  trick is won, ..."): only lines that start outside a
    # comment are statements to plant on.
    inside = False
    outside = []
    for line in lines:
        outside.append(not inside)
        for char in line:
            if char == "{":
                inside = True
            elif char == "}":
                inside = False
    tricks = [(i, n) for i, n in tricks if outside[i]]
    for i, line in enumerate(lines):
        if not outside[i]:
            continue
        if _KEYWORD_LINE.match(line) or _DECLARES.match(line):
            candidates["keyword"].append(i)
        if _TAG.search(line) and "}" in line[line.index("{") :]:
            candidates["tag"].append(i)
        if _TRICK.match(line) and len(_CARD.findall(line)) >= 2 and "{" not in line:
            candidates["card"].append(i)
        if _SCORE.match(line):
            candidates["score"].append(i)
        if line.lstrip().startswith("{") and line.rstrip().endswith("}") and line.count("{") == 1:
            candidates["bracket"].append(i)
    # A trick left out is one between two others, the line going on after the next (else the next reads as a trick
    # misnumbered, BZ106: see replayer.reader._Builder.fill_gaps).
    for k in range(1, len(tricks) - 2):
        (_, n0), (at, n1), (after, n2), (_, n3) = tricks[k - 1 : k + 3]
        if n0 + 1 == n1 == n2 - 1 == n3 - 2 and after - at > 1 and "{" not in "".join(lines[at:after]):
            candidates["trick"].append(at)
    taken: list[int] = []
    planted: list[tuple[str, int]] = []
    kinds = [k for k in candidates if candidates[k]]
    rng.shuffle(kinds)
    kinds = kinds[: rng.randint(1, 4)]
    if "score" in kinds:
        # Not with a card typo or a trick left out: they make cards unknown, which a completion may choose so that
        # the score holds (or, where the profile's cards are not completed, the deal is not replayed at all).
        kinds = [k for k in kinds if k not in ("card", "trick")]
    for kind in kinds:
        free = [i for i in candidates[kind] if all(abs(i - t) >= 3 for t in taken)]
        if kind == "trick":  # (the next trick line, where it is reported, is not planted on either)
            nexts = {at: next(j for j, _ in tricks if j > at) for at in free}
            free = [i for i in free if all(abs(nexts[i] - t) >= 3 for t in taken)]
        if not free:
            continue
        i = rng.choice(free)
        taken.append(i)
        if kind == "trick":
            taken.append(next(j for j, _ in tricks if j > i))
        planted.append((kind, i))
    bracket = [i for kind, i in planted if kind == "bracket"]
    if bracket:  # nothing planted after a comment left open (it runs on over what follows), nor a trick left out
        planted = [(kind, i) for kind, i in planted if kind == "bracket" or (i < bracket[0] and kind != "trick")]
    expected: list[tuple[int, set[str]]] = []
    deleted = None
    for kind, i in planted:
        line = lines[i]
        if kind == "keyword":
            found = _KEYWORD_LINE.match(line) or _DECLARES.match(line)
            assert found is not None
            lines[i] = line[: found.start(2)] + _typo(found[2], rng) + line[found.end(2) :]
            expected.append((i, {"BZ001"}))
        elif kind == "tag":
            found = _TAG.search(line)
            assert found is not None
            lines[i] = line[: found.start(1)] + rng.choice(["ryu", "rus", "notes", "nte"]) + line[found.end(1) :]
            expected.append((i, {"BZ001"}))
        elif kind == "card":
            cards = list(_CARD.finditer(line))
            chosen = sorted(rng.sample(cards, rng.randint(1, 2)), key=lambda m: -m.start())
            for card in chosen:  # (from the right: the columns of the others stay)
                line = line[: card.end() - 1] + "X" + line[card.end() :]
            lines[i] = line
            expected.append((i, {"BZ003"}))
        elif kind == "score":
            found = _SCORE.match(line)
            assert found is not None
            lines[i] = line[: found.start(1)] + str(int(found[1]) + 10) + line[found.end(1) :]
            expected.append((i, {"BZ501", "BZ602"}))
        elif kind == "trick":
            deleted = i
            expected.append((next(j for j, _ in tricks if j > i), {"BZ114"}))
        else:
            lines[i] = line[: line.rindex("}")] + line[line.rindex("}") + 1 :]
            expected.append((i, {"BZ004"}))
    if deleted is not None:
        del lines[deleted]
        expected = [(i - 1 if i > deleted else i, codes) for i, codes in expected]
    return "\n".join(lines), [(i + 1, codes) for i, codes in expected]


def check_planted(text: str, expected: list[tuple[int, set[str]]]) -> Workbench:
    """Every planted error reported on its line, in one run, by validate's pipeline and by the server (whose
    workbench is returned, for :func:`check`)."""
    from replayer.check import check_text

    bench = Workbench(text, "fuzz.bzq")
    for diagnostics in (check_text(text, "fuzz.bzq").diagnostics, bench.diagnostics):
        found = {(d.span.line, d.code) for d in diagnostics if d.span is not None}
        missing = [(line, codes) for line, codes in expected if not any((line, code) in found for code in codes)]
        assert not missing, f"planted errors not reported on their lines: {missing}; found {sorted(found)}"
    return bench


def check(text: str, rng: random.Random, bench: Workbench | None = None) -> None:
    """Every property of one case (an AssertionError, or any other exception, is a failure); ``bench``: the text's
    workbench when it is made already."""
    if bench is None:  # validate's pipeline: read (every error in one pass), complete, replay
        bench = Workbench(text, "fuzz.bzq")
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


class Campaign:
    """One process's part of a campaign: the records to edit, read once, and the cases it is given to run."""

    def __init__(self, seed: int, hang: float, out: Path, max_lines: int, planted: float, isolate: bool) -> None:
        self.seed = seed
        self.isolate = isolate
        self.hang = hang
        self.out = out
        self.max_lines = max_lines
        self.planted = planted
        self.texts = bases()
        self.valid = _valid(self.texts)
        # The time a case may take is the process's own CPU time (SIGVTALRM), not the clock's: a campaign run with a
        # low priority on a busy machine waits without hanging.
        signal.signal(signal.SIGVTALRM, _alarm)

    def case(self, case: int) -> tuple[str, bool, float]:
        """Run one case: "ok", "fail" or "hang", whether it had planted errors, and its seconds. A case is made from
        its own random generator (the campaign's seed and its number): the cases do not depend on ``--jobs``."""
        rng = random.Random(f"{self.seed}:{case}")
        expected: list[tuple[int, set[str]]] | None = None
        if rng.random() < self.planted:  # errors planted in a whole valid record, each to be found on its line
            text, expected = plant(rng.choice(self.valid), rng)
        else:
            base = rng.choice(self.texts)
            if rng.random() < 0.9:
                base = "\n".join(base.split("\n")[: rng.randint(1, self.max_lines)])
            text = edit(base, rng)
        began = time.perf_counter()
        outcome = self.isolated(case, text, expected) if self.isolate else self.checked(case, text, expected)
        if outcome == "hang":
            (self.out / f"hang-{case}.bzq").write_text(text, encoding="utf-8")
        return outcome, expected is not None, time.perf_counter() - began

    def checked(self, case: int, text: str, expected: list[tuple[int, set[str]]] | None) -> str:
        """Check one case's text in this process: "ok", "fail" (kept in ``--out`` with its traceback) or "hang"."""
        signal.setitimer(signal.ITIMER_VIRTUAL, self.hang)
        try:
            bench = check_planted(text, expected) if expected is not None else None
            check(text, random.Random(case), bench)
        except Hang:
            return "hang"
        except Exception:  # every failure is kept, with its traceback, and the campaign goes on
            (self.out / f"fail-{case}.bzq").write_text(text, encoding="utf-8")
            (self.out / f"fail-{case}.txt").write_text(traceback.format_exc(), encoding="utf-8")
            return "fail"
        finally:
            signal.setitimer(signal.ITIMER_VIRTUAL, 0)
        return "ok"

    def isolated(self, case: int, text: str, expected: list[tuple[int, set[str]]] | None) -> str:
        """Check one case in a forked child whose CPU time the kernel limits: a case stuck in a C call (where the
        alarm's Python handler never runs) is killed by SIGXCPU and counted as a hang, and the campaign goes on."""
        read, write = os.pipe()
        pid = os.fork()
        if pid == 0:  # the child: its outcome in one byte, then out without the parent's clean-up
            os.close(read)
            limit = math.ceil(self.hang) + 1  # (the alarm first, the kernel's limit a second later)
            resource.setrlimit(resource.RLIMIT_CPU, (limit, limit + 1))
            code = b"h"
            try:
                code = self.checked(case, text, expected)[0].encode()
            finally:
                os.write(write, code)
                os._exit(0)
        os.close(write)
        with os.fdopen(read, "rb") as pipe:
            answer = pipe.read(1)
        _, status = os.waitpid(pid, 0)
        if not answer or os.WIFSIGNALED(status):  # (killed by the CPU limit, or by anything else: not an answer)
            return "hang"
        return {b"o": "ok", b"f": "fail", b"h": "hang"}[answer]


_WORKER: Campaign | None = None


def _start(*args: Any) -> None:
    global _WORKER
    _WORKER = Campaign(*args)


def _run(cases: list[int]) -> list[tuple[str, bool, float]]:
    assert _WORKER is not None
    return [_WORKER.case(case) for case in cases]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cases", type=int, default=100_000)
    parser.add_argument(
        "--first",
        type=int,
        default=1,
        help="the number of the first case (a campaign stopped by --stop-after goes on from the case after its last)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hang", type=float, default=30.0, help="CPU seconds after which a case is a hang")
    parser.add_argument("--out", type=Path, default=None, help="folder for the failing cases")
    parser.add_argument(
        "--max-lines", type=int, default=40, help="cut nine cases in ten to at most this many first lines"
    )
    parser.add_argument(
        "--planted", type=float, default=0.3, help="the share of cases with errors planted in a valid record"
    )
    parser.add_argument("--jobs", type=int, default=1, help="processes (each runs batches of cases in turn)")
    parser.add_argument(
        "--no-isolate",
        dest="isolate",
        action="store_false",
        help="run each case in the campaign's process, not in a forked child under a CPU limit (quicker; a case "
        "stuck in a C call then stops the campaign)",
    )
    parser.add_argument("--batch", type=int, default=20, help="cases sent to a process at once")
    parser.add_argument(
        "--stop-after", type=float, default=None, help="seconds after which no new batch is started (a deadline)"
    )
    parser.add_argument(
        "--case", type=int, action="append", default=[], help="run only this case of the seed's campaign (repeatable)"
    )
    args = parser.parse_args()
    out = args.out or Path(tempfile.mkdtemp(prefix="bezique-fuzz-"))
    out.mkdir(parents=True, exist_ok=True)
    setup = (args.seed, args.hang, out, args.max_lines, args.planted, args.isolate)
    numbers = iter(args.case or range(args.first, args.first + args.cases))
    started = time.perf_counter()

    def batches() -> Iterator[list[int]]:
        while args.stop_after is None or time.perf_counter() - started < args.stop_after:
            batch = list(itertools.islice(numbers, args.batch))
            if not batch:
                return
            yield batch

    counts = dict.fromkeys(("ok", "fail", "hang"), 0)
    planted = 0
    slowest = 0.0
    done = 0
    if args.jobs > 1:
        import multiprocessing

        pool = multiprocessing.get_context("fork").Pool(args.jobs, _start, setup)
        # (at most two batches per process waiting: --stop-after is kept within a batch or two)
        results: Iterator[list[tuple[str, bool, float]]] = _in_order(pool, _run, batches(), 2 * args.jobs)
    else:
        pool = None
        _start(*setup)
        results = map(_run, batches())
    try:
        for result in results:
            for outcome, with_planted, seconds in result:
                counts[outcome] += 1
                planted += with_planted
                slowest = max(slowest, seconds)
                done += 1
                if done % 100 == 0:
                    rate = done / (time.perf_counter() - started)
                    print(
                        f"{done} cases, {counts['fail']} failures, {counts['hang']} hangs, {rate:.1f} cases/s",
                        flush=True,
                    )
    finally:
        if pool is not None:
            pool.terminate()
    seconds = time.perf_counter() - started
    last = f", cases {args.first} to {args.first + done - 1}" if done and not args.case else ""
    print(
        f"done: {done} cases{last} ({planted} with planted errors) in "
        f"{seconds:.0f} s with {args.jobs} process(es) (seed {args.seed}), {counts['fail']} failures, "
        f"{counts['hang']} hangs (longer than {args.hang:g} s of CPU), slowest case {slowest:.2f} s; "
        f"failing cases in {out}"
    )
    return 1 if counts["fail"] or counts["hang"] else 0


if __name__ == "__main__":
    sys.exit(main())
