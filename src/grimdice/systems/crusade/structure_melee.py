"""Meleeing a structure (rules-crusade VI STRUCTURES AND BUILDINGS).

VI: "You may destroy buildings by meleeing from the inside (vs. armor)"; barricades: "May use any
kind of attack to damage"; catwalks: "As Barricades". Reading ``structure_melee``: the attacker's
melee roll (its base melee dice and melee weapons, as in IV; IX GRAPPLE: base dice only) against
the structure's armour, the remainder hits off its hits left; no parry and no contest (a structure
does not melee), no cover; +1 for +P and AP, -1 awkward (IV; a wounded attacker, VIII WOUND);
fails and re-rolls as the attacker's dice have them.
"""

from __future__ import annotations

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.melee import melee_arms, melee_pool
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.resolution import Attack
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.shoot import roll_against, roll_modifier
from grimdice.systems.crusade.units import fighter


def structure_melee(sc: Scenario) -> Attack:
    """The attacker's melee at a structure (``defender.kind`` building, barricade or catwalk)."""
    att, dfd = fighter(sc.attacker, "attacker"), fighter(sc.defender, "defender")
    if att.body.structure:
        raise ScenarioError("attacker.kind", f"a {att.kind} does not melee (VI)")
    if sc.mob:
        raise ScenarioError("mob", "a mob's melee at a structure is not modelled; melee it model by model")
    if sc.attack_mode != "normal":
        raise ScenarioError("attack_mode", "a melee at a structure is a normal melee (VI)")
    if sc.range:
        raise ScenarioError("range", "a melee at a structure is at range 0 (adjacent, or from inside)")
    arms, _, grapple, _ = melee_arms(sc, att, dfd)
    pool = melee_pool(att, arms, "attacker", grapple)
    if pool.n == 0:
        raise ScenarioError("attacker.melee", "a melee roll needs at least one die")
    awkward = int(sc.awkward or (att.start[0] == 2 and not att.has("frenzy")))  # IV, VIII WOUND
    bonus = roll_modifier(sc, dfd, arms, pool, 0) - awkward
    notes = [RULES.note("structures"), RULES.note("structure_melee")]
    return roll_against(sc, (att, dfd), arms, pool, (dfd.armour, bonus, 0), notes)


__all__ = ["structure_melee"]
