"""The ``grimdice`` command line (the console command starts in :mod:`grimdice.__main__`, which
answers the help, and runs ``calc``, without importing Typer).

``grimdice.cli.app`` and ``grimdice.cli.main`` are the Typer app and its runner, imported on first
use: importing this package, or one of its Typer-free modules (:mod:`grimdice.cli.calc`,
:mod:`grimdice.cli.params`, :mod:`grimdice.cli.render`), does not import Typer. The attribute
``app`` stays the Typer app once the submodule of that name is imported too (as it always was).
"""

from __future__ import annotations

import sys
import types

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from grimdice.cli.app import app, main


class _Cli(types.ModuleType):
    @property
    def app(self) -> Any:
        from grimdice.cli.app import app

        return app

    @app.setter
    def app(self, value: Any) -> None:
        """Importing the submodule ``grimdice.cli.app`` sets this attribute: ``app`` stays the Typer app."""

    @property
    def main(self) -> Any:
        from grimdice.cli.app import main

        return main


sys.modules[__name__].__class__ = _Cli

__all__ = ["app", "main"]
