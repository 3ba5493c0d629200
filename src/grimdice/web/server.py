"""The FastAPI application: the page, ``/api/*`` and offline API docs.

``POST /api/calculate`` takes ``{"scenario": {...}, "simulate": N | null, "seed": S | null}`` and
answers the JSON contract of :meth:`grimdice.result.Result.to_json`, or ``422 {"error", "field",
"message"}`` where ``field`` is the dotted path of the value at fault (``ScenarioError.field``).
Limits: the request body size, the engines' own input limits, a time budget per calculation (its
worker process is stopped), at most ``jobs`` calculations at once (off the event loop).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Union

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles
from pydantic import Field, TypeAdapter
from starlette.middleware.trustedhost import TrustedHostMiddleware

from grimdice.systems.base import SYSTEMS, get_system
from grimdice.web.examples import default_dir, load_examples
from grimdice.web.guard import (
    MAX_PER_ADDRESS,
    SecurityHeaders,
    error,
    install_error_shape,
    server_config,
)
from grimdice.web.pool import MAX_WAITING, PER_CLIENT, CalcPool
from grimdice.web.routes_calc import router as calc_router
from grimdice.web.routes_calc import system_schemas
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


def _openapi_scenarios() -> tuple[dict[str, Any], dict[str, Any]]:
    """The scenario schema of the API docs: one of the systems' models, by their ``system`` field."""
    models = tuple(get_system(n).Scenario for n in SYSTEMS)
    union = Union[models] if len(models) > 1 else models[0]  # noqa: UP007 (a runtime tuple)
    form: Any = Annotated[union, Field(discriminator="system")] if len(models) > 1 else union
    schema: TypeAdapter[Any] = TypeAdapter(form)
    s = schema.json_schema(ref_template="#/components/schemas/{model}")
    return s.pop("$defs", {}), s


@asynccontextmanager
async def _lifespan(app: FastAPI) -> AsyncIterator[None]:
    """The calculation pool's workers run while the application does."""
    pool: CalcPool = app.state.pool
    pool.start()
    try:
        yield
    finally:
        await asyncio.to_thread(pool.close)


def _openapi(app: FastAPI) -> dict[str, Any]:
    """The API docs, their scenario schema the systems' own (:func:`_openapi_scenarios`)."""
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


page_router = APIRouter(include_in_schema=False)


@page_router.get("/")
async def index() -> FileResponse:
    return FileResponse(STATIC / "index.html")


@page_router.get("/docs")
async def docs() -> FileResponse:
    return FileResponse(STATIC / "docs.html")


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
    app = FastAPI(
        title="grimdice",
        summary="Exact dice maths and simulation for tabletop wargames (local server).",
        docs_url=None,  # FastAPI's docs page loads its scripts from a CDN: ours is offline
        redoc_url=None,
        lifespan=_lifespan,
    )
    app.state.pool = CalcPool(size=jobs, budget=budget, max_waiting=max_waiting, per_client=per_client)
    app.state.examples = load_examples(examples if examples is not None else default_dir())
    app.state.schemas = system_schemas()
    if allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts)
    app.add_middleware(BodyLimit, limit=MAX_BODY)

    app.add_middleware(SecurityHeaders)
    install_error_shape(app)

    app.include_router(page_router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(rules_router)
    app.include_router(rosters_router)
    app.include_router(games_router)
    app.include_router(crusade_router)
    app.include_router(calc_router)
    app.openapi = partial(_openapi, app)  # type: ignore[method-assign]  # FastAPI's documented way to extend its schema
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
