"""The Rules Crusade table game from the page: a table game's replay frames against the states of
the game as it was played (positions, conditions, the steps' arrows, the buildings' damage named
by the log's events), and the table drawn in headless Chromium."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from grimdice.io.scenario import load_scenario

from .conftest import EXAMPLES, WAIT

SKIRMISH = "crusade-game-skirmish"
CLIMBS = ("ladder", "jump", "scrabble", "fall", "hang")


def played(data: dict[str, Any], players: Sequence[Any], seed: int) -> tuple[dict[str, Any], list[Any]]:
    """A game played on the game layer: its log (as saved) and every state it went through."""
    from grimdice.engine import playing
    from grimdice.systems.crusade.ai.players import PLAYERS
    from grimdice.systems.crusade.game.play import Recorder
    from grimdice.systems.crusade.game.scenario import build_setup
    from grimdice.systems.crusade.game.state import initial_state

    setup = build_setup(data)
    root = initial_state(setup)
    rec, states = Recorder(root), [root]

    def step(s: Any, a: Any, n: Any) -> None:
        rec.step(s, a, n)
        states.append(n)

    bots = [PLAYERS[p] if isinstance(p, str) else p for p in players]
    game = playing.play_game(root, bots, seed, on_step=step, keep_states=False)
    log = {**rec.log(setup, game.end), "seed": seed, "players": [str(p) for p in players]}
    return json.loads(json.dumps(log)), states


CLIMBS = {"ladder", "jump", "scrabble", "hang"}


def climbing_game() -> tuple[dict[str, Any], list[Any]]:
    """The first game of two climbers on :func:`climbing` (seeds 1 to 80) that climbs every way
    (a ladder, a jump, a scrabble, a hang): which seed does follows the rules' offers."""
    from tests.crusade_game.test_table_games import climber

    for seed in range(1, 81):
        log, states = played(climbing(), (climber, climber), seed)
        if {a[0] for a in log["actions"]} >= CLIMBS:
            return log, states
    raise AssertionError("no climbing game of seeds 1 to 80 climbs every way")


def climbing() -> dict[str, Any]:
    """A small table of towers, gaps, a rough block, ladders, stairs and a building
    (``tests/crusade_game``), the models at the ladders' feet."""
    from tests.crusade_game.table_helpers import put, table_scenario
    from tests.crusade_game.test_table import GANGER, RUNNER
    from tests.crusade_game.test_table_games import HEIGHTS

    data = table_scenario(HEIGHTS, [put("Ganger", 2, 2), put("Runner", 2, 5)],
                          [put("Runner", 13, 2), put("Ganger", 8, 2)], turns=6)  # fmt: skip
    data["profiles"] = [GANGER, RUNNER]
    return data


def replay_body(client: TestClient, log: dict[str, Any]) -> dict[str, Any]:
    r = client.post("/api/games/crusade/replay", json={"log": log})
    assert r.status_code == 200, r.text
    body: dict[str, Any] = r.json()
    assert body["matches_log"] is True and body["differs"] == []
    assert len(body["steps"]) == len(log["actions"])
    return body


def assert_frames_follow(body: dict[str, Any], states: list[Any], log: dict[str, Any]) -> None:
    """Every frame's models stand where the played game's state put them, in its condition; a
    step's arrow ends where the action steps to, and the model is there after it (unless an
    enemy's ZOC holds the step)."""
    from grimdice.systems.crusade.damage import CONDITIONS

    frames = [body["start"], *body["steps"]]
    assert len(frames) == len(states)
    for frame, s in zip(frames, states, strict=True):
        assert [m["at"] for m in frame["models"]] == [list(t.sq) for t in s.tokens]
        assert [m["state"] for m in frame["models"]] == [CONDITIONS[t.cond] for t in s.tokens]
        assert all(len(m["at"]) == 3 for m in frame["models"])  # a table position: x, y, height
    for k, (step, action) in enumerate(zip(body["steps"], log["actions"], strict=True)):
        if action[0] in ("move", *CLIMBS) and not step["chance"]:
            assert step["arrow"]["kind"] == "move" and step["arrow"]["to"] == action[1:]
            mover = states[k].active
            assert step["arrow"]["from"] == list(states[k].tokens[mover].sq)
            after = step["models"][mover]
            assert after["at"] == action[1:] or states[k + 1].zoc or states[k + 1].pending, (k, action)


def test_the_table_games_are_listed_with_the_grid_games(client: TestClient) -> None:
    listed = {g["file"]: g for g in client.get("/api/games/crusade").json()}
    assert {"crusade-game-corridor", SKIRMISH} <= set(listed)
    assert listed[SKIRMISH]["forces"] == ["Raiders", "Militia"]
    assert listed[SKIRMISH]["scenario"] == load_scenario(EXAMPLES / "games" / f"{SKIRMISH}.yaml")


@pytest.mark.slow  # plays a table game and replays it
def test_a_table_replay_s_frames_are_the_played_game_s_states(client: TestClient) -> None:
    data = load_scenario(EXAMPLES / "games" / f"{SKIRMISH}.yaml")
    log, states = played(data, ("ai", "ai"), 1)
    body = replay_body(client, log)
    assert_frames_follow(body, states, log)
    board = body["board"]
    assert board["type"] == "table" and (board["width"], board["height"]) == (24, 16)
    spec = data["board"]
    assert [p["name"] for p in board["pieces"]] == [p["name"] for p in spec["terrain"]]
    assert [p["shape"] for p in board["pieces"]] == [p["shape"] for p in spec["terrain"]]
    assert [p["height"] for p in board["pieces"]] == [3, 2, 1, 1, 1, 3]  # the barricades 1" (VI)
    assert [p["target"] for p in board["pieces"]] == [None, None, 0, 1, None, 2]  # barricades, catwalk
    (hab,) = board["buildings"]
    assert (hab["name"], hab["height"], hab["shape"]) == ("hab", 4, spec["buildings"][0]["shape"])
    assert [(s["index"], s["name"]) for s in hab["sectors"]] == [(0, "hab west"), (1, "hab east")]
    assert board["links"] == [
        {"kind": "ladder", "from": [9, 5, 0], "to": [10, 5, 4]},
        {"kind": "ladder", "from": [1, 13, 0], "to": [2, 13, 3]},
    ]
    assert board["zones"] == [
        {"name": "A", "cells": [0, 4, 2, 11], "side": 0},
        {"name": "B", "cells": [21, 4, 23, 11], "side": 1},
    ]
    assert body["start"]["models"][8]["at"] == [14, 8, 0]  # the militia placed inside the hab
    assert [s["text"] for s in body["steps"] if s["chance"] and "hits left" in s["text"]] == [
        e["text"] for e in log["events"]
    ]
    cut = client.post("/api/games/crusade/replay", json={"log": {**log, "actions": log["actions"][:-5]}})
    assert cut.status_code == 200 and cut.json()["matches_log"] is False  # said, and drawn as far as it goes
    forced = [k for k, a in enumerate(log["actions"]) if a[0] == "force" and not body["steps"][k]["chance"]]
    assert forced  # the raiders force their way into the hab: the marker shows once the roll is made
    for k in forced:
        sector = log["actions"][k][1]
        assert body["steps"][k]["arrow"]["kind"] == "melee"
        made = log["actions"][k + 1][:2] == ["force", 1]  # ["force", made] or ["force", made, failed weapon]
        marks = body["steps"][k + 1]["table"]["breaches"]
        before = body["steps"][k]["table"]["breaches"]
        assert len(marks) == len(before) + made
        if made:
            assert marks[-1] == {"at": body["steps"][k]["arrow"]["from"], "sector": sector}


def demolition() -> dict[str, Any]:
    """The bundled skirmish with a missile launcher for the raider boss: a game that brings the hab down."""
    data = load_scenario(EXAMPLES / "games" / f"{SKIRMISH}.yaml")
    launcher = {"name": "missile launcher", "dice": "2R+1", "kind": "ranged", "effects": ["K", "+P", "B"]}
    data["profiles"][1]["weapons"].append(launcher)
    return data


@pytest.mark.slow  # plays a table game and replays it
def test_a_building_shot_down_shows_its_hits_and_its_rubble(client: TestClient) -> None:
    log, states = played(demolition(), ("random", "random"), 67)
    body = replay_body(client, log)
    assert_frames_follow(body, states, log)
    index = {s["name"]: s["index"] for b in body["board"]["buildings"] for s in b["sectors"]}
    # the sector named by each logged shot or collateral: its hits left, or its collapse into rubble
    seen = 0
    for step in body["steps"]:
        text = step["text"]
        named = [n for n in index if text.startswith(f"{n} takes") or f"shoots {n} with" in text]
        if not step["chance"] or not named:
            continue
        seen += 1
        hits = dict(map(tuple, step["table"]["sector_hits"]))
        if text.endswith("it collapses"):
            assert hits[index[named[0]]] == 0
        else:
            assert hits[index[named[0]]] == int(text.rsplit(": ", 1)[1].split()[0])
    assert seen >= 3
    last = body["steps"][-1]["table"]
    assert last["ruins"] and all(dict(map(tuple, last["sector_hits"]))[k] == 0 for k in last["ruins"])
    first_ruin = next(k for k, s in enumerate(body["steps"]) if s["table"]["ruins"])
    sectors = [{k for k in s.setup.ruins if k >= 0} for s in states]  # not the barricades or catwalks
    assert sectors[first_ruin + 1] and not sectors[first_ruin]


@pytest.mark.slow  # plays a climbing game and replays it
def test_climbs_are_drawn_as_steps_to_where_they_land(client: TestClient) -> None:
    log, states = climbing_game()
    body = replay_body(client, log)
    assert_frames_follow(body, states, log)
    for k, (step, a) in enumerate(zip(body["steps"], log["actions"], strict=True)):
        if a[0] == "ladder":
            assert "climbs the ladder to" in step["text"]
        if a[0] in ("jump", "scrabble") and step["chance"]:  # the roll: the same arrow as the step tried
            tried = body["steps"][k - 1]
            assert step["arrow"] == tried["arrow"] and tried["arrow"]["to"] == log["actions"][k - 1][1:]
            landed = step["models"][states[k].active]["at"]
            assert (landed == tried["arrow"]["to"]) == (a[1] == 1)  # made: there; failed: not
    assert {lk["kind"] for lk in body["board"]["links"]} == {"ladder", "stairs"}


def test_a_table_log_without_its_version_names_it(client: TestClient) -> None:
    table_log = {"system": "crusade", "kind": "game", "scenario": {"board": {"type": "table"}}, "actions": []}
    r = client.post("/api/games/crusade/replay", json={"log": table_log})
    assert r.status_code == 422 and r.json()["field"] == "version"


@pytest.mark.slow  # plays a table game in a real browser
def test_a_table_game_is_played_and_watched_in_the_browser(browser: Any, server: str, shots: Path) -> None:
    from playwright.sync_api import expect

    from grimdice.engine.batch import game_seeds
    from grimdice.systems.crusade.game.play import play_game
    from grimdice.web.crusade_frames import frames as replayed

    from .conftest import board_shot, crusade_played

    data = load_scenario(EXAMPLES / "games" / f"{SKIRMISH}.yaml")
    # the page's first game: seed 0's first game seed, as grimdice play draws it
    frames = replayed(json.loads(json.dumps(play_game(data, ("ai", "ai"), game_seeds(0, 1)[0]))))
    for width, height, name in ((1280, 900, "desktop"), (390, 844, "phone")):
        page = crusade_played(browser, server, SKIRMISH, 1, width, height)
        page.click("#crusade-watch")
        expect(page.locator("#crusade-what")).to_contain_text("Round 0", timeout=WAIT)
        expect(page.locator("#crusade-status")).to_contain_text("it matches its log")
        board = page.locator("#crusade-board svg.table")
        expect(board.locator("polygon.piece")).to_have_count(len(data["board"]["terrain"]))
        expect(board.locator("polygon.piece.wall.rough")).to_have_count(1)
        expect(board.locator("polygon.sector")).to_have_count(2)
        expect(board.locator("line.link.ladder")).to_have_count(2)
        expect(board.locator("text.building-name")).to_have_text('hab: roof 4"')
        for k, piece in enumerate(data["board"]["terrain"]):  # each labelled with its height, named on hover
            height = 1 if piece["kind"] == "barricade" else piece["height"]
            assert board.locator("text.piece-name").nth(k).text_content().endswith(f'{height}"')
            title = board.locator("polygon.piece title").nth(k).text_content()
            assert title.startswith(f'{piece["name"]}: {piece["kind"]}, {height}"'), title
        models = sum(len(f["models"]) for f in data["forces"])
        expect(board.locator("circle.base")).to_have_count(models)
        heights = [board.locator("polygon.piece").nth(k).get_attribute("fill") for k in range(2)]
        assert heights[0] != heights[1]  # the 3" wall and the 2" crates: shaded apart
        page.click("#crusade-next")
        page.click("#crusade-next")
        page.click("#crusade-next")
        expect(page.locator("#crusade-what")).to_contain_text("Action 3 of")
        page.click("#crusade-back")
        expect(page.locator("#crusade-what")).to_contain_text("Action 2 of")
        page.click("#crusade-round-next")
        page.click("#crusade-round-next")
        expect(page.locator("#crusade-what")).to_contain_text("round 3")
        breach = next(k for k, s in enumerate(frames["steps"], 1) if s["table"]["breaches"])
        page.locator("#crusade-step").fill(str(breach))  # the first forced entry's marker (VI)
        expect(page.locator("#crusade-what")).to_contain_text(f"Action {breach} of")
        expect(board.locator("path.breach")).to_have_count(1)
        page.click("#crusade-back")
        expect(board.locator("path.breach")).to_have_count(0)
        while not board.locator("line.arrow").count():  # on to a step with its arrow
            page.click("#crusade-next")
        board_shot(page, "#crusade-board", shots / f"crusade-table-{name}.png")


@pytest.mark.slow  # plays two table games and opens their logs in a real browser
def test_table_logs_show_heights_ladders_stairs_and_rubble(
    browser: Any, server: str, shots: Path, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from .conftest import board_shot, open_page

    log, states = climbing_game()
    saved = tmp_path / "game-0001.json"
    saved.write_text(json.dumps(log))
    up = next(k for k, s in enumerate(states) if any(t.sq[2] > 0 and t.on_board for t in s.tokens))
    raised = sorted(f'{t.sq[2]}"' for t in states[up].tokens if t.sq[2] > 0 and t.on_board)
    page = open_page(browser, server)
    page.set_input_files("#crusade-log", str(saved))
    expect(page.locator("#crusade-status")).to_contain_text("it matches its log", timeout=WAIT)
    board = page.locator("#crusade-board svg.table")
    expect(board.locator("line.link.ladder")).to_have_count(3)
    expect(board.locator("line.link.stairs")).to_have_count(1)
    expect(board.locator("polygon.piece.block.rough")).to_have_count(1)
    expect(board.locator("text.height")).to_have_count(0)  # every model on the ground at the start
    page.locator("#crusade-step").fill(str(up))
    expect(page.locator("#crusade-what")).to_contain_text(f"Action {up} of")
    expect(board.locator("text.height")).to_have_count(len(raised))
    assert sorted(board.locator("text.height").all_text_contents()) == raised
    page.screenshot(path=shots / "crusade-table-heights.png", full_page=False)
    log, states = played(demolition(), ("random", "random"), 67)
    saved = tmp_path / "game-0002.json"  # another file: the input changes
    saved.write_text(json.dumps(log))
    down = next(k for k, s in enumerate(states) if any(r >= 0 for r in s.setup.ruins))
    page.set_input_files("#crusade-log", str(saved))
    expect(page.locator("#crusade-status")).to_contain_text(f"{len(log['actions'])} actions", timeout=WAIT)
    expect(board.locator("polygon.sector.rubble")).to_have_count(0)
    page.locator("#crusade-step").fill(str(down))
    expect(page.locator("#crusade-what")).to_contain_text(f"Action {down} of")
    expect(board.locator("polygon.sector.rubble")).to_have_count(
        len([r for r in states[down].setup.ruins if r >= 0])
    )
    page.locator("#crusade-step").fill(str(down - 1))
    expect(page.locator("#crusade-what")).to_contain_text(f"Action {down - 1} of")
    expect(board.locator("polygon.sector.rubble")).to_have_count(0)
    expect(board.locator("text.sector-hits")).not_to_have_count(0)  # the sectors' damage before the fall
    board_shot(page, "#crusade-board", shots / "crusade-table-rubble.png")


def test_a_roof_hatch_is_on_the_board_and_a_placed_infiltrator_s_frames_follow(client: TestClient) -> None:
    from tests.crusade_game.table_helpers import put, rect, table, table_scenario
    from tests.crusade_game.test_table import GANGER, RUNNER

    hab = {"name": "hab", "shape": rect(6, 1, 10, 6), "height": 3, "hatch": [8, 3]}
    scout = dict(GANGER, name="Scout", abilities=["INFILTRATE"])
    data = table_scenario(table(w=14, h=8, buildings=[hab]), [put("Scout", 1, 2), put("Ganger", 1, 5)],
                          [put("Runner", 13, 2)], turns=3)  # fmt: skip
    data["profiles"] = [GANGER, RUNNER, scout]
    log, states = played(data, ("random", "random"), 2)
    assert log["actions"][1][0] in ("place", "end")  # round 0: the scout names its start
    body = replay_body(client, log)
    assert_frames_follow(body, states, log)
    (building,) = body["board"]["buildings"]
    assert building["hatch"] == [8, 3]
