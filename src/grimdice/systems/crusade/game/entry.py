"""FORCE ENTRY on a table (VI MOVEMENT, I ACTIONS "Attempt a forced entry, Close a forced entry").

VI: "If the building is occupied by enemy troops, you must FORCE ENTRY before moving in- make any
kind of attack on the building while adjacent, and roll > the building's armor. Do not add +1 for
area/line effect. +P still adds 1 to your roll however. If successful, place a marker next to you-
any troops within 3" of the marker and adjacent to the building may move in. If the building has
mixed forces inside, you do not have to force entry to move in. If inside the building and not
mixed forces, you may close a forced entrance that is within 3" by spending an action. ... When
moving between adjacent sectors ... you may have to force entry as if entering a building".

``["force", sector, weapon]``: the active model, beside a sector that holds enemies alone (from
outside or from another sector), rolls a usable weapon's dice against the building's armour
(:func:`grimdice.systems.crusade.actions.force_entry_chance`), a chance node ``["force", 1 | 0]``;
made, a marker (its position, the sector) lets models within 3" of it step into that sector
(reading ``forced_entry``: the marker is where the model stands). ``["close_entry", n]``: a model
inside the marker's sector, within 3" of it, closes entry ``n``.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.actions import force_entry_chance
from grimdice.systems.crusade.game.big import is_big
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import READY, GameState
from grimdice.systems.crusade.game.table import TableBoard

REACH = 3  # VI: "any troops within 3" of the marker"; "a forced entrance that is within 3""


@lru_cache(maxsize=512)
def _chance(dice: str, armour: int, penetrating: bool) -> float:
    return force_entry_chance(dice, armour, penetrating)


def _held(s: GameState, sectors: tuple[int, ...]) -> set[int]:
    """Those of ``sectors`` that hold models of the other force and none of the player's (VI: not
    mixed), the models looked at once."""
    board = s.setup.board
    sides: dict[int, set[int]] = {}
    for t in s.tokens:
        if t.on_board:
            k = board.indoors(t.sq)  # type: ignore[attr-defined]
            if k in sectors:
                sides.setdefault(k, set()).add(t.side)
    return {k for k, there in sides.items() if s.player not in there}


def sectors_beside(s: GameState, i: int) -> list[int]:
    """The sectors held by enemies alone beside token ``i``'s cell (not its own)."""
    board = s.setup.board
    if not isinstance(board, TableBoard):
        return []
    p = s.tokens[i].sq
    if board.indoors(p) < 0 and p[2] != board.lattice.levels_at((p[0], p[1]))[0]:
        return []  # on a roof or a block: not beside the building's walls
    beside = board.sectors_beside(p)
    if not beside:
        return []
    held = _held(s, beside)
    # IX BIG: only through a forced entry
    return [k for k in beside if k in held or (is_big(s, i) and board.indoors(p) != k)]


def actions(s: GameState) -> list[tuple[Any, ...]]:
    """``["force", sector, weapon]`` for each usable weapon and each sector beside held by enemies;
    ``["close_entry", n]`` for each forced entry of the model's own sector within 3"."""
    i = s.active
    t = s.tokens[i]
    if t.blip or not isinstance(s.setup.board, TableBoard):
        return []
    board = s.setup.board
    out: list[tuple[Any, ...]] = []
    weapons = s.setup.profiles[t.profile].weapons
    for k in sectors_beside(s, i):
        out.extend(
            ("force", k, w.name)
            for n, w in enumerate(weapons)
            if t.arms[n] == READY and chance(s, k, w.name) > 0
        )
    here = board.indoors(t.sq)
    if here < 0 or not s.breaches:
        return out  # outside, or no forced entry to close
    mixed = any(o.on_board and o.side != t.side and board.indoors(o.sq) == here for o in s.tokens)
    for n, (marker, sector) in enumerate(s.breaches):
        if sector == here >= 0 and not mixed and board.range(t.sq, marker) <= REACH:
            out.append(("close_entry", n))
    return out


def chance(s: GameState, sector: int, weapon: str) -> float:
    """P(the active model's ``weapon`` forces an entry into ``sector``)."""
    t = s.tokens[s.active]
    k = [w.name for w in s.setup.profiles[t.profile].weapons].index(weapon)
    arm = s.setup.fighters[t.profile].arms[k]
    armour = s.setup.board.sector_armour(sector)  # type: ignore[attr-defined]
    return _chance(str(s.setup.profiles[t.profile].weapons[k].dice), armour, bool(arm.fx.get("penetrating")))


def start(s: GameState, sector: int, weapon: str) -> GameState:
    """The attempt, an action: its chance pending (a weapon that cannot make it is not offered)."""
    p = chance(s, sector, weapon)
    s = altered(s.with_token(s.active, hidden=False), acted=True, attacked=True)
    return altered(s, pending=("force", s.active, sector, p))


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    p = s.pending[3]
    return [(("force", 1), p), (("force", 0), 1 - p)]


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    _, i, sector, _ = s.pending
    s = altered(s, pending=())
    if not outcome[1]:
        return s
    return altered(s, breaches=(*s.breaches, (s.tokens[i].sq, sector)))


def close(s: GameState, n: int) -> GameState:
    """VI: "you may close a forced entrance that is within 3" by spending an action"."""
    return altered(s, breaches=s.breaches[:n] + s.breaches[n + 1 :], acted=True)


__all__ = ["REACH", "actions", "close", "outcomes", "resolve", "sectors_beside", "start"]
