"""The vectorised Kill Team solvers equal the reference model, the generic ``engine.game``
expectimax, on seeded random small cases (values, and the moves chosen at every position).

The fight's strike/parry step is solved for all starting dice at once by layers of packed
positions, with the wounds an operative can no longer lose cut off (``fight/layers.py``); the roll
step by vectorised means and choices (``fight/solver.py``); shooting attacks by vectorised
allocation, re-roll and forward passes (``solve.py``, ``exact.py``). Each must give what
``expectimax`` gives on the typed game states, whatever the rules and objectives.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from grimdice.engine.game import TERMINAL, expectimax
from grimdice.errors import ScenarioError
from grimdice.systems.killteam.exact import forward, wounds_left
from grimdice.systems.killteam.fight import Duel, Fighter, FightKeys, Hits, Objective, ResolutionState
from grimdice.systems.killteam.fight.game import FightState
from grimdice.systems.killteam.fight.layers import (
    END,
    MOVES,
    canonical,
    encode,
    radix_of,
    reachable,
    start_rows,
)
from grimdice.systems.killteam.fight.resolve import FIGHT_TOL, Resolution
from grimdice.systems.killteam.fight.solver import solve_fight
from grimdice.systems.killteam.fight.state import MAX_ATTACKS, SIDES
from grimdice.systems.killteam.rules import WeaponRules
from grimdice.systems.killteam.solve import ShotSpec, solve_sequence
from tests.killteam.shooting_game import Sequence, ShootingState

FIGHT_RULES = ("rending", "brutal", "stun", "balanced", "ceaseless", "relentless")


def random_fighter(rng: random.Random, name: str, attacks: int, wounds: int) -> Fighter:
    rules = WeaponRules(lethal=rng.choice([5, 6, 6]), **{k: rng.random() < 0.35 for k in FIGHT_RULES})
    return Fighter(
        name,
        rng.randint(1, wounds),
        rng.randint(1, attacks),
        rng.randint(2, 5),
        rng.randint(0, 4),
        rng.randint(1, 6),
        rules,
        rng.choice(list(Objective)),
    )


def all_starts(att: Fighter, dfd: Fighter):
    for an in range(att.attacks + 1):
        for ac in range(att.attacks + 1 - an):
            for dn in range(dfd.attacks + 1):
                for dc in range(dfd.attacks + 1 - dn):
                    yield Hits(an, ac), Hits(dn, dc)


@pytest.mark.parametrize("seed", range(3))
def test_resolution_layers_equal_expectimax(seed):
    """Every starting pair of retained dice: the same end of the fight, and the same move at every
    position the solved play reaches (big wounds included: the cut-off wounds are exact)."""
    rng = random.Random(seed)
    for _ in range(4):
        big = rng.random() < 0.4
        att = random_fighter(rng, "a", 3, 30 if big else 9)
        dfd = random_fighter(rng, "d", 4, 30 if big else 9)
        duel = Duel(att, dfd)
        keys = FightKeys(duel)
        fast = Resolution(duel, keys)
        sol = None
        for a, d in all_starts(att, dfd):
            sol = expectimax(ResolutionState.start(duel, a, d), keys, tol=FIGHT_TOL, solution=sol)
            assert tuple(sol.value[[0, 1, 4, 5]]) == tuple(fast.outcome(a, d)), (att, dfd, a, d)
            np.testing.assert_array_equal(fast.features(a, d), sol.value)
        assert fast.policy
        for state, move in fast.policy.items():
            assert sol is not None and sol.policy[state] == move, (att, dfd, state)


def test_cut_off_wounds_only_where_the_operative_cannot_be_incapacitated():
    att = Fighter("a", 12, 3, 3, 2, 5)
    dfd = Fighter("d", 4, 2, 3, 1, 3)
    rows = start_rows(Duel(att, dfd), 3, 2)
    canon = canonical(Duel(att, dfd), rows)
    most_by_attacker = rows[1] * 2 + rows[2] * 5
    most_by_defender = rows[3] * 1 + rows[4] * 3
    assert np.array_equal(canon[6], np.minimum(4, most_by_attacker + 1))
    assert np.array_equal(canon[5], np.minimum(12, most_by_defender + 1))
    assert np.all(canon[5] <= rows[5]) and np.all(canon[5] >= 1)


def _typed(duel: Duel, row: list[int]) -> ResolutionState:
    """A packed position as the typed game state (no critical strike made: Stun unused as the row says)."""
    strikes = tuple(0 if row[7 + side] or not duel.fighters[side].rules.stun else 1 for side in (0, 1))
    hits = (Hits(row[1], row[2]), Hits(row[3], row[4]))
    return ResolutionState(duel, row[0], hits, (row[5], row[6]), strikes)


@pytest.mark.parametrize("seed", range(2))
def test_reachable_children_are_the_typed_states_moves(seed):
    """The children ``solve_layers`` reuses are those of the typed game: at every position of every
    layer, the moves legal in ``children`` are ``ResolutionState.legal_actions`` and each child is
    ``ResolutionState.apply`` (dice, wounds, Stun, side to move or the end); the going-on children
    are kept canonical with their codes."""
    rng = random.Random(seed)
    for _ in range(4):
        att, dfd = random_fighter(rng, "a", 4, 12), random_fighter(rng, "d", 4, 12)
        duel = Duel(att, dfd)
        radix = radix_of(duel, att.attacks, dfd.attacks)
        for n, layer in reachable(duel, start_rows(duel, att.attacks, dfd.attacks), radix).items():
            assert np.array_equal(layer.codes, np.sort(encode(layer.rows, radix)))
            ch = layer.children
            assert np.all(layer.rows[0, : layer.split] == 0) and np.all(layer.rows[0, layer.split :] == 1)
            for i, row in enumerate(layer.rows.T.tolist()):
                state = _typed(duel, row)
                legal = [m for m in MOVES if ch.legal[m, i]]
                assert legal == state.legal_actions(), (n, row)
                for m in legal:
                    kid, after = ch.rows[:, m, i].tolist(), state.apply(m)
                    side = END if after.to_move == TERMINAL else after.to_move
                    made = after.critical_strikes
                    stun = [int(f.rules.stun and not c) for f, c in zip(duel.fighters, made, strict=True)]
                    assert kid == [side, *after.hits[0], *after.hits[1], *after.wounds, *stun], (row, m)
            going = ch.legal & (ch.rows[0] != END)
            assert np.array_equal(layer.going, going)
            assert np.array_equal(layer.canon, canonical(duel, ch.rows[:, going]))
            assert np.array_equal(layer.kid_codes, encode(layer.canon, radix)), n


@pytest.mark.parametrize("seed", range(3))
def test_fight_equals_expectimax_on_the_whole_game(seed):
    """Rolls, re-rolls (Balanced, Ceaseless, Relentless), Rending and resolution: the expected
    features of the whole game equal the generic solver's."""
    rng = random.Random(100 + seed)
    for _ in range(2):
        att, dfd = random_fighter(rng, "a", 3, 8), random_fighter(rng, "d", 2, 8)
        duel = Duel(att, dfd)
        generic = expectimax(FightState.start(duel), FightKeys(duel), tol=FIGHT_TOL).value
        sol = solve_fight(att, dfd)
        layered = sum(
            p * np.array([t[0], t[1], t[0] == 0, t[1] == 0, t[2], t[3]], float)
            for t, p in sol.terminals.items()
        )
        np.testing.assert_allclose(generic, layered, rtol=0, atol=1e-12, err_msg=f"{att} {dfd}")


def random_spec(rng: random.Random, i: int) -> ShotSpec:
    rules = WeaponRules(
        lethal=rng.choice([5, 6]),
        ap=rng.choice([0, 1]),
        piercing=rng.choice([0, 1]),
        **{k: rng.random() < 0.35 for k in ("rending", "balanced", "ceaseless", "relentless")},
    )
    return ShotSpec(
        f"attack {i}",
        "shooter",
        dice=rng.randint(1, 2),
        bs=rng.randint(2, 5),
        normal=rng.randint(1, 3),
        critical=rng.randint(2, 5),
        rules=rules,
        mw_per_crit=rng.choice([0, 0, 1]),
        df=rng.randint(1, 2),
        sv=rng.randint(2, 5),
        invulnerable=rng.choice([None, 4]),
        cover=rng.random() < 0.4,
    )


@pytest.mark.parametrize("seed", range(3))
def test_shooting_equals_expectimax(seed):
    """One or two shooting attacks: both sides' values equal the generic solver's, and the
    exact forward pass under the policy reaches the attacker's value."""
    rng = random.Random(200 + seed)
    for _ in range(3):
        specs = [random_spec(rng, i) for i in range(rng.randint(1, 2))]
        w0 = rng.randint(1, 5)
        objectives = (rng.choice(["damage", "kill"]), rng.choice(["damage", "survival"]))
        seq = Sequence(tuple(specs), w0, *objectives)
        generic = expectimax(ShootingState.start(seq), seq.objective).value
        pols = solve_sequence(specs, w0, *objectives)
        assert generic[0] == pytest.approx(pols[0].value_attacker[w0], abs=1e-12)
        assert generic[1] == pytest.approx(pols[0].value_defender[w0], abs=1e-12)
        start = np.zeros(w0 + 1)
        start[w0] = 1.0
        wl = wounds_left(forward(pols, start)["hits"])
        reached = wl[0] if objectives[0] == "kill" else w0 - wl.mean()
        assert reached == pytest.approx(pols[0].value_attacker[w0], abs=1e-12)


def test_fight_dice_cap():
    """12 attack dice a side (the profiles' most) are solved; more are refused with the field."""
    assert MAX_ATTACKS == 12
    Fighter("Nob", 5, 12, 3, 3, 4)
    with pytest.raises(ScenarioError) as e:
        Fighter("Nob", 5, 13, 3, 3, 4)
    assert e.value.field == "Nob.attacks" and "1 to 12" in e.value.message


@pytest.mark.parametrize("seed", range(2))
def test_resolution_lines_walked_at_once_follow_expectimax(seed):
    """``Resolution.lines`` walks every pair of retained dice in lockstep (positions leave the walk
    at different moves): each line must be the moves expectimax plays from that pair alone."""
    rng = random.Random(100 + seed)
    att = random_fighter(rng, "a", 3, 9)
    dfd = random_fighter(rng, "d", 4, 9)
    duel = Duel(att, dfd)
    keys = FightKeys(duel)
    pairs = list(all_starts(att, dfd))
    lines = Resolution(duel, keys).lines(pairs)
    sol = None
    for (a, d), line in zip(pairs, lines, strict=True):
        state = ResolutionState.start(duel, a, d)
        sol = expectimax(state, keys, tol=FIGHT_TOL, solution=sol)
        walked = []
        while state.current_player() != TERMINAL:
            move = sol.policy[state]
            walked.append(f"{SIDES[state.current_player()]} {move.text}")
            state = state.apply(move)
        assert line == walked, (att, dfd, a, d)


def test_shooting_allocation_cache_is_bounded():
    """The allocation options kept across solves (a long-running server solves many attack
    shapes) stay within ``DAMAGE_LISTS_KEPT`` entries, and an entry solved again after being
    dropped is the same."""
    from grimdice.systems.killteam import solve

    keys = ((1, 1, 0, 1), (2, 0, 1, 0))
    first = solve._damage_lists(keys, 3, 2)
    for normal in range(solve.DAMAGE_LISTS_KEPT + 20):  # more distinct shapes than are kept
        solve._damage_lists(keys, 1000, normal)
    info = solve._damage_lists.cache_info()
    assert info.maxsize == solve.DAMAGE_LISTS_KEPT and info.currsize <= solve.DAMAGE_LISTS_KEPT
    again = solve._damage_lists(keys, 3, 2)
    assert again[0] == first[0] and all(
        np.array_equal(a, b) for a, b in zip(again[1:], first[1:], strict=True)
    )
