"""The AI's choices in the game's special steps: deployment (reserve, Scouts, arrivals, scatter),
consolidation after a melee, transports; and the expected loss of a move through dangerous
terrain. The rules they choose among are the game's (``game.deployment``, ``game.consolidation``,
``game.transport``, ``game.dangerous``), which never import this package."""

from __future__ import annotations

import math
from typing import Any

from grimdice.systems.onepage.game.dangerous import hazard_law, models_through
from grimdice.systems.onepage.game.queries import prefetch
from grimdice.systems.onepage.game.state import GameState
from grimdice.systems.onepage.game.transport import from_hull


def deployment_choice(s: GameState, acts: list[list[Any]]) -> list[Any]:
    """The AI keeps a Deep Strike unit in reserve only when its guns reach under 24" (it cannot
    arrive closer than 12" anyway), never deploys inside a transport, places Scouts and arriving
    units where they stand in cover and nearest to one weapon range from the enemy, and moves an
    enemy's arriving unit as far from its own units as it can."""
    from grimdice.systems.onepage.ai.players import COVER, in_cover_at, nearest_gap

    u = s.todo[0]
    if s.phase == "deploy":
        carried = next((a for a in acts if a[0] == "embark"), None)
        if carried is not None and s.weapon_range(u) <= 0:
            return carried  # a unit without a gun rides out of the enemy's sight
        short = s.weapon_range(u) < 24.0
        want = "reserve" if short and s.setup.units[u].has("deep_strike") else "deploy"
        return next(a for a in acts if a[0] == want)
    # every place's cover and gaps to the enemy in one pass (geometry.prefetch fills the memo)
    prefetch(s, u, [s.anchors[u] if a[0] == "deploy" else (a[2], a[3]) for a in acts], False, False)
    if s.phase == "scatter":
        return max(acts, key=lambda a: nearest_gap(s, u, (a[2], a[3])))
    rng = s.weapon_range(u)

    def value(a: list[Any]) -> float:
        anchor = s.anchors[u] if a[0] == "deploy" else (a[2], a[3])
        cover = COVER if in_cover_at(s, u, anchor) else 0.0
        return cover - 0.5 * abs(nearest_gap(s, u, anchor) - rng)

    return max(acts, key=value)


def consolidation_choice(s: GameState, acts: list[list[Any]], reply: float = 0.0) -> list[Any]:
    """The AI's consolidation: into cover, then closer to the nearest enemy (the Walk's weights),
    less the expected loss to dangerous terrain, less ``reply`` x the change in the enemy's reply
    where it ends (:func:`.threat.choose`, as a Walk's; 0: the greedy AI's); staying unless a move
    is better."""
    from grimdice.systems.onepage.ai import threat
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
    return threat.choose(s, acts, values, reply)


def transport_value(s: GameState, a: list[Any], reply: float = 0.0) -> float:
    """Embarking is worth ``reply`` x the enemy's reply where the unit stands (:func:`.threat.exposure`:
    aboard, it is no target; it ends the activation, so the unit forgoes the shot the other actions
    hold; the transport carries it on, see :func:`.threat.carried`); disembarking is
    valued as the Walk it is (its shot from there, cover; :func:`.threat.choose` subtracts the
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
    st = s.units[u]
    value: float | None = s.setup.cache.get(("dangerous value", u, st, n))
    if value is None:
        key = ("dangerous", u, st, n)
        law = s.setup.cache.get(key)
        if law is None:
            law = s.setup.cache[key] = hazard_law(s.setup.units[u], st, "dangerous", (n,))
        base = worth(s.setup, u, st)
        value = s.setup.cache[("dangerous value", u, st, n)] = sum(
            p * (worth(s.setup, u, x) - base) for x, p in law
        )
    return value


__all__ = ["consolidation_choice", "deployment_choice", "expected_loss", "loss_of", "transport_value"]
