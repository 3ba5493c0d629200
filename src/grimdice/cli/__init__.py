"""The ``grimdice`` command line."""

from grimdice.cli.app import app, main

__all__ = ["app", "main"]
