"""The Rules Crusade game, on a grid or a table, on the page (``docs/crusade-game.md``): play a
bundled or uploaded game scenario many times, and watch a logged game action by action.

* ``GET /api/games/crusade``: the bundled game scenarios (``examples/games/*.yaml`` with
  ``system: crusade`` and ``kind: game``).
* ``POST /api/games/crusade/play`` ``{"scenario": NAME or MAPPING, "games": N, "seed": S,
  "players": [A, B]}`` answers JSON lines: one per game as it ends (``{"done", "of", "winner"}``),
  then ``{"summary": ..., "log": ...}``: ``grimdice play --json``'s summary (the first force's
  win/draw/loss with 95 % Wilson intervals, each model's survival and mean kills) and the first
  game's whole log. A client that goes away stops the games not yet begun.
* ``POST /api/games/crusade/replay`` ``{"log": LOG}`` (a ``grimdice play --save`` file of a
  crusade game) answers the game replayed with no dice (``grimdice replay``) as frames: the board
  (a grid's terrain per square, dark squares, manholes; a table's pieces, buildings, sectors,
  ladders and stairs as polygons and positions in inches; objectives), and after each action every
  model's position and condition, the action in words, its arrow (a move, a shot, a melee) and the
  dice's outcome (the event the log records), the battle rules' marks (sections still covered,
  reinforcement key points and the models arriving, a volley's arrows, crews beside their gun); on
  a table also the sectors' damage, rubble and forced entries.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from fastapi import APIRouter
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from grimdice.errors import ScenarioError
from grimdice.web.answers import game_answer
from grimdice.web.examples import default_dir, yaml_mappings
from grimdice.web.routes_games import GameRun

router = APIRouter()


class CrusadePlayRequest(GameRun):
    scenario: str | dict[str, Any] = Field(description="a bundled game's name or a game scenario")


class CrusadeReplayRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    log: dict[str, Any] = Field(description="a crusade game log (grimdice play --save)")


def bundled_games() -> dict[str, dict[str, Any]]:
    """The crusade game scenarios in ``examples/games`` (on a grid or a table), by file name."""
    from grimdice.systems.crusade.game.replay import is_game_log

    base = default_dir()
    return {
        path.stem: data
        for path, data in yaml_mappings(None if base is None else base / "games")
        if is_game_log(data)
    }


@router.get("/api/games/crusade")
async def games() -> list[dict[str, Any]]:
    """The bundled crusade game scenarios: `[{"file", "title", "forces", "scenario"}]`."""
    return [
        {
            "file": k,
            "title": v.get("title") or k,
            "forces": [f.get("name") for f in v.get("forces", []) if isinstance(f, dict)],
            "scenario": v,
        }
        for k, v in bundled_games().items()
    ]


def _setup(body: CrusadePlayRequest) -> Any:
    from grimdice.systems.crusade.game.scenario import build_setup

    sc = body.scenario
    if isinstance(sc, str):
        known = bundled_games()
        if sc not in known:
            raise ScenarioError(
                "scenario", f"no bundled game {sc!r}; there are: {', '.join(known) or 'none'}"
            )
        sc = known[sc]
    try:
        return build_setup(sc)
    except ScenarioError as exc:
        raise ScenarioError(f"scenario.{exc.field}", exc.message) from None


def _played(body: CrusadePlayRequest, job: Any, setup: Any) -> Iterator[str]:
    from grimdice.engine.batch import game_seeds
    from grimdice.systems.crusade.game.batch import brief, summarise

    briefs, first = [], None
    for i, seed in enumerate(game_seeds(body.seed, body.games)):
        log = job(seed)
        first = first or log
        briefs.append(brief(log))
        yield json.dumps({"done": i + 1, "of": body.games, "winner": log["winner"]}) + "\n"
    yield json.dumps({"summary": summarise(briefs, setup, body.seed), "log": first}) + "\n"


@router.post(
    "/api/games/crusade/play", responses={200: {"description": "JSON lines: each game, then the summary"}}
)
def play(body: CrusadePlayRequest) -> Any:
    """Play games of a Rules Crusade game scenario, streamed game by game."""
    from grimdice.systems.crusade.game.batch import GameJob

    def stream() -> StreamingResponse:
        setup = _setup(body)
        job = GameJob(setup, (body.players[0], body.players[1]), keep_log=True)
        return StreamingResponse(_played(body, job, setup), media_type="application/x-ndjson")

    return game_answer(stream)


@router.post(
    "/api/games/crusade/replay",
    responses={422: {"description": "`{error, field, message}`: not a valid crusade game log"}},
)
def replay(body: CrusadeReplayRequest) -> Any:
    """A logged crusade game as frames: the board, then every action's models, arrow and dice."""
    from grimdice.web.crusade_frames import frames

    return game_answer(lambda: frames(body.log), "crusade game log")


__all__ = ["bundled_games", "router"]
