"""Small grid games for the tests."""

from __future__ import annotations

import copy
from typing import Any

from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state

MARINE: dict[str, Any] = {
    "name": "Marine",
    "move": 4,
    "armour": 2,
    "hits": 1,
    "melee": "1W+1R",
    "abilities": ["NSB"],
    "weapons": [
        {"name": "bolter", "dice": "2W+1R", "kind": "ranged", "effects": ["J", "S"]},
        {"name": "knife", "dice": "1W", "kind": "melee", "effects": ["S"]},
    ],
}
STEALER: dict[str, Any] = {
    "name": "Stealer",
    "move": 6,
    "armour": 1,
    "hits": 1,
    "melee": "2R",
    "weapons": [{"name": "claws", "dice": "1W", "kind": "spiky", "effects": ["W"]}],
}


def scenario(board: str, a: list[dict], b: list[dict], **kw: Any) -> dict[str, Any]:
    """A game on ``board`` (zones A and B), force A's and B's models given as dicts."""
    data = {
        "system": "crusade",
        "kind": "game",
        "board": {"type": "grid", "map": board, **kw.pop("grid", {})},
        "profiles": copy.deepcopy(kw.pop("profiles", [MARINE, STEALER])),
        "forces": [
            {"name": "Marines", "zone": "A", "models": a, **kw.pop("force_a", {})},
            {"name": "Stealers", "zone": "B", "models": b, **kw.pop("force_b", {})},
        ],
        "first": 0,
        "turns": 3,
    }
    data.update(kw)
    return data


def state(board: str, a: list[dict], b: list[dict], **kw: Any) -> GameState:
    return initial_state(build_setup(scenario(board, a, b, **kw)))


def at(profile: str, x: int, y: int) -> dict[str, Any]:
    return {"profile": profile, "at": [x, y]}
