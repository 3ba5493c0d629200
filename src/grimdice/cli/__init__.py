"""The ``grimdice`` command line (the console command starts in :mod:`grimdice.__main__`, which
answers the help, and runs ``calc``, without importing Typer).

``grimdice.cli.app`` and ``grimdice.cli.main`` are the Typer app and its runner, imported on first
use: importing this package, or one of its Typer-free modules (:mod:`grimdice.cli.calc`,
:mod:`grimdice.cli.params`, :mod:`grimdice.cli.render`), does not import Typer.

The attribute ``app`` is the Typer app even once the submodule of that name is imported (the import
system then binds the submodule to the package's attribute of its name: that binding alone is
ignored). Any other assignment, a test's ``monkeypatch.setattr(grimdice.cli, "app", ...)`` among
them, sets the attribute as on any module.
"""

from __future__ import annotations

import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from grimdice.cli.app import app, main

#: the attributes this package imports from its submodule ``app`` on first use
FROM_APP = ("app", "main")


class _Cli(types.ModuleType):
    def __getattr__(self, name: str) -> Any:  # asked only for an attribute not set
        if name not in FROM_APP:
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        import importlib

        return getattr(importlib.import_module(f"{self.__name__}.app"), name)

    def __setattr__(self, name: str, value: Any) -> None:
        if name in FROM_APP and value is sys.modules.get(f"{self.__name__}.{name}"):
            return  # the import system binding the submodule ``app``: the attribute stays the Typer app
        super().__setattr__(name, value)


sys.modules[__name__].__class__ = _Cli

__all__ = ["app", "main"]
