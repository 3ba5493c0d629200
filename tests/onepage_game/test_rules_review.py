"""Adversarial checks of the game's newer rules against the Beginner's Guide's sentences.

Consolidation: "If the defending unit was completely destroyed, either by removing all models as
casualties or by routing due to a failed morale test, then the assaulting unit may move by up to 3".
If the defending unit was not completely destroyed, then the assaulting unit must move back by 1"."
Immobile: "The Vehicle may not move or pivot until the end of the game." Limited: "Weapons with this
special rule may only be fired once per game." Psyker(X): "receive D3+X power ... each player may
have a maximum of 6 power dice for each round." Weapon arcs: "weapons which are mounted in the front of
the vehicle can only fire straight."
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.table.terrain import Table, Terrain
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, play, replay, states
from grimdice.systems.onepage.game.consolidation import KIND
from tests.onepage_game.test_consolidation import army, melee
from tests.onepage_game.test_consolidation import state_of as consolidation_state
from tests.onepage_game.test_firing import WALL

TANK = {"name": "Tank", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Vehicle", "Tough(12)"]}
BRUTES = {"name": "Brutes", "size": 2, "quality": 2, "equipment": ["Power Fist"], "cost": 50}
PAIR = {"name": "Pair", "size": 2, "quality": 6, "equipment": ["Pistol"], "cost": 20}
KILLERS = {"name": "Killers", "size": 2, "quality": 2, "equipment": ["Hand Weapon"], "cost": 50}
TARGETS = {"name": "Targets", "size": 5, "quality": 5, "equipment": ["Hand Weapon"], "cost": 60}
GRENADIERS = {
    "name": "Grenadiers",
    "quality": 4,
    "equipment": ['Grenade (6", A6, Limited)', "Rifle"],
    "cost": 40,
}


def state_of(a: dict, b: dict, anchors: list[tuple[float, float]], table: Table | None = None) -> GameState:
    return consolidation_state([a], [b], anchors, table)


# ---------------------------------------------------------------------- consolidation


def test_an_assaulter_left_immobile_by_the_melee_does_not_move_back() -> None:
    c = melee(state_of(TANK, BRUTES, [(36.0, 24.0), (36.0, 31.0)]), 0, 1)
    seen = {"immobile": 0, "mobile": 0}
    for i, _p in c.chance_outcomes():
        after = c.apply(i)
        tank, brutes = after.units[0], after.units[1]
        if tank.destroyed or brutes.destroyed:
            continue
        if tank.immobile:  # "may not move or pivot until the end of the game"
            seen["immobile"] += 1
            assert after.anchors[0] == c.anchors[0]
        else:  # "must move back by 1"", reversing: "they move at half speed when reversing"
            seen["mobile"] += 1
            assert math.dist(after.anchors[0], c.anchors[0]) == pytest.approx(0.5, abs=2e-3)
    assert seen["immobile"] and seen["mobile"]


def test_a_routed_defender_counts_as_destroyed_for_the_3_inch_consolidation() -> None:
    c = melee(state_of(KILLERS, PAIR, [(36.0, 20.0), (36.0, 26.0)]), 0, 1)
    routed = 0
    for i, _p in c.chance_outcomes():
        after = c.apply(i)
        st = after.units[1]
        if st.routed and sum(st.alive):  # models left, yet "routing due to a failed morale test"
            routed += 1
            assert after.phase == KIND and after.active == 0
            assert after.anchors[0] == c.anchors[0]  # no automatic 1" move back
            assert any(math.hypot(a[2], a[3]) > 1.5 for a in after.legal_actions())
    assert routed


def test_the_1_inch_move_back_never_enters_impassable_terrain() -> None:
    contact = melee(state_of(KILLERS, TARGETS, [(36.0, 20.0), (36.0, 26.0)]), 0, 1).anchors
    placed = state_of(KILLERS, TARGETS, list(contact))
    back = float(placed.models(0)[:, 1].min() - placed.setup.radii[0]) - 0.3  # behind the bases
    rock = Terrain(
        "rock", np.array([[20.0, 5.0], [52.0, 5.0], [52.0, back], [20.0, back]]), frozenset({"impassable"})
    )
    c = melee(state_of(KILLERS, TARGETS, list(contact), Table(terrain=(rock,))), 0, 1)
    assert c.anchors == contact  # already in base contact: no Assault move
    moved = 0
    for i, _p in c.chance_outcomes():
        after = c.apply(i)
        if after.units[0].destroyed or after.units[1].destroyed:
            continue
        assert not rock.contains(after.models(0)).any()
        moved += after.anchors[0] != c.anchors[0]
        # straight back runs into the rock: it takes a turned direction, still 1" and separating
        assert math.dist(after.anchors[0], c.anchors[0]) == pytest.approx(1.0, abs=2e-3)
        assert after.gap(0, 1) > c.gap(0, 1)
    assert moved


# ---------------------------------------------------------------------- Limited


def limited_offered(s: GameState) -> bool:
    return any(len(a) > 2 for a in s.legal_actions())


def shooting(s: GameState) -> GameState:
    return replace(s, phase="shoot", active=0, action="hold")


def test_a_limited_weapon_is_offered_only_where_it_can_fire() -> None:
    near = shooting(state_of(GRENADIERS, TARGETS, [(36.0, 20.0), (36.0, 25.0)]))
    assert limited_offered(near)
    far = shooting(state_of(GRENADIERS, TARGETS, [(36.0, 20.0), (36.0, 40.0)]))
    assert far.valid_targets(0) == [1]  # the Rifle reaches
    assert not limited_offered(far)  # the 6" Grenade cannot fire: choosing it would spend it unfired
    mortar = dict(GRENADIERS, equipment=['Grenade (6", A6, Limited)', 'Mortar (48", A6, Indirect)'])
    blind = shooting(state_of(mortar, TARGETS, [(36.0, 22.0), (36.0, 27.0)], Table(terrain=(WALL,))))
    assert blind.valid_targets(0) == [1]  # the Mortar fires without line of sight
    assert not limited_offered(blind)  # the Grenade needs line of sight


def test_a_limited_weapon_spent_in_one_round_stays_spent_in_later_rounds_and_replays() -> None:
    setup = Setup(
        (
            army_from_mapping(
                army("A", dict(GRENADIERS, equipment=['Missile (48", A6, Limited)', "Rifle"])), "a"
            ),
            army_from_mapping(army("B", dict(TARGETS, size=10)), "b"),
        ),
        Table(),
    )
    later = 0
    for seed in range(16):
        log = play(setup, seed, ("random", "random"))
        fired = [a for a in log["actions"] if isinstance(a, list) and a[-1:] == ["limited"]]
        assert len(fired) <= 1  # "only be fired once per game"
        again = replay(json.loads(json.dumps(log)))
        assert again["events"] == log["events"] and again["scores"] == log["scores"]
        for st in states(again):
            if st.phase == "shoot" and st.active == 0 and st.spent == ((0, "missile"),):  # later
                later += 1
                assert not limited_offered(st) and st.shot_key(0, 1)[8] is True  # held back: spent
    assert later  # some game shot again after spending them


# ---------------------------------------------------------------------- weapon arcs


def test_a_front_weapon_does_not_fire_at_a_target_on_the_side() -> None:
    tank = {
        "name": "Tank",
        "quality": 4,
        "equipment": ["Lascannon"],
        "special_rules": ["Vehicle", "Tough(6)"],
        "cost": 100,
        "arcs": {"Lascannon": "front"},
    }
    side = replace(
        state_of(tank, TARGETS, [(36.0, 20.0), (56.0, 20.0)]), phase="shoot", active=0, action="walk"
    )
    assert side.valid_targets(0) == []  # the tank faces north; the target stands due east
    ahead = replace(side, anchors=((36.0, 20.0), (40.0, 40.0)))
    assert ahead.valid_targets(0) == [1]


# ---------------------------------------------------------------------- power dice


@pytest.mark.parametrize(
    ("x", "want"),
    [
        (2, {3: Fraction(1, 3), 4: Fraction(1, 3), 5: Fraction(1, 3)}),  # D3+2
        (4, {5: Fraction(1, 3), 6: Fraction(2, 3)}),  # D3+4: a 7 is cut to the maximum of 6
        (6, {6: Fraction(1)}),
    ],
)
def test_power_is_d3_plus_the_levels_at_most_6(x: int, want: dict[int, Fraction]) -> None:
    seer = {"name": "Seer", "quality": 4, "equipment": ["Pistol"], "special_rules": [f"Psyker({x})"]}
    setup = Setup(
        (army_from_mapping(army("A", seer), "a"), army_from_mapping(army("B", TARGETS), "b")), Table()
    )
    s = GameState(setup).apply(0).apply(["side", "south"])
    while s.phase in ("deploy", "scout"):
        s = s.apply(s.legal_actions()[0])
    # D3: "roll a D6 and halve the result, rounding up"
    d3 = {}
    for face in range(1, 7):
        v = min(6, math.ceil(face / 2) + x)
        d3[v] = d3.get(v, Fraction(0)) + Fraction(1, 6)
    assert d3 == want
    law = {a[1]: p for a, p in s.chance_outcomes() if a[2] == 0}
    assert sum(p for _a, p in s.chance_outcomes()) == pytest.approx(1.0)
    assert law == pytest.approx({k: float(v) for k, v in want.items()})


# ---------------------------------------------------------------------- Indirect


def test_indirect_fire_counts_only_the_models_in_range() -> None:
    """ "All models in a unit ... that have a weapon that is within range of that unit may fire"."""
    lobbers = {
        "name": "Lobbers",
        "size": 5,
        "quality": 4,
        "equipment": ['Lobber (6", A3, Indirect)'],
        "cost": 50,
    }
    lone = {"name": "Lone", "quality": 5, "equipment": ["Hand Weapon"], "cost": 10}
    s = shooting(state_of(lobbers, lone, [(36.0, 22.0), (28.0, 27.5)], Table(terrain=(WALL,))))
    assert s.firing_sight(0, 1)[2:] == (0, 0.0) and s.valid_targets(0) == [1]
    gaps = [math.dist(m, s.models(1)[0]) - 2 * s.setup.radii[0] for m in s.models(0)]
    assert sum(g <= 6.0 for g in gaps) == 1  # one Lobber within 6" of the target
    key = s.shot_key(0, 1)
    assert key[7] is True and key[1] == 1
    one = shooting(
        state_of(dict(lobbers, size=1), lone, [(36.0, 22.0), (28.0, 27.5)], Table(terrain=(WALL,)))
    )
    from grimdice.systems.onepage.game.state import combat_law

    def law(st: GameState, k: tuple) -> dict:
        return {x: p for x, p in combat_law(st.setup, "shoot", 0, st.units[0], 1, st.units[1], k)}

    # one model, 3 shots: hit 4+ (1/2), Cover's Armored ignores on 4+ (1/2), block 5+ fails (2/3)
    survive = (1 - Fraction(1, 2) * Fraction(1, 2) * Fraction(2, 3)) ** 3
    got = law(s, key)
    assert sum(p for x, p in got.items() if not x[0].destroyed) == pytest.approx(float(survive), abs=1e-12)
    assert got == pytest.approx(law(one, (*key[:1], 1, *key[2:])))
