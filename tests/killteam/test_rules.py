"""Each weapon rule of the seed text and each core rule, as a test from hand-computed fractions."""

from fractions import Fraction

import pytest

from grimdice.errors import RuleError
from tests.killteam.helpers import gun, operative, run


def fr(x: float) -> Fraction:
    return Fraction(x).limit_denominator(2000)


def dmg(res) -> dict[int, Fraction]:
    return {k: fr(p) for k, p in res["damage"].to_dict().items()}


def test_attack_dice_and_damage_normal_critical():
    res = run(gun(A=1, BS=4), operative(DF=0))
    assert dmg(res) == {0: Fraction(1, 2), 3: Fraction(1, 3), 4: Fraction(1, 6)}
    assert fr(res["hits"].mean()) == Fraction(1, 2)


def test_saves_cancel_hits_two_normals_needed_for_a_crit():
    res = run(gun(A=1, BS=2), operative(DF=1, SV=4))
    # normal hit (4/6) saved by a normal or critical save (1/2); critical hit (1/6) only by a 6
    assert dmg(res) == {0: 1 - Fraction(1, 3) - Fraction(5, 36), 3: Fraction(1, 3), 4: Fraction(5, 36)}
    res = run(gun(A=1, BS=2), operative(DF=2, SV=2))
    # a critical hit is cancelled by a 6 or by two normal saves (2-5 on both dice)
    p_cancel = 1 - (Fraction(5, 6) ** 2 - Fraction(4, 6) ** 2)
    assert dmg(res)[4] == Fraction(1, 6) * (1 - p_cancel)


def test_ap_removes_defence_dice():
    res = run(gun(A=1, BS=2, rules=["AP1"]), operative(DF=1, SV=2))
    assert dmg(res) == {0: Fraction(1, 6), 3: Fraction(2, 3), 4: Fraction(1, 6)}


def test_ap_not_cumulative_the_attacker_selects_one():
    # AP1 and P1 with a critical hit retained: still AP1, so DF2 rolls one die (not zero)
    res = run(gun(A=1, BS=6, rules=["AP1"], critical=["P1"]), operative(DF=2, SV=2))
    assert dmg(res)[4] == Fraction(1, 6) * Fraction(5, 6)  # one die: only a 6 cancels a crit
    res = run(gun(A=1, BS=6, rules=["AP1", "AP2"]), operative(DF=2, SV=2))
    assert dmg(res)[4] == Fraction(1, 6)  # AP2 used: no dice


def test_piercing_only_with_a_critical_hit_retained():
    res = run(gun(A=1, BS=2, critical=["P1"]), operative(DF=1, SV=2))
    # normal hit: one die at 2+; critical hit: P1 applies, no dice
    assert dmg(res) == {
        0: Fraction(1, 6) + Fraction(2, 3) * Fraction(5, 6),
        3: Fraction(2, 3) * Fraction(1, 6),
        4: Fraction(1, 6),
    }


def test_invulnerable_save_is_not_affected_by_ap():
    res = run(gun(A=1, BS=2, rules=["AP2"]), operative(DF=2, SV=3, invulnerable=5))
    # the defender uses the invulnerable save: two dice at 5+
    assert dmg(res)[3] == Fraction(4, 6) * Fraction(4, 9)
    # a critical hit is cancelled by a 6 or by two 5s
    assert dmg(res)[4] == Fraction(1, 6) * (Fraction(5, 6) ** 2 - Fraction(1, 6) ** 2)
    same = run(gun(A=1, BS=2, rules=["AP2"]), operative(DF=2, SV=3, rules=["Invulnerable Save 5+"]))
    assert dmg(same) == dmg(res)


def test_cover_retains_one_normal_save_when_the_defender_wants_to():
    res = run(gun(A=1, BS=2), operative(DF=1, SV=4, cover=True))
    # normal hit: retain the cover save (always cancels); critical hit: roll instead (a 6 cancels)
    assert dmg(res) == {0: Fraction(1) - Fraction(5, 36), 4: Fraction(5, 36)}


def test_no_cover_within_a_circle_of_the_shooter():
    close = run(gun(A=1, BS=2), operative(DF=1, SV=4, cover=True, distance=2))
    assert dmg(close) == dmg(run(gun(A=1, BS=2), operative(DF=1, SV=4)))
    far = run(gun(A=1, BS=2), operative(DF=1, SV=4, cover=True, distance=2.5))
    assert dmg(far) == dmg(run(gun(A=1, BS=2), operative(DF=1, SV=4, cover=True)))


@pytest.mark.parametrize("rule", ["No Cover", "Indirect"])
def test_no_cover_and_indirect_remove_cover(rule):
    covered = run(gun(A=1, BS=2, rules=[rule]), operative(DF=1, SV=4, cover=True))
    open_ = run(gun(A=1, BS=2), operative(DF=1, SV=4))
    assert dmg(covered) == dmg(open_)


def test_indirect_can_target_a_concealed_operative_in_cover():
    with pytest.raises(RuleError, match="Conceal order and is in Cover"):
        run(gun(), operative(order="conceal", cover=True))
    run(gun(rules=["Indirect"]), operative(order="conceal", cover=True))


def test_barrage_cover_from_directly_above():
    not_hidden = run(gun(A=1, BS=2, rules=["Barrage"]), operative(DF=1, SV=4, cover=True))
    assert dmg(not_hidden) == dmg(run(gun(A=1, BS=2), operative(DF=1, SV=4)))
    hidden = run(gun(A=1, BS=2, rules=["Barrage"]), operative(DF=1, SV=4, hidden_from_above=True))
    assert dmg(hidden) == dmg(run(gun(A=1, BS=2), operative(DF=1, SV=4, cover=True)))


def test_obscured_is_not_a_valid_target():
    with pytest.raises(RuleError, match="Obscured"):
        run(gun(), operative(obscured=True))


def test_lethal():
    res = run(gun(A=1, BS=3, rules=["Lethal 5+"]), operative(DF=0))
    assert dmg(res) == {0: Fraction(1, 3), 3: Fraction(1, 3), 4: Fraction(1, 3)}


def test_mw_per_critical_hit_retained_even_if_saved():
    res = run(gun(A=1, BS=2, D="1/1", critical=["MW2"]), operative(DF=3, SV=2, W=10))
    assert res["mortal_wounds"].to_dict() == pytest.approx({0: 5 / 6, 2: 1 / 6})
    # a critical hit: 2 mortal wounds, then the hit itself is saved unless no 6 and < 2 normal saves
    p_crit_through = Fraction(1, 6) ** 3 + 3 * Fraction(4, 6) * Fraction(1, 6) ** 2
    assert dmg(res)[3] == Fraction(1, 6) * p_crit_through
    assert dmg(res)[2] == Fraction(1, 6) * (1 - p_crit_through)


def test_splash_on_target_and_others_within_range():
    res = run(
        gun(A=1, BS=2, D="1/1", critical=["Splash 2"]),
        operative(DF=3, SV=2, W=10),
        nearby=[
            operative(name="near", W=2, distance_to_target=2),
            operative(name="far", W=2, distance_to_target=3),
        ],
    )
    assert res["mortal_wounds"][2] == pytest.approx(1 / 6)
    assert set(res.targets) == {"target", "near"}
    assert res.targets["near"]["models_destroyed"][1] == pytest.approx(1 / 6)
    assert res.targets["near"]["hits"].max == 0  # no attack against it, only the splash


def test_rending_one_normal_hit_becomes_critical():
    base = run(gun(A=2, BS=3), operative(DF=0)).stages["damage"].mean()
    rend = run(gun(A=2, BS=3, critical=["Rending"]), operative(DF=0)).stages["damage"].mean()
    assert rend - base == pytest.approx(2 * (1 / 6) * (3 / 6))  # P(one crit and one normal) x 1 extra


def test_balanced_rerolls_one_die():
    res = run(gun(A=1, BS=4, D="3/3", rules=["Balanced"]), operative(DF=0))
    assert fr(res["hits"].mean()) == Fraction(3, 4)


def test_ceaseless_rerolls_ones_only():
    res = run(gun(A=1, BS=4, D="3/3", rules=["Ceaseless"]), operative(DF=0))
    assert fr(res["hits"].mean()) == Fraction(1, 2) + Fraction(1, 6) * Fraction(1, 2)


def test_relentless_fishes_for_crits_when_they_are_worth_it():
    res = run(gun(A=1, BS=2, D="1/6", rules=["Relentless"]), operative(DF=0, W=10))
    # keep a 6; re-roll anything else: 4/6 x 1 + 1/6 x 6 = 10/6
    assert fr(res["damage"].mean()) == Fraction(1, 6) * 6 + Fraction(5, 6) * Fraction(10, 6)


def test_hot_three_mortal_wounds_per_discarded_one():
    res = run(gun(A=2, BS=3, rules=["Hot"]), operative())
    hot = res.extra["hot"]["shooter"]
    assert hot["p_any"] == pytest.approx(11 / 36)
    assert hot["self_mortal_wounds"]["pmf"] == pytest.approx([25 / 36, 0, 0, 10 / 36, 0, 0, 1 / 36])
    # Ceaseless re-rolls the 1s, so fewer are discarded
    res = run(gun(A=1, BS=3, rules=["Hot", "Ceaseless"]), operative())
    assert res.extra["hot"]["shooter"]["p_any"] == pytest.approx(1 / 36)


def test_stun_reduces_apl_with_any_critical_hit():
    res = run(gun(A=3, BS=3, critical=["Stun"]), operative())
    assert res.extra["stun"]["p_apl_reduced"] == pytest.approx(1 - (5 / 6) ** 3)


def test_injured_attacker_worsens_bs():
    hurt = run(
        gun(A=1, BS=3),
        operative(DF=0),
        attacker={"name": "shooter", "W": 10, "wounds": 4, "weapons": [gun(A=1, BS=3)]},
    )
    assert fr(hurt["hits"].mean()) == Fraction(1, 2)  # BS 4+
    not_hurt = run(
        gun(A=1, BS=3),
        operative(DF=0),
        attacker={"name": "shooter", "W": 10, "wounds": 5, "weapons": [gun(A=1, BS=3)]},
    )
    assert fr(not_hurt["hits"].mean()) == Fraction(2, 3)


def test_blast_same_attack_against_others_within_range_never_in_cover():
    res = run(
        gun(A=1, BS=2, rules=['Blast 2"']),
        operative(DF=1, SV=4, cover=True),
        nearby=[
            operative(name="b", DF=1, SV=4, cover=True, distance_to_target="circle"),
            operative(name="hidden", distance_to_target=1, visible_to_target=False),
            operative(name="far", distance_to_target=3),
        ],
    )
    assert set(res.targets) == {"target", "b"}
    open_ = run(gun(A=1, BS=2), operative(DF=1, SV=4))
    assert res.targets["b"]["damage"].allclose(open_["damage"])  # cannot be in cover
    covered = run(gun(A=1, BS=2), operative(DF=1, SV=4, cover=True))
    assert res["damage"].allclose(covered["damage"])
    assert "hidden: not Visible" in res.extra["not_attacked"][0]


def test_blast_and_torrent_count_incapacitated_operatives():
    res = run(
        gun(A=1, BS=2, D="1/1", rules=["Torrent 2"]),
        operative(DF=0, W=1),
        nearby=[operative(name="b", DF=0, W=1, distance_to_target=2)],
    )
    assert res["operatives_incapacitated"].to_dict() == pytest.approx({0: 1 / 36, 1: 10 / 36, 2: 25 / 36})


def test_torrent_targets_must_be_within_x_of_each_other():
    nearby = [
        operative(name="b", distance_to_target=2, distances={"c": 4}),
        operative(name="c", distance_to_target=2),
    ]
    with pytest.raises(RuleError, match='Torrent 2": b and c are 4" apart'):
        run(gun(rules=["Torrent 2"]), operative(), nearby=nearby)


def test_torrent_skips_operatives_that_are_not_valid_targets():
    res = run(
        gun(rules=["Torrent 2"]),
        operative(),
        nearby=[operative(name="b", distance_to_target=1, obscured=True)],
    )
    assert "b" not in res.targets and "Obscured" in res.extra["not_attacked"][0]


def test_fusillade_user_split_and_optimal_split():
    nearby = [operative(name="b", DF=0, W=3, distance_to_target=2)]
    res = run(
        gun(A=4, BS=3, rules=["Fusillade"]),
        operative(DF=3, SV=2, W=12),
        nearby=nearby,
        shots=[{"split": {"target": 3, "b": 1}}],
    )
    assert res["hits"].max == 3 and res.targets["b"]["hits"].max == 1
    best = run(gun(A=4, BS=3, rules=["Fusillade"]), operative(DF=3, SV=2, W=12), nearby=nearby)

    def total(r):
        return r["damage"].mean() + (r.targets["b"]["damage"].mean() if "b" in r.targets else 0.0)

    splits = [
        run(
            gun(A=4, BS=3, rules=["Fusillade"]),
            operative(DF=3, SV=2, W=12),
            nearby=nearby,
            shots=[{"split": {"target": k, "b": 4 - k}}],
        )
        for k in range(1, 5)
    ]
    assert total(best) == pytest.approx(max(total(r) for r in splits), abs=1e-12)


def test_combined_attacks_carry_wounds_over():
    res = run(gun(A=1, BS=4), operative(DF=0, W=5), attackers=None)
    two = run(
        None,
        operative(DF=0, W=5),
        attacker={
            "name": "shooter",
            "W": 10,
            "weapons": [gun(name="a", A=1, BS=4), gun(name="b", A=1, BS=4)],
        },
        shots=[{"weapon": "a"}, {"weapon": "b"}],
    )
    one = {0: Fraction(1, 2), 3: Fraction(1, 3), 4: Fraction(1, 6)}
    expect: dict[int, Fraction] = {}
    for a, pa in one.items():
        for b, pb in one.items():
            expect[min(a + b, 5)] = expect.get(min(a + b, 5), 0) + pa * pb
    assert dmg(two) == expect
    assert dmg(res) == one
    assert two["models_destroyed"][1] == pytest.approx(float(expect[5]))


def test_one_attack_against_many_target_profiles():
    from grimdice.systems.killteam import calculate
    from tests.killteam.helpers import scenario

    sc = scenario(gun(A=1, BS=4))
    sc.pop("target")
    sc["targets"] = [operative(name="naked", DF=0), operative(name="armoured", DF=3, SV=2)]
    res = calculate(sc)
    assert set(res.targets) == {"naked", "armoured"}
    assert res.targets["naked"]["damage"].mean() > res.targets["armoured"]["damage"].mean()
    assert res["damage"].allclose(res.targets["naked"]["damage"])


def test_positions_give_the_distances():
    # 32 mm bases: centres 3.26" apart are 2" apart base to base
    centre = 2 + 32 / 25.4
    res = run(
        gun(A=1, BS=2, rules=["Blast circle"]),
        operative(position={"x": 0, "y": 0}),
        nearby=[
            operative(name="in", position={"x": centre - 0.01, "y": 0}),
            operative(name="out", position={"x": 0, "y": centre + 0.01}),
        ],
    )
    assert set(res.targets) == {"target", "in"}
    with pytest.raises(RuleError, match='Rng 6"'):
        run(
            gun(rules=["Rng pentagon"]),
            operative(position={"x": 10, "y": 0}),
            attacker={
                "name": "shooter",
                "W": 10,
                "position": {"x": 0, "y": 0},
                "weapons": [gun(rules=["Rng 6"])],
            },
        )


def test_nearby_needs_a_distance_or_positions():
    from grimdice.errors import ScenarioError

    with pytest.raises(ScenarioError, match="give distance_to_target, or a position"):
        run(gun(rules=["Blast circle"]), operative(), nearby=[operative(name="b")])
