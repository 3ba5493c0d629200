"""The fight as a game (2021 core book, Fight action): the two sides, their objectives, and the
states of the Resolve Successful Hits step as values of the :mod:`grimdice.engine.game` interface.

A :class:`ResolutionState` is one position of the resolution step: whose turn it is, the dice each
side still holds (:class:`Hits`), the wounds each operative has left and how many times each side
has struck with a critical hit (Stun counts them). It offers the engine's ``State`` protocol
(``current_player``, ``legal_actions``, ``apply``, ``returns``), so any ``grimdice.engine.game``
solver can play it. Starting with the attacker, the players alternate resolving one retained die:
*strike* (normal or critical Damage) or *parry* (a normal hit discards one of the opponent's normal
hits, a critical hit one normal or critical hit); when one side has no dice left the other
resolves all its remaining dice; the fight ends at once when an operative is incapacitated.
Brutal: the opponent can only parry with critical hits. Stun: the first time a side strikes with a
critical hit, one of the opponent's normal hits is discarded (the second time costs 1 APL; see
the report).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import NamedTuple

from grimdice.engine.game import TERMINAL
from grimdice.errors import ScenarioError
from grimdice.systems.killteam.rules import NO_RULES, WeaponRules

MAX_ATTACKS = 12
SIDES = ("attacker", "defender")
ATTACKER, DEFENDER = 0, 1


class Objective(StrEnum):
    """What a side optimises in a fight (lexicographic keys listed in :data:`OBJECTIVE_KEYS`)."""

    KILL = "kill"  # maximise P(enemy incapacitated) (tie-break: expected damage dealt)
    DAMAGE_DEALT = "damage_dealt"  # maximise expected damage dealt
    DAMAGE_TAKEN = "damage_taken"  # minimise expected damage taken (tie-break: damage dealt)
    SURVIVE = "survive"  # maximise P(own operative not incapacitated) (tie-break: damage dealt)


#: per objective, the lexicographic keys maximised: "kill" P(enemy incapacitated), "dealt"
#: expected wounds the enemy lost, "taken" expected wounds lost (negated), "dead" P(own operative
#: incapacitated) (negated), "crits" expected own critical strikes (Reap, Stun)
OBJECTIVE_KEYS = {
    Objective.KILL: ("kill", "dealt", "-taken", "crits"),
    Objective.DAMAGE_DEALT: ("dealt", "kill", "-taken", "crits"),
    Objective.DAMAGE_TAKEN: ("-taken", "dealt", "kill", "crits"),
    Objective.SURVIVE: ("-dead", "dealt", "-taken", "crits"),
}


@dataclass(frozen=True)
class Fighter:
    """One side of a fight: the operative's wounds now, its melee weapon and the weapon's rules."""

    name: str
    wounds: int  # wounds the operative has now (>= 1)
    attacks: int  # A of the melee weapon
    hit: int  # WS x+ (2..6), already adjusted (e.g. injured)
    normal_damage: int
    critical_damage: int
    rules: WeaponRules = NO_RULES  # Lethal, Rending, Brutal, Stun, Reap, Balanced, Ceaseless, Relentless
    objective: Objective = Objective.KILL

    def __post_init__(self) -> None:
        def bad(name: str, allowed: str) -> ScenarioError:
            value = getattr(self.rules, name[6:]) if name.startswith("rules.") else getattr(self, name)
            where = f"{self.name or 'fighter'}.{name}"
            return ScenarioError(where, f"{value!r} not allowed; allowed: {allowed}")

        ranges = {
            "wounds": (1, 10_000, "a whole number of wounds left, at least 1"),
            "attacks": (1, MAX_ATTACKS, f"a whole number of attack dice from 1 to {MAX_ATTACKS}"),
            "hit": (2, 6, "WS x+ with x from 2 to 6"),
            "normal_damage": (0, 10_000, "a whole number, 0 or more"),
            "critical_damage": (0, 10_000, "a whole number, 0 or more"),
            "rules.lethal": (2, 6, "Lethal x+ with x from 2 to 6 (6: no Lethal)"),
            "rules.reap": (0, 10_000, "a whole number of mortal wounds, 0 or more (0: no Reap)"),
        }
        if not isinstance(self.rules, WeaponRules):
            raise bad("rules", "a WeaponRules")
        for name, (lo, hi, allowed) in ranges.items():
            v = getattr(self.rules, name[6:]) if name.startswith("rules.") else getattr(self, name)
            if isinstance(v, bool) or not isinstance(v, int) or not lo <= v <= hi:
                raise bad(name, allowed)
        for f in ("rending", "brutal", "stun", "balanced", "ceaseless", "relentless"):
            if not isinstance(getattr(self.rules, f), bool):
                raise bad(f"rules.{f}", "true or false")
        try:
            object.__setattr__(self, "objective", Objective(self.objective))
        except ValueError:
            raise bad("objective", f"one of {', '.join(o.value for o in Objective)}") from None


@dataclass(frozen=True, eq=False)
class Duel:
    """The two fighters (compared and hashed by identity: the states of one fight share it)."""

    attacker: Fighter
    defender: Fighter

    @property
    def fighters(self) -> tuple[Fighter, Fighter]:
        return (self.attacker, self.defender)


class Hits(NamedTuple):
    """The retained attack dice one side still holds."""

    normal: int
    critical: int

    @property
    def dice(self) -> int:
        return self.normal + self.critical


class Outcome(NamedTuple):
    """How a fight ended: wounds left and critical strikes made, per side."""

    attacker_wounds: int
    defender_wounds: int
    attacker_critical_strikes: int
    defender_critical_strikes: int


class Move(IntEnum):
    """Resolving one retained die, in tie-break preference order."""

    STRIKE_NORMAL = 0
    STRIKE_CRIT = 1
    PARRY_NORMAL = 2  # a normal hit parries a normal hit
    PARRY_CRIT_NORMAL = 3  # a critical hit parries a normal hit
    PARRY_CRIT_CRIT = 4  # a critical hit parries a critical hit

    @property
    def text(self) -> str:
        return MOVE_TEXT[self]


MOVE_TEXT = (
    "strikes with a normal hit",
    "strikes with a critical hit",
    "parries a normal hit with a normal hit",
    "parries a normal hit with a critical hit",
    "parries a critical hit with a critical hit",
)


class ResolutionState(NamedTuple):
    """A position of the Resolve Successful Hits step (see the module text)."""

    duel: Duel
    to_move: int  # ATTACKER, DEFENDER or engine.game.TERMINAL
    hits: tuple[Hits, Hits]
    wounds: tuple[int, int]
    critical_strikes: tuple[int, int]

    @classmethod
    def start(cls, duel: Duel, attacker: Hits, defender: Hits) -> ResolutionState:
        """The first position: the attacker resolves first (the defender if the attacker has no die)."""
        to_move = ATTACKER if attacker.dice else DEFENDER if defender.dice else TERMINAL
        wounds = (duel.attacker.wounds, duel.defender.wounds)
        return cls(duel, to_move, (Hits(*attacker), Hits(*defender)), wounds, (0, 0))

    # ---------------------------------------------------------------- engine.game.State
    def current_player(self) -> int:
        return self.to_move

    def legal_actions(self) -> list[Move]:
        """The moves open to the side to move (Brutal: the opponent parries only with crits)."""
        side = self.to_move
        mine, theirs = self.hits[side], self.hits[1 - side]
        brutal = self.duel.fighters[1 - side].rules.brutal
        out = []
        if mine.normal:
            out.append(Move.STRIKE_NORMAL)
        if mine.critical:
            out.append(Move.STRIKE_CRIT)
        if mine.normal and theirs.normal and not brutal:
            out.append(Move.PARRY_NORMAL)
        if mine.critical and theirs.normal:
            out.append(Move.PARRY_CRIT_NORMAL)
        if mine.critical and theirs.critical:
            out.append(Move.PARRY_CRIT_CRIT)
        return out

    def chance_outcomes(self) -> list:
        return []  # the resolution step has no dice

    def apply(self, move: Move) -> ResolutionState:
        side = self.to_move
        other = 1 - side
        me = self.duel.fighters[side]
        mine, theirs = self.hits[side], self.hits[other]
        strikes = self.critical_strikes
        damage = 0
        if move == Move.STRIKE_NORMAL:
            mine = Hits(mine.normal - 1, mine.critical)
            damage = me.normal_damage
        elif move == Move.STRIKE_CRIT:
            mine = Hits(mine.normal, mine.critical - 1)
            damage = me.critical_damage
            if me.rules.stun and not strikes[side] and theirs.normal:
                theirs = Hits(theirs.normal - 1, theirs.critical)  # Stun: first critical strike
            strikes = (strikes[0] + 1, strikes[1]) if side == ATTACKER else (strikes[0], strikes[1] + 1)
        elif move == Move.PARRY_NORMAL:
            mine, theirs = Hits(mine.normal - 1, mine.critical), Hits(theirs.normal - 1, theirs.critical)
        elif move == Move.PARRY_CRIT_NORMAL:
            mine, theirs = Hits(mine.normal, mine.critical - 1), Hits(theirs.normal - 1, theirs.critical)
        else:
            mine, theirs = Hits(mine.normal, mine.critical - 1), Hits(theirs.normal, theirs.critical - 1)
        hits = (mine, theirs) if side == ATTACKER else (theirs, mine)
        left = max(self.wounds[other] - damage, 0)
        wounds = (self.wounds[0], left) if side == ATTACKER else (left, self.wounds[1])
        if left == 0:  # the fight ends at once when an operative is incapacitated
            to_move = TERMINAL
        else:
            to_move = (
                other
                if theirs.normal + theirs.critical
                else side
                if mine.normal + mine.critical
                else TERMINAL
            )
        return ResolutionState(self.duel, to_move, hits, wounds, strikes)

    def returns(self) -> tuple[int, int, bool, bool, int, int]:
        """Features: wounds left (attacker, defender), incapacitated (attacker, defender),
        critical strikes (attacker, defender)."""
        wa, wd = self.wounds
        return (wa, wd, wa == 0, wd == 0, *self.critical_strikes)

    @property
    def outcome(self) -> Outcome:
        return Outcome(*self.wounds, *self.critical_strikes)
