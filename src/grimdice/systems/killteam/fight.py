"""Kill Team 2021 fights, solved exactly with optimal play by both sides.

Sequence (2021 core book, Fight action):

1. **Roll Attack Dice.** Each player rolls A D6 for its melee weapon: a 1 fails, a result at or
   above WS is a normal hit, a 6 (or, with Lethal x+, a successful hit of x or more) a critical hit.
   Re-rolls (each die at most once): Balanced (one attack die), Ceaseless (any or all 1s),
   Relentless (any or all attack dice). The attacker (whose operative performs the Fight action)
   chooses its re-rolls first, seeing both rolls; the defender then chooses its own, seeing the
   attacker's final dice. Rending (if any critical hit is retained, one normal hit may be retained
   as a critical hit) is chosen afterwards, attacker first.
2. **Resolve Successful Hits.** Starting with the attacker, players alternate resolving one retained
   die: *strike* (normal or critical Damage to the opponent) or *parry* (a normal hit discards one
   of the opponent's normal hits, a critical hit one normal or critical hit). When one player has
   no dice left, the other resolves all its remaining dice. The fight ends at once when an
   operative is incapacitated. Brutal: the opponent can only parry with critical hits. Stun: the
   first time you strike with a critical hit, one of the opponent's normal hits is discarded; the
   second time, the target loses 1 APL. Reap x: each critical strike inflicts x mortal wounds on
   each other enemy operative in range (reported, not applied to the duel).

Every choice (re-rolls, Rending, strike or parry) is made by the player it belongs to, for its own
:class:`Objective`: the solution is the subgame-perfect equilibrium of this perfect-information
game (the resolution step is deterministic once the dice are known; the re-roll choices maximise
the expected objective). Ties are broken by the objective's tie-break keys, then by a fixed
preference order (fewest re-rolls; strike before parry; normal before critical).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

import numpy as np

from grimdice.dice import Dist
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.killteam.rerolls import reroll_choices, rerolls_allowed
from grimdice.systems.killteam.rolls import attack_counts, count_items
from grimdice.systems.killteam.rules import FIGHT_REROLL_ORDER, NO_RULES, RULES, WeaponRules

TOL = 1e-12
MAX_ATTACKS = 10


class Objective(StrEnum):
    """What a side optimises in a fight (lexicographic keys listed in :data:`OBJECTIVE_KEYS`)."""

    KILL = "kill"  # maximise P(enemy incapacitated) (tie-break: expected damage dealt)
    DAMAGE_DEALT = "damage_dealt"  # maximise expected damage dealt
    DAMAGE_TAKEN = "damage_taken"  # minimise expected damage taken (tie-break: damage dealt)
    SURVIVE = "survive"  # maximise P(own operative not incapacitated) (tie-break: damage dealt)


#: per objective, the lexicographic keys maximised: "kill" P(enemy incapacitated), "dealt"
#: expected wounds the enemy lost, "taken" expected wounds lost (negated), "dead" P(own operative
#: incapacitated) (negated), "crits" expected own critical strikes (Reap, Stun)
OBJECTIVE_KEYS = {
    Objective.KILL: ("kill", "dealt", "-taken", "crits"),
    Objective.DAMAGE_DEALT: ("dealt", "kill", "-taken", "crits"),
    Objective.DAMAGE_TAKEN: ("-taken", "dealt", "kill", "crits"),
    Objective.SURVIVE: ("-dead", "dealt", "-taken", "crits"),
}


@dataclass(frozen=True)
class Fighter:
    """One side of a fight: the operative's wounds now and its melee weapon."""

    name: str
    wounds: int  # wounds the operative has now (>= 1)
    attacks: int  # A of the melee weapon
    hit: int  # WS x+ (2..6), already adjusted (e.g. injured)
    normal_damage: int
    critical_damage: int
    rules: WeaponRules = NO_RULES  # Lethal, Rending, Brutal, Stun, Reap, Balanced, Ceaseless, Relentless
    objective: Objective = Objective.KILL

    def __post_init__(self) -> None:
        def bad(name: str, allowed: str) -> ScenarioError:
            value = getattr(self.rules, name[6:]) if name.startswith("rules.") else getattr(self, name)
            return ScenarioError(
                f"{self.name or 'fighter'}.{name}", f"{value!r} not allowed; allowed: {allowed}"
            )

        ranges = {
            "wounds": (1, 10_000, "a whole number of wounds left, at least 1"),
            "attacks": (1, MAX_ATTACKS, f"a whole number of attack dice from 1 to {MAX_ATTACKS}"),
            "hit": (2, 6, "WS x+ with x from 2 to 6"),
            "normal_damage": (0, 10_000, "a whole number, 0 or more"),
            "critical_damage": (0, 10_000, "a whole number, 0 or more"),
            "rules.lethal": (2, 6, "Lethal x+ with x from 2 to 6 (6: no Lethal)"),
            "rules.reap": (0, 10_000, "a whole number of mortal wounds, 0 or more (0: no Reap)"),
        }
        if not isinstance(self.rules, WeaponRules):
            raise bad("rules", "a WeaponRules")
        for name, (lo, hi, allowed) in ranges.items():
            v = getattr(self.rules, name[6:]) if name.startswith("rules.") else getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise bad(name, allowed)
        for f in ("rending", "brutal", "stun", "balanced", "ceaseless", "relentless"):
            if not isinstance(getattr(self.rules, f), bool):
                raise bad(f"rules.{f}", "true or false")
        try:
            object.__setattr__(self, "objective", Objective(self.objective))
        except ValueError:
            raise bad("objective", f"one of {', '.join(o.value for o in Objective)}") from None


# --------------------------------------------------------------------------- resolution step

#: resolution actions, in tie-break preference order
STRIKE_NORMAL, STRIKE_CRIT, PARRY_NORMAL, PARRY_CRIT_NORMAL, PARRY_CRIT_CRIT = range(5)
ACTION_TEXT = (
    "strikes with a normal hit",
    "strikes with a critical hit",
    "parries a normal hit with a normal hit",
    "parries a normal hit with a critical hit",
    "parries a critical hit with a critical hit",
)
SIDES = ("attacker", "defender")

# a resolution state: (turn, an, ac, dn, dc, wa, wd, sa, sd); sa/sd: has struck with a crit before
State = tuple[int, int, int, int, int, int, int, int, int]
# a terminal: (attacker wounds left, defender wounds left, attacker crit strikes, defender crit strikes)
Terminal = tuple[int, int, int, int]


def legal_actions(s: State, f: tuple[Fighter, Fighter]) -> list[int]:
    """The actions open to the player to move (Brutal: the opponent parries only with crits)."""
    p = s[0]
    n, c = s[1 + 2 * p], s[2 + 2 * p]
    on, oc = s[3 - 2 * p], s[4 - 2 * p]
    brutal = f[1 - p].rules.brutal
    out = []
    if n:
        out.append(STRIKE_NORMAL)
    if c:
        out.append(STRIKE_CRIT)
    if n and on and not brutal:
        out.append(PARRY_NORMAL)
    if c and on:
        out.append(PARRY_CRIT_NORMAL)
    if c and oc:
        out.append(PARRY_CRIT_CRIT)
    return out


def apply_action(s: State, a: int, f: tuple[Fighter, Fighter]) -> tuple[State, bool, bool]:
    """``(next state, ended, critical strike)``; the next state's turn follows the alternation."""
    p = s[0]
    o = 1 - p
    x = list(s)
    mine, theirs = 1 + 2 * p, 1 + 2 * o  # index of normal hits; crits at +1
    crit_strike = False
    if a == STRIKE_NORMAL:
        x[mine] -= 1
        x[5 + o] -= f[p].normal_damage
    elif a == STRIKE_CRIT:
        x[mine + 1] -= 1
        x[5 + o] -= f[p].critical_damage
        crit_strike = True
        if f[p].rules.stun and not x[7 + p] and x[theirs]:
            x[theirs] -= 1  # Stun, first critical strike: discard one of the opponent's normal hits
        x[7 + p] = 1
    elif a == PARRY_NORMAL:
        x[mine] -= 1
        x[theirs] -= 1
    elif a == PARRY_CRIT_NORMAL:
        x[mine + 1] -= 1
        x[theirs] -= 1
    else:
        x[mine + 1] -= 1
        x[theirs + 1] -= 1
    if x[5 + o] <= 0:
        x[5 + o] = 0
        return tuple(x), True, crit_strike  # type: ignore[return-value]
    if x[theirs] + x[theirs + 1]:
        x[0] = o
    elif x[mine] + x[mine + 1]:
        x[0] = p
    else:
        return tuple(x), True, crit_strike  # type: ignore[return-value]
    return tuple(x), False, crit_strike  # type: ignore[return-value]


def start_state(an: int, ac: int, dn: int, dc: int, wa: int, wd: int) -> State | None:
    """The first resolution state, or None if neither side retained any die."""
    if an + ac:
        return (0, an, ac, dn, dc, wa, wd, 0, 0)
    if dn + dc:
        return (1, an, ac, dn, dc, wa, wd, 0, 0)
    return None


class Keys:
    """Objective keys of both sides from expected quantities ``q = [wl_a, wl_d, P(a dead),
    P(d dead), E a crit strikes, E d crit strikes]`` (last axis)."""

    def __init__(self, att: Fighter, dfd: Fighter) -> None:
        self.w = (att.wounds, dfd.wounds)
        self.obj = (att.objective, dfd.objective)

    def of(self, q: np.ndarray, p: int) -> np.ndarray:
        o = 1 - p
        vals = {
            "kill": q[..., 2 + o],
            "dealt": self.w[o] - q[..., o],
            "-taken": q[..., p] - self.w[p],
            "-dead": -q[..., 2 + p],
            "crits": q[..., 4 + p],
        }
        return np.stack([vals[k] for k in OBJECTIVE_KEYS[self.obj[p]]], axis=-1)

    def values(self, q: np.ndarray) -> dict[str, dict[str, float]]:
        """Each side's objective and the value of its first key (and its tie-break)."""
        out = {}
        for p, side in enumerate(SIDES):
            k = self.of(np.asarray(q, dtype=float), p)
            names = OBJECTIVE_KEYS[self.obj[p]]
            out[side] = {"objective": self.obj[p].value}
            for n, v in zip(names[:2], k[:2], strict=True):
                out[side][_KEY_TEXT[n]] = float(abs(v) if n.startswith("-") else v)
        return out


_KEY_TEXT = {
    "kill": "p_enemy_incapacitated",
    "dealt": "expected_damage_dealt",
    "-taken": "expected_damage_taken",
    "-dead": "p_incapacitated",
    "crits": "expected_critical_strikes",
}


def lex_better(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where key vectors ``a`` are lexicographically better than ``b`` (beyond rounding)."""
    diff = a - b
    sig = np.abs(diff) > 1e-9
    first = np.argmax(sig, axis=-1)
    d = np.take_along_axis(diff, first[..., None], axis=-1)[..., 0]
    return sig.any(axis=-1) & (d > 0)


def terminal_q(t: Terminal) -> np.ndarray:
    return np.array([t[0], t[1], t[0] == 0, t[1] == 0, t[2], t[3]], dtype=float)


class Resolver:
    """The resolution step as a deterministic game: memoised best action and terminal per state."""

    def __init__(self, att: Fighter, dfd: Fighter) -> None:
        self.f = (att, dfd)
        self.keys = Keys(att, dfd)
        self.best: dict[State, int] = {}
        self.memo: dict[State, Terminal] = {}

    def terminal(self, s: State | None) -> Terminal:
        if s is None:
            return (self.f[0].wounds, self.f[1].wounds, 0, 0)
        if s in self.memo:
            return self.memo[s]
        p = s[0]
        best_t: Terminal | None = None
        best_k = None
        for a in legal_actions(s, self.f):
            nxt, ended, cs = apply_action(s, a, self.f)
            t = (nxt[5], nxt[6], 0, 0) if ended else self.terminal(nxt)
            if cs:
                t = (t[0], t[1], t[2] + (p == 0), t[3] + (p == 1))
            k = self.keys.of(terminal_q(t), p)
            if best_k is None or lex_better(k, best_k):
                best_t, best_k = t, k
                self.best[s] = a
        assert best_t is not None
        self.memo[s] = best_t
        return best_t

    def line(self, s: State | None) -> list[str]:
        """The moves played from ``s`` under the solved policy."""
        out = []
        while s is not None:
            self.terminal(s)
            a = self.best[s]
            out.append(f"{SIDES[s[0]]} {ACTION_TEXT[a]}")
            nxt, ended, _ = apply_action(s, a, self.f)
            s = None if ended else nxt
        return out


# --------------------------------------------------------------------------- roll step


def reroll_law(k: int, f: Fighter) -> np.ndarray:
    """``law[x, y]``: P(x normal and y critical hits) among ``k`` re-rolled dice of ``f``."""
    return attack_counts(k, f.hit, f.rules.lethal).sum(axis=2).T


def reroll_options(f: Fighter, roll: tuple[int, int, int, int]) -> list[tuple[int, int, int]]:
    """The re-rolls open to ``f`` after ``roll``, as ``(normals kept, crits kept, dice re-rolled)``
    in preference order (fewest re-rolls first). Balanced and Ceaseless together: any 1s and one
    more die, chosen at once."""
    c, n, o, m = roll
    return [(n - r.normals, c - r.crits, r.dice) for r in reroll_choices(f.rules, c, n, o, m)]


def rending_options(f: Fighter, n: int, c: int) -> list[tuple[int, int]]:
    """Rending: with a critical hit retained, one normal hit may be retained as a critical hit."""
    return [(n, c), (n - 1, c + 1)] if f.rules.rending and c and n else [(n, c)]


# --------------------------------------------------------------------------- solution


@dataclass(frozen=True)
class FightSolution:
    """Exact outcome of a fight under the solved (subgame-perfect) policy of both sides.

    ``wounds_left[i, j]``: P(attacker ends with i wounds, defender with j). ``hits[(an, ac, dn,
    dc)]``: law of the dice retained after re-rolls and Rending (normal, critical per side).
    ``critical_strikes[side]``: law of that side's critical strikes (Reap, Stun); ``reap`` and
    ``apl_lost`` derived from them. ``policy`` is the readable policy (JSON-ready), ``objectives``
    each side's objective and achieved value. ``tables`` are the policy lookup tables (used by
    the Monte Carlo engine).
    """

    attacker: Fighter
    defender: Fighter
    wounds_left: np.ndarray
    p_attacker_incapacitated: float
    p_defender_incapacitated: float
    attacker_wounds_left: Dist
    defender_wounds_left: Dist
    damage_dealt: Dist  # wounds lost by the defender
    damage_taken: Dist  # wounds lost by the attacker
    attacker_hits: Dist  # attacker's retained successes
    defender_hits: Dist
    critical_strikes: dict[str, Dist]
    reap_mortal_wounds: dict[str, Dist]  # per OTHER enemy operative in range of each side's Reap
    apl_lost: dict[str, Dist]  # APL lost by each side (to the opponent's Stun)
    objectives: dict[str, dict[str, Any]]
    policy: dict[str, Any]
    terminals: dict[Terminal, float]
    tables: Any = field(repr=False, compare=False, default=None)


@dataclass
class Tables:
    """Lookup tables of the solved policy."""

    att_rolls: list[tuple[int, int, int, int]]
    def_rolls: list[tuple[int, int, int, int]]
    att_opts: list[list[tuple[int, int, int]]]
    def_opts: list[list[tuple[int, int, int]]]
    att_choice: np.ndarray  # [attacker roll, defender roll] -> option index
    def_choice: np.ndarray  # [an, ac, defender roll] -> option index
    rend: dict[tuple[int, int, int, int], tuple[int, int, int, int]]
    resolver: Resolver


def solve_fight(attacker: Fighter, defender: Fighter) -> FightSolution:
    """Solve the fight exactly: both sides' optimal re-rolls, Rending and strike/parry choices."""
    att, dfd = attacker, defender
    A, D = att.attacks, dfd.attacks
    res = Resolver(att, dfd)
    keys = res.keys
    roll_a = attack_counts(A, att.hit, att.rules.lethal)
    roll_d = attack_counts(D, dfd.hit, dfd.rules.lethal)

    # after re-rolls: Rending (attacker, then defender), then the deterministic resolution
    rend: dict[tuple[int, int, int, int], tuple[int, int, int, int]] = {}
    Q = np.zeros((A + 1, A + 1, D + 1, D + 1, 6))
    for an, ac in _pairs(A):
        for dn, dc in _pairs(D):
            best = None
            for ra in rending_options(att, an, ac):
                bd = None
                for rd in rending_options(dfd, dn, dc):
                    q = terminal_q(res.terminal(start_state(*ra, *rd, att.wounds, dfd.wounds)))
                    if bd is None or lex_better(keys.of(q, 1), keys.of(bd[1], 1)):
                        bd = ((*ra, *rd), q)
                assert bd is not None
                if best is None or lex_better(keys.of(bd[1], 0), keys.of(best[1], 0)):
                    best = bd
            assert best is not None
            rend[(an, ac, dn, dc)] = best[0]
            Q[an, ac, dn, dc] = best[1]

    att_rolls, def_rolls = count_items(roll_a), count_items(roll_d)
    laws_a = [reroll_law(k, att) for k in range(A + 1)]
    laws_d = [reroll_law(k, dfd) for k in range(D + 1)]

    # defender's re-rolls, knowing the attacker's final (an, ac)
    ed = _option_means(Q, laws_d, D, axis=2)  # (dn_k, dc_k, k) -> (A+1, A+1, 6)
    def_opts = [reroll_options(dfd, r) for r, _ in def_rolls]
    DV = np.zeros((A + 1, A + 1, len(def_rolls), 6))
    def_choice = np.zeros((A + 1, A + 1, len(def_rolls)), dtype=np.int64)
    for j, opts in enumerate(def_opts):
        DV[:, :, j], def_choice[:, :, j] = _choose([ed[o] for o in opts], keys, 1)

    # attacker's re-rolls, seeing both rolls
    ea = _option_means(DV, laws_a, A, axis=0)  # (n_k, c_k, k) -> (n droll, 6)
    att_opts = [reroll_options(att, r) for r, _ in att_rolls]
    att_choice = np.zeros((len(att_rolls), len(def_rolls)), dtype=np.int64)
    for i, opts in enumerate(att_opts):
        _, att_choice[i] = _choose([ea[o] for o in opts], keys, 0)

    # forward propagation of the dice law through the chosen re-rolls and Rending
    wa = np.array([p for _, p in att_rolls])
    wd = np.array([p for _, p in def_rolls])
    MA = np.zeros((A + 1, A + 1, len(def_rolls)))
    for i, opts in enumerate(att_opts):
        for j in range(len(def_rolls)):
            nk, ck, k = opts[att_choice[i, j]]
            _spread(MA[:, :, j], nk, ck, laws_a[k], wa[i] * wd[j])
    M = np.zeros((A + 1, A + 1, D + 1, D + 1))
    for an, ac in _pairs(A):
        for j, opts in enumerate(def_opts):
            if MA[an, ac, j]:
                nk, ck, k = opts[def_choice[an, ac, j]]
                _spread(M[an, ac], nk, ck, laws_d[k], MA[an, ac, j])
    terminals: dict[Terminal, float] = {}
    retained: dict[tuple[int, int, int, int], float] = {}
    for idx in zip(*np.nonzero(M), strict=True):
        s = rend[tuple(int(v) for v in idx)]
        retained[s] = retained.get(s, 0.0) + M[idx]
        t = res.terminal(start_state(*s, att.wounds, dfd.wounds))
        terminals[t] = terminals.get(t, 0.0) + M[idx]
    tables = Tables(att_rolls, def_rolls, att_opts, def_opts, att_choice, def_choice, rend, res)
    return _solution(att, dfd, terminals, retained, keys, tables)


def _pairs(n: int) -> list[tuple[int, int]]:
    return [(x, y) for x in range(n + 1) for y in range(n + 1 - x)]


def _option_means(V: np.ndarray, laws: list[np.ndarray], n: int, axis: int) -> dict:
    """For every re-roll option ``(n_k, c_k, k)`` of a side with ``n`` dice, the expected value of
    ``V`` (the side's retained (normal, critical) on axes ``axis, axis+1``) over the re-rolled dice."""
    Vm = np.moveaxis(V, (axis, axis + 1), (0, 1))
    out = {}
    for k in range(n + 1):
        for nk, ck in _pairs(n - k):
            acc = 0.0
            for x, y in _pairs(k):
                if laws[k][x, y]:
                    acc = acc + laws[k][x, y] * Vm[nk + x, ck + y]
            out[(nk, ck, k)] = np.asarray(acc)
    return out


def _choose(cands: list[np.ndarray], keys: Keys, p: int) -> tuple[np.ndarray, np.ndarray]:
    """Elementwise the first candidate (in preference order) with the best keys for side ``p``."""
    best = np.array(cands[0], dtype=float)
    idx = np.zeros(best.shape[:-1], dtype=np.int64)
    for i, c in enumerate(cands[1:], 1):
        m = lex_better(keys.of(c, p), keys.of(best, p))
        best[m] = c[m]
        idx[m] = i
    return best, idx


def _spread(target: np.ndarray, nk: int, ck: int, law: np.ndarray, w: float) -> None:
    k = law.shape[0] - 1
    for x, y in _pairs(k):
        target[nk + x, ck + y] += w * law[x, y]


def _dist(values: dict[int, float]) -> Dist:
    top = max(values) if values else 0
    pmf = np.zeros(top + 1)
    for v, p in values.items():
        pmf[v] += p
    return Dist(pmf)


def _marginal(terminals: dict, f) -> Dist:
    out: dict[int, float] = {}
    for t, p in terminals.items():
        out[f(t)] = out.get(f(t), 0.0) + p
    return _dist(out)


def _solution(att, dfd, terminals, retained, keys: Keys, tables: Tables) -> FightSolution:
    grid = np.zeros((att.wounds + 1, dfd.wounds + 1))
    for t, p in terminals.items():
        grid[t[0], t[1]] += p
    q = sum(p * terminal_q(t) for t, p in terminals.items())
    crits = {
        "attacker": _marginal(terminals, lambda t: t[2]),
        "defender": _marginal(terminals, lambda t: t[3]),
    }
    reap = {
        s: crits[s].map(lambda k, r=f.rules.reap: k * r)
        for s, f in zip(SIDES, (att, dfd), strict=True)
        if f.rules.reap
    }
    apl = {
        "defender": _marginal(terminals, lambda t: int(att.rules.stun and t[2] >= 2)),
        "attacker": _marginal(terminals, lambda t: int(dfd.rules.stun and t[3] >= 2)),
    }
    return FightSolution(
        attacker=att,
        defender=dfd,
        wounds_left=grid,
        p_attacker_incapacitated=float(grid[0].sum()),
        p_defender_incapacitated=float(grid[:, 0].sum()),
        attacker_wounds_left=Dist(grid.sum(axis=1)),
        defender_wounds_left=Dist(grid.sum(axis=0)),
        damage_dealt=_marginal(terminals, lambda t: dfd.wounds - t[1]),
        damage_taken=_marginal(terminals, lambda t: att.wounds - t[0]),
        attacker_hits=_marginal(retained, lambda s: s[0] + s[1]),
        defender_hits=_marginal(retained, lambda s: s[2] + s[3]),
        critical_strikes=crits,
        reap_mortal_wounds=reap,
        apl_lost=apl,
        objectives=keys.values(q),
        policy=describe_policy(att, dfd, retained, tables),
        terminals=terminals,
        tables=tables,
    )


# --------------------------------------------------------------------------- readable policy

POLICY_MIN_P = 0.005
POLICY_MAX_LINES = 25


def _hits_text(n: int, c: int) -> str:
    return f"{c} critical + {n} normal"


def describe_policy(att: Fighter, dfd: Fighter, retained: dict, tb: Tables) -> dict[str, Any]:
    """The solved policy in words: the resolution line of every likely pair of retained dice, the
    re-rolls of each side by roll, and Rending use."""
    res = tb.resolver
    lines = []
    for s, p in sorted(retained.items(), key=lambda kv: (-round(kv[1], 12), kv[0])):
        if p < POLICY_MIN_P or len(lines) >= POLICY_MAX_LINES:
            break
        t = res.terminal(start_state(*s, att.wounds, dfd.wounds))
        lines.append(
            {
                "attacker_hits": _hits_text(s[0], s[1]),
                "defender_hits": _hits_text(s[2], s[3]),
                "probability": float(p),
                "moves": res.line(start_state(*s, att.wounds, dfd.wounds)),
                "wounds_left": {"attacker": t[0], "defender": t[1]},
            }
        )
    out: dict[str, Any] = {
        "resolution": lines,
        "resolution_note": (
            f"each line: the dice both sides retain (after re-rolls and Rending, probability "
            f"{POLICY_MIN_P} or more, at most {POLICY_MAX_LINES} lines) and the moves both play, "
            "alternating from the attacker"
        ),
    }
    for p, f in enumerate((att, dfd)):
        if f.rules.balanced or f.rules.ceaseless or f.rules.relentless:
            out[f"{SIDES[p]}_rerolls"] = _reroll_text(p, tb)
        if f.rules.rending:
            used = sum(1 for k, v in tb.rend.items() if v[2 * p : 2 * p + 2] != k[2 * p : 2 * p + 2])
            able = sum(1 for k in tb.rend if k[2 * p] and k[2 * p + 1])
            out[f"{SIDES[p]}_rending"] = (
                "always retains a normal hit as a critical hit when it can"
                if used == able
                else f"uses Rending in {used} of {able} cases where it can"
            )
    return out


def _reroll_text(p: int, tb: Tables) -> list[dict[str, Any]]:
    """For each own roll: the re-roll chosen (or the set of re-rolls, when it depends on the
    opponent's dice)."""
    own_rolls = tb.att_rolls if p == 0 else tb.def_rolls
    opts = tb.att_opts if p == 0 else tb.def_opts
    out = []
    for i, (roll, _) in enumerate(own_rolls):
        if p == 0:
            choice = tb.att_choice[i]
        else:
            a = tb.def_choice.shape[0]
            valid = np.add.outer(np.arange(a), np.arange(a)) < a
            choice = tb.def_choice[:, :, i][valid]
        chosen = sorted({int(c) for c in np.ravel(choice)})
        c, n, o, m = roll
        texts = []
        for ci in chosen:
            nk, ck, k = opts[i][ci]
            texts.append(_reroll_words(n - nk, c - ck, k - (n - nk) - (c - ck)))
        out.append(
            {
                "roll": f"{c} critical, {n} normal, {o} ones, {m} other fails",
                "reroll": texts[0] if len(texts) == 1 else texts,
                "depends_on_opponent": len(texts) > 1,
            }
        )
    return out


def _reroll_words(rn: int, rc: int, rf: int) -> str:
    parts = [f"{v} {w}" for v, w in ((rf, "failed"), (rn, "normal"), (rc, "critical")) if v]
    return "re-roll " + ", ".join(parts) if parts else "no re-roll"


# --------------------------------------------------------------------------- Result


def solution_stages(sol: FightSolution) -> dict[str, Dist]:
    st = {
        "hits": sol.attacker_hits,
        "damage": sol.damage_dealt,
        "models_destroyed": Dist([1 - sol.p_defender_incapacitated, sol.p_defender_incapacitated]),
        "defender_wounds_left": sol.defender_wounds_left,
        "defender_hits": sol.defender_hits,
        "damage_taken": sol.damage_taken,
        "attacker_incapacitated": Dist([1 - sol.p_attacker_incapacitated, sol.p_attacker_incapacitated]),
        "attacker_wounds_left": sol.attacker_wounds_left,
        "critical_strikes": sol.critical_strikes["attacker"],
        "critical_strikes_taken": sol.critical_strikes["defender"],
    }
    if "attacker" in sol.reap_mortal_wounds:
        st["reap_mortal_wounds"] = sol.reap_mortal_wounds["attacker"]
    if "defender" in sol.reap_mortal_wounds:
        st["defender_reap_mortal_wounds"] = sol.reap_mortal_wounds["defender"]
    if sol.attacker.rules.stun:
        st["defender_apl_lost"] = sol.apl_lost["defender"]
    if sol.defender.rules.stun:
        st["attacker_apl_lost"] = sol.apl_lost["attacker"]
    return st


def fight_result(
    attacker: Fighter,
    defender: Fighter,
    *,
    simulate: int | None = None,
    seed: int | None = None,
    title: str = "",
) -> Result:
    """The fight as a :class:`Result`: exact, or ``simulate`` seeded Monte Carlo trials playing the
    solved policy on literally rolled (and re-rolled) dice."""
    sol = solve_fight(attacker, defender)
    stages = solution_stages(sol)
    extra = {
        "policy": sol.policy,
        "objectives": sol.objectives,
        "p_attacker_incapacitated": sol.p_attacker_incapacitated,
        "p_defender_incapacitated": sol.p_defender_incapacitated,
    }
    notes = fight_notes(attacker, defender)
    if simulate is None:
        return Result("killteam", "exact", stages, extra=extra, title=title, notes=notes)
    from grimdice.systems.killteam.fight_simulate import simulate_fight

    if isinstance(simulate, bool) or not isinstance(simulate, int) or simulate < 1:
        raise ScenarioError("simulate", f"{simulate!r}: a number of trials, 1 or more")
    sim = simulate_fight(sol, simulate, seed)
    extra["p_attacker_incapacitated"] = sim["attacker_incapacitated"][1]
    extra["p_defender_incapacitated"] = sim["models_destroyed"][1]
    stages = {k: sim[k] for k in stages}
    return Result(
        "killteam", "simulated", stages, extra=extra, trials=simulate, seed=seed, title=title, notes=notes
    )


def fight_notes(attacker: Fighter, defender: Fighter) -> list[str]:
    """The unverified reading a fight used: the order of the re-roll choices, when a side re-rolls."""
    if rerolls_allowed(attacker.rules) or rerolls_allowed(defender.rules):
        return [RULES.note(FIGHT_REROLL_ORDER)]
    return []


__all__ = ["FightSolution", "Fighter", "Objective", "fight_result", "solve_fight"]
