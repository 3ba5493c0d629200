"""An upper bound, over every candidate end of a unit's move, of what its next activation offers
(:func:`.threat.outlook`), so that the AI values that term only for the moves that can still be
the best (:func:`.choosing.choose` takes the bound first and the exact value when the bound
reaches the best value found).

:func:`.threat.outlook` at an end is the unit's best next charge (:func:`.threat.prospect`: the
greatest positive value of :func:`.threat.charge_odds` among the enemies it reaches from there),
plus its best shot after a Walk (:func:`.threat.shot_prospect`: the greatest of each enemy's
:func:`.threat.reach_bands` values in the band the end falls in), plus a transport's passengers'
shots (:func:`.threat.carried`). Each part is at most its greatest value over every enemy and
band, whatever the end, so their sum bounds the outlook at every end (floating point sums round
monotonically: a sum of larger terms is never smaller). A charge value not yet computed is bounded
without its exact law by what the charge can take (:func:`charge_bound`), so the bound itself
costs no new law.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from grimdice.engine.table.blocks import EPS
from grimdice.systems.onepage.ai import threat
from grimdice.systems.onepage.ai.odds import Odds
from grimdice.systems.onepage.movement import move_distance

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

SLACK = 1e-9  # relative and absolute widening of a bound computed without its law (charge_bound)


def charge_bound(state: GameState, u: int, t: int) -> float:
    """At least :func:`.threat.charge_odds`' value of ``u`` charging ``t`` (``players.melee_odds``
    with ``u`` acting, before the last round): a melee outcome never gives back a model or a pin,
    so ``u``'s side never gains, and ``t``'s side gives at most its :func:`.threat.stake` (its
    points destroyed with every model killed, less what its state already gives away; widened by
    :data:`SLACK` for the law's probabilities summing to 1 only up to rounding)."""
    return max(0.0, threat.stake(threat.placed_at(state, u, None), t)) * (1.0 + SLACK) + SLACK


@dataclass(frozen=True)
class OutlookBound:
    """Upper bounds of :func:`.threat.outlook` of one unit at its candidate ends, by the gap from an
    end to the nearest enemy unit (:meth:`at`)."""

    charges: tuple[tuple[int, float], ...]  # each enemy's charge value, or its bound
    assault: float  # the Assault distance (a charge counts only within it, threat.prospect)
    walk: float  # the Walk before the next shot (threat.shot_prospect)
    cuts: tuple[float, ...]  # the unit's weapon ranges, shortest first (threat.reach_bands)
    shots: tuple[float, ...]  # per band: the greatest shot value in that band or a farther one

    def at(self, state: GameState, u: int, end: tuple[float, float], gap: float) -> float:
        """The bound at ``end``, whose nearest enemy unit is ``gap`` away: every enemy is at least
        as far, so its shot falls in that band or a farther one, and a charge counts only on an
        enemy within the Assault distance of ``end`` (the same tests as the prospects')."""
        band = threat.band_of(self.cuts, gap - self.walk)
        charge = 0.0
        if gap <= self.assault + EPS:
            for t, value in self.charges:
                if value > charge and state.gap(u, t, end) <= self.assault + EPS:
                    charge = value
        return charge + self.shots[band]


def outlook_bound(state: GameState, u: int, odds: Odds) -> OutlookBound:
    """The :class:`OutlookBound` of ``u`` (:func:`.threat.outlook` ``(state, u, end, odds)``);
    infinite when ``u`` carries passengers (their shots are not bounded here)."""
    from grimdice.systems.onepage.game.transport import aboard

    unit = state.setup.units[u]
    walk, assault = move_distance(unit, "walk"), move_distance(unit, "assault")
    if state.place and aboard(state, u):
        return OutlookBound((), math.inf, walk, (), (math.inf,))
    charges = []
    for t in odds.near:
        known = odds.known(t)
        charges.append((t, known if known is not None else charge_bound(state, u, t)))
    cuts, shots = shot_bands(state, u)
    return OutlookBound(tuple(charges), assault, walk, cuts, shots)


def shot_bands(state: GameState, u: int) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """``u``'s weapon ranges (:func:`.threat.reach_bands`' cuts) and, per band of gaps they cut,
    the greatest value :func:`.threat.shot_prospect` can read of any enemy in that band or a
    farther one (0 where it reads none: the last round, an Immobile unit, no ranged weapon)."""
    if not threat.shoots_next(state, u):
        return (), (0.0,)
    bands = threat.reach_bands(state, u)
    cuts = next(iter(bands.values()))[0] if bands else []
    shots = [0.0] * (len(cuts) + 1)
    for _cuts, values in bands.values():
        for i, v in enumerate(values):
            shots[i] = max(shots[i], v)
    for i in range(len(shots) - 2, -1, -1):  # that band or a farther one
        shots[i] = max(shots[i], shots[i + 1])
    return tuple(cuts), tuple(shots)


Kept = dict[int, tuple[Odds, float]]  # each unit's charges (threat.charge_odds) and outlook where it stands


def outlook_here(state: GameState, u: int, kept: Kept) -> tuple[Odds, float]:
    """``u``'s charges (:func:`.threat.charge_odds`) and :func:`.threat.outlook` where it stands,
    read once into ``kept``."""
    got = kept.get(u)
    if got is None:
        odds = threat.charge_odds(state, u)
        got = kept[u] = (odds, threat.outlook(state, u, None, odds))
    return got


def ahead(state: GameState, u: int, end: tuple[float, float], kept: Kept) -> float:
    """The change, from where ``u`` stands to ``end``, of what its next activation offers
    (:func:`.threat.outlook`: its best charge and shot, a transport's passengers' shots); each
    unit's charges and outlook where it stands are read once into ``kept``."""
    odds, here = outlook_here(state, u, kept)
    return threat.outlook(state, u, end, odds) - here


class Later:
    """The Walks and Runs of one decision whose change of outlook (:func:`ahead`) is valued only
    where the move can still be the best (:func:`.choosing.choose`): each is given with an upper
    bound in its place (:meth:`add`), its value in full kept in :attr:`values` under its index."""

    def __init__(self, state: GameState) -> None:
        self.state = state
        self.kept: Kept = {}  # each unit's charges and outlook where it stands (outlook_here)
        self.values: dict[int, Callable[[], float]] = {}
        self._bounds: dict[int, OutlookBound] = {}

    def bound(self, u: int, end: tuple[float, float], gap: float) -> float:
        """At least :func:`ahead` at ``end`` of ``u``, whose nearest enemy unit is ``gap`` away:
        :class:`OutlookBound` less the outlook where ``u`` stands (each unit's read once)."""
        odds, here = outlook_here(self.state, u, self.kept)
        got = self._bounds.get(u)
        if got is None:
            got = self._bounds[u] = outlook_bound(self.state, u, odds)
        return got.at(self.state, u, end, gap) - here

    def add(
        self, i: int, u: int, end: tuple[float, float], gap: float, terms: tuple[float, float, float]
    ) -> float:
        """The move ``i`` of ``u`` to ``end`` (its nearest enemy ``gap`` away), whose value is
        ``(v + reach x ahead) - d`` for ``terms`` ``(v, reach, d)`` (``reach`` >= 0): that
        value's upper bound, the value itself kept in :attr:`values`."""
        v, reach, d = terms
        self.values[i] = partial(_valued, self.state, u, end, self.kept, terms)
        return (v + reach * self.bound(u, end, gap)) - d


def _valued(
    state: GameState, u: int, end: tuple[float, float], kept: Kept, terms: tuple[float, ...]
) -> float:
    v, reach, d = terms
    return (v + reach * ahead(state, u, end, kept)) - d


__all__ = [
    "SLACK",
    "Kept",
    "Later",
    "OutlookBound",
    "ahead",
    "charge_bound",
    "outlook_bound",
    "outlook_here",
    "shot_bands",
]
