"""The random player's own draw (``GameState.random_action``, ``game/sampling.py``): every action
it draws is a legal action, and its distribution is the documented one: a ready unit uniformly,
then a kind of action that unit has uniformly, then an instance of that kind uniformly. The
expected probability of each action is computed here from ``legal_actions()`` (an independent
listing) and compared with the draw's frequencies."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import numpy as np

from grimdice.engine.game import CHANCE, TERMINAL
from grimdice.engine.playing import play_game, random_bot
from grimdice.systems.onepage.game import GameState, make_setup
from grimdice.systems.onepage.game.setup import load_army_side

ROOT = Path(__file__).resolve().parents[2]


def root() -> GameState:
    armies = [load_army_side(ROOT / f"examples/armies/onepage-{a}-army.yaml") for a in ("marines", "orks")]
    return GameState(make_setup(armies[0], armies[1], table_seed=4))


def expected(s: GameState) -> dict[tuple[object, ...], float]:
    """Each legal action's probability under the documented draw, from ``legal_actions()``: the
    unit (the action's second element) uniform among the units that have an action, the kind (the
    first element) uniform among that unit's kinds, the instance uniform among that kind's."""
    by_unit: dict[int, dict[str, list[tuple[object, ...]]]] = {}
    for a in s.legal_actions():
        by_unit.setdefault(int(a[1]), {}).setdefault(str(a[0]), []).append(tuple(a))
    out = {}
    for kinds in by_unit.values():
        for acts in kinds.values():
            for a in acts:
                out[a] = 1 / len(by_unit) / len(kinds) / len(acts)
    return out


def test_every_drawn_action_is_legal_in_a_random_game() -> None:
    game = play_game(root(), [random_bot, random_bot], 3)
    rng = np.random.default_rng(0)
    decisions = 0
    for s, played in zip(game.states, game.actions, strict=False):
        if s.current_player() in (CHANCE, TERMINAL):
            continue
        decisions += 1
        legal = s.legal_actions()
        assert played in legal
        for _ in range(3):
            assert s.random_action(rng) in legal
    assert decisions > 40  # deployment, activations and shootings were all drawn


def test_the_draw_follows_its_documented_distribution() -> None:
    """At the first activation of a game (several ready units with Hold, Walk, Run and perhaps
    Assault), 3000 draws: every action's count within 5 standard deviations of its expected
    count, and no action drawn that is not legal."""
    game = play_game(root(), [random_bot, random_bot], 3)
    s = next(x for x in game.states if x.phase == "play" and x.current_player() not in (CHANCE, TERMINAL))
    want = expected(s)
    units = {a[1] for a in want}
    assert len(units) >= 3 and len({a[0] for a in want}) >= 3
    n = 3000
    rng = np.random.default_rng(11)
    got = Counter(tuple(s.random_action(rng)) for _ in range(n))
    assert set(got) <= set(want)
    assert math.isclose(sum(want.values()), 1.0)
    for a, p in want.items():
        sd = math.sqrt(n * p * (1 - p))
        assert abs(got[a] - n * p) <= 5 * sd + 1, (a, got[a], n * p)
    # the unit is drawn uniformly (not in proportion to its actions)
    per_unit = Counter(a[1] for a in got.elements())
    for u in units:
        assert abs(per_unit[u] - n / len(units)) <= 5 * math.sqrt(n / len(units))


def test_a_shooting_draws_no_shot_or_one_valid_target_as_likely() -> None:
    """At a shooting with two valid targets or more (no Limited weapons, no split): no shot half of
    the time, each valid target equally often in the other half."""
    for seed in range(3, 12):  # seeded random games until such a shooting
        game = play_game(root(), [random_bot, random_bot], seed)
        shots = [s for s in game.states if s.phase == "shoot" and len(s.legal_actions()) >= 3]
        shots = [s for s in shots if all(len(a) == 2 for a in s.legal_actions())]
        if shots:
            break
    s = shots[0]
    targets = [a[1] for a in s.legal_actions() if a[1] >= 0]
    assert targets == s.valid_targets(s.active)
    n = 2000
    rng = np.random.default_rng(5)
    got = Counter(s.random_action(rng)[1] for _ in range(n))
    assert set(got) <= {-1, *targets}
    assert abs(got[-1] - n / 2) <= 5 * math.sqrt(n / 4)
    for t in targets:
        p = 1 / 2 / len(targets)
        assert abs(got[t] - n * p) <= 5 * math.sqrt(n * p * (1 - p))


def test_a_streams_draw_without_the_costly_moves_is_the_whole_lists_draw() -> None:
    """The draw from a game's stream, which leaves a Walk's or Run's two-leg moves unbuilt when the
    next draw picks a one-leg move whatever their number (``Stream.agreed_index``), draws the same
    action and leaves its stream where the draw over the whole list (a plain Generator, which
    builds every kind it draws) leaves it, at every decision of seeded random games."""
    from grimdice.engine.draws import Stream

    calls: list[int | None] = []

    class Counted(Stream):
        def agreed_index(self, low: int, high: int) -> int | None:
            calls.append(super().agreed_index(low, high))
            return calls[-1]

    for seed in (3, 8):
        game = play_game(root(), [random_bot, random_bot], seed)
        for i, s in enumerate(game.states):
            if s.current_player() in (CHANCE, TERMINAL):
                continue
            for k in range(4):
                ss = np.random.SeedSequence([seed, i, k])
                fast, whole = Counted(np.random.PCG64(ss)), np.random.Generator(np.random.PCG64(ss))
                fast.random()  # the stream draws ahead of its bit generator, as in a game
                whole.random()
                assert s.random_action(fast) == s.random_action(whole)
                assert fast.bit_generator.state == whole.bit_generator.state
    assert sum(c is not None for c in calls) >= 10  # the two-leg moves were left unbuilt in some draws


def test_a_partial_kind_keeps_what_its_searches_found() -> None:
    """A kind drawn as a ``Partial`` (the first instances, then searches each adding one more)
    keeps what a draw's searches found: every later draw is uniform over all of them, the found
    ones included; and a plain generator (no ``agreed_index``) runs every search."""
    from grimdice.systems.onepage.game.sampling import Partial

    runs: list[int] = []

    def search(k: int) -> list[list[object]]:
        runs.append(k)
        return [["found", k]]

    kind = Partial([["first", 0]], [lambda: search(1), lambda: search(2)])
    rng = np.random.default_rng(7)
    first = kind.draw(rng)
    assert runs == [1, 2] and kind.steps == []
    assert first in kind.found and len(kind.found) == 3
    n = 1500
    got = Counter(tuple(kind.draw(rng) or ()) for _ in range(n))
    assert runs == [1, 2]  # no search runs twice
    assert set(got) == {("first", 0), ("found", 1), ("found", 2)}
    for c in got.values():
        assert abs(c - n / 3) <= 5 * math.sqrt(n * 2 / 9)


def test_searches_listed_later_are_listed_only_when_the_draw_may_need_them() -> None:
    """A ``Partial`` whose searches are listed ``later`` (a Walk's or Run's: listing them judges its
    goals and lines) draws what the same kind with its searches listed at once draws, from the same
    stream state, and lists them only when the draw does not agree over the widened range; the
    widening (``legs.most_searches``, ``shapes.most_searches``) is never less than the searches
    listed, at every Walk and Run of seeded random games."""
    from grimdice.engine.draws import Stream
    from grimdice.systems.onepage.game import legs, shapes
    from grimdice.systems.onepage.game.sampling import Partial

    def kind(later: bool, built: list[int], real: int = 3, bound: int = 3) -> Partial:
        searches = [lambda k=k: [["found", k]] for k in range(real)]
        if not later:
            return Partial([["first", j] for j in range(6)], searches)
        return Partial([["first", j] for j in range(6)], [], (bound, lambda: built.append(1) or searches))

    for real, bound in ((3, 3), (3, 5), (0, 8)):  # the bound as the game widens it: at least the real count
        left_unlisted = 0
        for k in range(300):
            built: list[int] = []
            a, b = Stream(np.random.PCG64(k)), Stream(np.random.PCG64(k))
            assert kind(True, built, real, bound).draw(a) == kind(False, [], real).draw(b)
            assert a.bit_generator.state == b.bit_generator.state
            left_unlisted += not built
        assert 10 <= left_unlisted < 300  # listed in some draws, not in others

    bounds = 0
    game = play_game(root(), [random_bot, random_bot], 5)
    for s in game.states:
        if s.phase != "play":
            continue
        for u in s.ready(s.player):
            if not s.on_table(u) or s.units[u].pinned or s.units[u].immobile:
                continue
            for kind_name in ("walk", "run"):
                ones = s.moves(u, kind_name)
                assert len(legs.searches(s, u, kind_name, ones)) <= legs.most_searches(s, u)
                assert len(shapes.searches(s, u, kind_name, ones)) <= shapes.most_searches(s, u)
                bounds += 1
    assert bounds >= 100
