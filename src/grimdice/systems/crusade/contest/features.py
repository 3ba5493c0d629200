"""The feature vector of a finished roll-off and each player's objective over it.

A contest's value is an expected feature vector: named one-hot segments (:class:`Layout`) for the
conditions and hits left of both sides, the damage, the fails, the parry, the re-rolls taken, and
what the EXPLODE and MOB rules read. The players' objectives are lexicographic keys, linear maps of
that vector (:func:`objective_keys`): the attacker harms the defender first, the defender the
reverse.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from grimdice.systems.crusade.damage import CONDITIONS, KILLED, KO, STUNNED


class Layout:
    """Named one-hot segments of a feature vector (expected one-hots are distributions)."""

    def __init__(self, sizes: dict[str, int]) -> None:
        self.slices: dict[str, slice] = {}
        at = 0
        for name, n in sizes.items():
            self.slices[name] = slice(at, at + n)
            at += n
        self.size = at
        self._onehots: dict[tuple[tuple[str, int], ...], np.ndarray] = {}  # kept, read-only

    def onehot(self, **values: int) -> np.ndarray:
        """The vector with a one in each named segment at its value (the last place for more); a
        fresh copy of the one kept for these values."""
        key = tuple(values.items())
        v = self._onehots.get(key)
        if v is None:
            v = np.zeros(self.size)
            for name, k in values.items():
                s = self.slices[name]
                v[s.start + min(k, s.stop - s.start - 1)] = 1.0
            v.flags.writeable = False
            self._onehots[key] = v
        return v.copy()

    def part(self, v: np.ndarray, name: str) -> np.ndarray:
        return v[self.slices[name]]


def layout_for(
    att_hits: int,
    def_hits: int,
    max_damage: int,
    bearer: bool = False,
    mob: int = 0,
    def_bearer: bool = False,
    target_near: bool = False,
) -> Layout:
    """The feature layout; ``bearer`` (a weapon the attacker uses may EXPLODE): also the attacker's
    end state (condition x hits left) alone and where his roll failed, the joint law EXPLODE's attack
    needs; ``def_bearer`` (the defender's melee weapon may EXPLODE): the same for the defender;
    ``mob`` (IX MOB, the models of a mob): how many of them are killed, KO'd or killed;
    ``target_near`` (shooting, the target also stands near the exploding bearer): the target's end
    state alone and where the attacker's roll failed (the state EXPLODE's attack finds him in)."""

    def states(side: str, hits: int, failed: str = "failed") -> dict[str, int]:
        return {
            f"{side}_state": len(CONDITIONS) * (hits + 1),
            f"{side}_state_{failed}": len(CONDITIONS) * (hits + 1),
        }

    return Layout(
        {
            **(states("att", att_hits) if bearer else {}),
            **(states("def", def_hits) if def_bearer else {}),
            **(states("def", def_hits, "att_failed") if target_near else {}),
            **({"mob_killed": mob + 1, "mob_ko": mob + 1} if mob else {}),
            "def_condition": len(CONDITIONS),
            "def_hits_left": def_hits + 1,
            "att_condition": len(CONDITIONS),
            "att_hits_left": att_hits + 1,
            "damage": max(1, max_damage) + 1,
            "att_damage": 2,
            "att_fail": 2,
            "def_fail": 2,
            "parry": 2,
            "att_reroll": 3,
            "def_reroll": 3,
            "pull_back": 2,
            "throw": 3,  # IX THROW instead of damage: 1 by the attacker, 2 by the defender
            "tie": 2,
            "big_kill": 2,
        }
    )


def harms(lay: Layout, v: np.ndarray, side: str) -> list[float]:
    """P(killed), P(KO or killed), P(wounded or worse), P(any condition), E[hits lost] of a side."""
    c = lay.part(v, f"{side}_condition")
    h = lay.part(v, f"{side}_hits_left")
    lost = float(np.dot(np.arange(h.size)[::-1], h))
    return [c[KILLED], c[KILLED] + c[KO], c[2:].sum(), c[STUNNED:].sum(), lost]


def _harm_rows(lay: Layout, side: str) -> np.ndarray:
    """The linear maps of :func:`harms` as rows over the feature vector."""
    rows = np.zeros((5, lay.size))
    c, h = lay.slices[f"{side}_condition"], lay.slices[f"{side}_hits_left"]
    rows[0, c.start + KILLED] = 1
    rows[1, [c.start + KILLED, c.start + KO]] = 1
    rows[2, c.start + 2 : c.stop] = 1
    rows[3, c.start + STUNNED : c.stop] = 1
    rows[4, h] = np.arange(h.stop - h.start)[::-1]
    if side == "att" and "mob_killed" in lay.slices:  # IX MOB: the mob's losses come first
        mob = np.zeros((2, lay.size))
        for j, name in enumerate(("mob_killed", "mob_ko")):
            m = lay.slices[name]
            mob[j, m] = np.arange(m.stop - m.start)
        rows = np.vstack([mob, rows])
    return rows


def objective_keys(lay: Layout) -> tuple[np.ndarray, np.ndarray]:
    """Each player's lexicographic keys as rows over the feature vector: attacker (0): harm the
    defender first, then avoid harm and fails; defender (1): the reverse."""
    d, a = _harm_rows(lay, "def"), _harm_rows(lay, "att")
    af, df = np.zeros((1, lay.size)), np.zeros((1, lay.size))
    af[0, lay.slices["att_fail"].start + 1] = 1
    df[0, lay.slices["def_fail"].start + 1] = 1
    return np.vstack([d, -a, -af]), np.vstack([-d, a, -df])


def objective_for(lay: Layout) -> Callable[[int, np.ndarray], list[float]]:
    """The players' objectives (:func:`objective_keys`) as :func:`~.game.expectimax` reads them."""
    keys = objective_keys(lay)

    def objective(player: int, v: np.ndarray) -> list[float]:
        return (keys[player] @ v).tolist()

    return objective


__all__ = ["Layout", "harms", "layout_for", "objective_for", "objective_keys"]
