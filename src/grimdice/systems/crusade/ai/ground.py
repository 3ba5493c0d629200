"""Where the simple AI of a Rules Crusade game stands (ours: the AI's values, not rules). The rules
never import this module.

A position's worth to the active model (:meth:`Ground.worth`) is what it gains there, less what it risks
there, less :data:`STEP_WORTH` for each step it lies from its goal, all from the exact laws the AI
weighs its attacks by (the game's ``combat``, cached by situation):

* its risk (:func:`threat`), the enemy shots it is exposed to there in the enemy's next turn. II
  SHOOTING: "To fire at an opponent, you must have line of sight (LOS) and they may not be
  hidden": each enemy model that may act (standing, not stunned, not a blip) and sees the
  position (the board's ``sight``: on a table from where it stands, heights and buildings
  counted) fires the ready ranged weapon that harms it most, in the situation the game would give
  (:func:`.situation.shot`: the range, and the cover the board's ``cover`` gives: front cover when
  only part of the model is seen, top and front cover in a building, darkness on a grid, "add 1
  to their armor value" when "not less than an inch away"); the risk is the sum of those shots'
  expected harm to it (:func:`.worth.harm`; a flamer template's only when it reaches it);
* its gain (:func:`gain`), while it still has its action: its best shot from there at an enemy
  it would see (:func:`.worth.law_value`), so that height giving sight over cover counts.

A step of progress is worth :data:`STEP_WORTH`, so where its move ends a model leaves the
shortest way for cover or a better shot only when the shots it avoids or gains are worth more than
the steps it gives up (:func:`.players._best_step`: on its way it takes the steps nearer its goal,
the one worth most; the risk is the enemy's next turn's, where its move ends).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.ai.worth import harm, law_value
from grimdice.systems.crusade.damage import WOUNDED
from grimdice.systems.crusade.game import flight, many, situation
from grimdice.systems.crusade.game.answers import kept
from grimdice.systems.crusade.game.board import FULL, Pos
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import READY, GameState, Token
from grimdice.systems.crusade.units import SHOOTING_KINDS as RANGED

STEP_WORTH = 0.1  # a step nearer its goal (ours)


@lru_cache(maxsize=256)
def _ranged(setup: Setup, profile: int) -> tuple[tuple[int, str], ...]:
    """The ranged weapons of a profile: (index, name)."""
    return tuple((k, w.name) for k, w in enumerate(setup.profiles[profile].weapons) if w.kind in RANGED)


def _ready(s: GameState, t: Token) -> list[str]:
    """Token ``t``'s ready ranged weapons."""
    return [name for k, name in _ranged(s.setup, t.profile) if t.arms[k] == READY]


def shooters(s: GameState, side: int) -> list[int]:
    """The enemy models of ``side`` that may fire in their next turn: standing, not stunned (VIII
    STUN: "may take no other actions"), not blips, with a ready ranged weapon."""
    return [
        k
        for k, t in enumerate(s.tokens)
        if t.side != side and t.cond in (0, WOUNDED) and not t.blip and _ready(s, t)
    ]


@lru_cache(maxsize=20_000)
def _expected_harm(key: str, me: tuple[int, int]) -> float:
    """The expected harm a shot in the situation ``key`` does to a target at ``me`` (condition,
    hits left)."""
    return sum(p * harm(me, ds) for (ds, *_), p in cached_law(key))


#: threats and gains already worked out, keyed by what they depend on
_KEPT: dict[tuple[object, ...], float] = {}
KEPT_LIMIT = 50_000  # then it starts afresh


def context(s: GameState) -> tuple[object, ...]:
    """What the worth of the active model's positions depends on besides the position (the key
    its threats and gains are kept by): the setup, the doors, the forced entries, the cards in
    play, and every model as it stands, the active one but for where it stands."""
    i = s.active
    return (
        s.setup,
        s.open_doors,
        s.breaches,
        s.psy,
        i,
        replace(s.tokens[i], sq=()),
        s.tokens[:i],
        s.tokens[i + 1 :],
    )


def threat(
    s: GameState, p: Pos, foes: list[int] | None = None, ctx: tuple[object, ...] | None = None
) -> float:
    """The expected harm of the enemy shots the active model would be exposed to at ``p`` (see the
    module text); ``foes``: :func:`shooters` of its side and ``ctx`` its :func:`context`, when
    already found."""
    me = s.tokens[s.active]
    foes = shooters(s, me.side) if foes is None else foes
    if not foes or me.blip:  # V ENEMY CHITS: "Treat unrevealed chits as hidden models"
        return 0.0
    return kept(_KEPT, ("threat", p, ctx or context(s)), lambda: _threat(s, p, foes), KEPT_LIMIT)


def _threat(s: GameState, p: Pos, foes: list[int]) -> float:
    i = s.active
    board, doors = s.setup.board, s.doors()
    there: GameState | None = None
    total = 0.0
    for k in foes:
        t = s.tokens[k]
        if not board.sight(t.sq, p, doors, ()):
            continue
        if there is None:  # the enemy's next turn: it has not moved
            there = altered(s.with_token(i, sq=p, hidden=False), moved=0)
        total += max(_shot_harm(there, k, i, w) for w in _ready(s, t))
    return total


def _shot_harm(s: GameState, k: int, i: int, weapon: str) -> float:
    """The expected harm of token ``k``'s shot with ``weapon`` at token ``i`` (none from a template
    that does not reach it)."""
    if many.mode(s, k, weapon) == "template" and not many.reached(s, k, i, weapon):
        return 0.0
    me = s.tokens[i]
    return _expected_harm(situation.shot(s, k, i, weapon), (me.cond, me.hits))


def targets(s: GameState) -> list[int]:
    """The enemy models the active model could shoot at, seen: alive, not hidden, not blips."""
    side = s.tokens[s.active].side
    return [j for j, t in enumerate(s.tokens) if t.side != side and t.alive and not t.hidden and not t.blip]


def gain(s: GameState, p: Pos, foes: list[int] | None = None, ctx: tuple[object, ...] | None = None) -> float:
    """The active model's best shot from ``p`` (its expected worth, :func:`.worth.law_value`),
    while it still has its action; 0 when none is worth anything. ``foes``: :func:`targets` and
    ``ctx`` its :func:`context`, when already found."""
    me = s.tokens[s.active]
    if s.acted or s.charged or me.blip or not _ready(s, me):
        return 0.0
    foes = targets(s) if foes is None else foes
    if not foes:
        return 0.0
    moved = p != me.sq or s.moved > 0
    return kept(_KEPT, ("gain", p, moved, ctx or context(s)), lambda: _gain(s, p, foes), KEPT_LIMIT)


def _gain(s: GameState, p: Pos, foes: list[int]) -> float:
    i = s.active
    me = s.tokens[i]
    board, doors = s.setup.board, s.doors()
    there = s if p == me.sq else altered(s.with_token(i, sq=p), moved=max(s.moved, 1))
    best = 0.0
    for j in foes:
        if not board.sight(p, s.tokens[j].sq, doors, ()):
            continue
        for w in _ready(s, me):
            if many.mode(there, i, w) == "template" and not many.reached(there, i, j, w):
                continue
            best = max(best, law_value(there, i, j, situation.shot(there, i, j, w)))
    return best


def ends_move(s: GameState, steps: list[tuple[Any, ...]]) -> list[bool]:
    """Whether each of the active model's ``steps`` ends its move: a whole-move step (V: a tall
    ladder; X: a manhole), or one after which the move left pays for no other step (less than 1)."""
    cost = {(kind, *to): c for kind, to, c in flight.steps_of(s)}
    left = s.budget
    return [(c := cost.get(a, FULL)) == FULL or left - c < 1 - 1e-9 for a in steps]


def ways(
    s: GameState, dist: Mapping[Pos, int], steps: list[tuple[Any, ...]]
) -> tuple[list[tuple[Any, ...]], bool]:
    """The steps the active model weighs: those nearer its goal (``dist``) and those that end its
    move (:func:`ends_move`); and whether it is on its way (a step nearer leaves it more move: it
    does not stop short)."""
    here = dist.get(s.tokens[s.active].sq, 10**6)
    last = ends_move(s, steps)
    near = [dist.get(a[1:], 10**6) < here for a in steps]
    found = [a for a, n, e in zip(steps, near, last, strict=True) if n or e]
    return found, any(n and not e for n, e in zip(near, last, strict=True))


def step_first(
    s: GameState, dist: Mapping[Pos, int], steps: list[tuple[Any, ...]], value: float
) -> tuple[Any, ...] | None:
    """Of the :func:`ways` among ``steps``, the first one to the position worth most
    (:meth:`Ground.worth`, its shot counted), when worth more than a shot worth ``value`` now and
    then the best of its place and those steps without a shot; else None."""
    found, _ = ways(s, dist, steps)
    if not found:
        return None
    ground = Ground(s, dist)
    spots = [tuple(int(v) for v in a[1:]) for a in found]
    now = value + max(ground.rest(p) for p in [s.tokens[s.active].sq, *spots])
    worths = [ground.worth(p) for p in spots]
    top = max(range(len(found)), key=worths.__getitem__)  # the first best
    return found[top] if worths[top] > now + 1e-9 else None


class Ground:
    """The worth of the active model's positions in one decision (:func:`worth`), the enemies it
    fears and aims at found once."""

    def __init__(self, s: GameState, dist: Mapping[Pos, int]) -> None:
        self.s, self.dist = s, dist
        self.shooters = shooters(s, s.tokens[s.active].side)
        self.targets = targets(s)
        self.ctx = context(s)

    def worth(self, p: Pos) -> float:
        """What position ``p`` is worth to the active model: :func:`gain` less :func:`threat` less
        :data:`STEP_WORTH` a step from its goal."""
        return gain(self.s, p, self.targets, self.ctx) + self.rest(p)

    def rest(self, p: Pos) -> float:
        """What position ``p`` is worth to the active model once its action is spent: less
        :func:`threat`, less :data:`STEP_WORTH` a step from its goal."""
        return -threat(self.s, p, self.shooters, self.ctx) - STEP_WORTH * self.dist.get(p, 10**6)


__all__ = [
    "STEP_WORTH",
    "Ground",
    "context",
    "ends_move",
    "gain",
    "shooters",
    "step_first",
    "targets",
    "threat",
    "ways",
]
