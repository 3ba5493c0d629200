"""Load test of the local web server: N concurrent requests of a typical scenario, loopback only.

Starts ``grimdice serve`` on 127.0.0.1 on a free port (a subprocess, stopped at the end), sends
``--requests`` POST /api/calculate at once (httpx, one connection each), and prints throughput,
latency percentiles and errors. The peer, run in this same process on the same scenario and the
same number of calculations (imported and warmed outside the timed region): ``calculate()``
called directly, one after another. The ratio is the server's overhead per calculation
(HTTP, JSON, the worker process) at that concurrency.

Run: ``python benchmarks/load_web.py`` (``--requests 200 --jobs 1``; ``--smoke`` for 20 requests).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import yaml

from grimdice.systems.base import calculate

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = ROOT / "examples" / "wh40k-intercessors-vs-boyz.yaml"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, jobs: int) -> subprocess.Popen:
    cmd = [sys.executable, "-c", "from grimdice.cli import main; main()", "serve", "--port", str(port)]
    cmd += ["--jobs", str(jobs), "--per-client", "10000", "--queue", "10000", "--connections", "10000"]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=ROOT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/api/systems", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError("the server did not start")


async def fire(port: int, body: dict[str, Any], n: int) -> tuple[float, list[float], list[str]]:
    limits = httpx.Limits(max_connections=n, max_keepalive_connections=n)
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", limits=limits, timeout=300) as client:
        # warm: every worker has imported the systems and answered once
        for _ in range(4):
            (await client.post("/api/calculate", json=body)).raise_for_status()
        latencies: list[float] = []
        errors: list[str] = []

        async def one() -> None:
            t = time.perf_counter()
            r = await client.post("/api/calculate", json=body)
            latencies.append(time.perf_counter() - t)
            if r.status_code != 200:
                errors.append(f"{r.status_code}: {r.text[:100]}")

        start = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(n)))
        return time.perf_counter() - start, latencies, errors


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--jobs", type=int, default=1, help="worker processes of the server")
    ap.add_argument("--smoke", action="store_true", help="20 requests: a quick check")
    args = ap.parse_args()
    n = 20 if args.smoke else args.requests
    scenario = yaml.safe_load(SCENARIO.read_text())
    body = {"scenario": scenario, "simulate": None, "seed": None}

    calculate(scenario, workers=1)  # the peer, warmed
    t = time.perf_counter()
    for _ in range(n):
        json.dumps(calculate(scenario, workers=1).to_json())
    direct = time.perf_counter() - t

    port = free_port()
    proc = start_server(port, args.jobs)
    try:
        wall, lat, errors = asyncio.run(fire(port, body, n))
    finally:
        proc.terminate()
        proc.wait(30)
    lat.sort()
    p95 = lat[min(len(lat) - 1, int(0.95 * len(lat)))]
    print(
        f"scenario: {SCENARIO.name}; {n} concurrent requests; server jobs={args.jobs}; cores={os.cpu_count()}"
    )
    print(
        f"server: {wall:.2f} s, {n / wall:.1f} requests/s; latency median {statistics.median(lat):.3f} s, "
        f"p95 {p95:.3f} s, max {lat[-1]:.3f} s; errors {len(errors)}"
    )
    print(f"direct calculate() x{n}: {direct:.2f} s, {n / direct:.1f} /s")
    print(f"ratio server/direct time: {wall / direct:.2f}")
    for e in errors[:5]:
        print("error", e)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
