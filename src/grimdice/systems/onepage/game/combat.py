"""The combat laws of a One Page 40k game: a shooting's or a melee's situation as the exact engine's
conditions, and the law of the end states it gives (cached by situation)."""

from __future__ import annotations

from typing import Any

from grimdice.systems.onepage.exact import shooting_table
from grimdice.systems.onepage.game import (
    dangerous,
    firing,
    strike_order,
)
from grimdice.systems.onepage.game.cache import shot_state
from grimdice.systems.onepage.game.setup import Setup
from grimdice.systems.onepage.profiles import Conditions
from grimdice.systems.onepage.units import UnitState


def conditions_of(kind: str, key: tuple[Any, ...]) -> Conditions:
    if kind in dangerous.KINDS:
        return Conditions()
    if kind == "shoot":
        fire, n, cover, elevated, action, face, _off, blind, limited = key
        per_weapon = isinstance(fire, tuple)  # models per weapon of those that see (firing.parts)
        return Conditions(
            distance=0 if per_weapon else fire,
            in_range=None if per_weapon else n,
            weapons_in_range=dict(fire) if per_weapon else None,
            cover=cover,
            elevated_target=elevated,
            action=action,
            facing=face,
            no_line_of_sight=blind is True,
            limited_fired=limited,
        )
    return Conditions(
        action="assault",
        attacker_higher=key[0],
        defender_higher=key[1],
        attacker_strikers=key[2],
        defender_strikers=key[3],
        facing=key[4],
    )


def shot_law_key(setup: Setup, u: int, t: int, key: tuple[Any, ...]) -> tuple[Any, ...]:
    """A :meth:`GameState.shot_key` with what the exact shooting does not read made equal, so that
    situations with the same law share it: the engine reads cover, an elevated target ("count as
    being in Cover") and no line of sight only as Cover, which only grants Armored ("multiple
    instances of the same special rule are not cumulative": nothing for an Armored target,
    ``attack.piercing_options``), and the action only for Relentless ("may fire all of their weapons
    when using Hold actions"), so a non-Relentless unit's Walk shot is its Hold shot."""
    dist, n, cover, elevated, action, face, off, blind, limited = key
    covered = bool(cover or elevated) and not setup.units[t].armored
    act = action if setup.units[u].has("relentless") else "hold"
    return (dist, n, covered, False, act, face, off, blind, limited)


def combat_law(
    setup: Setup, kind: str, u: int, su: UnitState, t: int, st: UnitState, key: tuple[Any, ...]
) -> list[tuple[tuple[UnitState, ...], float]]:
    """The law of the end states of a shooting (target state) or a melee (attacker, defender), from
    the exact engine, cached by situation."""
    if kind == "shoot":  # the shooter and the situation as the shooting reads them
        su, key = shot_state(su, key), shot_law_key(setup, u, t, key)
    ck = (kind, u, su, t, st, key)
    hit = setup.cache.get(ck)
    if hit is not None:
        return hit
    a, d = setup.units[u], setup.units[t]
    if kind == "shoot":
        a = firing.armed(a, key[6])  # weapons out of arc or spent do not fire
    c = conditions_of(kind, key)
    out: dict[tuple[UnitState, ...], float] = {}
    if kind == "shoot":
        _, table = shooting_table(a, su, d, st, c, firing.mixed_plan(a, su, d, st, key))
        for (_w, s, _m), p in table.items():
            out[(s,)] = out.get((s,), 0.0) + p
    elif kind == "melee":  # each side's strikers its best models (strike_order.py)
        out = strike_order.melee_law(a, su, d, st, c)
    else:  # automatic hits from no enemy (dangerous.py)
        out = {(s,): p for s, p in dangerous.hazard_law(a, su, kind, key)}
    total = sum(out.values())
    # dividing by a total of exactly 1 changes no probability: skipped
    law = list(out.items()) if total == 1.0 else [(k, p / total) for k, p in out.items()]
    setup.cache[ck] = law
    return law


__all__ = ["combat_law", "conditions_of", "shot_law_key"]
