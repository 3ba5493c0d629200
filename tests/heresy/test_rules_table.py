"""The Heresy rule table: docs, CLI index, and the notes of unverified readings on results."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.systems.heresy import RULES, calculate
from grimdice.systems.heresy.rules import COMBAT_RESOLUTION, INSTANT_DEATH_STRENGTH, MELEE_HIT_CHART

from .helpers import melee, model, run, scenario, weapon

DOCS = Path(__file__).resolve().parents[2] / "docs" / "heresy.md"


def test_cli_prints_the_rule_table():
    res = CliRunner().invoke(app, ["rules", "heresy", "--json"])
    assert res.exit_code == 0
    assert "Brutal X" in res.output and MELEE_HIT_CHART in res.output


def test_unverified_readings_are_marked():
    assert {MELEE_HIT_CHART, COMBAT_RESOLUTION, INSTANT_DEATH_STRENGTH} <= set(RULES.unverified())


def test_melee_result_carries_the_to_hit_chart_note_and_shooting_does_not():
    r = run(melee(), model())
    assert RULES.note(MELEE_HIT_CHART) in r.notes
    assert RULES.note(MELEE_HIT_CHART) in run(melee(), model(), simulate=1000, seed=1).notes
    shot = run(weapon(), model())
    assert shot.notes == []
    assert "notes" not in shot.to_json()


def test_instant_death_by_strength_carries_its_note():
    assert RULES.note(INSTANT_DEATH_STRENGTH) in run(weapon(S=8), model(T=4)).notes
    assert RULES.note(INSTANT_DEATH_STRENGTH) not in run(weapon(S=7), model(T=4)).notes
    # the weapon rule itself is not the unverified reading
    assert run(weapon(S=4, rules=["Instant Death"]), model(T=4)).notes == []


def test_fight_carries_the_combat_resolution_note():
    sc = scenario(
        melee(), model(weapons=[{"name": "knife", "S": "user", "rules": ["Melee"]}], S=4, A=1, WS=4, I=4)
    )
    sc["conditions"]["fight"] = True
    sc["attacker"]["models"][0].update(T=4, W=1, S=4, A=1, I=4)
    r = calculate(sc)
    assert RULES.note(COMBAT_RESOLUTION) in r.notes and RULES.note(MELEE_HIT_CHART) in r.notes
