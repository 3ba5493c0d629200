"""Hostile clients: strict request types, errors in the API's one shape, pasted text read with the
file reader's budgets off the event loop, abandoned calculations cancelled, bounded queues, and
connections that trickle or pile up cut off."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager, suppress

import pytest
import yaml
from fastapi.testclient import TestClient

from grimdice.web import guard
from grimdice.web.pool import Busy, CalcPool
from grimdice.web.server import create_app

from .conftest import EXAMPLES
from .test_api import ONE_SHOT


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"simulate": True}, "simulate"),
        ({"simulate": "100"}, "simulate"),
        ({"simulate": 100.0}, "simulate"),
        ({"simulate": 1000, "seed": True}, "seed"),
        ({"simulate": 1000, "seed": "7"}, "seed"),
    ],
)
def test_run_options_are_not_coerced(client: TestClient, extra: dict, field: str) -> None:
    """``true`` is not 1 trial, ``"100"`` is not 100: the documented strict types."""
    r = client.post("/api/calculate", json={"scenario": ONE_SHOT, **extra})
    assert r.status_code == 422, r.text
    assert r.json()["field"] == field


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"scenario": ', "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (b'"text"', "JSON object"),
    ],
)
def test_a_malformed_body_names_no_field(client: TestClient, content: bytes, words: str) -> None:
    """The API's shape, and no byte offset passed off as a field."""
    r = client.post("/api/calculate", content=content, headers={"content-type": "application/json"})
    assert r.status_code == 422
    body = r.json()
    assert set(body) == {"error", "field", "message"} and body["field"] is None
    assert words in body["message"]


def test_http_errors_use_the_api_shape(client: TestClient) -> None:
    for r in (client.get("/api/nothing-here"), client.get("/api/calculate")):
        assert set(r.json()) == {"error", "field", "message"}, r.text
        assert r.status_code in (404, 405)


ALIAS_BOMB = "a: &a [x,x,x,x,x,x,x,x,x]\n" + "".join(
    f"{c}: &{c} [{','.join(['*' + p] * 9)}]\n" for p, c in zip("abcdefgh", "bcdefghi", strict=False)
)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (ALIAS_BOMB, "more than 100000 values"),
        ("a: " + "9" * 5000, "cannot be read"),
        ("[" * 2000 + "]" * 2000, "nested"),
        ("a: .nan", "not a number"),
        ("system: wh40k\ntitle: 2020-01-01", "JSON cannot carry"),
        ("system: wh40k\ntitle: !!binary aGVsbG8=", "JSON cannot carry"),
    ],
)
def test_parse_reads_text_with_the_file_budgets(client: TestClient, text: str, words: str) -> None:
    """An alias bomb of a few hundred characters is refused without being expanded; numbers and
    nesting past the file limits are refused; all as 422 naming ``text``."""
    assert len(ALIAS_BOMB) < 500
    r = client.post("/api/parse", json={"text": text})
    assert r.status_code == 422, r.text[:300]
    assert r.json()["field"] == "text" and words in r.json()["message"]


def test_parse_runs_off_the_event_loop(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str] = []
    real = guard._read

    def spy(text: str) -> dict:
        seen.append(threading.current_thread().name)
        return real(text)

    monkeypatch.setattr(guard, "_read", spy)
    text = (EXAMPLES / "wh40k-guard-orders.yaml").read_text()
    assert client.post("/api/parse", json={"text": text}).json()["scenario"] == yaml.safe_load(text)
    assert seen and all(name != "MainThread" and "asyncio" in name for name in seen)


def test_the_queue_is_bounded_per_client_and_in_total(monkeypatch: pytest.MonkeyPatch) -> None:
    """No worker process: the jobs block on an event, so the bounds are met while they wait."""
    release = threading.Event()

    def held(self: CalcPool, job: tuple, fut: object) -> tuple[int, str, float]:
        fut.set_running_or_notify_cancel()  # type: ignore[attr-defined]
        release.wait(30)
        return 200, "{}", 0.0

    monkeypatch.setattr(CalcPool, "_run", held)
    pool = CalcPool(size=1, max_waiting=3, per_client=2)
    try:
        a = [pool.submit(ONE_SHOT, None, None, "a") for _ in range(2)]
        with pytest.raises(Busy):
            pool.submit(ONE_SHOT, None, None, "a")  # a third from the same address
        b = [pool.submit(ONE_SHOT, None, None, c) for c in ("b", "c")]
        with pytest.raises(Busy):
            pool.submit(ONE_SHOT, None, None, "d")  # 1 running + 3 waiting: the total bound
        assert a[1].cancel()  # waiting: dropped, its place freed
        pool.submit(ONE_SHOT, None, None, "d")
        release.set()
        assert a[0].result(10)[0] == 200 and b[1].result(10)[0] == 200
    finally:
        release.set()
        pool.close()


@contextmanager
def serving(app: object) -> Iterator[tuple[str, int]]:
    import uvicorn

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    srv = uvicorn.Server(guard.server_config(app, "127.0.0.1", port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 60
    while not srv.started:
        assert time.monotonic() < deadline, "uvicorn did not start"
        time.sleep(0.05)
    try:
        yield "127.0.0.1", port
    finally:
        srv.should_exit = True
        thread.join(30)


def request(addr: tuple[str, int], body: dict, timeout: float = 60) -> tuple[int, dict]:
    import http.client

    conn = http.client.HTTPConnection(*addr, timeout=timeout)
    try:
        conn.request("POST", "/api/calculate", json.dumps(body), {"content-type": "application/json"})
        r = conn.getresponse()
        return r.status, json.loads(r.read())
    finally:
        conn.close()


def closed(s: socket.socket) -> bool:
    """The server closed ``s`` (end of stream or reset), rather than answering or waiting."""
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True


@pytest.mark.slow
def test_an_abandoned_calculation_is_stopped() -> None:
    """A heavy Monte Carlo run whose client hangs up: its worker is stopped (not left to run out
    its budget) and the next request is answered by a fresh worker."""
    app = create_app(jobs=1, budget=120, examples=EXAMPLES)
    guard_orders = yaml.safe_load((EXAMPLES / "wh40k-guard-orders.yaml").read_text())
    heavy = {"scenario": guard_orders, "simulate": 10**7}
    with serving(app) as addr:
        assert request(addr, {"scenario": ONE_SHOT})[0] == 200  # the worker is up
        pool = app.state.pool
        first = pool._all[0].process
        with pytest.raises(TimeoutError):
            request(addr, heavy, timeout=1.5)  # the client gives up; the socket is closed
        deadline = time.monotonic() + 30
        while first.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert first.poll() is not None, "the abandoned calculation's worker is still running"
        assert request(addr, {"scenario": ONE_SHOT})[0] == 200


def test_trickled_headers_are_cut_off_and_one_address_cannot_take_every_connection(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Slowloris from 127.0.0.2: connections past the per-address bound are closed at once, the
    rest once the request deadline passes however they trickle; 127.0.0.1 is served meanwhile."""
    monkeypatch.setattr(guard.GuardedH11Protocol, "request_timeout", 1.0)
    monkeypatch.setattr(guard.GuardedH11Protocol, "max_per_address", 5)
    app = create_app(jobs=1, budget=60, examples=EXAMPLES)
    with serving(app) as addr:
        socks = []
        for _ in range(8):
            s = socket.socket()
            s.settimeout(5)
            s.bind(("127.0.0.2", 0))
            s.connect(addr)
            s.sendall(b"POST /api/calculate HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            socks.append(s)
        assert all(closed(s) for s in socks[5:])  # over the bound: closed by the server at once
        assert request(addr, {"scenario": ONE_SHOT})[0] == 200  # another address is served
        for _ in range(3):  # trickle on the held ones
            time.sleep(0.5)
            for s in socks[:5]:
                with suppress(OSError):
                    s.sendall(b"X-a: b\r\n")
        assert all(closed(s) for s in socks[:5])  # cut off at the deadline
        for s in socks:
            s.close()
