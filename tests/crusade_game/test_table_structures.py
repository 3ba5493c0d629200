"""Structures on the table (VI STRUCTURES AND BUILDINGS): meleeing a sector from inside, and
EXPLODE's attack on a failed roll at a sector; the game's laws equal ``calculate()``'s."""

from __future__ import annotations

from dataclasses import replace

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.game import ruin
from grimdice.systems.crusade.game.combat import cached_law
from grimdice.systems.crusade.game.state import invariant_errors
from grimdice.systems.crusade.game.table import piece_key
from tests.crusade_game.helpers import MARINE, STEALER
from tests.crusade_game.table_helpers import active, put, rect, table, table_state
from tests.crusade_game.test_table_sight import hab


def _hits_left(key: str) -> dict[int, float]:
    law: dict[int, float] = {}
    for (ds, *_), p in cached_law(key):
        law[ds[1]] = law.get(ds[1], 0.0) + p
    return law


def test_a_model_inside_melees_its_sector_as_calculate_s_melee_at_a_building():
    # VI: "You may destroy buildings by meleeing from the inside (vs. armor)"
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 5, 3)], [put("Stealer", 11, 7)]))
    west = s.setup.board.indoors((5, 3, 0))
    assert ("melee_sector", west) in s.legal_actions()
    assert not any(a[0] == "melee_sector" and a[1] != west for a in s.legal_actions())  # its own only
    key = s.apply(("melee_sector", west)).pending[3]
    assert key == ruin.sector_melee(s, 0, west)
    res = calculate(
        {
            "system": "crusade",
            "action": "melee",
            "attacker": {k: v for k, v in MARINE.items() if k != "move"},
            "defender": {"name": "hab west", "kind": "building", "armour": 1, "hits": 10},
        }
    )
    law = _hits_left(key)
    for h, p in res.stages["hits_left"].to_dict().items():
        assert law.get(h, 0.0) == pytest.approx(p, abs=1e-12)
    # by hand: 1W+1R base and a 1W knife, against 1 armour: 9 hits left when the total is 2+
    w, r = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)
    two = sum(1 for a in w for b in w for c in r if a + b + c - 1 == 1) / 216
    assert law[9] == pytest.approx(two)


def test_no_sector_melee_from_outside_or_on_the_roof():
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 5, 3, 4)]))
    assert not any(a[0] == "melee_sector" for a in s.legal_actions())
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 3, 3)], [put("Stealer", 5, 3, 4)]), 1)
    assert not any(a[0] == "melee_sector" for a in s.legal_actions())


def test_a_sector_meleed_down_collapses_on_the_model_inside():
    # "When the building has taken all it's hits, it collapses. Roll 2 reds against any targets inside"
    s = active(table_state(table(buildings=[hab()]), [put("Marine", 5, 3)], [put("Stealer", 11, 7)]))
    west = s.setup.board.indoors((5, 3, 0))
    s = replace(s, sector_hits=((west, 1),)).apply(("melee_sector", west))
    down = next(k for k, ((ds, *_), _) in enumerate(cached_law(s.pending[3])) if ds[1] == 0)
    s = s.apply(("sector", down))
    assert s.pending == ("collapse", 0)  # the meleeing model is inside
    east = s.setup.board.indoors((8, 3, 0))
    s = s.apply(("collapse", 0))
    assert s.pending == ("collateral", east)
    s = s.apply(("collateral", 0))
    assert s.pending == () and s.setup.board.indoors((5, 3, 0)) == -1
    assert not invariant_errors(s)


def _gunner_by_hab(weapon, stealers):
    """A marine with ``weapon`` beside the two-sector hab, activated; ``stealers`` placed."""
    gunner = dict(MARINE, weapons=[*MARINE["weapons"], weapon])
    board = table(buildings=[hab()])
    return active(table_state(board, [put("Marine", 1, 3)], stealers, profiles=[gunner, STEALER]))


BOOM = {"name": "plasma cannon", "dice": "2R", "kind": "ranged", "effects": ["AREA 1", "EXPLODE", "+P"]}


def test_explode_on_a_failed_sector_shot_then_the_collapse():
    # III: "A weapon fails if it rolls a maximum value on two or more dice. The firing result still
    # applies"; VIII EXPLODE: the weapon's attack on the bearer; then the collapse's rolls
    s = _gunner_by_hab(BOOM, [put("Stealer", 5, 5)])
    west = s.setup.board.indoors((5, 5, 0))
    s = replace(s, sector_hits=((west, 1),)).apply(("shoot_sector", west, "plasma cannon"))
    failed = [k for k, ((ds, _, wa, *_), p) in enumerate(cached_law(s.pending[3])) if wa and ds[1] == 0]
    assert failed
    fail_p = sum(p for (_, _, wa, *_), p in cached_law(s.pending[3]) if wa)
    assert fail_p == pytest.approx(1 / 36)  # both reds at 3
    s = s.apply(("sector", failed[0]))
    assert s.pending[:4] == ("attack", "explode", 0, 0)  # the bearer first
    assert s.tokens[0].arms[-1] == "lost"
    s = s.apply(("attack", 0))
    while s.pending and s.pending[0] == "attack":
        s = s.apply(("attack", 0))
    assert s.pending == ("collapse", 1)  # then the stealer inside the collapsing sector
    assert not invariant_errors(s)


def _on_table(terrain, a, b, ladders=()):
    return table_state(table(terrain=terrain, ladders=list(ladders)), a, b)


BARRICADE = {"name": "barricade", "kind": "barricade", "shape": rect(5, 2, 6, 5)}
CATWALK = {"name": "catwalk", "kind": "catwalk", "shape": rect(4, 5, 8, 6), "height": 4}


def _law_of_target(key: str) -> dict[str, float]:
    out: dict[str, float] = {}
    for (ds, *_), p in cached_law(key):
        name = "destroyed" if ds[1] == 0 else "standing"
        out[name] = out.get(name, 0.0) + p
    return out


def test_any_weapon_shoots_a_barricade_as_calculate_s_shot():
    # VI: "Barricades- 2 armor, 1 hit ... May use any kind of attack to damage"
    s = active(_on_table([BARRICADE], [put("Marine", 1, 3)], [put("Stealer", 11, 7)]))
    assert ("shoot_piece", 0, "bolter") in s.legal_actions()  # not a building weapon: still allowed
    key = s.apply(("shoot_piece", 0, "bolter")).pending[3]
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 4,  # to the barricade's nearest cell
            "attacker": {k: v for k, v in MARINE.items() if k != "move"},
            "defender": {"name": "barricade", "kind": "barricade", "armour": 2, "hits": 1},
            "weapons": ["bolter"],
        }
    )
    assert _law_of_target(key)["destroyed"] == pytest.approx(res.extra["structure"]["destroyed"], abs=1e-12)
    # by hand: 2W+1R against 2 armour, one point destroys it
    w, r = (0, 0, 0, 0, 1, 2), (0, 0, 0, 1, 2, 3)
    hand = sum(1 for a in w for b in w for c in r if a + b + c - 2 >= 1) / 216
    assert res.extra["structure"]["destroyed"] == pytest.approx(hand)


def test_a_model_beside_a_barricade_melees_it_and_a_destroyed_one_leaves_open_ground():
    s = active(_on_table([BARRICADE], [put("Marine", 4, 3)], [put("Stealer", 5, 2, 1)]))
    assert ("melee_piece", 0) in s.legal_actions()
    s = s.apply(("melee_piece", 0))
    res = calculate(
        {
            "system": "crusade",
            "action": "melee",
            "attacker": {k: v for k, v in MARINE.items() if k != "move"},
            "defender": {"name": "barricade", "kind": "barricade", "armour": 2, "hits": 1},
        }
    )
    assert _law_of_target(s.pending[3])["destroyed"] == pytest.approx(res.extra["structure"]["destroyed"])
    down = next(k for k, ((ds, *_), _) in enumerate(cached_law(s.pending[3])) if ds[1] == 0)
    s = s.apply(("sector", down))
    assert s.pending == ()
    board = s.setup.board
    assert board.lattice.levels_at((5, 3)) == (0,) and board.lattice.top[3, 5] == 0.0
    assert s.tokens[1].sq[2] == 0 and s.tokens[1].cond == 0  # off the barricade, a 1" drop: no hit
    assert not any(a[0] in ("melee_piece", "shoot_piece") for a in active(s).legal_actions())
    assert not invariant_errors(s)


def test_models_on_a_destroyed_catwalk_fall_and_it_lies_on_the_ground_as_cover():
    # VI: "Catwalks- 3 armor, 1 hit. As Barricades. Models on destroyed catwalks, etc. fall as
    # normal. Place destroyed catwalk on ground (as cover)"; V FALLING: 1 hit per 4", graze = stun
    ladder = {"at": [3, 5, 0], "to": [4, 5, 4]}
    s = _on_table(
        [CATWALK], [put("Marine", 1, 5)], [put("Stealer", 6, 5, 4), put("Stealer", 7, 5, 0)], [ladder]
    )
    assert s.setup.board.lattice.levels_at((6, 5)) == (0, 4)  # stood on and under
    s = active(s)
    assert ("shoot_piece", 0, "bolter") in s.legal_actions()
    s = s.apply(("shoot_piece", 0, "bolter"))
    res = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "range": 5,
            "attacker": {k: v for k, v in MARINE.items() if k != "move"},
            "defender": {"name": "catwalk", "kind": "catwalk", "armour": 3, "hits": 1},
            "weapons": ["bolter"],
        }
    )
    assert _law_of_target(s.pending[3])["destroyed"] == pytest.approx(res.extra["structure"]["destroyed"])
    down = next(k for k, ((ds, *_), _) in enumerate(cached_law(s.pending[3])) if ds[1] == 0)
    s = s.apply(("sector", down))
    board = s.setup.board
    assert board.lattice.levels_at((6, 5)) == (0,) and board.lattice.top[5, 6] == 1.0  # cover
    assert (3, 5, 0) not in board.links  # the ladder to it is gone
    assert s.tokens[1].sq[2] == 0 and s.tokens[1].cond == 1  # fell 4": 1 hit, graze = stun
    assert s.tokens[2].sq == (7, 5, 0) and s.tokens[2].cond == 0  # under it: stays
    assert not invariant_errors(s)


def test_a_catwalk_below_two_inches_names_its_field():
    from grimdice.errors import ScenarioError
    from grimdice.systems.crusade.game.scenario import build_setup
    from tests.crusade_game.table_helpers import table_scenario

    low = dict(CATWALK, height=1)
    with pytest.raises(ScenarioError) as e:
        build_setup(table_scenario(table(terrain=[low]), [put("Marine", 1, 3)], [put("Stealer", 11, 7)]))
    assert e.value.field == "board.terrain.0.height"


def test_a_catwalk_is_drawn_and_its_fall_drawn_as_rubble():
    from grimdice.systems.crusade.game.draw_table import CATWALK_RGB, RUBBLE_RGB, table_image

    s = _on_table([CATWALK], [put("Marine", 1, 5)], [put("Stealer", 11, 7)])
    assert table_image(s.setup.board)[5][6] == CATWALK_RGB
    fallen = s.setup.with_ruins(frozenset({piece_key(0)})).board
    assert table_image(fallen)[5][6] == RUBBLE_RGB


def test_the_ai_brings_a_sector_down_on_enemies_inside_when_it_pays():
    import numpy as np

    from grimdice.systems.crusade.ai.players import ai_player, attack_value

    krak = {"name": "krak grenade", "dice": "2R", "kind": "grenade", "effects": ["+P"]}
    s = _gunner_by_hab(krak, [put("Stealer", 5, 3), put("Stealer", 5, 4), put("Stealer", 6, 5)])
    west = s.setup.board.indoors((5, 3, 0))
    s = replace(s, sector_hits=((west, 1),))
    down = ("shoot_sector", west, "krak grenade")
    assert attack_value(s, down) > max(attack_value(s, a) for a in s.legal_actions() if a[0] == "shoot")
    assert ai_player(s, np.random.default_rng(0)) == down
    empty = _gunner_by_hab(krak, [put("Stealer", 11, 7)])
    assert attack_value(empty, ("shoot_sector", west, "krak grenade")) <= 0  # nobody inside: no gain


def wrecker(s, rng):
    """A random player that attacks barricades, catwalks and sectors whenever it may."""
    from tests.crusade_game.test_table_games import random_player

    hits = [a for a in s.legal_actions() if a[0] in ("shoot_piece", "melee_piece", "melee_sector")]
    return hits[int(rng.integers(len(hits)))] if hits else random_player(s, rng)


def test_skirmish_games_that_wreck_the_gantry_keep_the_invariants_and_replay():
    # VI: "Models on destroyed catwalks, etc. fall as normal. Place destroyed catwalk on ground"
    import yaml

    from grimdice.systems.crusade.game.play import play_game
    from grimdice.systems.crusade.game.scenario import build_setup
    from tests.crusade_game.test_table_games import SKIRMISH, _checked

    data = yaml.safe_load(SKIRMISH.read_text())
    for profile in data["profiles"]:  # a lasgun's 2W rarely beats the catwalk's 3 armour
        profile["weapons"].append({"name": "launcher", "dice": "2R+1", "kind": "ranged", "effects": ["+P"]})
    setup = build_setup(data)
    wrecked = [
        n
        for n in range(10)
        if any(
            "gantry" in e["text"] and "destroyed" in e["text"]
            for e in play_game(setup, (wrecker, wrecker), n)["events"]
        )
    ]
    assert wrecked
    log, kinds = _checked(setup, (wrecker, wrecker), wrecked[0])
    assert "shoot_piece" in kinds
    fallen = [e["text"] for e in log["events"] if "gantry" in e["text"] and "destroyed" in e["text"]]
    assert fallen
