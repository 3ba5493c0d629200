"""The scenario layer: CLI and JSON contract, combined attacks' bookkeeping, compare mode."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.cli import app
from tests.killteam.helpers import gun, operative, run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
runner = CliRunner()


def test_blast_example_json_has_targets_and_objectives():
    res = runner.invoke(app, ["calc", str(EXAMPLES / "killteam-blast-grenade.yaml"), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["system"] == "killteam" and out["method"] == "exact"
    assert set(out["targets"]) == {"Guardsman A", "Guardsman B"}
    assert out["targets"]["Guardsman B"]["models_destroyed"]["pmf"][0] < 1
    assert out["objectives"]["defender"] == "minimise expected wounds lost"
    assert sum(out["operatives_incapacitated"]["pmf"]) == pytest.approx(1)


def test_rule_error_exits_2_with_the_rule(tmp_path):
    p = tmp_path / "s.yaml"
    p.write_text(
        "system: killteam\n"
        "attacker: {name: a, W: 8, weapons: [{name: g, A: 4, BS: 3, D: 3/4, rules: [Limited]}]}\n"
        "shots: [{activation: {uses_before: 1}}]\n"
        "target: {name: t, W: 8}\n"
    )
    res = runner.invoke(app, ["calc", str(p)])
    assert res.exit_code == 2
    assert "Limited" in res.output and "Traceback" not in res.output


def test_hot_counts_only_hot_weapons_and_no_attack_on_an_incapacitated_target():
    attacker = {
        "name": "shooter",
        "W": 10,
        "weapons": [gun(name="hot", A=1, BS=3, rules=["Hot"]), gun(name="cold", A=3, BS=3)],
    }
    res = run(None, operative(DF=0, W=1), attacker=attacker, shots=[{"weapon": "cold"}, {"weapon": "hot"}])
    # the hot shot is only made when all three cold dice missed (2/6 each): P = (1/3)^3, then a 1 is 1/6
    assert res.extra["hot"]["shooter"]["p_any"] == pytest.approx((1 / 3) ** 3 / 6)


def test_compare_mode_simulated():
    from grimdice.systems.killteam import calculate
    from tests.killteam.helpers import scenario

    sc = scenario(gun(A=2))
    sc.pop("target")
    sc["targets"] = [operative(name="a", DF=0), operative(name="b", DF=3, SV=3)]
    res = calculate(sc, simulate=3000, seed=3)
    assert res.method == "simulated" and set(res.targets) == {"a", "b"}
    assert res.to_json()["targets"]["b"]["trials"] == 3000
