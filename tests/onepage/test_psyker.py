"""Psyker(X) as a scenario (``attack: psyker``): "receive D3+X power ... a maximum of 6 power dice";
"rolling any number of power dice, trying to score a 4+. If the player rolls as many 4+ as the number
in brackets he may resolve all effects. If the player rolls two or more 6s then the manifesting
Psyker takes D3 automatic wounds." The text names no Psychic Power: only the casting is modelled."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import icepool
import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.onepage import calculate
from tests.agreement import assert_agree


def psyker(x: int, tough: int = 1, **conditions) -> dict:  # type: ignore[no-untyped-def]
    return {
        "system": "onepage",
        "attack": "psyker",
        "defender": {"name": "Seer", "quality": 4, "special_rules": [f"Psyker({x})", f"Tough({tough})"]},
        "conditions": conditions,
    }


def close(x: float, f: F) -> bool:
    return abs(x - float(f)) < 1e-12


def perils(k: int) -> F:
    """Two or more 6s among k dice."""
    return 1 - F(5, 6) ** k - k * F(1, 6) * F(5, 6) ** (k - 1)


def test_power_dice_manifest_and_perils_by_hand() -> None:
    # Psyker(1): D3+1 power dice = 2, 3 or 4 (1/3 each), all rolled; 1 success (4+) needed
    r = calculate(psyker(1))
    for k in (2, 3, 4):
        assert close(r["power_dice"][k], F(1, 3))
    assert close(r["manifested"][1], sum((1 - F(1, 2) ** k) / 3 for k in (2, 3, 4)))
    p = sum(perils(k) / 3 for k in (2, 3, 4))
    assert close(r["perils"][1], p)
    # Tough(1): any perils (D3 >= 1 wound) kills it
    assert close(r["destroyed"][1], p)
    # Tough(3): only a D3 of 3 kills; 1 or 2 wounds stay on the model
    r3 = calculate(psyker(1, tough=3))
    assert close(r3["destroyed"][1], p / 3) and close(r3["tough_wounds"][2], p / 3)
    assert close(r3["damage"].mean(), p * 2)


def test_the_round_gives_at_most_six_dice_and_the_roll_is_capped_by_them() -> None:
    # Psyker(5): D3+5 -> 6 (capped) always; 3 dice asked are rolled; need 2 successes
    r = calculate(psyker(5, power_dice=3, power_need=2))
    assert close(r["power_dice"][6], F(1)) and close(r["dice_rolled"][3], F(1))
    assert close(r["manifested"][1], 3 * F(1, 2) ** 3 + F(1, 2) ** 3)
    # asking for 6 dice with only D3+1 in the round: the pool caps the roll
    r2 = calculate(psyker(1, power_dice=6))
    assert r2["dice_rolled"].max == 4


def test_casting_brute_force_every_die() -> None:
    # independent oracle: D3 via a halved D6, every power die enumerated (levels 2, need 2)
    r = calculate(psyker(2, tough=2))
    ok = per = F(0)
    for d3 in range(1, 7):
        k = (d3 + 1) // 2 + 2
        for dice in product(range(1, 7), repeat=k):
            w = F(1, 6) * F(1, 6) ** k
            ok += w * (sum(x >= 4 for x in dice) >= 2)
            per += w * (sum(x == 6 for x in dice) >= 2)
    assert close(r["manifested"][1], ok) and close(r["perils"][1], per)
    # icepool: D3 wounds kill a Tough(2) Psyker on 2 or 3
    d3 = (icepool.d6 + 1) // 2
    kill = F(sum(q for v, q in d3.items() if v >= 2), d3.denominator())
    assert close(r["destroyed"][1], per * kill)


def test_exact_agrees_with_monte_carlo() -> None:
    n = 20_000
    sc = {
        **psyker(2, tough=3, power_dice=4, power_need=2),
        "defender": {"name": "Guard", "size": 5, "quality": 4},
        "defender_hero": {"name": "Seer", "quality": 4, "special_rules": ["Psyker(2)", "Tough(3)"]},
    }
    exact = calculate(sc)
    sim = calculate(sc, simulate=n, seed=11)
    assert_agree(exact.stages, sim.stages, n)
    # the perils wounds go on the joined Psyker, not on the Guard
    assert exact["models_destroyed"].max == 1
    assert any("psyker" in note for note in exact.notes)


def test_not_a_psyker() -> None:
    with pytest.raises(ScenarioError) as e:
        calculate({**psyker(1), "defender": {"name": "Guard", "quality": 4}})
    assert e.value.field == "defender.special_rules"
