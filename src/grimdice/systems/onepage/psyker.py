"""Psyker(X): power dice, manifesting and perils, exactly.

"Every round players with one or more units with this special rule in their army receive D3+X
power, ... where X is the total number of Psyker levels in their army, and each player may have a
maximum of 6 power dice for each round." "The player may try to manifest any Psychic Power once
per round by rolling any number of power dice, trying to score a 4+. If the player rolls as many
4+ as the number in brackets he may resolve all effects. If the player rolls two or more 6s then
the manifesting Psyker takes D3 automatic wounds."
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from grimdice.dice import D3, Dist, Joint
from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.units import Unit, UnitState, wound


def power_dice(levels: int) -> Dist:
    """Power dice of a round: D3 + total Psyker levels, at most 6."""
    if levels < 1:
        raise ScenarioError("psyker", "an army with Psykers has at least 1 Psyker level")
    return (D3.dist + levels).clip(high=6)


def manifest(dice: int, need: int) -> Joint:
    """Joint law of (manifested 0/1, perils 0/1) rolling ``dice`` power dice for a power needing
    ``need`` successes (4+). Each die: 4-5 success only, 6 success and a six, 1-3 nothing."""
    if not 1 <= dice <= 6:
        raise ScenarioError("dice", f"1..6 power dice, got {dice}")
    if need < 1:
        raise ScenarioError("need", "a power needs at least 1 success")
    counts = Joint.categorical([2 / 6, 1 / 6, 3 / 6]).repeat(dice)  # (4-5 count, 6 count)
    out: dict[tuple[int, ...], float] = {}
    for (mid, six), p in counts.items():
        key = (int(mid + six >= need), int(six >= 2))
        out[key] = out.get(key, 0.0) + p
    return Joint.from_mapping(out)


def perils_wounds() -> Dist:
    """ "the manifesting Psyker takes D3 automatic wounds"."""
    return D3.dist


@dataclass(frozen=True)
class Casting:
    """A round of casting as a game for :func:`~grimdice.engine.game.expectimax`: the player spends
    power dice on the powers ``needs`` (successes each needs) in turn; perils' D3 wounds accumulate on
    the Psyker (``tough`` wounds kill it and end the casting). Features: powers manifested, wounds
    taken, Psyker killed."""

    pool: int
    needs: tuple[int, ...]
    tough: int = 1
    i: int = 0
    manifested: int = 0
    wounds: int = 0
    dice: int = 0  # dice being rolled (chance node) ...
    perils: bool = False  # ... or perils being resolved

    def current_player(self) -> int:
        if self.perils or self.dice:
            return CHANCE
        if self.wounds >= self.tough or self.i >= len(self.needs) or self.pool == 0:
            return TERMINAL
        return 0

    def legal_actions(self) -> list[int]:
        """Dice to roll for the next power (1..pool), or 0 to skip it; fewer dice preferred on ties."""
        return [*range(1, self.pool + 1), 0]

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        if self.perils:
            return [(k, p) for k, p in perils_wounds().to_dict().items()]
        return list(manifest(self.dice, self.needs[self.i]).items())

    def apply(self, action: object) -> Casting:
        if self.perils:
            assert isinstance(action, int)
            return replace(self, perils=False, wounds=self.wounds + action)
        if self.dice:
            assert isinstance(action, tuple)
            ok, peril = action
            return replace(self, dice=0, i=self.i + 1, manifested=self.manifested + ok, perils=bool(peril))
        assert isinstance(action, int)
        k = action
        if k == 0:
            return replace(self, i=self.i + 1)
        return replace(self, pool=self.pool - k, dice=k)

    def returns(self) -> list[float]:
        return [self.manifested, min(self.wounds, self.tough), float(self.wounds >= self.tough)]


def best_casting(pool: int, needs: tuple[int, ...], tough: int = 1) -> tuple[list[int], list[float]]:
    """The dice to spend on each power, chosen by expectimax to manifest the most powers, then to take
    the fewest perils wounds; returns the dice for the first power along the no-perils line and the
    expected (powers manifested, wounds taken, P(Psyker killed))."""
    from grimdice.engine.game import expectimax

    if not 1 <= pool <= 6:
        raise ScenarioError("pool", f"1..6 power dice, got {pool}")
    root = Casting(pool, tuple(needs), tough)
    sol = expectimax(root, lambda _p, v: (v[0], -v[1]))
    plan, s = [], root
    while s.current_player() == 0:
        k = sol.policy[s]
        plan.append(k)
        s = s.apply(k)
        if s.dice:
            s = s.apply((1, 0))  # follow the line where the power works without perils
        s = replace(s, perils=False)
    return plan, [float(x) for x in sol.value]


def psyker_group(unit: Unit) -> tuple[int, ...]:
    """The model groups of the manifesting Psyker: a joined Psyker (a hero group) if the unit has
    one, else the unit's groups in its first removal order."""
    heroes = tuple(i for i, g in enumerate(unit.groups) if g.hero)
    return heroes if heroes else unit.removal_orders()[0]


def casting_table(
    unit: Unit, state: UnitState, levels: int, dice: int | None, need: int
) -> dict[tuple[int, int, int, int, int, UnitState], float]:
    """One attempt to manifest a power, exactly: {(power dice of the round, dice rolled,
    manifested, perils, perils wounds, Psyker's state): p}. ``dice`` rolled of the round's
    :func:`power_dice` (None: all; at most what the round gives). Perils' "D3 automatic wounds"
    go on the Psyker's model(s) (no block test), accumulated with Tough (reading ``psyker``)."""
    order = psyker_group(unit)
    out: dict[tuple[int, int, int, int, int, UnitState], float] = {}
    for pool, pp in power_dice(levels).to_dict().items():
        k = pool if dice is None else min(dice, pool)
        for (ok, peril), pm in manifest(k, need).items():
            wounds = perils_wounds().to_dict().items() if peril else [(0, 1.0)]
            for w, pw in wounds:
                s = wound(unit, state, w, order) if w else state
                key = (pool, k, ok, peril, w, s)
                out[key] = out.get(key, 0.0) + pp * pm * pw
    return out
