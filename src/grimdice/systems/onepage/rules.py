"""The special rules of One Page 40k v2.21 (Beginner's Guide) as one :class:`RuleTable`.

Every rule cites the sentence of ``one-page-40k-2.21-beginners-guide.txt`` it follows. Unit types
are special rules in this text: "Units with the Hero special rule count as Heroes. Units with the
Monster, Vehicle or Walker special rule count as Special units."
"""

from __future__ import annotations

from typing import Any

from grimdice.engine.rules import Param, Reading, Rule, RuleTable

SRC = "OP40k 2.21 Beginner's Guide"


def _r(name: str, param: Param, applies: str, summary: str, section: str, **kw: Any) -> Rule:
    return Rule(name, param, applies, summary, f"{SRC}, {section}", **kw)


F, C = Param.FLAG, Param.COUNT
RULES = RuleTable(
    "onepage",
    [
        # unit types ("Units with the Hero special rule count as Heroes...")
        _r(
            "Hero",
            F,
            "unit",
            "counts as a Hero: at most one per army; may join Infantry of same Quality",
            "Preparing your Army; Heroes & Psykers",
        ),
        _r("Monster", F, "unit", "Special unit; always has Armored, Fear and Relentless", "Monsters"),
        _r(
            "Walker",
            F,
            "unit",
            "Special unit; always Armored and Relentless; Vehicle damage rules",
            "Walkers",
        ),
        _r(
            "Vehicle",
            F,
            "unit",
            "Special unit; Armored, Relentless; D6 automatic hits when assaulting; damage table per wounding",
            "Vehicles",
        ),
        # the special rules, in the text's order
        _r("Armored", F, "unit", "each hit taken is ignored on a 4+ (before blocks)", "Armored"),
        _r(
            "Deep Strike",
            F,
            "unit",
            'reserve; from round 2 on a 4+ place over 12" from enemies; '
            'on 1-2 the opponent moves it up to 12"',
            "Deep Strike",
        ),
        _r("Fast", F, "unit", '+3" Walk, +6" Run/Assault', "Fast"),
        _r("Fear", F, "unit", "enemies without Fear test morale before melee; failed: Strikes Last", "Fear"),
        _r("Fearless", F, "unit", "morale tests roll one extra die, highest counts", "Fearless"),
        _r(
            "Flying",
            F,
            "unit",
            "moves through units and impassable terrain, ignores terrain effects",
            "Flying",
        ),
        _r(
            "Furious",
            F,
            "unit",
            "+1 Attack per model in melee when assaulting",
            "Furious",
            verified=False,
            reading="+1 Attack for each striking model (the text does not say per model)",
        ),
        _r("Hatred", F, "unit", "re-roll failed melee hits when assaulting", "Hatred"),
        _r(
            "Indirect",
            F,
            "weapon",
            "may fire without line of sight; the target then counts as in Cover",
            "Indirect",
        ),
        _r("Limited", F, "weapon", "fired once per game", "Limited"),
        _r(
            "Linked",
            F,
            "weapon",
            "re-roll failed hits",
            "Linked",
            verified=False,
            reading="'Units firing weapons with this special rule': applied to melee weapons too",
        ),
        _r(
            "Piercing",
            F,
            "weapon",
            "ignore Armored, or the target re-rolls successful blocks (attacker picks)",
            "Piercing",
        ),
        _r("Poison", F, "weapon", "Piercing against Infantry and Monster units", "Poison"),
        _r(
            "Psyker",
            C,
            "unit",
            "D3+X power dice per round (max 6); manifest on as many 4+ as the "
            "power's number; two or more 6s: D3 automatic wounds",
            "Psyker(X)",
            bounds=(1, 6),
            example="Psyker(1)",
            combine="max",
            verified=False,
            reading="'the number in brackets' is the power's (attack: psyker, power_need), by default the "
            "Psyker's X, the only number in brackets the text gives (it names no Psychic Power); 'D3+X "
            "power' are power dice; perils' D3 automatic wounds go on the Psyker model (a joined Psyker, "
            "not its unit), no block test, accumulated with Tough; no morale test for them",
        ),
        _r(
            "Relentless",
            F,
            "unit",
            "fires all weapons when using Hold actions, even at different targets",
            "Relentless",
        ),
        _r(
            "Rending",
            F,
            "weapon",
            "a hit roll of 6 causes one automatic wound, not ignored by Armored",
            "Rending",
            verified=False,
            reading="'Whenever a unit firing a weapon with this special rule': applied to melee weapons too",
        ),
        _r("Scout", F, "unit", 'deployed last, anywhere over 12" from enemies', "Scout"),
        _r("Scope", F, "weapon", "Quality 2+ when shooting it", "Scope"),
        _r("Strider", F, "unit", "difficult terrain counts as open when moving", "Strider"),
        _r(
            "Strikes First",
            F,
            "weapon or unit",
            "melee attacks fully resolved (with casualties) "
            "before the opponent's; cancels against Strikes First",
            "Strikes First",
        ),
        _r(
            "Strikes Last",
            F,
            "weapon or unit",
            "melee attacks resolved after the opponent's; cancels against Strikes Last",
            "Strikes Last",
        ),
        _r(
            "Tough",
            C,
            "model",
            "accumulates X wounds before removal; one model at a time",
            "Tough(X)",
            bounds=(1, 50),
            example="Tough(3)",
            combine="max",
        ),
        _r(
            "Transport",
            C,
            "unit",
            "carries up to X Infantry models; destroyed: D6 automatic hits on the passengers",
            "Transport(X)",
            bounds=(1, 100),
            example="Transport(10)",
        ),
    ],
    readings=[
        Reading(
            "half_killed",
            "morale test when half of the models are killed at once",
            f"{SRC}, Morale",
            "'half' means killed*2 >= models the unit had before that attack; a unit wiped out by "
            "the attack takes no test (no models are left to test)",
        ),
        Reading(
            "x_rule",
            'all wounds of an "x" weapon go to a single model',
            f'{SRC}, The "x" Rule',
            "per weapon fired: its wounds go to the model being "
            "worked on (Tough: the damaged one), excess wounds are lost; applied after the "
            "other weapons' wounds",
        ),
        Reading(
            "one_weapon",
            "each model fires one of its weapons (all with Relentless on Hold); Piercing: pick one",
            f"{SRC}, Who can Shoot",
            "the attacker's objective is assumed: per group of identical models, the weapon (and "
            "Piercing option) destroying the most points in expectation against the defender's best "
            "casualties, then the most wounds; every plan is resolved exactly (above 64 plans or 6 "
            '"x" weapons in a plan: the weapon with the most expected wounds)',
        ),
        Reading(
            "melee_piercing",
            "Piercing's option in melee (pick one)",
            f"{SRC}, Piercing",
            "each side's objective is assumed: the expected points it removes from the enemy (killed or "
            "routed) minus the points it loses, then P(win) - P(lose); the attacker picks first, "
            "anticipating the defender's best answer; every combination is resolved as a whole melee "
            "(above 16 combinations, or 8 per side: the option with more wounds per attack)",
        ),
        Reading(
            "melee_piercing_default",
            "Piercing's option in melee when the melee is too big to compare options exactly",
            f"{SRC}, Piercing",
            "the option with more wounds per attack (the exact melee refused the size)",
        ),
        Reading(
            "casualty_order",
            "the defender removes models in any order",
            f"{SRC}, Wounds & Casualties",
            "the defender's objective is assumed: per wound count, the removal keeping the most "
            "points, then the most expected return wounds in melee (when struck first and still to "
            "strike back: the most return wounds first), then the fewest accumulated wounds; a joined "
            "Hero's Tough order may instead be declared (conditions.*_casualty_order)",
        ),
        Reading(
            "assault_bonus",
            "+1 Attack per assaulting model",
            f"{SRC}, Melee: Determine Attacks",
            "bonus attacks (and Furious ones) carry no weapon rules (the text's example settles that "
            "only assaulting models that can strike get one)",
        ),
        Reading(
            "who_strikes",
            'models in base contact or within 2" strike',
            f"{SRC}, Who can Strike",
            'every model strikes unless the scenario places N models within 2" '
            "(attacker_strikers/defender_strikers): then the first N alive models in listed group order",
        ),
        Reading(
            "strike_tiers",
            "Strikes First/Last are weapon rules",
            f"{SRC}, Strikes First",
            'per weapon ("their attacks with this weapon"); attacks with no weapon (the assault bonus, '
            "a Vehicle's automatic hits) take the unit-wide timing (Elevation, Pinned, failed Fear, the "
            "rule on the unit); a weapon with both Strikes First and Strikes Last strikes with the others; "
            "a unit with the rule on any weapon or unit-wide counts as 'with this special rule' for the "
            "cancelling sentence",
        ),
        Reading(
            "joined_rules",
            "rules of a unit with a joined Hero",
            f"{SRC}, Heroes & Psykers",
            "the host unit's rules apply to the whole unit, except Armored (the half rule) and "
            "Tough (per model)",
        ),
        Reading(
            "melee_wounds",
            "combat resolution counts wounds caused",
            f"{SRC}, Combat Resolution",
            'every wound rolled counts, including those lost to the "x" rule or beyond the last model; the '
            "additional wound a repeated Immobile result inflicts is not counted (the damage table's, "
            "not a wound the unit caused)",
        ),
        Reading(
            "vehicle_table",
            "the Vehicle damage table is rolled once per attack that wounds",
            f"{SRC}, Vehicles",
            "rolled once after each shooting or melee strike that caused one or "
            "more wounds and left the unit alive; Walkers use it too",
        ),
        # readings of the whole game (game/, docs/onepage-game.md)
        Reading(
            "game_walker_facing",
            "game: Walkers 'follow the Vehicle damage rules when taking wounds'",
            f"{SRC}, Walkers; Vehicles",
            "Walkers have no facings in the game: their damage roll is one die ('not sure'); the "
            "facings and movement limits are written for Vehicles, and other units 'may move and turn "
            "in any direction regardless of their facing'",
        ),
        Reading(
            "game_melee_facing",
            "game: melee hits on a Vehicle by facing",
            f"{SRC}, Vehicles",
            "the quarter the other unit's centre lies in after the Assault move; when two Vehicles fight "
            "and are hit in different facings both use 'not sure' (the exact melee has one facing)",
        ),
        Reading(
            "game_weapon_arcs",
            "game: 'weapons which are mounted in the front of the vehicle can only fire straight'",
            f"{SRC}, Vehicles",
            "mountings turret or front (army entry 'arcs'); a front weapon fires at a target with a model "
            "within 45 degrees of the heading, seen from the hull's centre (the text measures line of "
            "sight 'from the barrel of the weapon'; army entries give no barrel positions, so sight is "
            "measured from the model's centre); on Hold the Vehicle pivots to its target first, so every "
            "weapon bears (unless Immobile)",
        ),
        Reading(
            "game_who_shoots",
            "game: 'All models in a unit that have line of sight to an enemy unit and that have a weapon "
            "that is within range of that unit may fire one of their weapons at it'",
            f"{SRC}, Who can Shoot",
            "per model and per weapon: a model fires one of its weapons that is in range of a target "
            "model it sees (all of them with Relentless on Hold), so a Flamer model near the target fires "
            "though the unit's Rifle models stand farther off; the exact shooting takes the models per "
            "weapon profile (conditions 'weapons_in_range'); models are counted, not named: a unit's "
            "models are its groups' in listed group order, and a weapon's count goes to the first models "
            "alive carrying it",
        ),
        Reading(
            "game_indirect",
            "game: Indirect fire at targets not within line of sight",
            f"{SRC}, Indirect",
            "line of sight is each model's: the models that see the target fire as usual and the others "
            "fire their Indirect weapons in the same shooting, those hits with the target in Cover (with "
            "no model seeing it, Indirect weapons only); models are counted, not named: the first alive "
            "in listed group order are those that see, the next fire blind (all the unit's other models "
            "when a group has no Indirect weapon), the blind part at its farthest model's distance; each "
            "part's plan is chosen on its own",
        ),
        Reading(
            "game_limited",
            "game: Limited weapons 'may only be fired once per game'",
            f"{SRC}, Limited",
            "the shooting player chooses to let them fire (a shoot action with 'limited'); each Limited "
            "weapon the shooting's plan fires is spent, by name: fired by some of the unit's models, it "
            "is spent for all of them",
        ),
        Reading(
            "game_move_back",
            "game: 'the assaulting unit must move back by 1\", separating itself from the defending unit'",
            f"{SRC}, Consolidation Moves; Vehicles",
            "a move with every move's checks and a dangerous terrain test; straight away from the closest "
            "defending model, else the nearest legal direction turned 15 to 75 degrees either side that "
            "separates it (none: it stays); a Vehicle reversing moves 0.5\" ('half speed'), forwards 1\" "
            "turning to the move; an Immobile Vehicle stays",
        ),
        Reading(
            "game_disputes",
            "game: 'The Most Important Rule' (a die roll settles what the players disagree on)",
            f"{SRC}, The Most Important Rule",
            "no die is rolled: the engine's readings (these game_ rows and the other readings of this "
            "table) are the agreed resolution, the same in every game",
        ),
        Reading(
            "game_assault_models",
            "game: the assaulting models' own moves into base contact",
            f"{SRC}, Assault Moves",
            "after the block's straight move the models are placed as a player wanting every model to "
            'strike would: each not in contact takes a spot in base contact or else within 2" of a target '
            'model (a second rank; spots on rings 0, 0.6, 1.2, 1.8" out), reached straight from its start '
            "or on from the block's move within its allowance, the final positions coherent; the others "
            "move as close as they can; no model enters dangerous terrain or goes around anything "
            '(straight paths only), each keeps 1" from every unit but the target; the moves count '
            "strikers only (the block keeps its formation)",
        ),
        Reading(
            "game_strike_order",
            "game: which models strike when only some are within reach",
            f"{SRC}, Who can Strike",
            'the game counts how many models of each side are within 2", not which; the player moves '
            "each model, so his best models strike: the groups whose one model strikes the most expected "
            "wounds at the enemy first (the melee is the exact one of the unit written in that order)",
        ),
        Reading(
            "game_screening",
            "game: line of sight through other units' models ('a model may ignore friendly models in "
            "its own unit')",
            f"{SRC}, Line of Sight",
            "a model sees another along one of nine lines between their bases (centres and the side "
            "points just inside each rim, square to the line of centres) that is open; "
            "every model on the table of a unit other than the shooter's and the target's blocks a line "
            "that passes through its base (friendly or enemy, Vehicles with their bases as given); a "
            "line that only grazes a base is open; the target's own models never block; embarked units "
            "and units in reserve never block; screening models give no cover; Indirect weapons fire "
            "over them as without line of sight",
        ),
        Reading(
            "game_furious_disembark",
            "game: Furious 'may use an Assault action at Walk distance to disembark from transports'",
            f"{SRC}, Furious; Transport",
            "Walk distance caps the whole assault: the block's move and every model's own move on into "
            "base contact (no model moves more than its Walk distance from where it leaves the hull)",
        ),
        Reading(
            "game_relentless_split",
            "game: Relentless 'may fire all of their weapons when using Hold actions, even at different "
            "targets'",
            f"{SRC}, Relentless",
            "one target per weapon profile (every model's copies of a weapon at the same target), not per "
            "model; each profile's target valid for it (a model carrying it sees it within its range, "
            "Indirect without sight); Limited weapons held back in a split; a "
            "Vehicle's front-mounted weapons all aim at the one target it pivots to; "
            "situations measured when the targets are declared; one shooting per target, in ascending "
            "unit order, each with its own casualties and morale test; at most 16 assignments offered",
        ),
        Reading(
            "game_whole_bases",
            "game: 'Units may not move into or through impassable terrain' / 'may not move within 1\" of "
            "other units' / Flying 'may move through other units and impassable terrain'",
            f"{SRC}, Terrain; Moving; Flying",
            "measured with whole bases along whole paths: a move meets a terrain piece when any part of a "
            "base passes over it (impassable: never; difficult: the Walk cap; dangerous: one die per model "
            "that passed over it); no base passes over another unit's base on the way (Flying excepted); the "
            '1" is measured base to base, signed, so bases in contact may not move onto each other; a unit '
            "leaving its transport may move off the hull it starts on; moves are straight",
        ),
        Reading(
            "game_deployment",
            "game: 'places all of his army within 12\" of his table edge. Once he is done the opposing "
            "player places all of his army'",
            f"{SRC}, Deploying Armies; Scout; Deep Strike",
            "each player places his units one at a time in the order he chooses, each on a grid of its "
            'block\'s places 4" apart (every base within 12" of the edge, on the table, off impassable '
            'and dangerous terrain, over 1" from every unit already placed; a 1" grid where none is '
            "valid; at most 60 places); Scouts after both armies, also in their own zone; a unit its "
            "own player's places have left without room is left out of the battle (never placed, "
            "scoring nothing)",
        ),
        Reading(
            "game_cover_own_piece",
            "game: Cover 'If the majority of models in a unit are within or behind a piece of cover terrain'",
            f"{SRC}, Cover",
            "a target model is within when its centre stands in a cover piece, behind when the line from "
            "the shooters' centre to it crosses a cover piece the shooters' centre is not in: the piece the "
            "shooters stand in gives the target no cover",
        ),
    ],
    what="special rule",
)

__all__ = ["RULES"]
