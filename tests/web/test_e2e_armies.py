"""Army lists in the browser: upload two rosters, calculate a pair, and the whole-army heat-map."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api", reason="playwright is not installed")

from playwright.sync_api import Page, expect

from grimdice.adapters.rosters import read_list, resolve_scenario
from grimdice.systems.base import calculate

from .conftest import WAIT

pytestmark = pytest.mark.slow  # drives a real browser

ROSTERS = Path(__file__).resolve().parents[1] / "rosters" / "fixtures"


def upload_both(page: Page) -> None:
    page.locator("summary", has_text="Army lists").click()
    page.set_input_files("#attacker-roster", str(ROSTERS / "marines.rosz"))
    expect(page.locator("#attacker-unit option")).not_to_have_count(0, timeout=WAIT)
    page.set_input_files("#defender-roster", str(ROSTERS / "orks.rosz"))
    expect(page.locator("#defender-unit option")).not_to_have_count(0, timeout=WAIT)


def test_a_pair_of_roster_units_is_calculated_with_damage_per_100_points(page: Page, shots: Path) -> None:
    expect(page.locator("#status")).to_contain_text("Done", timeout=WAIT)
    upload_both(page)
    page.select_option("#attacker-unit", "Intercessor Squad")
    page.select_option("#defender-unit", "Boyz")
    page.click("#army-pair")
    expect(page.locator("#army-status")).to_contain_text("per 100 points", timeout=WAIT)
    scenario = resolve_scenario(
        {
            "attacker": {"roster": str(ROSTERS / "marines.rosz"), "unit": "Intercessor Squad"},
            "defender": {"roster": str(ROSTERS / "orks.rosz"), "unit": "Boyz"},
        }
    )
    damage = calculate(scenario, workers=1)["damage"].mean()
    points = next(u.points for u in read_list(ROSTERS / "marines.rosz").units if u.ref == "Intercessor Squad")
    expect(page.locator("#army-status")).to_contain_text(f"{100 * damage / points:.2f} per 100 points")
    expect(page.locator("[data-path='attacker.name']")).to_have_value("Intercessor Squad")
    page.screenshot(path=shots / "army-pair.png")


def test_the_whole_army_matrix_is_a_heat_map(page: Page, shots: Path) -> None:
    upload_both(page)
    page.click("#army-matrix")
    expect(page.locator("#army-status")).to_contain_text("Matrix done", timeout=120_000)
    attackers = read_list(ROSTERS / "marines.rosz").units
    defenders = read_list(ROSTERS / "orks.rosz").units
    rows = page.locator("#matrix tbody tr")
    expect(rows).to_have_count(len(attackers))
    expect(rows.first.locator("td")).to_have_count(len(defenders))
    i = next(k for k, u in enumerate(attackers) if u.ref == "Intercessor Squad")
    j = next(k for k, u in enumerate(defenders) if u.ref == "Boyz")
    page.select_option("#matrix-metric", "damage")
    scenario = resolve_scenario(
        {
            "attacker": {"roster": str(ROSTERS / "marines.rosz"), "unit": "Intercessor Squad"},
            "defender": {"roster": str(ROSTERS / "orks.rosz"), "unit": "Boyz"},
        }
    )
    damage = calculate(scenario, workers=1)["damage"].mean()
    expect(rows.nth(i).locator("td").nth(j)).to_have_text(f"{damage:.2f}")
    page.locator("#armies").screenshot(path=shots / "army-matrix.png")
