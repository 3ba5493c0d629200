"""Legality of a described activation and target, from the action rules of the seed text and the
2021 core book. Illegal ones raise :class:`~grimdice.errors.RuleError` saying which rule forbids it.

* Heavy: no Charge, Fall Back or Normal Move in the same activation as a Shoot with the weapon.
* Unwieldy: shooting costs one extra AP; no shooting attack with it by an Overwatch action.
* Limited: the weapon can be selected once per battle.
* Silent: may Shoot while on a Conceal order (otherwise a Conceal order forbids Shoot actions).
* Rng x: only operatives within x are valid targets.
* Blast: no shooting attack with it by an Overwatch action.
* Core book: each action costs 1 AP (Overwatch is taken outside the activation and costs none), an
  action at most once per activation, AP spent at most the APL; an Obscured operative is not a
  valid target; an operative on a Conceal order in Cover is not a valid target.
"""

from __future__ import annotations

from grimdice.errors import RuleError
from grimdice.systems.killteam.profiles import Action, Activation, Order
from grimdice.systems.killteam.rules import WeaponRules

MOVES_HEAVY_FORBIDS = (Action.NORMAL_MOVE, Action.FALL_BACK, Action.CHARGE)


def check_range(rules: WeaponRules, weapon: str, distance: float | None, target: str) -> None:
    """Rng x: the target must be within x."""
    if rules.rng is not None and distance is not None and distance > rules.rng:
        raise RuleError(
            f'{weapon} has Rng {rules.rng:g}": {target} is {distance:g}" away, so it is not a valid target'
        )


def check_activation(rules: WeaponRules, weapon: str, act: Activation, apl: int, order: Order) -> None:
    """The activation described may make this shooting attack (``order``: the operative's order,
    used when the activation names none)."""
    actions = list(act.actions)
    shoot = Action.SHOOT in actions
    overwatch = Action.OVERWATCH in actions
    if not (shoot or overwatch):
        raise RuleError(f"the activation makes no Shoot or Overwatch action, so {weapon} cannot be used")
    dup = sorted({a.value for a in actions if a is not Action.OTHER and actions.count(a) > 1})
    if dup:
        raise RuleError(f"an operative cannot perform the same action more than once per activation: {dup}")
    if rules.limited and act.uses_before >= 1:
        raise RuleError(
            f"{weapon} is Limited: it can be selected once per battle and was already selected "
            f"{act.uses_before} time(s)"
        )
    if overwatch and rules.unwieldy:
        raise RuleError(f"{weapon} is Unwieldy: it cannot make a shooting attack by an Overwatch action")
    if overwatch and rules.blast is not None:
        raise RuleError(f"{weapon} has Blast: it cannot make a shooting attack by an Overwatch action")
    if shoot and (act.order or order) is Order.CONCEAL and not rules.silent:
        raise RuleError(
            f"an operative on a Conceal order cannot perform a Shoot action unless the weapon is Silent "
            f"({weapon} is not)"
        )
    if shoot and rules.heavy:
        bad = [a.value for a in actions if a in MOVES_HEAVY_FORBIDS]
        if bad:
            raise RuleError(
                f"{weapon} is Heavy: no Charge, Fall Back or Normal Move in the same activation as the "
                f"Shoot action (this one has {', '.join(bad)})"
            )
    cost = sum(1 for a in actions if a is not Action.OVERWATCH) + (1 if shoot and rules.unwieldy else 0)
    available = act.APL if act.APL is not None else apl
    if cost > available:
        why = " (Unwieldy: the Shoot action costs one extra AP)" if shoot and rules.unwieldy else ""
        raise RuleError(f"the activation needs {cost} AP but only {available} are available{why}")


def check_valid_target(name: str, obscured: bool, order: Order, in_cover: bool) -> None:
    """2021 core book: an Obscured operative, or one on a Conceal order in Cover, is not a valid target."""
    if obscured:
        raise RuleError(f"{name} is Obscured, so it is not a valid target (2021 reading, unverified)")
    if order is Order.CONCEAL and in_cover:
        raise RuleError(f"{name} has a Conceal order and is in Cover, so it is not a valid target")
