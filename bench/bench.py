"""Benchmark: bezique record validation against python-chess reading PGN, measured in one run.

Run by hand (not by the tests), from the repository root, after `pip install '.[bench]'`:

    python bench/bench.py                                   # the full run (several minutes on 2 cores)
    python bench/bench.py --deals 1000 --memory-games 5000  # a quicker look

Every measurement is repeated (``--repeat``, ``--starts``) and printed as median, min and max; each ratio to
python-chess pairs the two measurements of the same repetition, so that the load of a shared machine cancels out.
It measures:
  * validation throughput of a generated corpus of classic deals and of a mixed-profile corpus (events/s, games/s,
    MB/s; an event is a card played, a draw, a declaration or a stated score): parse only, and full validation as
    ``bezique validate FILE`` does it;
  * python-chess's ``read_game`` over a PGN corpus of comparable size (plies/s) that python-chess itself generates
    from random legal games, and the ratio;
  * lesson rendering (pages/s, render only, and text to HTML end to end);
  * cold start: ``bezique validate ONE_FILE`` against python-chess's one-game command line (whole processes);
  * peak memory (max RSS) and time of ``bezique validate`` on a file of ``--memory-games`` games, in a child process;
  * the inference of the worked game (``bezique infer games/worked-deal-000-as-printed.bzq``);
  * issue 22 (``--only-sampled``, ``--only-match``, each alone): ``analyse --all`` of the worked deal with
    ``--samples`` a play (playouts/s), and ``bezique match`` of ``--match-players`` over ``--match-pairs`` paired
    classic deals (the sampler with ``--match-samples`` a card);
  * issue 15 (``--only-analysis`` alone): the endgame solver on 8+8 classic endgames with every first lead, the
    brute-force minimax of the tests as the anchor on the same endgames, ``analyse`` of a whole deal, and
    ``bezique puzzles`` over 1,000 generated deals with ``--jobs``;
  * with ``--reference TREE`` (another version's source tree, ``git worktree add TREE COMMIT``), that version's
    validation of the same corpora (the games it holds valid), timed in a child process in the same repetitions:
    the ratio to python-chess moves with the machine's state, so a version is compared with another in one run.
It ends with a table of the targets of issue #6 and issue 15.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TARGETS: list[tuple[str, str, str]] = []
"""(target, measured, reached) rows for the closing table."""


def generate_corpus(deals: int, seed: int = 1, profiles: Sequence[str] = ("classic",)) -> str:
    """``deals`` one-deal games, seeds ``seed``, ``seed + 1``, …, the profiles taken in turn; a profile may name
    one option, ``no-trump players=3`` (a table of :func:`tables`)."""
    from replayer.generate import generate_game

    def game(spec: str, seed: int) -> str:
        name, _, option = spec.partition(" ")
        chosen = dict([option.split("=", 1)]) if option else None
        return generate_game(name, seed, options=chosen)

    return "\n".join(game(profiles[i % len(profiles)], seed + i) for i in range(deals))


def tables() -> list[str]:
    """Every shipped profile, and each other table its options play (``bezique profiles`` lists them: another
    number of players or packs, such as ``no-trump players=3``)."""
    from replayer.profiles import load_profile, profile_names
    from replayer.rulebook import configurations

    found = []
    for name in profile_names():
        found.append(name)
        found += [f"{name} {chosen}" for chosen, _ in configurations(load_profile(name))]
    return found


def count_events(text: str) -> int:
    """Cards played, draws, declarations and stated scores: the checked facts of a record."""
    events = 0
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("trick ") or stripped.startswith("draws "):
            events += stripped.count(",") + 1
        elif (
            " declares " in stripped
            or " exchanges " in stripped
            or " shows " in stripped
            or stripped.startswith(("score ", "brisques ", "result ", "total "))
        ):
            events += 1
    return events


def split_games(text: str) -> list[str]:
    parts = text.split('\ngame "')
    return [parts[0]] + ['game "' + p for p in parts[1:]]


def spread(values: Sequence[float], unit: str = "", digits: int = 0) -> str:
    """``median (min–max) unit``."""
    fmt = f"{{:,.{digits}f}}"
    median, low, high = (fmt.format(v) for v in (statistics.median(values), min(values), max(values)))
    return f"{median} ({low}–{high}){' ' + unit if unit else ''}"


def target(name: str, values: Sequence[float], goal: float, higher: bool, unit: str = "", digits: int = 2) -> None:
    """Print and remember one target's median (min–max) against its goal."""
    median = statistics.median(values)
    reached = median >= goal if higher else median <= goal
    measured = spread(values, unit, digits)
    print(f"  {name}: {measured} (target {'>=' if higher else '<='} {goal:g}{' ' + unit if unit else ''})")
    TARGETS.append((f"{name} {'>=' if higher else '<='} {goal:g}{' ' + unit if unit else ''}", measured, reached))


def timed(function: Callable[[], object]) -> float:
    start = time.perf_counter()
    function()
    return time.perf_counter() - start


def chess_corpus(target_plies: int, seed: int = 1) -> tuple[str, int, int]:
    """Random legal chess games written as PGN by python-chess, about ``target_plies`` plies in all."""
    import chess
    import chess.pgn

    rng = random.Random(seed)
    out = io.StringIO()
    plies = games = 0
    while plies < target_plies:
        board = chess.Board()
        game = chess.pgn.Game()
        node = game
        for _ in range(rng.randint(40, 120)):
            moves = list(board.legal_moves)
            if not moves:
                break
            move = rng.choice(moves)
            node = node.add_variation(move)
            board.push(move)
            plies += 1
        game.headers["Result"] = board.result(claim_draw=True)
        print(game, file=out, end="\n\n")
        games += 1
    return out.getvalue(), plies, games


def read_chess(pgn: str) -> None:
    import chess.pgn

    handle = io.StringIO(pgn)
    while True:
        game = chess.pgn.read_game(handle)
        if game is None:
            break
        if game.errors:
            raise RuntimeError(game.errors)


_REFERENCE_CODE = r"""
import json, sys, time
from replayer.check import validate_file
path, mode = sys.argv[1], sys.argv[2]
if mode == "faults":
    outcome = validate_file(path, False, True)
    print(json.dumps(sorted({e["line"] or 0 for e in outcome.errors})))
else:
    validate_file(path, False, True)  # (warm, as the in-process runs after the first are)
    start = time.perf_counter()
    outcome = validate_file(path, False, True)
    print(json.dumps([time.perf_counter() - start, outcome.valid, outcome.games]))
"""


def reference_run(tree: Path, path: Path, mode: str) -> Any:
    """Run another version's validation (``tree``, a source tree) of ``path`` in a child process: ``faults``, the
    lines it reports; else the seconds of a warm ``validate_file``, whether the file is valid, its games."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", _REFERENCE_CODE, str(path), mode], env=env, cwd=tree, capture_output=True, text=True
    )
    if done.returncode != 0:
        raise RuntimeError(f"the reference tree {tree} failed: {done.stderr[-500:]}")
    return json.loads(done.stdout)


def common_games(text: str, path: Path, tree: Path) -> str:
    """The games of ``text`` (written at ``path``) that the reference ``tree`` reports nothing in: another version
    may hold other rules, and both versions must validate the same games for their times to compare."""
    faults = reference_run(tree, path, "faults")
    games = split_games(text)
    kept, line = [], 1
    for game in games:
        lines = game.count("\n") + 1
        if not any(line <= fault < line + lines for fault in faults):
            kept.append(game)
        line += lines
    return "\n".join(kept)


def throughput(name: str, text: str, path: Path, repeat: int, reference: Path | None = None) -> None:
    """Parse-only and full validation rates of a corpus, each paired with a python-chess run of the same size; with
    a ``reference`` source tree, that version's full validation of the same games too, in the same repetitions."""
    from replayer.check import Outcome, validate_file
    from replayer.reader import read_record

    if reference is not None:
        before = len(split_games(text))
        text = common_games(text, path, reference)
        path.write_text(text, encoding="utf-8")
        print(f"\n{name}: {len(split_games(text))} of {before} games that the reference ({reference}) holds valid")
    games = split_games(text)
    events = count_events(text)
    size_mb = len(text.encode("utf-8")) / 1e6
    pgn, plies, chess_games = chess_corpus(events)
    print(f"\n{name}: {len(games)} games, {events} events, {size_mb:.1f} MB")
    print(f"python-chess corpus: {chess_games} games, {plies} plies")
    chess_rates, parse_rates, full_rates, reference_rates = [], [], [], []
    for _ in range(repeat):
        chess_rates.append(plies / timed(lambda: read_chess(pgn)))
        parse_rates.append(events / timed(lambda: [read_record(g) and None for g in games]))
        outcome: list[Outcome] = []
        full_rates.append(events / timed(lambda out=outcome: out.append(validate_file(str(path), False, True))))
        assert outcome[0].valid and outcome[0].games == len(games), outcome[0].stderr[:500]
        if reference is not None:
            seconds, valid, count = reference_run(reference, path, "time")
            assert valid and count == len(games), f"the reference does not hold the {count} games valid"
            reference_rates.append(events / seconds)
    print(f"  python-chess read_game: {spread(chess_rates, 'plies/s')}")
    print(f"  parse only:             {spread(parse_rates, 'events/s')}")
    print(
        f"  full validation:        {spread(full_rates, 'events/s')}; "
        f"{spread([r / events * len(games) for r in full_rates], 'games/s', 1)}; "
        f"{spread([r / events * size_mb for r in full_rates], 'MB/s', 2)}"
    )
    print(f"  parse-only ratio: {spread([p / c for p, c in zip(parse_rates, chess_rates, strict=True)], digits=2)}")
    target(
        f"{name}: validated events/s / chess plies/s",
        [f / c for f, c in zip(full_rates, chess_rates, strict=True)],
        3,
        higher=True,
    )
    if reference is not None:
        print(f"  the reference's full validation: {spread(reference_rates, 'events/s')}")
        ratios = [r / c for r, c in zip(reference_rates, chess_rates, strict=True)]
        print(f"  the reference's ratio to python-chess: {spread(ratios, digits=2)}")
        paired = [f / r for f, r in zip(full_rates, reference_rates, strict=True)]
        print(f"  this tree's full validation / the reference's: {spread(paired, digits=3)}")


def per_profile(deals: int, repeat: int) -> None:
    """Validated events/s of each profile's generated deals, each paired with a python-chess run of the same size
    (a corpus per profile: where the mixed corpus's ratio comes from)."""
    from replayer.check import validate_file

    print(f"\nper profile ({deals} deals each): validated events/s, and the ratio to python-chess plies/s")
    with tempfile.TemporaryDirectory() as folder:
        for profile in tables():
            text = generate_corpus(deals, seed=200_000, profiles=(profile,))
            path = Path(folder) / f"{profile.replace(' ', '-').replace('=', '')}.bzq"
            path.write_text(text, encoding="utf-8")
            events = count_events(text)
            pgn, plies, _ = chess_corpus(events)
            rates, ratios = [], []
            for _ in range(repeat):
                chess_rate = plies / timed(lambda pgn=pgn: read_chess(pgn))
                rate = events / timed(lambda path=path: validate_file(str(path), False, True))
                rates.append(rate)
                ratios.append(rate / chess_rate)
            print(f"  {profile:<20} {spread(rates, 'events/s')}; ratio {spread(ratios, digits=2)}")


def file_cost(folder: Path | None, count: int = 200) -> float:
    """The CPU milliseconds of making (and closing) an empty file in a new folder under ``folder`` (None: the
    system's temporary folder)."""
    with tempfile.TemporaryDirectory(prefix=".bench-files-", dir=folder) as made:
        started = time.process_time()
        for k in range(count):
            os.close(os.open(os.path.join(made, f"{k}.html"), os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        return 1000 * (time.process_time() - started) / count


def render(games: list[str], count: int, repeat: int, lang: str = "en", jobs: int = 1) -> None:
    """Lesson pages a second: render only (the records replayed beforehand) over ``jobs`` processes and in one, and
    end to end (text to HTML) over ``jobs``."""
    from replayer.check import check_record
    from replayer.lesson.books import KITS
    from replayer.reader import read_record
    from replayer.render import render_site

    sample = games[:count]
    results = [check_record(read_record(g)) for g in sample]
    only, whole, cpu, single = [], [], [], []
    # Into a folder beside the project, as `bezique render games --out site` writes: the system's temporary folder
    # may sit where making a file costs far more (at times 0.4-0.7 ms of CPU a file under this machine's /tmp, against
    # 0.014-0.04 ms under the project), which would be measured as the render's. Both costs are printed.
    print(
        f"\nmaking a file, CPU: {file_cost(ROOT):.3f} ms beside the project, {file_cost(None):.3f} ms in the "
        f"system's temporary folder ({tempfile.gettempdir()})"
    )
    with tempfile.TemporaryDirectory(prefix=".bench-render-", dir=ROOT) as folder:
        render_site(results[:1], Path(folder) / "warm", lang=lang)
        written: list[list[Path]] = []
        for k in range(repeat):
            # Every repetition starts as a fresh `bezique render` would: without the combination states that the
            # lessons of a profile share (a repetition would otherwise find all of its own already worked out).
            KITS.clear()
            # As `bezique render` writes a site: its lessons over one process per CPU (its default).
            only.append(
                timed(lambda k=k: written.append(render_site(results, Path(folder) / f"a{k}", lang=lang, jobs=jobs)))
            )
            KITS.clear()
            # And in one process, with its CPU time: on a machine shared with other work the wall-clock rate is a
            # floor, and the CPU-time rate is what the load changes least.
            started = time.process_time()
            single.append(timed(lambda k=k: render_site(results, Path(folder) / f"c{k}", lang=lang)))
            cpu.append(time.process_time() - started)
            KITS.clear()
            whole.append(
                timed(
                    lambda k=k: render_site(
                        [check_record(read_record(g)) for g in sample], Path(folder) / f"b{k}", lang=lang, jobs=jobs
                    )
                )
            )
        pages = sum(
            1
            for p in written[0]
            if p.suffix == ".html"
            and p.name not in ("index.html", "glossary.html", "sources.html")
            and not p.name.startswith("rules-")
        )
        # The lessons are measured as a site has them, each deal's chart (SVG written at render time) included.
        charts = sum(
            p.read_text(encoding="utf-8").count('<svg class="score-chart"') for p in written[0] if p.suffix == ".html"
        )
    print(f"\nlessons ({lang}): {pages} lesson pages (of {len(sample)} games), {charts} score charts")
    target(
        f"render only ({lang}, {jobs} process{'es' if jobs > 1 else ''})",
        [pages / t for t in only],
        300,
        higher=True,
        unit="pages/s",
        digits=1,
    )
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"  render only ({lang}), one process: {spread([pages / t for t in single], 'pages/s', 1)}")
    print(f"  render only ({lang}), CPU time: {spread([pages / t for t in cpu], 'lessons/CPU-s', 1)} (load {load})")
    # What a page costs the process, which the machine's load changes least: 1000 / ms is the rate of an idle core.
    print(f"  render only ({lang}), CPU time a page: {spread([1000 * t / pages for t in cpu], 'ms', 2)}")
    target(f"end to end ({lang})", [pages / t for t in whole], 100, higher=True, unit="pages/s", digits=1)


def runs(commands: dict[str, list[str]], count: int) -> dict[str, list[float]]:
    """Whole-process times of each command, the commands interleaved (each round runs every one)."""
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(count):
        for name, command in commands.items():
            start = time.perf_counter()
            subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
            times[name].append(time.perf_counter() - start)
    return times


def cold_start(game: str, pgn: str, count: int) -> None:
    import compileall

    import replayer

    # Byte-compile the package as an install does (pip compiles what it installs; python-chess has its .pyc): an
    # editable install under PYTHONDONTWRITEBYTECODE would otherwise compile every module at every start.
    compileall.compile_dir(Path(replayer.__file__).parent, quiet=1)
    # Besides a generated classic game and the worked game: the record of another profile, sixty-six (its hands
    # end at 66 and its game counts game points), which the fast path of issue #6 left to the full path.
    other = ROOT / "games" / "constructed-sixty-six.bzq"
    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.bzq"
        one.write_text(game, encoding="utf-8")
        pgn_one = Path(folder) / "one.pgn"
        pgn_one.write_text(pgn.split("\n\n\n")[0] + "\n", encoding="utf-8")
        chess_cli = [
            sys.executable,
            "-c",
            "import sys, chess.pgn; g = chess.pgn.read_game(open(sys.argv[1])); sys.exit(bool(g.errors))",
            str(pgn_one),
        ]
        times = runs(
            {
                "ours": [sys.executable, "-m", "replayer", "validate", "-q", str(one)],
                "worked": [sys.executable, "-m", "replayer", "validate", "-q", "games/worked-deal-000.bzq"],
                "other": [sys.executable, "-m", "replayer", "validate", "-q", str(other)],
                "chess": chess_cli,
                "pass": [sys.executable, "-c", "pass"],
            },
            count,
        )
    ms = {name: [t * 1000 for t in values] for name, values in times.items()}
    print(f"\ncold start ({count} runs each, interleaved):")
    print(f"  bezique validate ONE_FILE: {spread(ms['ours'], 'ms')}")
    print(f"  the worked game:           {spread(ms['worked'], 'ms')}")
    print(f"  another profile's record:  {spread(ms['other'], 'ms')} ({other.parent.name}/{other.name})")
    print(f"  python-chess one game:     {spread(ms['chess'], 'ms')}")
    print(f"  python -c pass:            {spread(ms['pass'], 'ms')}")
    target("cold start / chess", [o / c for o, c in zip(ms["ours"], ms["chess"], strict=True)], 0.5, higher=False)


def memory(games: list[str], count: int, jobs: int) -> None:
    """Peak RSS and time of validating a file of ``count`` games (the corpus's games over and over)."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "many.bzq"
        with path.open("w", encoding="utf-8") as handle:
            for i in range(count):
                handle.write(games[i % len(games)] + "\n")
        size_mb = path.stat().st_size / 1e6
        # The largest process: the command's own peak (VmHWM starts afresh at exec, where ru_maxrss would count the
        # benchmark's memory, forked before the exec) and its workers' (forked from the small command).
        code = (
            "import re, resource, sys; from replayer.cli import main; status = main(sys.argv[1:]); "
            "own = int(re.search(r'VmHWM:\\s*(\\d+) kB', open('/proc/self/status').read()).group(1)); "
            "workers = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss; "
            "print(max(own, workers), file=sys.stderr); sys.exit(status)"
        )
        command = [sys.executable, "-c", code, "validate", "-q", "--jobs", str(jobs), str(path)]
        start = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False, cwd=ROOT)
        seconds = time.perf_counter() - start
    peak = int(done.stderr.split()[-1]) / 1024
    rate = count / seconds
    print(f"\nvalidate a {count:,}-game file ({size_mb:.0f} MB) with --jobs {jobs}: exit status {done.returncode}")
    print(f"  {seconds:.0f} s, {rate:.0f} games/s (a million games: {1e6 / rate / 60:.0f} min)")
    target(f"peak memory, {count:,} games (largest process)", [peak], 100, higher=False, unit="MiB", digits=0)


def inference(count: int) -> None:
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "completed.bzq"
        command = [
            sys.executable,
            "-m",
            "replayer",
            "infer",
            str(ROOT / "games" / "worked-deal-000-as-printed.bzq"),
            "--out",
            str(out),
            "--force",
        ]
        times = runs({"infer": command}, count)["infer"]
    print()
    target("inference of the worked game", times, 5, higher=False, unit="s", digits=2)


def endgame_states(count: int, seed: int = 1) -> list[tuple[str, object]]:
    """The core's state at the first trick of the last tricks of ``count`` generated classic deals (seeds ``seed``
    on), each with its game's text."""
    from replayer.check import check_text
    from replayer.generate import generate_game

    found: list[tuple[str, object]] = []
    number = seed
    while len(found) < count:
        text = generate_game("classic", number)
        number += 1
        result = check_text(text, states=True)
        first = next((t for t in result.games[0].deals[0].tricks if t.phase == 2), None)
        if first is not None and first.state is not None:
            found.append((text, first.state))
    return found


def analysis(endgames: int, anchor: int, puzzle_deals: int, jobs: int) -> None:
    """Issue 15: the endgame solver (an 8+8 classic endgame with all its first-lead options) against the brute-force
    minimax of tests/test_solver.py (memoised, no pruning) on the same endgames; ``analyse`` of a whole deal; and
    ``bezique puzzles`` over ``puzzle_deals`` generated deals in ``jobs`` processes."""
    sys.path.insert(0, str(ROOT / "tests"))
    from test_solver import brute_tuples  # the anchor: the brute force the tests hold the solver to

    from replayer.analysis import analyse_deal
    from replayer.check import check_text
    from replayer.rules.endgame import Endgame
    from replayer.solver import Solver

    print(f"\ngenerating {endgames} classic endgames (first trick of the last eight) ...")
    states = endgame_states(endgames)
    solve_ms = []
    solve_cpu = []
    nodes = []
    for _, state in states:
        solver = Solver()
        start, cpu = time.perf_counter(), time.process_time()
        solver.options(Endgame.of(state))  # type: ignore[arg-type]
        solve_ms.append((time.perf_counter() - start) * 1000)
        solve_cpu.append((time.process_time() - cpu) * 1000)
        nodes.append(solver.nodes)
    brute_ms = []
    agree = 0
    for _, state in states[:anchor]:
        pos = Endgame.of(state)  # type: ignore[arg-type]
        start = time.perf_counter()
        expected = brute_tuples(state)  # type: ignore[arg-type]
        brute_ms.append((time.perf_counter() - start) * 1000)
        value = Solver().value(pos)
        agree += value[0] - value[1] == expected
    print(f"  solver nodes per endgame: {spread(nodes)}")
    # The machine is shared: the process's CPU time says what the search costs when other processes take the cores.
    print(f"  solver CPU time per endgame: {spread(solve_cpu, 'ms', 1)}, worst {max(solve_cpu):,.1f} ms")
    print(f"  brute-force minimax (anchor), {len(brute_ms)} of the same endgames: {spread(brute_ms, 'ms', 1)}")
    print(f"  solver and brute force agree on {agree} of {len(brute_ms)}")
    target("solver, 8+8 endgame with every first lead: median", solve_ms, 5, higher=False, unit="ms", digits=1)
    target("solver, 8+8 endgame with every first lead: worst", [max(solve_ms)], 50, higher=False, unit="ms")
    TARGETS.append(
        (
            "anchor: brute-force minimax, value of the same endgame",
            f"{spread(brute_ms, 'ms', 1)}, worst {max(brute_ms):,.0f} ms; solver agrees on {agree}/{len(brute_ms)}",
            agree == len(brute_ms),
        )
    )
    deal_ms = []
    whole_ms = []
    for text, _ in states[: min(len(states), 200)]:
        start = time.perf_counter()
        result = check_text(text, states=True)
        replayed = time.perf_counter()
        analyse_deal(result.games[0].deals[0])
        done = time.perf_counter()
        deal_ms.append((done - replayed) * 1000)
        whole_ms.append((done - start) * 1000)
    print(f"  analyse with the replay (states kept): {spread(whole_ms, 'ms', 1)}")
    target("analyse of a whole deal (its last tricks, every card): median", deal_ms, 50, higher=False, unit="ms")
    with tempfile.TemporaryDirectory() as folder:
        corpus = Path(folder) / "corpus.bzq"
        corpus.write_text(generate_corpus(puzzle_deals, seed=50_000), encoding="utf-8")
        out = Path(folder) / "puzzles"
        command = [sys.executable, "-m", "replayer", "puzzles", str(corpus), "--out", str(out), "--jobs", str(jobs)]
        # The last tricks alone (issue 15's target), then with the default sampled first tricks (issue 22).
        start = time.perf_counter()
        printed = subprocess.run([*command, "--early", "0"], check=True, capture_output=True, text=True).stdout
        seconds = time.perf_counter() - start
        start = time.perf_counter()
        early = subprocess.run([*command, "--force"], check=True, capture_output=True, text=True).stdout
        early_seconds = time.perf_counter() - start
    print(f"  puzzles (last tricks): {printed.strip()}")
    print(f"  puzzles with the first tricks of the first games sampled (default --early): {early.strip()}, ")
    print(f"    {early_seconds:.1f} s")
    target(f"bezique puzzles over {puzzle_deals:,} deals, --jobs {jobs}", [seconds], 60, higher=False, unit="s")


def sampled(samples: int, jobs: int) -> None:
    """Issue 22: ``analyse --all`` of the worked deal with ``samples`` sampled deals a play, in ``jobs`` processes
    (wall time, and playouts per second: one playout is one legal card played out on one sampled deal)."""
    from replayer.analysis import analyse
    from replayer.check import check_text

    text = (ROOT / "games" / "worked-deal-000.bzq").read_text(encoding="utf-8")
    print(f"\nanalyse --all of the worked deal, {samples} samples a play, --jobs {jobs} ...")
    import resource

    result = check_text(text, states=True)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    start, cpu = time.perf_counter(), time.process_time()
    found = analyse(result, samples=samples, seed=0, jobs=jobs)
    seconds = time.perf_counter() - start
    # The CPU of this process and of the worker processes it waited for: the machine is shared, the wall time is not
    # the work's.
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = time.process_time() - cpu + (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    plays = found["games"][0]["deals"][0]["plays"]
    playouts = sum(p["samples"] * len(p["options"]) for p in plays)
    mistakes = [p for p in plays if p["cost"] >= 10 and p["cost"] >= 2 * p["cost_stderr"]]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(
        f"  {len(plays)} plays ({sum(not p['exact'] for p in plays)} sampled), {playouts:,} playouts in "
        f"{seconds:.1f} s: {playouts / seconds:,.0f} playouts/s ({jobs} processes); CPU {used:.1f} s in all, "
        f"{playouts / used:,.0f} playouts per CPU-second; {len(mistakes)} mistakes (load {load}: on a shared "
        f"machine the CPU seconds, not the wall time, are the work's)"
    )
    for play in mistakes:
        print(
            f"    trick {play['trick']} {play['seat']} {play['played']}: best {' or '.join(play['best'])}, "
            f"cost {play['cost']} ± {play['cost_stderr']}"
        )
    target(f"analyse --all of the worked deal, {samples} samples a play, --jobs {jobs}", [seconds], 30, False, "s")


def sampler_match(pairs: int, samples: int, jobs: int, players: str = "sampler,better") -> None:
    """Issue 22: ``bezique match`` between two players over ``pairs`` classic deals, each played twice with the seats
    swapped (the sampler with ``samples`` sampled deals a card)."""
    from replayer.match import match

    names = players.split(",")
    print(f"\nmatch {players}, {pairs} paired classic deals, sampler {samples} samples a card, --jobs {jobs} ...")
    start = time.perf_counter()
    found = match(names, pairs, "classic", seed=22, jobs=jobs, samples=samples)
    seconds = time.perf_counter() - start
    lo, hi = found["ci95"]
    print(
        f"  mean {found['mean']:+.1f} a deal for {names[0]} (95% interval {lo:+.1f} to {hi:+.1f}); "
        f"wins {found['wins']}; {seconds:.0f} s"
    )
    TARGETS.append((f"match {players}, {pairs} pairs", f"{found['mean']:+.1f} [{lo:+.1f}, {hi:+.1f}]", lo > 0))


def revalidate(count: int) -> None:
    """The language server's work on a keystroke (issue 16): a 32-trick record, edited one character at a time
    (a digit of a running score, a card's rank, a letter of a comment, by turns), read and replayed whole with the
    views a hover needs (:class:`replayer.lsp.Workbench`)."""
    from replayer.lsp import Workbench

    text = (ROOT / "games" / "worked-deal-000.bzq").read_text(encoding="utf-8")
    edits = [
        ("score N 320, S 110", "score N 321, S 110"),  # a wrong score: BZ501 and the replay goes on
        ("trick 9: S 9S, N 10S -> N", "trick 9: S 8S, N 10S -> N"),  # a card: not held
        ("finer points", "finer pointz"),  # a comment
    ]
    for old, _ in edits:
        assert old in text, old
    Workbench(text)  # (warm: the reader's expressions, the profile)
    times = []
    for k in range(count):
        old, new = edits[k % len(edits)]
        edited = text.replace(old, new, 1) if k % 2 == 0 else text
        times.append(timed(lambda edited=edited: Workbench(edited)) * 1000)
    print(f"\nre-validate a 32-trick record after a one-character edit ({count} edits)")
    target("re-validate after a one-character edit", times, 20, higher=False, unit="ms", digits=1)


def random_playouts(rules: Any, deals: int, rng: random.Random) -> int:
    """Play ``deals`` whole deals of ``rules`` on the core, each from a pack shuffled with ``rng`` to its last move,
    by a random legal player (the dealer N, S, N, ...): the moves ``rng.choice`` would pick. Returns the moves made."""
    from replayer.rules.position import Position

    # ``rng.choice(legal)`` without its two calls: the index ``Random._randbelow`` draws (the fewest bits that hold
    # the length, drawn again while too large), so the same moves (tests/test_bench_playouts.py holds them equal).
    getrandbits = rng.getrandbits
    made = 0
    for n in range(deals):
        pos = Position.new(rules, n % 2, rng)
        legal_moves, play_on = pos.legal_moves, pos.play_on
        while True:
            legal = legal_moves()
            if not legal:
                break
            count = len(legal)
            bits = count.bit_length()
            index = getrandbits(bits)
            while index >= count:
                index = getrandbits(bits)
            play_on(legal[index])
            made += 1
    return made


def playouts(deals: int, repeat: int) -> None:
    """Issue 21: whole classic deals played from the deal to the last trick by a random legal player on the core
    (``replayer.rules.position``: legal moves, no text written; :func:`random_playouts`), per second on one core; and
    what a ``push`` and a ``pop`` cost a move (the deal's state kept for each move), over 20 deals a run. Both are
    timed in the process's CPU time (what "per core" means, and what other work on a shared machine changes least)."""
    from replayer.profiles import load_profile
    from replayer.rules import compile_rules
    from replayer.rules.position import Position

    profile = load_profile("classic")
    rules = compile_rules(profile, profile.default_options())
    rates, moves_made = [], 0
    for run in range(repeat):
        rng = random.Random(run)
        start = time.process_time()
        moves_made = random_playouts(rules, deals, rng)
        rates.append(deals / (time.process_time() - start))
    target("random playouts, classic, per core (issue 21)", rates, 3_000, True, " deals per CPU-second", 0)
    print(f"    {moves_made / deals:.0f} moves a deal (plays, draws, exchanges, declarations)")
    costs = []
    for run in range(repeat):
        rng = random.Random(run)
        used = 0.0
        count = 0
        for n in range(20):
            pos = Position.new(rules, n % 2, rng)
            start = time.process_time()
            while not pos.over:
                pos.push(rng.choice(pos.legal_moves()))
                count += 1
            while pos.move_stack:
                pos.pop()
            used += time.process_time() - start
        costs.append(used / count * 1e6)
    print(f"    push and pop with the legal moves, a move: {spread(costs, ' µs', 1)}")


def _edited(text: str, rng: random.Random) -> str:
    """A keystroke: one digit of a running score somewhere in the text, changed."""
    import re

    lines = text.split("\n")
    while True:
        index = rng.randrange(len(lines))
        found = re.search(r"score N (\d)", lines[index])
        if found is not None:
            digit = str((int(found[1]) + 1) % 10)
            lines[index] = lines[index][: found.start(1)] + digit + lines[index][found.end(1) :]
            return "\n".join(lines)


def _rescored(text: str, rng: random.Random) -> str:
    """A keystroke that changes a deal's score: a declaration line somewhere in the text, deleted (the game's
    totals change from that deal on, so every later deal is replayed)."""
    lines = text.split("\n")
    declared = [index for index, line in enumerate(lines) if " declares " in line]
    del lines[rng.choice(declared)]
    return "\n".join(lines)


def keystrokes(count: int, games: int = 30, deals: int = 200) -> None:
    """The language server's work on a keystroke in a large file (issue 23): a file of ``games`` games (about
    1.2 MB) and one game of ``deals`` deals, each edited ``count`` times, one digit of a running score at a random
    place, and re-validated as the server does (:class:`replayer.lsp.Workbench` with the games of the last text in
    its cache: only the game the edit touched is replayed again). Then, through the server itself (pygls's client),
    ten keystrokes sent at once: the time until the diagnostics of the last arrive. A running score is checked, not
    counted: the server replays only the deal it is in (:class:`replayer.check.GameCheck`). A keystroke that
    changes a deal's score (:func:`_rescored`) replays every deal after it too: measured in the long game."""
    from replayer.generate import generate_game

    rng = random.Random(23)
    # (a target out of reach: a game ends with the deal that reaches its target, and these must be long)
    endless = {"target": "10000000"}
    many = "\n".join(generate_game("classic", 1000 + seed, deals=19, options=endless) for seed in range(games))
    long = generate_game("classic", 2023, deals=deals, options=endless)
    print(f"\nkeystrokes: a file of {games} games ({len(many) / 1e6:.2f} MB), a game of {deals} deals", flush=True)
    for name, text, goal in ((f"{games}-game file", many, 30), (f"{deals}-deal game", long, 100)):
        times, cpu = _keystroke_times(text, _edited, count, rng)
        target(f"a keystroke re-validated, {name}", times, goal, higher=False, unit="ms", digits=1)
        print(f"  the same in CPU time: {spread(cpu, 'ms', 1)}")
        if text is long:
            times, cpu = _keystroke_times(text, _rescored, count, rng)
            print(
                f"  a keystroke that changes a deal's score, {name}: {spread(times, 'ms', 1)}; "
                f"CPU time {spread(cpu, 'ms', 1)}"
            )
        burst = _burst(text, rng)
        print(f"  ten keystrokes at once through the server, {name}: diagnostics of the last after {burst:.0f} ms")


def _keystroke_times(
    text: str, edit: Callable[[str, random.Random], str], count: int, rng: random.Random
) -> tuple[list[float], list[float]]:
    """Milliseconds of wall-clock and of CPU time (the process's own: what the machine's other load does not change)
    to re-validate ``count`` keystrokes made by ``edit``, each from the text as opened and back, as the server
    does (:class:`replayer.lsp.Workbench`, the games of the text before in its cache)."""
    from replayer.lsp import Workbench

    cache: dict[str, Any] = {}
    Workbench(text, "bench.bzq", cache)  # (the text as opened)
    times = []
    cpu = []
    for _ in range(count):
        edited = edit(text, rng)
        start = time.process_time()
        times.append(timed(lambda edited=edited: Workbench(edited, "bench.bzq", cache)) * 1000)
        cpu.append((time.process_time() - start) * 1000)
        Workbench(text, "bench.bzq", cache)  # (and back)
    return times, cpu


def _burst(text: str, rng: random.Random) -> float:
    """Milliseconds from ten changes sent at once to the server until the diagnostics of the last arrive."""
    import asyncio

    from lsprotocol import types
    from pygls.lsp.client import LanguageClient

    async def run() -> float:
        client = LanguageClient("bench", "1")
        arrived: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()

        @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
        def diagnostics(params: types.PublishDiagnosticsParams) -> None:
            arrived.put_nowait(params)

        await client.start_io(sys.executable, "-m", "replayer", "lsp")
        await client.initialize_async(types.InitializeParams(capabilities=types.ClientCapabilities()))
        client.initialized(types.InitializedParams())
        uri = "file:///bench.bzq"
        item = types.TextDocumentItem(uri=uri, language_id="bezique", version=1, text=text)
        client.text_document_did_open(types.DidOpenTextDocumentParams(text_document=item))
        await asyncio.wait_for(arrived.get(), 600)
        start = time.perf_counter()
        for version in range(2, 12):
            client.text_document_did_change(
                types.DidChangeTextDocumentParams(
                    text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                    content_changes=[types.TextDocumentContentChangeWholeDocument(text=_edited(text, rng))],
                )
            )
        while (await asyncio.wait_for(arrived.get(), 600)).version != 11:
            pass
        seconds = time.perf_counter() - start
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        return seconds * 1000

    return asyncio.run(run())


def main() -> int:
    from replayer.distribute import usable_cpus

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="classic deals in the main corpus")
    parser.add_argument("--mixed", type=int, default=2_000, help="deals in the mixed-profile corpus")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each throughput measurement")
    parser.add_argument("--starts", type=int, default=15, help="whole-process runs for the cold start")
    parser.add_argument("--pages", type=int, default=100, help="lessons to render")
    parser.add_argument("--memory-games", type=int, default=100_000, help="games in the file of the memory run")
    parser.add_argument(
        "--jobs",
        type=int,
        default=usable_cpus(),
        help="processes for the memory run and the lessons' render (default: one per CPU, as bezique render)",
    )
    parser.add_argument("--infer-runs", type=int, default=3, help="runs of the inference of the worked game")
    parser.add_argument(
        "--only-render", action="store_true", help="measure only the lessons' rendering (both languages)"
    )
    parser.add_argument("--endgames", type=int, default=1_000, help="classic endgames the solver is timed on")
    parser.add_argument("--anchor", type=int, default=100, help="of them, endgames the brute force is timed on")
    parser.add_argument("--puzzle-deals", type=int, default=1_000, help="generated deals bezique puzzles mines")
    parser.add_argument(
        "--only-analysis", action="store_true", help="measure only the endgame solver, analyse and puzzles (issue 15)"
    )
    parser.add_argument("--edits", type=int, default=200, help="one-character edits re-validated (the editor)")
    parser.add_argument("--samples", type=int, default=64, help="sampled deals a play for analyse --all")
    parser.add_argument(
        "--only-sampled", action="store_true", help="measure only analyse --all of the worked deal (issue 22)"
    )
    parser.add_argument("--match-pairs", type=int, default=1_000, help="paired classic deals of the sampler match")
    parser.add_argument("--match-samples", type=int, default=8, help="sampled deals a card for the sampler")
    parser.add_argument("--match-players", default="sampler,better", help="the two players of --only-match")
    parser.add_argument(
        "--only-match", action="store_true", help="measure only the match of two players (issue 22; hours at 1,000)"
    )
    parser.add_argument("--only-edits", action="store_true", help="measure only the re-validation after an edit")
    parser.add_argument("--playouts", type=int, default=300, help="random classic deals played out on the core")
    parser.add_argument("--only-playouts", action="store_true", help="measure only the core's random playouts")
    parser.add_argument("--keystrokes", type=int, default=30, help="keystrokes re-validated in each large file")
    parser.add_argument("--only-keystrokes", action="store_true", help="measure only the keystrokes (issue 23)")
    parser.add_argument("--only-throughput", action="store_true", help="measure only the validation of the two corpora")
    parser.add_argument(
        "--reference",
        type=lambda text: Path(text).resolve(),
        help="another version's source tree (git worktree add DIR COMMIT): its validation of the same games is "
        "timed in the same repetitions",
    )
    args = parser.parse_args()
    if args.only_playouts:
        playouts(args.playouts, args.repeat)
        return 0
    if args.only_sampled or args.only_match:
        if args.only_sampled:
            sampled(args.samples, args.jobs)
        if args.only_match:
            sampler_match(args.match_pairs, args.match_samples, args.jobs, args.match_players)
        print("\ntargets: median (min–max)")
        for name, measured, reached in TARGETS:
            print(f"  {'reached' if reached else 'NOT reached':<12} {name}: {measured}")
        return 0
    if args.only_analysis or args.only_edits or args.only_keystrokes:
        if args.only_analysis:
            analysis(args.endgames, args.anchor, args.puzzle_deals, args.jobs)
        if args.only_edits:
            revalidate(args.edits)
        if args.only_keystrokes:
            keystrokes(args.keystrokes)
        print("\ntargets: median (min–max)")
        for name, measured, reached in TARGETS:
            print(f"  {'reached' if reached else 'NOT reached':<12} {name}: {measured}")
        return 0
    if args.only_render:
        games = split_games(generate_corpus(args.pages))
        for lang in ("en", "ru"):
            render(games, args.pages, args.repeat, lang, args.jobs)
        return 0

    print(f"generating {args.deals} classic deals and {args.mixed} deals of {', '.join(tables())} ...")
    classic = generate_corpus(args.deals)
    mixed = generate_corpus(args.mixed, seed=100_000, profiles=tables())
    with tempfile.TemporaryDirectory() as folder:
        for name, text in (("classic corpus", classic), ("mixed-profile corpus", mixed)):
            path = Path(folder) / "corpus.bzq"
            path.write_text(text, encoding="utf-8")
            throughput(name, text, path, args.repeat, args.reference)
    if args.only_throughput:
        print("\ntargets: median (min–max)")
        for name, measured, reached in TARGETS:
            print(f"  {'reached' if reached else 'NOT reached':<12} {name}: {measured}")
        return 0
    per_profile(max(1, args.mixed // 8), args.repeat)
    games = split_games(classic)
    for lang in ("en", "ru"):
        render(games, args.pages, args.repeat, lang, args.jobs)
    cold_start(games[0], chess_corpus(100)[0], args.starts)
    memory(games, args.memory_games, args.jobs)
    inference(args.infer_runs)
    analysis(args.endgames, args.anchor, args.puzzle_deals, args.jobs)
    revalidate(args.edits)
    playouts(args.playouts, args.repeat)
    keystrokes(args.keystrokes)

    print("\ntargets (issue #6, kept by issue #13; issues 15 and 16): median (min–max)")
    for name, measured, reached in TARGETS:
        print(f"  {'reached' if reached else 'NOT reached':<12} {name}: {measured}")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
