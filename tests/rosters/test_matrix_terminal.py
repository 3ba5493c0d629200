"""``grimdice matrix`` shows unit names from the lists as visible escapes, never as terminal
control sequences or Rich markup."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from grimdice.cli import app

FIX = Path(__file__).resolve().parent / "fixtures"
HOSTILE = "\x1b]0;owned\x07\x1b[2J[red]Boyz[/red]"


def test_matrix_names_are_escaped(tmp_path):
    data = json.loads((FIX / "armyforge-orks.json").read_text(encoding="utf-8"))
    data["list"]["units"][0]["name"] = HOSTILE
    orks = tmp_path / "orks.json"
    orks.write_text(json.dumps(data), encoding="utf-8")
    marines = FIX / "armyforge-marines.json"
    res = CliRunner().invoke(app, ["matrix", str(marines), str(orks), "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "[red]" in res.output.replace("\n", "")  # shown, not read as markup
