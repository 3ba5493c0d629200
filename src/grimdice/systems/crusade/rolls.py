"""Space Crusade dice and the roll laws Rules Crusade needs (rule text: ``rules-crusade.txt``).

White die faces 0,0,0,0,1,2 and red die 0,0,0,1,2,3; a die's *maximum* (2 white, 3 red) counts
toward a **fail** (section III: "A weapon fails if it rolls a maximum value on two or more dice").

A pool such as ``2W+1R+1`` is read by :func:`parse_pool`. Its exact law is kept as a mapping from a
small *sufficient statistic* of the faces to its probability (:func:`pool_law`):

* ``total`` — the sum of the faces;
* ``maxes`` — how many dice show their maximum, capped at 2 (2 means the roll failed);
* ``own`` — the rank of the best die to re-roll for its owner (:data:`OWN_CHAIN`: a red 0 beats a
  white 0 beats a red 1 ... beats a red 3, each re-roll result stochastically dominating the next);
* ``opp`` — the rank, among the *other* dice, of the best die for the opponent to re-roll
  (:data:`OPP_CHAIN`, the reverse order on non-zero faces; zeros are never worth it for him).

Because both chains are total dominance orders, the best die to re-roll is always the first of its
chain, and only "re-roll it or not" is left to decide (``REROLL (R)``, ``REROLL OPPONENT (RO)``,
section VIII). Faces, predicates and samplers work on ints and NumPy arrays alike.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Hashable
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from grimdice.dice.expr import Die
from grimdice.dice.fold import PoolEvaluator, PoolSpec, fold_states, step_tables
from grimdice.dice.sampler import Sampler
from grimdice.errors import ScenarioError

WHITE = Die((0, 0, 0, 0, 1, 2))
RED = Die((0, 0, 0, 1, 2, 3))
DICE = {"W": WHITE, "R": RED}
MAXIMUM = {"W": 2, "R": 3}
MAX_DICE = 24  # per pool: a combined fire of six weapons with three dice each is 18
MAX_PLUS = 20

#: (kind, face) in the order the owner prefers to re-roll them (best first)
OWN_CHAIN: tuple[tuple[str, int], ...] = (
    ("R", 0),
    ("W", 0),
    ("R", 1),
    ("W", 1),
    ("R", 2),
    ("W", 2),
    ("R", 3),
)
#: (kind, face) in the order the opponent prefers to re-roll them (best first); zeros never
OPP_CHAIN: tuple[tuple[str, int], ...] = (("R", 3), ("W", 2), ("R", 2), ("W", 1), ("R", 1))
NO_OWN = len(OWN_CHAIN)
NO_OPP = len(OPP_CHAIN)
OWN_RANK = {kf: i for i, kf in enumerate(OWN_CHAIN)}
OPP_RANK = {kf: i for i, kf in enumerate(OPP_CHAIN)}


def is_max(kind: str, face: int | np.ndarray) -> bool | np.ndarray:
    """Whether a face is its die's maximum (section III fails)."""
    return face == MAXIMUM[kind]


def opp_rank(kind: str, face: int) -> int:
    return OPP_RANK.get((kind, face), NO_OPP)


@dataclass(frozen=True)
class Pool:
    """Dice as the profiles write them: ``white`` W, ``red`` R and a fixed ``plus``."""

    white: int = 0
    red: int = 0
    plus: int = 0

    @property
    def n(self) -> int:
        return self.white + self.red

    @property
    def kinds(self) -> tuple[str, ...]:
        return ("W",) * self.white + ("R",) * self.red

    def __add__(self, other: Pool) -> Pool:
        return Pool(self.white + other.white, self.red + other.red, self.plus + other.plus)

    @property
    def text(self) -> str:
        parts = [f"{n}{k}" for n, k in ((self.white, "W"), (self.red, "R")) if n]
        s = "+".join(parts) or "0"
        return s + (f"{self.plus:+d}" if self.plus else "")

    @property
    def max_total(self) -> int:
        return 2 * self.white + 3 * self.red + self.plus


_TERM = re.compile(r"([+-]?)\s*(\d*)\s*([a-z]?)")


def parse_pool(text: object, where: str, *, allow_empty: bool = False) -> Pool:
    """``2W+1R+1``, ``W+R``, ``3R-1``, ``1W``: white/red dice counts and a plus.

    Raises :class:`ScenarioError` naming ``where`` for anything else (``0W``, ``-1R``, ``2D6``)."""
    allowed = "dice such as 2W, 1W+1R, 2R+1 (W white 0-0-0-0-1-2, R red 0-0-0-1-2-3, then +N)"
    if isinstance(text, bool) or not isinstance(text, (str, int)):
        raise ScenarioError(where, f"write {allowed}")
    s = str(text).strip().lower().replace(" ", "")
    if not s:
        raise ScenarioError(where, f"empty; write {allowed}")
    white = red = plus = 0
    pos = 0
    while pos < len(s):
        m = _TERM.match(s, pos)
        if not m or m.end() == pos or (pos > 0 and not m.group(1)):
            raise ScenarioError(where, f"cannot read {text!r}; write {allowed}")
        sign, num, kind = m.groups()
        if kind:
            if kind not in ("w", "r"):
                raise ScenarioError(where, f"unknown die {kind.upper()!r} in {text!r}; write {allowed}")
            n = int(num) if num else 1
            if sign == "-" or n == 0:
                raise ScenarioError(where, f"{text!r}: a die count is 1 to {MAX_DICE}; write {allowed}")
            if kind == "w":
                white += n
            else:
                red += n
        else:
            if not num:
                raise ScenarioError(where, f"cannot read {text!r}; write {allowed}")
            plus += -int(num) if sign == "-" else int(num)
        pos = m.end()
    if white + red > MAX_DICE:
        raise ScenarioError(where, f"{text!r} has {white + red} dice; at most {MAX_DICE} dice per pool")
    if abs(plus) > MAX_PLUS:
        raise ScenarioError(where, f"{text!r}: the plus must be within -{MAX_PLUS}..+{MAX_PLUS}")
    if white + red == 0 and not allow_empty:
        raise ScenarioError(where, f"{text!r} rolls no dice; write {allowed}")
    return Pool(white, red, plus)


@dataclass(frozen=True, order=True)
class Faces:
    """The sufficient statistic of a rolled pool (see the module text)."""

    total: int
    maxes: int  # dice showing their maximum, capped at 2
    own: int  # OWN_CHAIN rank of the best die to re-roll for the owner (NO_OWN: none)
    opp: int  # OPP_CHAIN rank of the best die for the opponent among the dice but the 'own' one
    n: int  # dice rolled

    @property
    def failed(self) -> bool:
        return self.maxes >= 2

    @property
    def opp_all(self) -> int:
        """The opponent's best re-roll rank over all the dice (the 'own' die included)."""
        if self.own == NO_OWN:
            return self.opp
        return min(self.opp, opp_rank(*OWN_CHAIN[self.own]))


@dataclass(frozen=True)
class FacesFold(PoolEvaluator[tuple[int, int, int, int], tuple[int, int, int, int]]):
    """The :class:`Faces` statistic ``(total, maxes, own, opp)`` folded die by die (``track=False``:
    only total and maxes)."""

    track: bool = True

    def initial_state(self) -> tuple[int, int, int, int]:
        return (0, 0, NO_OWN, NO_OPP)

    def next_state(
        self, state: tuple[int, int, int, int], kind: Hashable, face: int
    ) -> tuple[int, int, int, int]:
        return _with_die(state, str(kind), face, self.track)


def pool_dice(white: int, red: int) -> PoolSpec:
    """The dice of a pool as :mod:`grimdice.dice.fold` reads them: whites first, then reds."""
    return tuple((kind, DICE[kind].faces) for kind in ("W",) * white + ("R",) * red)


@lru_cache(maxsize=256)
def pool_law(white: int, red: int, track: bool = True) -> tuple[tuple[Faces, float], ...]:
    """Exact law of a pool's :class:`Faces` (``track=False``: only total and maxes)."""
    if not track:
        return _total_maxes(white, red)
    law = fold_states(FacesFold(track), pool_dice(white, red))
    n = white + red
    return tuple((Faces(t, mx, own, opp, n), p) for (t, mx, own, opp), p in sorted(law.items()))


def _with_die(stat: tuple[int, int, int, int], kind: str, f: int, track: bool) -> tuple[int, int, int, int]:
    """The statistic ``(total, maxes, own, opp)`` of a pool after one more die of ``kind`` shows
    ``f`` (``track=False``: only total and maxes)."""
    t, mx, own, opp = stat
    m2 = min(2, mx + (f == MAXIMUM[kind]))
    if not track:
        return (t + f, m2, NO_OWN, NO_OPP)
    r = OWN_RANK[(kind, f)]
    if r < own:  # the new die is the owner's best; the old best joins the others
        rest = opp if own == NO_OWN else min(opp, opp_rank(*OWN_CHAIN[own]))
        return (t + f, m2, r, rest)
    return (t + f, m2, own, min(opp, opp_rank(kind, f)))


def _total_maxes(white: int, red: int) -> tuple[tuple[Faces, float], ...]:
    """The law of (total, maxima capped at 2) by NumPy shifts, die by die."""
    arr = np.zeros((2 * white + 3 * red + 1, 3))
    arr[0, 0] = 1.0
    for kind in ("W",) * white + ("R",) * red:
        faces = DICE[kind].faces
        nxt = np.zeros_like(arr)
        for f in sorted(set(faces)):
            q = faces.count(f) / len(faces)
            shifted = arr[: arr.shape[0] - f] * q
            if f == MAXIMUM[kind]:
                nxt[f:, 1] += shifted[:, 0]
                nxt[f:, 2] += shifted[:, 1] + shifted[:, 2]
            else:
                nxt[f:] += shifted
        arr = nxt
    n = white + red
    return tuple(
        (Faces(int(t), int(m), NO_OWN, NO_OPP, n), float(arr[t, m]))
        for t, m in zip(*np.nonzero(arr), strict=True)
    )


def total_law(white: int, red: int) -> dict[tuple[int, bool], float]:
    """``{(total, failed): p}`` of a pool (the fast path without re-rolls)."""
    out: dict[tuple[int, bool], float] = defaultdict(float)
    for f, p in pool_law(white, red, False):
        out[(f.total, f.failed)] += p
    return dict(out)


# ---------------------------------------------------------------------- sampling
KIND_INDEX = {"W": 0, "R": 1}
#: faces by (kind, face index): a die's six faces as int8, drawn by index (``Sampler.draw``)
FACE_TABLE = np.array([DICE[k].faces for k in KIND_INDEX], dtype=np.int8)
SIDES = FACE_TABLE.shape[1]


def draw_dice(sampler: Sampler, shape: int | tuple[int, ...], kind: str) -> np.ndarray:
    """Faces (int8) of dice of ``kind`` the rules *may* roll, **not counted**: the caller adds the
    dice it reads to ``sampler.dice`` (a re-roll taken, a force field's die), as
    :meth:`~grimdice.dice.sampler.Sampler.draw` asks."""
    return FACE_TABLE[KIND_INDEX[kind]][sampler.draw(shape, SIDES)]


def roll_dice(sampler: Sampler, shape: int | tuple[int, ...], kind: str) -> np.ndarray:
    """Faces (int8) of dice of ``kind`` the rules roll, counted in ``sampler.dice``."""
    faces = draw_dice(sampler, shape, kind)
    sampler.dice += faces.size
    return faces


def roll_pool(sampler: Sampler, pool: Pool, size: int, count: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """``(kinds, faces)``: kinds a row of 'W'/'R' per die, faces ``(size, n)`` (int8) rolled
    literally (one face index a die, looked up per column's kind) and counted in ``sampler.dice``
    (``count=False``: drawn for pools that may be rolled; the caller counts those rolled)."""
    kinds = np.array(pool.kinds)
    index = np.array([KIND_INDEX[k] for k in pool.kinds], dtype=np.intp)
    faces = FACE_TABLE[index[None, :], sampler.draw((size, pool.n), SIDES)]
    sampler.dice += faces.size if count else 0
    return kinds, faces


@lru_cache(maxsize=64)
def law_steps(white: int, red: int, track: bool = True) -> tuple[np.ndarray, ...]:
    """The pool's :class:`Faces` statistic as a walk die by die (whites first): one table per die,
    ``table[partial statistic id, face index]`` -> the next partial statistic's id, the last table
    giving the index of the roll in ``pool_law(white, red, track)`` (the same steps as the law)."""
    law = pool_law(white, red, track)
    index = {(f.total, f.maxes, f.own, f.opp): i for i, (f, _) in enumerate(law)}
    states, tables = step_tables(FacesFold(track), pool_dice(white, red))
    if tables:
        tables[-1] = np.array([index[s] for s in states], dtype=np.intp)[tables[-1]]
    for t in tables:
        t.flags.writeable = False
    return tuple(tables)


def roll_into_law(sampler: Sampler, pool: Pool, size: int, track: bool = True) -> np.ndarray:
    """Each of ``size`` pools rolled literally (counted in ``sampler.dice``), as the index of its
    :class:`Faces` in ``pool_law(pool.white, pool.red, track)`` (a gather per die, :func:`law_steps`)."""
    tables = law_steps(pool.white, pool.red, track)
    if not tables:
        return np.zeros(size, dtype=np.intp)
    faces = sampler.draw((len(tables), size), SIDES)  # one row of face indices per die
    sampler.dice += faces.size
    cur = tables[0][0].take(faces[0])
    for table, row in zip(tables[1:], faces[1:], strict=True):
        cur *= SIDES
        cur += row
        cur = table.take(cur)
    return cur


def _rank_table(ranks: dict[tuple[str, int], int], none: int) -> np.ndarray:
    """``table[kind index, face]`` of a chain's ranks (``none`` off the chain)."""
    out = np.full((len(KIND_INDEX), int(FACE_TABLE.max()) + 1), none, dtype=np.int64)
    for (k, f), r in ranks.items():
        out[KIND_INDEX[k], f] = r
    return out


def _by_kind(table: np.ndarray, kinds: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """``table[kind, face]`` of every die (a column a die), looked up column by column."""
    out = np.empty(faces.shape, dtype=table.dtype)
    for j, k in enumerate(kinds):
        np.take(table[KIND_INDEX[str(k)]], faces[:, j], out=out[:, j])
    return out


_OWN_TABLE = _rank_table(OWN_RANK, NO_OWN)
_OPP_TABLE = _rank_table(OPP_RANK, NO_OPP)
_MAX_TABLE = _rank_table({(k, f): int(f == MAXIMUM[k]) for k in DICE for f in set(DICE[k].faces)}, 0)


def own_ranks(kinds: np.ndarray, faces: np.ndarray) -> np.ndarray:
    """OWN_CHAIN rank of each die (vectorised)."""
    return _by_kind(_OWN_TABLE, kinds, faces)


def opp_ranks(kinds: np.ndarray, faces: np.ndarray) -> np.ndarray:
    return _by_kind(_OPP_TABLE, kinds, faces)


def max_count(kinds: np.ndarray, faces: np.ndarray) -> np.ndarray:
    if not faces.shape[1]:
        return np.zeros(len(faces), np.int64)
    return _by_kind(_MAX_TABLE, kinds, faces).sum(axis=1)


__all__ = [
    "DICE",
    "MAXIMUM",
    "NO_OPP",
    "NO_OWN",
    "OPP_CHAIN",
    "OWN_CHAIN",
    "RED",
    "WHITE",
    "Faces",
    "Pool",
    "draw_dice",
    "law_steps",
    "parse_pool",
    "pool_law",
    "roll_dice",
    "roll_into_law",
    "total_law",
]
