"""``grimdice`` command line: ``grimdice calc SCENARIO.yaml [--json] [--plot F] [--simulate N]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grimdice.engine.options import RunOptions
from grimdice.errors import GrimdiceError, ScenarioError
from grimdice.io.scenario import load_scenario
from grimdice.systems.base import SYSTEMS, run, system_name

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Exact dice maths and simulation for tabletop wargames.",
)


def run_options(simulate: int | None, seed: int | None) -> RunOptions:
    """The shared run options, with errors naming the command-line options."""
    if seed is not None and simulate is None:
        raise GrimdiceError("--seed only applies with --simulate N")
    try:
        return RunOptions(simulate, seed)
    except ScenarioError as exc:
        raise ScenarioError(f"--{exc.field}", exc.message) from None


@app.callback()
def _root() -> None:
    """grimdice: what will this unit do to that one?"""


@app.command()
def calc(
    scenario: Annotated[Path, typer.Argument(help="Scenario file (YAML or JSON).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Also draw the distributions to this PNG.")
    ] = None,
    simulate: Annotated[
        int | None, typer.Option("--simulate", help="Use the Monte Carlo engine with N trials.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --simulate.")] = None,
) -> None:
    """Resolve the attacks in SCENARIO and print each stage's distribution."""
    err = Console(stderr=True)
    try:
        options = run_options(simulate, seed)
        result = run(system_name(data := load_scenario(scenario)), data, options)
        if plot is not None:
            from grimdice.cli.plot import plot_result

            plot_result(result, plot)
    except GrimdiceError as exc:
        err.print(f"[bold red]error[/]: {exc}", highlight=False)
        raise typer.Exit(2) from None
    if as_json:
        sys.stdout.write(json.dumps(result.to_json()) + "\n")
    else:
        from grimdice.cli.render import render

        render(result, Console())
        if plot is not None:
            Console().print(f"plot written to {plot}")


@app.command()
def check(
    army: Annotated[Path, typer.Argument(help="Army file (kind: army), e.g. a One Page 40k army.")],
    points: Annotated[int | None, typer.Option("--points", help="Game size in points.")] = None,
) -> None:
    """Check ARMY against the army-building limits; list every violation (exit 1 if any)."""
    from grimdice.systems.onepage.army import check_army

    err = Console(stderr=True)
    try:
        fielded = check_army(army, points)
    except GrimdiceError as exc:
        err.print(f"[bold red]error[/]: {exc}", highlight=False, markup=False)
        raise typer.Exit(2) from None
    for v in fielded.violations:
        typer.echo(f"violation: {v}")
    names = ", ".join(f"{u.name} [{u.size}]" for u in fielded.units)
    typer.echo(f"{len(fielded.units)} units, {fielded.points} pts: {names}")
    if fielded.violations:
        raise typer.Exit(1)
    typer.echo("ok")


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
        err.print(f"[bold red]error[/]: {exc}", highlight=False, markup=False)
        raise typer.Exit(2) from None
    if as_json:
        sys.stdout.write(json.dumps(table.rows()) + "\n")
        return
    from grimdice.cli.render import rules_table

    Console().print(rules_table(table))


def main() -> None:
    app()
