"""One seeded Monte Carlo runner for every system: fixed blocks, constant memory, all cores.

A system gives a *trial function* ``trial(sampler, size) -> {name: int array of length size}``:
``size`` independent trials of its rules, rolled literally and vectorised with NumPy. The runner

* cuts the trials into **blocks** of :data:`BLOCK` trials, each with its own random stream spawned
  from the seed (``numpy.random.SeedSequence(seed).spawn``), so the result for a seed does not
  depend on how blocks are grouped, how many processes run them, or in which order they finish;
* keeps only a histogram per output (:class:`Tally`), so memory stays constant however many
  trials are asked for;
* runs blocks in local worker processes (fork) or on a Dask cluster (``scheduler`` address, the
  ``cluster`` extra), and reports progress after every block.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import partial

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler
from grimdice.engine.batch import iter_map

BLOCK = 50_000  # trials per random stream: the unit of reproducibility (never change lightly)
PARALLEL_FROM = 4 * BLOCK  # below this many trials, one process is faster than forking workers
BATCH_CELLS = 20_000_000  # per-trial cells (e.g. dice slots) a trial function holds in memory at once
MIN_BATCH = 1000  # trials of a sub-batch however many cells a trial holds

TrialFn = Callable[[Sampler, int], Mapping[str, np.ndarray]]
Progress = Callable[[int, int], None]


@dataclass
class Tally:
    """Histograms of integer outcomes per name, summed over blocks (exact integer counts)."""

    trials: int = 0
    counts: dict[str, np.ndarray] = field(default_factory=dict)
    dice: int = 0  # dice the trials rolled (the sampler's count), for throughput benchmarks

    def add(self, outcomes: Mapping[str, np.ndarray], size: int) -> None:
        for name, values in outcomes.items():
            v = np.asarray(values)
            if v.shape != (size,):
                raise ValueError(f"trial output {name!r} must have one value per trial")
            try:  # bincount refuses negative values itself: no pass of its own to check them
                c = np.bincount(v.astype(np.intp, copy=False), minlength=1)
            except ValueError:
                raise ValueError(f"trial output {name!r} must be a non-negative count") from None
            self._merge(name, c, own=True)
        self.trials += size

    def merge(self, other: Tally) -> None:
        for name, c in other.counts.items():
            self._merge(name, c)
        self.trials += other.trials
        self.dice += other.dice

    def _merge(self, name: str, c: np.ndarray, own: bool = False) -> None:
        """Add the histogram ``c`` to ``name``'s (``own``: ``c`` is a fresh int64 array this tally
        may keep; histograms are added in place when the kept one is long enough)."""
        old = self.counts.get(name)
        if old is None:
            self.counts[name] = c if own and c.dtype == np.int64 else c.astype(np.int64)
        elif old.size >= c.size:
            old[: c.size] += c
        else:
            new = c.astype(np.int64)  # a copy: c may be another tally's
            new[: old.size] += old
            self.counts[name] = new

    def __contains__(self, name: str) -> bool:
        return name in self.counts

    def dist(self, name: str) -> Dist:
        """The empirical distribution of one output."""
        return Dist(self.counts[name] / self.trials)

    def dists(self) -> dict[str, Dist]:
        return {name: self.dist(name) for name in self.counts}

    def mean(self, name: str) -> float:
        c = self.counts[name]
        return float(np.dot(np.arange(c.size), c) / self.trials)


def in_batches(batch_of: Callable[[Sampler, int], Mapping[str, np.ndarray]], batch: int) -> TrialFn:
    """A trial function running ``batch_of(sampler, n)`` in sub-batches of at most ``batch``
    trials, bounding memory (drawn in sequence from the block's one stream, so a block's result is
    fixed by its seed); a block that fits in one batch is returned as it is, without a copy."""
    batch = max(1, batch)

    def trial(s: Sampler, size: int) -> Mapping[str, np.ndarray]:
        if size <= batch:
            return batch_of(s, size)
        parts = [batch_of(s, min(batch, size - i)) for i in range(0, size, batch)]
        return {k: np.concatenate([p[k] for p in parts]) for k in parts[0]}

    return trial


def sized_batches(
    batch_of: Callable[[Sampler, int], Mapping[str, np.ndarray]], cells_per_trial: int
) -> TrialFn:
    """:func:`in_batches` of as many trials as :data:`BATCH_CELLS` cells hold, ``cells_per_trial``
    each (at least :data:`MIN_BATCH` trials). A batch's size is part of a seeded result (the
    trials of a block draw their dice batch by batch), so a system's cell count is fixed."""
    return in_batches(batch_of, max(MIN_BATCH, BATCH_CELLS // max(cells_per_trial, 1)))


def block_sizes(trials: int) -> list[int]:
    """The blocks ``trials`` is cut into: full blocks, then the remainder."""
    full, rest = divmod(trials, BLOCK)
    return [BLOCK] * full + ([rest] if rest else [])


def block_streams(seed: int | None, n: int) -> list[np.random.SeedSequence]:
    """One independent random stream per block, spawned from the seed."""
    return np.random.SeedSequence(seed).spawn(n)


def default_workers(trials: int) -> int:
    """All local cores for large runs, one process for small ones."""
    if trials < PARALLEL_FROM:
        return 1
    return max(1, min(os.cpu_count() or 1, len(block_sizes(trials))))


def run_block(trial: TrialFn, task: tuple[int, np.random.SeedSequence]) -> Tally:
    """One block of trials on its own random stream."""
    size, stream = task
    t = Tally()
    sampler = Sampler(stream)
    t.add(trial(sampler, size), size)
    t.dice = sampler.dice
    return t


def _tasks(trials: int, seed: int | None) -> list[tuple[int, np.random.SeedSequence]]:
    sizes = block_sizes(trials)
    return list(zip(sizes, block_streams(seed, len(sizes)), strict=True))


def run_trials(
    trial: TrialFn,
    trials: int,
    seed: int | None,
    *,
    workers: int | None = None,
    progress: Progress | None = None,
    scheduler: str | None = None,
) -> Tally:
    """Run ``trials`` trials of ``trial`` seeded by ``seed``; the tally is the same for a seed
    whatever ``workers`` is, and on a Dask cluster (``scheduler``: its address).
    ``progress(done, total)`` is called after every block. Leaves the process's malloc settings
    alone: a program that runs many trials may call :func:`~grimdice.engine.heap.keep_arrays_on_heap`
    once first (as the ``grimdice`` command does), several times fewer page faults."""
    if trials < 1:
        raise ValueError("at least one trial")
    tasks = _tasks(trials, seed)
    n = default_workers(trials) if workers is None else workers
    total = Tally()
    for _, t in iter_map(partial(run_block, trial), tasks, workers=n, scheduler=scheduler):
        total.merge(t)
        if progress is not None:
            progress(total.trials, trials)
    return total


__all__ = [
    "BLOCK",
    "Tally",
    "block_sizes",
    "block_streams",
    "default_workers",
    "in_batches",
    "run_block",
    "run_trials",
    "sized_batches",
]
