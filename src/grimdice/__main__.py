"""The ``grimdice`` console command (also ``python -m grimdice``).

``grimdice``, ``grimdice --help`` and ``grimdice COMMAND --help`` print the help Typer would print,
read from the snapshot ``cli/help.json`` that :mod:`grimdice.cli.helpgen` generates from the Typer
app itself (a test checks the two are equal), without importing Typer: importing it is most of the
start-up of a help. Everything else, and every case where the snapshot might not be what Typer
would print here (another program name, a terminal narrower than the snapshot was written for, a
shell-completion request, a missing or unreadable snapshot), runs the Typer app, except the plain
command lines of ``calc``, which :func:`grimdice.cli.params.run_fast` runs from the same
declarations without Typer (Typer's import and app, and pydantic's plugin lookup, were an eighth
of ``calc``'s CPU time).

The help needs nothing of :mod:`grimdice.cli` (whose Typer-free modules ``calc`` uses).

Before anything imports NumPy, :func:`main` sets ``OPENBLAS_NUM_THREADS=1`` unless the environment
already sets it (a user's own setting wins): NumPy's bundled OpenBLAS otherwise starts a pool of
threads, one a core, when it is imported, which cost ``calc`` up to a third of its CPU time on a
two-core machine, and grimdice gains nothing from them (its matrix products are of at most a few
hundred states, below the sizes where OpenBLAS splits work over threads). Worker processes of
``--simulate``/``--workers`` and of the batch commands are forked from the command or started by
it, so they inherit the setting: one process a core with single-threaded BLAS each. Programs that
import grimdice as a library keep their own BLAS set-up.
"""

from __future__ import annotations

import os
import sys

#: the BLAS thread settings the command line sets (unless set): name -> value
BLAS_THREADS = {"OPENBLAS_NUM_THREADS": "1"}

#: the snapshot of Typer's help texts, written by ``python -m grimdice.cli.helpgen``
HELP_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "cli", "help.json")


def snapshot_help(argv: list[str]) -> tuple[str, bool, int] | None:
    """``(text, to_stderr, exit code)`` of the help Typer prints for ``argv`` (``sys.argv``), from
    the snapshot; ``None`` when Typer must answer."""
    import json
    import shutil

    try:
        with open(HELP_FILE, encoding="utf-8") as f:
            snap = json.load(f)
    except (OSError, ValueError):
        return None
    if os.path.basename(argv[0]) != snap["prog"] or f"_{snap['prog'].upper()}_COMPLETE" in os.environ:
        return None
    # Click wraps help to min(columns, 80) - 2: every terminal of min_columns or more looks the same
    if shutil.get_terminal_size().columns < snap["min_columns"]:
        return None
    for case in snap["cases"]:
        if case["args"] == argv[1:]:
            return case["text"], case["stream"] == "stderr", case["code"]
    return None


def main() -> None:
    """The console entry point: the help from the snapshot, ``calc`` without Typer, or the Typer app
    (single-threaded BLAS unless the environment says otherwise: see the module doc)."""
    for name, value in BLAS_THREADS.items():
        os.environ.setdefault(name, value)
    asks_help = len(sys.argv) == 1 or (len(sys.argv) <= 3 and sys.argv[-1] == "--help")
    answer = snapshot_help(sys.argv) if asks_help else None
    if answer is None:
        if not asks_help:
            from grimdice.engine.heap import keep_arrays_on_heap

            keep_arrays_on_heap()  # this process runs grimdice's work: see grimdice.engine.heap
            from grimdice.cli.params import run_fast

            run_fast(sys.argv)  # exits if it ran the command
        from grimdice.cli.app import main as run_app

        run_app()
        return
    text, to_stderr, code = answer
    stream = sys.stderr if to_stderr else sys.stdout
    try:
        stream.write(text)
        stream.flush()
    except BrokenPipeError:  # like Click: quiet, exit status 1
        os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())
        code = 1
    sys.exit(code)


if __name__ == "__main__":
    main()
