"""The form shows only what applies to the scenario's kind of attack (the schema's ``applies``),
and a calculation the page gives up on (cancelled or superseded) is stopped on the server."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from .conftest import EXAMPLES, WAIT, open_page, served


def test_every_applies_names_a_top_level_choice_and_its_values(client: TestClient) -> None:
    """``applies: {FIELD: [values]}`` names a top-level field with a set of values, and values of it."""
    seen = 0
    for system in client.get("/api/systems").json():
        schema = system["schema"]
        top = schema["properties"]
        for owner in [schema, *schema.get("$defs", {}).values()]:
            for name, prop in owner.get("properties", {}).items():
                for field, values in prop.get("applies", {}).items():
                    seen += 1
                    assert "enum" in top[field], (system["name"], name, field)
                    assert set(values) <= set(top[field]["enum"]), (system["name"], name, values)
    assert seen >= 15  # One Page's attack kinds, Kill Team's fights, Rules Crusade's melee and mind war


@pytest.fixture(scope="module")
def page(browser: Any, server: str) -> Iterator[Any]:
    pg = open_page(browser, server)
    yield pg
    pg.context.close()


def paste(page: Any, scenario: dict[str, Any]) -> None:
    from playwright.sync_api import expect

    if not page.locator("#source").is_visible():
        page.locator("summary", has_text="YAML / JSON").click()
    page.fill("#source", yaml.safe_dump(scenario))
    page.locator("#source").press("Control+Enter")
    expect(page.locator("#result-head")).to_contain_text(scenario["title"], timeout=WAIT)


def choose(page: Any, path: str, value: str) -> None:
    """Pick ``value`` in the select at ``path`` as a player does: focus it (the text box, left,
    is read back), then choose."""
    page.focus(f"[data-path='{path}']")
    page.select_option(f"[data-path='{path}']", value)


@pytest.mark.slow  # drives a real browser
def test_fields_of_another_kind_of_attack_are_hidden(page: Any, shots: Any) -> None:
    from playwright.sync_api import expect

    shooting = yaml.safe_load((EXAMPLES / "onepage-shooting.yaml").read_text())
    paste(page, shooting)
    path = lambda p: page.locator(f"[data-path='{p}']")  # noqa: E731
    melee_only = ("conditions.attacker_higher", "conditions.attacker_strikers", "conditions.defender_higher")
    psyker_only = ("conditions.psyker_levels", "conditions.power_dice", "conditions.power_need")
    for p in (*melee_only, *psyker_only, "conditions.dangerous_models"):
        expect(path(p)).to_have_count(0)
    expect(path("other_targets")).to_have_count(1)  # shooting: more targets
    expect(path("conditions.distance")).to_have_count(1)  # no `applies`: always shown
    choose(page, "attack", "melee")
    for p in melee_only:
        expect(path(p)).to_be_visible()
    for p in (*psyker_only, "other_targets"):
        expect(path(p)).to_have_count(0)
    expect(path("attack")).to_be_focused()  # the form re-drawn around the choice keeps focus on it
    page.screenshot(path=shots / "form-melee-fields.png", full_page=True)
    choose(page, "attack", "psyker")
    for p in psyker_only:
        expect(path(p)).to_be_visible()
    for p in melee_only:
        expect(path(p)).to_have_count(0)
    # a field holding a value where it does not apply stays in sight, saying so (nothing is lost)
    odd = {**shooting, "title": "Shooting from on high", "conditions": {"attacker_higher": True}}
    paste(page, odd)
    expect(path("conditions.attacker_higher")).to_be_checked()
    expect(page.locator(".field", has=path("conditions.attacker_higher"))).to_contain_text("does not apply")
    expect(path("conditions.defender_higher")).to_have_count(0)


@pytest.mark.slow  # drives a real browser
def test_a_kill_team_shot_hides_the_fight_weapons(page: Any) -> None:
    from playwright.sync_api import expect

    shot = next(
        yaml.safe_load(p.read_text())
        for p in sorted(EXAMPLES.glob("killteam-*.yaml"))
        if yaml.safe_load(p.read_text()).get("action", "shoot") == "shoot"
    )
    paste(page, shot)
    expect(page.locator("[data-path='weapon']")).to_have_count(0)
    expect(page.locator("[data-path='defender_weapon']")).to_have_count(0)
    choose(page, "action", "fight")
    expect(page.locator("[data-path='weapon']")).to_be_visible()
    expect(page.locator("[data-path='defender_weapon']")).to_be_visible()


@pytest.fixture(scope="module")
def watched(monkeypatch_module: pytest.MonkeyPatch) -> Iterator[tuple[str, list[float]]]:
    """A server whose calculation pool records each cancellation (when the server noticed that the
    page gave up on a request)."""
    from grimdice.web.pool import CalcPool
    from grimdice.web.server import create_app

    cancelled: list[float] = []
    real = CalcPool.cancel

    def spy(self: CalcPool, fut: Any) -> None:
        cancelled.append(time.monotonic())
        real(self, fut)

    monkeypatch_module.setattr(CalcPool, "cancel", spy)
    app = create_app(jobs=1, budget=60.0, examples=EXAMPLES, allowed_hosts=["127.0.0.1"])
    with served(app) as url:
        yield url, cancelled


@pytest.fixture(scope="module")
def monkeypatch_module() -> Iterator[pytest.MonkeyPatch]:
    with pytest.MonkeyPatch.context() as mp:
        yield mp


def wait_for(cancelled: list[float], n: int, seconds: float = 10.0) -> None:
    deadline = time.monotonic() + seconds
    while len(cancelled) < n and time.monotonic() < deadline:
        time.sleep(0.05)
    assert len(cancelled) >= n, f"the server cancelled {len(cancelled)} calculations, not {n}"


@pytest.mark.slow  # drives a real browser against long simulations
def test_a_cancelled_or_superseded_run_is_stopped_on_the_server(browser: Any, watched: Any) -> None:
    from playwright.sync_api import expect

    url, cancelled = watched
    pg = open_page(browser, url)
    failed: list[str] = []
    lock = threading.Lock()

    def on_failed(request: Any) -> None:
        if request.url.endswith("/api/calculate"):
            with lock:
                failed.append(request.failure or "")

    pg.on("requestfailed", on_failed)
    expect(pg.locator("#status")).to_contain_text("Done", timeout=WAIT)
    pg.check("input[name=method][value=simulate]")
    pg.fill("#trials", "10000000")  # far longer than the test waits for it
    before = len(cancelled)
    pg.click("#calculate")
    expect(pg.locator("#status")).to_contain_text("Calculating", timeout=WAIT)
    pg.wait_for_timeout(500)
    pg.click("#cancel")
    expect(pg.locator("#status")).to_have_text("Cancelled")
    wait_for(cancelled, before + 1)  # the page aborted its fetch: the server stopped the work
    pg.click("#calculate")  # another long run, superseded by an exact one
    expect(pg.locator("#status")).to_contain_text("Calculating", timeout=WAIT)
    pg.wait_for_timeout(500)
    pg.check("input[name=method][value=exact]")
    pg.click("#calculate")
    expect(pg.locator("#status")).to_contain_text("Done", timeout=WAIT)
    wait_for(cancelled, before + 2)
    assert len(failed) == 2 and all("ABORTED" in f.upper() for f in failed), failed
    pg.context.close()
