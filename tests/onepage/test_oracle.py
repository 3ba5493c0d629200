"""The exact engine against independent oracles: brute-force enumeration of every die, and icepool."""

from __future__ import annotations

from fractions import Fraction as F
from itertools import product

import icepool

from grimdice.systems.onepage import calculate
from grimdice.systems.onepage.units import choose_order
from tests.onepage.helpers import scenario, unit


def test_shooting_brute_force_every_die() -> None:
    # 2 Rending attacks (Q4) at 2 Armored Tough(2) models of Quality 5, then the morale test when half
    # the unit dies at once. Every die enumerated: per attack hit, Armored and block dice; one morale die.
    sc = scenario(
        "shooting",
        {"name": "A", "quality": 4, "equipment": ['Claw Gun (12", A2, Rending)']},
        {"name": "D", "size": 2, "quality": 5, "special_rules": ["Armored", "Tough(2)"]},
    )
    r = calculate(sc)
    left: dict[int, F] = {}
    pinned = F(0)
    tough = {0: F(0), 1: F(0)}
    n = 0
    for dice in product(range(1, 7), repeat=7):
        n += 1
        wounds = 0
        for h, arm, blk in (dice[0:3], dice[3:6]):
            if h == 6:
                wounds += 1  # Rending: automatic wound, not ignored by Armored
            elif h >= 4 and arm < 4 and blk < 5:
                wounds += 1
        killed = min(2, wounds // 2)
        alive = 2 - killed
        dmg = wounds % 2 if alive else 0
        left[alive] = left.get(alive, F(0)) + 1
        tough[dmg] += 1
        if alive and killed * 2 >= 2 and dice[6] < 5:
            pinned += 1
    for k, c in left.items():
        assert abs(r["models_left"][k] - float(c / n)) < 1e-12
    assert abs(r["tough_wounds"][1] - float(tough[1] / n)) < 1e-12
    assert abs(r["pinned"][1] - float(pinned / n)) < 1e-12


def small_melee():  # type: ignore[no-untyped-def]
    """2 models (Q4, Hand Weapon: 2 attacks + 1 assault bonus each) assault 1 Tough(3) model (Q5,
    Hand Weapon): grimdice's result and icepool's laws of each side's wounds."""
    sc = scenario(
        "melee",
        {"name": "A", "size": 2, "quality": 4, "equipment": ["Hand Weapon"]},
        {"name": "D", "quality": 5, "equipment": ["Hand Weapon"], "special_rules": ["Tough(3)"]},
    )
    a_hit = icepool.map(lambda h, b: int(h >= 4 and b < 5), icepool.d6, icepool.d6)
    d_hit = icepool.map(lambda h, b: int(h >= 5 and b < 4), icepool.d6, icepool.d6)
    return calculate(sc), 6 @ a_hit, 2 @ d_hit


def test_melee_against_icepool() -> None:
    # 2 models (Q4, Hand Weapon: 2 attacks + 1 assault bonus each) assault 1 Tough(3) model (Q5, Hand
    # Weapon). Strikes are simultaneous; the loser tests morale (Q) and is Pinned or Routs.
    r, wa, wd = small_melee()

    def outcome(x: int, y: int, morale: int) -> tuple[int, int, int]:
        d_alive = 0 if x >= 3 else 1
        a_alive = max(0, 2 - y)
        winner = 1 if x > y else 2 if y > x else 0
        a_routed = int(winner == 2 and a_alive and morale < 4 and not 2 * a_alive > 2)
        d_pinned = int(winner == 1 and d_alive and morale < 5)
        return winner * 100 + a_routed * 10 + d_pinned

    law = icepool.map(outcome, wa, wd, icepool.d6)
    tot = law.denominator()

    def p(pred) -> float:  # type: ignore[no-untyped-def]
        return sum(q for k, q in law.items() if pred(k)) / tot

    assert abs(r["winner"][1] - p(lambda k: k // 100 == 1)) < 1e-12
    assert abs(r["winner"][2] - p(lambda k: k // 100 == 2)) < 1e-12
    assert abs(r["attacker_routed"][1] - p(lambda k: k // 10 % 10 == 1)) < 1e-12
    assert abs(r["defender_pinned"][1] - p(lambda k: k % 10 == 1)) < 1e-12
    assert (
        abs(
            r["defender_tough_wounds"].mean()
            - float(sum(q * (x % 3 if x < 3 else 0) for x, q in wa.items()) / wa.denominator())
        )
        < 1e-12
    )


def test_routed_models_count_as_removed_against_icepool() -> None:
    # Routed Units: "The unit is removed from play as a casualty." The same melee as above: the
    # attacker's 2 models are all removed when it routs (models_destroyed counts them, as the game
    # does), and models_routed counts those that left by the rout.
    r, wa, wd = small_melee()

    def removed(x: int, y: int, morale: int) -> int:
        a_alive = max(0, 2 - y)
        routs = y > x and a_alive and morale < 4 and not 2 * a_alive > 2
        return 10 * (2 if routs else 2 - a_alive) + (a_alive if routs else 0)

    law = icepool.map(removed, wa, wd, icepool.d6)
    tot = law.denominator()
    for k in range(3):
        want = sum(q for v, q in law.items() if v // 10 == k) / tot
        assert abs(r["attacker_models_destroyed"][k] - want) < 1e-12, k
    assert abs(r["attacker_models_routed"][1] - sum(q for v, q in law.items() if v % 10 == 1) / tot) < 1e-12
    assert r["attacker_models_routed"][1] > 0  # the case is exercised
    # every removed model is killed or routed; models_left is what the game keeps
    assert abs(r["attacker_models_destroyed"].mean() + r["attacker_models_left"].mean() - 2) < 1e-12


def test_joined_hero_tough_order_is_the_defenders_best() -> None:
    # Tough(X): "you must either accumulate wounds on the unit with this special rule first until it is
    # killed, or remove regular models as casualties before starting to accumulate wounds on [it]".
    # 3 Boyz (10 pts each) + a Tough(3) Warboss (60 pts): brute force over both orders by points kept.
    from grimdice.systems.onepage.fielding import resolve_unit
    from grimdice.systems.onepage.units import value, wound
    from tests.onepage.helpers import spec

    u = resolve_unit(
        spec("Boyz", 3, 5, cost=30),
        "u",
        spec("Boss", 1, 5, rules=["Hero", "Tough(3)"], cost=60),
        "h",
    )
    for w in range(0, 7):
        best = max(value(u, wound(u, u.initial(), w, o)) for o in u.removal_orders())
        assert value(u, wound(u, u.initial(), w, choose_order(u, u.initial(), w))) == best
    # by hand: 2 wounds -> the Boss keeps 2 wounds (all 90 pts alive); 3 wounds -> 3 Boyz die (60 kept)
    assert u.groups[choose_order(u, u.initial(), 2)[0]].hero
    assert not u.groups[choose_order(u, u.initial(), 3)[0]].hero
    r = calculate(
        scenario(
            "shooting",
            {"name": "A", "size": 2, "quality": 4, "equipment": ['G (12", A2)']},
            {"name": "Boyz", "size": 3, "quality": 5, "cost": 30},
            defender_hero={"name": "Boss", "quality": 5, "special_rules": ["Hero", "Tough(3)"], "cost": 60},
        )
    )
    assert r.to_json()["casualty_order"]["3"][0] == "Boyz"
    _ = unit
