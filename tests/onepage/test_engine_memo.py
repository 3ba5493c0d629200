"""The exact engine's memos (per unit: casualties, removal objectives, strikes, plans, morale tables)
change no result: every answer equals the one computed with all memos off (the general path), bit for
bit and in the same order, however the calls are interleaved; memos are keyed by the unit object
(units that compare equal but differ in their rules never share answers)."""

from __future__ import annotations

import pickle
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from grimdice.systems.onepage import attack, exact, units
from grimdice.systems.onepage import calculate as op_calculate
from grimdice.systems.onepage.attack import removal
from grimdice.systems.onepage.exact import melee_table, shooting_table, strike
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.units import UnitState, memos_off, wound
from tests.onepage.helpers import cond, scenario, unit
from tests.onepage.test_agreement import BOSS, BOYZ, CAPTAIN, CASES, DREAD, MARINES, TANK

ROOT = Path(__file__).resolve().parents[2]
ARMIES = [ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml"]


SCENARIOS: dict[str, dict[str, Any]] = {
    **CASES,
    **{
        f"shoot-lascannon-tank-{face}": scenario(
            "shooting",
            {"name": "Havocs", "size": 3, "quality": 3, "equipment": ["Lascannon", "Missile Launcher"]},
            TANK,
            conditions={"distance": 30, "facing": face},
        )
        for face in ("front", "side", "rear")
    },
    "shoot-rending-linked-at-tough": scenario(
        "shooting",
        {"name": "Claws", "size": 5, "quality": 4, "equipment": ['Claw Gun (18", A2, Rending, Linked)']},
        MARINES,
        defender_hero=CAPTAIN,
        conditions={"distance": 12, "in_range": 3},
    ),
    "shoot-relentless-split-two-targets": scenario(
        "shooting",
        DREAD,
        BOYZ,
        defender_hero=BOSS,
        other_targets=[{"unit": MARINES, "conditions": {"cover": True}}],
        conditions={"distance": 12, "action": "hold"},
    ),
    "shoot-scope-piercing-walker": scenario(
        "shooting",
        {"name": "Snipers", "size": 4, "quality": 4, "equipment": ['Long Rifle (30", A1, Scope, Piercing)']},
        DREAD,
        conditions={"distance": 24, "facing": "front"},
    ),
    "dangerous-terrain": {
        "system": "onepage",
        "attack": "dangerous",
        "defender": {**MARINES, "special_rules": ["Armored"]},
        "conditions": {"dangerous_models": 4},
    },
    "transport-destroyed": {"system": "onepage", "attack": "transport", "defender": BOYZ},
}


def test_calculations_equal_with_memos_off() -> None:
    with memos_off():
        fresh = {k: op_calculate(sc).to_json() for k, sc in SCENARIOS.items()}
    # memos on: every scenario twice, the second pass in reverse order (answers reused across scenarios)
    for name in [*SCENARIOS, *reversed(SCENARIOS)]:
        assert op_calculate(SCENARIOS[name]).to_json() == fresh[name], name


def game_calls() -> list[tuple[str, tuple[Any, ...]]]:
    """The calls a game makes: every unit of one bundled army shooting at and assaulting every unit
    of the other (and back), at full strength and damaged, in and out of cover, at several ranges."""
    sides = [load_army_side(p).units for p in ARMIES]
    calls: list[tuple[str, tuple[Any, ...]]] = []
    for mine, theirs in (sides, sides[::-1]):
        for a in mine:
            for d in theirs:
                states = [d.initial(), d.initial(min(2, d.size * max(g.tough for g in d.groups) - 1))]
                for n, sd in enumerate(states):
                    for dist, cover, action, in_range, face in (
                        (6, False, "walk", None, "side"),
                        (11.5, True, "hold", 2, "front"),
                        (20, False, "hold", None, "rear"),
                    ):
                        c = cond(distance=dist, cover=cover, action=action, in_range=in_range, facing=face)
                        calls.append(("shoot", (a, a.initial(), d, sd, c)))
                    if n == 0:
                        calls.append(("melee", (a, a.initial(), d, sd, cond(action="assault"))))
                    else:
                        c = cond(action="assault", attacker_strikers=2, defender_higher=True)
                        calls.append(("melee", (a, replace(a.initial(), pinned=True), d, sd, c)))
    return calls


def answer(kind: str, args: tuple[Any, ...]) -> Any:
    if kind == "shoot":
        st, table = shooting_table(*args)
        return (list(table.items()), st.hits.to_dict(), st.wounds.to_dict(), st.orders)
    m = melee_table(*args)
    final = [((m.states[i], m.states[j], w), p) for (i, j, w), p in m.final.items()]
    return (final, m.hits_a.to_dict(), m.wounds_d.to_dict(), m.order_p, m.picks, m.plans_compared)


def test_game_calls_equal_with_memos_off() -> None:
    calls = game_calls()
    with memos_off():
        fresh = [answer(k, a) for k, a in calls]
    assert [answer(k, a) for k, a in reversed(calls)] == fresh[::-1]
    assert [answer(k, a) for k, a in calls] == fresh


def test_memos_are_per_unit_object_not_per_equal_unit() -> None:
    # Units compare by name, Quality and model groups, not by their rules: Fearless changes the
    # morale test after half the unit dies ("roll one extra die and pick the highest result"), so
    # two equal units must not share a shooting table.
    shooter = unit("S", 10, 3, ["Assault Rifle"])
    plain, fearless = unit("T", 4, 5), unit("T", 4, 5, rules=["Fearless"])
    assert plain == fearless
    c = cond(distance=12)
    _, t_plain = shooting_table(shooter, shooter.initial(), plain, plain.initial(), c)
    _, t_fearless = shooting_table(shooter, shooter.initial(), fearless, fearless.initial(), c)
    pinned = {
        k: sum(p for (_, s, _), p in t.items() if s.pinned) for k, t in (("p", t_plain), ("f", t_fearless))
    }
    # 4 Quality 5 models: pinned = P(2+ killed, 1+ left) x P(failed morale): 2/3 vs (2/3)^2
    assert pinned["f"] == pytest.approx(pinned["p"] * 2 / 3, abs=1e-12)
    # A Poison melee weapon counts as Piercing against Infantry, not against a Vehicle: the removal
    # objective against two equal enemies differs (keyed by the enemy object).
    poisoner = unit("P", 2, 4, ["Claws (A2, Poison)"])
    inf, veh = unit("E", 1, 4, rules=["Armored"]), unit("E", 1, 4, rules=["Vehicle"])
    assert inf == veh
    r_inf = removal(poisoner, inf, c, assaulting=True, strike_back=False)
    r_veh = removal(poisoner, veh, c, assaulting=True, strike_back=False)
    # per model: 2 Poison attacks (Q4 hits 1/2) + 1 assault bonus; Armored ignores a hit on 4+, then
    # the Q4 block fails 1/2. Against Infantry Poison ignores Armored: 2 x 1/2 x 1/2 + 1/2 x 1/2 x 1/2.
    assert r_inf.worth == pytest.approx((2 * 1 / 4 + 1 / 8,))
    assert r_veh.worth == pytest.approx((3 / 8,))


@pytest.mark.parametrize("seed", range(4))
def test_removal_objective_reads_only_piercing(seed: int) -> None:
    # removal() is kept per (enemy, piercing, ...): melee attacks read nothing else of the conditions
    import random

    rng = random.Random(seed)
    a = unit("A", 3, 4, ["Axe (A2, Piercing)", "Pistol"], rules=["Hatred", "Furious"])
    d = unit("D", 5, 4, ["Hand Weapon"], rules=["Armored"])
    for piercing in ("best", "armored", "reroll"):
        base = attack._removal(a, d, cond(piercing=piercing), True, False, None)
        assert removal(a, d, cond(piercing=piercing), assaulting=True, strike_back=False) == base
        for _ in range(5):
            c = cond(
                piercing=piercing,
                distance=rng.choice([0, 6, 30]),
                cover=rng.random() < 0.5,
                elevated_target=rng.random() < 0.5,
                no_line_of_sight=rng.random() < 0.5,
                action=rng.choice(["hold", "walk", "assault"]),
                attacker_higher=rng.random() < 0.5,
                facing=rng.choice(["front", "side", "rear"]),
                defender_strikers=rng.choice([None, 1, 3]),
            )
            assert attack._removal(a, d, c, True, False, None) == base


def test_strike_kept_and_still_refuses_too_many_x_weapons() -> None:
    a = unit("A", 5, 4, ["Meltagun"])
    d = unit("D", 3, 4, rules=["Tough(3)"])
    fires = attack.shooting_fire(a, a.initial(), d, cond(distance=6))
    first = strike(fires, d, d.initial())
    assert strike(list(fires), d, d.initial()) is first
    assert strike(fires, d, wound(d, d.initial(), 1, (0,))) is not first
    many = [replace(fires[0], instances=exact.MAX_X_FIRED + 1)]
    for _ in range(2):
        with pytest.raises(Exception, match='"x" rule'):
            strike(many, d, d.initial())


def test_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(units, "MEMO_LIMIT", 3)
    d = unit("D", 6, 4)
    for k in range(6):
        wound(d, d.initial(), k, (0,))
        assert len(units.memo(d, "wound")) <= 3


def test_states_hash_as_their_fields_and_pickle_without_memos() -> None:
    s = UnitState((3, 1), (0, 2), pinned=True)
    assert hash(s) == hash(((3, 1), (0, 2), True, False, False, False))  # the dataclass hash
    again = pickle.loads(pickle.dumps(s))
    assert again == s and hash(again) == hash(s) and "_hash" not in pickle.loads(pickle.dumps(s)).__dict__
    d = unit("D", 6, 4, rules=["Tough(2)"])
    wound(d, d.initial(), 3, (0,))
    assert units.memo(d, "wound")
    back = pickle.loads(pickle.dumps(d))
    assert back == d and not any(k.startswith(units.MEMO_PREFIX) for k in back.__dict__)
    assert wound(back, back.initial(), 3, (0,)) == wound(d, d.initial(), 3, (0,)) == UnitState((5,), (1,))


def test_kept_counts_follow_the_state_and_the_rules() -> None:
    """``UnitState.models`` and ``Unit.kind`` are kept once asked: a changed state (``replace``) or an
    unpickled one counts afresh, and a unit's kind is its own rules' (never another unit's)."""
    s = UnitState((3, 1), (0, 0))
    assert s.models == 4
    assert replace(s, routed=True).models == 0  # Routed: no models in play
    assert replace(s, alive=(2, 0)).models == 2
    back = pickle.loads(pickle.dumps(s))
    assert "models" not in back.__dict__ and back.models == 4  # (kept by cached_property)
    tank, boyz = unit("T", 1, 4, rules=["Vehicle"]), unit("B", 10, 5)
    assert (tank.kind, boyz.kind, tank.kind) == ("vehicle", "infantry", "vehicle")
    assert pickle.loads(pickle.dumps(tank)).kind == "vehicle"
