"""Write ``cli/help.json``, the snapshot of Typer's help that ``grimdice --help`` prints without
importing Typer (see :mod:`grimdice.__main__`): what the Typer app prints, on which stream, with
which exit status, for ``grimdice``, ``grimdice --help`` and ``grimdice COMMAND --help`` of every
command. Run ``python -m grimdice.cli.helpgen`` after changing a command or its help;
``tests/test_cli_help.py`` fails while the snapshot differs from what Typer prints.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import sys
from typing import Any

import typer

from grimdice.__main__ import HELP_FILE
from grimdice.cli.app import app

PROG = "grimdice"
#: Click wraps help to ``min(columns, 80) - 2``: every terminal this wide or wider looks the same
MIN_COLUMNS = 80


def cases(typer_app: typer.Typer = app) -> list[list[str]]:
    """The command lines answered from the snapshot: the bare command, ``--help`` and each
    command's ``--help``."""
    names = typer.main.get_group(typer_app).commands
    return [[], ["--help"], *([name, "--help"] for name in names)]


def capture(args: list[str], typer_app: typer.Typer = app) -> dict[str, Any]:
    """What the Typer app prints for ``grimdice ARGS`` on a terminal :data:`MIN_COLUMNS` wide."""
    out, err = io.StringIO(), io.StringIO()
    code: Any = 0
    before = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(MIN_COLUMNS)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            typer_app(args, prog_name=PROG)
    except SystemExit as exc:
        code = exc.code or 0
    finally:
        if before is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = before
    if bool(out.getvalue()) == bool(err.getvalue()):
        raise RuntimeError(f"{PROG} {' '.join(args)}: expected help on exactly one stream")
    stream, text = ("stdout", out.getvalue()) if out.getvalue() else ("stderr", err.getvalue())
    return {"args": args, "stream": stream, "code": code, "text": text}


def snapshot(typer_app: typer.Typer = app) -> dict[str, Any]:
    """The snapshot as Typer prints it now."""
    return {
        "prog": PROG,
        "min_columns": MIN_COLUMNS,
        "cases": [capture(args, typer_app) for args in cases(typer_app)],
    }


def write(path: str = HELP_FILE) -> None:
    with open(path, "w", encoding="utf-8") as f:
        json.dump(snapshot(), f, indent=1, ensure_ascii=False)
        f.write("\n")


if __name__ == "__main__":
    write()
    sys.stdout.write(f"wrote {HELP_FILE}\n")
