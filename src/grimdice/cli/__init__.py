"""The ``grimdice`` command line (the console command starts in :mod:`grimdice.__main__`, which
answers the help without importing this package)."""

from grimdice.cli.app import app, main

__all__ = ["app", "main"]
