"""Line of sight through other units' models: "draw a straight line from one model's base to the other,
and if it does not pass through any solid obstacle then the model has line of sight. For the purpose of
determining line of sight a model may ignore friendly models in its own unit."

Only a model's own unit is named as ignorable, so the models of every other unit on the table, friendly
or enemy, are solid obstacles (our reading): a line of sight from a model of ``u`` to a model of ``t``
is blocked when it passes through the base of a model of a third unit. Each line is tested against
terrain and against the other units' bases in one pass (:func:`open_lines`); the answers read from
it (a shooting's firers and situation) are kept in memos keyed by where the screening units that
stand between the two stand too (:func:`near_screens`), since models move.

Our readings (``rules.py`` reading ``screening``):

- A model sees another when one of the nine lines between their bases (``sweeps.pair_lines``: the
  centres and the two side points of each base square to the line of centres, just inside the rim) is
  open of terrain and of other units' bases; a line passes through a base when it comes closer to that
  base's centre than its radius; a line that only grazes a base (touches it) is not blocked.
- The target's own models never block: a line to a target model that runs through another target
  model's base first reaches that nearer model, which the shooter sees along the same open line, so
  the unit sees the target either way (an approximation: the line to the nearer model is not the
  same line; we do not test it).
- Vehicles and every other model block with their bases as given (``Setup.radii``); embarked units and
  units in reserve are not on the table and never block; destroyed models are gone.
- Screening models give no cover: the text's cover comes from terrain only ("If the majority of models
  in a unit are within or behind a piece of cover terrain").
- Indirect weapons need no line of sight: a model whose every line is screened may still fire them
  (``firing.py``, with the Cover that firing without sight gives).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np

from grimdice.engine.table.sweeps import pairs_see
from grimdice.systems.onepage.game.cache import recall

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState


def sight_key(s: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[Any, ...]:
    """What ``u``'s sight of ``t`` (at ``anchor``) depends on, models included: its models alive,
    where it and ``t`` stand, and where the screening units stand that have a model :func:`between`
    the two units (:func:`near_screens`); a memo key's tail. Where ``u`` stands (``anchor``
    None) it is kept per state (frozen): a shooting asks it when its target is drawn and again
    when it is resolved."""
    if anchor is not None:
        return sight_key_with(s, u, t, anchor, near_screens(s, u, t, anchor))
    mine: dict[tuple[int, int], tuple[Any, ...]] | None = s.__dict__.get("_sight_keys")
    if mine is None:
        mine = {}
        object.__setattr__(s, "_sight_keys", mine)
    got = mine.get((u, t))
    if got is None:
        got = mine[u, t] = sight_key_with(s, u, t, None, near_screens(s, u, t, None))
    return got


def sight_key_with(
    s: GameState, u: int, t: int, anchor: tuple[float, float] | None, near: tuple[Any, ...]
) -> tuple[Any, ...]:
    """:func:`sight_key` with its :func:`near_screens` already known (``near``)."""
    return (s.units[u].alive, s.placed(u, anchor), s.placed(t), near)


def near_screens(s: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[Any, ...]:
    """Where each unit stands (``placed``) that has a model :func:`between` ``u``'s models (at
    ``anchor``) and ``t``'s, the bases' width added: only these can block a
    line between the two units' bases, so a sight, a shooting's firers or its situation stays the
    same while every other unit moves. Kept in the geometry memo by where every unit stands."""

    def compute() -> tuple[Any, ...]:
        return screens_hit(s, u, t, s.models(u, anchor))[0] if len(s.standing().pts) else ()

    return recall(s.setup, screens_key(s, u, t, anchor), compute)


def screens_key(s: GameState, u: int, t: int, anchor: tuple[float, float] | None) -> tuple[Any, ...]:
    """The geometry memo's key of :func:`near_screens`: where the two units and every unit stand."""
    return ("near screens", s.placed(u, anchor), s.placed(t), s.standing().key)


def screens_hit(s: GameState, u: int, t: int, a: np.ndarray) -> list[tuple[Any, ...]]:
    """:func:`near_screens`' answer for each block of ``u``'s models in ``a`` (``(C, n, 2)``, or one
    block ``(n, 2)``), with at least one unit standing: the units with a model :func:`between`
    the block and ``t``'s models, the bases' width added, per unit in standing order."""
    st = s.standing()
    widest = max(s.setup.radii[u], s.setup.radii[t])
    near = between(a, s.models(t), st.pts, st.radii + widest)
    hits = np.logical_or.reduceat(near, st.starts, axis=-1).reshape(-1, len(st.starts)).tolist()
    return [
        tuple(s.placed(v) for v, h in zip(st.ids, hit, strict=True) if h and v not in (u, t)) for hit in hits
    ]


def between(a: np.ndarray, b: np.ndarray, pts: np.ndarray, radii: np.ndarray) -> np.ndarray:
    """``(m,)``: the screening models whose base reaches into the box around the models ``a`` and
    ``b`` (the only ones a line between them can pass through); ``(C, m)`` for blocks ``a`` of
    shape ``(C, n, 2)``, each block's box apart."""
    lo = np.minimum(a.min(axis=-2), b.min(axis=0))[..., None, :]
    hi = np.maximum(a.max(axis=-2), b.max(axis=0))[..., None, :]
    r = radii[:, None]
    return np.asarray(((pts > lo - r) & (pts < hi + r)).all(axis=-1))


def open_lines(s: GameState, u: int, t: int, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``(k,)``: whether model ``a[i]`` of ``u`` sees model ``b[i]`` of ``t``: some line from any part
    of its base to any part of the other's passes through no model of another unit (the models of
    every unit on the table but ``u`` and ``t``) nor through terrain, in one compiled pass
    (``sweeps.pairs_see``)."""
    st = s.standing()
    if not len(a):
        return np.zeros(0, dtype=bool)
    rb = np.full(len(b), s.setup.radii[t])
    return pairs_see(s.setup.table, a, s.setup.radii[u], b, rb, (st.pts, st.radii, st.owner, u, t))


__all__ = [
    "between",
    "near_screens",
    "open_lines",
    "sight_key",
]
