"""The fight engine against an independent brute force: every face of every die is enumerated,
every legal re-roll *subset of dice* is tried (Balanced: one die; Ceaseless: any 1s; Relentless:
any dice), and the strike/parry game is solved by plain recursion on lists of dice.

The brute force shares only the documented conventions: each side maximises its objective's
lexicographic keys (expected values), ties go to the fewest re-rolled dice (then fewest crits,
then fewest normal hits re-rolled), and in the resolution to the first action in the order strike
normal, strike crit, parry normal with normal, parry normal with crit, parry crit with crit.
Also: the roll step alone against icepool.
"""

import itertools
from functools import cache

import icepool
import numpy as np
import pytest

from grimdice.systems.killteam.fight import Fighter, reroll_law, solve_fight
from grimdice.systems.killteam.rolls import attack_counts, count_items
from tests.killteam.helpers import fighter

KEYS = {
    "kill": ("kill", "dealt", "-taken", "crits"),
    "damage_dealt": ("dealt", "kill", "-taken", "crits"),
    "damage_taken": ("-taken", "dealt", "kill", "crits"),
    "survive": ("-dead", "dealt", "-taken", "crits"),
}


def cat(face, f):
    """'c', 'n' or None (a 1 always fails; a 6 always a crit; Lethal x+ for successful hits)."""
    if face == 1 or face < f.hit:
        return "c" if face == 6 else None
    return "c" if face >= f.rules.lethal or face == 6 else "n"


class Oracle:
    def __init__(self, att, dfd):
        self.f = (att, dfd)

    def keys(self, dist, side):
        """Objective keys of ``side`` for a distribution {(wa, wd, ca, cd): p}."""
        me, op = side, 1 - side
        e = {"kill": 0.0, "dealt": 0.0, "-taken": 0.0, "-dead": 0.0, "crits": 0.0}
        for t, p in dist.items():
            e["kill"] += p * (t[op] == 0)
            e["dealt"] += p * (self.f[op].wounds - t[op])
            e["-taken"] -= p * (self.f[me].wounds - t[me])
            e["-dead"] -= p * (t[me] == 0)
            e["crits"] += p * t[2 + me]
        return [e[k] for k in KEYS[self.f[side].objective.value]]

    def pick(self, cands, side):
        """The first candidate distribution with the lexicographically best keys (tolerance 1e-9)."""
        best, bk = None, None
        for d in cands:
            k = self.keys(d, side)
            if bk is not None:
                diffs = [a - b for a, b in zip(k, bk, strict=True) if abs(a - b) > 1e-9]
                if not diffs or diffs[0] < 0:
                    continue
            best, bk = d, k
        return best

    def play(self, turn, pools, wounds, struck, crits):
        """Plain recursion over the alternating resolution; pools: [[normals, crits], [..]]."""
        me, op = turn, 1 - turn
        mine, theirs = pools[me], pools[op]
        options = []
        for kind in ("strike_n", "strike_c", "parry_nn", "parry_cn", "parry_cc"):
            P = [list(pools[0]), list(pools[1])]
            W, S, C = list(wounds), list(struck), list(crits)
            if kind == "strike_n" and mine[0]:
                P[me][0] -= 1
                W[op] -= self.f[me].normal_damage
            elif kind == "strike_c" and mine[1]:
                P[me][1] -= 1
                W[op] -= self.f[me].critical_damage
                C[me] += 1
                if self.f[me].rules.stun and not S[me] and P[op][0]:
                    P[op][0] -= 1
                S[me] = True
            elif kind == "parry_nn" and mine[0] and theirs[0] and not self.f[op].rules.brutal:
                P[me][0] -= 1
                P[op][0] -= 1
            elif kind == "parry_cn" and mine[1] and theirs[0]:
                P[me][1] -= 1
                P[op][0] -= 1
            elif kind == "parry_cc" and mine[1] and theirs[1]:
                P[me][1] -= 1
                P[op][1] -= 1
            else:
                continue
            if W[op] <= 0:
                W[op] = 0
                options.append({(W[0], W[1], C[0], C[1]): 1.0})
                continue
            nxt = op if sum(P[op]) else me if sum(P[me]) else None
            if nxt is None:
                options.append({(W[0], W[1], C[0], C[1]): 1.0})
            else:
                options.append(self.play(nxt, P, W, S, C))
        return self.pick(options, me)

    def resolve(self, an, ac, dn, dc):
        att, dfd = self.f
        ra = [(an, ac)] + ([(an - 1, ac + 1)] if att.rules.rending and an and ac else [])
        rd = [(dn, dc)] + ([(dn - 1, dc + 1)] if dfd.rules.rending and dn and dc else [])

        def go(a, d):
            w = [att.wounds, dfd.wounds]
            if sum(a):
                return self.play(0, [list(a), list(d)], w, [False, False], [0, 0])
            if sum(d):
                return self.play(1, [list(a), list(d)], w, [False, False], [0, 0])
            return {(w[0], w[1], 0, 0): 1.0}

        return self.pick([self.pick([go(a, d) for d in rd], 1) for a in ra], 0)

    def subsets(self, f, faces):
        """Legal re-roll subsets (indices), fewest dice first, then fewest crits and normals."""
        idx = range(len(faces))
        if f.rules.relentless:
            subs = [s for r in range(len(faces) + 1) for s in itertools.combinations(idx, r)]
        else:
            ones = [i for i in idx if faces[i] == 1] if f.rules.ceaseless else []
            subs = set()
            for r in range(len(ones) + 1):
                for s in itertools.combinations(ones, r):
                    subs.add(s)
                    if f.rules.balanced:
                        for i in idx:
                            if i not in s:
                                subs.add(tuple(sorted((*s, i))))
            subs = list(subs)

        def order(s):
            cs = [cat(faces[i], f) for i in s]
            return (len(s), cs.count("c"), cs.count("n"), s)

        return sorted(subs, key=order)

    def after(self, f, faces, s):
        """{(normals, crits): p} once the dice ``s`` are re-rolled."""
        out = {}
        for new in itertools.product(range(1, 7), repeat=len(s)):
            x = list(faces)
            for i, v in zip(s, new, strict=True):
                x[i] = v
            cs = [cat(v, f) for v in x]
            key = (cs.count("n"), cs.count("c"))
            out[key] = out.get(key, 0.0) + 6.0 ** -len(s)
        return out

    @staticmethod
    def mix(parts):
        out = {}
        for w, d in parts:
            for t, p in d.items():
                out[t] = out.get(t, 0.0) + w * p
        return out

    @cache  # noqa: B019 (a short-lived test object)
    def defender(self, an, ac, fd):
        dfd = self.f[1]
        cands = [
            self.mix((p, self.resolve(an, ac, dn, dc)) for (dn, dc), p in self.after(dfd, fd, s).items())
            for s in self.subsets(dfd, fd)
        ]
        return self.pick(cands, 1)

    @cache  # noqa: B019
    def attacker(self, fa, fd):
        att = self.f[0]
        cands = [
            self.mix((p, self.defender(an, ac, fd)) for (an, ac), p in self.after(att, fa, s).items())
            for s in self.subsets(att, fa)
        ]
        return self.pick(cands, 0)

    def solve(self):
        att, dfd = self.f
        parts = []
        for fa in itertools.product(range(1, 7), repeat=att.attacks):
            for fd in itertools.product(range(1, 7), repeat=dfd.attacks):
                parts.append(
                    (6.0 ** -(att.attacks + dfd.attacks), self.attacker(tuple(sorted(fa)), tuple(sorted(fd))))
                )
        return self.mix(parts)


def F(name, wounds, attacks, hit, nd, cd, **kw):
    return fighter(name, wounds, attacks, hit, nd, cd, **kw)


CASES = {
    "relentless rending vs ceaseless brutal": (
        F("a", 6, 2, 4, 2, 5, relentless=True, rending=True),
        F("d", 5, 2, 3, 3, 4, ceaseless=True, brutal=True),
    ),
    "balanced stun vs balanced ceaseless lethal 5+": (
        F("a", 4, 2, 3, 2, 3, balanced=True, stun=True, objective="damage_dealt"),
        F("d", 5, 2, 4, 2, 4, balanced=True, ceaseless=True, lethal=5, objective="survive"),
    ),
    "relentless fishing for crits vs damage taken": (
        F("a", 8, 2, 2, 1, 6, relentless=True, objective="damage_dealt"),
        F("d", 6, 2, 3, 2, 3, relentless=True, objective="damage_taken"),
    ),
    "three dice each, stun both, brutal, rending": (
        F("a", 7, 3, 3, 2, 4, stun=True, brutal=True, reap=1),
        F("d", 6, 3, 4, 3, 3, stun=True, rending=True, objective="damage_taken"),
    ),
    "survival parries vs brutal": (
        F("a", 3, 2, 3, 1, 2, objective="survive"),
        F("d", 6, 2, 3, 3, 4, brutal=True),
    ),
    "three relentless vs two balanced ceaseless": (
        F("a", 8, 3, 3, 2, 5, relentless=True, rending=True, objective="survive"),
        F("d", 7, 2, 3, 3, 4, balanced=True, ceaseless=True, stun=True),
    ),
}


@pytest.mark.parametrize("name", CASES)
def test_against_brute_force(name):
    att, dfd = CASES[name]
    want = Oracle(att, dfd).solve()
    sol = solve_fight(att, dfd)
    assert sum(want.values()) == pytest.approx(1.0, abs=1e-12)
    for t in set(want) | set(sol.terminals):
        assert sol.terminals.get(t, 0.0) == pytest.approx(want.get(t, 0.0), abs=1e-12), t
    grid = np.zeros_like(sol.wounds_left)
    for t, p in want.items():
        grid[t[0], t[1]] += p
    assert np.allclose(sol.wounds_left, grid, atol=1e-12, rtol=0)


def test_relentless_rerolls_normal_hits_for_crits():
    # crit damage 6 kills the W6 defender, a normal hit (1) hardly matters: with KILL the attacker
    # re-rolls its normal hits; the brute force confirms the gain over keeping them
    att = F("a", 8, 2, 2, 1, 6, relentless=True)
    dfd = F("d", 6, 1, 6, 0, 0)
    sol = solve_fight(att, dfd)
    keep = solve_fight(F("a", 8, 2, 2, 1, 6), dfd)
    assert sol.p_defender_incapacitated > keep.p_defender_incapacitated + 0.05
    assert sol.p_defender_incapacitated == pytest.approx(
        sum(p for t, p in Oracle(att, dfd).solve().items() if t[1] == 0), abs=1e-12
    )
    tb = sol.tables
    i = next(k for k, (r, _) in enumerate(tb.att_rolls) if r == (0, 2, 0, 0))  # two normal hits
    assert {tb.att_opts[i][c] for c in tb.att_choice[i]} == {(0, 0, 2)}


def retained_law(f: Fighter, option) -> dict:
    """(crits, normals) law of the engine's roll step when every roll takes ``option(roll)``."""
    out = {}
    for roll, p in count_items(attack_counts(f.attacks, f.hit, f.rules.lethal)):
        nk, ck, k = option(roll)
        law = reroll_law(k, f)
        for x in range(k + 1):
            for y in range(k + 1 - x):
                key = (ck + y, nk + x)
                out[key] = out.get(key, 0.0) + p * law[x, y]
    return out


@pytest.mark.parametrize(("hit", "lethal", "a"), [(3, 6, 4), (4, 5, 3), (2, 6, 5)])
def test_roll_step_against_icepool(hit, lethal, a):
    f = F("a", 5, a, hit, 1, 1, lethal=lethal)

    def code(face):
        c = cat(face, f)
        return 10 if c == "c" else 1 if c == "n" else 0

    cases = {
        # Ceaseless, every 1 re-rolled
        "ceaseless": (icepool.d6.reroll([1], depth=1), lambda r: (r[1], r[0], r[2])),
        # Relentless, every die that is not a crit re-rolled
        "relentless": (
            icepool.d6.reroll(lambda v: cat(v, f) != "c", depth=1),
            lambda r: (0, r[0], r[1] + r[2] + r[3]),
        ),
        "plain": (icepool.d6, lambda r: (r[1], r[0], 0)),
    }
    for face, option in cases.values():
        die = a @ face.map(code)
        want = {(v // 10, v % 10): q / die.denominator() for v, q in die.items()}
        got = retained_law(f, option)
        for key in set(want) | set(got):
            assert got.get(key, 0.0) == pytest.approx(want.get(key, 0.0), abs=1e-12), key
