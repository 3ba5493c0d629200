"""The sampled queues (engine.allocation.sampled) and tally words (engine.packing) against a plain
per-trial reference, up to the largest units and dice counts the systems allow."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grimdice.engine.allocation.sampled import NO_MODEL, SampledUnit
from grimdice.engine.packing import TallyWords, pack
from grimdice.systems.heresy.units import MAX_TOTAL_ATTACKS as HERESY_HITS
from grimdice.systems.wh40k.profiles import MAX_MODELS, MAX_WOUNDS

BRUTAL_MAX = 10  # Brutal (X): X is 1 to 10 (the Heresy rule table's bounds)
DICE_A_WOUND = 3  # the save die, the Heavy re-roll and the Mitigation die


def reference(wounds: list[int], losses: list[int]) -> tuple[int, int, int]:
    """(models removed, wounds left on the next model, wounds lost) after ``losses`` in order, one
    model at a time: a loss takes at most the wounds its model has left; none once all are gone."""
    at, left, lost = 0, wounds[0] if wounds else 0, 0
    for x in losses:
        if at == len(wounds):
            break
        taken = min(x, left)
        left -= taken
        lost += taken
        if left == 0:
            at += 1
            left = wounds[at] if at < len(wounds) else 0
    return at, left, lost


queues = st.lists(st.integers(1, MAX_WOUNDS), min_size=1, max_size=MAX_MODELS)
losses = st.lists(st.integers(0, 3 * MAX_WOUNDS), max_size=60)


@settings(max_examples=60, deadline=None)
@given(queue=queues, per_trial=st.lists(losses, min_size=1, max_size=6), everywhere=st.booleans())
def test_a_sampled_queue_is_the_reference_in_every_trial(queue, per_trial, everywhere):
    """Each trial takes its own losses in order (the trials holding a loss at step ``j`` by index,
    or every trial at once with 0 for the others): removed models, wounds left and lost as in the
    reference, whatever the queue's size up to 200 models of 100 wounds."""
    trials = len(per_trial)
    unit = SampledUnit((queue,), trials, extra=1)
    for j in range(max(map(len, per_trial))):
        amount = np.array([x[j] if j < len(x) else 0 for x in per_trial], dtype=np.int64)
        at, left = unit.queue(0)
        amount *= at < len(queue)  # a system routes no wound to a queue with no model left
        if everywhere:
            unit.take_everywhere(0, amount)
        else:
            k = np.flatnonzero(amount)
            unit.take(0, k, amount[k])
    for t, xs in enumerate(per_trial):
        at, left, lost = reference(queue, xs)
        assert unit.destroyed(0)[t] == at
        assert unit.damage(0)[t] == lost
        assert unit.queue(0)[1][t] == (left if at < len(queue) else NO_MODEL)
    assert not unit.extra(0).any()  # the extra rows are the system's own


def test_two_queues_in_one_state_array_follow_a_reordering():
    """Reordering the trials moves every row of every queue with them."""
    unit = SampledUnit(([2, 2], [3]), 3, extra=1)
    unit.take(0, np.array([0, 2]), np.array([2, 1]))
    unit.take(1, np.array([1]), 3)
    unit.extra(0)[:] = [7, 8, 9]
    unit.reorder(np.array([2, 0, 1]))
    assert unit.destroyed(0).tolist() == [0, 1, 0] and unit.damage(0).tolist() == [1, 2, 0]
    assert unit.destroyed(1).tolist() == [0, 0, 1] and unit.damage(1).tolist() == [0, 0, 3]
    assert unit.extra(0).tolist() == [9, 7, 8]


def test_the_largest_units_fit_the_state_words():
    """200 models of 100 wounds each, every one removed by the largest loss: no overflow."""
    unit = SampledUnit(([MAX_WOUNDS] * MAX_MODELS,), 2)
    for _ in range(MAX_MODELS):
        unit.take_everywhere(0, np.array([127, MAX_WOUNDS], dtype=np.int32))
    assert unit.destroyed(0).tolist() == [MAX_MODELS, MAX_MODELS]
    assert unit.damage(0).tolist() == [MAX_MODELS * MAX_WOUNDS] * 2


@settings(max_examples=15, deadline=None)
@given(
    brutal=st.integers(1, BRUTAL_MAX),
    low_bits=st.sampled_from([16, 24, 28]),
    seed=st.integers(0, 2**32 - 1),
)
def test_tally_words_count_the_most_dice_a_strike_can_roll(brutal, low_bits, seed):
    """Heresy's largest strike: 1000 hits, each Brutal (10) parts of a failed save (low count) and
    up to three dice (upper count), flushed every ``room(3 x Brutal)`` wounds as the engine does:
    the totals are the int64 sums, whatever the word's split (a word too small for one wound's dice
    is refused)."""
    rng = np.random.default_rng(seed)
    trials = 4
    words = TallyWords(trials, low_bits)
    if DICE_A_WOUND * brutal > words.high_max:  # not even one wound fits: refused, not overflowed
        with pytest.raises(ValueError, match="does not fit"):
            words.room(DICE_A_WOUND * brutal)
        return
    failed = rng.integers(0, 2, size=(HERESY_HITS, brutal, trials))
    dice = rng.integers(0, DICE_A_WOUND + 1, size=(HERESY_HITS, brutal, trials))
    dice[-1] = DICE_A_WOUND  # the last wound rolls every die it can
    per_flush = words.room(DICE_A_WOUND * brutal)
    counted = 0
    for n in range(1, HERESY_HITS + 1):
        for i in range(brutal):
            words.add(pack(failed[n - 1, i], dice[n - 1, i], low_bits))
        assert (words.words >= 0).all()
        if n % per_flush == 0:
            counted += words.flush()
    counted += words.flush()
    assert counted == int(dice.sum())
    assert words.low().tolist() == failed.sum(axis=(0, 1)).tolist()
    assert HERESY_HITS * BRUTAL_MAX < 1 << 16  # the most failed saves a trial can count: in the low bits


def test_trials_holding_more_tokens_come_first_and_go_back_in_order():
    """Step k of the tokens is the first holding[k] columns; the trials go back to their order."""
    unit = SampledUnit(([1],), 5, extra=1)
    unit.extra(0)[:] = [10, 11, 12, 13, 14]  # the trial's number
    holding = unit.holding_first(np.array([1, 0, 3, 1, 2]), 3)
    assert holding.tolist() == [5, 4, 2, 1]
    assert unit.extra(0).tolist() == [12, 14, 10, 13, 11]  # most first, ties in trial order
    holding = unit.holding_first(np.array([0, 2, 0, 0, 1]), 2)  # counts in trial order again
    assert holding.tolist() == [5, 2, 1] and unit.extra(0).tolist() == [11, 14, 12, 10, 13]
    unit.in_trial_order()
    assert unit.extra(0).tolist() == [10, 11, 12, 13, 14]
