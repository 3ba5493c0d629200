"""A Rules Crusade table board (``board.type: table``, ``docs/crusade-game.md``) as the page draws
it: the table's geometry once per replay (terrain pieces and buildings as the scenario's polygons
in inches, their heights, sectors, doors, ladders, stairs and deployment zones), and after each
action what VI changes on it (sectors' hits left, sectors collapsed into rubble, forced entries)."""

from __future__ import annotations

from typing import Any

from grimdice.systems.crusade.game.table import TableBoard, key_piece


def _shape(corners: Any) -> list[list[float]]:
    return [[float(x), float(y)] for x, y in corners]


def _link(kind: str, spec: Any) -> dict[str, Any]:
    return {"kind": kind, "from": list(spec.at), "to": list(spec.to)}


def table_board(s: Any) -> dict[str, Any]:
    """The table of the game whose first state is ``s``: ``pieces`` (``kind``: block, wall,
    barricade or catwalk; ``height``; ``rough``; ``target``: a barricade's or catwalk's index in the
    game's ``shoot_piece`` and ``melee_piece`` actions, else None), ``buildings`` (roof
    ``height``, ``armoured``, ``doors``, ``hatch``: a roof hatch's cell or None, ``sectors`` each
    with the ``index`` the game's actions and events use), ``links`` (ladders and stairs, positions
    ``[x, y, z]`` at both ends), ``zones`` (``[x0, y0, x1, y1]`` cells and the force deployed
    there), all in inches (a cell is 1")."""
    spec, sc = s.setup.scenario.board, s.setup.scenario
    board: TableBoard = s.setup.board
    sides = {f.zone: k for k, f in enumerate(sc.forces)}
    targets = [k for k, p in enumerate(spec.terrain) if p.kind in ("barricade", "catwalk")]
    buildings = []
    for b, bs in enumerate(spec.buildings):
        parts = bs.sectors or [bs]  # VI: one sector unless it has more
        buildings.append(
            {
                "name": bs.name,
                "shape": _shape(bs.shape),
                "height": bs.height,
                "armoured": bool(bs.armoured),
                "doors": [list(d) for d in bs.doors],
                "hatch": list(bs.hatch) if bs.hatch is not None else None,
                "sectors": [
                    {"index": k, "name": part.name, "shape": _shape(part.shape)}
                    for k, part in zip(board.sectors_of(b), parts, strict=True)
                ],
            }
        )
    return {
        "type": "table",
        "width": spec.width,
        "height": spec.height,
        "pieces": [
            {
                "name": p.name,
                "kind": p.kind,
                "shape": _shape(p.shape),
                "height": 1 if p.kind == "barricade" else p.height,  # VI: a barricade is a 1" block
                "rough": bool(p.rough),
                "target": targets.index(k) if k in targets else None,
            }
            for k, p in enumerate(spec.terrain)
        ],
        "buildings": buildings,
        "links": [_link("ladder", ln) for ln in spec.ladders] + [_link("stairs", ln) for ln in spec.stairs],
        "zones": [{"name": k, "cells": list(cells), "side": sides.get(k)} for k, cells in spec.zones.items()],
    }


def sector_cell(board: TableBoard, sector: int) -> list[int]:
    """The cell of ``sector`` nearest its middle (where an arrow at the sector points); of a
    barricade or catwalk for its key below 0."""
    if sector < 0:
        cells = sorted(board.structures[key_piece(sector)].cells)
    else:
        cells = sorted(c for c, k in board.sector_at.items() if k == sector)
    if not cells:
        return [0, 0]
    mx = sum(c[0] for c in cells) / len(cells)
    my = sum(c[1] for c in cells) / len(cells)
    x, y = min(cells, key=lambda c: (c[0] - mx) ** 2 + (c[1] - my) ** 2)
    return [x, y]


def table_marks(s: Any) -> dict[str, Any]:
    """What VI changed on the table in state ``s``: ``sector_hits`` (``[sector, hits left]`` of the
    damaged sectors), ``ruins`` (the sectors collapsed into rubble), ``wrecked`` (the barricades and
    catwalks destroyed, by their ``target`` index) and ``breaches`` (each forced entry's marker
    position and sector)."""
    return {
        "sector_hits": [[int(k), int(h)] for k, h in s.sector_hits if k >= 0],
        "ruins": sorted(int(k) for k in s.setup.ruins if k >= 0),
        "wrecked": sorted(key_piece(int(k)) for k in s.setup.ruins if k < 0),
        "breaches": [{"at": list(p), "sector": int(k)} for p, k in s.breaches],
    }


__all__ = ["sector_cell", "table_board", "table_marks"]
