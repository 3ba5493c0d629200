"""``grimdice`` command line: ``grimdice calc SCENARIO.yaml [--json] [--plot F] [--simulate N]``."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from grimdice.errors import GrimdiceError
from grimdice.io.scenario import load_scenario
from grimdice.systems import SYSTEMS, calculate

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Exact dice maths and simulation for tabletop wargames.",
)

MAX_TRIALS = 10_000_000


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
        if simulate is not None and not 1 <= simulate <= MAX_TRIALS:
            raise GrimdiceError(f"--simulate: trials must be from 1 to {MAX_TRIALS}, got {simulate}")
        if seed is not None and simulate is None:
            raise GrimdiceError("--seed only applies with --simulate N")
        result = calculate(load_scenario(scenario), simulate=simulate, seed=seed)
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
def systems() -> None:
    """List the rule systems a scenario can name."""
    for name in sorted(SYSTEMS):
        typer.echo(name)


def main() -> None:
    app()
