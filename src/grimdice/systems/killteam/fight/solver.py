"""Kill Team 2021 fights solved exactly with optimal play by both sides, layer by layer.

The game (2021 core book, Fight action) is, in order: both sides roll their attack dice (chance);
the attacker chooses its re-rolls seeing both rolls, the re-rolled dice fall (chance), the defender
chooses its re-rolls seeing the attacker's final dice, its re-rolled dice fall (chance); Rending,
attacker then defender; then the deterministic strike/parry resolution
(:class:`~grimdice.systems.killteam.fight.state.ResolutionState`). The order of the re-roll choices
is an unverified reading (``RULES.note("fight_reroll_order")``).

Every choice is made by the player it belongs to, for its own objective (:class:`FightKeys`): the
solution is the subgame-perfect equilibrium, i.e. :func:`grimdice.engine.game.expectimax` on this
game. The resolution step is solved by ``expectimax`` itself (:class:`Resolution`); the roll steps
are evaluated by layers, vectorised over all the dice the other side may hold, which gives the
same values as expectimax would (tested against it and against a brute force) at a fraction of
the cost. Ties go to the objective's tie-break keys, then to the preference order: fewest
re-rolls, then fewest critical and normal hits re-rolled; no Rending; strike before parry, normal
before critical.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from operator import mul
from typing import Any

import numpy as np

from grimdice.dice import Dist
from grimdice.engine.game import lex_better, lex_better_rows
from grimdice.systems.killteam.fight.resolve import FIGHT_TOL, FightKeys, Resolution
from grimdice.systems.killteam.fight.rolls import (
    Keep,
    Roll,
    first_rolls,
    hit_pairs,
    rending_options,
    reroll_law,
    reroll_options,
)
from grimdice.systems.killteam.fight.state import SIDES, Duel, Fighter, Hits, Outcome

#: retained dice of both sides after Rending: (attacker normal, critical, defender normal, critical)
Retained = tuple[int, int, int, int]


@dataclass
class Tables:
    """Lookup tables of the solved policy (for the report and the Monte Carlo engine)."""

    att_rolls: list[tuple[Roll, float]]
    def_rolls: list[tuple[Roll, float]]
    att_opts: list[list[Keep]]
    def_opts: list[list[Keep]]
    att_choice: np.ndarray  # [attacker roll, defender roll] -> option index
    def_choice: np.ndarray  # [attacker normal, attacker critical, defender roll] -> option index
    rend: dict[Retained, Retained]  # dice after re-rolls -> dice retained after Rending
    resolution: Resolution


@dataclass(frozen=True)
class FightSolution:
    """Exact outcome of a fight under the solved (subgame-perfect) policy of both sides.

    ``wounds_left[i, j]``: P(attacker ends with i wounds, defender with j). ``terminals``: law of
    the :class:`Outcome`; ``retained``: law of the dice both sides retain after re-rolls and
    Rending. ``objectives``: each side's objective and achieved value. ``tables`` are the policy
    lookup tables.
    """

    attacker: Fighter
    defender: Fighter
    wounds_left: np.ndarray
    terminals: dict[Outcome, float]
    retained: dict[Retained, float]
    objectives: dict[str, dict[str, Any]]
    tables: Tables = field(repr=False, compare=False)

    @property
    def p_attacker_incapacitated(self) -> float:
        return float(self.wounds_left[0].sum())

    @property
    def p_defender_incapacitated(self) -> float:
        return float(self.wounds_left[:, 0].sum())

    def law(self, f: Any) -> Dist:
        """Law of ``f(outcome)`` (an integer)."""
        return _law(self.terminals, f)

    @property
    def attacker_wounds_left(self) -> Dist:
        return Dist(self.wounds_left.sum(axis=1))

    @property
    def defender_wounds_left(self) -> Dist:
        return Dist(self.wounds_left.sum(axis=0))

    @property
    def damage_dealt(self) -> Dist:
        return self.law(lambda t: self.defender.wounds - t.defender_wounds)

    @property
    def damage_taken(self) -> Dist:
        return self.law(lambda t: self.attacker.wounds - t.attacker_wounds)

    @property
    def attacker_hits(self) -> Dist:
        return _law(self.retained, lambda s: s[0] + s[1])

    @property
    def defender_hits(self) -> Dist:
        return _law(self.retained, lambda s: s[2] + s[3])

    @property
    def critical_strikes(self) -> dict[str, Dist]:
        return {
            "attacker": self.law(lambda t: t.attacker_critical_strikes),
            "defender": self.law(lambda t: t.defender_critical_strikes),
        }

    @property
    def reap_mortal_wounds(self) -> dict[str, Dist]:
        """Per side with Reap x: mortal wounds on each OTHER enemy operative in range."""
        crits = self.critical_strikes
        return {
            side: crits[side].map(partial(mul, f.rules.reap))
            for side, f in zip(SIDES, (self.attacker, self.defender), strict=True)
            if f.rules.reap
        }

    @property
    def apl_lost(self) -> dict[str, Dist]:
        """APL lost by each side to the opponent's Stun (its second critical strike)."""
        att, dfd = self.attacker, self.defender
        return {
            "defender": self.law(lambda t: int(att.rules.stun and t.attacker_critical_strikes >= 2)),
            "attacker": self.law(lambda t: int(dfd.rules.stun and t.defender_critical_strikes >= 2)),
        }


def solve_fight(attacker: Fighter, defender: Fighter) -> FightSolution:
    """Solve the fight exactly: both sides' optimal re-rolls, Rending and strike/parry choices."""
    duel = Duel(attacker, defender)
    keys = FightKeys(duel)
    resolution = Resolution(duel, keys)
    n_att, n_def = attacker.attacks, defender.attacks

    # Rending (attacker, then defender, each seeing the other's dice), then the resolution
    rend: dict[Retained, Retained] = {}
    after_rerolls = np.zeros((n_att + 1, n_att + 1, n_def + 1, n_def + 1, 6))
    for a_hits in hit_pairs(n_att):
        for d_hits in hit_pairs(n_def):
            best = None
            for a_rend in rending_options(attacker, a_hits):
                best_d = None
                for d_rend in rending_options(defender, d_hits):
                    q = resolution.features(a_rend, d_rend)
                    if best_d is None or lex_better(keys(1, q), keys(1, best_d[1]), FIGHT_TOL):
                        best_d = ((*a_rend, *d_rend), q)
                assert best_d is not None
                if best is None or lex_better(keys(0, best_d[1]), keys(0, best[1]), FIGHT_TOL):
                    best = best_d
            assert best is not None
            rend[(*a_hits, *d_hits)] = best[0]
            after_rerolls[(*a_hits, *d_hits)] = best[1]

    att_rolls, def_rolls = first_rolls(attacker), first_rolls(defender)
    laws_a = [reroll_law(k, attacker) for k in range(n_att + 1)]
    laws_d = [reroll_law(k, defender) for k in range(n_def + 1)]

    # defender's re-rolls, knowing the attacker's final (normal, critical)
    def_means = _option_means(after_rerolls, laws_d, n_def, axis=2)
    def_opts = [reroll_options(defender, r) for r, _ in def_rolls]
    def_values = np.zeros((n_att + 1, n_att + 1, len(def_rolls), 6))
    def_choice = np.zeros((n_att + 1, n_att + 1, len(def_rolls)), dtype=np.int64)
    for j, opts in enumerate(def_opts):
        def_values[:, :, j], def_choice[:, :, j] = _choose([def_means[o] for o in opts], keys, 1)

    # attacker's re-rolls, seeing both rolls
    att_means = _option_means(def_values, laws_a, n_att, axis=0)
    att_opts = [reroll_options(attacker, r) for r, _ in att_rolls]
    att_choice = np.zeros((len(att_rolls), len(def_rolls)), dtype=np.int64)
    for i, opts in enumerate(att_opts):
        _, att_choice[i] = _choose([att_means[o] for o in opts], keys, 0)

    # forward propagation of the dice law through the chosen re-rolls and Rending
    p_att = np.array([p for _, p in att_rolls])
    p_def = np.array([p for _, p in def_rolls])
    att_final = np.zeros((n_att + 1, n_att + 1, len(def_rolls)))
    for i, opts in enumerate(att_opts):
        for j in range(len(def_rolls)):
            _spread(att_final[:, :, j], opts[att_choice[i, j]], laws_a, p_att[i] * p_def[j])
    final = np.zeros((n_att + 1, n_att + 1, n_def + 1, n_def + 1))
    for a_hits in hit_pairs(n_att):
        for j, opts in enumerate(def_opts):
            if att_final[(*a_hits, j)]:
                _spread(final[a_hits], opts[def_choice[(*a_hits, j)]], laws_d, att_final[(*a_hits, j)])
    terminals: dict[Outcome, float] = {}
    retained: dict[Retained, float] = {}
    for idx in zip(*np.nonzero(final), strict=True):
        i0, i1, i2, i3 = (int(v) for v in idx)
        s = rend[(i0, i1, i2, i3)]
        retained[s] = retained.get(s, 0.0) + final[idx]
        t = resolution.outcome(Hits(s[0], s[1]), Hits(s[2], s[3]))
        terminals[t] = terminals.get(t, 0.0) + final[idx]
    tables = Tables(att_rolls, def_rolls, att_opts, def_opts, att_choice, def_choice, rend, resolution)
    grid = np.zeros((attacker.wounds + 1, defender.wounds + 1))
    for t, p in terminals.items():
        grid[t.attacker_wounds, t.defender_wounds] += p
    q = sum(
        (p * np.array([t[0], t[1], t[0] == 0, t[1] == 0, t[2], t[3]], float) for t, p in terminals.items()),
        np.zeros(6),
    )
    return FightSolution(attacker, defender, grid, terminals, retained, keys.report(q), tables)


def _option_means(values: np.ndarray, laws: list[np.ndarray], n: int, axis: int) -> dict[Keep, np.ndarray]:
    """For every re-roll choice :class:`Keep` of a side with ``n`` dice, the expected value of
    ``values`` (the side's retained (normal, critical) on axes ``axis, axis+1``) over the dice."""
    moved = np.moveaxis(values, (axis, axis + 1), (0, 1))
    out = {}
    for k in range(n + 1):
        for kept in hit_pairs(n - k):
            acc = 0.0
            for x, y in hit_pairs(k):
                if laws[k][x, y]:
                    acc = acc + laws[k][x, y] * moved[kept.normal + x, kept.critical + y]
            out[Keep(kept.normal, kept.critical, k)] = np.asarray(acc)
    return out


def _choose(cands: list[np.ndarray], keys: FightKeys, side: int) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise the first candidate (in preference order) with the best keys for ``side``."""
    best = np.array(cands[0], dtype=float)
    idx = np.zeros(best.shape[:-1], dtype=np.int64)
    for i, c in enumerate(cands[1:], 1):
        m = lex_better_rows(keys.rows(c, side), keys.rows(best, side), FIGHT_TOL)
        best[m] = c[m]
        idx[m] = i
    return best, idx


def _spread(target: np.ndarray, keep: Keep, laws: list[np.ndarray], weight: float) -> None:
    law = laws[keep.rerolled]
    for x, y in hit_pairs(keep.rerolled):
        target[keep.normal + x, keep.critical + y] += weight * law[x, y]


def _law(table: dict, f: Any) -> Dist:
    out: dict[int, float] = {}
    for t, p in table.items():
        v = int(f(t))
        out[v] = out.get(v, 0.0) + p
    top = max(out) if out else 0
    pmf = np.zeros(top + 1)
    for v, p in out.items():
        pmf[v] += p
    return Dist(pmf)


__all__ = ["FightSolution", "Tables", "solve_fight"]
