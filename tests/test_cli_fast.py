"""``grimdice calc`` run by the console entry point without Typer (:mod:`grimdice.cli.params`): it
reads every plain command line as Typer reads it (the same keyword arguments), leaves every other
line to Typer, prints exactly what the Typer app prints, and imports only what a 40k calculation
needs (not Typer, the other systems, plotting or the web server)."""

import functools
import json
from pathlib import Path
from typing import Annotated

import pytest
import typer

from grimdice.cli.calc import calc
from grimdice.cli.params import parse, typer_command
from tests.test_cli_help import TYPER, imported, run

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
FORTY_K = str(EXAMPLES / "wh40k-intercessors-vs-boyz.yaml")


def typer_kwargs(args: list[str]) -> dict:
    """The keyword arguments the Typer app's ``calc`` is called with for ``grimdice calc ARGS``."""
    seen: dict = {}

    @functools.wraps(calc)
    def record(**kwargs):
        seen.update(kwargs)

    app = typer.Typer(add_completion=False)
    app.callback()(lambda: None)
    app.command(name="calc")(typer_command(record))
    app(["calc", *args], standalone_mode=False)
    return seen


@pytest.mark.parametrize(
    "args",
    [
        [],
        ["f.yaml"],
        ["--json", "f.yaml"],
        ["f.yaml", "--simulate", "1000", "--seed=7", "--workers", "2", "--json"],
        ["--scheduler", "tcp://127.0.0.1:8786", "dir/f.json", "--simulate=05"],
        ["--attacker", "r.json:A", "--defender=r.json:B=x", "--weapons", "melee", "--system", "wh40k"],
        ["f.yaml", "--condition", "cover=true", "--condition=half=1", "--plot", "out.png"],
    ],
)
def test_plain_lines_are_read_as_typer_reads_them(args):
    assert parse(calc, args) == typer_kwargs(args)


@pytest.mark.parametrize(
    "args",
    [
        ["--simulate", "x", "f.yaml"],
        ["--simulate", "1_000"],
        ["--simulate", "\uff11"],  # a full-width digit: Python's int() reads it, Click's might not
        ["--seed", "-1"],
        ["--json=1"],
        ["--", "f.yaml"],
        ["-"],
        ["f.yaml", "g.yaml"],
        ["--help"],
        ["-h"],
        ["--jsn"],
        ["f.yaml", "--simulate"],
        ["--seed", "1", "--seed", "2"],
        ["--plot", ""],
    ],
)
def test_other_lines_are_left_to_typer(args):
    assert parse(calc, args) is None


def test_every_option_of_the_typer_command_is_declared_once():
    from grimdice.cli.app import app

    click_calc = typer.main.get_group(app).commands["calc"]
    declared = sorted(d for p in click_calc.params for d in (*p.opts, *p.secondary_opts) if d.startswith("-"))
    lines = [[d, "1"] if d not in ("--json",) else [d] for d in declared]
    assert all(parse(calc, line) is not None for line in lines), declared


def test_calc_of_a_40k_file_imports_no_other_system_plotting_web_or_typer():
    """(nor Rich, with ``--json``)"""
    proc, err, modules = imported(["calc", FORTY_K, "--json"])
    assert proc.returncode == 0, err
    assert json.loads(proc.stdout)["system"] == "wh40k"
    assert "grimdice.systems.wh40k" in modules
    from grimdice.systems.base import SYSTEMS

    others = [f"grimdice.systems.{name}" for name in SYSTEMS if name != "wh40k"]
    unwanted = ("typer", "click", "rich", "matplotlib", "grimdice.cli.plot", "grimdice.web", "fastapi")
    assert sorted(m for m in modules if m.startswith(tuple(others) + unwanted)) == []


@pytest.mark.parametrize(
    ("args", "typer_imported"),
    [
        (["calc", FORTY_K], False),
        (["calc", "--json", str(EXAMPLES / "killteam-fight-nob.yaml")], False),
        (["calc", FORTY_K, "--simulate", "2000", "--seed=3", "--workers", "1", "--json"], False),
        (["calc", FORTY_K, "--seed", "3"], False),  # the command's errors: the same, without Typer
        (["calc", "no-such-file.yaml"], False),
        (["calc", str(EXAMPLES / "wh40k-intercessors-vs-boyz.yaml"), "--plot", "out.gif"], False),
        (["calc", "--simulate", "x", FORTY_K], True),  # left to Typer: its usage error
    ],
)
def test_calc_prints_what_the_typer_app_prints(args, typer_imported):
    proc, err, modules = imported(args)
    through_typer = run(TYPER, args)
    assert (proc.returncode, proc.stdout, err) == (
        through_typer.returncode,
        through_typer.stdout,
        through_typer.stderr,
    )
    assert ("typer" in modules) == typer_imported


def test_a_missing_required_parameter_or_a_flag_on_by_default_is_left_to_typer():
    from grimdice.cli.params import Argument, Option

    def command(
        path: Annotated[Path, Argument(help="required")],
        loud: Annotated[bool, Option("--loud", help="on unless told")] = True,
    ) -> None:
        """A command of another shape than calc's."""

    assert parse(command, []) is None
    assert parse(command, ["f", "--loud"]) is None
    assert parse(command, ["f"]) == {"path": Path("f"), "loud": True}
