"""Benchmark: command-line start-up, timed as whole processes (hyperfine-style repeated runs).

Cases: ``grimdice --help`` (target 150 ms) and ``grimdice calc`` of bundled examples of several
systems (target 300 ms; ``--examples`` picks them), against peers run the same number of times: a
bare ``python -c pass``, ``python -c "import numpy"`` (with ``OPENBLAS_NUM_THREADS=1``, as ``calc``
imports it), ``python -c "import typer"`` (the floor of any Typer command line), the same help
through the Typer app (what ``grimdice --help`` did before the console entry point answered it from
the snapshot ``cli/help.json``), the libraries ``calc`` needs (NumPy, YAML, Rich's console and
table, pydantic with one model built and used, set up as the entry point sets them up: one BLAS
thread, no pydantic plugin lookup, no plugin loader, the cycle collector off: the floor of ``calc``
before any grimdice code), and the first example's ``calc`` through the Typer app (what it did before
the entry point ran it without Typer; pydantic's plugins are looked up there). ``--before DIR``
adds the ``calc`` of each example by another source tree (``git archive REV src | tar -x -C DIR``),
run from ``DIR/src``, for a before/after comparison in the same session. The runs of all commands
are interleaved (round-robin), so a busy machine slows each alike. Two statistics per command, both
medians: the wall time and the CPU time of the child process (user + system, from ``getrusage``),
which a shared machine inflates far less than the wall time. grimdice's modules are compiled to
bytecode first, as an installed package's are (a ``PYTHONDONTWRITEBYTECODE`` environment would
otherwise compile every module from source at each run). Import costs in detail: ``python -X
importtime -m grimdice calc FILE``.

Run: ``python benchmarks/bench_startup.py [--runs N] [--examples NAME,...] [--before DIR]``.
"""

from __future__ import annotations

import argparse
import compileall
import os
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

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

#: one bundled example of each of four systems (the first is also run through the Typer app)
DEFAULT_EXAMPLES = (
    "wh40k-intercessors-vs-boyz",
    "heresy-tactical-vs-auxilia",
    "killteam-shoot-sniper",
    "onepage-shooting",
)

#: the libraries ``calc`` needs, one pydantic model built and used, set up as ``calc`` sets them up
LIBRARIES = """\
import gc, os
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
gc.disable()
import numpy, yaml, rich.console, rich.table
from pydantic import BaseModel
class Model(BaseModel):
    x: int
Model.model_validate({"x": 1})
"""

Command = tuple[str, list[str], float | None, dict[str, str] | None]


def once(cmd: list[str], env: dict[str, str] | None = None) -> tuple[float, float]:
    """(wall, CPU) seconds of one run of ``cmd``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu


def commands(examples: list[str], before: Path | None = None) -> list[Command]:
    exe = shutil.which("grimdice")
    # the console script's own wrapper (it imports re) around the entry point, if not installed
    wrapper = "import re, sys; sys.argv[0] = 'grimdice'; from {} import main; sys.exit(main())"
    installed = exe is not None and "grimdice.__main__" in Path(exe).read_text(errors="replace")
    cli = [exe] if exe and installed else [sys.executable, "-c", wrapper.format("grimdice.__main__")]
    typer_app = [sys.executable, "-c", wrapper.format("grimdice.cli.app")]
    one_blas = {**os.environ, "OPENBLAS_NUM_THREADS": "1"}
    files = [str(EXAMPLES / f"{name}.yaml") for name in examples]
    cases: list[Command] = [
        ("python -c pass", [sys.executable, "-c", "pass"], None, None),
        ("python -c 'import numpy'", [sys.executable, "-c", "import numpy"], None, one_blas),
        ("python -c 'import typer'", [sys.executable, "-c", "import typer"], None, None),
        ("grimdice --help", [*cli, "--help"], 150.0, None),
        ("  the same through Typer", [*typer_app, "--help"], None, None),
        ("calc's libraries (floor)", [sys.executable, "-c", LIBRARIES], None, None),
    ]
    for i, (name, file) in enumerate(zip(examples, files, strict=True)):
        cases.append((f"grimdice calc {name}", [*cli, "calc", file], 300.0, None))
        if i == 0:
            cases.append(("  the same through Typer", [*typer_app, "calc", file], None, None))
        if before is not None:
            env = {**os.environ, "PYTHONPATH": str(before / "src")}
            old = [sys.executable, "-c", wrapper.format("grimdice.__main__"), "calc", file]
            cases.append((f"  {before}'s calc", old, None, env))
    return cases


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--runs", type=int, default=10)
    ap.add_argument("--examples", default=",".join(DEFAULT_EXAMPLES), help="bundled examples, NAME,...")
    ap.add_argument("--before", type=Path, help="a source tree (with src/grimdice) to compare calc with")
    args = ap.parse_args(argv)
    cmds = commands(args.examples.split(","), args.before)
    compileall.compile_dir(Path(grimdice.__file__).parent, quiet=1)
    if args.before is not None:
        compileall.compile_dir(args.before / "src" / "grimdice", quiet=1)
    for _, cmd, _, env in cmds:  # warm-up (file caches, .pyc)
        once(cmd, env)
    walls: list[list[float]] = [[] for _ in cmds]
    cpus: list[list[float]] = [[] for _ in cmds]
    for _ in range(args.runs):
        for i, (_, cmd, _, env) in enumerate(cmds):
            w, c = once(cmd, env)
            walls[i].append(w)
            cpus[i].append(c)
    print(f"machine: {machine()}; medians of {args.runs} interleaved runs; grimdice compiled to bytecode")
    base = statistics.median(walls[0]) * 1e3
    floor_cpu = statistics.median(cpus[[n for n, *_ in cmds].index("calc's libraries (floor)")])
    last_calc: float | None = None  # the CPU time of the calc row above (its peers are indented)
    for (name, _, target, _), w_runs, c_runs in zip(cmds, walls, cpus, strict=True):
        wall, cpu = statistics.median(w_runs) * 1e3, statistics.median(c_runs) * 1e3
        goal = f"  target {target:.0f} ms" if target else ""
        ratio = ""
        if name.startswith("grimdice calc"):  # its CPU time over the floor's; its peers' over its own
            last_calc = statistics.median(c_runs)
            ratio = f"  {last_calc / floor_cpu:.2f}x the floor's cpu"
        elif name.startswith("  ") and last_calc is not None:
            ratio = f"  {statistics.median(c_runs) / last_calc:.2f}x calc's cpu"
        over = f"(+{wall - base:.0f} ms over python)"
        print(f"{name[:42]:42} wall {wall:5.0f} ms  cpu {cpu:5.0f} ms  {over}{goal}{ratio}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
