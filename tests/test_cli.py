"""The grimdice command line: tables, the JSON contract, plots, simulation and clear errors."""

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grimdice.cli import app

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
runner = CliRunner()


def example_files():
    return sorted(EXAMPLES.glob("*.yaml"))


@pytest.mark.parametrize("path", example_files(), ids=lambda p: p.name)
def test_every_example_runs_and_meets_the_json_contract(path):
    res = runner.invoke(app, ["calc", str(path), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    system = yaml.safe_load(path.read_text())["system"]
    assert out["system"] == system
    assert out["method"] == "exact"
    for stage in ("damage", "models_destroyed"):
        assert set(out[stage]) >= {"mean", "pmf"}
        pmf = out[stage]["pmf"]
        assert sum(pmf) == pytest.approx(1.0, abs=1e-9)
        assert out[stage]["mean"] == pytest.approx(sum(i * p for i, p in enumerate(pmf)))


def test_table_output_names_stages():
    res = runner.invoke(app, ["calc", str(EXAMPLES / "wh40k-intercessors-vs-boyz.yaml")])
    assert res.exit_code == 0, res.output
    for word in ("hits", "wounds", "unsaved", "damage", "models_destroyed", "at least N"):
        assert word in res.stdout


def test_simulate_json_is_seeded(tmp_path):
    args = ["calc", str(EXAMPLES / "wh40k-guard-orders.yaml"), "--json", "--simulate", "3000", "--seed", "5"]
    a = json.loads(runner.invoke(app, args).stdout)
    b = json.loads(runner.invoke(app, args).stdout)
    assert a == b
    assert a["method"] == "simulated" and a["trials"] == 3000 and a["seed"] == 5


def test_plot_writes_png(tmp_path):
    out = tmp_path / "d.png"
    res = runner.invoke(app, ["calc", str(EXAMPLES / "wh40k-guard-orders.yaml"), "--plot", str(out)])
    assert res.exit_code == 0, res.output
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def write(tmp_path, data):
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(data))
    return str(p)


BASE = {
    "system": "wh40k",
    "attacker": {"models": [{"weapons": [{"A": 2, "BS": 3, "S": 4, "AP": -1, "D": 1}]}]},
    "defender": {"models": [{"T": 4, "Sv": 3, "W": 2}]},
}


@pytest.mark.parametrize(
    "patch,needle",
    [
        ({"system": "chess"}, "system: unknown system 'chess'; allowed:"),
        (
            {
                "attacker": {
                    "models": [{"weapons": [{"A": 2, "BS": 3, "S": 4, "D": 1, "abilities": ["flaming"]}]}]
                }
            },
            "attacker.models.0.weapons.0.abilities.0: unknown ability 'flaming'; allowed:",
        ),
        (
            {"attacker": {"models": [{"weapons": [{"A": "2Q", "BS": 3, "S": 4}]}]}},
            "attacker.models.0.weapons.0.A",
        ),
        (
            {"attacker": {"models": [{"weapons": [{"A": 1, "BS": 9, "S": 4}]}]}},
            "attacker.models.0.weapons.0.BS",
        ),
        ({"attacker": {"models": [{"weapons": [{"A": 1, "BS": 3, "WS": 3, "S": 4}]}]}}, "exactly one of BS"),
        (
            {"attacker": {"models": [{"weapons": [{"A": 1, "BS": 3, "S": 4, "AP": 2}]}]}},
            "AP is written as 0 or negative",
        ),
        (
            {"defender": {"models": [{"T": 4, "Sv": 3, "W": 2, "Toughness": 5}]}},
            "defender.models.0.Toughness: unknown field; allowed here:",
        ),
        ({"defender": {"models": [{"T": 4, "Sv": 3}]}}, "defender.models.0.W: Field required"),
        ({"defender": {"models": [{"T": 4, "Sv": 3, "W": 2, "count": 100000}]}}, "defender.models.0.count"),
        (
            {"attacker": {"models": [{"count": 200, "weapons": [{"A": "10D6", "BS": 3, "S": 4}]}]}},
            "at most 2000 attacks",
        ),
    ],
)
def test_bad_input_gets_a_clear_error(tmp_path, patch, needle):
    res = runner.invoke(app, ["calc", write(tmp_path, BASE | patch)])
    assert res.exit_code == 2
    assert needle in " ".join(res.output.split()), res.output
    assert "Traceback" not in res.output


def flat(res):
    return " ".join(res.output.split())


def test_missing_file_and_bad_options(tmp_path):
    res = runner.invoke(app, ["calc", str(tmp_path / "nope.yaml")])
    assert res.exit_code == 2 and "no such file" in flat(res)
    res = runner.invoke(app, ["calc", write(tmp_path, BASE), "--simulate", "0"])
    assert res.exit_code == 2 and "--simulate" in flat(res)
    res = runner.invoke(app, ["calc", write(tmp_path, BASE), "--seed", "3"])
    assert res.exit_code == 2 and "--seed only applies" in flat(res)
    bad = tmp_path / "bad.yaml"
    bad.write_text("system: [unclosed")
    res = runner.invoke(app, ["calc", str(bad)])
    assert res.exit_code == 2 and "not valid YAML" in flat(res)


def test_systems_lists_wh40k():
    res = runner.invoke(app, ["systems"])
    assert "wh40k" in res.stdout


def test_wide_results_split_the_at_least_table():
    from grimdice.cli.render import MAX_COLUMNS, at_least_tables, label
    from grimdice.dice import Dist
    from grimdice.result import Result

    stages = {f"stage_{i}": Dist.binomial(i + 1, 0.5) for i in range(MAX_COLUMNS + 2)}
    stages["damage"] = Dist.constant(1)
    stages["models_destroyed"] = Dist.constant(0)
    tables = at_least_tables(Result("x", "exact", stages))
    assert [len(t.columns) - 1 for t in tables] == [MAX_COLUMNS, len(stages) - MAX_COLUMNS]
    assert label("precision_model_destroyed") == "prec. model destroyed"
    assert label("stage_1") == "stage 1"


def test_extra_records_are_shown_as_tables_and_scalars_as_rows():
    from grimdice.cli.render import MAX_RECORDS, extras_tables
    from grimdice.dice import Dist
    from grimdice.result import Result

    stages = {"damage": Dist.constant(1), "models_destroyed": Dist.constant(0)}
    records = [{"roll": f"{i} hits", "moves": ["strike", "parry"]} for i in range(MAX_RECORDS + 3)]
    res = Result("x", "exact", stages, extra={"p_win": 0.25, "policy": {"lines": records, "note": "n"}})
    also, policy = extras_tables(res)
    assert [c.header for c in also.columns] == ["what", "value"]
    assert list(also.columns[0].cells) == ["p_win", "policy note"]
    assert f"first {MAX_RECORDS} of {MAX_RECORDS + 3}" in str(policy.title)
    assert [c.header for c in policy.columns] == ["roll", "moves"]
    assert next(iter(policy.columns[1].cells)) == "strike\nparry"


@pytest.mark.slow
def test_simulate_on_workers_or_a_dask_cluster_gives_the_same_json(tmp_path):
    distributed = pytest.importorskip("distributed")
    args = ["calc", str(EXAMPLES / "wh40k-guard-orders.yaml"), "--json", "--simulate", "60000", "--seed", "9"]
    one = json.loads(runner.invoke(app, [*args, "--workers", "1"]).stdout)
    two = json.loads(runner.invoke(app, [*args, "--workers", "2"]).stdout)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        res = runner.invoke(app, [*args, "--scheduler", cluster.scheduler_address])
    assert res.exit_code == 0, res.output
    assert one == two == json.loads(res.stdout)
    bad = runner.invoke(app, ["calc", str(EXAMPLES / "wh40k-guard-orders.yaml"), "--workers", "2"])
    assert bad.exit_code == 2 and "only apply with --simulate" in bad.output


ROSTERS = Path(__file__).resolve().parent / "rosters" / "fixtures"


def test_calc_with_roster_units_prints_what_the_rosters_hold_that_is_not_modelled(tmp_path, monkeypatch):
    """The notes ``grimdice units`` lists as not modelled reach calc's table and --json notes, for
    roster units given on the command line and referenced from a scenario file alike."""
    monkeypatch.chdir(ROSTERS)
    args = ["calc", "--attacker", "orks.ros:Warboss", "--defender", "marines.ros:Intercessor Squad"]
    expected = [
        "not modelled (from the roster): Warboss: ability Might is Right",
        "not modelled (from the roster): Intercessor Squad: ability Oath of Moment",
    ]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    notes = json.loads(res.stdout)["notes"]
    assert set(expected) <= set(notes) and len(notes) == len(set(notes))
    table = runner.invoke(app, args, env={"COLUMNS": "250"})
    assert table.exit_code == 0, table.output
    assert all(n in table.stdout for n in expected)
    sc = tmp_path / "s.yaml"
    sc.write_text(
        yaml.safe_dump(
            {
                "attacker": {"roster": str(ROSTERS / "orks.ros"), "unit": "Warboss"},
                "defender": {"roster": str(ROSTERS / "marines.ros"), "unit": "Intercessor Squad"},
            }
        )
    )
    res = runner.invoke(app, ["calc", str(sc), "--json"])
    assert res.exit_code == 0, res.output
    assert set(expected) <= set(json.loads(res.stdout)["notes"])
    # a scenario without rosters gains no such note
    plain = json.loads(
        runner.invoke(app, ["calc", str(EXAMPLES / "wh40k-intercessors-vs-boyz.yaml"), "--json"]).stdout
    )
    assert not any("from the roster" in n for n in plain.get("notes", []))


def test_a_tiny_chance_is_shown_as_under_a_hundredth_of_a_percent_never_as_nothing():
    from grimdice.cli.render import at_least_tables, percent, summary_table
    from grimdice.dice import Dist
    from grimdice.result import Result

    # 1 in a million to destroy the character: every "at least N" chance rounds to 0.00 %
    rare = Dist([1 - 1e-6, 1e-6])
    certain = Dist([0.0, 1.0])  # exactly one hit, always
    stages = {"hits": certain, "damage": Dist.binomial(3, 0.5), "models_destroyed": rare}
    (table,) = at_least_tables(Result("x", "exact", stages))
    rows = list(zip(*[list(c.cells) for c in table.columns], strict=True))
    assert rows[0] == ("1", "100.00%", "87.50%", "< 0.01%")
    assert rows[-1] == ("3", "", "12.50%", "")  # the tiny chance is named once, then left blank
    summary = summary_table(Result("x", "exact", stages))
    assert list(summary.columns[3].cells) == ["0.00%", "12.50%", "> 99.99%"]
    assert list(summary.columns[4].cells) == ["1", "3", "1"]  # the highest possible count
    assert percent(1e-300) == "< 0.01%" and percent(0.0) == "0.00%"
    assert percent(1 - 1e-15) == "100.00%"  # float rounding of a certainty
