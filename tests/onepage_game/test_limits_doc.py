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


def test_the_limits_harness_warms_outside_the_timed_region_and_divides_by_the_peer() -> None:
    """``timed_rows``: ``warm`` runs once before any probe; each probe runs once; the ratio is over
    the first probe (the peer); a refusal is an outcome, not an exception."""
    from grimdice.errors import ScenarioError

    spec = importlib.util.spec_from_file_location("limits_rows", ROOT / "benchmarks" / "limits.py")
    assert spec is not None and spec.loader is not None
    limits = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(limits)
    calls: list[str] = []

    def probe(name: str, refuse: bool = False):
        def run() -> None:
            calls.append(name)
            if refuse:
                raise ScenarioError("x", "no")

        return name, run

    rows = list(limits.timed_rows([probe("peer"), probe("big", True)], 5.0, lambda: calls.append("warm")))
    assert calls == ["warm", "peer", "big"]
    assert [r[0] for r in rows] == ["peer", "big"] and rows[0][3] == 1.0
    assert rows[1][1] == "refused: x: no" and rows[1][3] == rows[1][2] / rows[0][2]
