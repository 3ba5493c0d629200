"""The FastAPI application: the page, ``/api/*`` and offline API docs.

``POST /api/calculate`` takes ``{"scenario": {...}, "simulate": N | null, "seed": S | null}`` and
answers the JSON contract of :meth:`grimdice.result.Result.to_json`, or ``422 {"error", "field",
"message"}`` where ``field`` is the dotted path of the value at fault (``ScenarioError.field``).
Limits: the request body size, the engines' own input limits, a time budget per calculation (its
worker process is stopped), at most ``jobs`` calculations at once (off the event loop).
"""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any, Union

from fastapi import FastAPI, Request
from fastapi.responses import FileResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictInt, StrictStr, TypeAdapter
from starlette.middleware.trustedhost import TrustedHostMiddleware

from grimdice.engine.options import RunOptions
from grimdice.errors import ScenarioError
from grimdice.systems.base import SYSTEMS, get_system, system_name
from grimdice.web.examples import default_dir, load_examples
from grimdice.web.guard import (
    MAX_PER_ADDRESS,
    SecurityHeaders,
    error,
    install_error_shape,
    parse_text,
    server_config,
    until_done,
)
from grimdice.web.pool import MAX_WAITING, PER_CLIENT, BudgetExceeded, Busy, CalcPool
from grimdice.web.routes_crusade import router as crusade_router
from grimdice.web.routes_games import router as games_router
from grimdice.web.routes_rosters import router as rosters_router
from grimdice.web.routes_rules import router as rules_router

STATIC = Path(__file__).parent / "static"
MAX_BODY = 256 * 1024  # bytes of a request body
MAX_TEXT = 100_000  # characters of a scenario pasted as YAML/JSON

Scope = MutableMapping[str, Any]
ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


class BodyLimit:
    """ASGI middleware: answer 413 to a request body larger than ``limit`` bytes."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = error(413, f"the request body is larger than {self.limit} bytes")
        length = dict(scope.get("headers") or []).get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.limit):
            await too_big(scope, receive, send)
            return
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            message = await receive()
            seen += len(message.get("body", b""))
            if seen > self.limit:
                raise _TooBig
            return message

        try:
            await self.app(scope, limited, send)
        except _TooBig:
            await too_big(scope, receive, send)


class _TooBig(Exception):
    pass


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


def _openapi_scenarios() -> tuple[dict[str, Any], dict[str, Any]]:
    """The scenario schema of the API docs: one of the systems' models, by their ``system`` field."""
    models = tuple(get_system(n).Scenario for n in SYSTEMS)
    union = Union[models] if len(models) > 1 else models[0]  # noqa: UP007 (a runtime tuple)
    form: Any = Annotated[union, Field(discriminator="system")] if len(models) > 1 else union
    schema: TypeAdapter[Any] = TypeAdapter(form)
    s = schema.json_schema(ref_template="#/components/schemas/{model}")
    return s.pop("$defs", {}), s


def create_app(
    *,
    jobs: int = 1,
    budget: float = 10.0,
    max_waiting: int = MAX_WAITING,
    per_client: int = PER_CLIENT,
    examples: Path | None = None,
    allowed_hosts: list[str] | None = None,
) -> FastAPI:
    """The web application. ``jobs`` worker processes, ``budget`` seconds per calculation."""
    pool = CalcPool(size=jobs, budget=budget, max_waiting=max_waiting, per_client=per_client)
    example_list = load_examples(examples if examples is not None else default_dir())
    schemas = system_schemas()

    @asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        pool.start()
        try:
            yield
        finally:
            await asyncio.to_thread(pool.close)

    app = FastAPI(
        title="grimdice",
        summary="Exact dice maths and simulation for tabletop wargames (local server).",
        docs_url=None,  # FastAPI's docs page loads its scripts from a CDN: ours is offline
        redoc_url=None,
        lifespan=lifespan,
    )
    app.state.pool = pool
    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.add_middleware(BodyLimit, limit=MAX_BODY)

    app.add_middleware(SecurityHeaders)
    install_error_shape(app)

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> FileResponse:
        return FileResponse(STATIC / "docs.html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(rules_router)
    app.include_router(rosters_router)
    app.include_router(games_router)
    app.include_router(crusade_router)

    @app.get("/api/systems")
    async def systems() -> list[dict[str, Any]]:
        """Every rule system: its name, description and scenario JSON Schema."""
        return schemas

    @app.get("/api/examples")
    async def get_examples() -> list[dict[str, Any]]:
        """The bundled example scenarios: system, file name, title and the scenario itself."""
        return example_list

    @app.post("/api/parse", responses={422: {"description": "not a YAML/JSON mapping"}})
    async def parse(body: ParseRequest) -> Any:
        """A scenario pasted as YAML or JSON, as JSON (the page's YAML/JSON view)."""
        try:
            return await parse_text(body.text)
        except ScenarioError as exc:
            return error(422, exc.message, exc.field)

    @app.post(
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
        try:
            client = request.client.host if request.client else ""
            # a simulation without a seed gets one drawn here, so its result names the seed it used
            seed = body.seed if body.seed is not None or body.simulate is None else secrets.randbelow(2**32)
            future = pool.submit(body.scenario, body.simulate, seed, client)
        except Busy:
            return error(503, "the server is busy: too many calculations are waiting; try again")
        try:
            answer = await until_done(request, future, pool.cancel)
            if answer is None:  # the client has gone: nobody reads this
                return Response(status_code=499)
            status, text, seconds = answer
        except BudgetExceeded:
            what = "simulate" if body.simulate else None
            hint = "fewer trials" if body.simulate else "fewer models or attacks, or simulate"
            return error(
                422, f"the calculation took longer than the {pool.budget:g} s budget; try {hint}", what
            )
        except Exception as exc:  # the worker died
            return error(500, f"internal error: the calculation worker stopped ({type(exc).__name__})")
        return Response(
            text,
            status_code=status,
            media_type="application/json",
            headers={"Server-Timing": f"calc;dur={seconds * 1000:.1f}"},
        )

    def openapi() -> dict[str, Any]:
        if app.openapi_schema:
            return app.openapi_schema
        from fastapi.openapi.utils import get_openapi

        spec = get_openapi(title=app.title, version="1", summary=app.summary, routes=app.routes)
        defs, scenario = _openapi_scenarios()
        comps = spec.setdefault("components", {}).setdefault("schemas", {})
        comps.update(defs)
        comps["CalcRequest"]["properties"]["scenario"] = {**scenario, "description": "a scenario"}
        app.openapi_schema = spec
        return spec

    app.openapi = openapi  # type: ignore[method-assign]  # FastAPI's documented way to extend its schema
    return app


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    *,
    jobs: int = 1,
    budget: float = 10.0,
    examples: Path | None = None,
    per_client: int = PER_CLIENT,
    queue: int = MAX_WAITING,
    per_address: int = MAX_PER_ADDRESS,
) -> None:
    """Run the server until interrupted (``grimdice serve``): ``per_client`` calculations running
    or waiting from one address, ``queue`` waiting in all, ``per_address`` open connections."""
    import uvicorn

    # Served on loopback (the default), only loopback names are accepted as Host (a DNS-rebinding
    # guard); served on every interface (0.0.0.0 or ::), any name that reaches it is.
    hosts = None if host in ("0.0.0.0", "::", "") else sorted({host, "127.0.0.1", "localhost"})
    app = create_app(jobs=jobs, budget=budget, examples=examples, allowed_hosts=hosts)
    app.state.pool.max_waiting, app.state.pool.per_client = queue, per_client
    config = server_config(app, host, port, per_address=per_address, log_level="info", limit_concurrency=2000)
    uvicorn.Server(config).run()


__all__ = ["create_app", "serve"]
