"""Consolidation moves after a melee.

"After determining who won the combat, the assaulting unit makes consolidation moves. If the
defending unit was completely destroyed, either by removing all models as casualties or by routing
due to a failed morale test, then the assaulting unit may move by up to 3". If the defending unit
was not completely destroyed, then the assaulting unit must move back by 1", separating itself from
the defending unit."

When the defender is destroyed and the assaulter is not, the assaulter's owner decides in phase
``consolidate``: ``["consolidate", u, 0, 0]`` (stay; always legal, listed first) or
``["consolidate", u, dx, dy]``, one of the block's candidate moves at 3" (``GameState.moves``: the
8 compass directions, towards each enemy unit and into each cover piece, each at the longest legal
length) with the checks every move has (on the table, no impassable terrain, never within 1" of
another unit; a Vehicle goes forwards or reverses at half distance and turns with the move; an
Immobile one stays). A consolidation through dangerous terrain rolls for it (``dangerous.py``).
Otherwise the 1" move back is automatic: straight away from the closest defending model, where
that place passes a move's checks (on the table, not into impassable terrain, not newly within 1" of
another unit; else the unit stays), and not for an Immobile Vehicle ("may not move or pivot until the
end of the game", which we read as taking precedence). Our reading: a destroyed transport's
passengers are placed after the consolidation (at the end of the activation, ``transport.wreck``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

KIND = "consolidate"
CONSOLIDATE = 3.0  # "the assaulting unit may move by up to 3""
BACK = 1.0  # "the assaulting unit must move back by 1""


def after_melee(s: GameState, u: int, t: int) -> GameState:
    """The consolidation of assaulter ``u`` after its melee with ``t`` (states already updated)."""
    if s.units[u].destroyed:
        return s.end_activation()
    if s.units[t].destroyed:
        if len(options(s, u)) > 1:
            return replace(s, phase=KIND, player=s.setup.owner[u], active=u, action=KIND, pending=())
        return s.end_activation()
    if s.units[u].immobile:  # "may not move or pivot until the end of the game"
        return s.end_activation()
    dx, dy = s.charge_vector(u, t, unit=True)  # straight away from the closest defending model
    end = (s.anchors[u][0] - BACK * dx, s.anchors[u][1] - BACK * dy)
    if s.placement_ok(u, s.anchors[u], end)[0]:  # on the table, no impassable terrain, 1" from others
        s = s.moved(u, -BACK * dx, -BACK * dy)
    return s.end_activation()


def options(s: GameState, u: int) -> list[tuple[float, float]]:
    """Stay, then the legal 3" block moves (a Vehicle's forwards or half-speed reverse)."""
    from grimdice.systems.onepage.game import facing

    if s.units[u].immobile:  # "may not move or pivot until the end of the game"
        return [(0.0, 0.0)]
    moves = facing.allowed(s, u, CONSOLIDATE, s.moves(u, KIND, CONSOLIDATE))
    return [(0.0, 0.0)] + [m for m in moves if m != (0.0, 0.0)]


def legal_actions(s: GameState) -> list[list[Any]]:
    u = s.active
    return [[KIND, u, dx, dy] for dx, dy in options(s, u)]


def apply(s: GameState, a: Any) -> GameState:
    from grimdice.systems.onepage.game import dangerous, facing

    u, dx, dy = int(a[1]), float(a[2]), float(a[3])
    if (dx, dy) == (0.0, 0.0):
        return s.end_activation()
    after = facing.turned(s.moved(u, dx, dy), u, dx, dy)
    hz = dangerous.hazard(s, after, u, KIND, u)
    return hz if hz is not None else after.end_activation()


def ai_choice(s: GameState, acts: list[list[Any]]) -> list[Any]:
    """The AI's consolidation: into cover, then closer to the nearest enemy (the Walk's weights),
    less the expected loss to dangerous terrain; staying unless a move is better."""
    from grimdice.systems.onepage.game import dangerous
    from grimdice.systems.onepage.game.players import APPROACH, COVER, in_cover_at, moved_to, nearest_gap

    u = s.active
    here = (COVER if in_cover_at(s, u, s.anchors[u]) else 0.0) - APPROACH * nearest_gap(s, u)
    best, choice = here, acts[0]
    for a in acts[1:]:
        end = moved_to(s, u, (a[2], a[3]))
        v = (
            (COVER if in_cover_at(s, u, end) else 0.0)
            - APPROACH * nearest_gap(s, u, end)
            - dangerous.expected_loss(s, u, end)
        )
        if v > best + 1e-9:
            best, choice = v, a
    return choice


__all__ = ["BACK", "CONSOLIDATE", "KIND", "after_melee", "ai_choice", "apply", "legal_actions", "options"]
