"""Every system's rule table is its index: the CLI prints it and its docs embed it unchanged."""

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.systems.base import SYSTEMS, get_system

DOCS = Path(__file__).resolve().parent.parent / "docs"
BEGIN, END = "<!-- rules:begin -->\n", "\n<!-- rules:end -->"


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_docs_embed_the_rule_table(system):
    """``grimdice rules SYSTEM --markdown`` prints what the docs must hold between the markers."""
    text = (DOCS / f"{system}.md").read_text(encoding="utf-8")
    assert text.count(BEGIN) == 1 and text.count(END) == 1, f"docs/{system}.md needs one rules block"
    embedded = text.split(BEGIN, 1)[1].split(END, 1)[0]
    assert embedded == get_system(system).RULES.markdown()


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_cli_prints_every_rule_of_the_table(system):
    table = get_system(system).RULES
    res = CliRunner().invoke(app, ["rules", system, "--json"])
    assert res.exit_code == 0, res.output
    rows = json.loads(res.stdout)
    assert [r["rule"] for r in rows] == [r["rule"] for r in table.rows()]
    assert len(rows) >= len(table)
    md = CliRunner().invoke(app, ["rules", system, "--markdown"])
    assert md.stdout == table.markdown() + "\n"
    shown = CliRunner().invoke(app, ["rules", system], env={"COLUMNS": "200"})
    assert shown.exit_code == 0 and table.rules[0].name in shown.stdout


def test_unknown_system_is_one_clear_error():
    res = CliRunner().invoke(app, ["rules", "chess"])
    assert res.exit_code == 2 and "allowed:" in res.output
