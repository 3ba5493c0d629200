"""Infiltrate (X) (seed rule text), checked with the table-top geometry helper.

* Only a unit composed entirely of models with Infiltrate (X) may deploy outside its
  controlling player's Deployment Zone.
* Each model must then be in its own Deployment Zone, or outside the opposing player's
  Deployment Zone and at least X" (the highest X in the unit) from every enemy model.
* The rule only has an effect when deploying before the start of the first turn; units
  arriving after the first turn has begun gain no benefit.
* A unit deployed outside its Deployment Zone by means of the rule may not declare a Charge in
  the first battle turn.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from grimdice.engine.table.bases import Base, Zone, closest_distance
from grimdice.errors import RuleError


@dataclass(frozen=True)
class DeployedModel:
    """One model's deployment: its Infiltrate X (None if it lacks the rule) and its base."""

    name: str
    infiltrate: int | None
    base: Base


def unit_infiltrate_distance(values: Sequence[int | None]) -> int | None:
    """The unit's Infiltrate distance (the highest X), or None unless every model has the rule."""
    if not values or any(v is None for v in values):
        return None
    return max(v for v in values if v is not None)


def check_deployment(
    models: Sequence[DeployedModel],
    own_zone: Zone,
    opponent_zone: Zone,
    enemies: Sequence[Base],
    *,
    before_first_turn: bool = True,
) -> bool:
    """Validate a unit's deployment; returns True when it is deployed by means of Infiltrate
    (some model outside its own Deployment Zone). Raises :class:`RuleError` naming the sentence
    of the rule the deployment breaks."""
    outside = [m for m in models if not own_zone.contains_base(m.base)]
    if not outside:
        return False
    if not before_first_turn:
        raise RuleError(
            "Infiltrate: only deploying before the start of the first turn may use the rule; a unit "
            "arriving after the first turn has begun must deploy as normal"
        )
    x = unit_infiltrate_distance([m.infiltrate for m in models])
    if x is None:
        lacking = ", ".join(m.name for m in models if m.infiltrate is None)
        raise RuleError(
            "Infiltrate: the unit must be composed entirely of models with Infiltrate (X); "
            f"lacking: {lacking}"
        )
    for m in outside:
        if opponent_zone.touches_base(m.base):
            raise RuleError(f"Infiltrate: {m.name} must be outside the opposing player's Deployment Zone")
        d = closest_distance(m.base, enemies)
        if d < x - 1e-9:
            raise RuleError(
                f'Infiltrate: {m.name} must be at least {x}" (the highest X in the unit) from any enemy '
                f'model; closest is {d:.2f}"'
            )
    return True


def check_charge(infiltrated: bool, battle_turn: int) -> None:
    """A unit deployed outside its Deployment Zone by Infiltrate may not charge in the first battle turn."""
    if infiltrated and battle_turn == 1:
        raise RuleError(
            "Infiltrate: a unit deployed by means of Infiltrate may not declare a Charge in the "
            "first battle turn"
        )
