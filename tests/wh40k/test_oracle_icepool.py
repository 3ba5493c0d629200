"""grimdice's exact 40k engine against an independent formulation in icepool.

The oracle re-states the rules directly as icepool dice (hit die -> wound die -> save die ->
damage with Feel No Pain -> model-by-model state), on small random scenarios.
"""

import random

import icepool
import numpy as np
import pytest

from tests.wh40k.helpers import model, run, weapon


def wound_needed(S, T):
    return 2 if S >= 2 * T else 3 if S > T else 4 if S == T else 6 if 2 * S <= T else 5


def oracle(p):
    d6 = icepool.d6
    mod = max(-1, min(1, p["hit_mod"]))

    def hit_kind(f):
        if f >= p["crit"]:
            return 2
        return 1 if f != 1 and f + mod >= p["BS"] else 0

    need = wound_needed(p["S"], p["T"])
    wound_face = d6
    if p["twin"]:
        wound_face = d6.reroll([f for f in range(1, 7) if not (f == 6 or (f != 1 and f >= need))], depth=1)
    wounds = wound_face.map(lambda f: 1 if f == 6 or (f != 1 and f >= need) else 0)
    save_need = min(p["Sv"] - p["AP"], p["inv"] or 7)
    fails = d6.map(lambda f: 1 if f == 1 or f < save_need else 0)
    token = wounds * fails  # one hit that rolls to wound, then to save
    extra = p["sus"] @ token if p["sus"] else icepool.Die([0])

    def per_hit(kind):
        if kind == 0:
            return icepool.Die([0])
        if kind == 1:
            return token
        first = fails if p["lethal"] else token
        return first + extra

    per_attack = d6.map(hit_kind).map(per_hit)
    a_die = icepool.Die([1, 2, 3]) if p["A"] == "D3" else icepool.Die([p["A"]])
    n_attacks = p["shooters"] @ a_die
    tokens = n_attacks @ per_attack
    dmg = icepool.Die([1, 2, 3]) if p["D"] == "D3" else icepool.Die([p["D"]])
    keep = d6.map(lambda f: 0 if p["fnp"] and f >= p["fnp"] else 1)
    eff = dmg.map(lambda d: d @ keep)
    W, n = p["W"], p["models"]

    def step(state, e):
        killed, left, total = state
        if killed == n:
            return state
        lost = min(left, e)
        left -= lost
        return (killed + 1, W, total + lost) if left == 0 else (killed, left, total + lost)

    states = [icepool.Die([(0, W, 0)])]
    for _ in range(tokens.max_outcome()):
        states.append(icepool.map(step, states[-1], eff))
    killed = np.zeros(n + 1)
    damage = np.zeros(n * W + 1)
    tot = tokens.denominator()
    for k, q in tokens.items():
        d = states[k]
        dt = d.denominator()
        for (kk, _, dd), qq in d.items():
            killed[kk] += q / tot * qq / dt
            damage[dd] += q / tot * qq / dt
    return killed, damage


def random_case(rng):
    return {
        "A": rng.choice([1, 2, "D3"]),
        "shooters": rng.randint(1, 2),
        "BS": rng.randint(2, 6),
        "S": rng.randint(2, 9),
        "T": rng.randint(2, 8),
        "AP": -rng.randint(0, 3),
        "D": rng.choice([1, 2, "D3"]),
        "Sv": rng.randint(2, 6),
        "inv": rng.choice([None, None, 4, 5]),
        "W": rng.randint(1, 3),
        "models": rng.randint(1, 3),
        "fnp": rng.choice([None, 5, 6]),
        "lethal": rng.random() < 0.4,
        "sus": rng.choice([0, 0, 1, 2]),
        "twin": rng.random() < 0.3,
        "crit": rng.choice([5, 6, 6]),
        "hit_mod": rng.choice([-2, -1, 0, 0, 1]),
    }


def ours(p):
    abilities = (["lethal hits"] if p["lethal"] else []) + (
        [f"sustained hits {p['sus']}"] if p["sus"] else []
    )
    abilities += ["twin-linked"] if p["twin"] else []
    w = weapon(
        A=p["A"], BS=p["BS"], S=p["S"], AP=p["AP"], D=p["D"], abilities=abilities, critical_hit=p["crit"]
    )
    m = model(count=p["models"], T=p["T"], Sv=p["Sv"], W=p["W"], invulnerable=p["inv"], FNP=p["fnp"])
    return run(w, m, count=p["shooters"], conditions={"hit_modifier": p["hit_mod"]})


@pytest.mark.parametrize("seed", range(12))
def test_random_scenario_matches_icepool(seed):
    p = random_case(random.Random(seed))
    killed, damage = oracle(p)
    r = ours(p)
    got_k = np.array([r["models_destroyed"][k] for k in range(killed.size)])
    got_d = np.array([r["damage"][k] for k in range(damage.size)])
    assert np.allclose(got_k, killed, atol=1e-10), p
    assert np.allclose(got_d, damage, atol=1e-10), p
