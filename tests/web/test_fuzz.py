"""Property-based fuzzing of the API from its own OpenAPI description: no request gets a 5xx.

Schemathesis builds Hypothesis strategies from ``/openapi.json`` (whose scenario schema is the
systems' own models, so many generated scenarios pass validation and reach the engines); a second
property mutates one value of a bundled example at a time. Bounded: a fixed number of examples,
a short time budget per calculation, one app and one worker pool for all of them.
"""

from __future__ import annotations

import copy

import pytest

schemathesis = pytest.importorskip("schemathesis", reason="schemathesis is not installed")

import yaml  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis.checks import not_a_server_error  # noqa: E402
from schemathesis.python import asgi  # noqa: E402

from grimdice.web.server import create_app  # noqa: E402

from .conftest import EXAMPLES  # noqa: E402

APP = create_app(jobs=1, budget=3.0, examples=EXAMPLES)
SCHEMA = schemathesis.openapi.from_asgi("/openapi.json", APP)
FUZZ = settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
SAMPLES = [yaml.safe_load(p.read_text()) for p in sorted(EXAMPLES.glob("*.yaml"))]


@pytest.fixture(scope="module")
def session():
    """One client (one app start-up, one pool of workers) for every generated case."""
    with asgi.get_client(APP) as client:
        yield client


@pytest.mark.parametrize(
    ("path", "method"),
    [
        ("/api/calculate", "POST"),
        ("/api/parse", "POST"),
        ("/api/systems", "GET"),
        ("/api/examples", "GET"),
        ("/api/rules", "GET"),
        ("/api/rosters", "POST"),
        ("/api/rosters/scenario", "POST"),
        ("/api/games/replay", "POST"),
    ],
)
def test_no_server_errors_from_the_openapi_schema(session, path: str, method: str) -> None:
    @FUZZ
    @given(case=SCHEMA[path][method].as_strategy())
    def check(case) -> None:
        response = case.call(session=session)
        case.validate_response(response, checks=[not_a_server_error])
        assert response.status_code < 500, response.text

    check()


def _paths(value, prefix=()):
    """Every (path, scalar) leaf of a scenario."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, (*prefix, i))
    else:
        yield prefix, value


ODD = st.one_of(
    st.integers(-1000, 1000),
    st.sampled_from([0, 1, 6, 7, 99, 10**9, -1, 2.5, "D6", "2D6+3", "3+", "x", "", None, True, [], {}]),
    st.text(max_size=12),
)


@settings(FUZZ, max_examples=25)
@given(data=st.data())
def test_one_odd_value_in_an_example_never_gives_a_server_error(session, data) -> None:
    scenario = copy.deepcopy(data.draw(st.sampled_from(SAMPLES)))
    path = data.draw(st.sampled_from([p for p, _ in _paths(scenario) if p and p[0] != "system"]))
    target = scenario
    for part in path[:-1]:
        target = target[part]
    target[path[-1]] = data.draw(ODD)
    simulate = data.draw(st.sampled_from([None, 2000]))
    response = session.post("/api/calculate", json={"scenario": scenario, "simulate": simulate, "seed": 1})
    assert response.status_code in (200, 422), response.text
    if response.status_code == 422:
        assert response.json()["error"]
