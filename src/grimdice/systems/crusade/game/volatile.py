"""VIII VOLATILE in a game: "If the bearer is killed by more than a graze, the weapon Explodes (as
explode Fail result)".

Reading ``volatile``: a model killed by an attack's roll (a shot, a melee, a shot at several
models, an explosion's or a malfunction's roll; not a mob's joint melee, a mind attack, a fall or
a collapse) without a graze (III: "A graze result occurs if only one point of
damage is done to a target with 1 hit remaining") sets off its first VOLATILE weapon not lost:
VIII EXPLODE's attack centred on it (:func:`.fails.explode`, readings ``explode_order`` and
``blast_walls``: not past a wall), after the
attack's other follow-up rolls. The attack's law tells the grazes apart where a model it rolls at
carries a VOLATILE weapon (:func:`carried`); the solved turns of RAPID FIRE and of a flamer's
rolls with re-rolls do not carry them, and a kill there sets the weapon off.
"""

from __future__ import annotations

from collections.abc import Iterable

from grimdice.systems.crusade.damage import KILLED
from grimdice.systems.crusade.game.fails import Follow, explode
from grimdice.systems.crusade.game.state import LOST, GameState, has_code

CODES = ("VOLATILE", "V")


def _is_volatile(effects: Iterable[str]) -> bool:
    codes = tuple(effects)
    return any(has_code(codes, c) for c in CODES)


def carried(*models: object) -> bool:
    """Whether one of the calculator's ``models`` (their ``weapons``) carries a VOLATILE weapon."""
    return any(_is_volatile(w.effects) for m in models for w in getattr(m, "weapons", None) or ())


def _weapon(s: GameState, k: int) -> str:
    t = s.tokens[k]
    for n, w in enumerate(s.setup.profiles[t.profile].weapons):
        if t.arms[n] != LOST and _is_volatile(w.effects):
            return w.name
    return ""


def on_kill(
    before: GameState, after: GameState, grazed: Iterable[tuple[int, bool]]
) -> tuple[GameState, tuple[Follow, ...]]:
    """``after`` (the state after an attack's roll) with the VOLATILE weapons of the models it
    killed without a graze lost, and their explosions to roll (``grazed``: each model the roll
    was at, and whether it took a graze)."""
    queue: tuple[Follow, ...] = ()
    for k, graze in grazed:
        if graze or before.tokens[k].cond == KILLED or after.tokens[k].cond != KILLED:
            continue
        weapon = _weapon(after, k)
        if weapon:
            arms = tuple(
                LOST if w.name == weapon else a
                for w, a in zip(
                    after.setup.profiles[after.tokens[k].profile].weapons, after.tokens[k].arms, strict=True
                )
            )
            after, blast = explode(after.with_token(k, arms=arms), k, weapon)
            queue += blast
    return after, queue


__all__ = ["CODES", "carried", "on_kill"]
