"""The shared allocation chain on its own, against hand-computed fractions."""

from __future__ import annotations

from fractions import Fraction as F
from math import comb

import numpy as np
import pytest

from grimdice.dice import Dist
from grimdice.engine.allocation import Chain, Hold, Queue
from grimdice.errors import ScenarioError


def test_queue_reads_the_next_model_and_its_wounds_left_from_one_number():
    q = Queue((2, 1, 3))
    assert q.total == 6 and q.states == 7
    assert [q.at(c) for c in range(7)] == [(0, 2), (0, 1), (1, 1), (2, 3), (2, 2), (2, 1), None]
    assert list(q.destroyed()) == [0, 0, 1, 2, 2, 2, 3]


def half_saved(kind, queue, model, left):
    """Saved on 1/2, else one wound lost; once the unit is gone every token still fails its save 1/2."""
    if queue is None:
        return {(0, 0): 0.5, (0, 1): 0.5}
    return {(0, 0): 0.5, (1, 1): 0.5}


def one_queue(wounds, law=half_saved, max_unsaved=4):
    return Chain(
        [Queue(wounds)], lambda kind, s: 0 if s[0] < sum(wounds) else None, law, max_unsaved=max_unsaved
    )


def test_two_tokens_on_a_wounded_model_by_hand():
    ch = one_queue((2, 1))
    ch.absorb("t", Dist.constant(2))
    # c = failed saves: 0 w.p. 1/4, 1 w.p. 1/2, 2 w.p. 1/4 (the W2 model destroyed, 2 wounds lost)
    assert np.allclose(ch.grid(), [0.25, 0.5, 0.25, 0.0])
    assert ch.unsaved().allclose(Dist([0.25, 0.5, 0.25]))


def test_random_number_of_tokens_by_horner():
    ch = one_queue((1,))
    ch.absorb("t", Dist([F(1, 3)] * 3))  # 0, 1 or 2 tokens
    # destroyed unless every token is saved: 1/3 + 1/3 * 1/2 + 1/3 * 1/4 = 7/12 survive
    assert ch.grid()[0] == pytest.approx(float(F(7, 12)), abs=1e-15)
    # failed saves count on after the unit is gone (the law's left-over row): u = Binomial(n, 1/2)
    expected = [F(1, 3) + F(1, 6) + F(1, 12), F(1, 6) + F(1, 6), F(1, 12)]
    assert ch.unsaved().allclose(Dist([float(x) for x in expected]), atol=1e-15)


def test_routing_between_two_queues_and_the_state_grid():
    # queue 0: one W1 model, queue 1: one W2 model; kind "p" goes to queue 1 while it lives
    def route(kind, s):
        if kind == "p" and s[1] < 2:
            return 1
        if s[0] < 1:
            return 0
        return 1 if s[1] < 2 else None

    def law(kind, queue, model, left):
        return {(0, 0): 1.0} if queue is None else {(1, 1): 1.0}  # always one wound lost

    ch = Chain([Queue((1,)), Queue((2,))], route, law, max_unsaved=None)
    ch.absorb("p", Dist.constant(1))
    ch.absorb("n", Dist.constant(2))
    g = ch.grid()
    assert g.shape == (2, 3) and g[1, 2] == 1.0  # p: queue 1 -> 1; n: queue 0 -> 1, then queue 1 -> 2


def test_held_tokens_are_allocated_after_the_others():
    # models W1 then W2; "now" tokens deal 1, held tokens deal 2 (excess lost); one attack = 1 + 1
    def law(kind, queue, model, left):
        if queue is None:
            return {(0, 1): 1.0}
        return {(min(1 if kind == "now" else 2, left), 1): 1.0}

    ch = one_queue((1, 2), law, max_unsaved=None)
    ch.absorb_attacks("now", np.array([[0.0, 0.0], [0.0, 1.0]]), Dist.constant(1), Hold())
    assert ch.held == 1
    ch.release("later")
    assert ch.held == 0 and ch.grid()[3] == 1.0  # 1 on the W1 model, then 2 on the W2 model
    # the other order would have lost the excess: 2 on the W1 model (1 lost), 1 on the W2 model
    ch2 = one_queue((1, 2), law, max_unsaved=None)
    ch2.absorb("later", Dist.constant(1))
    ch2.absorb("now", Dist.constant(1))
    assert ch2.grid()[2] == 1.0


def test_thinned_and_saturated_held_counts_equal_the_full_count():
    # held tokens: nothing w.p. 1/3, else one wound; W2 unit, so more than 2 useful tokens change nothing
    def law(kind, queue, model, left):
        if queue is None:
            return {(0, 1): 1.0}
        if kind == "useful":
            return {(1, 1): 1.0}
        return {(0, 1): 1 / 3, (1, 1): 2 / 3}

    table = np.array([[0.25, 0.5, 0.25]])  # per attack 0, 1 or 2 held tokens
    full = one_queue((2,), law, max_unsaved=None)
    full.absorb_attacks("none", table, Dist.constant(3), Hold())
    full.release("any")
    thin = one_queue((2,), law, max_unsaved=None)
    thin.absorb_attacks("none", table, Dist.constant(3), Hold(advance=2 / 3, cap=2))
    assert thin.state.shape[0] == 3  # the held axis: 0, 1, 2+ useful tokens
    thin.release("useful")
    assert np.allclose(full.grid(), thin.grid(), atol=1e-15)
    # by hand: P(no useful token) = E[(1/3)^N], N ~ Binomial(6, 1/2) -> ((1 + 1/3) / 2)^6 = (2/3)^6
    assert full.grid()[0] == pytest.approx((2 / 3) ** 6, abs=1e-15)


def test_held_tokens_counted_as_failed_saves_at_once():
    ch = one_queue((5,), max_unsaved=3)
    assert not ch.absorb_attacks("t", np.array([[0.0, 1.0]]), Dist.constant(2), Hold(cap=0, unsaved=True))
    assert ch.held == 0
    assert ch.unsaved()[2] == 1.0 and ch.grid()[0] == 1.0  # cap 0: nothing held, two failed saves


def test_too_large_is_refused_with_the_estimate():
    with pytest.raises(ScenarioError, match="use --simulate N"):
        Chain([Queue((1,) * 5000)], lambda k, s: 0, half_saved, max_unsaved=None)
    ch = one_queue((10,) * 10)
    with pytest.raises(ScenarioError, match=r"about 1\.0e\+12 operations.*use --simulate N"):
        ch.refuse_over(1e12, 4e10, "test")


# ---------------------------------------------------------------------- fast paths vs slow paths
def fnp_law(kind, queue, model, left):
    """Saved on 1/3; else D3 damage, each point ignored on 1/2 (excess lost); the left-over row
    counts failed saves at 2/3."""
    if queue is None:
        return {(0, 0): 1 / 3, (0, 1): 2 / 3}
    out: dict[tuple[int, int], float] = {(0, 0): 1 / 3}
    for d in (1, 2, 3):
        for k in range(d + 1):  # k of the d points get through
            key = (min(k, left), 1)
            out[key] = out.get(key, 0.0) + 2 / 3 * 1 / 3 * comb(d, k) * 0.5**d
    return out


def mixed_law(kind, queue, model, left):
    """Model 0 and 2 save on 1/2, model 1 on 1/6 (so saves differ between states)."""
    ps = 1 / 6 if model == 1 else 0.5
    if queue is None:
        return {(0, 0): ps, (0, 1): 1 - ps}
    out = {(0, 0): ps, (1, 1): (1 - ps) / 2}
    out[(min(2, left), 1)] = out.get((min(2, left), 1), 0.0) + (1 - ps) / 2  # 2 damage, excess lost
    return out


@pytest.mark.parametrize("wounds", [(3,) * 6, (3,) * 60])  # dense (61 states) and banded (181 states)
@pytest.mark.parametrize("counted", [False, True])
@pytest.mark.parametrize("law", [fnp_law, mixed_law])
def test_dropping_tokens_that_change_nothing_gives_the_same_law(wounds, counted, law):
    """``absorb_each`` thins out the tokens that leave every state as it is (the faster path);
    ``absorb`` of the full count is the slower path it replaces."""
    per_attack, attacks = (
        Dist([0.4, 0.5, 0.1]),
        Dist([0.0, 0.5, 0.0, 0.5]) + 40,
    )  # 0-2 tokens, 40 or 42 attacks
    chains = []
    for fast in (False, True):
        ch = Chain(
            [Queue(wounds)],
            lambda kind, s: 0 if s[0] < sum(wounds) else None,
            law,
            max_unsaved=100 if counted else None,
        )
        if fast:
            ch.absorb_each("t", per_attack, attacks)
        else:
            ch.absorb("t", per_attack.sum_of(attacks))
        chains.append(ch)
    slow, fast = chains
    assert fast.idle("t") > 0  # the faster path did drop tokens
    assert np.allclose(fast.grid(), slow.grid(), rtol=0, atol=1e-14)
    assert fast.unsaved().allclose(slow.unsaved(), atol=1e-14)
    assert fast.grid().sum() == pytest.approx(1.0, abs=1e-12)


def test_model_types_ask_each_law_once_and_change_nothing():
    calls = []

    def law(kind, queue, model, left):
        calls.append((model, left))
        return half_saved(kind, queue, model, left)

    plain = one_queue((2,) * 5, max_unsaved=None)
    typed = Chain([Queue((2,) * 5, (0,) * 5)], lambda k, s: 0 if s[0] < 10 else None, law, max_unsaved=None)
    for ch in (plain, typed):
        ch.absorb("t", Dist.binomial(8, 0.5))
    assert np.array_equal(plain.grid(), typed.grid())
    assert len(calls) == 3  # (model 0, 2 left), (model 0, 1 left), the destroyed unit


def test_attacks_that_change_nothing_are_thinned_out_with_the_same_law(monkeypatch):
    """``absorb_attacks`` drops the attacks that give no token (the faster path): the same law as
    folding every attack (the slower path, the thinning switched off)."""
    import grimdice.engine.allocation.chain as allocation

    table = np.array([[0.5, 0.1], [0.3, 0.1]])  # (now, held) tokens of one attack
    results = []
    for thin in (True, False):
        if not thin:
            monkeypatch.setattr(allocation, "_acting_attacks", lambda tables, attacks: (tables, attacks))
        ch = one_queue((2, 1, 2), law=mixed_law, max_unsaved=30)
        assert ch.absorb_attacks("now", table, Dist.constant(12), Hold(unsaved=True))
        ch.release("held", count=False)
        results.append(ch)
    assert np.allclose(results[0].grid(), results[1].grid(), rtol=0, atol=1e-14)
    assert results[0].unsaved().allclose(results[1].unsaved(), atol=1e-14)
