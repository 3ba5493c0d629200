"""Horus Heresy Infiltrate (X) deployment and Support Unit (X) scoring checks (docs/heresy.md,
"Helpers"). Run: python examples/api/heresy_deployment.py"""

from grimdice.engine.table.bases import Base, Rect
from grimdice.errors import RuleError
from grimdice.systems.heresy.deployment import DeployedModel, check_charge, check_deployment
from grimdice.systems.heresy.scoring import objective_victory_points

own, theirs = Rect(0, 0, 72, 12), Rect(0, 36, 72, 48)
seekers = [DeployedModel("Seeker 1", 12, Base(30, 24)), DeployedModel("Seeker 2", 12, Base(32, 24))]
infiltrated = check_deployment(seekers, own_zone=own, opponent_zone=theirs, enemies=[Base(36, 40)])
print(f"deployed by Infiltrate: {infiltrated}")
try:
    check_deployment(seekers, own_zone=own, opponent_zone=theirs, enemies=[Base(36, 30)])
except RuleError as e:
    print(f"too close: {e}")
try:
    check_charge(infiltrated, battle_turn=1)
except RuleError as e:
    print(f"charge: {e}")
print(f"a Support Unit (1) on a 3-point objective scores {objective_victory_points(3, support_unit=[1])}")
