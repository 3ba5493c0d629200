"""The page answers at a glance, compares loadouts and keeps a player's scenarios (headless Chromium).

Expected numbers are computed by hand here (one shot: hits on 4+, wounds on 4+, a 6+ save) or read
from the API's JSON for the same scenario, never copied from the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

import yaml
from playwright.sync_api import Page, expect

from .conftest import EXAMPLES, WAIT, open_page

pytestmark = pytest.mark.slow  # drives a real browser


def one_shot(bs: int = 4) -> dict:
    return {
        "system": "wh40k",
        "title": "One shot",
        "attacker": {"models": [{"weapons": [{"A": 1, "BS": bs, "S": 4, "AP": 0, "D": 1}]}]},
        "defender": {"models": [{"T": 4, "Sv": 6, "W": 1}]},
    }


def p_one_shot(bs: int) -> float:
    return (7 - bs) / 6 * (1 / 2) * (5 / 6)  # hit, wound (S4 v T4), failed 6+ save


def done(page: Page) -> None:
    expect(page.locator("#status")).to_contain_text("Done", timeout=WAIT)


def paste(page: Page, scenario: dict) -> None:
    page.locator("summary", has_text="YAML / JSON").click()
    page.fill("#source", json.dumps(scenario))
    page.locator("#source").press("Control+Enter")
    expect(page.locator("#result-head")).to_contain_text(scenario["title"], timeout=WAIT)
    done(page)


def pct(p: float) -> str:
    """A chance as the page writes it: one decimal from 10 % to 99.9 %, else two (100 % as 100.0%)."""
    text = f"{100 * p:.{1 if 0.1 <= p <= 0.999 else 2}f}"
    return ("100.0" if text == "100.00" else text) + "%"


def api(page: Page, scenario: dict) -> dict:
    return page.evaluate(
        "sc => fetch('/api/calculate', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({scenario: sc})}).then(r => r.json())",
        scenario,
    )


def test_the_headline_and_the_at_least_at_most_table(page: Page, shots: Path) -> None:
    paste(page, one_shot())
    p = p_one_shot(4)  # 5/24
    facts = page.locator("#headline .fact")
    expect(facts.filter(has_text="chance to slay all 1 models").locator(".fact-value")).to_have_text(pct(p))
    expect(facts.filter(has_text="models slain on average").locator(".fact-value")).to_have_text(f"{p:.2f}")
    page.select_option("#stage", "damage")
    page.locator("summary", has_text="as a table").click()
    rows = page.locator("#atleast-table tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0).locator("td")).to_have_text([pct(1 - p), pct(1), pct(1 - p)])
    expect(rows.nth(1).locator("td")).to_have_text([pct(p), pct(p), pct(1)])
    page.screenshot(path=shots / "headline.png")


def test_named_outcomes_collapsed_notes_and_readable_policies(page: Page, shots: Path) -> None:
    page.select_option("#example", "onepage-melee-heroes")
    done(page)
    scenario = yaml.safe_load((EXAMPLES / "onepage-melee-heroes.yaml").read_text())
    winner = api(page, scenario)["winner"]["pmf"]
    table = page.locator("#stage-table table", has_text="Named outcomes")
    for k, name in enumerate(["a draw", "the attacker", "the defender"]):
        expect(table.locator("tr", has_text=f"winner: {name}").locator("td")).to_have_text(pct(winner[k]))
    expect(page.locator("#stage-table table").first.locator("tr", has_text="winner")).to_have_count(0)
    notes = page.locator("#notes details.notes")
    expect(notes).not_to_have_attribute("open", "")
    expect(notes.locator("summary")).to_contain_text("notes on how rules were read")
    expect(notes.locator("li").first).to_be_hidden()
    page.select_option("#example", "killteam-fight-duel")
    done(page)
    page.locator("#extras-box summary").click()
    expect(page.locator("#extras")).to_contain_text("attacker strikes with a normal hit →")
    expect(page.locator("#headline")).to_contain_text("chance the attacker is destroyed")
    shots_unused = page.locator("fieldset.unset[data-path='shots']")  # a section not in use: its button only
    expect(shots_unused.locator("button", has_text="Add shot")).to_be_visible()
    expect(shots_unused.locator("legend")).to_be_hidden()
    page.select_option("#example", "crusade-melee")
    done(page)
    killed = api(page, yaml.safe_load((EXAMPLES / "crusade-melee.yaml").read_text()))["end_state"]["killed"]
    fact = page.locator("#headline .fact", has_text="chance to kill the target")
    expect(fact.locator(".fact-value")).to_have_text(pct(killed))
    expect(page.locator("#vary-field")).to_have_value(re.compile(r"\.(armor|hits|hits_left|[A-Z]\w*)$"))
    page.screenshot(path=shots / "policy.png", full_page=True)


def test_vary_a_field_compares_labelled_copies_with_differences(page: Page, shots: Path) -> None:
    paste(page, one_shot())
    page.select_option("#vary-field", "attacker.models.0.weapons.0.BS")
    page.fill("#vary-values", "3+, 5+")
    page.click("#vary")
    expect(page.locator("#compare-list li")).to_have_count(3, timeout=WAIT)
    page.select_option("#compare-stage", "damage")
    rows = page.locator("#compare-table tbody tr")
    for i, bs in enumerate((4, 3, 5)):
        cells = rows.nth(i).locator("td")
        expect(cells.nth(0)).to_have_text(f"{p_one_shot(bs):.3f}")
        diff = p_one_shot(bs) - p_one_shot(4)
        expect(cells.nth(1)).to_have_text("—" if i == 0 else f"{'+' if diff >= 0 else '−'}{abs(diff):.3f}")
        expect(cells.nth(3)).to_have_text(pct(p_one_shot(bs)))  # P(≥1)
    label = page.locator("#compare-list li").nth(1).locator("input")
    expect(label).to_have_value("BS = 3+")
    label.fill("Veteran gunner")
    label.press("Enter")
    expect(rows.nth(1).locator("th")).to_have_text("2. Veteran gunner")
    page.screenshot(path=shots / "compare-vary.png", full_page=True)


def test_scenarios_are_saved_in_the_browser_and_as_yaml_files(page: Page, tmp_path: Path) -> None:
    paste(page, one_shot(bs=2))
    page.locator("summary", has_text="My scenarios").click()
    page.fill("#save-name", "my sniper")
    page.click("#save")
    page.select_option("#example", "killteam-blast-grenade")
    done(page)
    page.select_option("#saved", "my sniper")
    page.click("#load-saved")
    expect(page.locator("[data-path='attacker.models.0.weapons.0.BS']")).to_have_value("2")
    with page.expect_download() as dl:
        page.click("#download")
    path = tmp_path / "down.yaml"
    dl.value.save_as(path)
    assert yaml.safe_load(path.read_text()) == one_shot(bs=2)
    other = {**one_shot(bs=5), "title": "Uploaded"}
    up = tmp_path / "up.yaml"
    up.write_text(yaml.safe_dump(other))
    page.set_input_files("#upload", str(up))
    expect(page.locator("[data-path='title']")).to_have_value("Uploaded")
    expect(page.locator("#stale")).to_be_visible()  # the result shown is of the earlier scenario
    page.click("#calculate")
    done(page)
    expect(page.locator("#stale")).to_be_hidden()


def test_on_a_phone_calculate_stays_in_reach(browser: Any, server: str, shots: Path) -> None:
    pg = open_page(browser, server, 390, 844, is_mobile=True)
    expect(pg.locator("#status")).to_contain_text("Done", timeout=WAIT)
    pg.locator("[data-path='title']").scroll_into_view_if_needed()
    box = pg.locator("#calculate").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    pg.click("#calculate")
    expect(pg.locator("#status")).to_contain_text("Done", timeout=WAIT)
    head = pg.locator("#results-h").bounding_box()
    assert head is not None and 0 <= head["y"] < 844  # the result came into view
    box = pg.locator("#calculate").bounding_box()
    assert (
        box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 844
    )  # and Calculate is still in reach
    assert pg.evaluate("document.documentElement.scrollWidth") <= 390
    pg.screenshot(path=shots / "phone-calculate.png")
    assert not pg.problems, pg.problems
    pg.context.close()


def test_on_a_phone_the_run_bar_leaves_the_page_end_in_view(browser: Any, server: str) -> None:
    """Scrolled to the end, the last section (the Crusade games) ends above the fixed run bar."""
    pg = open_page(browser, server, 390, 844, is_mobile=True)
    expect(pg.locator("#status")).to_contain_text("Done", timeout=WAIT)
    pg.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    last = pg.locator("#crusade").bounding_box()
    bar = pg.locator("fieldset.run").bounding_box()
    assert last is not None and bar is not None
    assert last["y"] + last["height"] <= bar["y"] + 1, (last, bar)
    pg.context.close()


@pytest.mark.parametrize("width", [1280, 390], ids=["desktop", "phone"])
def test_a_screenshot_of_each_game(browser: Any, server: str, shots: Path, width: int) -> None:
    pg = open_page(browser, server, width, 900)
    found = sorted({yaml.safe_load(p.read_text()).get("system") for p in EXAMPLES.glob("*.yaml")} - {None})
    for system in found:
        name = next(p.stem for p in sorted(EXAMPLES.glob(f"{system}-*.yaml")))
        pg.select_option("#example", name)
        title = yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())["title"]
        expect(pg.locator("#result-head")).to_contain_text(title, timeout=WAIT)
        expect(pg.locator("#status")).to_contain_text("Done", timeout=WAIT)
        pg.screenshot(path=shots / f"game-{system}-{width}.png")
    assert not pg.problems, pg.problems
    pg.context.close()


def test_rules_are_picked_from_the_system_rule_table(page: Page) -> None:
    from grimdice.systems.base import get_system

    rows = {r["rule"]: r for r in get_system("wh40k").RULES.rows()}
    done(page)
    field = page.locator(".field", has=page.locator("[data-path='attacker.models.0.weapons.0.abilities']"))
    pick = field.locator("select.rule-pick")
    option = pick.locator("option", has_text="Lethal Hits")
    expect(option).to_have_attribute("title", rows["Lethal Hits"]["effect"])
    pick.select_option("Lethal Hits")
    expect(field.locator("input")).to_have_value(re.compile(r"(^|, )Lethal Hits$"))
    page.locator("summary", has_text="YAML / JSON").click()
    expect(page.locator("#source")).to_have_value(re.compile(r"Lethal Hits"))
