"""The unverified readings of the Rules Crusade text (the rule table's core-sequence rows): what
grimdice assumes where the text is silent or ambiguous; results that use one carry its note."""

from __future__ import annotations

from grimdice.engine.rules import Reading

READINGS = [
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
        "structure_melee",
        "how a melee at a building sector, barricade or catwalk is rolled",
        "rules-crusade VI STRUCTURES AND BUILDINGS, IV MELEE",
        'VI: "meleeing from the inside (vs. armor)": the attacker\'s melee dice (base melee and melee '
        "weapons, as in a melee) rolled against the structure's armour, the remainder hits off its "
        "hits left; no parry, no contest and no cover; +1 for +P and AP, -1 awkward or wounded; fails "
        "and re-rolls as the dice have them; whether the attacker is inside the building (barricades "
        "and catwalks: beside it) is the game's to check",
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
        "no_maximum_range",
        "a shot from beyond any range it can damage at",
        "rules-crusade II RANGE; III WEAPON EFFECTS",
        'the text sets no maximum range ("Subtract 1 from the roll for every foot of distance"): a '
        "shot whose range penalty leaves no roll able to damage or tie is still fired, and its dice "
        'still fail on two maximum values ("The firing result still applies"), so JAM, EXPLODE '
        "and the other fail effects are rolled as at any range",
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
]

__all__ = ["READINGS"]
