"""The AI's shots at its Walk candidates read each enemy's sight from every candidate at once
(``shooting.sight_from``): each memo entry equals ``firing_sight`` for that candidate alone, on a
hand-built position with a screening unit and on the candidates of seeded games."""

from __future__ import annotations

from pathlib import Path

from grimdice.engine.table.layout import generate_table
from grimdice.systems.onepage.game import GameState, screening, shooting
from grimdice.systems.onepage.game.cache import MEMO_ATTR, memo
from grimdice.systems.onepage.game.play import play, states
from grimdice.systems.onepage.game.setup import Setup, load_army_side
from tests.onepage_game.test_game import TARGETS
from tests.onepage_game.test_table_legality import state_of

ROOT = Path(__file__).resolve().parents[2]
RIFLES = {"name": "Rifles", "size": 5, "quality": 4, "equipment": ["Rifle"], "cost": 60}


def alone_and_batched(state: GameState, u: int, t: int, ends: list[tuple[float, float]]) -> tuple[list, list]:
    """((``screening.near_screens``, ``firing_sight``) of each anchor computed alone on an empty
    memo, the same two read from the entries ``sight_from`` put in an empty memo for all of them)."""
    alone = []
    for e in ends:
        state.setup.__dict__.pop(MEMO_ATTR, None)
        alone.append((screening.near_screens(state, u, t, e), shooting.firing_sight(state, u, t, e)))
    state.setup.__dict__.pop(MEMO_ATTR, None)
    shooting.sight_from(state, u, t, ends)
    m, pt, key = memo(state.setup), state.placed(t), state.standing().key
    batched = []
    for e in ends:
        near = m[("near screens", state.placed(u, e), pt, key)]
        batched.append((near, m[("firers", state.units[u].alive, state.placed(u, e), pt, near)]))
    return alone, batched


def test_behind_a_screen_near_the_end_of_range_each_candidate_sees_as_firing_sight_says() -> None:
    """Rifles about 28" south of the targets (Rifle: 30"), a row of bodies of a third unit halfway:
    the candidates farther south or off to a side have fewer models in range of a target model."""
    bodies = dict(TARGETS, name="Bodies")
    s = state_of([RIFLES, bodies], [TARGETS], [(36.0, 10.0), (36.0, 24.0), (36.0, 39.0)])
    ends = [(36.0 + dx, 10.0 + dy) for dx in (-9.0, -4.0, 0.0, 4.0, 9.0) for dy in (-3.0, -1.0, 0.0, 2.0)]
    alone, batched = alone_and_batched(s, 0, 2, ends)
    assert batched == alone
    assert len({a[1][2] for a in alone}) > 1  # the candidates see different numbers of models
    assert any(a[0] for a in alone)  # the bodies stand between


def test_every_candidates_sight_equals_firing_sight_alone_over_seeded_games() -> None:
    files = [ROOT / f"examples/armies/onepage-{n}-army.yaml" for n in ("marines", "orks")]
    armies = (load_army_side(files[0]), load_army_side(files[1]))
    log = play(Setup(armies, generate_table(4)), 4, ("random", "random"))
    pairs = 0
    for state in [s for s in states(log) if s.phase == "play"][::5]:
        for a in state.legal_actions():
            if a[0] != "walk" or state.weapon_range(a[1]) <= 0:
                continue
            u = a[1]
            ends = [
                (state.anchors[u][0] + w[2], state.anchors[u][1] + w[3])
                for w in state.legal_actions()
                if w[0] == "walk" and w[1] == u
            ]
            for t in state.enemies(u):
                alone, batched = alone_and_batched(state, u, t, ends)
                assert batched == alone
                pairs += len(ends)
            break
    assert pairs > 200
