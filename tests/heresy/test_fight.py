"""Two-sided melee (conditions.fight): Initiative steps, casualties, combat resolution.

Hand-computed fractions for tiny fights, an independent brute-force oracle (attack by attack,
exact fractions, every model's wounds tracked) for 1-2 models a side, exact vs Monte Carlo.
"""

import copy
from fractions import Fraction

import pytest

from grimdice.dice import Dist
from grimdice.systems.heresy import calculate
from tests.agreement import assert_agree
from tests.heresy.helpers import F, approx, assert_names_field, pmf

STAB = {"name": "blade", "S": "user", "rules": ["Melee"]}


def unit(*models):
    return {"models": [dict(m) for m in models]}


def fighter(**kw):
    m = {"name": "m", "count": 1, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "weapons": [STAB]}
    m.update(kw)
    return copy.deepcopy(m)


def fight(attackers, defenders, simulate=None, seed=None, **conditions):
    sc = {
        "system": "heresy",
        "attacker": unit(*attackers),
        "defender": unit(*defenders),
        "conditions": {"fight": True, **conditions},
    }
    return calculate(sc, simulate=simulate, seed=seed)


def resolution(r):
    c = r.extra["combat_resolution"]
    return c["attacker_wins"], c["draw"], c["defender_wins"]


def margin(r):
    m = r.extra["combat_resolution"]["margin"]
    return Dist(m["pmf"], m["offset"])


Q = F(1, 4)  # WS4 v WS4 hits on 4+, S4 v T4 wounds on 4+, no save: one attack kills 1/4


def test_higher_initiative_strikes_first_and_a_removed_model_does_not_strike():
    r = fight([fighter(I=5)], [fighter(I=4)])
    assert r["models_destroyed"][1] == approx(Q)
    assert r["models_lost"][1] == approx((1 - Q) * Q)  # the I4 model strikes only if it survived
    assert resolution(r) == approx([Q, 1 - Q - (1 - Q) * Q, (1 - Q) * Q])
    assert r.extra["initiative_steps"] == [
        {"initiative": 5, "attacker": ["blade"], "defender": []},
        {"initiative": 4, "attacker": [], "defender": ["blade"]},
    ]


def test_equal_initiative_is_simultaneous():
    r = fight([fighter()], [fighter()])
    assert r["models_destroyed"][1] == approx(Q)
    assert r["models_lost"][1] == approx(Q)
    both, neither = Q * Q, (1 - Q) ** 2
    assert resolution(r) == approx([Q * (1 - Q), both + neither, Q * (1 - Q)])
    assert r.extra["initiative_steps"] == [{"initiative": 4, "attacker": ["blade"], "defender": ["blade"]}]


def test_unwieldy_strikes_at_step_one_after_the_enemy():
    fist = {"name": "fist", "S": "user", "rules": ["Melee", "Unwieldy"]}
    r = fight([fighter(I=5, weapons=[fist])], [fighter(I=4)])
    assert r["models_lost"][1] == approx(Q)
    assert r["models_destroyed"][1] == approx((1 - Q) * Q)
    assert [s["initiative"] for s in r.extra["initiative_steps"]] == [4, 1]


def test_casualties_reduce_the_other_sides_attacks():
    # one I5 model with A2 against two I4 models: K killed ~ Bin(2, 1/4), then 2-K attacks back
    r = fight([fighter(I=5, A=2)], [fighter(count=2)])
    pk = [F(9, 16), F(6, 16), F(1, 16)]
    assert pmf(r["models_destroyed"], 2) == approx(pk)
    lost = sum(p * (1 - (1 - Q) ** (2 - k)) for k, p in enumerate(pk))
    assert lost == F(87, 256)
    assert r["models_lost"][1] == approx(lost)


def test_the_closest_models_die_first_so_the_later_listed_ones_strike():
    # the defender's closest model is a harmless I4 A1, behind it a model with 4 attacks: killing
    # the first does not stop the second; the attacker's one attack can only kill the first
    r = fight([fighter(I=5)], [fighter(name="shield"), fighter(name="killer", A=4)])
    hurt = 1 - (1 - Q) ** 4
    p_first_dies = Q
    attacks_back = (1 - p_first_dies) * (1 - (1 - Q) ** 5) + p_first_dies * hurt
    assert r["models_lost"][1] == approx(attacks_back)
    # listed the other way round, killing the first removes the 4 attacks
    r = fight([fighter(I=5)], [fighter(name="killer", A=4), fighter(name="shield")])
    assert r["models_lost"][1] == approx((1 - Q) * (1 - (1 - Q) ** 5) + Q * Q)


def test_combat_resolution_counts_wounds_lost_and_charge_is_the_attackers():
    # W2 models, 2 attacks each at I4 (charge +1 for the attacker only): the score is wounds lost
    r = fight([fighter(W=2, A=1)], [fighter(W=2, A=2)], charged=True)
    two = [(1 - Q) ** 2, 2 * Q * (1 - Q), Q * Q]
    assert pmf(r["damage"], 2) == approx(two)
    assert pmf(r["damage_taken"], 2) == approx(two)
    assert resolution(r)[1] == approx(sum(p * p for p in two))
    m = margin(r)
    assert m[2] == approx(two[2] * two[0]) and m[-2] == approx(two[0] * two[2])


# --- an independent oracle -------------------------------------------------------------------


def _hit(ws, enemy_ws):
    return 3 if ws > enemy_ws else 5 if enemy_ws > 2 * ws else 4


def _wound(S, T):
    d = S - T
    return {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}.get(min(d, 2), 7)


def _p(target):
    return Fraction(max(0, 7 - max(target, 2)), 6) if target <= 6 else Fraction(0)


def _strike(left, enemy, attacks):
    """Law of the enemy's wounds left after ``attacks`` [(P(wound), AP)], each wound to the first
    living enemy model, one armour save (Sv vs AP), one wound lost."""
    law = {tuple(left): Fraction(1)}
    for q, ap in attacks:
        nxt: dict = {}
        for st, p in law.items():
            alive = [i for i, w in enumerate(st) if w > 0]
            outs = [(st, 1 - q)]
            if alive:
                i = alive[0]
                sv = enemy[i].get("Sv", 7)
                save = _p(sv) if sv < ap else Fraction(0)
                hurt = list(st)
                hurt[i] -= 1
                outs += [(st, q * save), (tuple(hurt), q * (1 - save))]
            else:
                outs += [(st, q)]
            for s2, w in outs:
                nxt[s2] = nxt.get(s2, 0) + p * w
        law = nxt
    return law


def oracle(att, dfn):
    """{(attacker wounds lost, defender wounds lost): P} with models given one by one (count 1)."""
    ws = lambda models: max(m["WS"] for m in models)  # noqa: E731 (all equal in the cases)
    steps = sorted({m["I"] for m in att + dfn}, reverse=True)
    law = {(tuple(m["W"] for m in att), tuple(m["W"] for m in dfn)): Fraction(1)}
    for step in steps:
        nxt: dict = {}
        for (la, ld), p in law.items():

            def attacks(models, left, enemy, step=step):
                out = []
                for m, w in zip(models, left, strict=True):
                    if w > 0 and m["I"] == step:
                        q = _p(_hit(m["WS"], ws(enemy))) * _p(_wound(m["S"], enemy[0]["T"]))
                        out += [(q, m.get("AP", 7))] * m["A"]
                return out

            into_d = _strike(ld, dfn, attacks(att, la, dfn))
            into_a = _strike(la, att, attacks(dfn, ld, att))
            for a2, pa in into_a.items():
                for d2, pd in into_d.items():
                    nxt[(a2, d2)] = nxt.get((a2, d2), 0) + p * pa * pd
        law = nxt
    out: dict = {}
    for (la, ld), p in law.items():
        key = (sum(m["W"] for m in att) - sum(la), sum(m["W"] for m in dfn) - sum(ld))
        out[key] = out.get(key, 0) + p
    return out


def _as_scenario(m):
    w = {"name": "w", "S": m["S"], "AP": m.get("AP"), "rules": ["Melee"]}
    keep = {k: v for k, v in m.items() if k in ("WS", "T", "W", "I", "A", "Sv")}
    return {"name": f"i{m['I']}", "count": 1, "S": m["S"], **keep, "weapons": [w]}


ORACLE_CASES = {
    "1 v 1, W2 each, saves": (
        [dict(WS=4, S=4, T=4, W=2, I=4, A=2, Sv=3)],
        [dict(WS=3, S=3, T=4, W=2, I=3, A=3, Sv=4, AP=6)],
    ),
    "2 v 2 mixed Initiative and AP": (
        [dict(WS=4, S=4, T=4, W=1, I=4, A=2, Sv=3), dict(WS=4, S=6, T=4, W=2, I=5, A=1, Sv=2, AP=3)],
        [dict(WS=5, S=4, T=4, W=1, I=3, A=2, Sv=4), dict(WS=5, S=5, T=4, W=2, I=4, A=2, Sv=3, AP=5)],
    ),
    "1 v 2, the defender's second model strikes first": (
        [dict(WS=6, S=5, T=5, W=3, I=2, A=3, Sv=2, AP=2)],
        [dict(WS=3, S=3, T=3, W=1, I=1, A=1, Sv=5), dict(WS=3, S=4, T=3, W=1, I=6, A=2, Sv=4)],
    ),
}


@pytest.mark.parametrize("name", list(ORACLE_CASES))
def test_matches_a_brute_force_oracle(name):
    att, dfn = ORACLE_CASES[name]
    law = oracle(att, dfn)
    r = fight([_as_scenario(m) for m in att], [_as_scenario(m) for m in dfn])
    for stage, axis in (("damage_taken", 0), ("damage", 1)):
        marg: dict = {}
        for key, p in law.items():
            marg[key[axis]] = marg.get(key[axis], 0) + p
        assert pmf(r[stage], max(marg)) == approx([marg.get(k, 0) for k in range(max(marg) + 1)]), stage
    wins = sum(p for (a, d), p in law.items() if d > a)
    draws = sum(p for (a, d), p in law.items() if d == a)
    assert resolution(r) == approx([wins, draws, 1 - wins - draws])


# --- exact vs Monte Carlo --------------------------------------------------------------------

N = 20_000


def test_exact_matches_simulation():
    att = [
        fighter(name="legionary", count=6, A=2, W=1, Sv=3),
        fighter(
            name="sergeant",
            I=5,
            A=3,
            W=2,
            Sv=2,
            weapons=[{"name": "fist", "S": "x2", "AP": 2, "rules": ["Melee", "Unwieldy", "Brutal (2)"]}],
        ),
    ]
    dfn = [
        fighter(
            name="breacher",
            count=5,
            A=2,
            Sv=2,
            weapons=[{"name": "axe", "S": "+1", "AP": 4, "rules": ["Melee", "Rending (6+)"]}],
        ),
        fighter(
            name="boss",
            T=5,
            W=3,
            I=5,
            A=3,
            FNP=5,
            weapons=[{"name": "claw", "S": "user", "AP": 3, "rules": ["Melee", "Shred"]}],
        ),
    ]
    exact = fight(att, dfn, charged=True)
    sim = fight(att, dfn, simulate=N, seed=11, charged=True)
    assert (
        list(exact.stages)
        == list(sim.stages)
        == ["damage", "models_destroyed", "damage_taken", "models_lost"]
    )
    assert_agree(exact.stages, sim.stages, N)
    shift = -min(margin(exact).min, margin(sim).min)  # the bound reads counts from 0
    assert_agree({"margin": margin(exact) + shift}, {"margin": margin(sim) + shift}, N)
    assert exact.extra["initiative_steps"] == sim.extra["initiative_steps"]


def test_simulated_fight_is_reproducible():
    a = fight([fighter(count=3)], [fighter(count=3, I=3)], simulate=2000, seed=5)
    b = fight([fighter(count=3)], [fighter(count=3, I=3)], simulate=2000, seed=5)
    assert a.to_json() == b.to_json()


# --- bad input -------------------------------------------------------------------------------


def _base():
    return {
        "system": "heresy",
        "attacker": unit(fighter()),
        "defender": unit(fighter()),
        "conditions": {"fight": True},
    }


@pytest.mark.parametrize(
    "patch,field,needle",
    [
        (
            lambda s: s["attacker"]["models"][0].pop("T"),
            "attacker.models.0.T",
            "needs the attacking models' T",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"].append({"name": "bolter", "A": 2, "S": 4}),
            "attacker.models.0.weapons.1",
            "Melee weapons only",
        ),
        (
            lambda s: s["defender"]["models"][0]["weapons"].insert(0, {"name": "gun", "A": 1, "S": 4}),
            "defender.models.0.weapons.0",
            "Melee weapons only",
        ),
        (
            lambda s: s["conditions"].update(fight=False),
            "defender.models.0.weapons",
            "conditions.fight: true",
        ),
        (lambda s: s["conditions"].update(challenge="m"), "conditions.challenge", "not modelled in a fight"),
        (
            lambda s: s["conditions"].update(precision_target="m"),
            "conditions.precision_target",
            "not modelled",
        ),
        (
            lambda s: [s[side]["models"][0].update(count=100) for side in ("attacker", "defender")],
            "conditions.fight",
            "use --simulate N",
        ),
        (
            lambda s: s["defender"]["models"][0]["weapons"][0].update(rules=["Melee", "Flaming"]),
            "defender.models.0.weapons.0.rules.1",
            "unknown special rule",
        ),
    ],
)
def test_bad_fight_input_names_the_field(patch, field, needle):
    s = _base()
    patch(s)
    assert_names_field(s, field, needle)


def test_a_defending_model_without_weapons_fights_unarmed():
    plain = {k: v for k, v in fighter().items() if k != "weapons"}
    r = fight([fighter(I=5)], [plain])
    assert r["models_lost"][1] == approx((1 - Q) * Q)
    assert r.extra["initiative_steps"][1]["defender"] == ["close combat"]


def test_instant_death_scores_the_wounds_the_model_had_left():
    maul = {"name": "maul", "S": "x2", "rules": ["Melee"]}  # S8 v T4: wounds on 2+, Instant Death
    r = fight([fighter(I=5, weapons=[maul])], [fighter(W=2)])
    assert pmf(r["damage"], 2) == approx([F(7, 12), 0, F(5, 12)])
    assert r.extra["combat_resolution"]["attacker_wins"] == approx(F(5, 12))
