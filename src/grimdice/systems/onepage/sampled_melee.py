"""Melee rolled literally (One Page 40k 2.21, Melee and Morale), vectorised over trials.

"Once all assaulting models that were able to attack have done so, the defending unit gets to
strike back"; Strikes First/Last and Fear reorder the strikes into tiers (:class:`~.attack.Timing`),
each tier's attacks of both sides made at once from the states before it. Then "Each unit sums the
total amount of wounds that it caused"; the loser takes a morale test. Decisions (who strikes with
what, the Piercing pick, the removal order) are the exact engine's; every die is rolled.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

import numpy as np

from grimdice.dice import Dist, Sampler
from grimdice.engine.options import RunOptions
from grimdice.systems.onepage.attack import Fire, Picks, Timing, at_tier, melee_fire, melee_removals, odds
from grimdice.systems.onepage.simulate import _table, morale_roll, strike_sim
from grimdice.systems.onepage.strikes import fear_fail
from grimdice.systems.onepage.units import Unit, UnitState, decode, encode
from grimdice.systems.onepage.weapons import Weapon

#: the most joint (attacker state, defender state) codes tallied as one key
MAX_JOINT_CODES = 2_000_000


def code_range(unit: Unit) -> int:
    """One more than the largest state code of ``unit`` (:func:`~.units.encode`)."""
    full = UnitState(
        tuple(g.count for g in unit.groups), tuple(g.tough - 1 for g in unit.groups), True, True, True, True
    )
    return encode(unit, full) + 1


def _alive(unit: Unit, codes: np.ndarray) -> np.ndarray:
    """Per trial, whether the unit in state ``codes`` still has models (a destroyed unit strikes
    no more and is struck no more)."""
    out = np.zeros(codes.size, dtype=bool)
    for code in np.unique(codes):
        out[codes == code] = not decode(unit, int(code)).destroyed
    return out


class _MeleeTrial:
    """The trials of one melee between attacker ``a`` (assaulting) and defender ``d`` (striking
    back); ``picks``: Piercing's options per melee weapon (attacker's, defender's)."""

    def __init__(
        self, a: Unit, sa: UnitState, d: Unit, sd: UnitState, c: Any, picks: tuple[Picks, Picks] | None
    ) -> None:
        self.a, self.sa, self.d, self.sd, self.c = a, sa, d, sd, c
        self.pa: Picks | None = picks[0] if picks is not None else None
        self.pd: Picks | None = picks[1] if picks is not None else None
        self.ca = c.model_copy(update={"action": "assault"})
        self.cd = c.model_copy(update={"action": "hold"})
        self.auto = (
            odds(Weapon("Automatic hits", None, 1), a, d, self.ca, melee=True)
            if a.kind == "vehicle"
            else None
        )
        self.fa, self.fd = fear_fail(a, d) > 0, fear_fail(d, a) > 0
        self.timings = {
            (x, y): Timing.of(a, sa, d, sd, c, x, y) for x in (False, True) for y in (False, True)
        }
        self.rem_a, self.rem_d = melee_removals(a, d, c)
        self.unit_tier = Weapon("", None, 1)
        self.size_d = code_range(d)
        self.joint_ok = code_range(a) * self.size_d <= MAX_JOINT_CODES

    def fires_a(self, s: UnitState) -> list[Fire]:
        """The assaulting unit's melee attacks from state ``s``."""
        c = self.c
        return melee_fire(
            self.a, s, self.d, self.ca, assaulting=True, placed=c.attacker_strikers, picks=self.pa
        )

    def fires_d(self, s: UnitState) -> list[Fire]:
        """The defending unit's strike back from state ``s``."""
        c = self.c
        return melee_fire(
            self.d, s, self.a, self.cd, assaulting=False, placed=c.defender_strikers, picks=self.pd
        )

    def tier_fires(self, timing: Timing, side_a: bool, t: int) -> Callable[[UnitState], list[Fire]]:
        """The attacks of one side at tier ``t``, from the side's state."""
        return lambda s: at_tier(timing, side_a, self.fires_a(s) if side_a else self.fires_d(s), t)

    def __call__(self, sampler: Sampler, size: int) -> dict[str, np.ndarray]:
        """One batch: Fear's tests, the strikes tier by tier, the winner and the loser's morale."""
        a, d = self.a, self.d
        # Fear: "must take a morale test before fighting melee ... If the morale test is failed the
        # unit strikes last for that melee"
        af = ~morale_roll(sampler, size, a) & self.fa
        df = ~morale_roll(sampler, size, d) & self.fd
        ends = {
            "a": np.full(size, encode(a, self.sa), dtype=np.int64),
            "d": np.full(size, encode(d, self.sd), dtype=np.int64),
        }
        tally = {k: np.zeros(size, dtype=np.int64) for k in ("ha", "wa", "hd", "wd")}
        for (x, y), timing in self.timings.items():
            combo = (af == x) & (df == y)
            if combo.any():
                self._fight(sampler, timing, combo, ends, tally)
        wa, wd = tally["wa"], tally["wd"]
        winner = np.where(wa > wd, 1, np.where(wd > wa, 2, 0))
        self._loser_morale(sampler, size, winner, ends)
        out = {
            "a": ends["a"],
            "d": ends["d"],
            "winner": winner,
            **{k: tally[k] for k in ("wa", "wd", "ha", "hd")},
        }
        if self.joint_ok:
            out["joint"] = ends["a"] * self.size_d + ends["d"]
        return out

    def _fight(self, sampler: Sampler, timing: Timing, combo: np.ndarray, ends: dict, tally: dict) -> None:
        """The strikes of the trials ``combo`` (one outcome of the Fear tests), tier by tier from
        the first; a side strikes back (``back``) when the other side struck at an earlier tier."""
        a, d = self.a, self.d
        ta = timing.tiers(True, self.fires_a(self.sa)) | (
            {timing.tier(True, self.unit_tier)} if self.auto is not None else set()
        )
        td = timing.tiers(False, self.fires_d(self.sd))
        for t in sorted(ta | td, reverse=True):
            live = combo & _alive(a, ends["a"]) & _alive(d, ends["d"])
            before = {"a": ends["a"].copy(), "d": ends["d"].copy()}
            # each tier's attacks of both sides at once, from the states before it
            for side_a, tiers_, back in (
                (True, ta, any(z < t for z in td)),
                (False, td, any(z < t for z in ta)),
            ):
                if t in tiers_:
                    self._strike(sampler, timing, t, side_a, back, live, before, ends, tally)

    def _strike(
        self,
        sampler,
        timing: Timing,
        t: int,
        side_a: bool,
        back: bool,
        live,
        before: dict,
        ends: dict,
        tally: dict,
    ) -> None:
        """One side's attacks at tier ``t`` (Melee: roll to hit, the target rolls to block, then
        removes casualties), grouped by the target's state before the tier."""
        att, tgt = (self.a, self.d) if side_a else (self.d, self.a)
        att_codes, tgt_codes = (before["a"], before["d"]) if side_a else (before["d"], before["a"])
        h_key, w_key, end = ("ha", "wa", "d") if side_a else ("hd", "wd", "a")
        for code in np.unique(tgt_codes[live]):
            idx = live & (tgt_codes == code)
            h, w, new = strike_sim(
                sampler,
                self.tier_fires(timing, side_a, t),
                att,
                att_codes[idx],
                tgt,
                decode(tgt, int(code)),
                auto=self.auto if side_a and timing.tier(True, self.unit_tier) == t else None,
                facing=self.c.facing,
                removal=(self.rem_d if side_a else self.rem_a)[back],
            )
            tally[h_key][idx] += h
            tally[w_key][idx] += w
            ends[end][idx] = new

    def _loser_morale(self, sampler: Sampler, size: int, winner: np.ndarray, ends: dict) -> None:
        """ "If a unit has caused more wounds than the other, then that unit counts as the winner.
        The opposing unit ... must then take a morale test": failed, it is Pinned if it "still has
        more than half as many models as it started the game with", else it Routs."""
        a, d = self.a, self.d
        ok_a, ok_d = morale_roll(sampler, size, a), morale_roll(sampler, size, d)
        for unit, codes, lost, ok in ((d, ends["d"], winner == 1, ok_d), (a, ends["a"], winner == 2, ok_a)):
            cur = codes.copy()
            for code in np.unique(cur[lost & ~ok]):
                s = decode(unit, int(code))
                if s.destroyed:
                    continue
                bad = replace(s, pinned=True) if 2 * s.models > unit.started_with else replace(s, routed=True)
                codes[lost & ~ok & (cur == code)] = encode(unit, bad)


def simulate_melee(
    a: Unit,
    sa: UnitState,
    d: Unit,
    sd: UnitState,
    c: Any,
    options: RunOptions,
    picks: tuple[Picks, Picks] | None = None,
) -> tuple[tuple[Dist, Dist, Dist, Dist], list[dict], dict | None]:
    """Sampled melee; ``picks``: Piercing's options per melee weapon (attacker's, defender's), as the
    exact engine chose them (default: more wounds per attack)."""
    trial = _MeleeTrial(a, sa, d, sd, c, picks)
    t = options.run(trial)
    comps = [
        _table(t, "a", lambda k: decode(a, k)),
        _table(t, "d", lambda k: decode(d, k)),
        _table(t, "winner"),
    ]
    joint = None
    if trial.joint_ok:
        size_d = trial.size_d
        joint = {(decode(a, k // size_d), decode(d, k % size_d)): p for k, p in _table(t, "joint").items()}
    return (t.dist("ha"), t.dist("hd"), t.dist("wa"), t.dist("wd")), comps, joint


__all__ = ["code_range", "simulate_melee"]
