"""Several rolls in one turn sharing the re-rolls (rules-crusade VIII FLAMER TEMPLATE, RAPID FIRE,
REROLL; IX JINK).

VIII FLAMER TEMPLATE: "Roll seperately for each target touched by the template"; RAPID FIRE: "May
fire weapon twice"; REROLL: "may reroll one of your attack dice once per turn"; IX JINK: "may
reroll 1 enemy die when fired upon ... once per turn". So one re-roll of the attacker and one jink
of each target serve all the rolls of the turn. Reading ``shots_in_turn`` (unverified): the rolls
are made and resolved one after the other, in the order of the targets (RAPID FIRE at one target:
the second shot on the state the first left); after each roll the attacker may spend his re-roll
on one of its dice, then the target shot at, if it may jink and has not, one of the attacker's dice
of that roll; each side may keep its re-roll for a later roll. The attacker maximises, summed over
the targets at the end of the turn, P(killed), then P(KO or killed), then the expected damage, then
avoids fails; a jinking target minimises its own P(killed), P(KO or killed), expected damage. Every
die is a choice (the faces as counts per :data:`~.rerolls_many.SLOTS` slot); a fail is judged on
each roll and again after a re-roll (reading ``reroll_fail``). Solved by backward induction; the law
of the end of the turn is carried forward under the solved policy, which Monte Carlo also plays.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from itertools import chain

import numpy as np

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import KILLED, State
from grimdice.systems.crusade.rerolls_many import (
    MAX_WORK,
    SLOTS,
    Counts,
    best_for,
    multiset_law,
    rerolled,
    roll_law,
    side_key,
    summary,
    terminal_value,
)
from grimdice.systems.crusade.rolls import Pool

Outcome = Callable[[int, int, State], list[tuple[float, State, int]]]  # (target, total, start) -> law


#: (attacker's re-roll left, jinks left, states, damage per target, failed rolls)
_LawKey = tuple[bool, tuple[bool, ...], tuple[State, ...], tuple[int, ...], int]


def _mix(weighted: Iterable[tuple[float, np.ndarray]]) -> np.ndarray:
    """The probability-weighted sum of value vectors."""
    it = iter(weighted)
    p, v = next(it)
    out = p * v
    for p, v in it:
        out = out + p * v
    return out


@dataclass(frozen=True)
class Turn:
    """The rolls of a turn: ``shots[k]`` is the target of roll k, unless ``aim``: then (VIII RAPID
    FIRE, reading ``rapid_fire_aim``) the attacker picks each roll's target among the targets still
    alive before it is rolled, after seeing the earlier rolls, or holds his fire (no roll)."""

    pool: Pool
    shots: tuple[int, ...]
    starts: tuple[State, ...]
    own: bool  # the attacker may re-roll one die this turn
    jinkers: tuple[int, ...]  # the targets that may jink
    aim: bool = False


def _total_law(pool: Pool) -> dict[tuple[int, bool], float]:
    """The law of (total, failed) of a roll nobody may re-roll."""
    out: dict[tuple[int, bool], float] = defaultdict(float)
    for (t, _, fl), p in roll_law(pool).items():
        out[(t, fl)] += p
    return dict(out)


def _spent(who: int, i: int, rr: bool, jinks: tuple[bool, ...]) -> tuple[bool, tuple[bool, ...]]:
    """(attacker's re-roll, jinks) once ``who`` has re-rolled: VIII REROLL and IX JINK are each
    "once per turn" (who: -1 the attacker, else target ``i``)."""
    return (False, jinks) if who < 0 else (rr, (*jinks[:i], False, *jinks[i + 1 :]))


def _check_work(turn: Turn, faces: int) -> None:
    """Refuse a turn too large to solve exactly, before the work."""
    work = faces * len(turn.shots) * (int(turn.own) + len(turn.jinkers))
    if work > MAX_WORK:
        raise ScenarioError(
            "attacker.weapons",
            f"{turn.pool.text} over {len(turn.shots)} rolls with re-rolls is too large to solve exactly "
            f"({faces} face sets x {len(turn.shots)} rolls x re-rolling sides = {work}, at most "
            f"{MAX_WORK}); use fewer dice, targets or re-rolls",
        )


class _TurnSolver:
    """Backward induction over the rolls of one turn, then the law of its end carried forward under
    the solved policy (the reading in the module docstring). Each instance holds its own caches."""

    def __init__(self, turn: Turn, outcome: Outcome) -> None:
        self.turn, self.outcome, self.n = turn, outcome, len(turn.starts)
        self.start_law = multiset_law(turn.pool)
        self.plain = _total_law(turn.pool)
        _check_work(turn, len(self.start_law))
        self.jinks0 = tuple(i in turn.jinkers for i in range(self.n))
        self.aimed = cache(self._aimed)
        self.decide = cache(self._decide)
        self.resolve = cache(self._resolve)

    def may_reroll(self, i: int, rr: bool, jinks: tuple[bool, ...]) -> bool:
        """Whether anyone may re-roll a die of a roll at target ``i``: the attacker's VIII REROLL
        is left, or target ``i`` may IX JINK and has not."""
        return rr or (i in self.turn.jinkers and jinks[i])

    def _aimed(
        self, k: int, rr: bool, jinks: tuple[bool, ...], states: tuple[State, ...]
    ) -> tuple[np.ndarray, int]:
        """(expected [per target: killed, KO+, damage from here] + [fails from here] from roll k on,
        the target of roll k or -1: held). VIII RAPID FIRE aimed (reading ``rapid_fire_aim``): the
        attacker picks a live target or holds his fire."""
        turn, n = self.turn, self.n
        if k == len(turn.shots):
            return terminal_value(states), -1
        if not turn.aim:
            return self.shot(k, turn.shots[k], rr, jinks, states), turn.shots[k]
        held = [(-1, terminal_value(states))]  # hold fire: no more rolls this turn
        live = ((i, self.shot(k, i, rr, jinks, states)) for i in range(n) if states[i][0] != KILLED)
        return best_for(-1, chain(held, live), n)  # a dead target takes no more damage

    def shot(
        self, k: int, i: int, rr: bool, jinks: tuple[bool, ...], states: tuple[State, ...]
    ) -> np.ndarray:
        """The value of roll k at target ``i``: over the totals when nobody may re-roll, else over
        the face sets, each side then choosing its re-roll (VIII REROLL, IX JINK)."""
        if not self.may_reroll(i, rr, jinks):
            return _mix(
                (p, self.resolve(k, i, rr, jinks, states, t, fl)) for (t, fl), p in self.plain.items()
            )
        return _mix(
            (p, self.decide(k, i, rr, jinks, states, c, False, -1)[0]) for c, p in self.start_law.items()
        )

    def _decide(self, k, i, rr, jinks, states, c: Counts, failed: bool, who: int) -> tuple[np.ndarray, int]:
        """(value, slot re-rolled or -1) at the re-roll of ``who`` (-1 the attacker, then the target):
        VIII REROLL "may reroll one of your attack dice", IX JINK "may reroll 1 enemy die"."""
        n = self.n
        failed = failed or summary(c, False)[2]
        may = rr if who < 0 else jinks[i]
        nxt_who = i if who < 0 and i in self.turn.jinkers else None
        best_v = self.after(k, i, rr, jinks, states, c, failed, nxt_who)
        best_a, best_k = -1, side_key(who, best_v, n)
        if may:
            for slot in range(len(SLOTS)):
                if not c[slot]:
                    continue
                rr2, jinks2 = _spent(who, i, rr, jinks)
                v = _mix(
                    (p, self.after(k, i, rr2, jinks2, states, c2, failed, nxt_who))
                    for c2, p in rerolled(c, slot)
                )
                key = side_key(who, v, n)
                if key > best_k:
                    best_v, best_a, best_k = v, slot, key
        return best_v, best_a

    def after(self, k, i, rr, jinks, states, c, failed, nxt_who) -> np.ndarray:
        """The value once ``who`` has chosen: the target's jink next, if it may, else the roll's
        total resolved (a fail judged again after a re-roll, reading ``reroll_fail``)."""
        if nxt_who is not None:
            return self.decide(k, i, rr, jinks, states, c, failed, nxt_who)[0]
        fl = failed or summary(c, False)[2]
        return self.resolve(k, i, rr, jinks, states, summary(c, False)[0], fl)

    def _resolve(self, k, i, rr, jinks, states, total: int, failed: bool) -> np.ndarray:
        """The value of roll k's ``total`` at target ``i``: its damage (the system's outcome), then
        the rest of the turn on the state it leaves."""
        n = self.n
        v = np.zeros(3 * n + 1)
        v[-1] = failed
        for q, s, dmg in self.outcome(i, total, states[i]):
            w = self.aimed(k + 1, rr, jinks, (*states[:i], s, *states[i + 1 :]))[0].copy()
            w[3 * i + 2] += dmg
            v += q * w
        return v

    def end_law(self) -> tuple[dict[tuple, float], dict[str, dict[str, float]]]:
        """(law of (end states, damage per target, failed rolls), how often each side re-rolled
        which die and where each roll was aimed) under the solved policy."""
        turn = self.turn
        used: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
        law: dict[_LawKey, float] = {(turn.own, self.jinks0, turn.starts, (0,) * self.n, 0): 1.0}
        for k in range(len(turn.shots)):
            law = self._next_law(k, law, used)
        final: dict[tuple, float] = defaultdict(float)
        for (_, _, states, dmgs, fails), p in law.items():
            final[(states, dmgs, fails)] += p
        return dict(final), {who: dict(sorted(d.items())) for who, d in used.items()}

    def _next_law(
        self, k: int, law: dict[_LawKey, float], used: dict[str, dict[str, float]]
    ) -> dict[_LawKey, float]:
        """The law after roll k: aimed (or held), rolled, re-rolled by each side, resolved."""
        nxt: dict[_LawKey, float] = defaultdict(float)
        for (rr, jinks, states, dmgs, fails), p0 in law.items():
            i = self.aimed(k, rr, jinks, states)[1]
            if self.turn.aim:
                used["aim"][f"roll {k + 1}: " + ("held" if i < 0 else f"target {i}")] += p0
            if i < 0:
                nxt[(rr, jinks, states, dmgs, fails)] += p0
                continue
            for t, fl, r, j, p in self._rolled(k, i, rr, jinks, states, p0, used):
                for q, s, dmg in self.outcome(i, t, states[i]):
                    st2 = (*states[:i], s, *states[i + 1 :])
                    d2 = (*dmgs[:i], dmgs[i] + dmg, *dmgs[i + 1 :])
                    nxt[(r, j, st2, d2, fails + int(fl))] += p * q
        return nxt

    def _rolled(
        self, k, i, rr, jinks, states, p0: float, used
    ) -> list[tuple[int, bool, bool, tuple[bool, ...], float]]:
        """(total, failed, rr, jinks, probability) of roll k at target ``i`` after each side's
        re-roll: the attacker's (VIII REROLL) first, then the target's (IX JINK)."""
        if not self.may_reroll(i, rr, jinks):
            return [(t, fl, rr, jinks, p0 * pt) for (t, fl), pt in self.plain.items()]
        rolled: list[tuple[int, bool, bool, tuple[bool, ...], float]] = []
        for c0, pc in self.start_law.items():
            branch = [(c0, summary(c0, False)[2], rr, jinks, p0 * pc)]
            for who in (-1, i):
                if who >= 0 and i not in self.turn.jinkers:
                    continue
                branch = self._rerolls_of(who, k, i, states, branch, used)
            rolled.extend((summary(c, False)[0], fl, r, j, p) for c, fl, r, j, p in branch)
        return rolled

    def _rerolls_of(self, who: int, k, i, states, branch: list, used) -> list:
        """Each branch (faces, failed, rr, jinks, probability) after ``who``'s chosen re-roll, if
        any (a fail judged again on the re-rolled faces, reading ``reroll_fail``)."""
        out = []
        for c, fl, r, j, p in branch:
            a = self.decide(k, i, r, j, states, c, fl, who)[1] if (r if who < 0 else j[i]) else -1
            if a < 0:
                out.append((c, fl, r, j, p))
                continue
            used["attacker" if who < 0 else f"target {who}"][f"{SLOTS[a][0]}{SLOTS[a][1]}"] += p
            r2, j2 = _spent(who, i, r, j)
            for c2, q in rerolled(c, a):
                out.append((c2, fl or summary(c2, False)[2], r2, j2, p * q))
        return out


def solve_turn(turn: Turn, outcome: Outcome):
    """(law of the end of the turn, how often each side re-rolled which die and where each roll
    was aimed, the policy, the aim).

    The law maps ``(end states, damage per target, failed rolls)`` to its probability; the policy
    ``(k, i, rr, jinks, states, counts, failed, who) -> slot or -1`` (roll k at target i; who: -1 the
    attacker, else the target) and the aim ``(k, rr, jinks, states) -> target or -1 (held)`` are
    what Monte Carlo plays."""
    solver = _TurnSolver(turn, outcome)
    solver.aimed(0, turn.own, solver.jinks0, turn.starts)
    final, choices = solver.end_law()

    def policy(k, i, rr, jinks, states, c, failed, who) -> int:
        return solver.decide(k, i, rr, jinks, states, c, failed, who)[1]

    def aim(k, rr, jinks, states) -> int:
        return solver.aimed(k, rr, jinks, states)[1]

    return final, choices, policy, aim


__all__ = ["Turn", "solve_turn"]
