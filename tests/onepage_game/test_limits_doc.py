"""docs/limits.md has a row for every One Page game probe of ``benchmarks/limits.py`` (the
hostile-input harness of ``grimdice play``), so a new refusal cannot go undocumented."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_every_onepage_game_probe_has_a_row_in_the_limits_doc() -> None:
    spec = importlib.util.spec_from_file_location("limits_probes", ROOT / "benchmarks" / "limits.py")
    assert spec is not None and spec.loader is not None
    limits = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(limits)
    probes = [name for name, _ in limits.onepage_game_probes()]
    doc = (ROOT / "docs" / "limits.md").read_text()
    table = doc.split("<!-- game-limits:begin -->")[1].split("<!-- game-limits:end -->")[0]
    rows = re.findall(r"^\| ([^|]+?) \|", table, flags=re.M)[1:]  # below the header
    assert len(probes) > 10
    assert [p for p in probes if p not in rows] == []
    assert rows[0] == probes[0] == "one random game, bundled armies (peer)"
