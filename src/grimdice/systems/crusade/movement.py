"""Movement rules of section V as tested helpers a skirmish game calls (rules-crusade V, IX).

Jump and scrabble rolls are "1 red for every 2" of move value (for odd moves, round down and add a
white die)"; their chances are exact, from the same pool laws as attacks.
"""

from __future__ import annotations

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import Body, State, take
from grimdice.systems.crusade.rolls import Pool, total_law


def move_pool(move: int) -> Pool:
    """V JUMPING / SCRABBLING: a red die per 2" of move, a white die for the odd inch."""
    if not 0 <= move <= 40:
        raise ScenarioError("move", f"a move value is 0 to 40 inches, got {move}")
    return Pool(white=move % 2, red=move // 2)


def _p_at_least(pool: Pool, need: int) -> float:
    if pool.n == 0:
        return float(need <= 0)
    return sum(p for (t, _), p in total_law(pool.white, pool.red).items() if t >= need)


def jump_chance(
    distance: float, move: int, armour: int, up: int = 0, leap: bool = False, trot: bool = False
) -> float:
    """P(making a jump): roll >= distance (+2" per 1" up, at most 3" up) + armour; gaps of 1" or less
    are made automatically; LEAP +3 and TROT +2 to the roll (IX)."""
    if not 0 <= up <= 3:
        raise ScenarioError("up", f"a jump goes at most 3 inches up (V JUMPING), got {up}")
    if distance < 0:
        raise ScenarioError("distance", "a jump distance is at least 0 inches")
    if distance <= 1 and up == 0:
        return 1.0
    need = int(-(-(distance + 2 * up) // 1)) + armour - (3 if leap else 0) - (2 if trot else 0)
    return _p_at_least(move_pool(move), need)


def scrabble_chance(move: int, armour: int, height: float, trot: bool = False) -> float:
    """P(scrabbling up a rough surface of at most 6"): roll >= 1 + armour (V SCRABBLING); TROT may not."""
    if trot:
        raise ScenarioError("trot", "models with TROT may not scrabble (IX TROT)")
    if not 0 < height <= 6:
        raise ScenarioError("height", f"scrabbling climbs surfaces of 6 inches or less, got {height}")
    return _p_at_least(move_pool(move), 1 + armour)


def falling(height: float, start: State, body: Body, fly: bool = False) -> State:
    """V FALLING: 1 hit per 4" fallen (a graze stuns); FLY ignores falling damage (IX)."""
    if height < 0:
        raise ScenarioError("height", "a fall is at least 0 inches")
    if fly:
        return start
    return take(start, int(height // 4), frozenset({"stun"}), body)


def charge_distance(
    move: int,
    armour: int,
    power_armour: bool = False,
    heavy_weapon: bool = False,
    wounded: bool = False,
    split_move: bool = False,
) -> int:
    """V CHARGE: an extra half move (rounded down) before meleeing, except with 2 armour (unless power
    armour), 3 armour, a heavy weapon, wounded or split-move models."""
    if (armour == 2 and not power_armour) or armour >= 3 or heavy_weapon or wounded or split_move:
        return 0
    return move // 2


def zoc_applies(
    starts_within_1: bool,
    moves_directly_away: bool,
    enemy_in_contact: bool,
    slip_thru: bool = False,
    vehicle: bool = False,
) -> bool:
    """V ZONE OF CONTROL: whether the enemy may make a free melee attack on a passing model."""
    if slip_thru or vehicle or enemy_in_contact:
        return False
    return not (starts_within_1 and moves_directly_away)


def zoc_passes(end_state: dict[str, float]) -> float:
    """P(the passer continues its move) from the ZOC melee's defender end state (V: "If the passer
    is not stunned, killed or KOed by the melee, they may continue")."""
    return 1.0 - end_state["stunned"] - end_state["ko"] - end_state["killed"]


__all__ = [
    "charge_distance",
    "falling",
    "jump_chance",
    "move_pool",
    "scrabble_chance",
    "zoc_applies",
    "zoc_passes",
]
