"""``grimdice --help`` answered without Typer (``grimdice.__main__``): the snapshot equals what
Typer prints, the console entry point prints it without importing Typer, NumPy, pydantic or Rich,
and falls back to Typer whenever the snapshot might not be what Typer would print."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from grimdice.__main__ import HELP_FILE

HEAVY = ("typer", "numpy", "pydantic", "rich", "yaml")

#: runs ``grimdice.__main__.main`` as the console script does (program name ``grimdice``), then
#: reports on stderr the modules imported
ENTRY = """
import sys
sys.argv[0] = "grimdice"
from grimdice.__main__ import main
code = 0
try:
    main()
except SystemExit as exc:
    code = exc.code
sys.stderr.write("\\nMODULES=" + ",".join(sorted(sys.modules)) + "\\n")
sys.exit(code)
"""

#: the Typer app directly, with the same program name
TYPER = """
import sys
sys.argv[0] = "grimdice"
from grimdice.cli import main
main()
"""


def run(code: str, args: list[str], columns: int = 100) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "COLUMNS": str(columns)}
    env.pop("_GRIMDICE_COMPLETE", None)
    return subprocess.run(
        [sys.executable, "-c", code.replace("{heavy!r}", repr(HEAVY)), *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )


def imported(args: list[str], columns: int = 100) -> tuple[subprocess.CompletedProcess[str], str, set[str]]:
    """The entry point's run, its stderr without the report, and the modules it imported."""
    proc = run(ENTRY, args, columns)
    err, _, report = proc.stderr.rpartition("\nMODULES=")
    return proc, err, set(report.strip().split(","))


def entry(args: list[str], columns: int = 100) -> tuple[subprocess.CompletedProcess[str], str, list[str]]:
    """The entry point's run, its stderr without the report, and the heavy modules it imported."""
    proc, err, modules = imported(args, columns)
    return proc, err, [m for m in HEAVY if m in modules]


def snapshot() -> dict:
    return json.loads(Path(HELP_FILE).read_text(encoding="utf-8"))


def test_snapshot_equals_what_typer_prints():
    from grimdice.cli.helpgen import snapshot as current

    assert snapshot() == current(), "cli/help.json is stale: run python -m grimdice.cli.helpgen"


def test_every_command_and_the_bare_command_are_in_the_snapshot():
    from grimdice.cli import app

    answered = [c["args"] for c in snapshot()["cases"]]
    assert [] in answered and ["--help"] in answered
    for command in app.registered_commands:
        assert [command.callback.__name__, "--help"] in answered


@pytest.mark.parametrize("args", [["--help"], ["calc", "--help"], []])
def test_help_is_printed_without_importing_typer_numpy_pydantic_or_rich(args):
    proc, err, heavy = entry(args)
    typer = run(TYPER, args)
    assert heavy == []
    assert (proc.returncode, proc.stdout, err) == (typer.returncode, typer.stdout, typer.stderr)
    assert "Usage: grimdice" in proc.stdout + err


def test_a_narrow_terminal_gets_typer_s_own_wrapping():
    proc, err, heavy = entry(["--help"], columns=60)
    typer = run(TYPER, ["--help"], columns=60)
    assert "typer" in heavy
    assert (proc.returncode, proc.stdout, err) == (typer.returncode, typer.stdout, typer.stderr)
    assert proc.stdout != next(c["text"] for c in snapshot()["cases"] if c["args"] == ["--help"])


@pytest.mark.parametrize("args", [["systems"], ["calc", "--help", "extra"], ["--hepl"]])
def test_other_command_lines_run_typer(args):
    proc, err, heavy = entry(args)
    typer = run(TYPER, args)
    assert "typer" in heavy
    assert (proc.returncode, proc.stdout, err) == (typer.returncode, typer.stdout, typer.stderr)


@pytest.mark.parametrize(
    ("modules", "heavy"), [("grimdice.cli, grimdice.cli.params", ""), ("grimdice.cli.app", "typer")]
)
def test_importing_the_cli_imports_no_numpy_pydantic_or_rich(modules, heavy):
    proc = run(
        f"import sys, grimdice, {modules}\n"
        "sys.stdout.write(','.join(m for m in {heavy!r} if m in sys.modules))",
        [],
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == heavy


def test_the_installed_console_script_answers_from_the_snapshot():
    script = Path(sys.executable).parent / "grimdice"
    if not script.exists() or "grimdice.__main__" not in script.read_text(errors="replace"):
        pytest.skip("no console script for grimdice.__main__ next to this Python (reinstall)")
    env = {**os.environ, "COLUMNS": "100"}
    proc = subprocess.run([str(script), "--help"], capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert proc.stdout == next(c["text"] for c in snapshot()["cases"] if c["args"] == ["--help"])
