"""The One Page 40k game's players: a random legal player and an AI that plays to the score
(:mod:`.players`), the enemy's reply it weighs (:mod:`.threat`), and its choices in the special
steps (:mod:`.choices`). The game's rules (``grimdice.systems.onepage.game``) never import it."""

from grimdice.systems.onepage.ai.players import PLAYERS, ai_player

__all__ = ["PLAYERS", "ai_player"]
