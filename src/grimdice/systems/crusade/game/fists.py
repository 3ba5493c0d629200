"""IX TWO FISTED in the grid game: both pistols fired as one attack.

IX: "TWO FISTED: Any model equipped with two pistols (and no other weapons) may fire each pistol at
6" range or less as a single attack." Reading ``two_fisted``: a TWO FISTED model whose only weapons
are two pistols, both ready, may fire both at one enemy it sees within 6 squares (its player's
``["fists", t]``, its action), as the calculator's combined fire of the two (one roll of both
pistols' dice, a failing roll failing one of them at random); it may still fire either pistol
alone. Both are counted fired (a RELOAD pistol is then unloaded).

"each pistol": reading ``two_fisted_targets``: the two pistols may instead fire at two enemies, each
within 6 squares (``["fists", t, t2]``: the first pistol at ``t``, the second at ``t2``), each
pistol's shot the calculator's single shot with its own roll (and its own fail), the second on the
state the first left (it is not made when the firer no longer stands or ``t2`` is dead). An
ambusher (IX AMBUSH) fires them too, without rapid fire and as not having moved; a MINDLESS or
FERAL model at its nearest targets only, as its other attacks.
"""

from __future__ import annotations

import json
from typing import Any

from grimdice.systems.crusade.game import situation
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import READY, GameState, has_code

#: "6" range or less", in squares (X: a square is an inch)
REACH = 6
#: joins the two pistols' names in the attack's record and log
BOTH = " & "


def pistols(s: GameState, i: int) -> tuple[str, str] | None:
    """Token ``i``'s two ready pistols when it may fire them as one attack, else None."""
    t = s.tokens[i]
    p = s.setup.profiles[t.profile]
    if t.blip or not has_code(p.abilities, "TWO FISTED") or len(p.weapons) != 2:
        return None
    if any(w.kind != "pistol" or BOTH in w.name for w in p.weapons) or any(st != READY for st in t.arms):
        return None
    return p.weapons[0].name, p.weapons[1].name


def actions(s: GameState, i: int, sight: list[int]) -> list[tuple[Any, ...]]:
    """``("fists", j)`` at each enemy in sight within 6 squares, and ``("fists", j, j2)`` at each
    two of them (the first pistol at ``j``), for a model that may."""
    if pistols(s, i) is None:
        return []
    here, board = s.tokens[i].sq, s.setup.board
    near = [j for j in sight if board.range(here, s.tokens[j].sq) <= REACH]
    return [("fists", j) for j in near] + [("fists", j, k) for j in near for k in near if k != j]


def _key(s: GameState, i: int, j: int, weapons: list[str], how: str) -> str:
    data = json.loads(situation.shot(altered(s, moved=0) if how == "ambush" else s, i, j, weapons[0]))
    data["weapons"] = weapons
    if how == "ambush":  # IX AMBUSH: "but may not rapid fire"
        from grimdice.systems.crusade.game.snap import allowed

        for w in data["attacker"]["weapons"]:
            w["effects"] = allowed(w.get("effects", []), ("rapid_fire",))
    return json.dumps(data, sort_keys=True)


def pending(s: GameState, i: int, j: int, how: str = "shoot", j2: int = -1) -> tuple[Any, ...]:
    """The attack ``("fists", j)`` starts: a shot with both pistols combined; ``("fists", j, j2)``:
    the first pistol's shot at ``j``, the second's at ``j2`` to follow (``how``: ``shoot``, or
    ``ambush`` for an ambusher's free attack)."""
    both = pistols(s, i)
    if both is None:
        raise ValueError(f"model {i} may not fire two pistols as one attack")
    if j2 < 0:
        return ("attack", how, i, j, _key(s, i, j, list(both), how), BOTH.join(both))
    return ("attack", how, i, j, _key(s, i, j, [both[0]], how), both[0], ((how, i, j2, both[1]),))


def shot_key(s: GameState, i: int, j: int, pistol: str) -> str:
    """One pistol's single shot of token ``i`` at ``j`` (JSON text)."""
    return _key(s, i, j, [pistol], "shoot")


def second(s: GameState, follow: tuple[Any, ...], rest: tuple[Any, ...]) -> tuple[Any, ...]:
    """A follow-up single shot ``(how, firer, target, weapon)``, pending (the second pistol's; IX
    LATCH ON's at the latcher's target too); or none when the firer no longer stands."""
    how, i, j, weapon = follow
    if not s.tokens[i].standing:
        return ()
    if how == "snap":  # IX SNAP FIRE's shot at a latcher's target: a snap shot too
        from grimdice.systems.crusade.game.snap import snap_shot

        return ("attack", how, i, j, snap_shot(s, i, j, weapon), weapon, rest)
    return ("attack", how, i, j, _key(s, i, j, [weapon], how), weapon, rest)


def fired(name: str) -> list[str]:
    """The weapons an attack's record names (one, or a TWO FISTED pair)."""
    return name.split(BOTH) if name else []


__all__ = ["BOTH", "REACH", "actions", "fired", "pending", "pistols", "second", "shot_key"]
