"""Re-rolls and JINK at many targets (VIII REROLL: "may reroll one of your attack dice once per
turn"; IX JINK: "may reroll 1 enemy die when fired upon ... once per turn"), on the one roll of
LINE, BLAST and SPLIT FIRE: the attacker first, then each jinking target in turn."""

from __future__ import annotations

from fractions import Fraction as Fr
from functools import cache

from grimdice.systems.crusade import calculate
from tests.agreement import assert_agree
from tests.crusade.helpers import close, many, model

W = (0, 0, 0, 0, 1, 2)
R = (0, 0, 0, 1, 2, 3)


def _state(res, name):
    return res.targets[name].extra["end_state"]


def test_line_reroll_by_hand():
    # 1 white, both targets armour 0, 1 hit: a 2 kills both, a 1 stuns both. The attacker wants kills
    # first, so he re-rolls a 0 and a 1 (a 1 kills nobody; the re-roll kills with 1/6).
    res = calculate(many("1W", ["LINE", "R"], [model(name="a"), model(name="b")]))
    kill = Fr(1, 6) + Fr(5, 6) * Fr(1, 6)
    for name in ("0: a", "1: b"):
        assert close(_state(res, name)["killed"], kill)
        assert close(_state(res, name)["stunned"], Fr(5, 6) * Fr(1, 6))
    assert close(res.extra["rerolls"]["attacker"], Fr(5, 6))


def test_line_jink_by_hand():
    # target a jinks: it re-rolls a 2 (killed -> killed only on a new 2) and keeps a 1 (a re-roll
    # could kill it); the one roll then applies to both targets
    res = calculate(many("1W", ["LINE"], [model(name="a", abilities=["JINK"]), model(name="b")]))
    kill = Fr(1, 6) * Fr(1, 6)
    stun = Fr(1, 6) + Fr(1, 6) * Fr(1, 6)
    for name in ("0: a", "1: b"):
        assert close(_state(res, name)["killed"], kill) and close(_state(res, name)["stunned"], stun)


def test_a_stunned_jinker_does_not_jink():
    res = calculate(many("1W", ["LINE"], [model(name="a", abilities=["JINK"], condition="stunned")]))
    assert close(_state(res, "0: a")["killed"], Fr(1, 6))  # no jink: a 2 kills as rolled
    assert close(_state(res, "0: a")["ko"], Fr(1, 6))  # a 1 stuns a stunned model: KO
    assert "rerolls" not in res.extra


def _oracle_blast(armour=(0, 1)):
    """Brute force over every face of 1W+1R and every die choice: BLAST (the centre takes the total,
    the other target the highest die); the attacker (R) re-rolls first to maximise summed P(killed),
    then E[damage], then to avoid a fail; then target 1 (JINK) to minimise its P(killed), E[damage].
    1-hit targets: damage >= 2 kills, 1 stuns (a KO needs a stun on a stunned model: none here)."""
    kinds = ("W", "R")

    def value(faces, failed):
        total, high = sum(faces), max(faces)
        out = []
        for a, roll in zip(armour, (total, high), strict=True):
            d = max(0, roll - a)
            out.append((Fr(int(d >= 2)), Fr(d)))
        fail = failed or sum(f == (2 if k == "W" else 3) for k, f in zip(kinds, faces, strict=True)) >= 2
        return out, Fr(int(fail))

    def mean(options):
        n = len(options)
        outs = [o for o, _ in options]
        per = [tuple(sum(o[i][j] for o in outs) / n for j in range(2)) for i in range(2)]
        return per, sum(f for _, f in options) / n

    @cache
    def play(faces, failed, phase):
        if phase == 2:
            return value(faces, failed)
        options = [play(faces, failed, phase + 1)]
        fail_now = value(faces, failed)[1] == 1
        for i, k in enumerate(kinds):
            die = W if k == "W" else R
            options.append(mean([play((*faces[:i], g, *faces[i + 1 :]), fail_now, phase + 1) for g in die]))
        if phase == 0:
            key = lambda v: (v[0][0][0] + v[0][1][0], v[0][0][1] + v[0][1][1], -v[1])  # noqa: E731
        else:
            key = lambda v: (-v[0][1][0], -v[0][1][1])  # noqa: E731
        return max(options, key=key)  # first best: no re-roll wins ties

    res = [play((w, r), False, 0) for w in W for r in R]
    return mean(res)


def test_blast_reroll_and_jink_against_a_brute_force():
    sc = many(
        "1W+1R",
        ["B", "R"],
        [model(name="c"), model(name="o", armour=1, abilities=["JINK"])],
    )
    res = calculate(sc)
    per, fail = _oracle_blast()
    assert close(_state(res, "0: c")["killed"], per[0][0])
    assert close(_state(res, "1: o")["killed"], per[1][0])
    assert close(res.targets["0: c"]["damage"].mean(), per[0][1])
    assert close(res.targets["1: o"]["damage"].mean(), per[1][1])
    assert close(1 - res["fail"][0], fail)


def test_split_fire_with_reroll_and_jink_exact_and_monte_carlo_agree():
    sc = many(
        "2W+1R",
        ["*", "R"],
        [model(name="a", armour=1), model(name="b", hits=2, abilities=["JINK"], range=13)],
    )
    ex, mc = calculate(sc), calculate(sc, simulate=6000, seed=4)
    keys = ("damage", "models_destroyed", "fail")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)
    for name in ex.targets:
        assert_agree(
            {"condition": ex.targets[name]["condition"]}, {"condition": mc.targets[name]["condition"]}, 6000
        )
