"""IX LATCH ON in the game: a model attached to an enemy for a turn.

IX: "LATCH ON: As a melee attack, may attach to a target (remain attached for 1 turn- must relatch
each turn). Ranged attacks vs. the latcher will hit BOTH the latcher and the target! Attacks
against the target will be at +1. The target's ranged attacks are at -1 while latched on. Any graze
or KB result on the latcher will dislodge them. ... While latched, neither model may move, unless
they are different sizes- in which case the larger model can move, taking the smaller model with
them. Size range is as follows: SMALL < Normal Models < HEAVY < BIG and Light Vehicles < Vehicles
< Titans."

Reading ``latch_on``: a LATCH ON model (not a chit) may spend its action, as its melee attack, to
attach to an adjacent enemy model (``["latch", j]``; no roll: the text gives the latch none), one
latcher a target; being a melee attack, a SNAP FIRE target may snap fire at the latcher first (IX
SNAP FIRE: "If you stun or kill them, the melee does not take place": no latch); the latch holds
while both stand (not knocked out or killed) and touch, until its player's next turn begins (then
it may latch again). While it holds:

- a shot at the latcher (in the firer's activation, an ambusher's, or a snap shot) is rolled at
  the latcher, then again at its target, each the calculator's single shot (the calculator reads
  "hit BOTH" as "shoot each"), the second on the state the first left (a snap shot's second one a
  snap shot too); a shot at several models that rolls at a latcher and not at its target is
  followed by a single shot at that target;
- shots and melees at the target are at +1, the target's shots at -1 (the calculator's ``latch:
  target`` / ``firer``; both at once cancel); a shot at several models takes neither;
- a graze (III: one point of damage with one hit left) or a knockback on the latcher, in an attack
  at it or by it, dislodges it (the attack law's marks, :data:`.combat.GRAZE_DEFENDER` ...; in a
  shot at several models the joint law's);
- neither moves, unless their sizes differ: the larger steps (plain steps and doors; no air steps,
  climbs, jumps, ladders or manholes) and the smaller is put on the square the larger left.

The game has no vehicles: boarding and light vehicles' riders are not in play.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.game.board import Step
from grimdice.systems.crusade.game.combat import GRAZE_ATTACKER, GRAZE_DEFENDER, PUSH_ATTACKER, PUSH_DEFENDER
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, has_code

#: the steps a larger model latched to a smaller one may take, carrying it (each leaves it beside
#: the square it left)
CARRY_STEPS = ("move", "open", "close")


@lru_cache(maxsize=64)
def _in_play(setup: Setup) -> bool:
    return any(has_code(p.abilities, "LATCH ON") for p in setup.profiles)


def target_of(s: GameState, i: int) -> int:
    """The model token ``i`` holds latched, or -1 (the latch holds while both stand and touch)."""
    t = s.tokens[i]
    if t.latch < 0:
        return -1
    u = s.tokens[t.latch]
    if not (t.standing and u.standing and s.setup.board.adjacent(t.sq, u.sq, s.doors())):
        return -1
    return t.latch


def latcher_on(s: GameState, j: int) -> int:
    """The model latched onto token ``j``, or -1."""
    if not _in_play(s.setup):  # no LATCH ON model in the game: no look at the models
        return -1
    return next((k for k, t in enumerate(s.tokens) if t.latch == j and target_of(s, k) == j), -1)


def actions(s: GameState, i: int, adjacent: list[int]) -> list[tuple[Any, ...]]:
    """``("latch", j)`` at each adjacent enemy no other model holds, for a LATCH ON model."""
    t = s.tokens[i]
    if t.blip or not has_code(s.setup.profiles[t.profile].abilities, "LATCH ON"):
        return []
    return [("latch", j) for j in adjacent if latcher_on(s, j) in (-1, i)]


def start(s: GameState, j: int) -> GameState:
    """The active model latches onto ``j``: its action, a melee attack ("As a melee attack, may
    attach to a target"; V HIDING: it is revealed), so IX SNAP FIRE's "If you are attacked in melee,
    before the melee occurs, you may fire a pistol" comes first (:func:`.snap.ask`): the latch is
    made once the target's player passes, or after a snap shot that does not stun or kill it."""
    from grimdice.systems.crusade.game.rules import adjacent_enemies
    from grimdice.systems.crusade.game.snap import ask

    i = s.active
    if ("latch", j) not in actions(s, i, adjacent_enemies(s, i)):
        raise ValueError(f"model {i} may not latch onto model {j}")
    return ask(s.changed(i, {"hidden": False}, acted=True, attacked=True), pending(i, j))


def pending(i: int, j: int) -> tuple[Any, ...]:
    """Token ``i``'s latch onto ``j`` as a melee about to be made (:func:`.snap.ask`'s ``pending``;
    no roll, so no situation)."""
    return ("attack", "latch", i, j, "", "")


def attach(s: GameState, i: int, j: int) -> GameState:
    """Token ``i`` is latched onto ``j`` (the latch made: no roll)."""
    return s.with_token(i, latch=j)


def modifier(s: GameState, a: int, t: int, ranged: bool) -> dict[str, str]:
    """The calculator's ``latch`` of token ``a`` attacking token ``t``: +1 against a latched
    target; -1 for a latched target's shots; both cancel; none else."""
    against = latcher_on(s, t) >= 0
    firing = ranged and latcher_on(s, a) >= 0
    if against == firing:
        return {}
    return {"latch": "target" if against else "firer"}


def also_hit(s: GameState, i: int, j: int, weapon: str, how: str) -> tuple[tuple[Any, ...], ...]:
    """The shot that follows a single shot of ``i`` at ``j``: at ``j``'s target when ``j`` is a
    latcher ("Ranged attacks vs. the latcher will hit BOTH")."""
    k = target_of(s, j)
    return ((how, i, k, weapon),) if k >= 0 and k != i else ()


def also_hit_many(
    s: GameState, i: int, targets: tuple[int, ...], weapon: str, how: str = "shoot"
) -> tuple[tuple[Any, ...], ...]:
    """The single shots that follow a shot of ``i`` at several models: one at the target of each
    latcher among ``targets`` that the shot does not already roll at (reading ``latch_on``)."""
    if not _in_play(s.setup):
        return ()
    out: list[tuple[Any, ...]] = []
    for j in targets:
        k = target_of(s, j)
        if k >= 0 and k != i and k not in targets and (how, i, k, weapon) not in out:
            out.append((how, i, k, weapon))
    return tuple(out)


def dislodge(s: GameState, marks: int, i: int, j: int) -> GameState:
    """ "Any graze or KB result on the latcher will dislodge them" (``marks`` of the attack law of
    ``i`` at ``j``)."""
    for bits, who in ((GRAZE_DEFENDER | PUSH_DEFENDER, j), (GRAZE_ATTACKER | PUSH_ATTACKER, i)):
        if marks & bits and s.tokens[who].latch >= 0:
            s = s.with_token(who, latch=-1)
    return s


def release(s: GameState, player: int) -> GameState:
    """At the start of ``player``'s turn its models' latches end ("must relatch each turn")."""
    for k, t in enumerate(s.tokens):
        if t.latch >= 0 and t.side == player:
            s = s.with_token(k, latch=-1)
    return s


def partner(s: GameState, i: int) -> int:
    """The model token ``i`` is latched with (either way), or -1."""
    k = target_of(s, i)
    return k if k >= 0 else latcher_on(s, i)


def _size(s: GameState, i: int) -> int:
    return s.setup.fighters[s.tokens[i].profile].body.size


def steps(s: GameState, i: int, found: Sequence[Step]) -> Sequence[Step]:
    """Token ``i``'s steps while latched: none, unless it is the larger of the two (then plain
    steps and doors, carrying the other)."""
    k = partner(s, i) if _in_play(s.setup) else -1
    if k < 0 or s.tokens[i].blip:
        return found
    if _size(s, i) <= _size(s, k):
        return []
    return [st for st in found if st[0] in CARRY_STEPS]


def carry(before: GameState, after: GameState, i: int) -> GameState:
    """After token ``i``'s step: the smaller model latched with it is put on the square it left
    (where it may stand: else it stays, and the latch is gone)."""
    k = partner(before, i) if _in_play(before.setup) else -1
    left = before.tokens[i].sq
    if k < 0 or _size(before, i) <= _size(before, k):
        return after
    if not before.setup.board.enterable(left, before.armour_of(before.tokens[k])):
        return after.with_token(k, latch=-1).with_token(i, latch=-1)
    return after.with_token(k, sq=left)


__all__ = [
    "CARRY_STEPS",
    "actions",
    "also_hit",
    "also_hit_many",
    "attach",
    "carry",
    "dislodge",
    "latcher_on",
    "modifier",
    "partner",
    "pending",
    "release",
    "start",
    "steps",
    "target_of",
]
