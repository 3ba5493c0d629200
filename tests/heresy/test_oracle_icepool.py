"""grimdice's exact Heresy engine against an independent formulation in icepool.

The oracle re-states the 2.0 rules directly as icepool dice (hit die with the BS 6+ or
Twin-linked re-roll -> wound die with Rending, Breaching and Shred -> best save -> one Damage
Mitigation roll -> wound lost or Instant Death, X times for Brutal (X)) and walks the defending
unit model by model, on small random scenarios.
"""

import random

import icepool
import numpy as np
import pytest

from tests.heresy.helpers import model, run, weapon
from tests.oracle import walk

d6 = icepool.d6
KILL = 9  # an Instant Death wound


def hit_die(p):
    t1 = max(2, 7 - p["BS"])
    t2 = t1 if p["twin"] else (max(2, 12 - p["BS"]) if p["BS"] >= 6 else None)
    first = d6.map(lambda f: int(f != 1 and f >= t1))
    if t2 is None:
        return first
    second = d6.map(lambda f: int(f != 1 and f >= t2))
    return first.map(lambda h: icepool.Die([1]) if h else second)


def wound_die(p):
    d = p["S"] - p["T"]
    need = 2 if d >= 2 else 3 if d == 1 else 4 if d == 0 else 5 if d == -1 else 6 if d >= -3 else 7

    def kind(f):
        if f == 1 or not (f >= need or f >= p["rending"]):
            return 0
        return 2 if f >= min(p["rending"], p["breaching"]) else 1

    failing = [f for f in range(1, 7) if kind(f) == 0]
    die = d6.reroll(failing, depth=1) if p["shred"] and len(failing) < 6 else d6
    return die.map(kind)


def loss_die(p, special):
    ap = 2 if special else p["AP"]
    need = min(p["Sv"] if ap > p["Sv"] else 7, p["inv"], p["cover"])
    inst = p["ID"] or p["S"] >= 2 * p["T"]
    mit = min(p["shrouded"], 7 if inst else p["fnp"])
    return d6.map(lambda f: 0 if f != 1 and f >= need else 1).map(
        lambda failed: (
            0 if not failed else d6.map(lambda g: 0 if g != 1 and g >= mit else (KILL if inst else 1))
        )
    )


def brutal(sub, x):
    """X independent sub-wound outcomes, as the decimal digits of one number (first digit first)."""
    out = sub
    for _ in range(x - 1):
        out = icepool.map(lambda a, b: a * 10 + b, out, sub)
    return out


def oracle(p):
    wound = wound_die(p)
    per_shot = hit_die(p).map(
        lambda h: (
            0 if not h else wound.map(lambda k: 0 if k == 0 else brutal(loss_die(p, k == 2), p["brutal"]))
        )
    )
    a = icepool.Die([1, 2, 3]) if p["A"] == "D3" else icepool.Die([p["A"]])
    shots = p["shooters"] @ a
    W, n = p["W"], p["models"]

    def step(state, code):
        killed, left, total = state
        if killed == n or code == 0:
            return state
        for e in (int(c) for c in str(code).zfill(p["brutal"])):
            if e == 0:
                continue
            lost = left if e == KILL else 1
            left -= lost
            total += lost
            if left == 0:  # removed: the rest of a Brutal wound is lost
                return (killed + 1, W, total)
        return (killed, left, total)

    killed, damage = np.zeros(n + 1), np.zeros(n * W + 1)
    for (kk, _, dd), q in walk(step, (0, W, 0), per_shot, shots).items():
        killed[kk] += q
        damage[dd] += q
    return killed, damage


def random_case(rng):
    return {
        "A": rng.choice([1, 2, "D3"]),
        "shooters": rng.randint(1, 2),
        "BS": rng.randint(1, 10),
        "twin": rng.random() < 0.3,
        "S": rng.randint(2, 9),
        "T": rng.randint(3, 7),
        "AP": rng.choice([7, 5, 4, 3, 2]),
        "rending": rng.choice([7, 7, 6, 5]),
        "breaching": rng.choice([7, 7, 6, 4]),
        "shred": rng.random() < 0.3,
        "ID": rng.random() < 0.2,
        "Sv": rng.randint(2, 6),
        "inv": rng.choice([7, 7, 4, 5]),
        "cover": rng.choice([7, 7, 5]),
        "fnp": rng.choice([7, 7, 5, 6]),
        "shrouded": rng.choice([7, 7, 5]),
        "W": rng.randint(1, 3),
        "brutal": rng.choice([1, 1, 2]),
        "models": rng.randint(1, 3),
    }


def ours(p):
    opt = lambda x: None if x == 7 else x  # noqa: E731
    rules = (["Twin-linked"] if p["twin"] else []) + (["Shred"] if p["shred"] else [])
    rules += [f"Rending ({p['rending']}+)"] if p["rending"] < 7 else []
    rules += [f"Breaching ({p['breaching']}+)"] if p["breaching"] < 7 else []
    rules += ["Instant Death"] if p["ID"] else []
    rules += [f"Brutal ({p['brutal']})"] if p["brutal"] > 1 else []
    w = weapon(A=p["A"], S=p["S"], AP=opt(p["AP"]), rules=rules)
    m = model(
        count=p["models"],
        T=p["T"],
        W=p["W"],
        Sv=p["Sv"],
        invulnerable=opt(p["inv"]),
        FNP=opt(p["fnp"]),
        shrouded=opt(p["shrouded"]),
    )
    return run(w, m, count=p["shooters"], shooter={"BS": p["BS"]}, defender={"cover": opt(p["cover"])})


@pytest.mark.parametrize("seed", range(12))
def test_random_scenario_matches_icepool(seed):
    p = random_case(random.Random(seed))
    killed, damage = oracle(p)
    r = ours(p)
    assert np.allclose([r["models_destroyed"][k] for k in range(killed.size)], killed, atol=1e-10), p
    assert np.allclose([r["damage"][k] for k in range(damage.size)], damage, atol=1e-10), p
