"""docs/crusade-game.md lists exactly the readings every game's log carries."""

from __future__ import annotations

import re
from pathlib import Path

from grimdice.systems.crusade.game.play import READINGS, TABLE_READINGS


def test_readings_table_matches_the_logs():
    text = Path("docs/crusade-game.md").read_text()
    table = text.split("## Readings of ours")[1].split("\n## ")[0]
    documented = set(re.findall(r"^\| `([a-z_]+)` \|", table, flags=re.M))
    logged = {
        m.group(1)
        for r in (*READINGS, *TABLE_READINGS)
        if (m := re.match(r"(?:reading |ours \()([a-z_]+)", r))
    }
    assert documented == logged
