"""Army lists on the page: upload a roster, list its units, and turn a pair of units into a scenario.

``POST /api/rosters`` takes ``{"name": "army.rosz", "data": BASE64}`` (the formats ``grimdice
units`` reads: BattleScribe ``.ros``/``.rosz``, New Recruit / ListForge and Army Forge ``.json``)
and answers ``{"id", "name", "game", "system", "points", "units": [{"ref", "name", "points",
"models"}]}``. The file is kept (in a private temporary folder, at most :data:`MAX_KEPT` of them,
the oldest dropped) so that ``POST /api/rosters/scenario`` ``{"attacker": {"roster": id, "unit":
ref}, "defender": {...}, "weapons": "ranged" | "melee" | null}`` can answer the scenario of those
two units (``grimdice.adapters.rosters.resolve_with_notes``, as ``grimdice calc --attacker
ROSTER:UNIT --defender ROSTER:UNIT`` builds it) and what the rosters hold that is not modelled. The
page then calculates that scenario with ``POST /api/calculate`` (its limits and time budget).
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import re
import secrets
import tempfile
import threading
from collections import OrderedDict
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from grimdice.adapters.rosters import detect_system, read_list, resolve_with_notes
from grimdice.errors import GrimdiceError, ScenarioError
from grimdice.web.answers import refused

MAX_KEPT = 32  # rosters kept for the scenario requests
SUFFIXES = (".ros", ".rosz", ".json")

router = APIRouter()


class RosterUpload(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(max_length=200, description="the file's name; its ending says the format")
    data: str = Field(max_length=340_000, description="the file's bytes, base64")


class UnitRef(BaseModel):
    model_config = ConfigDict(extra="forbid")
    roster: str = Field(max_length=40, description="the id `POST /api/rosters` answered")
    unit: str = Field(max_length=200, description="a unit's `ref` in that roster")


class PairRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")
    attacker: UnitRef
    defender: UnitRef
    weapons: Literal["ranged", "melee"] | None = Field(
        None, description="the attacker's weapons (default ranged)"
    )


class _Store:
    """Uploaded rosters, by id, in a temporary folder that lives as long as the process."""

    def __init__(self) -> None:
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._files: OrderedDict[str, Path] = OrderedDict()
        self._lock = threading.Lock()

    def add(self, name: str, blob: bytes) -> tuple[str, Path]:
        """Keep ``blob`` under its file name (in a folder of its own, so errors name the user's file)."""
        with self._lock:
            if self._dir is None:
                self._dir = tempfile.TemporaryDirectory(prefix="grimdice-rosters-")
            key = secrets.token_hex(8)
            folder = Path(self._dir.name) / key
            folder.mkdir()
            path = folder / (re.sub(r"[^A-Za-z0-9._ -]", "_", Path(name).name)[-100:].lstrip(".") or "roster")
            path.write_bytes(blob)
            self._files[key] = path
            while len(self._files) > MAX_KEPT:
                self._drop(next(iter(self._files)))
            return key, path

    def drop(self, key: str) -> None:
        with self._lock:
            self._drop(key)

    def _drop(self, key: str) -> None:
        path = self._files.pop(key, None)
        if path is not None:
            path.unlink(missing_ok=True)
            path.parent.rmdir()

    def path(self, key: str, field: str) -> Path:
        with self._lock:
            found = self._files.get(key)
        if found is None:
            raise ScenarioError(
                field, "no such roster here (upload it again: the server keeps the last ones only)"
            )
        return found


STORE = _Store()


def _read(name: str, data: str) -> dict[str, Any]:
    suffix = Path(name).suffix.lower()
    if suffix not in SUFFIXES:
        raise ScenarioError("name", f"a roster file ends in {', '.join(SUFFIXES)}, not {suffix or 'nothing'}")
    try:
        blob = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        raise ScenarioError("data", "the file's bytes as base64") from None
    key, path = STORE.add(name, blob)
    try:
        roster = read_list(path, "data")
        system = detect_system(roster, "data")
    except GrimdiceError:
        STORE.drop(key)
        raise
    units = [
        {"ref": u.ref, "name": u.name, "points": u.points, "models": u.model_count} for u in roster.units
    ]
    return {
        "id": key,
        "name": roster.name,
        "game": roster.game,
        "system": system,
        "points": roster.points,
        "units": units,
    }


@router.post("/api/rosters", responses={422: {"description": "`{error, field, message}`: not a roster"}})
async def upload(body: RosterUpload) -> Any:
    """Read an army roster: its system, points and units (the file is kept for pair scenarios)."""
    try:
        return await asyncio.to_thread(_read, body.name, body.data)
    except GrimdiceError as exc:
        return refused(exc)


def _pair(body: PairRequest) -> dict[str, Any]:
    data: dict[str, Any] = {}
    for side in ("attacker", "defender"):
        ref: UnitRef = getattr(body, side)
        data[side] = {"roster": str(STORE.path(ref.roster, f"{side}.roster")), "unit": ref.unit}
    if body.weapons:
        data["attacker"]["weapons"] = body.weapons
    scenario, notes = resolve_with_notes(data)
    return {"scenario": scenario, "notes": notes}


@router.post("/api/rosters/scenario", responses={422: {"description": "`{error, field, message}`"}})
async def pair(body: PairRequest) -> Any:
    """The scenario of one roster unit attacking another (and what the rosters hold that is not modelled)."""
    try:
        return await asyncio.to_thread(_pair, body)
    except GrimdiceError as exc:
        return refused(exc)
