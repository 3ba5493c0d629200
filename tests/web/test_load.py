"""A bounded load test: many concurrent requests to uvicorn on 127.0.0.1 all get the right answer.

(Throughput and latency are measured by ``benchmarks/load_web.py``, not here.)
"""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import httpx
import pytest
import uvicorn

from grimdice.web.server import create_app

from .conftest import EXAMPLES
from .test_api import ONE_SHOT

REQUESTS = 120


def test_concurrent_requests_all_succeed_with_the_same_result() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    app = create_app(jobs=2, budget=30.0, examples=EXAMPLES)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        if time.monotonic() > deadline:
            pytest.fail("uvicorn did not start")
        time.sleep(0.05)

    async def burst() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=REQUESTS)
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=120) as c:
            return await asyncio.gather(
                *(c.post("/api/calculate", json={"scenario": ONE_SHOT}) for _ in range(REQUESTS))
            )

    try:
        responses = asyncio.run(burst())
    finally:
        server.should_exit = True
        thread.join(30)
    assert [r.status_code for r in responses] == [200] * REQUESTS
    assert len({r.content for r in responses}) == 1
    assert responses[0].json()["damage"]["pmf"] == pytest.approx([19 / 24, 5 / 24], abs=1e-12)
