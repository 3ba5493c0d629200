"""``grimdice check / play / replay`` on Rules Crusade game scenarios and logs, in-process: errors
as one line naming the field, the same games on any number of workers, statistics that agree with
the saved games, replays that catch a tampered log, one picture per round."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.engine.batch import wilson
from grimdice.systems.crusade.game import replay as replay_module
from tests.crusade_game.helpers import at, scenario

runner = CliRunner()
CORRIDOR = "examples/games/crusade-game-corridor.yaml"
SEWERS = "examples/games/crusade-game-sewers.yaml"
SKIRMISH = "examples/games/crusade-game-skirmish.yaml"
ARMY = "examples/armies/onepage-marines-army.yaml"
BOARD = "#######\n#A...B#\n#######"


def write(tmp_path: Path, data: dict[str, Any], name: str = "game.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return path


def one_line_error(res: Any, *words: str) -> None:
    assert res.exit_code == 2, res.output
    text = res.output.strip()
    assert len(text.splitlines()) == 1 and "Traceback" not in text, text
    for w in words:
        assert w in text, text


@pytest.mark.parametrize("path", [CORRIDOR, SEWERS, "examples/games/crusade-game-psykers.yaml", SKIRMISH])
def test_check_accepts_the_bundled_scenarios(path: str) -> None:
    res = runner.invoke(app, ["check", path])
    assert res.exit_code == 0, res.output
    assert res.output.strip().endswith("ok")
    assert ("psychic deck: 9 cards" in " ".join(res.output.split())) == ("psykers" in path)


def test_check_still_checks_one_page_armies() -> None:
    res = runner.invoke(app, ["check", ARMY])
    assert res.exit_code == 0 and "units" in res.output


def _unknown_effect(d: dict[str, Any]) -> None:
    d["profiles"][0]["weapons"][0]["effects"] = ["ZZ"]


def _in_wall(d: dict[str, Any]) -> None:
    d["forces"][0]["models"][0]["at"] = [0, 0]


def _walled_off(d: dict[str, Any]) -> None:
    d["board"]["map"] = "#######\n#A.#.B#\n#######"


def _huge_turns(d: dict[str, Any]) -> None:
    d["turns"] = 10**6


def _many_models(d: dict[str, Any]) -> None:
    d["forces"][1]["models"] = [{"profile": "Stealer"}] * 41


def _reinforcement_in_wall(d: dict[str, Any]) -> None:
    d["reinforcements"] = [{"force": 1, "points": [[5, 1], [0, 1]], "models": ["Stealer"]}]


def _crew_without_artillery(d: dict[str, Any]) -> None:
    d["forces"][0]["models"].append({"profile": "Marine", "at": [2, 1]})
    d["forces"][0]["models"][0]["crew"] = [1]


def _volley_with_blips(d: dict[str, Any]) -> None:
    d["options"] = {"volley_fire": True}
    d["forces"][1]["blips"] = [{"at": [4, 1], "models": ["Stealer"]}]


@pytest.mark.parametrize(
    ("spoil", "field"),
    [
        (_unknown_effect, "profiles.0.weapons.0.effects.0"),
        (_in_wall, "forces.0.models.0.at"),
        (_walled_off, "board.map"),
        (_huge_turns, "turns"),
        (_many_models, "forces.1.models"),
        (_reinforcement_in_wall, "reinforcements.0.points.1"),
        (_crew_without_artillery, "forces.0.models.0.crew"),
        (_volley_with_blips, "options.volley_fire"),
    ],
)
def test_check_and_play_refuse_a_bad_scenario_in_one_line(tmp_path: Path, spoil: Any, field: str) -> None:
    data = scenario(BOARD, [at("Marine", 1, 1)], [at("Stealer", 5, 1)])
    spoil(data)
    path = write(tmp_path, data)
    one_line_error(runner.invoke(app, ["check", str(path)]), field)
    one_line_error(runner.invoke(app, ["play", str(path), "--games", "2", "--workers", "1"]), field)


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--games", "0"], ("--games",)),
        (["--players", "ai,genius"], ("--players.1", "unknown player")),
        (["--players", "ai"], ("--players",)),
        (["--workers", "0"], ("--workers",)),
        (["--seed", "-1"], ("--seed",)),
        (["--players", "ai,greedy"], ("--players.1", "allowed: random, ai")),
        (["--table", "t.yaml"], ("--table", "in its scenario file")),
        (["--scheduler", "::::"], ("scheduler", "cannot reach a Dask scheduler")),
    ],
)
def test_play_options_are_checked_in_one_line(args: list[str], words: tuple[str, ...]) -> None:
    one_line_error(runner.invoke(app, ["play", CORRIDOR, *args]), *words)


def test_one_page_play_still_needs_two_armies() -> None:
    one_line_error(runner.invoke(app, ["play", ARMY]), "two army files")


def play_json(*args: str) -> dict[str, Any]:
    res = runner.invoke(app, ["play", *args, "--json"])
    assert res.exit_code == 0, res.output
    return json.loads(res.output)


def test_the_same_seed_gives_the_same_games_on_one_or_two_workers() -> None:
    args = ("--games", "4", "--seed", "11", "--players", "random,random")
    one = play_json(SEWERS, *args, "--workers", "1")
    two = play_json(SEWERS, *args, "--workers", "2")
    assert one == two
    others = [  # another seed plays other games (two: four games' summaries may still agree)
        play_json(SEWERS, "--games", "4", "--seed", str(seed), "--players", "random,random", "--workers", "1")
        for seed in (12, 13)
    ]
    assert any(o["models"] != one["models"] or o["force_a"] != one["force_a"] for o in others)


def test_statistics_agree_with_the_saved_games(tmp_path: Path) -> None:
    n = 6
    out = play_json(
        CORRIDOR, "--games", str(n), "--seed", "3", "--players", "random,ai", "--save", str(tmp_path)
    )
    logs = [json.loads((tmp_path / f"game-{i:04d}.json").read_text()) for i in range(1, n + 1)]
    assert len(list(tmp_path.glob("game-*.json"))) == n
    forces = out["forces"]
    wins = sum(g["winner"] == forces[0] for g in logs)
    losses = sum(g["winner"] == forces[1] for g in logs)
    a = out["force_a"]
    assert a["win"]["rate"] == wins / n and a["loss"]["rate"] == losses / n
    assert a["draw"]["rate"] == (n - wins - losses) / n
    assert (a["win"]["low"], a["win"]["high"]) == pytest.approx(wilson(wins, n))
    assert out["mean_rounds"] == sum(g["rounds"] for g in logs) / n
    # survival, from the survivors each log names (the Terminators have no blips)
    terminators = [m for m in out["models"] if m["force"] == forces[0]]
    assert len(terminators) == 3
    standing = sum(len(g["survivors"][forces[0]]) for g in logs)
    assert sum(m["survival"] for m in terminators) * n == pytest.approx(standing)
    # kills: the Terminators' kills are the genestealers out of action (only the Terminators harm
    # them); the genestealers' are at most the Terminators out of action (the heavy flamer may
    # catch a Terminator: friends are nobody's kill)
    for side in (0, 1):
        kills = sum(m["mean_kills"] for m in out["models"] if m["force"] == forces[side]) * n
        fallen = sum(m["state"] in ("ko", "killed") for g in logs for m in g["models"] if m["force"] != side)
        assert kills == pytest.approx(fallen) if side == 0 else kills <= fallen + 1e-9
    assert sum(m["mean_kills"] for m in out["models"]) > 0  # the games saw fighting


def test_text_output_shows_rates_intervals_and_models() -> None:
    res = runner.invoke(app, ["play", CORRIDOR, "--games", "2", "--players", "ai,random", "--workers", "1"])
    assert res.exit_code == 0, res.output
    assert "Terminators win:" in res.output and "95% CI" in res.output
    assert "forces.1.blips.0.models.0" in res.output


def test_names_from_the_file_are_shown_safely(tmp_path: Path) -> None:
    data = scenario(BOARD, [at("Marine", 1, 1)], [at("Stealer", 5, 1)])
    data["forces"][0]["name"] = "[bold]Evil\x1b[2J"
    data["title"] = "[red]T\x07"
    path = write(tmp_path, data)
    for args in (["check", str(path)], ["play", str(path), "--games", "1", "--workers", "1"]):
        res = runner.invoke(app, args)
        assert res.exit_code == 0, res.output
        assert "\x1b" not in res.output and "\x07" not in res.output
        assert "[bold]Evil\\x1b[2J" in res.output and "[red]T\\x07" in res.output


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    args = ["play", SEWERS, "--games", "1", "--seed", "5", "--players", "ai,random", "--workers", "1"]
    assert runner.invoke(app, [*args, "--save", str(tmp_path)]).exit_code == 0
    return tmp_path / "game-0001.json"


def test_a_saved_game_replays_and_matches(saved: Path) -> None:
    res = runner.invoke(app, ["replay", str(saved), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    log = json.loads(saved.read_text())
    assert out["matches_log"] is True and out["differs"] == []
    assert (out["winner"], out["rounds"]) == (log["winner"], log["rounds"])


def tampered(saved: Path, change: Any) -> Path:
    log = json.loads(saved.read_text())
    change(log)
    saved.write_text(json.dumps(log))
    return saved


def test_a_changed_result_is_caught(saved: Path) -> None:
    tampered(saved, lambda g: g.update(winner="Nobody", rounds=g["rounds"] + 1))
    res = runner.invoke(app, ["replay", str(saved), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.output)["differs"] == ["winner", "rounds"]


def test_a_changed_action_is_caught(saved: Path) -> None:
    log = json.loads(saved.read_text())
    k = next(i for i, a in enumerate(log["actions"]) if a[0] == "move")
    tampered(saved, lambda g: g["actions"].__setitem__(k, ["move", 0, 0]))  # a wall square
    res = runner.invoke(app, ["replay", str(saved)])
    assert res.exit_code == 1
    assert f'actions.{k}: ["move", 0, 0] is not legal there' in res.output


def test_a_log_cut_short_or_run_long_is_caught(saved: Path) -> None:
    log = json.loads(saved.read_text())
    short = copy.deepcopy(log)
    short["actions"] = short["actions"][:10]
    saved.write_text(json.dumps(short))
    res = runner.invoke(app, ["replay", str(saved)])
    assert res.exit_code == 1 and "the log ends after 10 actions" in res.output
    log["actions"].append(["end"])
    saved.write_text(json.dumps(log))
    res = runner.invoke(app, ["replay", str(saved)])
    assert res.exit_code == 1 and "1 actions after the game's end" in res.output


def test_a_broken_invariant_is_reported(saved: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(replay_module, "invariant_errors", lambda s: ["two models share a square"])
    res = runner.invoke(app, ["replay", str(saved), "--json"])
    assert res.exit_code == 1
    assert json.loads(res.output)["differs"][0] == "state 0: two models share a square"


def test_a_log_with_a_bad_scenario_is_one_line(saved: Path) -> None:
    tampered(saved, lambda g: g["scenario"]["forces"][0]["models"][0].update(at=[0, 0]))
    one_line_error(runner.invoke(app, ["replay", str(saved)]), "scenario.forces.0.models.0.at")


@pytest.mark.parametrize("version", [None, 1, 2, 3, 4, 5])
def test_a_log_of_another_version_is_refused(saved: Path, version: int | None) -> None:
    tampered(saved, lambda g: g.pop("version") if version is None else g.update(version=version))
    res = runner.invoke(app, ["replay", str(saved)])
    one_line_error(res, "version", f"version {version or 1}", "play the game again")


def test_replay_draws_one_png_per_round(saved: Path, tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    folder = tmp_path / "png"
    res = runner.invoke(app, ["replay", str(saved), "--png", str(folder), "--json"])
    assert res.exit_code == 0, res.output
    rounds = json.loads(saved.read_text())["rounds"]
    pngs = sorted(folder.glob("round-*.png"))
    assert sorted(p.name for p in pngs) == sorted(f"round-{r}.png" for r in range(1, rounds + 1))
    assert all(p.read_bytes()[:4] == b"\x89PNG" for p in pngs)
    one_line_error(runner.invoke(app, ["replay", str(saved), "--png", str(saved)]), "--png", "is a file")


def test_a_table_game_plays_replays_and_draws(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    args = ["play", SKIRMISH, "--games", "1", "--seed", "2", "--players", "ai,random", "--workers", "1"]
    assert runner.invoke(app, [*args, "--save", str(tmp_path)]).exit_code == 0
    saved, folder = tmp_path / "game-0001.json", tmp_path / "png"
    res = runner.invoke(app, ["replay", str(saved), "--png", str(folder), "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["matches_log"] is True
    rounds = json.loads(saved.read_text())["rounds"]
    assert len(list(folder.glob("round-*.png"))) == rounds
    data = yaml.safe_load(Path(SKIRMISH).read_text())
    data["board"]["terrain"][0]["shape"] = [[30, 1], [31, 1], [31, 2]]
    one_line_error(runner.invoke(app, ["check", str(write(tmp_path, data))]), "board.terrain.0.shape", "off")


@pytest.mark.slow  # starts a Dask cluster
def test_a_dask_cluster_plays_the_games_of_one_process() -> None:
    distributed = pytest.importorskip("distributed")
    from grimdice.io.scenario import load_scenario
    from grimdice.systems.crusade.game.batch import GameJob, run_games
    from grimdice.systems.crusade.game.scenario import build_setup

    job = GameJob(build_setup(load_scenario(SEWERS)), ("ai", "random"), keep_log=True)
    here = run_games(job, 3, 8, workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=False, dashboard_address=":0"
    ) as cluster:
        there = run_games(job, 3, 8, scheduler=cluster.scheduler_address)
    assert there == here
    assert len({json.dumps(g["actions"]) for g in here}) == 3  # three different games


def _flow(tmp_path: Path) -> Path:
    path = tmp_path / "game.yaml"
    path.write_text("system: crusade\nkind: game\nboard: {type: grid\n")
    return path


@pytest.mark.parametrize(
    ("make", "words"),
    [
        (lambda p: p / "missing.yaml", ("scenario", "no such file")),
        (lambda p: write(p, {}).parent / "empty.yaml", ("scenario", "not nothing")),
        (lambda p: (p / "list.yaml", (p / "list.yaml").write_text("- a\n- b\n"))[0], ("a list",)),
        (_flow, ("not valid YAML/JSON",)),
    ],
)
@pytest.mark.parametrize("command", ["check", "play", "replay"])
def test_a_file_that_does_not_read_gets_its_own_error(
    tmp_path: Path, make: Any, words: tuple[str, ...], command: str
) -> None:
    path = make(tmp_path)
    if path.name == "empty.yaml":
        path.write_text("")
    res = runner.invoke(app, [command, str(path)])
    one_line_error(res, *words)
    assert "ARMY_B" not in res.output and "kind: army" not in res.output


@pytest.mark.parametrize(
    ("change", "field", "got"),
    [
        (lambda d: d.pop("kind"), "kind", "got no kind"),
        (lambda d: d.update(kind="army"), "kind", "got 'army'"),
        (lambda d: d.pop("system"), "system", "got no system"),
        (lambda d: d.update(system="onepage"), "system", "got 'onepage'"),
    ],
)
@pytest.mark.parametrize("command", ["check", "play"])
def test_a_game_file_without_its_system_or_kind_says_what_each_file_has(
    tmp_path: Path, change: Any, field: str, got: str, command: str
) -> None:
    data = scenario(BOARD, [at("Marine", 1, 1)], [at("Stealer", 5, 1)])
    change(data)
    res = runner.invoke(app, [command, str(write(tmp_path, data))])
    one_line_error(res, f"{field}:", "'system: crusade' and 'kind: game'", "'kind: army'", got)


def test_a_file_with_neither_says_what_an_army_and_a_game_file_have(tmp_path: Path) -> None:
    path = write(tmp_path, {"title": "x"})
    one_line_error(runner.invoke(app, ["check", str(path)]), "kind:", "'kind: army'", "'kind: game'")


@pytest.mark.parametrize("system", ["crusade", "onepage"])
def test_save_refuses_a_folder_that_holds_game_logs(tmp_path: Path, system: str) -> None:
    old = tmp_path / "game-0007.json"
    old.write_text("{}")
    files = [CORRIDOR] if system == "crusade" else [ARMY, ARMY]
    res = runner.invoke(app, ["play", *files, "--games", "2", "--workers", "1", "--save", str(tmp_path)])
    one_line_error(res, "--save", str(tmp_path), "already holds game logs", "choose an empty or new folder")
    assert [p.name for p in tmp_path.iterdir()] == ["game-0007.json"]  # no game was played
    other = tmp_path / "other.txt"
    old.rename(other)  # a folder with other files is fine
    res = runner.invoke(app, ["play", CORRIDOR, "--games", "1", "--workers", "1", "--save", str(tmp_path)])
    assert res.exit_code == 0 and (tmp_path / "game-0001.json").exists()


def test_text_results_print_the_notes_and_the_title_on_its_own_line() -> None:
    res = runner.invoke(app, ["play", SEWERS, "--games", "1", "--players", "random,random", "--workers", "1"])
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    head = next(i for i, line in enumerate(lines) if line.startswith("Gangers vs Scavvies"))
    assert head >= 1 and lines[0].startswith("Sewer cache:") and "1 game (seed 0)" in lines[head]
    text = " ".join(res.output.split())
    assert "note: ours (victory): a force with no model standing loses" in text
    assert "readings of ours" in text


def test_a_table_game_lists_no_grid_reading_and_a_grid_game_does() -> None:
    table = play_json(SKIRMISH, "--games", "1", "--players", "random,random", "--workers", "1")["notes"]
    grid = play_json(SEWERS, "--games", "1", "--players", "random,random", "--workers", "1")["notes"]
    for key in ("grid_cover", "models_block_sight", "manhole", "door_cost", "grid_template"):
        assert any(n.startswith(f"reading {key}:") for n in grid)
        assert not any(n.startswith(f"reading {key}:") for n in table)
    assert any(n.startswith("reading table_sight:") for n in table)
    assert any(n.startswith("reading blip_reveal:") for n in table)  # a reading of both boards


def test_check_and_replay_wording(saved: Path, tmp_path: Path) -> None:
    res = runner.invoke(app, ["check", CORRIDOR])
    assert "Genestealers: 1 model, 3 blips (5 models)" in res.output, res.output
    assert "Terminators: 3 models, 0 blips\n" in res.output
    res = runner.invoke(app, ["replay", str(saved)])
    log = json.loads(saved.read_text())
    who = "a draw" if log["winner"] is None else f"won by {log['winner']}"
    assert f"{log['rounds']} rounds, {who};" in res.output
