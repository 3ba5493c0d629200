"""Rules Crusade modifiers of one attack that the attack builders (:mod:`.attack`) read: cover and
who may take it, BARRAGE's minimum range, the re-roll rights when shooting, LATCH ON in melee,
and the readings an attack uses (rules-crusade II, V, VIII, IX)."""

from __future__ import annotations

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.damage import KO, NONE, WOUNDED
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.units import Arm, Fighter


def any_arm(arms: tuple[Arm, ...], key: str) -> bool:
    """Any weapon used has the effect ``key``."""
    return any(a.fx.get(key) for a in arms)


def cover_of(cover: str, dfd: Fighter) -> str:
    """II COVER; IX SMALL: "treated as if you always have front cover"; IX BIG, TALL: "can't ... take
    cover except from smoke/darkness" (a model shot at is revealed). Smoke and darkness (V HIDING,
    DARKNESS) are cover that IGNORE FRONT COVER, BARRAGE and grenades do not ignore (VIII IFC)."""
    if (dfd.has("big") or dfd.has("tall")) and cover not in ("smoke", "darkness"):
        return "none"
    return "front" if dfd.has("small") and cover == "none" else cover


def check_min_range(sc: Scenario, arms: tuple[Arm, ...]) -> None:
    """VIII BARRAGE: "Minimum range 8"": a barrage weapon at a nearer target is refused."""
    barrage = [a.name for a in arms if a.fx.get("barrage")]
    if not barrage:
        return
    ranges = [("range", sc.range)] if not sc.targets else []
    ranges += [
        (f"targets.{i}.range", sc.range if t.range is None else t.range) for i, t in enumerate(sc.targets)
    ]
    for where, r in ranges:
        if r < 8:
            raise ScenarioError(
                where, f"BARRAGE ({barrage[0]}) has a minimum range of 8 inches (VIII); got {r:g}"
            )


def shot_rerolls(att: Fighter, arms: tuple[Arm, ...], dfd: Fighter) -> tuple[bool, bool]:
    """(the firer re-rolls one die, the target jinks one of his dice). VIII R: "Ranged attacks: may
    reroll one of your attack dice once per turn"; RO: "one of your opponent's attack dice OR one of
    your own dice" (shooting, the target rolls no dice: one of the firer's own); IX JINK: "may
    reroll 1 enemy die when fired upon, as long as driver is not stunned"; VIII NOR: "Your opponent
    may not reroll any dice" (the firer's weapon or ability stops the jink, the target's ability
    the firer's re-roll); -R: "Your opponent loses a reroll" (likewise)."""

    def has(f: Fighter, key: str, with_arms: bool) -> bool:
        return f.has(key) or (with_arms and any_arm(arms, key))

    own = any(has(att, k, True) for k in ("reroll", "ro"))
    own = own and not has(dfd, "nor", False) and not has(dfd, "minus_reroll", False)
    jink = dfd.has("jink") and dfd.start[0] in (NONE, WOUNDED)
    jink = jink and not has(att, "nor", True) and not has(att, "minus_reroll", True)
    return own, jink


def melee_notes(arms: tuple[Arm, ...], dfd: Fighter, grapple: bool, rerolls: bool) -> list[str]:
    """The readings a melee uses beyond the core ones (each in the rule table)."""
    keys = ["pull_back"]
    if len(arms) > 1 and any(a.fail != "none" for a in arms):
        keys.append("melee_fail_weapon")
    if dfd.body.swarm:
        keys.append("swarm_area")
    if dfd.start[0] == KO:
        keys.append("ko_defender")
    if grapple:
        keys.append("grapple_side")
    if rerolls:
        keys.append("reroll_fail")
    return [RULES.note(k) for k in keys]


def shot_notes(arms: tuple[Arm, ...], att: Fighter, dfd: Fighter, own: bool, jink: bool) -> list[str]:
    """The readings a shot uses beyond the core ones (each in the rule table)."""
    keys = []
    if len(arms) > 1 and own and not att.has("reroll") and not att.has("ro"):
        keys.append("combined_reroll")
    if dfd.body.swarm:
        keys.append("swarm_area")
    if own or jink:
        keys.append("reroll_fail")
    return [RULES.note(k) for k in keys]


def check_melee_bodies(att: Fighter, dfd: Fighter) -> None:
    """VI: a structure does not melee, nor fight a mind war: one clear error naming the side's
    ``kind`` (a melee at a structure is :mod:`.structure_melee`'s)."""
    for who, f in (("attacker", att), ("defender", dfd)):
        if f.body.structure:
            raise ScenarioError(
                f"{who}.kind",
                f"a {f.kind} does not melee or fight a mind war (VI): melee it (action: melee) or shoot it",
            )


def melee_latch(sc: Scenario) -> int:
    """IX LATCH ON: "Attacks against the target will be at +1" (a melee attack or a mind war too);
    "The target's ranged attacks are at -1" only: a latched-on attacker's melee or mind war is
    refused, not ignored."""
    if sc.latch == "firer" and sc.action != "shoot":
        raise ScenarioError(
            "latch", "latch: firer (IX LATCH ON: the target's ranged attacks are at -1) applies to shooting"
        )
    return int(sc.latch == "target")


__all__ = [
    "any_arm",
    "check_melee_bodies",
    "check_min_range",
    "cover_of",
    "melee_latch",
    "melee_notes",
    "shot_notes",
    "shot_rerolls",
]
