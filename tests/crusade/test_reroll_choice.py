"""The die each side re-rolls (VIII R, RO; IV "attacker must reroll first") is optimal for that side,
the fail risk included (III: "A weapon fails if it rolls a maximum value on two or more dice ...
Rerolling will not "undo" a fail"): the engine, which re-rolls the best die of a dominance chain,
against a literal brute force over every face and every die (tests/crusade/brute.py)."""

from fractions import Fraction

import numpy as np
import pytest

from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.contest import harms, solve
from grimdice.systems.crusade.profiles import Scenario
from tests.crusade.brute import brute_value
from tests.crusade.helpers import fight, model, run

KNIFE = {"name": "knife", "dice": "1W", "kind": "melee"}
PLAGUE_KNIFE = {"name": "pk", "dice": "1W", "kind": "melee", "effects": ["PLAGUE"]}

CASES = {
    # both sides re-roll an opponent die (RO): the one case the former docs left open on fails
    "ro_vs_ro": (model(melee="1W+1R", abilities=["RO"]), model(melee="1W", abilities=["RO"]), "never"),
    # a three-die pool: a re-roll can create a fail (one maximum showing) or not
    "three_dice": (model(melee="2W+1R", abilities=["R"]), model(melee="1W"), "never"),
    # PLAGUE makes a tie worth more than a small win: the harm is not monotone in the total
    "plague_tie": (
        model(melee="1R", abilities=["RO"], weapons=[PLAGUE_KNIFE]),
        model(melee="1R", abilities=["R"], weapons=[KNIFE]),
        "optimal",
    ),
    # multi-hit models (hits lost is a key) and a re-rolling, parrying defender
    "hits_and_parry": (
        model(melee="1W+1R", abilities=["R"], hits=2),
        model(melee="1W", abilities=["RO"], hits=2, weapons=[KNIFE]),
        "optimal",
    ),
}


def _vector(lay, v):
    return (
        harms(lay, v, "def") + harms(lay, v, "att") + [lay.part(v, "att_fail")[1], lay.part(v, "def_fail")[1]]
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_reroll_choice_matches_every_die_brute_force(case):
    a, d, parry = CASES[case]
    atk = build(Scenario.model_validate(fight(a, d, parry=parry)))
    got = _vector(atk.spec.layout, solve(atk.spec).value)
    ref = _vector(atk.spec.layout, brute_value(atk.spec))
    assert got == pytest.approx(ref, abs=1e-12)


def test_rerolled_die_reported_and_by_hand():
    """1R with R against 1W (one hit each, unarmed: a win by 1 stuns, by 2 or more kills). The
    attacker re-rolls his red die whenever that raises P(kill): a 0 always (1/2); a 1 always (it
    never kills: 1/6); a 2 against a white 1 or 2 (it kills only a white 0: 1/6 * 2/6); a 3 never
    (against a white 2 a re-roll cannot kill and would risk the stun it already does)."""
    res = run(fight(model(melee="1R", abilities=["R"]), model(melee="1W"), parry="never"))
    dice = res.extra["choices"]["rerolled_dice"]
    assert dice["attacker"]["own R0"] == pytest.approx(float(Fraction(1, 2)), abs=1e-12)
    assert dice["attacker"]["own R1"] == pytest.approx(float(Fraction(1, 6)), abs=1e-12)
    assert dice["attacker"]["own R2"] == pytest.approx(float(Fraction(2, 36)), abs=1e-12)
    assert "own R3" not in dice["attacker"]
    assert dice["defender"] == {}
    total = sum(dice["attacker"].values())
    assert total == pytest.approx(res.extra["choices"]["attacker_rerolls"]["own"], abs=1e-12)


def test_fail_tie_break_prefers_the_safe_die():
    """With the kill already certain, no re-roll is taken (a re-roll could only add a fail)."""
    a = model(melee="2R+6", abilities=["R"])
    res = run(fight(a, model(melee="1W"), parry="never"))
    assert res.extra["end_state"]["killed"] == pytest.approx(1.0, abs=1e-12)
    assert res.extra["choices"]["attacker_rerolls"]["none"] == pytest.approx(1.0)
    # the fail is the first roll's only: two reds both at 3
    assert res["fail"][1] == pytest.approx(1 / 36, abs=1e-12)
    assert np.isclose(res.extra["choices"]["rerolled_dice"]["attacker"].get("own R0", 0.0), 0.0)
