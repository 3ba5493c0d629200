"""A bounded load test: many concurrent requests to uvicorn on 127.0.0.1 all get the right answer.

(Throughput and latency are measured by ``benchmarks/load_web.py``, not here.)
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from grimdice.web.server import create_app

from .conftest import EXAMPLES, served
from .test_api import ONE_SHOT

REQUESTS = 120


def test_concurrent_requests_all_succeed_with_the_same_result() -> None:
    async def burst(url: str) -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=REQUESTS)
        async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as c:
            return await asyncio.gather(
                *(c.post("/api/calculate", json={"scenario": ONE_SHOT}) for _ in range(REQUESTS))
            )

    app = create_app(jobs=2, budget=30.0, max_waiting=REQUESTS, per_client=REQUESTS, examples=EXAMPLES)
    with served(app) as url:
        responses = asyncio.run(burst(url))
    assert [r.status_code for r in responses] == [200] * REQUESTS
    assert len({r.content for r in responses}) == 1
    assert responses[0].json()["damage"]["pmf"] == pytest.approx([19 / 24, 5 / 24], abs=1e-12)
