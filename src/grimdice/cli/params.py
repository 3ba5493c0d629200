"""Command parameters declared once, without importing Typer: the Typer app is built from them, and
the console entry point runs the hot commands (``calc``) from the same declarations without Typer.

A command written for both is a plain function whose parameters are annotated
``Annotated[TYPE, Option("--name", help=...)]`` or ``Annotated[TYPE, Argument(help=...)]``
(the markers below, which hold what ``typer.Option``/``typer.Argument`` would be given).
:func:`typer_command` gives Typer the same function with the markers turned into Typer's own
parameter declarations; :func:`parse` reads a command line with them, and answers ``None``
(so the entry point runs Typer, which prints its own usage error or help) for everything but the
plain forms whose meaning is certain: ``--name VALUE``, ``--name=VALUE``, a flag, a positional
argument, values that do not start with ``-``, whole numbers written in ASCII digits.
``tests/test_cli_fast.py`` checks that these read every such line as Typer does (the same
keyword arguments) and that the commands print the same through both.

Typer's import and app (and pydantic's plugin lookup, which the entry point's ``calc`` skips) were
about a third of what ``grimdice calc`` spent above the import of its libraries.
"""

from __future__ import annotations

import gc
import os
import sys
import types
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Union, get_args, get_origin

#: the commands the entry point runs without Typer: name -> (module, function)
FAST_COMMANDS = {"calc": ("grimdice.cli.calc", "calc")}


class Param:
    """What ``typer.Option(*decls, help=help)`` (or ``typer.Argument(help=help)``) is given (a plain
    class: a dataclass costs milliseconds of start-up)."""

    __slots__ = ("argument", "decls", "help")

    def __init__(self, decls: tuple[str, ...], help: str, argument: bool = False) -> None:
        self.decls = decls
        self.help = help
        self.argument = argument


def Option(*decls: str, help: str) -> Any:
    """An option named by ``decls`` (e.g. ``"--json"``)."""
    return Param(decls, help)


def Argument(*, help: str) -> Any:
    """A positional argument."""
    return Param((), help, argument=True)


def declared(fn: Callable[..., Any]) -> dict[str, tuple[Any, Param, Any]]:
    """``{parameter: (type without None, marker, default)}`` of a command function."""
    import inspect

    out = {}
    for p in inspect.signature(fn).parameters.values():
        ann = p.annotation
        if get_origin(ann) is not Annotated:
            raise TypeError(f"{fn.__name__}({p.name}): annotate it Annotated[TYPE, Option(...)]")
        base, *meta = get_args(ann)
        marker = next(m for m in meta if isinstance(m, Param))
        if get_origin(base) in (Union, types.UnionType):
            kept = [a for a in get_args(base) if a is not type(None)]
            base = kept[0] if len(kept) == 1 else base
        out[p.name] = (base, marker, p.default)
    return out


def typer_command(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` as Typer reads a command: the same name, help and parameters, each marker replaced by
    the ``typer.Option``/``typer.Argument`` it stands for."""
    import functools
    import inspect

    import typer

    sig = inspect.signature(fn)
    params = []
    for p in sig.parameters.values():
        base, *meta = get_args(p.annotation)
        info = [
            (typer.Argument(help=m.help) if m.argument else typer.Option(*m.decls, help=m.help))
            if isinstance(m, Param)
            else m
            for m in meta
        ]
        params.append(p.replace(annotation=Annotated[(base, *info)]))

    @functools.wraps(fn)
    def command(**kwargs: Any) -> Any:
        return fn(**kwargs)

    del command.__wrapped__  # Typer reads the signature below, not ``fn``'s
    command.__signature__ = sig.replace(parameters=params)  # type: ignore[attr-defined]
    command.__annotations__ = {p.name: p.annotation for p in params}
    return command


def _value(kind: Any, text: str) -> Any:
    """``text`` converted as Typer converts it, or ``None`` when only Typer can say."""
    if not text or text.startswith("-"):
        return None
    if kind is int:
        return int(text) if text.isascii() and text.isdigit() else None
    if kind is str:
        return text
    if kind is Path:
        return Path(text)
    if get_origin(kind) is list and get_args(kind) == (str,):
        return text
    return None


def parse(fn: Callable[..., Any], args: list[str]) -> dict[str, Any] | None:
    """The keyword arguments Typer would call ``fn`` with for the command line ``args`` (after the
    command's name), or ``None`` for a line this reader leaves to Typer (see the module doc)."""
    import inspect

    spec = declared(fn)
    kwargs = {name: default for name, (_, _, default) in spec.items()}
    by_decl = {d: name for name, (_, m, _) in spec.items() for d in m.decls}
    positional = [name for name, (_, m, _) in spec.items() if m.argument]
    seen: set[str] = set()
    i = 0
    while i < len(args):
        token = args[i]
        i += 1
        if not token.startswith("-"):
            if not positional:
                return None
            name = positional.pop(0)
            kwargs[name] = _value(spec[name][0], token)
            if kwargs[name] is None:
                return None
            continue
        decl, eq, text = token.partition("=")
        option = by_decl.get(decl)  # "-", "--", "--help", short or unknown options: Typer's
        if option is None or (option in seen and get_origin(spec[option][0]) is not list):
            return None
        seen.add(option)
        kind = spec[option][0]
        if kind is bool:
            if eq or spec[option][2] is not False:  # only flags that are off unless given
                return None
            kwargs[option] = True
            continue
        if not eq:
            if i == len(args):
                return None
            text = args[i]
            i += 1
        value = _value(kind, text)
        if value is None:
            return None
        if get_origin(kind) is list:
            kwargs[option] = [*(kwargs[option] or []), value]
        else:
            kwargs[option] = value
    if any(v is inspect.Parameter.empty for v in kwargs.values()):  # a required one is missing
        return None
    return kwargs


def run_fast(argv: list[str]) -> None:
    """Run ``argv`` (``sys.argv``) without Typer if it is a plain line of a command in
    :data:`FAST_COMMANDS`, exiting as Typer exits; return (having run nothing) when Typer must run it."""
    if len(argv) < 2 or argv[1] not in FAST_COMMANDS or any(k.endswith("_COMPLETE") for k in os.environ):
        return
    import importlib

    module, name = FAST_COMMANDS[argv[1]]
    fn = getattr(importlib.import_module(module), name)
    kwargs = parse(fn, argv[2:])
    if kwargs is None:
        return
    # pydantic looks for plugins (observability hooks) in every installed package's metadata when it
    # builds the first validator: ~40 ms, a tenth of ``calc``. The command line runs without them
    # unless the user's environment names some: PYDANTIC_DISABLE_PLUGINS set (even empty) wins.
    os.environ.setdefault("PYDANTIC_DISABLE_PLUGINS", "__all__")
    # the cycle collector found nothing to free in the start-up's imports (modules, classes) and
    # cost ~5% of ``calc``: it is off but while the system validates and computes (see calc.run)
    collecting = gc.isenabled()
    gc.disable()
    code = 0
    try:  # what Typer's main does around a command (standalone mode)
        fn(**kwargs)
    except KeyboardInterrupt:
        code = 130
    except EOFError:
        sys.stderr.write("\nAborted!\n")
        code = 1
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        code = 1
    except Exception as exc:
        typer = sys.modules.get("typer")  # a command's ``typer.Exit`` (its module is imported then)
        if typer is None or not isinstance(exc, typer.Exit):
            raise
        code = exc.exit_code
    finally:
        if collecting:
            gc.enable()
    sys.exit(code)
