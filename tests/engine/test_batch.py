"""Batches: the same ordered results on one process, local workers or a Dask cluster."""

import math

import numpy as np
import pytest

from grimdice.engine.batch import parallel_map, wilson


def game(seed):
    rng = np.random.default_rng(seed)
    return int(rng.integers(0, 1000, size=50).sum())


def test_parallel_map_keeps_order_and_results_whatever_the_workers():
    items = list(range(23))
    one = parallel_map(game, items, workers=1)
    two = parallel_map(lambda s: game(s), items, workers=2)  # a closure: fork needs no pickling
    assert one == two == [game(s) for s in items]


def test_progress_counts_every_item():
    seen = []
    parallel_map(game, [1, 2, 3], workers=1, progress=lambda d, t: seen.append((d, t)))
    assert seen == [(1, 3), (2, 3), (3, 3)]


def test_wilson_interval_by_hand():
    lo, hi = wilson(50, 100)
    # p = 0.5, z = 1.96: centre 0.5, half = 1.96*sqrt(0.0025 + 1.96^2/40000)/(1 + 1.96^2/100)
    half = 1.96 * math.sqrt(0.0025 + 1.96**2 / 40000) / (1 + 1.96**2 / 100)
    assert (lo, hi) == pytest.approx((0.5 - half, 0.5 + half))
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == pytest.approx(1.0)
    assert wilson(0, 0) == (0.0, 1.0)


def closed_port() -> int:
    """A local TCP port nothing listens on (bound, then released)."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_error_after_the_connect_timeout(monkeypatch):
    """A closed port: Dask retries until the timeout, then one ScenarioError naming ``scheduler``;
    the wait is the module's CONNECT_TIMEOUT (shortened here so the test stays quick): at least that
    long, and far from a hang (the upper bound is loose, for a loaded machine)."""
    import time

    pytest.importorskip("distributed")
    from grimdice.engine import batch
    from grimdice.errors import ScenarioError

    monkeypatch.setattr(batch, "CONNECT_TIMEOUT", 0.5)
    t0 = time.perf_counter()
    with pytest.raises(ScenarioError) as err:
        parallel_map(game, [1, 2], scheduler=f"tcp://127.0.0.1:{closed_port()}")
    waited = time.perf_counter() - t0
    assert err.value.field == "scheduler" and "cannot reach a Dask scheduler" in err.value.message
    assert "\n" not in str(err.value)
    assert 0.4 <= waited < 30, waited


def test_the_scheduler_connect_timeout_is_ten_seconds_not_dask_s_thirty(monkeypatch):
    """The timeout handed to ``distributed.Client`` is 10 s (Dask's default connect timeout is 30 s)."""
    distributed = pytest.importorskip("distributed")
    from grimdice.errors import ScenarioError

    seen = {}

    def client(address, **kwargs):
        seen.update(kwargs, address=address)
        raise OSError(f"Timed out trying to connect to {address} after {kwargs['timeout']:g} s")

    monkeypatch.setattr(distributed, "Client", client)
    with pytest.raises(ScenarioError, match="after 10 s"):
        parallel_map(game, [1], scheduler="tcp://127.0.0.1:9")
    assert seen == {"address": "tcp://127.0.0.1:9", "timeout": 10.0}


# A worker that fails: the run ends with the error, never hangs. Each case runs in a child
# interpreter with a timeout, so a regression is a failed test rather than a hung suite.
FAILING = """
import os, sys
from grimdice.engine.batch import parallel_map, WorkerFailed
from grimdice.errors import ScenarioError, RuleError

class Odd(Exception):
    def __init__(self, a, b):  # cannot be rebuilt from its args: unpickling fails in the parent
        super().__init__(f"{a}{b}")

def refuse(i):
    if i == 3:
        raise ScenarioError("deployment", "does not fit")
    return i

def rule(i):
    if i == 2:
        raise RuleError("no line of sight", "shots.0.target")
    return i

def die(i):
    if i == 1:
        os._exit(9)
    return i

def odd(i):
    if i == 2:
        raise Odd(1, 2)
    return i

kind = sys.argv[1]
fn = {"refuse": refuse, "rule": rule, "die": die, "odd": odd}[kind]
try:
    parallel_map(fn, list(range(40)), workers=2)
except (ScenarioError, RuleError) as exc:
    print(type(exc).__name__, repr(exc.field), exc.message)
except WorkerFailed as exc:
    print("WorkerFailed", str(exc)[:40])
except Odd as exc:
    print("Odd", exc)
else:
    print("no error")
"""


@pytest.mark.parametrize(
    ("kind", "expected"),
    [
        ("refuse", "ScenarioError 'deployment' does not fit"),
        ("rule", "RuleError 'shots.0.target' no line of sight"),
        ("die", "WorkerFailed a worker process stopped"),
        ("odd", "WorkerFailed a worker process stopped"),
    ],
)
def test_a_failing_worker_ends_the_run_with_its_error(kind, expected):
    """A project error raised in a worker reaches the caller intact (class, field, message); a
    worker that dies or whose error cannot be sent back ends the run with ``WorkerFailed``."""
    import subprocess
    import sys

    out = subprocess.run(
        [sys.executable, "-c", FAILING, kind], capture_output=True, text=True, timeout=60, check=False
    )
    assert out.stdout.strip().startswith(expected), out.stdout + out.stderr[-2000:]


def test_project_errors_pickle_with_their_fields():
    import pickle

    from grimdice.dice.expr import DiceSyntaxError
    from grimdice.errors import RuleError, ScenarioError

    for exc in (ScenarioError("a.b", "bad"), RuleError("breaks", "shots.0"), DiceSyntaxError("2d")):
        back = pickle.loads(pickle.dumps(exc))
        assert type(back) is type(exc) and str(back) == str(exc)
        assert back.__dict__ == exc.__dict__
