"""Who may do what in a turn (section I: which models the player may activate; VIII WOUND and
KNOCKED OUT, V CARRYING and IX MINDLESS: what the active model may still do), read by
:mod:`.choices` and the rules."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.damage import KO, WOUNDED
from grimdice.systems.crusade.game import items
from grimdice.systems.crusade.game.infiltrate import may_activate
from grimdice.systems.crusade.game.scenario import Setup
from grimdice.systems.crusade.game.state import GameState, has_code

Action = tuple[object, ...]


def can_activate(s: GameState, i: int) -> bool:
    """I: each model of the player, once a turn; VIII KNOCKED OUT: "may take no actions or movement"."""
    t = s.tokens[i]
    return t.side == s.player and t.standing and not t.done and may_activate(s, i)


def activatable(s: GameState) -> list[int]:
    """I: the models the player may activate, in order (:func:`can_activate`; after round 0 read
    inline, as only IX INFILTRATE limits who moves and only in round 0). After round 0 the answer
    reads the tokens and the player alone: the last one is kept for the next question about the
    same (the end of an activation asks, then the choice of the next model)."""
    if s.round == 0:
        return [i for i in range(len(s.tokens)) if can_activate(s, i)]
    side, tokens = s.player, s.tokens
    last = _LAST[0]  # one read: another thread may replace it
    if last[0] is tokens and last[1] == side:
        return list(last[2])
    out = [i for i, t in enumerate(tokens) if not t.done and t.side == side and t.cond < KO]
    _LAST[0] = (tokens, side, tuple(out))
    return out


#: the tokens and the player of the last :func:`activatable` asked after round 0, and its answer
_LAST: list[tuple[Any, ...]] = [((), -1, ())]


def activations(s: GameState) -> list[Action]:
    """I: the activations the player may choose (:func:`activatable`)."""
    return [("activate", i) for i in activatable(s)]


def wounded(s: GameState, i: int) -> bool:
    """VIII WOUND limits the model (IX FRENZY: "If wounded, you may still move and take an action";
    VIII WOUND: "If you are wounded during your turn, you may ignore the effects of the wound for
    the rest of that turn")."""
    t = s.tokens[i]
    return t.cond == WOUNDED and not s.setup.fighters[t.profile].has("frenzy") and i not in s.fresh_wounds


def may_move(s: GameState) -> bool:
    """VIII WOUND: "They may either move or perform an action, not both. Exception: they may move
    and melee" (reading ``wound_order``: the move comes before the melee)."""
    t = s.tokens[s.active]
    if items.burdened(s) and s.acted and not s.pick_first:
        return False  # V CARRYING: "you may either move or spend an action, not both"
    return s.budget > 0 and not (not t.blip and wounded(s, s.active) and s.acted)


def may_act(s: GameState) -> bool:
    return not s.acted and not (s.moved > 0 and items.burdened(s))


def mindless(s: GameState) -> bool:
    t = s.tokens[s.active]
    return not t.blip and mindless_profile(s.setup, t.profile)


@lru_cache(maxsize=1024)
def mindless_profile(setup: Setup, profile: int) -> bool:
    """IX MINDLESS, kept per setup and profile."""
    return has_code(setup.profiles[profile].abilities, "MINDLESS")
