"""Re-rolls and JINK over the several rolls of a flamer template or RAPID FIRE (VIII FLAMER
TEMPLATE: "Roll seperately for each target"; RAPID FIRE: "May fire weapon twice"; REROLL: "may
reroll one of your attack dice once per turn"; IX JINK: "may reroll 1 enemy die when fired upon
... once per turn"), reading ``shots_in_turn``: rolls in turn, each side's one re-roll spent on any
roll or kept."""

from __future__ import annotations

from fractions import Fraction as Fr
from functools import cache
from itertools import product

import pytest

from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import FACES, best, close, model
from tests.crusade.helpers import many as _many

TOP = {"W": 2, "R": 3}


def many(dice, codes, targets, **kw):
    return _many(dice, codes, targets, graze="W", **kw)


def test_flamer_reroll_at_one_target_by_hand():
    # 1R with R at a 1-hit target, armour 0, graze W: a 2 or 3 kills, a 1 wounds. Kills first: the
    # attacker re-rolls a 0 and a 1: P(killed) = 2/6 + 4/6 * 2/6, P(wounded) = 4/6 * 1/6
    res = calculate(many("1R", ["FT", "R"], [model(name="a")]))
    state = res.targets["0: a"].extra["end_state"]
    assert close(state["killed"], Fr(2, 6) + Fr(4, 6) * Fr(2, 6))
    assert close(state["wounded"], Fr(4, 6) * Fr(1, 6))
    assert close(res.extra["rerolls"]["attacker"]["R0"], Fr(1, 2))
    assert close(res.extra["rerolls"]["attacker"]["R1"], Fr(1, 6))
    assert any("shots_in_turn" in n for n in res.notes)


def brute(kinds, armours, shots, own, jinkers, aim=False):
    """Literal brute force: every face, every die, rolls in turn; 1-hit targets with graze W
    (a wound, and a second wound kills), damage = total - armour. ``aim`` (RAPID FIRE): before
    each of the ``len(shots)`` rolls the attacker picks any target still alive, or holds his fire."""
    n = len(armours)

    def hit(state, dmg):  # 0 unharmed, 2 wounded, 4 killed
        if state == 4 or dmg >= 2 or (dmg == 1 and state == 2):
            return 4
        return 2 if dmg == 1 else state

    def akey(v):
        return (sum(v[3 * i] for i in range(n)), sum(v[3 * i + 1] for i in range(n)),
                sum(v[3 * i + 2] for i in range(n)), -v[-1])  # fmt: skip

    def tkey(i):
        return lambda v: (-v[3 * i], -v[3 * i + 1], -v[3 * i + 2])

    def add(a, b, q=1.0):
        return tuple(x + q * y for x, y in zip(a, b, strict=True))

    def rer(faces, j):
        return [((*faces[:j], g, *faces[j + 1 :]), 1 / 6) for g in FACES[kinds[j]]]

    def failed(faces):
        return sum(f == TOP[k] for k, f in zip(kinds, faces, strict=True)) >= 2

    def terminal(states):
        v = [0.0] * (3 * n + 1)
        for i, s in enumerate(states):
            v[3 * i], v[3 * i + 1] = float(s == 4), float(s == 4)
        return tuple(v)

    @cache
    def value(k, rr, jinks, states):
        if k == len(shots):
            return terminal(states)
        if not aim:
            return fire(k, shots[k], rr, jinks, states)
        opts = [terminal(states)] + [fire(k, i, rr, jinks, states) for i in range(n) if states[i] != 4]
        return best(opts, akey)

    def fire(k, i, rr, jinks, states):
        tot = tuple([0.0] * (3 * n + 1))
        for faces in product(*(FACES[k2] for k2 in kinds)):
            tot = add(tot, attacker(k, i, rr, jinks, states, faces, failed(faces)), 1 / 6 ** len(kinds))
        return tot

    def attacker(k, i, rr, jinks, states, faces, fl):
        opts = [target(k, i, rr, jinks, states, faces, fl)]
        if rr:
            for j in range(len(faces)):
                v = tuple([0.0] * (3 * n + 1))
                for f2, q in rer(faces, j):
                    v = add(v, target(k, i, False, jinks, states, f2, fl or failed(f2)), q)
                opts.append(v)
        return best(opts, akey)

    def target(k, i, rr, jinks, states, faces, fl):
        opts = [resolve(k, i, rr, jinks, states, faces, fl)]
        if jinks[i]:
            j2 = (*jinks[:i], False, *jinks[i + 1 :])
            for j in range(len(faces)):
                v = tuple([0.0] * (3 * n + 1))
                for f2, q in rer(faces, j):
                    v = add(v, resolve(k, i, rr, j2, states, f2, fl or failed(f2)), q)
                opts.append(v)
        return best(opts, tkey(i))

    def resolve(k, i, rr, jinks, states, faces, fl):
        dmg = max(0, sum(faces) - armours[i])
        if states[i] == 4:
            dmg = 0  # a dead model takes no more damage
        v = list(value(k + 1, rr, jinks, (*states[:i], hit(states[i], dmg), *states[i + 1 :])))
        v[3 * i + 2] += dmg
        v[-1] += fl
        return tuple(v)

    return value(0, own, tuple(i in jinkers for i in range(n)), (0,) * n)


@pytest.mark.parametrize(
    ("code", "targets", "shots"),
    [
        ("FT", [model(name="a"), model(name="b", armour=1, abilities=["JINK"])], (0, 1)),
        ("Rap", [model(name="a", abilities=["JINK"])], (0, 0)),
        ("Rap", [model(name="a", abilities=["JINK"]), model(name="b")], (0, 1)),
    ],
)
def test_against_a_literal_brute_force(code, targets, shots):
    res = calculate(many("1W+1R", [code, "R"], targets, range=3))
    armours = [t["armour"] for t in targets]
    jinkers = tuple(i for i, t in enumerate(targets) if "JINK" in t.get("abilities", []))
    ref = brute(("W", "R"), armours, shots, True, jinkers, aim=code == "Rap")
    for i, t in enumerate(targets):
        sub = res.targets[f"{i}: {t['name']}"]
        assert sub.extra["end_state"]["killed"] == pytest.approx(ref[3 * i], abs=1e-12)
        assert sub["damage"].mean() == pytest.approx(ref[3 * i + 2], abs=1e-12)
    assert res["fail"].mean() == pytest.approx(ref[-1], abs=1e-12)


def test_rapid_fire_without_rerolls_by_hand():
    # 1W+1R: a total of 0 with 12/36, 1 (a wound) with 7/36; two shots at a 1-hit target leave it
    # alive only after (0, 0), (0, 1), (1, 0) (two wounds kill): 1 - (144 + 84 + 84)/1296
    res = calculate(many("1W+1R", ["Rap"], [model(name="a")], range=3))
    assert close(res.targets["0: a"].extra["end_state"]["killed"], 1 - Fr(312, 1296))
    assert brute(("W", "R"), [0], (0, 0), False, ())[0] == pytest.approx(1 - 312 / 1296, abs=1e-12)


def test_rapid_fire_one_jink_for_both_shots():
    """A jinking target jinks at most once a turn: over two shots the chance it jinks is a
    probability (at most 1), not two."""
    res = calculate(many("1W+1R", ["Rap", "R"], [model(name="a", hits=3, abilities=["JINK"])], range=3))
    used = sum(res.extra["rerolls"].get("target 0", {}).values())
    assert 0 < used <= 1
    assert 0 < sum(res.extra["rerolls"]["attacker"].values()) <= 1


@pytest.mark.parametrize("code", ["FT", "Rap"])
def test_exact_and_monte_carlo_agree(code):
    targets = [model(name="a", armour=1, hits=2, abilities=["+F"]), model(name="b", abilities=["JINK"])]
    sc = many("2W+1R", [code, "R", "S"], targets, range=4, cover="front")
    ex, mc = calculate(sc), calculate(sc, simulate=4000, seed=8)
    keys = ("damage", "models_destroyed", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 4000)
    for name in ex.targets:
        keys = ("condition", "damage")
        assert_agree({k: ex.targets[name][k] for k in keys}, {k: mc.targets[name][k] for k in keys}, 4000)
