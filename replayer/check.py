"""Checking records: the pipeline from text to a replayed record, and the validation of files.

``text -> record`` (the reader) ``-> completed record`` (the inference, for a deal that leaves cards unknown) ``->
replay`` (the rules core, through :mod:`replayer.replay`). :func:`check_text` and :func:`check_record` run it; the
commands and the lessons use them. :func:`validate_file` validates a file game by game (in the memory of one game),
or reads it whole where the exact report needs that (:func:`read_part` says when), and spreads the games of a
large file over processes; everything a file's validation prints is returned, so that parallel runs print in order.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterable, Iterator
from itertools import pairwise
from pathlib import Path

from .collector import no_cycle_collection
from .errors import Diagnostic, NotationError, Span, UsageError, format_diagnostic
from .profile import RuleProfile
from .record import Deal, Game, Record
from .replay import ReplayResult, replay_record

TYPE_CHECKING = False  # typing.TYPE_CHECKING without importing typing (mypy knows the name)
if TYPE_CHECKING:
    from typing import Any, BinaryIO

    from .completion import Completion
    from .replay import DealResult
    from .rules import GameState

__all__ = [
    "GameCheck",
    "NotStreamable",
    "NotText",
    "Outcome",
    "Progress",
    "check_path",
    "check_record",
    "check_text",
    "check_text_record",
    "decode",
    "game_chunks",
    "game_texts",
    "print_diagnostics",
    "read_part",
    "read_text",
    "recovered_lines",
    "strictly",
    "unknown_lines",
    "unknown_records",
    "validate_file",
    "validate_files",
    "validate_one",
]


class _Inference:
    """The completer of :mod:`replayer.infer`, imported when a deal first leaves cards unknown: a record without
    unknown cards is checked without loading the inference (a cold start pays for none of it)."""

    def __init__(
        self,
        analyse: bool,
        time_limit: float | None = None,
        progress: Callable[[int, int, float], None] | None = None,
        left_out: bool = True,
    ) -> None:
        self.analyse = analyse
        self.time_limit = time_limit
        self.progress = progress
        self.left_out = left_out

    def __call__(self, deal: Deal, profile: RuleProfile, options: dict[str, str | int], dealer: str) -> Completion:
        from .infer import infer_deal

        return infer_deal(
            deal,
            profile,
            options,
            dealer,
            # A deal whose only unknowns are what it leaves out (draws, a hand) is analysed, to tell a draw left out
            # that the rules force (BZ405): no card of it is written unknown, and such a search is short. Not a deal
            # with a line that did not read: what it leaves out follows from that line (already reported), and is
            # completed leniently, so that "forced" says nothing; its analysis took minutes (the fuzz campaign).
            analyse=self.analyse or (self.left_out and not (deal.lossy or deal.repaired)),
            # Leniently too where the deal leaves out only what the rules complete (draws): a rule broken elsewhere
            # in it then gets its own error from the replay, not one BZ601 for the deal that hides it.
            lenient=deal.repaired or not deal.lossy,
            time_limit=self.time_limit,
            progress=self.progress,
        )


def check_record(
    record: Record,
    analyse: bool = False,
    views: bool = True,
    time_limit: float | None = None,
    progress: Callable[[int, int, float], None] | None = None,
    states: bool = False,
    left_out: bool = True,
) -> ReplayResult:
    """Replay a parsed record, completing first the deals that leave cards unknown (with ``analyse``, the inference
    also works out which unknown cards are forced and which stay open); ``views``: keep what a lesson shows of each
    trick; ``time_limit`` and ``progress``: each deal's inference stops after that many seconds, and reports as it
    goes (:func:`replayer.infer.infer_deal`); ``states``: with it, the core's state before each trick (for the
    endgame analysis); ``left_out``: False to leave out the warnings of draws left out that the rules force (BZ405),
    which need the inference to work out the deal's forced cards (a replay made only for its state needs none)."""
    with no_cycle_collection():
        result = replay_record(record, _Inference(analyse, time_limit, progress, left_out), views=views, states=states)
    if left_out:
        _left_out_draws(result, record)
    return result


def _left_out_draws(result: ReplayResult, record: Record) -> None:
    """A warning (BZ405) at each trick whose draws the record leaves out while the rules force them: a record may
    leave draws out on purpose (a lossy transcription), but a forced draw is more often a line forgotten.
    ``bezique validate --strict`` makes it an error."""
    found: list[Diagnostic] = []
    for game in result.games:
        for deal in game.deals:
            inference = deal.inference
            if inference is None or inference.deal is None or not inference.analysed:
                continue
            by_trick: dict[int, list[Any]] = {}
            for unknown in inference.unknowns:
                if unknown.role == "draw" and not unknown.recorded and unknown.trick is not None:
                    by_trick.setdefault(unknown.trick, []).append(unknown)
            winners = {trick.number: trick.winner for trick in inference.deal.tricks}
            for number, unknowns in by_trick.items():
                if not all(inference.status(u)[0] == "forced" for u in unknowns):
                    continue
                unknowns.sort(key=lambda u: u.seat != winners.get(number))  # (the winner draws first)
                draws = ", ".join(f"{u.seat} {inference.values[u.tag]}" for u in unknowns)
                message = (
                    f"the draws after trick {number} are left out, and the rules force them: draws {draws} "
                    "(write them, or validate --strict makes this an error)"
                )
                found.append(Diagnostic("BZ405", message, unknowns[0].span, record.path, "warning"))
    if found:
        result.diagnostics.extend(found)
        result.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span is not None else (0, 0))


def strictly(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """``--strict``: every warning an error (a draw left out that the rules force, a question that leaves out the
    card played)."""
    return [Diagnostic(d.code, d.message, d.span, d.path) if d.severity == "warning" else d for d in diagnostics]


def check_text(
    text: str, path: str = "<record>", analyse: bool = False, views: bool = True, states: bool = False
) -> ReplayResult:
    """Read and replay a record's text; its syntax errors are diagnostics too."""
    return check_text_record(text, path, analyse, views, states)[1]


def check_text_record(
    text: str,
    path: str = "<record>",
    analyse: bool = False,
    views: bool = True,
    states: bool = False,
    left_out: bool = True,
    time_limit: float | None = None,
) -> tuple[Record | None, ReplayResult]:
    """:func:`check_text`, with the record as read (None when the text could not be read); ``left_out`` and
    ``time_limit`` (of each deal's inference): see :func:`check_record`."""
    from .reader import REPLAYABLE, read_record_recovering

    try:
        record, diagnostics, recovered = read_record_recovering(text, path)
    except NotationError as exc:
        result = ReplayResult(path, text)
        result.diagnostics.extend(exc.diagnostics)
        return None, result
    if not recovered and not diagnostics:
        return record, check_record(record, analyse, views, time_limit, states=states, left_out=left_out)
    # A text with syntax errors, an unknown tag, a comment left open or a missing trick: every one reported, and
    # the record read on past them and replayed, so that the problems after them are reported in the same run.
    # Other structure errors stop the replay: they are reported as read; when lines were read otherwise, only the
    # reader's own problems are (a structure error may follow from a line read otherwise).
    if any(d.code not in REPLAYABLE for d in diagnostics):
        failed = ReplayResult(path, text)
        failed.diagnostics.extend(d for d in diagnostics if not recovered or d.code in REPLAYABLE)
        failed.recovered = recovered
        return record, failed
    result = check_record(record, analyse, views, time_limit, states=states, left_out=left_out)
    result.text = text
    result.recovered = recovered
    result.diagnostics[:0] = diagnostics
    result.diagnostics.sort(key=lambda d: (d.span.line, d.span.column) if d.span is not None else (0, 0))
    return record, result


class NotText(Exception):
    """A record file that is not UTF-8 text: invalid input (exit 1), reported at the first undecodable byte."""

    def __init__(self, diagnostic: Diagnostic, text: str) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic = diagnostic
        self.text = text


def decode(data: bytes, name: str) -> str:
    """UTF-8 text, or NotText naming the line and column of the first byte that is not UTF-8."""
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


def read_text(path: Path) -> str:
    """A record file's text (``\\r\\n`` read as ``\\n``); raises NotText, or UsageError when it cannot be read."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UsageError(f"{path}: {exc.strerror}") from None
    return decode(data, str(path)).replace("\r\n", "\n")


def check_path(path: Path, analyse: bool = False, views: bool = True, states: bool = False) -> ReplayResult:
    """Read and replay a record file; a file that is not UTF-8 is reported as such (``states``: see
    :func:`check_record`)."""
    try:
        text = read_text(path)
    except NotText as exc:
        result = ReplayResult(str(path), exc.text)
        result.diagnostics.append(exc.diagnostic)
        return result
    return check_text(text, str(path), analyse, views, states)


def unknown_lines(result: ReplayResult, listing: bool) -> list[str]:
    """What the inference found for each deal that left cards unknown."""
    lines = []
    for game in result.games:
        for deal in game.deals:
            inference = deal.inference
            if inference is None or not inference.unknowns:
                continue
            forced, still_open = inference.forced(), inference.open()
            dealt = sum(1 for u in inference.unknowns if u.role == "hand")
            certain = sum(sum(h["certain"].values()) for h in inference.hands.values())
            # The counts add up to the unknowns: played, drawn and declared cards forced or open (or undecided,
            # where the analysis ran out of budget), and the cards dealt to a hand the record leaves out.
            undecided = len(inference.unknowns) - len(forced) - len(still_open) - dealt
            counts = [f"{len(forced)} forced", f"{len(still_open)} open"]
            if undecided:
                counts.append(f"{undecided} undecided")
            if dealt:
                counts.append(f"{dealt} dealt ({certain} of them certain)")
            lines.append(
                f"  deal {deal.number}: {len(inference.unknowns)} unknown card(s) completed in "
                f"{inference.seconds:.2f} s: {', '.join(counts)}"
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


_HOW = {
    "unknown card": "the word that is not a card read as an unknown card",
    "comma": "a missing comma supplied",
    "word left out": "the unexpected word left out",
    "unknown trick": "the trick read with every card unknown",
    "skipped": "skipped",
}


def unknown_records(result: ReplayResult) -> list[dict[str, object]]:
    """Every unknown card of a replay, for ``validate --json --unknowns``: its game and deal, its place (line and
    column; None for a card dealt to a hand the record leaves out), what it is, its status (``forced``, ``open``,
    ``dealt``, or ``chosen`` where the analysis did not settle it) and its possible values."""
    records: list[dict[str, object]] = []
    for number, game in enumerate(result.games, 1):
        for deal in game.deals:
            inference = deal.inference
            if inference is None:
                continue
            for unknown in inference.unknowns:
                possible = sorted(inference.possible.get(unknown.tag, ()), key=lambda c: c.sort_key)
                if unknown.role == "hand":
                    status = "dealt"
                    hand = inference.hands.get(unknown.seat)
                    possible = sorted(hand["certain"], key=lambda c: c.sort_key) if hand is not None else []
                else:
                    status = inference.status(unknown)[0]
                span = unknown.span
                records.append(
                    {
                        "game": number,
                        "deal": deal.number,
                        "line": span.line if span is not None and status != "dealt" else None,
                        "column": span.column if span is not None and status != "dealt" else None,
                        "where": unknown.where,
                        "seat": unknown.seat,
                        "status": status,
                        "values": [str(c) for c in possible],
                    }
                )
    return records


def recovered_lines(result: ReplayResult) -> list[str]:
    """How a record with syntax errors was read on past each line that does not read (what ``validate`` says under
    a file's status line): nothing that follows only from such a line is reported."""
    if not result.recovered:
        return []
    how = "; ".join(f"line {r.line}: {_HOW.get(r.how, r.how)}" for r in result.recovered)
    if result.games:
        after = "the rest was replayed, and nothing that follows only from these lines is reported"
    else:
        after = "the record read on has structure errors, so it was not replayed"
    return [f"  read on past {len(result.recovered)} line(s) that do not read ({how}); {after}"]


def print_diagnostics(result: ReplayResult, stream: Any) -> None:
    """Every diagnostic of a replay, with its source line and caret."""
    for diag in result.diagnostics:
        print(format_diagnostic(diag, result.text), file=stream)


class Outcome:
    """One file's validation, with everything to print (so that parallel runs print in the files' order)."""

    # A plain class rather than a dataclass: creating a dataclass costs a command's start a third of a millisecond.
    __slots__ = ("errors", "games", "path", "stderr", "stdout", "unknowns", "valid")

    def __init__(
        self,
        path: str,
        valid: bool,
        games: int,
        errors: list[dict[str, object]],
        stderr: str,
        stdout: str,
        unknowns: list[dict[str, object]] | None = None,
    ) -> None:
        self.path = path
        self.valid = valid
        self.games = games
        self.errors = errors
        self.stderr = stderr
        self.stdout = stdout
        self.unknowns = unknowns if unknowns is not None else []
        """Every unknown card (:func:`unknown_records`), when the validation lists them."""

    def _fields(self) -> tuple[object, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __eq__(self, other: object) -> bool:
        return type(other) is Outcome and self._fields() == other._fields()

    def __repr__(self) -> str:
        return f"Outcome({', '.join(f'{name}={getattr(self, name)!r}' for name in self.__slots__)})"


def validate_files(
    paths: list[str], jobs: int = 1, listing: bool = False, analyse: bool = True, strict: bool = False
) -> list[Outcome]:
    """Validate record files, in ``jobs`` processes (the files over them, or the games of a single file), with a
    progress line on a terminal; the outcomes in the files' order. ``listing``: list every unknown card; ``analyse``:
    work out which unknown cards are forced; ``strict``: warnings are errors."""
    tasks = [(path, listing, analyse, strict) for path in paths]
    progress = Progress(sum(_size(Path(path)) for path in paths))
    try:
        if jobs > 1:
            import multiprocessing

            with multiprocessing.get_context("spawn").Pool(jobs) as pool:
                if len(paths) > 1:  # files over the processes
                    outcomes = []
                    for path, outcome in zip(paths, pool.imap(validate_one, tasks, chunksize=1), strict=True):
                        outcomes.append(outcome)
                        progress.advance(_size(Path(path)), outcome.games)
                    return outcomes
                # the games of one file over the processes
                return [validate_file(paths[0], listing, analyse, pool, progress, jobs, strict)]
        return [validate_file(path, listing, analyse, progress=progress, strict=strict) for path in paths]
    finally:
        progress.close()


def validate_one(task: tuple[str, bool, bool] | tuple[str, bool, bool, bool]) -> Outcome:
    """Validate one file (path, listing, analyse, and strict when given); everything to print is returned, so that
    parallel runs print in the files' order."""
    path, listing, analyse, *rest = task
    return validate_file(path, listing, analyse, strict=bool(rest and rest[0]))


def validate_file(
    path: str,
    listing: bool,
    analyse: bool,
    pool: Any = None,
    progress: Progress | None = None,
    jobs: int = 1,
    strict: bool = False,
) -> Outcome:
    """Validate a file game by game, or read whole where that path is needed (:func:`read_part` says when);
    with a pool of ``jobs`` processes, its games are spread over them. ``strict``: warnings are errors."""

    try:
        return _validate_by_game(path, listing, analyse, pool, progress, jobs, strict)
    except (OSError, NotStreamable):
        return _validate_whole(path, listing, analyse, strict)


class _Part:
    """What one part of a file (a game, usually) adds to the file's report; ``size``: the bytes of the file read
    for this part (for the progress bar)."""

    __slots__ = ("errors", "games", "listed", "size", "stderr", "unknowns", "valid")

    def __init__(
        self,
        stderr: str,
        errors: list[dict[str, object]],
        unknowns: list[str],
        games: int,
        valid: bool,
        size: int = 0,
        listed: list[dict[str, object]] | None = None,
    ) -> None:
        self.stderr = stderr
        self.errors = errors
        self.unknowns = unknowns
        self.listed = listed if listed is not None else []
        self.games = games
        self.valid = valid
        self.size = size


def _part(first_line: int, result: ReplayResult, listing: bool, size: int = 0, strict: bool = False) -> _Part:
    """The report of one replayed part of a file that starts at line ``first_line`` (``strict``: warnings are
    errors)."""
    if strict:
        result.diagnostics[:] = strictly(result.diagnostics)
    stderr = "".join(format_diagnostic(diag, result.text, first_line) + "\n" for diag in result.diagnostics)
    errors = [d.to_json() for d in result.diagnostics]
    notes = recovered_lines(result) + unknown_lines(result, listing)
    listed = unknown_records(result) if listing else []
    return _Part(stderr, errors, notes, len(result.games), result.valid, size, listed)


def _replay_part(task: tuple[str, int, bytes, bool, bool, bool]) -> _Part:
    """Read and replay one part of a file (in a worker process when games are spread over processes)."""

    path, first_line, data, listing, analyse, strict = task
    # (the collector, paused for the game, runs once after it instead of every 700 allocations: a tenth of the time)
    with no_cycle_collection():
        result = check_record(read_part(first_line, data, path, deal_by_deal=True), analyse, views=False)
        return _part(first_line, result, listing, len(data), strict)


def _summed(path: str, parts: Iterable[_Part], progress: Progress | None = None) -> Outcome:
    """A file's report from the reports of its parts, in order."""
    stderr: list[str] = []
    errors: list[dict[str, object]] = []
    unknowns: list[str] = []
    listed: list[dict[str, object]] = []
    games = 0
    valid = True
    for part in parts:
        stderr.append(part.stderr)
        errors.extend(part.errors)
        unknowns.extend(part.unknowns)
        listed.extend(part.listed)
        games += part.games
        valid = valid and part.valid
        if progress is not None:
            progress.advance(part.size, part.games)
    warnings = sum(1 for e in errors if e["severity"] == "warning")
    status = "ok" if valid else f"{len(errors) - warnings} problem(s)"
    noted = f", {warnings} warning(s)" if warnings else ""
    lines = [f"{path}: {status} ({games} game(s){noted})", *unknowns]
    return Outcome(path, valid, games, errors, "".join(stderr), "\n".join(lines), listed)


def _validate_whole(path: str, listing: bool, analyse: bool, strict: bool = False) -> Outcome:
    """Validate a file read whole: exactly what is reported for syntax and structure errors."""
    return _summed(path, [_part(1, check_path(Path(path), analyse, views=False), listing, strict=strict)])


def _validate_by_game(
    path: str, listing: bool, analyse: bool, pool: Any = None, progress: Any = None, jobs: int = 1, strict: bool = False
) -> Outcome:
    """Validate a file game by game, in the memory of a few games; with a process pool, its games are spread over
    the processes (the report keeps their order). Raises NotStreamable (or OSError) when the file must be read
    whole: every part is read before anything is reported, so nothing is printed twice."""

    with open(path, "rb") as handle:
        tasks = ((path, first, data, listing, analyse, strict) for first, data in game_chunks(handle))
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


def _replay_parts(tasks: list[tuple[str, int, bytes, bool, bool, bool]]) -> list[_Part]:
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


class Progress:
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


# --- a file game by game ---------------------------------------------------------------------------------------

# A game statement starts a part; "game score N 1, S 0" (a game's score after its deals) belongs to its game.
_GAME_LINE = re.compile(rb"^[ \t\f]*game(?![\w])(?![ \t\f]*score(?![\w]))", re.IGNORECASE | re.MULTILINE)
# What str.splitlines() breaks at besides "\n": the whole-file path numbers lines with it when it prints a
# diagnostic's source line, so a part holding one of these is left to that path.
_OTHER_BREAKS = "\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"
_BLOCK = 1 << 20
"""Bytes read from a file at a time while it is split into games (memory stays that of a block and a game)."""


class NotStreamable(Exception):
    """The file needs the whole-file path: bytes that are not UTF-8, a byte-order mark, line breaks other than
    ``\\n`` and ``\\r\\n``, or a part that does not read on its own (the whole file reports it exactly)."""


def _open_at(data: bytes, start: int, end: int, open_: bool) -> bool:
    """Whether a comment (or question) is open at ``end``, given whether one was at ``start``: a ``{`` opens one
    and the next ``}`` closes it, so after the last ``}`` of a stretch one is open only if a ``{`` follows."""
    if open_:
        close = data.find(b"}", start, end)
        if close < 0:
            return True
        start = close + 1
    return data.rfind(b"{", start, end) > data.rfind(b"}", start, end)


def game_chunks(handle: BinaryIO) -> Iterator[tuple[int, bytes]]:
    """The file's bytes in parts that each start at a ``game`` statement (the first part: at the file's start),
    with the line number of each part's first line. A ``game`` inside a comment that spans lines starts nothing.

    The file is read a block at a time and searched for game lines whole, not line by line."""
    buffer = b""
    start = 0  # where the part being read starts in the buffer
    first = 1  # the line number of that start
    scanned = 0  # the buffer is searched up to here
    open_ = False  # whether a comment is open at ``scanned``
    games = 0  # the comments before the first game are read with it (a part of comments only is not a record)
    while True:
        block = handle.read(_BLOCK)
        buffer += block
        end = len(buffer) if not block else buffer.rfind(b"\n") + 1  # (whole lines only, but at the end)
        for match in _GAME_LINE.finditer(buffer, scanned, end):
            at = match.start()
            open_, scanned = _open_at(buffer, scanned, at, open_), at
            if open_:
                continue
            games += 1
            if at > start and games > 1:
                yield first, buffer[start:at]
                first += buffer.count(b"\n", start, at)
                start = at
        if end > scanned:
            open_, scanned = _open_at(buffer, scanned, end, open_), end
        if not block:
            yield first, buffer[start:]
            return
        buffer, scanned = buffer[start:], scanned - start
        start = 0


def read_part(first: int, data: bytes, path: str, deal_by_deal: bool = False) -> Record:
    """One part of a file as a record, its positions the file's (``first``: the line number of its first line).

    ``deal_by_deal``: a game of many deals (:data:`_DEAL_BY_DEAL` or more) is read a deal at a time, as the replay
    asks for its deals (:class:`_Deals`), so that the memory of a validation stays that of a deal, not of the game.
    Raises :class:`NotStreamable` when the whole-file path must read the file (while the replay asks for the deals,
    too: nothing has been reported then).
    """
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotStreamable(path) from None
    if "\r" in text:
        text = text.replace("\r\n", "\n")
    if first == 1 and text.startswith("\ufeff"):
        raise NotStreamable(path)
    # (a search for each character is many times faster than one for a class of them: each is a scan in C)
    for char in _OTHER_BREAKS:
        if char in text:
            raise NotStreamable(path)
    from .reader import read_record

    try:
        lowered = text.lower() if deal_by_deal else ""
        # (each deal statement holds one of the words: fewer of them than a long game has, and none is looked for)
        if deal_by_deal and lowered.count("deal") + lowered.count("сдача") >= _DEAL_BY_DEAL:
            starts = _deal_starts(text)
            if len(starts) >= _DEAL_BY_DEAL:
                record = read_record(text[: starts[0]], path, first, whole=False)
                if len(record.games) == 1 and not record.games[0].deals:
                    record.text = text
                    game = record.games[0]
                    game.deals = _Deals(game, path, text, first, starts)
                    return record
        return read_record(text, path, first)
    except NotationError:
        raise NotStreamable(path) from None


_DEAL_BY_DEAL = 16
"""The deals from which a game is read a deal at a time while it is validated (:func:`read_part`)."""
_DEAL_LINE = re.compile(r"^[ \t\f]*(?:deal|сдача)(?![\w])", re.IGNORECASE | re.MULTILINE)


# _DEAL_LINE found from the line break before it, as _GAME_TEXT below (a keystroke in a long game splits it).
_DEAL_TEXT = re.compile("\n" + _DEAL_LINE.pattern[1:], re.IGNORECASE)


def _deal_starts(text: str) -> list[int]:
    """Where the ``deal`` statements of a game's text start (those inside a comment or a question left out)."""
    starts = [at + 1 for at in _starts(_DEAL_TEXT, text)]
    if _DEAL_LINE.match(text):
        starts.insert(0, 0)
    return starts


# _GAME_LINE on text, found from the line break before it (a literal the search skips to: ten times faster than
# "^" tried at every position); a game statement on the text's first line is matched on its own.
_GAME_TEXT = re.compile("\n" + _GAME_LINE.pattern.decode("ascii")[1:], re.IGNORECASE)
_FIRST_GAME = re.compile(_GAME_LINE.pattern.decode("ascii")[1:], re.IGNORECASE)


def game_texts(text: str) -> list[tuple[int, str]]:
    """A text's parts as :func:`game_chunks` splits a file's bytes (each from a ``game`` statement outside a
    comment, the first from the text's start), from the text itself: (the line number of each part's first line,
    its text)."""
    starts = [at + 1 for at in _starts(_GAME_TEXT, text)]
    if _FIRST_GAME.match(text):
        starts.insert(0, 0)
    cuts = [0, *starts[1:]]
    parts = []
    line = 1
    for index, start in enumerate(cuts):
        end = cuts[index + 1] if index + 1 < len(cuts) else len(text)
        parts.append((line, text[start:end]))
        line += text.count("\n", start, end)
    return parts


def _starts(pattern: re.Pattern[str], text: str) -> list[int]:
    """Where the matches of a statement's pattern start, those inside a comment or a question left out."""
    starts = []
    scanned, open_ = 0, False
    for match in pattern.finditer(text):
        at = match.start()
        if open_:  # (the comment open at ``scanned`` ends at its "}")
            close = text.find("}", scanned, at)
            if close < 0:
                scanned = at
                continue
            scanned = close + 1
        open_ = text.rfind("{", scanned, at) > text.rfind("}", scanned, at)
        scanned = at
        if not open_:
            starts.append(at)
    return starts


class _Deals(list):  # type: ignore[type-arg]
    """A game's deals, read from its text one at a time as the replay goes through them (and let go after it): the
    memory of a game of 10,000 deals is that of one deal. Each deal is read as a record of its own (a game with
    that one deal), its positions the file's; what a deal's statements say of the game (its winner, a header out of
    place) goes to the game. A deal that does not read as it would in the whole game raises NotStreamable: the file
    is then validated whole."""

    def __init__(self, game: Game, path: str, text: str, first: int, starts: list[int]) -> None:
        super().__init__()
        self.game = game
        self.path = path
        self.text = text
        self.first = first
        self.starts = starts

    def __iter__(self) -> Iterator[Deal]:
        from .reader import read_record

        text, starts = self.text, self.starts
        line = self.first + text.count("\n", 0, starts[0])
        for index, start in enumerate(starts):
            end = starts[index + 1] if index + 1 < len(starts) else len(text)
            try:
                part = read_record(text[start:end], self.path, line)
            except NotationError:
                raise NotStreamable(self.path) from None
            line += text.count("\n", start, end)
            (game,) = part.games  # (a "game" statement starts another part of the file: none is here)
            if game.headers or game.players or game.options or game.target is not None or len(game.deals) != 1:
                raise NotStreamable(self.path)  # (a header after a deal: the whole game reports it)
            if game.winner is not None:
                self.game.winner, self.game.winner_span = game.winner, game.winner_span
            yield game.deals[0]

    def __len__(self) -> int:
        return len(self.starts)

    def __bool__(self) -> bool:
        return bool(self.starts)


# --- a game validated again after an edit, from the first deal it changed -----------------------------------------

# What the stream path leaves to the whole text's reader: a byte-order mark, line breaks other than "\n" and "\r\n"
# (the reader counts lines at "\n" only, and such a text is rare enough to be read whole).
_NOT_STREAMED = re.compile("[\ufeff\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LONE_CR = re.compile("\r(?!\n)")
_COMMENT = re.compile(r"\{[^}]*\}")


class _DealRead:
    """What one deal's text, read on its own (:meth:`GameCheck.read`), says of its game: a winner line, the comments
    after it. (Not the deal itself: a deal read holds its text's matches, and is read again when it is replayed.)"""

    __slots__ = ("comments", "winner", "winner_span")

    def __init__(self, game: Game) -> None:
        self.winner = game.winner
        self.winner_span = game.winner_span
        self.comments = game.comments


class _ReadAgain(list):  # type: ignore[type-arg]
    """The deals of a game from a given one on, read as the replay asks for them (those read already are not)."""

    def __init__(self, check: GameCheck, chunks: list[tuple[int, str]], read: dict[tuple[int, str], Deal]) -> None:
        super().__init__()
        self.check = check
        self.chunks = chunks
        self.read = read

    def __iter__(self) -> Iterator[Deal]:
        for key in self.chunks:
            deal = self.read.pop(key, None)
            yield deal if deal is not None else self.check.read(*key)[0]

    def __len__(self) -> int:
        return len(self.chunks)


def _reads_alone(text: str) -> bool:
    """Whether a part of a game's text reads alone as within the game: no comment that spans lines with a ``{`` in
    it (the whole text's reader reports it as a comment left open, BZ004)."""
    return not any("\n" in found[0] and "{" in found[0][1:-1] for found in _COMMENT.finditer(text))


class GameCheck:
    """One game's text validated as :func:`check_text_record` validates it (the same diagnostics and, with
    ``views``, the same replay), deal by deal, with a checkpoint at the start of each deal: the game's state then
    (:class:`~replayer.rules.GameState`), and the deal's result and diagnostics.

    ``previous``: the validation of the text before an edit. The deals before the first one whose text (or first
    line) changed are not read or replayed again: their results and diagnostics are the previous ones, and the
    replay resumes from the checkpoint of that deal (a deal depends on the earlier ones only through the game's
    state). A later deal whose text and line did not change either, reached in the same state as before, ends the
    replay there: from it on, the previous results. A deal's text is read on its own, once while its text and line
    stay the same. A text that the stream does not read exactly as the whole text's reader does (a syntax or
    structure error, a comment that runs over deals, a game of one deal) is validated whole."""

    def __init__(
        self, text: str, path: str = "<record>", views: bool = False, previous: GameCheck | None = None
    ) -> None:
        self.text = text
        self.path = path
        self.views = views
        self.header = ""
        """The text before the first deal (empty when the game was validated whole)."""
        self.chunks: list[tuple[int, str]] = []
        """Each deal's first line (in the game's text) and text."""
        self.reads: dict[tuple[int, str], _DealRead] = {}
        """Each deal's text read on its own, by its first line and text (kept for the next edit)."""
        self.states: list[GameState] = []
        """The game's state at the start of each deal the replay reached."""
        self.results: list[DealResult] = []
        self.reported: list[list[Diagnostic]] = []
        """The diagnostics of each deal the replay reached."""
        self.final: GameState | None = None
        """The game's state after its last deal, when the replay went through every deal."""
        self.resumed = 0
        """The deal the replay resumed from (0: the first)."""
        self.replayed = 0
        """The deals replayed (the others' results were the previous ones)."""
        self.record: Record | None
        self.result: ReplayResult
        try:
            self.record, self.result = self._streamed(previous)
        except NotStreamable:
            self.header, self.states, self.results, self.reported, self.final = "", [], [], [], None
            self.resumed, self.replayed = 0, len(self.chunks)
            self.record, self.result = check_text_record(text, path, analyse=False, views=views)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        """What ``bezique validate`` reports for the game's text."""
        return self.result.diagnostics

    def read(self, line: int, text: str) -> tuple[Deal, _DealRead]:
        """A deal's text read on its own (its first line: ``line``), and what it says of the game; or
        NotStreamable."""
        from .reader import read_record

        if not _reads_alone(text):
            raise NotStreamable(self.path)
        try:
            part = read_record(text, self.path, line)
        except NotationError:
            raise NotStreamable(self.path) from None
        if len(part.games) != 1:
            raise NotStreamable(self.path)  # (a "game" line inside the deal's text: the whole text reports it)
        (game,) = part.games  # (a deal's text starts at its "deal" line: one game, made for it)
        if game.headers or game.players or game.options or game.target is not None or len(game.deals) != 1:
            raise NotStreamable(self.path)  # (a header after a deal: the whole text reports it)
        return game.deals[0], _DealRead(game)

    def _streamed(self, previous: GameCheck | None) -> tuple[Record, ReplayResult]:
        from .reader import read_record
        from .replay import replay_game

        text, path = self.text, self.path
        streamed = not _NOT_STREAMED.search(text) and not ("\r" in text and _LONE_CR.search(text))
        starts = _deal_starts(text) if streamed else []
        if len(starts) < 2:
            raise NotStreamable(path)
        header = text[: starts[0]]
        line = 1 + header.count("\n")
        for index, start in enumerate(starts):
            chunk = text[start : starts[index + 1] if index + 1 < len(starts) else len(text)]
            self.chunks.append((line, chunk))
            line += chunk.count("\n")
        chunks = self.chunks
        known = previous.reads if previous is not None else {}
        reads = self.reads
        fresh: dict[tuple[int, str], Deal] = {}
        for key in chunks:
            found = known.get(key)
            if found is None:
                fresh[key], found = self.read(*key)
            reads[key] = found
        if not _reads_alone(header):
            raise NotStreamable(path)
        try:
            record = read_record(header, path, whole=False)
        except NotationError:
            raise NotStreamable(path) from None
        if len(record.games) != 1 or record.games[0].deals:
            raise NotStreamable(path)
        record.text = text
        game = record.games[0]
        for key in chunks:
            read = reads[key]
            if read.winner is not None:
                game.winner, game.winner_span = read.winner, read.winner_span
            game.comments.extend(read.comments)

        old = previous if previous is not None and previous.header == header and previous.views == self.views else None
        first = 0
        ahead = len(chunks)  # from this deal on, the deals and their lines are the previous ones
        if old is not None:
            before = old.chunks
            while first < min(len(chunks), len(before)) and chunks[first] == before[first]:
                first += 1
            first = min(first, len(old.results))
            if old.final is not None and len(before) == len(chunks):
                while ahead > first and chunks[ahead - 1] == before[ahead - 1]:
                    ahead -= 1
        self.header = header
        self.resumed = first
        game.deals = deals = _ReadAgain(self, chunks[first:], fresh)  # (the deals before are the previous ones)
        states = self.states = old.states[:first] if old is not None else []
        marks: list[int] = []
        forwarded = -1
        ended: list[GameState] = []

        def checkpoint(index: int, state: GameState, reported: int) -> tuple[list[DealResult], GameState] | None:
            nonlocal forwarded
            marks.append(reported)
            if index == len(chunks):
                ended.append(state)
                return None
            states.append(state.copy())
            if old is not None and index >= ahead and _same_state(state, old.states[index]):
                assert old.final is not None
                forwarded = index
                return old.results[index:], old.final
            return None

        result = replay_game(
            record,
            _Inference(False),
            views=self.views,
            first=first,
            play=_resumed(old, first),
            earlier=old.results[:first] if old is not None else (),
            checkpoint=checkpoint,
        )
        result.text = text
        deals.read = {}  # (a deal not replayed is not kept)
        replayed = result.diagnostics
        if not marks:  # (the game's headers stop it: no deal is replayed)
            self.replayed = 0
            return record, result
        reported = self.reported = old.reported[:first] if old is not None else []
        reported.extend(replayed[start:end] for start, end in pairwise(marks))
        tail = replayed[marks[-1] :]
        self.replayed = len(marks) - 1
        if forwarded >= 0:
            assert old is not None
            states.extend(old.states[forwarded + 1 :])
            reported.extend(old.reported[forwarded:])
            self.final = old.final
        elif ended:
            self.final = ended[0].copy()
        else:  # (a deal that cannot be replayed stops the game's replay: its diagnostics, and no end of the game)
            reported.append(tail)
            tail = []
            self.replayed += 1
        self.results = result.games[0].deals
        result.diagnostics = [*replayed[: marks[0]], *(d for deal in reported for d in deal), *tail]
        _left_out_draws(result, record)
        return record, result


def _resumed(old: GameCheck | None, first: int) -> GameState | None:
    """The game's state at the start of deal ``first`` as the previous validation left it (a copy), None at the
    game's start."""
    if old is None or first == 0:
        return None
    state = old.states[first] if first < len(old.states) else old.final
    assert state is not None  # (``first`` is at most the number of deals it replayed)
    return state.copy()


def _same_state(one: GameState, other: GameState) -> bool:
    """Whether two states of a game are the same (the rules aside, which the game's headers set)."""
    return all(getattr(one, name) == getattr(other, name) for name in one.__slots__ if name != "rules")
