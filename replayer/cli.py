"""The ``bezique`` command line: validate, replay, analyse, puzzles, render, profiles, rules.

Exit codes: 0 when every record is valid, 1 when any record is invalid, 2 on a usage error (bad arguments, a
missing file). Problems go to stderr as ``FILE:LINE:COL: error: CODE message`` with the source line and a caret.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace

from . import __version__
from .errors import UsageError
from .files import write_atomic

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:  # the command line imports its modules lazily, for a fast start
    import argparse


__all__ = ["find_records", "main"]

RECORD_SUFFIXES = (".bzq",)


def find_records(paths: Sequence[str]) -> Iterator[Path]:
    """Record files named or found (recursively, sorted) in the folders named; raises UsageError for a missing path."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            yield from sorted(p for p in path.rglob("*") if p.suffix in RECORD_SUFFIXES and p.is_file())
        elif path.is_file():
            yield path
        else:
            raise UsageError(f"no such file or folder: {raw}")


def _one_file(raw: str, command: str) -> Path:
    """The record file a command that reads one names; a UsageError that says why not (a folder is not a file)."""
    path = Path(raw)
    if path.is_dir():
        raise UsageError(
            f"{raw} is a folder: bezique {command} reads one record file (bezique validate {raw} checks every "
            "record in a folder)"
        )
    if not path.is_file():
        raise UsageError(f"no such file: {raw}")
    return path


def cmd_validate(args: argparse.Namespace) -> int:
    from collections import Counter

    from .check import validate_files

    files = list(find_records(args.paths))
    if not files:
        raise UsageError(f"no records (*.bzq) found in {' '.join(args.paths)}")
    if args.jobs < 1:
        raise UsageError("--jobs takes a whole number of at least 1")
    outcomes = validate_files(
        [str(path) for path in files], args.jobs, args.unknowns, not args.summary, getattr(args, "strict", False)
    )
    invalid = sum(1 for o in outcomes if not o.valid)
    games = sum(o.games for o in outcomes)
    warnings = sum(1 for o in outcomes for e in o.errors if e["severity"] == "warning")
    errors = sum(len(o.errors) for o in outcomes) - warnings
    if args.summary:
        import json

        codes: Counter[str] = Counter(str(e["code"]) for o in outcomes for e in o.errors if e["severity"] == "error")
        report = {
            "files": len(files),
            "valid_files": len(files) - invalid,
            "invalid_files": invalid,
            "games": games,
            "errors": errors,
            "errors_by_code": dict(sorted(codes.items())),
            "warnings": warnings,
        }
        json.dump(report, sys.stdout, indent=2)
        print()
        return 1 if invalid else 0
    if args.json:
        import json

        summary: list[dict[str, object]] = [
            {"path": o.path, "valid": o.valid, "games": o.games, "errors": o.errors} for o in outcomes
        ]
        if args.unknowns:  # every unknown card: its place, forced or open, its possible values
            for entry, outcome in zip(summary, outcomes, strict=True):
                entry["unknowns"] = outcome.unknowns
        json.dump({"files": summary, "valid": invalid == 0}, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 1 if invalid else 0
    if args.format == "github":
        for outcome in outcomes:
            for error in outcome.errors:
                print(github_annotation(error))
    for outcome in outcomes:
        if args.format != "github":
            sys.stderr.write(outcome.stderr)
        if not args.quiet:
            print(outcome.stdout)
    if not args.quiet:
        print(
            f"{len(files)} file(s), {games} game(s): {len(files) - invalid} valid, {invalid} invalid"
            f"{f', {errors} problem(s)' if errors else ''}{f', {warnings} warning(s)' if warnings else ''}"
        )
    return 1 if invalid else 0


def _escaped(text: str, property_value: bool = False) -> str:
    """Text in a workflow command: GitHub reads ``%``, line breaks and, in a property, ``:`` and ``,`` as syntax."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    return text.replace(":", "%3A").replace(",", "%2C") if property_value else text


def github_annotation(error: dict[str, object]) -> str:
    """One diagnostic (``Diagnostic.to_json``) as a GitHub Actions workflow command, which the forge shows on the
    file's line: ``::error file=F,line=L,col=C,title=CODE::CODE message``."""
    level = "warning" if error["severity"] == "warning" else "error"
    where = [f"file={_escaped(str(error['path']), True)}"]
    if error.get("line") is not None:
        where.append(f"line={error['line']}")
    if error.get("column") is not None:
        where.append(f"col={error['column']}")
    where.append(f"title={error['code']}")
    message = _escaped(f"{error['code']} {error['message']}")
    return f"::{level} {','.join(where)}::{message}"


def _inference_progress(done: int, total: int, seconds: float) -> None:
    """The progress line of a long inference, on a terminal: the unknown cards analysed so far."""
    sys.stderr.write(f"\r\x1b[K  inferring: {done} of {total} unknown card(s) analysed, {seconds:.0f} s")
    sys.stderr.flush()


def cmd_infer(args: argparse.Namespace) -> int:
    from .check import NotText, check_record, print_diagnostics, read_text, unknown_lines
    from .completed_record import completed_text
    from .reader import read_record

    source, out = _one_file(args.file, "infer"), Path(args.out)
    to_stdout = args.out == "-"
    if not to_stdout:
        if out.exists() and out.resolve() == source.resolve():
            raise UsageError("infer never overwrites its input: choose another --out")
        if out.exists() and not args.force:
            raise UsageError(f"{out} exists; pass --force to overwrite it")
        if not out.parent.is_dir():
            raise UsageError(f"no such folder: {out.parent} (infer makes no folder: create it first)")
    from .errors import NotationError

    try:
        text = read_text(source)
    except NotText as exc:
        from .errors import format_diagnostic

        print(format_diagnostic(exc.diagnostic, exc.text), file=sys.stderr)
        return 1
    try:
        record = read_record(text, str(source))
    except NotationError as exc:
        from .replay import ReplayResult

        failed = ReplayResult(str(source), text)
        failed.diagnostics.extend(exc.diagnostics)
        print_diagnostics(failed, sys.stderr)
        return 1
    if args.time_limit is not None and args.time_limit <= 0:
        raise UsageError("--time-limit takes a number of seconds above 0")
    progress = _inference_progress if sys.stderr.isatty() else None
    result = check_record(record, analyse=True, time_limit=args.time_limit, progress=progress)
    if progress is not None:
        sys.stderr.write("\r\x1b[K")
    print_diagnostics(result, sys.stderr)
    notes = sys.stderr if to_stdout else sys.stdout  # (standard output is the record's, with --out -)
    for line in unknown_lines(result, listing=False):
        print(line, file=notes)
    if not result.valid:
        print(f"{source}: not completed: the record is invalid", file=sys.stderr)
        return 1
    if to_stdout:
        sys.stdout.write(completed_text(record, result))
        return 0
    write_atomic(out, completed_text(record, result))
    print(f"wrote {out}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .check import check_path, print_diagnostics
    from .replay import to_json
    from .trace import trace

    path = _one_file(args.file, "replay")
    result = check_path(path)
    if args.json:
        import json

        json.dump(to_json(result), sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print(trace(result, show_hands=not args.no_hands))
    print_diagnostics(result, sys.stderr)
    return 0 if result.valid else 1


def _read_valid(path: Path) -> tuple[object, object] | None:
    """A record read and replayed with the core's states kept (for the analysis); None, its errors printed, when it
    does not read or does not validate."""
    from .check import NotText, check_record, print_diagnostics, read_text
    from .errors import NotationError
    from .reader import read_record
    from .replay import ReplayResult

    try:
        text = read_text(path)
    except NotText as exc:
        from .errors import format_diagnostic

        print(format_diagnostic(exc.diagnostic, exc.text), file=sys.stderr)
        return None
    try:
        record = read_record(text, str(path))
    except NotationError as exc:
        failed = ReplayResult(str(path), text)
        failed.diagnostics.extend(exc.diagnostics)
        print_diagnostics(failed, sys.stderr)
        return None
    result = check_record(record, states=True)
    if not result.valid:
        print_diagnostics(result, sys.stderr)
        print(f"{path}: not analysed: the record is invalid", file=sys.stderr)
        return None
    return text, result


def cmd_analyse(args: argparse.Namespace) -> int:
    from .analysis import analyse, canonical, text, variations_text
    from .distribute import check_cluster

    source = _one_file(args.file, "analyse")
    out = Path(args.write_variations) if args.write_variations else None
    if out is not None:
        if out.exists() and out.resolve() == source.resolve():
            raise UsageError("analyse never overwrites its input: choose another --write-variations file")
        if out.exists() and not args.force:
            raise UsageError(f"{out} exists; pass --force to overwrite it")
    if args.budget < 1:
        raise UsageError("--budget takes a whole number of nodes of at least 1")
    if args.samples < 2 or args.jobs < 1:
        raise UsageError(
            "--samples takes a whole number of at least 2 (a standard error needs two), --jobs of at least 1"
        )
    check_cluster(args.cluster)
    read = _read_valid(source)
    if read is None:
        return 1
    record_text, result = read
    samples = args.samples if args.all else None
    found = analyse(result, args.budget, samples, args.seed, args.jobs, args.cluster)  # type: ignore[arg-type]
    if args.json:
        import json

        json.dump(found, sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        sys.stdout.write(text(found))
    if out is not None:
        write_atomic(out, canonical(variations_text(str(record_text), result, found)))  # type: ignore[arg-type]
        print(f"wrote {out}", file=sys.stderr if args.json else sys.stdout)
    return 0


def cmd_puzzles(args: argparse.Namespace) -> int:
    from .distribute import check_cluster
    from .puzzles import EARLY_DEALS, mine_paths, write_puzzles

    files = list(find_records(args.paths))
    if not files:
        raise UsageError(f"no records (*.bzq) found in {' '.join(args.paths)}")
    if args.jobs < 1:
        raise UsageError("--jobs takes a whole number of at least 1")
    out = Path(args.out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"{out} is not a folder")
    if (out / "index.html").exists() and not args.force:
        raise UsageError(f"{out} holds puzzles already; pass --force to write over them")
    early = EARLY_DEALS if args.early is None else args.early
    if early < 0:
        raise UsageError("--early takes a whole number of games, 0 or more")
    check_cluster(args.cluster)
    puzzles = mine_paths(files, jobs=args.jobs, early=early, seed=args.seed, cluster=args.cluster)
    write_puzzles(puzzles, out)
    print(f"wrote {len(puzzles)} puzzle(s) and {out / 'index.html'}")
    return 0


def cmd_render(args: argparse.Namespace) -> int:
    from .check import check_path, print_diagnostics
    from .distribute import usable_cpus
    from .render import parse_languages, render_site

    try:
        langs = parse_languages(args.lang)
    except ValueError as exc:
        raise UsageError(f"--lang: {exc}") from None
    if args.jobs is not None and args.jobs < 1:
        raise UsageError("--jobs takes a whole number of at least 1")
    jobs = args.jobs if args.jobs is not None else usable_cpus()
    files = list(find_records(args.paths))
    if not files:
        raise UsageError(f"no records (*.bzq) found in {' '.join(args.paths)}")
    results = []
    invalid = 0
    for path in files:
        result = check_path(path, states=True)  # (the core's states: the lessons show the endgame's values)
        print_diagnostics(result, sys.stderr)
        if result.valid:
            results.append(result)
        else:
            invalid += 1
            print(f"{path}: not rendered: the record is invalid", file=sys.stderr)
    warnings: list[str] = []
    try:
        written = render_site(results, Path(args.out), lang=langs, force=args.force, warnings=warnings, jobs=jobs)
    except FileExistsError as exc:
        raise UsageError(str(exc)) from None
    for warning in warnings:
        print(f"warning: {warning}", file=sys.stderr)
    pages = sum(1 for p in written if p.suffix == ".html")
    # The first language is at the top of the folder, each other one in a sub-folder named after it.
    where = ", ".join([f"{langs[0]} in {args.out}", *(f"{code} in {Path(args.out) / code}" for code in langs[1:])])
    print(
        f"wrote {pages} page(s) to {args.out} ({len(results)} record(s) rendered"
        f"{f', {invalid} invalid skipped' if invalid else ''}; {where})"
    )
    return 1 if invalid else 0


def cmd_profiles(args: argparse.Namespace) -> int:
    from .profiles import load_profile, profile_names
    from .rulebook import configurations, table_line

    for name in profile_names():
        profile = load_profile(name)
        print(f"{name:<16} {profile.description} [{profile.source}]")
        # Its other tables, played as options: another number of players or packs.
        for chosen, effective in configurations(profile):
            print(f"{'':<16}   --option {chosen}: {table_line(effective)}")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .errors import RuleProfileError
    from .profiles import load_profile
    from .rulebook import describe

    try:
        profile = load_profile(args.profile)
    except RuleProfileError as exc:
        raise UsageError(str(exc)) from None
    print(describe(profile, sources=args.source))
    return 0


def cmd_generate(args: argparse.Namespace) -> int:
    from .errors import RuleProfileError
    from .generate import generate_game
    from .profiles import load_profile

    try:
        load_profile(args.profile)
    except RuleProfileError as exc:
        raise UsageError(str(exc)) from None
    if args.deals < 1 or args.games < 1 or args.jobs < 1:
        raise UsageError("--deals, --games and --jobs take a whole number of at least 1")
    chosen = {}
    for raw in args.option:
        name, sep, value = raw.partition("=")
        if not sep:
            raise UsageError(f"--option takes NAME=VALUE, not {raw!r}")
        chosen[name.strip()] = value.strip()
    try:
        text = "\n".join(
            generate_game(args.profile, args.seed + i, args.deals, chosen, args.player, args.jobs)
            for i in range(args.games)
        )
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    if args.out:
        out = Path(args.out)
        if out.exists() and not args.force:
            raise UsageError(f"{out} exists; pass --force to overwrite it")
        write_atomic(out, text)
    else:
        sys.stdout.write(text)
    return 0


def cmd_match(args: argparse.Namespace) -> int:
    from .distribute import check_cluster
    from .errors import RuleProfileError
    from .match import match, text

    if args.deals < 1 or args.samples < 1 or args.jobs < 1:
        raise UsageError("--deals, --samples and --jobs take a whole number of at least 1")
    check_cluster(args.cluster)
    try:
        found = match(
            args.players.split(","), args.deals, args.profile, args.seed, args.jobs, args.samples, args.cluster
        )
    except (ValueError, RuleProfileError) as exc:
        raise UsageError(str(exc)) from None
    if args.json:
        import json

        print(json.dumps(found, ensure_ascii=False))
    else:
        sys.stdout.write(text(found))
    return 0


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print records in the canonical form, check that they are in it (--check), or rewrite them (--write).

    Exit 1 when a record does not parse (it is left untouched) or, with --check, is not in the canonical form.
    """
    from .check import NotText, decode
    from .errors import Diagnostic, NotationError, Span, format_diagnostic
    from .fmt import FormatCheckError, format_text

    if "-" in args.paths and args.write:
        raise UsageError("--write cannot rewrite standard input")
    files: list[Path | None] = []  # None stands for standard input
    for raw in args.paths:
        if raw == "-":
            files.append(None)
            continue
        found = list(find_records([raw]))
        if not found:
            raise UsageError(f"no records (*.bzq) found in {raw}")
        files.extend(found)
    invalid = changed = 0
    for path in files:
        name = "<stdin>" if path is None else str(path)
        # Read the bytes as they are (no newline translation), so that --check sees CRLF line ends.
        try:
            if path is None:
                stdin = getattr(sys.stdin, "buffer", None)
                data = stdin.read() if stdin is not None else sys.stdin.read().encode("utf-8")
            else:
                data = path.read_bytes()
            text = decode(data, name)
        except NotText as exc:
            invalid += 1
            print(format_diagnostic(exc.diagnostic, exc.text), file=sys.stderr)
            continue
        except OSError as exc:
            raise UsageError(f"{name}: {exc.strerror}") from None
        try:
            canonical = format_text(text, name)
        except NotationError as exc:
            invalid += 1
            for diag in exc.diagnostics:
                print(format_diagnostic(diag, text), file=sys.stderr)
            if args.write or args.check:
                print(f"{name}: not formatted: the record does not parse", file=sys.stderr)
            continue
        except FormatCheckError as exc:  # a formatter bug: report it, change nothing
            invalid += 1
            print(f"bezique: error: {exc}", file=sys.stderr)
            continue
        if canonical != text:
            changed += 1
        if args.check:
            if canonical != text:
                old, new = text.split("\n"), canonical.split("\n")
                line = next(
                    (i for i, (a, b) in enumerate(zip(old, new, strict=False)) if a != b), min(len(old), len(new)) - 1
                )
                message = "not in the canonical form (bezique fmt --write rewrites it)"
                print(format_diagnostic(Diagnostic("BZ005", message, Span(line + 1, 1), name), text), file=sys.stderr)
        elif args.write:
            if path is not None and canonical != text:
                try:
                    write_atomic(path, canonical)
                except OSError as exc:
                    raise UsageError(f"{name}: cannot rewrite it: {exc.strerror}") from None
                print(f"{name}: reformatted")
        else:
            sys.stdout.write(canonical)
    if args.check or args.write:
        done = "not canonical" if args.check else "reformatted"
        print(
            f"{len(files)} file(s): {changed} {done}, {len(files) - changed - invalid} already canonical"
            f"{f', {invalid} invalid (not parsed)' if invalid else ''}"
        )
    return 1 if invalid or (args.check and changed) else 0


def cmd_lsp(args: argparse.Namespace) -> int:
    from .lsp import main as serve

    return serve()


CLUSTER_HELP = (
    "{what} on the Dask distributed scheduler at ADDRESS (tcp://host:8786), with the same results as --jobs "
    "(needs the cluster extra: pip install 'bezique-replayer[cluster]')"
)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="bezique",
        description="Validate, replay and render bezique game records.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser(
        "validate",
        help="check records against the rules (exit 1 if any is invalid)",
        description=(
            "Check records against the rules of their profiles: every play, trick winner, draw, "
            "declaration and stated score. Each problem is printed as FILE:LINE:COL with its code and "
            "the rule; exit 0 when every record is valid, 1 when one is not, 2 on a usage error."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders (searched for *.bzq)")
    p.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the problems")
    p.add_argument("--unknowns", action="store_true", help="list every unknown card: forced, or open with its values")
    p.add_argument("-j", "--jobs", type=int, default=1, help="validate files in N processes (output in the same order)")
    p.add_argument("--summary", choices=["json"], help="print only counts: valid and invalid files, errors by code")
    p.add_argument(
        "--strict",
        action="store_true",
        help="warnings are errors: a draw the record leaves out that the rules force (BZ405), a question that "
        "leaves out the card played (BZ701)",
    )
    p.add_argument(
        "--format",
        choices=["text", "github"],
        default="text",
        help="github: print each problem as a GitHub Actions annotation (::error file=...,line=...,col=...::) "
        "on stdout, for transcription projects checked by a forge's CI",
    )
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser(
        "infer",
        help="complete a record's unknown cards and write the completed record",
        description=(
            "Complete a lossy record's unknown cards (??, Q?, ?S, or a hand or draws left out) with the"
            " cards the rules and the stated scores allow, and write the completed record to NEW, each "
            "filled card's comment saying whether it is certain or chosen. The input is never "
            "overwritten."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument(
        "--out",
        required=True,
        metavar="NEW",
        help="where to write the completed record (never FILE; its folder must exist), or - for standard output",
    )
    p.add_argument("--force", action="store_true", help="overwrite NEW if it exists")
    p.add_argument(
        "--time-limit",
        type=float,
        default=60.0,
        metavar="S",
        help="stop each deal's search after S seconds and report what is proven by then: the cards not yet settled "
        "are left as chosen, not forced (default: 60)",
    )
    p.set_defaults(func=cmd_infer)

    p = sub.add_parser(
        "replay",
        help="step through a record in the terminal, or as JSON",
        description=(
            "Replay a record step by step: each trick with the hands, the table, the draws, the "
            "declarations and the running scores, in the terminal, or as JSON (--json) for other tools."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the replay as JSON")
    p.add_argument("--no-hands", action="store_true", help="leave the hands out of the trace")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser(
        "analyse",
        help="the exact value of every card in the last tricks, and the mistakes",
        description=(
            "Solve each deal's last tricks (the stock empty: every card known) and print, for every play, the "
            "points each legal card keeps with best play afterwards, the optimum against the points taken, and "
            "each mistake with its cost (docs/analysis.md). A record that does not validate gets its errors and "
            "no analysis (exit 1)."
        ),
    )
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the analysis as JSON")
    p.add_argument(
        "--write-variations",
        metavar="OUT",
        help="write the record with the solver's best line at each mistake to OUT (never FILE)",
    )
    p.add_argument("--force", action="store_true", help="overwrite OUT if it exists")
    p.add_argument("--budget", type=int, default=2_000_000, help="nodes a deal's search may visit (default 2000000)")
    p.add_argument(
        "--all",
        action="store_true",
        help="judge every play of each deal, from the acting seat's knowledge, on sampled deals played out "
        "(replayer/sampling.py; two seats)",
    )
    p.add_argument("--samples", type=int, default=64, help="sampled deals per play with --all (default 64)")
    p.add_argument("--seed", type=int, default=0, help="the random seed of --all (the same seed, the same numbers)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="judge the plays in N processes (the same numbers)")
    p.add_argument("--cluster", metavar="ADDRESS", help=CLUSTER_HELP.format(what="judge the plays"))
    p.set_defaults(func=cmd_analyse)

    p = sub.add_parser(
        "puzzles",
        help="mine puzzles (one clearly best card) from games",
        description=(
            "Find, in each valid deal's last tricks, a position where one card keeps the optimum and every other "
            "loses at least 20 points (at most one per deal); in the first tricks of the first --early games, one "
            "where a card is best by 20 points at 95% confidence under the sampled analysis; write each as a record "
            "with a question, and DIR/index.html, a page of quizzes with the answer's value and each wrong card's "
            "loss."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders (searched for *.bzq)")
    p.add_argument("--out", required=True, metavar="DIR", help="where to write the puzzles and their page")
    p.add_argument("-j", "--jobs", type=int, default=1, help="mine games in N processes")
    p.add_argument("--cluster", metavar="ADDRESS", help=CLUSTER_HELP.format(what="mine the games"))
    p.add_argument(
        "--early",
        type=int,
        default=None,
        metavar="N",
        help="also mine the first tricks (sampled, about 10 s of CPU a game) of the first N games (default 4; 0: none)",
    )
    p.add_argument("--seed", type=int, default=0, help="the random seed of the sampled first tricks")
    p.add_argument("--force", action="store_true", help="write over the puzzles of an earlier run in DIR")
    p.set_defaults(func=cmd_puzzles)

    p = sub.add_parser(
        "render",
        help="write HTML lessons and an index for valid records",
        description=(
            "Write one HTML lesson per valid game, an index, the rules pages and a glossary into DIR, "
            "in each interface language. Invalid records are reported and left out."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--out", required=True, metavar="DIR", help="output folder")
    p.add_argument(
        "--lang",
        default="en,ru",
        metavar="LANGS",
        help="interface languages, comma-separated (en, ru): the first at the top of DIR, the others in DIR/LANG/ "
        "(default: en,ru)",
    )
    p.add_argument(
        "--force", action="store_true", help="write into an existing folder that the renderer did not create"
    )
    p.add_argument(
        "-j",
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help="write the lessons in N processes (default: one per CPU this process may use); the pages are the same",
    )
    p.set_defaults(func=cmd_render)

    p = sub.add_parser(
        "generate",
        help="play legal deals (random, or the better player) and write them in the notation",
        description=(
            "Play legal deals under a profile, by a random legal player or by the better player (a heuristic "
            "while the stock lasts, the endgame solver after), and print them in the notation, the same record "
            "for the same --seed: for tests, corpora and constructed records."
        ),
    )
    p.add_argument(
        "--profile",
        default="classic",
        metavar="NAME",
        help="the rule profile the deals are played under (default: classic; bezique profiles lists them)",
    )
    p.add_argument("--seed", type=int, default=0, help="random seed (the same seed gives the same record)")
    p.add_argument("--deals", type=int, default=1, help="deals per game")
    p.add_argument("--games", type=int, default=1, help="games (seeds SEED, SEED+1, ...)")
    p.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a house rule of the profile, as in a record's options: header (repeatable; bezique rules lists them)",
    )
    p.add_argument(
        "--player",
        choices=["random", "solver", "sampler"],
        default="random",
        help="random: any legal card; solver: a documented heuristic while the stock lasts, the solver for the last "
        "tricks (replayer/player.py), its game commented from the replay (replayer/commentary.py); sampler: each "
        "card chosen by the sampled analysis on a few deals (replayer/match.py, slow), its game commented from the "
        "replay and from the sampled analysis of every play (64 deals a play: a minute or more a deal)",
    )
    p.add_argument(
        "-j", "--jobs", type=int, default=1, help="processes for the sampler's analysis (the same record for any N)"
    )
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser(
        "match",
        help="two players against each other on the same deals, seats swapped: the mean difference and its interval",
        description=(
            "Play --deals deals between two players (random, better, sampler; solver is better's old name), each "
            "deal twice with the seats swapped, and print the mean score difference per deal from the first "
            "player's side with its 95%% confidence interval, and each player's share of the deals won "
            "(replayer/match.py). Two-seat profiles."
        ),
    )
    p.add_argument("--players", required=True, metavar="A,B", help="the two players, e.g. better,random")
    p.add_argument("--deals", type=int, default=100, help="deals, each played twice (default 100)")
    p.add_argument("--profile", default="classic")
    p.add_argument("--seed", type=int, default=0, help="random seed (the same seed, the same match)")
    p.add_argument("--samples", type=int, default=8, help="sampled deals a card for the sampler (default 8)")
    p.add_argument("-j", "--jobs", type=int, default=1, help="play the deals in N processes (the same result)")
    p.add_argument("--cluster", metavar="ADDRESS", help=CLUSTER_HELP.format(what="play the deals"))
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(func=cmd_match)

    p = sub.add_parser(
        "fmt",
        help="print records in the canonical form, or --check or --write it",
        description=(
            "Print records in the canonical form (spacing, the spelling of cards and keywords, wrapped "
            "comments); --check exits 1 when a record is not canonical, --write rewrites records in "
            "place, atomically."
        ),
    )
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders (searched for *.bzq); - for stdin")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when a record is not in the canonical form")
    mode.add_argument("--write", action="store_true", help="rewrite records in place (atomically)")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser(
        "profiles",
        help="list the rule profiles",
        description=("List the rule profiles, the variants of bezique the replayer knows, each with its source."),
    )
    p.set_defaults(func=cmd_profiles)

    p = sub.add_parser(
        "rules",
        help="print a profile's rules: melds, scores and options",
        description=(
            "Print a profile's rules: players, packs, the play, the melds (with the word a record "
            "writes for each), the other scores, the penalties and the options."
        ),
    )
    p.add_argument("profile", metavar="PROFILE")
    p.add_argument(
        "--source",
        action="store_true",
        help="keep the exact citations of the sources (file and line, the rules digest's sections), for checking",
    )
    p.set_defaults(func=cmd_rules)

    p = sub.add_parser(
        "lsp",
        help="run the language server over stdio, for an editor (needs pip install 'bezique-replayer[editor]')",
        description="Run the language server over stdio: an editor (VS Code, Neovim, Emacs; README says how) gets "
        "the diagnostics of validate as you type, hovers, go to definition, formatting, code actions and the "
        "completion of legal cards. Needs the editor extra: pip install 'bezique-replayer[editor]'.",
    )
    p.set_defaults(func=cmd_lsp)
    return parser


_VALIDATE_FLAGS = {
    "-q": "quiet",
    "--quiet": "quiet",
    "--json": "json",
    "--unknowns": "unknowns",
    "--strict": "strict",
}


def _plain_validate(argv: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of the common ``validate [FLAG...] PATH... [FLAG...]`` (flags: ``-q``, ``--quiet``, ``--json``,
    ``--unknowns``, ``--strict``), read as argparse reads them; None for anything else, left to argparse (which
    also prints every help and usage error). Importing argparse and building the parser would take a sixth of a
    short run."""
    if len(argv) < 2 or argv[0] != "validate":
        return None
    args = SimpleNamespace(
        command="validate",
        paths=[],
        json=False,
        quiet=False,
        unknowns=False,
        strict=False,
        jobs=1,
        summary=None,
        format="text",
        func=cmd_validate,
    )
    closed = False  # a flag after paths: argparse takes no more paths (it refuses them as unrecognised)
    for arg in argv[1:]:
        if arg in _VALIDATE_FLAGS:
            setattr(args, _VALIDATE_FLAGS[arg], True)
            closed = bool(args.paths)
        elif arg.startswith("-") or closed:
            return None
        else:
            args.paths.append(arg)
    return args if args.paths else None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    if argv is None:
        argv = sys.argv[1:]
    args = _plain_validate(argv) or build_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except UsageError as exc:
        print(f"bezique: error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
