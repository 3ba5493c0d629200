"""The Rules Crusade game's players: a random legal player and a simple AI (:mod:`.players`), how
it contests a hold objective (:mod:`.aim`), its values of the IX abilities' actions
(:mod:`.abilities`) and of the further psychic cards (:mod:`.powers`). The game's rules
(``grimdice.systems.crusade.game``) never import it."""

from grimdice.systems.crusade.ai.players import PLAYERS, ai_player, random_player

__all__ = ["PLAYERS", "ai_player", "random_player"]
