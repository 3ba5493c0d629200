"""Rules Crusade helpers a skirmish game calls between attacks (docs/crusade.md, "Helpers").

Run: python examples/api/crusade_helpers.py
"""

from grimdice.systems.crusade.actions import (
    collateral,
    detonate_chance,
    horror,
    shamble_move,
    unjam_chance,
)
from grimdice.systems.crusade.cards import action_cost, card_roll, cards_drawn, check_play
from grimdice.systems.crusade.movement import charge_distance, jump_chance, scrabble_chance, zoc_applies

# V MOVEMENT: a move-5 scout (2 reds and a white) jumping a 3" gap, 1" up, armour 1
print(f"jump 3 in. gap, 1 in. up: {jump_chance(3, move=5, armour=1, up=1):.4f}")
print(f"scrabble up 4 in.: {scrabble_chance(5, armour=1, height=4):.4f}")
print(f"charge bonus move: {charge_distance(5, armour=1)} in.")
print(f"ZOC free attack on a model passing by: {zoc_applies(False, False, False)}")

# VI, VIII, IX: unjamming, a collapse's collateral damage, SHAMBLE, HORROR, DETONATE
print(f"unjam 2W+1R: {unjam_chance('2W+1R'):.4f}")
hits, p_collapse = collateral(sector_armour=1, hits_left=2)
print(f"collateral on a sector with 2 hits left: mean {hits.mean():.4f} hits, collapses {p_collapse:.4f}")
print(f"shamble move: mean {shamble_move().mean():.2f} in.")
print(f"horror: {horror()}")
print(f"detonate 1R: {detonate_chance('1R'):.4f}")

# VII psychic cards: cards drawn, a card's roll at 14" with a psychic hood, one turn's plays
print(f"cards drawn by a Psy-2 enemy psyker: {cards_drawn(2, 'enemy')}")
roll = card_roll("2R", 3, name="CURSE", distance=14, hood=True)
print(f"CURSE 2R needing 3 at 14 in. with a hood: {roll['success']:.4f} (incursion {roll['incursion']:.4f})")
print(f"actions spent: {check_play([('Librarian', 'CURSE'), ('Librarian', 'SHIELD')], {'Librarian': 2})}")
cost = action_cost("INFERNO", enemy_turn=True, harmed=True)
print(f"INFERNO played in the enemy turn, the psyker harmed: {cost} (now, next turn)")
