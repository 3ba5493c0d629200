"""Rules Crusade effect codes (section VIII) and special abilities (section IX) as one rule table.

Weapons list their codes (``effects: [J, S, AP]``) and models their abilities
(``abilities: ["+F", IS]``); both are read by ``RULES.parse``. Codes that only act on the board
(movement, hiding, cards...) are accepted with ``effect=False`` and listed in ``docs/crusade.md``.
Readings of the text that could not be checked against another source are ``verified=False``;
results that use them carry the note.
"""

from __future__ import annotations

from grimdice.engine.rules import Param, Rule, RuleTable
from grimdice.systems.crusade.readings import READINGS

F, C, D = Param.FLAG, Param.COUNT, Param.DISTANCE
W = "weapon"
M = "model"


def _r(name: str, param: Param, applies: str, summary: str, source: str, **kw) -> Rule:
    return Rule(name, param, applies, summary, f"rules-crusade {source}", **kw)


def _board(name: str, applies: str, summary: str, source: str, **kw) -> Rule:
    return _r(name, F, applies, summary, source, effect=False, **kw)


GRAZES = ("stun", "wound", "ko", "kill")
FAILS = ("jam", "explode", "malfunction", "break", "stick")

RULES = RuleTable(
    "crusade",
    [
        # graze results (III, VIII)
        _r("STUN", F, W, "graze result: stunned (stunned + stunned = KO)", "III, VIII STUN", aliases=("S",)),
        _r(
            "WOUND",
            F,
            W,
            "graze result: wounded (wounded + wounded = kill)",
            "III, VIII WOUND",
            aliases=("W",),
        ),
        _r("KNOCKED OUT", F, W, "graze result: knocked out", "VIII KNOCKED OUT", aliases=("KO",), field="ko"),
        _r("KILL", F, W, "graze result: killed", "VIII KILL", aliases=("K",)),
        _r("KILL=KO", F, W, "a killing result knocks out instead", "VIII KILL=KO", field="kill_is_ko"),
        # fails (III, VIII)
        _r("JAM", F, W, "on a fail: jammed until unjammed (reported)", "VIII JAM", aliases=("J",)),
        _r(
            "EXPLODE",
            F,
            W,
            "on a fail: weapon lost, attack on the bearer (reported)",
            "VIII EXPLODE",
            aliases=("X",),
        ),
        _r(
            "MALFUNCTION",
            F,
            W,
            "on a fail: weapon dice rolled vs the user's armour (reported)",
            "VIII MALFUNCTION",
            aliases=("M",),
        ),
        _r("BREAK", F, W, "on a fail: the weapon is lost (reported)", "VIII BREAK"),
        _r("STICK", F, W, "on a fail: stuck in the target (reported)", "VIII STICK"),
        _r(
            "VOLATILE",
            F,
            W,
            "explodes if the bearer is killed by more than a graze (reported)",
            "VIII VOLATILE",
            aliases=("V",),
        ),
        # shooting modifiers (II, VIII)
        _r(
            "ARMOR PIERCING",
            F,
            W,
            "+1 to the roll against armour > 0",
            "VIII AP",
            aliases=("AP", "ARMOUR PIERCING"),
            field="ap",
        ),
        _r(
            "IGNORES ARMOR",
            F,
            W,
            "target armour and cover bonus do not apply (force fields do)",
            "VIII IA",
            aliases=("IA", "IGNORES ARMOUR"),
            field="ia",
        ),
        _r(
            "IGNORE FRONT COVER",
            F,
            W,
            "front cover gives no armour bonus (smoke and darkness still do)",
            "VIII IFC",
            aliases=("IFC",),
            field="ifc",
        ),
        _r("IGNORE RANGE", F, W, "no range penalty", "VIII IR", aliases=("IR",), field="ir"),
        _r("BURN", F, W, "ignores cover (not in armoured buildings)", "VIII BURN"),
        _r("SCOPE", F, W, "ignores cover if the firer did not move", "VIII SCOPE"),
        _r("BARRAGE", F, W, "ignores front cover; always at least -1 for range", "VIII BARRAGE"),
        _r(
            "PENETRATING",
            F,
            W,
            "+1 vs buildings/vehicles; melee: ignores parries",
            "VIII +P",
            aliases=("+P",),
            field="penetrating",
        ),
        _r("PASS PARRY", F, W, "opponent's parry bonus -1", "VIII -P", aliases=("-P",), field="pass_parry"),
        _r(
            "KNOCKBACK",
            F,
            W,
            'ranged tie or exceed / melee tie: target moved 1" (stun on an obstacle)',
            "VIII KB",
            aliases=("KB",),
        ),
        _r(
            "RAPID FIRE",
            F,
            W,
            'fires twice if all targets are within 6"',
            "VIII Rap",
            aliases=("RAP",),
            field="rapid_fire",
        ),
        _r(
            "SPLIT FIRE",
            F,
            W,
            "the total (dice + plus) is split among targets (best split)",
            "VIII *",
            aliases=("*",),
            field="split_fire",
        ),
        _r(
            "LINE EFFECT",
            F,
            W,
            "the roll applies to every model in the line",
            "VIII LINE",
            aliases=("LINE",),
            field="line",
        ),
        _r("BLAST", F, W, "centre: total; outside: highest die + modifiers", "VIII BLAST", aliases=("B",)),
        _r(
            "FLAMER TEMPLATE",
            F,
            W,
            "rolled separately per target under the template",
            "VIII FT",
            aliases=("FT", "SFT", "HFT"),
            field="flamer",
        ),
        _r(
            "AREA",
            D,
            W,
            'circle template of radius X" (area effect)',
            'VIII X"',
            aliases=("A",),
            bounds=(0, 12),
            example="Area 2",
        ),
        # melee (IV, VIII)
        _r(
            "REROLL OPPONENT",
            F,
            "weapon/model",
            "re-roll one opponent die or one own die",
            "VIII RO",
            aliases=("RO",),
            field="ro",
        ),
        _r(
            "REROLL",
            F,
            "weapon/model",
            "re-roll one own die (melee: once per melee)",
            "VIII R",
            aliases=("R",),
        ),
        _r(
            "NO OPPONENT REROLL",
            F,
            "weapon/model",
            "the opponent may not re-roll",
            "VIII NOR",
            aliases=("NOR",),
            field="nor",
        ),
        _r(
            "MINUS A REROLL",
            F,
            "weapon/model",
            "the opponent loses a re-roll (RO -> R)",
            "VIII -R",
            aliases=("-R",),
            field="minus_reroll",
        ),
        _r(
            "SCYTHE",
            F,
            W,
            "no -1 per successive opponent; swarms take more than 1 hit",
            "IV, VIII SCYTHE",
            aliases=("SCYTHES",),
        ),
        _r("SPIKY", F, W, "dice add to melee only when defending (or ZOC/dive/overrun)", "VIII SPIKY"),
        _r("SHIELD", F, W, "parry at +2", "IV PARRYING"),
        _r(
            "PLAGUE",
            F,
            "weapon/model",
            "a tie (or a parrying win) wounds",
            "IX PLAGUE / POISON",
            aliases=("POISON",),
        ),
        _r(
            "THROW",
            F,
            M,
            'on a melee tie, or instead of damage (either side): a smaller or equal opponent thrown 1" as KB',
            "IX THROW",
        ),
        # abilities (IX)
        _r(
            "BAD GUY",
            F,
            M,
            "killed if its exploding weapon fails, when it has one hit (reported)",
            "VIII EXPLODE",
            field="bad_guy",
        ),
        _r(
            "FORCE FIELD",
            F,
            M,
            "minus 1 red die from incoming damage",
            "IX +F",
            aliases=("+F",),
            field="force_field",
        ),
        _r("IS", F, M, "ignores stun results", "IX IS", aliases=("IGNORE STUN",)),
        _r("NSB", F, M, "ignores stun from knockback", "IX NSB"),
        _r("UNDEAD", F, M, "ignores wound and KO graze results", "IX UNDEAD"),
        _r(
            "SWARM",
            F,
            M,
            "-1 red melee die per hit taken; at most 1 hit per attack unless area/scythe",
            "IX SWARM",
        ),
        _r(
            "MOB",
            C,
            M,
            "up to X models combine melee dice; losing, they divide the hits (best for the mob)",
            "IX MOB",
            default=3,
            bounds=(1, 6),
            aliases=("MOB-",),
        ),
        _r("GRAPPLE", F, M, "both use base melee dice only; anyone may parry", "IX GRAPPLE"),
        _r("FRENZY", F, M, "no awkward melee while wounded", "IX FRENZY"),
        _r("HEAVY", F, M, "ignores knockback unless meleed by an equal or larger model", "IX HEAVY, VIII KB"),
        _r(
            "BIG",
            F,
            M,
            "as HEAVY (counts as heavy); larger than heavy; no cover except from smoke or darkness",
            "IX BIG, VIII KB",
        ),
        _r("SMALL", F, M, "always has front cover", "IX SMALL"),
        _r("SNIPER", F, M, "no range penalty if the firer did not move", "IX SNIPER"),
        _r("JINK", F, M, "may re-roll 1 enemy die when fired upon", "IX JINK"),
        _r("LEAP", F, M, "+3 to jump rolls", "IX LEAP"),
        _r("TROT", F, M, "+2 to jump rolls; may not scrabble", "IX TROT"),
        _r("FLY", F, M, "ignores damage from a fall", "IX FLY"),
        _r(
            "PSY",
            C,
            M,
            "psyker of level X (mind war: X red dice)",
            "VII, IX PSY",
            aliases=("PSY-",),
            bounds=(1, 6),
        ),
        _r(
            "PSYCHIC HOOD",
            F,
            M,
            "a re-roll in any mind war",
            "VII MODIFIERS",
            aliases=("HOOD",),
            field="hood",
        ),
        # board-only rules: accepted, no effect on one attack's dice
        _board("RELOAD", W, "an action to reload per shot", "VIII RELOAD"),
        _board("ARTILLERY", W, "two actions to operate; cover for 2 crew", "VIII ARTILLERY"),
        _board("AMBUSH", M, "free attack when revealed", "IX AMBUSH"),
        _r("ANIMAL", F, M, "may use only weapons that take no hands (spiky)", "IX ANIMAL"),
        _board("BERSERK", M, "may melee after an extra move", "IX BERSERK"),
        _board("CLIMB", M, "climbs any surface", "IX CLIMB"),
        _board("CONTROL", M, "takes control instead of killing", "IX CONTROL"),
        _board("DETONATE", M, "detonates as an action or when grazed", "IX DETONATE"),
        _board("FERAL", M, "may only attack the nearest target", "IX FERAL"),
        _board("FURTIVE", M, "hides for free", "IX FURTIVE"),
        _board("HORROR", M, "red die after death: 0 dead ... 3 alive", "IX HORROR"),
        _board("INFILTRATE", M, "may start hidden", "IX INFILTRATE"),
        _board("LATCH ON", M, "attaches to a target", "IX LATCH ON"),
        _board("JUMP PACK", M, "moves through the air", "IX JUMP PACK"),
        _board("MINDLESS", M, "moves to and attacks the nearest target", "IX MINDLESS"),
        _board("SHAMBLE", M, "move is 2 reds + 4", "IX SHAMBLE"),
        _board("SNAP FIRE", M, "fires a pistol before being meleed", "IX SNAP FIRE"),
        _r("STUPID", F, M, "may not use weapons or equipment", "IX STUPID"),
        _r("TALL", F, M, "takes no cover except from smoke or darkness (once revealed)", "IX TALL"),
        _board("TWO FISTED", M, "fires two pistols as one attack", "IX TWO FISTED"),
        _board("SLIP THRU", M, "ignores zones of control", "V ZONE OF CONTROL"),
        _board("MIND BLAST", M, "may attack non-psykers with the mind (FT, each target)", "VII MIND WAR"),
        _board("MIND LANCE", M, "may attack non-psykers with the mind (as mind war)", "VII MIND WAR"),
    ],
    readings=READINGS,
    what="effect code or ability",
    codes=True,
)

__all__ = ["FAILS", "GRAZES", "RULES"]
