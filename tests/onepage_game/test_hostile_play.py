"""Hostile input to ``grimdice play`` and ``grimdice replay``: refusals come before any worker
starts, strings from army files reach the terminal as escapes, and a log is checked against
everything it records."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.game import army_from_mapping
from grimdice.systems.onepage.game.batch import GameJob, run_games

runner = CliRunner()
MARINES = Path("examples/armies/onepage-marines-army.yaml")
ORKS = Path("examples/armies/onepage-orks-army.yaml")


def orks(**change: Any) -> dict[str, Any]:
    data = yaml.safe_load(ORKS.read_text())
    data.update(copy.deepcopy(change))
    return data


def hundred() -> dict[str, Any]:
    """One unit of 100 models, the most ``size`` allows: it cannot stand within 12" of an edge."""
    data = orks()
    data["units"] = [dict(data["units"][4], size=100)]
    data.pop("points", None)
    return data


def test_an_army_that_cannot_deploy_is_refused_before_any_game(monkeypatch):
    """The deployment check runs in this process before workers are forked: no game is played."""
    played: list[int] = []
    monkeypatch.setattr(GameJob, "__call__", lambda self, seed: played.append(seed))
    marines = army_from_mapping(yaml.safe_load(MARINES.read_text()), "b")
    job = GameJob((army_from_mapping(hundred(), "a"), marines))
    with pytest.raises(ScenarioError) as err:
        run_games(job, 4, 0, workers=2)
    assert err.value.field == "deployment" and "does not fit" in err.value.message
    assert "impassable" not in err.value.message  # checked on an open table: the army's size is why
    assert played == []


def test_play_with_workers_refuses_an_army_that_cannot_deploy(tmp_path):
    """Two workers, several games: one line naming ``deployment``, exit status 2 (it hung before)."""
    big = tmp_path / "big.yaml"
    big.write_text(yaml.safe_dump(hundred()))
    res = runner.invoke(app, ["play", str(big), str(MARINES), "--games", "4", "--workers", "2"])
    assert res.exit_code == 2, res.output
    assert "deployment:" in res.output and "does not fit" in res.output
