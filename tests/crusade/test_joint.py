"""The joint law of a many-target attack: its marginals are ``calculate()``'s, and a literal
brute force over every face agrees with it where the targets share one roll."""

from __future__ import annotations

from collections import defaultdict
from itertools import product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import CONDITIONS, KILLED, NONE, WOUNDED
from grimdice.systems.crusade.joint import joint_law
from grimdice.systems.crusade.profiles import Scenario

WHITE = (0, 0, 0, 0, 1, 2)
RED = (0, 0, 0, 1, 2, 3)


def _scenario(effects: list[str], targets: list[dict], abilities: list[str] | None = None) -> dict:
    return {
        "system": "crusade",
        "action": "shoot",
        "attacker": {
            "name": "gunner",
            "armour": 1,
            "abilities": abilities or [],
            "weapons": [{"name": "gun", "dice": "2W+1R", "effects": effects}],
        },
        "defender": {"name": "unused"},
        "targets": targets,
    }


TWO = [
    {"name": "a", "armour": 0, "hits": 1, "range": 3},
    {"name": "b", "armour": 1, "hits": 1, "range": 5, "cover": "full"},
]


@pytest.mark.parametrize(("grazes", "rolled"), [(False, False), (True, False), (False, True)])
def test_line_joint_law_is_the_brute_force_over_every_face(grazes, rolled):
    # VIII LINE: "Apply the roll to ALL eligible models in the line (though some may be in cover)";
    # III: damage is the roll less the armour, one point on a one-hit model a graze (W: wounded),
    # more a kill; "A weapon fails if it rolls a maximum value on two or more dice"; II: cover +1
    # VIII BURN: "as long as a result greater than zero is rolled on the dice" (marked when asked)
    law = joint_law(Scenario.model_validate(_scenario(["LINE", "W"], TWO)), grazes=grazes, rolled=rolled)
    brute: dict = defaultdict(float)
    for w1, w2, r in product(WHITE, WHITE, RED):
        total = w1 + w2 + r
        failed = (w1 == 2) + (w2 == 2) + (r == 3) >= 2
        ends, grazed = [], []
        for armour in (0, 1 + 1):  # b: armour 1, +1 in full cover
            d = total - armour
            ends.append((NONE, 1) if d <= 0 else (WOUNDED, 1) if d == 1 else (KILLED, 0))
            grazed.append(grazes and d == 1)  # told apart only when asked for
        above = (rolled and total > 0,) * 2  # one roll at both; no knockback: nobody moved
        brute[(tuple(ends), (False, False), failed, tuple(grazed), above)] += 1 / 216
    assert set(law) == set(brute)
    for k, p in brute.items():
        assert law[k] == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize(
    ("effects", "abilities", "targets"),
    [
        (["LINE", "W"], ["R"], TWO),
        (["B", "AREA 2", "S"], [], [*TWO, {"name": "c", "armour": 2, "hits": 2, "range": 4}]),
        (["*", "W"], [], TWO),
        (["RAP", "W"], ["R"], [{**TWO[0], "abilities": ["JINK"]}, TWO[1]]),
        (["RAP", "W"], [], TWO[:1]),
        (["HFT", "W"], ["R"], TWO),
        (["AREA 2", "K"], [], TWO),
    ],
    ids=["line-reroll", "blast", "split", "rapid-two-jink", "rapid-one", "flamer-reroll", "area"],
)
def test_marginals_equal_calculate(effects, abilities, targets):
    data = _scenario(effects, targets, abilities)
    law = joint_law(Scenario.model_validate(data))
    res = calculate(data)
    assert sum(law.values()) == pytest.approx(1.0, abs=1e-12)
    for n, name in enumerate(res.targets):
        end = res.targets[name].extra["end_state"]
        for c, cond in enumerate(CONDITIONS):
            got = sum(p for (states, *_), p in law.items() if states[n][0] == c)
            assert got == pytest.approx(end[cond], abs=1e-9), (name, cond)
    killed = defaultdict(float)
    for (states, *_), p in law.items():
        killed[sum(s[0] == KILLED for s in states)] += p
    for k, p in res.stages["models_destroyed"].to_dict().items():
        assert killed[k] == pytest.approx(p, abs=1e-9)
    failed = sum(p for (_, _, f, *_), p in law.items() if f)
    assert failed == pytest.approx(1 - res.stages["fail"].to_dict().get(0, 0.0), abs=1e-9)


def test_a_joint_law_needs_targets():
    data = _scenario(["LINE"], [])
    with pytest.raises(ScenarioError) as e:
        joint_law(Scenario.model_validate(data))
    assert e.value.field == "targets"


def test_each_target_has_its_own_knockback_square():
    # VIII KNOCKBACK: "If they move into a wall or piece of cover, or into another model, they take
    # a stun": the target with a wall behind is stunned by a tie, the other is not
    targets = [
        {"name": "a", "armour": 1, "hits": 1, "range": 3, "knockback_into": "obstacle"},
        {"name": "b", "armour": 1, "hits": 1, "range": 3},
    ]
    law = joint_law(Scenario.model_validate(_scenario(["LINE", "KB", "W"], targets)))
    # a total of 1 ties both armours: only a is stunned
    stunned_a = sum(p for (states, *_), p in law.items() if states[0][0] == 1)
    stunned_b = sum(p for (states, *_), p in law.items() if states[1][0] == 1)
    assert stunned_a > 0 and stunned_b == 0
    # "if you tie OR EXCEED with a ranged attack, move the target": b (1 hit, armour 1) is moved by
    # a total of 1 (a tie) or 2 (a wound); 3 or more kill it
    totals = [w1 + w2 + r for w1, w2, r in product(WHITE, WHITE, RED)]
    moved_b = sum(p for (_, moved, *_), p in law.items() if moved[1])
    assert moved_b == pytest.approx(sum(t in (1, 2) for t in totals) / 216, abs=1e-12)
