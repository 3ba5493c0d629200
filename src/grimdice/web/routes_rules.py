"""``GET /api/rules``: every system's rule index (what ``grimdice rules SYSTEM --json`` prints), for
the page's rule pickers: each rule's name, what it applies to, its effect and whether its reading
is verified."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from grimdice.systems.base import SYSTEMS, get_system

router = APIRouter()


def rule_index() -> dict[str, list[dict[str, str]]]:
    """``{system: rows}`` of every system with a rule index (``RULES``)."""
    out: dict[str, list[dict[str, str]]] = {}
    for name in SYSTEMS:
        table = getattr(get_system(name), "RULES", None)
        if table is not None:
            out[name] = table.rows()
    return out


@router.get("/api/rules")
async def rules() -> dict[str, Any]:
    """Every system's rule index: `{system: [{rule, kind, applies to, effect, source, verified}]}`."""
    return rule_index()
