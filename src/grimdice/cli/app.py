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
    scenario: Annotated[Path | None, typer.Argument(help="Scenario file (YAML or JSON).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None, typer.Option("--plot", help="Also draw the distributions to this PNG.")
    ] = None,
    simulate: Annotated[
        int | None, typer.Option("--simulate", help="Use the Monte Carlo engine with N trials.")
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Seed for --simulate.")] = None,
    attacker: Annotated[str | None, typer.Option("--attacker", help="ROSTER:UNIT instead of a file.")] = None,
    defender: Annotated[str | None, typer.Option("--defender", help="ROSTER:UNIT (with --attacker).")] = None,
    weapons: Annotated[
        str | None, typer.Option("--weapons", help="Roster weapons: melee or NAME,...")
    ] = None,
    system: Annotated[str | None, typer.Option("--system", help="Rule system of the rosters.")] = None,
) -> None:
    """Resolve the attacks in SCENARIO (or of roster units) and print each stage's distribution."""
    err = Console(stderr=True)
    try:
        options = run_options(simulate, seed)
        data = roster_scenario(scenario, attacker, defender, weapons, system)
        result = run(system_name(data), data, options)
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


def roster_scenario(
    scenario: Path | None, attacker: str | None, defender: str | None, weapons: str | None, system: str | None
) -> dict:
    """The scenario file (roster references resolved), or one built from ``--attacker/--defender``."""
    from grimdice.cli.roster_cmds import calc_scenario
    from grimdice.io.rosters import resolve_scenario

    if (scenario is None) == (attacker is None and defender is None):
        raise GrimdiceError("give a SCENARIO file, or --attacker ROSTER:UNIT --defender ROSTER:UNIT")
    if scenario is not None:
        if weapons or system:
            raise GrimdiceError("--weapons and --system apply with --attacker/--defender; edit the file")
        return resolve_scenario(load_scenario(scenario), scenario.parent)
    if attacker is None or defender is None:
        raise GrimdiceError("give both --attacker ROSTER:UNIT and --defender ROSTER:UNIT")
    return calc_scenario(attacker, defender, weapons, system)


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


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Calculations run at once.")] = 1,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds one calculation may take.")] = 10.0,
    examples: Annotated[Path | None, typer.Option(help="Folder of example scenarios.")] = None,
) -> None:
    """Serve the web page and HTTP API locally (needs the extra: pip install 'grimdice\\[web]')."""
    try:
        from grimdice.web.server import serve as run_server
    except ImportError as exc:
        msg = f"error: {exc.name} is missing: pip install 'grimdice[web]'"
        Console(stderr=True).print(msg, markup=False, highlight=False)
        raise typer.Exit(2) from None
    typer.echo(f"grimdice: http://{host}:{port}/ (Ctrl+C to stop)")
    run_server(host, port, jobs=jobs, budget=timeout, examples=examples)


from grimdice.cli.roster_cmds import register as _register_roster_cmds  # noqa: E402

_register_roster_cmds(app)


def main() -> None:
    app()
