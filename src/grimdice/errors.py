"""Errors a user can act on: each names the input field at fault and what is allowed there."""

from __future__ import annotations


class GrimdiceError(ValueError):
    """Base class of all user-facing input errors."""


class ScenarioError(GrimdiceError):
    """A scenario or profile is malformed: ``field`` is the dotted path of the offending value."""

    def __init__(self, field: str, message: str) -> None:
        self.field = field
        self.message = message
        super().__init__(f"{field}: {message}" if field else message)


class RuleError(GrimdiceError):
    """A described action or position breaks a rule (e.g. an illegal Scouts move)."""
