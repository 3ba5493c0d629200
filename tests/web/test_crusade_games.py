"""The Rules Crusade grid game from the page: the play stream against the same games played
directly, the replay frames against the log, and both in headless Chromium (table games:
``test_crusade_table.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from grimdice.io.scenario import load_scenario

from .conftest import EXAMPLES, WAIT

CORRIDOR = "crusade-game-corridor"


def play_lines(client: TestClient, games: int, seed: int, scenario: Any = CORRIDOR) -> list[dict[str, Any]]:
    r = client.post("/api/games/crusade/play", json={"scenario": scenario, "games": games, "seed": seed})
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines()]


def test_the_bundled_game_scenarios_are_listed(client: TestClient) -> None:
    listed = {g["file"]: g for g in client.get("/api/games/crusade").json()}
    assert {CORRIDOR, "crusade-game-sewers"} <= set(listed)
    assert listed[CORRIDOR]["forces"] == ["Terminators", "Genestealers"]
    assert listed[CORRIDOR]["scenario"] == load_scenario(EXAMPLES / "games" / f"{CORRIDOR}.yaml")


@pytest.mark.slow  # plays six games twice
def test_a_batch_streams_its_progress_and_equals_the_same_batch_played_directly(client: TestClient) -> None:
    from grimdice.systems.crusade.game.batch import GameJob, run_games, summarise
    from grimdice.systems.crusade.game.scenario import build_setup

    lines = play_lines(client, 3, 11)
    assert [ln["done"] for ln in lines[:-1]] == [1, 2, 3] and all(ln["of"] == 3 for ln in lines[:-1])
    setup = build_setup(load_scenario(EXAMPLES / "games" / f"{CORRIDOR}.yaml"))
    direct = summarise(run_games(GameJob(setup), 3, 11), setup, 11)
    assert lines[-1]["summary"] == json.loads(json.dumps(direct))
    winners = [ln["winner"] for ln in lines[:-1]]
    assert lines[-1]["summary"]["force_a"]["win"]["rate"] == winners.count("Terminators") / 3
    assert lines[-1]["log"]["winner"] == winners[0]
    uploaded = play_lines(client, 1, 11, load_scenario(EXAMPLES / "games" / f"{CORRIDOR}.yaml"))
    assert uploaded[-1]["log"] == lines[-1]["log"]  # the same scenario as a mapping: the same first game


def test_bad_requests_name_their_field(client: TestClient) -> None:
    r = client.post("/api/games/crusade/play", json={"scenario": "nope"})
    assert r.status_code == 422 and r.json()["field"] == "scenario"
    sc = load_scenario(EXAMPLES / "games" / f"{CORRIDOR}.yaml")
    r = client.post("/api/games/crusade/play", json={"scenario": {**sc, "turns": 0}})
    assert r.status_code == 422 and r.json()["field"] == "scenario.turns"
    r = client.post("/api/games/crusade/play", json={"scenario": CORRIDOR, "players": ["ai", "nobody"]})
    assert r.status_code == 422 and r.json()["field"] == "players.1"
    r = client.post("/api/games/crusade/play", json={"scenario": CORRIDOR, "games": 201})
    assert r.status_code == 422
    r = client.post("/api/games/crusade/replay", json={"log": {"system": "onepage"}})
    assert r.status_code == 422 and r.json()["field"] == "log"


@pytest.mark.slow  # plays a game and replays it
def test_the_replay_frames_follow_the_log(client: TestClient) -> None:
    from grimdice.systems.crusade.game.play import play_game

    log = play_game(load_scenario(EXAMPLES / "games" / f"{CORRIDOR}.yaml"), ("ai", "ai"), 4)
    body = client.post("/api/games/crusade/replay", json={"log": log}).json()
    assert body["matches_log"] is True and body["differs"] == []
    assert len(body["steps"]) == len(log["actions"]) and body["winner"] == log["winner"]
    board = body["board"]
    assert (board["width"], board["height"]) == (24, 10) and board["squares"][0][0] == "wall"
    assert board["squares"][4][6] == "door" and board["squares"][5][6] == "duct"  # 'D' and '=' on the map
    assert [9, 1] not in board["dark"] and [11, 1] in board["dark"]  # '.' and ':' on the map's row 1
    # the attacks' dice are the log's events, in order
    assert [s["text"] for s in body["steps"] if s["chance"] and "hits left" in s["text"]] == [
        e["text"] for e in log["events"]
    ]
    for step, action in zip(body["steps"], log["actions"], strict=True):
        if action[0] == "move":  # a step's arrow ends on the square stepped to, one square away
            a = step["arrow"]
            assert a["kind"] == "move" and a["to"] == action[1:3]
            assert max(abs(a["to"][0] - a["from"][0]), abs(a["to"][1] - a["from"][1])) == 1
    last = body["steps"][-1]["models"]
    for m in log["models"]:  # each model's end state, found by its origin in the scenario
        if m["from"].startswith("forces.") and ".blips." not in m["from"]:
            side, k = int(m["from"].split(".")[1]), int(m["from"].split(".")[3])
            ours = [x for x in last if x["side"] == side and not x["blip"]]
            assert ours[k]["state"] == m["state"]
    sewers = play_game(load_scenario(EXAMPLES / "games" / "crusade-game-sewers.yaml"), ("ai", "ai"), 5)
    body = client.post("/api/games/crusade/replay", json={"log": sewers}).json()
    assert body["board"]["links"] == [[[1, 5], [18, 5]]]  # the scenario's manholes
    assert body["start"]["items"] == [[9, 5]]  # the cache on its square
    for step in body["steps"]:  # the cache lies on its square or goes with the model carrying it
        at = step["items"][0]
        assert at == [9, 5] or any(m["at"] == at and m["on_board"] for m in step["models"]), at
    picked = [i for i, a in enumerate(sewers["actions"]) if a[0] == "pickup"]
    assert picked  # this game's cache is picked up: then it goes where its carrier goes
    who = next(k for k, m in enumerate(body["steps"][picked[0]]["models"]) if m["active"])
    moved = next(k for k in range(picked[0] + 1, len(sewers["actions"])) if sewers["actions"][k][0] == "move")
    assert body["steps"][moved]["models"][who]["at"] == body["steps"][moved]["items"][0] != [9, 5]
    bad = client.post("/api/games/crusade/replay", json={"log": {**log, "actions": log["actions"][:-5]}})
    assert bad.status_code == 200 and bad.json()["matches_log"] is False


@pytest.mark.slow  # plays a game in a real browser
def test_a_crusade_game_is_played_and_watched_in_the_browser(browser: Any, server: str, shots: Path) -> None:
    from playwright.sync_api import expect

    from .conftest import board_shot, crusade_played

    for width, height, name in ((1280, 900, "desktop"), (390, 844, "phone")):
        page = crusade_played(browser, server, CORRIDOR, 2, width, height)
        expect(page.locator("#crusade-summary table").first.locator("tbody tr")).to_have_count(3)
        expect(page.locator("#crusade-summary table").nth(1).locator("tbody tr")).to_have_count(9)
        page.click("#crusade-watch")
        expect(page.locator("#crusade-what")).to_contain_text("Round 0", timeout=WAIT)
        board = page.locator("#crusade-board svg")
        assert board.locator("rect.sq.wall").count() > 0 and board.locator("rect.sq.door").count() > 0
        assert board.locator("circle.base").count() == 4 and board.locator("rect.blip").count() == 3
        page.click("#crusade-next")
        page.click("#crusade-next")
        expect(page.locator("#crusade-what")).to_contain_text("Action 2 of")
        expect(board.locator("line.arrow.move")).to_have_count(1)  # the first model's first step
        page.click("#crusade-back")
        expect(page.locator("#crusade-what")).to_contain_text("Action 1 of")
        page.click("#crusade-round-next")
        page.click("#crusade-round-next")
        expect(page.locator("#crusade-what")).to_contain_text("round 3")
        board_shot(page, "#crusade-board", shots / f"crusade-game-{name}.png")


@pytest.mark.slow  # plays a game and opens its log in a real browser
def test_a_crusade_log_opened_in_either_games_section_is_shown_on_the_grid(
    browser: Any, server: str, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    from grimdice.systems.crusade.game.play import play_game

    from .conftest import open_page

    log = play_game(load_scenario(EXAMPLES / "games" / "crusade-game-sewers.yaml"), ("ai", "random"), 2)
    saved = tmp_path / "game-0001.json"
    saved.write_text(json.dumps(log))
    page = open_page(browser, server)
    page.set_input_files("#game-log", str(saved))  # the One Page section's log input
    expect(page.locator("#crusade-status")).to_contain_text(f"{len(log['actions'])} actions", timeout=WAIT)
    expect(page.locator("#crusade-status")).to_contain_text("it matches its log")
    expect(page.locator("#crusade-board svg rect.sq")).to_have_count(
        len(log["scenario"]["board"]["map"].strip().splitlines()[0])
        * len(log["scenario"]["board"]["map"].strip().splitlines())
    )
    page.keyboard.press("Tab")
    page.focus("#crusade-board")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#crusade-what")).to_contain_text("Action 1 of")
    assert page.problems == []
    page.context.close()
