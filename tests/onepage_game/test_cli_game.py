"""``grimdice play`` and ``grimdice replay``: JSON output, saved logs, replays, PNGs, errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from grimdice.cli import app

runner = CliRunner()
MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = "examples/armies/onepage-orks-army.yaml"
OPEN = "table: {width: 72, depth: 48, terrain: [{name: crater, rect: [30, 20, 6, 6], traits: [cover]}]}\n"


def test_play_saves_logs_that_replay(tmp_path: Path) -> None:
    table = tmp_path / "table.yaml"
    table.write_text(OPEN)
    args = ["play", MARINES, ORKS, "--games", "2", "--seed", "4", "--players", "random,random"]
    res = runner.invoke(
        app, [*args, "--table", str(table), "--workers", "1", "--json", "--save", str(tmp_path)]
    )
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    a = out["army_a"]
    assert out["games"] == 2 and a["win"]["rate"] + a["draw"]["rate"] + a["loss"]["rate"] == pytest.approx(
        1.0
    )
    assert a["win"]["low"] <= a["win"]["rate"] <= a["win"]["high"]
    assert [u["unit"] for u in out["units"]][:2] == ["Tactical Marines", "Terminators"]
    log = tmp_path / "game-0001.json"
    res = runner.invoke(app, ["replay", str(log), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["matches_log"] is True
    assert json.loads(res.output)["violations"] == []  # every state checked against the table's rules
    data = json.loads(log.read_text())
    data["scores"] = [data["scores"][0] + 1, data["scores"][1]]
    log.write_text(json.dumps(data))
    assert runner.invoke(app, ["replay", str(log)]).exit_code == 1
    text = runner.invoke(app, [*args, "--table", str(table), "--workers", "1"])
    assert text.exit_code == 0 and "win:" in text.output and "95% CI" in text.output


def test_replay_draws_one_png_per_round(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    args = ["play", MARINES, ORKS, "--games", "1", "--players", "random,random", "--save", str(tmp_path)]
    assert runner.invoke(app, [*args, "--workers", "1"]).exit_code == 0
    res = runner.invoke(app, ["replay", str(tmp_path / "game-0001.json"), "--png", str(tmp_path / "png")])
    assert res.exit_code == 0, res.output
    pngs = sorted((tmp_path / "png").glob("round-*.png"))
    assert [p.name for p in pngs] == [f"round-{r}.png" for r in (1, 2, 3, 4)]
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)


def test_the_ai_beats_the_random_player() -> None:
    for first, second, who in ((MARINES, ORKS, "ai,random"), (ORKS, MARINES, "random,ai")):
        res = runner.invoke(
            app, ["play", first, second, "--games", "1", "--seed", "9", "--players", who, "--json"]
        )
        assert res.exit_code == 0, res.output
        out = json.loads(res.output)
        ai = 0 if who.startswith("ai") else 1
        assert out["mean_scores"][ai] > out["mean_scores"][1 - ai]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["play", MARINES, "nope.yaml"], "no such file"),
        (["play", MARINES, ORKS, "--games", "0"], "--games"),
        (["play", MARINES, ORKS, "--players", "ai,genius"], "unknown player"),
        (["play", MARINES, "examples/armies"], "directory"),
    ],
)
def test_play_errors_are_one_line(args: list[str], message: str) -> None:
    res = runner.invoke(app, args)
    assert res.exit_code == 2
    assert message in res.output and "Traceback" not in res.output
