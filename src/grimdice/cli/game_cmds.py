"""``grimdice play ARMY_A ARMY_B`` (many AI-vs-AI One Page 40k games) and ``grimdice replay
GAME.json`` (a logged game drawn round by round). Registered on the app by :func:`register`."""

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from grimdice.errors import GrimdiceError, printable


def play(
    army_a: Annotated[
        Path, typer.Argument(help="One Page 40k army file (kind: army), or a Rules Crusade game scenario.")
    ],
    army_b: Annotated[
        Path | None, typer.Argument(help="The opposing army file (none for a Rules Crusade game).")
    ] = None,
    games: Annotated[int, typer.Option("--games", help="Games to play.")] = 20,
    seed: Annotated[int, typer.Option("--seed", help="Seed; each game's seed is spawned from it.")] = 0,
    table: Annotated[
        Path | None, typer.Option("--table", help="Table YAML (default: generated per game).")
    ] = None,
    workers: Annotated[
        int | None,
        typer.Option("--workers", help="Local worker processes (default: every core; 1: this process)."),
    ] = None,
    scheduler: Annotated[str | None, typer.Option("--scheduler", help="Dask scheduler address.")] = None,
    players: Annotated[
        str,
        typer.Option(
            "--players",
            help="Players A,B: ai, greedy (One Page: no enemy reply, no charge prospect) or random.",
        ),
    ] = "ai,ai",
    save: Annotated[
        Path | None, typer.Option("--save", help="Folder for each game's JSON log (one holding none yet).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Play GAMES games of One Page 40k between two armies, or of a Rules Crusade game scenario;
    win rates and unit statistics."""
    from grimdice.cli import crusade_game_cmds as crusade

    if army_b is None and crusade.is_game_file(army_a):
        where = {"workers": workers, "scheduler": scheduler, "table": table}
        return crusade.play(army_a, games, seed, players=players, save=save, as_json=as_json, **where)
    from grimdice.cli.calc import ProgressBar, console
    from grimdice.cli.render import fail
    from grimdice.systems.onepage.game.batch import GameJob, run_games, summarise
    from grimdice.systems.onepage.game.setup import load_army_side, load_table

    err = console(stderr=True)
    bar = ProgressBar(err, what="playing", unit="games")
    try:
        pl = tuple(p.strip() for p in players.split(","))
        if len(pl) != 2:
            raise GrimdiceError("--players: two players, e.g. ai,random")
        if army_b is None:
            raise GrimdiceError("ARMY_B: One Page 40k needs two army files (one for a Rules Crusade game)")
        a, b = load_army_side(army_a), load_army_side(army_b)
        job = GameJob((a, b), load_table(table) if table else None, (pl[0], pl[1]))
        logs = run_games(job, games, seed, workers=workers, scheduler=scheduler, progress=bar, save=save)
    except GrimdiceError as exc:
        raise fail(exc, err) from None
    finally:
        bar.close()
    summary = summarise(logs, (a.name, b.name))
    summary["seed"] = seed
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
        return
    show(summary)


def show(s: dict[str, Any]) -> None:
    from rich.table import Table

    from grimdice.cli.calc import console
    from grimdice.cli.render import safe

    out = console()
    r = s["army_a"]
    names = [safe(n) for n in s["armies"]]  # army and unit names come from the files: escaped
    out.print(f"{names[0]} vs {names[1]}: {s['games']} games (seed {s['seed']})", highlight=False)
    for k in ("win", "draw", "loss"):
        v = r[k]
        out.print(
            f"  {names[0]} {k}: {v['rate']:.1%} (95% CI {v['low']:.1%}-{v['high']:.1%})", highlight=False
        )
    out.print(f"  mean scores: {s['mean_scores'][0]:.1f} - {s['mean_scores'][1]:.1f}", markup=False)
    t = Table("army", "unit", "pts", "survival", "models left", "pts killed")
    for u in s["units"]:
        t.add_row(
            names[u["army"]],
            safe(u["unit"]),
            str(u["cost"]),
            f"{u['survival']:.0%}",
            f"{u['mean_models_left']:.1f}",
            f"{u['mean_points_killed']:.1f}",
        )
    out.print(t)


def replay(
    game: Annotated[Path, typer.Argument(help="A game log written by grimdice play --save.")],
    png: Annotated[Path | None, typer.Option("--png", help="Folder for one PNG per round.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the replayed result as JSON.")] = False,
) -> None:
    """Replay a logged game exactly (no dice) and check it; draw each round with --png."""
    from grimdice.cli import crusade_game_cmds as crusade

    if crusade.is_game_file(game):
        return crusade.replay(game, png, as_json)
    from grimdice.cli.calc import console
    from grimdice.cli.plot import check_png_folder, draw_into
    from grimdice.cli.render import fail
    from grimdice.io.scenario import load_scenario
    from grimdice.systems.onepage.game.draw import draw_rounds  # matplotlib: when drawing
    from grimdice.systems.onepage.game.play import differences
    from grimdice.systems.onepage.game.play import replay as run_replay

    err = console(stderr=True)
    try:
        check_png_folder(png)
        log = load_scenario(game)
        again = run_replay(log)
        differs = differences(log, again)
        same = not differs
        files = draw_into(png, lambda folder: draw_rounds(log, folder))
    except GrimdiceError as exc:
        raise fail(exc, err) from None
    broken = again["violations"]
    result = {
        "scores": again["scores"],
        "winner": again["winner"],
        "matches_log": same,
        "differs": differs,
        "violations": broken,
        "png": files,
    }
    if as_json:
        typer.echo(json.dumps(result))
    else:
        w = again["winner"]
        who = "draw" if w < 0 else f"army {w + 1} wins"
        typer.echo(
            f"scores {again['scores'][0]:g} - {again['scores'][1]:g}: {who}; replay matches log: {same}"
            + (f" (differs: {', '.join(printable(d) for d in differs)})" if differs else "")
        )
        for line in broken:
            typer.echo(f"table invariant broken: {line}")
        for f in files:
            typer.echo(printable(f))
    if not same or broken:
        raise typer.Exit(1)


def register(app: typer.Typer) -> None:
    app.command()(play)
    app.command()(replay)


__all__ = ["register"]
