"""Psyker(X): power dice, manifesting and perils, exactly.

"Every round players with one or more units with this special rule in their army receive D3+X
power, ... where X is the total number of Psyker levels in their army, and each player may have a
maximum of 6 power dice for each round." "The player may try to manifest any Psychic Power once
per round by rolling any number of power dice, trying to score a 4+. If the player rolls as many
4+ as the number in brackets he may resolve all effects. If the player rolls two or more 6s then
the manifesting Psyker takes D3 automatic wounds."
"""

from __future__ import annotations

from grimdice.dice import D3, Dist, Joint
from grimdice.errors import ScenarioError


def power_dice(levels: int) -> Dist:
    """Power dice of a round: D3 + total Psyker levels, at most 6."""
    if levels < 1:
        raise ScenarioError("psyker", "an army with Psykers has at least 1 Psyker level")
    return (D3.dist + levels).clip(high=6)


def manifest(dice: int, need: int) -> Joint:
    """Joint law of (manifested 0/1, perils 0/1) rolling ``dice`` power dice for a power needing
    ``need`` successes (4+). Each die: 4-5 success only, 6 success and a six, 1-3 nothing."""
    if not 1 <= dice <= 6:
        raise ScenarioError("dice", f"1..6 power dice, got {dice}")
    if need < 1:
        raise ScenarioError("need", "a power needs at least 1 success")
    counts = Joint.categorical([2 / 6, 1 / 6, 3 / 6]).repeat(dice)  # (4-5 count, 6 count)
    out: dict[tuple[int, int], float] = {}
    for (mid, six), p in counts.items():
        key = (int(mid + six >= need), int(six >= 2))
        out[key] = out.get(key, 0.0) + p
    return Joint.from_mapping(out)


def perils_wounds() -> Dist:
    """ "the manifesting Psyker takes D3 automatic wounds"."""
    return D3.dist
