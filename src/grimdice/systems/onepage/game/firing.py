"""Which weapons may fire in the game: Vehicle weapon arcs, Indirect and Limited weapons.

Weapon arcs: "When shooting Vehicles measure line of sight from the barrel of the weapon that they
are firing, being restricted by the firing arc of the weapon. This means that turrets which are able
to turn 360° can fire in all directions, whilst weapons which are mounted in the front of the vehicle
can only fire straight." An army file's Vehicle entry may give ``arcs: {WEAPON: turret|front}``
(default turret; ``army.read_play_fields``). A front-mounted weapon fires only at a target with a
model in the Vehicle's front quarter (the front facing's 90° arc, ``facing.py``; our reading of
"can only fire straight"), seen from the Vehicle's centre with the heading it has after its move (a
Walk turns it, see ``facing.turned``). On Hold it pivots to face its target first ("may pivot by up
to 180° when using Hold actions"), so every weapon bears, unless it is Immobile. The weapons out of
arc are left out of the unit the exact engine shoots with (:func:`armed`).

Indirect: "Weapons with this special rule may be fired at enemies that are not within line of
sight, however when fired at targets not within line of sight they count as being in Cover." Line of
sight is a model's ("All models in a unit that have line of sight to an enemy unit ... may fire"), so
a model that does not see the target may fire its Indirect weapon at it. A target that no model of
the unit sees is still a valid target when some model has an Indirect weapon in range of it: then
only Indirect weapons fire (``Conditions.no_line_of_sight``: Cover), at the distance of the farthest
model in Indirect range (:func:`blind_reach`). When some models see the target and others do not,
the shooting has two parts resolved as one (one plan, one casualty removal, one morale test: the
exact engine's ``shooting_table`` with the plan of :func:`mixed_plan`): the models that see fire as
usual, the others fire their Indirect weapons, whose hits count the target as in Cover
(:func:`blind_extra`, :func:`parts`). Which models fire is counted, not named: the firing models are
the first ones alive in listed group order (the exact engine's convention), those that see first.
The models counted as firing blind are those in Indirect range that see no target model when every
group carries an Indirect weapon, else all the unit's other models, since counting fewer could leave
out the ones carrying the Indirect weapon (our simplification, :func:`blind_firers`; a model without
an Indirect weapon fires nothing blind).

Limited: "Weapons with this special rule may only be fired once per game." A unit with an unspent
Limited weapon chooses ``["shoot", t]`` (holding them back: ``Conditions.limited_fired``) or
``["shoot", t, "limited"]`` (its unspent weapons may fire); the latter only where a Limited weapon
can fire at ``t`` (in range, in arc, with line of sight or Indirect: :func:`limited_can_fire`). Only
the Limited weapons the shooting's plan fires are spent (the exact engine's plan,
``exact.best_shooting``, the one the shooting then resolves: :func:`limited_fired_by`), each by name
in ``GameState.spent`` as ``(unit, weapon)``; a spent weapon is left out of the unit's later
shootings like a weapon out of arc (:func:`unusable`). Our reading: a weapon fired by some of the
unit's models is spent for all of them (the exact engine counts the models firing, not which ones).
"""

from __future__ import annotations

import itertools
import math
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.table.blocks import EPS, pair_distances
from grimdice.systems.onepage.attack import Fire, merge
from grimdice.systems.onepage.game import screening
from grimdice.systems.onepage.game.cache import firing_state, recall
from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.units import Unit, UnitState

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

ARCS = ("turret", "front")  # the text's two mountings
LIMITED = "limited"


# ---------------------------------------------------------------------- arcs


def heading_at(s: GameState, u: int, anchor: tuple[float, float] | None) -> float:
    """The Vehicle's heading once at ``anchor``: a forward move turns it to the move's direction, a
    reverse keeps it (as ``facing.turned``)."""
    from grimdice.systems.onepage.game import facing

    h = facing.heading(s, u)
    if anchor is None:
        return h
    dx, dy = anchor[0] - s.anchors[u][0], anchor[1] - s.anchors[u][1]
    if math.hypot(dx, dy) < EPS or facing.off_heading(s, u, dx, dy) > math.pi / 2 + EPS:
        return h
    return math.atan2(dy, dx)


def in_front(s: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> bool:
    """Some model of ``t`` in the front quarter (within 45° of the heading) of Vehicle ``u``."""
    h = heading_at(s, u, anchor)
    c = s.models(u, anchor).mean(axis=0)
    d = s.models(t) - c
    off = np.abs((np.arctan2(d[:, 1], d[:, 0]) - h + math.pi) % (2 * math.pi) - math.pi)
    return bool((off <= math.pi / 4 + EPS).any())


def out_of_arc(s: GameState, u: int, t: int, anchor: tuple[float, float] | None, action: str) -> str:
    """The names (``|``-joined, sorted; "" for none) of ``u``'s weapons that cannot bear on ``t``."""
    fronts = sorted(w for w, arc in s.setup.arcs[u].items() if arc == "front")
    if not fronts or (action == "hold" and not s.units[u].immobile):  # Hold: pivots to the target
        return ""
    return "" if in_front(s, u, t, anchor) else "|".join(fronts)


def can_bear(s: GameState, u: int, t: int, anchor: tuple[float, float] | None, action: str) -> bool:
    """Some ranged weapon of ``u`` can bear on ``t`` (always, unless every one is out of arc)."""
    off = out_of_arc(s, u, t, anchor, "hold" if action == "hold" else "walk")
    if not off:
        return True
    names = set(off.split("|"))
    return any(w.name.lower() not in names for g in s.setup.units[u].groups for w in g.weapons if w.range)


def armed(unit: Unit, off: str) -> Unit:
    """``unit`` without its ranged weapons named in ``off`` (see :func:`out_of_arc`)."""
    if not off:
        return unit
    names = set(off.split("|"))
    groups = tuple(
        replace(g, weapons=tuple(w for w in g.weapons if w.melee or w.name.lower() not in names))
        for g in unit.groups
    )
    return replace(unit, groups=groups)


# ---------------------------------------------------------------------- Indirect


def blind_reach(s: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[int, float]:
    """(models of ``u`` with a target model within their Indirect range, the farthest such model's
    distance), line of sight ignored."""

    rng = s.weapon_range(u, indirect=True)
    if rng <= 0:
        return 0, 0.0

    def compute() -> tuple[int, float]:
        b = s.models(t)
        radii = np.full(len(b), s.setup.radii[t])
        d = pair_distances(s.models(u, anchor)[None, :, :], s.setup.radii[u], b, radii)
        best = d[0].min(axis=1)
        ok = best <= rng + EPS
        return int(ok.sum()), float(best[ok].max()) if ok.any() else 0.0

    key = ("blind", s.units[u].alive, s.placed(u, anchor), s.placed(t))
    return recall(s.setup, key, compute)


def blind_firers(s: GameState, u: int, n: int) -> int:
    """The models counted as firing Indirect weapons without line of sight, ``n`` of them in range:
    ``n`` when every group with models alive has an Indirect weapon (which ``n`` models fire then
    changes nothing); else all the unit's models, since the exact engine counts firing models in
    listed group order and counting fewer could leave out the ones carrying the Indirect weapon."""
    unit, st = s.setup.units[u], s.units[u]
    if all(
        any(w.has("indirect") for w in g.weapons) for g, k in zip(unit.groups, st.alive, strict=True) if k
    ):
        return n
    return st.models


def reach(s: GameState, u: int, t: int, anchor: tuple[float, float] | None = None) -> tuple[int, float, bool]:
    """(models that fire at ``t``, the farthest one's distance, without line of sight): the models
    that see a model of ``t`` within the range of a weapon they carry (``GameState.firers``), else
    those with an Indirect weapon in range. The firers and the farthest distance are read from the
    same lines (``GameState.firing_sight``): a model with a weapon in range of a model it sees is
    among those that see."""
    _counts, able, _n, far = s.firing_sight(u, t, anchor)
    if able:
        return able, far, False
    n, far = blind_reach(s, u, t, anchor)
    return n, far, bool(n)


def blind_extra(
    s: GameState, u: int, t: int, anchor: tuple[float, float] | None, n: int
) -> tuple[int, float]:
    """When ``n`` models of ``u`` see ``t`` (``n`` > 0): (models counted as firing their Indirect
    weapons at ``t`` without line of sight, the distance they fire at: the farthest such model's,
    rounded up to an Indirect range); (0, 0.0) when none."""
    rng, left = s.weapon_range(u, indirect=True), s.units[u].models - n
    if rng <= 0 or left <= 0:
        return 0, 0.0

    def compute() -> tuple[int, float]:
        a, b = s.models(u, anchor), s.models(t)
        d = pair_distances(a[None, :, :], s.setup.radii[u], b, np.full(len(b), s.setup.radii[t]))[0]
        near = d <= s.weapon_range(u) + EPS
        ii, jj = np.nonzero(near)
        seen = np.zeros(d.shape, dtype=bool)  # as GameState.firing_sight: a model in range that sees one
        seen[ii, jj] = screening.open_lines(s, u, t, a[ii], b[jj])
        best = d.min(axis=1)
        blind = (best <= rng + EPS) & ~seen.any(axis=1)
        if not blind.any():
            return 0, 0.0
        k = min(left, blind_firers(s, u, int(blind.sum())))  # all the others in a mixed unit
        far = float(best[blind].max())
        ranges = sorted(
            {w.range for g in s.setup.units[u].groups for w in g.weapons if w.has("indirect") and w.range}
        )
        return k, next((float(r) for r in ranges if r >= far - EPS), far)  # as GameState._shot_where

    key = ("blind extra", n, *screening.sight_key(s, u, t, anchor))
    return recall(s.setup, key, compute)


def parts(unit: Unit, su: UnitState, key: tuple[Any, ...]) -> list[tuple[UnitState, Conditions]]:
    """The parts of a shooting with situation ``key``: (the models firing, their conditions). One
    part, or two when some models see the target and others fire Indirect weapons without line of
    sight (``key[7]`` = (those models, their distance)): the models that see fire what is in range
    of each (``key[0]``: models per weapon, ``attack.shooters_by_weapon``); of the first ``key[1]``
    alive in listed group order, the last ones fire blind (``no_line_of_sight``: Indirect only,
    Cover)."""
    from grimdice.systems.onepage.game.combat import conditions_of

    c, firing = conditions_of("shoot", key), firing_state(su, key[1])
    per_weapon = isinstance(key[0], tuple)
    if not isinstance(key[7], tuple):
        return [(firing_state(su, su.models) if per_weapon else firing, c)]
    n_blind, dist = key[7]
    seeing = firing_state(su, key[1] - n_blind)
    rest = tuple(x - y for x, y in zip(firing.alive, seeing.alive, strict=True))
    blind = UnitState(rest, (0,) * len(rest), shaken=su.shaken)
    blind_c = c.model_copy(
        update={"distance": dist, "in_range": None, "weapons_in_range": None, "no_line_of_sight": True}
    )
    return [(firing_state(su, su.models) if per_weapon else seeing, c), (blind, blind_c)]


def mixed_plan(
    unit: Unit, su: UnitState, target: Unit, st: UnitState, key: tuple[Any, ...]
) -> list[Fire] | None:
    """The plan of a shooting in two :func:`parts` (each part's plan, ``exact.best_shooting``,
    fired together); None for a shooting in one part (the exact engine chooses its plan)."""
    from grimdice.systems.onepage.exact import best_shooting

    ps = parts(unit, su, key)
    if len(ps) == 1:
        return None
    fires: list[Fire] = []
    for state, c in ps:
        fires += best_shooting(unit, state, target, st, c)[0]
    return merge(fires)


# ---------------------------------------------------------------------- Limited


def limited_names(s: GameState, u: int) -> list[str]:
    """The names (lower case, sorted) of ``u``'s ranged Limited weapons."""
    unit = s.setup.units[u]
    return sorted(
        {w.name.lower() for g in unit.groups for w in g.weapons if w.range is not None and w.has(LIMITED)}
    )


def spent_names(s: GameState, u: int) -> list[str]:
    """The names of ``u``'s Limited weapons already fired this game."""
    return sorted(w for v, w in s.spent if v == u)


def has_limited(s: GameState, u: int) -> bool:
    return bool(limited_names(s, u))


def spent(s: GameState, u: int) -> bool:
    """Every Limited weapon of ``u`` fired (none left to choose)."""
    return has_limited(s, u) and len(spent_names(s, u)) == len(limited_names(s, u))


def unusable(s: GameState, u: int, t: int, anchor: tuple[float, float] | None, action: str) -> str:
    """The names (``|``-joined, sorted) of ``u``'s weapons that cannot fire at ``t``: out of arc
    (:func:`out_of_arc`) or Limited and already fired; :func:`armed` leaves them out."""
    arc, names = out_of_arc(s, u, t, anchor, action), spent_names(s, u)
    if not names:
        return arc
    return "|".join(sorted({*names, *arc.split("|")} - {""}))


def limited_can_fire(
    s: GameState, u: int, t: int, anchor: tuple[float, float] | None = None, action: str | None = None
) -> bool:
    """Some model of ``u`` that fires at ``t`` may fire a Limited weapon (in range, in arc, with line
    of sight or Indirect), as the exact engine's :func:`~grimdice.systems.onepage.attack.shooters`
    counts the models and their usable weapons."""
    from grimdice.systems.onepage.attack import shooters

    key = s.shot_key(u, t, anchor, action, limited=False)
    if not key[1]:
        return False
    unit = armed(s.setup.units[u], key[6])
    return any(
        w.has(LIMITED)
        for state, c in parts(unit, s.units[u], key)
        for _, _, ws in shooters(unit, state, c)
        for w in ws
    )


def shoot_actions(
    s: GameState,
    u: int,
    targets: list[int],
    anchor: tuple[float, float] | None = None,
    action: str | None = None,
) -> list[list[Any]]:
    """``["shoot", t]`` per target, and ``["shoot", t, "limited"]`` while ``u``'s Limited weapons are
    unspent and one of them can fire at ``t`` (a choice that fires none would spend them unfired)."""
    out: list[list[Any]] = []
    extra = has_limited(s, u) and not spent(s, u)
    for t in targets:
        out.append(["shoot", t])
        if extra and limited_can_fire(s, u, t, anchor, action):
            out.append(["shoot", t, LIMITED])
    return out


def limited_fired_by(s: GameState, u: int, t: int, key: tuple[Any, ...]) -> list[str]:
    """The Limited weapons the shooting of ``u`` at ``t`` with situation ``key`` fires: those in the
    exact engine's plan (``exact.best_shooting``, with the inputs ``state.combat_law`` gives it)."""
    from grimdice.systems.onepage.exact import best_shooting

    unit, a, d, st = armed(s.setup.units[u], key[6]), s.units[u], s.setup.units[t], s.units[t]
    fires = mixed_plan(unit, a, d, st, key)
    if fires is None:
        ((state, c),) = parts(unit, a, key)
        fires = best_shooting(unit, state, d, st, c)[0]
    return sorted({f.odds.weapon.name.lower() for f in fires if f.odds.weapon.has(LIMITED)})


def fired(s: GameState, u: int, t: int, a: list[Any], key: tuple[Any, ...]) -> GameState:
    """The state after ``u`` fired at ``t`` with action ``a`` (situation ``key``): the Limited
    weapons it fired are spent ("may only be fired once per game")."""
    if len(a) > 2 and a[2] == LIMITED:
        new = [(u, w) for w in limited_fired_by(s, u, t, key) if (u, w) not in s.spent]
        if new:
            return replace(s, spent=tuple(sorted((*s.spent, *new))))
    return s


def limited_held(s: GameState, u: int, a: list[Any]) -> bool:
    """``Conditions.limited_fired`` of the shot: the Limited weapons are spent or held back."""
    return not (len(a) > 2 and a[2] == LIMITED)


__all__ = [
    "ARCS",
    "LIMITED",
    "SPLIT",
    "SPLIT_CAP",
    "armed",
    "blind_extra",
    "blind_firers",
    "blind_reach",
    "can_bear",
    "fired",
    "heading_at",
    "in_front",
    "is_split",
    "limited_can_fire",
    "limited_fired_by",
    "limited_held",
    "limited_names",
    "mixed_plan",
    "out_of_arc",
    "parts",
    "reach",
    "shoot_actions",
    "spent",
    "spent_names",
    "split_actions",
    "split_shots",
    "split_weapons",
    "unusable",
]


# ---------------------------------------------------------------------- Relentless split fire

SPLIT = "split"
#: the most split assignments offered per shooting (``itertools.product`` order over the weapons)
SPLIT_CAP = 16


def split_weapons(s: GameState, u: int, action: str) -> list[str]:
    """The weapon profiles (lower-case names, sorted) a Relentless unit on Hold may aim apart:
    "Units with this special rule may fire all of their weapons when using Hold actions, even at
    different targets". One target per weapon profile (not per model, our reading); Limited weapons
    are held back in a split (they fire only in the one-target ``["shoot", t, "limited"]``)."""
    unit = s.setup.units[u]
    if action != "hold" or not unit.has("relentless"):
        return []
    return sorted(
        {
            w.name.lower()
            for g, n in zip(unit.groups, s.units[u].alive, strict=True)
            if n
            for w in g.weapons
            if w.range is not None and not w.has(LIMITED)
        }
    )


def _may_fire(s: GameState, u: int, name: str, key: tuple[Any, ...]) -> bool:
    """Weapon ``name`` of ``u`` fires in the shooting with situation ``key``: some model fires, the
    weapon is not out of arc or spent, and the exact engine would use it (``attack.usable_weapon``:
    in range of the key's distance, Indirect when no model sees)."""
    from grimdice.systems.onepage.attack import usable_weapon
    from grimdice.systems.onepage.game.combat import conditions_of

    if not key[1] or name in key[6].split("|"):
        return False
    c = conditions_of("shoot", key)
    return any(
        usable_weapon(w, c) for g in s.setup.units[u].groups for w in g.weapons if w.name.lower() == name
    )


def split_actions(s: GameState, u: int, targets: list[int], action: str) -> list[list[Any]]:
    """The split assignments of a Relentless unit on Hold: ``["shoot", first, "split", t_1, ...,
    t_k]``, ``t_i`` the target of the ``i``-th of :func:`split_weapons` (-1: it fires at none), each
    valid for that weapon (:func:`_may_fire`), at least two targets named; ``first`` is the target
    the unit pivots to ("may pivot by up to 180° when using Hold actions"): its front-mounted
    weapons' one target, else the first aimed weapon's. At most :data:`SPLIT_CAP`."""
    names = split_weapons(s, u, action)
    if len(names) < 2 or len(targets) < 2:
        return []
    fronts = {w for w, arc in s.setup.arcs[u].items() if arc == "front"}
    keys = {t: s.shot_key(u, t, None, action, limited=True) for t in targets}
    options = [[t for t in targets if _may_fire(s, u, w, keys[t])] or [-1] for w in names]
    out: list[list[Any]] = []
    for combo in itertools.product(*options):
        aimed = [t for t in combo if t >= 0]
        front = {t for w, t in zip(names, combo, strict=True) if w in fronts and t >= 0}
        if len(set(aimed)) < 2 or len(front) > 1:
            continue
        out.append(["shoot", front.pop() if front else aimed[0], SPLIT, *combo])
        if len(out) == SPLIT_CAP:
            break
    return out


def is_split(a: list[Any]) -> bool:
    return len(a) > 2 and a[2] == SPLIT


def split_shots(s: GameState, u: int, a: list[Any], action: str) -> list[tuple[int, tuple[Any, ...]]]:
    """The shootings of split action ``a`` in resolution order (ascending target index): (target,
    situation), each target's situation measured when the targets are declared, with the weapons
    aimed elsewhere added to the ones that cannot fire (``key[6]``, :func:`armed`)."""
    names = split_weapons(s, u, action)
    aims = [int(t) for t in a[3:]]
    out = []
    for t in sorted({t for t in aims if t >= 0}):
        key = s.shot_key(u, t, None, action, limited=True)
        off = {*key[6].split("|"), *(w for w, x in zip(names, aims, strict=True) if x != t)} - {""}
        out.append((t, (*key[:6], "|".join(sorted(off)), *key[7:])))
    return out
