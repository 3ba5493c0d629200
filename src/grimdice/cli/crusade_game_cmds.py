"""The Rules Crusade grid game on the command line: ``grimdice check``, ``play`` and ``replay``
hand a file over here when it is a Rules Crusade game scenario or game log (``system: crusade``,
``kind: game``), see :mod:`grimdice.cli.game_cmds`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import typer

from grimdice.errors import GrimdiceError, ScenarioError

#: what each kind of file carries at its top, for the errors of a file that mixes them
NEEDS = (
    "a Rules Crusade game file has 'system: crusade' and 'kind: game'; "
    "a One Page 40k army file has 'system: onepage' and 'kind: army'"
)


def is_game_file(path: Path) -> bool:
    """Whether ``path`` is a Rules Crusade game scenario or log: a mapping with ``system: crusade``
    or ``kind: game``. A file that cannot be read or parsed, or that has one of the two and not the
    other, is refused with one line naming the field and what each kind of file has (exit 2);
    other mappings are left to One Page 40k."""
    from grimdice.cli.render import fail
    from grimdice.io.scenario import load_scenario

    try:
        data = load_scenario(path)
        system, kind = data.get("system"), data.get("kind")
        if system != "crusade" and kind != "game":
            return False
        if system != "crusade":
            raise ScenarioError("system", f"{NEEDS}; got {'no system' if system is None else repr(system)}")
        if kind != "game":
            raise ScenarioError("kind", f"{NEEDS}; got {'no kind' if kind is None else repr(kind)}")
    except GrimdiceError as exc:
        raise fail(exc) from None
    return True


def _setup(path: Path) -> Any:
    from grimdice.io.scenario import load_scenario
    from grimdice.systems.crusade.game.scenario import build_setup

    return build_setup(load_scenario(path))


def check(path: Path) -> None:
    """Check a game scenario: every error is one line naming its field (exit 2)."""
    from grimdice.cli.calc import console
    from grimdice.cli.render import fail, safe

    err = console(stderr=True)
    try:
        setup = _setup(path)
    except GrimdiceError as exc:
        raise fail(exc, err) from None
    sc = setup.scenario
    out = console()
    b = sc.board
    size = (
        f"{b.width} x {b.height} inch table"
        if b.type == "table"
        else f"{setup.grid.width} x {setup.grid.height} grid"
    )
    out.print(safe(sc.title or path.name), highlight=False)
    out.print(f"  {size}, {sc.turns} turns", highlight=False)
    for f, force in enumerate(sc.forces):
        models = sum(1 for p in setup.pieces if p.side == f and not p.blip)
        blips = [p for p in setup.pieces if p.side == f and p.blip]
        inside = sum(len(p.blip) for p in blips)
        line = f"  {safe(force.name)}: {_count(models, 'model')}, {_count(len(blips), 'blip')}"
        line += f" ({_count(inside, 'model')})" if blips else ""
        out.print(line, highlight=False)
    if sc.psychic and sc.psychic.deck:  # VII: the deck (ours) and the force of the player psykers
        player = safe(sc.forces[sc.psychic.player].name)
        cards = ", ".join(sorted({c.card for c in sc.psychic.deck}))
        line = f"  psychic deck: {len(sc.psychic.deck)} cards ({cards}); player psykers: {player}"
        out.print(line, highlight=False)
    for g, r in enumerate(sc.reinforcements):  # X reinforcements (ours)
        when = f"turn {r.turn}" + (f" on {r.dice} >= {r.need}" if r.dice else "")
        who = safe(sc.forces[r.force].name)
        line = f"  reinforcements {g}: {_count(len(r.models), 'model')} for {who}, {when}"
        out.print(line, highlight=False)
    if sc.options.volley_fire:  # IX VOLLEY FIRE: the forces that volley
        on = sc.options.volley_fire
        who = ", ".join(safe(sc.forces[f].name) for f in (on if isinstance(on, list) else (0, 1)))
        out.print(f"  options: VOLLEY FIRE (IX, optional) for {who}", highlight=False)
    typer.echo("ok")


def _count(n: int, what: str) -> str:
    """``1 model``, ``2 models``."""
    return f"{n} {what}" + ("" if n == 1 else "s")


def players_of(text: str) -> tuple[str, str]:
    pl = tuple(p.strip() for p in text.split(","))
    if len(pl) != 2:
        raise GrimdiceError("--players: two players, e.g. ai,random")
    return pl[0], pl[1]


def play(
    path: Path,
    games: int,
    seed: int,
    *,
    players: str,
    save: Path | None,
    as_json: bool,
    **where: Any,
) -> None:
    """Play ``games`` games of the scenario at ``path`` (``where``: ``workers``, ``scheduler``; no
    ``table``);
    print the statistics."""
    from grimdice.cli.calc import console
    from grimdice.cli.render import fail
    from grimdice.systems.crusade.game.batch import GameJob, summarise

    err = console(stderr=True)
    try:
        if where.pop("table", None) is not None:
            raise ScenarioError("--table", "a Rules Crusade game's board is in its scenario file")
        setup = _setup(path)
        job = GameJob(setup, players_of(players))
        summary = summarise(_games(job, games, seed, save, err, where), setup, seed)
    except GrimdiceError as exc:
        raise fail(exc, err) from None
    if as_json:
        typer.echo(json.dumps(summary, indent=2))
    else:
        show(summary)


def _games(job: Any, games: int, seed: int, save: Path | None, err: Any, where: Any) -> list[dict[str, Any]]:
    """The batch's brief logs, with a progress bar on ``err``."""
    from grimdice.cli.calc import ProgressBar
    from grimdice.systems.crusade.game.batch import run_games

    bar = ProgressBar(err, what="playing", unit="games")
    try:
        return run_games(job, games, seed, progress=bar, save=save, **where)
    finally:
        bar.close()


def show(s: dict[str, Any]) -> None:
    from rich.table import Table

    from grimdice.cli.calc import console
    from grimdice.cli.render import safe

    out = console()
    names = [safe(n) for n in s["forces"]]  # force, profile and title texts come from the file
    if s["title"]:
        out.print(safe(s["title"]), highlight=False)
    out.print(
        f"{names[0]} vs {names[1]} ({safe(' vs '.join(s['players']))}): {_count(s['games'], 'game')}"
        f" (seed {s['seed']}), {s['mean_rounds']:.1f} rounds on average",
        highlight=False,
    )
    for k in ("win", "draw", "loss"):
        v = s["force_a"][k]
        out.print(
            f"  {names[0]} {k}: {v['rate']:.1%} (95% CI {v['low']:.1%}-{v['high']:.1%})", highlight=False
        )
    t = Table("force", "model", "from", "survival", "kills")
    for m in s["models"]:
        cells = (safe(m["force"]), safe(m["model"]), safe(m["from"]))
        t.add_row(*cells, f"{m['survival']:.0%}", f"{m['mean_kills']:.2f}")
    out.print(t)
    for line in notes(s["notes"]):
        out.print(line, highlight=False, markup=False)


def notes(texts: list[str]) -> list[str]:
    """The summary's notes, short: what is ours (victory, reached) in full, then how many readings
    the game took (``--json`` and docs/crusade-game.md give their text)."""
    lines = [f"note: {t}" for t in texts if t.startswith("ours")]
    n = sum(1 for t in texts if t.startswith("reading "))
    if n:
        lines.append(f"note: and {n} readings of ours where the text is unclear (--json lists them)")
    return lines


def replay(path: Path, png: Path | None, as_json: bool) -> None:
    """Replay a logged game, check it, and with ``png`` draw one picture per round; exit 1 when
    the replay differs from the log."""
    from grimdice.cli.calc import console
    from grimdice.cli.plot import check_png_folder, draw_into
    from grimdice.cli.render import fail, safe
    from grimdice.io.scenario import load_scenario
    from grimdice.systems.crusade.game.draw import draw_rounds  # matplotlib: when drawing
    from grimdice.systems.crusade.game.replay import differences
    from grimdice.systems.crusade.game.replay import replay as run_replay

    err = console(stderr=True)
    try:
        check_png_folder(png)
        log = load_scenario(path)
        again, states, problems = run_replay(log)
        differs = differences(log, again, problems)
        files = draw_into(png, lambda folder: draw_rounds(states, folder, log["actions"]))
    except GrimdiceError as exc:
        raise fail(exc, err) from None
    same = not differs
    result = {"winner": again["winner"], "rounds": again["rounds"], "matches_log": same}
    result |= {"differs": differs, "png": files}
    if as_json:
        typer.echo(json.dumps(result))
    else:
        w = again["winner"]
        who = "a draw" if w is None else f"won by {w}"
        out = console()
        out.print(safe(f"{again['rounds']} rounds, {who}; replay matches log: {same}"), highlight=False)
        for d in differs:
            out.print(f"  differs: {safe(d)}", highlight=False)
        for f in files:
            out.print(safe(f), highlight=False)
    if not same:
        raise typer.Exit(1)


__all__ = ["check", "is_game_file", "play", "replay"]
