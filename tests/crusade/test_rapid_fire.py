"""RAPID FIRE (rules-crusade VIII): "May fire weapon twice if all targets are within 6"."

Reading ``rapid_fire_aim``: each shot goes at any listed target, the second after seeing the
first's result; a dead target takes no more damage and is never shot again; a shot that would gain
nothing is held (no roll, so no fail)."""

from __future__ import annotations

from fractions import Fraction as Fr
from itertools import product

import icepool

from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import FACES, close, many, model
from tests.oracle import from_icepool


def _one_target_law():
    """1R twice at a 1-hit, armour-0 target (graze S), written out: a 2 or 3 kills, a 1 stuns,
    stun + stun = KO; the second shot is not fired once the target is dead."""
    law: dict[tuple[str, int, int], Fr] = {}
    for a in FACES["R"]:
        if a >= 2:
            key = ("killed", a, 1)
            law[key] = law.get(key, 0) + Fr(1, 6)
            continue
        for b in FACES["R"]:
            state = "stunned" if a == 1 else "unharmed"
            if b >= 2:
                state = "killed"
            elif b == 1:
                state = "ko" if state == "stunned" else "stunned"
            key = (state, a + b, 2)
            law[key] = law.get(key, 0) + Fr(1, 36)
    return law


def test_a_dead_target_takes_no_more_damage():
    res = calculate(many("1R", ["Rap"], [model(name="t")], range=4))
    law = _one_target_law()
    dmg: dict[int, Fr] = {}
    for (_, d, _), p in law.items():
        dmg[d] = dmg.get(d, 0) + p
    for d, p in dmg.items():
        assert close(res["damage"][d], p)
    # E[damage] = 1 (first shot) + 4/6 * 1 (the second, fired only at a living target)
    assert close(res["damage"].mean(), Fr(5, 3))
    state = res.targets["0: t"].extra["end_state"]
    assert close(state["killed"], Fr(2, 6) + Fr(4, 6) * Fr(2, 6))
    assert close(state["ko"], Fr(1, 36))
    aim = res.extra["aim"]
    assert close(aim["roll 1"]["0: t"], 1)
    assert close(aim["roll 2"]["0: t"], Fr(4, 6)) and close(aim["roll 2"]["held"], Fr(2, 6))
    assert any("rapid_fire_aim" in n for n in res.notes)


def test_damage_against_the_icepool_oracle():
    """The damage law from icepool: the second die counts only when the first did not kill."""
    r = icepool.Die(FACES["R"])

    def total(a: int, b: int) -> int:
        return a if a >= 2 else a + b

    want = from_icepool(icepool.map(total, r, r))
    got = calculate(many("1R", ["Rap"], [model(name="t")], range=4))["damage"]
    for k in range(7):
        assert abs(got[k] - want[k]) < 1e-12


def test_no_fail_from_a_held_second_shot():
    # 2W at a 1-hit armour-0 target: a total of 2 or more kills (P 1 - (4/6)^2 - 2 * 4/6 * 1/6 = 5/36
    # ... written out below); a fail is both whites at 2 (1/36), and a killing first roll holds the second
    w = FACES["W"]
    p_kill = Fr(sum(1 for a, b in product(w, w) if a + b >= 2), 36)
    res = calculate(many("2W", ["Rap"], [model(name="t")], range=4))
    # fails: the first roll (1/36) plus the second, fired only when the first did not kill
    assert close(res["fail"].mean(), Fr(1, 36) + (1 - p_kill) * Fr(1, 36))


def test_the_second_shot_goes_where_it_helps():
    # a: armour 0; b: armour 5 (1R can never hurt it). Both shots at a; the second held once a is dead
    res = calculate(many("1R", ["Rap"], [model(name="a"), model(name="b", armour=5)], range=4))
    assert res.targets["1: b"].extra["end_state"]["unharmed"] == 1
    assert close(res.targets["0: a"].extra["end_state"]["killed"], Fr(2, 6) + Fr(4, 6) * Fr(2, 6))
    assert close(res.extra["aim"]["roll 2"]["held"], Fr(2, 6))
    # two equal targets: the first shot at a; the second at a if alive (a stunned a is worth more:
    # a 1 then KOs it), else at b: P(b killed) = 2/6 * 2/6
    res = calculate(many("1R", ["Rap"], [model(name="a"), model(name="b")], range=4))
    assert close(res.targets["1: b"].extra["end_state"]["killed"], Fr(1, 9))
    assert close(res.targets["0: a"].extra["end_state"]["killed"], Fr(5, 9))
    assert close(res.extra["aim"]["roll 2"]["1: b"], Fr(2, 6))


def test_exact_and_monte_carlo_agree_on_aimed_shots():
    targets = [model(name="a", hits=2, abilities=["+F"]), model(name="b", armour=1, condition="wounded")]
    sc = many("2W+1R", ["Rap", "KB"], targets, range=4, knockback_into="obstacle")
    ex, mc = calculate(sc), calculate(sc, simulate=4000, seed=3)
    keys = ("damage", "models_destroyed", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 4000)
    for name in ("0: a", "1: b"):
        keys = ("condition", "damage")
        assert_agree({k: ex.targets[name][k] for k in keys}, {k: mc.targets[name][k] for k in keys}, 4000)
