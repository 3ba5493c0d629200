"""Property-based hostile inputs for the surfaces besides scenarios: army files and tables
(``play``), game logs (``replay``), roster files and the web API's bodies. Each case ends in one
clear error or a valid answer, within the harness's time bound; a few cases per surface in CI (the
same every run), more with ``GRIMDICE_HOSTILE_EXAMPLES`` and ``GRIMDICE_HOSTILE_RANDOM=1`` (see
test_properties)."""

from __future__ import annotations

import json
import tracemalloc
import warnings
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import given, note, settings
from hypothesis import strategies as st

from grimdice.errors import GrimdiceError

from .harness import EXAMPLES, check_error, time_limit
from .strategies import HOSTILE_TEXT, HOSTILE_VALUES, hostile_scenarios, values
from .test_properties import CI, N

ARMIES = [yaml.safe_load(p.read_text()) for p in sorted((EXAMPLES / "armies").glob("*.yaml"))]
ROSTERS = Path(__file__).resolve().parents[1] / "rosters" / "fixtures"
CASE_SECONDS = 30.0
PARSE_PEAK_BYTES = 64 * 2**20  # the file reader's budgets keep one parse well below this


def one_error_or(run: Any) -> Any:
    """``run()`` within the time bound: its answer, or ``None`` after checking its one-line error."""
    with time_limit(CASE_SECONDS):
        try:
            return run()
        except GrimdiceError as exc:
            check_error(exc)
            return None


@settings(CI, max_examples=max(2, N // 2))
@given(data=st.data())
def test_hostile_army_files_refuse_or_play(data):
    """A mutated army: refused with one line naming its field, or one game is played to its end."""
    from grimdice.systems.onepage.game import army_from_mapping
    from grimdice.systems.onepage.game.batch import GameJob, run_games

    army, what = data.draw(hostile_scenarios(data.draw(st.sampled_from(ARMIES))))
    note(f"mutations: {what}")

    def game() -> Any:
        a = army_from_mapping(army, "army")
        b = army_from_mapping(ARMIES[0], "opponent")
        return run_games(GameJob((a, b), players=("random", "random")), 1, 5, workers=1)

    logs = one_error_or(game)
    if logs is not None:
        (log,) = logs
        assert log["winner"] in (-1, 0, 1) and len(log["scores"]) == 2


TABLE = {
    "width": 72,
    "depth": 48,
    "terrain": [
        {"name": "ruin", "rect": [30, 20, 6, 4], "traits": ["cover"], "height": 3},
        {"name": "wood", "circle": [50, 30, 3], "traits": ["difficult", "cover"]},
    ],
}


@settings(CI, max_examples=max(2, N // 2))
@given(data=st.data())
def test_hostile_tables_refuse_or_play(data, tmp_path_factory):
    """A mutated ``--table`` file: refused naming its field, or one game played on it."""
    from grimdice.systems.onepage.game import army_from_mapping
    from grimdice.systems.onepage.game.batch import GameJob, run_games
    from grimdice.systems.onepage.game.setup import load_table

    table, what = data.draw(hostile_scenarios({"table": TABLE}))
    note(f"mutations: {what}")
    path = tmp_path_factory.mktemp("table") / "table.yaml"
    path.write_text(yaml.safe_dump(table, allow_unicode=False))

    def game() -> Any:
        armies = (army_from_mapping(ARMIES[0], "a"), army_from_mapping(ARMIES[1], "b"))
        return run_games(GameJob(armies, load_table(path), ("random", "random")), 1, 4, workers=1)

    logs = one_error_or(game)
    if logs is not None:
        assert logs[0]["winner"] in (-1, 0, 1)


@pytest.fixture(scope="module")
def game_log() -> dict[str, Any]:
    from grimdice.systems.onepage.game import army_from_mapping
    from grimdice.systems.onepage.game.batch import GameJob, run_games, saved_text

    armies = (army_from_mapping(ARMIES[0], "a"), army_from_mapping(ARMIES[1], "b"))
    (log,) = run_games(GameJob(armies, players=("random", "random"), keep_log=True), 1, 2, workers=1)
    return json.loads(saved_text(log))


@settings(CI, max_examples=max(2, N // 2))
@given(data=st.data())
def test_hostile_game_logs_refuse_or_replay(game_log, data):
    """A mutated log: one error naming the field, or a replay whose differing fields are named
    (a log changed anywhere but in what the replay does not read must differ)."""
    from grimdice.systems.onepage.game.play import differences, replay

    log, what = data.draw(hostile_scenarios(game_log))
    note(f"mutations: {what}")
    again = one_error_or(lambda: replay(log))
    if again is not None:
        differs = differences(log, again)
        changed = sorted(k for k in set(log) | set(game_log) if log.get(k, ...) != game_log.get(k, ...))
        # the seed is recorded, not replayed (no dice are rolled), and the setup is what is replayed:
        # a change anywhere else is named
        assert set(changed) - {"seed", "setup"} <= set(differs), (what, changed, differs)


@settings(CI, max_examples=max(2, N // 2))
@given(data=st.data())
def test_hostile_army_forge_lists_refuse_or_read(data, tmp_path_factory):
    from grimdice.adapters.rosters import read_list

    base = json.loads((ROSTERS / "armyforge-orks.json").read_text(encoding="utf-8"))
    roster, what = data.draw(hostile_scenarios(base))
    note(f"mutations: {what}")
    path = tmp_path_factory.mktemp("roster") / "list.json"
    path.write_text(json.dumps(roster, allow_nan=True), encoding="utf-8")
    read = one_error_or(lambda: read_list(path))
    if read is not None:
        assert len(read.units) <= 1000


# ---------------------------------------------------------------------------------- the web API
bodies = st.fixed_dictionaries(
    {},
    optional={
        "scenario": st.one_of(values, st.sampled_from([{"system": "wh40k"}, {"system": "onepage"}])),
        "simulate": st.one_of(st.sampled_from(HOSTILE_VALUES), st.integers(-5, 10**8)),
        "seed": st.one_of(st.sampled_from(HOSTILE_VALUES), st.integers(-5, 2**64)),
        "extra": values,
    },
)


@pytest.fixture(scope="module")
def api() -> Any:
    pytest.importorskip("fastapi")
    warnings.filterwarnings("ignore", message="Using `httpx` with `starlette.testclient` is deprecated")
    from fastapi.testclient import TestClient

    from grimdice.web.server import create_app

    with TestClient(create_app(jobs=1, budget=20.0)) as client:
        yield client


def api_answer(r: Any) -> None:
    """Never a server error; every refusal in the API's one shape."""
    assert r.status_code in (200, 413, 422, 503), r.text[:300]
    if r.status_code != 200:
        body = r.json()
        assert set(body) == {"error", "field", "message"}, body
        assert "\n" not in body["error"] and len(body["error"]) <= 1200


@settings(CI, max_examples=max(4, N))
@given(body=st.one_of(bodies, values))
def test_hostile_calculate_bodies(api, body):
    content = json.dumps(body, allow_nan=True).encode()
    api_answer(api.post("/api/calculate", content=content, headers={"content-type": "application/json"}))


@settings(CI, max_examples=max(2, N // 3))
@given(data=st.data())
def test_hostile_scenarios_through_the_api(api, data):
    """A mutated example scenario sent as the API's body: a result or a refusal in one shape."""
    from .test_properties import EXAMPLES as SCENARIOS

    base = data.draw(st.sampled_from(sorted(SCENARIOS)))
    scenario, what = data.draw(hostile_scenarios(SCENARIOS[base]))
    note(f"{base}: {what}")
    simulate = data.draw(st.sampled_from([None, 2000]))
    body = {"scenario": scenario, "simulate": simulate, "seed": 7 if simulate else None}
    content = json.dumps(body, allow_nan=True).encode()
    api_answer(api.post("/api/calculate", content=content, headers={"content-type": "application/json"}))


@settings(CI, max_examples=max(4, N))
@given(
    text=st.one_of(
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=200),
        st.builds(
            lambda n, d: "a: &a [x]\n" + "".join(f"b{i}: &b{i} [*a, *a]\n" for i in range(n)) * d,
            st.integers(1, 30),
            st.integers(1, 3),
        ),
        st.builds(lambda n: "[" * n + "]" * n, st.integers(1, 3000)),
    )
)
def test_hostile_parse_texts(api, text):
    tracemalloc.start()
    try:
        r = api.post("/api/parse", json={"text": text})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    api_answer(r)
    assert peak < PARSE_PEAK_BYTES, f"{peak / 2**20:.0f} MB to parse {len(text)} characters"
    if r.status_code == 422:
        assert r.json()["field"] == "text"
