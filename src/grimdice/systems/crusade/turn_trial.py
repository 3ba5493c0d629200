"""Monte Carlo of a turn of several rolls sharing the re-rolls (rules-crusade VIII FLAMER TEMPLATE,
RAPID FIRE, REROLL; IX JINK, +F), playing the policy :func:`~.shots.solve_turn` solved.

The turn's rolls are rolled literally and the solved policy (aim, re-rolls, jinks) played for all
trials at once (:class:`~.simulate_walk.Walk`). Each shot is three steps, each keyed by only the
dice it reads (so few distinct steps): the pool rolled (aim), the attacker's re-rolled die, then
the target's jinked die and the force field's red die (the shot's end).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from grimdice.dice.sampler import Sampler
from grimdice.systems.crusade.attack import Attack
from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.rerolls_many import SLOTS, multiset_law, reroll_slot, summary
from grimdice.systems.crusade.rolls import DICE, draw_dice, roll_pool
from grimdice.systems.crusade.shots import Turn
from grimdice.systems.crusade.simulate_walk import R_SIDES, W_SIDES, Walk, digits, pack


def slot_counts(kinds: np.ndarray, faces: np.ndarray, radix: int) -> np.ndarray:
    """Each rolled pool (rows of ``faces``) as its counts per :data:`SLOTS` (kind, face), packed
    as one integer in base ``radix`` (slot 0 the least significant digit; :func:`unpack_slots`)."""
    code = np.zeros(faces.shape[0], dtype=np.int64)
    for j, k in enumerate(kinds):
        place = np.zeros(max(DICE[str(k)].faces) + 1, dtype=np.int64)  # by face: radix ** its slot
        for i, (kk, f) in enumerate(SLOTS):
            if kk == str(k):
                place[f] = radix**i
        code += place[faces[:, j]]
    return code


def unpack_slots(code: int, radix: int) -> tuple[int, ...]:
    """The counts per slot of :func:`slot_counts`."""
    out = []
    for _ in SLOTS:
        code, c = divmod(code, radix)
        out.append(c)
    return tuple(out)


class TurnTrial:
    """The trials of one turn (module docstring): ``policy(k, i, rr, jinks, states, counts, failed,
    who)`` and ``aim(k, rr, jinks, states)`` as :func:`~.shots.solve_turn` returns them. A state
    between shots is ``(k, rr, jinks, states, held)``; within a shot ``("mid", k, rr, jinks, states,
    target, counts, failed)``."""

    def __init__(
        self, atks: list[Attack], turn: Turn, policy: Callable[..., int], aim: Callable[..., int]
    ) -> None:
        self.atks, self.turn, self.policy, self.aim = atks, turn, policy, aim
        self.n = n = len(atks)
        self.radix = len(turn.pool.kinds) + 1
        # the pools a shot may roll, by index (a small key: the walk's look-up table stays dense)
        self.pools = np.array(
            sorted(sum(c * self.radix**j for j, c in enumerate(cs)) for cs in multiset_law(turn.pool))
        )
        # a spare die is read only by the attacker's re-roll (step 0) or a jink (step 1) of its kind
        steps = [x for x, on in ((0, turn.own), (1, bool(turn.jinkers))) if on]
        self.reads = {(str(d), x) for d in set(turn.pool.kinds) for x in steps}
        self.shielded = any(a.dfd.body.force_field for a in atks)  # the red die only against a force field
        self.walk = Walk(
            3 * max(len(self.pools), W_SIDES * R_SIDES * R_SIDES)
        )  # key * 3 + the step (0, 1, 2)
        self.none = (n, 0, 0, 0)  # no damage, no dice (the outputs of a step that ends no shot)

    def reroll(self, mid: tuple, attacker: bool, w: int, r: int) -> tuple:
        """The attacker's re-roll (VIII REROLL) or the target's jink (IX JINK), if the policy takes
        it, with the re-rolled die showing ``w`` (a white) or ``r`` (a red); a fail judged again
        after it (reading ``reroll_fail``)."""
        _, k, rr, jinks, states, i, c, fl = mid
        who = -1 if attacker else i
        if not (rr if who < 0 else (i in self.turn.jinkers and jinks[i])):
            return mid
        a = self.policy(k, i, rr, jinks, states, c, fl, who)
        if a < 0:
            return mid
        c = reroll_slot(c, a, w if SLOTS[a][0] == "W" else r)
        fl = fl or summary(c, False)[2]
        if who < 0:
            rr = False
        else:
            jinks = (*jinks[:i], False, *jinks[i + 1 :])
        return ("mid", k, rr, jinks, states, i, c, fl)

    def step(self, state: tuple, key: int) -> tuple[tuple, tuple[int, ...]]:
        """One step of a shot: ``(next state, (target, damage, failed, dice rolled))``."""
        key, stage = divmod(key, 3)
        if state[0] != "mid" and state[4]:  # done: the attacker held his fire
            return state, self.none
        if stage == 0:
            return self._aimed(state, key)
        if stage == 1:  # the attacker's re-rolled die
            mid = self.reroll(state, True, *divmod(key, R_SIDES))
            return mid, (self.n, 0, 0, int(mid is not state))
        return self._shot_end(state, key)

    def _aimed(self, state: tuple, key: int) -> tuple[tuple, tuple[int, ...]]:
        """The pool rolled: the shot aimed, or fire held (VIII RAPID FIRE, reading ``rapid_fire_aim``)."""
        k, rr, jinks, states, _ = state
        i = self.aim(k, rr, jinks, states)
        if i < 0:
            return (k + 1, rr, jinks, states, True), self.none
        c = unpack_slots(int(self.pools[key]), self.radix)
        return ("mid", k, rr, jinks, states, i, c, summary(c, False)[2]), (self.n, 0, 0, self.turn.pool.n)

    def _shot_end(self, state: tuple, key: int) -> tuple[tuple, tuple[int, ...]]:
        """The target's jinked die (IX JINK), then the total applied, less the force field's red
        die (IX +F)."""
        w, r, g = digits(key, (W_SIDES, R_SIDES, R_SIDES))
        mid = self.reroll(state, False, w, r)
        _, k, rr, jinks, states, i, c, fl = mid
        shield = self.atks[i].dfd.body.force_field
        s, d, _ = self.atks[i].outcome(summary(c, False)[0], g if shield else 0, states[i])
        dice = int(mid is not state) + int(shield)  # the jinked die, the force field's red die
        return (k + 1, rr, jinks, (*states[:i], s, *states[i + 1 :]), False), (i, d, int(fl), dice)

    def __call__(self, sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        """One batch. Drawn ahead, counted where rolled: the pools (not where fire is held), the
        re-rolled dice, the force field's red die."""
        turn, n, shots = self.turn, self.n, len(self.turn.shots)
        rolled = [roll_pool(sampler, turn.pool, size, count=False) for _ in range(shots)]
        spare = {k: draw_dice(sampler, (size, shots, 2), k) for k in DICE}
        ff = draw_dice(sampler, (size, shots), "R")
        out = {k: np.zeros(size, np.int64) for k in ("damage", "models_destroyed", "fail")}
        for i in range(n):
            out[f"dmg{i}"] = np.zeros(size, np.int64)
        start = (0, turn.own, tuple(i in turn.jinkers for i in range(n)), tuple(turn.starts), False)
        zero = np.zeros(size, np.int64)
        cur = self.walk.start(zero, lambda _: start)

        def read(d: str, k: int, x: int) -> np.ndarray:
            """The spare die of kind ``d`` for step ``x`` of shot ``k``, where a step may read it."""
            return spare[d][:, k, x] if (d, x) in self.reads else zero

        for k in range(shots):
            cur = self._shot(sampler, cur, rolled[k], read, k, ff[:, k] if self.shielded else zero, out)
        end = self.walk.table(cur, lambda st: [x for s in st[3] for x in s], 2 * n)
        for i in range(n):
            out[f"cond{i}"], out[f"hits{i}"] = end[2 * i], end[2 * i + 1]
            out["damage"] += out[f"dmg{i}"]
            out["models_destroyed"] += end[2 * i] == KILLED
        return out

    def _shot(self, sampler: Sampler, cur, rolled, read, k: int, red, out) -> np.ndarray:
        """Shot ``k`` of every trial: its three steps, the dice each rolled counted, its damage
        and fail added to ``out``; the state ids after it."""
        walk, step = self.walk, self.step
        kinds, faces = rolled
        rolled_pool = np.searchsorted(self.pools, slot_counts(kinds, faces, self.radix))
        cur, (*_, used) = walk.step(cur, rolled_pool * 3, step, 4)
        sampler.dice += int(used.sum())
        cur, (*_, used) = walk.step(
            cur, pack([read("W", k, 0), read("R", k, 0)], (W_SIDES, R_SIDES)) * 3 + 1, step, 4
        )
        sampler.dice += int(used.sum())
        last = pack([read("W", k, 1), read("R", k, 1), red], (W_SIDES, R_SIDES, R_SIDES))
        cur, (i, d, fl, used) = walk.step(cur, last * 3 + 2, step, 4)
        sampler.dice += int(used.sum())
        out["fail"] += fl
        for j in range(self.n):
            out[f"dmg{j}"] += np.where(i == j, d, 0)
        return cur


__all__ = ["TurnTrial", "slot_counts", "unpack_slots"]
