"""The console entry point's start-up settings (``grimdice.__main__``): single-threaded BLAS unless
the user's environment sets it, set before NumPy is imported (timings are in
``benchmarks/bench_startup.py``, not here)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLE = str(Path(__file__).resolve().parent.parent / "examples" / "wh40k-intercessors-vs-boyz.yaml")

#: runs ``calc --json`` through the console entry point, then reports the variable and the threads
#: of the process (NumPy's OpenBLAS starts its thread pool when NumPy is imported)
REPORT = """
import os, sys
sys.argv[0] = "grimdice"
from grimdice.__main__ import main
try:
    main()
except SystemExit as exc:
    assert not exc.code, exc.code
    assert "numpy" in sys.modules
    threads = "?"
    if os.path.exists("/proc/self/status"):
        threads = next(l.split()[1] for l in open("/proc/self/status") if l.startswith("Threads:"))
    sys.stderr.write(f"\\nTHREADS={threads} BLAS={os.environ.get('OPENBLAS_NUM_THREADS')!r}\\n")
"""


def report(blas: str | None) -> tuple[str, str]:
    """``(OPENBLAS_NUM_THREADS, threads of the process)`` after ``grimdice calc EXAMPLE --json``
    started with the variable set to ``blas`` (unset if ``None``)."""
    env = {k: v for k, v in os.environ.items() if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS")}
    if blas is not None:
        env["OPENBLAS_NUM_THREADS"] = blas
    proc = subprocess.run(
        [sys.executable, "-c", REPORT, "calc", EXAMPLE, "--json"],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    threads, _, blas_seen = proc.stderr.rpartition("\nTHREADS=")[2].strip().partition(" BLAS=")
    return blas_seen, threads


def test_blas_is_single_threaded_when_the_environment_does_not_say():
    blas, threads = report(None)
    assert blas == "'1'"
    if threads != "?":  # NumPy was imported after the variable was set: no BLAS thread pool
        assert threads == "1"


@pytest.mark.parametrize("value", ["2", ""])
def test_the_user_s_own_setting_is_kept(value):
    assert report(value)[0] == repr(value)


@pytest.mark.parametrize("enabled", [False, True])
def test_the_cycle_collector_is_on_while_the_system_computes_and_as_it_was_after(monkeypatch, enabled):
    import gc

    import grimdice.systems.base
    from grimdice.cli.calc import run

    seen = []
    monkeypatch.setattr(grimdice.systems.base, "run", lambda *args: seen.append(gc.isenabled()))
    was = gc.isenabled()
    try:
        (gc.enable if enabled else gc.disable)()
        run("wh40k", {}, None)  # type: ignore[arg-type]
        after = gc.isenabled()
    finally:
        (gc.enable if was else gc.disable)()
    assert (seen, after) == ([True], enabled)


def test_grimdice_cli_app_is_the_typer_app_and_can_be_monkeypatched(monkeypatch):
    import importlib

    import typer

    import grimdice.cli

    importlib.import_module("grimdice.cli.app")  # the import system binds the submodule: ignored
    assert isinstance(grimdice.cli.app, typer.Typer)
    stand_in = object()
    monkeypatch.setattr(grimdice.cli, "app", stand_in)
    assert grimdice.cli.app is stand_in
    from grimdice.cli import app

    assert app is stand_in
    monkeypatch.undo()
    assert isinstance(grimdice.cli.app, typer.Typer)


def test_the_fast_path_leaves_the_cycle_collector_as_it_found_it(monkeypatch, capsys):
    import gc

    from grimdice.cli.params import run_fast

    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "")  # (run_fast would set it in this process)
    assert gc.isenabled()
    with pytest.raises(SystemExit) as exit_:
        run_fast(["grimdice", "calc", EXAMPLE, "--json"])
    assert exit_.value.code == 0
    assert '"system": "wh40k"' in capsys.readouterr().out
    assert gc.isenabled()
