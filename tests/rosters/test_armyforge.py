"""One Page Rules Army Forge lists from the user's side: read, mapped onto onepage, calc, matrix.

The fixtures ``armyforge-*.json`` are written for these tests (the public shape of Army Forge's
JSON, invented units). Results are checked against hand-written onepage scenarios and, on a
one-model case, against fractions worked out by hand.
"""

import json
from fractions import Fraction
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.adapters.rosters import read_list, resolve_scenario, resolve_with_notes
from grimdice.cli import app
from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.systems.base import calculate
from grimdice.systems.onepage import Scenario, evaluate
from tests.agreement import assert_agree

FIX = Path(__file__).resolve().parent / "fixtures"
MARINES = FIX / "armyforge-marines.json"
ORKS = FIX / "armyforge-orks.json"
runner = CliRunner()

DEFENSE = "(v2.21 has no Defense: blocks are Quality tests)"

# the fixtures' units as a onepage scenario writes them by hand
TACTICAL = {
    "name": "Tactical Squad",
    "size": 5,
    "quality": 3,
    "equipment": ['Assault Rifle (24", A1)', "CCW (A1)"],
    "variants": [{"count": 1, "equipment": ['Fusion Rifle (12", A1)', "CCW (A1)"]}],
    "special_rules": ["Fearless"],
    "cost": 125,
}
CAPTAIN = {
    "name": "Captain",
    "size": 1,
    "quality": 3,
    "equipment": ['Plasma Pistol (12", A1)', "Energy Sword (A3, Rending)"],
    "special_rules": ["Hero", "Tough(3)", "Fearless"],
    "cost": 70,
}
BOYZ = {
    "name": "Boyz",
    "size": 10,
    "quality": 5,
    "equipment": ['Slugga (12", A1)', "Choppa (A2)"],
    "special_rules": ["Furious"],
    "cost": 100,
}
WARBOSS = {
    "name": "Warboss",
    "size": 1,
    "quality": 5,
    "equipment": ['Slugga (12", A1)', "Big Choppa (A4)"],
    "special_rules": ["Hero", "Tough(3)", "Fear"],
    "cost": 80,
}


def ok(args, cwd=None):
    res = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    return res


def calc_json(*args):
    return json.loads(ok(["calc", *args, "--json"]).stdout)


def without_roster_notes(out):
    """``out`` without the notes of what the rosters hold that is not modelled (calc adds them;
    a hand-written scenario has none), checking there were some."""
    marks = ("not modelled (from the roster): ", "roster ")
    roster = [n for n in out.get("notes", []) if n.startswith(marks)]
    assert roster, "calc with roster units carries what they hold that is not modelled"
    rest = [n for n in out["notes"] if n not in roster]
    return {k: v for k, v in out.items() if k != "notes"} | ({"notes": rest} if rest else {})


def hand(attack, attacker, defender, attacker_hero=None, defender_hero=None, title=""):
    sc = {"system": "onepage", "title": title, "attack": attack, "attacker": attacker, "defender": defender}
    if attacker_hero:
        sc["attacker_hero"] = attacker_hero
    if defender_hero:
        sc["defender_hero"] = defender_hero
    return calculate(sc).to_json()


def write_list(tmp_path, units, name="list.json"):
    p = tmp_path / name
    p.write_text(json.dumps({"gameSystem": "gf", "name": "test", "units": units}), encoding="utf-8")
    return p


# --------------------------------------------------------------------------- reading
def test_units_are_mapped_onto_onepage_specs():
    r = read_list(MARINES)
    assert r.game == "One Page Rules (Army Forge)" and r.points == 500
    assert [u.ref for u in r.units] == ["Tactical Squad", "Scouts", "Dreadnought"]  # Captain joined
    tac, scouts, dread = r.units
    assert tac.spec == TACTICAL
    assert [h.spec for h in tac.joined] == [CAPTAIN]
    assert tac.points == 125 + 70 and tac.model_count == 6
    # 4 of 5 rifles and 1 fusion rifle: 4 models with a rifle, the 5th with the fusion rifle
    assert [(m.count, [w.name for w, _ in m.weapons]) for m in tac.models[:2]] == [
        (4, ["Assault Rifle", "CCW"]),
        (1, ["Fusion Rifle", "CCW"]),
    ]
    # two combined copies are one unit of both sizes and costs
    assert scouts.spec["size"] == 10 and scouts.spec["cost"] == 180
    assert scouts.spec["equipment"] == ['Sniper Rifle (30", A1)', "CCW (A1)"]
    assert dread.spec["special_rules"] == ["Tough(6)", "Fear"]
    assert dread.spec["equipment"] == ['Twin Autocannon (30", A3, Linked)', "Dread Fist (A4)"]


def test_what_is_not_mapped_is_listed_by_name():
    tac, scouts, dread = read_list(MARINES).units
    assert tac.unmapped == [
        f"Defense 3+ {DEFENSE}",
        "Fusion Rifle: weapon rule AP(4)",
        "Fusion Rifle: weapon rule Deadly(3)",
        "item Company Banner (Fearless)",  # carried by 1 of 5 models
    ]
    assert "Sniper Rifle: weapon rule Sniper" in scouts.unmapped
    assert "rule Regeneration" in dread.unmapped and "Dread Fist: weapon rule AP(2)" in dread.unmapped
    orks = read_list(ORKS)
    assert orks.points == 330 and [u.ref for u in orks.units] == ["Boyz", "Nobz", "Painboy"]
    painboy = orks.units[2]
    assert not orks.units[1].joined  # v2.21: "Heroes ... may join Infantry units of same Quality"
    assert any(
        "the list joins it to Nobz; v2.21 refuses the join (Quality 5+ differs" in n for n in painboy.unmapped
    )


def test_units_command_shows_the_list_and_its_gaps():
    out = ok(["units", str(MARINES)]).stdout
    for word in ("Tactical Squad", "Captain", "Fusion Rifle", "Deadly(3)", "Regeneration", "onepage"):
        assert word in out
    data = json.loads(ok(["units", str(ORKS), "--json"]).stdout)
    assert data["system"] == "onepage" and data["points"] == 330
    boyz = data["units"][0]
    assert [(m["name"], m["count"]) for m in boyz["models"]] == [("Boyz", 10), ("Warboss", 1)]
    assert boyz["not_modelled"] == [
        f"Boyz: Defense 5+ {DEFENSE}",
        f"Warboss: Defense 4+ {DEFENSE}",
        "Warboss: Big Choppa: weapon rule AP(2)",
    ]
    nobz = data["units"][1]
    assert "cannot defend" not in " ".join(nobz["not_modelled"])


# --------------------------------------------------------------------------- calculations
def test_calc_shooting_equals_the_hand_written_scenario(monkeypatch):
    monkeypatch.chdir(FIX)
    got = calc_json(
        "--attacker", "armyforge-marines.json:Tactical Squad", "--defender", "armyforge-orks.json:Boyz"
    )
    want = hand("shooting", TACTICAL, BOYZ, CAPTAIN, WARBOSS, "Tactical Squad vs Boyz")
    assert without_roster_notes(got) == want
    # six models (5 marines, the Captain) fire one A1 weapon each, hit on 3+, Boyz block on 5+
    assert got["damage"]["mean"] == pytest.approx(float(6 * Fraction(2, 3) * Fraction(2, 3)), abs=1e-12)


def test_calc_melee_equals_the_hand_written_assault(monkeypatch):
    monkeypatch.chdir(FIX)
    got = calc_json(
        "--attacker", "armyforge-orks.json:Boyz", "--defender", "armyforge-marines.json:Tactical Squad",
        "--weapons", "melee",
    )  # fmt: skip
    assert without_roster_notes(got) == hand(
        "melee", BOYZ, TACTICAL, WARBOSS, CAPTAIN, "Boyz vs Tactical Squad"
    )


def test_named_weapons_keep_only_those(monkeypatch):
    monkeypatch.chdir(FIX)
    got = calc_json(
        "--attacker", "armyforge-marines.json:Tactical Squad", "--defender", "armyforge-orks.json:Nobz",
        "--weapons", "Fusion Rifle",
    )  # fmt: skip
    # one model fires one A1 shot: hit 3+ (2/3), the Nobz (Quality 4+) fail to block half
    assert got["damage"]["mean"] == pytest.approx(1 / 3, abs=1e-12)
    assert got["fired"] == [{"weapon": 'Fusion Rifle (12", A1)', "models": 1, "dice": 1}]


def test_one_model_against_one_model_by_hand(tmp_path):
    gunner = {"name": "Gunner", "size": 1, "quality": 4, "defense": 2, "cost": 10,
              "loadout": [{"name": "Rifle", "count": 1, "range": 24, "attacks": 1,
                           "specialRules": [{"name": "AP", "rating": "3"}]}]}  # fmt: skip
    target = {"name": "Target", "size": 1, "quality": 4, "defense": 6, "cost": 10, "rules": []}
    p = write_list(tmp_path, [gunner, target])
    data, notes = resolve_with_notes({"attacker": {"roster": str(p), "unit": "Gunner"},
                                      "defender": {"roster": str(p), "unit": "Target"}})  # fmt: skip
    assert data["system"] == "onepage" and data["attack"] == "shooting"
    assert notes == ["Gunner: Defense 2+ " + DEFENSE, "Gunner: Rifle: weapon rule AP(3)",
                     "Target: Defense 6+ " + DEFENSE]  # fmt: skip
    r = calculate(data).to_json()
    # hit on 4+ (1/2), then the target's Quality test fails (1/2): AP and Defense play no part
    assert r["damage"]["pmf"] == pytest.approx([0.75, 0.25], abs=1e-12)
    assert r["models_destroyed"]["pmf"] == pytest.approx([0.75, 0.25], abs=1e-12)


def test_a_list_unit_agrees_with_monte_carlo():
    data = resolve_scenario(
        {"attacker": {"roster": "armyforge-marines.json", "unit": "Scouts"},
         "defender": {"roster": "armyforge-marines.json", "unit": "Dreadnought"}},
        FIX,
    )  # fmt: skip
    sc = Scenario.model_validate(data)
    exact = evaluate(sc, RunOptions()).stages
    n = 20_000
    sim = evaluate(sc, RunOptions(simulate=n, seed=7)).stages
    assert_agree({k: exact[k] for k in ("hits", "wounds", "damage")}, sim, n)


def test_a_joined_hero_is_named_by_its_unit(monkeypatch):
    monkeypatch.chdir(FIX)
    res = runner.invoke(app, ["calc", "--attacker", "armyforge-marines.json:Captain", "--defender",
                              "armyforge-orks.json:Boyz"])  # fmt: skip
    assert res.exit_code == 2 and "Captain is joined to Tactical Squad in the list" in res.output


def test_scenario_file_references_bring_the_joined_heroes():
    data = resolve_scenario(
        {"attack": "melee", "attacker": {"roster": "armyforge-orks.json", "unit": "Boyz"},
         "defender": {"roster": "armyforge-marines.json", "unit": "Tactical Squad"}},
        FIX,
    )  # fmt: skip
    assert data == {
        "system": "onepage",
        "attack": "melee",
        "attacker": BOYZ,
        "attacker_hero": WARBOSS,
        "defender": TACTICAL,
        "defender_hero": CAPTAIN,
        "title": "Boyz vs Tactical Squad",
    }


def test_matrix_cells_equal_the_pair_calculations():
    m = json.loads(ok(["matrix", str(MARINES), str(ORKS), "--json", "--workers", "1"]).stdout)
    assert m["system"] == "onepage" and m["attackers"] == ["Tactical Squad", "Scouts", "Dreadnought"]
    cell = {(c["attacker"], c["defender"]): c for c in m["cells"]}
    tac_boyz = hand("shooting", TACTICAL, BOYZ, CAPTAIN, WARBOSS)
    assert cell["Tactical Squad", "Boyz"]["damage"] == pytest.approx(tac_boyz["damage"]["mean"], abs=1e-12)
    # ten Scouts hit on 4+, Boyz block on 5+: 10 * 1/2 * 2/3
    assert cell["Scouts", "Boyz"]["damage"] == pytest.approx(10 / 3, abs=1e-12)
    melee = json.loads(ok(["matrix", str(ORKS), str(MARINES), "--json", "--weapons", "melee"]).stdout)
    nobz = next(c for c in melee["cells"] if c["attacker"] == "Nobz" and c["defender"] == "Dreadnought")
    dread = read_list(MARINES).units[2].spec
    want = hand("melee", read_list(ORKS).units[1].spec, dread)
    assert nobz["damage"] == pytest.approx(want["damage"]["mean"], abs=1e-12)


def test_a_unit_without_ranged_weapons_cannot_shoot(monkeypatch):
    monkeypatch.chdir(FIX)
    res = runner.invoke(app, ["calc", "--attacker", "armyforge-orks.json:Nobz", "--defender",
                              "armyforge-marines.json:Scouts"])  # fmt: skip
    assert res.exit_code == 2 and "Nobz has no ranged weapons to attack with" in res.output
    res = runner.invoke(app, ["calc", "--attacker", "armyforge-orks.json:Boyz", "--defender",
                              "armyforge-marines.json:Scouts", "--weapons", "Slugga,Choppa"])  # fmt: skip
    assert res.exit_code == 2 and "not both" in res.output


# --------------------------------------------------------------------------- hostile lists
def refused(path, match, field="roster"):
    with pytest.raises(ScenarioError, match=match) as exc:
        read_list(path)
    assert exc.value.field.startswith(field)
    assert "\n" not in str(exc.value)


UNIT = {"name": "A", "size": 1, "quality": 4, "loadout": []}


def test_malformed_lists_are_one_clear_error(tmp_path):
    refused(
        write_list(tmp_path, [{**UNIT, "quality": 7}]), "quality is a whole number 2..6", "roster.units.0"
    )
    refused(write_list(tmp_path, [{**UNIT, "quality": True}]), "quality is a whole number", "roster.units.0")
    refused(write_list(tmp_path, [{**UNIT, "size": 1000}]), "size is a whole number 1..100")
    refused(write_list(tmp_path, [UNIT, "not a unit"]), "a unit", "roster.units.1")
    bad_weapon = {**UNIT, "loadout": [{"name": "Gun", "range": 24, "attacks": "lots"}]}
    refused(write_list(tmp_path, [bad_weapon]), "attacks is a whole number 1..50", "roster.units.0.loadout.0")
    refused(write_list(tmp_path, [{**UNIT, "name": ""}]), "a name", "roster.units.0.name")
    refused(write_list(tmp_path, [{**UNIT, "rules": [{"rating": "3"}]}]), "a special rule is")
    p = tmp_path / "cut.json"
    p.write_text(json.dumps({"units": [UNIT]})[:-5], encoding="utf-8")
    refused(p, "not valid JSON")


def test_deep_and_huge_lists_are_refused(tmp_path):
    deep: object = "x"
    for _ in range(200):
        deep = {"a": deep}
    refused(write_list(tmp_path, [{**UNIT, "extra": deep}]), "too deep or too large")
    refused(write_list(tmp_path, [dict(UNIT, name=f"U{i}") for i in range(201)]), "at most 200 units")
    very_deep = tmp_path / "very.json"
    very_deep.write_text('{"units": [' + "[" * 100_000 + "]" * 100_000 + "]}", encoding="utf-8")
    refused(very_deep, "not valid JSON|too deep")


def test_army_forge_is_told_apart_from_new_recruit_by_content(tmp_path):
    p = tmp_path / "anything.json"
    p.write_text(json.dumps({"list": {"name": "L", "units": [UNIT]}}), encoding="utf-8")
    assert read_list(p).game == "One Page Rules (Army Forge)"
    assert read_list(FIX / "orks.json").game != "One Page Rules (Army Forge)"
    bare = tmp_path / "bare.json"
    bare.write_text(json.dumps([UNIT]), encoding="utf-8")
    assert [u.name for u in read_list(bare).units] == ["A"]


def test_items_upgrades_and_a_second_hero(tmp_path):
    host = {"selectionId": "h", "name": "Guard", "size": 4, "quality": 4, "rules": ["Scout"],
            "selectedUpgrades": [{"id": "x"}],
            "equipment": [{"name": "Banner", "count": 4, "content": [{"name": "Fearless"}]},
                          {"name": "Lasgun", "count": 4, "range": 24, "attacks": 1}]}  # fmt: skip
    hero = {
        "name": "Sergeant",
        "size": 1,
        "quality": 4,
        "rules": ["Hero"],
        "joinToUnit": "h",
        "equipment": [],
    }
    p = write_list(
        tmp_path, [host, hero, {**hero, "name": "Commissar"}, {**hero, "name": "Lost", "joinToUnit": "?"}]
    )
    guard, commissar, lost = read_list(p).units
    assert guard.spec["special_rules"] == ["Scout", "Fearless"]  # the Banner is carried by every model
    assert guard.spec["equipment"] == ['Lasgun (24", A1)']
    assert guard.unmapped == ["upgrades (the file has no loadout with them applied)"]
    assert [h.name for h in guard.joined] == ["Sergeant"]
    assert commissar.unmapped == [
        "the list joins it to Guard; Guard already has a joined Hero (a unit takes one): kept as its own unit"
    ]
    assert lost.unmapped == ["joins unit '?', which is not in the list"]


def test_empty_or_unrecognised_lists(tmp_path):
    refused(write_list(tmp_path, []), "nor Army Forge units with a quality")
    refused(
        write_list(tmp_path, [{**UNIT, "loadout": [{"name": "x", "attacks": 1}] * 101}]),
        "at most 100 entries",
    )


def test_matrix_against_a_bare_list_and_onepage_targets(tmp_path):
    bare = tmp_path / "bare.json"
    units = json.loads(ORKS.read_text(encoding="utf-8"))["list"]["units"]
    bare.write_text(json.dumps(units), encoding="utf-8")
    m = json.loads(ok(["matrix", str(MARINES), str(bare), "--json"]).stdout)
    assert m["defenders"] == ["Boyz", "Nobz", "Painboy"]
    targets = tmp_path / "targets.json"
    targets.write_text(json.dumps([BOYZ]), encoding="utf-8")  # onepage profiles: equipment as text
    t = json.loads(ok(["matrix", str(MARINES), str(targets), "--json"]).stdout)
    assert t["defenders"] == ["Boyz"]
    # ten Scouts hit on 4+, Boyz block on 5+: 10 * 1/2 * 2/3; the whole mob of 10 is the target
    scouts = next(c for c in t["cells"] if c["attacker"] == "Scouts")
    assert scouts["damage"] == pytest.approx(10 / 3, abs=1e-12)
    want = hand("shooting", read_list(MARINES).units[1].spec, BOYZ)
    assert scouts["p_wipe"] == pytest.approx(want["models_destroyed"]["pmf"][10], abs=1e-12)
