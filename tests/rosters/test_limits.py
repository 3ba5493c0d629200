"""What a roster may hold and what a listing prints: bounded counts, names and terminal-safe text."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.adapters.rosters import read_list
from grimdice.cli import app
from grimdice.errors import ScenarioError
from grimdice.io.rosters.battlescribe import MAX_UNITS
from grimdice.io.rosters.tree import MAX_NAME
from tests.rosters.fixtures import make_fixtures as mk

FIX = Path(__file__).resolve().parent / "fixtures"
runner = CliRunner()
RIFLE = mk.BOLT_RIFLE


def squad(name="Intercessor Squad", number=5):
    return mk.sel(
        name,
        "unit",
        profiles=[mk.unit_p("Intercessor", *mk.MARINE)],
        selections=[
            mk.sel("Intercessor", "model", number=number, selections=[mk.weapon("Bolt rifle", 5, RIFLE)])
        ],
        pts=80.0,
    )


def write(tmp_path, units, name="army.ros") -> Path:
    p = tmp_path / name
    p.write_bytes(mk.to_xml(mk.G40K, "test", [("Space Marines", units)]))
    return p


def test_a_roster_holds_at_most_max_units(tmp_path):
    p = write(tmp_path, [squad() for _ in range(MAX_UNITS + 1)])
    with pytest.raises(ScenarioError, match=f"at most {MAX_UNITS} units; this one has {MAX_UNITS + 1} units"):
        read_list(p)
    assert len(read_list(write(tmp_path, [squad() for _ in range(3)])).units) == 3


@pytest.mark.parametrize("number", ["9" * 5000, "-5", "1e9", "five", "1001"])
def test_a_bad_number_is_refused_naming_the_selection(tmp_path, number):
    with pytest.raises(ScenarioError) as exc:
        read_list(write(tmp_path, [squad(number=number)]))
    assert exc.value.field == "roster.Intercessor Squad.Intercessor.number"
    assert "0..1000" in exc.value.message and len(str(exc.value)) < 300


def test_a_huge_name_is_cut(tmp_path):
    r = read_list(write(tmp_path, [squad(name="Squad " + "x" * 200_000)]))
    assert len(r.units[0].name) == MAX_NAME and r.units[0].name.endswith("...")
    res = runner.invoke(app, ["units", str(write(tmp_path, [squad(name="y" * 200_000)]))])
    assert res.exit_code == 0 and len(res.stdout) < 20_000


def test_units_shows_names_from_the_file_safely(tmp_path):
    data = json.loads((FIX / "armyforge-orks.json").read_text())
    data["list"]["units"][0]["name"] = "Boyz \x1b]0;pwned\x07 [red]loud[/red]"
    p = tmp_path / "orks.json"
    p.write_text(json.dumps(data))
    res = runner.invoke(app, ["units", str(p)], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.stdout and "\x07" not in res.stdout
    assert "\\x1b]0;pwned\\x07" in res.stdout and "[red]loud[/red]" in res.stdout
    bs = write(tmp_path, [squad(name="Boyz \x9b2J [bold]x[/bold]")])  # XML has no ESC; C1 CSI is allowed
    res = runner.invoke(app, ["units", str(bs)], env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    assert "\x9b" not in res.stdout and "[bold]x[/bold]" in res.stdout


def test_matrix_takes_an_army_forge_list_that_mentions_targets(tmp_path):
    data = json.loads((FIX / "armyforge-orks.json").read_text())
    data = {"description": {"targets": "every enemy in 12 inches"}, **data}
    p = tmp_path / "orks.json"
    p.write_text(json.dumps(data))
    assert '"targets"' in p.read_text()[:200]
    res = runner.invoke(app, ["matrix", str(FIX / "armyforge-marines.json"), str(p), "--json"])
    assert res.exit_code == 0, res.output
    assert "Boyz" in json.loads(res.stdout)["defenders"]


def test_matrix_refuses_an_army_forge_saved_list_as_its_second_argument(tmp_path):
    p = tmp_path / "saved.json"
    p.write_text(json.dumps([{"id": "a", "selectionId": "b", "selectedUpgrades": []}]))
    res = runner.invoke(app, ["matrix", str(FIX / "armyforge-marines.json"), str(p)])
    assert res.exit_code == 2 and "Army Forge saved list" in res.output


def test_a_model_entry_of_number_0_is_said(tmp_path):
    u = json.loads(runner.invoke(app, ["units", str(write(tmp_path, [squad(number="0")])), "--json"]).stdout)
    assert (
        "Intercessor Squad: Intercessor: number 0 in the roster (no such models)"
        in u["units"][0]["not_modelled"]
    )
