"""Seeded games of every pairing of players, every state checked against the table's invariants
(``game.invariants``: no base off the table, over impassable terrain or over another base, units
coherent, no move through another unit or over impassable terrain): zero violations.

The quick test plays a few games; the slow one plays a batch per pairing (set
``GRIMDICE_GAMES_PER_PAIRING`` to play more, e.g. 200, by hand)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from grimdice.systems.onepage.game import states
from grimdice.systems.onepage.game.batch import GameJob, game_seeds
from grimdice.systems.onepage.game.invariants import game_violations
from grimdice.systems.onepage.game.setup import load_army_side

ROOT = Path(__file__).resolve().parents[2]
ARMIES = (ROOT / "examples/armies/onepage-marines-army.yaml", ROOT / "examples/armies/onepage-orks-army.yaml")
PAIRINGS = (("random", "random"), ("ai", "random"), ("random", "ai"), ("ai", "ai"))
SLOW_GAMES = {("random", "random"): 40, ("ai", "random"): 6, ("random", "ai"): 6, ("ai", "ai"): 4}


def broken(players: tuple[str, str], games: int, seed: int) -> list[str]:
    """Every violation in ``games`` seeded games (a generated table each), with its game's seed."""
    job = GameJob((load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, players, keep_log=True)
    out: list[str] = []
    for s in game_seeds(seed, games):
        log = job(s)
        out += [f"seed {s}: {v}" for v in game_violations(states(log), log["actions"])]
    return out


@pytest.mark.parametrize("players", [("random", "random"), ("ai", "random")])
def test_a_few_games_break_no_invariant(players: tuple[str, str]) -> None:
    assert broken(players, 2 if players[0] == "random" else 1, 17) == []


@pytest.mark.slow
@pytest.mark.parametrize("players", PAIRINGS)
def test_games_of_every_pairing_break_no_invariant(players: tuple[str, str]) -> None:
    games = int(os.environ.get("GRIMDICE_GAMES_PER_PAIRING", SLOW_GAMES[players]))
    assert broken(players, games, 2026) == []


def test_a_model_left_where_the_block_ended_near_another_enemy_breaks_no_rule() -> None:
    """An Assault's block may end within 1" of an enemy unit other than its target ("Units may move
    within 1" of enemy units when using assault actions"); a model that does not move on from there
    breaks no rule. This seeded game's Boyz end their block 0.08" from a Tactical Marine they do not
    assault, and the invariant check of their placed models must not count that model."""
    job = GameJob(
        (load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, ("random", "ai"), keep_log=True
    )
    log = job(666256175)
    assaults = [a for a in log["actions"] if isinstance(a, list) and a and a[0] == "assault"]
    assert assaults  # the game has its Assaults
    assert game_violations(states(log), log["actions"]) == []


def test_a_disembarking_unit_ends_clear_of_the_units_beside_its_transport() -> None:
    """ "Units may not move within 1" of other units": a unit leaving its transport starts on the
    hull, where it may stand over a unit beside the transport; its disembark must still end clear of
    it. In this seeded game the random Orks disembark their Boyz from the Squiggoth with the Killa
    Kan beside it, and no state may show overlapping bases."""
    job = GameJob(
        (load_army_side(ARMIES[0]), load_army_side(ARMIES[1])), None, ("ai", "random"), keep_log=True
    )
    log = job(147627710)
    assert any(isinstance(a, list) and a and a[0] == "disembark" for a in log["actions"])
    assert game_violations(states(log), log["actions"]) == []
