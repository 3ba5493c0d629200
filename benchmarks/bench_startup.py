"""Benchmark: command-line start-up, timed as whole processes (hyperfine-style repeated runs).

Cases: ``grimdice --help`` (target 150 ms) and ``grimdice calc`` of a bundled example (target
300 ms), against peers run the same number of times: a bare ``python -c pass``, ``python -c
"import typer"`` (the floor of any Typer command line), the same help through the Typer app (what
``grimdice --help`` did before the console entry point answered it from the snapshot
``cli/help.json``), and the import of the libraries ``calc`` needs (Typer, NumPy, pydantic's models,
YAML, Rich's console and table: the floor of ``calc`` before any grimdice code). The runs of all commands
are interleaved (round-robin), so a busy machine slows each alike. Two statistics per command, both
medians: the wall time and the CPU time of the child process (user + system, from ``getrusage``),
which a shared machine inflates far less than the wall time. grimdice's modules are compiled to
bytecode first, as an installed package's are (a ``PYTHONDONTWRITEBYTECODE`` environment would
otherwise compile every module from source at each run). Import costs in detail: ``python -X
importtime -m grimdice calc FILE``.

Run: ``python benchmarks/bench_startup.py [--runs N]``.
"""

from __future__ import annotations

import argparse
import compileall
import resource
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import grimdice
from harness import machine

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "wh40k-intercessors-vs-boyz.yaml"


def once(cmd: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def commands() -> list[tuple[str, list[str], float | None]]:
    exe = shutil.which("grimdice")
    # the console script's own wrapper (it imports re) around the entry point, if not installed
    wrapper = "import re, sys; sys.argv[0] = 'grimdice'; from {} import main; sys.exit(main())"
    installed = exe is not None and "grimdice.__main__" in Path(exe).read_text(errors="replace")
    cli = [exe] if exe and installed else [sys.executable, "-c", wrapper.format("grimdice.__main__")]
    libraries = (
        "import typer, numpy, yaml, rich.console, rich.table; from pydantic import BaseModel, TypeAdapter"
    )
    return [
        ("python -c pass", [sys.executable, "-c", "pass"], None),
        ("python -c 'import typer'", [sys.executable, "-c", "import typer"], None),
        ("grimdice --help", [*cli, "--help"], 150.0),
        ("  the same through Typer", [sys.executable, "-c", wrapper.format("grimdice.cli"), "--help"], None),
        ("import calc's libraries", [sys.executable, "-c", libraries], None),
        ("grimdice calc example", [*cli, "calc", str(EXAMPLE)], 300.0),
    ]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args(argv)
    cmds = commands()
    compileall.compile_dir(Path(grimdice.__file__).parent, quiet=1)
    for _, cmd, _ in cmds:  # warm-up (file caches, .pyc)
        once(cmd)
    walls: list[list[float]] = [[] for _ in cmds]
    cpus: list[list[float]] = [[] for _ in cmds]
    for _ in range(args.runs):
        for i, (_, cmd, _) in enumerate(cmds):
            w, c = once(cmd)
            walls[i].append(w)
            cpus[i].append(c)
    print(f"machine: {machine()}; medians of {args.runs} interleaved runs; grimdice compiled to bytecode")
    base = statistics.median(walls[0]) * 1e3
    for (name, _, target), w, c in zip(cmds, walls, cpus, strict=True):
        wall, cpu = statistics.median(w) * 1e3, statistics.median(c) * 1e3
        goal = f"  target {target:.0f} ms" if target else ""
        print(f"{name:26} wall {wall:5.0f} ms  cpu {cpu:5.0f} ms  (+{wall - base:.0f} ms over python){goal}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
