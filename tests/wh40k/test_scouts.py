"""Scouts x, one test per sentence of the seed text."""

import pytest

from grimdice.engine.table.bases import Base
from grimdice.errors import RuleError
from grimdice.systems.wh40k.scouts import (
    ScoutMove,
    check_scouts_move,
    scouts_move_order,
    unit_scouts_distance,
)

ENEMY = [Base(30.0, 0.0, 32)]


def mv(x0, x1, scouts=6, name="scout"):
    return ScoutMove(name, scouts, Base(x0, 0.0, 32), Base(x1, 0.0, 32))


def test_every_model_must_have_scouts():
    assert unit_scouts_distance([6, 6]) == 6
    assert unit_scouts_distance([6, None]) is None
    with pytest.raises(RuleError, match="every model"):
        check_scouts_move([mv(0, 5), mv(0, 5, scouts=None, name="heavy")], ENEMY)


def test_move_up_to_x():
    check_scouts_move([mv(0, 6)], ENEMY)
    with pytest.raises(RuleError, match=r'moved 6\.50"'):
        check_scouts_move([mv(0, 6.5)], ENEMY)


def test_only_at_start_of_first_battle_round_before_first_turn():
    with pytest.raises(RuleError, match="first battle round"):
        check_scouts_move([mv(0, 5)], ENEMY, battle_round=2)
    with pytest.raises(RuleError, match="before the first turn"):
        check_scouts_move([mv(0, 5)], ENEMY, before_first_turn=False)


def test_must_end_more_than_9_inches_horizontally_from_enemies():
    r = Base(0, 0, 32).radius
    # end centre 9" + two radii from the enemy centre: exactly 9" apart -> illegal (must be more)
    with pytest.raises(RuleError, match=r'more than 9"'):
        check_scouts_move([mv(30 - 9 - 2 * r - 5, 30 - 9 - 2 * r)], ENEMY)
    d = check_scouts_move([mv(30 - 9.1 - 2 * r - 5, 30 - 9.1 - 2 * r)], ENEMY)
    assert d == pytest.approx(9.1)
    # height does not count: an enemy 9" up but far horizontally is fine
    check_scouts_move([mv(0, 5)], [Base(5, 20, 32, z=9)])


def test_dedicated_transport_only_with_scouts_passengers():
    tank = ScoutMove("Chimera", None, Base(0, 0, 100), Base(5, 0, 100))
    check_scouts_move([tank], ENEMY, transport_passengers=[6, 6])
    with pytest.raises(RuleError, match="every model embarked"):
        check_scouts_move([tank], ENEMY, transport_passengers=[6, None])


def test_first_turn_player_moves_first():
    assert scouts_move_order("B", ["A", "B"]) == ["B", "A"]
    assert scouts_move_order("A", ["A", "B"]) == ["A", "B"]
