"""Orders (Voice of Command), one test per sentence of the seed text."""

import pytest

from grimdice.errors import RuleError, ScenarioError
from grimdice.systems.wh40k.orders import (
    OrderedUnit,
    issue_order,
    leadership_with_order,
    move_with_order,
    save_with_order,
)
from grimdice.systems.wh40k.profiles import Order
from tests.wh40k.helpers import model, run, weapon

OFFICER = {"army_faction": "Astra Militarum", "officer_keywords": ["Infantry", "Officer"], "distance": 4.0}


def test_issue_requires_astra_militarum_officer_within_6():
    u = OrderedUnit("Infantry Squad")
    with pytest.raises(RuleError, match="ASTRA MILITARUM"):
        issue_order(u, "take aim", **(OFFICER | {"army_faction": "Adeptus Astartes"}))
    with pytest.raises(RuleError, match="OFFICER"):
        issue_order(u, "take aim", **(OFFICER | {"officer_keywords": ["Infantry"]}))
    with pytest.raises(RuleError, match='within 6"'):
        issue_order(u, "take aim", **(OFFICER | {"distance": 6.5}))
    with pytest.raises(RuleError, match="eligible"):
        issue_order(u, "take aim", eligible=False, **OFFICER)
    with pytest.raises(RuleError, match="no Orders left"):
        issue_order(u, "take aim", orders_left=0, **OFFICER)
    assert issue_order(u, "TAKE AIM!", **OFFICER).order is Order.TAKE_AIM


def test_one_order_at_a_time_new_replaces_current():
    u = OrderedUnit("Squad")
    issue_order(u, "take aim", **OFFICER)
    issue_order(u, "take cover", **OFFICER)
    assert u.active is Order.TAKE_COVER


def test_battle_shocked_unit_loses_its_order():
    u = OrderedUnit("Squad")
    issue_order(u, "fix bayonets", **OFFICER)
    u.become_battle_shocked()
    assert u.active is None


def test_move_move_move():
    assert move_with_order(6, Order.MOVE_MOVE_MOVE) == 9


def test_fix_bayonets_improves_melee_ws_only():
    sword = weapon(WS=4)
    with_order = run(sword, model(T=1), attacker={"order": "fix bayonets"})
    assert with_order["hits"][1] == pytest.approx(4 / 6)
    gun = run(weapon(BS=4), model(T=1), attacker={"order": "fix bayonets"})
    assert gun["hits"][1] == pytest.approx(3 / 6)


def test_take_aim_improves_ranged_bs_only():
    assert run(weapon(BS=4), model(T=1), attacker={"order": "take aim"})["hits"][1] == pytest.approx(4 / 6)
    assert run(weapon(WS=4), model(T=1), attacker={"order": "take aim"})["hits"][1] == pytest.approx(3 / 6)


def test_first_rank_fire_adds_an_attack_to_rapid_fire_weapons():
    rf = weapon(A=1, abilities=["rapid fire 1", "torrent"])
    assert run(rf, model(T=30), attacker={"order": "First Rank, Fire! Second Rank, Fire!"})["hits"].max == 2
    plain = weapon(A=1, abilities=["torrent"])
    assert run(plain, model(T=30), attacker={"order": "first rank fire"})["hits"].max == 1


def test_take_cover_improves_save_not_beyond_3():
    assert save_with_order(5, Order.TAKE_COVER) == 4
    assert save_with_order(4, Order.TAKE_COVER) == 3
    assert save_with_order(3, Order.TAKE_COVER) == 3
    assert save_with_order(2, Order.TAKE_COVER) == 2
    r = run(weapon(S=30, abilities=["torrent"]), model(Sv=5), defender={"order": "take cover"})
    assert r["unsaved"][1] == pytest.approx(5 / 6 * 1 / 2)


def test_order_ignored_while_battle_shocked_in_scenarios():
    r = run(
        weapon(S=30, abilities=["torrent"]),
        model(Sv=5),
        defender={"order": "take cover", "battle_shocked": True},
    )
    assert r["unsaved"][1] == pytest.approx(5 / 6 * 4 / 6)


def test_duty_and_honour():
    assert leadership_with_order(7, 2, Order.DUTY_AND_HONOUR) == (6, 3)


def test_unknown_order_is_an_error():
    with pytest.raises(ScenarioError, match=r"attacker\.order.*allowed.*TAKE AIM"):
        run(weapon(), model(), attacker={"order": "charge!"})
