"""VOLLEY FIRE with the attacker's re-roll (VIII REROLL) and the target's JINK (IX JINK).

VIII REROLL: "Ranged attacks: may reroll one of your attack dice once per turn"; IX JINK: "may
reroll 1 enemy die when fired upon ... once per turn"; IX VOLLEY FIRE: "For each die that rolls
something, you may reroll another one of the dice along with it to generate a "2 dice" roll. Then
you may apply the roll to any target within the declared range. You may reroll each die only once."

Reading ``volley_rerolls`` (unverified): the volley is one attack with one re-roll (the weapon's or
the firers' R) and the target's one jink. The big roll is on the table: the attacker chooses which
scoring dice pair with blanks (when there are more scoring dice than blanks; the others pair with
each other as rolled, an odd one makes no roll) and, one after the other, which pair to roll and
apply next (a re-rolled pair's blank is re-rolled then). After each pair is rolled the attacker may
re-roll one of its dice not yet re-rolled (the scoring die of a re-rolled pair, either die of a kept
pair), then the target, if it may still jink (its driver not stunned: unharmed or wounded at that
moment), one of its dice; either may keep its re-roll for a later pair. A pair showing two maxima
fails, judged again after a re-roll (reading ``reroll_fail``).

The state of the volley is small: the pairs left as counts (re-rolled pairs by their scoring face,
kept pairs by their two faces), the re-roll and the jink left, the target's state; the game is
solved by dynamic programming over it. The attacker maximises P(killed), P(KO or killed), expected
damage, then fewer fails; the target minimises its own three. The law of the end of the volley is
carried forward under the solved policy; Monte Carlo plays the same policy on literally rolled dice.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from functools import cache
from math import factorial

import numpy as np

from grimdice.dice.fold import face_law
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import KILLED, KO, NONE, WOUNDED, State
from grimdice.systems.crusade.rerolls_many import best_for, side_key
from grimdice.systems.crusade.rolls import DICE, MAXIMUM

WHITE = DICE["W"].faces
TOP = MAXIMUM["W"]
SCORING = tuple(sorted({f for f in WHITE if f > 0}))  # 1, 2
#: the kinds of pair: a scoring face with a blank to re-roll, or two scoring faces kept as rolled
KINDS: tuple[tuple[int, int | None], ...] = (
    *((s, None) for s in SCORING),
    *((a, b) for a in SCORING for b in SCORING if a <= b),
)
Left = tuple[int, ...]  # pairs left per kind of :data:`KINDS`

#: distinct (pairs left x re-roll states x target states) the exact volley with re-rolls may solve
#: (about 3 s for 5 models at a 1-hit target on a shared core); Monte Carlo, which needs the solved
#: policy but not the exact law, up to :data:`MAX_POLICY_STATES`
MAX_VOLLEY_STATES = 12_000
MAX_POLICY_STATES = 40_000

Shot = Callable[[int, State], tuple[tuple[State, int, float], ...]]


def pair_faces(kind: int) -> list[tuple[tuple[int, int], float]]:
    """The law of the two faces of a pair of ``kind`` (:data:`KINDS`): a re-rolled pair's blank
    re-rolled with its scoring die, a kept pair as rolled."""
    a, b = KINDS[kind]
    if b is None:
        return [((a, w), 1 / len(WHITE)) for w in WHITE]  # the blank re-rolled with it
    return [((a, b), 1.0)]


def pairs_of(scoring: int, dice: int) -> tuple[int, int]:
    """(re-rolled pairs, kept pairs) when ``scoring`` of ``dice`` whites show something."""
    blank = dice - scoring
    return min(scoring, blank), max(0, scoring - blank) // 2


def _pairings(n1: int, n2: int, blanks: int) -> list[Left]:
    """Every way the attacker may pair ``n1`` ones and ``n2`` twos with ``blanks`` blanks (scoring
    dice first with blanks, the rest with each other, an odd one left out)."""
    out = set()
    with_blank = min(n1 + n2, blanks)
    for x in range(max(0, with_blank - n2), min(n1, with_blank) + 1):  # ones paired with a blank
        m1, m2 = n1 - x, n2 - (with_blank - x)
        for y in range(min(m1, m2) + 1):  # (1, 2) pairs
            a, b = m1 - y, m2 - y
            out.add((x, with_blank - x, a // 2, y, b // 2))
    return sorted(out, reverse=True)


def big_roll_law(dice: int) -> dict[tuple[int, int], float]:
    """``{(ones, twos): p}`` of the big roll of ``dice`` whites (the rest blank)."""
    p = dict(face_law(WHITE))
    out = {}
    for n1 in range(dice + 1):
        for n2 in range(dice - n1 + 1):
            n0 = dice - n1 - n2
            ways = factorial(dice) // (factorial(n0) * factorial(n1) * factorial(n2))
            out[(n1, n2)] = ways * p[0] ** n0 * p[1] ** n1 * p[2] ** n2
    return out


def volley_states(dice: int, states: int, rerolls: bool = True) -> int:
    """The states the volley's dynamic programme visits at most: pairs left x (re-roll and jink left,
    when there are re-rolls) x target states."""
    lefts = {left for n1, n2 in big_roll_law(dice) for left in _pairings(n1, n2, dice - n1 - n2)}
    reach = set()
    for left in lefts:
        for sub in np.ndindex(*(k + 1 for k in left)):
            reach.add(sub)
    return len(reach) * (4 if rerolls else 1) * states


def check_size(dice: int, states: int, exact: bool = True) -> None:
    size = volley_states(dice, states)
    if exact and size > MAX_VOLLEY_STATES:
        raise ScenarioError(
            "volley",
            f"volley fire of {dice // 2} models with re-rolls or JINK has {size} states to solve exactly "
            f"(at most {MAX_VOLLEY_STATES}: pairs left x re-roll and jink x target states); "
            "use --simulate N or fewer models",
        )
    if size > MAX_POLICY_STATES:
        raise ScenarioError(
            "volley",
            f"volley fire of {dice // 2} models with re-rolls or JINK has {size} states to solve (at most "
            f"{MAX_POLICY_STATES}, also for --simulate, which plays the solved re-roll policy); "
            "use fewer models",
        )


def _may_jink(jk: bool, st: State) -> bool:
    """IX JINK: the target may jink "as long as driver is not stunned" (unharmed or wounded)."""
    return jk and st[0] in (NONE, WOUNDED)


def _options(rr: bool, jk: bool, st: State, kind: int, who: int) -> tuple[int, ...]:
    """The dice of a pair ``who`` may re-roll: the attacker (VIII REROLL) either die of a kept pair
    but only the scoring die of a re-rolled pair (IX VOLLEY FIRE: "You may reroll each die only
    once"); the target (IX JINK) either die."""
    if who < 0:
        return ((0,) if KINDS[kind][1] is None else (0, 1)) if rr else ()
    return (0, 1) if _may_jink(jk, st) else ()


def _spent(who: int, rr: bool, jk: bool) -> tuple[bool, bool]:
    """(re-roll, jink) left once ``who`` has re-rolled: each "once per turn" (VIII REROLL, IX JINK)."""
    return (False, jk) if who < 0 else (rr, False)


def _rest(left: Left, kind: int) -> Left:
    """The pairs left once a pair of ``kind`` is rolled."""
    return (*left[:kind], left[kind] - 1, *left[kind + 1 :])


class _VolleySolver:
    """The volley's dynamic programme over (pairs left, re-roll left, jink left, target state), then
    the law of its end carried forward under the solved policy (the reading in the module
    docstring). Each instance holds its own caches."""

    def __init__(self, dice: int, start: State, own: bool, jink: bool, shot: Shot) -> None:
        self.dice, self.start, self.own, self.jink, self.shot = dice, start, own, jink, shot
        self.value = cache(self._value)
        self.decide = cache(self._decide)
        self.resolve = cache(self._resolve)
        self.pairing = cache(self._pairing)

    def _value(self, left: Left, rr: bool, jk: bool, st: State) -> tuple[np.ndarray, int]:
        """(expected [killed, KO+, damage from here, fails from here], the kind of pair to roll next):
        IX VOLLEY FIRE, the attacker applies the pairs one after the other."""
        if not any(left):
            return np.array([st[0] == KILLED, st[0] >= KO, 0.0, 0.0], float), -1
        return best_for(
            -1, ((kind, self.roll(left, rr, jk, st, kind)) for kind, n in enumerate(left) if n), 1
        )

    def roll(self, left: Left, rr: bool, jk: bool, st: State, kind: int) -> np.ndarray:
        """The value of rolling a pair of ``kind`` next (a failed pair: two maxima)."""
        rest = _rest(left, kind)
        v = np.zeros(4)
        for (a, b), p in pair_faces(kind):
            v += p * self.decide(rest, rr, jk, st, a, b, kind, a == TOP and b == TOP, -1)[0]
        return v

    def _decide(self, left, rr, jk, st, a, b, kind, failed, who) -> tuple[np.ndarray, int]:
        """(value, die re-rolled or -1) at the re-roll of ``who`` (-1 the attacker, 0 the target):
        VIII REROLL "may reroll one of your attack dice", IX JINK "may reroll 1 enemy die"."""
        best_v, best_a = self.after(left, rr, jk, st, a, b, kind, failed, who), -1
        best_k = side_key(who, best_v, 1)
        for die in _options(rr, jk, st, kind, who):
            rr2, jk2 = _spent(who, rr, jk)
            v = np.zeros(4)
            for w in WHITE:
                a2, b2 = (w, b) if die == 0 else (a, w)
                v += self.after(left, rr2, jk2, st, a2, b2, kind, failed or (a2 == TOP and b2 == TOP), who)
            v /= len(WHITE)
            if side_key(who, v, 1) > best_k:
                best_v, best_a, best_k = v, die, side_key(who, v, 1)
        return best_v, best_a

    def after(self, left, rr, jk, st, a, b, kind, failed, who) -> np.ndarray:
        """The value once ``who`` has chosen: the target's jink next, else the pair resolved."""
        if who < 0 and self.jink:
            return self.decide(left, rr, jk, st, a, b, kind, failed, 0)[0]
        return self.resolve(left, rr, jk, st, a + b, failed)

    def _resolve(self, left, rr, jk, st, total, failed) -> np.ndarray:
        """The value of a pair's ``total`` applied to the target, then the rest of the volley."""
        v = np.zeros(4)
        for s2, d, q in self.shot(total, st):
            w = self.value(left, rr, jk, s2)[0].copy()
            w[2] += d
            w[3] += failed
            v += q * w
        return v

    def _pairing(self, n1: int, n2: int) -> Left:
        """The attacker's best pairing of the big roll (IX VOLLEY FIRE: "For each die that rolls
        something, you may reroll another one of the dice along with it")."""
        lefts = _pairings(n1, n2, self.dice - n1 - n2)
        return best_for(-1, ((lf, self.value(lf, self.own, self.jink, self.start)[0]) for lf in lefts), 1)[1]

    def reroll(self, left, rr, jk, st, a, b, kind, failed, who) -> int:
        """The die ``who`` re-rolls, or -1."""
        return (
            self.decide(left, rr, jk, st, a, b, kind, failed, who)[1]
            if _options(rr, jk, st, kind, who)
            else -1
        )

    def pick(self, left: Left, rr: bool, jk: bool, st: State) -> int:
        """The kind of pair to roll next, or -1 when none is left."""
        return self.value(left, rr, jk, st)[1]

    def end_law(self) -> tuple[dict[tuple[State, int, int, int], float], dict[str, dict[str, float]]]:
        """(law of (state, damage, fails, rolls), how often each side re-rolled) under the solved policy."""
        used: dict[str, dict[str, float]] = {"attacker": defaultdict(float), "target 0": defaultdict(float)}
        final: dict[tuple[State, int, int, int], float] = defaultdict(float)
        # (pairs left, rolls, re-roll left, jink left, state, damage, fails) -> p
        law: dict[tuple, float] = defaultdict(float)
        for (n1, n2), p in big_roll_law(self.dice).items():
            left = self.pairing(n1, n2)
            law[(left, sum(left), self.own, self.jink, self.start, 0, 0)] += p
        while law:
            law = self._next_law(law, final, used)
        choices = {side: dict(sorted(d.items())) for side, d in used.items() if d}
        return dict(final), choices

    def _next_law(
        self, law: dict[tuple, float], final: dict, used: dict[str, dict[str, float]]
    ) -> dict[tuple, float]:
        """The law after the next pair of each branch is rolled, re-rolled by each side and applied;
        a branch with no pair left goes to ``final``."""
        nxt: dict[tuple, float] = defaultdict(float)
        for (left, rolls, rr, jk, st, dmg, fails), p0 in law.items():
            kind = self.pick(left, rr, jk, st)
            if kind < 0:
                final[(st, dmg, fails, rolls)] += p0
                continue
            rest = _rest(left, kind)
            for (a, b), pf in pair_faces(kind):
                branch = [(a, b, a == TOP and b == TOP, rr, jk, p0 * pf)]
                for who in (-1, 0):
                    branch = self._rerolls_of(who, rest, st, kind, branch, used)
                for a1, b1, fl, r1, j1, p in branch:
                    for s2, d, q in self.shot(a1 + b1, st):
                        nxt[(rest, rolls, r1, j1, s2, dmg + d, fails + int(fl))] += p * q
        return nxt

    def _rerolls_of(self, who: int, rest: Left, st: State, kind: int, branch: list, used) -> list:
        """Each branch (faces, failed, re-roll, jink, probability) after ``who``'s chosen re-roll, if
        any (a fail judged again on the re-rolled faces, reading ``reroll_fail``)."""
        out = []
        for a1, b1, fl, r1, j1, p in branch:
            die = self.reroll(rest, r1, j1, st, a1, b1, kind, fl, who)
            if die < 0:
                out.append((a1, b1, fl, r1, j1, p))
                continue
            pair = "re-rolled pair" if KINDS[kind][1] is None else "kept pair"
            used["attacker" if who < 0 else "target 0"][f"{pair}, die {die + 1}"] += p
            r2, j2 = _spent(who, r1, j1)
            for w in WHITE:
                a2, b2 = (w, b1) if die == 0 else (a1, w)
                out.append((a2, b2, fl or (a2 == TOP and b2 == TOP), r2, j2, p / len(WHITE)))
        return out


def solve_volley(dice: int, start: State, own: bool, jink: bool, shot: Shot, with_law: bool = True):
    """(law of (state, damage, fails, rolls), how often each side re-rolled, the pairing, the policy).

    The policy has ``pairing(n1, n2) -> Left``, ``pick(left, rr, jk, state) -> kind`` and
    ``reroll(left, rr, jk, state, a, b, kind, failed, who) -> die index or -1`` (who: -1 the
    attacker, 0 the target; ``left`` after this pair), which Monte Carlo plays."""
    solver = _VolleySolver(dice, start, own, jink, shot)
    policy = (solver.pairing, solver.pick, solver.reroll)
    if not with_law:  # Monte Carlo: the policy only
        return {}, {}, policy
    final, choices = solver.end_law()
    return final, choices, policy


__all__ = [
    "KINDS",
    "MAX_POLICY_STATES",
    "MAX_VOLLEY_STATES",
    "check_size",
    "pair_faces",
    "pairs_of",
    "solve_volley",
    "volley_states",
]
