"""The table's invariants in every state of a One Page 40k game (``engine.table.checks``): no base
off the table, over impassable terrain or over another base; every unit coherent ("All members of
the unit must remain within 1" of at least one other member at all times, and must remain within
12" of all other members"); and from one state to the next, no unit moved through another unit's
bases or over impassable terrain, a two-leg move along each leg (``legs.py``) ("Units may not move
into or through impassable terrain"; Flying: "may move through other units and impassable
terrain"); in a pending melee, the assaulting models'
own moves (``melee_moves.assault_violations``)."""

from __future__ import annotations

from typing import Any

from grimdice.engine.table.checks import (
    Group,
    coherency_violations,
    path_violations,
    placement_violations,
)
from grimdice.systems.onepage.game import consolidation, deployment, legs, melee_moves, shapes
from grimdice.systems.onepage.game.places import shape_of
from grimdice.systems.onepage.game.state import GameState


def groups(s: GameState) -> dict[int, Group]:
    """Every unit on the table (alive, not in reserve nor embarked) as a group of bases."""
    return {
        u: Group(
            f"{s.setup.units[u].name} [{u}]",
            s.models(u),
            float(s.setup.radii[u]),
            s.setup.units[u].has("flying"),
        )
        for u in s.standing().ids
    }


MOVES = ("walk", "run", "assault")  # the actions that move a unit on the table (besides consolidation)


def violations(s: GameState, before: GameState | None = None, action: Any = None) -> list[str]:
    """What breaks the table's invariants in ``s`` and, when ``s`` follows ``before`` by a move
    (``action`` a Walk, Run or Assault, or a consolidation), along that move, as readable lines;
    empty for a legal state. Placements (deployment, Scout, Deep Strike, disembarking, a
    transport's survivors) are checked where they end, a unit placed at deployment (``action``
    ``["place", ...]`` in ``before``) also within 12" of its edge."""
    now = groups(s)
    out = placement_violations(s.setup.table, list(now.values()))
    out += coherency_violations(list(now.values()), 1.0, 12.0)
    out += melee_moves.assault_violations(s)  # the assaulting models' own moves, where they strike from
    if before is not None and is_deployed(before, action):
        out += zone_violations(s, int(action[1]))
    if before is None or not is_move(before, action):
        return out
    then = groups(before)
    mid = legs.via(before, int(action[1]), action) if before.phase == "play" else None
    for u, g in now.items():
        old = then.get(u)
        if old is None or (before.anchors[u] == s.anchors[u] and shape_of(before, u) == shape_of(s, u)):
            continue
        others = [h for v, h in then.items() if v != u]
        if shape_of(before, u) != shape_of(s, u):  # each model along its own path (shapes.py)
            g = Group(g.name, shapes.paths(before, s, u)[1], g.radius, g.flying)
        if mid is not None and u == int(action[1]):  # a two-leg move: each leg checked
            turn = groups(mid)[u]
            out += path_violations(s.setup.table, old, turn, others)
            out += path_violations(s.setup.table, turn, g, others)
        else:
            out += path_violations(s.setup.table, old, g, others)
    return out


ZONE = 12.0  # "places all of his army within 12" of his table edge"
SLACK = 0.002  # rounding allowed (inches), as for the other placements


def is_deployed(before: GameState, action: Any) -> bool:
    """Whether ``action`` taken in ``before`` places a unit in its deployment zone."""
    return before.phase in deployment.ARMY_PHASES and isinstance(action, list) and action[:1] == ["place"]


def zone_violations(s: GameState, u: int) -> list[str]:
    """Unit ``u``'s bases that do not stand wholly within 12" of its player's table edge."""
    y, r = s.models(u)[:, 1], float(s.setup.radii[u])
    south = s.setup.owner[u] == s.south
    far = y + r if south else s.setup.table.depth - (y - r)
    bad = int((far > ZONE + SLACK).sum())
    side = "south" if south else "north"
    name = f"{s.setup.units[u].name} [{u}]"
    return [f'{name}: {bad} base(s) deployed beyond 12" of the {side} edge'] if bad else []


def is_move(before: GameState, action: Any) -> bool:
    """Whether ``action`` taken in ``before`` moves a unit on the table."""
    if before.phase == consolidation.KIND:
        return True
    return (
        before.phase == "play"
        and isinstance(action, list)
        and bool(action)
        and action[0] in MOVES
        and before.on_table(int(action[1]))
    )


def game_violations(states: list[GameState], actions: list[Any]) -> list[str]:
    """:func:`violations` of every state of a game (``states[i + 1]`` follows ``states[i]`` by
    ``actions[i]``), each line prefixed with its step; a placement is checked once for all the states
    that share it."""
    out: list[str] = []
    seen: set[Any] = set()
    for i, s in enumerate(states):
        if not s.anchors:
            continue
        key = s.standing().key
        prev, act = (states[i - 1], actions[i - 1]) if i else (None, None)
        moved = prev is not None and bool(prev.anchors) and (is_move(prev, act) or is_deployed(prev, act))
        if key in seen and not moved:
            continue
        seen.add(key)
        out += [f"step {i}: {v}" for v in violations(s, prev if moved else None, act)]
    return out


__all__ = ["MOVES", "game_violations", "groups", "is_deployed", "is_move", "violations", "zone_violations"]
