"""The decisions of both sides are optimal: the engine's values equal an independent brute force.

The brute force knows nothing of the engine's state aggregation: it rolls every face of every die,
tries every subset of dice to re-roll, both Rending choices, every save characteristic / cover
option and every assignment of each defence die to an attack die (:func:`brute_unsaved`), and
takes maxima/minima directly. With zero-sum objective pairs (damage/damage, kill/survival) the
value of the game is unique, so the engine's value must match to rounding.
"""

from functools import cache
from itertools import combinations, product

import numpy as np
import pytest

from grimdice.systems.killteam.exact import forward, wounds_left
from grimdice.systems.killteam.rules import WeaponRules
from grimdice.systems.killteam.solve import ShotSpec, solve_sequence
from tests.killteam.test_rolls import brute_unsaved


def brute_value(spec: ShotSpec, w0: int, attacker: str) -> float:
    A = (lambda w: float(w == 0)) if attacker == "kill" else (lambda w: float(w0 - w))

    def cat(f):
        if f == 6 or (f >= spec.rules.lethal and f >= spec.bs and f != 1):
            return "C"
        if f >= spec.bs and f != 1:
            return "N"
        return "1" if f == 1 else "-"

    @cache
    def defence(c, h, w):
        w1 = max(w - spec.mw_per_crit * c, 0)
        if c + h == 0 or w1 == 0:
            return A(w1)
        ap = max(spec.rules.ap, spec.rules.piercing if c else 0)
        opts = [(spec.sv, max(spec.df - ap, 0))]
        if spec.invulnerable:
            opts.append((spec.invulnerable, spec.df))
        values = []
        for sv, k in opts:
            for ret in [0, 1] if spec.cover and k > 0 else [0]:
                tot = 0.0
                faces = list(product(range(1, 7), repeat=k - ret))
                for fs in faces:
                    saves = (
                        "".join("c" if f == 6 else "n" if f >= sv and f != 1 else "" for f in fs) + "n" * ret
                    )
                    best = min(
                        A(max(w1 - uc * spec.critical - un * spec.normal, 0))
                        for uc, un in brute_unsaved("C" * c + "N" * h, saves)
                    )
                    tot += best / len(faces)
                values.append(tot)
        return min(values)  # the defender minimises the attacker's (zero-sum) value

    @cache
    def after_rolls(cats, w):
        c, h = cats.count("C"), cats.count("N")
        v = defence(c, h, w)
        if spec.rules.rending and c and h:
            v = max(v, defence(c + 1, h - 1, w))
        return v

    @cache
    def reroll_value(kept, r, w):
        tot = 0.0
        for fs in product(range(1, 7), repeat=r):
            tot += after_rolls("".join(sorted(kept + "".join(cat(f) for f in fs))), w)
        return tot / 6**r

    def subsets(cats):
        idx = range(len(cats))
        ones = [i for i in idx if cats[i] == "1"]
        out = []
        for k in range(len(cats) + 1):
            for sub in combinations(idx, k):
                paid = [i for i in sub if not (spec.rules.ceaseless and i in ones)]
                if spec.rules.relentless or len(paid) <= (1 if spec.rules.balanced else 0):
                    out.append(sub)
        return out

    total = 0.0
    for fs in product(range(1, 7), repeat=spec.dice):
        cats = tuple(cat(f) for f in fs)
        best = max(
            reroll_value("".join(sorted(c for i, c in enumerate(cats) if i not in sub)), len(sub), w0)
            for sub in subsets(cats)
        )
        total += best / 6**spec.dice
    return total


RULE_FIELDS = set(WeaponRules.__dataclass_fields__)


def spec(**kw) -> ShotSpec:
    """A shooting attack; keyword arguments that name weapon rules go into its WeaponRules."""
    rules = WeaponRules(**{k: v for k, v in kw.items() if k in RULE_FIELDS})
    return ShotSpec("attack", "shooter", rules=rules, **{k: v for k, v in kw.items() if k not in RULE_FIELDS})


CASES = {
    "cover choice": spec(dice=2, bs=3, normal=3, critical=4, df=2, sv=4, cover=True),
    "relentless rending lethal invuln": spec(
        dice=2,
        bs=3,
        normal=2,
        critical=5,
        lethal=5,
        relentless=True,
        rending=True,
        ap=1,
        df=2,
        sv=3,
        invulnerable=5,
    ),
    "balanced ceaseless mw piercing cover": spec(
        dice=3,
        bs=4,
        normal=2,
        critical=3,
        mw_per_crit=1,
        piercing=1,
        balanced=True,
        ceaseless=True,
        df=2,
        sv=4,
        cover=True,
    ),
    "fishing for crits": spec(dice=2, bs=2, normal=1, critical=6, relentless=True, df=1, sv=3),
}


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize("objectives,w0", [(("damage", "damage"), 6), (("kill", "survival"), 5)])
def test_engine_value_equals_brute_force(name, objectives, w0):
    spec = CASES[name]
    pol = solve_sequence([spec], w0, *objectives)[0]
    assert pol.value_attacker[w0] == pytest.approx(brute_value(spec, w0, objectives[0]), abs=1e-12)
    # and following the policy forward gives the same value
    start = np.zeros(w0 + 1)
    start[w0] = 1
    wl = wounds_left(forward([pol], start)["hits"])
    expect = wl[0] if objectives[0] == "kill" else w0 - wl.mean()
    assert expect == pytest.approx(pol.value_attacker[w0], abs=1e-12)


def test_survival_and_damage_objectives_choose_differently():
    """With 2 wounds left against 1/3 damage, retaining the cover save (a sure normal save) and
    rolling it (fishing for a critical save against the critical hit) trade off differently."""
    found = []
    for w0, df, sv in product(range(1, 8), range(1, 4), range(2, 6)):
        spec = ShotSpec(
            "a", "s", dice=2, bs=3, normal=2, critical=5, df=df, sv=sv, cover=True, invulnerable=4
        )
        a = solve_sequence([spec], w0, "damage", "damage")[0]
        b = solve_sequence([spec], w0, "damage", "survival")[0]
        if not np.array_equal(a.option[w0], b.option[w0]):
            found.append((w0, df, sv))
            # each objective's choice is at least as good for its own objective
            sa, sb = a.value_defender[w0], b.value_defender[w0]
            a_surv = _survival_under(a, spec, w0)
            assert a_surv <= _survival_under(b, spec, w0) + 1e-12
            assert sa >= _wounds_under(b, w0) - 1e-12
            assert sb >= 0
    assert found, "expected at least one situation where the objectives disagree"


def _tables(pol, w0):
    start = np.zeros(w0 + 1)
    start[w0] = 1
    return wounds_left(forward([pol], start)["hits"])


def _survival_under(pol, spec, w0):
    return 1 - _tables(pol, w0)[0]


def _wounds_under(pol, w0):
    return _tables(pol, w0).mean()
