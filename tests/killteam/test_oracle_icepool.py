"""grimdice's exact Kill Team engine against an independent formulation in icepool.

The oracle states the rules directly as icepool dice: each attack die is a vector (critical hit,
normal hit) after re-rolling 1s (Ceaseless), Lethal and BS applied face by face; each defence die
a vector (critical save, normal save); the damage of an outcome is the least damage over every
assignment of defence dice to attack dice (:func:`brute_unsaved`), plus MW per critical hit, capped
by the wounds. Small random scenarios without decisions other than the allocation (no Cover, no
invulnerable save, only Ceaseless re-rolls, which are always worth taking against these targets).
"""

import random

import icepool
import pytest

from tests.killteam.helpers import gun, operative, run
from tests.killteam.test_rolls import brute_unsaved
from tests.oracle import from_icepool

V = icepool.Vector


def oracle(p):
    face = icepool.d6.reroll([1], depth=1) if p["ceaseless"] else icepool.d6

    def attack(f):
        hit = f >= p["BS"] and f != 1
        crit = f == 6 or (hit and f >= p["lethal"])
        return V((1, 0)) if crit else V((0, 1)) if hit else V((0, 0))

    def save(f):
        return V((1, 0)) if f == 6 else V((0, 1)) if f >= p["SV"] and f != 1 else V((0, 0))

    hits = p["A"] @ face.map(attack)

    def damage(h):
        c, n = h
        mw = p["MW"] * c
        ap = max(p["AP"], p["P"] if c else 0)
        k = max(p["DF"] - ap, 0)
        if c + n == 0 or mw >= p["W"]:
            return icepool.Die([min(mw, p["W"])])
        saves = k @ icepool.d6.map(save) if k else icepool.Die([V((0, 0))])

        def left(s):
            cs, ns = s
            best = min(
                uc * p["crit"] + un * p["norm"]
                for uc, un in brute_unsaved("C" * c + "N" * n, "c" * cs + "n" * ns)
            )
            return min(mw + best, p["W"])

        return saves.map(left)

    return hits.map(lambda h: h[0] + h[1]), hits.map(damage)


def random_case(rng):
    norm = rng.randint(1, 4)
    return {
        "A": rng.randint(1, 4),
        "BS": rng.randint(2, 5),
        "lethal": rng.choice([4, 5, 6, 6]),
        "norm": norm,
        "crit": norm + rng.randint(0, 3),
        "DF": rng.randint(0, 3),
        "SV": rng.randint(2, 5),
        "AP": rng.choice([0, 0, 1]),
        "P": rng.choice([0, 1, 2]),
        "MW": rng.choice([0, 0, 1, 2]),
        "ceaseless": rng.random() < 0.4,
        "W": rng.randint(3, 14),
    }


@pytest.mark.parametrize("seed", range(12))
def test_exact_engine_matches_icepool(seed):
    p = random_case(random.Random(seed))
    rules = (
        [f"Lethal {p['lethal']}+"]
        + (["Ceaseless"] if p["ceaseless"] else [])
        + ([f"AP{p['AP']}"] if p["AP"] else [])
    )
    crit = ([f"P{p['P']}"] if p["P"] else []) + ([f"MW{p['MW']}"] if p["MW"] else [])
    w = gun(A=p["A"], BS=p["BS"], D=f"{p['norm']}/{p['crit']}", rules=rules, critical=crit)
    res = run(w, operative(DF=p["DF"], SV=p["SV"], W=p["W"]))
    hits, damage = oracle(p)
    assert res["hits"].allclose(from_icepool(hits), atol=1e-12), p
    assert res["damage"].allclose(from_icepool(damage), atol=1e-12), p
