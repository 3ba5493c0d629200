"""Choices the text gives a side, played optimally: the defender's casualties ("The defender may remove
the models in any order")."""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

from grimdice.systems.base import calculate
from grimdice.systems.onepage.attack import removal
from grimdice.systems.onepage.units import UnitState, choose_order, wound
from tests.agreement import assert_agree
from tests.onepage.helpers import cond, scenario, unit

# group 0: Claws (A2, Rending); group 1: a Hand Weapon (A2). Same attacks, so a fixed "fewest
# attacks first" rule cannot tell them apart; against Quality 4+ the Rending claws wound more.
CLAWS = {
    "name": "Pack",
    "size": 2,
    "quality": 4,
    "equipment": ["Claws (A2, Rending)"],
    "variants": [{"count": 1, "equipment": ["Hand Weapon"]}],
}
DUELIST = {"name": "Duelist", "size": 1, "quality": 4, "equipment": ["Blade (A1)"]}


def test_worth_is_the_expected_return_wounds_by_hand() -> None:
    pack, duelist = unit(**CLAWS), unit(**DUELIST)
    r = removal(pack, duelist, cond(), assaulting=False, strike_back=True)
    # Claws: 2 x (1/6 Rending + (1/2 - 1/6) hits x 1/2 unblocked) = 2/3; Hand Weapon: 2 x 1/2 x 1/2
    assert abs(r.worth[0] - 2 / 3) < 1e-12 and abs(r.worth[1] - 1 / 2) < 1e-12


def test_removal_beats_every_set_of_individual_models() -> None:
    # Brute force over which individual models die (any order of removal), Tough(2) models included.
    u = unit(
        "Mob",
        5,
        4,
        ["Claws (A2, Rending)"],
        ["Tough(2)"],
        variants=[{"count": 2, "equipment": ["Power Fist"]}, {"count": 1, "equipment": ["Hand Weapon"]}],
    )
    enemy = unit(**DUELIST)
    for back in (False, True):
        r = removal(u, enemy, cond(), assaulting=False, strike_back=back)
        models = [g for g, grp in enumerate(u.groups) for _ in range(grp.count)]
        for w in range(0, 11):
            s0 = u.initial()
            chosen = r.key(u, wound(u, s0, w, choose_order(u, s0, w, r)))
            best = None
            kills, rest = divmod(w, 2)
            for dead in combinations(range(len(models)), min(kills, len(models))):
                alive = [s0.alive[g] - sum(models[i] == g for i in dead) for g in range(len(u.groups))]
                options = [tuple(0 for _ in alive)]
                if rest and sum(alive):
                    options = [
                        tuple(rest * (i == g) for i in range(len(alive))) for g in range(3) if alive[g]
                    ]
                for dmg in options:
                    k = r.key(u, UnitState(tuple(alive), dmg))
                    best = k if best is None or k > best else best
            assert chosen == best, (back, w)


def _pack_melee() -> dict:
    # the Duelist assaults from higher elevation: Strikes First, the Pack removes, then strikes back
    return scenario("melee", DUELIST, CLAWS, conditions={"attacker_higher": True})


def test_struck_first_the_defender_keeps_its_best_strikers() -> None:
    r = calculate(_pack_melee())
    # Duelist: 1 + 1 assault bonus attacks, each 1/2 x 1/2 -> W ~ Binomial(2, 1/4): 9/16, 6/16, 1/16.
    # W=0: both strike, 2/3 + 1/2; W=1: the Hand Weapon model is removed, the Claws strike (2/3).
    want = Fraction(9, 16) * (Fraction(2, 3) + Fraction(1, 2)) + Fraction(6, 16) * Fraction(2, 3)
    assert abs(r.stages["defender_wounds"].mean() - float(want)) < 1e-12
    j = r.to_json()
    assert j["defender_casualty_order"]["1"][0] == "Pack (Hand Weapon)"
    assert j["defender_casualty_objective"].startswith("most return wounds")


def test_optimal_casualties_agree_with_monte_carlo() -> None:
    ex = calculate(_pack_melee())
    n = 40_000
    mc = calculate(_pack_melee(), simulate=n, seed=11)
    assert_agree(ex.stages, mc.stages, n)


# A model carrying a Meltagun (12", A6x: Piercing, "all their wounds must be assigned to a single
# model") and a Flamer (12", A6) shoots 5 Quality 5+ models in Cover. Per attack, Quality 4+ to hit:
# Meltagun ignoring Armored 1/2 x 4/6 = 1/3, Flamer 1/2 x 1/2 x 4/6 = 1/6. More wounds from the
# Meltagun (2 vs 1 expected), but its wounds kill one model at most.
FIRE_TEAM = {"name": "Team", "size": 1, "quality": 4, "equipment": ["Meltagun", "Flamer"]}
SQUAD = {"name": "Squad", "size": 5, "quality": 5}


def _volley() -> dict:
    return scenario("shooting", FIRE_TEAM, SQUAD, conditions={"distance": 10, "cover": True})


def test_the_shooter_fires_the_weapon_that_destroys_most_not_the_most_wounds() -> None:
    r = calculate(_volley())
    j = r.to_json()
    assert [f["weapon"].split(" (")[0] for f in j["fired"]] == ["Flamer"]
    assert j["plans_compared"] == 3  # Flamer; Meltagun ignoring Armored; Meltagun re-rolling blocks
    flamer = 1 - Fraction(1, 6) ** 6  # 6 wounds would kill 5 models, one wound is lost
    melta = 1 - Fraction(2, 3) ** 6  # at most one model
    assert melta < flamer
    assert abs(r.stages["models_destroyed"].mean() - float(flamer)) < 1e-12


def test_the_shooting_plan_agrees_with_monte_carlo() -> None:
    n = 40_000
    assert_agree(calculate(_volley()).stages, calculate(_volley(), simulate=n, seed=5).stages, n)


def test_plans_with_many_x_weapons_fall_back_to_the_greedy_pick() -> None:
    # 7 Meltagun/Flamer models: a plan would fire 7 "x" weapons (> MAX_X_COMPARED): not compared
    from grimdice.systems.onepage.exact import MAX_X_COMPARED

    team = {**FIRE_TEAM, "size": MAX_X_COMPARED + 1}
    j = calculate(scenario("shooting", team, SQUAD, conditions={"distance": 10, "cover": True})).to_json()
    assert j["plans_compared"] == 1
    assert j["fired"][0]["weapon"].startswith("Meltagun")  # the most expected wounds per weapon


def test_melee_piercing_is_chosen_over_the_whole_melee() -> None:
    # Piercing: "either ignore the Armored special rule, or their targets must re-roll successful
    # blocks for hits from this weapon (pick one)". 1 model Q4 with a Spear (A1, Piercing) and the
    # assault bonus (no weapon rules) assaults 1 Armored Tough(2) model Q4 with a Piercing Pick.
    from grimdice.systems.onepage.exact import melee_table, melee_value
    from grimdice.systems.onepage.fielding import resolve_unit
    from tests.onepage.helpers import spec

    sc = scenario(
        "melee",
        {"name": "A", "quality": 4, "equipment": ["Spear (A1, Piercing)"], "special_rules": ["Armored"]},
        {
            "name": "D",
            "quality": 4,
            "equipment": ["Pick (A2, Piercing)"],
            "special_rules": ["Armored", "Tough(2)"],
        },
    )
    r = calculate(sc)
    j = r.to_json()
    assert j["melee_plans_compared"] == 4
    assert j["melee_piercing"] == {
        "attacker": {"Spear (-, A1, piercing)": "armored"},
        "defender": {"Pick (-, A2, piercing)": "armored"},
    }
    assert any("melee_piercing" in n for n in r.notes)
    # every combination resolved as a whole melee: the one played is each side's best (attacker first)
    a = resolve_unit(spec(**sc["attacker"]), "a")
    d = resolve_unit(spec(**sc["defender"]), "d")
    sa, sd, c = a.initial(), d.initial(), cond()
    spear, pick = a.groups[0].weapons[0], d.groups[0].weapons[0]
    tables = {
        (x, y): melee_table(a, sa, d, sd, c, picks=({spear: x}, {pick: y}))
        for x in ("armored", "reroll")
        for y in ("armored", "reroll")
    }

    def answer(x: str) -> str:
        return max(("armored", "reroll"), key=lambda y: melee_value(tables[x, y], a, sa, d, sd, 1))

    best_x = max(("armored", "reroll"), key=lambda x: melee_value(tables[x, answer(x)], a, sa, d, sd, 0))
    assert (best_x, answer(best_x)) == ("armored", "armored")
    # by hand, one Spear attack: hit 1/2; ignoring Armored, the block fails 1/2: 1/4; re-rolling
    # successful blocks, Armored still ignores on a 4+: 1/2 x 1/2 x (1/2 + 1/2 x 1/2) = 3/16. The bonus
    # attack (no Piercing) wounds 1/2 x 1/2 x 1/2 = 1/8. With Tough(2), the defender has 1 wound from
    # the attacker's 2 attacks, jointly:
    for x, spear_p in (("armored", Fraction(1, 4)), ("reroll", Fraction(3, 16))):
        m = tables[x, "armored"]
        p1 = spear_p * (1 - Fraction(1, 8)) + (1 - spear_p) * Fraction(1, 8)
        assert abs(m.wounds_a[1] - float(p1)) < 1e-12
