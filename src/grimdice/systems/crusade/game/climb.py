"""Jumps, scrabbles and falls on a table (V JUMPING, SCRABBLING, FALLING): the rolls as chance
nodes, with the exact chances of :mod:`grimdice.systems.crusade.movement`.

V JUMPING: "To Jump, roll 1 red for every 2" of move value (for odd moves, round down and add a
white die). You must roll greater than or equal to the distance + your Armor value. If the roll is
less, you fall. Otherwise, you make the jump- count the distance as part of your move. You may
automatically make jumps across gaps of 1" or less." SCRABBLING: "If the roll is greater than or
equal to 1 + your Armor value, you have made it! Attempting a scrabble counts as a full move.
Failing a scrabble simply leaves you at the bottom (you don't fall)." FALLING: "For every 4" you
fall, take 1 hit (graze = stun)."
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.game.board import FULL, Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState
from grimdice.systems.crusade.movement import falling, jump_chance, scrabble_chance

#: the steps that roll or fall (the table's step kinds)
CLIMBS = ("jump", "scrabble", "fall", "hang")
HANG_DROP = 3  # V: "HANG AND DROP: this reduces the jump down distance by 3""


@lru_cache(maxsize=4096)
def _jump(gap: float, move: int, armour: int, up: int, leap: bool, trot: bool) -> float:
    return jump_chance(gap, move, armour, up, leap, trot)


@lru_cache(maxsize=256)
def _scrabble(move: int, armour: int, height: int) -> float:
    return scrabble_chance(move, armour, height)


def chance(s: GameState, kind: str, to: Pos) -> float:
    """The active model's chance of making a jump or a scrabble to ``to`` (1 for a fall or a hang):
    its move value's dice (IX LEAP +3, TROT +2 to a jump; TROT may not scrabble)."""
    t = s.tokens[s.active]
    if kind not in ("jump", "scrabble") or t.blip:
        return 1.0
    p = s.setup.profiles[t.profile]
    fx = s.setup.fighters[t.profile]
    if kind == "scrabble":
        return 0.0 if fx.has("trot") else _scrabble(p.move, p.armour, to[2] - t.sq[2])
    gap, up = s.setup.board.gap_of(t.sq, to)  # type: ignore[attr-defined]
    return jump_odds(s, gap, up)


def jump_odds(s: GameState, distance: float, up: int) -> float:
    """V JUMPING for the active model: "roll 1 red for every 2" of move value ... greater than or
    equal to the distance + your Armor value" (IX LEAP +3, TROT +2)."""
    t = s.tokens[s.active]
    p = s.setup.profiles[t.profile]
    fx = s.setup.fighters[t.profile]
    return _jump(round(distance, 9), p.move, p.armour, up, fx.has("leap"), fx.has("trot"))


def start(s: GameState, kind: str, to: Pos, cost: float) -> GameState:
    """The step: a roll pending, or (a sure jump, a fall, a hang) made at once."""
    from grimdice.systems.crusade.game.moves import step

    p = chance(s, kind, to)
    if kind in ("jump", "scrabble") and p < 1:
        return altered(s, pending=(kind, tuple(to), cost, p))
    if kind in ("fall", "hang"):
        return fall(
            step(s, to, cost), s.tokens[s.active].sq[2] - to[2] - (HANG_DROP if kind == "hang" else 0)
        )
    return step(s, to, cost)


def outcomes(s: GameState) -> list[tuple[tuple[Any, ...], float]]:
    kind, _, _, p = s.pending
    return [((kind, 1), p), ((kind, 0), 1 - p)]


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """The roll's end: made, the step; a failed jump, a fall into the gap (reading ``jump_fall``);
    a failed scrabble, the model stays at the bottom with its move spent."""
    from grimdice.systems.crusade.game.moves import step

    kind, to, cost, _ = s.pending
    s = altered(s, pending=())
    if outcome[1]:
        return step(s, tuple(to), cost)
    if kind == "scrabble":
        return altered(s, budget=0, moved=s.moved + 1)
    here = s.tokens[s.active].sq
    land = s.setup.board.landing(here, tuple(to))  # type: ignore[attr-defined]
    if land != here and s.occupant(land) >= 0:
        land = here
    s = step(s, land, FULL) if land != here else altered(s, budget=0, moved=s.moved + 1)
    return fall(s, here[2] - land[2])


def fall(s: GameState, height: float) -> GameState:
    """V FALLING on the active model: 1 hit per 4" (a graze stuns; IX FLY takes none); its move
    ends (reading ``fall_ends_move``)."""
    i = s.active
    t = s.tokens[i]
    s = altered(s, budget=0)
    if height < 4 or t.blip:
        return s
    body = s.setup.fighters[t.profile].body
    cond, hits = falling(height, (t.cond, t.hits), body, fly=body.fly)
    if cond != t.cond:
        s = altered(s, acted=True)  # reading fall_ends_move: a fall that harms ends its turn's doings
    return s.with_token(i, cond=cond, hits=hits)


__all__ = ["CLIMBS", "chance", "fall", "jump_odds", "outcomes", "resolve", "start"]
