"""A model's action (I ACTIONS) and the chance events it starts: attacks through the calculator's
law (:mod:`.combat`), fails as lasting weapon states (III, VIII), unjamming, the roll-off."""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.actions import unjam_chance
from grimdice.systems.crusade.damage import WOUNDED
from grimdice.systems.crusade.game import (
    artillery,
    berserk,
    caught,
    charge,
    control,
    edge,
    latch,
    many,
    mob,
    ruin,
    situation,
    snap,
    volatile,
    volley,
)
from grimdice.systems.crusade.game.board import Pos
from grimdice.systems.crusade.game.combat import (
    GRAZE_ATTACKER,
    GRAZE_DEFENDER,
    PUSH_ATTACKER,
    PUSH_DEFENDER,
    cached_law,
)
from grimdice.systems.crusade.game.detonate import on_graze
from grimdice.systems.crusade.game.fails import Follow, explode, next_blast, weapon_after, weapon_index
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.horror import rise
from grimdice.systems.crusade.game.moves import reveal_around as _reveal_around
from grimdice.systems.crusade.game.state import READY, GameState, has_code, next_event, turn_start


def act(s: GameState, a: tuple[Any, ...]) -> GameState:
    """Spend the active model's action (or, for a charge, gain its half move)."""
    i = s.active
    t = s.tokens[i]
    kind = a[0]
    if kind in ("shoot", "fists"):  # II; V HIDING: "If you attack ... you will be Revealed"
        shot = s.changed(i, {"hidden": False}, acted=True, attacked=True, pending=_shot(s, i, a))
        return artillery.fired(shot, a)  # VIII ARTILLERY: "May not move and fire"
    if kind == "melee":  # IV; IX SNAP FIRE first, if the defender has it
        from grimdice.systems.crusade.game.snap import declare

        return declare(s, i, int(a[1]))
    if kind == "charge":  # V CHARGE: an additional half move before meleeing, at a target
        return charge.declare(s, int(a[1]))
    if kind == "extra":  # I: "Take an extra full move"; IX BERSERK: then a melee
        return altered(s, budget=s.budget + s.move_of(t), **berserk.after_extra(s, t))
    if kind == "hide":  # V HIDING; IX FURTIVE hides for free
        furtive = has_code(s.setup.profiles[t.profile].abilities, "FURTIVE") and not s.attacked
        return s.changed(i, {"hidden": True}, acted=s.acted or not furtive)
    if kind == "detonate":  # IX DETONATE
        from grimdice.systems.crusade.game import detonate

        return detonate.start(s, str(a[1]))
    if kind == "volley":  # IX VOLLEY FIRE
        from grimdice.systems.crusade.game import volley

        return volley.start(s, a)
    k = weapon_index(s, i, str(a[1]))
    if kind in ("reload", "recover"):  # VIII RELOAD; VIII STICK: recovered by an action
        arms = tuple(READY if n == k else st for n, st in enumerate(t.arms))
        return s.changed(i, {"arms": arms}, acted=True)
    if kind == "unjam":  # VIII JAM: "To unjam, roll a zero on the weapon dice"
        p = unjam_chance(str(s.setup.profiles[t.profile].weapons[k].dice))
        return altered(s, acted=True, pending=("unjam", i, k, p))
    raise ValueError(f"unknown action {a!r}")


def _shot(s: GameState, i: int, a: tuple[Any, ...]) -> tuple[Any, ...]:
    """The attack a shot starts; IX TWO FISTED: ``("fists", j)``, both pistols as one attack."""
    if a[0] == "fists":
        from grimdice.systems.crusade.game import fists

        return fists.pending(s, i, int(a[1]), "shoot", *(int(v) for v in a[2:]))
    how, targets, key = many.plan(s, i, a)  # VIII templates, lines, areas, split and rapid fire
    if how == "shoot":  # IX LATCH ON: "Ranged attacks vs. the latcher will hit BOTH"
        return ("attack", how, i, int(a[1]), key, str(a[2]), latch.also_hit(s, i, int(a[1]), str(a[2]), how))
    if how == "many":  # IX LATCH ON: "hit BOTH" (the latchers' targets the shot does not reach)
        return (
            "attack",
            how,
            i,
            int(a[1]),
            key,
            str(a[2]),
            targets,
            latch.also_hit_many(s, i, targets, str(a[2])),
        )
    return ("attack", how, i, int(a[1]), key, str(a[2]))


def resolve(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """Apply a chance outcome to the pending event."""
    kind = s.pending[0]
    if kind == "first":
        from grimdice.systems.crusade.game.infiltrate import first_round  # IX INFILTRATE: round 0

        first = int(outcome[1])
        return turn_start(altered(s, pending=(), player=first, first=first, round=first_round(s)))
    if kind == "shamble":
        return next_event(altered(s, shamble=int(outcome[1])))
    if kind in ("jump", "scrabble"):  # V JUMPING, SCRABBLING on a table
        from grimdice.systems.crusade.game import climb

        return climb.resolve(s, outcome)
    if kind == "dive":  # V DIVE ATTACK on a table
        from grimdice.systems.crusade.game import dive

        return dive.resolve(s, outcome)
    if kind == "force":  # VI FORCE ENTRY on a table
        from grimdice.systems.crusade.game import entry

        return entry.resolve(s, outcome)
    if kind in ("sector", "collapse", "collateral"):  # VI DAMAGE on a table
        return ruin.resolve(s, outcome)
    if kind == "reinforce":  # X reinforcements: their roll
        from grimdice.systems.crusade.game.arrive import resolve as arrive

        return next_event(arrive(s, outcome))
    if kind == "horror":  # IX HORROR: the face-down model's red die
        return next_event(rise(s, int(s.pending[1]), int(outcome[1])))
    if kind == "detonate":  # IX DETONATE
        from grimdice.systems.crusade.game import detonate

        return detonate.resolve(s, outcome)
    if kind == "unjam":
        _, i, k, _ = s.pending
        if outcome[1]:
            arms = tuple(READY if n == k else st for n, st in enumerate(s.tokens[i].arms))
            s = s.with_token(i, arms=arms)
        return altered(s, pending=())
    how, i, j, key, fired = s.pending[1:6]
    before = s
    if how == "many":
        return _resolve_many(s, outcome)
    if how == "mob":  # IX MOB: a joint melee
        return mob.resolve(s, outcome)
    (ds, as_, wa, wd, push), _ = cached_law(key)[int(outcome[1])]
    if how in ("explode", "malfunction"):  # follow-up rolls: only the target's state changes
        from grimdice.systems.crusade.game.ruin import after_blast

        hit, blasts = volatile.on_kill(
            s, s.with_token(j, cond=ds[0], hits=ds[1]), ((j, bool(push & GRAZE_DEFENDER)),)
        )
        queue = s.pending[6] + on_graze(s, push, i, j) + blasts  # IX DETONATE; VIII VOLATILE
        s = next_blast(wound_marks(hit, s, (j,)), queue)
        return after_blast(s)  # VI: a building shot's collapse after the explosion
    # reading snap_fire: a snap shot's knockback moves nobody, it costs the attacker an inch of move
    s = knock_back(s, i, j, push) if how != "snap" else snap.knocked(s, bool(push & PUSH_DEFENDER))
    s = s.with_token(i, arms=weapon_after(s, i, wa, fired, j))
    if wd:
        s = s.with_token(j, arms=weapon_after(s, j, wd, "", i))
    s = wound_marks(
        s.with_token(j, cond=ds[0], hits=ds[1]).with_token(i, cond=as_[0], hits=as_[1]), s, (i, j)
    )
    s = edge.falls(before, s, (i, j))  # VIII KNOCKBACK: "off an edge, they fall"
    s, queue = fail_rolls(s, how == "shoot", ((i, j, wa), (j, i, wd)))
    queue += on_graze(s, push, i, j)  # IX DETONATE: "Will detonate if grazed"
    s, blasts = volatile.on_kill(
        before, s, ((j, bool(push & GRAZE_DEFENDER)), (i, bool(push & GRAZE_ATTACKER)))
    )
    queue += blasts  # VIII VOLATILE: killed by more than a graze
    s = latch.dislodge(s, push, i, j)  # IX LATCH ON: "Any graze or KB result on the latcher"
    queue += before.pending[6] if len(before.pending) > 6 else ()  # IX TWO FISTED: the second pistol
    if how == "ladder":  # V: a ladder blocked at its far end
        from grimdice.systems.crusade.game.ladder import after

        s = after(before, s, j)
    return next_blast(control.offer(before, s, how, i, j), queue)  # IX CONTROL: instead of killing


def _resolve_many(s: GameState, outcome: tuple[Any, ...]) -> GameState:
    """A shot at several models: each target takes its state from the joint law; a failed roll
    fails the weapon once (III), a volley's one firer's (:func:`.volley.unload`)."""
    rolled_on = many.advance(s, outcome)  # VIII: a shot rolled model by model, a node to come
    if rolled_on is not None:
        return rolled_on
    i, j, _, fired, targets = s.pending[2:7]
    follow = s.pending[7] if len(s.pending) > 7 else ()  # IX LATCH ON: the latchers' targets
    states, moved, failed, grazed, rolled = many.end(s, outcome)
    after = s
    for t, (cond, hits) in zip(targets, states, strict=True):
        after = after.with_token(t, cond=cond, hits=hits)
    if any(moved) and s.pending[8:] != ("snap",):  # VIII KNOCKBACK (reading snap_fire: not a snap shot's)
        squares = many.push_squares(s, i, targets, fired)
        after = _moved(after, [(t, q) for t, q, m in zip(targets, squares, moved, strict=True) if m])
    elif s.pending[8:] == ("snap",):  # IX SNAP FIRE: the attacker's inch of move
        after = snap.knocked(after, moved[0])
    after = edge.falls(s, after, targets)  # VIII KNOCKBACK: "off an edge, they fall"
    after = caught.reveal(s, after, i, targets, fired, rolled)  # V HIDING, VIII BURN: hidden models caught
    wa = fired if failed else ""
    after, bearer = volley.unload(after, s, outcome, failed)
    after, queue = fail_rolls(wound_marks(after, s, targets), True, ((bearer, j, wa),))
    for t, m, g in zip(targets, moved, grazed, strict=True):  # IX LATCH ON: "Any graze or KB result"
        after = latch.dislodge(after, PUSH_DEFENDER * m | GRAZE_DEFENDER * g, i, t)
        queue += on_graze(after, GRAZE_DEFENDER * g, i, t)  # IX DETONATE: "Will detonate if grazed"
    after, blasts = volatile.on_kill(s, after, zip(targets, grazed, strict=True))  # VIII VOLATILE
    queue += blasts
    return next_blast(control.offer_many(s, after, i, targets), queue + follow)  # IX CONTROL


def fail_rolls(
    s: GameState, shooting: bool, fails: tuple[tuple[int, int, str], ...]
) -> tuple[GameState, tuple[Follow, ...]]:
    """VIII EXPLODE and MALFUNCTION after an attack: the rolls that follow each failing weapon
    (``fails``: bearer, opponent, weapon or "")."""
    queue: tuple[Follow, ...] = ()
    for bearer, other, failed in fails:
        code = _fail_code(s, bearer, failed) if failed else ""
        if code == "explode" and s.tokens[bearer].alive:
            s, blast = explode(s, bearer, failed)
            queue += blast
        elif code == "malfunction":  # VIII: the weapon dice vs the user (in melee, the opponent too)
            queue += (("malfunction", bearer, bearer, failed),)
            if not shooting:
                queue += (("malfunction", bearer, other, failed),)
    return s, queue


def knock_back(s: GameState, i: int, j: int, push: int) -> GameState:
    """VIII KNOCKBACK: "move the target 1" away from the attacker" (IX THROW too): each model the
    attack's law moves (``push``) goes one square away from the other (reading ``knockback_grid``)
    when that square is free; when it is not, the law has already stunned it and it stays. The
    squares are those of the attack's situation, decided before anyone moves."""
    moves = []
    for bit, frm, who in ((PUSH_DEFENDER, i, j), (PUSH_ATTACKER, j, i)):
        if push & bit:
            moves.append((who, situation.push_square(s, frm, who)))
    return _moved(s, moves)


def _moved(s: GameState, moves: list[tuple[int, Pos | None]]) -> GameState:
    """Each model knocked back into a free square moves there, in turn (a square another has just
    taken, or None, keeps it where it is), and reveals what a step there would (reading
    ``knockback_reveal``; V HIDING: "if you or your enemy moves such that they have direct line of
    sight to you or are within 1" of you, you will be Revealed"; X: blips beside it)."""
    for who, sq in moves:
        if sq is not None and s.occupant(sq) < 0 and s.tokens[who].alive:
            s = _reveal_around(s.with_token(who, sq=sq), who)
    return s


def wound_marks(after: GameState, before: GameState, who: tuple[int, ...]) -> GameState:
    """Mark the player's models newly wounded in its own turn (VIII WOUND: they ignore it then)."""
    fresh = {
        k
        for k in who
        if after.tokens[k].side == after.player
        and after.tokens[k].cond == WOUNDED
        and before.tokens[k].cond != WOUNDED
    }
    return altered(after, fresh_wounds=after.fresh_wounds | fresh) if fresh else after


def _fail_code(s: GameState, i: int, weapon: str) -> str:
    return s.setup.fighters[s.tokens[i].profile].arms[weapon_index(s, i, weapon)].fail


__all__ = ["act", "fail_rolls", "knock_back", "resolve", "wound_marks"]
