"""A game depends only on its seed: never on the games a worker played before it, through the laws
and AI values kept across games (``GameJob.cache``), so the same seed gives the same games on any
number of workers."""

from __future__ import annotations

from typing import Any

import pytest

from grimdice.systems.onepage.game import army_from_mapping
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.cache import LawCache
from tests.onepage_game.test_game import SHOOTERS, TARGETS, army


def small_job(cache: dict[Any, Any] | None = None) -> GameJob:
    """Two small armies (two units each), AI against AI on a generated table per game: about a
    second a game."""
    a = army_from_mapping(army("A", SHOOTERS, dict(SHOOTERS, name="Shooters 2")), "a")
    b = army_from_mapping(army("B", TARGETS, dict(SHOOTERS, name="Guns", quality=5)), "b")
    return GameJob((a, b), None, ("ai", "ai"), keep_log=True, cache=LawCache() if cache is None else cache)


class Recomputing(LawCache):
    """A law cache that never answers (every law and value is computed again) and fails when a
    computation gives another value than the one kept for the same key: a key that leaves out
    something its value depends on."""

    def __init__(self) -> None:
        super().__init__(10**9)

    def get(self, key: Any, default: Any = None) -> Any:
        return default

    def __setitem__(self, key: Any, value: Any) -> None:
        if key in self:
            kept = super().__getitem__(key)
            assert repr(kept) == repr(value), f"cache key {key!r}: kept {kept!r}, computed again {value!r}"
        super().__setitem__(key, value)


def test_a_game_after_another_is_the_game_played_alone() -> None:
    seeds = game_seeds(21, 4)
    alone = small_job()(seeds[3])
    warm = small_job()
    warm(seeds[0])  # its table and places differ: nothing of them may reach the next game
    assert warm(seeds[3]) == alone


@pytest.mark.slow  # every law computed again: a few seconds
def test_every_kept_value_equals_its_computation_in_later_games() -> None:
    job = small_job(Recomputing())
    for seed in game_seeds(21, 4):
        job(seed)
    assert len(job.cache) > 0
