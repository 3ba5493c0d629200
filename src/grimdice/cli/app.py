"""The ``grimdice`` Typer app: every command. ``calc`` and the helpers the commands share (their
Rich console, run options, progress bar) are in :mod:`grimdice.cli.calc`, which does not import
Typer: the console entry point runs ``calc`` without this app (:mod:`grimdice.cli.params`).
"""

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from grimdice.cli.calc import ProgressBar, _fail, calc, console  # noqa: F401 (ProgressBar: for importers)
from grimdice.cli.params import typer_command
from grimdice.errors import GrimdiceError, printable

app = typer.Typer(
    add_completion=False,
    no_args_is_help=True,
    help="Exact dice maths and simulation for tabletop wargames.",
    rich_markup_mode=None,  # plain help: Rich's help formatter costs ~100 ms of start-up
    pretty_exceptions_enable=False,
)


@app.callback()
def _root() -> None:
    """grimdice: what will this unit do to that one?"""


app.command()(typer_command(calc))


@app.command()
def check(
    army: Annotated[
        Path, typer.Argument(help="Army file (kind: army), e.g. One Page 40k; or a Rules Crusade game.")
    ],
    points: Annotated[int | None, typer.Option("--points", help="Game size in points.")] = None,
) -> None:
    """Check ARMY against the army-building limits; list every violation (exit 1 if any). A Rules
    Crusade game scenario is checked before any game starts (an error names its field)."""
    from grimdice.cli import crusade_game_cmds as crusade

    if points is None and crusade.is_game_file(army):
        return crusade.check(army)
    from grimdice.systems.onepage.army import check_army

    err = console(stderr=True)
    try:
        fielded = check_army(army, points)
    except GrimdiceError as exc:
        raise _fail(err, exc) from None
    for v in fielded.violations:
        typer.echo(f"violation: {printable(str(v))}")
    names = ", ".join(f"{printable(u.name)} [{u.size}]" for u in fielded.units)
    typer.echo(f"{len(fielded.units)} units, {fielded.points} pts: {names}")
    if fielded.violations:
        raise typer.Exit(1)
    typer.echo("ok")


@app.command()
def systems() -> None:
    """List the rule systems a scenario can name."""
    from grimdice.systems.base import SYSTEMS

    for name in sorted(SYSTEMS):
        typer.echo(name)


@app.command()
def rules(
    system: Annotated[str, typer.Argument(help="A rule system, e.g. wh40k.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print the index as JSON.")] = False,
    markdown: Annotated[
        bool, typer.Option("--markdown", help="Print the Markdown table the system's docs embed.")
    ] = False,
) -> None:
    """Print a system's rule index: every rule, its value, its effect and its source."""
    from grimdice.systems.base import get_system

    err = console(stderr=True)
    try:
        table = getattr(get_system(system), "RULES", None)
        if table is None:
            raise GrimdiceError(f"{system} has no rule index yet")
    except GrimdiceError as exc:
        raise _fail(err, exc) from None
    if as_json:
        sys.stdout.write(json.dumps(table.rows()) + "\n")
        return
    if markdown:
        sys.stdout.write(table.markdown() + "\n")
        return
    from grimdice.cli.render import rules_table

    console().print(rules_table(table))


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Address to listen on (loopback by default).")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port to listen on.")] = 8000,
    jobs: Annotated[int, typer.Option(min=1, max=64, help="Calculations run at once.")] = 1,
    timeout: Annotated[float, typer.Option(min=0.1, help="Seconds one calculation may take.")] = 10.0,
    examples: Annotated[Path | None, typer.Option(help="Folder of example scenarios.")] = None,
    per_client: Annotated[
        int, typer.Option(min=1, max=10_000, help="Calculations one address may have running or waiting.")
    ] = 4,
    queue: Annotated[
        int, typer.Option(min=0, max=10_000, help="Calculations waiting, from all clients.")
    ] = 32,
    connections: Annotated[
        int, typer.Option(min=1, max=10_000, help="Open connections one address may hold.")
    ] = 32,
) -> None:
    """Serve the web page and HTTP API locally (needs the extra: pip install 'grimdice\\[web]')."""
    try:
        from grimdice.web.server import serve as run_server
    except ImportError as exc:
        msg = f"error: {exc.name} is missing: pip install 'grimdice[web]'"
        console(stderr=True).print(msg, markup=False, highlight=False)
        raise typer.Exit(2) from None
    typer.echo(f"grimdice: http://{host}:{port}/ (Ctrl+C to stop)")
    bounds = {"per_client": per_client, "queue": queue, "per_address": connections}
    run_server(host, port, jobs=jobs, budget=timeout, examples=examples, **bounds)


from grimdice.cli.roster_cmds import register as _register_roster_cmds  # noqa: E402

_register_roster_cmds(app)

from grimdice.cli.game_cmds import register as _register_game_cmds  # noqa: E402

_register_game_cmds(app)


def main() -> None:
    app()
