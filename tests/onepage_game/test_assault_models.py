"""The Assault move model by model (melee_moves.assaulters_moved), the 1" rule for friendly units on
an Assault (GameState.charge_ok) and Shaken taken during a unit's own activation
(GameState.end_activation), from the Beginner's Guide v2.21:

"To assault simply move the assaulting [models] by up to 12" to get into base contact with an enemy
model from the target unit, or as close as possible to an enemy model from the target unit, keeping
unit coherency in mind." "All models in a unit that are in base contact with an enemy model from the
target unit, or that are within 2" of a model from the target unit may attack"."""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Any

import numpy as np
import pytest

from grimdice.engine.game import CHANCE
from grimdice.engine.table.bases import coherent
from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.lines import path_blocked
from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.melee_moves import assaulters_moved, signed_gaps, strikers
from grimdice.systems.onepage.game.moving import KEEP_CLEAR
from grimdice.systems.onepage.game.setup import GAP, MM

R = 32 / MM / 2  # an Infantry base's radius (32 mm)
STEP = 2 * R + GAP  # centre spacing in a rank
CHAMPION = {"name": "Champion", "quality": 3, "equipment": ["Power Weapon"], "cost": 40}
LINE = {"name": "Line", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 50}
WALKER = dict(LINE, name="Kan", size=1, quality=4, special_rules=["Walker", "Tough(3)"], cost=100)


def army(name: str, *units: dict[str, Any]) -> dict[str, Any]:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def game(a: list[dict[str, Any]], b: list[dict[str, Any]], *pieces: Terrain) -> GameState:
    setup = Setup(
        (army_from_mapping(army("A", *a), "a"), army_from_mapping(army("B", *b), "b")), Table(terrain=pieces)
    )
    return deploy(setup, 0, 0)


def champion_ahead(gap: float, line: dict[str, Any] = LINE) -> GameState:
    """A rank (centres STEP apart on y = 20, centred on x = 36) and, ``gap`` inches north of its
    east end model, a lone champion."""
    s = game([line], [CHAMPION])
    east = 36.0 + (line["size"] - 1) / 2 * STEP
    return replace(s, anchors=((36.0, 20.0), (east, 20.0 + 2 * R + gap)))


def moved_by_the_rules(c: GameState, u: int, moved: np.ndarray) -> bool:
    """Each model's move is within the Assault's allowance, either straight from where it started
    or on from where the block's move put it, and neither way crosses impassable terrain."""
    sx, sy, full = c.charge
    start, block = c.models(u, (sx, sy)), c.models(u)
    leg = float(np.linalg.norm(block[0] - start[0]))
    straight = (np.linalg.norm(moved - start, axis=1) <= full + 1e-6) & ~path_blocked(
        c.setup.table, start, moved, "impassable"
    )
    on = (np.linalg.norm(moved - block, axis=1) <= full - leg + 1e-6) & ~path_blocked(
        c.setup.table, block, moved, "impassable"
    )
    return bool((straight | on).all())


def test_every_model_of_the_rank_moves_on_into_reach() -> None:
    s = champion_ahead(6.0)
    c = s.charged(0, 1)
    # the block moves the 6" straight north: only its east end touches; the others stand k STEP west
    # of it, so hypot(k STEP, 2R) - 2R from the champion's base: 0.90", 2.48", 4.17", 5.89"
    block = c.models(0)
    gaps = signed_gaps(block, R, c.models(1), R)[::-1, 0]
    assert gaps == pytest.approx([math.hypot(k * STEP, 2 * R) - 2 * R for k in range(5)], abs=1e-9)
    assert strikers(replace(c, charge=()), 0, 1) == (2, 1)  # the former rigid block: 0" and 0.90"
    # each model then moves on by itself: all five end within 2" of the champion, three of them in
    # base contact (around one base, on the side they come from)
    moved = assaulters_moved(c, 0, 1)
    ends = signed_gaps(moved, R, c.models(1), R)[:, 0]
    assert (ends <= 2.0).all() and (ends <= 1e-3).sum() >= 3
    own = signed_gaps(moved, R, moved, R)[~np.eye(5, dtype=bool)]
    assert own.min() >= -1e-6  # no base overlaps another
    assert coherent(moved, np.full(5, R))
    assert moved_by_the_rules(c, 0, moved)
    assert strikers(c, 0, 1) == (5, 1)
    assert c.apply(["assault", 0, 1]).melee_key(0, 1)[2:4] == (5, 1)
    assert s.apply(["assault", 0, 1]).pending[3][2:4] == (5, 1)


@pytest.mark.parametrize("gap", [11.9, 11.5])
def test_a_model_out_of_reach_moves_closer_within_its_12_inches(gap: float) -> None:
    """Two ranks of five, the champion ``gap`` inches north of the front rank's east end: the back
    rank's west end model starts hypot(4 STEP, gap + 2R + STEP) from the champion's centre, so no
    move of 12" brings it within 2"; it ends closer than the block's move left it, and no model of
    the unit ends closer than its own 12" from where it started allow."""
    s = game([dict(LINE, size=10)], [CHAMPION])
    s = replace(s, anchors=((36.0, 20.0), (36.0 + 2 * STEP, 20.0 + 2 * R + gap)))
    c = s.charged(0, 1)
    moved = assaulters_moved(c, 0, 1)
    start, block = c.models(0, c.charge[:2]), c.models(0)
    far = math.hypot(4 * STEP, gap + 2 * R + STEP) - 2 * R - 12.0
    assert far > 2.0
    ends = signed_gaps(moved, R, c.models(1), R)[:, 0]
    bound = signed_gaps(start, R, c.models(1), R)[:, 0] - 12.0
    assert bound[5] == pytest.approx(far, abs=1e-9)  # the back rank's west end (listed 6th)
    assert (ends >= bound - 1e-6).all()
    assert ends[5] < signed_gaps(block, R, c.models(1), R)[5, 0] - 1.0
    assert ends.min() == pytest.approx(0.0, abs=2e-3)  # the block's move is cut to 0.001"
    assert coherent(moved, np.full(10, R)) and moved_by_the_rules(c, 0, moved)


def test_fast_models_move_on_by_what_is_left_of_18_inches() -> None:
    s = champion_ahead(11.8, dict(LINE, size=2, special_rules=["Fast"]))
    c = s.charged(0, 1)
    assert signed_gaps(assaulters_moved(c, 0, 1), R, c.models(1), R).max() == pytest.approx(0.0, abs=1e-3)


def wall(x0: float, y0: float, x1: float, y1: float) -> Terrain:
    return Terrain("wall", np.array([[x0, y0], [x1, y0], [x1, y1], [x0, y1]]), frozenset({"impassable"}), 0.0)


def test_the_models_own_moves_do_not_cross_impassable_terrain() -> None:
    """A wall just north of the rank (after its block's move), from far west to just west of the
    champion: the models may not go through it, only around its east end."""
    got = []
    for pieces in ((), (wall(10.0, 26.7, 38.6, 26.8),)):
        s = game([LINE], [CHAMPION], *pieces)
        s = replace(s, anchors=((36.0, 20.0), (36.0 + 2 * STEP, 26.0 + 2 * R)))
        c = s.charged(0, 1)
        moved = assaulters_moved(c, 0, 1)
        assert moved_by_the_rules(c, 0, moved)
        # no model ends north of the wall's line west of its east end (it would have crossed it)
        assert not ((moved[:, 1] > 26.8) & (moved[:, 0] < 38.6 + R)).any() or not pieces
        got.append(strikers(c, 0, 1)[0])
    assert got[1] <= got[0] == 5


def test_the_models_own_moves_keep_1_inch_from_a_friendly_unit() -> None:
    """A friendly model 1.3" east of the champion's base: no assaulting model ends within 1" of it,
    so the spots east of the champion are out of bounds and fewer models strike."""
    got = []
    for friend in ((60.0, 40.0), (36.0 + 2 * STEP + 2 * R + 1.3, 26.0 + 2 * R)):
        s = game([LINE, dict(CHAMPION, name="Friend")], [CHAMPION])
        s = replace(s, anchors=((36.0, 20.0), friend, (36.0 + 2 * STEP, 26.0 + 2 * R)))
        c = s.charged(0, 2)
        moved = assaulters_moved(c, 0, 2)
        assert (signed_gaps(moved, R, c.models(1), R) >= KEEP_CLEAR - 1e-6).all()
        got.append(strikers(c, 0, 2)[0])
    assert got[0] == 5 and got[1] <= 5


def test_an_assault_does_not_end_on_a_friendly_unit() -> None:
    """ "Units may move within 1" of enemy units when using assault actions" - of enemy units only:
    a friendly unit between the assaulter and its target blocks the straight Assault move."""
    s = game([LINE, dict(LINE, name="Friends")], [LINE])
    s = replace(s, anchors=((36.0, 20.0), (36.0, 28.5), (36.0, 30.0)))
    assert s.gap(0, 2) < 12.0 and s.gap(0, 1) > 1.0
    end = s.charged(0, 2)
    assert end.gap(0, 1) == pytest.approx(0.0, abs=1e-9)  # the block's move would end on them
    assert ["assault", 0, 2] not in s.legal_actions()
    # the same assault with the friends 1" clear of the move's end is offered
    clear = replace(s, anchors=((36.0, 20.0), (36.0 + 5 * STEP + 2 * R + 1.0, 28.5), (36.0, 30.0)))
    assert ["assault", 0, 2] in clear.legal_actions()
    # an enemy unit other than the target may be come within 1" of
    foe = game([LINE], [LINE, dict(LINE, name="Others")])
    foe = replace(foe, anchors=((36.0, 20.0), (36.0, 30.0), (36.0 + 5 * STEP + 2 * R + 0.2, 28.5)))
    assert ["assault", 0, 1] in foe.legal_actions()


def test_shaken_in_its_own_activation_lasts_through_its_next() -> None:
    """Shaken: "The Vehicle must re-roll successful hits until the end of its next activation." A
    Walker crosses a minefield and is Shaken by it: still Shaken when that activation ends, and no
    longer at the end of its next one."""
    mines = Terrain(
        "mines",
        np.array([[0.0, 24.0], [72.0, 24.0], [72.0, 26.0], [0.0, 26.0]]),
        frozenset({"dangerous"}),
        0.0,
    )
    s = game([dict(WALKER, equipment=["Assault Rifle"])], [dict(LINE, name="Far")], mines)
    s = replace(s, anchors=((36.0, 20.0), (36.0, 60.0)))
    walk = next(a for a in s.legal_actions() if a[0] == "walk" and abs(a[2]) < 1e-9 and a[3] > 4)
    c = s.apply(walk)
    assert c.current_player() == CHANCE and c.pending[0] == "dangerous"
    shaken = next(i for i, _ in c.chance_outcomes() if c.combat_table()[i][0][0].shaken)
    after = c.apply(shaken).apply(["shoot", -1])
    assert after.activated[0] and after.units[0].shaken  # the former code cleared it here
    # its next activation: Hold, no shot - then Shaken ends
    nxt = replace(after, activated=(False, True), player=0, round=2)
    done = nxt.apply(["hold", 0]).apply(["shoot", -1])
    assert not done.units[0].shaken
    # Shaken before its activation and not again during it: it ends with that activation
    plain = replace(s, units=(replace(s.units[0], shaken=True), s.units[1]))
    assert not plain.apply(["hold", 0]).apply(["shoot", -1]).units[0].shaken


def test_every_assault_of_a_game_moves_its_models_by_the_rules() -> None:
    """In a seeded game of the bundled armies, every Assault's model moves: each within its own
    allowance (straight from its start, or on from the block's move), no base on another, the unit coherent,
    no path through impassable terrain, none newly within 1" of a unit other than the target; and
    never fewer strikers than the rigid block had."""
    from grimdice.systems.onepage.game import play, states
    from grimdice.systems.onepage.game.setup import load_army_side
    from grimdice.systems.onepage.movement import move_distance

    seen = 0
    for seed in (4, 5, 6, 7):  # games until at least 3 assaults are checked
        if seen >= 3:
            break
        setup = Setup(
            (
                load_army_side("examples/armies/onepage-orks-army.yaml"),
                load_army_side("examples/armies/onepage-marines-army.yaml"),
            ),
            generate_table(seed),
        )
        log = play(setup, seed, ("greedy", "greedy"))  # a game with assaults (the AI's has none here)
        sts = states(log)
        for s, a in zip(sts, log["actions"], strict=False):
            if not (isinstance(a, list) and a[0] == "assault" and s.on_table(int(a[1]))):
                continue
            u, t = int(a[1]), int(a[2])
            c = s.charged(u, t)
            block, moved = c.models(u), assaulters_moved(c, u, t)
            r, rt = c.setup.radii[u], c.setup.radii[t]
            assert c.charge[2] == move_distance(c.setup.units[u], "assault")
            assert moved_by_the_rules(c, u, moved)
            n = len(moved)
            assert (signed_gaps(moved, r, moved, r)[~np.eye(n, dtype=bool)] >= -1e-6).all()
            assert (
                signed_gaps(moved, r, c.models(t), rt) >= -2e-3
            ).all()  # the block's move is cut to 0.001"
            assert coherent(moved, np.full(n, r))
            assert not path_blocked(c.setup.table, block, moved, "impassable").any()
            for v in range(len(c.units)):
                if v not in (u, t) and c.alive(v) and c.on_table(v):
                    rv = c.setup.radii[v]
                    was = signed_gaps(block, r, c.models(v), rv).min(axis=1)
                    now = signed_gaps(moved, r, c.models(v), rv).min(axis=1)
                    assert (now >= np.minimum(KEEP_CLEAR, was) - 1e-6).all()
            assert strikers(c, u, t)[0] >= strikers(replace(c, charge=()), u, t)[0]
            seen += 1
    assert seen >= 3


def test_a_walker_shaken_by_return_strikes_stays_shaken_after_its_assault() -> None:
    """Shaken by the defenders' strikes in its own Assault, a Walker is still Shaken when that
    activation ends: "until the end of its next activation"."""
    s = game([WALKER], [dict(LINE, equipment=["Power Weapon"])])
    s = replace(s, anchors=((36.0, 20.0), (36.0, 26.0)))
    c = s.apply(["assault", 0, 1])
    table = c.combat_table()
    i = next(
        i
        for i, _ in c.chance_outcomes()
        if table[i][0][0].shaken and not table[i][0][0].destroyed and not table[i][0][1].destroyed
    )
    after = c.apply(i)
    assert after.phase == "play" and after.activated[0] and after.units[0].shaken
