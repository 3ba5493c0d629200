"""The AI's choices in the game's special steps: deployment (reserve, Scouts, arrivals, scatter),
consolidation after a melee, transports; and the expected loss of a move through dangerous
terrain. The rules they choose among are the game's (``game.deployment``, ``game.consolidation``,
``game.transport``, ``game.dangerous``), which never import this package."""

from __future__ import annotations

import math
from typing import Any

from grimdice.systems.onepage.game.dangerous import hazard_law, models_through
from grimdice.systems.onepage.game.deployment import ARMY_PHASES
from grimdice.systems.onepage.game.queries import prefetch
from grimdice.systems.onepage.game.state import GameState
from grimdice.systems.onepage.game.transport import from_hull
from grimdice.systems.onepage.units import answer


def deployment_choice(s: GameState, acts: list[list[Any]]) -> list[Any]:
    """The AI's deployment (:func:`.deploying.deploy_choice`) and Deep Strike steps: it places an
    arriving unit where it stands in cover and nearest to one weapon range from the enemy
    (:func:`arrival_choice`), and moves an enemy's arriving unit as far from its own units as it
    can."""
    from grimdice.systems.onepage.ai.deploying import deploy_choice
    from grimdice.systems.onepage.ai.players import nearest_gap

    if s.phase in ARMY_PHASES:
        return deploy_choice(s, acts)
    u = s.todo[0]
    if s.phase == "scatter":
        prefetch(s, u, [(a[2], a[3]) for a in acts], False, False)
        return max(acts, key=lambda a: nearest_gap(s, u, (a[2], a[3])))
    return arrival_choice(s, u, acts)


def arrival_choice(s: GameState, u: int, acts: list[list[Any]]) -> list[Any]:
    """The place of ``acts`` (``[kind, u, x, y]``) in cover and nearest to one weapon range from
    the enemy (a Scout's or a Deep Strike arrival's)."""
    from grimdice.systems.onepage.ai.players import COVER, in_cover_at, nearest_gap

    # every place's cover and gaps to the enemy in one pass (geometry.prefetch fills the memo)
    prefetch(s, u, [(a[2], a[3]) for a in acts], False, False)
    rng = s.weapon_range(u)

    def value(a: list[Any]) -> float:
        anchor = (a[2], a[3])
        cover = COVER if in_cover_at(s, u, anchor) else 0.0
        return cover - 0.5 * abs(nearest_gap(s, u, anchor) - rng)

    return max(acts, key=value)


def consolidation_choice(s: GameState, acts: list[list[Any]], reply: float = 0.0) -> list[Any]:
    """The AI's consolidation: into cover, then closer to the nearest enemy (the Walk's weights),
    less the expected loss to dangerous terrain, less ``reply`` x the change in the enemy's reply
    where it ends (:func:`.choosing.choose`, as a Walk's; 0: the greedy AI's); staying unless a move
    is better."""
    from grimdice.systems.onepage.ai import choosing
    from grimdice.systems.onepage.ai.players import APPROACH, COVER, in_cover_at, moved_to, nearest_gap

    u = s.active
    here = (COVER if in_cover_at(s, u, s.anchors[u]) else 0.0) - APPROACH * nearest_gap(s, u)
    values = [here]  # staying, listed first
    for a in acts[1:]:
        end = moved_to(s, u, (a[2], a[3]))
        values.append(
            (COVER if in_cover_at(s, u, end) else 0.0)
            - APPROACH * nearest_gap(s, u, end)
            - expected_loss(s, u, end)
        )
    return choosing.choose(s, acts, values, reply)


def transport_value(s: GameState, a: list[Any], reply: float = 0.0) -> float:
    """Embarking is worth ``reply`` x the enemy's reply where the unit stands (:func:`.threat.exposure`:
    aboard, it is no target; it ends the activation, so the unit forgoes the shot the other actions
    hold; the transport carries it on, see :func:`.threat.carried`); disembarking is
    valued as the Walk it is (its shot from there, cover; :func:`.choosing.choose` subtracts the
    enemy's reply where it ends), a Furious unit's assault out of it as any assault (only when the
    expected melee value is positive)."""
    from grimdice.systems.onepage.ai import threat
    from grimdice.systems.onepage.ai.players import COVER, best_shot, in_cover_at, melee_value

    u = int(a[1])
    if a[0] == "embark":
        return reply * threat.exposure(s, u) if reply else 0.0
    out = from_hull(s, u, s.place[u])
    if a[0] == "assault":
        v = melee_value(out, u, int(a[2]))
        return v + 1.0 if v > 0 else -math.inf
    ax, ay = out.anchors[u]
    end = (ax + a[2], ay + a[3])
    return best_shot(out, u, end, "walk")[0] + (COVER if in_cover_at(out, u, end) else 0.0)


def expected_loss(s: GameState, u: int, end: tuple[float, float], crossed: bool | None = None) -> float:
    """For the AI: the expected points-equivalent a move to ``end`` loses to dangerous terrain
    (``crossed``: the move's :meth:`GameState.crosses` test when already known)."""
    return loss_of(s, u, models_through(s, u, s.models(u), s.models(u, end), crossed))


def loss_of(s: GameState, u: int, n: int) -> float:
    """:func:`expected_loss` of a move that takes ``n`` of unit ``u``'s models through dangerous
    terrain (kept with the laws, by the unit's state and ``n``)."""
    from grimdice.systems.onepage.ai.players import worth

    if not n:
        return 0.0
    unit, st, cache = s.setup.units[u], s.units[u], s.setup.cache

    def compute() -> float:
        law = answer(cache, ("dangerous", u, st, n), lambda: hazard_law(unit, st, "dangerous", (n,)))
        base = worth(s.setup, u, st)
        return sum(p * (worth(s.setup, u, x) - base) for x, p in law)

    return answer(cache, ("dangerous value", u, st, n), compute)


__all__ = [
    "arrival_choice",
    "consolidation_choice",
    "deployment_choice",
    "expected_loss",
    "loss_of",
    "transport_value",
]
