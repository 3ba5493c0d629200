"""``/api/systems``, ``/api/examples``, ``/api/parse`` and ``/api/calculate``: the calculator's API.

The application (:func:`~.server.create_app`) keeps on its state the calculation pool (``pool``),
the systems' schemas (``schemas``) and the bundled examples (``examples``) these routes answer from.
"""

from __future__ import annotations

import secrets
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr

from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.systems.base import SYSTEMS, get_system, system_name
from grimdice.web.guard import error, parse_text, until_done
from grimdice.web.pool import BudgetExceeded, Busy, CalcPool

MAX_TEXT = 100_000  # characters of a scenario pasted as YAML/JSON

router = APIRouter()


class CalcRequest(BaseModel):
    """A calculation: a scenario of any system, exact (``simulate`` null) or N Monte Carlo trials."""

    model_config = ConfigDict(extra="forbid", strict=True)
    scenario: dict[str, Any] = Field(description="a scenario; its `system` field picks the schema")
    simulate: StrictInt | None = Field(None, description="Monte Carlo trials; null: the exact engine")
    seed: StrictInt | None = Field(
        None, description="seed of the Monte Carlo trials (with simulate); null: one is drawn and returned"
    )


class ParseRequest(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    text: StrictStr = Field(description="a scenario as YAML or JSON", max_length=MAX_TEXT)


def system_schemas() -> list[dict[str, Any]]:
    """Each system's name, one-line description and scenario JSON Schema, from the registry."""
    out = []
    for name in SYSTEMS:
        mod = get_system(name)
        doc = (mod.__doc__ or name).strip().splitlines()[0]
        out.append({"name": name, "description": doc, "schema": mod.Scenario.model_json_schema()})
    return out


@router.get("/api/systems")
async def systems(request: Request) -> list[dict[str, Any]]:
    """Every rule system: its name, description and scenario JSON Schema."""
    schemas: list[dict[str, Any]] = request.app.state.schemas
    return schemas


@router.get("/api/examples")
async def get_examples(request: Request) -> list[dict[str, Any]]:
    """The bundled example scenarios: system, file name, title and the scenario itself."""
    examples: list[dict[str, Any]] = request.app.state.examples
    return examples


@router.post("/api/parse", responses={422: {"description": "not a YAML/JSON mapping"}})
async def parse(body: ParseRequest) -> Any:
    """A scenario pasted as YAML or JSON, as JSON (the page's YAML/JSON view)."""
    try:
        return await parse_text(body.text)
    except ScenarioError as exc:
        return error(422, exc.message, exc.field)


@router.post(
    "/api/calculate",
    responses={
        200: {"description": "the result (`Result.to_json()`); header Server-Timing: the calculation"},
        413: {"description": "request body too large"},
        422: {
            "description": "`{error, field, message}`: the scenario or options are invalid, or the "
            "calculation exceeded the time budget"
        },
        503: {"description": "too many calculations waiting"},
    },
)
async def calculate(body: CalcRequest, request: Request) -> Response:
    """Resolve a scenario exactly, or by `simulate` seeded Monte Carlo trials."""
    try:
        RunOptions(body.simulate, body.seed)
        get_system(system_name(body.scenario))
    except ScenarioError as exc:
        return error(422, exc.message, exc.field or None)
    pool: CalcPool = request.app.state.pool
    try:
        client = request.client.host if request.client else ""
        # a simulation without a seed gets one drawn here, so its result names the seed it used
        seed = body.seed if body.seed is not None or body.simulate is None else secrets.randbelow(2**32)
        future = pool.submit(body.scenario, body.simulate, seed, client)
    except Busy:
        return error(503, "the server is busy: too many calculations are waiting; try again")
    return await _answer(body, request, pool, future)


async def _answer(body: CalcRequest, request: Request, pool: CalcPool, future: Any) -> Response:
    """The calculation's answer once done: its JSON (with its time as Server-Timing), 422 past the
    time budget, 499 when the client has gone, 500 when the worker died."""
    try:
        answer = await until_done(request, future, pool.cancel)
        if answer is None:  # the client has gone: nobody reads this
            return Response(status_code=499)
        status, text, seconds = answer
    except BudgetExceeded:
        what = "simulate" if body.simulate else None
        hint = "fewer trials" if body.simulate else "fewer models or attacks, or simulate"
        return error(422, f"the calculation took longer than the {pool.budget:g} s budget; try {hint}", what)
    except Exception as exc:  # the worker died
        return error(500, f"internal error: the calculation worker stopped ({type(exc).__name__})")
    return Response(
        text,
        status_code=status,
        media_type="application/json",
        headers={"Server-Timing": f"calc;dur={seconds * 1000:.1f}"},
    )


__all__ = ["CalcRequest", "ParseRequest", "router", "system_schemas"]
