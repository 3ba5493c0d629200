"""Games from the page: the play stream, the replay frames, and both in headless Chromium."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from grimdice.web.routes_games import bundled_armies

from .conftest import WAIT


def play_lines(client: TestClient, games: int, seed: int) -> list[dict[str, Any]]:
    body = {"armies": ["onepage-marines-army", "onepage-orks-army"], "games": games, "seed": seed}
    r = client.post("/api/games/play", json=body)
    assert r.status_code == 200, r.text
    return [json.loads(line) for line in r.text.splitlines()]


@pytest.mark.slow  # plays a game twice
def test_a_played_game_streams_its_progress_and_replays_into_frames(client: TestClient) -> None:
    from grimdice.systems.onepage.game.batch import GameJob, game_seeds
    from grimdice.systems.onepage.game.setup import army_from_mapping

    armies = {a["file"]: a for a in client.get("/api/games/armies").json()}
    assert set(armies) == set(bundled_armies()) >= {"onepage-marines-army", "onepage-orks-army"}
    lines = play_lines(client, 1, 5)
    assert lines[0]["done"] == 1 and lines[0]["of"] == 1
    summary, log = lines[-1]["summary"], lines[-1]["log"]
    sides = tuple(
        army_from_mapping(armies[k]["army"], k) for k in ("onepage-marines-army", "onepage-orks-army")
    )
    alone = GameJob(sides, None, ("ai", "ai"), keep_log=True)(game_seeds(5, 1)[0])  # the same game, directly
    assert log["events"] == alone["events"] and log["scores"] == alone["scores"] == lines[0]["scores"]
    won = [log["winner"] == 0, log["winner"] == -1, log["winner"] == 1]
    assert [summary["army_a"][k]["rate"] for k in ("win", "draw", "loss")] == [float(w) for w in won]
    frames = client.post("/api/games/replay", json={"log": log}).json()
    assert frames["matches_log"] is True
    last = frames["steps"][-1]["units"]
    assert [len(u["models"]) for u in last] == [0 if u["destroyed"] else u["models"] for u in log["units"]]
    moves = [
        s for s in frames["steps"] if s["event"].get("phase") == "play" and s["event"]["action"][0] == "walk"
    ]
    assert moves and all(s["arrow"]["to"] == pytest.approx(s["event"]["to"], abs=0.01) for s in moves)
    bent = [s for s in frames["steps"] if "via" in s["event"]]  # seed 5's game has a move in two legs
    assert bent and all(s["arrow"]["via"] == pytest.approx(s["event"]["via"], abs=0.01) for s in bent)
    assert all("via" not in s["arrow"] for s in moves if "via" not in s["event"])
    bad = client.post("/api/games/replay", json={"log": {**log, "version": 0}})
    assert bad.status_code == 422 and bad.json()["field"] == "version"
    refused = client.post("/api/games/play", json={"armies": ["nope", "onepage-orks-army"]})
    assert refused.status_code == 422 and refused.json()["field"] == "armies.0"
    nobody = {"armies": ["onepage-orks-army"] * 2, "players": ["ai", "nobody"]}
    assert client.post("/api/games/play", json=nobody).json()["field"] == "players.1"


@pytest.mark.slow  # plays a game in a real browser
def test_games_are_played_and_watched_in_the_browser(browser: Any, server: str, shots: Path) -> None:
    from playwright.sync_api import expect

    from .conftest import open_page

    page = open_page(browser, server)
    page.fill("#game-count", "1")
    page.click("#game-play")
    expect(page.locator("#game-status")).to_contain_text("1 games played", timeout=60_000)
    expect(page.locator("#game-summary table").first.locator("tbody tr")).to_have_count(3)
    page.click("#watch-first")
    expect(page.locator("#replay-what")).to_contain_text("Step 1 of", timeout=WAIT)
    assert page.locator("#board svg polygon").count() > 0
    page.click("#replay-next")  # step 1 chose the side; the first unit is placed at step 2
    expect(page.locator("#replay-what")).to_contain_text("Step 2 of")
    expect(page.locator("#replay-what")).to_contain_text(re.compile(r"army \d places|embarks|in reserve"))
    assert page.locator("#board svg circle.base").count() > 0
    for _ in range(11):
        page.click("#replay-next")
    expect(page.locator("#replay-what")).to_contain_text("Step 13 of")
    page.click("#replay-back")
    expect(page.locator("#replay-what")).to_contain_text("Step 12 of")
    page.click("#replay-round-next")
    expect(page.locator("#replay-what")).to_contain_text("round 2")
    page.locator("#games").screenshot(path=shots / "game-replay.png")
    assert not page.problems, page.problems
    page.context.close()
