"""Rich tables for a :class:`~grimdice.result.Result`."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from rich.console import Console, Group
from rich.markup import escape
from rich.table import Table

from grimdice.errors import printable

if TYPE_CHECKING:  # annotations only: the CLI's start-up does not import the engines (nor Typer)
    import typer

    from grimdice.engine.rules import RuleTable
    from grimdice.result import Result

SHOWN_BELOW = 5e-5  # "at least N" rows are shown while some stage still has this much mass

CERTAIN = 1e-12  # a chance within this of 1 is float rounding of a certainty

MAX_COLUMNS = 6  # stages per "at least N" table; more are split over several tables

#: short column labels for the "at least N" table (others: underscores read as spaces)
LABELS = {
    "models_destroyed": "destroyed",
    "devastating_wounds": "dev. wounds",
    "character_damage": "char. damage",
    "characters_destroyed": "char. destroyed",
    "precision_hits": "prec. hits",
    "precision_model_wounds": "prec. model wounds",
    "precision_model_destroyed": "prec. model destroyed",
}


def safe(text: object) -> str:
    """Any text from a user (titles, names, rule texts, messages) as the terminal must show it:
    control characters (escape sequences, bells, line breaks) written as visible escapes such as
    ``\\x1b``, and Rich markup escaped so ``[red]`` is shown, not interpreted. Every user string the
    CLI prints goes through here."""
    return escape(printable(str(text)))


def label(stage: str) -> str:
    return safe(LABELS.get(stage, stage.replace("_", " ")))


def _title(result: Result) -> str:
    how = "exact" if result.method == "exact" else f"simulated, {result.trials} trials, seed {result.seed}"
    head = f"{result.system}: {result.title}" if result.title else result.system
    return safe(f"{head} ({how})")


def percent(p: float) -> str:
    """A chance as the tables print it: a chance too small (or too close to certain) to show at two
    decimals is written ``< 0.01%`` (``> 99.99%``), never as a misleading ``0.00%`` (``100.00%``)."""
    if 0.0 < p < SHOWN_BELOW:
        return "< 0.01%"
    if SHOWN_BELOW > 1.0 - p > CERTAIN:
        return "> 99.99%"
    return f"{p:.2%}"


def summary_table(result: Result) -> Table:
    t = Table(title=_title(result), title_justify="left")
    t.add_column("stage")
    t.add_column("mean", justify="right")
    t.add_column("sd", justify="right")
    t.add_column("P(0)", justify="right")
    t.add_column("max", justify="right")
    for name, d in result.stages.items():
        t.add_row(safe(name), f"{d.mean():.3f}", f"{d.std():.3f}", percent(d[0]), str(d.max))
    return t


def at_least_tables(result: Result) -> list[Table]:
    """The "at least N" table, split so that no table has more than MAX_COLUMNS stages."""
    names = list(result.stages)
    chunks = [names[i : i + MAX_COLUMNS] for i in range(0, len(names), MAX_COLUMNS)]
    return [_at_least_table(result, chunk) for chunk in chunks]


def _at_least_table(result: Result, names: list[str]) -> Table:
    t = Table(title="at least N", title_justify="left")
    t.add_column("N", justify="right")
    for n in names:
        t.add_column(label(n), justify="right", overflow="fold")
    top = max(result.stages[n].max for n in names)
    tiny_shown = [False] * len(names)  # a column's first tiny chance is shown as "< 0.01%"
    for k in range(1, top + 1):
        probs = [result.stages[n].prob_at_least(k) for n in names]
        if max(probs) < SHOWN_BELOW and k > 1:
            break
        cells = []
        for i, p in enumerate(probs):
            tiny = 0.0 < p < SHOWN_BELOW
            cells.append(percent(p) if p >= SHOWN_BELOW or (tiny and not tiny_shown[i]) else "")
            tiny_shown[i] = tiny_shown[i] or tiny
        t.add_row(str(k), *cells)
    return t


MAX_RECORDS = 10  # rows shown of a list of records in ``extra`` (the JSON has them all)


def _cell(value: Any, sep: str = "; ") -> str:
    """A value of ``extra`` as safe text (see :func:`safe`)."""
    if isinstance(value, float):
        return f"{value:.4g}"
    if isinstance(value, dict):
        return ", ".join(f"{safe(k)}: {_cell(v)}" for k, v in value.items())
    if isinstance(value, list):
        return sep.join(_cell(v) for v in value)
    return safe(value)


def _walk(prefix: str, value: Any, rows: list[tuple[str, str]], records: dict[str, list[dict]]) -> None:
    """Scalars (and stage means) become rows; lists of records (e.g. a policy) become tables."""
    if isinstance(value, dict):
        if "mean" in value and "pmf" in value:
            rows.append((f"{prefix} (mean)", f"{value['mean']:.4g}"))
            return
        for k, v in value.items():
            _walk(f"{prefix} {k}".strip(), v, rows, records)
    elif isinstance(value, list) and value and all(isinstance(v, dict) for v in value):
        records[prefix] = value
    elif isinstance(value, (int, float, str, bool, list)):
        rows.append((prefix, _cell(value)))


def extras_tables(result: Result) -> list[Table]:
    rows: list[tuple[str, str]] = []
    records: dict[str, list[dict]] = {}
    _walk("", result.extra, rows, records)
    tables = []
    if rows:
        t = Table(title="also", title_justify="left", show_header=False)
        t.add_column("what")
        t.add_column("value", justify="right")
        for k, v in rows:
            t.add_row(safe(k), v)
        tables.append(t)
    for title, recs in records.items():
        shown = recs[:MAX_RECORDS]
        more = f" (first {MAX_RECORDS} of {len(recs)}; all in --json)" if len(recs) > MAX_RECORDS else ""
        t = Table(title=f"{safe(title)}{more}", title_justify="left")
        keys = list(dict.fromkeys(k for r in shown for k in r))
        for k in keys:
            t.add_column(safe(k.replace("_", " ")), overflow="fold")
        for r in shown:
            t.add_row(*[_cell(r.get(k, ""), sep="\n") for k in keys])
        tables.append(t)
    return tables


def notes_table(result: Result) -> list[Table]:
    if not result.notes:
        return []
    t = Table(title="notes", title_justify="left", show_header=False)
    t.add_column("note", overflow="fold")
    for n in dict.fromkeys(result.notes):
        t.add_row(safe(n))
    return [t]


def rules_table(table: RuleTable) -> Table:
    """A system's rule index (``grimdice rules SYSTEM``)."""
    rows = table.rows()
    t = Table(title=safe(f"{table.system}: {len(rows)} rules and readings"), title_justify="left")
    for c in rows[0] if rows else ["rule"]:
        t.add_column(safe(c), overflow="fold")
    for row in rows:
        t.add_row(*[safe(v) for v in row.values()])
    return t


def render(result: Result, console: Console) -> None:
    parts = [summary_table(result), *at_least_tables(result)]
    parts += extras_tables(result) + notes_table(result)
    console.print(Group(*parts))
    for name, sub in result.targets.items():
        console.rule(f"target: {safe(name)}")
        render(sub, console)


def fail(exc: Exception, err: Console | None = None) -> typer.Exit | SystemExit:
    """Print a user-facing error (escaped, one line) on stderr; the exit to raise (status 2):
    Typer's ``Exit`` where Typer is imported (its app runs the command), else ``SystemExit``, which
    ends the process alike (``calc`` run by the console entry point without Typer,
    :mod:`grimdice.cli.params`: its error path does not import Typer either)."""
    from grimdice.cli.calc import console as app_console

    (err or app_console(stderr=True)).print(
        f"[bold red]error[/]: {safe(exc)}", highlight=False, soft_wrap=True
    )
    typer = sys.modules.get("typer")
    return SystemExit(2) if typer is None else typer.Exit(2)
