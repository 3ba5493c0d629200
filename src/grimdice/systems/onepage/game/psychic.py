"""Psyker power dice per round, counted as a game resource.

"Every round players with one or more units with this special rule in their army receive D3+X
power, which they can use for that round, where X is the total number of Psyker levels in their
army, and each player may have a maximum of 6 power dice for each round."

At the start of every round in which an army has a Psyker (a unit with Psyker(X), or a joined
Psyker model, alive), a chance node rolls both players' power at once: the outcome
``["power", a, b]`` is each player's power dice for the round (D3 + X, at most 6; 0 without a
Psyker), kept in ``GameState.power`` as ``(round, a, b)`` and in the log's actions. The Beginner's
Guide names no Psychic Power to manifest, so the dice are counted but spent on nothing (the exact
engine's ``attack: psyker`` computes a manifestation attempt on its own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from grimdice.engine.frozen import replace
from grimdice.systems.onepage.game.cache import recall
from grimdice.systems.onepage.psyker import power_dice
from grimdice.systems.onepage.rules import RULES

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.setup import Setup
    from grimdice.systems.onepage.game.state import GameState

KIND = "power"


def levels_of(setup: Setup) -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
    """Per unit: (its own Psyker X, ((joined Psyker group, X), ...)), from the army entries."""

    def compute() -> tuple[tuple[int, tuple[tuple[int, int], ...]], ...]:
        joined: list[dict[str, int]] = []
        for side in setup.armies:
            found: dict[str, int] = {}
            for e in side.data.get("units") or []:
                if isinstance(e, dict) and e.get("joins"):
                    x = RULES.parse(e.get("special_rules") or [], "special_rules").get("psyker")
                    if x:
                        found[str(e.get("name"))] = int(x)
            joined.append(found)
        out = []
        for u, unit in enumerate(setup.units):
            own = int(unit.rules.get("psyker") or 0)
            names = joined[setup.owner[u]]
            hosted = tuple(
                (g, names[grp.name]) for g, grp in enumerate(unit.groups) if grp.hero and grp.name in names
            )
            out.append((own, hosted))
        return tuple(out)

    return recall(setup, ("psyker levels",), compute)


def levels(s: GameState, p: int) -> int:
    """X: "the total number of Psyker levels in their army" (units and joined Psykers alive)."""
    total = 0
    for u, (own, hosted) in enumerate(levels_of(s.setup)):
        st = s.units[u]
        if s.setup.owner[u] != p or st.destroyed:
            continue
        total += own + sum(x for g, x in hosted if st.alive[g])
    return total


def due(s: GameState) -> bool:
    """The round's power is still to roll (some army has a Psyker)."""
    return (not s.power or s.power[0] != s.round) and any(levels(s, p) for p in (0, 1))


def chance_outcomes(s: GameState) -> list[tuple[list[Any], float]]:
    laws = [power_dice(x).to_dict() if x else {0: 1.0} for x in (levels(s, 0), levels(s, 1))]
    return [(["power", a, b], pa * pb) for a, pa in laws[0].items() for b, pb in laws[1].items()]


def apply(s: GameState, a: Any) -> GameState:
    return replace(s, phase="play", power=(s.round, int(a[1]), int(a[2]))).open_round()


__all__ = ["KIND", "apply", "chance_outcomes", "due", "levels"]
