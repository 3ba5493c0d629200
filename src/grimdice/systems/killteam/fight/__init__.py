"""Kill Team 2021 fights: the game, its exact solution for both sides' objectives, and its report.

* :mod:`.state` - the two sides (:class:`Fighter`, :class:`Objective`) and the typed positions of
  the strike/parry step (:class:`ResolutionState`, an ``engine.game`` state);
* :mod:`.resolve` - the objectives as keys and the resolution step solved for all dice at once;
* :mod:`.layers` - the resolution step's positions packed into integers, solved layer by layer;
* :mod:`.rolls` - the Roll Attack Dice step: rolls, re-roll options, Rending;
* :mod:`.solver` - :func:`solve_fight`, the whole fight by layers;
* :mod:`.simulate` - the Monte Carlo engine on the shared runner;
* :mod:`.report` - :func:`fight_result`, the :class:`~grimdice.result.Result`.
"""

from grimdice.systems.killteam.fight.report import fight_result
from grimdice.systems.killteam.fight.resolve import FightKeys, Resolution
from grimdice.systems.killteam.fight.rolls import reroll_law
from grimdice.systems.killteam.fight.solver import FightSolution, solve_fight
from grimdice.systems.killteam.fight.state import (
    Duel,
    Fighter,
    Hits,
    Move,
    Objective,
    Outcome,
    ResolutionState,
)

__all__ = [
    "Duel",
    "FightKeys",
    "FightSolution",
    "Fighter",
    "Hits",
    "Move",
    "Objective",
    "Outcome",
    "Resolution",
    "ResolutionState",
    "fight_result",
    "reroll_law",
    "solve_fight",
]
