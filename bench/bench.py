"""Benchmark: bezique record validation against python-chess reading PGN, measured in one run.

Run by hand (not by the tests), from the repository root, after `pip install '.[bench]'`:

    python bench/bench.py                 # 10,000 classic deals (a few minutes on 2 cores)
    python bench/bench.py --deals 2000    # a quicker look

It prints, with medians over repeated runs where it says so:
  * parse-only and full validation throughput of a generated classic corpus (events/s, games/s, MB/s; an event is a
    card played, a draw, a declaration or a stated score),
  * the same for python-chess's `read_game` over a PGN corpus of comparable size (plies/s, games/s, MB/s) that
    python-chess itself generates from random legal games, and the ratio,
  * lesson rendering (pages/s, render only, and text to HTML end to end),
  * cold start: `bezique validate ONE_FILE` against python-chess's one-game command line (median of whole-process
    runs), and the ratio,
  * peak memory (max RSS) of validating the whole corpus file in a separate process.
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def generate_corpus(deals: int, seed: int = 1) -> str:
    from replayer.generate import generate_game

    return "\n".join(generate_game("classic", seed + i) for i in range(deals))


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
            or stripped.startswith(("score ", "brisques ", "result "))
        ):
            events += 1
    return events


def split_games(text: str) -> list[str]:
    parts = text.split('\ngame "')
    return [parts[0]] + ['game "' + p for p in parts[1:]]


def time_bezique(text: str, games: list[str], repeat: int) -> dict[str, float]:
    from replayer.notation import parse_record
    from replayer.replay import replay_record

    parse_times, full_times = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        records = [parse_record(g) for g in games]
        parse_times.append(time.perf_counter() - start)
        start = time.perf_counter()
        for g in games:
            result = replay_record(parse_record(g))
            assert result.valid, result.diagnostics[:1]
        full_times.append(time.perf_counter() - start)
        del records
    return {"parse": statistics.median(parse_times), "full": statistics.median(full_times)}


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


def time_chess(pgn: str, repeat: int) -> float:
    import chess.pgn

    times = []
    for _ in range(repeat):
        handle = io.StringIO(pgn)
        start = time.perf_counter()
        while True:
            game = chess.pgn.read_game(handle)
            if game is None:
                break
            if game.errors:
                raise RuntimeError(game.errors)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def time_render(games: list[str], count: int) -> dict[str, float]:
    from replayer.notation import parse_record
    from replayer.render import render_site
    from replayer.replay import replay_record

    sample = games[:count]
    results = [replay_record(parse_record(g)) for g in sample]
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        written = render_site(results, Path(folder) / "a", lang="en")
        render_only = time.perf_counter() - start
        start = time.perf_counter()
        again = [replay_record(parse_record(g)) for g in sample]
        render_site(again, Path(folder) / "b", lang="en")
        end_to_end = time.perf_counter() - start
    pages = sum(
        1
        for p in written
        if p.suffix == ".html" and p.name not in ("index.html", "glossary.html") and not p.name.startswith("rules-")
    )
    return {"pages": pages, "render_only": render_only, "end_to_end": end_to_end}


def median_run(command: list[str], runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(command, check=False, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def peak_memory(path: Path) -> int:
    """Max RSS (KiB) of `bezique validate` on the whole corpus, in a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    subprocess.run([sys.executable, "-m", "replayer", "validate", "-q", str(path)], check=False)
    return max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=10_000, help="classic deals in the corpus")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each throughput measurement (median)")
    parser.add_argument("--starts", type=int, default=15, help="whole-process runs for the cold start (median)")
    parser.add_argument("--pages", type=int, default=200, help="lessons to render")
    args = parser.parse_args()

    print(f"generating {args.deals} classic deals ...", flush=True)
    text = generate_corpus(args.deals)
    games = split_games(text)
    events = count_events(text)
    size_mb = len(text.encode("utf-8")) / 1e6
    timings = time_bezique(text, games, args.repeat)
    print(f"\nbezique corpus: {len(games)} games, {events} events, {size_mb:.1f} MB")
    for what in ("parse", "full"):
        t = timings[what]
        label = "parse only" if what == "parse" else "full validation"
        print(f"  {label:>16}: {events / t:10.0f} events/s  {len(games) / t:8.1f} games/s  {size_mb / t:6.2f} MB/s")

    pgn, plies, chess_games = chess_corpus(events)
    chess_time = time_chess(pgn, args.repeat)
    pgn_mb = len(pgn.encode("utf-8")) / 1e6
    print(f"\npython-chess read_game: {chess_games} games, {plies} plies, {pgn_mb:.1f} MB")
    print(
        f"  {'validation':>16}: {plies / chess_time:10.0f} plies/s   {chess_games / chess_time:8.1f} games/s  "
        f"{pgn_mb / chess_time:6.2f} MB/s"
    )
    ratio = (events / timings["full"]) / (plies / chess_time)
    print(f"  ratio: bezique validated events/s / chess validated plies/s = {ratio:.2f} (target >= 3)")

    render = time_render(games, args.pages)
    print(f"\nlessons: {render['pages']} pages")
    print(f"  render only: {render['pages'] / render['render_only']:.1f} pages/s (target >= 300)")
    print(f"  end to end:  {render['pages'] / render['end_to_end']:.1f} pages/s (target >= 100)")

    with tempfile.TemporaryDirectory() as folder:
        one = Path(folder) / "one.bzq"
        one.write_text(games[0], encoding="utf-8")
        pgn_one = Path(folder) / "one.pgn"
        pgn_one.write_text(pgn.split("\n\n\n")[0] + "\n", encoding="utf-8")
        chess_cli = [
            sys.executable,
            "-c",
            "import sys, chess.pgn; g = chess.pgn.read_game(open(sys.argv[1])); sys.exit(bool(g.errors))",
            str(pgn_one),
        ]
        ours = median_run([sys.executable, "-m", "replayer", "validate", "-q", str(one)], args.starts)
        theirs = median_run(chess_cli, args.starts)
        baseline = median_run([sys.executable, "-c", "pass"], args.starts)
        print(
            f"\ncold start (median of {args.starts}): bezique validate {ours * 1000:.0f} ms, "
            f"python-chess one game {theirs * 1000:.0f} ms, python -c pass {baseline * 1000:.0f} ms"
        )
        print(f"  ratio {ours / theirs:.2f} (target <= 0.5)")

        corpus = Path(folder) / "corpus.bzq"
        corpus.write_text(text, encoding="utf-8")
        rss = peak_memory(corpus)
        print(f"\npeak memory validating the {size_mb:.1f} MB corpus file: {rss / 1024:.0f} MiB (target < 100)")
    return 0


if __name__ == "__main__":
    os.environ.setdefault("PYTHONHASHSEED", "0")
    sys.exit(main())
