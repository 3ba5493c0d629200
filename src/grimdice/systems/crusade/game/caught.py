"""Hidden models caught by a shot at several models (a template, line or area, :mod:`.many`).

VIII BURN: "You may ignore cover and may fire at hidden models. Hidden models that are attacked will
be revealed even if they take no damage, as long as a result greater than zero is rolled on the
dice. You may not reveal hidden models inside armored buildings (bunkers) ... You may not reveal
blips!" V HIDING: "If you attack, or if you or your enemy moves such that they have direct line of
sight to you or are within 1" of you, you will be Revealed".

Reading ``hidden_caught``: a hidden model a template, line or area rolls at (blips are never
rolled at) is revealed, after the roll,
* by a BURN weapon: when a result above zero was rolled at it (the dice's total it was rolled
  with, before range and armour: the joint law's mark, harmed or not), unless it is inside an
  armoured building;
* by any other weapon: when the firer sees it or is within 1" (a square) of it (V HIDING: the
  attack puts them in direct line of sight), harmed or not.
"""

from __future__ import annotations

from grimdice.systems.crusade.game.burn import bunkered, burns
from grimdice.systems.crusade.game.state import GameState


def reveal(
    before: GameState,
    after: GameState,
    i: int,
    targets: tuple[int, ...],
    weapon: str,
    rolled: tuple[bool, ...],
) -> GameState:
    """``after`` (the state after token ``i``'s ``weapon`` rolled at ``targets``; ``rolled``: the
    joint law's marks of a result above zero at each) with the hidden models among them revealed
    as reading ``hidden_caught`` says."""
    burn = burns(before, i, weapon)
    board, doors, occupied = before.setup.board, before.doors(), before.occupied()
    here = before.tokens[i].sq
    for k, above in zip(targets, rolled, strict=True):
        was = before.tokens[k]
        if not was.hidden or was.blip:
            continue
        if burn:
            shown = above and not bunkered(before, k)
        else:
            shown = board.range(here, was.sq) <= 1 or board.sight(here, was.sq, doors, occupied)
        if shown:
            after = after.with_token(k, hidden=False)
    return after


__all__ = ["reveal"]
