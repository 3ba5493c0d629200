"""The API's error answer for a :class:`~grimdice.errors.GrimdiceError`, shared by the route modules."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from fastapi.responses import JSONResponse

from grimdice.errors import GrimdiceError, ScenarioError

#: what reading a malformed game log raises before any rule is checked
BROKEN_LOG = (KeyError, IndexError, TypeError, ValueError, AttributeError)


def refused(exc: GrimdiceError, status: int = 422) -> JSONResponse:
    """``{error, field, message}``: ``field`` the dotted path at fault (``ScenarioError.field``) or null."""
    field = getattr(exc, "field", None)
    message = getattr(exc, "message", None) or str(exc)
    return JSONResponse({"error": str(exc), "field": field, "message": message}, status_code=status)


def game_answer(make: Callable[[], Any], log_of: str | None = None) -> Any:
    """``make()``, or the error answer of what it raised: a ``GrimdiceError`` (the games name their
    command-line options, ``--players.1``: here the request's ``players.1``), and with ``log_of``
    a malformed log (:data:`BROKEN_LOG`), named ``log``: "not a ``log_of``"."""
    try:
        return make()
    except ScenarioError as exc:
        return refused(ScenarioError(exc.field.removeprefix("--"), exc.message))
    except GrimdiceError as exc:
        return refused(exc)
    except BROKEN_LOG as exc:
        if log_of is None:
            raise
        return refused(ScenarioError("log", f"not a {log_of} ({type(exc).__name__}: {exc})"[:300]))
