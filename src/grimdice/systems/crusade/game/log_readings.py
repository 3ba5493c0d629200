"""The readings of ours a Rules Crusade game's log carries in its notes (docs/crusade-game.md): those
every game uses, those a game on a table adds, and which of the first are about a grid's own
features; the calculator's readings of the rule table are :mod:`grimdice.systems.crusade.readings`."""

from __future__ import annotations

from grimdice.systems.crusade.game.scenario import Setup

#: the readings of ours every game uses (docs/crusade-game.md), carried in each log
READINGS = (
    "ours (victory): a force with no model standing loses; reach objectives, and items brought to their "
    "squares, win at once; hold objectives score after the last turn",
    "reading placement: models stand where the scenario puts them, else on their zone's first free squares",
    "reading grid_cover: on a grid only darkness and air ducts give cover, as darkness (full cover, TALL "
    "and BIG models' too); a target "
    "on a square beside the firer's is less than an inch away: no +1 for cover",
    "reading models_block_sight: models block line of sight on a grid",
    "reading blip_reveal: a blip is revealed when an enemy model steps adjacent or it steps adjacent to one",
    "reading blip_actions: an unrevealed blip only moves (10 squares)",
    "reading blip_placement: a revealed blip's other models take the nearest free squares",
    "reading door_cost: opening or closing an adjacent door costs one square of move",
    "reading no_passing: a model may not move through another model's square",
    "reading stun_recovery: a stunned model gets up when activated (half move, no action)",
    "reading wound_order: a wounded model may move then melee, not act then move",
    "reading zoc_grid: a step out of a square adjacent to an enemy passes it, unless directly away from "
    "an enemy the model started next to",
    "reading zoc_once: an enemy decides once per passer per move (its activation), whatever it chose",
    "reading knockback_grid: a knocked-back model moves one square away; a wall, closed door, model or "
    "air duct it may not enter there stuns it and it stays; RAPID FIRE's and re-rolled flamers' turns "
    "move nobody",
    "reading mindless: each step of any kind (climbs, jumps, ladders, air steps too) shortens its path to "
    "the nearest enemy not hidden; it may stop moving",
    "reading snap_fire: a snap shot comes before every melee at the model (a dive's after the landing, "
    "one across a ladder, a mob's at its lead, a latch, a ZOC's, an ambusher's); it is at range 0, without "
    "re-rolls or rapid fire; its knockback moves nobody but costs the attacker an inch of its move left, "
    "a charger's from its half move (a ZOC's or an ambusher's attacker has no move to pay); with none "
    "left the melee is not made",
    "reading snap_blast: a BLAST pistol's snap shot is centred on the attacker and rolls at every model "
    "its blast reaches, all at point blank range",
    "reading knockback_reveal: a knocked-back model's move reveals blips beside it and hidden models as "
    "a step there would",
    "reading horror_rise: a face-down HORROR keeps its square but does not stand; no move in its last attack",
    "reading ambush: the free attack comes at once, before the revealing model goes on; a template, line, "
    "area or SPLIT FIRE shot reaches as in a model's own turn, RAPID FIRE fires once",
    "reading hidden_caught: a hidden model caught by a template, line or area is revealed when the firer "
    "sees it or is within 1 inch; by BURN, when the dice's total rolled at it is above zero (harmed or not), "
    "not inside an armoured building",
    "reading burn_hidden: a BURN weapon may name a hidden enemy model in sight as its target (not a blip, "
    "not inside an armoured building); the shot reveals it when the dice's total rolled at it is above zero",
    "reading barrage: a BARRAGE weapon fires at enemies 8 inches (squares) away or more that the firer or "
    "a standing friend sees",
    "reading artillery: an ARTILLERY weapon fires only before its model moves, which then moves no more, "
    "and is unloaded until reloaded by an action",
    "reading artillery_crew: a crew model the scenario names within 1 inch (square) of its artillery model "
    "standing has front cover against every shot",
    "reading charge: a charge is declared at an enemy model not hidden within reach, and melees it; its "
    "half move is spent only on the way to it; after the melee at most the normal move is left",
    "reading charge_reach: a charge's reach is the least move by the steps the game offers the model "
    "(climbs, flights, ladders, stairs, doors opened, jumps it may roll), each at its cost the way taken, "
    "round models in the way; a fall or a hang only as its last step, beside the target and unharmed",
    "reading melee_in_turn: the melees in turn are made from where the first was, while the model stands "
    "there; no melee after moving on or a knockback",
    "reading shamble_charge: a SHAMBLE model takes no extra full move but may charge (half its turn's move)",
    "reading berserk: a BERSERK model's extra move leaves it a melee as its action",
    "reading volatile: a model killed by an attack's roll without a graze sets off its VOLATILE weapon's "
    "explosion after the attack's other follow-up rolls",
    "reading gather_adjacent: the board's places decide who is beside a door or ladder: a door is passed "
    "from the squares beside it, a ladder climbed from its one end",
    "reading volley_fire: VOLLEY FIRE (optional, a scenario's options.volley_fire naming the forces that "
    "volley, battle games only) is declared by the active model with friends not yet activated (their "
    "activations spent) that see every target in the same foot of range; targets within a 3 x 3 block; "
    "each die showing something pairs with a blank re-rolled once, the other scoring dice with each "
    "other; each pair aimed at the best target; a failed pair fails one firer's weapon, drawn at random, "
    "once",
    "reading reinforcements: a scenario's reinforcements come at the start of their force's turn (with a "
    "roll, at the first such turn it succeeds), each model on the first free point; models with every point "
    "blocked wait for a later turn",
    "reading covered_sections: what a covered section holds for the other force is off the board until a "
    "model of the exploring force sees into it or comes beside it (adjacent, at the start and after each "
    "step); its "
    "squares are known",
    "reading card_payer: a card played in the enemy turn costs the action of a model its player declares "
    "(one with an action to spend in its next activation; the psyker when there is none), marked until then; "
    "in its own turn (PRECOGNANT at a ZOC melee, a snap shot, an ambush) an action of that turn: a model not "
    "yet activated, or the active model's unspent action at once; with none the card is not offered; a "
    "marked model killed, knocked out or stunned before its next activation takes the mark with it (the "
    "text is silent)",
    "reading throw_direction: a THROW moves the opponent one square (inch) away from the thrower, as a "
    "knockback; the thrower does not choose another direction",
    "reading flight: FLY and JUMP PACK step through the air on a table, each step ending on a surface, "
    "across a gap however wide, measured as a move; an air step is asked the enemies' ZOC as a plain step is",
    "reading flight_grid: on a grid a flier flies straight over squares holding models to the free "
    "square beyond, a square's move each; not over walls or closed doors, nor diagonally",
    "reading two_fisted: both pistols fire at one target as one combined roll",
    "reading two_fisted_targets: or each pistol at its own target within 6 squares, each its own single "
    "shot, the second on the state the first left; an ambusher may fire them so",
    "reading detonate: a DETONATE model detonates as its action with one of its weapons; unless its dice "
    "roll a zero, that weapon's EXPLODE attack hits it and the models near",
    "reading detonate_graze: a graze is one point of damage with one hit left; a grazed DETONATE model "
    "detonates with its first weapon (even when the graze knocked it out or killed it), after the "
    "attack's own follow-up rolls; a shot at several models' grazes too, not those of its solved turns",
    "reading control: when a CONTROL model's own attack kills an enemy (in either turn; of a shot at "
    "several models the first enemy killed), its player may take control instead: the model keeps its "
    "state before the attack and is activated by the controller in the controller's next turn, then "
    "is its owner's again",
    "reading latch_on: latching is a LATCH ON model's melee action, with no roll, onto an adjacent enemy "
    "(after the target's snap fire, unless that stops it); "
    "it holds while both stand and touch, until the latcher's player's next turn; a single shot at the "
    "latcher (a snap shot too), or a shot at several models at it but not at its target, is followed by "
    "a single shot at its target; attacks at the target +1, its shots -1; a graze or "
    "knockback dislodges the latcher; the larger model steps (plain steps) and the smaller takes the "
    "square it left",
    "reading mob_joint: each model moves in its own activation, as any model moves, and a member beside "
    "an enemy may keep its action for a mob there; a MOB model's melee may be a mob with friends that "
    "may join (MOB models; MOB-1 any one), standing beside the target, that kept their action for it or "
    "are not yet activated (then spending their activation on it); one chance node, the calculator's "
    "mob melee, its losses divided as the calculator divides them",
    "reading infiltrate: a round 0 before the first lets each player's INFILTRATE models act, the first "
    "player's first; in a game with blips each makes a move and no action",
    "reading infiltrate_battle: in a battle game (no blips) each INFILTRATE model instead names where it "
    "starts: a free place no enemy model sees, more than 1 inch from each, or it keeps its place",
    "reading ambush_move: the half move after it (attack or not) takes plain steps only, never next to "
    "an enemy blip; no ZOC is asked",
    "reading feral: FERAL's nearest target is the nearest enemy it could attack, by range in squares",
    "reading manhole: climbing a manhole is a model's whole move",
    "reading grid_area: an AREA or BLAST weapon also rolls at every other model in the 3x3 squares around "
    "its target that the area reaches (blast_walls), friends and the firer included",
    "reading blast_walls: an area effect (EXPLODE, VOLATILE, DETONATE, AREA, BLAST) reaches the models "
    "within its radius of its centre that the centre sees past walls and closed doors (models do not "
    "stop it), on a table only in the centre's sector or outside with it; an explosion rolls at each "
    "at its range from the bearer, with the cover a shot from there gives (none within 1 inch)",
    "reading grid_template: a square is an inch; a flamer template laid from the firer towards its target "
    "touches the squares whose centres lie within its length and half its diameter, seen past walls",
    "reading grid_line: a LINE runs from the firer's centre through the target's to a wall or closed door",
    "ours (reached): a template, line or area rolls at every model it reaches; at most 4 as one chance "
    "node, more (or past the calculator's exact bounds) a node a model, after a LINE's or BLAST's one roll, "
    "a template's re-roll on its target's roll alone; where the calculator refuses even one model's roll, "
    "the last models are left out until it takes the rest; SPLIT FIRE and RAPID FIRE name at most 2 targets, "
    "fewer where the calculator's exact bounds refuse so many",
    "reading reroll_turn: a model's one shot a turn carries its re-roll; its rolls at several models "
    "share it (shots_in_turn); an explosion or malfunction roll has none",
    "reading explode_order: EXPLODE's attack is a shot at range 0 at the bearer, then the nearest models "
    "it reaches (blast_walls), in reading order at the same range",
    "reading sentient: MINDLESS models are not sentient (no mind attack at them)",
    "reading warp_spawn: the Warp Spawn (A1 read as armour 1) takes the psyker's square and fights for its "
    "opponent",
    "reading mind_blast_template: a mind blast lays an FT template from the psyker towards its target, as "
    "a flamer's, and rolls a mind lance at each sentient model under it, the target first, friends "
    "included; the first roll's incursion comes after every roll",
    "reading card_window: the other player may play cards when a model of the enemy is activated, and "
    "PRECOGNANT when an enemy attack is made at one of its models (in either turn); no cards in "
    "INFILTRATE's round 0",
    "reading card_moments: at an enemy attack declared at one of its models, SHIELD (on a model it "
    "rolls at, counted in the attack), FRENETIC, TRIPPER and INFERNO too; PSYCHOMETRY when an enemy blip is "
    "revealed in its own move beside a psyker; a ghost dissipated at an enemy model's activation",
    "reading card_effects: the deck's cards (every card VII names) are the scenario's; their effects are "
    "ours (docs/crusade-game.md)",
    "reading card_clairvoyant: CLAIRVOYANT reveals one enemy blip or hidden model a card, seen or not, "
    "its range penalty by the distance to it",
    "reading card_frenetic: FRENETIC gives a friendly model half its move more in its next activation "
    "while the card lasts (IX FOR ONE TURN: to the start of the next turn of the player it was played in)",
    "reading card_inferno: INFERNO wounds an enemy model in sight, as a graze; played in the enemy turn "
    "(at a declared attack, or at an enemy model's activation) no action is owed if a roll of that "
    "attacker's attack leaves the psyker stunned, wounded, knocked out or killed; on the declared attack's "
    "attacker, stunned, knocked out or killed it does not make the attack, wounded it makes it wounded",
    "reading card_jinx: JINX rolls its victim's first ready ranged weapon or pistol at the victim, at the "
    "range from the psyker; no card roll",
    "reading card_jostle: JOSTLE does so with the victim's first ready melee or spiky weapon",
    "reading card_obfuscate: OBFUSCATE's dice, less the range penalty to the farthest friendly model "
    "named, are how many hide (that model first, then those no farther, nearest first), seen or not",
    "reading card_phase: PHASE puts the psyker on a free square within the card's range, through walls; "
    "no roll, no action",
    "reading card_precognant: PRECOGNANT is played when an enemy attack (a shot, a melee of any kind, a "
    "mind attack, a ZOC melee, a snap shot, an ambush) is made at a model of its force; if its roll "
    "succeeds the attack is not made and what waited on it goes on",
    "reading card_projection: PROJECTION's ghost (the psyker's move, armour 0, 1 hit, 1 white die of "
    "melee) stands on a free square beside the psyker and is activated as a model of its force; it "
    "counts for no objective nor for being in action; its player may dissipate it in its turn, and at "
    "an enemy model's activation",
    "reading card_psychometry: PSYCHOMETRY, played by the psyker that revealed a blip in this "
    "activation, or beside which an enemy blip was revealed in the enemy turn, reveals another enemy blip",
    "reading card_telekenisis: TELEKENISIS moves an enemy model in sight one square away from the "
    "psyker, or stuns it when that square is blocked",
    "reading card_tripper: TRIPPER halves the move of an enemy model in sight in its next activation "
    "while the card lasts (IX FOR ONE TURN)",
    "reading hidden_info: the players decide from what they may know: not the enemy's blips' contents nor "
    "its cards",
)


#: the readings of ours a game on a table adds (docs/crusade-game.md, "The table")
TABLE_READINGS = (
    "reading collapse_equipment: a collapse rolls at the models inside; items lying there are not rolled "
    "at (they cannot be destroyed) and stay where they lie",
    "reading knockback_edge: a model knocked back off an edge lands on the highest place below in the cell "
    "beyond, unstunned by the knockback, and falls the drop",
    "reading big_entry: a BIG model steps into a building's sector only from within 1 inch of a forced "
    "entry marker of it, and may force an entry into any sector beside it",
    "reading table_cells: a table is laid out in 1 inch cells, a model on a cell's centre; "
    "heights are whole inches",
    "reading diagonal_step: a diagonal step costs its length (the square root of 2 inches)",
    "reading head_height: a model's eyes and head are 1.5 inches above its feet: it steps up 1 inch; "
    "higher ledges are jumped, scrabbled or climbed by ladders and stairs",
    "reading obstacle_cells: blocks and barricades are stood on: stepping up adds the rise, "
    "stepping down the drop",
    "reading jump_gap: jumps go straight across at most 3 cells lower than the start; a failed jump "
    "falls into the first of them (a jump up beside: the model stays); the roll is against the gap",
    "reading fall_ends_move: a fall ends the model's move; a fall that harms it also ends its action",
    "reading hang: HANG AND DROP is a whole move",
    "reading climb: a CLIMB model steps up or down the surface of a cell beside (2 inches up or more, "
    "4 down or more), or over a wall to the cell beyond, without a ladder, roll or fall, paying the "
    "inches across and the heights from its move, whole within the move; never through a roof or a "
    "wall; not on a grid",
    "reading table_range: range is the whole inches between the models' feet; grenades leave out "
    "the height down; a target within 1 inch (a cell beside: the two touch) is less than an inch away: "
    "no +1 for cover",
    "reading table_sight: sight runs from the eyes to the target's feet, middle and head; any seen is "
    "line of sight, some hidden is front cover; models inside a building see and are seen from its "
    "roof and are in full cover (armoured cover in an armoured building); models do not block sight",
    "reading table_adjacent: models touch when their cells touch and their feet are at most 1 inch "
    "apart in height, both outside or both in one sector",
    "reading building_entry: a step into a building is made from a cell beside it; a sector that "
    "holds enemies and no friends is entered only within 3 inches of a forced entry, or down a roof hatch, "
    "by stairs or off a catwalk",
    "reading forced_entry: a forced entry is any attack the model could make on the building beside it: "
    "a ready ranged weapon, pistol or grenade fired at range 0 (not BARRAGE, nor ARTILLERY after a move) "
    "or a melee with its base melee dice and melee weapons (not SPIKY), rolled against the building's "
    "armour (+1 for +P and AP, none for area or line); its fails and RELOAD leave the weapons as any "
    "attack does; its marker is where the forcing model stands",
    "reading table_hide: a model may hide inside a building or beside a piece at least 1 inch above its feet",
    "reading table_area: an AREA or BLAST weapon also rolls at every other model within 1 inch of its target "
    "that the area reaches (blast_walls)",
    "reading table_template: a flamer template is laid flat from the firer's cell towards the target's, "
    "as on a grid (a cell an inch); it reaches the models on the cells it touches that the firer sees, "
    "in the target's sector or outside with it",
    "reading table_line: a LINE runs from the firer's cell through the target's over the cells it enters, "
    "to a wall or the table's edge; it reaches the models there the firer sees, in the target's sector "
    "or outside with it",
    "reading building_weapons: the weapons fired at a building's sector are templates, grenades and "
    "weapons with HEAVY, AREA, LINE or BLAST; the firer sees part of its roof, from outside its building",
    "reading rubble: a collapsed sector becomes rubble stood in at 0 inches, 1 inch high for sight; models "
    "on its roof fall its height",
    "reading structure_melee: a model inside a sector may melee it (an action): its melee dice against "
    "the building's armour, the remainder hits off, no parry (the calculator's melee at a building)",
    "reading building_explode: EXPLODE's attack on a failed roll at a sector comes first, then the "
    "collapse's rolls",
    "reading piece_targets: barricades and catwalks are shot at with any ready ranged weapon whose "
    "firer sees part of their top, and meleed by a model touching them (feet within 1 inch of the top)",
    "reading catwalk: a catwalk is stood on and under and blocks no sight; destroyed, it lies on the "
    "ground 1 inch high for sight, and models on it fall",
    "reading hatch: a building's roof hatch (the scenario's) joins its roof and the floor below, climbed as "
    "a ladder of the roof's height; down it a sector held by enemies is entered without a forced entry",
    "reading catwalk_melee: a model on a catwalk may melee an enemy inside a building's sector where one "
    "of its own steps as the game offers them (a move, drop, fall or hang and drop, a climb, an air step; "
    "not a ladder; a BIG model's only from a forced entry) would land, through the wall",
    "reading dive: a dive is made outdoors onto an enemy seen 1 to 3 inches below, to the free place "
    "beside it nearest the diver; the jump is the inches across to that place plus 1, at most 4, paid "
    "from the move; a failed dive lands there stunned and ends the move; the target may snap fire after "
    "the landing, before its melee",
    "reading ladder_melee: a ladder held by an enemy at its far end is not climbed; the model at its "
    "other end may spend its action on an awkward melee at that enemy: won when it harms the enemy, "
    "and the ladder is climbed as any step once its far end is free; on a tie or a loss its move ends",
)


#: the readings of :data:`READINGS` about a grid's own features (squares' darkness and air ducts,
#: doors, manholes, models on the squares between, 3x3 areas, templates and lines over squares),
#: which a game on a table, with its own (:data:`TABLE_READINGS`), does not use
GRID_READINGS = frozenset(
    (
        "grid_cover",
        "models_block_sight",
        "door_cost",
        "manhole",
        "grid_area",
        "grid_template",
        "grid_line",
        "flight_grid",
    )
)


def reading_key(note: str) -> str:
    """The key of a note (``"reading door_cost: ..."``: ``door_cost``; ``"ours (victory): ..."``:
    ``victory``)."""
    head = note.split(":", 1)[0]
    return head.removeprefix("reading ").removeprefix("ours (").removesuffix(")")


def readings(setup: Setup) -> list[str]:
    """The readings a game on this scenario's board uses: on a grid :data:`READINGS`; on a table
    those not about a grid's own features (:data:`GRID_READINGS`) and :data:`TABLE_READINGS`."""
    if setup.scenario.board.type != "table":
        return list(READINGS)
    return [*(r for r in READINGS if reading_key(r) not in GRID_READINGS), *TABLE_READINGS]


__all__ = ["GRID_READINGS", "READINGS", "TABLE_READINGS", "reading_key", "readings"]
