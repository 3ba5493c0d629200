"""The page never shows or calculates a scenario other than the one on screen (headless Chromium).

Each test here reproduces a way the page's state could go wrong: a late answer to an older edit, a
run superseded by a newer one, a simulation's seed, the target a comparison is of, the skip link,
focus after Calculate, chart labels, and rolls typed as the books write them.
"""

from __future__ import annotations

import contextlib
import itertools
import math
import re
import threading
from typing import Any

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

import yaml
from playwright.sync_api import Page, Route, expect

from .conftest import EXAMPLES, WAIT, open_page, settled_url

pytestmark = pytest.mark.slow  # drives a real browser


def title(name: str) -> str:
    return yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())["title"]


def done(page: Page) -> None:
    expect(page.locator("#status")).to_contain_text("Done", timeout=WAIT)


class Held:
    """Holds the first request to ``pattern`` until released (a slow server, on demand)."""

    def __init__(self, page: Page, pattern: str) -> None:
        self.routes: list[Route] = []
        self.first = threading.Event()
        page.route(pattern, self._handle)

    def _handle(self, route: Route) -> None:
        if not self.first.is_set():
            self.first.set()
            self.routes.append(route)  # answered later, by release()
        else:
            route.continue_()

    def release(self) -> None:
        for r in self.routes:
            with contextlib.suppress(Exception):  # the page may have given up on it (aborted)
                r.continue_()


def test_an_example_picked_while_an_edit_is_being_read_stays_the_scenario(page: Page) -> None:
    done(page)
    held = Held(page, "**/api/parse")  # the edited text is read back late, after the example loaded
    page.locator("summary", has_text="YAML / JSON").click()
    edited = (
        "system: wh40k\ntitle: My edited scenario\n"
        "attacker: {models: [{weapons: [{A: 1, BS: 4, S: 4, D: 1}]}]}\n"
        "defender: {models: [{T: 4, Sv: 6, W: 1}]}\n"
    )
    page.fill("#source", edited)
    page.focus("#example")  # the text box loses focus: its text is sent to be read
    page.select_option("#example", "killteam-blast-grenade")
    expect(page.locator("#result-head")).to_contain_text(title("killteam-blast-grenade"), timeout=WAIT)
    held.release()
    page.wait_for_timeout(600)  # the late answer to the edit has arrived by now
    expect(page.locator("#system")).to_have_value("killteam")
    expect(page.locator("[data-path='title']")).to_have_value(title("killteam-blast-grenade"))
    page.click("#calculate")
    done(page)
    expect(page.locator("#result-head")).to_contain_text(title("killteam-blast-grenade"))


def test_a_new_run_supersedes_a_slow_one_and_cancel_stops_it(page: Page) -> None:
    done(page)
    held = Held(page, "**/api/calculate")
    page.select_option("#example", "wh40k-guard-orders")  # this run hangs
    expect(page.locator("#status")).to_contain_text(re.compile(r"Calculating… \d+\.\d s"))
    expect(page.locator("#cancel")).to_be_visible()
    expect(page.locator("#status")).to_contain_text(re.compile(r"[1-9]\.\d s|0\.[3-9] s"))  # the counter runs
    page.select_option("#example", "heresy-tactical-vs-auxilia")  # supersedes it and is calculated
    expect(page.locator("#result-head")).to_contain_text(title("heresy-tactical-vs-auxilia"), timeout=WAIT)
    done(page)
    expect(page.locator("#cancel")).to_be_hidden()
    held.release()
    page.wait_for_timeout(300)
    expect(page.locator("#result-head")).to_contain_text(title("heresy-tactical-vs-auxilia"))
    # an error of an earlier run does not outlive the next run
    page.fill("[data-path='attacker.models.0.count']", "0")
    page.click("#calculate")
    expect(page.locator(".field-error.inline")).to_have_count(1, timeout=WAIT)
    page.fill("[data-path='attacker.models.0.count']", "5")
    held2 = Held(page, "**/api/calculate")
    page.click("#calculate")
    expect(page.locator(".field-error.inline")).to_have_count(0)
    page.click("#cancel")
    expect(page.locator("#status")).to_have_text("Cancelled")
    expect(page.locator("#cancel")).to_be_hidden()
    held2.release()


def test_a_simulation_without_a_seed_names_it_and_its_link_reproduces_it(page: Page, browser: Any) -> None:
    done(page)
    page.check("input[name=method][value=simulate]")
    page.fill("#trials", "4000")
    page.click("#calculate")
    expect(page.locator("#result-head")).to_contain_text(re.compile(r"seed \d+"), timeout=WAIT)
    done(page)
    assert "null" not in page.locator("#result-head").inner_text()
    table = page.locator("#stage-table").inner_text()
    other = open_page(browser, settled_url(page))
    expect(other.locator("#status")).to_contain_text("Done", timeout=WAIT)
    expect(other.locator("#result-head")).to_have_text(page.locator("#result-head").inner_text())
    assert other.locator("#stage-table").inner_text() == table
    other.context.close()


def test_a_broken_link_says_so_and_loads_nothing(browser: Any, server: str) -> None:
    for fragment in ("#zthis-is-not-deflate", "#jbm90IGpzb24", "#jeyJzIjp7InN5c3RlbSI6ImNoZXNzIn19"):
        pg = open_page(browser, server + fragment)
        expect(pg.locator("#link-error")).to_be_visible()
        expect(pg.locator("#link-error")).to_contain_text("could not be read")
        expect(pg.locator("#result-body")).to_be_hidden()
        assert not pg.problems, pg.problems
        pg.context.close()


def test_add_to_comparison_takes_the_chosen_target(page: Page, browser: Any) -> None:
    page.select_option("#example", "killteam-blast-grenade")
    done(page)
    page.select_option("#target", "Guardsman B")
    page.click("#add-compare")
    page.select_option("#target", "")
    page.click("#add-compare")
    expect(page.locator("#compare-list li")).to_have_count(2)
    expect(page.locator("#compare-list li").first.locator("input")).to_have_value(re.compile("Guardsman B$"))
    page.select_option("#compare-stage", "damage")
    rows = page.locator("#compare-table tbody tr")
    means = [float(rows.nth(i).locator("td").first.inner_text()) for i in range(2)]
    data = page.evaluate("fetch('/api/examples').then(r => r.json())")
    scenario = next(e["scenario"] for e in data if e["name"] == "killteam-blast-grenade")
    result = page.evaluate(
        "sc => fetch('/api/calculate', {method: 'POST', headers: {'Content-Type': 'application/json'},"
        " body: JSON.stringify({scenario: sc})}).then(r => r.json())",
        scenario,
    )
    assert means[0] == pytest.approx(result["targets"]["Guardsman B"]["damage"]["mean"], abs=5e-4)
    assert means[1] == pytest.approx(result["damage"]["mean"], abs=5e-4)
    assert means[0] != pytest.approx(means[1], abs=5e-4)
    other = open_page(browser, settled_url(page))  # the link keeps each entry's target
    expect(other.locator("#compare-list li")).to_have_count(2, timeout=WAIT)
    other.select_option("#compare-stage", "damage")
    again = other.locator("#compare-table tbody tr")
    assert [float(again.nth(i).locator("td").first.inner_text()) for i in range(2)] == means
    other.context.close()


def test_max_is_the_highest_possible_count(page: Page) -> None:
    page.select_option("#example", "bench-120-bolters-vs-20-w3")
    done(page)
    row = page.locator("#stage-table tr", has_text="hits")
    expect(row.locator("td").nth(4)).to_have_text("120")  # 120 shots can all hit, however unlikely
    # the table of the hits: from the first count with P(at most N) >= 5e-5 to the last with
    # P(at least N) >= 5e-5; hits ~ Binomial(120, 2/3) (BS 3+)
    pmf = [math.comb(120, k) * (2 / 3) ** k * (1 / 3) ** (120 - k) for k in range(121)]
    cdf = list(itertools.accumulate(pmf))
    first = next(k for k in range(121) if cdf[k] >= 5e-5)
    last = next(k for k in range(1, 121) if 1 - cdf[k] < 5e-5)
    page.select_option("#stage", "hits")
    heads = page.locator("#atleast-table tbody th")
    expect(heads.first).to_have_text(str(first))
    expect(heads.last).to_have_text(str(last))


def test_keyboard_skip_link_and_focus_after_calculate(page: Page) -> None:
    done(page)
    page.keyboard.press("Tab")
    expect(page.locator(".skip")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#system")).to_be_focused()
    page.focus("#calculate")
    page.keyboard.press("Enter")
    done(page)
    expect(page.locator("#calculate")).to_be_focused()
    # the focus ring stands out at least 3:1 against the page
    ring = page.evaluate("getComputedStyle(document.activeElement).outlineColor")
    back = page.evaluate("getComputedStyle(document.body).backgroundColor")
    assert contrast(ring, back) >= 3, (ring, back)


def contrast(a: str, b: str) -> float:
    """The WCAG contrast ratio of two CSS ``rgb(...)`` colours (a transparent one counts as white)."""

    def lum(css: str) -> float:
        parts = [float(x) for x in re.findall(r"[\d.]+", css)]
        if len(parts) == 4 and parts[3] == 0:
            parts = [255, 255, 255]
        chans = [c / 255 for c in parts[:3]]
        lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in chans]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    hi, lo = sorted((lum(a), lum(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)


def test_chart_axis_titles_do_not_overlap_tick_labels(page: Page) -> None:
    done(page)
    for chart in ("#bar-chart", "#atleast-chart"):
        overlaps = page.evaluate(
            """sel => {
              const box = (e) => e.getBoundingClientRect();
              const hit = (a, b) =>
                a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
              const titles = [...document.querySelectorAll(sel + ' text.axis-title')].map(box);
              const ticks = [...document.querySelectorAll(sel + ' text.tick')].map(box);
              if (titles.length !== 2 || ticks.length <= 4) return -1;
              return titles.filter((t) => ticks.some((k) => hit(t, k))).length;
            }""",
            chart,
        )
        assert overlaps == 0, chart


def test_rolls_are_typed_as_the_books_write_them(page: Page) -> None:
    page.locator("summary", has_text="YAML / JSON").click()
    page.select_option("#example", "wh40k-intercessors-vs-boyz")
    done(page)
    page.fill("[data-path='attacker.models.0.weapons.0.BS']", "3+")
    page.fill("[data-path='attacker.models.0.weapons.0.AP']", "-1")
    page.fill("[data-path='defender.models.0.Sv']", "5+")
    page.click("#calculate")
    done(page)
    expect(page.locator(".field-error.inline")).to_have_count(0)
    expect(page.locator("#source")).to_have_value(re.compile(r"BS: 3\b"))
    # a characteristic (Horus Heresy's BS 1..10) is not a roll: "3+" there is refused, never read as 3
    page.select_option("#example", "heresy-tactical-vs-auxilia")
    done(page)
    bs = page.locator("[data-path='attacker.models.0.BS']")
    bs.fill("3+")
    page.click("#calculate")
    expect(page.locator(".field", has=bs).locator(".field-error")).to_be_visible(timeout=WAIT)
