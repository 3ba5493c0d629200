"""Vehicle facings, pivots and reversing in the game (facing.py)."""

from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

import pytest

from grimdice.engine.table.terrain import Table
from grimdice.systems.onepage.game import GameState, Setup, army_from_mapping, deploy
from grimdice.systems.onepage.game.facing import heading, hit_facing

TANK = {"name": "Tank", "quality": 4, "equipment": ["Pistol"], "special_rules": ["Vehicle", "Tough(6)"]}
GUN = {"name": "Gun", "quality": 2, "equipment": ["Pistol"], "cost": 10}


def army(name: str, *units: dict) -> dict:
    return {"kind": "army", "system": "onepage", "name": name, "units": list(units)}


def tank_and_gun(gun_at: tuple[float, float]) -> GameState:
    setup = Setup((army_from_mapping(army("A", TANK), "a"), army_from_mapping(army("B", GUN), "b")), Table())
    s = deploy(setup, 0, 0)
    return replace(s, anchors=((36.0, 24.0), gun_at))


def test_a_vehicle_goes_forwards_or_reverses_at_half_speed() -> None:
    s = tank_and_gun((36.0, 46.0))
    assert heading(s, 0) == pytest.approx(math.pi / 2)  # towards the enemy's edge
    for a in s.legal_actions():
        if a[0] in ("walk", "run"):
            full = 12.0 if a[0] == "walk" else 18.0  # "Vehicles move up to 12" ... 18""
            length = math.hypot(a[2], a[3])
            if a[3] < -1e-9:  # backwards: "they move at half speed when reversing"
                assert length <= full / 2 + 1e-9
            else:
                assert length <= full + 1e-9
    back = [a for a in s.legal_actions() if a[0] == "run" and abs(a[2]) < 1e-9 and a[3] < 0]
    assert back and max(-a[3] for a in back) == pytest.approx(9.0, abs=1e-3)
    fwd = next(a for a in s.legal_actions() if a[0] == "walk" and a[2] > 1 and a[3] > 1)
    after = s.apply(fwd)
    assert heading(after, 0) == pytest.approx(math.atan2(fwd[3], fwd[2]), abs=1e-6)  # pivoted
    rev = s.apply(back[0])
    assert heading(rev, 0) == pytest.approx(math.pi / 2, abs=1e-6)  # still facing north


def test_hit_facing_is_the_quarter_the_shooters_stand_in_and_hold_pivots() -> None:
    assert hit_facing(tank_and_gun((36.0, 40.0)), 1, 0) == "front"
    assert hit_facing(tank_and_gun((36.0, 8.0)), 1, 0) == "rear"
    assert hit_facing(tank_and_gun((50.0, 24.0)), 1, 0) == "side"
    s = tank_and_gun((50.0, 24.0))
    held = s.apply(["hold", 0]).apply(["shoot", 1])
    assert heading(held, 0) == pytest.approx(0.0, abs=1e-6)  # "pivot by up to 180° when using Hold"


@pytest.mark.parametrize(
    ("gun_at", "immobile_given_wounded"),
    [
        ((36.0, 36.0), Fraction(1, 9)),  # front: lowest of two dice is 5+ with (2/6)^2
        ((48.0, 24.0), Fraction(1, 3)),  # side: one die
        ((36.0, 12.0), Fraction(5, 9)),  # rear: highest of two dice is 5+ with 1 - (4/6)^2
    ],
)
def test_the_damage_roll_follows_the_facing(
    gun_at: tuple[float, float], immobile_given_wounded: Fraction
) -> None:
    s = tank_and_gun(gun_at)
    s = replace(s, player=1)
    c = s.apply(["hold", 1]).apply(["shoot", 0])
    wounded = immobile = 0.0
    for i, p in c.chance_outcomes():
        st = c.combat_table()[i][0][0]
        if st.damage[0] or st.destroyed:
            wounded += p
            immobile += p * st.immobile
    assert wounded > 0
    assert immobile / wounded == pytest.approx(float(immobile_given_wounded), abs=1e-12)


def test_replays_draw_each_vehicles_front_mark(tmp_path) -> None:
    from grimdice.systems.onepage.game import play
    from grimdice.systems.onepage.game.draw import draw_rounds, front_mark

    s = tank_and_gun((36.0, 46.0))
    (x0, y0), (x1, y1) = front_mark(s, 0)
    r = s.setup.radii[0]
    assert (x0, y0) == pytest.approx((36.0, 24.0)) and (x1, y1) == pytest.approx((36.0, 24.0 + r))  # north
    assert front_mark(s, 1) is None  # not a Vehicle
    turned = s.apply(["hold", 0]).apply(["shoot", -1])
    east = replace(turned, facing=(0.0, *turned.facing[1:]))
    assert front_mark(east, 0)[1] == pytest.approx((36.0 + r, 24.0))
    log = play(s.setup, 1, ("random", "random"))
    paths = draw_rounds(log, tmp_path)
    assert len(paths) == 4 and all(p.stat().st_size > 0 for p in paths)
