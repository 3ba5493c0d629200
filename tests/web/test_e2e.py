"""End to end in a real headless Chromium (Debian's ``chromium``, driven by Playwright for Python).

The server is uvicorn on 127.0.0.1 on a free port, started and stopped here. Each test saves a
screenshot (``GRIMDICE_ARTIFACTS`` or pytest's tmp dir). Skipped, with the reason, where Playwright
or ``/usr/bin/chromium`` is missing (``.ci/run`` installs both).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
pytestmark = pytest.mark.slow  # drives a real browser

import httpx  # noqa: E402
import yaml  # noqa: E402
from playwright.sync_api import Page, expect  # noqa: E402

from grimdice.systems.base import SYSTEMS  # noqa: E402

from .conftest import EXAMPLES, WAIT, settled_url  # noqa: E402


def done(page: Page) -> None:
    expect(page.locator("#status")).to_contain_text("Done", timeout=WAIT)


def examples() -> list[dict]:
    found = [(p.stem, yaml.safe_load(p.read_text())) for p in sorted(EXAMPLES.glob("*.yaml"))]
    return [
        {"name": n, "system": d["system"], "title": d.get("title", n)}
        for n, d in found
        if isinstance(d, dict) and "system" in d
    ]


def test_each_system_builds_its_form_from_the_schema(page: Page, shots: Path) -> None:
    options = page.locator("#system option")
    expect(options).to_have_count(len(SYSTEMS))
    for name in SYSTEMS:
        page.select_option("#system", name)
        expect(page.locator("#source")).to_have_value(re.compile(f"^system: {name}$", re.M))
        assert page.locator("#fields [data-path]").count() > 3
        page.screenshot(path=shots / f"system-{name}.png", full_page=True)


def test_every_example_runs_in_one_click_and_draws_its_charts(page: Page, server: str, shots: Path) -> None:
    found = examples()
    assert found
    for ex in found:
        page.select_option("#example", ex["name"])
        expect(page.locator("#result-head")).to_contain_text(ex["title"], timeout=WAIT)
        done(page)
        expect(page.locator("#system")).to_have_value(ex["system"])
        assert page.locator("#bar-chart svg rect.bar").count() > 0
        expect(page.locator("#atleast-chart svg polyline")).to_have_count(1)
        expect(page.locator("#stage-table")).to_contain_text("damage")
        expect(page.locator("#stage-table")).to_contain_text("models destroyed")
        page.screenshot(path=shots / f"example-{ex['name']}.png")
        # the YAML view is the same scenario: read back by the server, it equals the file
        expect(page.locator("#source")).to_have_value(re.compile(f"^system: {ex['system']}$", re.M))
        text = page.locator("#source").input_value()
        parsed = httpx.post(server + "api/parse", json={"text": text}).json()["scenario"]
        assert parsed == yaml.safe_load((EXAMPLES / f"{ex['name']}.yaml").read_text())


def test_an_error_appears_next_to_the_field_it_names(page: Page, shots: Path) -> None:
    page.select_option("#example", "wh40k-intercessors-vs-boyz")
    done(page)
    ap = page.locator("[data-path='attacker.models.1.weapons.0.AP']")
    ap.fill("5")
    ap.press("Enter")  # the keyboard submits the form
    field = page.locator(".field", has=ap)
    expect(field.locator(".field-error")).to_contain_text("AP", timeout=WAIT)
    expect(ap).to_have_attribute("aria-invalid", "true")
    expect(ap).to_be_focused()
    page.screenshot(path=shots / "error-next-to-field.png", full_page=True)


def test_the_yaml_json_view_drives_the_form_and_a_hand_computed_result(page: Page, shots: Path) -> None:
    one_shot = {  # hits on 4+ (1/2), wounds on 4+ (1/2), Sv 6+ fails 5/6: P(1 damage) = 5/24 = 20.8%
        "system": "wh40k",
        "attacker": {"models": [{"weapons": [{"A": 1, "BS": 4, "S": 4, "AP": 0, "D": 1}]}]},
        "defender": {"models": [{"T": 4, "Sv": 6, "W": 1}]},
    }
    page.locator("summary", has_text="YAML / JSON").click()
    page.click("input[name=format][value=json]")
    page.fill("#source", json.dumps(one_shot))
    page.locator("#source").press("Control+Enter")
    done(page)
    expect(page.locator("[data-path='defender.models.0.Sv']")).to_have_value("6")
    row = page.locator("#stage-table tr", has_text="damage")
    expect(row.locator("td").nth(3)).to_have_text("20.8%")
    page.screenshot(path=shots / "yaml-json-view.png", full_page=True)


def test_a_shared_link_reproduces_the_result(page: Page, browser, shots: Path) -> None:
    page.check("input[name=method][value=simulate]")
    page.fill("#trials", "5000")
    page.fill("#seed", "42")
    page.select_option("#example", "killteam-blast-grenade")
    # the method and seed fields may have started a run of the page's default scenario: wait for
    # the example's own result, not for any "Done"
    title = yaml.safe_load((EXAMPLES / "killteam-blast-grenade.yaml").read_text())["title"]
    expect(page.locator("#result-head")).to_contain_text(title, timeout=WAIT)
    done(page)
    table = page.locator("#stage-table").inner_text()
    url = settled_url(page)
    assert "#z" in url or "#j" in url
    other = browser.new_context(viewport={"width": 1000, "height": 900}).new_page()
    other.goto(url)
    done(other)
    expect(other.locator("#result-head")).to_have_text(page.locator("#result-head").inner_text())
    assert "simulated: 5000 trials, seed 42" in other.locator("#result-head").inner_text()
    assert other.locator("#stage-table").inner_text() == table
    other.screenshot(path=shots / "shared-link.png", full_page=True)
    other.context.close()


def test_compare_draws_up_to_four_scenarios_on_one_chart(page: Page, shots: Path) -> None:
    for name in ("wh40k-guard-orders", "wh40k-intercessors-vs-boyz"):
        page.select_option("#example", name)
        done(page)
        page.click("#add-compare")
    expect(page.locator("#compare-chart svg polyline")).to_have_count(2)
    expect(page.locator("#compare-list li")).to_have_count(2)
    page.screenshot(path=shots / "compare.png", full_page=True)


def test_phone_width_has_no_sideways_scrolling(browser, server: str, shots: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    pg = context.new_page()
    pg.goto(server)
    expect(pg.locator("body")).to_have_attribute("data-ready", "true", timeout=WAIT)
    pg.click("#calculate")
    done(pg)
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    pg.screenshot(path=shots / "phone.png", full_page=True)
    context.close()


def test_the_api_docs_page_works_offline(page: Page, server: str, shots: Path) -> None:
    page.goto(server + "docs")
    expect(page.locator("#api h2").first).to_contain_text("/api/", timeout=WAIT)
    page.screenshot(path=shots / "api-docs.png")


@pytest.fixture(scope="module", autouse=True)
def _keep_screenshots(shots: Path) -> Iterator[None]:
    yield
    if os.environ.get("GRIMDICE_ARTIFACTS") is None and shutil.which("true"):
        print(f"\nscreenshots: {shots}")


def test_the_yaml_view_writes_awkward_values_back_unchanged(page: Page, server: str) -> None:
    odd = {
        "system": "wh40k",
        "title": "yes: no # not a comment",
        "attacker": {
            "name": "3+",
            "keywords": ["on", "null", "1", "", " padded ", "- dash", "a, b", "'q'", 'say "hi"', "ünï"],
            "models": [{"count": 2, "weapons": [{"A": "D6+1", "S": 4, "D": [2, 4], "x": {"k": [1, [2]]}}]}],
        },
        "defender": {"models": [{"T": 4.5, "Sv": -1, "W": True, "n": None, "e": {}, "l": []}]},
    }
    page.locator("summary", has_text="YAML / JSON").click()
    page.click("input[name=format][value=json]")
    page.fill("#source", json.dumps(odd))
    page.locator("#source").blur()
    expect(page.locator("[data-path='title']")).to_have_value(odd["title"])
    page.click("input[name=format][value=yaml]")
    expect(page.locator("#source")).to_have_value(re.compile("^system: wh40k$", re.M))
    text = page.locator("#source").input_value()
    assert httpx.post(server + "api/parse", json={"text": text}).json()["scenario"] == odd
