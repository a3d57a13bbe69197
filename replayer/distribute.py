"""Where the work of ``analyse --all``, ``puzzles``, ``match`` and ``render`` runs: in this process, in ``--jobs``
forked processes, or on a Dask distributed scheduler (``--cluster ADDRESS``, the optional ``cluster`` extra).

Each caller hands over a function of one task and the tasks; the answers come back in the tasks' order, so a
result is the same wherever it was computed (every task carries its own seed). Dask is imported only when an
address is given; without the extra installed, :func:`check_cluster` says so as a usage error (exit status 2).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import TypeVar

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


def run_tasks(
    function: Callable[[T], R],
    tasks: Sequence[T],
    cluster: str | None = None,
    jobs: int = 1,
    forked: Callable[[int], R] | None = None,
    chunksize: int = 1,
) -> list[R]:
    """``function`` of every task, in the tasks' order: on the Dask scheduler at ``cluster`` (the tasks are
    pickled to its workers; ``function`` must be importable there), else over ``jobs`` forked processes, else
    here. ``forked``, when given, is what the forked processes run instead, by the task's index: a caller that has
    put the tasks where the fork copies them (module state) need not pickle them."""
    if cluster is not None:
        check_cluster(cluster)
        from distributed import Client

        with Client(cluster) as client:
            futures = client.map(function, list(tasks), pure=False)
            found: list[R] = client.gather(futures)
            return list(found)
    if jobs > 1 and len(tasks) > 1:
        import multiprocessing

        with multiprocessing.get_context("fork").Pool(jobs) as pool:
            if forked is not None:
                return pool.map(forked, range(len(tasks)), chunksize=chunksize)
            return pool.map(function, tasks, chunksize=chunksize)
    return [function(task) for task in tasks]


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the system says, else the machine's count)."""
    affinity = getattr(os, "sched_getaffinity", None)
    if affinity is not None:
        return max(len(affinity(0)), 1)
    return os.cpu_count() or 1
