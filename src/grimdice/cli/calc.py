"""``grimdice calc SCENARIO.yaml [--json] [--plot F] [--simulate N]``: the command and the helpers the
other commands share (their Rich console, run options, progress bar), without importing Typer: the
console entry point runs ``calc`` from these declarations directly (:mod:`grimdice.cli.params`),
and :mod:`grimdice.cli.app` registers the same function on the Typer app.

Order of work: every option is checked first (run options, the ``--plot`` path: a known suffix, an
existing writable directory), then the scenario is read and computed, then the result is printed,
and only then is the plot written, so a failure to write never loses the result. Every user text
reaches the terminal through :func:`grimdice.cli.render.safe`.
"""

import json
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

from grimdice.cli.params import Argument, Option
from grimdice.errors import GrimdiceError, ScenarioError, shown

if TYPE_CHECKING:  # the engines (NumPy, pydantic) are imported by the commands that run them
    import typer
    from rich.console import Console
    from rich.progress import Progress as RichProgress
    from rich.progress import TaskID

    from grimdice.engine.options import Progress, RunOptions
    from grimdice.result import Result

PLOT_SUFFIXES = (".png", ".svg", ".pdf")
PROGRESS_AFTER = 1.0  # seconds: a simulated run still going after this shows a progress bar


def run(name: str, data: dict, options: "RunOptions") -> "Result":
    """:func:`grimdice.systems.base.run`, imported when a command computes (not at start-up), with
    Python's cycle collector on while the system validates and computes (the console entry point
    turns it off for the start-up: :func:`grimdice.cli.params.run_fast`), and as it was after."""
    import gc

    from grimdice.systems.base import get_system
    from grimdice.systems.base import run as run_system

    get_system(name)  # the system's modules are imported with the collector as the caller left it
    paused = not gc.isenabled()
    gc.enable()
    try:
        return run_system(name, data, options)
    finally:
        if paused:
            gc.disable()


def system_name(data: dict) -> str:
    from grimdice.systems.base import system_name as name_of

    return name_of(data)


def run_options(
    simulate: int | None,
    seed: int | None,
    progress: "Progress | None" = None,
    workers: int | None = None,
    scheduler: str | None = None,
) -> "RunOptions":
    """The shared run options, with errors naming the command-line options."""
    from grimdice.engine.options import RunOptions

    if seed is not None and simulate is None:
        raise GrimdiceError("--seed only applies with --simulate N")
    if (workers is not None or scheduler is not None) and simulate is None:
        raise GrimdiceError("--workers and --scheduler only apply with --simulate N")
    try:
        return RunOptions(simulate, seed, workers, progress, scheduler)
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

    def __init__(
        self,
        console: "Console",
        after: float = PROGRESS_AFTER,
        what: str = "simulating",
        unit: str = "trials",
    ) -> None:
        self.console = console
        self.what, self.unit = what, unit  # the bar's label and what it counts
        self.after = after
        self.start = time.monotonic()
        self._bar: RichProgress | None = None
        self._task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            if done >= total or time.monotonic() - self.start < self.after or not self.console.is_terminal:
                return
            from rich.progress import BarColumn, TaskProgressColumn, TimeRemainingColumn
            from rich.progress import Progress as RichProgress

            self._bar = RichProgress(
                self.what, BarColumn(), TaskProgressColumn(), TimeRemainingColumn(), console=self.console
            )
            self._bar.start()
            self._task = self._bar.add_task(self.unit, total=total)
        if self._task is not None:
            self._bar.update(self._task, completed=done)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None


def console(stderr: bool = False) -> "Console":
    """THE Rich console of every command (Rich is imported by the commands that print, not at
    start-up); emoji codes such as ``:skull:`` in users' text are printed as written."""
    from rich.console import Console

    return Console(stderr=stderr, emoji=False)


def _fail(err: "Console | None", exc: Exception) -> "typer.Exit | SystemExit":
    """Print ``exc`` on ``err`` (a new stderr console if ``None``); the exit to raise."""
    from grimdice.cli.render import fail

    return fail(exc, err)


def calc(
    scenario: Annotated[Path | None, Argument(help="Scenario file (YAML or JSON).")] = None,
    as_json: Annotated[bool, Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None,
        Option("--plot", help="Also draw the distributions to this .png, .svg or .pdf file."),
    ] = None,
    simulate: Annotated[
        int | None, Option("--simulate", help="Use the Monte Carlo engine with N trials.")
    ] = None,
    seed: Annotated[int | None, Option("--seed", help="Seed for --simulate.")] = None,
    workers: Annotated[
        int | None,
        Option("--workers", help="Processes for --simulate (default: all cores for large runs)."),
    ] = None,
    scheduler: Annotated[
        str | None, Option("--scheduler", help="Run --simulate on the Dask cluster at this address.")
    ] = None,
    attacker: Annotated[str | None, Option("--attacker", help="ROSTER:UNIT instead of a file.")] = None,
    defender: Annotated[str | None, Option("--defender", help="ROSTER:UNIT (with --attacker).")] = None,
    weapons: Annotated[str | None, Option("--weapons", help="Roster weapons: melee or NAME,...")] = None,
    system: Annotated[str | None, Option("--system", help="Rule system of the rosters.")] = None,
    condition: Annotated[
        list[str] | None,
        Option("--condition", help="KEY=VALUE set in the scenario's conditions (repeatable)."),
    ] = None,
) -> None:
    """Resolve the attacks in SCENARIO (or of roster units) and print each stage's distribution."""
    # the stderr console only where it may be needed before an error (``--json`` runs without Rich)
    err = console(stderr=True) if simulate is not None else None
    bar = ProgressBar(err) if err is not None else None
    try:
        options = run_options(simulate, seed, bar, workers, scheduler)
        if plot is not None:
            check_plot_path(plot)
        data, not_modelled = roster_scenario(scenario, attacker, defender, weapons, system)
        data = with_conditions(data, condition or [])
        result = run(system_name(data), data, options)
        result.notes += not_modelled
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

        render(result, console())
    if plot is None:
        return
    from grimdice.cli.plot import plot_result
    from grimdice.cli.render import safe

    try:
        plot_result(result, plot)
    except (GrimdiceError, OSError, ValueError) as exc:  # the result is already printed
        raise _fail(err, GrimdiceError(f"--plot: could not write {shown(str(plot))}: {exc}")) from None
    out = (err or console(stderr=True)) if as_json else console()
    out.print(f"plot written to {safe(plot)}", highlight=False)


def with_conditions(data: dict, items: list[str]) -> dict:
    """The scenario with ``--condition KEY=VALUE`` pairs set in its ``conditions`` (values read as
    YAML scalars: ``true``, ``12``, ``half``); the scenario's own model then validates them."""
    import yaml

    if not items:
        return data
    given = data.get("conditions") or {}
    if not isinstance(given, dict):  # the scenario's model would refuse it: refuse it before merging
        raise ScenarioError(
            "conditions", f"a mapping of KEY: VALUE; got {type(given).__name__} {shown(given)}"
        )
    conditions = dict(given)
    for item in items:
        key, sep, text = item.partition("=")
        if not sep or not key.strip() or len(item) > 200:
            raise ScenarioError("--condition", f"write KEY=VALUE, e.g. cover=true; got {shown(item)}")
        try:
            value = yaml.safe_load(text) if text.strip() else None
        except yaml.YAMLError:
            raise ScenarioError(
                f"--condition {key.strip()}", f"cannot read the value {shown(text)}"
            ) from None
        if isinstance(value, (dict, list)):
            raise ScenarioError(
                f"--condition {key.strip()}", "a single value (a number, true/false or a word)"
            )
        conditions[key.strip()] = value
    return {**data, "conditions": conditions}


def roster_scenario(
    scenario: Path | None, attacker: str | None, defender: str | None, weapons: str | None, system: str | None
) -> tuple[dict, list[str]]:
    """The scenario file (roster references resolved), or one built from ``--attacker/--defender``,
    with the notes of what the roster units hold that grimdice does not model (one per thing, each
    saying it is not modelled; the result carries them)."""
    from grimdice.io.scenario import load_scenario

    if (scenario is None) == (attacker is None and defender is None):
        raise GrimdiceError("give a SCENARIO file, or --attacker ROSTER:UNIT --defender ROSTER:UNIT")
    if scenario is not None:
        if weapons or system:
            raise GrimdiceError("--weapons and --system apply with --attacker/--defender; edit the file")
        data = load_scenario(scenario)
        if not any(isinstance(v, dict) and "roster" in v for v in data.values()):
            return data, []  # no roster reference: the roster readers are not even imported
        from grimdice.adapters.rosters.resolve import resolve_for_result

        return resolve_for_result(data, scenario.parent)
    if attacker is None or defender is None:
        raise GrimdiceError("give both --attacker ROSTER:UNIT and --defender ROSTER:UNIT")
    from grimdice.cli.roster_cmds import calc_scenario

    return calc_scenario(attacker, defender, weapons, system)
