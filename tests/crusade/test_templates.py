"""Many targets (rules-crusade VIII LINE, BLAST, FLAMER TEMPLATE, SPLIT FIRE, RAPID FIRE)."""

from fractions import Fraction as Fr
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import close, gun, model

R = (0, 0, 0, 1, 2, 3)
W = (0, 0, 0, 0, 1, 2)


def many(dice, code, targets, **kw):
    sc = {
        "system": "crusade",
        "attacker": model(name="firer", weapons=[gun(dice, ["S", code])]),
        "defender": model(),
        "targets": targets,
    }
    sc.update(kw)
    return sc


TWO = [model(name="a"), model(name="b", range=12)]


def test_line_applies_one_roll_to_every_target():
    res = calculate(many("1R", "LINE", TWO))
    d = res["models_destroyed"]
    assert close(d[2], Fr(1, 6)) and close(d[1], Fr(1, 6)) and close(d[0], Fr(4, 6))
    assert close(res.targets["1: b"].extra["end_state"]["stunned"], Fr(1, 6))  # 12": -1


def test_flamer_rolls_separately():
    d = calculate(many("1R", "FT", TWO))["models_destroyed"]
    assert close(d[2], Fr(2, 6) * Fr(1, 6)) and close(d[0], Fr(4, 6) * Fr(5, 6))


def test_blast_centre_total_outside_highest_die():
    res = calculate(many("2W", "B", [model(name="c"), model(name="o")]))
    law = {}
    for a, b in product(W, W):
        k = int(a + b >= 2) + int(max(a, b) >= 2)
        law[k] = law.get(k, 0) + Fr(1, 36)
    for k, p in law.items():
        assert close(res["models_destroyed"][k], p)


def test_split_fire_best_split():
    res = calculate(many("2R", "*", [model(name="a"), model(name="b")]))
    e = sum(Fr(1, 36) * min(2, (a + b) // 2) for a, b in product(R, R))
    assert close(res["models_destroyed"].mean(), e)
    assert res.extra["split"]["4"] == [2, 2]


def test_rapid_fire_second_shot_on_the_state_left():
    res = calculate(many("1R", "Rap", [model(name="t", hits=2)], range=4))

    def hit(state, d):  # (killed, hits left) by the multi-hit reading, written out again
        k, h = state
        if k or d == 0:
            return state
        if d > h:
            return (True, 0)
        return (False, h - d) if h >= 2 else (False, h)  # h == 1, d == 1: a graze (stun)

    kill = sum(Fr(1, 36) for a, b in product(R, R) if hit(hit((False, 2), a), b)[0])
    assert close(res["models_destroyed"][1], kill)
    with pytest.raises(ScenarioError) as e:
        calculate(many("1R", "Rap", [model(name="t")], range=7))
    assert e.value.field == "targets"


def test_targets_need_a_template_weapon():
    with pytest.raises(ScenarioError) as e:
        calculate(many("1R", "AP", TWO))
    assert e.value.field == "targets"


@pytest.mark.parametrize("code", ["B", "*"])
def test_exact_vs_monte_carlo(code):
    targets = [
        model(name="a", armour=1, cover="front", range=5),
        model(name="b", hits=2, abilities=["+F"], range=13),
    ]
    sc = many("2W+1R+1", code, targets)
    ex, mc = calculate(sc), calculate(sc, simulate=4000, seed=7)
    keys = ("damage", "models_destroyed", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 4000)
    for name in ex.targets:
        assert_agree({"c": ex.targets[name]["condition"]}, {"c": mc.targets[name]["condition"]}, 4000)


def test_split_fire_splits_the_plus_with_the_dice():
    # VIII SPLIT FIRE: "Split the total up amongst any targets": the plus is part of the total.
    # 1R+2 between two 0-armour 1-hit models: both killed only if the total (red + 2) >= 4,
    # each share needing 2 to kill: P(red >= 2) = 2/6.
    res = calculate(many("1R+2", "*", [model(name="a"), model(name="b")]))
    assert close(res["models_destroyed"][2], Fr(1, 3))
    assert close(res["models_destroyed"][1], Fr(2, 3))  # red 0 or 1: a total of 2 or 3 kills one
    assert res.extra["split"]["0"] in ([2, 0], [0, 2])  # the plus alone is the total split


def test_split_fire_target_given_nothing_is_not_shot():
    # 1R with AP and PLAGUE at two 1-armour models: AP makes any share of 1 or more exceed the
    # armour (no tie), so no PLAGUE wound ever; a share of 0 is no shot (AP on it would be a tie)
    sc = many("1R", "*", [model(name="a", armour=1), model(name="b", armour=1)])
    sc["attacker"]["weapons"][0]["effects"] += ["AP", "PLAGUE"]
    res = calculate(sc)
    for name in res.targets:
        assert res.targets[name].extra["end_state"].get("wounded", 0.0) == 0.0
    assert close(res["models_destroyed"][0], Fr(4, 6))  # red 2 or 3 kills one (2 + AP - 1 >= 2)
