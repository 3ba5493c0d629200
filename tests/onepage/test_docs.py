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


def test_rule_to_code_table_names_real_code_for_every_rule() -> None:
    # docs/onepage.md's "Rule to code" table: every name resolves, every rule of RULES has a row
    import importlib
    import re

    text = DOC.read_text()
    table = text.split("<!-- code:begin -->")[1].split("<!-- code:end -->")[0]
    rows = [
        r for r in table.splitlines() if r.startswith("| ") and not r.startswith("| rule") and "---" not in r
    ]
    names = {r.split("|")[1].strip() for r in rows}
    assert {r.name for r in RULES} <= names
    for row in rows:
        for ref in re.findall(r"`([a-z_]+\.[A-Za-z_.]+)`", row.split("|")[2]):
            mod, *attrs = ref.split(".")
            obj = importlib.import_module(f"grimdice.systems.onepage.{mod}")
            for a in attrs:
                obj = getattr(obj, a)
        for test in row.split("|")[3].split(","):
            assert (DOC.parents[1] / "tests" / "onepage" / f"{test.strip()}.py").exists(), test
