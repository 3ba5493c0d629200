"""Monte Carlo walks of a solved game vectorised over trials: every trial carries the
id of its hashable game state; one step maps each distinct (state, dice) pair of the block
through the game's own Python step function once (memoised across blocks) and looks the result
up for all trials, so the policy played is the exact engine's and the dice are those rolled.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import Any

import numpy as np

from grimdice.systems.crusade.rolls import DICE

W_SIDES = max(DICE["W"].faces) + 1  # a white die's faces 0..2 as one digit
R_SIDES = max(DICE["R"].faces) + 1  # a red die's faces 0..3 as one digit

#: the most (state id, key) pairs a walk indexes densely (8 bytes each): a step is then a look-up
DENSE = 1 << 22

#: ``fn(state, key) -> (next state, (int outputs...))``: one step of a game from the dice ``key``
Step = Callable[[Any, int], tuple[Any, tuple[int, ...]]]


class Walk:
    """State ids and memoised steps of one game (``radix``: one more than the largest dice key)."""

    def __init__(self, radix: int) -> None:
        self.radix = radix
        self.states: list[Any] = []
        self._ids: dict[Hashable, int] = {}
        self._memo: dict[tuple[int, Hashable], tuple[int, ...]] = {}
        self._where = np.zeros(0, dtype=np.int64)  # dense (state id * radix + key) -> row of _rows
        self._rows = np.zeros((0, 1), dtype=np.int64)

    def sid(self, s: Hashable) -> int:
        k = self._ids.get(s)
        if k is None:
            k = self._ids[s] = len(self.states)
            self.states.append(s)
        return k

    def then(self, i: int, x: Hashable, fn: Callable[[Any, Any], Hashable]) -> int:
        """The id of ``fn(state i, x)``, memoised: one step keyed by any hashable ``x`` (an action,
        a rolled face, the rolled pools), for games stepped state by state."""
        r = self._memo.get((i, x))
        if r is None:
            r = self._memo[(i, x)] = (self.sid(fn(self.states[i], x)),)
        return r[0]

    def start(self, keys: np.ndarray, of: Callable[[int], Hashable]) -> np.ndarray:
        """Per-trial state ids from per-trial integer ``keys``, the state of a key being ``of(key)``."""
        uniq, inv = np.unique(keys, return_inverse=True)
        table = np.array([self.sid(of(int(k))) for k in uniq.tolist()], dtype=np.int64)
        return table[np.asarray(inv).reshape(-1)]

    def step(self, cur: np.ndarray, key: np.ndarray, fn: Step, nout: int) -> tuple[np.ndarray, np.ndarray]:
        """One step of every trial: ``(next ids, outputs (nout, trials))``."""
        if (int(cur.max(initial=0)) + 1) * self.radix <= DENSE:
            return self._dense_step(cur, key, fn, nout)
        if (int(cur.max(initial=0)) + 1) * self.radix < 2**62:
            uniq, inv = np.unique(cur * self.radix + key, return_inverse=True)
            pairs = [divmod(c, self.radix) for c in uniq.tolist()]
        else:  # the pair as two columns (sorted as rows: slower, no overflow)
            both, inv = np.unique(np.stack([cur, key], axis=1), axis=0, return_inverse=True)
            pairs = [(int(s), int(k)) for s, k in both.tolist()]
        picked = self._rows_of(pairs, fn, nout)[np.asarray(inv).reshape(-1)]
        return picked[:, 0], picked[:, 1:].T

    def _rows_of(self, pairs: list[tuple[int, int]], fn: Step, nout: int) -> np.ndarray:
        """``(next id, outputs...)`` of each (state id, key) pair, each stepped once by ``fn``."""
        rows = np.empty((len(pairs), 1 + nout), dtype=np.int64)
        for i, (s, k) in enumerate(pairs):
            r = self._memo.get((s, k))
            if r is None:
                nxt, outs = fn(self.states[s], k)
                r = self._memo[(s, k)] = (self.sid(nxt), *outs)
            rows[i] = r
        return rows

    def _dense_step(
        self, cur: np.ndarray, key: np.ndarray, fn: Step, nout: int
    ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`step` by a dense table of (state id, key) -> row, filled as pairs are met (the
        same rows as the memo: each pair still stepped once by ``fn``), so a step is a look-up."""
        if len(self._rows) and self._rows.shape[1] != 1 + nout:
            raise ValueError("a walk's steps give the same number of outputs")
        code = cur * self.radix + key
        need = (int(cur.max(initial=0)) + 1) * self.radix
        if self._where.size < need:
            grown = np.full(max(need, 2 * self._where.size), -1, dtype=np.int64)
            grown[: self._where.size] = self._where
            self._where = grown
        at = self._where[code]
        missing = at < 0
        if missing.any():
            new = np.unique(code[missing]).tolist()
            rows = self._rows_of([divmod(c, self.radix) for c in new], fn, nout)
            base = len(self._rows)
            self._rows = np.concatenate([self._rows.reshape(-1, 1 + nout), rows])
            self._where[np.array(new, dtype=np.int64)] = np.arange(base, base + len(new))
            at = self._where[code]
        picked = self._rows[at]
        return picked[:, 0], picked[:, 1:].T

    def table(self, ids: np.ndarray, f: Callable[[Any], Sequence[int]], width: int) -> np.ndarray:
        """``f(state)`` (``width`` ints) per trial, ``(width, trials)``."""
        uniq, inv = np.unique(ids, return_inverse=True)
        rows = np.array([list(f(self.states[int(i)])) for i in uniq.tolist()], dtype=np.int64)
        return rows.reshape(-1, width)[np.asarray(inv).reshape(-1)].T


def digits(key: int, radices: Sequence[int]) -> list[int]:
    """The mixed-radix digits of ``key``, most significant first (``radices`` in that order)."""
    out = []
    for r in reversed(radices):
        key, d = divmod(key, r)
        out.append(d)
    return out[::-1]


def pack(columns: Sequence[np.ndarray], radices: Sequence[int]) -> np.ndarray:
    """Per-trial mixed-radix keys of small integer columns (most significant first)."""
    key = np.zeros(np.shape(columns[0]), dtype=np.int64)
    for c, r in zip(columns, radices, strict=True):
        key = key * r + np.asarray(c, dtype=np.int64)
    return key


def distinct_rows(rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(inv, uniq)``: the distinct rows of a 2-D integer array (``rows == uniq[inv]``), by one
    mixed-radix key per row (each column's range from the data) where it fits in 62 bits: a sort
    of integers, not of rows (``np.unique(axis=0)`` sorts the rows as records, several times slower)."""
    lo, hi = rows.min(axis=0, initial=0), rows.max(axis=0, initial=0)
    radices = [int(h - low) + 1 for low, h in zip(lo.tolist(), hi.tolist(), strict=True)]
    if int(np.prod(np.array(radices, dtype=object))) >= 2**62:
        uniq, inv = np.unique(rows, axis=0, return_inverse=True)
        return np.asarray(inv).reshape(-1), uniq
    _, first, inv = np.unique(pack(list((rows - lo).T), radices), return_index=True, return_inverse=True)
    return np.asarray(inv).reshape(-1), rows[first]
