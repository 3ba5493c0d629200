"""The roster commands from the user's side: grimdice units, calc with roster units, matrix."""

import json
import shutil
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.systems.base import calculate
from tests.rosters.fixtures import make_fixtures as mk

FIX = Path(__file__).resolve().parent / "fixtures"
runner = CliRunner()


def ok(args):
    res = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert res.exit_code == 0, res.output
    return res


def test_units_table_and_json():
    out = ok(["units", str(FIX / "marines.rosz")]).stdout
    for word in ("Intercessor Squad", "Redemptor Dreadnought", "Macro plasma incinerator", "Oath of Moment"):
        assert word in out
    data = json.loads(ok(["units", str(FIX / "orks.json"), "--json"]).stdout)
    assert data["system"] == "wh40k" and data["points"] == 210
    boss = next(u for u in data["units"] if u["unit"] == "Warboss")
    assert boss["models"][0]["weapons"][0] == {
        "name": "Big choppa",
        "each": 1,
        "modes": ["Big choppa"],
        "rules": [],
    }
    assert "Attack squig: weapon ability Waaagh! Energy" in boss["not_modelled"]
    assert "Warboss: ability Might is Right" in boss["not_modelled"]
    kt = json.loads(ok(["units", str(FIX / "killteam.ros"), "--json"]).stdout)
    assert kt["system"] == "killteam" and kt["units"][0]["unit"] == "Intercessor Sniper"


def test_units_errors_are_one_line(tmp_path):
    bad = tmp_path / "bad.rosz"
    bad.write_bytes(b"not a zip")
    res = runner.invoke(app, ["units", str(bad)])
    assert res.exit_code == 2
    assert "roster: bad.rosz is not a readable .rosz" in res.output and "Traceback" not in res.output


def test_calc_with_roster_units_equals_the_hand_written_scenario(tmp_path, monkeypatch):
    monkeypatch.chdir(FIX)
    a = json.loads(
        ok(
            [
                "calc",
                "--attacker",
                "marines.ros:Hellblaster Squad",
                "--defender",
                "orks.rosz:Lootas",
                "--json",
            ]
        ).stdout
    )
    plasma = {
        "name": "p",
        "range": 24,
        "A": 2,
        "BS": 3,
        "S": 7,
        "AP": -2,
        "D": 1,
        "abilities": ["Assault", "Heavy"],
    }
    hand = tmp_path / "hand.yaml"
    hand.write_text(
        yaml.safe_dump(
            {
                "system": "wh40k",
                "attacker": {"models": [{"name": "Hellblaster", "count": 5, "weapons": [plasma]}]},
                "defender": {"models": [{"name": "Loota", "count": 5, "T": 5, "Sv": 6, "W": 1}]},
            }
        )
    )
    b = json.loads(ok(["calc", str(hand), "--json"]).stdout)
    for stage in ("hits", "wounds", "damage", "models_destroyed"):
        assert a[stage]["pmf"] == pytest.approx(b[stage]["pmf"], abs=1e-12)
    # weapons by mode name, and a leader attached with +
    c = json.loads(
        ok(
            [
                "calc",
                "--attacker",
                "marines.json:Hellblaster Squad",
                "--defender",
                "orks.ros:Boyz+Warboss",
                "--weapons",
                "Plasma incinerator - supercharge",
                "--json",
            ]
        ).stdout
    )
    assert c["title"] == "Hellblaster Squad vs Boyz + Warboss"
    assert c["models_destroyed"]["mean"] > 0


def test_scenario_file_with_roster_references_and_conditions(tmp_path):
    sub = tmp_path / "armies"
    sub.mkdir()
    for f in ("marines.rosz", "orks.ros"):
        shutil.copy(FIX / f, sub / f)
    sc = {
        "title": "from rosters",
        "attacker": {"roster": "armies/marines.rosz", "unit": "Intercessor Squad"},
        "defender": {"roster": "armies/orks.ros", "unit": "Lootas", "cover": True},
        "conditions": {"remained_stationary": True},
    }
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(sc))
    got = json.loads(ok(["calc", str(p), "--json"]).stdout)
    assert got["title"] == "from rosters"
    rifle = {
        "name": "r",
        "range": 24,
        "A": 2,
        "BS": 3,
        "S": 4,
        "AP": -1,
        "D": 1,
        "abilities": ["Assault", "Heavy"],
    }
    frag = {"name": "f", "range": 24, "A": "D3", "BS": 3, "S": 4, "AP": 0, "D": 1, "abilities": ["Blast"]}
    hand = {
        "system": "wh40k",
        "attacker": {
            "models": [
                {"name": "a", "count": 4, "weapons": [rifle]},
                {"name": "b", "count": 1, "weapons": [rifle, frag]},
            ]
        },
        "defender": {
            "models": [{"count": 5, "T": 5, "Sv": 6, "W": 1}],
            "cover": True,
            "keywords": ["Infantry"],
        },
        "conditions": {"remained_stationary": True},
    }
    want = calculate(hand)
    assert got["models_destroyed"]["pmf"] == pytest.approx(
        want.stages["models_destroyed"].pmf.tolist(), abs=1e-12
    )
    # without the conditions the result differs (Heavy: +1 to hit when stationary; cover)
    sc.pop("conditions")
    p.write_text(yaml.safe_dump(sc))
    other = json.loads(ok(["calc", str(p), "--json"]).stdout)
    assert other["hits"]["mean"] < got["hits"]["mean"]


def test_calc_option_errors(monkeypatch):
    monkeypatch.chdir(FIX)
    for args, msg in [
        (["calc"], "give a SCENARIO file, or --attacker"),
        (["calc", "--attacker", "orks.ros:Boyz"], "give both --attacker"),
        (["calc", "--attacker", "orks:Boyz", "--defender", "orks.ros:Boyz"], "write ROSTER:UNIT"),
        (["calc", "--attacker", "orks.ros:Boyz", "--defender", "orks.ros:Grots"], "no unit 'Grots'"),
    ]:
        res = runner.invoke(app, args)
        assert res.exit_code == 2, args
        assert msg in res.output and "Traceback" not in res.output


def test_matrix_is_the_same_whatever_the_workers_and_matches_calc(tmp_path, monkeypatch):
    from grimdice.adapters.rosters import matrix

    monkeypatch.setattr(matrix, "MIN_PARALLEL", 1)  # worker processes even for this small matrix
    args = ["matrix", str(FIX / "marines.ros"), str(FIX / "orks.ros"), "--json"]
    one = json.loads(ok([*args, "--workers", "1"]).stdout)
    two = json.loads(ok([*args, "--workers", "2"]).stdout)
    assert one == two
    assert one["attackers"] == ["Captain", "Intercessor Squad", "Hellblaster Squad", "Redemptor Dreadnought"]
    assert one["defenders"] == ["Boyz", "Warboss", "Lootas"]
    cell = next(
        c for c in one["cells"] if c["attacker"] == "Redemptor Dreadnought" and c["defender"] == "Lootas"
    )
    single = json.loads(
        ok(
            [
                "calc",
                "--attacker",
                f"{FIX / 'marines.ros'}:Redemptor Dreadnought",
                "--defender",
                f"{FIX / 'orks.ros'}:Lootas",
                "--json",
            ]
        ).stdout
    )
    assert cell["damage"] == pytest.approx(single["damage"]["mean"], abs=1e-12)
    assert cell["p_wipe"] == pytest.approx(sum(single["models_destroyed"]["pmf"][5:]), abs=1e-12)


def test_matrix_outputs_csv_png_and_table(tmp_path):
    csv_path, png = tmp_path / "m.csv", tmp_path / "m.png"
    res = ok(
        [
            "matrix",
            str(FIX / "heresy.ros"),
            str(FIX / "heresy.json"),
            "--workers",
            "1",
            "--csv",
            str(csv_path),
            "--png",
            str(png),
        ]
    )
    assert "expected damage / models destroyed / P(wipe out)" in res.stdout
    rows = csv_path.read_text().splitlines()
    head = "attacker,defender,damage,models_destroyed,p_wipe,damage_per_100_points,error"
    assert rows[0] == head and len(rows) == 1 + 4
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_matrix_against_target_profiles_and_refused_cells(tmp_path):
    horde = mk.sel(
        "Horde",
        "unit",
        profiles=[mk.unit_p("Gunner", '6"', "3", "5+", "1", "7+", "1")],
        selections=[
            mk.sel(
                "Gunner",
                "model",
                number=200,
                selections=[
                    mk.weapon("Big gun", 200, mk.ranged("Big gun", '24"', "12", "4+", "3", "0", "1", "-"))
                ],
            )
        ],
    )
    roster = tmp_path / "horde.ros"
    roster.write_bytes(mk.to_xml(mk.G40K, "Horde", [("Orks", [horde, mk.lootas()])]))
    targets = tmp_path / "targets.yaml"
    targets.write_text(
        yaml.safe_dump(
            [
                {"name": "MEQ", "models": [{"count": 5, "T": 4, "Sv": 3, "W": 2}]},
                {"name": "Knight", "models": [{"T": 11, "Sv": 3, "W": 22, "invulnerable": 5}]},
            ]
        )
    )
    data = json.loads(ok(["matrix", str(roster), str(targets), "--workers", "1", "--json"]).stdout)
    cells = {(c["attacker"], c["defender"]): c for c in data["cells"]}
    assert "at most 2000 attacks" in cells[("Horde", "MEQ")]["error"]
    loota = cells[("Lootas", "Knight")]
    # 10 deffgun shots (Rapid Fire: not at half range) BS5+ 1/3, S8 vs T11 5+ 1/3,
    # Sv 3+ at AP-1 is 4+ (better than the 5+ invulnerable): fails 1/2; D2
    assert loota["damage"] == pytest.approx(10 * (1 / 3) * (1 / 3) * (1 / 2) * 2, abs=1e-12)
    assert loota["p_wipe"] == 0
    table = ok(["matrix", str(roster), str(targets), "--workers", "1"]).stdout
    assert "at most 2000" in table


def test_killteam_matrix_shoots_or_fights():
    shoot = json.loads(ok(["matrix", str(FIX / "killteam.ros"), str(FIX / "killteam.json"), "--json"]).stdout)
    fight = json.loads(
        ok(
            ["matrix", str(FIX / "killteam.ros"), str(FIX / "killteam.json"), "--weapons", "melee", "--json"]
        ).stdout
    )
    assert not any("error" in c for c in shoot["cells"] + fight["cells"])
    pick = next(
        c for c in fight["cells"] if c["attacker"] == "Boy Fighter" and c["defender"] == "Intercessor Gunner"
    )
    from grimdice.adapters.rosters import resolve_scenario

    sc = resolve_scenario(
        {
            "action": "fight",
            "attacker": {"roster": "killteam.ros", "unit": "Boy Fighter"},
            "target": {"roster": "killteam.ros", "unit": "Intercessor Gunner"},
        },
        FIX,
    )
    assert pick["damage"] == pytest.approx(calculate(sc).stages["damage"].mean(), abs=1e-12)


def test_conditions_from_the_command_line_merge_into_the_scenario(tmp_path):
    marines, orks = FIX / "marines.rosz", FIX / "orks.ros"
    base = ["calc", "--attacker", f"{marines}:Intercessor Squad", "--defender", f"{orks}:Lootas", "--json"]
    plain = json.loads(ok(base).stdout)
    still = json.loads(ok([*base, "--condition", "remained_stationary=true"]).stdout)
    assert still["hits"]["mean"] > plain["hits"]["mean"]  # Heavy: +1 to hit when stationary
    p = tmp_path / "s.yaml"
    sc = {"attacker": {"roster": str(marines), "unit": "Intercessor Squad"}}
    p.write_text(yaml.safe_dump({**sc, "defender": {"roster": str(orks), "unit": "Lootas"}}))
    from_file = json.loads(ok(["calc", str(p), "--json", "--condition", "remained_stationary=true"]).stdout)
    assert from_file["hits"] == still["hits"]
    for bad, words in (("stationary", "KEY=VALUE"), ("cover=[1, 2]", "single value"), ("nosuch=1", "nosuch")):
        res = runner.invoke(app, [*base, "--condition", bad])
        assert res.exit_code == 2 and words in res.output, res.output


@pytest.mark.parametrize("given", [[1, 2], "cover", [["cover", True]]])
def test_condition_options_on_a_file_whose_conditions_are_no_mapping_are_one_error(tmp_path, given):
    """The file's own ``conditions`` must be a mapping for ``--condition`` to merge into: a list or a
    word is the same one-line error with or without the option (it was a traceback, or a list of
    pairs was silently taken as a mapping)."""
    p = tmp_path / "s.yaml"
    scenario = yaml.safe_load(
        (Path(__file__).resolve().parents[2] / "examples" / "wh40k-intercessors-vs-boyz.yaml").read_text()
    )
    p.write_text(yaml.safe_dump({**scenario, "conditions": given}))
    for extra in ([], ["--condition", "cover=true"]):
        res = runner.invoke(app, ["calc", str(p), "--json", *extra])
        assert res.exit_code == 2 and "conditions" in res.output and "Traceback" not in res.output, res.output
        assert res.output.count("\n") == 1, res.output
