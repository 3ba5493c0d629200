"""Rules Crusade effect codes (section VIII) and special abilities (section IX) as one rule table.

Weapons list their codes (``effects: [J, S, AP]``) and models their abilities
(``abilities: ["+F", IS]``); both are read by ``RULES.parse``. Codes that only act on the board
(movement, hiding, cards...) are accepted with ``effect=False`` and listed in ``docs/crusade.md``.
Readings of the text that could not be checked against another source are ``verified=False``;
results that use them carry the note.
"""

from __future__ import annotations

from grimdice.engine.rules import Param, Reading, Rule, RuleTable

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
    ],
    readings=[
        Reading(
            "explode_radius",
            "who an EXPLODE fail's attack hits",
            "rules-crusade VIII EXPLODE",
            "the weapon's dice at range 0 against the bearer and each listed model within the radius "
            '(SFT 1", FT 2", HFT 3", else the weapon\'s AREA X, else the bearer only), each with its own '
            "armour and cover, each rolled separately; the bearer on his state where his roll failed (melee: "
            "the state the melee left), the others on their state before the attack; a defender's exploding "
            "melee weapon fails on his melee roll and hits him alone (one with a radius, which would also "
            "hit the attacker in base contact, is refused); a listed model with the name of the one shot at "
            "is that model, hit on the state the shot left",
        ),
        Reading(
            "shots_in_turn",
            "re-rolls over the several rolls of a flamer template or RAPID FIRE",
            "rules-crusade VIII FLAMER TEMPLATE, RAPID FIRE, REROLL; IX JINK",
            "the rolls are made and resolved in turn (flamer: targets in the order listed; RAPID FIRE: as "
            "aimed, reading rapid_fire_aim); after each roll the attacker may spend his one "
            "re-roll a turn on one of its dice, then the target shot at its one jink; either may be kept",
        ),
        Reading(
            "rapid_fire_aim",
            "where RAPID FIRE's two shots go",
            "rules-crusade VIII RAPID FIRE",
            'each shot goes at any listed target (all within 6"), chosen before it is rolled, the second '
            "after seeing the first's result (on the state it left); a dead target is never shot again and "
            "the attacker holds a shot (no roll, no fail) when it would gain him nothing; he maximises, "
            "summed over the targets, P(killed), then P(KO or killed), then the expected damage, then "
            "fewer fails",
        ),
        Reading(
            "volley_rerolls",
            "re-rolls and JINK with VOLLEY FIRE",
            "rules-crusade IX VOLLEY FIRE, JINK; VIII REROLL",
            "the volley is one attack with one re-roll and the target's one jink a turn; its rolls are "
            "resolved in turn, after each the attacker may re-roll one of its dice not yet re-rolled, then "
            "the target (driver not stunned at that moment) one of its dice; either may be kept for later",
        ),
        Reading(
            "mob_losses",
            "how a losing mob takes the hits",
            "rules-crusade IX MOB, IV",
            "a losing mob takes the whole difference as hits (not a losing attacker's one graze), divided "
            "by the mob: each model takes hits until it is killed at most (the rest are lost once all are), "
            "minimising the number killed, then KO'd or killed, wounded or worse, in any condition, hits "
            "lost (ties: the lead attacker first); the mob's force fields are not rolled against them",
        ),
        Reading(
            "mob_throw",
            "whom a defender's THROW or knockback against a mob moves",
            "rules-crusade IX THROW, MOB; VIII KNOCKBACK",
            'THROW moves "a smaller or equal sized opponent" and MOB makes "a single melee attack"; the '
            "text does not say which of the mob a winning or tying defender throws or knocks back: read as "
            "the lead attacker (the scenario's attacker, his size checked); a throw instead of damage "
            "means the mob divides no hits",
        ),
        Reading(
            "structures",
            "how building sectors, barricades and catwalks take damage",
            "rules-crusade VI STRUCTURES AND BUILDINGS, V FALLING",
            "a structure (kind building, barricade, catwalk) takes the damage as hits off its hits left, "
            "with no graze and no condition (no stun, wound, KO, knockback or PLAGUE); it is destroyed at "
            "0 hits left (a barricade or catwalk by 1 point); +P adds 1 against all three, the line/area "
            "+1 only against buildings; a destroyed building collapses: 2 reds against each model inside "
            "(its armour, no cover; graze = wound) and against each connected sector (its armour, hits "
            "off; a sector it destroys collapses too, not followed further); models on a destroyed "
            "catwalk fall catwalk_height inches",
        ),
        Reading(
            "area_targets",
            'how an area (X") weapon hits several targets',
            'rules-crusade VIII X", BLAST, FLAMER TEMPLATE',
            'X" is a circle template and BLAST is "As template": an area weapon without BLAST, LINE or '
            "FT is rolled separately for each target under its circle (as a flamer template)",
        ),
        Reading(
            "pull_back",
            "a melee roll pulled back to the defender's roll",
            "rules-crusade IV, VIII TIE",
            'IV "choose any amount less than your roll and apply that amount": pulled back to the '
            "defender's roll (no hit) counts as a tie (KNOCKBACK, PLAGUE, THROW act on it); the "
            "attacker pulls back when it is best for him",
        ),
        Reading(
            "melee_fail_weapon",
            "which weapon fails in a melee",
            "rules-crusade III, IV PISTOLS IN MELEE",
            'III "randomize amongst all weapons used"; IV\'s "the pistol will fail" is read as its example '
            "(with a pistol the only weapon): the failing weapon is drawn at random among all those used",
        ),
        Reading(
            "combined_reroll",
            "a re-roll on one weapon of a combined fire",
            "rules-crusade III, VIII REROLL",
            'VIII R "may reroll one of your attack dice": one weapon with R lets the firer re-roll any one '
            "die of the combined roll (the dice are rolled together, III)",
        ),
        Reading(
            "swarm_area",
            "which weapons a SWARM takes more than 1 hit from",
            'rules-crusade IX SWARM, VIII X", VI',
            '"unless the weapon is Area Effect or Scythes": read as a weapon with an area (X") or SCYTHE '
            'only (VI\'s "line or area effect" would also count LINE, BLAST and flamer templates)',
        ),
        Reading(
            "ko_defender",
            "a knocked-out model meleed",
            "rules-crusade VIII KNOCKED OUT, IV",
            '"They may take no actions or movement"; the text gives no melee rule for it: a KO\'d '
            "defender rolls his full melee dice with no modifier (a stunned one is at awkward -1)",
        ),
        Reading(
            "grapple_side",
            "whose GRAPPLE acts",
            "rules-crusade IX GRAPPLE",
            '"You and your opponent may only use their base melee dice": either side\'s GRAPPLE, attacker or '
            "defender, limits both to their base melee dice, and the defender may parry without a melee "
            "weapon",
        ),
        Reading(
            "multi_hit",
            "damage on a target with H hits left",
            "rules-crusade III",
            "damage d > H kills; with H >= 2, d <= H removes d hits (0 hits left is alive, as a "
            "0-hit model); H = 1 and d = 1 is a graze; H = 0 and d >= 1 kills",
        ),
        Reading(
            "reroll_fail",
            "a re-rolled die that shows its maximum",
            "rules-crusade III",
            "a fail is judged on the first roll and again after a re-roll (a re-rolled maximum counts with "
            "the other dice); a fail once rolled stays",
        ),
        Reading(
            "combined_effects",
            "effect codes in a combined fire",
            "rules-crusade III",
            "roll modifiers (AP, IA, IFC, IR, BURN, SCOPE, +P, KB, KILL=KO) apply to a combined roll only if "
            "every weapon in it has them; graze codes are chosen by the attacker among all weapons",
        ),
        Reading(
            "graze_order",
            "which graze the attacker prefers",
            "rules-crusade III, IV",
            "kill > KO > wound > stun (a wound lasts, a stun does not); a graze on a KO'd model has no "
            "effect unless it is a kill",
        ),
        Reading(
            "parry_declared",
            "when a parry is declared",
            "rules-crusade IV",
            "the defender declares a parry before the dice are rolled",
        ),
        Reading(
            "melee_fails",
            "whose dice count together for a melee fail",
            "rules-crusade III, IV",
            "each side's melee dice (weapons and pistols) are one roll for its own fails",
        ),
        Reading(
            "incursion",
            "an incursion from the warp",
            "rules-crusade VII INCURSION",
            "reported as the chance that every die of the first mind-war roll shows its maximum; the "
            'incursion\'s "OO" attack is read as 2 red dice at range 0, no parry, against the psyker',
        ),
        Reading(
            "dive_o",
            'the "+O" of a dive attack',
            "rules-crusade V DIVE ATTACK",
            '"O" is read as one red die (as the Warp Spawn\'s "Melee OOOOOO"): the diver adds a red die '
            "to his melee roll",
        ),
        Reading(
            "mind_blast",
            "what a mind blast rolls",
            "rules-crusade VII MIND WAR",
            "a separate mind-war roll against each target under the flamer template (1 red per Psy "
            "level, range penalty per target) against the target's own (Psy reds, parrying; a "
            "non-psyker 1 white, no parry); the targets' results are independent",
        ),
        Reading(
            "volley_fire",
            "how VOLLEY FIRE pairs the re-rolled dice",
            "rules-crusade IX VOLLEY FIRE",
            "each white of the big roll that shows something is paired with a blank white that is "
            "re-rolled once (kept face + re-rolled face = one 2-dice roll); when the blanks run out the "
            "other scoring dice pair with each other as rolled and an odd one makes no roll; every roll is "
            "a shot at the defender; the attacker chooses which scoring dice pair with blanks and the "
            "order of the rolls (best for him, with or without re-rolls)",
        ),
        Reading(
            "volley_die_order",
            "VOLLEY FIRE beyond the solved bound without re-rolls",
            "rules-crusade IX VOLLEY FIRE",
            "beyond 12 000 states (pairs left x target states: 7 models at a 1-hit target, 6 at a 3-hit "
            "one) the attacker's choice of pairing and order is not solved: scoring dice pair with blanks "
            "in the order the dice lie, re-rolled pairs applied first (exact and Monte Carlo alike)",
        ),
        Reading(
            "volley_targets",
            "VOLLEY FIRE at several targets",
            "rules-crusade IX VOLLEY FIRE",
            "with targets, each 2-dice roll is applied, after it is rolled, to the living target the "
            "attacker chooses (its own range, cover, armour, force field); he also chooses the pairing "
            "and the order of the rolls, maximising the summed P(killed), then P(KO or killed), then "
            "expected damage, then fewer fails; once all are killed no roll is applied; no re-rolls or JINK",
        ),
        Reading(
            "tie_effects",
            "tie effects in melee",
            "rules-crusade VIII TIE, KNOCKBACK; IX PLAGUE, THROW",
            "on a tie each side's tie effects act on the other; knockback into an obstacle is a stun graze "
            "applied after the damage",
        ),
    ],
    what="effect code or ability",
)

__all__ = ["FAILS", "GRAZES", "RULES"]
