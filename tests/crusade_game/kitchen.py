"""A small grid scenario that puts every rule of the game in play at once (for whole-game tests)."""

from __future__ import annotations

from typing import Any

BOARD = """
###########
#A..D..:::#
#A..#..=..#
#...d...::#
#.#####.#B#
#......:.B#
###########
"""


def kitchen() -> dict[str, Any]:
    gun = {"name": "gun", "dice": "2W", "kind": "ranged", "effects": ["J", "S", "KB"]}
    needler = {"name": "needler", "dice": "1W+1R", "kind": "ranged", "effects": ["*", "W"]}
    return {
        "system": "crusade",
        "kind": "game",
        "board": {"type": "grid", "map": BOARD, "manholes": [[[1, 3], [7, 5]]]},
        "profiles": [
            {
                "name": "Trooper",
                "move": 5,
                "armour": 1,
                "melee": "1W+1R",
                "abilities": ["FURTIVE", "SNAP FIRE"],
                "weapons": [
                    gun,
                    needler,
                    {"name": "pistol", "dice": "1W+1R", "kind": "pistol", "effects": ["S", "M", "RAP"]},
                    {"name": "spear", "dice": "1W", "kind": "melee", "effects": ["W", "STICK"]},
                ],
            },
            {
                "name": "Gunner",
                "move": 4,
                "armour": 2,
                "hits": 2,
                "melee": "1W",
                "abilities": ["INFILTRATE"],
                "weapons": [
                    {
                        "name": "launcher",
                        "dice": "1W+1R",
                        "kind": "ranged",
                        "effects": ["AREA 1", "RELOAD", "X"],
                    },
                    {"name": "flamer", "dice": "2W", "kind": "ranged", "effects": ["SFT", "X"]},
                ],
            },
            {
                "name": "Walker",
                "move": 4,
                "armour": 0,
                "melee": "2R",
                "abilities": ["SHAMBLE", "MINDLESS", "HORROR"],
            },
            {
                "name": "Beast",
                "move": 6,
                "armour": 1,
                "melee": "1W+1R",
                "abilities": ["FERAL", "FRENZY", "SLIP THRU", "AMBUSH"],
                "weapons": [{"name": "claws", "dice": "1W", "kind": "spiky", "effects": ["W", "BREAK"]}],
            },
        ],
        "forces": [
            {"name": "Crew", "zone": "A", "models": [{"profile": "Trooper"}, {"profile": "Gunner"}]},
            {
                "name": "Horde",
                "zone": "B",
                "models": [{"profile": "Walker"}, {"profile": "Beast"}],
                "blips": [{"at": [8, 2], "models": ["Walker", "Beast"]}],
            },
        ],
        "objectives": [
            {"name": "Relic", "kind": "item", "side": 0, "squares": [[6, 1]], "to": [[1, 1]]},
            {"name": "Nest", "kind": "hold", "side": 1, "squares": [[9, 4]]},
        ],
        "first": "roll-off",
        "turns": 6,
    }
