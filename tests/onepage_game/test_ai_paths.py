"""The AI's fast paths answer as its plain ones: every Walk candidate's best shot at once
(``players.best_shots``), shooting laws shared by the situations the exact engine cannot tell apart
(``state.shot_law_key``), and the dangerous terrain's models through counted for many candidates at
once (``geometry.models_through``)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from grimdice.engine.table.blocks import blocks, models_through
from grimdice.systems.onepage.ai.players import best_shot, best_shots
from grimdice.systems.onepage.exact import shooting_table
from grimdice.systems.onepage.game import GameState, firing, make_setup
from grimdice.systems.onepage.game.combat import conditions_of
from grimdice.systems.onepage.game.queries import prefetch
from grimdice.systems.onepage.game.setup import load_army_side
from grimdice.systems.onepage.game.state import shot_law_key
from tests.onepage_game.test_speed import MARINES, ORKS, game, mixed_table, swept_over


def fresh_copy(s: GameState) -> GameState:
    """The same state on a new setup (empty memos: every answer computed the plain way)."""
    return GameState.from_json(
        make_setup(load_army_side(MARINES), load_army_side(ORKS), s.setup.table), s.to_json()
    )


def test_best_shots_are_best_shot_at_every_candidate_and_on_hold() -> None:
    s = game(mixed_table())
    rng = np.random.default_rng(11)
    shots = 0
    for trial in range(3):
        s = replace(
            s,
            anchors=tuple((26.0 + 7 * (v % 4) + trial, 14.0 + 3 * v) for v in range(len(s.units))),
            round=1 + trial,
        )
        fresh = fresh_copy(s)
        for u in range(len(s.units)):
            ax, ay = s.anchors[u]
            ends = [(ax + round(dx, 3), ay + round(dy, 3)) for dx, dy in rng.uniform(-12, 12, size=(20, 2))]
            prefetch(s, u, ends)
            got = best_shots(s, u, ends)
            assert got is not None  # the bundled armies have no arcs, Indirect or Limited weapons
            assert got == [best_shot(fresh, u, e, "walk")[0] for e in ends]
            assert best_shots(s, u, [None], "hold") == [best_shot(fresh, u, None, "hold")[0]]
            shots += sum(v > 0 for v in got)
    assert shots > 20  # many candidates have a shot worth taking


def test_best_shots_leave_arcs_indirect_and_limited_weapons_to_best_shot() -> None:
    from tests.onepage_game.test_firing import MISSILES, MORTARS, TANK, TARGETS, duel

    for shooter in (TANK, MORTARS, MISSILES):
        s = duel(shooter, TARGETS, (36.0, 32.0))
        assert best_shots(s, 0, [(36.0, 22.0)]) is None
    s = duel(TARGETS, TARGETS, (36.0, 32.0))  # melee weapons only: no shot anywhere
    assert best_shots(s, 0, [(36.0, 22.0)]) == [0.0] == [best_shot(s, 0, (36.0, 22.0), "walk")[0]]


def test_best_shots_leave_spent_limited_weapons_out() -> None:
    """Limited: "may only be fired once per game". Once every Limited weapon of a unit is fired, the
    fast path applies again, and its values are best_shot's: the spent weapons do not fire."""
    from tests.onepage_game.test_firing import MISSILES, TARGETS, duel

    s = duel(MISSILES, TARGETS, (36.0, 32.0))
    s = replace(s, spent=tuple((0, w) for w in firing.limited_names(s, 0)))
    assert firing.spent(s, 0)
    ends = [(36.0, 22.0), (30.0, 20.0), (36.0, 14.0)]
    prefetch(s, 0, ends)
    got = best_shots(s, 0, ends)
    assert got is not None and got == [best_shot(s, 0, e, "walk")[0] for e in ends]
    assert best_shots(s, 0, [None], "hold") == [best_shot(s, 0, None, "hold")[0]]
    assert all(v > 0 for v in got)  # the Rifle still fires


def test_situations_sharing_a_law_key_have_equal_tables() -> None:
    """Each situation's exact shooting table, computed from its own conditions, equals the table of
    its law key's; the key keeps apart what the engine reads (Cover on a target without Armored,
    the action of a Relentless shooter)."""
    s = game(mixed_table())
    units = s.setup.units
    armored = next(t for t in range(len(units)) if units[t].armored and s.setup.owner[t] == 1)
    plain = next(t for t in range(len(units)) if not units[t].armored and s.setup.owner[t] == 1)
    relentless = next(u for u in range(len(units)) if units[u].has("relentless") and s.setup.owner[u] == 0)
    other = next(u for u in range(len(units)) if not units[u].has("relentless") and s.setup.owner[u] == 0)
    compared = 0
    for u in (relentless, other):
        for t in (armored, plain):
            a, d, su, st = units[u], units[t], s.units[u], s.units[t]
            for cover in (False, True):
                for elevated in (False, True):
                    for action in ("hold", "walk"):
                        key = (24.0, 2, cover, elevated, action, "side", "", False, True)
                        law = shot_law_key(s.setup, u, t, key)
                        assert (
                            shooting_table(a, su, d, st, conditions_of("shoot", key))[1]
                            == (shooting_table(a, su, d, st, conditions_of("shoot", law))[1])
                        )
                        compared += 1
            walk = (24.0, 2, True, False, "walk", "side", "", False, True)
            hold = (*walk[:4], "hold", *walk[5:])
            assert (shot_law_key(s.setup, u, t, walk) == shot_law_key(s.setup, u, t, hold)) == (u == other)
        bare = (24.0, 2, False, False, "hold", "side", "", False, True)
        covered = (24.0, 2, True, False, "hold", "side", "", False, True)
        assert shot_law_key(s.setup, u, armored, bare) == shot_law_key(s.setup, u, armored, covered)
        assert shot_law_key(s.setup, u, plain, bare) != shot_law_key(s.setup, u, plain, covered)
    assert compared == 32


def test_models_through_many_candidates_is_the_model_by_model_count() -> None:
    """A model goes through when its base passes over a dangerous piece anywhere on its straight path
    (each piece tested on its own, shapely's distances)."""
    s = game(mixed_table())
    table = s.setup.table
    pieces = [p for p in table.terrain if p.has("dangerous")]
    rng = np.random.default_rng(12)
    total = 0
    for u in range(len(s.units)):
        s = replace(s, anchors=tuple((40.0 + (v % 3), 26.0 + v % 5) for v in range(len(s.units))))
        a = s.models(u)
        ends = np.array(s.anchors[u]) + rng.uniform(-10, 10, size=(30, 2))
        bs = blocks(s.setup.offsets[u][: s.units[u].models] * np.array([1.0, -s.flip(u)]), ends)
        r = s.setup.radii[u]
        got = models_through(table, a, bs, r)
        for c in range(len(ends)):
            want = int(np.any([swept_over(p, a, bs[c], r) for p in pieces], axis=0).sum())
            assert got[c] == want
            total += want
    assert total > 0
