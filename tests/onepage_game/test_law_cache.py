"""The law cache: bounded (least recently used first out) without changing a game, and keyed by the
shooter's state as the exact shooting reads it (the models that may fire, Shaken)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.exact import shooting_table
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.cache import LawCache, firing_state, shot_state
from grimdice.systems.onepage.game.combat import conditions_of
from grimdice.systems.onepage.game.setup import load_army_side, make_setup
from grimdice.systems.onepage.game.state import GameState, combat_law, deploy
from grimdice.systems.onepage.units import UnitState
from tests.onepage_game.test_game import MARINES, ORKS


def test_law_cache_keeps_the_most_recently_used() -> None:
    c = LawCache(3)
    for k in "abc":
        c[k] = k.upper()
    assert c.get("a") == "A"  # read: now the most recent
    c["d"] = "D"
    assert list(c) == ["c", "a", "d"] and "b" not in c
    assert c.get("b") is None and c.get("b", 0) == 0
    with pytest.raises(ValueError):
        LawCache(0)


def test_a_bounded_cache_stays_bounded_and_plays_the_same_games() -> None:
    armies = (load_army_side(MARINES), load_army_side(ORKS))
    small = GameJob(armies, None, ("ai", "random"), keep_log=True, cache=LawCache(40))
    free = GameJob(armies, None, ("ai", "random"), keep_log=True, cache={})
    for seed in game_seeds(5, 1):
        assert small(seed)["actions"] == free(seed)["actions"]
        assert len(small.cache) == 40
    assert len(free.cache) > 40  # the small one did evict


def states_of(alive: tuple[int, ...], tough: tuple[int, ...]) -> list[UnitState]:
    """Full strength, each group one model down, and a wound on each Tough model still alive."""
    out = [UnitState(alive, (0,) * len(alive))]
    for g, n in enumerate(alive):
        if n > 1 or (n and sum(alive) > 1):
            less = tuple(k - (i == g) for i, k in enumerate(alive))
            out.append(UnitState(less, (0,) * len(alive)))
        if n and tough[g] > 1:
            out.append(UnitState(alive, tuple(int(i == g) for i in range(len(alive)))))
    out.append(UnitState(alive, (0,) * len(alive), shaken=True))
    return out


def facing(u: int, t: int) -> tuple[GameState, tuple[Any, ...]]:
    """The bundled armies on an open table, unit ``u`` 10" from unit ``t``; ``u``'s shooting key
    at ``t`` on Hold (as the game builds it: its layout is the game's)."""
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), Table())
    s = deploy(setup, 0, 0)
    anchors = list(s.anchors)
    south, north = (u, t) if setup.owner[u] == 0 else (t, u)
    anchors[south], anchors[north] = (36.0, 20.0), (36.0, 30.0)
    s = replace(s, anchors=tuple(anchors))
    return s, s.shot_key(u, t, None, "hold")


def test_firing_state_gives_the_shooting_law_of_the_real_state() -> None:
    """The exact shooting of the real shooter state equals that of :func:`firing_state`'s state
    (a shooting at one distance, ``in_range`` models firing) and of :func:`shot_state`'s (the game's
    shooting, models counted per weapon), for every unit of the bundled armies that shoots,
    casualties in each group, wounded Tough models, Shaken, and counts of models in range."""
    checked = 0
    owners = make_setup(load_army_side(MARINES), load_army_side(ORKS), Table()).owner
    for u in range(len(owners)):
        t = next(v for v in range(len(owners)) if owners[v] != owners[u])
        s, base = facing(u, t)
        if base[1] == 0:  # no ranged weapon
            continue
        unit, target, st = s.setup.units[u], s.setup.units[t], s.units[t]
        tough = tuple(g.tough for g in unit.groups)
        for su in states_of(s.units[u].alive, tough):
            c = conditions_of("shoot", base)
            assert c.weapons_in_range is not None
            ss = shot_state(su, base)
            assert shooting_table(unit, su, target, st, c)[1] == shooting_table(unit, ss, target, st, c)[1]
            for n in sorted({1, su.models // 2, su.models} - {0}):
                c = conditions_of("shoot", (float(s.weapon_range(u)), n, *base[2:]))
                fs = firing_state(su, n)
                assert fs.models == n and fs.shaken == su.shaken
                real, read = shooting_table(unit, su, target, st, c), shooting_table(unit, fs, target, st, c)
                assert real[1] == read[1]
                checked += 1
    assert checked > 20


def test_states_that_fire_the_same_share_one_law() -> None:
    u, t = 0, 4  # Tactical Marines (8 with rifles, 2 with meltaguns, a joined Tough(3) Captain), Boyz
    s, base = facing(u, t)
    key = (float(s.weapon_range(u)), 3, *base[2:])  # one distance, the first 3 models fire
    full, st = s.units[u], s.units[t]
    assert full.alive == (8, 2, 1) and s.setup.owner[t] == 1
    law = combat_law(s.setup, "shoot", u, full, t, st, key)
    for same in (UnitState((8, 1, 1), (0, 0, 0)), UnitState((8, 2, 1), (0, 0, 2))):
        assert combat_law(s.setup, "shoot", u, same, t, st, key) is law  # the same 3 rifles fire
    for other in (UnitState((2, 2, 1), (0, 0, 0)), UnitState((8, 2, 1), (0, 0, 0), shaken=True)):
        assert combat_law(s.setup, "shoot", u, other, t, st, key) != law
    assert isinstance(base[0], tuple)  # the game's key: models per weapon; every model alive counts
    law = combat_law(s.setup, "shoot", u, full, t, st, base)
    assert combat_law(s.setup, "shoot", u, UnitState((8, 2, 1), (0, 0, 2)), t, st, base) is law
    for other in (UnitState((2, 2, 1), (0, 0, 0)), UnitState((8, 2, 1), (0, 0, 0), shaken=True)):
        assert combat_law(s.setup, "shoot", u, other, t, st, base) != law
