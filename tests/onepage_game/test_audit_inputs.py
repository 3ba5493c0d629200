"""Audit of issue #11: hostile input to ``grimdice play`` (armies, tables, options) gets one clear
error naming the field and what is allowed, never a traceback; the statistics ``play`` prints are
those of the games (hand-made logs); the progress bar is fed once per game."""

from __future__ import annotations

import copy
import importlib
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import CliRunner

from grimdice.cli import app
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.game import army_from_mapping
from grimdice.systems.onepage.game.batch import GameJob, kills, run_games, summarise
from grimdice.systems.onepage.game.play import LOG_VERSION

runner = CliRunner()
MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = Path("examples/armies/onepage-orks-army.yaml")
BASE: dict[str, Any] = yaml.safe_load(ORKS.read_text())


def orks(**change: Any) -> dict[str, Any]:
    """The bundled ork army with ``units__0__size=...``-style changes (``None`` deletes)."""
    out = copy.deepcopy(BASE)
    for path, value in change.items():
        *head, last = [int(p) if p.isdigit() else p for p in path.split("__")]
        node: Any = out
        for p in head:
            node = node[p]
        if value is None:
            del node[last]
        else:
            node[last] = value
    return out


def table(*pieces: dict[str, Any], **fields: Any) -> dict[str, Any]:
    return {"table": {"width": 72, "depth": 48, "terrain": list(pieces), **fields}}


def one_error(res: Any, field: str, words: str) -> None:
    """Exit status 2 and one line ``error: FIELD: message`` with ``words`` in it."""
    lines = [ln for ln in res.output.splitlines() if ln.strip()]
    assert res.exit_code == 2, res.output
    assert "Traceback" not in res.output and len(lines) == 1, res.output
    assert lines[0].startswith(f"error: {field}"), lines[0]
    assert words in lines[0], lines[0]


ARMIES = [
    (orks(units__0__colour="red"), "army.yaml.units.0.colour", "allowed here"),
    (orks(flavour="x"), "army.yaml.flavour", "allowed here"),
    (orks(units__0__size=0), "army.yaml.units.0.size", "greater than or equal to 1"),
    (orks(units__0__size=10_000), "army.yaml.units.0.size", "less than or equal to 100"),
    (orks(units__0__size="ten"), "army.yaml.units.0.size", "integer"),
    (orks(units__0__size=True), "army.yaml.units.0.size", "integer"),
    (orks(units=[]), "army.yaml.units", "at least 1"),
    (orks(units__0__base="big"), "army.yaml.units.0.base", "20 to 200 mm"),
    (orks(units__0__base=201), "army.yaml.units.0.base", "20 to 200 mm"),
    (orks(units__0__equipment=["Laser Sword"]), "army.yaml.units.0.equipment.0", "unknown weapon"),
    (orks(units__0__special_rules=["Teleport"]), "army.yaml.units.0.special_rules.0", "unknown special"),
    (orks(units__2__joins="Nobody"), "army.yaml.units.2.joins", "labels"),
    (orks(units__0__arcs={"Pistol": "front"}), "army.yaml.units.0.arcs", "Vehicle"),
    (orks(kind="scenario"), "army.yaml.kind", "kind: army"),
    (orks(system=None), "army.yaml.system", "required"),
    # 60 units of 100 models (6 000 bases) cannot stand within 12" of an edge
    (
        orks(units=[dict(BASE["units"][4], name=f"S{i}", size=100) for i in range(60)], points=None),
        "deployment",
        'does not fit within 12"',
    ),
    # the largest bases allowed (200 mm) on every unit
    (orks(**{f"units__{i}__base": 200 for i in range(len(BASE["units"]))}), "deployment", "does not fit"),
]


def written(tmp_path: Path, name: str, data: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(data))
    return str(path)


ONE = ["--games", "1", "--workers", "1"]


@pytest.mark.parametrize(("data", "field", "words"), ARMIES)
def test_bad_armies_get_one_line_naming_the_field(
    tmp_path: Path, data: dict[str, Any], field: str, words: str
) -> None:
    one_error(runner.invoke(app, ["play", written(tmp_path, "army.yaml", data), MARINES, *ONE]), field, words)


@pytest.mark.parametrize("text", ["", "[1, 2]", "hello", "kind: army\nunits: {"])
def test_empty_or_malformed_files_get_one_line(tmp_path: Path, text: str) -> None:
    path = tmp_path / "army.yaml"
    path.write_text(text)
    one_error(runner.invoke(app, ["play", str(path), MARINES, "--games", "1"]), "scenario", "army.yaml")


RECT = {"name": "a", "rect": [10, 10, 5, 5], "traits": ["cover"]}
TABLES = [
    (table(RECT, dict(RECT, name="b", rect=[12, 12, 5, 5])), "table.terrain.1.shape", "overlaps 'a'"),
    (table(dict(RECT, rect=[70, 10, 5, 5])), "table.terrain.0.shape", "off the table"),
    (table(dict(RECT, colour="red")), "table.terrain.0.colour", "allowed: circle"),
    (table(colour="red"), "table.colour", "allowed: width, depth, terrain"),
    (table(dict(RECT, traits=["lava"])), "table.terrain.0.traits", "allowed: cover"),
    (table(dict(RECT, traits="cover")), "table.terrain.0.traits", "a list of traits"),
    (table(dict(RECT, rect="big")), "table.terrain.0.rect", "4 numbers"),
    (table(dict(RECT, height="tall")), "table.terrain.0.height", "a number of inches"),
    (table(width=60), "table", '72" x 48"'),
    (table(width="wide"), "table.width", "a number of inches"),
    (table(width=True), "table.width", "a number of inches"),
    (table(depth=float("nan")), "table.depth", "not a number"),
    ({"table": {"terrain": "forest"}}, "table.terrain", "a list of terrain pieces"),
    # a table whose deployment zones are all impassable or dangerous: the army cannot be placed
    # (the error names the terrain no model may stand on in that zone)
    (
        table(dict(RECT, rect=[0, 0, 72, 48], traits=["impassable"])),
        "deployment",
        "does not fit within 12\" of the south edge (no model may stand on impassable 'a' there)",
    ),
    (
        table(dict(RECT, rect=[0, 0, 72, 14], traits=["dangerous"])),
        "deployment",
        "(no model may stand on dangerous 'a' there)",
    ),
    # two rows of pieces fill the zone; a cover piece there and a dangerous one outside are not named
    (
        table(
            dict(RECT, name="west", rect=[0, 0, 36, 14], traits=["dangerous", "cover"]),
            dict(RECT, name="east", rect=[36, 0, 36, 14], traits=["impassable"]),
            dict(RECT, name="mid", rect=[30, 20, 5, 5], traits=["dangerous"]),
        ),
        "deployment",
        "(no model may stand on dangerous 'west' or impassable 'east' there)",
    ),
]


@pytest.mark.parametrize(("data", "field", "words"), TABLES)
def test_bad_tables_get_one_line_naming_the_field(
    tmp_path: Path, data: dict[str, Any], field: str, words: str
) -> None:
    table_file = written(tmp_path, "table.yaml", data)
    one_error(runner.invoke(app, ["play", MARINES, MARINES, *ONE, "--table", table_file]), field, words)


@pytest.mark.parametrize(
    ("options", "field", "words"),
    [
        (["--games", "0"], "--games", "1 to 100000"),
        (["--games", "1000000000"], "--games", "1 to 100000"),
        (["--workers", "0"], "--workers", "1 to 256"),
        (["--workers", "-3"], "--workers", "1 to 256"),
        (["--seed", "-1"], "--seed", "from 0 to"),
        (["--players", "ai"], "--players", "two players"),
        (["--players", "ai,genius"], "--players.1", "allowed: ai, random"),
        (["--scheduler", "::::"], "scheduler", "cannot reach a Dask scheduler"),
    ],
)
def test_bad_options_get_one_line(options: list[str], field: str, words: str) -> None:
    args = ["play", MARINES, str(ORKS), "--players", "random,random", "--games", "1", *options]
    one_error(runner.invoke(app, args), field, words)


def test_a_negative_seed_or_no_workers_are_refused_by_the_python_api_too() -> None:
    job = GameJob((army_from_mapping(BASE, "a"), army_from_mapping(BASE, "b")), players=("random", "random"))
    with pytest.raises(ScenarioError) as err:
        run_games(job, 1, -1, workers=1)
    assert err.value.field == "--seed"
    with pytest.raises(ScenarioError) as err:  # was run on one worker without a word
        run_games(job, 1, 1, workers=0)
    assert err.value.field == "--workers"


def test_the_progress_bar_is_fed_once_per_game(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """ "plays N AI-vs-AI games with a progress bar": the bar hears of every finished game."""
    cli_app_module = importlib.import_module("grimdice.cli.app")

    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(
        cli_app_module.ProgressBar, "__call__", lambda self, done, total: seen.append((done, total))
    )
    args = ["play", MARINES, MARINES, "--games", "3", "--players", "random,random", "--workers", "1"]
    assert runner.invoke(app, [*args, "--json"]).exit_code == 0
    assert seen == [(1, 3), (2, 3), (3, 3)]


def log(winner: int, scores: list[float], models: list[int], events: list[dict[str, Any]]) -> dict[str, Any]:
    """A hand-made game log: three units (two of army 0, one of army 1), five models each."""
    units = [
        {"army": a, "name": n, "cost": c, "started": 5, "models": m, "destroyed": m == 0}
        for (a, n, c), m in zip(((0, "A1", 100), (0, "A2", 50), (1, "B1", 120)), models, strict=True)
    ]
    g = {"winner": winner, "scores": scores, "units": units, "events": events}
    g["kills"] = kills(g)
    return g


def combat(kind: str, u: int, t: int, mu: int, mt: int) -> dict[str, Any]:
    return {"phase": "combat", "kind": kind, "unit": u, "target": t, "models": [mu, mt]}


def test_kills_and_the_summary_are_the_games_own_numbers() -> None:
    """Per-unit statistics (survival, points killed) and win/draw/loss with 95 % Wilson intervals."""
    g1 = log(0, [120, 0], [5, 3, 0], [combat("shoot", 1, 2, 3, 2), combat("melee", 0, 2, 5, 0)])
    # a melee in which the defender kills the assaulter; then dangerous terrain kills nobody's unit
    g2 = log(1, [0, 150], [0, 0, 5], [combat("melee", 0, 2, 0, 5), combat("dangerous", 1, 1, 0, 0)])
    g3 = log(-1, [0, 0], [5, 5, 5], [])
    assert g1["kills"] == [120.0, 0.0, 0.0]  # the unit that removed the last model
    assert g2["kills"] == [0.0, 0.0, 100.0]  # A2's loss to terrain is no one's kill
    s = summarise([g1, g2, g3], ("A", "B"))
    a = s["army_a"]
    assert (a["win"]["rate"], a["draw"]["rate"], a["loss"]["rate"]) == pytest.approx((1 / 3, 1 / 3, 1 / 3))
    # Wilson, 1 of 3 at z = 1.96: (p + z^2/2n -+ z sqrt(p(1-p)/n + z^2/4n^2)) / (1 + z^2/n)
    z2, n, p = 1.96**2, 3, 1 / 3
    centre, half = (p + z2 / (2 * n)) / (1 + z2 / n), 1.96 * (p * (1 - p) / n + z2 / (4 * n * n)) ** 0.5
    half /= 1 + z2 / n
    assert (a["win"]["low"], a["win"]["high"]) == pytest.approx((centre - half, centre + half))
    assert s["mean_scores"] == pytest.approx([40.0, 50.0])
    by = {u["unit"]: u for u in s["units"]}
    assert by["A1"]["survival"] == pytest.approx(2 / 3) and by["A1"]["mean_points_killed"] == pytest.approx(
        40
    )
    assert by["A2"]["survival"] == pytest.approx(2 / 3) and by["A2"]["mean_models_left"] == pytest.approx(
        8 / 3
    )
    assert by["B1"]["survival"] == pytest.approx(2 / 3) and by["B1"]["mean_points_killed"] == pytest.approx(
        100 / 3
    )


# ---------------------------------------------------------------------------- army entries' own fields

BOYZ = {"name": "Boyz", "size": 5, "quality": 5, "equipment": ["Pistol"]}
TANK = {"name": "Tank", "quality": 4, "equipment": ["Lascannon"], "special_rules": ["Vehicle"]}


def fielded(*units: dict[str, Any]) -> Any:
    return army_from_mapping({"kind": "army", "system": "onepage", "units": list(units)}, "a")


def test_a_labelled_units_base_is_its_own() -> None:
    """``base: MM`` is read whatever the unit's label (a label was looked up as a name: 32 mm)."""
    from grimdice.systems.onepage.game.setup import MM

    side = fielded(dict(BOYZ, base=60, label="Mob A"), dict(BOYZ, base=25, label="Mob B"))
    assert [round(r * 2 * MM, 6) for r in side.radii] == [60.0, 25.0]


def test_two_vehicles_of_one_name_keep_their_own_arcs() -> None:
    side = fielded(
        dict(TANK, label="Tank A", arcs={"Lascannon": "front"}), dict(TANK, label="Tank B", base=120)
    )
    assert side.arcs == ({"lascannon": "front"}, {})


def test_arcs_and_bases_are_checked_at_the_entry_that_gives_them() -> None:
    """Errors name the unit entry at fault even where names repeat (merged Boyz); a merged unit has
    one base size."""
    with pytest.raises(ScenarioError) as err:
        fielded(dict(BOYZ, merge="m", arcs={"Pistol": "front"}), dict(BOYZ, merge="m"))
    assert err.value.field == "a.units.0.arcs" and "Vehicle" in err.value.message
    with pytest.raises(ScenarioError) as err:
        fielded(dict(BOYZ, merge="m", base=25), dict(BOYZ, merge="m", base=50))
    assert err.value.field == "a.units.1.base" and "one base size" in err.value.message
    merged = fielded(dict(BOYZ, merge="m", base=25), dict(BOYZ, merge="m", base=25))
    assert len(merged.units) == 1 and merged.units[0].size == 10


@pytest.mark.parametrize("size", [32, 36])
def test_a_big_legal_unit_deploys_in_wider_ranks_and_stays_coherent(size: int) -> None:
    """Two merged Infantry units of 16-18 models ("you may merge units by deploying two copies of the
    same Infantry unit as a single big unit") stand within 12" of the edge, coherent (ranks of 5
    would be 7-8 ranks deep: the deployment was refused); units of up to 30 keep ranks of 5."""
    import numpy as np

    from grimdice.engine.table.bases import coherent
    from grimdice.engine.table.layout import generate_table
    from grimdice.engine.table.terrain import Table
    from grimdice.systems.onepage.game import GameState, Setup, play
    from grimdice.systems.onepage.game.setup import COLUMNS, formation

    half = dict(BOYZ, size=size // 2, merge="m")
    big = fielded(half, dict(half, size=size - size // 2))
    assert big.units[0].size == size
    marines = army_from_mapping(yaml.safe_load(Path(MARINES).read_text()), "b")
    s = GameState(Setup((big, marines), Table())).apply(0).apply(["side", "south"])
    pts, r = s.models(0), s.setup.radii[0]
    assert pts[:, 1].max() + r <= 12.0 + 1e-9 and coherent(pts, np.full(size, r))
    assert len(set(pts[:, 1].round(6))) <= 6  # at most 6 ranks of 32 mm bases within 12"
    five = formation(30, r)
    assert len(set(five[:, 0].round(6))) == COLUMNS  # up to 30 models: ranks of 5 as before
    log = play(Setup((big, marines), generate_table(2)), 3, ("random", "random"))
    assert log["scores"] is not None


# ---------------------------------------------------------------------------- grimdice replay


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    import json

    folder = tmp_path_factory.mktemp("logs")
    args = ["play", MARINES, str(ORKS), "--games", "1", "--players", "random,random", "--workers", "1"]
    assert runner.invoke(app, [*args, "--save", str(folder)]).exit_code == 0
    data: dict[str, Any] = json.loads((folder / "game-0001.json").read_text())
    return data


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"setup": "x"}, "setup", "armies: [army A, army B]"),
        ({"setup": {}}, "setup", "armies: [army A, army B]"),
        ({"setup": {"armies": [{}, {}]}}, "setup.table", "missing"),
        ({"players": 5}, "players", "two players' names"),
        ({"actions": "abc"}, "actions", "a list of the game's steps"),
        ({"actions": [7]}, "actions.0", "not a legal step"),
        ({"version": str(LOG_VERSION)}, "version", f"version {LOG_VERSION}"),
    ],
)
def test_a_hostile_log_gets_one_line_from_replay(
    tmp_path: Path, saved: dict[str, Any], change: dict[str, Any], field: str, words: str
) -> None:
    import json

    path = tmp_path / "game.json"
    path.write_text(json.dumps({**saved, **change}))
    one_error(runner.invoke(app, ["replay", str(path)]), field, words)


def test_games_played_for_statistics_only_keep_what_the_statistics_need() -> None:
    """``--games`` up to 100 000 without ``--save``: each game's result holds no events or actions
    (~97 % of a log; ~34 kB a game, 3 GB for the batch), and the summary is the same as from the
    full logs."""
    marines = army_from_mapping(yaml.safe_load(Path(MARINES).read_text()), "b")
    armies = (army_from_mapping(BASE, "a"), marines)
    lean = run_games(GameJob(armies, players=("random", "random")), 2, 8, workers=1)
    full = run_games(GameJob(armies, players=("random", "random"), keep_log=True), 2, 8, workers=1)
    assert all(not {"events", "actions", "setup"} & set(g) for g in lean)
    assert all({"events", "actions", "setup"} <= set(g) for g in full)
    assert summarise(lean, ("A", "B")) == summarise(full, ("A", "B"))


def test_a_weapon_given_two_arcs_in_other_cases_is_refused() -> None:
    """Weapon names are read without case ("Lascannon" is "lascannon"): two arcs for one weapon
    are one error naming the second, not a silent choice of the last."""
    with pytest.raises(ScenarioError) as err:
        fielded(dict(TANK, arcs={"Lascannon": "front", "lascannon ": "turret"}))
    assert err.value.field == "a.units.0.arcs.lascannon " and "Lascannon" in err.value.message
    assert fielded(dict(TANK, arcs={"Lascannon": "front"})).arcs == ({"lascannon": "front"},)
