"""Orders (Voice of Command, Astra Militarum), from the seed rule text.

A unit is affected by at most one Order at a time: a new Order replaces the current one, and an
Order ceases to affect a Battle-shocked unit. Each Order is an effect on characteristics:

* MOVE! MOVE! MOVE!: +3" to M.
* FIX BAYONETS!: WS of melee weapons improved by 1.
* TAKE AIM!: BS of ranged weapons improved by 1.
* FIRST RANK, FIRE! SECOND RANK, FIRE!: A of Rapid Fire weapons improved by 1.
* TAKE COVER!: Sv improved by 1, but not to better than 3+.
* DUTY AND HONOUR!: Ld and OC improved by 1.
"""

from __future__ import annotations

from dataclasses import dataclass

from grimdice.errors import RuleError
from grimdice.systems.wh40k.profiles import Order

ORDER_RANGE = 6.0  # inches from the OFFICER


def active_order(order: Order | None, battle_shocked: bool) -> Order | None:
    """The Order affecting a unit: none while it is Battle-shocked."""
    return None if battle_shocked else order


def skill_with_order(skill: int, melee: bool, order: Order | None) -> int:
    """BS/WS after FIX BAYONETS! (melee) or TAKE AIM! (ranged): improve (lower) by 1."""
    if (order is Order.FIX_BAYONETS and melee) or (order is Order.TAKE_AIM and not melee):
        return skill - 1
    return skill


def rapid_fire_attack_bonus(is_rapid_fire: bool, order: Order | None) -> int:
    """FIRST RANK, FIRE! SECOND RANK, FIRE!: +1 A for Rapid Fire weapons."""
    return 1 if is_rapid_fire and order is Order.FIRST_RANK_FIRE else 0


def save_with_order(Sv: int, order: Order | None) -> int:
    """TAKE COVER!: improve Sv by 1, but not to better than 3+."""
    if order is Order.TAKE_COVER:
        return max(3, Sv - 1) if Sv > 3 else Sv
    return Sv


def move_with_order(M: int, order: Order | None) -> int:
    """MOVE! MOVE! MOVE!: add 3" to M."""
    return M + 3 if order is Order.MOVE_MOVE_MOVE else M


def leadership_with_order(Ld: int, OC: int, order: Order | None) -> tuple[int, int]:
    """DUTY AND HONOUR!: improve Ld (one lower target) and OC (one higher) by 1."""
    if order is Order.DUTY_AND_HONOUR:
        return Ld - 1, OC + 1
    return Ld, OC


@dataclass
class OrderedUnit:
    """A unit's order state: one Order at a time, dropped when the unit is Battle-shocked."""

    name: str
    order: Order | None = None
    battle_shocked: bool = False

    @property
    def active(self) -> Order | None:
        return active_order(self.order, self.battle_shocked)

    def become_battle_shocked(self) -> None:
        self.battle_shocked = True
        self.order = None


def issue_order(
    unit: OrderedUnit,
    order: Order | str,
    *,
    army_faction: str,
    officer_keywords: list[str],
    distance: float,
    eligible: bool = True,
    orders_left: int = 1,
) -> OrderedUnit:
    """Issue an Order from an OFFICER to a unit (Voice of Command), checking the seed text.

    Requires ASTRA MILITARUM as Army Faction, an OFFICER model with Orders left to issue, an
    eligible unit within 6" of it. The new Order replaces any current one.
    """
    if army_faction.strip().upper() != "ASTRA MILITARUM":
        raise RuleError("Orders: the Army Faction must be ASTRA MILITARUM")
    if "OFFICER" not in {k.strip().upper() for k in officer_keywords}:
        raise RuleError("Orders: only OFFICER models can issue Orders")
    if orders_left < 1:
        raise RuleError("Orders: this OFFICER has no Orders left to issue")
    if not eligible:
        raise RuleError(f"Orders: {unit.name} is not eligible to receive this OFFICER's Orders")
    if distance > ORDER_RANGE:
        raise RuleError(
            f'Orders: {unit.name} must be within {ORDER_RANGE:g}" of the OFFICER (is {distance:g}")'
        )
    chosen = order if isinstance(order, Order) else Order.from_text(order)
    unit.order = chosen  # replaces the current one
    return unit
