"""Games on a Dask cluster (a local in-process one here) are the games of one process for the same
seed, whatever the number of workers (the ``cluster`` extra; skipped without dask.distributed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from grimdice.systems.onepage.game.batch import run_games
from tests.onepage_game.test_game_history import small_job

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow  # starts Dask clusters

GAMES, SEED = 4, 21  # game 3 after games 0-2 in one worker, in other company on two


@contextmanager
def local_cluster(workers: int) -> Iterator[str]:
    with distributed.LocalCluster(
        n_workers=workers, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        yield cluster.scheduler_address


@pytest.fixture(scope="module")
def one_worker() -> Iterator[str]:
    with local_cluster(1) as address:
        yield address


def outcomes(logs: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    return [(g["seed"], g["actions"], g["scores"], g["winner"]) for g in logs]


def test_a_dask_cluster_plays_the_games_of_one_process(one_worker: str) -> None:
    here = run_games(small_job(), GAMES, SEED, workers=1)
    there = run_games(small_job(), GAMES, SEED, scheduler=one_worker)
    assert outcomes(there) == outcomes(here)
    assert there == here  # the whole logs, events and per-unit kills included
    assert len({str(g["actions"]) for g in here}) == GAMES  # different games


def test_one_or_two_dask_workers_play_the_same_games(one_worker: str) -> None:
    one = run_games(small_job(), GAMES, SEED, scheduler=one_worker)
    with local_cluster(2) as address:
        two = run_games(small_job(), GAMES, SEED, scheduler=address)
    assert one == two
    assert one == run_games(small_job(), GAMES, SEED, workers=2)  # local forked workers too
