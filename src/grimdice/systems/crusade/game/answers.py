"""Answers about a state kept for the next question about the same state and model: the game's
states are immutable values, so an answer keyed by the identities of what it depends on (the
setup, the tokens, the doors, the cards) and the model asked about holds while they are the same
objects (an extra move, a charge or a reload moves nobody: the next decision asks again)."""

from __future__ import annotations

from collections.abc import Callable, Hashable
from typing import Any, TypeVar

V = TypeVar("V")


class LastAnswer:
    """One question's last answer (a list of token indices) and what it was asked of."""

    def __init__(self) -> None:
        self._last: tuple[Any, ...] = ()

    def get(self, s: Any, i: int) -> list[int] | None:
        """The answer kept for model ``i`` of ``s``, a fresh list; None when it was asked of another."""
        got = self._last  # one read: another thread may replace it
        if (
            got
            and got[0] is s.tokens
            and got[1] == i
            and got[2] is s.setup
            and got[3] is s.open_doors
            and got[4] is s.psy
        ):
            return list(got[5])
        return None

    def keep(self, s: Any, i: int, answer: list[int]) -> list[int]:
        """Keep ``answer`` for model ``i`` of ``s``; returns it."""
        self._last = (s.tokens, i, s.setup, s.open_doors, s.psy, tuple(answer))
        return answer


#: the last answers of :func:`.rules.targets_in_sight` and :func:`.rules.adjacent_enemies` for
#: the random player's draw (:mod:`.sampling`)
SIGHT, ADJACENT = LastAnswer(), LastAnswer()


def kept(store: dict[Any, V], key: Hashable, work: Callable[[], V], limit: int) -> V:
    """The answer ``store`` keeps under ``key``, worked out by ``work`` the first time; a store
    that holds ``limit`` answers starts afresh (its answers are values of their keys alone)."""
    got = store.get(key)
    if got is None:
        if len(store) >= limit:
            store.clear()
        got = store[key] = work()
    return got


__all__ = ["ADJACENT", "SIGHT", "LastAnswer", "kept"]
