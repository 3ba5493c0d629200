"""Which models strike when only some of a unit are within reach: its best strikers.

"All models in a unit that are in base contact with an enemy model from the target unit, or that
are within 2" of a model from the target unit may attack". The game counts how many models of each
side are within reach (``melee_moves.strikers``), not which: a unit's models stand in its block
unnamed, and the player moves each assaulting model ("move the assaulting [models] by up to 12"",
and the defenders' own 3" move), so a player puts his best models where they strike (the Warboss
in base contact, not behind twenty Boyz). Our reading: the strikers counted are the models of the
groups that strike the most expected wounds at the enemy (one model of each, the exact engine's
own worth, ``attack.removal``), most first. The exact melee counts its ``attacker_strikers`` /
``defender_strikers`` as the first models alive in listed group order (``attack.strikers``), so
the melee is played with each side's groups listed best first: the law is exactly ``calculate()``'s
for the unit written in that order, and its end states are read back in the unit's own order.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from grimdice.systems.onepage.attack import removal
from grimdice.systems.onepage.exact import melee_table
from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.units import Unit, UnitState, recall


def best_first(
    unit: Unit, state: UnitState, enemy: Unit, c: Conditions, assaulting: bool, n: int | None
) -> tuple[int, ...]:
    """The order of ``unit``'s groups in which its ``n`` strikers are counted: the listed order when
    every model alive strikes (``n`` None or at least the models alive), else the groups by the
    expected wounds one of their models strikes at ``enemy``, most first (ties: listed order)."""
    listed = tuple(range(len(unit.groups)))
    if n is None or n >= state.models or len(listed) < 2:
        return listed
    worth = removal(unit, enemy, c, assaulting=assaulting, strike_back=False).worth
    return tuple(sorted(listed, key=lambda i: -worth[i]))


def listed_as(unit: Unit, order: tuple[int, ...]) -> Unit:
    """``unit`` with its groups listed in ``order`` (one object per order, so that its memos last)."""
    if order == tuple(range(len(unit.groups))):
        return unit
    return recall(
        unit, "listed as", order, lambda: replace(unit, groups=tuple(unit.groups[i] for i in order))
    )


def state_as(state: UnitState, order: tuple[int, ...]) -> UnitState:
    """``state`` with its groups in ``order``."""
    alive, damage = state.alive, state.damage
    return _with_groups(state, tuple(alive[i] for i in order), tuple(damage[i] for i in order))


def state_back(state: UnitState, order: tuple[int, ...]) -> UnitState:
    """A state of the unit listed in ``order`` back in the unit's own order."""
    alive, damage = [0] * len(order), [0] * len(order)
    for k, i in enumerate(order):
        alive[i], damage[i] = state.alive[k], state.damage[k]
    return _with_groups(state, tuple(alive), tuple(damage))


def _with_groups(state: UnitState, alive: tuple[int, ...], damage: tuple[int, ...]) -> UnitState:
    """``state`` with ``alive`` and ``damage`` (``dataclasses.replace`` without its field lookups:
    the melee's end states are read back by the hundred)."""
    return UnitState(alive, damage, state.pinned, state.routed, state.shaken, state.immobile)


def melee_law(
    a: Unit, sa: UnitState, d: Unit, sd: UnitState, c: Conditions
) -> dict[tuple[UnitState, ...], float]:
    """The law of (attacker's, defender's) end states of the melee, each side's strikers its best
    models (see the module's text)."""
    oa = best_first(a, sa, d, c.model_copy(update={"action": "assault"}), True, c.attacker_strikers)
    od = best_first(d, sd, a, c.model_copy(update={"action": "hold"}), False, c.defender_strikers)
    m = melee_table(listed_as(a, oa), state_as(sa, oa), listed_as(d, od), state_as(sd, od), c)
    back_a = _reader(m.states, oa)
    back_d = back_a if od == oa else _reader(m.states, od)
    # summed by state ids first (each id is one state, so the sums and their order are those by
    # state), then read back as states: a state pair is hashed once, not once per winner
    by_ids: dict[tuple[int, int], float] = {}
    get = by_ids.get
    for (ia, i_d, _win), p in m.final.items():
        k = (ia, i_d)
        by_ids[k] = get(k, 0.0) + p
    return {(back_a(ia), back_d(i_d)): p for (ia, i_d), p in by_ids.items()}


def _reader(states: list[UnitState], order: tuple[int, ...]) -> Callable[[int], UnitState]:
    """State ``i`` of ``states`` back in the unit's own order (each read once)."""
    if order == tuple(range(len(order))):
        return states.__getitem__
    seen: dict[int, UnitState] = {}

    def read(i: int) -> UnitState:
        got = seen.get(i)
        if got is None:
            got = seen[i] = state_back(states[i], order)
        return got

    return read


__all__ = ["best_first", "listed_as", "melee_law", "state_as", "state_back"]
