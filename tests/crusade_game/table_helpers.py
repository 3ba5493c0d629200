"""Small hand-built tables for the tests."""

from __future__ import annotations

import copy
from typing import Any

from grimdice.systems.crusade.game.scenario import build_setup
from grimdice.systems.crusade.game.state import GameState, initial_state
from tests.crusade_game.helpers import MARINE, STEALER


def rect(x0: float, y0: float, x1: float, y1: float) -> list[list[float]]:
    """The corners of a rectangle covering cells x0..x1-1, y0..y1-1."""
    return [[x0, y0], [x1, y0], [x1, y1], [x0, y1]]


def table(w: int = 12, h: int = 8, **kw: Any) -> dict[str, Any]:
    board = {
        "type": "table",
        "width": w,
        "height": h,
        "zones": {"A": [0, 0, 1, h - 1], "B": [w - 2, 0, w - 1, h - 1]},
    }
    board.update(kw)
    return board


def table_scenario(board: dict[str, Any], a: list[dict], b: list[dict], **kw: Any) -> dict[str, Any]:
    data = {
        "system": "crusade",
        "kind": "game",
        "board": board,
        "profiles": copy.deepcopy(kw.pop("profiles", [MARINE, STEALER])),
        "forces": [
            {"name": "Marines", "zone": "A", "models": a},
            {"name": "Stealers", "zone": "B", "models": b},
        ],
        "first": 0,
        "turns": 3,
    }
    data.update(kw)
    return data


def table_state(board: dict[str, Any], a: list[dict], b: list[dict], **kw: Any) -> GameState:
    return initial_state(build_setup(table_scenario(board, a, b, **kw)))


def put(profile: str, x: int, y: int, z: int | None = None) -> dict[str, Any]:
    return {"profile": profile, "at": [x, y] if z is None else [x, y, z]}


def active(s: GameState, i: int = 0) -> GameState:
    """``s`` with token ``i`` activated."""
    return s.apply(("activate", i))


def steps(s: GameState) -> dict[tuple[Any, ...], float]:
    """The active model's board steps: (kind, x, y, z) -> cost."""
    t = s.tokens[s.active]
    return {
        (k, *to): c for k, to, c in s.setup.board.steps(t.sq, 1, s.doors(), s.sides(), t.side, s.breaches)
    }
