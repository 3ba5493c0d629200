"""The combat laws a game reads (``combat.combat_law``: shootings, melees, automatic hits) equal, bit
for bit and in the same order, the laws computed on the plain path (every memo of the exact engine
off, an empty law cache), for the situations of a seeded game and for variants of them built by
hand (damaged and pinned units, fewer strikers, other facings), whatever was computed before."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.cache import LawCache, law_situations
from grimdice.systems.onepage.game.combat import combat_law
from grimdice.systems.onepage.game.setup import Setup, load_army_side
from grimdice.systems.onepage.units import UnitState, memos_off
from tests.onepage_game.test_game import MARINES, ORKS

Situation = tuple[Any, ...]


def weakened(s: UnitState) -> UnitState:
    """``s`` with one model fewer in its first group that has two or more, pinned."""
    alive = list(s.alive)
    for g, n in enumerate(alive):
        if n > 1:
            alive[g] = n - 1
            break
    return replace(s, alive=tuple(alive), pinned=True)


def variants(sit: Situation) -> list[Situation]:
    """Hand-built situations near ``sit``: each side weakened; a melee also with one striker a side
    and from the rear."""
    kind, u, su, t, st, key = sit
    out = [(kind, u, weakened(su), t, st, key), (kind, u, su, t, weakened(st), key)]
    if kind == "melee":
        out.append((kind, u, su, t, st, (*key[:2], 1, 1, "rear")))
    return out


@pytest.fixture(scope="module")
def game() -> tuple[Setup, list[Situation]]:
    """A seeded AI-vs-random game's setup (its armies and law cache) and the situations it met."""
    armies = (load_army_side(MARINES), load_army_side(ORKS))
    job = GameJob(armies, None, ("ai", "random"), cache=LawCache())
    job(game_seeds(11, 1)[0])
    sits = law_situations(job.cache)
    assert {s[0] for s in sits} >= {"shoot", "melee"}
    return Setup(armies, Table(), job.cache), sits


def plain(setup: Setup, sit: Situation) -> list[tuple[tuple[UnitState, ...], float]]:
    """The law of ``sit`` with every memo off and an empty law cache."""
    with memos_off():
        return combat_law(Setup(setup.armies, setup.table, {}), *sit)


def test_the_laws_of_a_games_situations_are_the_plain_laws(game: tuple[Setup, list[Situation]]) -> None:
    setup, sits = game
    setup.cache.clear()
    for sit in [*sits, *reversed(sits)]:  # the second pass reads the cache
        law = combat_law(setup, *sit)
        assert law == plain(setup, sit), sit
        assert abs(sum(p for _, p in law) - 1.0) < 1e-12


def test_the_laws_of_situations_built_by_hand_are_the_plain_laws(game: tuple[Setup, list[Situation]]) -> None:
    setup, sits = game
    built = [v for s in sits[::3] for v in variants(s) if v[2].models and v[4].models]
    assert any(s[0] == "melee" for s in built)
    for sit in built:
        assert combat_law(setup, *sit) == plain(setup, sit), sit
