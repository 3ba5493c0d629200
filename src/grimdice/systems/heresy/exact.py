"""The exact engine: full distributions of every stage of a Heresy attack, no sampling.

Per attack, the To Hit roll (with the BS 6+ or Twin-linked re-roll) and the Wound roll (with its
re-rolls) are enumerated face by face through :mod:`rolls`, giving the chance of a Precision
wound, a normal wound, or nothing, and the chance that a wound is a Rending/Breaching (AP 2) wound.
The attacks of a Strike Group are summed into a joint law of (Precision wounds, other wounds).

Wounds are then allocated by an exact Markov chain over the defending unit: the models are a
queue in allocation order (closest first), described by the wounds the queue has lost, ``c``,
plus the wounds lost by the Precision target model, ``t``, and the count of failed saves ``u``.
Each group's Precision wounds (its own fire group) are allocated first, then its other wounds;
groups go in order (shooting as listed, melee by Initiative step).
"""

from __future__ import annotations

import numpy as np

from grimdice.dice.dist import Dist
from grimdice.dice.joint import Joint
from grimdice.errors import ScenarioError
from grimdice.result import Result
from grimdice.systems.heresy.report import build_result
from grimdice.systems.heresy.rolls import (
    FACES,
    FAIL,
    SPECIAL,
    hit_roll,
    mitigation_target,
    passes,
    wound_result,
    wounds_lost,
)
from grimdice.systems.heresy.units import Profile, StrikeGroup, Target

MAX_STATES = 4000
MAX_WORK = 2e10


def p_pass(target: int) -> float:
    """P(a D6 test of ``target``+ passes)."""
    return sum(bool(passes(f, target)) for f in FACES) / 6


def hit_probs(g: StrikeGroup) -> tuple[float, float, float]:
    """(P(Precision hit), P(other hit), P(final To Hit face is a 1)) of one attack rolling To Hit."""
    prec = norm = ones = 0.0
    for f1 in FACES:
        for f2 in FACES:
            hit, final = hit_roll(f1, f2, g.hit_target, g.reroll_target)
            if hit:
                if final >= g.precision:
                    prec += 1 / 36
                else:
                    norm += 1 / 36
            elif final == 1:
                ones += 1 / 36
    return prec, norm, ones


def wound_probs(g: StrikeGroup) -> tuple[float, float]:
    """(P(wound), P(the wound is AP 2 | wound)) of one Wound roll, after re-rolls."""
    w = s = 0.0
    for f1 in FACES:
        for f2 in FACES:
            res = wound_result(f1, g.wound_target, g.rules.rending, g.rules.breaching)
            if res == FAIL and g.wound_reroll:
                res = wound_result(f2, g.wound_target, g.rules.rending, g.rules.breaching)
            if res != FAIL:
                w += 1 / 36
                s += 1 / 36 if res == SPECIAL else 0.0
    return w, (s / w if w else 0.0)


def unfired_probability(g: StrikeGroup) -> float:
    """Gets Hot on a weapon that does not roll To Hit: a 1 before firing (re-rolled once by a
    model that may re-roll To Hit rolls: BS 6+ or Twin-linked)."""
    if not g.rules.gets_hot:
        return 0.0
    return 1 / 36 if g.may_reroll_hits else 1 / 6


def shots(g: StrikeGroup) -> Dist:
    """Total attacks of the group: every model rolls its own A."""
    return g.shots.dist.repeat(g.models).clip(0)


def per_attack(g: StrikeGroup) -> tuple[Dist, Dist, Joint, float]:
    """(hits, Precision hits, joint (Precision wounds, other wounds), P(Gets Hot)) of one attack."""
    pw, _ = wound_probs(g)
    if g.rolls_to_hit:
        pp, pn, ones = hit_probs(g)
        hits = Dist.bernoulli(pp + pn)
        tokens = Joint.categorical([pp * pw, pn * pw, 1.0 - (pp + pn) * pw])
        return hits, Dist.bernoulli(pp), tokens, ones if g.rules.gets_hot else 0.0
    unfired = unfired_probability(g)
    fired_hits = g.hits_per_shot.dist.clip(0)
    hits = Dist.mixture([unfired, 1 - unfired], [Dist.constant(0), fired_hits])
    wounds = Dist.bernoulli(pw).sum_of(hits)
    return hits, Dist.constant(0), Joint(np.asarray(wounds.pmf_from_zero())[None, :]), unfired


class Chain:
    """The exact law of (failed saves ``u``, unit state) as wounds arrive; see the module text."""

    def __init__(self, target: Target, groups: list[StrikeGroup], max_tokens: int, max_unsaved: int | None):
        """``max_unsaved=None``: failed saves are not counted (the ``u`` axis has one cell)."""
        self.target = target
        self.groups = groups
        k = target.precision_index
        self.k = k
        self.others = tuple(p for i, p in enumerate(target.profiles) if i != k)
        self.tp = target.profiles[k] if k is not None else None
        self.prefix = np.concatenate([[0], np.cumsum([p.W for p in self.others])]).astype(int)
        self.before = int(self.prefix[k]) if k is not None else 0
        self.nc = int(self.prefix[-1]) + 1
        self.wt = self.tp.W if self.tp is not None else 0
        self.nt = self.wt + 1
        n = self.nc * self.nt
        self.count_unsaved = max_unsaved is not None
        self.U = max_unsaved + 1 if max_unsaved is not None else 1
        if n > MAX_STATES or self.U * n * n * max(max_tokens, 1) > MAX_WORK:
            raise ScenarioError(
                "defender",
                f"exact allocation is too large here ({n} unit states, up to {max_tokens} wounds); "
                "use --simulate N",
            )
        self.state = np.zeros((self.U, n))
        self.state[0, 0] = 1.0
        self._ops: dict[tuple[int, bool], tuple[np.ndarray, np.ndarray]] = {}

    def _receiver(self, c: int, t: int, precision: bool) -> tuple[Profile, int, bool] | None:
        """(model, wounds it has left, is the Precision target) receiving the next wound."""
        if self.tp is not None and t < self.wt and (precision or c >= self.before):
            return self.tp, self.wt - t, True
        if c < self.nc - 1:
            i = int(np.searchsorted(self.prefix, c, side="right")) - 1
            return self.others[i], int(self.prefix[i + 1]) - c, False
        return None

    def _outcome(self, g: StrikeGroup, p: Profile, special: bool) -> tuple[float, float, bool]:
        """(P(save passes), P(mitigated | save failed), Instant Death) of a wound of ``g`` on ``p``."""
        t, rerolled = g.save(p, special, self.target)
        ps = p_pass(t)
        ps = 1 - (1 - ps) ** 2 if rerolled else ps
        inst = g.is_instant_death(p)
        mt = mitigation_target(
            p.fnp, p.shrouded, melee=g.melee, ignores_cover=g.ignores_cover, instant_death=inst
        )
        return ps, p_pass(mt), inst

    def _token(self, g: StrikeGroup, p: Profile, special: bool, left: int) -> dict[tuple[int, int], float]:
        """``{(wounds lost, failed saves): probability}`` of one wound allocated to ``p`` with
        ``left`` wounds: Brutal (X) makes it X wounds, each saved separately, none spilling over."""
        ps, pm, inst = self._outcome(g, p, special)
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

    def operator(self, gi: int, precision: bool) -> tuple[np.ndarray, list[np.ndarray]]:
        """(P(every save passed) per state, transition matrices by number of failed saves 1..X)
        of one wound of group ``gi``."""
        key = (gi, precision)
        if key in self._ops:
            return self._ops[key]
        g = self.groups[gi]
        _, r = wound_probs(g)
        n = self.nc * self.nt
        saved = np.ones(n)
        F = [np.zeros((n, n)) for _ in range(g.rules.brutal)]
        for c in range(self.nc):
            for t in range(self.nt):
                s = c * self.nt + t
                rec = self._receiver(c, t, precision)
                if rec is None:
                    continue  # the unit is destroyed: further wounds are not allocated
                p, left, is_target = rec
                saved[s] = 0.0
                for special, w in ((False, 1.0 - r), (True, r)):
                    if w == 0:
                        continue
                    for (lost, du), q in self._token(g, p, special, left).items():
                        if du == 0:
                            saved[s] += w * q
                            continue
                        s2 = c * self.nt + t + lost if is_target else (c + lost) * self.nt + t
                        F[du - 1][s, s2] += w * q
        self._ops[key] = (saved, F)
        return saved, F

    def apply(self, P: np.ndarray, gi: int, precision: bool) -> np.ndarray:
        """One wound of group ``gi`` in every state of ``P`` (axes ``..., u, s``)."""
        saved, F = self.operator(gi, precision)
        out = P * saved
        for k, Fk in enumerate(F, start=1):
            if not Fk.any():
                continue
            if self.count_unsaved:
                out[..., k:, :] += P[..., :-k, :] @ Fk
            else:
                out += P @ Fk
        return out

    def absorb(self, gi: int, tokens: np.ndarray) -> None:
        """Allocate a group's wounds: the joint table ``tokens[n_precision, n_other]``; Precision
        wounds first (held against each count of other wounds), then the others (Horner).
        The state may carry leading batch axes (``..., u, s``)."""
        P = self.state
        Np, Nn = tokens.shape

        def layer(i: int) -> np.ndarray:
            return tokens[i].reshape((Nn,) + (1,) * P.ndim) * P[None]

        A = layer(Np - 1)
        for i in range(Np - 2, -1, -1):
            A = self.apply(A, gi, True) + layer(i)
        R = A[Nn - 1]
        for j in range(Nn - 2, -1, -1):
            R = self.apply(R, gi, False) + A[j]
        self.state = R

    def outcome(self) -> dict[str, Dist]:
        P = self.state
        grid = P.sum(axis=0).reshape(self.nc, self.nt)
        c = np.arange(self.nc)[:, None]
        t = np.arange(self.nt)[None, :]
        dead_o = (self.prefix[1:][None, :] <= np.arange(self.nc)[:, None]).sum(axis=1)[:, None]
        dead_t = (t == self.wt) & (self.tp is not None)
        out = {
            "unsaved": Dist(P.sum(axis=1)),
            "damage": Dist.from_outcomes(np.broadcast_to(c + t, grid.shape), grid),
            "models_destroyed": Dist.from_outcomes(np.broadcast_to(dead_o + dead_t, grid.shape), grid),
        }
        if self.tp is not None:
            out["precision_model_wounds"] = Dist(grid.sum(axis=0))
            out["precision_model_destroyed"] = Dist.from_outcomes(np.broadcast_to(dead_t, grid.shape), grid)
        return out


def gets_hot(groups: list[StrikeGroup]) -> tuple[Dist, Dist] | None:
    """(Gets Hot wounds suffered by the firers, of them unsaved after the firer's armour or
    invulnerable save and Feel No Pain; no cover, no Shrouded)."""
    hot = [g for g in groups if g.rules.gets_hot]
    if not hot:
        return None
    suffered, unsaved = [], []
    for g in hot:
        p = per_attack(g)[3]
        keep = (1 - p_pass(g.firer_save)) * (1 - p_pass(g.firer_fnp))
        suffered.append(Dist.bernoulli(p).sum_of(shots(g)))
        unsaved.append(Dist.bernoulli(p * keep).sum_of(shots(g)))
    return sum(suffered, Dist.constant(0)), sum(unsaved, Dist.constant(0))


def group_laws(g: StrikeGroup) -> tuple[Dist, Dist, Joint]:
    """(hits, Precision hits, joint (Precision wounds, other wounds)) of the whole group."""
    hits, prec, tokens, _ = per_attack(g)
    n = shots(g)
    return hits.sum_of(n), prec.sum_of(n), tokens.sum_of(n)


def wound_table(tokens: Joint) -> np.ndarray:
    """The table ``[n_precision, n_other]`` :meth:`Chain.absorb` takes."""
    return tokens.table if tokens.ndim == 2 else tokens.table[:, None]


def solve(target: Target, groups: list[StrikeGroup]) -> dict[str, Dist]:
    """Every stage's exact distribution, in order of the attack sequence."""
    stages = [group_laws(g) for g in groups]
    max_tokens = sum(t.total().max for _, _, t in stages)
    max_unsaved = sum(t.total().max * g.rules.brutal for g, (_, _, t) in zip(groups, stages, strict=True))
    chain = Chain(target, groups, max_tokens, max_unsaved)
    for gi, (_, _, tokens) in enumerate(stages):
        chain.absorb(gi, wound_table(tokens))
    out: dict[str, Dist] = {"hits": sum((h for h, _, _ in stages), Dist.constant(0))}
    if target.precision_index is not None:
        out["precision_hits"] = sum((p for _, p, _ in stages), Dist.constant(0))
    out["wounds"] = sum((t.total() for _, _, t in stages), Dist.constant(0))
    out.update(chain.outcome())
    return out


def exact_result(target: Target, groups: list[StrikeGroup], title: str = "") -> Result:
    return build_result("exact", solve(target, groups), target, groups, gets_hot(groups), title)
