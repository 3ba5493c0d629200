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


def solve_turn(turn: Turn, outcome: Outcome):
    """(law of the end of the turn, how often each side re-rolled which die and where each roll
    was aimed, the policy, the aim).

    The law maps ``(end states, damage per target, failed rolls)`` to its probability; the policy
    ``(k, i, rr, jinks, states, counts, failed, who) -> slot or -1`` (roll k at target i; who: -1 the
    attacker, else the target) and the aim ``(k, rr, jinks, states) -> target or -1 (held)`` are
    what Monte Carlo plays."""
    n = len(turn.starts)
    start_law = multiset_law(turn.pool)
    plain = _total_law(turn.pool)
    work = len(start_law) * len(turn.shots) * (int(turn.own) + len(turn.jinkers))
    if work > MAX_WORK:
        raise ScenarioError(
            "attacker.weapons",
            f"{turn.pool.text} over {len(turn.shots)} rolls with re-rolls is too large to solve exactly "
            f"({len(start_law)} face sets x {len(turn.shots)} rolls x re-rolling sides = {work}, at most "
            f"{MAX_WORK}); use fewer dice, targets or re-rolls",
        )

    def may_reroll(i: int, rr: bool, jinks: tuple[bool, ...]) -> bool:
        return rr or (i in turn.jinkers and jinks[i])

    @cache
    def aimed(k: int, rr: bool, jinks: tuple[bool, ...], states: tuple[State, ...]) -> tuple[np.ndarray, int]:
        """(expected [per target: killed, KO+, damage from here] + [fails from here] from roll k on,
        the target of roll k or -1: held)."""
        if k == len(turn.shots):
            return terminal_value(states), -1
        if not turn.aim:
            return shot(k, turn.shots[k], rr, jinks, states), turn.shots[k]
        held = [(-1, terminal_value(states))]  # hold fire: no more rolls this turn
        live = ((i, shot(k, i, rr, jinks, states)) for i in range(n) if states[i][0] != KILLED)
        return best_for(-1, chain(held, live), n)  # a dead target takes no more damage

    def shot(k: int, i: int, rr: bool, jinks: tuple[bool, ...], states: tuple[State, ...]) -> np.ndarray:
        if not may_reroll(i, rr, jinks):
            return _mix((p, resolve(k, i, rr, jinks, states, t, fl)) for (t, fl), p in plain.items())
        return _mix((p, decide(k, i, rr, jinks, states, c, False, -1)[0]) for c, p in start_law.items())

    @cache
    def decide(k, i, rr, jinks, states, c: Counts, failed: bool, who: int) -> tuple[np.ndarray, int]:
        """(value, slot re-rolled or -1) at the re-roll of ``who`` (-1 the attacker, then the target)."""
        failed = failed or summary(c, False)[2]
        may = rr if who < 0 else jinks[i]
        nxt_who = i if who < 0 and i in turn.jinkers else None
        best_v = after(k, i, rr, jinks, states, c, failed, nxt_who)
        best_a, best_k = -1, side_key(who, best_v, n)
        if may:
            for slot in range(len(SLOTS)):
                if not c[slot]:
                    continue
                rr2, jinks2 = (False, jinks) if who < 0 else (rr, (*jinks[:i], False, *jinks[i + 1 :]))
                v = _mix(
                    (p, after(k, i, rr2, jinks2, states, c2, failed, nxt_who)) for c2, p in rerolled(c, slot)
                )
                key = side_key(who, v, n)
                if key > best_k:
                    best_v, best_a, best_k = v, slot, key
        return best_v, best_a

    def after(k, i, rr, jinks, states, c, failed, nxt_who) -> np.ndarray:
        if nxt_who is not None:
            return decide(k, i, rr, jinks, states, c, failed, nxt_who)[0]
        fl = failed or summary(c, False)[2]
        return resolve(k, i, rr, jinks, states, summary(c, False)[0], fl)

    @cache
    def resolve(k, i, rr, jinks, states, total: int, failed: bool) -> np.ndarray:
        v = np.zeros(3 * n + 1)
        v[-1] = failed
        for q, s, dmg in outcome(i, total, states[i]):
            w = aimed(k + 1, rr, jinks, (*states[:i], s, *states[i + 1 :]))[0].copy()
            w[3 * i + 2] += dmg
            v += q * w
        return v

    jinks0 = tuple(i in turn.jinkers for i in range(n))
    aimed(0, turn.own, jinks0, turn.starts)

    # the law of the end of the turn under the solved policy
    used: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    law: dict[_LawKey, float] = {(turn.own, jinks0, turn.starts, (0,) * n, 0): 1.0}
    for k in range(len(turn.shots)):
        nxt: dict[_LawKey, float] = defaultdict(float)
        for (rr, jinks, states, dmgs, fails), p0 in law.items():
            i = aimed(k, rr, jinks, states)[1]
            if turn.aim:
                used["aim"][f"roll {k + 1}: " + ("held" if i < 0 else f"target {i}")] += p0
            if i < 0:
                nxt[(rr, jinks, states, dmgs, fails)] += p0
                continue
            # (total, failed, rr, jinks, probability) after each side's re-roll
            rolled: list[tuple[int, bool, bool, tuple[bool, ...], float]] = []
            if not may_reroll(i, rr, jinks):
                rolled = [(t, fl, rr, jinks, p0 * pt) for (t, fl), pt in plain.items()]
            for c0, pc in start_law.items() if may_reroll(i, rr, jinks) else ():
                branch = [(c0, summary(c0, False)[2], rr, jinks, p0 * pc)]
                for who in (-1, i):
                    if who >= 0 and i not in turn.jinkers:
                        continue
                    out = []
                    for c, fl, r, j, p in branch:
                        a = decide(k, i, r, j, states, c, fl, who)[1] if (r if who < 0 else j[i]) else -1
                        if a < 0:
                            out.append((c, fl, r, j, p))
                            continue
                        used["attacker" if who < 0 else f"target {who}"][f"{SLOTS[a][0]}{SLOTS[a][1]}"] += p
                        r2, j2 = (False, j) if who < 0 else (r, (*j[:i], False, *j[i + 1 :]))
                        for c2, q in rerolled(c, a):
                            out.append((c2, fl or summary(c2, False)[2], r2, j2, p * q))
                    branch = out
                rolled.extend((summary(c, False)[0], fl, r, j, p) for c, fl, r, j, p in branch)
            for t, fl, r, j, p in rolled:
                for q, s, dmg in outcome(i, t, states[i]):
                    st2 = (*states[:i], s, *states[i + 1 :])
                    d2 = (*dmgs[:i], dmgs[i] + dmg, *dmgs[i + 1 :])
                    nxt[(r, j, st2, d2, fails + int(fl))] += p * q
        law = nxt
    final: dict[tuple, float] = defaultdict(float)
    for (_, _, states, dmgs, fails), p in law.items():
        final[(states, dmgs, fails)] += p
    choices = {who: dict(sorted(d.items())) for who, d in used.items()}

    def policy(k, i, rr, jinks, states, c, failed, who) -> int:
        return decide(k, i, rr, jinks, states, c, failed, who)[1]

    def aim(k, rr, jinks, states) -> int:
        return aimed(k, rr, jinks, states)[1]

    return dict(final), choices, policy, aim


__all__ = ["Turn", "solve_turn"]
