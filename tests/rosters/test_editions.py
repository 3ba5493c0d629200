"""The edition a roster was built for: the supported ones are read (and named wherever a roster's
numbers are shown), every other one is refused naming it and the supported ones."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.adapters.rosters import read_list
from grimdice.cli import app
from grimdice.errors import ScenarioError
from grimdice.io.rosters.editions import SUPPORTED
from tests.rosters.fixtures import make_fixtures as mk

FIX = Path(__file__).resolve().parent / "fixtures"
runner = CliRunner()
OLD_40K = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Save")
KT_2018 = ("M", "WS", "BS", "S", "T", "W", "A", "Ld", "Sv", "Max")


def roster(tmp_path, game, profile=None, name="army.ros"):
    prof = profile or mk.unit_p("Intercessor", *mk.MARINE)
    unit = mk.sel("Squad", "unit", profiles=[prof], selections=[mk.weapon("Bolt rifle", 1, mk.BOLT_RIFLE)])
    p = tmp_path / name
    p.write_bytes(mk.to_xml(game, "test", [("Army", [unit])]))
    return p


@pytest.mark.parametrize(
    ("game", "named"),
    [
        ("Warhammer 40,000 9th Edition", "Warhammer 40,000 9th edition"),
        ("Warhammer 40,000 8th Edition", "Warhammer 40,000 8th edition"),
        ("Warhammer 40,000 11th Edition", "Warhammer 40,000 11th edition"),
        ("Warhammer 40,000: Kill Team (2018)", "Kill Team (2018)"),
        ("Kill Team (2024)", "Kill Team (2024)"),
        ("Horus Heresy 3rd Edition", "Horus Heresy 3rd edition"),
        ("The Horus Heresy (2012)", "Horus Heresy (2012)"),
        ("Grimdark Future: Firefight", "Grimdark Future: Firefight"),
    ],
)
def test_an_edition_without_rules_is_refused_by_name(tmp_path, game, named):
    with pytest.raises(ScenarioError) as exc:
        read_list(roster(tmp_path, game))
    assert exc.value.field == "roster"
    assert f"the roster is for {named}" in exc.value.message and SUPPORTED in exc.value.message
    res = runner.invoke(app, ["units", str(roster(tmp_path, game))])
    assert res.exit_code == 2 and named in res.output and "Traceback" not in res.output


def test_without_an_edition_in_the_name_the_profiles_tell(tmp_path):
    old = mk.prof("Biker", "Unit", OLD_40K, ('14"', "3+", "3+", "4", "5", "2", "2", "7", "3+"))
    with pytest.raises(ScenarioError, match="before the 10th edition"):
        read_list(roster(tmp_path, "Warhammer 40,000", old))
    r = read_list(roster(tmp_path, "Warhammer 40,000"))
    assert (r.edition.system, r.edition.name, r.edition.how) == (
        "wh40k",
        "Warhammer 40,000 10th edition",
        "from the unit profiles (OC)",
    )
    kt18 = mk.prof("Scout", "Model", KT_2018, ('6"', "3+", "3+", "4", "4", "1", "1", "7", "4+", "-"))
    with pytest.raises(ScenarioError, match=r"Kill Team \(2018\)"):
        read_list(roster(tmp_path, "Kill Team", kt18))


def test_supported_editions_are_named():
    assert (
        read_list(FIX / "marines.ros").edition.label == "Warhammer 40,000 10th edition (named in the roster)"
    )
    assert read_list(FIX / "killteam.json").edition.name == "Kill Team 2021"
    assert read_list(FIX / "heresy.rosz").edition.name == "Horus Heresy 2.0 (2022)"
    af = read_list(FIX / "armyforge-orks.json").edition
    assert af.label == "One Page 40k v2.21 (a Grimdark Future list, played as One Page 40k v2.21)"


@pytest.mark.parametrize(
    ("code", "named"), [("aof", "Age of Fantasy"), ("gff", "Grimdark Future: Firefight")]
)
def test_army_forge_lists_of_other_games_are_refused(tmp_path, code, named):
    data = json.loads((FIX / "armyforge-orks.json").read_text())
    data["gameSystem"] = code
    p = tmp_path / "list.json"
    p.write_text(json.dumps(data))
    with pytest.raises(ScenarioError, match=f"the roster is for {named}") as exc:
        read_list(p)
    assert exc.value.field == "roster.gameSystem"


def test_units_and_calc_name_the_edition(monkeypatch):
    out = runner.invoke(app, ["units", str(FIX / "armyforge-orks.json")], env={"COLUMNS": "250"}).stdout
    assert "Grimdark Future list, played as One Page 40k v2.21" in out
    data = json.loads(runner.invoke(app, ["units", str(FIX / "orks.ros"), "--json"]).stdout)
    assert data["edition"] == "Warhammer 40,000 10th edition (named in the roster)"
    monkeypatch.chdir(FIX)
    res = runner.invoke(
        app, ["calc", "--attacker", "marines.ros:Intercessor Squad", "--defender", "orks.json:Boyz", "--json"]
    )
    notes = json.loads(res.stdout)["notes"]
    read_as = "Warhammer 40,000 10th edition (named in the roster); computed with the wh40k rules"
    assert f"roster marines.ros: {read_as}" in notes and f"roster orks.json: {read_as}" in notes
