"""Benchmark: command-line start-up, timed as whole processes (hyperfine-style repeated runs).

Cases: ``grimdice --help`` (target 150 ms) and ``grimdice calc`` of a bundled example (target
300 ms), each against a bare ``python -c pass`` run the same number of times, so the table shows
both the wall time and the start-up grimdice adds on this machine. Import costs in detail:
``python -X importtime -c "import grimdice.cli.app"``.

Run: ``python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "wh40k-intercessors-vs-boyz.yaml"


def wall(cmd: list[str], runs: int) -> float:
    """Median wall time in ms of ``runs`` runs of ``cmd`` after one warm-up run."""
    subprocess.run(cmd, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1e3


def commands() -> list[tuple[str, list[str], float | None]]:
    exe = shutil.which("grimdice")
    cli = [exe] if exe else [sys.executable, "-c", "from grimdice.cli import main; main()"]
    return [
        ("python -c pass", [sys.executable, "-c", "pass"], None),
        ("grimdice --help", [*cli, "--help"], 150.0),
        ("grimdice calc example", [*cli, "calc", str(EXAMPLE)], 300.0),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args(argv)
    base = None
    for name, cmd, target in commands():
        ms = wall(cmd, args.runs)
        base = ms if base is None else base
        extra = f"  (+{ms - base:.0f} ms over python)" if target is not None else ""
        print(
            f"{name}: {ms:.0f} ms median of {args.runs}{extra}{f'  target {target:.0f} ms' if target else ''}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
