"""The battle rules on the page's Crusade replay (``/api/games/crusade/replay`` frames and the
page): sections covered until uncovered, reinforcement key points and arrivals, a volley's arrows
from every firer to every target, crews beside their gun; the bundled battle played and watched in
headless Chromium."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from grimdice.io.scenario import load_scenario
from tests.crusade_game.helpers import at, scenario
from tests.crusade_game.test_explore import ROOM, ROOMS

from .conftest import EXAMPLES, WAIT

BATTLE = "crusade-game-battle"


def _battle_log(seed: int) -> dict[str, Any]:
    from grimdice.systems.crusade.game.play import play_game

    return play_game(load_scenario(EXAMPLES / "games" / f"{BATTLE}.yaml"), ("ai", "ai"), seed)


def _volleying_log() -> dict[str, Any]:
    """The first AI-vs-AI battle (seeds 1 to 30) in which the orks volley: the frames' volley arrows
    need one, and which seed plays one follows the AI's choices."""
    for seed in range(1, 31):
        log = _battle_log(seed)
        if any(a[0] == "volley" for a in log["actions"]):
            return log
    raise AssertionError("no AI-vs-AI battle of seeds 1 to 30 volleys")


def test_the_battle_scenario_is_listed(client: TestClient) -> None:
    listed = {g["file"]: g for g in client.get("/api/games/crusade").json()}
    assert listed[BATTLE]["forces"] == ["Guard", "Orks"]


@pytest.mark.slow  # plays a game and replays it
def test_a_battles_frames_show_its_volleys_arrivals_key_points_and_crews(client: TestClient) -> None:
    log = _volleying_log()
    body = client.post("/api/games/crusade/replay", json={"log": log}).json()
    assert body["matches_log"] is True
    steps = body["steps"]
    volleys = [(k, a) for k, a in enumerate(log["actions"]) if a[0] == "volley"]
    assert volleys and [k for k, s in enumerate(steps) if s["arrows"]] == [k for k, _ in volleys]
    for k, a in volleys:  # an arrow from every firer to every target, each from where it stands
        before = steps[k - 1]["models"] if k else body["start"]["models"]
        n = a[2]
        firers = [next(i for i, m in enumerate(before) if m["active"]), *a[3 + n :]]
        want = sorted((before[f]["at"], before[t]["at"]) for f in firers for t in a[3 : 3 + n])
        assert sorted((x["from"], x["to"]) for x in steps[k]["arrows"]) == want
        assert "volleys at" in steps[k]["text"]
    # the key points: the scenario's, in its groups' order, the force's colour; all to come at first
    groups = log["scenario"]["reinforcements"]
    points = [(g["force"], list(p)) for g in groups for p in g["points"]]
    assert [(k["side"], k["at"]) for k in body["start"]["key_points"]] == points
    assert all(k["coming"] for k in body["start"]["key_points"])
    # each model that arrives is on a key point of its force, and not on the board before
    arrivals = [(k, i) for k, s in enumerate(steps) for i in s["arrived"]]
    came = [m for m in log["models"] if m["from"].startswith("reinforcements.") and m["state"] != "waiting"]
    assert len(arrivals) == len(came)
    for k, i in arrivals:
        m = steps[k]["models"][i]
        assert (m["side"], m["at"]) in points and "arrive" in steps[k]["text"]
        assert len(steps[k - 1]["models"]) <= i
    # the mortar's crew (models 1 and 2) beside it at the start: in its cover
    assert body["start"]["crews"] == [
        {"crew": 1, "gun": 0, "from": [1, 3], "to": [1, 4], "cover": True},
        {"crew": 2, "gun": 0, "from": [1, 5], "to": [1, 4], "cover": True},
    ]


@pytest.mark.slow  # plays a game and replays it
def test_a_covered_sections_models_appear_in_the_frames_only_once_it_is_uncovered(client: TestClient) -> None:
    from grimdice.systems.crusade.ai.players import ai_player
    from grimdice.systems.crusade.game.play import play_game

    hidden = [(9, 2), (10, 3)]
    data = scenario(
        ROOMS, [at("Marine", 1, 1)], [at("Stealer", *q) for q in [(3, 3), *hidden]],
        grid={"covered": [ROOM], "explorer": 0},
    )  # fmt: skip
    steps = [("move", *q) for q in ((2, 1), (3, 1), (4, 1), (5, 1))]
    plan = [("activate", 0), *steps, ("extra",), ("move", 5, 2), ("open", 6, 2), ("move", 4, 2)]

    def explorer(s: Any, rng: Any) -> Any:  # the marine looks into the room, then plays as the AI
        return plan.pop(0) if plan else ai_player(s, rng)

    log = play_game(data, (explorer, "random"), 1)
    body = client.post("/api/games/crusade/replay", json={"log": log}).json()
    room = sorted([x, y] for x in range(7, 12) for y in range(1, 4))
    frames = [body["start"], *body["steps"]]
    seen = next(k for k, f in enumerate(frames) if not f["covered"])
    for f in frames[:seen]:  # covered: drawn hatched, the stealers in it not on the board
        assert f["covered"] == room and len(f["models"]) == 2
    arrived = frames[seen]["arrived"]
    assert arrived == [2, 3]
    assert [frames[seen]["models"][k]["at"] for k in arrived] == [list(q) for q in hidden]
    assert all(not f["arrived"] for f in frames[seen + 1 :])


@pytest.mark.slow  # plays a game in a real browser
def test_a_battle_is_played_and_its_volley_and_arrival_watched_in_the_browser(
    browser: Any, server: str, tmp_path: Path, shots: Path
) -> None:
    from playwright.sync_api import expect

    from .conftest import board_shot, crusade_played

    page = crusade_played(browser, server, BATTLE, 1, 1280, 900)  # listed and playable
    expect(page.locator("#crusade-summary table").first.locator("tbody tr")).to_have_count(3)
    log = _volleying_log()
    saved = tmp_path / "game-0001.json"
    saved.write_text(json.dumps(log))
    page.set_input_files("#crusade-log", str(saved))
    expect(page.locator("#crusade-status")).to_contain_text("it matches its log", timeout=WAIT)
    board = page.locator("#crusade-board svg")
    expect(board.locator("path.key-point.coming")).to_have_count(6)
    expect(board.locator("line.crew.cover")).to_have_count(2)
    first = next(a for a in log["actions"] if a[0] == "volley")
    what = page.locator("#crusade-what")

    def volley() -> None:
        expect(board.locator("line.arrow.volley")).to_have_count(first[2] * (len(first) - 3 - first[2] + 1))
        board.screenshot(path=shots / "crusade-battle-volley.png")

    def arrival() -> None:
        assert board.locator("circle.arrived").count() >= 1
        board.screenshot(path=shots / "crusade-battle-arrival.png")

    # the first volley and the first arrival, stepped to in the order the game has them
    go = "(el, texts) => { for (let i = 0; i < 2000 && !texts.some((t) => el.textContent.includes(t)); i++) "
    go += "document.querySelector('#crusade-next').click(); }"
    checks = {"volleys at": volley, "arrive": arrival}
    while checks:
        what.evaluate(go, list(checks))
        text = what.text_content() or ""
        hit = next((t for t in checks if t in text), None)
        assert hit is not None, text
        checks.pop(hit)()
        if checks:
            page.locator("#crusade-next").click()
    board_shot(page, "#crusade-board", shots / "crusade-battle-stepped.png")  # no sideways scroll, no errors
