"""The 40k rule table: the parser of ability texts, the docs' table, the CLI index, the notes."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.errors import ScenarioError
from grimdice.systems.wh40k import RULES
from grimdice.systems.wh40k.rules import parse_abilities

from .helpers import model, run, weapon

DOCS = Path(__file__).resolve().parents[2] / "docs" / "wh40k.md"


def test_cli_prints_the_rule_table():
    res = CliRunner().invoke(app, ["rules", "wh40k", "--json"])
    assert res.exit_code == 0
    assert "Devastating Wounds" in res.output and "Anti-KEYWORD X+" in res.output


def test_ability_spellings_parse_to_the_engine_fields():
    ab = parse_abilities(
        ["[Sustained Hits D3]", "anti-infantry 4+", "Melta 2", "rapid fire (1)", "Twin-Linked"], "w"
    )
    assert (ab.sustained_hits.max, ab.anti, ab.melta, ab.rapid_fire.max, ab.twin_linked) == (
        3,
        {"infantry": 4},
        2,
        1,
        True,
    )
    assert parse_abilities(["assault", "pistol", "one shot"], "w") == parse_abilities([], "w")
    with pytest.raises(ScenarioError, match=r"^w\.0: .*2\+ to 6\+"):
        parse_abilities(["anti-vehicle 7+"], "w")


def test_every_accepted_ability_is_in_the_table():
    for rule in RULES:
        assert rule.summary and rule.source


def test_mixed_bodyguard_toughness_carries_the_reading_note():
    r = run(weapon(), [model(T=4), model(name="big", T=5)])
    assert r.notes == [RULES.note("bodyguard_toughness")]
    assert run(weapon(), model()).notes == []
