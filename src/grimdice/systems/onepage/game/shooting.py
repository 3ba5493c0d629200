"""Shooting in a One Page 40k game state: ranges, sight, valid targets, cover and the shooting
situation the exact engine reads (functions of a :class:`~.state.GameState`, bound to it as its
methods)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.table.blocks import (
    EPS,
    blocks,
    pair_distances,
)
from grimdice.engine.table.sweeps import covered_models
from grimdice.systems.onepage.game import (
    facing,
    firing,
    screening,
)
from grimdice.systems.onepage.game.cache import memo, recall

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState


#: how much farther than a unit's longest range the gap between two units must be for
#: :func:`firing_sight` to skip them unmeasured (a margin over the rounding of a distance)
OUT_OF_RANGE = 1e-6


def weapon_range(state: GameState, u: int, indirect: bool = False) -> float:
    """The longest range of ``u``'s ranged weapons alive (``indirect``: of its Indirect ones), kept
    in the geometry memo by the models alive."""
    alive = state.units[u].alive

    def compute() -> float:
        rs = [
            w.range
            for g, n in zip(state.setup.units[u].groups, alive, strict=True)
            if n
            for w in g.weapons
            if w.range is not None and (w.has("indirect") or not indirect)
        ]
        return float(max(rs)) if rs else 0.0

    return recall(state.setup, ("weapon range", u, alive, indirect), compute)


def weapon_counts(
    state: GameState, u: int, t: int, anchor: tuple[float, float] | None = None
) -> tuple[tuple[str, int], ...]:
    """Per ranged weapon profile (lower-case name, sorted; none at 0): the models of ``u`` carrying it
    that see a model of ``t`` within its range: "All models in a unit that have line of sight to an
    enemy unit and that have a weapon that is within range of that unit may fire one of their
    weapons at it" (:func:`firers`)."""
    return firers(state, u, t, anchor)[0]


def firers(
    state: GameState, u: int, t: int, anchor: tuple[float, float] | None = None
) -> tuple[tuple[tuple[str, int], ...], int]:
    """(:func:`weapon_counts`, the models that see a model of ``t`` within the range of one of their
    own weapons). A unit's models are its groups' in listed group order (the exact engine's
    convention: ``attack.shooters_by_weapon``); sight as :func:`_model_reach` (terrain, other units)."""
    counts, able, _seeing, _far = firing_sight(state, u, t, anchor)
    return counts, able


def firing_sight(state: GameState, u: int, t: int, anchor: tuple[float, float] | None = None) -> Sighted:
    """:func:`firers` and ``u``'s sight of ``t`` (the models that see a model of ``t`` within the
    longest range, the farthest one's distance) from the same lines (:func:`_model_reach`): each
    model's nearest target model it sees within that range, the farthest of these over the models
    that see one, as ``blocks.sight_counts`` reduces them. A unit standing where it is and farther
    than its longest range from ``t`` (the gap of :meth:`GameState.gaps`, less a margin) has no
    model in range: nothing to compute."""
    if anchor is None:
        st = state.standing()
        j = st.at.get(t)
        if j is not None and u in st.at and state.gaps(u)[1][j] > state.weapon_range(u) + EPS + OUT_OF_RANGE:
            return (), 0, 0, 0.0

    def compute() -> Sighted:
        return _sighted(state, u, _model_reach(state, u, t, anchor))

    return recall(state.setup, ("firers", *screening.sight_key(state, u, t, anchor)), compute)


Sighted = tuple[tuple[tuple[str, int], ...], int, int, float]  # firing_sight's answer


def screens_at(state: GameState, u: int, t: int, ends: list[tuple[float, float]]) -> list[tuple[Any, ...]]:
    """``screening.near_screens(state, u, t, e)`` for each anchor ``e`` of ``ends``, those the
    geometry memo lacks computed together and kept there: ``screening.between``'s box test at every
    anchor in one pass (the same arithmetic element by element)."""
    m = memo(state.setup)
    keys = [screening.screens_key(state, u, t, e) for e in ends]
    todo = [i for i, k in enumerate(keys) if k not in m]
    if todo and not len(state.standing().pts):
        for i in todo:
            m[keys[i]] = ()
    elif todo:
        a = blocks(state.block(u), np.array([ends[i] for i in todo], dtype=float))  # (C, n, 2)
        for i, found in zip(todo, screening.screens_hit(state, u, t, a), strict=True):
            m.setdefault(keys[i], found)
    return [m[k] for k in keys]


def _sighted(state: GameState, u: int, near: np.ndarray) -> Sighted:
    """:func:`firing_sight`'s answer from each model's distance to the nearest target model it sees
    within range (``near``, :func:`_model_reach`)."""
    counts: dict[str, int] = {}
    able = np.zeros(len(near), dtype=bool)
    start = 0
    for g, k in zip(state.setup.units[u].groups, state.units[u].alive, strict=True):
        part = near[start : start + k]
        for w in g.weapons:
            if w.range is not None:
                ok = part <= w.range + EPS
                counts[w.name.lower()] = counts.get(w.name.lower(), 0) + int(ok.sum())
                able[start : start + k] |= ok
        start += k
    seeing = np.isfinite(near)
    n = int(seeing.sum())
    far = float(near[seeing].max()) if n else 0.0
    return tuple(sorted((w, k) for w, k in counts.items() if k)), int(able.sum()), n, far


def firing_sights(state: GameState, u: int, ends: Sequence[tuple[float, float] | None]) -> None:
    """:func:`sight_from` on every enemy unit at the anchors of ``ends`` (``None``, where ``u``
    stands, left out) from which terrain does not block every line to it (the geometry memo's
    ``("sight", ...)`` answer, where known): what a pass over the candidates then asks."""
    m, alive = memo(state.setup), state.units[u].alive
    for t in state.enemies(u):
        pt = state.placed(t)
        seen = [m.get(("sight", alive, state.placed(u, e), pt)) if e is not None else None for e in ends]
        some = [e for e, x in zip(ends, seen, strict=True) if e is not None and (x is None or x[0])]
        if some:
            sight_from(state, u, t, some)


def sight_from(state: GameState, u: int, t: int, ends: list[tuple[float, float]]) -> None:
    """:func:`firing_sight` of ``u`` at each anchor of ``ends`` on ``t`` put in the geometry memo
    where it lacks it, all anchors at once: the distances of every model pair at every anchor in
    one pass, then the pairs within range tested for sight in one compiled pass
    (``screening.open_lines``: the units that may screen are the same at every anchor of ``u``, and
    each pair's answer is its own). Each entry equals what :func:`firing_sight` computes for its
    anchor alone (the same arithmetic element by element)."""
    m = memo(state.setup)
    keys = [
        ("firers", *screening.sight_key_with(state, u, t, e, near))
        for e, near in zip(ends, screens_at(state, u, t, ends), strict=True)
    ]
    todo = [i for i, k in enumerate(keys) if k not in m]
    if not todo:
        return
    a = blocks(state.block(u), np.array([ends[i] for i in todo], dtype=float))  # (C, n, 2)
    b = state.models(t)
    d = pair_distances(a, state.setup.radii[u], b, np.full(len(b), state.setup.radii[t]))
    seen = np.full(d.shape, np.inf)
    cc, ii, jj = np.nonzero(d <= state.weapon_range(u) + EPS)
    if len(cc):
        ok = screening.open_lines(state, u, t, a[cc, ii], b[jj])
        seen[cc[ok], ii[ok], jj[ok]] = d[cc[ok], ii[ok], jj[ok]]
    near = seen.min(axis=2) if len(b) else np.full(a.shape[:2], np.inf)
    for i, row in zip(todo, near, strict=True):
        m.setdefault(keys[i], _sighted(state, u, row))


def _model_reach(state: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> np.ndarray:
    """``(n,)``: each model's distance to the nearest model of ``t`` it sees within ``u``'s longest
    range (``inf``: none): "If at least one model in the unit has line of sight to an enemy unit and
    has a weapon that is within range of that unit, then that enemy is a valid target", sight from
    and to any part of the bases through terrain and other units' models (``screening.open_lines``)."""
    a, b = state.models(u, anchor), state.models(t)
    rb = np.full(len(b), state.setup.radii[t])
    d = pair_distances(a[None, :, :], state.setup.radii[u], b, rb)[0]
    ii, jj = np.nonzero(d <= state.weapon_range(u) + EPS)
    seen = np.full(d.shape, np.inf)
    if len(ii):
        ok = screening.open_lines(state, u, t, a[ii], b[jj])
        seen[ii[ok], jj[ok]] = d[ii[ok], jj[ok]]
    return np.asarray(seen.min(axis=1)) if len(b) else np.full(len(a), np.inf)


def valid_targets(
    state: GameState, u: int, anchor: tuple[float, float] | None = None, action: str | None = None
) -> list[int]:
    """Enemies some model sees (or reaches with an Indirect weapon) with a weapon in range and,
    for a Vehicle, in arc (firing.py)."""
    return [t for t in state.enemies(u) if valid_target(state, u, t, anchor, action)]


def valid_target(
    state: GameState, u: int, t: int, anchor: tuple[float, float] | None = None, action: str | None = None
) -> bool:
    """Whether enemy ``t`` is one of :func:`valid_targets`."""
    action = action or state.action or "hold"
    return firing.reach(state, u, t, anchor)[0] > 0 and firing.can_bear(
        state, u, t, state._rounded(u, anchor), action
    )


def in_cover(state: GameState, shooter: int, t: int, anchor: tuple[float, float] | None = None) -> bool:
    """Cover: "If the majority of models in a unit are within or behind a piece of cover
    terrain" — inside a cover piece, or the line from the shooters' centre (at ``anchor``)
    crosses one the shooters' centre is not in (``sweeps.covered_models``)."""
    b = state.models(t)
    covered = covered_models(state.setup.table, state.models(shooter, anchor), b)
    return 2 * int(covered.sum()) > len(b)


def shot_key(
    state: GameState,
    u: int,
    t: int,
    anchor: tuple[float, float] | None = None,
    action: str | None = None,
    limited: bool = True,
) -> tuple[Any, ...]:
    """The shooting situation as the exact engine's scenario conditions (a hashable key):
    (models per weapon profile (:func:`weapon_counts`), or the distance when only Indirect weapons
    fire blind; models firing, cover, elevated target, action, the target Vehicle's facing, the
    weapons out of arc or spent (Limited), no line of sight (Indirect), Limited weapons held back
    or all spent)."""
    key = ("shot", *screening.sight_key(state, u, t, anchor))
    where = recall(state.setup, key, lambda: state._shot_where(u, t, anchor))
    return state.shot_situation(u, t, state._rounded(u, anchor), where, action, limited)


def shot_situation(
    state: GameState,
    u: int,
    t: int,
    rounded: tuple[float, float] | None,
    where: tuple[Any, ...],
    action: str | None = None,
    limited: bool = True,
) -> tuple[Any, ...]:
    """:meth:`shot_key` from ``where`` (:meth:`_shot_where`'s distance, models firing, cover,
    elevated target, no line of sight) at the recorded position ``rounded``: the target's
    facing, the action, the weapons that cannot fire and the Limited flag added."""
    dist, n, cover, elevated, blind = where
    face = facing.hit_facing(state, u, t, rounded)  # a Vehicle target's facing
    act = "hold" if (action or state.action or "hold") == "hold" else "walk"
    off = firing.unusable(state, u, t, rounded, act)
    return (dist, n, cover, elevated, act, face, off, blind, limited or firing.spent(state, u))


def _rounded(state: GameState, u: int, anchor: tuple[float, float] | None) -> tuple[float, float] | None:
    """The position as a move there would record it (see :meth:`moved`)."""
    if anchor is None:
        return None
    ax, ay = state.anchors[u]
    return round(ax + (anchor[0] - ax), 3), round(ay + (anchor[1] - ay), 3)


def _shot_where(state: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[Any, ...]:
    """(fire, models in range, cover, elevated target, no line of sight) of ``u`` at ``anchor``
    shooting ``t``: fire is the models per weapon (:func:`weapon_counts`) of the models that see,
    or the distance of Indirect fire when no model sees; no line of sight: True (no model sees),
    or (models firing Indirect weapons without it, their distance) besides those that see."""
    n, far, blind = firing.reach(state, u, t, anchor)
    if blind:  # the exact engine counts models in listed group order (firing.blind_firers)
        n = firing.blind_firers(state, u, n)
    sightless: bool | tuple[int, float] = blind
    if n and not blind:  # the models that do not see may fire Indirect weapons (firing.parts)
        extra = firing.blind_extra(state, u, t, anchor, n)
        if extra[0]:
            n, sightless = n + extra[0], extra
    fire: float | tuple[tuple[str, int], ...] = (
        state.range_band(u, far, blind) if blind else state.weapon_counts(u, t, anchor)
    )
    anchor = state._rounded(u, anchor)
    return (
        fire,
        n,
        state.covered(u, t, anchor),
        state.elevated(u, t, anchor),
        sightless,
    )


def range_band(state: GameState, u: int, far: float, blind: bool = False) -> float:
    """The shooting distance of :meth:`shot_key`: weapons are usable when in range of the farthest
    counted model, so ``far`` is rounded up to the next range of ``u``'s ranged weapons (its
    Indirect ones when ``blind``) and equal situations share one cached table."""
    ranges: tuple[int, ...] = recall(
        state.setup,
        ("ranges", u, blind),
        lambda: tuple(
            sorted(
                {
                    w.range
                    for g in state.setup.units[u].groups
                    for w in g.weapons
                    if w.range is not None and (w.has("indirect") or not blind)
                }
            )
        ),
    )
    return next((float(r) for r in ranges if r >= far - EPS), far)


def covered(state: GameState, u: int, t: int, rounded: tuple[float, float] | None) -> bool:
    """:meth:`in_cover` of ``t`` shot by ``u`` at the recorded position ``rounded``, memoised."""
    return recall(
        state.setup,
        ("cover", state.placed(u, rounded), state.placed(t)),
        lambda: state.in_cover(u, t, rounded),
    )


def elevated(state: GameState, u: int, t: int, rounded: tuple[float, float] | None) -> bool:
    """The target stands higher than the shooter at the recorded position ``rounded``."""
    return bool(state.height(t) > state.height(u, rounded) + EPS)
