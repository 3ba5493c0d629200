"""A test oracle: a sequence of shooting attacks against one operative as an
:mod:`grimdice.engine.game` game, solved by the generic expectimax, against which the vectorised
backward induction of :mod:`grimdice.systems.killteam.solve` is checked.

Positions of one attack, in the order of the 2021 shooting sequence (see ``killteam.solve``): the attack
dice fall (chance); the attacker re-rolls (Balanced, Ceaseless, Relentless: ``killteam.rerolls``); the
re-rolled dice fall (chance); the attacker uses Rending or not; MWx / Splash mortal wounds; the
defender chooses its save (Save or Invulnerable Save, cover save retained or rolled); the defence
dice fall (chance); the defender allocates its saves. Then the next attack, from the wounds left.
Features at the end: the attacker's utility, the defender's utility, the wounds left. Each side's
keys: its own utility; the defender breaks ties against the attacker.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum
from typing import Any, NamedTuple

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.systems.killteam.rerolls import reroll_choices
from grimdice.systems.killteam.rolls import attack_counts, attack_items, unsaved_options
from grimdice.systems.killteam.solve import ShotSpec, defence_outcomes, defender_options

ATTACKER, DEFENDER = 0, 1


class Step(IntEnum):
    ROLL = 0
    REROLL = 1
    REROLLED = 2
    RENDING = 3
    SAVE_CHOICE = 4
    SAVES = 5
    ALLOCATION = 6


_PLAYER = {
    Step.ROLL: CHANCE,
    Step.REROLL: ATTACKER,
    Step.REROLLED: CHANCE,
    Step.RENDING: ATTACKER,
    Step.SAVE_CHOICE: DEFENDER,
    Step.SAVES: CHANCE,
    Step.ALLOCATION: DEFENDER,
}


@dataclass(frozen=True, eq=False)
class Sequence:
    """The attacks, the target's starting wounds and both objectives (compared by identity)."""

    specs: tuple[ShotSpec, ...]
    wounds: int
    attacker: str  # "damage" or "kill"
    defender: str  # "damage" or "survival"

    def objective(self, player: int, features: Any) -> tuple[float, ...]:
        """Attacker: its utility. Defender: its utility, then the attacker's (minimised)."""
        return (features[0],) if player == ATTACKER else (features[1], -features[0])


class ShootingState(NamedTuple):
    """A position of the sequence: which attack, the wounds left, and the step within the attack."""

    seq: Sequence
    attack: int
    wounds: int
    step: Step = Step.ROLL
    roll: tuple[int, int, int, int] = (0, 0, 0, 0)  # first roll: crits, normals, ones, misses
    hits: tuple[int, int] = (0, 0)  # retained (critical, normal) hits
    rerolled: int = 0
    option: tuple[bool, bool, int, int] = (False, False, 0, 0)  # save choice: invulnerable, cover, dice, SV
    saves: tuple[int, int] = (0, 0)  # critical, normal saves

    @classmethod
    def start(cls, seq: Sequence) -> ShootingState:
        return cls(seq, 0, seq.wounds)

    @property
    def spec(self) -> ShotSpec:
        return self.seq.specs[self.attack]

    def current_player(self) -> int:
        if self.attack >= len(self.seq.specs) or self.wounds == 0:
            return TERMINAL
        return _PLAYER[self.step]

    def legal_actions(self) -> list[Any]:
        sp = self.spec
        if self.step == Step.REROLL:
            return list(reroll_choices(sp.rules, *self.roll))
        if self.step == Step.RENDING:
            c, h = self.hits
            return [False, True] if sp.rules.rending and c and h else [False]
        if self.step == Step.SAVE_CHOICE:
            return defender_options(sp, self.hits[0])
        return list(unsaved_options(*self.hits, *self.saves))

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        sp = self.spec
        if self.step == Step.ROLL:
            return list(attack_items(sp.dice, sp.bs, sp.rules.lethal))
        if self.step == Step.REROLLED:
            law = attack_counts(self.rerolled, sp.bs, sp.rules.lethal).sum(axis=2)
            return [((c, h), float(law[c, h])) for c in range(law.shape[0]) for h in range(law.shape[1])]
        _, cover, k, sv = self.option
        return [((cs, ns), p) for cs, ns, p in defence_outcomes(k, sv, int(cover))]

    def _next_attack(self, wounds: int) -> ShootingState:
        return ShootingState(self.seq, self.attack + 1, max(wounds, 0))

    def apply(self, action: Any) -> ShootingState:
        sp = self.spec
        if self.step == Step.ROLL:
            return self._replace(step=Step.REROLL, roll=action)
        if self.step == Step.REROLL:
            c, h, _, _ = self.roll
            kept = (c - action.crits, h - action.normals)
            return self._replace(step=Step.REROLLED, hits=kept, rerolled=action.dice)
        if self.step == Step.REROLLED:
            return self._replace(step=Step.RENDING, hits=(self.hits[0] + action[0], self.hits[1] + action[1]))
        if self.step == Step.RENDING:
            c, h = (self.hits[0] + 1, self.hits[1] - 1) if action else self.hits
            wounds = max(self.wounds - sp.mw_per_crit * c, 0)  # MWx and Splash: before the defence dice
            if c + h == 0 or wounds == 0:
                return self._next_attack(wounds)
            return self._replace(step=Step.SAVE_CHOICE, hits=(c, h), wounds=wounds)
        if self.step == Step.SAVE_CHOICE:
            return self._replace(step=Step.SAVES, option=action)
        if self.step == Step.SAVES:
            return self._replace(step=Step.ALLOCATION, saves=action)
        uc, un = action
        return self._next_attack(self.wounds - uc * sp.critical - un * sp.normal)

    def returns(self) -> tuple[float, float, int]:
        seq, w = self.seq, self.wounds
        ua = float(w == 0) if seq.attacker == "kill" else float(seq.wounds - w)
        ud = float(w > 0) if seq.defender == "survival" else float(w)
        return (ua, ud, w)
