"""The answers a game state keeps about where its units stand (its standing rows, each unit's
models, gaps and centre, the sight keys, the Assault paths) equal the answers a fresh copy of the
state computes, at every state of seeded random games: those carried from the state before
(``engine.frozen.replace``'s ``__carried__``: the units stand where they stood with the same models
alive) and those computed on the state itself; a standing made from the state before a move
(``places.moved_standing``) equals the one worked out from the anchors. A unit's models read from
the standing rows equal its models computed at its anchor (``places.models_at``). The random
player's Assault kind, searched target by target, holds exactly the listed Assault actions. The
games narrow units to columns (``game/shapes.py``); a change of shape carries no answer over: every
answer after it equals a fresh copy's, and a unit's models are its new shape's rows at its anchor."""

from __future__ import annotations

import dataclasses
import itertools
from typing import Any

import numpy as np

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.playing import play_game, random_bot
from grimdice.engine.table.blocks import EPS
from grimdice.engine.table.layout import generate_table
from grimdice.systems.onepage.game import GameState, make_setup, moving, shapes
from grimdice.systems.onepage.game.facing import charge_allowed
from grimdice.systems.onepage.game.places import _standing, gap, models_at, shape_of
from grimdice.systems.onepage.game.sampling import assault_actions, assault_draw
from grimdice.systems.onepage.game.screening import sight_key
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.game.state import deploy
from grimdice.systems.onepage.movement import move_distance
from tests.onepage_game.test_game import MARINES, ORKS


def kept_answers(s: GameState) -> dict[str, object]:
    """Every answer ``s`` keeps about where its units stand, read back in plain values."""
    st = s.standing()
    out: dict[str, object] = {"standing": (st.key, st.pts.tolist(), st.ids, st.first, st.counts)}
    for u in st.ids:
        out[f"models {u}"] = s.models(u).tolist()
        out[f"gaps {u}"] = s.gaps(u)[1]
        out[f"centre {u}"] = moving.unit_centre(s, u)
        for t in st.sides[1 - s.setup.owner[u]]:
            out[f"sight {u} {t}"] = sight_key(s, u, t, None)
    for (u, t), path in s.__dict__.get("_charges", {}).items():
        out[f"charge {u} {t}"] = path
    return out


def fresh(s: GameState) -> GameState:
    """``s`` without any answer kept (``dataclasses.replace`` carries none over)."""
    return dataclasses.replace(s)


def check_answers(game: list[GameState]) -> tuple[int, int, int]:
    """Every state's kept answers against a fresh copy's: (states checked, standings carried from
    the parent, standings made from the state before a move)."""
    carried = checked = moved = 0
    for before, s in itertools.pairwise(game):
        if not s.anchors:
            continue
        got = s.__dict__.get("_standing")
        carried += got is not None and got is before.__dict__.get("_standing")
        want = fresh(s)
        for u in range(len(s.units)):
            if s.on_table(u) and not s.units[u].destroyed:
                assert np.array_equal(s.models(u), models_at(s, u, s.anchors[u]))
        for u, t in s.__dict__.get("_charges", {}):
            moving.charge_ok(want, u, t)  # the fresh copy searches the same path
        assert kept_answers(s) == kept_answers(want)
        st = s.standing()
        built = _standing(want, st.key)  # worked out from the anchors, no memo
        moved += "_moved_from" in s.__dict__
        for name in ("pts", "radii", "owner", "sizes", "starts"):
            assert np.array_equal(getattr(st, name), getattr(built, name)), name
        assert (st.ids, st.at, st.sides, st.first, st.counts) == (
            built.ids,
            built.at,
            built.sides,
            built.first,
            built.counts,
        )
        checked += 1
    return checked, carried, moved


def test_kept_and_carried_answers_equal_fresh_ones() -> None:
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), generate_table(7))
    totals = [0, 0, 0]
    columns = 0
    for seed in (5, 7):  # seed 7 narrows a unit to its column
        game = play_game(deploy(setup, 0, 0), [random_bot, random_bot], seed)
        totals = [a + b for a, b in zip(totals, check_answers(game.states), strict=True)]
        columns += sum(any(s.shapes) for s in game.states if s.anchors)
    checked, carried, moved = totals
    assert checked > 100 and carried > 30  # many states started with their parent's answers
    assert moved > 10  # and many took their rows from the state before a move
    assert columns > 30  # and many had a unit in its column


def by_hand(s: GameState, u: int) -> np.ndarray:
    """Unit ``u``'s models from its shape's offsets (turned to its side) at its anchor."""
    flip = 1.0 if s.setup.owner[u] == s.south else -1.0
    off = s.setup.shape_offsets(u, shape_of(s, u))[: s.units[u].models]
    return off * np.array([1.0, -flip]) + np.array(s.anchors[u])


def test_a_change_of_shape_never_carries_a_stale_answer() -> None:
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), generate_table(7))
    changed = 0
    for seed in (5, 9):
        game = play_game(deploy(setup, 0, 0), [random_bot, random_bot], seed)
        for s in game.states[::3]:
            if s.phase != "play" or not s.anchors:
                continue
            for u in s.standing().ids:
                if not shapes.offered(s, u):
                    continue
                kept_answers(s)  # every answer asked first, so a copy could carry it
                other = 1 - shape_of(s, u)
                for after in (
                    shapes.with_shape(s, u, other),  # in place
                    shapes.with_shape(moving.moved(s, u, 0.5, -0.5), u, other),  # moved, then changed
                    moving.moved(shapes.with_shape(s, u, other), u, 0.5, -0.5),  # changed, then moved
                ):
                    assert shape_of(after, u) == other
                    assert np.allclose(after.models(u), by_hand(after, u))
                    assert kept_answers(after) == kept_answers(fresh(after))
                    assert not np.array_equal(after.models(u) - np.array(after.anchors[u]), s.block(u))
                    changed += 1
    assert changed > 30


def test_answers_stay_fresh_through_deployment_reserves_and_transports() -> None:
    """Games from the roll-off: units deployed one by one, held in reserve or embarked and
    arriving later (the ``place`` of the state changes), every kept answer still fresh."""
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), generate_table(4))
    places_changed = 0
    for seed in range(4):
        game = play_game(GameState(setup), [random_bot, random_bot], seed)
        check_answers(game.states)
        places_changed += sum(
            bool(a.anchors) and a.place != b.place for a, b in itertools.pairwise(game.states)
        )
    assert places_changed > 0  # a unit went into or out of reserve or a transport on the table


def listed_assaults(s: GameState, u: int) -> tuple[list[list[Any]], int]:
    """Unit ``u``'s Assault actions listed as the guide's Assault asks, written apart from the
    game's listing: each enemy unit on the table whose gap to ``u`` is within its Assault distance
    and to which a valid charge exists (a clear path; a Vehicle's facing), and how many in reach
    had no valid charge."""
    reach = move_distance(s.setup.units[u], "assault")
    out, refused = [], 0
    for t in s.standing().sides[1 - s.setup.owner[u]]:
        if gap(s, u, t) > reach + EPS:
            continue
        if s.charge_ok(u, t) and charge_allowed(s, u, t):
            out.append(["assault", u, t, *(moving.charge_leg(s, u, t) or ())])
        else:
            refused += 1
    return out, refused


def test_the_assault_kind_searched_target_by_target_holds_the_listed_assaults() -> None:
    setup = make_setup(load_army_side(MARINES), load_army_side(ORKS), generate_table(3))
    found = refused = 0
    for seed in (2, 6):
        game = play_game(deploy(setup, 0, 0), [random_bot, random_bot], seed)
        for s in game.states:
            if s.phase != "play" or s.current_player() in (CHANCE, TERMINAL) or not s.anchors:
                continue
            for u in s.ready(s.player):
                if not s.on_table(u) or s.units[u].pinned:
                    continue
                kind = assault_draw(fresh(s), u)
                drawn = [a for step in kind.steps for a in step()]
                want, no = listed_assaults(fresh(s), u)
                assert kind.found == [] and drawn == want == assault_actions(fresh(s), u)
                found += len(drawn)
                refused += no
    assert found > 3  # some Assaults were open
    assert refused > 0  # and some targets in reach had no valid charge
