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


@pytest.fixture(scope="module")
def genuine() -> dict[str, Any]:
    """One game's log as ``play --save`` writes it."""
    import json

    from grimdice.systems.onepage.game.batch import saved_text

    armies = (army_from_mapping(orks(), "a"), army_from_mapping(yaml.safe_load(MARINES.read_text()), "b"))
    (log,) = run_games(GameJob(armies, players=("random", "random"), keep_log=True), 1, 3, workers=1)
    return json.loads(saved_text(log))


def replayed(tmp_path: Path, log: dict[str, Any], *args: str) -> Any:
    import json

    path = tmp_path / "game.json"
    path.write_text(json.dumps(log))
    return runner.invoke(app, ["replay", str(path), *args])


def test_a_genuine_log_replays_and_matches(tmp_path, genuine):
    res = replayed(tmp_path, genuine)
    assert res.exit_code == 0 and "replay matches log: True" in res.output


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"actions": []}, "actions"),  # stops before deployment (an IndexError before)
        ({"players": ["ai", "chess"]}, "players.1"),
    ],
)
def test_a_log_the_replay_cannot_follow_is_one_error(tmp_path, genuine, change, field):
    res = replayed(tmp_path, {**genuine, **change})
    assert res.exit_code == 2, res.output
    assert res.output.strip().startswith(f"error: {field}:") and "Traceback" not in res.output


def test_a_log_stopping_mid_game_is_refused(tmp_path, genuine):
    res = replayed(tmp_path, {**genuine, "actions": genuine["actions"][: len(genuine["actions"]) // 2]})
    assert res.exit_code == 2 and "before the game ends" in res.output


@pytest.mark.parametrize(
    ("change", "differs"),
    [
        (lambda g: {"winner": 1 - g["winner"] if g["winner"] >= 0 else 0}, "winner"),  # contradicts scores
        (lambda g: {"units": []}, "units"),
        (lambda g: {"seed": g["seed"] + 1, "kills": [1]}, "kills"),  # a field a log does not have
    ],
)
def test_every_recorded_field_must_match_the_replay(tmp_path, genuine, change, differs):
    res = replayed(tmp_path, {**genuine, **change(genuine)})
    assert res.exit_code == 1, res.output
    assert "replay matches log: False" in res.output and differs in res.output.split("differs:")[1]


def test_replay_png_at_an_existing_file_is_one_error(tmp_path, genuine):
    target = tmp_path / "taken.png"
    target.write_text("not a folder")
    res = replayed(tmp_path, genuine, "--png", str(target))
    assert res.exit_code == 2 and res.output.strip().startswith("error: --png:"), res.output


HOSTILE_NAME = "\x1b]0;owned\x07\x1b[2J[red]Boyz[/red]"


def test_play_shows_names_from_files_as_escapes(tmp_path):
    """A title-setting and screen-clearing escape sequence and Rich markup in army and unit names
    reach the terminal as visible text."""
    data = orks(name=HOSTILE_NAME)
    data["units"][4]["name"] = HOSTILE_NAME
    path = tmp_path / "army.yaml"
    path.write_text(yaml.safe_dump(data))
    res = runner.invoke(
        app, ["play", str(path), str(MARINES), "--games", "1", "--workers", "1", "--players", "random,random"]
    )
    assert res.exit_code == 0, res.output
    assert "\x1b" not in res.output and "\x07" not in res.output
    assert "\\x1b]0;owned\\x07\\x1b[2J[red]Boyz[/red]" in res.output.replace("\n", "")


def test_check_shows_names_from_files_as_escapes(tmp_path):
    data = orks()
    data["units"][4]["name"] = HOSTILE_NAME
    path = tmp_path / "army.yaml"
    path.write_text(yaml.safe_dump(data))
    res = runner.invoke(app, ["check", str(path)])
    assert "\x1b" not in res.output and "\\x1b]0;owned" in res.output


@pytest.mark.parametrize("units", [True, 3, "Boyz", {"name": "Boyz"}])
def test_an_army_whose_units_are_not_a_list_is_one_error(units):
    with pytest.raises(ScenarioError) as err:
        army_from_mapping(orks(units=units), "army")
    assert err.value.field.startswith("army.units")
