"""An attack's resolution: the :class:`Attack` an engine plays and the pieces shooting
(:mod:`.shoot`) and melee (:mod:`.melee`) share (sections II, III, IV, VIII, IX).

Each resolution is written once as a deterministic function of the final totals and of the force
field dice (``outcome``); the exact engine averages it over the red die of +F, Monte Carlo rolls it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from grimdice.dice.fold import face_law
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.contest import Layout, Spec
from grimdice.systems.crusade.damage import KILLED, State
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rolls import RED, Pool
from grimdice.systems.crusade.units import Arm, Fighter

THROW = -1  # the attacker's choice to throw instead of doing damage (IX THROW)
D_THROW = -2  # the defender's choice to throw instead of doing damage (IX THROW)
THROWN = {THROW: 1, D_THROW: 2}  # the "throw" feature: who threw
FF_FACES = face_law(RED.faces)  # IX +F: one red die
NO_FF = ((0, 1.0),)


@dataclass
class Attack:
    """Everything an engine needs for one attack."""

    spec: Spec
    outcome: Callable[..., tuple]  # deterministic outcome (see the two builders)
    options: Callable[[int, int, int], int]  # attacker's resolution choice (pull-back), solved
    att: Fighter
    dfd: Fighter
    arms: tuple[Arm, ...]
    def_arms: tuple[Arm, ...]
    ff_att: tuple[tuple[int, float], ...]
    ff_def: tuple[tuple[int, float], ...]
    notes: list[str] = field(default_factory=list)
    info: dict = field(default_factory=dict)
    #: IX MOB: (at, dt, parry, pull) -> every mob model's end state (the lead attacker first)
    mob: Callable[[int, int, int, int], tuple[State, ...]] | None = None


def all_arms(arms: tuple[Arm, ...], key: str) -> bool:
    """Reading ``combined_effects``: a roll modifier acts on a combined fire if every weapon has it."""
    return bool(arms) and all(a.fx.get(key) for a in arms)


def grazes_of(arms: tuple[Arm, ...]) -> frozenset[str]:
    """The graze codes of the weapons used (III/IV: the attacker chooses among them)."""
    out: frozenset[str] = frozenset()
    for a in arms:
        out |= a.grazes
    return out


def pool_sum(pools: list[Pool]) -> Pool:
    """The dice of a combined fire or a melee: every pool added up."""
    total = Pool()
    for p in pools:
        total = total + p
    return total


def explodes(arms: tuple[Arm, ...]) -> bool:
    """VIII EXPLODE / MALFUNCTION: a weapon used explodes, or rolls against its user, on a fail (the
    bearer's state where his roll failed is then tracked)."""
    return any(a.fail in ("explode", "malfunction") for a in arms)


def fails(arms: tuple[Arm, ...]) -> bool:
    """III: a weapon used has a fail effect (the target's state where the roll failed is tracked:
    P(fail and each result) is reported)."""
    return any(a.fail != "none" for a in arms)


def state_code(lay: Layout, side: str, s: State) -> int:
    """A side's end state as one code, condition x (hits left + 1) (VIII EXPLODE: a bearer's state)."""
    hits = lay.slices[f"{side}_hits_left"]
    return s[0] * (hits.stop - hits.start) + s[1]


@lru_cache(maxsize=16_384)
def onehots(
    lay: Layout, d: State, a: State, dmg: int, admg: int, tie: bool, pulled: bool, throw: int = 0
) -> np.ndarray:
    """One end of an attack as the layout's features: both sides' end states, the damage each took,
    a tie, a pull-back, a throw and a kill by more than a graze (kept, read-only)."""
    v = _onehots(lay, d, a, dmg, admg, tie, pulled, throw)
    v.flags.writeable = False
    return v


def _onehots(
    lay: Layout, d: State, a: State, dmg: int, admg: int, tie: bool, pulled: bool, throw: int
) -> np.ndarray:
    joint = {}
    for side, s in (("att", a), ("def", d)):  # a bearer's state as one code: condition x (hits left + 1)
        if f"{side}_state" in lay.slices:
            joint[f"{side}_state"] = state_code(lay, side, s)
    return lay.onehot(
        **joint,
        throw=throw,
        def_condition=d[0],
        def_hits_left=d[1],
        att_condition=a[0],
        att_hits_left=a[1],
        damage=dmg,
        att_damage=admg,
        tie=int(tie),
        pull_back=int(pulled),
        big_kill=int(d[0] == KILLED and dmg >= 2),  # VIII VOLATILE: killed by more than a graze
    )


def fall_hits(sc: Scenario) -> int:
    """V FALLING: "For every 4" you fall, take 1 hit" when knocked back off an edge (VIII KB)."""
    if sc.knockback_into != "edge":
        if sc.fall:
            raise ScenarioError("fall", "a fall height applies with knockback_into: edge")
        return 0
    return int(sc.fall // 4)


def lex_better(a: list[float], b: list[float]) -> bool:
    """``a`` better than ``b`` in the order of their entries (differences within 1e-12 are ties)."""
    for x, y in zip(a, b, strict=True):
        if x > y + 1e-12:
            return True
        if x < y - 1e-12:
            return False
    return False


__all__ = [
    "D_THROW",
    "FF_FACES",
    "NO_FF",
    "THROW",
    "THROWN",
    "Attack",
    "all_arms",
    "explodes",
    "fails",
    "fall_hits",
    "grazes_of",
    "lex_better",
    "onehots",
    "pool_sum",
    "state_code",
]
