"""The Monte Carlo engine: the same rules, dice rolled literally, vectorised over trials.

It shares with the exact engine only the rule predicates in :mod:`rolls` and the resolved
profiles. Each trial allocates wounds one at a time (closest living model first; Precision wounds
to the chosen model while it lives) on the shared sampled queues (:class:`Wounds`), reading each
wound's outcome from a table built from those predicates (:class:`Outcomes`),
so agreement of the two engines is a real check of both.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from itertools import chain
from typing import Any

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.sampler import Sampler, column_counts, column_layout, lookup, per_trial
from grimdice.engine.allocation.sampled import SampledUnit
from grimdice.engine.montecarlo import TrialFn, sized_batches
from grimdice.engine.options import RunOptions
from grimdice.engine.packing import TallyWords, pack
from grimdice.result import Result
from grimdice.systems.heresy.fight import Side, fight_result, steps
from grimdice.systems.heresy.report import build_result
from grimdice.systems.heresy.rolls import (
    FACES,
    FAIL,
    NEVER,
    SPECIAL,
    WOUND,
    hit_roll,
    mitigation_target,
    passes,
    wound_result,
    wounds_lost,
)
from grimdice.systems.heresy.units import StrikeGroup, Target

ALL = 127  # "every wound left": the wounds lost to Instant Death, in the outcome tables
STRIDE = 3 * 6 * 6 * 6  # outcome table entries per model: wound kind, save, re-roll, Mitigation faces
TALLY = 16  # a trial's failed saves in the low bits of its tally word, the dice it rolled above
DICE_A_WOUND = 3  # the save die, the Heavy re-roll and the Mitigation die


def _shots(s: Sampler, g: StrikeGroup, trials: int, models: np.ndarray | None) -> np.ndarray:
    """Shots (attacks) per trial of the group's models (``models``: those striking, per trial)."""
    if g.shots.is_fixed:
        per = g.shots.constant
        n = np.full(trials, g.models * per, dtype=np.int64) if models is None else models * per
    else:
        per_model = s.expr(g.shots, trials * g.models).reshape(trials, g.models)
        if models is not None:
            per_model = per_model * (np.arange(g.models)[None, :] < models[:, None])
        n = per_model.sum(axis=1)
    return np.maximum(n, 0)


def roll_group(s: Sampler, g: StrikeGroup, trials: int, models: np.ndarray | None = None) -> dict[str, Any]:
    """Per trial: hits, Precision hits, wounds and Gets Hot 1s; and the wounds in the column
    layout (:func:`~grimdice.dice.sampler.column_layout`, dice order): ``code[j, t]`` FAIL (no
    wound: a miss, a failed Wound roll, no die), WOUND or SPECIAL, and ``prec[j, t]`` a Precision
    wound (None: there are none).
    ``models``: the number of the group's models striking in each trial (default: all of them).

    Faces are drawn for every slot (:meth:`Sampler.draw`) and only the dice the rules roll are
    counted: one To Hit die per shot, its re-roll where the first failed, one Wound die per hit,
    its re-roll where the first failed."""
    n = _shots(s, g, trials, models)
    rows, valid = column_layout(n)
    shape = (rows, trials)
    prec = None
    ones = None
    if g.rolls_to_hit:
        first, wound_face = s.draw_d6_pairs(shape)  # the To Hit and the Wound die of each slot
        s.dice += int(n.sum())
        ok = np.asarray(hit_roll(first, first, g.hit_target, None)[0])
        if valid is not None:
            ok &= valid
        if g.reroll_target is None:
            hit, final = ok, first
        else:
            second = s.draw(shape) + np.uint8(1)
            s.dice += int(n.sum()) - int(np.count_nonzero(ok))
            hit, final = (np.asarray(x) for x in hit_roll(first, second, g.hit_target, g.reroll_target))
            if valid is not None:
                hit &= valid
        if g.precision < NEVER:
            prec = hit & (final >= g.precision)
        if g.rules.gets_hot:
            ones = final == 1
            if valid is not None:
                ones &= valid
        nhits = column_counts(hit)
    else:
        fired = n
        if g.rules.gets_hot:
            face = s.draw(shape) + np.uint8(1)
            s.dice += int(n.sum())
            if g.may_reroll_hits:
                again = face == 1
                if valid is not None:
                    again &= valid
                s.dice += int(np.count_nonzero(again))
                face = np.where(again, s.draw(shape) + np.uint8(1), face)
            ones = face == 1
            if valid is not None:
                ones &= valid
            fired = n - column_counts(ones)
        per_shot = np.maximum(s.expr(g.hits_per_shot, int(fired.sum())), 0)
        nhits = per_trial(per_shot, fired)
        rows, hit_valid = column_layout(nhits)
        hit = np.ones((rows, trials), dtype=bool) if hit_valid is None else hit_valid
        wound_face = s.draw(hit.shape) + np.uint8(1)
    wounds = wound_results(s, g, hit, wound_face)
    return {
        "hits": nhits,
        "precision_hits": column_counts(prec) if prec is not None else np.zeros(trials, dtype=np.int64),
        "wounds": column_counts(wounds > 0),
        "ones": column_counts(ones) if ones is not None else np.zeros(trials, dtype=np.int64),
        "code": wounds,
        "prec": None if prec is None else prec & (wounds > 0),
    }


def wound_results(s: Sampler, g: StrikeGroup, hit: np.ndarray, face: np.ndarray) -> np.ndarray:
    """FAIL/WOUND/SPECIAL (uint8) of the Wound roll of every hit of a column-layout mask (FAIL
    where there is no hit), its die showing ``face``; a failed roll re-rolled once if the group
    may. Faces are looked up in a table of :func:`~grimdice.systems.heresy.rolls.wound_result`."""
    rule = wound_result(FACES, g.wound_target, g.rules.rending, g.rules.breaching)
    table = np.asarray(rule, dtype=np.uint8)
    res = lookup(face, table, 1, np.uint8)
    res *= hit
    s.dice += int(np.count_nonzero(hit))
    if g.wound_reroll:
        again = hit & (res == FAIL)
        s.dice += int(np.count_nonzero(again))
        res = np.where(again, lookup(s.draw(hit.shape), table, 0, np.uint8), res)
    return res


@dataclass(frozen=True)
class Outcomes:
    """What one wound of a group does, by look-up at ``m * STRIDE + part`` for model ``m`` of the
    queue (``m = M``: no model left, nothing happens) and ``part`` (:meth:`part`) of the wound's
    kind (FAIL: no wound) and its save, Heavy re-roll and Damage Mitigation faces: ``lost``, the
    wounds lost (:data:`ALL` for Instant Death), and ``tally``, whether the save failed plus the
    dice rolled times 2**16 (the save die where a save is possible, the Heavy re-roll where the
    armour save failed, the Mitigation die where the save failed and a Mitigation roll is
    possible). Built from the predicates of :mod:`rolls`."""

    lost: np.ndarray  # int32
    tally: np.ndarray  # int32
    heavy: bool  # some save is a re-rolled armour save (else the re-roll face is not drawn: 1)

    @classmethod
    def of(cls, target: Target, g: StrikeGroup) -> Outcomes:
        ps = target.profiles
        heavy = any(g.save(p, sp, target)[1] for p in ps for sp in (False, True))
        f = np.asarray(FACES, dtype=np.int64)
        b, a, c = f[:, None, None], f[None, :, None], f[None, None, :]  # re-roll, save, Mitigation
        lost = np.zeros((len(ps) + 1, 3, 6, 6, 6), dtype=np.int32)
        tally = np.zeros_like(lost)
        for m, p in enumerate(ps):
            inst = g.is_instant_death(p)
            amount = int(wounds_lost(ALL, inst, p.eternal_warrior))
            mt = mitigation_target(
                p.fnp, p.shrouded, melee=g.melee, ignores_cover=g.ignores_cover, instant_death=inst
            )
            for kind in (WOUND, SPECIAL):
                sv, rerolled = g.save(p, kind == SPECIAL, target)
                first = np.asarray(passes(a, sv))
                saved = first | np.asarray(passes(b, sv)) if rerolled else first
                failed = ~saved
                # counts as ints (NumPy adds booleans as "or"): the save die, the re-roll wherever
                # the first save failed, the Mitigation die wherever the save failed
                dice = (
                    int(sv < NEVER)
                    + (~first).astype(np.int32) * rerolled
                    + failed.astype(np.int32) * (mt < NEVER)
                )
                lost[m, kind] = (failed & ~np.asarray(passes(c, mt))) * amount
                tally[m, kind] = pack(failed, dice, TALLY)
        return cls(lost.reshape(-1), tally.reshape(-1), heavy)

    def part(self, s: Sampler, code: np.ndarray) -> np.ndarray:
        """The ``part`` (uint16) of every slot of a column layout of wound kinds: ``(kind * 6 +
        re-roll) * 36 + save * 6 + Mitigation`` (face indices ``0..5``; the save and Mitigation
        faces drawn as one 36-sided value, the re-roll face only where some save is re-rolled).
        Faces are drawn for every slot, not counted: :attr:`tally` counts the dice rolled."""
        part = code.astype(np.uint16)
        part *= np.uint16(6)
        if self.heavy:
            part += s.draw(code.shape)
        part *= np.uint16(36)
        part += s.draw(code.shape, 36)
        return part


OTHERS, CHOSEN = 0, 1  # the unit's queues: the other models closest first, the Precision model


class Wounds:
    """The defending unit in every trial, on the shared sampled queues
    (:class:`~grimdice.engine.allocation.sampled.SampledUnit`), the exact chain's: the models closest
    first without the Precision target model, and that model on its own. A wound goes to the
    closest living model (the chosen model once every model before it is removed) or, a Precision
    wound, to the chosen model while it lives. Failed saves and the dice the saves rolled are
    counted in tally words (:class:`~grimdice.engine.packing.TallyWords`)."""

    def __init__(self, target: Target, trials: int) -> None:
        wounds = [p.W for p in target.profiles]
        self.M = len(wounds)
        self.k = k = target.precision_index
        self.unit = SampledUnit(
            ([w for i, w in enumerate(wounds) if i != k], [wounds[k]] if k is not None else []), trials
        )
        # the outcome table's row of each model of the others' queue (past the end: M, no model)
        self.row = np.array([i for i in range(self.M) if i != k] + [self.M], dtype=np.int64) * STRIDE
        self.tally = TallyWords(trials, TALLY)
        self.target_wounds = wounds[k] if k is not None else 0
        # per trial: the outcome table row of the closest living model; whether that is the chosen
        # model; whether the chosen model lives (kept up to date as models are removed)
        self.closest_row = np.zeros(trials, dtype=np.int64)  # model 0, the chosen one or not
        self.closest_k = None if k is None else np.full(trials, k == 0)
        self.k_alive = np.ones(trials, dtype=bool)

    def strike(
        self, s: Sampler, out: Outcomes, code: np.ndarray, prec: np.ndarray | None, brutal: int
    ) -> None:
        """Allocate one group's wounds (column layout) in every trial, Precision wounds first, each
        part in dice order; one row at a time, every trial at once."""
        parts = [out.part(s, code) for _ in range(brutal)]
        rows = range(code.shape[0])
        if prec is None or self.k is None:
            wounds: Iterator[tuple[list[np.ndarray], np.ndarray | None]] = (
                ([p[j] for p in parts], None) for j in rows
            )
        else:  # the Precision wounds first, to the chosen model while it lives
            wounds = chain(
                (([p[j] * prec[j] for p in parts], prec[j]) for j in rows),
                (([p[j] * ~prec[j] for p in parts], None) for j in rows),
            )
        per_flush = self.tally.room(DICE_A_WOUND * brutal)  # wounds whose dice fit a word
        for n, (wound, to_k) in enumerate(wounds, start=1):
            self._wound(out, wound, to_k)
            if n % per_flush == 0:
                s.dice += self.tally.flush()
        s.dice += self.tally.flush()

    def _wound(self, out: Outcomes, parts: list[np.ndarray], prec: np.ndarray | None) -> None:
        """One wound (``parts``: per Brutal wound) in every trial; ``prec``: Precision wounds. The
        wound goes to the chosen model where it is the closest living model, or where the wound is
        a Precision wound and the chosen model lives; to the closest model elsewhere."""
        at = self.unit.queue(OTHERS)[0]
        k, chosen, row = self.k, self.closest_k, self.closest_row
        if k is not None and prec is not None and chosen is not None:
            direct = prec & self.k_alive
            chosen = chosen | direct
            row = np.where(direct, k * STRIDE, self.closest_row)
        if len(parts) > 1:  # the wound's model is fixed at its start
            first, row = at.copy(), row.copy()
            chosen = None if chosen is None else chosen.copy()
        for i, part in enumerate(parts):
            if i:  # Brutal: the next wound only while the same model lives
                still = at == first
                if chosen is not None:
                    still = np.where(chosen, self.k_alive, still)
                part = part * still
            idx = row + part
            lost = out.lost.take(idx, mode="wrap")  # indices are in range; "wrap" is the fastest mode
            self.tally.add(out.tally.take(idx, mode="wrap"))
            if chosen is not None and chosen.any():
                to_k = lost * chosen
                self._chosen_removed(self.unit.take_everywhere(CHOSEN, to_k))
                lost -= to_k
            self._others_removed(self.unit.take_everywhere(OTHERS, lost))

    def _others_removed(self, trials: np.ndarray) -> None:
        """The closest model of ``trials`` was removed: the next one comes up (the chosen model,
        if it lives and every model before it is gone)."""
        if not trials.size:
            return
        if self.closest_k is None:  # no chosen model: model m's row is m * STRIDE
            self.closest_row[trials] += STRIDE
            return
        at = self.unit.queue(OTHERS)[0].take(trials)
        self.closest_row[trials] = self.row.take(at)
        if self.k is not None and self.closest_k is not None:
            reached = (at >= self.k) & self.k_alive.take(trials)
            self.closest_k[trials] = reached
            self.closest_row[trials[reached]] = self.k * STRIDE

    def _chosen_removed(self, trials: np.ndarray) -> None:
        """The chosen model of ``trials`` was removed."""
        if not trials.size or self.closest_k is None:
            return
        self.k_alive[trials] = False
        self.closest_k[trials] = False
        self.closest_row[trials] = self.row.take(self.unit.queue(OTHERS)[0].take(trials))

    def left_k(self) -> np.ndarray:
        """Wounds left of the Precision model per trial."""
        assert self.k is not None
        return self.target_wounds - self.unit.damage(CHOSEN)

    def destroyed(self) -> np.ndarray:
        gone = self.unit.destroyed(OTHERS)
        if self.k is not None:
            gone += self.unit.destroyed(CHOSEN)
        return gone

    def damage(self) -> np.ndarray:
        dmg = self.unit.damage(OTHERS)
        if self.k is not None:
            dmg += self.unit.damage(CHOSEN)
        return dmg

    def alive_in(self, lo: int, hi: int) -> np.ndarray:
        """Living models with queue index in ``[lo, hi)`` per trial."""
        k = self.k
        if k is None:
            return np.clip(hi - np.maximum(self.unit.queue(OTHERS)[0], lo), 0, None)
        # the others' queue positions of models lo..hi-1 (the chosen model left out)
        n = np.clip(hi - (hi > k) - np.maximum(self.unit.queue(OTHERS)[0], lo - (lo > k)), 0, None)
        if lo <= k < hi:
            n += self.k_alive
        return n

    def unsaved(self) -> np.ndarray:
        return self.tally.low()


def allocate(
    s: Sampler, queue: Wounds, tables: list[Outcomes], groups: list[StrikeGroup], rolled: list[dict]
) -> None:
    """Allocate wounds one by one in every trial, group after group (each group's Precision
    wounds first, then the others, each in dice order): each to the closest living model, a
    Precision wound to the chosen model while it lives."""
    for g, out, r in zip(groups, tables, rolled, strict=True):
        if r["code"].shape[0]:
            queue.strike(s, out, r["code"], r["prec"], g.rules.brutal)


def _batch(
    s: Sampler, target: Target, groups: list[StrikeGroup], tables: list[Outcomes], trials: int
) -> dict[str, np.ndarray]:
    rolled = [roll_group(s, g, trials) for g in groups]
    queue = Wounds(target, trials)
    allocate(s, queue, tables, groups, rolled)
    out = {
        "hits": sum(r["hits"] for r in rolled),
        "wounds": sum(r["wounds"] for r in rolled),
        "unsaved": queue.unsaved(),
        "damage": queue.damage(),
        "models_destroyed": queue.destroyed(),
    }
    k = target.precision_index
    if k is not None:
        left = queue.left_k()
        out["precision_hits"] = sum(r["precision_hits"] for r in rolled)
        out["precision_model_wounds"] = target.profiles[k].W - left
        out["precision_model_destroyed"] = (left == 0).astype(np.int64)
    hot = [(g, r) for g, r in zip(groups, rolled, strict=True) if g.rules.gets_hot]
    if hot:
        out["gets_hot_wounds"] = sum(r["ones"] for _, r in hot)
        unsaved_hot = np.zeros(trials, dtype=np.int64)
        for g, r in hot:
            rows, valid = column_layout(r["ones"])
            if rows:
                saved = np.asarray(passes(s.draw((rows, trials)) + np.uint8(1), g.firer_save))
                fnp = np.asarray(passes(s.draw((rows, trials)) + np.uint8(1), g.firer_fnp))
                failed = ~saved if valid is None else valid & ~saved
                s.dice += int(r["ones"].sum()) * (g.firer_save < NEVER) + int(np.count_nonzero(failed)) * (
                    g.firer_fnp < NEVER
                )
                unsaved_hot += column_counts(failed & ~fnp)
        out["gets_hot_unsaved"] = unsaved_hot
    return out


CELLS_A_SLOT = 2  # a wound slot holds its dice, its wound code and a part per Brutal wound


def _sub_batches(batch_of, per_trial: int) -> TrialFn:
    """:func:`~grimdice.engine.montecarlo.sized_batches` of ``per_trial`` wound slots a trial."""
    return sized_batches(batch_of, CELLS_A_SLOT * per_trial)


def simulated_result(
    target: Target, groups: list[StrikeGroup], options: RunOptions, title: str = ""
) -> Result:
    """``options.simulate`` seeded trials on the shared runner (``options.workers``, ``options.progress``)."""
    assert options.simulate is not None
    per_trial = max(1, sum(g.models * g.shots.max * max(1, g.hits_per_shot.max) for g in groups))
    tables = [Outcomes.of(target, g) for g in groups]
    trial = _sub_batches(lambda s, n: _batch(s, target, groups, tables, n), per_trial)
    tally = options.run(trial)
    dists = tally.dists()
    hot = None
    if "gets_hot_wounds" in dists:
        hot = (dists.pop("gets_hot_wounds"), dists.pop("gets_hot_unsaved"))
    return build_result("simulated", dists, target, groups, hot, title, options.simulate, options.seed)


def _fight_batch(
    s: Sampler, attacker: Side, defender: Side, tables: list[list[Outcomes]], trials: int
) -> list[Wounds]:
    """Both units' queues after the fight, per trial."""
    sides = (attacker, defender)
    queues = [Wounds(x.target, trials) for x in sides]
    for step in steps(attacker, defender):
        struck = []
        for i, side in enumerate(sides):  # both units strike with the models alive at the step's start
            here = [
                (g, out, queues[i].alive_in(lo, hi))
                for g, out, (lo, hi) in zip(side.groups, tables[i], side.ranges, strict=True)
                if g.initiative == step
            ]
            rolled = [roll_group(s, g, trials, alive) for g, _, alive in here]
            struck.append(([g for g, _, _ in here], [out for _, out, _ in here], rolled))
        for i, (groups, outs, rolled) in enumerate(struck):  # casualties removed at the step's end
            if rolled:
                allocate(s, queues[1 - i], outs, groups, rolled)
    return queues


def simulated_fight(attacker: Side, defender: Side, options: RunOptions, title: str = "") -> Result:
    """A two-sided fight rolled literally, ``options.simulate`` times on the shared runner."""
    assert options.simulate is not None
    offset = sum(p.W for p in attacker.target.profiles)  # the margin dealt - taken, made non-negative
    tables = [
        [Outcomes.of(defender.target, g) for g in attacker.groups],
        [Outcomes.of(attacker.target, g) for g in defender.groups],
    ]

    def batch(s: Sampler, n: int) -> dict[str, np.ndarray]:
        qa, qd = _fight_batch(s, attacker, defender, tables, n)
        taken, dealt = qa.damage(), qd.damage()
        return {
            "damage": dealt,
            "models_destroyed": qd.destroyed(),
            "damage_taken": taken,
            "models_lost": qa.destroyed(),
            "margin": dealt - taken + offset,
        }

    per_trial = max(1, sum(g.models * g.shots.max for g in attacker.groups + defender.groups))
    tally = options.run(_sub_batches(batch, per_trial))
    d = tally.dists()
    lost = (d["damage"], d["models_destroyed"], d["damage_taken"], d["models_lost"])
    m = d["margin"]
    margin = Dist(m.pmf, m.offset - offset)
    return fight_result("simulated", attacker, defender, lost, margin, title, options.simulate, options.seed)
