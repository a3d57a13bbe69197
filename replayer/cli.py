"""The ``bezique`` command line: validate, replay, render, profiles, rules.

Exit codes: 0 when every record is valid, 1 when any record is invalid, 2 on a usage error (bad arguments, a
missing file). Problems go to stderr as ``FILE:LINE:COL: error: CODE message`` with the source line and a caret.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from types import SimpleNamespace

from . import __version__
from .files import write_atomic

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:  # the command line imports its modules lazily, for a fast start
    import argparse
    from typing import Any

    from .errors import Diagnostic
    from .replay import ReplayResult
    from .rules import RuleProfile

__all__ = ["find_records", "main"]

RECORD_SUFFIXES = (".bzq",)


class UsageError(Exception):
    """A problem with the command's arguments (exit status 2)."""


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


class NotText(Exception):
    """A record file that is not UTF-8 text: invalid input (exit 1), reported at the first undecodable byte."""

    def __init__(self, diagnostic: Diagnostic, text: str) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.text = text


def _decode(data: bytes, name: str) -> str:
    """UTF-8 text, or NotText naming the line and column of the first byte that is not UTF-8."""
    from .errors import Diagnostic, Span

    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start].decode("utf-8", errors="replace")
        line = before.count("\n") + 1
        column = len(before) - (before.rfind("\n") + 1) + 1
        message = f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be read (save the record as UTF-8)"
        diagnostic = Diagnostic("BZ002", message, Span(line, column), name)
        raise NotText(diagnostic, data.decode("utf-8", errors="replace")) from None


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    return _decode(data, str(path)).replace("\r\n", "\n")


def _replay(path: Path, analyse: bool = False):  # type: ignore[no-untyped-def]
    from .replay import ReplayResult, replay_text

    try:
        text = _read(path)
    except NotText as exc:
        result = ReplayResult(str(path), exc.text)
        result.diagnostics.append(exc.diagnostic)
        return result
    return replay_text(text, str(path), analyse=analyse)


def _unknown_lines(result, listing: bool) -> list[str]:  # type: ignore[no-untyped-def]
    """What the inference found for each deal that left cards unknown."""
    lines = []
    for game in result.games:
        for deal in game.deals:
            inference = deal.inference
            if inference is None or not inference.unknowns:
                continue
            forced, still_open = inference.forced(), inference.open()
            dealt = sum(h["slots"] for h in inference.hands.values())
            certain = sum(sum(h["certain"].values()) for h in inference.hands.values())
            lines.append(
                f"  deal {deal.number}: {len(inference.unknowns)} unknown card(s) completed in "
                f"{inference.seconds:.2f} s: {len(forced)} forced, {len(still_open)} open"
                + (f"; dealt cards: {certain} of {dealt} certain" if dealt else "")
            )
            if listing:
                for unknown in forced:
                    value = next(iter(inference.possible[unknown.tag]))
                    lines.append(f"    forced  {unknown.where}: {value}")
                for unknown in still_open:
                    values = " ".join(str(c) for c in sorted(inference.possible[unknown.tag], key=lambda c: c.sort_key))
                    lines.append(f"    open    {unknown.where}: {values}")
                for seat, hand in inference.hands.items():
                    cards = " ".join(str(c) for c in sorted(hand["certain"].elements(), key=lambda c: c.sort_key))
                    lines.append(f"    dealt   {seat}: {cards or 'nothing'} certain of {hand['slots']} unknown")
    return lines


def _print_diagnostics(result, stream) -> None:  # type: ignore[no-untyped-def]
    from .errors import format_diagnostic

    for diag in result.diagnostics:
        print(format_diagnostic(diag, result.text), file=stream)


class _Outcome:
    """One file's validation, with everything to print (so that parallel runs print in the files' order)."""

    # A plain class rather than a dataclass: creating a dataclass costs a command's start a third of a millisecond.
    __slots__ = ("errors", "games", "path", "stderr", "stdout", "valid")

    def __init__(
        self, path: str, valid: bool, games: int, errors: list[dict[str, object]], stderr: str, stdout: str
    ) -> None:
        self.path = path
        self.valid = valid
        self.games = games
        self.errors = errors
        self.stderr = stderr
        self.stdout = stdout

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is _Outcome and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"_Outcome({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"


def _validate_one(task: tuple[str, bool, bool]) -> _Outcome:
    """Validate one file; everything to print is returned, so that parallel runs print in the files' order."""
    path, listing, analyse = task
    return _validate_file(path, listing, analyse)


def _validate_file(
    path: str, listing: bool, analyse: bool, pool: Any = None, progress: _Progress | None = None, jobs: int = 1
) -> _Outcome:
    """Validate a file game by game, or read whole where that path is needed (replayer/stream.py says when);
    with a pool of ``jobs`` processes, its games are spread over them."""
    from .stream import NotStreamable

    try:
        return _validate_by_game(path, listing, analyse, pool, progress, jobs)
    except (OSError, NotStreamable):
        return _validate_whole(path, listing, analyse)


class _Part:
    """What one part of a file (a game, usually) adds to the file's report; ``size``: the bytes of the file read
    for this part (for the progress bar)."""

    __slots__ = ("errors", "games", "size", "stderr", "unknowns", "valid")

    def __init__(
        self, stderr: str, errors: list[dict[str, object]], unknowns: list[str], games: int, valid: bool, size: int = 0
    ) -> None:
        self.stderr = stderr
        self.errors = errors
        self.unknowns = unknowns
        self.games = games
        self.valid = valid
        self.size = size


def _part(first_line: int, result: ReplayResult, listing: bool, size: int = 0) -> _Part:
    """The report of one replayed part of a file that starts at line ``first_line``."""
    from .errors import format_diagnostic

    stderr = "".join(format_diagnostic(diag, result.text, first_line) + "\n" for diag in result.diagnostics)
    errors = [d.to_json() for d in result.diagnostics]
    return _Part(stderr, errors, _unknown_lines(result, listing), len(result.games), result.valid, size)


def _replay_part(task: tuple[str, int, bytes, bool, bool]) -> _Part:
    """Read and replay one part of a file (in a worker process when games are spread over processes): the fast
    accept path first (replayer/quick.py), and the full path for what it does not say is valid."""
    from .quick import accept

    path, first_line, data, listing, analyse = task
    games = accept(data, first_line)
    if games is not None:
        return _Part("", [], [], games, True, len(data))
    from .replay import replay_record
    from .stream import read_part

    return _part(first_line, replay_record(read_part(first_line, data, path), analyse=analyse), listing, len(data))


def _summed(path: str, parts: Iterable[_Part], progress: _Progress | None = None) -> _Outcome:
    """A file's report from the reports of its parts, in order."""
    stderr: list[str] = []
    errors: list[dict[str, object]] = []
    unknowns: list[str] = []
    games = 0
    valid = True
    for part in parts:
        stderr.append(part.stderr)
        errors.extend(part.errors)
        unknowns.extend(part.unknowns)
        games += part.games
        valid = valid and part.valid
        if progress is not None:
            progress.advance(part.size, part.games)
    status = "ok" if valid else f"{len(errors)} problem(s)"
    lines = [f"{path}: {status} ({games} game(s))", *unknowns]
    return _Outcome(path, valid, games, errors, "".join(stderr), "\n".join(lines))


def _validate_whole(path: str, listing: bool, analyse: bool) -> _Outcome:
    """Validate a file read whole: exactly what is reported for syntax and structure errors."""
    return _summed(path, [_part(1, _replay(Path(path), analyse=analyse), listing)])


def _validate_by_game(
    path: str, listing: bool, analyse: bool, pool: Any = None, progress: _Progress | None = None, jobs: int = 1
) -> _Outcome:
    """Validate a file game by game, in the memory of a few games; with a process pool, its games are spread over
    the processes (the report keeps their order). Raises NotStreamable (or OSError) when the file must be read
    whole: every part is read before anything is reported, so nothing is printed twice."""
    from .stream import game_chunks

    with open(path, "rb") as handle:
        tasks = ((path, first, data, listing, analyse) for first, data in game_chunks(handle))
        if pool is None:
            return _summed(path, map(_replay_part, tasks), progress)
        # Parts go to the processes in batches (one message per game would cost more than its replay), a few
        # batches per process in flight to keep every process busy.
        batches = _in_order(pool, _replay_parts, _batched(tasks, _BATCH), 4 * jobs)
        return _summed(path, (part for batch in batches for part in batch), progress)


_BATCH = 32
"""Games sent to a process at once when the games of one file are spread over processes."""


def _batched(items: Iterator[Any], size: int) -> Iterator[list[Any]]:
    import itertools

    while batch := list(itertools.islice(items, size)):
        yield batch


def _replay_parts(tasks: list[tuple[str, int, bytes, bool, bool]]) -> list[_Part]:
    """:func:`_replay_part` of each task, in a worker process."""
    return [_replay_part(task) for task in tasks]


def _in_order(pool: Any, function: Callable[[Any], Any], tasks: Iterator[Any], window: int) -> Iterator[Any]:
    """``pool.imap(function, tasks)`` with at most ``window`` tasks in flight, so that a large file is not read
    into memory ahead of the workers (imap takes its tasks as fast as it can)."""
    from collections import deque

    pending: deque[Any] = deque()
    for task in tasks:
        pending.append(pool.apply_async(function, (task,)))
        if len(pending) >= window:
            yield pending.popleft().get()
    while pending:
        yield pending.popleft().get()


class _Progress:
    """A progress line on stderr for long runs: only on a terminal, and only after a second (short runs print
    nothing); it is erased before the report is printed."""

    def __init__(self, total_bytes: int, stream: Any = None, delay: float = 1.0) -> None:
        import time

        self.stream = stream if stream is not None else sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.total = max(1, total_bytes)
        self.done = self.games = 0
        self.start = time.monotonic()
        self.delay = delay
        self.shown = 0.0
        self.width = 0

    def advance(self, size: int, games: int) -> None:
        """Count ``size`` bytes and ``games`` games more, and redraw at most a few times a second."""
        import time

        self.done += size
        self.games += games
        now = time.monotonic()
        if not self.enabled or now - self.start < self.delay or now - self.shown < 0.2:
            return
        self.shown = now
        rate = self.games / max(now - self.start, 1e-9)
        line = (
            f"validating: {min(100, 100 * self.done / self.total):3.0f}% of {self.total / 1e6:.1f} MB, "
            f"{self.games} game(s), {rate:.0f} games/s"
        )
        self.width = max(self.width, len(line))
        self.stream.write("\r" + line.ljust(self.width))
        self.stream.flush()

    def close(self) -> None:
        """Erase the progress line (when one was drawn)."""
        if self.width:
            self.stream.write("\r" + " " * self.width + "\r")
            self.stream.flush()
            self.width = 0


def cmd_validate(args: argparse.Namespace) -> int:
    from collections import Counter

    files = list(find_records(args.paths))
    if not files:
        raise UsageError(f"no records (*.bzq) found in {' '.join(args.paths)}")
    if args.jobs < 1:
        raise UsageError("--jobs takes a whole number of at least 1")
    tasks = [(str(path), args.unknowns, not args.summary) for path in files]
    progress = _Progress(sum(_size(path) for path in files))
    try:
        if args.jobs > 1:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(args.jobs) as pool:
                if len(files) > 1:  # files over the processes
                    outcomes = []
                    for path, outcome in zip(files, pool.imap(_validate_one, tasks, chunksize=1), strict=True):
                        outcomes.append(outcome)
                        progress.advance(_size(path), outcome.games)
                else:  # the games of one file over the processes
                    outcomes = [_validate_file(*tasks[0], pool=pool, progress=progress, jobs=args.jobs)]
        else:
            outcomes = [_validate_file(*task, progress=progress) for task in tasks]
    finally:
        progress.close()
    invalid = sum(1 for o in outcomes if not o.valid)
    games = sum(o.games for o in outcomes)
    errors = sum(len(o.errors) for o in outcomes)
    if args.summary:
        import json

        codes: Counter[str] = Counter(str(e["code"]) for o in outcomes for e in o.errors)
        report = {
            "files": len(files),
            "valid_files": len(files) - invalid,
            "invalid_files": invalid,
            "games": games,
            "errors": errors,
            "errors_by_code": dict(sorted(codes.items())),
        }
        json.dump(report, sys.stdout, indent=2)
        print()
        return 1 if invalid else 0
    if args.json:
        import json

        summary = [{"path": o.path, "valid": o.valid, "games": o.games, "errors": o.errors} for o in outcomes]
        json.dump({"files": summary, "valid": invalid == 0}, sys.stdout, ensure_ascii=False, indent=2)
        print()
        return 1 if invalid else 0
    for outcome in outcomes:
        sys.stderr.write(outcome.stderr)
        if not args.quiet:
            print(outcome.stdout)
    if not args.quiet:
        print(
            f"{len(files)} file(s), {games} game(s): {len(files) - invalid} valid, {invalid} invalid"
            f"{f', {errors} problem(s)' if errors else ''}"
        )
    return 1 if invalid else 0


def cmd_infer(args: argparse.Namespace) -> int:
    from .completion import completed_text
    from .reader import read_record
    from .replay import replay_record

    source, out = Path(args.file), Path(args.out)
    if not source.is_file():
        raise UsageError(f"no such file: {args.file}")
    if out.exists() and out.resolve() == source.resolve():
        raise UsageError("infer never overwrites its input: choose another --out")
    if out.exists() and not args.force:
        raise UsageError(f"{out} exists; pass --force to overwrite it")
    from .errors import NotationError

    try:
        text = _read(source)
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
        _print_diagnostics(failed, sys.stderr)
        return 1
    result = replay_record(record, analyse=True)
    _print_diagnostics(result, sys.stderr)
    for line in _unknown_lines(result, listing=False):
        print(line)
    if not result.valid:
        print(f"{source}: not completed: the record is invalid", file=sys.stderr)
        return 1
    write_atomic(out, completed_text(record, result))
    print(f"wrote {out}")
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    from .replay import to_json
    from .trace import trace

    path = Path(args.file)
    if not path.is_file():
        raise UsageError(f"no such file: {args.file}")
    result = _replay(path)
    if args.json:
        import json

        json.dump(to_json(result), sys.stdout, ensure_ascii=False, indent=2)
        print()
    else:
        print(trace(result, show_hands=not args.no_hands))
    _print_diagnostics(result, sys.stderr)
    return 0 if result.valid else 1


def cmd_render(args: argparse.Namespace) -> int:
    from .render import parse_languages, render_site

    try:
        langs = parse_languages(args.lang)
    except ValueError as exc:
        raise UsageError(f"--lang: {exc}") from None
    files = list(find_records(args.paths))
    if not files:
        raise UsageError(f"no records (*.bzq) found in {' '.join(args.paths)}")
    results = []
    invalid = 0
    for path in files:
        result = _replay(path)
        _print_diagnostics(result, sys.stderr)
        if result.valid:
            results.append(result)
        else:
            invalid += 1
            print(f"{path}: not rendered: the record is invalid", file=sys.stderr)
    try:
        written = render_site(results, Path(args.out), lang=langs, force=args.force)
    except FileExistsError as exc:
        raise UsageError(str(exc)) from None
    pages = sum(1 for p in written if p.suffix == ".html")
    # The first language is at the top of the folder, each other one in a sub-folder named after it.
    where = ", ".join([f"{langs[0]} in {args.out}", *(f"{code} in {Path(args.out) / code}" for code in langs[1:])])
    print(
        f"wrote {pages} page(s) to {args.out} ({len(results)} record(s) rendered"
        f"{f', {invalid} invalid skipped' if invalid else ''}; {where})"
    )
    return 1 if invalid else 0


def cmd_profiles(args: argparse.Namespace) -> int:
    from .rules import load_rules, profile_names

    for name in profile_names():
        profile = load_rules(name)
        print(f"{name:<16} {profile.description} [{profile.source}]")
    return 0


def cmd_rules(args: argparse.Namespace) -> int:
    from .errors import RuleProfileError
    from .rules import load_rules

    try:
        profile = load_rules(args.profile)
    except RuleProfileError as exc:
        raise UsageError(str(exc)) from None
    print(f"{profile.name}: {profile.title}")
    print(f"  {profile.description}")
    print(f"  source: {profile.source}")
    print(
        f"  {profile.players} players, {profile.packs} packs ({profile.deck_size} cards), {profile.hand_size} "
        f"cards each, {profile.total_tricks} tricks ({profile.phase1_tricks} while the stock lasts)"
    )
    print("\nPlay:")
    for line in _play_lines(profile):
        print(f"  {line}")
    print("\nMelds:")
    for meld in profile.melds:
        more = []
        if meld.repeats:
            more.append(f"declared again: {', '.join(str(p) for p in meld.repeats)}, then doubling")
        if meld.extends:
            more.append(f"adds a card to a {meld.extends.replace('_', ' ')}")
        extra = f"; {'; '.join(more)}" if more else ""
        print(f"  {meld.label:<22} {meld.points:>5}  (class {meld.klass}{extra})")
    if profile.repeat_rule == "multiply":
        print("  (another kind declared again in a hand: n times its value the n-th time)")
    if profile.extra_cards:
        extra_cards = ", ".join(f"{n} × {c}" for c, n in profile.extra_cards)
        print(f"\nCards added to the packs: {extra_cards}")
    print("\nOther scores:")
    if profile.seven_rank.symbol != "7":
        who = "after a won trick" if profile.seven_exchange_when == "won_trick" else "by its holder, between tricks"
        name = f"trump {profile.seven_rank.english} exchanged"
        print(f"  {name:<24} {profile.seven_exchange}  ({who})")
    if profile.seven_turnup:
        print(f"  turn-up seven (dealer)   {profile.seven_turnup}")
    if profile.seven_exchange:
        who = "by its holder, between tricks" if profile.seven_exchange_when == "any_time" else "after a won trick"
        print(f"  seven exchanged          {profile.seven_exchange}  ({who})")
    if profile.seven_second:
        print(f"  other seven shown        {profile.seven_second}  (once the turn-up is a seven)")
    if profile.seven_played:
        phases = " and ".join(str(p) for p in profile.seven_played_phases)
        how = "winning a trick with it" if profile.seven_played_must_win else "played, won or lost"
        print(f"  seven played             {profile.seven_played}  ({how}, phase {phases})")
    if profile.last_trick_points:
        last = profile.options["last_trick"].default if "last_trick" in profile.options else "final"
        which = (
            f"trick {profile.phase1_tricks}" if str(last) == "24" else f"trick {profile.total_tricks}, the final one"
        )
        print(f"  last trick               {profile.last_trick_points}  ({which})")
    if profile.brisque_points:
        ranks = " and ".join(r.english + "s" for r in profile.brisque_ranks)
        print(f"  brisques ({ranks})  {profile.brisque_points} each")
    if profile.card_points:
        table = ", ".join(f"{rank.symbol} {points}" for rank, points in profile.card_points)
        when = "as each trick is won" if profile.card_points_when == "trick" else "at the end of the hand"
        seven = f"; trump seven {profile.card_points_trump_seven}" if profile.card_points_trump_seven else ""
        print(f"  card points in won tricks  {table}{seven} ({when}; other cards 0)")
    if profile.brisques_when == "tie_or_rubicon":
        print("  brisques count only      to break a tie or to escape the rubicon")
    guess, lift, count = profile.cut_bonus
    if count:
        print(f"  cut                      {guess} for the exact guess, {lift} for lifting exactly {count}")
    game = profile.game_scoring
    if game is not None:
        normal = "bonus + the difference" if game.difference else "bonus added to the winner's score"
        low = f", +{game.low_bonus} below {game.low_score}" if game.low_bonus else ""
        print(
            f"  game (one hand)          bonus {game.game_bonus} ({normal}); rubicon below {game.rubicon}: "
            f"both scores + {game.rubicon_bonus}{low}"
        )
    if profile.hand_target:
        rows = "; else ".join(f"{p} if the loser has {low} or more" for low, p in profile.game_points)
        print(f"  hand                     ends when a player reaches {profile.hand_target} ('goes out')")
        print(f"  game points              {rows}")
    if "target" in profile.options and profile.game_points:
        print(f"  game                     {profile.options['target'].default} game points")
    elif "target" in profile.options:
        tie = profile.options["tie_rule"].default if "tie_rule" in profile.options else "higher_total"
        print(f"  game                     {profile.options['target'].default} (both over it: {tie})")
    if profile.penalties:
        print("\nPenalties (`N penalty KIND = POINTS`, deducted from the offender's score):")
        words = {"all": "every point he has in the game", "unscored": "his shown, unscored combinations"}
        for kind, amount in profile.penalties:
            print(f"  {kind:<24} {words.get(str(amount), amount)}")
    print("\nOptions:")
    for opt in profile.options.values():
        values = f" ({' | '.join(opt.values)})" if opt.values else ""
        print(f"  {opt.name} = {opt.default}{values}")
        if opt.doc:
            print(f"      {opt.doc}")
        for value, change in opt.sets.items():
            print(f"      {value}: {_describe_change(profile, change)}")
    return 0


def _describe_change(profile: RuleProfile, change: dict[str, object]) -> str:
    """What an option value changes, for people: a new meld table as the kinds it adds, drops or re-prices."""
    parts = []
    rest = {k: v for k, v in change.items() if k != "melds"}
    melds = change.get("melds")
    if isinstance(melds, list):
        before = {m.kind: m.points for m in profile.melds}
        after = {m["kind"]: m.get("points") for m in melds if isinstance(m, dict) and "kind" in m}
        added = [f"{k} {p}" for k, p in after.items() if k not in before]
        dropped = [k for k in before if k not in after]
        priced = [f"{k} {before[k]} -> {p}" for k, p in after.items() if k in before and before[k] != p]
        for label, items in (("adds", added), ("drops", dropped), ("re-prices", priced)):
            if items:
                parts.append(f"{label} {', '.join(items)}")
        if not parts:
            parts.append("the same meld table")
    if rest:
        import json

        parts.append(f"sets {json.dumps(rest, ensure_ascii=False)}")
    return "; ".join(parts)


_PLAY_WORDS = {
    "non_dealer": "the dealer's opponent",
    "dealer_left": "the player on the dealer's left",
    "dealer_right": "the player on the dealer's right",
    "winner_first": "the winner draws first",
    "leader_first": "the leader draws first",
    "free": "any card",
    "follow_suit": "follow suit if able, else any card",
    "follow_win_trump": "follow suit and win if able, else trump, else any card",
    "follow_trump": "follow suit if able, else trump, else any card",
    "follow": "follow suit if able, else any card",
}


_REUSE_WORDS = {
    "text_with_remarriage": "a new card in each class, no card twice in one kind, except a re-marriage",
    "strict_text": "a new card in each class, no card twice in one kind",
    "new_card_refill": "a new card in each class",
    "higher_other_kind": "a declared card serves again only in another kind worth more",
    "refill": "a new card in each class; a combination broken by a play re-formed with a like card",
    "refill_swap": "as refill, and two marriages of one suit re-paired (the marriage swap)",
}


def _play_lines(profile: RuleProfile) -> list[str]:
    """The play and declaration rules of a profile, one short line each, for ``bezique rules``."""
    until = "before drawing" if profile.declare_until == "draw" else "until his next lead (before or after drawing)"
    phases = " and ".join(str(p) for p in profile.declare_phases)
    lines = [f"seats in playing order: {' '.join(profile.seats)}"]
    if profile.sides:
        lines.append(f"partnerships (joint score): {', '.join(profile.scorers)}")
    lines += [
        f"first lead: {_PLAY_WORDS.get(profile.first_leader, profile.first_leader)}; after each trick "
        f"{_PLAY_WORDS.get(profile.draw_order, profile.draw_order)}",
        f"while the stock lasts: {_PLAY_WORDS.get(profile.phase1_play, profile.phase1_play)}",
        f"last tricks: {_PLAY_WORDS.get(profile.phase2_play, profile.phase2_play)}",
        f"declare: the winner of a trick, {until}, in phase {phases}",
    ]
    if profile.trump_fixing:
        fixing = ", ".join(f"{kind.replace('_', ' ')} {points}" for kind, points in profile.trump_fixing)
        lines.insert(0, f"trumps: none at the deal; the first of these declared fixes them: {fixing}")
    if profile.declare_by == "winner_or_partner":
        lines.append("the winner declares or lets his partner declare (N passes to S)")
    if profile.declare_joint:
        lines.append("a declaration may join the declarer's and his partner's cards (N declares ... with S ...)")
    if profile.last_trick_to == "halves":
        lines.append("the last trick's bonus is shared out evenly between the sides")
    if profile.declare_after_tricks:
        kinds = ", ".join(k.replace("_", " ") for k in profile.declare_wait_kinds) or "every combination"
        lines.append(f"wait: {kinds} only after winning {profile.declare_after_tricks} tricks")
    per_trick = profile.options["declarations_per_trick"].default if "declarations_per_trick" in profile.options else 1
    lines.append(f"declarations scored per won trick: {per_trick}")
    reuse = str(profile.options["reuse"].default) if "reuse" in profile.options else profile.reuse
    lines.append(f"re-use of declared cards: {reuse} ({_REUSE_WORDS.get(reuse, 'see the profile')})")
    for kind, earlier in profile.no_reuse:
        lines.append(f"no {kind.replace('_', ' ')} on cards scored in a {earlier.replace('_', ' ')}")
    if profile.declare_lead_from:
        lines.append("a declarer leads one of the declared cards to the next trick")
    return lines


def cmd_generate(args: argparse.Namespace) -> int:
    from .errors import RuleProfileError
    from .generate import generate_game
    from .rules import load_rules

    try:
        load_rules(args.profile)
    except RuleProfileError as exc:
        raise UsageError(str(exc)) from None
    if args.deals < 1 or args.games < 1:
        raise UsageError("--deals and --games take a whole number of at least 1")
    chosen = {}
    for raw in args.option:
        name, sep, value = raw.partition("=")
        if not sep:
            raise UsageError(f"--option takes NAME=VALUE, not {raw!r}")
        chosen[name.strip()] = value.strip()
    try:
        text = "\n".join(generate_game(args.profile, args.seed + i, args.deals, chosen) for i in range(args.games))
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


def cmd_fmt(args: argparse.Namespace) -> int:
    """Print records in the canonical form, check that they are in it (--check), or rewrite them (--write).

    Exit 1 when a record does not parse (it is left untouched) or, with --check, is not in the canonical form.
    """
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
            text = _decode(data, name)
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


def build_parser() -> argparse.ArgumentParser:
    """The argument parser (exposed for documentation and tests)."""
    import argparse

    parser = argparse.ArgumentParser(
        prog="bezique",
        description="Validate, replay and render bezique game records.",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("validate", help="check records against the rules (exit 1 if any is invalid)")
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders (searched for *.bzq)")
    p.add_argument("--json", action="store_true", help="print the results as JSON on stdout")
    p.add_argument("-q", "--quiet", action="store_true", help="print only the problems")
    p.add_argument("--unknowns", action="store_true", help="list every unknown card: forced, or open with its values")
    p.add_argument("-j", "--jobs", type=int, default=1, help="validate files in N processes (output in the same order)")
    p.add_argument("--summary", choices=["json"], help="print only counts: valid and invalid files, errors by code")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("infer", help="complete a record's unknown cards and write the completed record")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--out", required=True, metavar="NEW", help="where to write the completed record (never FILE)")
    p.add_argument("--force", action="store_true", help="overwrite NEW if it exists")
    p.set_defaults(func=cmd_infer)

    p = sub.add_parser("replay", help="step through a record in the terminal, or as JSON")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="print the replay as JSON")
    p.add_argument("--no-hands", action="store_true", help="leave the hands out of the trace")
    p.set_defaults(func=cmd_replay)

    p = sub.add_parser("render", help="write HTML lessons and an index for valid records")
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
    p.set_defaults(func=cmd_render)

    p = sub.add_parser("generate", help="play random legal deals and write them in the notation")
    p.add_argument("--profile", default="classic")
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
    p.add_argument("--out", metavar="FILE", help="write to FILE instead of stdout")
    p.add_argument("--force", action="store_true", help="overwrite FILE if it exists")
    p.set_defaults(func=cmd_generate)

    p = sub.add_parser("fmt", help="print records in the canonical form, or --check or --write it")
    p.add_argument("paths", nargs="+", metavar="PATH", help="record files or folders (searched for *.bzq); - for stdin")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--check", action="store_true", help="exit 1 when a record is not in the canonical form")
    mode.add_argument("--write", action="store_true", help="rewrite records in place (atomically)")
    p.set_defaults(func=cmd_fmt)

    p = sub.add_parser("profiles", help="list the rule profiles")
    p.set_defaults(func=cmd_profiles)

    p = sub.add_parser("rules", help="print a profile's rules: melds, scores and options")
    p.add_argument("profile", metavar="PROFILE")
    p.set_defaults(func=cmd_rules)
    return parser


_VALIDATE_FLAGS = {"-q": "quiet", "--quiet": "quiet", "--json": "json", "--unknowns": "unknowns"}


def _plain_validate(argv: Sequence[str]) -> SimpleNamespace | None:
    """The arguments of the common ``validate [FLAG...] PATH... [FLAG...]`` (flags: ``-q``, ``--quiet``, ``--json``,
    ``--unknowns``), read as argparse reads them; None for anything else, left to argparse (which also prints
    every help and usage error). Importing argparse and building the parser would take a sixth of a short run."""
    if len(argv) < 2 or argv[0] != "validate":
        return None
    args = SimpleNamespace(
        command="validate", paths=[], json=False, quiet=False, unknowns=False, jobs=1, summary=None, func=cmd_validate
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
