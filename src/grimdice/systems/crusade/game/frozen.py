"""Copies of the game's frozen records (:class:`.state.GameState`, :class:`.state.Token`,
:class:`.state.Psy`) with some fields changed, made at every step of a game: the engine's copy of
frozen dataclasses (:func:`grimdice.engine.frozen.replace`, ``dataclasses.replace`` without its
checks; the same function copies the One Page game's states). These records keep nothing in their
``__dict__`` but their fields, so each copy is their dict copied with the changes written over it;
a change naming a field the record does not have is a ``TypeError``.
"""

from __future__ import annotations

from grimdice.engine.frozen import replace as altered
from grimdice.engine.frozen import replace_by as altered_by

__all__ = ["altered", "altered_by"]
