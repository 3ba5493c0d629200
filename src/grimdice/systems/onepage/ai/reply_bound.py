"""A lower bound of the enemy's reply at a move's end (:func:`.threat.exposure`) read before its
charges: the enemies' shots alone.

:func:`.choosing.choose` asks for the exposure at a move's end only up to a limit (over it the move
is below the best found). Most moves asked for are shown over it, and an enemy's charge is the
dearest part of its reply (the strikers' estimate, a melee law, an Assault path search), so the
shots are summed first: when they alone put the exposure over the limit, no charge is valued.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from grimdice.systems.onepage.ai import threat

if TYPE_CHECKING:
    from grimdice.systems.onepage.game.state import GameState

SLACK = 1e-9  # relative and absolute margin of shots_exceed's test (rounding of the two products)


def shots_exceed(
    state: GameState,
    s: GameState,
    move: tuple[int, tuple[float, float], int],
    order: list[int],
    bounds: tuple[float, float],
    shots: dict[int, float],
) -> bool:
    """Whether the enemies' shots alone (:func:`.threat.reply_shot`, no charge) already put ``u``'s
    :func:`.threat.exposure` at ``end`` (``move``: ``(u, end, skip)``; ``s``: the state with ``u`` there;
    ``bounds``: its stake and the limit) over the limit: each enemy's share only grows with its
    reply's value, so the exposure from the shots is at most the exposure (each factor of the
    product is at least the exposure's, taken in the same ``order``; :data:`SLACK` for rounding),
    and a move shown over it needs no charge valued (the strikers' estimate, a melee law, an
    Assault path search). Each shot read is put in ``shots``."""
    u, end, skip = move
    most, limit = bounds

    def shot(v: int) -> float:
        got = shots[v] = threat.reply_shot(s, v, u, end)
        return got

    return threat.taken(state, s, (u, skip, most), order, shot, limit * (1.0 + SLACK) + SLACK)[1]


__all__ = ["SLACK", "shots_exceed"]
