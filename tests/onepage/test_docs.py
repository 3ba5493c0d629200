"""The docs' rule table is generated from RULES."""

from __future__ import annotations

from pathlib import Path

from grimdice.systems.onepage.rules import RULES

DOC = Path(__file__).resolve().parents[2] / "docs" / "onepage.md"


def test_every_rule_cites_the_guide() -> None:
    assert all("OP40k 2.21" in r.source for r in RULES)
    assert {r.name for r in RULES} >= {
        "Armored",
        "Deep Strike",
        "Fast",
        "Fear",
        "Fearless",
        "Flying",
        "Furious",
        "Hatred",
        "Indirect",
        "Limited",
        "Linked",
        "Piercing",
        "Poison",
        "Psyker",
        "Relentless",
        "Rending",
        "Scout",
        "Scope",
        "Strider",
        "Strikes First",
        "Strikes Last",
        "Tough",
        "Transport",
    }
