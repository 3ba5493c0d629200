"""Bad input raises ScenarioError naming the field and what is allowed there."""

import json
from pathlib import Path

import pytest
import yaml
from typer.testing import CliRunner

from grimdice.cli import app
from tests.heresy.helpers import assert_names_field, model, scenario, weapon

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "heresy-tactical-vs-auxilia.yaml"


def base():
    return scenario(weapon(), model())


@pytest.mark.parametrize(
    "patch,field,needle",
    [
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(AP=0),
            "attacker.models.0.weapons.0.AP",
            "AP is 1",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(AP=-2),
            "attacker.models.0.weapons.0.AP",
            "AP is 1",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(S=11),
            "attacker.models.0.weapons.0.S",
            "S is",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(S="user"),
            "attacker.models.0.weapons.0",
            "only melee weapons",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].pop("A"),
            "attacker.models.0.weapons.0",
            "needs A",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(rules=["Flaming"]),
            "attacker.models.0.weapons.0.rules.0",
            "unknown special rule 'Flaming'; allowed:",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(rules=["Rending"]),
            "attacker.models.0.weapons.0.rules.0",
            "needs its value",
        ),
        (
            lambda s: s["attacker"]["models"][0]["weapons"][0].update(rules=["Breaching (7+)"]),
            "attacker.models.0.weapons.0.rules.0",
            "2+ to 6+",
        ),
        (lambda s: s["attacker"]["models"][0].update(BS=11), "attacker.models.0.BS", "less than or equal"),
        (lambda s: s["defender"]["models"][0].pop("T"), "defender.models.0.T", "Field required"),
        (lambda s: s["defender"]["models"][0].update(Sv=1), "defender.models.0.Sv", "greater than or equal"),
        (
            lambda s: s["defender"]["models"][0].update(Toughness=4),
            "defender.models.0.Toughness",
            "unknown field; allowed here:",
        ),
        (lambda s: s["defender"].update(type="tank"), "defender.type", "unknown unit type 'tank'"),
        (
            lambda s: s["conditions"].update(precision_target="x"),
            "conditions.precision_target",
            "no defending model",
        ),
        (
            lambda s: s["attacker"]["models"][0].update(count=100, weapons=[weapon(A=20)]),
            "attacker",
            "at most",
        ),
    ],
)
def test_bad_input_names_the_field(patch, field, needle):
    s = base()
    patch(s)
    assert_names_field(s, field, needle)


def test_cli_runs_the_example_as_json_exact_and_simulated():
    runner = CliRunner()
    res = runner.invoke(app, ["calc", str(EXAMPLE), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["system"] == yaml.safe_load(EXAMPLE.read_text())["system"] == "heresy"
    assert out["method"] == "exact"
    for stage in ("hits", "wounds", "unsaved", "damage", "models_destroyed", "precision_model_destroyed"):
        assert sum(out[stage]["pmf"]) == pytest.approx(1.0, abs=1e-9)
    assert out["precision_model"] == "Veletaris Prime" and "gets_hot" in out
    res = runner.invoke(app, ["calc", str(EXAMPLE), "--json", "--simulate", "2000", "--seed", "3"])
    sim = json.loads(res.stdout)
    assert sim["method"] == "simulated" and sim["trials"] == 2000 and sim["seed"] == 3
    assert abs(sim["damage"]["mean"] - out["damage"]["mean"]) < 0.3


def test_cli_names_the_bad_field(tmp_path):
    s = base()
    s["attacker"]["models"][0]["weapons"][0]["rules"] = ["Flaming"]
    p = tmp_path / "s.yaml"
    p.write_text(yaml.safe_dump(s))
    res = CliRunner().invoke(app, ["calc", str(p)])
    assert res.exit_code == 2
    assert "attacker.models.0.weapons.0.rules.0" in " ".join(res.output.split())
    assert "Traceback" not in res.output
