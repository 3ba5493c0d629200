"""Property-based hostile inputs for every registered system: each mutated example must end in a
one-line error naming a field or a valid result, within the harness's time bound, from the Python
API (exact and simulated) and from the command line.

``GRIMDICE_HOSTILE_EXAMPLES`` raises the number of generated cases per test (CI: a small bound);
``GRIMDICE_HOSTILE_RANDOM=1`` draws new cases each run (CI: the same cases every run).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, given, note, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.systems.base import SYSTEMS, calculate

from .harness import examples, judge
from .strategies import hostile_scenarios

N = int(os.environ.get("GRIMDICE_HOSTILE_EXAMPLES", "12"))
CI = settings(
    max_examples=N,
    deadline=None,
    derandomize=os.environ.get("GRIMDICE_HOSTILE_RANDOM") != "1",
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
EXAMPLES = examples()


def _bases(system: str) -> list[dict[str, Any]]:
    return [d for d in EXAMPLES.values() if d.get("system") == system]


def test_every_registered_system_has_an_example_to_mutate():
    assert set(SYSTEMS) <= {d["system"] for d in EXAMPLES.values()}


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@CI
@given(data=st.data())
def test_hostile_scenarios_exact(system, data):
    base = data.draw(st.sampled_from(_bases(system)))
    scenario, what = data.draw(hostile_scenarios(base))
    note(f"mutations: {what}")
    judge(lambda: calculate(scenario), scenario)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@settings(CI, max_examples=max(2, N // 3))
@given(data=st.data())
def test_hostile_scenarios_simulated(system, data):
    base = data.draw(st.sampled_from(_bases(system)))
    scenario, what = data.draw(hostile_scenarios(base))
    note(f"mutations: {what}")
    judge(lambda: calculate(scenario, simulate=2000, seed=7), scenario)


@pytest.mark.parametrize("system", sorted(SYSTEMS))
@settings(CI, max_examples=max(2, N // 3))
@given(data=st.data())
def test_hostile_scenario_files_on_the_command_line(system, data, tmp_path_factory):
    base = data.draw(st.sampled_from(_bases(system)))
    scenario, what = data.draw(hostile_scenarios(base))
    path = tmp_path_factory.mktemp("hostile") / "s.yaml"
    path.write_text(yaml.safe_dump(scenario, allow_unicode=False))
    res = CliRunner().invoke(app, ["calc", str(path), "--json"])
    assert res.exception is None or isinstance(res.exception, SystemExit), (what, res.exception)
    assert res.exit_code in (0, 2), (what, res.output[-500:])
    if res.exit_code == 2:
        lines = res.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), (what, res.stderr[:500])
        assert "\x1b" not in res.stderr
