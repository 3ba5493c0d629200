"""A scenario's attack as a :class:`~.resolution.Attack`: a shooting (:mod:`.shoot`), a melee or a
mind war (:mod:`.melee`), and what the engines ask of any attack (:func:`shot_law`,
:func:`each_target`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import State, moved_back
from grimdice.systems.crusade.melee import incursion, melee
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.resolution import FF_FACES, NO_FF, THROWN, Attack, all_arms, state_code
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.shoot import shooting
from grimdice.systems.crusade.structure_melee import structure_melee
from grimdice.systems.crusade.units import STRUCTURES


def build(sc: Scenario) -> Attack:
    """The attack of a scenario (shooting, melee, or a mind war played as a contested roll)."""
    if sc.action == "shoot":
        atk = shooting(sc)
    elif sc.action == "melee" and sc.defender.kind in STRUCTURES:
        atk = structure_melee(sc)  # VI: "meleeing from the inside (vs. armor)"
    else:
        atk = melee(sc)
    if sc.action == "mindwar":
        n = atk.spec.att.pool.n
        # VII INCURSION: every die rolled at its maximum (1/6 per red die)
        atk.info["incursion"] = (1 / 6) ** n
        atk.info["incursion_psyker_end_state"] = end = incursion(sc)
        # VII: "If the Psyker is killed, replace the model with a Warp Spawn: (M6 A1 Melee OOOOOO W,
        # Scythes, Feral), with a number of hits equal to the original model's hits + 2."
        atk.info["warp_spawn"] = {
            "chance": atk.info["incursion"] * end["killed"],
            "profile": {  # as the text gives it (O read as a red die, reading incursion)
                "name": "Warp Spawn",
                "move": 6,
                "attacks": 1,
                "melee": "6R",
                "graze": "wound",
                "effects": ["SCYTHE", "FERAL"],
                "hits": sc.attacker.hits + 2,
            },
        }
        atk.notes.append(RULES.note("incursion"))
    return atk


def shot_law(atk: Attack, total: int, start: State | None = None) -> tuple[tuple[State, int, float], ...]:
    """``(end state, damage, p)`` of one roll of dice ``total`` at the attack's target (from
    ``start``, else its own state), over the red die of its force field (IX +F) if it has one."""
    out: dict[tuple[State, int], float] = defaultdict(float)
    for g, p in FF_FACES if atk.dfd.body.force_field else NO_FF:
        s, d, _ = atk.outcome(total, g, start)
        out[(s, d)] += p
    return tuple((s, d, p) for (s, d), p in out.items())


def knocks_back(atk: Attack, total: int, end: State) -> bool:
    """VIII KNOCKBACK: whether a ranged roll of dice ``total`` moves the target ("if you tie OR
    EXCEED with a ranged attack", "you must roll at least a 1"), the roll and armour as the shot
    has them, the target ending in ``end`` (not killed, not HEAVY or BIG, not a structure)."""
    if not all_arms(atk.arms, "knockback"):
        return False
    roll = total + atk.info["modifier"]
    return roll >= max(atk.info["armour"], 1) and moved_back(end, atk.dfd.body)


def each_target(
    sc: Scenario, make: Callable[[Scenario], Attack], *, own_cover: bool = True, **update: object
) -> list[Attack]:
    """Each of ``sc.targets`` as its own single-target scenario (its profile, its range, what lies
    beyond it, and its cover when ``own_cover``; plus ``update``) made into an attack by ``make``;
    an error in a target's profile names ``targets.i``."""
    out = []
    for i, t in enumerate(sc.targets):
        data = t.model_dump(by_alias=True, exclude={"range", "cover", "knockback_into"})
        fields: dict[str, object] = {
            "defender": type(sc.defender).model_validate(data),
            "range": sc.range if t.range is None else t.range,
            "knockback_into": sc.knockback_into if t.knockback_into is None else t.knockback_into,
            "targets": [],
            **update,
        }
        if own_cover:
            fields["cover"] = sc.cover if t.cover is None else t.cover
        try:
            out.append(make(sc.model_copy(update=fields)))
        except ScenarioError as e:
            raise ScenarioError(e.field.replace("defender", f"targets.{i}"), e.message) from None
    return out


__all__ = [
    "THROWN",
    "Attack",
    "build",
    "each_target",
    "knocks_back",
    "melee",
    "shooting",
    "shot_law",
    "state_code",
]
