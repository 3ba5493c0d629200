"""The melee re-roll game against a brute force over every face and every die choice
(rules-crusade IV "attacker must reroll first", VIII R, RO): this checks that the engine's
sufficient statistic (best die of each re-roll chain) loses nothing."""

from itertools import product

import numpy as np
import pytest

from tests.crusade.helpers import best, fight, model, run

KINDS = {"1W+1R": ("W", "R"), "2R": ("R", "R"), "1R": ("R",), "1W": ("W",), "2W": ("W", "W")}
FACES = {"W": (0, 0, 0, 0, 1, 2), "R": (0, 0, 0, 1, 2, 3)}
TOP = {"W": 2, "R": 3}


def maxes(kinds, faces):
    return sum(f == TOP[k] for k, f in zip(kinds, faces, strict=True))


def features(ak, af, a_fail, dk, df, d_fail):
    diff = sum(af) - sum(df)
    a_fail = a_fail or maxes(ak, af) >= 2  # reading reroll_fail: a re-rolled maximum counts
    d_fail = d_fail or maxes(dk, df) >= 2
    return np.array([diff >= 2, diff == 1, diff < 0, a_fail, d_fail], dtype=float)


def akey(v):  # attacker: kill, then any harm to the defender, then avoid his own stun, his fail
    return (v[0], v[0] + v[1], -v[2], -v[3])


def dkey(v):
    return (-v[0], -(v[0] + v[1]), v[2], -v[4])


def rerolled(kinds, faces, i):
    return [((*faces[:i], g, *faces[i + 1 :]), 1 / 6) for g in FACES[kinds[i]]]


def defender_turn(ak, af, af0_fail, dk, df, df0_fail, d_own, d_ro=False):
    opts = [features(ak, af, af0_fail, dk, df, df0_fail)]
    if d_own:
        for j in range(len(df)):
            opts.append(
                sum(p * features(ak, af, af0_fail, dk, f2, df0_fail) for f2, p in rerolled(dk, df, j))
            )
    if d_ro:
        for i in range(len(af)):
            opts.append(
                sum(p * features(ak, f2, af0_fail, dk, df, df0_fail) for f2, p in rerolled(ak, af, i))
            )
    return best(opts, dkey)


def brute(ak, dk, a_ro, d_own, d_ro=False):
    total = np.zeros(5)
    for af in product(*(FACES[k] for k in ak)):
        for df in product(*(FACES[k] for k in dk)):
            af0, df0 = maxes(ak, af) >= 2, maxes(dk, df) >= 2
            opts = [defender_turn(ak, af, af0, dk, df, df0, d_own, d_ro)]
            for i in range(len(af)):
                opts.append(
                    sum(
                        p * defender_turn(ak, f2, af0, dk, df, df0, d_own, d_ro)
                        for f2, p in rerolled(ak, af, i)
                    )
                )
            if a_ro:
                for j in range(len(df)):
                    opts.append(
                        sum(
                            p * defender_turn(ak, af, af0, dk, f2, df0, d_own, d_ro)
                            for f2, p in rerolled(dk, df, j)
                        )
                    )
            total += best(opts, akey) / 6 ** (len(af) + len(df))
    return total


@pytest.mark.parametrize(
    ("a_dice", "d_dice", "a_ro", "d_own"),
    [("1W+1R", "1R", True, True), ("1R", "1W+1R", False, True), ("2R", "1W", True, False)],
)
def test_rerolls_match_brute_force(a_dice, d_dice, a_ro, d_own):
    a = model(melee=a_dice, abilities=["RO" if a_ro else "R"])
    d = model(melee=d_dice, abilities=["R"] if d_own else [])
    res = run(fight(a, d, parry="never"))
    ref = brute(KINDS[a_dice], KINDS[d_dice], a_ro, d_own)
    assert res.extra["end_state"]["killed"] == pytest.approx(ref[0], abs=1e-12)
    assert res.extra["end_state"]["stunned"] == pytest.approx(ref[1], abs=1e-12)
    assert res.extra["attacker_end_state"]["stunned"] == pytest.approx(ref[2], abs=1e-12)
    assert res["fail"][1] == pytest.approx(ref[3], abs=1e-12)
    assert res["defender_fail"][1] == pytest.approx(ref[4], abs=1e-12)


@pytest.mark.parametrize(("a_dice", "d_dice"), [("1W+1R", "1W")])
def test_both_sides_reroll_opponent_match_brute_force(a_dice, d_dice):
    a = model(melee=a_dice, abilities=["RO"])
    d = model(melee=d_dice, abilities=["RO"])
    res = run(fight(a, d, parry="never"))
    ref = brute(KINDS[a_dice], KINDS[d_dice], True, True, True)
    got = [
        res.extra["end_state"]["killed"],
        res.extra["end_state"]["stunned"],
        res.extra["attacker_end_state"]["stunned"],
    ]
    # the harm to both sides is exact; the fail chances may differ where a side is indifferent
    # between dice (see docs: the engine re-rolls the best die of a chain, blind to fail risk)
    assert got == pytest.approx(list(ref[:3]), abs=1e-12)
