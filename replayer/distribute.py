"""Where the work of ``analyse --all``, ``puzzles``, ``match`` and ``render`` runs: in this process, in ``--jobs``
forked processes, or on a Dask distributed scheduler (``--cluster ADDRESS``, the optional ``cluster`` extra).

Each caller hands over a function of one task and the tasks; the answers come back in the tasks' order, so a
result is the same wherever it was computed (every task carries its own seed). Dask is imported only when an
address is given; without the extra installed, :func:`check_cluster` says so as a usage error (exit status 2).
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .errors import UsageError

__all__ = ["check_cluster", "run_tasks", "usable_cpus"]

T = TypeVar("T")
R = TypeVar("R")

MISSING = (
    "--cluster needs Dask's distributed scheduler, an optional extra: pip install 'bezique-replayer[cluster]' "
    "(or pip install 'dask[distributed]')"
)


def check_cluster(address: str | None) -> None:
    """Raise a :class:`UsageError` when ``address`` is given and Dask's distributed scheduler is not installed."""
    if address is None:
        return
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise UsageError(MISSING) from None


_PENDING: tuple[Callable[[Any], Any], Sequence[Any]] | None = None
"""The function and tasks of the run under way, where the forked processes find them: a task (a core's state, a
lesson's game) reaches them without being pickled, and the function may be a closure."""


def _pending(run: tuple[int, int]) -> list[Any]:
    assert _PENDING is not None
    function, tasks = _PENDING
    return [function(tasks[index]) for index in range(*run)]


def runs(count: int, jobs: int, largest: int) -> list[tuple[int, int]]:
    """The runs of neighbouring tasks (start, end) handed to ``jobs`` processes one at a time: at most ``largest``
    tasks, and shrinking towards the end (each a share of what is left), so that the processes finish together
    rather than one waiting for another's last long run."""
    found: list[tuple[int, int]] = []
    start = 0
    while start < count:
        size = max(1, min(largest, -(-(count - start) // (2 * jobs))))
        found.append((start, start + size))
        start += size
    return found


def run_tasks(
    function: Callable[[T], R],
    tasks: Sequence[T],
    cluster: str | None = None,
    jobs: int = 1,
    chunksize: int = 1,
) -> list[R]:
    """``function`` of every task, in the tasks' order: on the Dask scheduler at ``cluster`` (the tasks are
    pickled to its workers; ``function`` must be importable there), else over ``jobs`` forked processes (where the
    system forks; each is handed runs of at most ``chunksize`` neighbouring tasks at a time, shorter towards the
    end (:func:`runs`), and only the answers are pickled), else here."""
    global _PENDING
    if cluster is not None:
        check_cluster(cluster)
        from distributed import Client

        with Client(cluster) as client:
            futures = client.map(function, list(tasks), pure=False)
            found: list[R] = client.gather(futures)
            return list(found)
    if jobs > 1 and len(tasks) > 1 and "fork" in multiprocessing.get_all_start_methods():
        _PENDING = (function, tasks)
        try:
            with multiprocessing.get_context("fork").Pool(min(jobs, len(tasks))) as pool:
                done = pool.map(_pending, runs(len(tasks), jobs, chunksize), chunksize=1)
                return [answer for run in done for answer in run]
        finally:
            _PENDING = None
    return [function(task) for task in tasks]


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else the machine's count)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(len(affinity(0)), 1)
    return os.cpu_count() or 1
