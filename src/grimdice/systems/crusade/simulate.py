"""Monte Carlo for Rules Crusade: every die rolled literally (the pools, the re-rolled dice, the
force field's red die), the decisions played by the exact solution's policy (compiled to tables,
:class:`Play`), through :meth:`~grimdice.engine.options.RunOptions.run`.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property, lru_cache

import numpy as np

from grimdice.dice.sampler import Sampler
from grimdice.engine.montecarlo import Tally
from grimdice.engine.options import RunOptions
from grimdice.result import Result
from grimdice.systems.crusade.attack import THROWN, Attack, state_code
from grimdice.systems.crusade.contest import P_END, P_PARRY, Key, Solved, solve
from grimdice.systems.crusade.damage import CONDITIONS, KILLED
from grimdice.systems.crusade.mob import counts
from grimdice.systems.crusade.report import build_result
from grimdice.systems.crusade.rolls import DICE, SIDES, roll_dice, roll_into_law
from grimdice.systems.crusade.simulate_walk import R_SIDES

NAMES = (
    "def_condition",
    "def_hits_left",
    "att_condition",
    "att_hits_left",
    "damage",
    "att_damage",
    "att_fail",
    "def_fail",
    "parry",
    "att_reroll",
    "def_reroll",
    "pull_back",
    "tie",
    "big_kill",
    "throw",
    "att_state",  # the attacker's end state as one code (tracked where a weapon used may EXPLODE)
    "att_state_failed",  # the same where his roll failed, else past the end (not counted)
    "def_state",  # the defender's end state as one code (tracked where his melee weapon may EXPLODE)
    "def_state_failed",  # the same where his roll failed, else past the end (not counted)
    "def_state_att_failed",  # the target's state where the attacker's roll failed (he is near the bearer)
    "mob_killed",  # IX MOB: how many of the mob are killed
    "mob_ko",  # ... KO'd or killed
)


class Play:
    """The trial function: the solved contest compiled to dense tables once, then
    applied to whole blocks by gathers. Each pool is rolled literally into the index of its
    statistic in the exact law (:func:`~.rolls.roll_into_law`); ``first[a * nd + d]`` is the state the
    solved policy reaches from the two rolls, a re-roll state or a finished contest; a re-roll
    state's die is rolled for the trials there only and ``after[(state - ends) * 6 + face]`` steps
    them on (at most the attacker's and the defender's re-roll). A trial's outcome is one code,
    the finished contest and the force fields' red dice (IX +F); every output's histogram is read
    from the codes' after the run (:meth:`counts`), so the tables are fixed before any block runs
    and the same in every worker."""

    def __init__(self, atk: Attack, sol: Solved) -> None:
        self.atk = atk
        game = self.game = sol.game
        spec = atk.spec
        start = sol.root
        parry = sol.policy[start] if start[0] == P_PARRY else start[1]
        ends: dict[Key, int] = {}  # finished contests -> node id 0..
        rerolls: dict[Key, int] = {}  # re-roll states -> -1 - their number (renumbered after the ends)
        todo: list[Key] = []

        def node(key: Key) -> int:
            key = game.settle(key, sol.policy)
            if key[0] == P_END:
                return ends.setdefault(key, len(ends))
            k = rerolls.get(key)
            if k is None:
                k = rerolls[key] = -1 - len(todo)
                todo.append(key)
            return k

        na, nd = (len(law) for law in game.laws)
        first = [node(game.rolled(parry, i, j)) for i in range(na) for j in range(nd)]
        after: list[int] = []
        for key in todo:  # grows while it is walked: the states the re-rolled dice lead to
            after.extend(node(game.rerolled(key, g)) for g in DICE[game.reroll_kind(key)].faces)
        self.ends = list(ends)
        n = len(self.ends)
        self.first = _renumber(first, n)
        self.after = _renumber(after, n)
        self.nd = nd
        self.pools = (spec.att.pool, spec.dfd.pool)
        self.ff = (len(atk.ff_att) > 1, len(atk.ff_def) > 1)  # IX +F: a red die off the damage
        self.used = [(j, name) for j, name in enumerate(NAMES) if name in spec.layout.slices]

    def __call__(self, sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        track, ends = self.game.track, len(self.ends)
        a = roll_into_law(sampler, self.pools[0], size, track)
        d = roll_into_law(sampler, self.pools[1], size, track)
        a *= self.nd
        a += d
        cur = self.first.take(a)
        for _ in range(2):  # the attacker's re-roll, then the defender's: the die rolled where taken
            at = np.flatnonzero(cur >= ends)
            if not at.size:
                break
            step = cur.take(at)
            step -= ends
            step *= SIDES
            step += sampler.draw(at.size, SIDES)
            sampler.dice += at.size
            cur[at] = self.after.take(step)
        for shielded in self.ff:
            if shielded:
                cur *= R_SIDES
                cur += roll_dice(sampler, size, "R")
        return {"code": cur}

    def counts(self, tally: Tally) -> dict[str, np.ndarray]:
        """Each output's histogram (as :class:`Tally` counts) from the tally of the codes."""
        c = tally.counts["code"]
        codes = np.flatnonzero(c)
        rows = np.array([self._row(int(k)) for k in codes], dtype=np.int64).reshape(len(codes), -1)
        out = {}
        for j, name in self.used:
            h = np.zeros(int(rows[:, j].max(initial=0)) + 1, dtype=np.int64)
            np.add.at(h, rows[:, j], c[codes])
            out[name] = h
        return out

    def _row(self, code: int) -> tuple[int, ...]:
        """The outputs (:data:`NAMES`) of one code: a finished contest and the force field dice."""
        ff = [0, 0]
        for side in (1, 0):
            if self.ff[side]:
                code, ff[side] = divmod(code, R_SIDES)
        return self._outputs(self.ends[code], ff[0], ff[1])

    @cached_property
    def _outputs(self) -> Callable[[Key, int, int], tuple[int, ...]]:
        atk, game = self.atk, self.game
        lay = atk.spec.layout
        outcome = lru_cache(maxsize=None)(atk.outcome)
        shooting = not atk.spec.dfd.pool.n
        # past the last state code of a side: a roll that did not fail (not counted)
        past = {
            side: len(CONDITIONS) * len(range(lay.size)[lay.slices[f"{side}_hits_left"]])
            for side in ("att", "def")
        }

        def mob_counts(at: int, dt: int, parry: int, pull: int, lead) -> tuple[int, int]:
            """IX MOB: the mob killed, KO'd or killed (the lead attacker's end state as played)."""
            return counts((lead, *atk.mob(at, dt, parry, pull)[1:])) if atk.mob else (0, 0)

        def outputs(key: Key, fa: int, fd: int) -> tuple[int, ...]:
            _, parry, ia, id_, arr, drr = key
            a, d = game.faces[0][ia], game.faces[1][id_]
            pull = atk.options(a.total, d.total, parry)
            if not shooting:
                ds, as_, dmg, admg, tie = outcome(a.total, d.total, parry, pull, fa, fd)
            else:
                ds, dmg, tie = outcome(a.total, fd)
                as_, admg = atk.att.start, 0
            big = int(ds[0] == KILLED and dmg >= 2)
            d_fail = int(d.failed) if d.n else 0
            pulled = int(0 <= pull < 99)  # a throw (pull -1) is not a pull-back
            a_state, d_state = state_code(lay, "att", as_), state_code(lay, "def", ds)
            return (ds[0], ds[1], as_[0], as_[1], dmg, admg, int(a.failed), d_fail,
                    int(parry > 0), arr, drr, pulled, int(tie), big,
                    THROWN.get(pull, 0), a_state,
                    a_state if a.failed else past["att"], d_state,
                    d_state if d_fail else past["def"],
                    d_state if a.failed else past["def"],
                    *mob_counts(a.total, d.total, parry, pull, as_))  # fmt: skip

        return outputs


def _renumber(nodes: list[int], ends: int) -> np.ndarray:
    """Node ids: finished contests ``0..ends-1``, re-roll states (written ``-1 - k``) ``ends + k``."""
    a = np.array(nodes, dtype=np.intp)
    return np.where(a < 0, ends - 1 - a, a)


def simulated_result(atk: Attack, options: RunOptions, title: str = "") -> Result:
    play = Play(atk, solve(atk.spec))  # the policy both sides play, compiled
    tally = options.run(play)
    counts = play.counts(tally)
    lay = atk.spec.layout
    v = np.zeros(lay.size)
    for name, c in counts.items():
        s = lay.slices[name]
        width = s.stop - s.start
        freq = np.zeros(width)
        freq[: min(width, c.size)] = c[:width] / tally.trials
        v[s] = freq
    return build_result(atk, v, "simulated", title, {}, trials=tally.trials, seed=options.seed)
