"""One roll-off as a game: the dice of both sides, their re-rolls and the defender's parry, solved
exactly and replayed by Monte Carlo. :class:`Contest` is the game as
:class:`grimdice.engine.game.State` objects (what :func:`~grimdice.engine.game.expectimax` solves);
:class:`Game` is the same game on plain integer states, solved phase by phase (:func:`solve`) with
the same values and decisions, bit for bit (``tests/crusade/test_contest_game.py``).

Shooting is the case with no defending dice (section II); melee and mind war are contested rolls
(sections IV, VII); the order of a roll-off is in :mod:`.states`. The result of the final totals is
given by the system's ``resolve`` (damage, graze choices, pulling back), as an expected feature
vector.

The contest is split by role: :mod:`.features` (the feature vector of a finished contest and each
player's objective), :mod:`.states` (the rules of a roll-off: sides, phases, re-rolls, and the
:class:`Contest` states), :mod:`.compiled` (:class:`Game`, the same game on integer states) and
:mod:`.solver` (:func:`solve`, phase by phase, and :func:`rerolled_dice`); this package re-exports
what other modules use.
"""

from grimdice.systems.crusade.contest.compiled import Game, Key
from grimdice.systems.crusade.contest.features import Layout, harms, layout_for, objective_for
from grimdice.systems.crusade.contest.solver import Solved, rerolled_dice, solve
from grimdice.systems.crusade.contest.states import (
    P_ARR_ROLL,
    P_DRR_ROLL,
    P_END,
    P_PARRY,
    Contest,
    Side,
    Spec,
    reroll_opp,
    reroll_own,
    root,
)

__all__ = [
    "P_ARR_ROLL",
    "P_DRR_ROLL",
    "P_END",
    "P_PARRY",
    "Contest",
    "Game",
    "Key",
    "Layout",
    "Side",
    "Solved",
    "Spec",
    "harms",
    "layout_for",
    "objective_for",
    "reroll_opp",
    "reroll_own",
    "rerolled_dice",
    "root",
    "solve",
]
