"""``grimdice units ROSTER`` and ``grimdice matrix ROSTER_A ROSTER_B``: reading army rosters.

Registered on the app by :func:`register`; ``calc``'s roster options use :func:`calc_scenario`.
"""

import csv
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from grimdice.errors import GrimdiceError, ScenarioError, printable, shown


def _fail(exc: Exception) -> typer.Exit | SystemExit:
    from grimdice.cli.render import fail  # Rich is imported by the commands that print

    return fail(exc)


def units_json(path: Path, system: str | None) -> dict[str, Any]:
    """What was read from a roster, and for each unit what the system does not model."""
    from grimdice.adapters.rosters.resolve import Picked, build_side, detect_system, load

    roster = load(path, "roster")
    system = system or detect_system(roster)
    out_units = []
    for u in roster.units:
        notes: list[str] = []
        for role, weapons in (("attacker", "ranged"), ("attacker", "melee"), ("defender", None)):
            try:
                notes += build_side(system, role, Picked(u, []), weapons, u.ref).not_modelled
            except GrimdiceError as exc:
                if role == "defender":
                    notes.append(f"cannot defend: {exc.message if hasattr(exc, 'message') else exc}")
        out_units.append(
            {
                "unit": u.ref,
                "datasheet": u.datasheet or u.name,
                "force": u.force,
                "role": u.role,
                "faction": u.faction,
                "points": u.points,
                "costs": u.costs,
                "keywords": [k for k in u.keywords if k not in u.faction],
                "led_by": [x.ref for x in u.led_by],
                "can_lead": u.can_lead,
                "models": [
                    {
                        "name": m.name,
                        "count": m.count,
                        "profile": dict(m.profile.chars) if m.profile else None,
                        "weapons": [
                            {
                                "name": w.name,
                                "each": k,
                                "modes": [w.mode_name(p) for p in w.modes],
                                "rules": list(w.rules),
                            }
                            for w, k in m.weapons
                        ],
                    }
                    for m in u.models
                ],
                "not_modelled": list(dict.fromkeys(notes)),
            }
        )
    return {
        "roster": roster.name,
        "game": roster.game,
        "edition": roster.edition.label if roster.edition else None,
        "system": system,
        "points": roster.points,
        "points_limit": roster.limits.get("pts"),
        "units": out_units,
    }


def units(
    roster: Annotated[Path, typer.Argument(help="A .ros, .rosz or New Recruit/ListForge .json roster.")],
    system: Annotated[
        str | None, typer.Option("--system", help="Rule system (default: from the roster).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """List the units, models and weapons read from ROSTER, and what grimdice does not model."""
    try:
        data = units_json(roster, system)
    except GrimdiceError as exc:
        raise _fail(exc) from None
    if as_json:
        sys.stdout.write(json.dumps(data) + "\n")
        return
    from rich.table import Table

    from grimdice.cli.calc import console
    from grimdice.cli.render import safe

    limit = f" of {data['points_limit']:g}" if data["points_limit"] else ""
    t = Table(
        title=safe(
            f"{data['roster']} ({data['edition'] or data['game'] + ', edition unknown'}; "
            f"{data['system']} rules; {data['points']:g}{limit} pts)"
        ),
        title_justify="left",
    )
    for c in ("unit", "models", "weapons (each model)", "not modelled"):
        t.add_column(c, overflow="fold")
    for u in data["units"]:
        models = "\n".join(f"{m['count']}x {m['name']}" for m in u["models"])
        weapons = "\n".join(
            "; ".join(
                f"{w['each']}x {w['name']}" + (f" ({' | '.join(w['modes'])})" if len(w["modes"]) > 1 else "")
                for w in m["weapons"]
            )
            or "-"
            for m in u["models"]
        )
        notes = "\n".join(shown_lines(u["not_modelled"])) or "-"
        t.add_row(*(safe_lines(x) for x in (_unit_cell(u), models, weapons, notes)))
    console().print(t)


def _unit_cell(u: dict[str, Any]) -> str:
    """The unit column: name, datasheet, role, faction, costs, leaders."""
    lines = [u["unit"]]
    if u["datasheet"] != u["unit"].split("#")[0]:
        lines.append(f"({u['datasheet']})")
    if u["role"] or u["faction"]:
        lines.append(", ".join(x for x in (u["role"], *u["faction"]) if x))
    lines.append(" ".join([f"{u['points']:g} pts", *(f"{v:g} {k}" for k, v in u["costs"].items())]))
    if u["led_by"]:
        lines.append(f"led by: {', '.join(u['led_by'])}")
    if u["can_lead"]:
        lines.append(f"can lead: {', '.join(u['can_lead'])}")
    return "\n".join(lines)


MAX_LINES = 30  # lines of one table cell (a unit's notes); --json has all of them


def shown_lines(lines: list[str]) -> list[str]:
    """At most :data:`MAX_LINES` lines, the rest counted."""
    if len(lines) <= MAX_LINES:
        return lines
    return [*lines[: MAX_LINES - 1], f"... and {len(lines) - MAX_LINES + 1} more (see --json)"]


def safe_lines(text: str) -> str:
    """Each line of a cell shown safely (:func:`grimdice.cli.render.safe`), the line breaks kept."""
    from grimdice.cli.render import safe

    return "\n".join(safe(line) for line in text.split("\n"))


def matrix(
    roster_a: Annotated[Path, typer.Argument(help="The attacking roster.")],
    roster_b: Annotated[
        Path, typer.Argument(help="The defending roster, or a YAML list of target profiles.")
    ],
    system: Annotated[
        str | None, typer.Option("--system", help="Rule system (default: from roster A).")
    ] = None,
    weapons: Annotated[
        str | None, typer.Option("--weapons", help="ranged (default), melee, or names.")
    ] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Processes (default: all cores).")] = None,
    scheduler: Annotated[
        str | None,
        typer.Option("--scheduler", help="A Dask scheduler address: run the pairs on that cluster."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    csv_out: Annotated[
        Path | None, typer.Option("--csv", help="Also write the cells to this CSV file.")
    ] = None,
    png: Annotated[Path | None, typer.Option("--png", help="Also draw a heat map to this PNG.")] = None,
    metric: Annotated[
        str | None,
        typer.Option(
            "--metric",
            help="Show one value per cell (table and heat map): damage, destroyed, wipe or per100 "
            "(damage per 100 points of the attacker). Default: the table shows the first three, "
            "the heat map damage.",
        ),
    ] = None,
) -> None:
    """Every unit of ROSTER_A attacking every unit of ROSTER_B, exactly: expected damage, models
    destroyed, P(wipe out) and damage per 100 points."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn
    from rich.table import Table

    from grimdice.adapters.rosters.matrix import METRICS, compute
    from grimdice.cli.calc import console
    from grimdice.cli.render import safe

    try:
        if metric is not None and metric not in METRICS:
            raise ScenarioError("--metric", f"one of {', '.join(METRICS)}; got {shown(metric)}")
        bar = Progress(
            "[progress.description]{task.description}",
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            console=console(stderr=True),
            disable=as_json or not sys.stderr.isatty(),
        )
        with bar:
            task = bar.add_task("unit pairs", total=None)
            m = compute(
                roster_a,
                roster_b,
                system=system,
                weapons=weapons,
                workers=workers,
                scheduler=scheduler,
                progress=lambda done, total: bar.update(task, completed=done, total=total),
            )
        if csv_out is not None:
            write_csv(m, csv_out)
        if png is not None:
            heatmap(m, png, metric or "damage")
    except GrimdiceError as exc:
        raise _fail(exc) from None
    if as_json:
        sys.stdout.write(json.dumps(m.to_json()) + "\n")
        return
    what = METRICS[metric][1] if metric else "expected damage / models destroyed / P(wipe out)"
    t = Table(title=f"{m.system}: {what}", title_justify="left")
    t.add_column("attacker \\ defender")
    for d in m.defenders:
        t.add_column(safe(d), justify="right", overflow="fold")
    for a, pts, row in zip(m.attackers, m.points, m.cells, strict=True):
        t.add_row(safe(f"{a} ({pts:g} pts)"), *[safe(_shown(c, metric)) for c in row])
    console().print(t)


MAX_REASON = 60  # characters of a refused pair's reason in the table (all of it in --json and --csv)


def _shown(c: Any, metric: str | None = None) -> str:
    if c.error:
        return c.error if len(c.error) <= MAX_REASON else c.error[: MAX_REASON - 3] + "..."
    if metric is None:
        return f"{c.damage:.2f} / {c.destroyed:.2f} / {c.wipe:.0%}"
    v = c.value(metric)
    return "-" if v is None else f"{v:.0%}" if metric == "wipe" else f"{v:.2f}"


def write_csv(m: Any, path: Path) -> None:
    with path.open("w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(
            ["attacker", "defender", "damage", "models_destroyed", "p_wipe", "damage_per_100_points", "error"]
        )
        for a, row in zip(m.attackers, m.cells, strict=True):
            for d, c in zip(m.defenders, row, strict=True):
                w.writerow([a, d, c.damage, c.destroyed, c.wipe, c.per100, c.error])


def heatmap(m: Any, path: Path, metric: str = "damage") -> None:
    """One of the matrix's metrics per pair as a heat map (refused cells, and per-100-points cells
    of units without points, are blank)."""
    from grimdice.adapters.rosters.matrix import METRICS

    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise GrimdiceError("--png needs matplotlib: pip install 'grimdice[plot]'") from None
    import numpy as np

    values = [[c.value(metric) for c in row] for row in m.cells]
    grid = np.array([[np.nan if v is None else v for v in row] for row in values], dtype=float)
    fig, ax = plt.subplots(figsize=(2 + 0.8 * len(m.defenders), 1.5 + 0.45 * len(m.attackers)))
    im = ax.imshow(grid, cmap="Reds", aspect="auto")
    plain = [[printable(n).replace("$", r"\$") for n in names] for names in (m.defenders, m.attackers)]
    ax.set_xticks(range(len(m.defenders)), plain[0], rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(m.attackers)), plain[1], fontsize=8)
    shown = "{:.0%}" if metric == "wipe" else "{:.1f}"
    for i, row in enumerate(values):
        for j, v in enumerate(row):
            ax.text(j, i, "-" if v is None else shown.format(v), ha="center", va="center", fontsize=7)
    label = METRICS[metric][1]
    fig.colorbar(im, ax=ax, label=label)
    ax.set_title(f"{m.system}: {label} (rows attack columns)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def calc_scenario(
    attacker: str, defender: str, weapons: str | None, system: str | None
) -> tuple[dict[str, Any], list[str]]:
    """The scenario of ``grimdice calc --attacker ROSTER:UNIT --defender ROSTER:UNIT`` and its
    result's notes: the rosters' editions and what the two units hold that is not modelled."""
    from grimdice.adapters.rosters.resolve import cli_scenario

    return cli_scenario(attacker, defender, weapons, system)


def register(app: typer.Typer) -> None:
    app.command()(units)
    app.command()(matrix)
