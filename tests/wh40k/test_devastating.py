"""Devastating Wounds on the shared chain: held tokens folded to at most (wounds + 1) counts, against
an independent brute-force oracle in exact fractions, and heavy inputs refused at once or fast."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grimdice.errors import ScenarioError

from .helpers import model, run, weapon

SIXTH = F(1, 6)


def _pass(x):
    """P(D6 >= x) with a 1 always failing (x None: never)."""
    return F(0) if x is None else F(min(6, 7 - max(x, 2)), 6)


def _thin(damage: dict, fnp):
    """Effective damage: each point ignored on a passed Feel No Pain roll."""
    q = _pass(fnp)
    out: dict[int, F] = {}
    for d, p in damage.items():
        for k in range(d + 1):  # k points get through: Binomial(d, 1 - q)
            c = F(1)
            for i in range(k):
                c = c * (d - i) / (i + 1)
            out[k] = out.get(k, F(0)) + p * c * (1 - q) ** k * q ** (d - k)
    return out


def oracle(attacks, damage, models, wound=4, AP=0):
    """Law of (damage, models destroyed, failed saves): Torrent attacks wounding on ``wound``+,
    a 6 is a Devastating Wounds Critical Wound; normal wounds (any order: they are identical)
    first, then the Devastating Wounds tokens. ``models``: [(W, Sv, FNP, FNP_mortal)] in order."""
    p_normal, p_dev = F(7 - wound - 1, 6), SIXTH
    counts = {(0, 0): F(1)}
    for _ in range(attacks):
        nxt: dict = {}
        for (n, d), p in counts.items():
            for key, q in (((n + 1, d), p_normal), ((n, d + 1), p_dev), ((n, d), 1 - p_normal - p_dev)):
                nxt[key] = nxt.get(key, F(0)) + p * q
        counts = nxt
    saves = [_pass(sv - AP if sv < 7 else None) for _, sv, _, _ in models]

    def token(states, dev):
        out: dict = {}
        for (i, left, lost, u), p in states.items():
            if i == len(models):  # destroyed: left-over saves fast-rolled against the last model
                fail = F(1) if dev else 1 - saves[-1]
                for key, q in (((i, left, lost, u + 1), fail), ((i, left, lost, u), 1 - fail)):
                    out[key] = out.get(key, F(0)) + p * q
                continue
            _, _, fnp, fnp_m = models[i]
            ps = F(0) if dev else saves[i]
            out[(i, left, lost, u)] = out.get((i, left, lost, u), F(0)) + p * ps
            best = min((x for x in (fnp, fnp_m) if x is not None), default=None) if dev else fnp
            for e, q in _thin(damage, best).items():
                k = min(e, left)
                key = (i + 1, models[i + 1][0] if i + 1 < len(models) else 0, lost + k, u + 1)
                if left - k:
                    key = (i, left - k, lost + k, u + 1)
                out[key] = out.get(key, F(0)) + p * (1 - ps) * q
        return out

    result: dict = {}
    for (n, d), p in counts.items():
        states = {(0, models[0][0], 0, 0): p}
        for _ in range(n):
            states = token(states, False)
        for _ in range(d):
            states = token(states, True)
        for key, q in states.items():
            result[key] = result.get(key, F(0)) + q
    laws: dict[str, dict[int, F]] = {"damage": {}, "models_destroyed": {}, "unsaved": {}}
    for (i, _, lost, u), p in result.items():
        for name, v in (("damage", lost), ("models_destroyed", i), ("unsaved", u)):
            laws[name][v] = laws[name].get(v, F(0)) + p
    return laws


CASES = {
    "same Feel No Pain on every model (held count thinned, saturated at the wounds)": [
        (2, 4, 5, None),
        (3, 4, 5, None),
    ],
    "Feel No Pain on one model only (held count in full)": [(2, 4, None, None), (3, 4, 5, None)],
    "different saves (failed saves counted by a second chain)": [(2, 3, None, 6), (2, 5, None, None)],
    "no Feel No Pain (held count saturated at the wounds)": [(1, 4, None, None), (2, 6, None, None)],
}


@pytest.mark.parametrize("models", list(CASES.values()), ids=list(CASES))
@pytest.mark.parametrize("attacks,damage", [(4, "2"), (5, "D3")])
def test_devastating_wounds_equal_the_brute_force_oracle(models, attacks, damage):
    defenders = [
        model(name=f"m{i}", W=W, Sv=sv, FNP=fnp, FNP_mortal=fnp_m)
        for i, (W, sv, fnp, fnp_m) in enumerate(models)
    ]
    r = run(weapon(A=attacks, S=4, D=damage, abilities=["torrent", "devastating wounds"]), defenders)
    dmg = {2: F(1)} if damage == "2" else {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}
    laws = oracle(attacks, dmg, models)
    for name, law in laws.items():
        got = r[name]
        for v, p in law.items():
            assert got[v] == pytest.approx(float(p), abs=1e-12), (name, v)
        assert got.total() == pytest.approx(1.0, abs=1e-12)


def test_many_devastating_wounds_attacks_finish_exactly():
    # 600 attacks (the former scheme took minutes) into 10 W2 models with mixed saves and Feel No
    # Pain: the held Devastating Wounds count has at most 21 cells
    defenders = [model(name="a", count=5, Sv=3, W=2), model(name="b", count=5, Sv=4, W=2, FNP=5)]
    r = run(weapon(A=20, BS=3, AP=-1, abilities=["devastating wounds"]), defenders, count=30)
    assert r["models_destroyed"].total() == pytest.approx(1.0, abs=1e-9)
    assert r["models_destroyed"].mean() == pytest.approx(10.0, abs=1e-6)
    assert r["devastating_wounds"].mean() == pytest.approx(600 * 2 / 3 * 1 / 6, rel=1e-9)


def test_devastating_wounds_too_large_is_refused_at_once_with_the_estimate():
    defenders = [model(name="a", count=10, Sv=3, W=3), model(name="b", count=10, Sv=3, W=3, FNP=5)]
    boss = [model(name="boss", Sv=2, W=5, FNP=4)]
    gun = weapon(A=20, BS=3, D="D3", abilities=["devastating wounds", "sustained hits 1"])
    with pytest.raises(ScenarioError, match=r"operations, ~\d+ s.*use --simulate N"):
        run(gun, defenders, count=100, leaders=boss)
