"""The core tables of Horus Heresy 2.0, row by row, from hand-computed fractions."""

import pytest

from grimdice.systems.heresy.rolls import (
    NEVER,
    bs_hit_target,
    bs_reroll_target,
    save_target,
    wound_chart,
    ws_hit_target,
)
from tests.heresy.helpers import F, approx, model, run, weapon

# BS 1-5 hit on 7-BS; BS 6+ hit on 2+ and re-roll a failed roll (a 1) needing 12-BS
BS_HIT = {
    1: F(1, 6),
    2: F(2, 6),
    3: F(3, 6),
    4: F(4, 6),
    5: F(5, 6),
    6: F(5, 6) + F(1, 6) * F(1, 6),
    7: F(5, 6) + F(1, 6) * F(2, 6),
    8: F(5, 6) + F(1, 6) * F(3, 6),
    9: F(5, 6) + F(1, 6) * F(4, 6),
    10: F(5, 6) + F(1, 6) * F(5, 6),
}


@pytest.mark.parametrize("bs", sorted(BS_HIT))
def test_ballistic_skill_chart(bs):
    r = run(weapon(), model(), shooter={"BS": bs})
    assert r["hits"][1] == approx(BS_HIT[bs])


def test_bs_targets():
    assert [bs_hit_target(b) for b in range(1, 11)] == [6, 5, 4, 3, 2, 2, 2, 2, 2, 2]
    assert [bs_reroll_target(b) for b in range(1, 11)] == [None] * 5 + [6, 5, 4, 3, 2]


@pytest.mark.parametrize("bs", [4, 5, 8])
def test_snap_shots_are_bs1(bs):
    r = run(weapon(), model(), shooter={"BS": bs}, conditions={"snap_shots": True})
    assert r["hits"][1] == approx(F(1, 6))


def test_twin_linked_rerolls_failed_hits():
    r = run(weapon(rules=["Twin-linked"]), model(), shooter={"BS": 4})
    assert r["hits"][1] == approx(F(2, 3) + F(1, 3) * F(2, 3))  # BS4 hits on 3+


def test_twin_linked_at_bs6_plus_rerolls_at_the_first_target():
    # "the chance of hitting with the re-roll is the same as the first roll": 2+ again
    r = run(weapon(rules=["Twin-linked"]), model(), shooter={"BS": 7})
    assert r["hits"][1] == approx(F(5, 6) + F(1, 6) * F(5, 6))


@pytest.mark.parametrize(
    "ws_a,ws_d,need",
    [(4, 3, 3), (10, 1, 3), (4, 4, 4), (3, 4, 4), (4, 8, 4), (4, 9, 5), (1, 3, 5), (2, 4, 4)],
)
def test_weapon_skill_chart(ws_a, ws_d, need):
    assert ws_hit_target(ws_a, ws_d) == need
    r = run(
        {"name": "blade", "S": "user", "rules": ["Melee"]},
        model(WS=ws_d),
        shooter={"WS": ws_a, "A": 1},
    )
    assert r["hits"][1] == approx(F(7 - need, 6))


WOUND_ROWS = [(6, 4, 2), (10, 4, 2), (5, 4, 3), (4, 4, 4), (3, 4, 5), (2, 4, 6), (1, 4, 6)]
WOUND_ROWS += [(1, 5, NEVER), (3, 8, NEVER)]  # S = T-4 or worse: cannot wound


@pytest.mark.parametrize("S,T,need", WOUND_ROWS)
def test_wound_chart(S, T, need):
    assert wound_chart(S, T) == need
    # an automatic hit (Template) then the Wound roll; a natural 1 always fails
    r = run(weapon(S=S, rules=["Template"]), model(T=T))
    p = F(max(0, 7 - need), 6) if need < NEVER else F(0)
    assert r["wounds"][1] == approx(p)


@pytest.mark.parametrize(
    "Sv,AP,inv,cover,need",
    [
        (3, None, NEVER, NEVER, 3),
        (3, 4, NEVER, NEVER, 3),  # AP worse than the save: the save is taken
        (3, 3, NEVER, NEVER, NEVER),  # AP equal removes it
        (3, 2, NEVER, NEVER, NEVER),  # AP better removes it
        (2, 2, 4, NEVER, 4),  # invulnerable saves ignore AP
        (4, 3, NEVER, 5, 5),  # cover saves ignore AP
        (2, 5, 4, 5, 2),  # only one save: the best
    ],
)
def test_save_target(Sv, AP, inv, cover, need):
    assert save_target(Sv, NEVER if AP is None else AP, inv, cover) == need


def test_armour_save_removed_by_equal_ap_end_to_end():
    wound = F(2, 3) * F(1, 2)  # BS4 hits on 3+, S4 v T4 wounds on 4+
    r = run(weapon(AP=3), model(Sv=3))
    assert r["unsaved"][1] == approx(wound)
    r = run(weapon(AP=4), model(Sv=3))
    assert r["unsaved"][1] == approx(wound * F(2, 6))


def test_cover_only_against_shooting():
    r = run(weapon(AP=2), model(Sv=3), defender={"cover": 4})
    assert r["unsaved"][1] == approx(F(1, 3) * F(1, 2))  # AP2 removes 3+, cover 4+ fails 1/2
    r = run({"name": "axe", "S": "user", "AP": 2, "rules": ["Melee"]}, model(Sv=3), defender={"cover": 4})
    assert r["unsaved"][1] == approx(F(1, 2) * F(1, 2))  # WS4 v WS4 hits on 4+, no save
