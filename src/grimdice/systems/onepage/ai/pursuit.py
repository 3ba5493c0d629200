"""The AI's pursuit: a melee unit closing on a charge it can make only in a later activation.

:func:`.threat.prospect` values the best charge a unit could make in its next activation, from the
targets within its Assault distance of a move's end. A target farther away is worth going after
when the charge still favours the unit and enough activations remain to reach it: the score is taken
"after 4 rounds", so a charge that needs more Runs than the unit has activations left scores
nothing. :func:`pursuit` is the best such charge, discounted by :data:`DECAY` per Run it needs
(the target may move, shoot or be taken by another unit meanwhile: our weight), and the AI adds
:data:`.threat.PROSPECT` x its change from where the unit stands to a move's end. Values are the
exact melee laws :func:`.threat.charge_key` reads (where both stand now), as for the prospect.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from grimdice.engine.frozen import replace
from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

DECAY = 0.5  # share of a charge's value kept per Run needed before it


def pursuit_odds(state: GameState, u: int) -> dict[int, float]:
    """For each enemy ``t`` on the table that ``u`` could still charge in a later activation after
    a Run now (within its Assault distance plus a Run per activation left), the expected value to
    ``u`` of charging it (:func:`.players.melee_odds` in the situation of
    :func:`.threat.charge_key`), where positive; empty when fewer than two activations remain after
    this one (:func:`pursuit` is then 0 everywhere) or when ``u`` cannot move."""
    from grimdice.systems.onepage.ai.players import melee_odds
    from grimdice.systems.onepage.ai.threat import charge_key
    from grimdice.systems.onepage.game.state import ROUNDS

    left = ROUNDS - state.round  # activations after this one
    if left < 2 or state.units[u].immobile or not state.on_table(u):
        return {}  # with one activation left only the next one's charge counts (threat.prospect)
    unit, s = state.setup.units[u], replace(state, active=u)
    reach, run = move_distance(unit, "assault"), move_distance(unit, "run")
    # a move now closes the gap by a Run at most, then left - 1 Runs before the charge
    far = reach + left * run
    near = [t for t in state.enemies(u) if state.gap(u, t) <= far + EPS]
    odds = {t: melee_odds(s, u, t, charge_key(s, u, t)) for t in near}
    return {t: v for t, v in odds.items() if v > 0}


def pursuit(state: GameState, u: int, end: tuple[float, float] | None, odds: dict[int, float]) -> float:
    """The best of ``odds`` (:func:`pursuit_odds`) among the targets beyond ``u``'s Assault
    distance of ``end`` (default: where it stands) that it can still charge: ``k`` Runs close the
    rest of the gap, and ``k + 1`` activations remain after this one (one per later round); each
    Run needed keeps :data:`DECAY` of the value."""
    from grimdice.systems.onepage.game.state import ROUNDS

    if not odds:
        return 0.0
    unit = state.setup.units[u]
    reach, run = move_distance(unit, "assault"), move_distance(unit, "run")
    left = ROUNDS - state.round  # activations after this one
    best = 0.0
    for t, v in odds.items():
        gap = state.gap(u, t, end)
        if gap <= reach + EPS:
            continue  # the next activation's charge: threat.prospect
        runs = math.ceil((gap - reach - EPS) / run)
        if runs + 1 <= left:
            best = max(best, v * DECAY**runs)
    return best


Outlook = tuple[dict[int, float], dict[int, float], float]  # (charge_odds, pursuit_odds, value here)


def ahead(state: GameState, u: int, end: tuple[float, float], kept: dict[int, Outlook]) -> float:
    """The change, from where ``u`` stands to ``end``, of what its later activations offer:
    :func:`.threat.outlook` (its next charge and shot, a transport's passengers' shots) plus
    :func:`pursuit`; each unit's odds and value where it stands are read once into ``kept``."""
    from grimdice.systems.onepage.ai import threat

    got = kept.get(u)
    if got is None:
        odds, chase = threat.charge_odds(state, u), pursuit_odds(state, u)
        got = kept[u] = (odds, chase, threat.outlook(state, u, None, odds) + pursuit(state, u, None, chase))
    odds, chase, here = got
    return threat.outlook(state, u, end, odds) + pursuit(state, u, end, chase) - here


__all__ = ["DECAY", "Outlook", "ahead", "pursuit", "pursuit_odds"]
