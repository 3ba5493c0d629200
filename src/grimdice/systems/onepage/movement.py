"""Rules acting on movement and deployment, as data and checks the game loop will call.

Actions: "Walk – The unit may move up to 6"", "Run – The unit may move up to 12"", "Assault – The
unit may move up to 12" to get into base contact with the enemy". Table: 6'x4' (72" x 48").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from grimdice.dice import D6, Dist
from grimdice.engine.table.bases import Base, closest_distance
from grimdice.errors import RuleError
from grimdice.systems.onepage.units import Unit

TABLE = (72.0, 48.0)
DEPLOY_ZONE = 12.0  # "places all of his army within 12" of his table edge"
STRIKE_CLEARANCE = 12.0  # Deep Strike and Scout: "over 12" away from enemy units"


def move_distance(unit: Unit, action: str, *, difficult: bool = False) -> float:
    """How far ``unit`` may move with ``action`` (hold, walk, run, assault).

    Vehicles: "move up to 12" when using Walk actions and up to 18" when using Run and Assault
    Actions." Fast: "+3" when using Walk actions and +6" when using Run or Assault actions."
    Difficult terrain: "the unit may not move more than its Walk action distance for that movement";
    Strider: "treat difficult terrain as open terrain"; Flying: "may ignore terrain effects"."""
    if action == "hold":
        return 0.0
    if action not in ("walk", "run", "assault"):
        raise RuleError(f"unknown action {action!r}; allowed: hold, walk, run, assault")
    vehicle = unit.kind == "vehicle"
    walk = (12.0 if vehicle else 6.0) + (3.0 if unit.has("fast") else 0.0)
    fast_run = (18.0 if vehicle else 12.0) + (6.0 if unit.has("fast") else 0.0)
    d = walk if action == "walk" else fast_run
    if difficult and not (unit.has("strider") or unit.has("flying")):
        d = min(d, walk)
    return d


def may_shoot(action: str) -> bool:
    """Hold and Walk may shoot; Run and Assault "may not shoot at any point"."""
    return action in ("hold", "walk")


def reserve_arrives() -> Dist:
    """Deep Strike: "After round 1 you may roll one die at the beginning of each round, and on a 4+
    you may place the unit" — 1 if it arrives this round."""
    return D6.dist.map(lambda f: int(f >= 4))


def deep_strike_scatter() -> Dist:
    """ "Then roll one die, and on a 1-2 the opponent may move the unit by up to 12"" — 1 if so."""
    return D6.dist.map(lambda f: int(f <= 2))


def clear_of_enemies(bases: Sequence[Base], enemies: Iterable[Base], what: str) -> None:
    """Deep Strike / Scout placement: on the table and "over 12" away from enemy units"."""
    enemies = list(enemies)
    for i, b in enumerate(bases):
        if not (b.radius <= b.x <= TABLE[0] - b.radius and b.radius <= b.y <= TABLE[1] - b.radius):
            raise RuleError(f"{what}: model {i} is off the table")
        d = closest_distance(b, enemies)
        if d <= STRIKE_CLEARANCE:
            raise RuleError(f'{what}: model {i} is {d:.2f}" from an enemy; it must be over 12" away')


def deep_strike_position(unit: Unit, bases: Sequence[Base], enemies: Iterable[Base], round_: int) -> None:
    """Raise :class:`RuleError` unless ``unit`` may Deep Strike onto ``bases`` in round ``round_``."""
    if not unit.has("deep_strike"):
        raise RuleError(f"{unit.name} does not have Deep Strike")
    if round_ <= 1:
        raise RuleError("Deep Strike: units arrive only after round 1")
    clear_of_enemies(bases, enemies, "Deep Strike")


def scout_position(unit: Unit, bases: Sequence[Base], enemies: Iterable[Base]) -> None:
    """Scout: "This unit may be deployed anywhere on the table over 12" away from enemy units." """
    if not unit.has("scout"):
        raise RuleError(f"{unit.name} does not have Scout")
    clear_of_enemies(bases, enemies, "Scout")


def can_embark(transport: Unit, passengers: Sequence[Unit]) -> None:
    """Transport(X): "may transport up to X Infantry models in their cargo." """
    cap = int(transport.rules.get("transport", 0))
    if not cap:
        raise RuleError(f"{transport.name} is not a Transport")
    for p in passengers:
        if p.kind != "infantry":
            raise RuleError(f"{p.name} is not Infantry and cannot embark")
    n = sum(p.size for p in passengers)
    if n > cap:
        raise RuleError(f"{n} models exceed {transport.name}'s Transport({cap})")


#: Transport(X): "any surviving models must be placed within 6" of the transport"
SURVIVORS_WITHIN = 6.0


def disembark_distance(unit: Unit, action: str) -> float:
    """How far an embarked unit moves when it disembarks with ``action``. Transport(X): "embarked units
    may use a Walk action to disembark"; Furious: "they may use an Assault action at Walk distance to
    disembark from transports". Other actions cannot disembark (:class:`RuleError`)."""
    if action == "walk" or (action == "assault" and unit.has("furious")):
        return move_distance(unit, "walk")
    allowed = "walk, or assault with Furious" if not unit.has("furious") else "walk, assault"
    raise RuleError(f"{unit.name} cannot disembark with a {action} action; allowed: {allowed}")


def transport_destroyed_hits() -> Dist:
    """ "If an Infantry unit is within a transport when it is destroyed, then the unit takes D6
    automatic hits"."""
    return D6.dist


def dangerous_terrain_hits(models: int) -> Dist:
    """ "roll one die for each model that moved into or across the dangerous terrain. For each 1 you
    roll the unit takes one automatic hit." Flying units ignore it (check before calling)."""
    return Dist.binomial(models, 1 / 6) if models else Dist.constant(0)
