"""How ``replayer.distribute`` hands tasks to forked processes: every task once, in order, whatever the runs."""

from __future__ import annotations

import multiprocessing

import pytest

from replayer.distribute import run_tasks, runs


@pytest.mark.parametrize(("count", "jobs", "largest"), [(0, 2, 5), (1, 2, 5), (7, 2, 1), (118, 2, 30), (1000, 3, 8)])
def test_runs_cover_every_task_once_in_order_and_shrink(count: int, jobs: int, largest: int) -> None:
    found = runs(count, jobs, largest)
    assert [i for start, end in found for i in range(start, end)] == list(range(count))
    sizes = [end - start for start, end in found]
    assert all(1 <= size <= largest for size in sizes)
    assert sizes == sorted(sizes, reverse=True)  # (long runs first: the processes finish together)
    if count:
        assert sizes[-1] == 1 or sizes[-1] == largest  # (the last run is one task unless every run is capped)


def _square(x: int) -> int:
    return x * x


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="the system does not fork")
def test_forked_answers_come_back_in_the_tasks_order() -> None:
    tasks = list(range(57))
    assert run_tasks(_square, tasks, jobs=2, chunksize=10) == [x * x for x in tasks]
    assert run_tasks(lambda x: -x, tasks, jobs=3) == [-x for x in tasks]  # (a closure: the tasks are not pickled)
