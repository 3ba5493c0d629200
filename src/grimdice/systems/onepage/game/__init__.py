"""The whole game of One Page 40k v2.21 (Beginner's Guide): state, players, logs, replays.

See ``docs/onepage-game.md``.
"""

from grimdice.systems.onepage.game.play import play, replay, states
from grimdice.systems.onepage.game.players import PLAYERS, ai_player, random_player
from grimdice.systems.onepage.game.setup import (
    Setup,
    army_from_mapping,
    load_army_side,
    load_table,
    make_setup,
)
from grimdice.systems.onepage.game.state import GameState, combat_law, deploy

__all__ = [
    "PLAYERS",
    "GameState",
    "Setup",
    "ai_player",
    "army_from_mapping",
    "combat_law",
    "deploy",
    "load_army_side",
    "load_table",
    "make_setup",
    "play",
    "random_player",
    "replay",
    "states",
]
