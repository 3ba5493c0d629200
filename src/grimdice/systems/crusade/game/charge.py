"""V CHARGE and IV's melees in turn in the grid and table game.

V CHARGE: "All troops may make an additional half move (round down to nearest inch) before
meleeing, with the following exceptions: Models equipped with 2 armor (unless power armor), 3
armor, or a heavy weapon. Wounded and Split Move models may not charge. You may not charge Hidden
models." IV: "If adjacent to multiple targets, you may melee each in turn."

Reading ``charge``: a charge is the model's action, declared at an enemy model it may reach
(``("charge", j)``: not hidden, not a chit, V ENEMY CHITS "Treat unrevealed chits as hidden
models"; within reach: a way to beside it by its steps no longer than its move left and the half
move, :func:`targets`), with its half move added to the move it has left (:func:`declare`); its
melee is at that target (:func:`melee_target`). The half move is spent only on the way to the
target: a step that dips into it is offered only when the model may still stand beside its target
with the move it would have left (:func:`step_ok`; the way measured over the steps the game offers
it, each at its cost the way taken, models in the way: reading ``charge_reach``, :func:`near`,
:mod:`.charge_way`), and once it has dipped into it, the model may not end its activation while
it may melee its target or step on towards it (:func:`dipped`; :func:`.choices.ending`). A
charger whose way is blocked (a model in the way, a ZOC melee that wounded it) ends where it
stands. Once the charge's melee is over (made, or stopped by a snap shot), the half move is gone:
the model keeps at most what is left of its normal move (:func:`settle`).

Reading ``melee_in_turn``: the successive melees are at enemies beside the model where it made its
first melee, while it stands there: once it has moved after a melee (a step, a door opened) or been
moved from there (VIII KNOCKBACK), it makes no further melee in that activation (:func:`in_turn`).
"""

from __future__ import annotations

from functools import lru_cache

from grimdice.systems.crusade.damage import WOUNDED
from grimdice.systems.crusade.game.board import FULL, Pos
from grimdice.systems.crusade.game.charge_way import FAR, harmless, least, shut_out
from grimdice.systems.crusade.game.climb import HANG_DROP
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, Token, has_code

#: a table's diagonal steps cost irrational lengths
EPS = 1e-9


def half(s: GameState, t: Token) -> int:
    """V CHARGE: half the model's move this turn (IX SHAMBLE: the turn's roll), none with 2 armour
    (power armour apart: NSB read as power armour), 3 armour, a heavy weapon or a wound."""
    return _half_of(s.setup, t.profile, t.cond == WOUNDED, s.move_of(t))


@lru_cache(maxsize=1024)
def _half_of(setup: Setup, profile: int, wounded: bool, move: int) -> int:
    from grimdice.systems.crusade.movement import charge_distance

    p = setup.profiles[profile]
    heavy = any(has_code(w.effects, "HEAVY") for w in p.weapons)
    return charge_distance(move, p.armour, setup.fighters[profile].has("nsb"), heavy, wounded)


def beside(s: GameState, j: int) -> tuple[Pos, ...]:
    """The positions beside token ``j`` the active model may stand on (IV: adjacent to it)."""
    board, target = s.setup.board, s.tokens[j].sq
    armour, doors = s.armour_of(s.tokens[s.active]), s.doors()
    return tuple(
        p
        for p in board.within(target, 1)
        if p != target and board.enterable(p, armour) and board.adjacent(p, target, doors)
    )


def near(s: GameState, j: int, bound: float, whole: bool = False, own: bool = False) -> float:
    """The least move from where the active model stands to beside token ``j``, by the steps the
    game offers it, models in the way (reading ``charge_reach``, :func:`.charge_way.least`), or
    :data:`FAR` when more than ``bound``; ``whole``: a whole-move step may be its first;
    ``own``: ``s`` is a state of the game, not one made to look ahead."""
    aim = s.tokens[j].sq
    return FAR if shut_out(s, aim) else least(s, beside(s, j), aim, bound, whole, own)


def after_step(s: GameState, kind: str, to: Pos) -> GameState:
    """Where a step leaves the active model: a door opened or closed (the model stays), else the
    model at ``to`` (its move left not changed: :func:`near` is told it)."""
    if kind in ("open", "close"):
        return altered(s, open_doors=s.open_doors ^ {to})
    return s.with_token(s.active, sq=to)


def targets(s: GameState, i: int) -> list[int]:
    """V CHARGE: the enemy models token ``i`` may charge: not hidden ("You may not charge Hidden
    models"), not a chit, and within reach: its range (as the crow flies) no more than its move
    left and the half move and a step past it, and (for the active model) a way to beside them
    by its steps within that move (:func:`near`)."""
    me = s.tokens[i]
    more = half(s, me)
    if more <= 0:
        return []
    reach, board, side, (x, y) = s.budget + more + 1, s.setup.board, me.side, me.sq[:2]
    whole = s.moved == 0 and s.budget >= s.move_of(me)
    return [  # the cells first: the range is a hypot on a table; the steps last
        j
        for j, t in enumerate(s.tokens)
        if t.side != side
        and -reach <= t.sq[0] - x <= reach
        and -reach <= t.sq[1] - y <= reach
        and t.alive
        and not t.hidden
        and not t.blip
        and board.range(me.sq, t.sq) <= reach
        and (i != s.active or near(s, j, s.budget + more, whole, own=True) < FAR)
    ]


def declare(s: GameState, j: int) -> GameState:
    """The charge at token ``j``: the half move added, the action left a melee at ``j``."""
    more = half(s, s.tokens[s.active])
    return altered(s, budget=s.budget + more, charged=True, charging=(j, more))


def melee_target(s: GameState) -> int:
    """The charge's target while its melee is still to come, else -1."""
    c = s.charging
    return c[0] if c and not _over(s, c[0]) else -1


def _over(s: GameState, j: int) -> bool:
    """The charge at token ``j`` is over: meleed, or no longer there to melee."""
    return j in s.meleed or not s.tokens[j].alive


def step_ok(s: GameState, kind: str, to: Pos, cost: float) -> bool:
    """A step of a charger (:func:`melee_target` not -1): within its normal move, or one after
    which it may still stand beside its target with the move it would have left (:func:`near`
    from where the step leaves it; after a whole-move step, none); a fall or a hang, which ends
    the move and so spends the half move too, only onto a position beside the target, unharmed
    (reading ``charge_reach``)."""
    if kind in ("fall", "hang"):  # the move ends there (reading fall_ends_move): beside, unharmed
        drop = s.tokens[s.active].sq[2] - to[2] - (HANG_DROP if kind == "hang" else 0)
        return to in beside(s, s.charging[0]) and harmless(s, drop)
    if cost != FULL and cost <= s.budget - s.charging[1] + EPS:
        return True
    left = 0.0 if cost == FULL else s.budget - cost
    return near(after_step(s, kind, to), s.charging[0], left) < FAR


def dipped(s: GameState) -> bool:
    """A charger (its melee still to come) that has spent some of its half move."""
    return melee_target(s) >= 0 and s.budget < s.charging[1] - EPS


def settle(s: GameState) -> GameState:
    """After the charge's melee (made or stopped), the half move is gone: "before meleeing" (so
    too when its target is gone before it)."""
    c = s.charging
    if not c or not _over(s, c[0]) or s.pending or s.snap or (s.psy is not None and s.psy.held):
        return s
    return altered(s, budget=max(0, s.budget - c[1]), charging=())


def in_turn(s: GameState) -> bool:
    """IV: "If adjacent to multiple targets, you may melee each in turn": whether the model may
    still melee another enemy: it has meleed, has not moved since its first melee and stands where
    it made it (a knockback ends its melees in turn; the enemies beside it are those beside that
    place, reading ``melee_in_turn``)."""
    return bool(s.meleed) and s.moved <= s.melee_moved + EPS and s.tokens[s.active].sq == s.melee_at


def mark(s: GameState) -> GameState:
    """After each action or outcome: the move used at the model's first melee and where it stood,
    kept (for :func:`in_turn`), and the charge's half move dropped after its melee (:func:`settle`)."""
    if s.meleed and s.melee_moved < 0:
        s = altered(s, melee_moved=s.moved, melee_at=s.tokens[s.active].sq)
    return settle(s) if s.charging else s


__all__ = [
    "after_step",
    "beside",
    "declare",
    "dipped",
    "half",
    "in_turn",
    "mark",
    "melee_target",
    "near",
    "settle",
    "step_ok",
    "targets",
]
