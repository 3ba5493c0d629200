"""Reading roster files: the tree (units, models, weapons and their counts, modes, abilities,
keywords, points) is the same from .ros, .rosz and New Recruit/ListForge .json."""

import json
from pathlib import Path

import pytest

from grimdice.adapters.rosters import read_list
from grimdice.errors import ScenarioError
from tests.rosters.fixtures import make_fixtures as mk

FIX = Path(__file__).resolve().parent / "fixtures"


def shape(roster):
    """Everything read, as plain data (ids and file names left out)."""
    return [
        (
            u.ref,
            u.points,
            u.keywords,
            [a.name for a in u.abilities],
            [
                (
                    m.name,
                    m.count,
                    m.profile.chars if m.profile else None,
                    [(w.name, k, [p.chars for p in w.modes]) for w, k in m.weapons],
                    [a.name for a in m.abilities],
                )
                for m in u.models
            ],
        )
        for u in roster.units
    ]


@pytest.mark.parametrize("stem", ["marines", "orks", "heresy", "killteam"])
def test_ros_rosz_and_json_read_the_same(stem):
    ros = read_list(FIX / f"{stem}.ros")
    assert shape(read_list(FIX / f"{stem}.rosz")) == shape(ros)
    assert shape(read_list(FIX / f"{stem}.json")) == shape(ros)
    assert read_list(FIX / f"{stem}.json").game == ros.game


def test_units_models_and_weapon_counts():
    r = read_list(FIX / "marines.ros")
    # the detachment choice is not a unit; the Captain is a single-model unit (type="model")
    assert [u.ref for u in r.units] == [
        "Captain",
        "Intercessor Squad",
        "Hellblaster Squad",
        "Redemptor Dreadnought",
    ]
    assert r.points == 485
    squad = r.find("intercessor  SQUAD", "x")
    assert squad.model_count == 5
    # 4 Intercessors with 4 bolt rifles (one each) and 1 grenade launcher (nested in an option
    # group): dealt out in turn, 1 model carries it and 3 do not
    groups = [(m.name, m.count, sorted(w.name for w, _ in m.weapons)) for m in squad.models]
    assert groups == [
        ("Intercessor Sergeant", 1, ["Bolt pistol", "Bolt rifle", "Close combat weapon"]),
        ("Intercessor", 1, ["Astartes grenade launcher", "Bolt pistol", "Bolt rifle", "Close combat weapon"]),
        ("Intercessor", 3, ["Bolt pistol", "Bolt rifle", "Close combat weapon"]),
    ]
    assert squad.keywords == [
        "Infantry",
        "Battleline",
        "Grenades",
        "Imperium",
        "Tacticus",
        "Adeptus Astartes",
    ]
    assert {a.name for a in squad.abilities} == {"Objective Secured", "Oath of Moment"}
    # the models take the unit's profile
    assert squad.models[0].profile.chars == {"m": '6"', "t": "4", "sv": "3+", "w": "2", "ld": "6+", "oc": "2"}


def test_multi_profile_weapon_has_modes_and_number_is_the_total():
    r = read_list(FIX / "marines.ros")
    dread = r.find("Redemptor Dreadnought", "x").models[0]
    by_name = {w.name: (w, k) for w, k in dread.weapons}
    macro, k = by_name["Macro plasma incinerator"]
    assert k == 1
    assert [macro.mode_name(p) for p in macro.modes] == [
        "Macro plasma incinerator - standard",
        "Macro plasma incinerator - supercharge",
    ]
    assert by_name["Storm bolter"][1] == 2  # number="2" on a one-model unit: it carries both


def test_profiles_on_model_children_and_unit_type_names():
    r = read_list(FIX / "heresy.ros")
    sq = r.find("Legion Tactical Squad", "x")
    sgt, leg = sq.models
    assert (sgt.name, sgt.count, sgt.profile.char("ws"), sgt.profile.char("unit type")) == (
        "Legion Tactical Sergeant",
        1,
        "5",
        "Infantry (Character)",
    )
    assert (leg.name, leg.count, leg.profile.char("save")) == ("Legionary", 9, "3+")
    assert [a.name for a in sgt.abilities] == ["Iron Halo"]


def test_duplicate_unit_names_are_numbered(tmp_path):
    p = tmp_path / "two.ros"
    p.write_bytes(mk.to_xml(mk.G40K, "x", [("SM", [mk.intercessors(), mk.intercessors(10)])]))
    r = read_list(p)
    assert [u.ref for u in r.units] == ["Intercessor Squad#1", "Intercessor Squad#2"]
    assert r.find("Intercessor Squad#2", "x").model_count == 10
    with pytest.raises(ScenarioError, match=r"2 units are named 'Intercessor Squad'; name one of"):
        r.find("Intercessor Squad", "attacker.unit")
    with pytest.raises(ScenarioError, match=r"no unit 'Tactical Squad'.*it has: Intercessor Squad#1"):
        r.find("Tactical Squad", "attacker.unit")


def test_whitespace_and_case_of_type_and_characteristic_names(tmp_path):
    messy = mk.prof(
        "Bolt rifle",
        "  RANGED\n  weapons ",
        (" range", "a ", "bs", " S", "Ap", "d", "KEYWORDS"),
        ('24"', "2", "3+", "4", "-1", "1", "Heavy"),
    )
    unit = mk.sel(
        "Lone Marine",
        "model",
        profiles=[
            mk.prof(
                "Lone Marine",
                " unit ",
                (" m", "t", " SV ", "w", "Ld", "oc"),
                ('6"', "4", "3+", "2", "6+", "1"),
            )
        ],
        selections=[mk.weapon("Bolt rifle", 1, messy)],
    )
    p = tmp_path / "messy.ros"
    p.write_bytes(mk.to_xml(mk.G40K, "x", [("SM", [unit])]))
    m = read_list(p).units[0].models[0]
    assert m.profile.char("Sv") == "3+"
    ((w, k),) = m.weapons
    assert w.modes[0].type == "ranged weapons" and w.modes[0].char("BS") == "3+" and k == 1


def test_xml2js_style_json(tmp_path):
    """Exports nesting lists as {"selections": {"selection": [...]}} read the same."""
    doc = json.loads((FIX / "orks.json").read_text())

    def wrap(node):
        if isinstance(node, dict):
            out = {}
            for k, v in node.items():
                inner = {
                    "forces": "force",
                    "selections": "selection",
                    "profiles": "profile",
                    "characteristics": "characteristic",
                    "categories": "category",
                    "rules": "rule",
                    "costs": "cost",
                }.get(k)
                out[k] = {inner: [wrap(x) for x in v]} if inner and isinstance(v, list) else wrap(v)
            return out
        return node

    p = tmp_path / "x.json"
    p.write_text(json.dumps(wrap(doc)))
    assert shape(read_list(p)) == shape(read_list(FIX / "orks.ros"))
