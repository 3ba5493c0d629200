"""A game scenario's checks before any game starts (``grimdice check``): forces, zones, the map's
size, objectives against the board, profiles' codes and hits; each error names its field."""

from __future__ import annotations

import copy
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import yaml

from grimdice.errors import ScenarioError
from grimdice.io.scenario import parse_scenario_text
from grimdice.systems.crusade.game.batch import summarise
from grimdice.systems.crusade.game.scenario import build_setup
from tests.crusade_game.helpers import MARINE, at, scenario

HALL = "##########\n#A.......#\n#........#\n#.......B#\n##########"
# a closet at x 5..6 of row 1, walled off from both forces
CLOSET = "##########\n#A..#..#.#\n#...####.#\n#.......B#\n##########"
SKIRMISH = yaml.safe_load(Path("examples/games/crusade-game-skirmish.yaml").read_text())


def error(data: dict[str, Any]) -> ScenarioError:
    with pytest.raises(ScenarioError) as e:
        build_setup(data)
    return e.value


def hall(**kw: Any) -> dict[str, Any]:
    return scenario(HALL, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], **kw)


def test_two_forces_of_one_name_are_refused_naming_the_second() -> None:
    data = hall()
    data["forces"][1]["name"] = "Marines"
    e = error(data)
    assert e.field == "forces.1.name" and "different names" in e.message


def test_wins_are_counted_by_side_not_by_name() -> None:
    setup = build_setup(hall())
    sc = setup.scenario
    twin = sc.model_copy(
        update={"forces": [sc.forces[0], sc.forces[1].model_copy(update={"name": "Marines"})]}
    )
    same = replace(setup, scenario=twin)  # as a scenario built past the check would be
    logs: list[dict[str, Any]] = [
        {"winner": "Marines", "returns": [1.0, -1.0], "rounds": 2, "models": [], "players": ["ai", "ai"]},
        {"winner": "Marines", "returns": [-1.0, 1.0], "rounds": 4, "models": [], "players": ["ai", "ai"]},
        {"winner": None, "returns": [0.0, 0.0], "rounds": 3, "models": [], "players": ["ai", "ai"]},
    ]
    a = summarise(logs, same, 1)["force_a"]
    assert (a["win"]["rate"], a["loss"]["rate"], a["draw"]["rate"]) == (1 / 3, 1 / 3, 1 / 3)


def grid_map(width: int, height: int) -> str:
    inner = ["#A" + "." * (width - 4) + "B#" for _ in range(height - 2)]
    return "\n".join(["#" * width, *inner, "#" * width]) + "\n"


def test_a_64_by_64_map_is_accepted_and_a_65_wide_one_refused_naming_the_map() -> None:
    data = scenario(grid_map(64, 64), [{"profile": "Marine"}], [{"profile": "Stealer"}])
    setup = build_setup(parse_scenario_text(yaml.safe_dump(data).encode()))
    assert (setup.grid.width, setup.grid.height) == (64, 64)
    log = {"system": "crusade", "kind": "game", "scenario": data}  # a saved game carries it
    assert (
        parse_scenario_text(yaml.safe_dump(log).encode())["scenario"]["board"]["map"] == data["board"]["map"]
    )
    data["board"]["map"] = grid_map(65, 64)
    with pytest.raises(ScenarioError) as e:
        build_setup(parse_scenario_text(yaml.safe_dump(data).encode()))
    assert e.value.field == "board.map" and "64 x 64" in e.value.message


def test_other_texts_keep_their_limit() -> None:
    data = hall(title="x" * 1001)
    with pytest.raises(ScenarioError) as e:
        parse_scenario_text(yaml.safe_dump(data).encode())
    assert e.value.field == "title"
    data = hall()
    data["forces"][0]["map"] = "x" * 1001  # only a board's map may be long
    with pytest.raises(ScenarioError) as e:
        parse_scenario_text(yaml.safe_dump(data).encode())
    assert e.value.field == "forces.0.map"


def closet(objective: dict[str, Any]) -> dict[str, Any]:
    return scenario(CLOSET, [at("Marine", 1, 1)], [at("Stealer", 8, 3)], objectives=[objective])


@pytest.mark.parametrize(
    ("objective", "field"),
    [
        ({"name": "Vault", "kind": "reach", "side": 0, "squares": [[5, 1]]}, "objectives.0.squares.0"),
        ({"name": "Vault", "kind": "reach", "squares": [[2, 1], [6, 1]]}, "objectives.0.squares.1"),
        ({"name": "Vault", "kind": "hold", "side": 1, "squares": [[5, 1]]}, "objectives.0.squares.0"),
        (
            {"name": "Relic", "kind": "item", "side": 0, "squares": [[2, 2]], "to": [[1, 3], [6, 1]]},
            "objectives.0.to.1",
        ),
        (
            {"name": "Relic", "kind": "item", "side": 0, "squares": [[5, 1]], "to": [[1, 3]]},
            "objectives.0.squares.0",
        ),
    ],
)
def test_an_objective_no_model_of_its_force_can_reach_is_refused(
    objective: dict[str, Any], field: str
) -> None:
    e = error(closet(objective))
    assert e.field == field and "cannot be reached" in e.message


def test_an_objective_reached_through_the_board_is_accepted() -> None:
    build_setup(closet({"name": "Hall", "kind": "reach", "side": 0, "squares": [[8, 1]]}))
    build_setup(closet({"name": "Relic", "kind": "item", "side": 0, "squares": [[8, 1]], "to": [[1, 3]]}))


def test_a_reach_square_where_its_force_starts_is_refused_a_hold_square_is_not() -> None:
    e = error(hall(objectives=[{"name": "Exit", "kind": "reach", "side": 0, "squares": [[2, 1], [1, 1]]}]))
    assert e.field == "objectives.0.squares.1" and "'Marines' starts on [1, 1]" in e.message
    e = error(hall(objectives=[{"name": "Exit", "kind": "reach", "squares": [[8, 3]]}]))  # either force
    assert e.field == "objectives.0.squares.0" and "'Stealers'" in e.message
    build_setup(hall(objectives=[{"name": "Exit", "kind": "reach", "side": 1, "squares": [[1, 1]]}]))
    build_setup(hall(objectives=[{"name": "Post", "kind": "hold", "side": 0, "squares": [[1, 1]]}]))


@pytest.mark.parametrize("part", ["squares", "to"])
def test_a_square_given_twice_in_an_objective_is_refused(part: str) -> None:
    o: dict[str, Any]
    if part == "squares":
        o = {"name": "Post", "kind": "hold", "squares": [[4, 2], [5, 2], [4, 2]]}
    else:
        o = {"name": "Relic", "kind": "item", "side": 0, "squares": [[4, 2]], "to": [[2, 2], [3, 2], [2, 2]]}
    e = error(hall(objectives=[o]))
    twice = o[part][0]
    assert e.field == f"objectives.0.{part}.2" and f"square {twice} is given twice" in e.message


def test_table_objectives_are_checked_against_the_table() -> None:
    data = copy.deepcopy(SKIRMISH)
    data["objectives"] = [{"name": "Wall", "kind": "hold", "squares": [[11, 7], [6, 5]]}]
    e = error(data)
    assert e.field == "objectives.0.squares.1" and "no place to stand" in e.message
    data["objectives"] = [{"name": "Far", "kind": "reach", "side": 0, "squares": [[11, 7], [99, 7]]}]
    assert error(data).field == "objectives.0.squares.1"
    data["objectives"] = [
        {"name": "Home", "kind": "reach", "side": 0, "squares": [[0, 4]]}
    ]  # a Raider starts
    e = error(data)
    assert e.field == "objectives.0.squares.0" and "'Raiders'" in e.message
    data["objectives"] = [{"name": "Hab", "kind": "hold", "squares": [[11, 7], [12, 7], [11, 7]]}]
    assert error(data).field == "objectives.0.squares.2"


def test_a_mistyped_zone_letter_names_the_force_zone() -> None:
    data = scenario(HALL, [{"profile": "Marine"}], [{"profile": "Stealer"}], force_a={"zone": "Z"})
    e = error(data)
    assert e.field == "forces.0.zone" and "'Z'" in e.message and "A, B" in e.message
    data = scenario(HALL.replace("A", "."), [{"profile": "Marine"}], [{"profile": "Stealer"}])
    e = error(data)  # no A on the map and a model without 'at'
    assert e.field == "forces.0.zone"
    build_setup(scenario(HALL.replace("A", "."), [at("Marine", 1, 1)], [{"profile": "Stealer"}]))


def test_a_table_zone_in_a_wall_names_the_zone() -> None:
    data = copy.deepcopy(SKIRMISH)
    data["board"]["zones"]["A"] = [6, 3, 6, 7]  # inside the ruined wall
    e = error(data)
    assert e.field == "board.zones.A" and "wall" in e.message


@pytest.mark.parametrize("codes", [["J", "S", "J"], ["J", "S", "JAM"]])
def test_an_effect_code_given_twice_is_refused(codes: list[str]) -> None:
    marine = dict(MARINE, weapons=[{"name": "bolter", "dice": "2W+1R", "effects": codes}])
    e = error(hall(profiles=[marine, MARINE | {"name": "Stealer"}]))
    assert e.field == "profiles.0.weapons.0.effects.2" and "JAM is given twice" in e.message


def test_an_ability_given_twice_is_refused() -> None:
    marine = dict(MARINE, abilities=["NSB", "HEAVY", "NSB"])
    e = error(hall(profiles=[marine, MARINE | {"name": "Stealer"}]))
    assert e.field == "profiles.0.abilities.2"


def test_a_profile_without_hits_is_refused() -> None:
    e = error(hall(profiles=[dict(MARINE, hits=0), MARINE | {"name": "Stealer"}]))
    assert e.field == "profiles.0.hits"


def test_an_unknown_code_lists_the_short_codes_with_their_names() -> None:
    marine = dict(MARINE, weapons=[{"name": "bolter", "dice": "2W+1R", "effects": ["ZAP"]}])
    e = error(hall(profiles=[marine, MARINE | {"name": "Stealer"}]))
    assert e.field == "profiles.0.weapons.0.effects.0"
    for code in ("J (JAM)", "S (STUN)", "AP (ARMOR PIERCING)", "FT/SFT/HFT (FLAMER TEMPLATE)", "HEAVY"):
        assert code in e.message
