"""Each weapon and model special rule against hand-computed fractions (2.0 rule texts)."""

import pytest

from grimdice.errors import ScenarioError
from tests.heresy.helpers import F, approx, melee, model, pmf, run, weapon

AUTO = "Template"  # one automatic hit, so a test starts at the Wound roll


def test_rending_wounds_automatically_regardless_of_toughness_at_ap2():
    # S4 v T8 cannot wound; Rending (6+) wounds on a 6 anyway, at AP 2 (no 2+ armour save)
    r = run(weapon(S=4, AP=5, rules=[AUTO, "Rending (6+)"]), model(T=8, Sv=2))
    assert r["wounds"][1] == approx(F(1, 6))
    assert r["unsaved"][1] == approx(F(1, 6))


def test_rending_x_plus_value():
    # Rending (5+): 5s and 6s auto-wound at AP2; a 4 wounds normally (S4 v T4) and is saved on 3+
    r = run(weapon(S=4, AP=5, rules=[AUTO, "rending 5+"]), model(Sv=3))
    assert r["wounds"][1] == approx(F(3, 6))
    assert r["unsaved"][1] == approx(F(2, 6) + F(1, 6) * F(2, 6))


def test_breaching_wounds_at_ap2_but_do_not_autowound():
    r = run(weapon(S=4, AP=5, rules=[AUTO, "Breaching (5+)"]), model(Sv=3))
    assert r["wounds"][1] == approx(F(3, 6))
    assert r["unsaved"][1] == approx(F(2, 6) + F(1, 6) * F(2, 6))
    # a 6 that cannot wound (S3 v T7 needs a 6: it does) vs S3 v T8 (cannot wound): no auto wound
    r = run(weapon(S=3, AP=5, rules=[AUTO, "Breaching (6+)"]), model(T=8, Sv=3))
    assert r["wounds"][0] == approx(F(1))


def test_invulnerable_save_against_rending():
    r = run(weapon(S=4, rules=[AUTO, "Rending (4+)"]), model(Sv=2, invulnerable=4))
    assert r["unsaved"][1] == approx(F(3, 6) * F(1, 2))


def test_fleshbane_always_wounds_on_2_plus():
    r = run(weapon(S=1, rules=[AUTO, "Fleshbane"]), model(T=8))
    assert r["wounds"][1] == approx(F(5, 6))


def test_poisoned_fixed_number_unless_lower_needed():
    assert run(weapon(S=3, rules=[AUTO, "Poisoned (4+)"]), model(T=4))["wounds"][1] == approx(F(1, 2))
    assert run(weapon(S=5, rules=[AUTO, "Poisoned (4+)"]), model(T=4))["wounds"][1] == approx(F(2, 3))
    assert run(weapon(S=3, rules=[AUTO, "Poisoned"]), model(T=6))["wounds"][1] == approx(F(1, 2))


def test_poisoned_melee_rerolls_failed_wounds_when_stronger():
    # WS4 v WS4: 4+ to hit; S5 v T4 Poisoned (4+): 3+ (lower needed), re-rolled when failed
    r = run(melee(S=5, rules=["Poisoned (4+)"]), model(T=4), shooter={"A": 1})
    assert r["wounds"][1] == approx(F(1, 2) * (1 - F(1, 3) ** 2))
    r = run(melee(S=4, rules=["Poisoned (4+)"]), model(T=4), shooter={"A": 1})
    assert r["wounds"][1] == approx(F(1, 2) * F(1, 2))


def test_shred_rerolls_failed_wounds():
    r = run(weapon(rules=[AUTO, "Shred"]), model())
    assert r["wounds"][1] == approx(F(3, 4))


def test_armourbane_rerolls_failed_wounds_against_dreadnoughts_and_automata_only():
    for kind, p in (("dreadnought", F(3, 4)), ("automata", F(3, 4)), ("infantry", F(1, 2))):
        r = run(weapon(rules=[AUTO, "Armourbane"]), model(), defender={"type": kind})
        assert r["wounds"][1] == approx(p), kind


def test_instant_death_rule_removes_a_model_outright():
    r = run(weapon(rules=[AUTO, "Instant Death"]), model(W=3))
    assert r["models_destroyed"][1] == approx(F(1, 2))
    assert r["damage"][3] == approx(F(1, 2))


def test_strength_double_toughness_is_instant_death():
    assert run(weapon(S=8, rules=[AUTO]), model(T=4, W=3))["models_destroyed"][1] == approx(F(5, 6))
    assert run(weapon(S=7, rules=[AUTO]), model(T=4, W=3))["models_destroyed"][1] == approx(F(0))


def test_eternal_warrior_loses_one_wound_to_instant_death():
    r = run(weapon(S=8, rules=[AUTO]), model(T=4, W=3, eternal_warrior=True))
    assert pmf(r["damage"], 1) == approx([F(1, 6), F(5, 6)])


def test_feel_no_pain():
    r = run(weapon(rules=[AUTO]), model(FNP=5))
    assert r["unsaved"][1] == approx(F(1, 2))
    assert r["damage"][1] == approx(F(1, 2) * F(4, 6))


def test_feel_no_pain_not_against_instant_death():
    r = run(weapon(rules=[AUTO, "Instant Death"]), model(FNP=4))
    assert r["damage"][1] == approx(F(1, 2))


def test_shrouded_is_taken_after_and_in_addition_to_the_save():
    r = run(weapon(rules=["Rapid Fire"]), model(Sv=4, shrouded=5))
    # hit 2/3, wound 1/2, save 4+ fails 1/2, then Shrouded (5+) fails 2/3
    assert r["unsaved"][1] == approx(F(1, 6))
    assert r["damage"][1] == approx(F(1, 6) * F(2, 3))


def test_shrouded_never_against_a_melee_weapon():
    r = run(melee(), model(Sv=4, shrouded=2), shooter={"A": 1})
    assert r["damage"][1] == approx(F(1, 2) * F(1, 2) * F(1, 2))


def test_shrouded_not_against_ignores_cover_or_template():
    for rules in (["Ignores Cover"], ["Template"]):
        r = run(weapon(rules=rules), model(shrouded=2))
        assert r["damage"][1] == r["unsaved"][1]


def test_shrouded_against_instant_death_where_feel_no_pain_is_not_allowed():
    r = run(weapon(rules=["Blast", "Instant Death"]), model(W=2, FNP=2, shrouded=4))
    assert r["models_destroyed"][1] == approx(F(1, 2) * F(1, 2))


def test_only_one_damage_mitigation_roll_the_best():
    r = run(weapon(rules=["Blast"]), model(FNP=5, shrouded=4))
    assert r["damage"][1] == approx(F(1, 2) * F(1, 2))  # one roll at 4+, not two


def test_gets_hot_on_to_hit_rolls_of_one():
    r = run(weapon(rules=["Gets Hot"]), model(), shooter={"Sv": 3})
    hot = r.extra["gets_hot"]
    assert hot["wounds"]["pmf"][1] == approx(F(1, 6))
    assert hot["unsaved"]["pmf"][1] == approx(F(1, 6) * F(1, 3))


def test_gets_hot_with_rerolls_only_when_the_reroll_is_a_one():
    r = run(weapon(rules=["Gets Hot"]), model(), shooter={"BS": 6})
    assert r.extra["gets_hot"]["wounds"]["pmf"][1] == approx(F(1, 36))
    r = run(weapon(rules=["Gets Hot", "Twin-linked"]), model(), shooter={"BS": 4})
    # a failed roll (1 or 2) is re-rolled; only a re-roll of 1 Gets Hot
    assert r.extra["gets_hot"]["wounds"]["pmf"][1] == approx(F(2, 6) * F(1, 6))


def test_gets_hot_ap_and_firer_saves_no_cover():
    r = run(weapon(AP=3, rules=["Gets Hot"]), model(), shooter={"Sv": 3, "FNP": 5}, defender={"cover": 2})
    assert r.extra["gets_hot"]["unsaved"]["pmf"][1] == approx(F(1, 6) * F(2, 3))
    r = run(weapon(AP=3, rules=["Gets Hot"]), model(), shooter={"Sv": 3, "invulnerable": 4})
    assert r.extra["gets_hot"]["unsaved"]["pmf"][1] == approx(F(1, 6) * F(1, 2))


def test_gets_hot_on_weapons_that_do_not_roll_to_hit():
    r = run(weapon(rules=["Blast", "Gets Hot"], hits=3), model(count=3))
    assert pmf(r["hits"], 3) == approx([F(1, 6), 0, 0, F(5, 6)])
    assert r.extra["gets_hot"]["wounds"]["pmf"][1] == approx(F(1, 6))


def test_gets_hot_one_before_firing_is_rerolled_by_bs6_or_twin_linked():
    for shooter, rules in (({"BS": 6}, []), ({"BS": 4}, ["Twin-linked"])):
        r = run(weapon(rules=["Blast", "Gets Hot", *rules]), model(), shooter=shooter)
        assert r.extra["gets_hot"]["wounds"]["pmf"][1] == approx(F(1, 36))
        assert r["hits"][1] == approx(F(35, 36))


def test_blast_barrage_template_hit_without_a_roll():
    for rule in ("Blast", "Barrage", "Template", "Large Blast"):
        r = run(weapon(rules=[rule], hits="D3"), model(count=5))
        assert pmf(r["hits"], 3) == approx([0, F(1, 3), F(1, 3), F(1, 3)]), rule


def test_blast_cannot_be_snap_shots_and_template_snap_shots_are_wall_of_death():
    with pytest.raises(ScenarioError, match="cannot be fired as Snap Shots"):
        run(weapon(rules=["Blast"]), model(), conditions={"snap_shots": True})
    r = run(weapon(rules=["Template"], hits=5), model(count=5), conditions={"snap_shots": True})
    assert pmf(r["hits"], 3) == approx([0, F(1, 3), F(1, 3), F(1, 3)])


def test_rules_without_effect_on_the_dice_are_accepted():
    r = run(weapon(rules=["Assault", "Heavy", "Rapid Fire", "Pistol", "Pinning", "Salvo 2"]), model())
    assert r["hits"][1] == approx(F(2, 3))


def test_rule_spellings():
    from grimdice.systems.heresy.rules import parse_rules

    r = parse_rules(["Rending(5)", "[Breaching 4+]", "precision shots (4+)", "POISONED", "Reaping Blow"], "w")
    assert (r.rending, r.breaching, r.precision, r.poisoned, r.reaping_blow) == (5, 4, 4, 4, 1)
    assert parse_rules(["Precision Strikes (3+)"], "w").precision == 3


def test_gets_hot_only_when_firing():
    r = run(melee(rules=["Gets Hot"]), model(), shooter={"A": 3})
    assert "gets_hot" not in r.extra


def test_heavy_subtype_rerolls_failed_armour_saves_against_blast_and_template():
    # Sv 3+: a wound gets through only if both rolls fail (1/3 * 1/3)
    for rule in ("Blast", "Template", "Barrage"):
        r = run(weapon(S=4, AP=5, rules=[rule]), model(Sv=3), defender={"heavy": True})
        assert r["unsaved"][1] == approx(F(1, 2) * F(1, 9)), rule
    r = run(weapon(S=4, AP=5, rules=["Rapid Fire"]), model(Sv=3), defender={"heavy": True})
    assert r["unsaved"][1] == approx(F(2, 3) * F(1, 2) * F(1, 3))  # not against other weapons


def test_heavy_picks_the_save_most_likely_to_pass():
    from grimdice.systems.heresy.rolls import NEVER, save_choice

    assert save_choice(4, NEVER, 3, NEVER, True) == (4, True)  # 3/4 re-rolled beats 2/3
    assert save_choice(5, NEVER, 3, NEVER, True) == (3, False)  # 5/9 loses to 2/3
    assert save_choice(3, 2, 4, NEVER, True) == (4, False)  # no armour save against AP 2
    r = run(weapon(S=4, AP=6, rules=["Blast"]), model(Sv=4, invulnerable=3), defender={"heavy": True})
    assert r["unsaved"][1] == approx(F(1, 2) * F(1, 4))


def test_brutal_makes_each_allocated_wound_x_wounds_saved_separately():
    r = run(weapon(rules=[AUTO, "Brutal (2)"]), model(W=2))
    assert pmf(r["damage"], 2) == approx([F(1, 2), 0, F(1, 2)])
    # Brutal (3) v W2 Sv 4+: three saves, each failing 1/2; the model loses min(2, failures)
    r = run(weapon(rules=[AUTO, "Brutal (3)"]), model(W=2, Sv=4))
    assert pmf(r["damage"], 2) == approx([F(1, 2) + F(1, 16), F(3, 16), F(1, 4)])


def test_brutal_wounds_do_not_spill_over_to_other_models():
    r = run(weapon(rules=[AUTO, "Brutal (3)"]), model(count=3))
    assert r["models_destroyed"].max == 1
    assert r["unsaved"].max == 1  # once the model is removed the rest are lost
