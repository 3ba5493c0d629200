"""grimdice: exact dice maths, rules engines and battle simulation for tabletop wargames."""

from __future__ import annotations

TYPE_CHECKING = False  # not ``typing.TYPE_CHECKING``: ``grimdice --help`` starts without ``typing``
if TYPE_CHECKING:
    from typing import Any

    from grimdice.dice import D3, D6, DiceExpr, Die, Dist, Joint, Sampler, parse
    from grimdice.errors import GrimdiceError, RuleError, ScenarioError
    from grimdice.result import Result

__version__ = "0.1.0"

_LAZY = {
    name: "grimdice.dice" for name in ("D3", "D6", "DiceExpr", "Die", "Dist", "Joint", "Sampler", "parse")
}
_LAZY["Result"] = "grimdice.result"
_LAZY.update(dict.fromkeys(("GrimdiceError", "RuleError", "ScenarioError"), "grimdice.errors"))


def __getattr__(name: str) -> Any:
    """The dice, result and error types, imported on first use (the CLI starts without NumPy)."""
    if name in _LAZY:
        import importlib

        value = getattr(importlib.import_module(_LAZY[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'grimdice' has no attribute {name!r}")


__all__ = [
    "D3",
    "D6",
    "DiceExpr",
    "Die",
    "Dist",
    "GrimdiceError",
    "Joint",
    "Result",
    "RuleError",
    "Sampler",
    "ScenarioError",
    "parse",
]
