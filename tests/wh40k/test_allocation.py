"""Models destroyed exactly: allocation model by model, wounded models, mixed units, Leader."""

from fractions import Fraction as F

import pytest

from tests.wh40k.helpers import model, run, weapon

SURE = {"S": 30, "abilities": ["torrent"]}  # every attack wounds on a 2+ (5/6)


def test_excess_damage_from_one_attack_is_lost():
    r = run(weapon(A=3, D=3, **SURE), model(count=5, W=1))
    assert r["models_destroyed"].max == 3
    assert r["damage"].max == 3


def test_wounded_model_keeps_damage_between_weapons():
    a = weapon(name="a", D=1, **SURE)
    b = weapon(name="b", D=1, **SURE)
    r = run([a, b], model(count=2, W=2))
    p = F(5, 6)
    assert r["models_destroyed"][1] == pytest.approx(float(p * p))
    assert r["models_destroyed"].max == 1


def test_mixed_unit_allocation_order_and_saves():
    # first model Sv 2+ W1, second Sv 7 (none) W1; two D1 attacks, wound 5/6
    r = run(weapon(A=2, **SURE), [model(name="tough", Sv=2), model(name="soft", Sv=7)])
    p1 = F(5, 6) * F(1, 6)  # an attack kills the first model
    # second model dies only once the first is dead, so both attacks must do it in order
    assert r["models_destroyed"][2] == pytest.approx(float(p1 * F(5, 6)))
    assert r["models_destroyed"][1] == pytest.approx(float(2 * p1 - 2 * p1 * p1 + p1 * p1 - p1 * F(5, 6)))


def test_leader_uses_bodyguard_toughness_and_is_protected():
    # bodyguard T3 (S4 wounds on 3+), leader T10 is ignored for the wound roll
    r = run(weapon(A=1, abilities=["torrent"]), model(T=3, W=1), leaders=[model(name="boss", T=10, W=1)])
    assert r["wounds"][1] == pytest.approx(2 / 3)
    # one attack can only reach the bodyguard
    assert r["characters_destroyed"].max == 0


def test_character_wounded_after_last_bodyguard():
    r = run(weapon(A=2, S=30, abilities=["torrent"]), model(W=1), leaders=[model(name="boss", W=1)])
    p = F(5, 6)
    assert r["characters_destroyed"][1] == pytest.approx(float(p * p))


def test_precision_goes_to_the_character():
    r = run(
        weapon(A=1, S=30, abilities=["torrent", "precision"]), model(W=1), leaders=[model(name="boss", W=1)]
    )
    assert r["characters_destroyed"][1] == pytest.approx(5 / 6)
    # once the character is dead, precision attacks fall on the bodyguard
    r = run(
        weapon(A=2, S=30, abilities=["torrent", "precision"]), model(W=1), leaders=[model(name="boss", W=1)]
    )
    assert r["models_destroyed"][2] == pytest.approx(25 / 36)
    assert r["characters_destroyed"][1] == pytest.approx(1 - 1 / 36)


def test_mixed_save_character_counts_unsaved_on_its_own_save():
    r = run(
        weapon(A=1, S=30, abilities=["torrent", "precision"]),
        model(Sv=7),
        leaders=[model(name="boss", Sv=7, invulnerable=4)],
    )
    assert r["unsaved"][1] == pytest.approx(5 / 6 * 1 / 2)


def test_total_wounds_bound_damage():
    r = run(weapon(A=10, D=6, **SURE), model(count=2, W=3))
    assert r["damage"].max == 6
    assert r["models_destroyed"].max == 2


def test_too_large_exact_allocation_is_a_clear_error():
    from grimdice.errors import ScenarioError

    big = weapon(A=10, BS=3, S=4, D="D6", abilities=["sustained hits 2"])
    with pytest.raises(ScenarioError, match="use --simulate"):
        run(
            big,
            [model(count=100, W=10, Sv=4), model(count=90, W=10, Sv=3)],
            count=100,
            leaders=[model(name="boss", W=10, invulnerable=4)],
        )


def test_2000_attacks_into_200_models_run_exactly():
    """The hostile-input issue's heavy inputs that the exact engine now takes (no Character: every
    model saves alike, so failed saves need no axis of their own)."""
    gun = weapon(A=200, BS=3, S=4, AP=-1, D=1)
    r = run(gun, model(count=200, T=5, Sv=5, W=1), count=10)
    assert r["models_destroyed"].total() == pytest.approx(1.0, abs=1e-12)
    # 2000 attacks: hit 2/3, wound 1/3 (S4 vs T5), fail a 6+ save 5/6, so 370.4 failed saves on average
    assert r["unsaved"].mean() == pytest.approx(2000 * 2 / 3 * 1 / 3 * 5 / 6, rel=1e-12)
    assert r["models_destroyed"].mean() == pytest.approx(200.0, abs=1e-9)


def test_failed_saves_counted_up_to_the_negligible_tail():
    """With mixed saves the failed saves get an axis, cut where less than 1e-15 of mass lies
    beyond (far fewer cells than the 600 attacks): the laws still sum to 1 within 1e-12."""
    gun = weapon(A=60, BS=3, S=4, AP=0, D=1)
    r = run(gun, [model(name="a", count=20, Sv=3), model(name="b", count=20, Sv=6)], count=10)
    assert r["unsaved"].max < 300
    for stage in ("unsaved", "damage", "models_destroyed"):
        assert r[stage].total() == pytest.approx(1.0, abs=1e-12)


def test_2000_attacks_into_a_unit_with_a_character_is_refused_at_once():
    """A Character with other saves needs the failed-saves axis on ~1400 unit states: refused up
    front, naming the estimate (docs/limits.md)."""
    from grimdice.errors import ScenarioError

    gun = weapon(A=200, BS=3, S=4, AP=-1, D=1)
    boss = [model(name="boss", T=5, Sv=4, W=6, invulnerable=5, FNP=6)]
    with pytest.raises(ScenarioError, match=r"1393 unit states.*operations, ~\d+ s.*use --simulate N"):
        run(gun, model(count=198, T=5, Sv=5, W=1), count=10, leaders=boss)
