"""grimdice: exact dice maths, rules engines and battle simulation for tabletop wargames."""

from grimdice.dice import D3, D6, DiceExpr, Die, Dist, Joint, Sampler, parse
from grimdice.errors import GrimdiceError, RuleError, ScenarioError
from grimdice.result import Result

__version__ = "0.1.0"

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
