"""V HIDING for the active model: where and when it may hide (IX TALL and BIG: only in smoke or
darkness; IX FURTIVE: for free), read by :mod:`.choices`' hide builders."""

from __future__ import annotations

from functools import lru_cache

from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, has_code


def may_hide(s: GameState, free: bool) -> bool:
    """V HIDING: "If you are in cover, you may Hide (including cover from smoke or darkness)" (on a
    grid: darkness, air ducts); IX TALL: "Once revealed, these models cannot take cover or hide,
    except from smoke/darkness", BIG the same: only in smoke or darkness (:meth:`~.board.Board.dark`);
    IX FURTIVE: "May hide for free if you did not attack" (``free``; VIII STUN: not risen)."""
    t = s.tokens[s.active]
    if t.blip or t.hidden or not s.setup.board.can_hide(t.sq):
        return False
    hiding = _hiding(s.setup, t.profile, free)
    if hiding is None and not s.setup.board.dark(t.sq):
        return False
    return not free or (bool(hiding) and not s.attacked and not s.risen)


@lru_cache(maxsize=1024)
def _hiding(setup: Setup, profile: int, free: bool) -> bool | None:
    """V HIDING for the profile: None when it hides only in smoke or darkness (IX BIG, TALL); else,
    for a ``free`` hide, whether it has IX FURTIVE (kept per setup and profile)."""
    abilities = setup.profiles[profile].abilities
    if setup.fighters[profile].has("big") or has_code(abilities, "TALL"):
        return None
    return free and has_code(abilities, "FURTIVE")


__all__ = ["may_hide"]
