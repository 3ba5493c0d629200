"""Scouts x (seed text, 10th edition core rules), checked with the table-top geometry helper.

* Every model of the unit must have Scouts x (where values differ, the smallest x is the move).
* At the start of the first battle round, before the first turn begins, the unit may make a
  Normal move of up to x" (each model moves at most x", measured start to end).
* A DEDICATED TRANSPORT the unit starts embarked within can do the same, provided only models
  with Scouts are embarked within it.
* The move must end more than 9" horizontally away from all enemy models.
* If both players have Scouts units, the player taking the first turn moves theirs first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grimdice.engine.table.bases import Base, closest_distance
from grimdice.errors import RuleError

SCOUTS_ENEMY_DISTANCE = 9.0


@dataclass(frozen=True)
class ScoutMove:
    """One model's Scouts move: its ``scouts`` value (None if it lacks the ability) and bases."""

    name: str
    scouts: int | None
    start: Base
    end: Base


def unit_scouts_distance(scouts_values: Sequence[int | None]) -> int | None:
    """The unit's Scouts move, or None unless every model has Scouts x."""
    if not scouts_values or any(v is None for v in scouts_values):
        return None
    return min(v for v in scouts_values if v is not None)


def check_scouts_move(
    moves: Sequence[ScoutMove],
    enemies: Sequence[Base],
    *,
    battle_round: int = 1,
    before_first_turn: bool = True,
    transport_passengers: Sequence[int | None] | None = None,
) -> float:
    """Validate a Scouts move; returns the closest horizontal distance to an enemy model.

    ``moves`` are the unit's models (or the DEDICATED TRANSPORT model, with
    ``transport_passengers`` the Scouts values of the models embarked within it).
    Raises :class:`RuleError` saying which sentence of the rule the move breaks.
    """
    if battle_round != 1 or not before_first_turn:
        raise RuleError(
            "Scouts: the move is made at the start of the first battle round, before the first turn"
        )
    if transport_passengers is not None:
        if not transport_passengers:
            raise RuleError("Scouts: the DEDICATED TRANSPORT carries no unit with Scouts")
        if any(v is None for v in transport_passengers):
            raise RuleError(
                "Scouts: a DEDICATED TRANSPORT may only move if every model embarked within it has Scouts"
            )
        x = unit_scouts_distance(list(transport_passengers))
    else:
        x = unit_scouts_distance([m.scouts for m in moves])
        if x is None:
            lacking = [m.name for m in moves if m.scouts is None]
            raise RuleError(
                f"Scouts: every model in the unit must have Scouts x; lacking: {', '.join(lacking)}"
            )
    assert x is not None
    for m in moves:
        moved = m.start.centre.distance(m.end.centre)
        if moved > x + 1e-9:
            raise RuleError(f'Scouts: {m.name} moved {moved:.2f}" but a Scouts {x}" move is at most {x}"')
    closest = min(closest_distance(m.end, enemies) for m in moves)
    if closest <= SCOUTS_ENEMY_DISTANCE:
        raise RuleError(
            f'Scouts: the move must end more than {SCOUTS_ENEMY_DISTANCE:g}" horizontally from all enemy '
            f'models; closest is {closest:.2f}"'
        )
    return closest


def scouts_move_order(first_player: str, players_with_scouts: Sequence[str]) -> list[str]:
    """If both players have Scouts units, the player taking the first turn moves first."""
    players = list(dict.fromkeys(players_with_scouts))
    return sorted(players, key=lambda p: p != first_player)
