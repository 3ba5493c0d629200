"""Batches on all local cores or a Dask cluster: many games, every unit against every unit.

:func:`parallel_map` applies a function to many items and returns the results in the items'
order, one process (small batches), local worker processes (fork: the function need not be
picklable), or a Dask cluster given its scheduler address (the ``cluster`` extra; the function
and items are sent with cloudpickle). Whatever runs it, each item's result depends only on the
item (give every item its own seed), so a batch gives the same answer on any number of workers.
"""

from __future__ import annotations

import math
import multiprocessing
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any, TypeVar

from grimdice.errors import GrimdiceError, ScenarioError, one_line

T = TypeVar("T")
R = TypeVar("R")

Progress = Callable[[int, int], None]

CONNECT_TIMEOUT = 10.0  # seconds to reach a Dask scheduler before the one-line error (Dask's default: 30)

_FN: Callable[[Any], Any] | None = None  # the mapped function, inherited by forked workers


class WorkerFailed(GrimdiceError):
    """A worker process stopped before returning its result (killed, out of memory, or a result
    or error that could not be sent back)."""


def _call(item: Any) -> Any:
    assert _FN is not None
    return _FN(item)


def _indexed(pair: tuple[int, Any]) -> tuple[int, Any]:
    return pair[0], _call(pair[1])


def local_workers(n_items: int, workers: int | None) -> int:
    """Worker processes to use: ``workers`` if given, else every core (at most one per item)."""
    want = os.cpu_count() or 1 if workers is None else workers
    return max(1, min(want, n_items))


def _here(fn: Callable[[T], R], items: Sequence[T]) -> Iterator[tuple[int, R]]:
    for i, item in enumerate(items):
        yield i, fn(item)


def _forked(fn: Callable[[T], R], items: Sequence[T], workers: int) -> Iterator[tuple[int, R]]:
    """Forked workers; the first failure ends the run: an error raised by ``fn`` is re-raised here
    as it was raised (project errors pickle intact), a worker that dies (killed, out of memory)
    or whose result cannot be sent back is a :class:`WorkerFailed` naming what happened, and the
    remaining items are dropped and the workers stopped, never left waiting."""
    global _FN
    _FN = fn
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork"))
    try:
        pending = [pool.submit(_indexed, pair) for pair in enumerate(items)]
        for fut in as_completed(pending):
            try:
                yield fut.result()
            except BrokenProcessPool as exc:
                raise WorkerFailed(f"a worker process stopped ({one_line(str(exc), 200)})") from None
    finally:
        _stop(pool)


def _stop(pool: ProcessPoolExecutor) -> None:
    """Cancel what has not started and end the workers at once (a run that failed or was
    interrupted does not wait for the items still running)."""
    pool.shutdown(wait=False, cancel_futures=True)
    processes = getattr(pool, "_processes", None) or {}
    for p in list(processes.values()):
        if p.is_alive():
            p.terminate()
    for p in list(processes.values()):
        p.join(5)


def _dask(fn: Callable[[T], R], items: Sequence[T], scheduler: str) -> Iterator[tuple[int, R]]:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise ScenarioError(
            "scheduler", 'a Dask scheduler needs the cluster extra: pip install "grimdice[cluster]"'
        ) from None
    try:
        client = Client(scheduler, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError, TypeError) as exc:  # unreachable, or not an address
        why = str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__
        raise ScenarioError(
            "scheduler",
            f"cannot reach a Dask scheduler at {scheduler!r:.80} ({why}); e.g. tcp://127.0.0.1:8786",
        ) from None
    with client:
        futures = {client.submit(fn, item, pure=False): i for i, item in enumerate(items)}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()


def iter_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
) -> Iterator[tuple[int, R]]:
    """``(index, fn(item))`` pairs as they finish (any order)."""
    if scheduler is not None:
        return _dask(fn, items, scheduler)
    n = local_workers(len(items), workers)
    return _here(fn, items) if n == 1 else _forked(fn, items, n)


def parallel_map(
    fn: Callable[[T], R],
    items: Sequence[T],
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> list[R]:
    """``[fn(item) for item in items]``, computed in parallel (see the module text)."""
    out: list[Any] = [None] * len(items)
    for done, (i, r) in enumerate(iter_map(fn, items, workers=workers, scheduler=scheduler), start=1):
        out[i] = r
        if progress is not None:
            progress(done, len(items))
    return out


def game_seeds(seed: int, n: int) -> list[int]:
    """``n`` independent per-game seeds spawned from ``seed`` (game ``i`` is the same in any batch
    of at least ``i + 1`` games with that seed)."""
    import numpy as np

    return [int(c.generate_state(1)[0]) % 1_000_000_000 for c in np.random.SeedSequence(seed).spawn(n)]


MAX_GAMES = 100_000
SAVED = "game-{:04d}.json"  # the file of game i + 1 in a --save folder


def play_games(
    play: Callable[[int], Any],
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    save: tuple[Path, Callable[[int], Any], Callable[[Any], tuple[str, Any]]] | None = None,
    ready: Callable[[], None] | None = None,
) -> list[Any]:
    """``play(s)`` for ``games`` per-game seeds spawned from ``seed`` (:func:`game_seeds`), in seed
    order, on any number of workers. With ``save = (folder, whole, split)``, ``whole(s)`` is played
    instead and ``split`` turns its result into the text written to ``folder/game-NNNN.json`` as
    it finishes and the result kept. The counts are checked first, each error naming its option,
    then ``ready()`` (a check of the job before any game starts)."""
    from grimdice.engine.options import MAX_SEED, MAX_WORKERS, _whole

    if not 1 <= games <= MAX_GAMES:
        raise ScenarioError("--games", f"1 to {MAX_GAMES} games, got {games}")
    seed = _whole(seed, "--seed", 0, MAX_SEED, "the seed")  # SeedSequence refuses negative seeds
    if workers is not None:
        workers = _whole(workers, "--workers", 1, MAX_WORKERS, "worker processes")
    if ready is not None:
        ready()
    seeds = game_seeds(seed, games)
    if save is None:
        return parallel_map(play, seeds, workers=workers, scheduler=scheduler, progress=progress)
    folder, whole, split = save
    fresh(folder)
    write(folder)  # a folder that cannot be made is refused before the games are played
    out: list[Any] = [None] * games
    for done, (i, log) in enumerate(iter_map(whole, seeds, workers=workers, scheduler=scheduler), 1):
        text, out[i] = split(log)
        write(folder / SAVED.format(i + 1), text)
        if progress is not None:
            progress(done, games)
    return out


def fresh(folder: Path) -> None:
    """Refuse a ``--save`` folder that already holds game logs: the new games' logs would mix
    with (and overwrite some of) another run's."""
    if folder.is_dir() and next(folder.glob(SAVED.replace("{:04d}", "*")), None) is not None:
        raise ScenarioError(
            "--save",
            f"{str(folder)!r:.120} already holds game logs (game-*.json); choose an empty or new folder",
        )


def write(path: Path, text: str | None = None) -> None:
    """Make the folder ``path`` (``text`` None) or write ``text`` to the file ``path``; an error
    naming ``--save`` if the file system refuses."""
    try:
        if text is None:
            path.mkdir(parents=True, exist_ok=True)
        else:
            path.write_text(text)
    except OSError as exc:
        raise ScenarioError("--save", f"cannot write {str(path)!r:.120}: {exc.strerror or exc}") from None


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % for ``z = 1.96``)."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


__all__ = [
    "MAX_GAMES",
    "SAVED",
    "WorkerFailed",
    "game_seeds",
    "iter_map",
    "local_workers",
    "parallel_map",
    "play_games",
    "wilson",
    "write",
]
