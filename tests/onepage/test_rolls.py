"""Every dice rule against hand fractions, each from its sentence of the text."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from grimdice.systems.onepage import calculate
from grimdice.systems.onepage.attack import Timing, melee_fire, odds, shooting_fire
from grimdice.systems.onepage.psyker import manifest, power_dice
from grimdice.systems.onepage.rolls import damage_table, p_morale
from grimdice.systems.onepage.weapons import parse_weapon
from tests.onepage.helpers import cond, scenario, unit


def close(x: float, f: F) -> bool:
    return abs(x - float(f)) < 1e-12


def w(text: str):  # type: ignore[no-untyped-def]
    return parse_weapon(text, "w")


MARINE = unit("M", quality=3)
BOYZ = unit("B", size=5, quality=5)
TERMIES = unit("T", size=3, quality=3, rules=["Armored"])


def test_quality_hit_and_block() -> None:
    # "take as many Quality tests as attacks"; "For every hit the target has to take a Quality test.
    # Each success counts as a block, and all failed rolls count as wounds." Q3 vs Q5: 4/6 * 4/6
    o = odds(w("Rifle"), MARINE, BOYZ, cond(), melee=False)
    assert close(o.p_hit, F(4, 6)) and close(o.p_wound, F(4, 6) * F(4, 6))


def test_armored_and_cover_not_cumulative() -> None:
    # Armored: "On a 4+ the hit is ignored." Cover: "counts as having the Armored special rule against
    # shooting attacks"; "multiple instances of the same special rule are not cumulative"
    o = odds(w("Rifle"), MARINE, TERMIES, cond(cover=True), melee=False)
    assert close(o.p_wound, F(4, 6) * F(1, 2) * F(2, 6))
    assert close(
        odds(w("Rifle"), MARINE, BOYZ, cond(cover=True), melee=False).p_wound, F(4, 6) * F(1, 2) * F(4, 6)
    )
    # cover is for shooting only
    assert close(
        odds(w("Hand Weapon"), MARINE, BOYZ, cond(cover=True), melee=True).p_wound, F(4, 6) * F(4, 6)
    )
    # Elevation: "If a unit is the target of a ranged attack that is from lower elevation ... Cover"
    assert odds(w("Rifle"), MARINE, BOYZ, cond(elevated_target=True), melee=False).armored


def test_piercing_attacker_picks_better_option() -> None:
    # Piercing: "either ignore the Armored special rule, or their targets must re-roll successful blocks"
    piercing = w('Gun (24", A1, Piercing)')
    ign = F(4, 6) * F(2, 6)  # vs Q3 Armored, Armored ignored
    rer = F(4, 6) * F(1, 2) * (F(2, 6) + F(4, 6) * F(2, 6))
    o = odds(piercing, MARINE, TERMIES, cond(), melee=False)
    assert o.option == "armored" and close(o.p_wound, max(ign, rer)) and ign > rer
    assert close(odds(piercing, MARINE, TERMIES, cond(piercing="armored"), melee=False).p_wound, ign)
    # no Armored: re-rolling blocks is the only useful pick
    o2 = odds(piercing, MARINE, BOYZ, cond(), melee=False)
    assert o2.option == "reroll" and close(o2.p_wound, F(4, 6) * (F(4, 6) + F(2, 6) * F(4, 6)))


def test_poison_only_against_infantry_and_monsters() -> None:
    # Poison: "count as having the Piercing special rule against Infantry and Monster units"
    chem = w('Chem Cannon (18", A6, Poison)')
    assert odds(chem, MARINE, BOYZ, cond(), melee=False).option == "reroll"
    tank = unit("V", quality=4, rules=["Vehicle", "Tough(6)"])
    assert odds(chem, MARINE, tank, cond(), melee=False).option == ""
    beast = unit("X", quality=4, rules=["Monster", "Tough(6)"])
    assert odds(chem, MARINE, beast, cond(), melee=False).option != ""


def test_rending_linked_scope() -> None:
    # Rending: "hits on a roll of 6 it causes one automatic wound. These hits cannot be ignored by the
    # Armored special rule." Q4 vs Armored Q3: 1/6 + 2/6 * 1/2 * 2/6
    o = odds(w("Claw (A1, Rending)"), unit(quality=4), TERMIES, cond(), melee=True)
    assert close(o.p_wound, F(1, 6) + F(2, 6) * F(1, 2) * F(2, 6))
    # Linked: "may re-roll failed hits": Q4: 1/2 + 1/2*1/2
    assert close(odds(w('Twin (24", A1, Linked)'), unit(quality=4), BOYZ, cond(), melee=False).p_hit, F(3, 4))
    # Scope: "count as being of Quality 2+ when shooting it"
    assert close(
        odds(w('Sniper (30", A1, Scope)'), unit(quality=5), BOYZ, cond(), melee=False).p_hit, F(5, 6)
    )
    # Hatred: "re-roll failed melee attacks when using Assault actions" (not when assaulted)
    h = unit(quality=4, rules=["Hatred"])
    assert close(odds(w("Hand Weapon"), h, BOYZ, cond(action="assault"), melee=True).p_hit, F(3, 4))
    assert close(odds(w("Hand Weapon"), h, BOYZ, cond(action="hold"), melee=True).p_hit, F(1, 2))


def test_fearless_morale() -> None:
    # Fearless: "roll one extra die and pick the highest result": Q5 -> 1 - (4/6)^2
    assert close(p_morale(5, True), 1 - F(4, 6) ** 2) and close(p_morale(5, False), F(2, 6))


def test_vehicle_damage_table_facings() -> None:
    # front: "roll two dice and pick the lowest"; rear: "pick the highest"; side: one die
    g, s, i = damage_table("front")
    assert close(g, 1 - F(4, 6) ** 2) and close(i, F(2, 6) ** 2) and close(s, 1 - g - i)
    g, s, i = damage_table("rear")
    assert close(i, 1 - F(4, 6) ** 2) and close(g, F(2, 6) ** 2)
    assert all(close(x, F(1, 3)) for x in damage_table("side"))


def test_who_shoots_and_attack_counts() -> None:
    # "Three marines armed with Pistols (Attack 1) are within range ... a total of 3 attacks"
    marines = unit("M", size=5, quality=3, equipment=["Pistol"])
    fires = shooting_fire(marines, marines.initial(), BOYZ, cond(distance=10, in_range=3))
    assert sum(f.dice for f in fires) == 3
    assert shooting_fire(marines, marines.initial(), BOYZ, cond(distance=13)) == []
    # "Three marines armed with Hand Weapons (Attack 2) ... receive 1 bonus Attack each for assaulting,
    # which means the unit has a total of 9 attacks"
    m3 = unit("M", size=3, quality=3, equipment=["Hand Weapon"])
    assert (
        sum(f.dice for f in melee_fire(m3, m3.initial(), BOYZ, cond(action="assault"), assaulting=True)) == 9
    )
    # "models from the defending unit do not receive a bonus attack"
    assert sum(f.dice for f in melee_fire(m3, m3.initial(), BOYZ, cond(), assaulting=False)) == 6
    # Furious: "+1 Attack in melee when using Assault actions"
    f3 = unit("F", size=3, quality=3, equipment=["Hand Weapon"], rules=["Furious"])
    assert (
        sum(f.dice for f in melee_fire(f3, f3.initial(), BOYZ, cond(action="assault"), assaulting=True)) == 12
    )


def test_relentless_fires_all_weapons_on_hold() -> None:
    # Relentless: "may fire all of their weapons when using Hold actions"
    r = unit("R", quality=3, equipment=["Rifle", "Autocannon"], rules=["Relentless"])
    assert sum(f.dice for f in shooting_fire(r, r.initial(), BOYZ, cond(action="hold"))) == 4
    assert sum(f.dice for f in shooting_fire(r, r.initial(), BOYZ, cond(action="walk"))) == 3


def test_indirect() -> None:
    # Indirect: "may be fired at enemies that are not within line of sight, however ... Cover"
    u = unit("A", quality=4, equipment=['Mortar (48", A6, Indirect)', "Rifle"])
    fires = shooting_fire(u, u.initial(), BOYZ, cond(no_line_of_sight=True))
    assert [f.odds.weapon.name for f in fires] == ["Mortar"] and fires[0].odds.armored


def test_strike_order() -> None:
    # "If two units with this special rule fight each other in melee they ignore this special rule."
    first = unit("F", equipment=["Blade (A1, Strikes First)"])
    last = unit("L", equipment=["Club (A1, Strikes Last)"])
    plain = unit("P", equipment=["Hand Weapon"])

    def label(a, d, **kw) -> str:  # type: ignore[no-untyped-def]
        t = Timing.of(a, a.initial(), d, d.initial(), cond(**kw), False, False)
        fa = melee_fire(a, a.initial(), d, cond(action="assault"), assaulting=True)
        fd = melee_fire(d, d.initial(), a, cond(action="hold"), assaulting=False)
        return Timing.label(t.tiers(True, fa), t.tiers(False, fd))

    assert label(first, first) == "both"
    assert label(last, last) == "both"
    assert label(plain, plain) == "both"
    assert label(last, plain) == "mixed"  # the assault bonus carries no weapon rule: tier 0
    assert label(plain, last) == "attacker"
    assert label(plain, first) == "defender"
    # Elevation gives the whole unit Strikes First; against a Strikes First weapon both ignore it
    assert label(plain, plain, attacker_higher=True) == "attacker"
    assert label(plain, first, attacker_higher=True) == "both"


def test_psyker_power_and_perils() -> None:
    # "receive D3+X power ... a maximum of 6 power dice": X=4 -> 5 (1/3) or 6 (2/3)
    d = power_dice(4)
    assert close(d[5], F(1, 3)) and close(d[6], F(2, 3))
    # two dice, one 4+ needed: 1 - (1/2)^2; perils "two or more 6s": 1/36
    j = dict(manifest(2, 1).items())
    assert close(j[(1, 0)] + j[(1, 1)], F(3, 4)) and close(j[(1, 1)], F(1, 36))


def test_half_killed_morale_example() -> None:
    # "A unit of Tactical Marines shoots at a unit of 6 Ork Boyz and manages to kill 3 models. Since
    # half of the boyz were killed at once the unit must take a morale test." One Lascannon-like
    # single-die check: 1 attack Q2 Scope... use a deterministic-ish count: P(test) = P(>=3 kills)
    sc = scenario(
        "shooting",
        {"name": "M", "size": 3, "quality": 2, "equipment": ["Rifle"]},
        {"name": "B", "size": 6, "quality": 6, "equipment": []},
    )
    r = calculate(sc)
    p_w = F(5, 6) * F(5, 6)
    p3 = p_w**3  # all 3 wound -> 3 of 6 killed
    assert close(r["morale_test"][1], p3)
    assert close(r["pinned"][1], p3 * F(5, 6))  # Q6 test fails 5/6


def test_melee_rout_or_pinned() -> None:
    # "it still has more than half as many models as it started the game with, then it is Pinned" /
    # "has half as many models as it started the game with, then it Routs."
    from grimdice.systems.onepage.exact import loser_morale

    u = unit("B", size=4, quality=4)
    s = u.initial()
    assert [x.pinned for x, _ in loser_morale(u, s)] == [False, True]
    half = type(s)((2,), (0,))
    assert loser_morale(u, half)[1][0].routed


@pytest.mark.parametrize("facing", ["front", "side", "rear"])
def test_vehicle_in_scenario(facing: str) -> None:
    sc = scenario(
        "shooting",
        {"name": "L", "quality": 2, "equipment": ['Las (48", A1)']},
        {"name": "V", "quality": 6, "special_rules": ["Vehicle", "Tough(3)"]},
        conditions={"facing": facing},
    )
    r = calculate(sc)
    # one attack, Q2 hit 5/6, Armored 1/2, Q6 block fails 5/6 -> P(wound) = 25/72
    pw = F(5, 6) * F(1, 2) * F(5, 6)
    _g, s, i = damage_table(facing)
    assert close(r["shaken"][1], pw * F(s).limit_denominator(1000))
    assert close(r["immobile"][1], pw * F(i).limit_denominator(1000))


def test_casting_plan_by_expectimax() -> None:
    # "The player may try to manifest any Psychic Power once per round by rolling any number of power
    # dice": with 2 dice and one power needing one 4+, both dice (3/4 > 1/2); perils "two or more 6s".
    from grimdice.systems.onepage.psyker import best_casting

    plan, v = best_casting(2, (1,))
    assert plan == [2] and close(v[0], F(3, 4)) and close(v[1], F(1, 36))
    # two such powers: one die each manifests 1/2 + 1/2 = 1 power on average, never perils
    plan, v = best_casting(2, (1, 1))
    assert plan == [1, 1] and close(v[0], F(1)) and v[1] == 0
    # three dice for a power needing two 4+: P = 1/2; perils 3*(1/36)*(5/6) + 1/216
    plan, v = best_casting(3, (2,))
    assert plan == [3] and close(v[0], F(1, 2)) and close(v[2], F(16, 216))


def test_shaken_vehicle_rerolls_successful_hits() -> None:
    # Shaken: "The Vehicle must re-roll successful hits until the end of its next activation." Q4: 1/4
    sc = scenario(
        "shooting",
        {"name": "T", "quality": 4, "equipment": ['Gun (24", A1)'], "special_rules": ["Vehicle"]},
        {"name": "B", "size": 5, "quality": 6},
        conditions={"attacker_shaken": True},
    )
    assert close(calculate(sc)["hits"][1], F(1, 4))
