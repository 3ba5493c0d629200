"""The whole fight as an :mod:`grimdice.engine.game` game: the model the layered solver follows.

Positions, in the order of the 2021 Fight action (the order of the re-roll choices is the
unverified reading ``fight_reroll_order``):

1. ``ROLL`` (chance): both sides roll their attack dice;
2. ``ATTACKER_REROLL`` (attacker): a re-roll choice (:class:`~.rolls.Keep`), seeing both rolls;
3. ``ATTACKER_REROLLED`` (chance): the re-rolled dice fall;
4. ``DEFENDER_REROLL`` (defender), seeing the attacker's final dice; 5. ``DEFENDER_REROLLED``;
6. ``ATTACKER_RENDING`` / 7. ``DEFENDER_RENDING`` (Rending, each seeing the other's dice);
8. the resolution step, :class:`~.state.ResolutionState`.

``expectimax(FightState.start(duel), FightKeys(duel))`` solves it generically; the layered solver
(:mod:`.solver`) gives the same values far faster (tested on small fights).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Any, NamedTuple

from grimdice.engine.game import CHANCE
from grimdice.systems.killteam.fight.rolls import (
    FirstRoll,
    Keep,
    first_rolls,
    rending_options,
    reroll_law,
    reroll_options,
)
from grimdice.systems.killteam.fight.state import ATTACKER, DEFENDER, Duel, Hits, ResolutionState


class Phase(IntEnum):
    ROLL = 0
    ATTACKER_REROLL = 1
    ATTACKER_REROLLED = 2
    DEFENDER_REROLL = 3
    DEFENDER_REROLLED = 4
    ATTACKER_RENDING = 5
    DEFENDER_RENDING = 6


_PLAYER = {
    Phase.ROLL: CHANCE,
    Phase.ATTACKER_REROLL: ATTACKER,
    Phase.ATTACKER_REROLLED: CHANCE,
    Phase.DEFENDER_REROLL: DEFENDER,
    Phase.DEFENDER_REROLLED: CHANCE,
    Phase.ATTACKER_RENDING: ATTACKER,
    Phase.DEFENDER_RENDING: DEFENDER,
}


class FightState(NamedTuple):
    """A position of the Roll Attack Dice step (then the fight continues as a ResolutionState)."""

    duel: Duel
    phase: Phase
    rolls: tuple[FirstRoll, FirstRoll] | None = None  # first rolls (attacker, defender)
    keep: Keep | None = None  # the re-roll choice being resolved
    attacker_hits: Hits | None = None  # the attacker's dice after its re-rolls (then Rending)
    defender_hits: Hits | None = None

    @classmethod
    def start(cls, duel: Duel) -> FightState:
        return cls(duel, Phase.ROLL)

    def current_player(self) -> int:
        return _PLAYER[self.phase]

    def legal_actions(self) -> list[Any]:
        att, dfd = self.duel.fighters
        if self.phase in (Phase.ATTACKER_REROLL, Phase.DEFENDER_REROLL):
            assert self.rolls is not None  # set by the ROLL phase
            if self.phase == Phase.ATTACKER_REROLL:
                return reroll_options(att, self.rolls[0])
            return reroll_options(dfd, self.rolls[1])
        if self.phase == Phase.ATTACKER_RENDING:
            assert self.attacker_hits is not None  # set once the attacker's re-rolls are resolved
            return rending_options(att, self.attacker_hits)
        assert self.defender_hits is not None  # set once the defender's re-rolls are resolved
        return rending_options(dfd, self.defender_hits)

    def chance_outcomes(self) -> list[tuple[Any, float]]:
        att, dfd = self.duel.fighters
        if self.phase == Phase.ROLL:
            return [((ra, rd), pa * pd) for ra, pa in first_rolls(att) for rd, pd in first_rolls(dfd)]
        f = att if self.phase == Phase.ATTACKER_REROLLED else dfd
        keep = self.keep
        assert keep is not None
        law = reroll_law(keep.rerolled, f)
        return [
            (Hits(keep.normal + x, keep.critical + y), float(law[x, y]))
            for x in range(keep.rerolled + 1)
            for y in range(keep.rerolled + 1 - x)
        ]

    def apply(self, action: Any) -> FightState | ResolutionState:
        p = self.phase
        if p == Phase.ROLL:
            return self._replace(phase=Phase.ATTACKER_REROLL, rolls=action)
        if p == Phase.ATTACKER_REROLL:
            return self._replace(phase=Phase.ATTACKER_REROLLED, keep=action)
        if p == Phase.ATTACKER_REROLLED:
            return self._replace(phase=Phase.DEFENDER_REROLL, keep=None, attacker_hits=action)
        if p == Phase.DEFENDER_REROLL:
            return self._replace(phase=Phase.DEFENDER_REROLLED, keep=action)
        if p == Phase.DEFENDER_REROLLED:
            return self._replace(phase=Phase.ATTACKER_RENDING, keep=None, defender_hits=action)
        if p == Phase.ATTACKER_RENDING:
            return self._replace(phase=Phase.DEFENDER_RENDING, attacker_hits=action)
        assert self.attacker_hits is not None  # set in every phase after the attacker's re-rolls
        return ResolutionState.start(self.duel, self.attacker_hits, action)

    def returns(self) -> tuple[float, ...]:
        raise ValueError("a fight position before the resolution step is never terminal")
