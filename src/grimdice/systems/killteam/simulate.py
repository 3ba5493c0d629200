"""The Monte Carlo engine: attack and defence dice rolled literally, vectorised over trials.

It shares with the exact engine the dice predicates of :mod:`rolls` and the decision tables of
:mod:`solve` (which dice to re-roll, Rending, save characteristic and cover, allocation), looked up
per trial; the dice, the re-rolled dice and the bookkeeping are independent of :mod:`exact`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, cached_property

import numpy as np

from grimdice.dice.sampler import Sampler, column_layout
from grimdice.engine.pipeline import Roll
from grimdice.systems.killteam.rolls import (
    CRIT,
    NORMAL,
    ONE,
    attack_roll,
    defence_dice,
    effective_ap,
    save_roll,
)
from grimdice.systems.killteam.solve import ShotPolicy


def fresh_counts(s: Sampler, roll: Roll, dice: np.ndarray) -> np.ndarray:
    """Roll ``dice[t]`` fresh dice for each trial ``t`` (flat, :meth:`Roll.sample`): ``(trials,
    ncat - 1)`` counts per category, zeros without rolling when no trial rolls any."""
    if dice.any():
        return roll.sample(s, dice)
    return np.zeros((dice.size, roll.ncat - 1), dtype=np.int64)


GROUP = 4  # dice packed into one table index (7**4 entries: faces 1-6 and 0 for "no die")


@dataclass(frozen=True)
class PoolCode:
    """Counts per category of small D6 pools, packed into one code by table look-up: a category
    ``j`` die adds ``weights[j]`` (the "nothing" category adds 0), so with ``weights = (r*r, r,
    1)`` the code of ``c`` crits, ``h`` hits and ``o`` ones is ``(c * r + h) * r + o``.

    The dice are rolled by column (:meth:`~grimdice.dice.Sampler.columns`: the padding is drawn
    but not counted as dice, and reads as a face 0 adding nothing); each group of up to
    :data:`GROUP` dice of a trial is packed into one base-7 index and its share of the code read
    from one table of ``7**GROUP`` entries built once from the roll's predicate (per face, as
    :meth:`~grimdice.engine.pipeline.Roll.sample` sorts faces): one ``np.take`` per four dice
    where a per-category count pays a pass per category and a split of the sums."""

    roll: Roll
    weights: tuple[int, ...]

    @cached_property
    def table(self) -> np.ndarray:
        if self.roll.die.faces != (1, 2, 3, 4, 5, 6) or np.any(self.roll.reroll(np.arange(1, 7))):
            raise ValueError("a packed pool is a D6 roll without re-rolls")
        cat = np.asarray(self.roll.categorize(np.arange(1, 7)), dtype=np.int64)
        word = np.zeros(7, dtype=np.int64)  # by face, 0: no die
        for j, w in enumerate(self.weights):
            word[1:][cat == j] = w
        table = np.zeros(7**GROUP, dtype=np.int64)
        for d in range(GROUP):
            table += word[np.arange(7**GROUP) // 7**d % 7]
        return table

    def sample(self, s: Sampler, dice: np.ndarray) -> np.ndarray:
        """Roll ``dice[t]`` fresh dice for each trial ``t``; the code of each trial's counts."""
        top, valid = column_layout(dice)
        code = np.zeros(dice.size, dtype=np.int64)
        if top == 0:
            return code
        faces = s.columns(dice)
        if valid is not None:
            faces *= valid  # padding reads as no die
        for j in range(0, top, GROUP):
            idx = faces[j].astype(np.int16)
            for row in faces[j + 1 : j + GROUP]:
                idx *= 7
                idx += row
            code += np.take(self.table, idx)
        return code


@cache
def attack_code(bs: int, lethal: int, radix: int) -> PoolCode:
    """Attack dice packed as ``(crits * radix + hits) * radix + ones``."""
    return PoolCode(attack_roll(bs, lethal), (radix * radix, radix, 1))


@cache
def save_code(sv: int, radix: int) -> PoolCode:
    """Defence dice packed as ``critical saves * radix + normal saves``."""
    return PoolCode(save_roll(sv), (radix, 1))


@dataclass(frozen=True)
class Rows:
    """Several per-cell tables on one index as one matrix (int16 when every value fits): one
    gather of a row per trial instead of one gather per table."""

    names: tuple[str, ...]
    matrix: np.ndarray

    @classmethod
    def of(cls, tables: dict[str, np.ndarray]) -> Rows:
        m = np.stack(list(tables.values()), axis=1)
        small = m.size == 0 or (int(m.min()) >= -(2**15) and int(m.max()) < 2**15)
        return cls(tuple(tables), np.ascontiguousarray(m, dtype=np.int16 if small else np.int64))

    def take(self, at: np.ndarray) -> dict[str, np.ndarray]:
        rows = np.take(self.matrix, at, axis=0)
        return {k: rows[:, j] for j, k in enumerate(self.names)}


@dataclass(frozen=True)
class ShotTables:
    """A :class:`ShotPolicy`'s decisions and the bookkeeping of one attack as flat tables (built
    once per attack, not per block of trials), each read with one ``np.take`` per trial:

    * by ``first = w * (n+1)**3 + (c * (n+1) + h) * (n+1) + o`` (wounds left, the first roll's
      counts): ``kept`` the code of the dice the re-roll keeps, ``fresh`` how many it rolls again;
    * by ``after``, the same code after the re-roll: ``hits``, ``crits`` (Rending applied),
      ``mortal``, ``ones``, ``stunned``, the defence dice rolled on SV (``sv_dice``) or on the
      invulnerable save (``inv_dice``), ``retained`` (a cover save retained) and ``base``, the
      allocation row ``(w1 * (n+1) + c) * (n+1) + h`` once mortal wounds are dealt;
    * by ``base * d**2 + cs * d + ns`` (``d`` = ``alloc.shape[3]``, ``ns`` the retained save
      included): ``unsaved``, ``saves`` and ``w``, the wounds left after the attack.

    An operative already incapacitated (``w = 0``) makes no attack: its rows roll no dice and are
    all zero."""

    policy: ShotPolicy
    kept: np.ndarray
    fresh: np.ndarray
    after: Rows
    saved: Rows

    @classmethod
    def of(cls, pol: ShotPolicy) -> ShotTables:
        sp = pol.spec
        n = sp.dice
        n1 = n + 1
        w, c, h, o = (x.reshape(-1) for x in np.indices(pol.reroll.shape[:4]))
        made = w > 0
        picked = pol.reroll[w, c, h, o, np.maximum(n - c - h - o, 0)]
        kept = ((c - picked[:, CRIT]) * n1 + h - picked[:, NORMAL]) * n1 + o - picked[:, ONE]
        # after the re-roll (the same grid read as the counts held): Rending, mortal wounds, saves
        rend = pol.rending[w, c, h].astype(np.int64)
        cc, hh = c + rend, h - rend
        mw = sp.mw_per_crit * cc
        w1 = np.maximum(w - mw, 0)
        inv, ret = (x.astype(bool) for x in pol.option[w, cc, hh].T)
        ap = np.where(cc > 0, effective_ap(sp.rules.ap, sp.rules.piercing, 1), sp.rules.ap)
        k = np.where(inv, defence_dice(sp.df, 0, True), np.maximum(sp.df - ap, 0))
        defend = (cc + hh > 0) & (w1 > 0)
        rolled = np.where(defend, np.maximum(k - ret, 0), 0)
        after = {
            "hits": cc + hh,
            "crits": cc,
            "mortal": mw,
            "ones": o,
            "stunned": (cc > 0).astype(np.int64),
            "sv_dice": np.where(inv, 0, rolled),
            "inv_dice": np.where(inv, rolled, 0),
            "retained": (ret & defend).astype(np.int64),
            "base": (w1 * n1 + cc) * n1 + hh,
        }
        # the defender's allocation of its saves (the defence dice rolled and the retained save)
        w1, c, h, cs, ns = (x.reshape(-1) for x in np.indices(pol.alloc.shape[:5]))
        defend = (c + h > 0) & (w1 > 0)
        uc, un = (np.where(defend, x, 0).astype(np.int64) for x in pol.alloc.reshape(-1, 2).T)
        saved = {
            "unsaved": uc + un,
            "saves": np.where(defend, cs + ns, 0),
            "w": np.maximum(w1 - uc * sp.critical - un * sp.normal, 0),
        }
        return cls(
            pol,
            np.where(made, kept, 0),
            np.where(made, picked.sum(axis=1), 0),
            Rows.of({key: np.where(made, v, 0) for key, v in after.items()}),
            Rows.of(saved),
        )


def simulate_shot(s: Sampler, tab: ShotTables, w: np.ndarray) -> dict[str, np.ndarray]:
    """One attack in every trial from wounds left ``w``; returns per-trial counts and ``w`` after.

    The attack dice of all trials are rolled and sorted by the per-face table of
    :func:`~grimdice.systems.killteam.rolls.attack_roll`, their counts packed into one code
    (:class:`PoolCode`); a re-roll picks up the dice of each category the policy names and rolls
    as many fresh dice (the code of the dice kept plus the fresh dice's code is the code after the
    re-roll); the defence dice are rolled as one pool for the trials saving on SV and one for
    those using the invulnerable save. Everything else is a look-up in :class:`ShotTables`.
    Trials whose target is already incapacitated roll nothing."""
    sp = tab.policy.spec
    n1, d1 = sp.dice + 1, tab.policy.alloc.shape[3]
    attack = attack_code(sp.bs, sp.rules.lethal, n1)
    at = w * n1**3 + attack.sample(s, np.where(w > 0, sp.dice, 0))
    picked = np.take(tab.fresh, at)
    at = np.take(tab.kept, at) + attack.sample(s, picked) + w * n1**3
    out = tab.after.take(at)
    saves = save_code(sp.sv, d1).sample(s, out["sv_dice"])
    if sp.invulnerable is not None:
        saves += save_code(sp.invulnerable, d1).sample(s, out["inv_dice"])
    saved = tab.saved.take(out["base"].astype(np.int64) * d1**2 + saves + out["retained"])
    return {
        "hits": out["hits"],
        "critical_hits": out["crits"],
        "saves": saved["saves"],
        "unsaved": saved["unsaved"],
        "mortal_wounds": out["mortal"],
        "stunned": out["stunned"],
        "ones": out["ones"],
        "w": saved["w"].astype(np.int64),
    }


def simulate_sequence(s: Sampler, attacks: list[ShotTables], start: np.ndarray) -> dict[str, np.ndarray]:
    """Per-trial totals over the sequence (``ones:<shooter>`` per shooter) and final wounds ``w``."""
    policies = [t.policy for t in attacks]
    w = start.astype(np.int64).copy()
    tot: dict[str, np.ndarray] = {
        k: np.zeros(w.size, dtype=np.int64)
        for k in ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "stunned")
    }
    for sh in sorted({p.spec.shooter for p in policies}):
        tot[f"ones:{sh}"] = np.zeros(w.size, dtype=np.int64)
    for tab, pol in zip(attacks, policies, strict=True):
        out = simulate_shot(s, tab, w)
        for k in ("hits", "critical_hits", "saves", "unsaved", "mortal_wounds", "stunned"):
            tot[k] += out[k]
        if pol.spec.rules.hot:
            tot[f"ones:{pol.spec.shooter}"] += out["ones"]
        w = out["w"]
    tot["w"] = w
    return tot
