"""IX CONTROL in the game: a kill its killer may turn into a turn of control over the target.

IX: "CONTROL: Instead of killing a target, may take control of them for 1 turn: move and attack as
normal." Reading ``control``: when a CONTROL model's own attack kills an enemy model (a shot, a
melee, a melee across a ladder; in the enemy's turn a ZOC melee, a snap shot or an ambush; a shot
at several models: the first enemy it kills in the order of its targets, one choice an attack),
its player chooses (``["control", j]`` or ``["pass"]``) before anything else follows: passing, the
model is killed; taking control, the model keeps the condition and hits it had before the attack
and fights for the controller. "1 turn" is the controller's next turn: the model is not activated
in the rest of this turn nor by its owner in the owner's next turn; in the controller's next turn
the controller activates it as one of its own (its move and one action, at its owner's models too);
when the owner's turn after that begins, it is the owner's again. Taken in the owner's turn, an
activation of the model ends there. While controlled it counts for the controller (a force whose
standing models are all under the enemy's control is beaten, reading ``victory``). The simple AI
kills.
"""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, has_code

#: the owner's turn starts until a controlled model is its owner's again (the owner's next turn,
#: then the owner's turn after the controller's next; one fewer when taken in the owner's turn)
SPELL = 2
#: the attacks whose kill may be turned into control: the model's own, and those it makes in the
#: enemy's turn (V ZOC, IX SNAP FIRE, IX AMBUSH)
ATTACKS = ("shoot", "melee", "ladder", "zoc", "snap", "ambush")


def offer(before: GameState, after: GameState, how: str, i: int, j: int) -> GameState:
    """After attack ``how`` of token ``i`` at ``j``: the choice of control, when ``i`` is a
    CONTROL model and its attack killed the enemy ``j``."""
    t, was = after.tokens[j], before.tokens[j]
    if after.control:  # one choice at a time (a TWO FISTED model's second pistol waits on it)
        return after
    if how not in ATTACKS or t.cond != KILLED or was.cond == KILLED or was.side == before.tokens[i].side:
        return after
    if was.blip or not has_code(before.setup.profiles[before.tokens[i].profile].abilities, "CONTROL"):
        return after
    return altered(after, control=(i, j, was.cond, was.hits))


def offer_many(before: GameState, after: GameState, i: int, targets: tuple[int, ...]) -> GameState:
    """After a shot of token ``i`` at several models: the choice of control over the first enemy
    it killed, in the order of ``targets``."""
    for j in targets:
        after = offer(before, after, "shoot", i, j)
    return after


def actions(s: GameState) -> list[tuple[Any, ...]]:
    return [("pass",), ("control", s.control[1])]


def decide(s: GameState, a: tuple[Any, ...]) -> GameState:
    """``["control", j]``: the model is not killed and fights for the controller; ``["pass"]``."""
    i, j, cond, hits = s.control
    s = altered(s, control=())
    if a[0] != "control":
        return s
    t, me = s.tokens[j], s.tokens[i].side
    owner = t.side if t.owner < 0 else t.owner
    if j == s.active:  # taken in its owner's turn, in its own activation: the activation ends
        s = s.idle()
    if owner == me:  # its own model back from the enemy's control
        return s.with_token(j, cond=cond, hits=hits, horror=0, side=owner, owner=-1, ruled=0, done=True)
    spell = SPELL if me == s.player else SPELL - 1  # "1 turn": the controller's next
    return s.with_token(j, cond=cond, hits=hits, horror=0, side=me, owner=owner, ruled=spell, done=True)


def release(s: GameState, player: int) -> GameState:
    """At the start of ``player``'s turn: its controlled models count one more of its turns; after
    :data:`SPELL` of them they are its own again."""
    for k, t in enumerate(s.tokens):
        if t.owner == player:
            left = t.ruled - 1
            s = s.with_token(k, ruled=left) if left else s.with_token(k, side=player, owner=-1, ruled=0)
    return s


__all__ = ["ATTACKS", "SPELL", "actions", "decide", "offer", "offer_many", "release"]
