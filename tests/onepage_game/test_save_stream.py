"""``grimdice play --save``: each game's log is written as the game finishes (the batch keeps only
what the statistics read), with the same files as the former write-everything-at-the-end."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.systems.onepage.game.batch import GameJob, game_seeds, run_games, summarise
from grimdice.systems.onepage.game.setup import load_army_side, load_table

runner = CliRunner()
MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = "examples/armies/onepage-orks-army.yaml"
OPEN = "table: {width: 72, depth: 48, terrain: [{name: crater, rect: [30, 20, 6, 6], traits: [cover]}]}\n"
GAMES, SEED = 3, 4


def job(tmp_path: Path) -> GameJob:
    table = tmp_path / "table.yaml"
    table.write_text(OPEN)
    return GameJob((load_army_side(MARINES), load_army_side(ORKS)), load_table(table), ("random", "random"))


def former_files(j: GameJob) -> dict[str, str]:
    """What ``play --save`` wrote before streaming: every whole log of the batch kept in memory,
    then ``game-{i + 1:04d}.json`` with ``json.dumps`` of the log less its ``kills``."""
    whole = GameJob(j.armies, j.table, j.players, keep_log=True)
    logs = [whole(s) for s in game_seeds(SEED, GAMES)]
    return {
        f"game-{i + 1:04d}.json": json.dumps({k: v for k, v in g.items() if k != "kills"})
        for i, g in enumerate(logs)
    }


def files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_play_save_writes_the_former_files(tmp_path: Path) -> None:
    out, j = tmp_path / "logs", job(tmp_path)
    args = ["play", MARINES, ORKS, "--games", str(GAMES), "--seed", str(SEED), "--players", "random,random"]
    res = runner.invoke(app, [*args, "--table", str(tmp_path / "table.yaml"), "--save", str(out), "--json"])
    assert res.exit_code == 0, res.output
    assert files(out) == former_files(j)
    assert json.loads(res.output)["games"] == GAMES


def test_saving_keeps_only_brief_logs_whatever_the_workers_and_the_same_statistics(tmp_path: Path) -> None:
    j = job(tmp_path)
    plain = run_games(j, GAMES, SEED, workers=1)
    seen: list[tuple[int, int]] = []
    kept = run_games(
        j, GAMES, SEED, workers=2, save=tmp_path / "two", progress=lambda d, n: seen.append((d, n))
    )
    assert all("events" not in g and "actions" not in g and "setup" not in g for g in kept)
    assert kept == plain
    assert summarise(kept, ("a", "b")) == summarise(plain, ("a", "b"))
    assert seen == [(d, GAMES) for d in range(1, GAMES + 1)]
    assert files(tmp_path / "two") == former_files(j)


def test_a_save_folder_that_cannot_be_made_is_one_error_before_any_game(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    res = runner.invoke(app, ["play", MARINES, ORKS, "--games", "1", "--save", str(blocker / "logs")])
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2 and len(lines) == 1, res.output
    assert lines[0].startswith("error: --save: cannot write") and "Traceback" not in res.output
