"""``action: fight`` end to end: scenario profiles -> the real fight engine -> the JSON contract."""

import pytest

from grimdice.systems.killteam import calculate
from grimdice.systems.killteam.fight import Objective, solve_fight
from tests.killteam.helpers import fighter


def duel(attacker_weapon, target_weapon, **kw):
    sc = {
        "system": "killteam",
        "action": "fight",
        "attacker": {"name": "a", "W": kw.pop("attacker_W", 3), "weapons": [attacker_weapon]},
        "target": {"name": "d", "W": kw.pop("target_W", 3), "weapons": [target_weapon]},
    }
    sc.update(kw)
    return calculate(sc)


def test_one_die_each_by_hand():
    # attacker: 1 die, 4+, 3/4 damage kills the W3 defender whenever it hits (1/2) and strikes
    # first; the defender (3+, 2/3) then kills the W3 attacker only with a 6 when it survived.
    res = duel({"A": 1, "WS": 4, "D": "3/4"}, {"A": 1, "WS": 3, "D": "2/3"})
    assert res.method == "exact"
    assert res["models_destroyed"][1] == pytest.approx(1 / 2, abs=1e-12)
    assert res["attacker_incapacitated"][1] == pytest.approx(1 / 2 * 1 / 6, abs=1e-12)
    assert res["damage"].mean() == pytest.approx(3 / 2, abs=1e-12)
    out = res.to_json()
    assert out["system"] == "killteam"
    assert sum(out["damage"]["pmf"]) == pytest.approx(1.0)
    assert out["p_defender_incapacitated"] == pytest.approx(1 / 2, abs=1e-12)
    assert "resolution" in out["policy"]


def test_scenario_objectives_and_rules_reach_the_engine():
    res = duel(
        {"A": 3, "WS": 3, "D": "3/5", "rules": ["Brutal"], "critical": ["Rending"]},
        {"A": 3, "WS": 4, "D": "2/4", "rules": ["Ceaseless", "Lethal 5+"]},
        attacker_W=8,
        target_W=9,
        objectives={"attacker": "damage_dealt", "defender": "damage_taken"},
    )
    att = fighter("a", 8, 3, 3, 3, 5, rending=True, brutal=True, objective=Objective.DAMAGE_DEALT)
    dfd = fighter("d", 9, 3, 4, 2, 4, lethal=5, ceaseless=True, objective=Objective.DAMAGE_TAKEN)
    sol = solve_fight(att, dfd)
    assert res["damage"].allclose(sol.damage_dealt)
    assert res["damage_taken"].allclose(sol.damage_taken)
    # changing an objective changes the solved game the scenario asks for
    other = duel(
        {"A": 3, "WS": 3, "D": "3/5", "rules": ["Brutal"], "critical": ["Rending"]},
        {"A": 3, "WS": 4, "D": "2/4", "rules": ["Ceaseless", "Lethal 5+"]},
        attacker_W=8,
        target_W=9,
    )
    assert other.extra["objectives"] != res.extra["objectives"]


def test_injured_fighter_worsens_ws():
    # W 10 with 4 wounds left is injured: WS 3+ fights as 4+ (hit chance 3/6 instead of 4/6)
    res = duel({"A": 1, "WS": 3, "D": "1/1"}, {"A": 1, "WS": 6, "D": "1/1"}, attacker_W=10, target_W=10)
    hurt = calculate(
        {
            "system": "killteam",
            "action": "fight",
            "attacker": {"name": "a", "W": 10, "wounds": 4, "weapons": [{"A": 1, "WS": 3, "D": "1/1"}]},
            "target": {"name": "d", "W": 10, "weapons": [{"A": 1, "WS": 6, "D": "1/1"}]},
        }
    )
    assert res["hits"][1] == pytest.approx(4 / 6, abs=1e-12)
    assert hurt["hits"][1] == pytest.approx(3 / 6, abs=1e-12)


def test_simulated_fight_is_seeded():
    w = ({"A": 2, "WS": 3, "D": "3/4"}, {"A": 2, "WS": 4, "D": "2/3"})
    a = calculate({**_sc(*w)}, simulate=2000, seed=3)
    b = calculate({**_sc(*w)}, simulate=2000, seed=3)
    assert a.method == "simulated"
    assert a.to_json() == b.to_json()


def _sc(aw, dw):
    return {
        "system": "killteam",
        "action": "fight",
        "attacker": {"name": "a", "W": 6, "weapons": [aw]},
        "target": {"name": "d", "W": 6, "weapons": [dw]},
    }
