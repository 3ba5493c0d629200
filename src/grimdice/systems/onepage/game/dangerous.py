"""Dangerous terrain in the game, and the automatic hits that come from no enemy.

"If a unit moves through dangerous terrain you must roll one die for each model that moved into or
across the dangerous terrain. For each 1 you roll the unit takes one automatic hit." Flying units
"may ignore terrain effects".

A Walk, Run or Assault move whose models' paths (straight, or a two-leg move's two legs, each model
counted once) enter, leave, cross or stay in a dangerous
piece becomes a chance node ``("dangerous", u, t, (models,))`` whose outcomes are the exact law of
the unit's end states (``exact.hazard_table``: the hits, blocks, Tough, the Vehicle damage table
and the half-killed morale test). Then the activation goes on: Walk shoots, Run ends, Assault
fights its melee against ``t``; a unit destroyed by the terrain ends its activation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.frozen import replace
from grimdice.engine.table import blocks
from grimdice.engine.table.sweeps import sweeps_touch_any
from grimdice.systems.onepage.exact import hazard_table
from grimdice.systems.onepage.game import shapes
from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.units import Unit, UnitState

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

KINDS = ("dangerous", "transport")  # chance nodes of automatic hits from no enemy


def models_through(s: GameState, u: int, a: np.ndarray, b: np.ndarray, crossed: bool | None = None) -> int:
    """How many of unit ``u``'s models "moved into or across the dangerous terrain" going straight
    from ``a`` to ``b`` (a path that starts, ends or passes inside a dangerous piece); 0 when Flying."""
    if s.setup.units[u].has("flying"):
        return 0
    if not (s.crosses(u, a, b, "dangerous") if crossed is None else crossed):
        return 0
    # every dangerous piece at once (GameState.crosses' test, model by model)
    return blocks.models_through(s.setup.table, a, b[None, :, :], s.setup.radii[u])[0]


def models_through_legs(s: GameState, u: int, a: np.ndarray, mid: np.ndarray, b: np.ndarray) -> int:
    """How many of unit ``u``'s models moving from ``a`` through ``mid`` to ``b`` (two straight
    legs, ``legs.py``) went into or across dangerous terrain on either leg: each model is counted
    once ("roll one die for each model that moved into or across the dangerous terrain"); 0 when
    Flying."""
    if s.setup.units[u].has("flying"):
        return 0
    table, r = s.setup.table, s.setup.radii[u]
    if not (s.crosses(u, a, mid, "dangerous") or s.crosses(u, mid, b, "dangerous")):
        return 0
    pieces = table.having("dangerous")
    hit = sweeps_touch_any(table, a, mid, r, pieces)
    hit |= sweeps_touch_any(table, mid, b, r, pieces)
    return int(hit.sum())


def hazard(
    before: GameState, after: GameState, u: int, kind: str, t: int, via: GameState | None = None
) -> GameState | None:
    """The chance node of a move through dangerous terrain (``None`` if no model went through);
    ``via``: the state with ``u`` at a two-leg move's waypoint (``legs.py``)."""
    if via is None:  # each model's own path (a change of shape moves them apart, shapes.py)
        n = models_through(before, u, *shapes.paths(before, after, u))
    else:
        n = models_through_legs(before, u, before.models(u), via.models(u), after.models(u))
    if not n:
        return None
    return replace(after, phase="combat", active=u, action=kind, pending=("dangerous", u, t, (n,)))


def hazard_law(
    unit: Unit, state: UnitState, attack: str, key: tuple[Any, ...]
) -> list[tuple[UnitState, float]]:
    """The law of the unit's end state after its automatic hits (``attack``: dangerous or
    transport; ``key``: (models that went through,) or ())."""
    c = Conditions(dangerous_models=key[0] if key else None)
    _, table = hazard_table(unit, state, c, attack)
    out: dict[UnitState, float] = {}
    for (_w, st, _m), p in table.items():
        out[st] = out.get(st, 0.0) + p
    return list(out.items())


def go_on(s: GameState) -> GameState:
    """The rest of the activation after the dangerous terrain's hits."""
    u, t = s.pending[1], s.pending[2]
    s = replace(s, phase="play", pending=())
    if s.units[u].destroyed or s.action in ("run", "embark", "consolidate"):
        return s.end_activation()
    if s.action == "assault":
        if s.units[t].destroyed:
            return s.end_activation()
        return replace(s, phase="combat", pending=("melee", u, t, s.melee_key(u, t)))
    return replace(s, phase="shoot")


__all__ = ["KINDS", "go_on", "hazard", "hazard_law", "models_through", "models_through_legs"]
