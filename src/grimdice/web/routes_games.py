"""Games on the page: play a matchup between two armies, and watch a logged game step by step.

One Page 40k games between army files; :data:`GAMES` lists the systems played so (the Rules Crusade
grid game, played from a game scenario, is in :mod:`grimdice.web.routes_crusade`).

* ``GET /api/games/armies``: the bundled army files (``examples/armies/*.yaml``, ``kind: army``).
* ``POST /api/games/play`` ``{"armies": [ARMY, ARMY], "games": N, "seed": S, "players": [A, B]}``
  (an army is a bundled file's name or an army mapping) answers a stream of JSON lines: one per
  game as it ends (``{"done", "of", "winner", "scores"}``), then ``{"summary": ..., "log": ...}``
  with the win rates and their 95 % Wilson intervals (``grimdice play --json``'s summary) and the
  first game's whole log. Games are played one after another in a server thread; a client that
  goes away stops the games not yet begun.
* ``POST /api/games/replay`` ``{"log": LOG}`` (a ``grimdice play --save`` file) answers the game
  as frames the page draws as SVG: the table, and after each logged step every unit's bases, the
  step's arrow (a move, a shot, an assault), its record (``events``) and the scores.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from grimdice.engine.options import MAX_SEED
from grimdice.errors import ScenarioError
from grimdice.web.answers import game_answer
from grimdice.web.examples import default_dir, yaml_mappings

GAMES = ("onepage",)  # systems whose games are played from army files (Rules Crusade: routes_crusade)
MAX_GAMES = 200  # per request from the page (grimdice play takes more)

router = APIRouter()


class GameRun(BaseModel):
    """How many games of a matchup to play from the page, from which seed, by which players (the
    same for every game with an engine)."""

    model_config = ConfigDict(extra="forbid")
    games: int = Field(20, ge=1, le=MAX_GAMES)
    seed: int = Field(0, ge=0, le=MAX_SEED)
    players: list[str] = Field(["ai", "ai"], min_length=2, max_length=2)


class PlayRequest(GameRun):
    armies: list[str | dict[str, Any]] = Field(min_length=2, max_length=2, description="two armies")


class ReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    log: dict[str, Any] = Field(description="a game log (grimdice play --save)")


def bundled_armies(folder: Path | None = None) -> dict[str, dict[str, Any]]:
    """The army files (``kind: army``) in ``examples/armies``, by file name."""
    base = folder if folder is not None else default_dir()
    return {
        path.stem: data
        for path, data in yaml_mappings(None if base is None else base / "armies")
        if data.get("kind") == "army" and data.get("system") in GAMES
    }


@router.get("/api/games/armies")
async def armies() -> list[dict[str, Any]]:
    """The bundled armies: `[{"file", "name", "system", "points", "army"}]`."""
    return [
        {"file": k, "name": v.get("name", k), "system": v["system"], "points": v.get("points"), "army": v}
        for k, v in bundled_armies().items()
    ]


def _sides(body: PlayRequest) -> tuple[Any, Any]:
    from grimdice.systems.onepage.game.setup import army_from_mapping

    known = bundled_armies()
    sides = []
    for i, a in enumerate(body.armies):
        if isinstance(a, str):
            if a not in known:
                raise ScenarioError(
                    f"armies.{i}", f"no bundled army {a!r}; there are: {', '.join(known) or 'none'}"
                )
            a = known[a]
        sides.append(army_from_mapping(a, f"armies.{i}"))
    return sides[0], sides[1]


def _games(body: PlayRequest, job: Any, names: tuple[str, str]) -> Iterator[str]:
    from grimdice.systems.onepage.game.batch import brief, game_seeds, summarise

    briefs, first = [], None
    for i, seed in enumerate(game_seeds(body.seed, body.games)):
        log = job(seed)
        first = first or log
        briefs.append(brief(log))
        yield (
            json.dumps({"done": i + 1, "of": body.games, "winner": log["winner"], "scores": log["scores"]})
            + "\n"
        )
    summary = summarise(briefs, names)
    summary["seed"] = body.seed
    yield json.dumps({"summary": summary, "log": first}) + "\n"


@router.post("/api/games/play", responses={200: {"description": "JSON lines: each game, then the summary"}})
def play(body: PlayRequest) -> Any:
    """Play AI-vs-AI games of One Page 40k between two armies, streamed game by game."""
    from grimdice.systems.onepage.game.batch import GameJob

    def stream() -> StreamingResponse:
        a, b = _sides(body)
        job = GameJob((a, b), None, (body.players[0], body.players[1]), keep_log=True)
        return StreamingResponse(_games(body, job, (a.name, b.name)), media_type="application/x-ndjson")

    return game_answer(stream)


@router.post(
    "/api/games/replay", responses={422: {"description": "`{error, field, message}`: not a valid log"}}
)
def replay(body: ReplayRequest) -> Any:
    """A logged game as frames to draw: the table, then every step's bases, arrow, record and scores."""
    return game_answer(lambda: frames(body.log), "grimdice game log")


def _r(v: float) -> float:
    return round(float(v), 2)


def _arrow(s: Any, a: Any, n: Any) -> dict[str, Any] | None:
    """The step's arrow: a move or an assault (the unit's anchor before and after, and its waypoint
    when it goes in two legs), a consolidation, or a shot (from the shooter's bases to the
    target's); as ``grimdice replay --png`` draws them."""
    phase = s.phase
    if phase == "play" and a[0] in ("walk", "run", "assault"):
        from grimdice.systems.onepage.game.legs import via

        u = int(a[1])
        (x0, y0), (x1, y1) = s.anchors[u], n.anchors[u]
        arrow: dict[str, Any] = {
            "kind": "assault" if a[0] == "assault" else "move",
            "army": s.setup.owner[u],
            "from": [_r(x0), _r(y0)],
            "to": [_r(x1), _r(y1)],
        }
        mid = via(s, u, a)  # a move in two legs: its waypoint, drawn as a bend
        if mid is not None:
            arrow["via"] = [_r(v) for v in mid.anchors[u]]
        return arrow
    if phase == "consolidate" and (a[2], a[3]) != (0.0, 0.0):
        u = int(a[1])
        x0, y0 = s.anchors[u]
        return {
            "kind": "consolidate",
            "army": s.setup.owner[u],
            "from": [_r(x0), _r(y0)],
            "to": [_r(x0 + a[2]), _r(y0 + a[3])],
        }
    if phase == "combat" and s.pending and s.pending[0] == "shoot":
        _, u, t, _ = s.pending
        p, q = s.models(u).mean(axis=0), s.models(t).mean(axis=0)
        return {
            "kind": "shot",
            "army": s.setup.owner[u],
            "from": [_r(p[0]), _r(p[1])],
            "to": [_r(q[0]), _r(q[1])],
        }
    return None


def _bases(st: Any) -> list[dict[str, Any]]:
    out = []
    for u in range(len(st.setup.units)):
        gone = st.units[u].destroyed or not st.on_table(u)
        models = [] if gone else [[_r(x), _r(y)] for x, y in st.models(u)]
        out.append(
            {"models": models, "destroyed": bool(st.units[u].destroyed), "pinned": bool(st.units[u].pinned)}
        )
    return out


def frames(log: dict[str, Any]) -> dict[str, Any]:
    """The game in ``log`` as drawable frames (replayed from its actions; no dice are rolled)."""
    from grimdice.systems.onepage.game.play import replay as run_replay
    from grimdice.systems.onepage.game.play import states

    sts = states(log)
    again = run_replay(log)
    setup = sts[0].setup
    table = log["setup"].get("table", {}) if isinstance(log.get("setup"), dict) else {}
    steps = []
    for i, (s, a, n) in enumerate(zip(sts, log["actions"], sts[1:], strict=False)):
        if not n.units:  # before the armies are fielded
            continue
        scores = n.returns()
        steps.append(
            {
                "round": n.round,
                "event": again["events"][i],
                "arrow": _arrow(s, a, n) if s.units else None,
                "scores": [_r(x) if math.isfinite(x) else 0 for x in scores],
                "units": _bases(n),
            }
        )
    return {
        "table": {
            "width": setup.table.width,
            "depth": setup.table.depth,
            "terrain": table.get("terrain", []),
        },
        "armies": [getattr(side, "name", f"army {i + 1}") for i, side in enumerate(setup.armies)]
        if hasattr(setup, "armies")
        else [],
        "units": [
            {"name": u.name, "army": setup.owner[i], "radius": _r(setup.radii[i])}
            for i, u in enumerate(setup.units)
        ],
        "steps": steps,
        "scores": again["scores"],
        "winner": again["winner"],
        "matches_log": again["events"] == log.get("events") and again["scores"] == log.get("scores"),
    }
