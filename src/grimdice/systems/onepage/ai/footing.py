"""Where the AI's units stand for their next charge: the reach of a charge from a candidate end.

"If any model of a unit moves through difficult terrain at any point of its move, the unit may not
move more than its Walk action distance for that movement": a unit that ends a move with a base
over difficult terrain moves through it when it next moves, so its next Assault reaches no farther
than its Walk (Strider: "treat difficult terrain as open terrain when moving"; Flying: "they may
ignore terrain effects"). The AI reads this where it weighs a move's next charge
(``threat.prospect``), so a mob does not walk into a forest for its cover and then stand 8" short
of its charge. Our approximation: the terrain on the way to the target is not read (as the rest of
the prospect, the charge's path is not checked).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grimdice.engine.table.sweeps import bases_in
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.movement import move_distance

FOOTING = 1.0  # points-equivalent per inch a melee unit's next move loses where it ends (slowed)

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState


def charge_reach(state: GameState, u: int, end: tuple[float, float] | None) -> float:
    """The distance of ``u``'s next Assault from ``end`` (default: where it stands): its Walk when
    a base there stands over difficult terrain (not Strider nor Flying), else its Assault's."""
    unit = state.setup.units[u]
    full = move_distance(unit, "assault")
    return min(full, move_distance(unit, "walk")) if bogged(state, u, end) else full


def bogged(state: GameState, u: int, end: tuple[float, float] | None) -> bool:
    """Whether ``u``'s next move from ``end`` is capped at its Walk: a base there stands over
    difficult terrain and ``u`` is neither Strider nor Flying (kept in the geometry memo)."""
    unit = state.setup.units[u]
    if unit.has("strider") or unit.has("flying") or not state.setup.table.has_any("difficult"):
        return False
    key = ("in difficult", state.placed(u, end))
    return bool(recall(state.setup, key, lambda: in_difficult(state, u, end)))


def slowed(state: GameState, u: int, end: tuple[float, float] | None) -> float:
    """The inches ``u``'s next Run loses when it moves from ``end``: its Run less its Walk when a
    base there stands over difficult terrain (the whole move is capped at the Walk), else 0 (Strider,
    Flying: 0). The AI charges a melee unit :data:`FOOTING` per inch for it, so that a mob closing in
    does not end its move in a forest it must then crawl out of."""
    if not bogged(state, u, end):
        return 0.0
    unit = state.setup.units[u]
    return max(0.0, move_distance(unit, "run") - move_distance(unit, "walk"))


def in_difficult(state: GameState, u: int, end: tuple[float, float] | None) -> bool:
    """Whether a base of ``u`` at ``end`` stands over difficult terrain."""
    return bool(bases_in(state.setup.table, state.models(u, end), state.setup.radii[u], "difficult").any())


__all__ = ["FOOTING", "bogged", "charge_reach", "in_difficult", "slowed"]
