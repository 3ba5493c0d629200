"""The HTTP API: the JSON contract, errors naming their field, and the limits."""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
import yaml
from fastapi.testclient import TestClient

from grimdice.systems.base import SYSTEMS, calculate, get_system
from grimdice.web.examples import load_examples
from grimdice.web.pool import Busy, CalcPool
from grimdice.web.server import MAX_BODY, STATIC, create_app

from .conftest import EXAMPLES

#: one Bolter-like shot: hits on 4+ (1/2), S4 v T4 wounds on 4+ (1/2), Sv 6+ fails on 1-5 (5/6), D1
ONE_SHOT = {
    "system": "wh40k",
    "attacker": {"models": [{"weapons": [{"A": 1, "BS": 4, "S": 4, "AP": 0, "D": 1}]}]},
    "defender": {"models": [{"T": 4, "Sv": 6, "W": 1}]},
}


def example(name: str) -> dict:
    return yaml.safe_load((EXAMPLES / f"{name}.yaml").read_text())


def test_systems_lists_every_registered_system_with_its_schema(client: TestClient) -> None:
    body = client.get("/api/systems").json()
    assert [s["name"] for s in body] == list(SYSTEMS)
    for s in body:
        assert s["schema"] == get_system(s["name"]).Scenario.model_json_schema()
        assert s["description"]


def test_examples_are_grouped_by_their_system_field(client: TestClient, tmp_path: Path) -> None:
    body = client.get("/api/examples").json()
    with_system = {p.stem for p in EXAMPLES.glob("*.yaml") if "system" in yaml.safe_load(p.read_text())}
    assert {e["name"] for e in body} == with_system
    for e in body:
        assert e["scenario"]["system"] == e["system"]
    (tmp_path / "no-system.yaml").write_text("title: no system here\n")
    (tmp_path / "bad.yaml").write_text("system: [unclosed\n")
    (tmp_path / "ok.yaml").write_text("system: wh40k\ntitle: fine\n")
    assert [e["name"] for e in load_examples(tmp_path)] == ["ok"]


def test_calculate_matches_a_hand_computed_distribution(client: TestClient) -> None:
    r = client.post("/api/calculate", json={"scenario": ONE_SHOT})
    assert r.status_code == 200, r.text
    body = r.json()
    p = Fraction(1, 2) * Fraction(1, 2) * Fraction(5, 6)
    assert body["method"] == "exact"
    assert body["damage"]["pmf"] == pytest.approx([float(1 - p), float(p)], abs=1e-12)
    assert body["models_destroyed"]["mean"] == pytest.approx(float(p), abs=1e-12)
    assert re.fullmatch(r"calc;dur=[\d.]+", r.headers["server-timing"])


@pytest.mark.parametrize("name", sorted(p.stem for p in EXAMPLES.glob("*.yaml")))
def test_calculate_returns_the_result_json_contract(client: TestClient, name: str) -> None:
    sc = example(name)
    r = client.post("/api/calculate", json={"scenario": sc, "simulate": None, "seed": None})
    assert r.status_code == 200, r.text
    assert r.json() == json.loads(json.dumps(calculate(sc, workers=1).to_json()))


def test_simulation_is_reproducible_by_its_seed(client: TestClient) -> None:
    req = {"scenario": ONE_SHOT, "simulate": 20000, "seed": 7}
    a, b = client.post("/api/calculate", json=req).json(), client.post("/api/calculate", json=req).json()
    assert a == b
    assert (a["method"], a["trials"], a["seed"]) == ("simulated", 20000, 7)
    assert a["damage"]["pmf"][1] == pytest.approx(5 / 24, abs=0.015)


def test_a_simulation_without_a_seed_names_the_seed_it_used(client: TestClient) -> None:
    first = client.post("/api/calculate", json={"scenario": ONE_SHOT, "simulate": 3000}).json()
    assert isinstance(first["seed"], int)
    again = {"scenario": ONE_SHOT, "simulate": 3000, "seed": first["seed"]}
    assert client.post("/api/calculate", json=again).json() == first


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"scenario": {**ONE_SHOT, "system": "chess"}}, "system"),
        ({"scenario": {"title": "no system"}}, "system"),
        ({"scenario": ONE_SHOT, "seed": 3}, "seed"),
        ({"scenario": ONE_SHOT, "simulate": 0}, "simulate"),
        ({"scenario": ONE_SHOT, "simulate": "many"}, "simulate"),
        ({"scenario": ONE_SHOT, "bogus": 1}, "bogus"),
        ({"scenario": [1, 2]}, "scenario"),
        ({}, "scenario"),
    ],
)
def test_errors_name_their_field(client: TestClient, body: dict, field: str) -> None:
    r = client.post("/api/calculate", json=body)
    assert r.status_code == 422
    err = r.json()
    assert err["field"] == field and err["error"] and "Traceback" not in err["error"]


def test_a_scenario_error_names_the_dotted_path(client: TestClient) -> None:
    sc = example("wh40k-intercessors-vs-boyz")
    sc["attacker"]["models"][1]["weapons"][0]["AP"] = 5
    r = client.post("/api/calculate", json={"scenario": sc})
    assert r.status_code == 422
    assert r.json()["field"] == "attacker.models.1.weapons.0.AP"
    assert r.json()["error"].startswith("attacker.models.1.weapons.0.AP: ")


def test_malformed_and_oversized_bodies(client: TestClient) -> None:
    r = client.post("/api/calculate", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 422 and "error" in r.json()
    big = json.dumps({"scenario": {"system": "wh40k", "title": "x" * MAX_BODY}})
    r = client.post("/api/calculate", content=big, headers={"content-type": "application/json"})
    assert r.status_code == 413 and "larger than" in r.json()["error"]


def test_parse_reads_yaml_and_json_and_names_bad_text(client: TestClient) -> None:
    text = (EXAMPLES / "wh40k-guard-orders.yaml").read_text()
    assert client.post("/api/parse", json={"text": text}).json()["scenario"] == yaml.safe_load(text)
    assert client.post("/api/parse", json={"text": json.dumps(ONE_SHOT)}).json()["scenario"] == ONE_SHOT
    for bad in ("system: [unclosed", "- a list", "just words"):
        r = client.post("/api/parse", json={"text": bad})
        assert r.status_code == 422 and r.json()["field"] == "text"


def test_time_budget_stops_the_calculation_and_the_server_recovers() -> None:
    with TestClient(create_app(budget=0.5, examples=EXAMPLES)) as c:
        r = c.post("/api/calculate", json={"scenario": example("wh40k-guard-orders"), "simulate": 10_000_000})
        assert r.status_code == 422
        assert "budget" in r.json()["error"] and r.json()["field"] == "simulate"
        assert c.post("/api/calculate", json={"scenario": ONE_SHOT}).status_code == 200


def test_the_pool_caps_waiting_calculations() -> None:
    pool = CalcPool(size=1, budget=30, max_waiting=0)
    try:
        first = pool.submit(ONE_SHOT, None, None)  # its worker takes a moment to start
        with pytest.raises(Busy):
            pool.submit(ONE_SHOT, None, None)
        assert first.result(timeout=60)[0] == 200
        assert pool.submit(ONE_SHOT, None, None).result(timeout=60)[0] == 200
    finally:
        pool.close()


def test_page_docs_and_openapi_are_served_offline(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200 and "<title>grimdice</title>" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/docs").status_code == 200
    for f in STATIC.iterdir():  # nothing is loaded from another host
        assert not re.search(r"(src|href)=\"(https?:)?//|import .* from \"https?:", f.read_text()), f
        assert client.get(f"/static/{f.name}").status_code == 200
    spec = client.get("/openapi.json").json()
    scenario = spec["components"]["schemas"]["CalcRequest"]["properties"]["scenario"]
    assert set(scenario["discriminator"]["mapping"]) == set(SYSTEMS)
    assert {"/api/calculate", "/api/systems", "/api/examples", "/api/parse"} <= set(spec["paths"])


def test_serve_command_passes_its_options(monkeypatch: pytest.MonkeyPatch) -> None:
    from typer.testing import CliRunner

    import grimdice.web.server as server
    from grimdice.cli.app import app

    seen: dict = {}
    monkeypatch.setattr(server, "serve", lambda host, port, **kw: seen.update(host=host, port=port, **kw))
    r = CliRunner().invoke(app, ["serve", "--port", "8123", "--jobs", "2", "--timeout", "3"])
    assert r.exit_code == 0, r.output
    assert seen == {
        "host": "127.0.0.1",
        "port": 8123,
        "jobs": 2,
        "budget": 3.0,
        "examples": None,
        "per_client": 4,
        "queue": 32,
        "per_address": 32,
    }


def test_only_the_served_host_names_are_answered() -> None:
    app = create_app(examples=EXAMPLES, allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1:8000").get("/api/examples").status_code == 200
    assert TestClient(app, base_url="http://rebound.example").get("/api/examples").status_code == 400


def test_a_rule_error_keeps_its_field(monkeypatch: pytest.MonkeyPatch) -> None:
    """A rule broken by the described position names the input that described it, as a scenario
    error does (``field`` was reported as null before)."""
    import grimdice.systems.base as base
    from grimdice.errors import RuleError
    from grimdice.web.pool import compute

    def broken(*args: object, **kwargs: object) -> None:
        raise RuleError("model 0 is off the table", "deployment.units.0")

    monkeypatch.setattr(base, "calculate", broken)
    status, body, _ = compute({"system": "onepage"}, None, None)
    err = json.loads(body)
    assert status == 422 and err["field"] == "deployment.units.0"
    assert err["message"] == "model 0 is off the table"


def test_rules_lists_every_system_rule_index(client: TestClient) -> None:
    body = client.get("/api/rules").json()
    indexed = {n for n in SYSTEMS if getattr(get_system(n), "RULES", None) is not None}
    assert set(body) == indexed
    for name, rows in body.items():
        assert rows == get_system(name).RULES.rows()


def test_a_roster_is_read_and_a_pair_of_its_units_becomes_a_scenario(client: TestClient) -> None:
    import base64

    from grimdice.adapters.rosters import read_list, resolve_scenario

    fixtures = Path(__file__).resolve().parents[1] / "rosters" / "fixtures"
    up = {"name": "orks.rosz", "data": base64.b64encode((fixtures / "orks.rosz").read_bytes()).decode()}
    body = client.post("/api/rosters", json=up).json()
    roster = read_list(fixtures / "orks.rosz")
    assert body["system"] == "wh40k" and body["points"] == roster.points
    assert [u["ref"] for u in body["units"]] == [u.ref for u in roster.units]
    assert [u["models"] for u in body["units"]] == [u.model_count for u in roster.units]
    pair = {
        "attacker": {"roster": body["id"], "unit": "Lootas"},
        "defender": {"roster": body["id"], "unit": "Boyz"},
    }
    got = client.post("/api/rosters/scenario", json=pair).json()["scenario"]
    path = str(fixtures / "orks.rosz")
    assert got == resolve_scenario(
        {"attacker": {"roster": path, "unit": "Lootas"}, "defender": {"roster": path, "unit": "Boyz"}}
    )
    bad = client.post("/api/rosters", json={"name": "list.txt", "data": "aGk="})
    assert bad.status_code == 422 and bad.json()["field"] == "name"
    broken = client.post("/api/rosters", json={"name": "my list.ros", "data": "aGk="}).json()
    assert broken["field"] == "data" and "my list.ros" in broken["message"]
    gone = {**pair, "defender": {"roster": "0" * 16, "unit": "Boyz"}}
    assert client.post("/api/rosters/scenario", json=gone).json()["field"] == "defender.roster"
