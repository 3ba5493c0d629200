"""The Resolve Successful Hits step solved for both sides' objectives.

Each side's :class:`~grimdice.systems.killteam.fight.state.Objective` is a list of lexicographic
keys, each a linear function of the fight's features (wounds left, incapacitated, critical strikes
of each side; see :meth:`ResolutionState.returns`). :class:`FightKeys` holds them once and reads
them both per state (for :func:`grimdice.engine.game.expectimax`) and on arrays of states (for the
roll step's vectorised choices). :class:`Resolution` solves the strike/parry game from every pair
of dice both sides may retain at once, by vectorised layers of positions
(:mod:`~grimdice.systems.killteam.fight.layers`): the same values, moves and tie-break as
``expectimax`` on :class:`ResolutionState` (tested on seeded random fights).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np

from grimdice.systems.killteam.fight.layers import (
    END,
    Layers,
    objective_radix,
    played,
    radix_of,
    solve_layers,
    start_rows,
)
from grimdice.systems.killteam.fight.state import (
    MOVE_TEXT,
    OBJECTIVE_KEYS,
    SIDES,
    Duel,
    Hits,
    Move,
    Outcome,
    ResolutionState,
)

#: key values closer than this are equal when a side chooses (then the preference order decides)
FIGHT_TOL = 1e-9

_KEY_TEXT = {
    "kill": "p_enemy_incapacitated",
    "dealt": "expected_damage_dealt",
    "-taken": "expected_damage_taken",
    "-dead": "p_incapacitated",
    "crits": "expected_critical_strikes",
}


class FightKeys:
    """The objective keys of both sides: ``key = sign * features[index] + offset``."""

    def __init__(self, duel: Duel) -> None:
        self.objectives = (duel.attacker.objective, duel.defender.objective)
        wounds = (duel.attacker.wounds, duel.defender.wounds)
        self.terms: list[list[tuple[int, int, int]]] = []
        for side in (0, 1):
            other = 1 - side
            table = {
                "kill": (2 + other, 1, 0),  # P(enemy incapacitated)
                "dealt": (other, -1, wounds[other]),  # wounds the enemy lost
                "-taken": (side, 1, -wounds[side]),  # minus wounds lost
                "-dead": (2 + side, -1, 0),  # minus P(own operative incapacitated)
                "crits": (4 + side, 1, 0),  # own critical strikes
            }
            self.terms.append([table[k] for k in OBJECTIVE_KEYS[self.objectives[side]]])
        self._arrays = [tuple(np.array(col) for col in zip(*t, strict=True)) for t in self.terms]

    def __call__(self, side: int, features: np.ndarray | Sequence[float]) -> tuple[float, ...]:
        """The keys ``side`` maximises, for one feature vector (the expectimax objective)."""
        q = features.tolist() if isinstance(features, np.ndarray) else features
        return tuple([sign * q[i] + offset for i, sign, offset in self.terms[side]])

    def rows(self, features: np.ndarray, side: int) -> np.ndarray:
        """The keys of ``side`` for an array of feature vectors (features on the last axis)."""
        index, sign, offset = self._arrays[side]
        return features[..., index] * sign + offset

    def report(self, features: np.ndarray) -> dict[str, dict[str, Any]]:
        """Each side's objective and the value of its first key (and its tie-break)."""
        out: dict[str, dict[str, Any]] = {}
        for side, name in enumerate(SIDES):
            keys = self.rows(np.asarray(features, dtype=float), side)
            names = OBJECTIVE_KEYS[self.objectives[side]]
            out[name] = {"objective": self.objectives[side].value}
            for n, v in zip(names[:2], keys[:2], strict=True):
                out[name][_KEY_TEXT[n]] = float(abs(v) if n.startswith("-") else v)
        return out


class Resolution:
    """The resolution step of one fight from every pair of retained dice, solved at once by
    :func:`~grimdice.systems.killteam.fight.layers.solve_layers` (the same positions, moves and
    tie-break as :func:`~grimdice.engine.game.expectimax` on :class:`ResolutionState`)."""

    def __init__(self, duel: Duel, keys: FightKeys) -> None:
        self.duel = duel
        self.keys = keys
        self.bounds = (-1, -1)
        self.layers: Layers | None = None
        self._ends = np.zeros((0, 0, 0, 0, 4), dtype=np.int64)
        self._policy: dict[ResolutionState, Move] | None = None

    def solve(self, n_att: int, n_def: int) -> None:
        """Solve from every pair of retained dice with at most ``n_att`` / ``n_def`` dice a side."""
        if n_att <= self.bounds[0] and n_def <= self.bounds[1]:
            return
        n_att, n_def = max(n_att, self.bounds[0]), max(n_def, self.bounds[1])
        duel = self.duel
        starts = start_rows(duel, n_att, n_def)
        terms = objective_radix(duel, self.keys.terms, n_att, n_def)
        self.layers = solve_layers(duel, starts, radix_of(duel, n_att, n_def), terms)
        ends = np.zeros((4, starts.shape[1]), dtype=np.int64)
        ends[0], ends[1] = duel.attacker.wounds, duel.defender.wounds
        going = starts[0] != END
        ends[:, going] = self.layers.ends(starts[:, going])
        self._ends = np.zeros((n_att + 1, n_att + 1, n_def + 1, n_def + 1, 4), dtype=np.int64)
        self._ends[starts[1], starts[2], starts[3], starts[4]] = ends.T
        self.bounds = (n_att, n_def)
        self._policy = None

    def feature_grid(self, n_att: int, n_def: int) -> np.ndarray:
        """``grid[an, ac, dn, dc]``: the features of the fight's end from those retained dice
        (zeros where a side would hold more dice than ``n_att`` / ``n_def``)."""
        self.solve(n_att, n_def)
        e = self._ends[: n_att + 1, : n_att + 1, : n_def + 1, : n_def + 1]
        wa, wd = e[..., 0], e[..., 1]
        return np.stack([wa, wd, wa == 0, wd == 0, e[..., 2], e[..., 3]], axis=-1).astype(np.float64)

    @property
    def ends(self) -> np.ndarray:
        """``ends[an, ac, dn, dc]``: the fight's end (:class:`Outcome` fields) from those retained
        dice, within the dice solved."""
        return self._ends

    def features(self, attacker: Hits, defender: Hits) -> np.ndarray:
        """Features of the fight's end under both sides' best play from these retained dice."""
        t = self.outcome(attacker, defender)
        return np.array([t[0], t[1], t[0] == 0, t[1] == 0, t[2], t[3]], dtype=np.float64)

    def outcome(self, attacker: Hits, defender: Hits) -> Outcome:
        """How the fight ends (the resolution is deterministic once the dice are known)."""
        self.solve(attacker[0] + attacker[1], defender[0] + defender[1])
        e = self._ends[attacker[0], attacker[1], defender[0], defender[1]]
        return Outcome(int(e[0]), int(e[1]), int(e[2]), int(e[3]))

    def moves(self, rows: np.ndarray) -> np.ndarray:
        """The move the solved policy plays at each position (columns of ``rows``, as
        :mod:`~grimdice.systems.killteam.fight.layers` rows, every one reachable from retained
        dice already solved)."""
        assert self.layers is not None
        return self.layers.moves(rows)

    def _walk(self, starts: np.ndarray) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]]:
        """Follow the solved moves from ``starts``: per step, the positions, the critical strikes
        made so far, the moves chosen and the column of ``starts`` each position comes from."""
        assert self.layers is not None
        going = starts[0] != END
        rows, origin = starts[:, going], np.flatnonzero(going)
        strikes = np.zeros((2, rows.shape[1]), dtype=np.int64)
        while rows.shape[1]:
            moves = self.layers.moves(rows)
            yield rows, strikes, moves, origin
            nxt = played(self.duel, rows, moves)[0]
            strikes = strikes.copy()
            strikes[rows[0], np.arange(rows.shape[1])] += moves == Move.STRIKE_CRIT
            going = nxt[0] != END
            rows, strikes, origin = nxt[:, going], strikes[:, going], origin[going]

    @property
    def policy(self) -> dict[ResolutionState, Move]:
        """The move chosen at every position reached under the solved play from every pair of
        retained dice solved, as :class:`ResolutionState` values."""
        if self._policy is None:
            self.solve(0, 0)
            out: dict[ResolutionState, Move] = {}
            for rows, strikes, moves, _ in self._walk(start_rows(self.duel, *self.bounds)):
                for r, st, m in zip(rows.T.tolist(), strikes.T.tolist(), moves.tolist(), strict=True):
                    state = ResolutionState(
                        self.duel, r[0], (Hits(r[1], r[2]), Hits(r[3], r[4])), (r[5], r[6]), (st[0], st[1])
                    )
                    out[state] = Move(m)
            self._policy = out
        return self._policy

    def line(self, attacker: Hits, defender: Hits) -> list[str]:
        """The moves both sides play from these retained dice, in words."""
        return self.lines([(attacker, defender)])[0]

    def lines(self, pairs: Sequence[tuple[Hits, Hits]]) -> list[list[str]]:
        """:meth:`line` for each pair of retained dice, all walked at once."""
        if not pairs:
            return []
        self.solve(max(a[0] + a[1] for a, _ in pairs), max(d[0] + d[1] for _, d in pairs))
        start = np.repeat(start_rows(self.duel, 0, 0), len(pairs), axis=1)
        for i, (attacker, defender) in enumerate(pairs):
            start[1:5, i] = (*attacker, *defender)
            start[0, i] = 0 if attacker[0] + attacker[1] else 1 if defender[0] + defender[1] else END
        out: list[list[str]] = [[] for _ in pairs]
        going = np.flatnonzero(start[0] != END)
        assert self.layers is not None
        for origin, sides, moves in self.layers.follow(start[:, going]):
            for i, side, m in zip(going[origin].tolist(), sides.tolist(), moves.tolist(), strict=True):
                out[i].append(f"{SIDES[side]} {MOVE_TEXT[m]}")
        return out
