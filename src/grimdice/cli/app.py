"""``grimdice`` command line: ``grimdice calc SCENARIO.yaml [--json] [--plot F] [--simulate N]``.

Order of work: every option is checked first (run options, the ``--plot`` path: a known suffix, an
existing writable directory), then the scenario is read and computed, then the result is printed,
and only then is the plot written, so a failure to write never loses the result. Every user text
reaches the terminal through :func:`grimdice.cli.render.safe`.
"""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grimdice.engine.options import Progress, RunOptions
from grimdice.errors import GrimdiceError, ScenarioError, shown
from grimdice.io.scenario import load_scenario
from grimdice.systems.base import SYSTEMS, run, system_name

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Exact dice maths and simulation for tabletop wargames.",
)

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
PROGRESS_AFTER = 1.0  # seconds: a simulated run still going after this shows a progress bar


def run_options(simulate: int | None, seed: int | None, progress: Progress | None = None) -> RunOptions:
    """The shared run options, with errors naming the command-line options."""
    if seed is not None and simulate is None:
        raise GrimdiceError("--seed only applies with --simulate N")
    try:
        return RunOptions(simulate, seed, progress=progress)
    except ScenarioError as exc:
        raise ScenarioError(f"--{exc.field}", exc.message) from None


def check_plot_path(path: Path) -> Path:
    """Refuse, before any work, a ``--plot`` path that cannot be written as asked: an unknown
    suffix (the file is written exactly where told, never renamed), a missing or read-only
    directory, a directory given as the file."""
    suffix = path.suffix.lower()
    if suffix not in PLOT_SUFFIXES:
        raise ScenarioError(
            "--plot", f"{shown(str(path))} needs one of the suffixes {', '.join(PLOT_SUFFIXES)}"
        )
    if path.is_dir():
        raise ScenarioError("--plot", f"{shown(str(path))} is a directory; give a file name")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise ScenarioError("--plot", f"directory {shown(str(parent))} does not exist")
    if not os.access(parent, os.W_OK | os.X_OK) or (path.exists() and not os.access(path, os.W_OK)):
        raise ScenarioError("--plot", f"cannot write {shown(str(path))} (permission denied)")
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise GrimdiceError("--plot needs matplotlib: pip install 'grimdice[plot]'") from None
    return path


class ProgressBar:
    """A Rich progress bar on stderr for a Monte Carlo run, shown only on a terminal and once the
    run has lasted :data:`PROGRESS_AFTER` seconds (short runs and redirected output print nothing).
    Use as ``RunOptions.progress``; it only observes, so the result for a seed is the same with or
    without it."""

    def __init__(self, console: Console, after: float = PROGRESS_AFTER) -> None:
        self.console = console
        self.after = after
        self.start = time.monotonic()
        self._bar = None
        self._task = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total or time.monotonic() - self.start < self.after or not self.console.is_terminal:
                return
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TimeRemainingColumn

            self._bar = Progress(
                "simulating", BarColumn(), TaskProgressColumn(), TimeRemainingColumn(), console=self.console
            )
            self._bar.start()
            self._task = self._bar.add_task("trials", total=total)
        self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def _fail(err: Console, exc: Exception) -> typer.Exit:
    from grimdice.cli.render import safe

    err.print(f"[bold red]error[/]: {safe(exc)}", highlight=False, soft_wrap=True)
    return typer.Exit(2)


@app.callback()
def _root() -> None:
    """grimdice: what will this unit do to that one?"""


@app.command()
def calc(
    scenario: Annotated[Path, typer.Argument(help="Scenario file (YAML or JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Also draw the distributions to this .png, .svg or .pdf file."),
    ] = None,
    simulate: Annotated[
        int | None, typer.Option("--simulate", help="Use the Monte Carlo engine with N trials.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --simulate.")] = None,
) -> None:
    """Resolve the attacks in SCENARIO and print each stage's distribution."""
    err = Console(stderr=True)
    bar = ProgressBar(err) if simulate is not None else None
    try:
        options = run_options(simulate, seed, bar)
        if plot is not None:
            check_plot_path(plot)
        result = run(system_name(data := load_scenario(scenario)), data, options)
    except GrimdiceError as exc:
        raise _fail(err, exc) from None
    finally:
        if bar is not None:
            bar.close()
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
        sys.stdout.flush()
    else:
        from grimdice.cli.render import render

        render(result, Console())
    if plot is None:
        return
    from grimdice.cli.plot import plot_result
    from grimdice.cli.render import safe

    try:
        plot_result(result, plot)
    except (GrimdiceError, OSError, ValueError) as exc:  # the result is already printed
        raise _fail(err, GrimdiceError(f"--plot: could not write {shown(str(plot))}: {exc}")) from None
    (err if as_json else Console()).print(f"plot written to {safe(plot)}", highlight=False)


@app.command()
def systems() -> None:
    """List the rule systems a scenario can name."""
    for name in sorted(SYSTEMS):
        typer.echo(name)


@app.command()
def rules(
    system: Annotated[str, typer.Argument(help="A rule system, e.g. wh40k.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the index as JSON.")] = False,
) -> None:
    """Print a system's rule index: every rule, its value, its effect and its source."""
    from grimdice.systems.base import get_system

    err = Console(stderr=True)
    try:
        table = getattr(get_system(system), "RULES", None)
        if table is None:
            raise GrimdiceError(f"{system} has no rule index yet")
    except GrimdiceError as exc:
        raise _fail(err, exc) from None
    if as_json:
        sys.stdout.write(json.dumps(table.rows()) + "\n")
        return
    from grimdice.cli.render import rules_table

    Console().print(rules_table(table))


def main() -> None:
    app()
