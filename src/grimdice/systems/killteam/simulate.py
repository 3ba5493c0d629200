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
from grimdice.engine.pipeline import CategoryRoll
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


def fresh_counts(s: Sampler, roll: CategoryRoll, dice: np.ndarray) -> np.ndarray:
    """Roll ``dice[t]`` fresh dice for each trial ``t`` (flat, :meth:`CategoryRoll.sample`): ``(trials,
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
    :meth:`~grimdice.engine.pipeline.CategoryRoll.sample` sorts faces): one ``np.take`` per four dice
    where a per-category count pays a pass per category and a split of the sums."""

    roll: CategoryRoll
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
    """Several per-cell tables on one index, as the columns of one matrix."""

    names: tuple[str, ...]
    matrix: np.ndarray

    @classmethod
    def of(cls, tables: dict[str, np.ndarray]) -> Rows:
        return cls(tuple(tables), np.stack(list(tables.values()), axis=1).astype(np.int64))

    def column(self, name: str, rows: np.ndarray | slice = slice(None)) -> np.ndarray:
        """One table (its ``rows``), contiguous."""
        return np.ascontiguousarray(self.matrix[rows, self.names.index(name)])


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

    def after_rows(self) -> np.ndarray:
        """The rows of ``after`` a trial can read: the counts of at most ``n`` dice."""
        n = self.policy.spec.dice
        _, c, h, o = np.indices(self.policy.reroll.shape[:4])
        return (c + h + o <= n).reshape(-1)

    def saved_rows(self) -> np.ndarray:
        """The rows of ``saved`` a trial can read: at most ``n`` hits, and at most as many saves
        as the defence dice (with the retained save)."""
        n, d = self.policy.spec.dice, self.policy.alloc.shape[3] - 1
        _, c, h, cs, ns = np.indices(self.policy.alloc.shape[:5])
        return ((c + h <= n) & (cs + ns <= d)).reshape(-1)

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


PACK_LIMIT = 1 << 16  # the most entries a packed code's joint histogram may have

SUMMED = {  # per-trial totals of a sequence: the stage name -> its column in ShotTables
    "hits": ("after", "hits"),
    "critical_hits": ("after", "crits"),
    "mortal_wounds": ("after", "mortal"),
    "stunned": ("after", "stunned"),
    "saves": ("saved", "saves"),
    "unsaved": ("saved", "unsaved"),
}


@dataclass(frozen=True)
class Packing:
    """Per-trial totals packed as digits of mixed-radix codes, a few totals to a code (at most
    :data:`PACK_LIMIT` codes each): a sum of packed codes is the code of the sums while no digit
    passes its radix, so each attack adds one looked-up code per group, and one histogram per group
    (exact counts) gives every total's histogram by summing the others out.

    ``groups`` lists per code its ``(name, radix)`` digits, the most significant first."""

    groups: tuple[tuple[tuple[str, int], ...], ...]

    @classmethod
    def of(cls, bounds: dict[str, int]) -> Packing:
        """Digits in the order given, each radix one more than the total's largest value."""
        groups: list[tuple[tuple[str, int], ...]] = []
        cur: list[tuple[str, int]] = []
        size = 1
        for name, most in bounds.items():
            radix = most + 1
            if cur and size * radix > PACK_LIMIT:
                groups.append(tuple(cur))
                cur, size = [], 1
            cur.append((name, radix))
            size *= radix
        if cur:
            groups.append(tuple(cur))
        return cls(tuple(groups))

    def place(self, name: str) -> tuple[int, int, int]:
        """``(code, place value, radix)`` of a total's digit."""
        for g, digits in enumerate(self.groups):
            names = [n for n, _ in digits]
            if name in names:
                j = names.index(name)
                return g, int(np.prod([r for _, r in digits[j + 1 :]], dtype=np.int64)), digits[j][1]
        raise KeyError(name)

    def digit(self, codes: list[np.ndarray], name: str) -> np.ndarray:
        """One total per trial, read back from the codes."""
        g, place, radix = self.place(name)
        return codes[g] // place % radix

    def marginals(self, counts: list[np.ndarray]) -> dict[str, np.ndarray]:
        """Each total's histogram (exact counts) from the codes' histograms."""
        out = {}
        for digits, c in zip(self.groups, counts, strict=True):
            radices = [r for _, r in digits]
            full = np.zeros(int(np.prod(radices, dtype=np.int64)), dtype=np.int64)
            full[: c.size] = c
            joint = full.reshape(radices)
            for axis, (name, _) in enumerate(digits):
                out[name] = joint.sum(axis=tuple(a for a in range(len(digits)) if a != axis))
        return out


@dataclass(frozen=True)
class PackedShot:
    """One attack's :class:`ShotTables` as the 1-D tables a sequence reads: the defence dice
    rolled (``sv_dice``, ``inv_dice``), ``save_base`` (the allocation row times ``d**2`` plus the
    retained save), Hot's ``ones``, and per code of the sequence's :class:`Packing` the packed
    totals looked up after the re-roll (``after``) and after the saves (``saved``; ``w`` the
    wounds left)."""

    tab: ShotTables
    sv_dice: np.ndarray
    inv_dice: np.ndarray | None
    save_base: np.ndarray
    ones: np.ndarray | None
    after: tuple[np.ndarray | None, ...]
    saved: tuple[np.ndarray | None, ...]
    w: np.ndarray
    rerolls: bool  # whether the policy ever re-rolls (else the first roll is kept as rolled)

    @classmethod
    def of(cls, tab: ShotTables, packing: Packing) -> PackedShot:
        sp = tab.policy.spec
        d1 = tab.policy.alloc.shape[3]

        parts: dict[str, list[np.ndarray | None]] = {"after": [], "saved": []}
        for digits in packing.groups:
            for side, rows in (("after", tab.after), ("saved", tab.saved)):
                part = None
                for name, _ in digits:
                    where, column = SUMMED[name]
                    if where == side:
                        _, place, _ = packing.place(name)
                        add = rows.column(column) * place
                        part = add if part is None else part + add
                parts[side].append(part if part is not None and part.any() else None)
        return cls(
            tab,
            tab.after.column("sv_dice"),
            tab.after.column("inv_dice") if sp.invulnerable is not None else None,
            tab.after.column("base") * d1**2 + tab.after.column("retained"),
            tab.after.column("ones") if sp.rules.hot else None,
            tuple(parts["after"]),
            tuple(parts["saved"]),
            tab.saved.column("w"),
            bool(tab.fresh.any()),
        )

    def play(self, s: Sampler, w: np.ndarray, codes: list[np.ndarray], ones: np.ndarray | None) -> np.ndarray:
        """The attack in every trial from wounds left ``w``: its totals added to ``codes`` (and its
        discarded ones to ``ones``, for Hot); returns the wounds left after it.

        The attack dice of all trials are rolled and sorted by the per-face table of
        :func:`~grimdice.systems.killteam.rolls.attack_roll`, their counts packed into one code
        (:class:`PoolCode`); a re-roll picks up the dice of each category the policy names and
        rolls as many fresh dice (the code of the dice kept plus the fresh dice's code is the code
        after the re-roll); the defence dice are rolled as one pool for the trials saving on SV and
        one for those using the invulnerable save. Everything else is a look-up. Trials whose
        target is already incapacitated roll nothing."""
        tab = self.tab
        sp = tab.policy.spec
        n1, d1 = sp.dice + 1, tab.policy.alloc.shape[3]
        attack = attack_code(sp.bs, sp.rules.lethal, n1)
        at = w * n1**3 + attack.sample(s, np.where(w > 0, sp.dice, 0))
        if self.rerolls:
            picked = np.take(tab.fresh, at)
            at = np.take(tab.kept, at) + attack.sample(s, picked) + w * n1**3
        saves = save_code(sp.sv, d1).sample(s, np.take(self.sv_dice, at))
        if self.inv_dice is not None:
            saves += save_code(sp.invulnerable, d1).sample(s, np.take(self.inv_dice, at))
        saves += np.take(self.save_base, at)
        if ones is not None and self.ones is not None:
            ones += np.take(self.ones, at)
        for code, a, v in zip(codes, self.after, self.saved, strict=True):
            if a is not None:
                code += np.take(a, at)
            if v is not None:
                code += np.take(v, saves)
        return np.take(self.w, saves)


@dataclass(frozen=True)
class PackedSequence:
    """The attacks on one operative in order, with the :class:`Packing` of their totals (the
    names given, bounded by the sum of each attack's largest value, plus ``shift`` for totals
    that start above zero) and the shooters whose Hot ones are counted."""

    shots: tuple[PackedShot, ...]
    packing: Packing
    hot: tuple[str, ...]

    @classmethod
    def of(
        cls, tables: list[ShotTables], names: tuple[str, ...], shift: dict[str, int] | None = None
    ) -> PackedSequence:
        live = [{"after": (t.after, t.after_rows()), "saved": (t.saved, t.saved_rows())} for t in tables]
        bounds = {}
        for name in names:
            where, column = SUMMED[name]
            most = (shift or {}).get(name, 0)
            for tab in live:
                rows, reached = tab[where]
                most += int(rows.column(column, reached).max(initial=0))
            bounds[name] = most
        packing = Packing.of(bounds)
        hot = tuple(sorted({t.policy.spec.shooter for t in tables if t.policy.spec.rules.hot}))
        return cls(tuple(PackedShot.of(t, packing) for t in tables), packing, hot)

    def play(
        self, s: Sampler, start: np.ndarray, shift: dict[str, np.ndarray] | None = None
    ) -> tuple[list[np.ndarray], np.ndarray, dict[str, np.ndarray]]:
        """Every attack in every trial from wounds left ``start`` (totals starting at ``shift``):
        the packed codes of the totals, the wounds left after the sequence, and the ones rolled by
        each Hot shooter."""
        codes = [np.zeros(start.size, dtype=np.int64) for _ in self.packing.groups]
        for name, v in (shift or {}).items():
            g, place, _ = self.packing.place(name)
            codes[g] += v * place
        ones = {sh: np.zeros(start.size, dtype=np.int64) for sh in self.hot}
        w = start.astype(np.int64)
        for shot in self.shots:
            w = shot.play(s, w, codes, ones.get(shot.tab.policy.spec.shooter))
        return codes, w, ones
