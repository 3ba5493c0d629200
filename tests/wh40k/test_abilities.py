"""Each weapon ability against hand-computed exact fractions (10th edition core rules)."""

from fractions import Fraction as F

import pytest

from tests.wh40k.helpers import model, run, weapon


def probs(d, upto):
    return [d[k] for k in range(upto + 1)]


def approx(fracs):
    return pytest.approx([float(f) for f in fracs], abs=1e-12)


def test_plain_sequence_bs4_s4_t4_sv4():
    r = run(weapon(), model(Sv=4))
    # hit 1/2, wound 1/2, save fails 1/2
    assert r["hits"][1] == pytest.approx(1 / 2)
    assert r["wounds"][1] == pytest.approx(1 / 4)
    assert r["unsaved"][1] == pytest.approx(1 / 8)
    assert r["models_destroyed"][1] == pytest.approx(1 / 8)


def test_lethal_hits_autowound():
    r = run(weapon(abilities=["Lethal Hits"]), model())
    # crit (6) wounds automatically; hits on 4,5 wound on 4+
    assert r["wounds"][1] == pytest.approx(float(F(1, 6) + F(2, 6) * F(1, 2)))


def test_sustained_hits_1():
    r = run(weapon(abilities=["sustained hits 1"]), model())
    assert probs(r["hits"], 2) == approx([F(1, 2), F(2, 6), F(1, 6)])


def test_sustained_hits_d3():
    r = run(weapon(abilities=["Sustained Hits D3"]), model())
    assert probs(r["hits"], 4) == approx([F(1, 2), F(1, 3), F(1, 18), F(1, 18), F(1, 18)])


def test_sustained_lethal_crit_on_5_interaction():
    """The critical-roll interaction other tools get wrong: crits on 5+ auto-wound AND make an
    extra hit that must roll to wound (it is not itself a critical hit)."""
    r = run(weapon(abilities=["sustained hits 1", "lethal hits"], critical_hit=5), model())
    # crit (5,6: 1/3): 1 auto wound + extra hit wounding on 4+; normal hit (4: 1/6) wounds 1/2
    p2 = F(1, 3) * F(1, 2)
    p1 = F(1, 3) * F(1, 2) + F(1, 6) * F(1, 2)
    assert probs(r["wounds"], 2) == approx([1 - p1 - p2, p1, p2])
    assert probs(r["hits"], 2) == approx([F(1, 2), F(1, 6), F(1, 3)])


def test_critical_hits_threshold_from_conditions():
    r = run(weapon(abilities=["lethal hits"]), model(T=8), conditions={"critical_hit": 5})
    # S4 vs T8 wounds on 6+; crits on 5+ auto-wound
    assert r["wounds"][1] == pytest.approx(float(F(2, 6) + F(1, 6) * F(1, 6)))


def test_devastating_wounds_no_save():
    r = run(weapon(BS=None, abilities=["torrent", "devastating wounds"]) | {"BS": 4}, model(Sv=2))
    # critical wound (6): no save; normal wound (4,5) fails a 2+ save on a 1
    assert r["unsaved"][1] == pytest.approx(float(F(1, 6) + F(2, 6) * F(1, 6)))
    assert r["devastating_wounds"][1] == pytest.approx(1 / 6)


def test_devastating_wounds_do_not_spill_over():
    r = run(weapon(abilities=["torrent", "devastating wounds"], D="D6"), model(count=2, Sv=2, W=1))
    assert r["models_destroyed"][2] == 0.0
    assert r["models_destroyed"][1] == pytest.approx(float(F(1, 6) + F(2, 6) * F(1, 6)))


def test_devastating_wounds_allocated_after_other_attacks():
    # X: D2 Devastating, every success critical (crit wound 2+); Y: D1, no save possible (Sv 7).
    # Y is resolved first even though X is listed first: Y 1 damage, then X's 2 damage must go
    # on the same wounded model and 1 is lost, so 3 damage never happens.
    x = weapon(name="X", S=8, D=2, critical_wound=2, abilities=["torrent", "devastating wounds"])
    y = weapon(name="Y", S=8, D=1, abilities=["torrent"])
    r = run([x, y], model(count=2, W=2, Sv=7))
    p = F(5, 6)
    assert probs(r["damage"], 3) == approx([(1 - p) ** 2, (1 - p) * p, p * p + p * (1 - p), 0])


def test_anti_keyword():
    w = weapon(S=3, abilities=["anti-infantry 4+", "torrent"])
    assert run(w, model(T=6, keywords=["Infantry"]))["wounds"][1] == pytest.approx(1 / 2)
    assert run(w, model(T=6, keywords=["Vehicle"]))["wounds"][1] == pytest.approx(1 / 6)


def test_anti_with_devastating_wounds_uses_critical_wound():
    w = weapon(S=3, abilities=["anti-infantry 4+", "torrent", "devastating wounds"])
    r = run(w, model(T=6, Sv=2, keywords=["infantry"]))
    assert r["unsaved"][1] == pytest.approx(1 / 2)


def test_twin_linked_rerolls_wounds():
    r = run(weapon(abilities=["twin-linked", "torrent"]), model())
    assert r["wounds"][1] == pytest.approx(3 / 4)


def test_torrent_always_hits():
    r = run(weapon(A="D6", abilities=["torrent"]), model(count=10, T=30))
    assert r["hits"].mean() == pytest.approx(3.5)


def test_blast_adds_attack_per_five_models():
    w = weapon(A=1, abilities=["blast", "torrent"])
    assert run(w, model(count=10, T=30))["hits"].max == 3
    assert run(w, model(count=4, T=30))["hits"].max == 1
    assert run(w, model(count=5, T=30), count=3)["hits"].max == 6  # per model


def test_melta_at_half_range():
    w = weapon(D="D6", abilities=["melta 2", "torrent"], S=30)
    near = run(w, model(W=20), conditions={"half_range": True})
    far = run(w, model(W=20))
    assert near["damage"].max == 8 and far["damage"].max == 6
    assert near["damage"][3] == pytest.approx(1 / 6 * 5 / 6)  # D6+2 = 3 on a 1


def test_rapid_fire_at_half_range():
    w = weapon(A=2, abilities=["rapid fire 1", "torrent"])
    assert run(w, model(T=30), conditions={"half_range": True})["hits"].max == 3
    assert run(w, model(T=30))["hits"].max == 2


def test_rapid_fire_d3():
    w = weapon(A=1, abilities=["rapid fire D3", "torrent"])
    r = run(w, model(T=30), conditions={"half_range": True})
    assert probs(r["hits"], 4) == approx([0, 0, F(1, 3), F(1, 3), F(1, 3)])


def test_lance_on_charge():
    w = weapon(WS=4, abilities=["lance", "torrent"])
    assert run(w, model(), conditions={"charged": True})["wounds"][1] == pytest.approx(2 / 3)
    assert run(w, model())["wounds"][1] == pytest.approx(1 / 2)


def test_heavy_when_stationary_and_cap():
    w = weapon(abilities=["heavy"])
    assert run(w, model(T=1), conditions={"remained_stationary": True})["hits"][1] == pytest.approx(2 / 3)
    capped = run(w, model(T=1), conditions={"remained_stationary": True, "hit_modifier": 1})
    assert capped["hits"][1] == pytest.approx(2 / 3)


def test_heavy_not_on_melee():
    w = weapon(WS=4, abilities=["heavy"])
    assert run(w, model(T=1), conditions={"remained_stationary": True})["hits"][1] == pytest.approx(1 / 2)


def test_benefit_of_cover_and_ignores_cover():
    target = model(Sv=4)
    plain = weapon(S=8, abilities=["torrent"])
    assert run(plain, target, defender={"cover": True})["unsaved"][1] == pytest.approx(1 / 3 * 5 / 6)
    ign = weapon(S=8, abilities=["torrent", "ignores cover"])
    assert run(ign, target, defender={"cover": True})["unsaved"][1] == pytest.approx(1 / 2 * 5 / 6)
    # no cover for Sv 3+ against AP 0
    assert run(plain, model(Sv=3), defender={"cover": True})["unsaved"][1] == pytest.approx(1 / 3 * 5 / 6)


def test_indirect_fire_minus_one_and_cover():
    r = run(weapon(S=8, abilities=["indirect fire"]), model(Sv=4))
    # hit needs 5+ (1/3); wound 2+ (5/6); save 3+ with cover (fails 1/3)
    assert r["unsaved"][1] == pytest.approx(float(F(1, 3) * F(5, 6) * F(1, 3)))


def test_hazardous_reported_separately():
    r = run(weapon(abilities=["hazardous"]), model(), count=3)
    hz = r.extra["hazardous"]
    assert hz["tests"] == 3
    assert hz["p_any_failed"] == pytest.approx(1 - (5 / 6) ** 3)
    assert hz["failed"]["pmf"][3] == pytest.approx((1 / 6) ** 3)


def test_unknown_ability_is_an_error():
    from grimdice.errors import ScenarioError

    with pytest.raises(ScenarioError, match=r"attacker\.models\.0\.weapons\.0\.abilities\.0.*allowed"):
        run(weapon(abilities=["laser eyes"]), model())
    with pytest.raises(ScenarioError, match="needs its value"):
        run(weapon(abilities=["sustained hits"]), model())


def test_feel_no_pain_per_wound():
    r = run(weapon(S=8, D=2, abilities=["torrent"]), model(W=5, FNP=5))
    # 2+ wound, then each of 2 damage ignored on 5+
    p = F(5, 6)
    assert probs(r["damage"], 2) == approx([1 - p + p * F(1, 9), p * 2 * F(2, 3) * F(1, 3), p * F(4, 9)])


def test_feel_no_pain_best_of_several_and_vs_devastating():
    r = run(
        weapon(S=8, critical_wound=2, abilities=["torrent", "devastating wounds"]), model(Sv=2, FNP=[6, 4])
    )
    assert r["damage"][1] == pytest.approx(5 / 6 * 1 / 2)


def test_invulnerable_ignores_ap():
    r = run(weapon(S=8, AP=-3, abilities=["torrent"]), model(Sv=2, invulnerable=4))
    assert r["unsaved"][1] == pytest.approx(5 / 6 * 1 / 2)


def test_damage_reduction_and_halving():
    r = run(weapon(S=8, D=2, abilities=["torrent"]), model(W=9, damage_reduction=1))
    assert r["damage"].max == 1
    r = run(weapon(S=8, D="D6", abilities=["torrent"]), model(W=9, halve_damage=True))
    assert probs(r["damage"], 3) == approx([F(1, 6), F(5, 6) * F(2, 6), F(5, 6) * F(2, 6), F(5, 6) * F(2, 6)])


def test_feel_no_pain_against_mortal_wounds_only_applies_to_devastating_wounds():
    w = weapon(S=30, critical_wound=6, abilities=["torrent", "devastating wounds"])
    r = run(w, model(Sv=7, FNP_mortal=4))
    # critical wound (1/6): mortal wounds, ignored on 4+; normal wound (4/6): no save, no FNP
    assert r["damage"][1] == pytest.approx(float(F(1, 6) * F(1, 2) + F(4, 6)))
