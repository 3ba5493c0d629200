"""What a player may know of a game state (its information state), for players that must decide
from it only (:func:`grimdice.engine.game.observe`).

Hidden from a player (V ENEMY CHITS, VII CARDS: "You do not have to reveal your card to your
opponent until played"): which models each of the enemy's unrevealed blips holds, and which cards
the enemy holds. The observation puts in their place what the scenario makes public (reading
``hidden_info``): each unrevealed enemy blip shows the pool of models the scenario puts in the
enemy's blips (all of them together), and the enemy's hand shows as
many unknown cards (``-1``), the deck as every card the player has not seen (the deck and the
enemy's hand together). Hidden models stay on the board (V HIDING: they may not be targeted, but by
BURN; where they stand is not hidden). Everything else is public; the player's own information is kept.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

from grimdice.systems.crusade.game.frozen import altered

if TYPE_CHECKING:
    from grimdice.systems.crusade.game.scenario import Setup
    from grimdice.systems.crusade.game.state import GameState, Psy


def observation(s: GameState, player: int) -> GameState:
    """The state as ``player`` sees it (see the module text). Two states that differ only in what
    ``player`` may not know have equal observations; the player to move has the same legal actions
    in its observation as in the state."""
    if s.psy is None and not blip_pool(s.setup, 1 - player):
        return s  # no blips nor cards to hide
    enemy = 1 - player
    blips = [i for i, t in enumerate(s.tokens) if t.side == enemy and t.blip and t.alive]
    if not blips and (s.psy is None or not s.psy.hands[enemy]):
        return s
    if blips:
        pool = blip_pool(s.setup, enemy)
        tokens = list(s.tokens)
        for i in blips:
            tokens[i] = altered(tokens[i], blip=pool)
        s = altered(s, tokens=tuple(tokens))
    if s.psy is not None and s.psy.hands[enemy]:
        s = altered(s, psy=_unseen(s.psy, enemy))
    return s


#: the last cards observed: (the cards, the enemy), and what the player sees of them
_LAST: list[tuple[Any, ...]] = [(None, -1, None)]


def _unseen(psy: Psy, enemy: int) -> Psy:
    """The cards as the player sees them: the enemy's hand unknown cards, the deck every card the
    player has not seen (kept for the last cards asked: they change at a card's events only)."""
    last = _LAST[0]  # one read: another thread may replace it
    if last[0] is psy and last[1] == enemy:
        return last[2]
    hands = list(psy.hands)
    unseen = tuple(sorted(psy.deck + tuple(k for k in hands[enemy] if k >= 0)))
    hands[enemy] = (-1,) * len(hands[enemy])
    got = altered(psy, deck=unseen, hands=(hands[0], hands[1]))
    _LAST[0] = (psy, enemy, got)
    return got


@lru_cache(maxsize=64)
def blip_pool(setup: Setup, side: int) -> tuple[int, ...]:
    """The models the scenario puts in the blips of force ``side``, all together (sorted)."""
    return tuple(sorted(k for pc in setup.pieces if pc.side == side for k in pc.blip))


__all__ = ["blip_pool", "observation"]
