"""Games on a Dask cluster (a local in-process one here) are the games of one process for the same
seed, whatever the number of workers (the ``cluster`` extra; skipped without dask.distributed)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest

from grimdice.systems.onepage.game import army_from_mapping
from grimdice.systems.onepage.game.batch import GameJob, run_games
from tests.onepage_game.test_game import SHOOTERS, TARGETS, army

distributed = pytest.importorskip("distributed")
pytestmark = pytest.mark.slow  # starts Dask clusters

GAMES, SEED = 3, 21


def small_job() -> GameJob:
    """Two small armies (two units each), AI against AI on a generated table per game: a few
    seconds for the whole batch."""
    a = army_from_mapping(army("A", SHOOTERS, dict(SHOOTERS, name="Shooters 2")), "a")
    b = army_from_mapping(army("B", TARGETS, dict(SHOOTERS, name="Guns", quality=5)), "b")
    return GameJob((a, b), None, ("ai", "ai"), keep_log=True)


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
    assert len({str(g["actions"]) for g in here}) == GAMES  # three different games


def test_one_or_two_dask_workers_play_the_same_games(one_worker: str) -> None:
    one = run_games(small_job(), GAMES, SEED, scheduler=one_worker)
    with local_cluster(2) as address:
        two = run_games(small_job(), GAMES, SEED, scheduler=address)
    assert one == two
    assert one == run_games(small_job(), GAMES, SEED, workers=2)  # local forked workers too
