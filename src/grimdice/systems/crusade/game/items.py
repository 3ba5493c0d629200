"""Items to pick up and carry (V PICKING UP, CARRYING) as scenario objectives of kind ``item``: the
item's force wins when the item lies or is carried on one of its ``to`` squares (ours).

V: "You may pick up items by being adjacent to them and spending an action. You may not pick up
items that an enemy is standing on. If a model standing on or carrying an item is stunned, KOed, or
Killed, you may grab the item." "If you have picked up something heavy (Skrap, Charnel, Ore, a
body), you can carry it around. If you were carrying the item any time during your turn, you may
either move or spend an action, not both (note: if you haven't done anything prior to picking it up
this turn, you may then move but do nothing else). You may drop the item at any time during your
turn for free. ... If you are stunned, killed or KOed, you will drop the item automatically. You
may not carry models that are larger than you." IX HEAVY: "may ignore move penalties for carrying
... items like scrap, ore, or Charnel." IX ANIMAL: "They cannot pick up items."
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.damage import NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token, has_code


def item_objectives(s: GameState) -> list[int]:
    return [k for k, o in enumerate(s.setup.scenario.objectives) if o.kind == "item"]


def has_items(setup: Setup) -> bool:
    """Whether the scenario has items to carry (V CARRYING; ours: an ``item`` objective)."""
    return any(o.kind == "item" for o in setup.scenario.objectives)


def where(s: GameState, n: int) -> Pos:
    """Item ``n``'s square: its carrier's, or where it lies."""
    sq, carrier = s.items[n]
    return s.tokens[carrier].sq if carrier >= 0 else sq


def carries(s: GameState, i: int) -> bool:
    return bool(s.items) and any(c == i for _, c in s.items)


def burdened(s: GameState) -> bool:
    """The active model carried a heavy item this activation and is not HEAVY (IX HEAVY)."""
    if not s.carried:
        return False
    t = s.tokens[s.active]
    f = s.setup.fighters[t.profile]
    heavy = [s.setup.scenario.objectives[k].heavy for k in item_objectives(s)]
    return any(heavy) and not (f.has("heavy") or f.has("big"))


def _can_carry(s: GameState, t: Token) -> bool:
    """Not a blip, not ANIMAL (IX), not SMALL: an item "counts as a normal model for size purposes"
    and a model "may not carry models that are larger than you"."""
    if t.blip:
        return False
    f = s.setup.fighters[t.profile]
    return not (
        f.has("animal") or has_code(s.setup.profiles[t.profile].abilities, "ANIMAL") or f.has("small")
    )


def pickup_actions(s: GameState) -> list[tuple[Any, ...]]:
    """``["pickup", n]`` for each item lying on or next to the active model, no enemy standing on it."""
    i = s.active
    t = s.tokens[i]
    if not _can_carry(s, t):
        return []
    out: list[tuple[Any, ...]] = []
    for n, (_, carrier) in enumerate(s.items):
        if carrier >= 0:
            continue
        sq = where(s, n)
        near = sq == t.sq or s.setup.board.adjacent(t.sq, sq, s.doors())
        guarded = any(
            o.alive and o.side != t.side and o.sq == sq and o.cond in (NONE, WOUNDED) for o in s.tokens
        )
        if near and not guarded:
            out.append(("pickup", n))
    return out


def pick_up(s: GameState, n: int) -> GameState:
    """The action: the item goes with the model; if it had done nothing yet this activation, it may
    still move (V's note)."""
    items = list(s.items)
    items[n] = (where(s, n), s.active)
    first = s.moved == 0 and not s.acted
    return altered(s, items=tuple(items), acted=True, carried=True, pick_first=first)


def drop(s: GameState, i: int) -> GameState:
    """Token ``i`` drops what it carries on its square (free in its turn; automatic when it is
    stunned, KO'd or killed)."""
    items = tuple((s.tokens[i].sq, -1) if c == i else (sq, c) for sq, c in s.items)
    return altered(s, items=items)


def drop_fallen(s: GameState) -> GameState:
    for _, c in s.items:
        if c >= 0 and (not s.tokens[c].standing or s.tokens[c].cond == STUNNED):
            s = drop(s, c)
    return s


def delivered(s: GameState) -> int | None:
    """The force whose item lies or is carried on one of its ``to`` squares (ours)."""
    if not s.items:
        return None  # no item in the game
    for n, k in enumerate(item_objectives(s)):
        o = s.setup.scenario.objectives[k]
        if where(s, n)[:2] in {(q[0], q[1]) for q in o.to} and o.side is not None:
            return o.side
    return None


__all__ = [
    "burdened",
    "carries",
    "delivered",
    "drop",
    "drop_fallen",
    "item_objectives",
    "pick_up",
    "pickup_actions",
    "where",
]
