"""The pieces a Rules Crusade table is made of (VI buildings, barricades and catwalks; V ladders
and stairs), and the steps to the nearest of some goals, for :mod:`.table`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from grimdice.engine.table.lattice import Cell
from grimdice.systems.crusade.game.board import Pos


@dataclass(frozen=True)
class Building:
    """VI: a building: its roof height, armour (2 for armoured ones, else 1), doors (cells)."""

    name: str
    height: int
    armoured: bool
    doors: frozenset[Cell]


@dataclass(frozen=True)
class Structure:
    """VI: a barricade ("2 armor, 1 hit") or a catwalk ("3 armor, 1 hit"): a target on the table;
    its cells and the height of its top (1" for a barricade)."""

    name: str
    kind: str
    height: int
    cells: frozenset[Cell]

    @property
    def armour(self) -> int:
        return 3 if self.kind == "catwalk" else 2


def on_catwalk(structures: tuple[Structure, ...], levels: tuple[int, ...], p: Pos) -> bool:
    """Whether ``p`` stands on a catwalk of ``structures`` (on its cells, at its height, where
    ``levels``, the heights stood at on ``p``'s cell, still offer it: a destroyed one lies on the
    ground, VI)."""
    return p[2] in levels and any(
        piece.kind == "catwalk" and p[2] == piece.height and p[:2] in piece.cells for piece in structures
    )


#: a destroyed barricade or catwalk ``n`` among a table's ruins (sectors are 0, 1, ...)
def piece_key(n: int) -> int:
    return -2 - n


def key_piece(key: int) -> int:
    return -2 - key


@dataclass(frozen=True)
class Link:
    """A ladder or stairs between two positions, and its cost (:data:`~.board.FULL`: a whole move)."""

    kind: str
    to: Pos
    cost: float
    ladder: bool = False  # a ladder (V: "blocked by an enemy at the opposite end"), not stairs
    hatch: bool = False  # a roof hatch (VI: "move into a building via the roof": no forced entry)


class Nearest(Mapping[Pos, int]):
    """Steps from each position to the nearest of some goals: the least of each goal's steps."""

    def __init__(self, each: tuple[dict[Pos, int], ...]) -> None:
        self.each = each
        self._seen: dict[Pos, int | None] = {}  # the positions already looked up

    def get(self, p: Pos, default: Any = None) -> Any:
        if p not in self._seen:
            found = [d[p] for d in self.each if p in d]
            self._seen[p] = min(found) if found else None
        got = self._seen[p]
        return default if got is None else got

    def __getitem__(self, p: Pos) -> int:
        found = self.get(p)
        if found is None:
            raise KeyError(p)
        return int(found)

    def __iter__(self) -> Iterator[Pos]:
        return iter({p: 0 for d in self.each for p in d})

    def __len__(self) -> int:
        return len({p for d in self.each for p in d})


def answers(memo: dict[str, dict[Any, Any]], name: str) -> dict[Any, Any]:
    """The answers a table keeps under ``name`` in its ``memo`` (:attr:`.table.TableBoard.memo`:
    what the rules work out from the table alone), created on first use."""
    kept = memo.get(name)
    if kept is None:
        kept = memo[name] = {}
    return kept


__all__ = ["Building", "Link", "Nearest", "Structure", "answers", "key_piece", "piece_key"]
