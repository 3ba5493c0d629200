"""The whole game of One Page 40k v2.21 (Beginner's Guide): state, rules, logs, replays (the
players are in :mod:`grimdice.systems.onepage.ai`).

See ``docs/onepage-game.md``.
"""

from grimdice.systems.onepage.game.play import play, replay, states
from grimdice.systems.onepage.game.setup import (
    Setup,
    army_from_mapping,
    load_army_side,
    load_table,
    make_setup,
)
from grimdice.systems.onepage.game.state import GameState, combat_law, deploy

__all__ = [
    "GameState",
    "Setup",
    "army_from_mapping",
    "combat_law",
    "deploy",
    "load_army_side",
    "load_table",
    "make_setup",
    "play",
    "replay",
    "states",
]
