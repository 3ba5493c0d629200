"""The server's defences against hostile clients, kept apart from the routes.

* every error answers ``{"error", "field", "message"}``, FastAPI's own validation and HTTP errors
  too (:func:`install_error_shape`): a malformed body names no field (never a byte offset);
* pasted scenario text is read by the scenario file reader, with its budgets (size, nesting,
  values counted through YAML aliases, number sizes), in a thread off the event loop
  (:func:`parse_text`); its errors name ``text``;
* a calculation whose client has gone is cancelled, queued or running (:func:`until_done`);
* connections: a time limit for a request's headers and body to arrive, a keep-alive timeout, and
  a bound on the connections one address may hold (:class:`GuardedH11Protocol`, used by
  :func:`server_config`), so slow or many connections from one client cannot starve the others.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from concurrent.futures import Future
from typing import Any, ClassVar, TypeVar

import h11
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from uvicorn.protocols.http.h11_impl import H11Protocol

from grimdice.errors import ScenarioError, one_line

T = TypeVar("T")

REQUEST_TIMEOUT = 10.0  # seconds for a request's headers and body to arrive
KEEP_ALIVE = 5.0  # seconds an idle keep-alive connection stays open
MAX_PER_ADDRESS = 32  # open connections one client address may hold (a browser uses about 6)
DISCONNECT_POLL = 0.25  # seconds between checks that a waiting client is still connected


def error(status: int, message: str, field: str | None = None) -> JSONResponse:
    """The API's error body: ``error`` is ``field: message`` when a field is named."""
    message = one_line(message, 1000)
    text = f"{field}: {message}" if field else message
    return JSONResponse({"error": text, "field": field, "message": message}, status_code=status)


HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
        b"connect-src 'self'; frame-ancestors 'none'",
    ),
    (b"referrer-policy", b"no-referrer"),
]


class SecurityHeaders:
    """ASGI middleware adding :data:`HEADERS` to every response. A plain ASGI layer, not
    Starlette's ``BaseHTTPMiddleware``: that one wraps ``receive`` so that an endpoint never sees
    its client disconnect, and abandoned calculations could not be cancelled."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                extra = [(k, v) for k, v in HEADERS if k not in names]
                message = {**message, "headers": [*message.get("headers", []), *extra]}
            await send(message)

        await self.app(scope, receive, with_headers)


def _validation_field(first: dict[str, Any]) -> str | None:
    """The dotted field of a request validation error; ``None`` for the body as a whole (a JSON
    decode error's location is a byte offset into the body, not a field)."""
    loc = list(first.get("loc", ()))
    if loc and loc[0] == "body":
        loc = loc[1:]
    if not loc or first.get("type") == "json_invalid":
        return None
    return ".".join(str(x) for x in loc)


def install_error_shape(app: FastAPI) -> None:
    """Answer FastAPI's request validation errors and Starlette's HTTP errors (404, 405, ...) in
    the API's ``{error, field, message}`` shape."""

    @app.exception_handler(RequestValidationError)
    async def bad_request(_: Request, exc: RequestValidationError) -> JSONResponse:
        first = exc.errors()[0] if exc.errors() else {}
        field = _validation_field(first)
        if first.get("type") == "json_invalid":
            why = (first.get("ctx") or {}).get("error") or "not valid JSON"
            return error(422, f"the request body is not valid JSON ({why})")
        if field is None:
            return error(422, "the request body must be a JSON object with the fields documented in /docs")
        return error(422, str(first.get("msg", "invalid value")), field)

    @app.exception_handler(HTTPException)
    async def http_error(_: Request, exc: HTTPException) -> JSONResponse:
        answer = error(exc.status_code, str(exc.detail))
        for k, v in (exc.headers or {}).items():
            answer.headers[k] = v
        return answer


def _read(text: str) -> dict[str, Any]:
    from grimdice.io.scenario import parse_scenario_text

    try:
        data = parse_scenario_text(text.encode("utf-8", "surrogatepass"), name="text")
        return {"scenario": json.loads(json.dumps(data, allow_nan=False))}
    except ScenarioError as exc:
        where = "" if exc.field in ("", "scenario") else f"{exc.field}: "
        raise ScenarioError("text", where + exc.message) from None
    except (TypeError, ValueError):  # a date, bytes (!!binary), a set: nothing JSON can carry
        why = "the scenario holds a value JSON cannot carry (a date, binary data)"
        raise ScenarioError("text", why) from None


async def parse_text(text: str) -> dict[str, Any]:
    """``{"scenario": ...}`` from pasted YAML/JSON text, read like a scenario file (the same
    budgets) in a worker thread; a :class:`ScenarioError` naming ``text`` otherwise."""
    return await asyncio.to_thread(_read, text)


async def until_done(request: Request, future: Future[T], cancel: Any) -> T | None:
    """The result of ``future``, or ``None`` once the client has disconnected: ``cancel(future)``
    is then called (a queued calculation is dropped, a running one's worker stopped)."""
    waiting = asyncio.wrap_future(future)
    while True:
        done, _ = await asyncio.wait({waiting}, timeout=DISCONNECT_POLL)
        if done:
            return waiting.result()
        if await request.is_disconnected():
            cancel(future)
            waiting.cancel()
            return None


class GuardedH11Protocol(H11Protocol):
    """Uvicorn's h11 protocol with a deadline for each request to arrive (headers and body: a
    client trickling bytes is cut off after :data:`REQUEST_TIMEOUT`, whatever it sends) and at
    most :data:`MAX_PER_ADDRESS` open connections per client address (more are closed at once)."""

    request_timeout = REQUEST_TIMEOUT
    max_per_address = MAX_PER_ADDRESS
    open_by_address: ClassVar[Counter[str]] = Counter()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._address = self.client[0] if self.client else ""
        self._deadline: asyncio.TimerHandle | None = None
        self.open_by_address[self._address] += 1
        if self.open_by_address[self._address] > self.max_per_address:
            transport.close()
            return
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self.open_by_address[self._address] -= 1
        if self.open_by_address[self._address] <= 0:
            del self.open_by_address[self._address]
        if self._deadline is not None:
            self._deadline.cancel()
        super().connection_lost(exc)

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._arm()

    def _arm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
        self._deadline = self.loop.call_later(self.request_timeout, self._too_slow)

    def _too_slow(self) -> None:
        """Close the connection if a request has been arriving (or none has) for too long."""
        if self.conn.their_state in (h11.IDLE, h11.SEND_BODY) and not self.transport.is_closing():
            self.transport.close()


def server_config(
    app: Any, host: str, port: int, *, per_address: int = MAX_PER_ADDRESS, **options: Any
) -> Any:
    """The uvicorn configuration ``grimdice serve`` runs with (the guarded protocol with
    ``per_address`` connections an address, the keep-alive timeout); ``options`` go to
    ``uvicorn.Config``."""
    import uvicorn

    protocol = type("GuardedH11Protocol", (GuardedH11Protocol,), {"max_per_address": per_address})
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http=protocol,
        timeout_keep_alive=int(KEEP_ALIVE),
        **options,
    )


__all__ = [
    "GuardedH11Protocol",
    "SecurityHeaders",
    "error",
    "install_error_shape",
    "parse_text",
    "server_config",
    "until_done",
]
