"""Calculations off the event loop, in worker processes that can be stopped.

Each calculation runs in one of ``size`` long-lived worker processes (``python -m
grimdice.web.pool``: the systems imported once, one JSON line per job on its stdin and stdout).
A calculation that exceeds the time budget has its worker terminated and replaced, so no request
can hold the server; at most ``size`` calculations run at once and at most ``max_waiting`` more
wait for a worker (at most ``per_client`` of them, running or waiting, from one client address),
beyond which the server answers "busy". A calculation whose client has gone is cancelled
(:meth:`CalcPool.cancel`): dropped from the queue, or its worker stopped and replaced.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import select
import subprocess
import sys
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Future, ThreadPoolExecutor
from typing import Any

#: (HTTP status, JSON body text, seconds the calculation took)
Answer = tuple[int, str, float]

MAX_WAITING = 32  # calculations waiting for a worker, from all clients
PER_CLIENT = 4  # calculations running or waiting from one client address


class BudgetExceeded(Exception):
    """The calculation did not finish within the time budget (its worker was stopped)."""


class Busy(Exception):
    """Too many calculations are already waiting for a worker."""


def compute(scenario: Mapping[str, Any], simulate: int | None, seed: int | None) -> Answer:
    """Run one calculation; errors a user can act on become ``422 {"error", "field", "message"}``."""
    from grimdice.errors import GrimdiceError, RuleError, ScenarioError
    from grimdice.systems.base import calculate

    start = time.perf_counter()
    try:
        result = calculate(scenario, simulate=simulate, seed=seed, workers=1)
        status, body = 200, result.to_json()
    except (ScenarioError, RuleError) as exc:
        status, body = 422, {"error": str(exc), "field": exc.field or None, "message": exc.message}
    except GrimdiceError as exc:
        status, body = 422, {"error": str(exc), "field": None, "message": str(exc)}
    except Exception as exc:  # an engine bug: report it, keep the worker
        status, body = 500, {"error": f"internal error: {type(exc).__name__}: {exc}", "field": None}
    return status, json.dumps(body), time.perf_counter() - start


def main() -> None:
    """A worker process (``python -m grimdice.web.pool``): import every system once, then answer
    one JSON line ``[scenario, simulate, seed]`` per calculation with ``[status, body, seconds]``."""
    from grimdice.systems.base import SYSTEMS

    for module in SYSTEMS.values():
        importlib.import_module(module)
    out = sys.stdout
    out.write("ready\n")
    out.flush()
    for line in sys.stdin:
        scenario, simulate, seed = json.loads(line)
        out.write(json.dumps(compute(scenario, simulate, seed)) + "\n")
        out.flush()


class _Worker:
    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "grimdice.web.pool"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            encoding="utf-8",
        )
        self.ready = False

    def _wait(self, seconds: float) -> bool:
        assert self.process.stdout is not None
        readable, _, _ = select.select([self.process.stdout], [], [], seconds)
        return bool(readable)

    def call(self, job: tuple[Any, ...], budget: float) -> Answer:
        assert self.process.stdin is not None and self.process.stdout is not None
        if not self.ready:  # importing the systems is not part of a request's budget
            if not self._wait(120) or self.process.stdout.readline() != "ready\n":
                raise RuntimeError("calculation worker did not start")
            self.ready = True
        self.process.stdin.write(json.dumps(job) + "\n")
        self.process.stdin.flush()
        if not self._wait(budget):
            raise BudgetExceeded
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("calculation worker stopped")
        status, body, seconds = json.loads(line)
        return status, body, seconds

    def stop(self, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        elif self.process.stdin is not None:
            with contextlib.suppress(OSError):
                self.process.stdin.close()
        try:
            self.process.wait(5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(5)
        for f in (self.process.stdin, self.process.stdout):
            if f is not None:
                with contextlib.suppress(OSError):
                    f.close()


class CalcPool:
    """``size`` worker processes, a time ``budget`` (seconds) per calculation, a bounded queue."""

    def __init__(
        self,
        size: int = 1,
        budget: float = 10.0,
        max_waiting: int = MAX_WAITING,
        per_client: int = PER_CLIENT,
    ) -> None:
        self.size, self.budget, self.max_waiting, self.per_client = size, budget, max_waiting, per_client
        self._by_client: dict[str, int] = {}
        self._running: dict[Future[Answer], _Worker] = {}
        self._idle: list[_Worker] = []
        self._all: list[_Worker] = []
        self._lock = threading.Lock()
        self._pending = 0
        self._executor: ThreadPoolExecutor | None = None

    def start(self) -> None:
        """Start the workers now (they import the systems while the server starts)."""
        with self._lock:
            self._open()
            while len(self._all) < self.size:
                w = _Worker()
                self._all.append(w)
                self._idle.append(w)

    def submit(
        self, scenario: Mapping[str, Any], simulate: int | None, seed: int | None, client: str = ""
    ) -> Future[Answer]:
        """Queue a calculation for ``client`` (its address); :class:`Busy` past the bounds."""
        with self._lock:
            if self._pending >= self.size + self.max_waiting:
                raise Busy
            if self._by_client.get(client, 0) >= self.per_client:
                raise Busy
            self._pending += 1
            self._by_client[client] = self._by_client.get(client, 0) + 1
            executor = self._open()
        fut: Future[Answer] = Future()
        job = (dict(scenario), simulate, seed)
        inner = executor.submit(self._run, job, fut)
        inner.add_done_callback(lambda done: self._settle(done, fut, client))
        fut.add_done_callback(lambda _: inner.cancel())  # a cancelled job never starts
        return fut

    def _settle(self, inner: Future[Answer], fut: Future[Answer], client: str) -> None:
        with self._lock:
            self._pending -= 1
            self._by_client[client] -= 1
            if not self._by_client[client]:
                del self._by_client[client]
        if fut.done():
            return
        if inner.cancelled():
            fut.cancel()
        elif inner.exception() is not None:
            fut.set_exception(inner.exception())
        else:
            fut.set_result(inner.result())

    def cancel(self, fut: Future[Answer]) -> None:
        """Drop a calculation nobody waits for: never started, or its worker is stopped now."""
        if fut.cancel():
            return
        with self._lock:  # still running on this worker (not yet handed back to the idle ones)
            worker = self._running.pop(fut, None)
            if worker is not None:
                worker.process.kill()  # its call sees the pipe close; that thread replaces it

    def _open(self) -> ThreadPoolExecutor:
        if self._executor is None:
            self._executor = ThreadPoolExecutor(max_workers=self.size, thread_name_prefix="grimdice-web")
        return self._executor

    def _run(self, job: tuple[Any, ...], fut: Future[Answer]) -> Answer:
        if not fut.set_running_or_notify_cancel():
            raise RuntimeError("cancelled")
        with self._lock:
            worker = self._idle.pop() if self._idle else None
        if worker is None:
            worker = _Worker()
            with self._lock:
                self._all.append(worker)
        with self._lock:
            self._running[fut] = worker
        try:
            answer = worker.call(job, self.budget)
        except BaseException:
            with self._lock:
                self._running.pop(fut, None)
            self._replace(worker)
            raise
        with self._lock:
            killed = self._running.pop(fut, None) is None  # cancel() took it: killed meanwhile
            if not killed:
                self._idle.append(worker)
        if killed:
            self._replace(worker)
        return answer

    def _replace(self, worker: _Worker) -> None:
        """Stop ``worker`` and start a fresh one in its place (it imports the systems now, ready for
        the next calculation)."""
        worker.stop(kill=True)
        fresh = _Worker()
        with self._lock:
            self._all.remove(worker)
            self._all.append(fresh)
            self._idle.append(fresh)

    def close(self) -> None:
        """Stop the workers (a later calculation starts them again)."""
        with self._lock:
            executor, self._executor = self._executor, None
        if executor is not None:
            executor.shutdown(wait=True, cancel_futures=True)
        with self._lock:
            workers, self._all, self._idle = self._all, [], []
        for w in workers:
            w.stop()


if __name__ == "__main__":
    main()
