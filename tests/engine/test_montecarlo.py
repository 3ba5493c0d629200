"""The shared Monte Carlo runner: seeded blocks, the same tally whatever the chunking or workers."""

import numpy as np
import pytest

from grimdice.dice import D6, Dist
from grimdice.engine import montecarlo
from grimdice.engine.montecarlo import Tally, block_sizes, run_trials
from grimdice.engine.options import RunOptions


def two_d6(sampler, size):
    rolls = sampler.roll((size, 2), D6)
    return {"total": rolls.sum(axis=1), "sixes": (rolls == 6).sum(axis=1)}


def test_block_sizes_cover_every_trial():
    assert block_sizes(1) == [1]
    assert sum(block_sizes(123_457)) == 123_457
    assert all(b == montecarlo.BLOCK for b in block_sizes(3 * montecarlo.BLOCK))


def test_same_seed_same_tally_whatever_the_workers():
    n = 2 * montecarlo.BLOCK + 17
    one = run_trials(two_d6, n, 11, workers=1)
    two = run_trials(two_d6, n, 11, workers=2)
    for k in one.counts:
        assert np.array_equal(one.counts[k], two.counts[k])
    other = run_trials(two_d6, n, 12, workers=1)
    assert not np.array_equal(one.counts["total"], other.counts["total"])


def test_tally_agrees_with_the_exact_law():
    n = 200_000
    t = run_trials(two_d6, n, 3)
    exact = D6.dist.repeat(2)
    sim = t.dist("total")
    for k in range(2, 13):
        assert abs(sim[k] - exact[k]) <= 5 * np.sqrt(exact[k] * (1 - exact[k]) / n)
    assert t.mean("sixes") == pytest.approx(2 / 6, abs=5 * np.sqrt(2 * 5 / 36 / n))


def test_progress_is_reported_after_every_block():
    seen = []
    run_trials(two_d6, montecarlo.BLOCK + 5, 1, progress=lambda d, t: seen.append((d, t)))
    assert seen[-1] == (montecarlo.BLOCK + 5, montecarlo.BLOCK + 5) and len(seen) == 2


def test_tally_refuses_bad_outputs():
    t = Tally()
    with pytest.raises(ValueError):
        t.add({"x": np.array([1, 2])}, 3)
    with pytest.raises(ValueError):
        t.add({"x": np.array([-1])}, 1)


def test_tally_memory_is_a_histogram():
    t = Tally()
    t.add({"x": np.array([0, 5, 5])}, 3)
    t.add({"x": np.array([1])}, 1)
    assert t.counts["x"].tolist() == [1, 1, 0, 0, 0, 2]
    assert t.dist("x").allclose(Dist([0.25, 0.25, 0, 0, 0, 0.5]))


@pytest.mark.slow
def test_a_dask_cluster_gives_the_same_tally_as_one_process():
    distributed = pytest.importorskip("distributed")
    n = montecarlo.BLOCK + 123
    here = run_trials(two_d6, n, 21, workers=1)
    with distributed.LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, host="127.0.0.1"
    ) as cluster:
        there = run_trials(two_d6, n, 21, scheduler=cluster.scheduler_address)
    assert there.trials == n
    for k in here.counts:
        assert np.array_equal(here.counts[k], there.counts[k])


def test_large_runs_use_every_core_by_default(monkeypatch):
    monkeypatch.setattr(montecarlo.os, "cpu_count", lambda: 2)
    assert montecarlo.default_workers(montecarlo.BLOCK) == 1
    assert montecarlo.default_workers(montecarlo.PARALLEL_FROM) == 2
    monkeypatch.setattr(montecarlo.os, "cpu_count", lambda: 64)
    assert montecarlo.default_workers(montecarlo.PARALLEL_FROM) == len(block_sizes(montecarlo.PARALLEL_FROM))


def test_the_default_parallel_run_gives_the_one_process_tally():
    n = montecarlo.PARALLEL_FROM + 3
    default = run_trials(two_d6, n, 8)
    one = run_trials(two_d6, n, 8, workers=1)
    for k in one.counts:
        assert np.array_equal(default.counts[k], one.counts[k])
    assert default.dice == one.dice == 2 * n


def test_in_batches_runs_sub_batches_in_sequence_and_joins_them():
    seen: list[int] = []

    def batch_of(s, n):
        seen.append(n)
        return {"x": s.roll(n).astype(np.int64)}

    from grimdice.dice import Sampler

    whole = montecarlo.in_batches(batch_of, 10_000)(Sampler(4), 25_000)["x"]
    assert seen == [10_000, 10_000, 5_000]
    s = Sampler(4)
    expected = np.concatenate([s.roll(10_000), s.roll(10_000), s.roll(5_000)])
    assert whole.tolist() == expected.tolist()  # one stream, drawn in order
    one = {"x": np.arange(3)}
    assert montecarlo.in_batches(lambda s, n: one, 10)(Sampler(1), 3) is one  # no copy


@pytest.mark.parametrize(("cells", "batch"), [(1, 25_000), (2_000, 10_000), (40_000, 1_000), (0, 25_000)])
def test_sized_batches_hold_at_most_the_runner_s_cells(monkeypatch, cells, batch):
    """A sub-batch holds as many trials as BATCH_CELLS cells allow (here 2e7 / 2000 = 10 000), at
    least MIN_BATCH (1000) however large a trial is."""
    from grimdice.dice import Sampler

    seen: list[int] = []
    montecarlo.sized_batches(lambda s, n: seen.append(n) or {"x": np.zeros(n)}, cells)(Sampler(1), 25_000)
    assert max(seen) == batch and sum(seen) == 25_000


def test_keep_arrays_on_heap_tunes_glibc_once(monkeypatch):
    import platform

    from grimdice.engine import heap

    monkeypatch.delenv(heap.OPT_OUT, raising=False)
    expected = platform.system() == "Linux" and platform.libc_ver()[0] == "glibc"
    assert heap.keep_arrays_on_heap() is expected
    assert heap.keep_arrays_on_heap() is expected  # idempotent


def test_running_trials_leaves_the_allocator_alone(monkeypatch):
    """A library call does not change the process's malloc settings: only keep_arrays_on_heap,
    called where a process starts, does (and GRIMDICE_KEEP_HEAP=0 opts out of that)."""
    import ctypes

    from grimdice.engine import heap

    def forbidden(*args, **kwargs):
        raise AssertionError("the allocator was tuned")

    monkeypatch.setattr(heap, "_TUNED", None)
    monkeypatch.setattr(ctypes, "CDLL", forbidden)
    montecarlo.run_trials(lambda s, n: {"x": s.roll(n)}, 1000, seed=1, workers=1)
    RunOptions(simulate=1000, seed=1).run(lambda s, n: {"x": s.roll(n)})
    assert heap._TUNED is None
    monkeypatch.setenv(heap.OPT_OUT, "0")
    assert heap.keep_arrays_on_heap() is False and heap._TUNED is None


def test_the_grimdice_command_and_dask_workers_tune_the_allocator_at_their_start(monkeypatch, capsys):
    import sys

    from grimdice import __main__ as entry
    from grimdice.engine import heap

    monkeypatch.delenv(heap.OPT_OUT, raising=False)
    monkeypatch.setattr(heap, "_TUNED", None)
    heap.dask_setup(object())  # dask worker --preload grimdice.engine.heap
    assert heap._TUNED is not None
    monkeypatch.setattr(heap, "_TUNED", None)
    monkeypatch.setattr(sys, "argv", ["grimdice", "rules", "wh40k"])
    try:
        entry.main()
    except SystemExit as stop:
        assert stop.code in (0, None)
    assert heap._TUNED is not None
    assert "wh40k" in capsys.readouterr().out.lower()
