"""Heresy wound allocation on the shared chain (:mod:`grimdice.engine.allocation`).

What is Heresy's here is only what the chain is parametrised by:

* the **queues**: the defending models closest first (allocation order), without the Precision
  target model, and the Precision target model on its own;
* the **routing**: a Precision wound goes to the chosen model while it lives (Precision Shots /
  Strikes); any other wound goes to the closest model, which is the chosen model once every model
  before it in allocation order is removed;
* the **law of one wound** on a model: Rending/Breaching (AP 2) or not, the one save it takes
  (Heavy: a failed armour save re-rolled against Blast/Template), Damage Mitigation, Instant Death
  (Eternal Warrior: one wound), and Brutal (X): the wound is X wounds on that model, each saved
  separately, none spilling over to another model.

A group's Precision wounds are allocated first (its own fire group), its other wounds held back and
allocated right after; groups go in order (shooting as listed, melee by Initiative step).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.engine.allocation import Chain, Hold, Law, Queue
from grimdice.errors import ScenarioError
from grimdice.systems.heresy.rolls import FACES, mitigation_target, passes, wounds_lost
from grimdice.systems.heresy.units import Profile, StrikeGroup, Target

MAX_STATES = 4000  # unit states: (other models' wounds + 1) x (Precision model's wounds + 1)
MAX_WORK = 2e10  # multiply-adds allowed for the exact allocation (a few seconds)
MAX_CELLS = 8_000_000  # held counts x failed saves x unit states (x batch rows)


def p_pass(target: int) -> float:
    """P(a D6 test of ``target``+ passes)."""
    return sum(bool(passes(f, target)) for f in FACES) / 6


@dataclass(frozen=True)
class GroupLaw:
    """One group's wounds: per attack ``table[Precision wounds, other wounds]``, the attacks."""

    table: np.ndarray
    attacks: Dist
    special: float  # P(a wound is Rending/Breaching, AP 2)

    @property
    def precision(self) -> bool:
        return self.table.shape[0] > 1

    def others(self) -> Dist:
        """The law of the group's other wounds (all of them without Precision)."""
        return Dist(self.table.sum(axis=0)).sum_of(self.attacks)

    def total(self) -> Dist:
        idx = np.add.outer(np.arange(self.table.shape[0]), np.arange(self.table.shape[1]))
        return Dist(np.bincount(idx.ravel(), weights=self.table.ravel())).sum_of(self.attacks)


class Allocation:
    """The chain of a Heresy target for strike groups ``groups`` (token kinds ``(group, precision)``)."""

    def __init__(self, target: Target, groups: list[StrikeGroup], laws: list[GroupLaw], count_unsaved: bool):
        self.target, self.groups, self.laws = target, groups, laws
        self._laws: dict[tuple[tuple[int, bool], Profile, int], Law] = {}
        k = target.precision_index
        self.others = tuple(p for i, p in enumerate(target.profiles) if i != k)
        self.tp = target.profiles[k] if k is not None else None
        self.queue = Queue(tuple(p.W for p in self.others))
        self.precision_queue = Queue((self.tp.W,) if self.tp is not None else ())
        self.before = int(self.queue.prefix[k]) if k is not None else 0
        self.max_tokens = sum(x.total().max for x in laws)
        max_unsaved = sum(x.total().max * g.rules.brutal for g, x in zip(groups, laws, strict=True))
        self.chain = Chain(
            (self.queue, self.precision_queue),
            self.route,
            self.law,
            max_unsaved=max_unsaved if count_unsaved else None,
            max_states=MAX_STATES,
        )

    @property
    def nc(self) -> int:
        return self.queue.states

    @property
    def nt(self) -> int:
        return self.precision_queue.states

    # ------------------------------------------------------------------ the chain's parameters
    def route(self, kind: tuple[int, bool], state: tuple[int, ...]) -> int | None:
        c, t = state
        if self.tp is not None and t < self.tp.W and (kind[1] or c >= self.before):
            return 1
        return 0 if c < self.queue.total else None

    def law(self, kind: tuple[int, bool], queue: int | None, model: int, left: int) -> Law:
        if queue is None:
            return {(0, 0): 1.0}  # the unit is destroyed: further wounds are not allocated
        g = self.groups[kind[0]]
        p = self.tp if queue == 1 else self.others[model]
        assert p is not None
        key = (kind, p, left)
        if key in self._laws:  # identical models share their law
            return self._laws[key]
        r = self.laws[kind[0]].special
        out: dict[tuple[int, int], float] = {}
        for special, w in ((False, 1.0 - r), (True, r)):
            if w == 0:
                continue
            for outcome, q in self.token(g, p, special, left).items():
                out[outcome] = out.get(outcome, 0.0) + w * q
        self._laws[key] = out
        return out

    def outcome(self, g: StrikeGroup, p: Profile, special: bool) -> tuple[float, float, bool]:
        """(P(save passes), P(mitigated | save failed), Instant Death) of a wound of ``g`` on ``p``."""
        t, rerolled = g.save(p, special, self.target)
        ps = p_pass(t)
        ps = 1 - (1 - ps) ** 2 if rerolled else ps
        inst = g.is_instant_death(p)
        mt = mitigation_target(
            p.fnp, p.shrouded, melee=g.melee, ignores_cover=g.ignores_cover, instant_death=inst
        )
        return ps, p_pass(mt), inst

    def token(self, g: StrikeGroup, p: Profile, special: bool, left: int) -> dict[tuple[int, int], float]:
        """``{(wounds lost, failed saves): probability}`` of one wound allocated to ``p`` with
        ``left`` wounds: Brutal (X) makes it X wounds, each saved separately, none spilling over."""
        ps, pm, inst = self.outcome(g, p, special)
        law = {(left, 0): 1.0}
        for _ in range(g.rules.brutal):
            nxt: dict[tuple[int, int], float] = {}
            for (lv, du), q in law.items():
                if lv == 0:  # the model is removed: the rest are lost
                    steps = [((lv, du), q)]
                else:
                    lost = int(wounds_lost(lv, inst, p.eternal_warrior))
                    steps = [((lv, du), q * ps), ((lv, du + 1), q * (1 - ps) * pm)]
                    steps.append(((lv - lost, du + 1), q * (1 - ps) * (1 - pm)))
                for key, v in steps:
                    nxt[key] = nxt.get(key, 0.0) + v
            law = nxt
        return {(left - lv, du): q for (lv, du), q in law.items()}

    # ------------------------------------------------------------------ running
    def plan(self, batch: int = 1) -> None:
        """Refuse up front, with the estimate, what would take more than :data:`MAX_WORK`
        (``batch``: rows of starting states run at once)."""
        chain, work = self.chain, 0.0
        for x in self.laws:
            if x.precision:
                held = (x.table.shape[1] - 1) * x.attacks.max + 1
                cells = held * batch * chain.U * chain.n
                if cells > MAX_CELLS:
                    raise ScenarioError(
                        "defender",
                        f"exact allocation is too large here (Precision wounds held against up to "
                        f"{held - 1} other wounds x {chain.U * chain.n} states); use --simulate N",
                    )
                work += chain.work(x.attacks.max * (x.table.shape[0] - 1), held) + chain.work(held - 1)
            else:
                work += chain.work(x.others().max)
        chain.refuse_over(work * batch, MAX_WORK, f"{chain.n} unit states, up to {self.max_tokens} wounds")

    def run(self) -> None:
        """Allocate every group's wounds in order: a group's Precision wounds first."""
        for gi, x in enumerate(self.laws):
            if x.precision:
                if self.chain.absorb_attacks((gi, True), x.table, x.attacks, Hold()):
                    self.chain.release((gi, False))
            else:
                self.chain.absorb((gi, False), x.others())


__all__ = ["Allocation", "GroupLaw", "p_pass"]
