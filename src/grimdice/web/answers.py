"""The API's error answer for a :class:`~grimdice.errors.GrimdiceError`, shared by the route modules."""

from __future__ import annotations

from fastapi.responses import JSONResponse

from grimdice.errors import GrimdiceError


def refused(exc: GrimdiceError, status: int = 422) -> JSONResponse:
    """``{error, field, message}``: ``field`` the dotted path at fault (``ScenarioError.field``) or null."""
    field = getattr(exc, "field", None)
    message = getattr(exc, "message", None) or str(exc)
    return JSONResponse({"error": str(exc), "field": field, "message": message}, status_code=status)
