"""grimdice: exact dice maths, rules engines and battle simulation for tabletop wargames."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grimdice.errors import GrimdiceError, RuleError, ScenarioError

if TYPE_CHECKING:
    from grimdice.dice import D3, D6, DiceExpr, Die, Dist, Joint, Sampler, parse
    from grimdice.result import Result

__version__ = "0.1.0"

_LAZY = {
    name: "grimdice.dice" for name in ("D3", "D6", "DiceExpr", "Die", "Dist", "Joint", "Sampler", "parse")
}
_LAZY["Result"] = "grimdice.result"


def __getattr__(name: str) -> Any:
    """The dice and result types, imported on first use (the CLI starts without NumPy)."""
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
