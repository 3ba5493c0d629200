"""Movement and deployment rules as checks the game will call."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grimdice.engine.table.bases import Base
from grimdice.errors import RuleError
from grimdice.systems.onepage.movement import (
    can_embark,
    dangerous_terrain_hits,
    deep_strike_position,
    deep_strike_scatter,
    may_shoot,
    move_distance,
    reserve_arrives,
    scout_position,
    transport_destroyed_hits,
)
from tests.onepage.helpers import unit


def test_actions_and_fast() -> None:
    # "Walk – ... up to 6"", "Run – ... up to 12"", Fast: "+3" when using Walk actions and +6" when using
    # Run or Assault actions"; Vehicles: "up to 12" when using Walk actions and up to 18" when using Run"
    inf, fast, tank = unit(), unit(rules=["Fast"]), unit(rules=["Vehicle"])
    assert [move_distance(inf, a) for a in ("hold", "walk", "run", "assault")] == [0, 6, 12, 12]
    assert [move_distance(fast, a) for a in ("walk", "run", "assault")] == [9, 18, 18]
    assert [move_distance(tank, a) for a in ("walk", "run", "assault")] == [12, 18, 18]
    assert may_shoot("walk") and not may_shoot("run") and not may_shoot("assault")
    with pytest.raises(RuleError):
        move_distance(inf, "fly")


def test_difficult_terrain_strider_flying() -> None:
    # "the unit may not move more than its Walk action distance"; Strider: "treat difficult terrain as
    # open terrain"; Flying: "may ignore terrain effects"
    assert move_distance(unit(), "run", difficult=True) == 6
    assert move_distance(unit(rules=["Strider"]), "run", difficult=True) == 12
    assert move_distance(unit(rules=["Flying"]), "run", difficult=True) == 12


def test_deep_strike_and_scout_positions() -> None:
    # Deep Strike: "After round 1 ... place the unit anywhere on the table, over 12" away from enemy units"
    ds = unit(rules=["Deep Strike"])
    enemy = [Base(10, 10, 25.4)]  # 1" base: radius 0.5"
    far = [Base(10, 23.1, 25.4)]  # centres 13.1" apart: 12.1" between bases
    near = [Base(10, 22.9, 25.4)]  # 11.9"
    deep_strike_position(ds, far, enemy, round_=2)
    with pytest.raises(RuleError, match="over 12"):
        deep_strike_position(ds, near, enemy, round_=2)
    with pytest.raises(RuleError, match="after round 1"):
        deep_strike_position(ds, far, enemy, round_=1)
    with pytest.raises(RuleError, match="does not have Deep Strike"):
        deep_strike_position(unit(), far, enemy, round_=2)
    with pytest.raises(RuleError, match="off the table"):
        deep_strike_position(ds, [Base(80, 10)], enemy, round_=3)
    # Scout: "deployed anywhere on the table over 12" away from enemy units"
    scout_position(unit(rules=["Scout"]), far, enemy)
    with pytest.raises(RuleError):
        scout_position(unit(rules=["Scout"]), near, enemy)
    # "on a 4+ you may place the unit"; "on a 1-2 the opponent may move the unit by up to 12""
    assert reserve_arrives()[1] == pytest.approx(float(F(1, 2)))
    assert deep_strike_scatter()[1] == pytest.approx(float(F(1, 3)))


def test_transport() -> None:
    # Transport(X): "may transport up to X Infantry models"
    rhino = unit(rules=["Vehicle", "Transport(10)"])
    can_embark(rhino, [unit(size=5), unit(size=5)])
    with pytest.raises(RuleError, match="exceed"):
        can_embark(rhino, [unit(size=11)])
    with pytest.raises(RuleError, match="not Infantry"):
        can_embark(rhino, [unit(rules=["Walker"])])
    with pytest.raises(RuleError, match="not a Transport"):
        can_embark(unit(), [unit()])
    # "the unit takes D6 automatic hits"
    assert transport_destroyed_hits().mean() == pytest.approx(3.5)


def test_dangerous_terrain() -> None:
    # "roll one die for each model ... For each 1 you roll the unit takes one automatic hit."
    d = dangerous_terrain_hits(3)
    assert d[0] == pytest.approx(float(F(5, 6) ** 3)) and d[3] == pytest.approx(float(F(1, 6) ** 3))


def test_disembark() -> None:
    # Transport(X): "embarked units may use a Walk action to disembark"; Furious: "they may use an
    # Assault action at Walk distance to disembark from transports".
    import pytest

    from grimdice.errors import RuleError
    from grimdice.systems.onepage.movement import disembark_distance
    from tests.onepage.helpers import unit

    plain, furious = unit("Guard"), unit("Boyz", rules=["Furious"])
    assert disembark_distance(plain, "walk") == 6.0
    assert disembark_distance(furious, "assault") == 6.0
    assert disembark_distance(unit("Bikers", rules=["Fast", "Furious"]), "assault") == 9.0
    for who, action in ((plain, "assault"), (plain, "run"), (furious, "run")):
        with pytest.raises(RuleError, match="cannot disembark"):
            disembark_distance(who, action)
