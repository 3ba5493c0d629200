"""Units, weapons and armies as data; grimdice check."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.cli.app import app
from grimdice.errors import ScenarioError
from grimdice.io.scenario import validate
from grimdice.systems.onepage.fielding import field_army
from grimdice.systems.onepage.profiles import Army
from grimdice.systems.onepage.units import wound
from grimdice.systems.onepage.weapons import WEAPON_LIST, parse_weapon
from tests.onepage.helpers import unit

ARMIES = Path(__file__).resolve().parents[2] / "examples" / "armies"


def test_weapon_list_resolves_by_name() -> None:
    # Weapon List: "Meltagun 12" 6x", "Battle Cannon 48" 9", "Shotgun/Plasma Pistol 12" 3"
    m = parse_weapon("Meltagun", "w")
    assert (m.range, m.attacks, m.x, m.piercing) == (12, 6, True, True)
    assert parse_weapon("battle cannon", "w").attacks == 9
    p = parse_weapon("Plasma Pistol", "w")
    assert (p.name, p.range, p.attacks) == ("Plasma Pistol", 12, 3)
    assert parse_weapon("Power Fist", "w").melee
    assert len(WEAPON_LIST) == 21


def test_other_weapons_notation() -> None:
    # "Example: Chem Cannon (18", A6, Poison)"
    w = parse_weapon('Chem Cannon (18", A6, Poison)', "w")
    assert (w.name, w.range, w.attacks, w.x, w.has("poison")) == ("Chem Cannon", 18, 6, False, True)
    claws = parse_weapon("Talons (A3x, Rending)", "w")
    assert claws.melee and claws.x and claws.has("rending")


@pytest.mark.parametrize(
    ("text", "field"),
    [("Laser Sword", "w"), ('Gun (18", B6)', "w"), ('Gun (18", A6, Wobbly)', "w.rules.0"), ("Gun (A0)", "w")],
)
def test_bad_weapons_name_the_field(text: str, field: str) -> None:
    with pytest.raises(ScenarioError) as e:
        parse_weapon(text, "w")
    assert e.value.field == field


def test_default_melee_and_types() -> None:
    # "Units without a melee weapon in their Equipment are always assumed to have Fists/Claws."
    u = unit(equipment=["Assault Rifle"])
    assert [w.name for w in u.groups[0].weapons] == ["Assault Rifle", "Fists/Claws"]
    # "Monsters always have the Armored, Fear and Relentless special rules."
    m = unit(rules=["Monster", "Tough(6)"])
    assert m.kind == "monster" and m.has("armored") and m.has("fear") and m.has("relentless")
    assert unit().kind == "infantry"


def test_tough_zero_and_unknown_rule() -> None:
    with pytest.raises(ScenarioError) as e:
        unit(rules=["Tough(0)"])
    assert e.value.field == "u.special_rules.0"
    with pytest.raises(ScenarioError, match="unknown special rule"):
        unit(rules=["Stubborn"])


def test_tough_accumulates_one_model_at_a_time() -> None:
    # "you must first accumulate them on a single model unit it is killed before you start
    # accumulating them on another model": 4 wounds on 2 Tough(3) models -> 1 dead, 1 wound on the other
    u = unit(size=2, rules=["Tough(3)"])
    s = wound(u, u.initial(), 4, (0,))
    assert s.alive == (1,) and s.damage == (1,)


def test_x_rule_example() -> None:
    # "A Tactical Marine shoots a Meltagun at a group of 5 Ork Boyz and causes 3 Wounds. Because the
    # Meltagun has an "x" next to its Attack value only 1 boy is killed."
    boyz = unit(size=5, quality=5)
    assert wound(boyz, boyz.initial(), 3, (0,), single=True).alive == (4,)


def _army(units: list[dict], points: int | None = None) -> Army:
    return validate(Army, {"kind": "army", "system": "onepage", "points": points, "units": units})


def _u(name: str, **kw: object) -> dict:
    return {"name": name, "quality": 4, "cost": 50, **kw}


def test_bundled_armies_are_legal_at_750() -> None:
    from grimdice.systems.onepage.army import check_army

    for path in sorted(ARMIES.glob("onepage-*army*.yaml")):
        f = check_army(path, 750)
        assert f.violations == [], path
        assert 0 < f.points <= 750


def test_every_violation_is_listed() -> None:
    army = _army(
        [
            _u("A", special_rules=["Hero"], cost=400),
            _u("B", special_rules=["Hero"], cost=400),
            _u("M1", special_rules=["Monster"]),
            _u("M2", special_rules=["Vehicle"]),
            _u("M3", special_rules=["Walker"]),
        ],
        750,
    )
    msgs = [str(v) for v in field_army(army).violations]
    assert len(msgs) == 3
    assert any("exceeds the game size of 750" in m for m in msgs)
    assert any("more than one Hero" in m for m in msgs)
    assert any("more than two Special" in m for m in msgs)


def test_joins_and_merges() -> None:
    # "Heroes and Psykers may be deployed as part of friendly Infantry units of same Quality."
    ok = field_army(_army([_u("Boss", special_rules=["Hero", "Tough(3)"], joins="Boyz"), _u("Boyz", size=5)]))
    assert ok.violations == [] and len(ok.units) == 1 and ok.units[0].size == 6
    bad = field_army(_army([_u("Boss", quality=3, special_rules=["Hero"], joins="Boyz"), _u("Boyz", size=5)]))
    assert [v.field for v in bad.violations] == ["units.0.joins"]
    assert "same Quality" in str(bad.violations[0])
    not_hero = field_army(_army([_u("Grot", joins="Boyz"), _u("Boyz", size=5)]))
    assert "only Heroes and Psykers" in str(not_hero.violations[0])
    # "two copies of the same Infantry unit as a single big unit, as long as any upgrades that affect
    # all models in the unit are bought for both units"
    m = field_army(
        _army(
            [
                _u("T", size=5, equipment=["Pistol"], merge="m"),
                _u("T", size=5, equipment=["Pistol"], merge="m"),
            ]
        )
    )
    assert m.violations == [] and m.units[0].size == 10
    bad_m = field_army(
        _army(
            [
                _u("T", size=5, equipment=["Pistol"], merge="m"),
                _u("T", size=5, equipment=["Assault Rifle"], merge="m"),
            ]
        )
    )
    assert bad_m.violations[0].field == "units.1.merge"
    tank = field_army(
        _army([_u("V", special_rules=["Vehicle"], merge="v"), _u("V", special_rules=["Vehicle"], merge="v")])
    )
    assert "cannot merge" in str(tank.violations[0])


def test_unknown_weapon_in_army_names_the_field() -> None:
    with pytest.raises(ScenarioError) as e:
        field_army(_army([_u("A", equipment=["Pistol", "Laser Sword"])]))
    assert e.value.field == "units.0.equipment.1"


def test_cli_check(tmp_path: Path) -> None:
    runner = CliRunner()
    ok = runner.invoke(app, ["check", str(ARMIES / "onepage-marines-army.yaml"), "--points", "750"])
    assert ok.exit_code == 0 and "ok" in ok.output
    over = runner.invoke(app, ["check", str(ARMIES / "onepage-orks-army.yaml"), "--points", "500"])
    assert over.exit_code == 1 and "exceeds the game size of 500" in over.output
    bad = tmp_path / "bad.yaml"
    bad.write_text(
        "kind: army\nsystem: onepage\nunits:\n  - {name: A, quality: 4, equipment: [Laser Sword]}\n"
    )
    r = runner.invoke(app, ["check", str(bad)])
    assert r.exit_code == 2


def test_wounds_at_once_equal_wounds_one_by_one() -> None:
    # "For every wound the opposing player must remove one model"; Tough accumulates one model at a
    # time: W wounds at once must leave the state W single wounds leave, whatever the order.
    from grimdice.systems.onepage.fielding import resolve_unit
    from tests.onepage.helpers import spec

    u = resolve_unit(
        spec("B", 4, 5, rules=["Tough(2)"]), "u", spec("H", 1, 5, rules=["Hero", "Tough(3)"]), "h"
    )
    for order in u.removal_orders():
        for w in range(0, 13):
            one = u.initial()
            for _ in range(w):
                one = wound(u, one, 1, order)
            assert wound(u, u.initial(), w, order) == one, (order, w)
