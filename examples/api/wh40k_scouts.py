"""Warhammer 40,000 Scouts x move check (docs/wh40k.md, "Scouts").

Run: python examples/api/wh40k_scouts.py
"""

from grimdice.engine.table.bases import Base
from grimdice.errors import RuleError
from grimdice.systems.wh40k.scouts import ScoutMove, check_scouts_move, scouts_move_order

enemies = [Base(30.0, 0.0, 32)]
unit = [
    ScoutMove("scout 1", 6, Base(0, 0, 32), Base(6, 0, 32)),
    ScoutMove("scout 2", 6, Base(0, 2, 32), Base(5, 2, 32)),
]
print(f'closest enemy after the move: {check_scouts_move(unit, enemies):.2f}"')
try:
    check_scouts_move([ScoutMove("scout 1", 6, Base(15, 0, 32), Base(20, 0, 32))], enemies)
except RuleError as e:
    print(f"refused: {e}")
print(f"who moves first: {scouts_move_order('blue', ['red', 'blue'])}")
