"""40k wound allocation on the shared chain (:mod:`grimdice.engine.allocation`).

What is 40k's here is only what the chain is parametrised by:

* the **queues**: the Bodyguard models, then the attached CHARACTER models (Leader rule);
* the **routing**: wounds go to the Bodyguard until its last model is destroyed, then to the
  Characters; an attack with Precision goes to a Character while one remains (core rules, Leader;
  weapon abilities, Precision);
* the **law of one token** on a model: its saving throw, the attack's damage after the damage
  modifiers, Feel No Pain per point of damage, excess damage lost (core rules, Allocate Attack,
  Saving Throw, Inflict Damage). Once every model is destroyed, left-over wounds still count as
  failed saves at the last model's rate (fast-rolled saves).

Devastating Wounds (Rules Commentary): a Critical Wound of such a weapon gets no saving throw of any
kind and is allocated after all other attacks. Those tokens are held back, but not counted one by
one: each counts one failed save at once, and the held count only counts the tokens that will
take at least one wound (thinned by the chance that a token is ignored entirely, when that chance
is the same on every model) and saturates at the unit's total wounds, after which further tokens
change nothing. So the held axis has at most ``wounds + 1`` cells however many attacks there are.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.expr import DiceExpr
from grimdice.engine.allocation import Chain, Hold, Law, Queue, upper
from grimdice.errors import ScenarioError
from grimdice.systems.wh40k.rolls import FACES, fnp_passes, modified_damage
from grimdice.systems.wh40k.sequence import FLAG_STATES
from grimdice.systems.wh40k.units import Profile, Target, WeaponGroup, save_probability

MAX_STATES = 4000  # unit states (Bodyguard wounds + 1) x (Character wounds + 1)
MAX_CELLS = 2_000_000  # failed saves x unit states
MAX_HELD_CELLS = 8_000_000  # held Devastating Wounds counts x failed saves x unit states
MAX_WORK = 2e9  # operations allowed for the exact allocation (about 2 s; see docs/limits.md)
OP_COST = 2e4  # the fixed cost of one whole-array operation, in operations (Python and NumPy overhead)

NORMAL, DEVASTATING, DEVASTATING_HIT = "normal", "devastating", "devastating, at least 1 wound"


def damage_dist(g: WeaponGroup, p: Profile) -> Dist:
    """Damage of one attack of ``g`` allocated to ``p``, after damage modifiers."""
    return _damage_dist(g.damage, p.halve_damage, p.damage_reduction, g.damage_bonus)


@lru_cache(maxsize=1024)
def _damage_dist(damage: DiceExpr, halve: bool, reduction: int, bonus: int) -> Dist:
    """(The law for these numbers, built once: every profile and group with them shares it.)"""
    return damage.dist.map(lambda d: modified_damage(d, halve, reduction, bonus))


def fnp_probability(p: Profile, mortal: bool = False) -> float:
    """P(a wound is ignored): against mortal wounds the better of FNP and FNP_mortal is used."""
    return _fnp_probability(p.fnp_mortal if mortal else p.fnp)


@lru_cache(maxsize=16)
def _fnp_probability(fnp: int | None) -> float:
    return sum(bool(fnp_passes(f, fnp)) for f in FACES) / 6


def effective_damage(g: WeaponGroup, p: Profile, mortal: bool = False) -> Dist:
    """Wounds the model would lose: each damage point is ignored on a passed Feel No Pain roll
    (Devastating Wounds inflict mortal wounds, so a Feel No Pain against mortal wounds counts)."""
    fnp = p.fnp_mortal if mortal else p.fnp
    return _effective_damage(g.damage, p.halve_damage, p.damage_reduction, g.damage_bonus, fnp)


@lru_cache(maxsize=1024)
def _effective_damage(damage: DiceExpr, halve: bool, reduction: int, bonus: int, fnp: int | None) -> Dist:
    d = _damage_dist(damage, halve, reduction, bonus)
    q = _fnp_probability(fnp)
    return d if q == 0 else d.thin(1.0 - q)


def token_save(g: WeaponGroup, p: Profile, devastating: bool) -> float:
    """No saving throw of any kind against a Devastating Wounds Critical Wound."""
    return 0.0 if devastating else save_probability(g, p)


def ignored_probability(g: WeaponGroup, p: Profile) -> float:
    """P(a Devastating Wounds token takes no wound from ``p``) (zero damage, or every point ignored)."""
    return effective_damage(g, p, True)[0]


@dataclass
class Allocation:
    """The chain of a 40k target for the weapon groups ``groups`` (token kinds ``(kind, group)``)."""

    target: Target
    groups: list[WeaponGroup]
    track: bool  # count failed saves (the unit's models save differently)
    max_tokens: int
    flag: int | None = None  # with the unit's one re-rolls: the starting flag state (a flag axis)

    def __post_init__(self) -> None:
        ids: dict[Profile, int] = {}  # identical models share their laws: one id per profile
        self.profiles = (self.target.bodyguard, self.target.leaders)
        self.bodyguard, self.leaders = (
            _queue(tuple(p.W for p in ps), tuple(ids.setdefault(p, len(ids)) for p in ps))
            for ps in self.profiles
        )
        self.distinct = tuple(ids)  # the profiles, in the order of their ids
        self.last = (self.target.leaders or self.target.bodyguard)[-1]
        self._laws: dict[tuple[tuple[str, int], Profile | None, int], Law] = {}
        self._damage: dict[tuple, tuple[float, dict[int, float]]] = {}
        self.chain = Chain(
            (self.bodyguard, self.leaders),
            self.route,
            self.law,
            max_unsaved=self.max_tokens if self.track else None,
            max_states=MAX_STATES,
            max_cells=MAX_CELLS,
            signature=self.signature,
        )
        if self.flag is not None:
            self.chain.state = np.zeros((FLAG_STATES, self.chain.U, self.chain.n))
            self.chain.state[self.flag, 0, 0] = 1.0

    # ------------------------------------------------------------------ the chain's parameters
    def route(self, kind: tuple[str, int], state: tuple[int, ...]) -> int | None:
        b, c = state
        b_alive, c_alive = b < self.bodyguard.total, c < self.leaders.total
        precision_first = c_alive and self.groups[kind[1]].ab.precision
        if c_alive and (precision_first or not b_alive):
            return 1
        return 0 if b_alive else None

    def signature(self, kind: tuple[str, int]) -> tuple:
        """What fixes the route and the laws of a token of ``kind`` on these queues (so chains of
        other scenarios with the same numbers share its operator): the kind, Precision, and per
        profile id the save and the wounds lost (and the left-over tokens' save)."""
        what, gi = kind
        g = self.groups[gi]
        last = token_save(g, self.last, what != NORMAL) if self.track else 1.0
        laws = tuple(
            (ps, tuple(e.items())) for ps, e in (self._save_and_damage(kind, p) for p in self.distinct)
        )
        return what, g.ab.precision, last, laws

    def law(self, kind: tuple[str, int], queue: int | None, model: int, left: int) -> Law:
        p = None if queue is None else self.profiles[queue][model]
        key = (kind, p, left)
        if key not in self._laws:  # identical models share their law
            self._laws[key] = self._law(kind, p, left)
        return self._laws[key]

    def _law(self, kind: tuple[str, int], p: Profile | None, left: int) -> Law:
        what, gi = kind
        g = self.groups[gi]
        dev = what != NORMAL
        if p is None:  # the unit is destroyed: saves fast-rolled against the last model
            ps = token_save(g, self.last, dev) if self.track else 1.0
            return {(0, 0): ps, (0, 1): 1.0 - ps}
        ps, e = self._save_and_damage(kind, p)
        if what == DEVASTATING_HIT:  # conditioned on taking at least one wound
            rest = 1.0 - e.get(0, 0.0)
            if rest <= 0:
                return {(0, 1): 1.0}
            e = {k: pk / rest for k, pk in e.items() if k > 0}
        out: dict[tuple[int, int], float] = {(0, 0): ps} if ps else {}
        for k, pk in e.items():
            key = (min(k, left), 1)
            out[key] = out.get(key, 0.0) + (1.0 - ps) * pk
        return out

    def _save_and_damage(self, kind: tuple[str, int], p: Profile) -> tuple[float, dict[int, float]]:
        """(P(save passes), law of wounds lost) of a token on ``p``, whatever its wounds left."""
        key = (kind, p)
        if key not in self._damage:
            g, dev = self.groups[kind[1]], kind[0] != NORMAL
            self._damage[key] = (token_save(g, p, dev), effective_damage(g, p, dev).to_dict())
        return self._damage[key]

    # ------------------------------------------------------------------ Devastating Wounds
    def devastating_hold(self, gi: int, count_only: bool) -> tuple[Hold, str]:
        """How a group's Devastating Wounds tokens are held, and the kind released later.

        ``count_only``: only their failed saves are wanted (one each, counted at once), not the
        unit state, so nothing is held."""
        if count_only:
            return Hold(cap=0, unsaved=True), DEVASTATING
        g = self.groups[gi]
        ignored = {ignored_probability(g, p) for p in self.target.all_profiles}
        if max(ignored) - min(ignored) < 1e-15:
            cap = self.bodyguard.total + self.leaders.total
            return Hold(advance=1.0 - max(ignored), cap=cap, unsaved=True), DEVASTATING_HIT
        return Hold(unsaved=True), DEVASTATING

    def run(
        self, per_attack: list, attacks: list[Dist], normal: list[Dist], count_only: bool = False
    ) -> None:
        """Allocate every group's tokens in order: normal wounds by their count (``normal[gi]``:
        the normal wounds of one attack), a Devastating Wounds group attack by attack
        (``per_attack[gi]`` its (normal, devastating) table, None for other groups), its
        Devastating Wounds released after all other attacks, in group order."""
        chain = self.chain
        pending: list[tuple[int, str]] = []
        for gi, (table, n) in enumerate(zip(per_attack, attacks, strict=True)):
            if table is None:
                chain.absorb_each((NORMAL, gi), normal[gi], n)
                continue
            hold, later = self.devastating_hold(gi, count_only)
            if chain.absorb_attacks((NORMAL, gi), table, n, hold):
                pending.append((gi, later))
        for gi, later in pending:
            chain.release((later, gi), count=False)  # their failed saves were counted when held

    def plan(self, per_attack: list, attacks: list[Dist], tokens: list[Dist], count_only: bool) -> None:
        """Refuse up front, with the estimate, what would take more than :data:`MAX_WORK`
        (``tokens[gi]``: the law of all the wound tokens of group ``gi``, for the estimate: its
        count beyond which less than 1e-15 of mass remains, :func:`~grimdice.engine.allocation.upper`).
        Call it before :meth:`run`."""
        chain = self.chain
        work, held, pending = 0.0, 1, []
        for gi, (table, n) in enumerate(zip(per_attack, attacks, strict=True)):
            if table is None:
                work += chain.work(upper(tokens[gi]), held)
                continue
            hold, _ = self.devastating_hold(gi, count_only)
            rows, cols = _shape(table)
            most = (cols - 1) * n.max
            size = (most if hold.cap is None else min(hold.cap, most)) + 1
            held *= size
            work += chain.work(n.max * (rows - 1), held) * (1 if self.flag is None else FLAG_STATES)
            work += n.max * _array_ops(table) * (held * chain.U * chain.n + OP_COST)
            pending.append(size)
            if held * chain.U * chain.n > MAX_HELD_CELLS:
                raise ScenarioError(
                    "attacker",
                    f"too many Devastating Wounds weapons for the exact engine ({held} held counts x "
                    f"{chain.U * chain.n} states, the limit is {MAX_HELD_CELLS} cells); use --simulate N",
                )
        for size in pending:
            held //= size
            work += chain.work(size - 1, held)
        chain.refuse_over(work, MAX_WORK, f"{chain.n} unit states, up to {self.max_tokens} wounds")


@lru_cache(maxsize=64)
def _queue(wounds: tuple[int, ...], types: tuple[int, ...]) -> Queue:
    """One :class:`Queue` per shape, so its positions are worked out once (a queue is immutable)."""
    return Queue(wounds, types)


def _array_ops(table: np.ndarray | dict) -> int:
    """Whole-array operations one attack costs besides its tokens' allocation: per possible
    (normal, devastating) outcome, a weighted add and a shift per held token."""
    tables = table.values() if isinstance(table, dict) else [table]
    return sum(int(((t > 0) * (2 + 4 * np.arange(t.shape[1]))[None, :]).sum()) for t in tables)


def _shape(table: np.ndarray | dict) -> tuple[int, int]:
    """(normal, devastating) extent of a per-attack table, or of the largest of a flag dict."""
    if isinstance(table, dict):
        return max(t.shape[0] for t in table.values()), max(t.shape[1] for t in table.values())
    return table.shape[0], table.shape[1]


__all__ = ["Allocation", "damage_dist", "effective_damage", "fnp_probability", "token_save"]
