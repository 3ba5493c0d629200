"""What real roster files hold that the first readers missed: weapon rules, invulnerable saves as
characteristics, weapons without a profile, recorded leaders, modes without the mode mark, Army
Forge saved lists and upgrades, Heresy vehicles, names, roles and costs. Every fixture is written
here for the test."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.adapters.rosters import read_list, resolve_with_notes
from grimdice.adapters.rosters.resolve import resolve_for_result
from grimdice.cli import app
from grimdice.errors import ScenarioError
from tests.rosters.fixtures import make_fixtures as mk

FIX = Path(__file__).resolve().parent / "fixtures"
runner = CliRunner()
MARINE_INV = ("M", "T", "SV", "W", "LD", "OC", "InSv")


def ok(args):
    res = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    return res


def write(tmp_path, units, game=mk.G40K, name="army.ros", edit=None) -> Path:
    p = tmp_path / name
    if name.endswith(".json"):
        doc = json.loads(mk.to_json(game, "test", [("Army", units)]))
        if edit:
            edit(doc["roster"])
        p.write_text(json.dumps(doc))
    else:
        p.write_bytes(mk.to_xml(game, "test", [("Army", units)]))
    return p


def single(name, profile, *gear, kind="model"):
    """A selection of ``kind`` with one profile, carrying the ``gear`` selections."""
    return mk.sel(name, kind, profiles=[profile], selections=list(gear))


def trooper(*gear):
    return single("Trooper", mk.kt_op("Trooper", "3⬤", "2", "1", "3", "3+", "10"), *gear)


def against_itself(p, unit):
    """The scenario (and not-modelled notes) of ``unit`` of roster ``p`` attacking itself."""
    side = {"roster": str(p), "unit": unit}
    return resolve_with_notes({"attacker": side, "defender": dict(side)})


def units_json(path):
    return {u["unit"]: u for u in json.loads(ok(["units", str(path), "--json"]).stdout)["units"]}


def heavy_squad():
    gun = mk.ranged("Heavy bolter", '36"', "3", "4+", "5", "-1", "2", "Heavy, Sustained Hits 1")
    pistol = mk.ranged("Plasma pistol", '12"', "1", "3+", "7", "-2", "1", "Pistol")
    return mk.sel(
        "Heavy Squad",
        "unit",
        profiles=[mk.unit_p("Marine", *mk.MARINE)],
        selections=[
            mk.sel(
                "Marine",
                "model",
                number=2,
                selections=[
                    mk.sel(
                        "Heavy bolter",
                        number=2,
                        profiles=[gun],
                        rules=[("Heavy", "+1 to hit"), ("Lance", "x")],
                    ),
                    mk.sel(
                        "Plasma pistol", number=2, profiles=[pistol], rules=[("Pistol", "shoot in melee")]
                    ),
                ],
            )
        ],
    )


def test_rules_on_a_weapon_are_the_weapon_s(tmp_path):
    notes = [n for u in units_json(write(tmp_path, [heavy_squad()])).values() for n in u["not_modelled"]]
    assert not any("ability Heavy" in n or "ability Pistol" in n for n in notes), notes
    # attached to the weapon but not in its profile: listed, with why
    assert "Heavy bolter: weapon rule Lance (in the roster, not in the weapon's profile)" in notes
    assert not any("Sustained Hits" in n for n in notes)  # the engine applies it
    gun = units_json(write(tmp_path, [heavy_squad()]))["Heavy Squad"]["models"][0]["weapons"][0]
    assert (gun["name"], gun["rules"]) == ("Heavy bolter", ["Heavy", "Lance"])


def kt_rifleman():
    rifle = mk.kt_w("⌖ Bolt rifle", "4", "3+", "3/4", "AP1, Lethal 5+, Balanced", "P1")
    rules = [("APx", ""), ("Lethal x+", ""), ("Px", ""), ("Balanced", "")]
    return trooper(mk.sel("Bolt rifle", profiles=[rifle], rules=rules))


def terminators():
    prof = mk.prof("Terminator", "Unit", MARINE_INV, ('5"', "5", "2+", "3", "6+", "1", "4+"))
    return single("Terminators", prof, mk.weapon("Storm bolter", 1, mk.BOLT_RIFLE), kind="unit")


def theyn_and_warriors():
    blaster = mk.ranged("Ion blaster", '18"', "2", "3+", "6", "-1", "1", "-")
    theyn = single("Theyn", mk.unit_p("Theyn", *mk.MARINE), mk.sel("Ion blaster"), mk.sel("Mystery gadget"))
    warrior = single(
        "Warriors", mk.unit_p("Warrior", *mk.MARINE), mk.weapon("Ion blaster", 1, blaster), kind="unit"
    )
    return [theyn, warrior]


def plasma_squad(standard="Plasma gun (Standard)", supercharge="Plasma gun (Supercharge)"):
    modes = [
        mk.ranged(standard, '24"', "1", "3+", "7", "-2", "1", "Rapid Fire 1"),
        mk.ranged(supercharge, '24"', "1", "3+", "8", "-3", "2", "Hazardous, Rapid Fire 1"),
    ]
    return single(
        "Plasma Squad", mk.unit_p("Marine", *mk.MARINE), mk.sel("Plasma gun", profiles=modes), kind="unit"
    )


def predator():
    names = ("Unit Type", "Move", "BS", "Front", "Side", "Rear", "HP")
    hull = mk.prof("Predator", "Vehicle", names, ("Vehicle (Tank)", '12"', "4", "13", "12", "10", "3"))
    gun = mk.prof("Lascannon", "Weapon", ("Range", "Strength", "AP", "Type"), ('48"', "9", "2", "Heavy 1"))
    return single("Predator", hull, mk.weapon("Lascannon", 1, gun))


def test_kill_team_weapon_rules_are_not_listed_when_the_profile_has_them(tmp_path):
    notes = units_json(write(tmp_path, [kt_rifleman()], game=mk.GKT))["Trooper"]["not_modelled"]
    assert not any("APx" in n or "Lethal x+" in n or "Px" in n or "Balanced" in n for n in notes), notes


def test_an_invulnerable_save_written_on_the_profile_is_read(tmp_path):
    sc, _ = against_itself(write(tmp_path, [terminators()]), "Terminators")
    assert sc["defender"]["models"][0]["invulnerable"] == 4


def test_a_weapon_without_a_profile_takes_the_same_named_one_or_is_listed(tmp_path):
    p = write(tmp_path, theyn_and_warriors())
    t = read_list(p).find("Theyn", "x")
    assert [(w.name, w.modes[0].chars["s"]) for w, _ in t.models[0].weapons] == [("Ion blaster", "6")]
    assert units_json(p)["Theyn"]["not_modelled"][0] == ("Theyn: Mystery gadget: no profile in the roster")


@pytest.mark.parametrize(
    "names",
    [
        ("Plasma gun (Standard)", "Plasma gun (Supercharge)"),
        ("Plasma gun, Standard", "Plasma gun, Supercharge"),
        ("Plasma gun - standard", "Plasma gun - supercharge"),
    ],
)
def test_modes_without_the_mode_mark_are_one_weapon(tmp_path, names):
    p = write(tmp_path, [plasma_squad(*names)])
    ((w, _),) = read_list(p).units[0].models[0].weapons
    assert (w.name, [w.mode_name(m) for m in w.modes]) == ("Plasma gun", list(names))
    sc, _ = against_itself(p, "Plasma Squad")
    assert [x["name"] for x in sc["attacker"]["models"][0]["weapons"]] == [names[0]]


def led_roster(tmp_path):
    squad = mk.intercessors()
    cap = mk.captain()
    cap["rules"] = [
        (
            "Leader",
            "This model can be attached to the following units: ■ Intercessor Squad ■ Hellblaster Squad",
        )
    ]

    def edit(r):
        sels = r["forces"][0]["selections"]
        sels[1]["leading"] = sels[0]["id"]  # New Recruit records the attachment on the Leader
        sels[0]["customName"] = "Squad Alpha"

    return write(tmp_path, [squad, cap], name="army.json", edit=edit)


def test_recorded_leaders_are_attached_and_leader_abilities_reported(tmp_path, monkeypatch):
    p = led_roster(tmp_path)
    u = units_json(p)
    assert u["Squad Alpha"]["led_by"] == ["Captain"] and u["Squad Alpha"]["datasheet"] == "Intercessor Squad"
    assert u["Captain"]["can_lead"] == ["Intercessor Squad", "Hellblaster Squad"]
    monkeypatch.chdir(tmp_path)
    res = json.loads(
        ok(
            [
                "calc",
                "--attacker",
                "army.json:Squad Alpha",
                "--defender",
                f"{FIX / 'orks.ros'}:Boyz",
                "--json",
            ]
        ).stdout
    )
    assert (
        "attacker: Captain attached to Squad Alpha, as the roster records (leaders: [] for none)"
        in res["notes"]
    )
    sc, _ = resolve_with_notes(
        {
            "attacker": {"roster": str(p), "unit": "Intercessor Squad"},
            "defender": {"roster": str(p), "unit": "Captain"},
        }
    )
    assert "Heavy bolt pistol" in str(sc["attacker"])  # the Captain's own ranged weapon
    assert sc["attacker"]["name"] == "Squad Alpha + Captain"
    _, notes = resolve_for_result(
        {"attacker": {"roster": str(p), "unit": "Captain"}, "defender": {"roster": str(p), "unit": "Captain"}}
    )
    assert "attacker: Captain leads Squad Alpha in the roster; computed on its own" in notes


def test_metadata_is_kept_apart(tmp_path):
    def edit(r):
        r["costLimits"] = [{"name": "pts", "value": 2000}]

    p = write(tmp_path, [mk.intercessors()], name="army.json", edit=edit)
    data = json.loads(ok(["units", str(p), "--json"]).stdout)
    u = data["units"][0]
    assert data["points_limit"] == 2000
    assert (u["role"], u["faction"]) == ("Infantry", ["Adeptus Astartes"])
    assert "Adeptus Astartes" not in u["keywords"] and "Battleline" in u["keywords"]
    kt = trooper(mk.weapon("Fists", 1, mk.kt_w("⚔ Fists", "3", "4+", "2/3", "-", "-")))

    def ep(r):
        r["forces"][0]["selections"][0]["costs"] = [{"name": "EP", "value": 2}]

    assert units_json(write(tmp_path, [kt], game=mk.GKT, name="kt.json", edit=ep))["Trooper"]["costs"] == {
        "EP": 2.0
    }


def test_army_forge_saved_lists_and_upgrade_costs(tmp_path):
    saved = {"gameSystem": "gf", "list": {"units": [{"id": "a", "selectionId": "b", "selectedUpgrades": []}]}}
    p = tmp_path / "saved.json"
    p.write_text(json.dumps(saved))
    with pytest.raises(ScenarioError, match=r"Army Forge saved list.*export the list as JSON"):
        read_list(p)
    data = json.loads((FIX / "armyforge-orks.json").read_text())
    data["list"]["units"][0]["selectedUpgrades"] = [{"option": {"costs": [{"unitId": "boyz", "cost": 15}]}}]
    p = tmp_path / "orks.json"
    p.write_text(json.dumps(data))
    assert read_list(p).find("Boyz", "x").points == 100 + 15 + 80  # base, upgrade, joined Warboss


def test_heresy_vehicles_are_refused_as_targets_by_name(tmp_path):
    u = units_json(write(tmp_path, [predator()], game=mk.G30K))["Predator"]
    assert (
        "cannot defend: Predator: vehicles are not modelled as targets (armour values, hull points)"
        in u["not_modelled"]
    )


def test_matrix_shows_destroyed_wipe_and_damage_per_100_points(tmp_path):
    args = ["matrix", str(FIX / "heresy.ros"), str(FIX / "heresy.json"), "--workers", "1"]
    data = json.loads(ok([*args, "--json"]).stdout)
    pts = dict(zip(data["attackers"], data["attacker_points"], strict=True))
    assert pts == {"Legion Tactical Squad": 150, "Veletaris Storm Section": 125}
    for c in data["cells"]:
        assert c["damage_per_100_points"] == pytest.approx(c["damage"] * 100 / pts[c["attacker"]], rel=1e-12)
    first = data["cells"][0]
    table = ok([*args, "--metric", "per100"]).stdout
    assert "expected damage per 100 points" in table and f"{first['damage_per_100_points']:.2f}" in table
    wipe = ok([*args, "--metric", "destroyed", "--png", str(tmp_path / "w.png")]).stdout
    assert "expected models destroyed" in wipe and f"{first['models_destroyed']:.2f}" in wipe
    assert (tmp_path / "w.png").read_bytes()[:4] == b"\x89PNG"
    res = runner.invoke(app, [*args, "--metric", "kills"])
    assert (
        res.exit_code == 2 and "--metric: one of damage, destroyed, wipe, per100; got 'kills'" in res.output
    )


def test_matrix_plays_recorded_leaders_with_their_unit_and_calc_reports_who_can_lead(tmp_path, monkeypatch):
    p = led_roster(tmp_path)
    data = json.loads(ok(["matrix", str(p), str(p), "--workers", "1", "--json"]).stdout)
    assert data["attackers"] == data["defenders"] == ["Squad Alpha + Captain"]
    assert data["attacker_points"] == [80 + 80]
    write(tmp_path, [mk.intercessors(), dict(led_roster_captain())], name="free.ros")
    monkeypatch.chdir(tmp_path)
    res = json.loads(
        ok(
            [
                "calc",
                "--attacker",
                "free.ros:Intercessor Squad",
                "--defender",
                f"{FIX / 'orks.ros'}:Boyz",
                "--json",
            ]
        ).stdout
    )
    assert (
        "attacker: Captain can lead Intercessor Squad (not attached: the roster records no attachment; "
        "write 'Intercessor Squad+Captain' to attach it)"
    ) in res["notes"]


def led_roster_captain():
    cap = mk.captain()
    cap["rules"] = [("Leader", "This model can be attached to the following units: ■ Intercessor Squad")]
    return cap


def every_fixture(tmp_path):
    """Each roster written by these tests (path, a unit to attack with, one to attack)."""
    w40k = write(
        tmp_path, [heavy_squad(), terminators(), *theyn_and_warriors(), plasma_squad()], name="40k.ros"
    )
    kt = write(tmp_path, [kt_rifleman()], game=mk.GKT, name="kt.json")
    heresy = write(tmp_path, [predator()], game=mk.G30K, name="heresy.ros")
    return [
        (w40k, "Heavy Squad", "Terminators"),
        (led_roster(tmp_path), "Squad Alpha", "Captain"),
        (kt, "Trooper", "Trooper"),
        (heresy, "Predator", str(FIX / "heresy.ros") + ":Legion Tactical Squad"),
    ]


def test_units_calc_and_matrix_on_every_fixture(tmp_path):
    for path, attacker, defender in every_fixture(tmp_path):
        ok(["units", str(path)])
        target = defender if ":" in defender else f"{path}:{defender}"
        res = json.loads(
            ok(["calc", "--attacker", f"{path}:{attacker}", "--defender", target, "--json"]).stdout
        )
        assert any(n.startswith(f"roster {path.name}: ") for n in res["notes"]), res["notes"]
        m = json.loads(ok(["matrix", str(path), str(path), "--workers", "1", "--json"]).stdout)
        assert m["cells"] and all(("damage" in c) != ("error" in c) for c in m["cells"])


def test_an_attachment_recorded_as_a_list_and_a_leader_text_ending_in_a_sentence(tmp_path):
    cap = mk.captain()
    text = "This model can be attached to the following units:\n■ Intercessor Squad\n■ Hellblaster Squad\n"
    cap["rules"] = [("Leader", text + "You can attach this model to one of the above units even if ...")]

    def edit(r):
        sels = r["forces"][0]["selections"]
        sels[1]["leading"] = [sels[0]["id"]]

    u = units_json(write(tmp_path, [mk.intercessors(), cap], name="list.json", edit=edit))
    assert u["Intercessor Squad"]["led_by"] == ["Captain"]
    assert u["Captain"]["can_lead"] == ["Intercessor Squad", "Hellblaster Squad"]


def test_a_combined_unit_counts_the_upgrades_of_both_copies(tmp_path):
    data = json.loads((FIX / "armyforge-marines.json").read_text())
    units = data["list"]["units"] if isinstance(data, dict) and "list" in data else data["units"]
    for u in units:
        if u.get("selectionId") in ("sel-scout-a", "sel-scout-b"):
            u["selectedUpgrades"] = [{"cost": 10}]
    p = tmp_path / "marines.json"
    p.write_text(json.dumps(data))
    assert read_list(p).find("Scouts", "x").points == 90 + 90 + 10 + 10
