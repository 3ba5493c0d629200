"""The game interface and the expectimax solver, on games small enough to solve by hand."""

from dataclasses import dataclass
from fractions import Fraction

import numpy as np
import pytest

from grimdice.engine.game import CHANCE, TERMINAL, expectimax, lex_better, lex_better_rows


@dataclass(frozen=True)
class Pig:
    """A one-turn push-your-luck game: roll a D6 up to ``left`` more times; a 1 scores nothing.

    Player 0 maximises the expected score; stopping is listed first (the tie-break)."""

    total: int = 0
    left: int = 2
    rolling: bool = False
    bust: bool = False

    def current_player(self):
        if self.bust or (self.left == 0 and not self.rolling) or self.total < 0:
            return TERMINAL
        return CHANCE if self.rolling else 0

    def legal_actions(self):
        return ["stop", "roll"]

    def chance_outcomes(self):
        return [(f, 1 / 6) for f in range(1, 7)]

    def apply(self, a):
        if self.rolling:
            if a == 1:
                return Pig(0, 0, False, True)
            return Pig(self.total + a, self.left - 1, False)
        if a == "stop":
            return Pig(-1 - self.total, 0)  # terminal marker keeping the score
        return Pig(self.total, self.left, True)

    def returns(self):
        score = 0 if self.bust else (-1 - self.total if self.total < 0 else self.total)
        return [score]


def test_expectimax_solves_a_small_game_by_hand():
    sol = expectimax(Pig(), lambda p, v: (v[0],))
    # one roll: E = (2+3+4+5+6)/6 = 10/3; after a roll of t the second roll adds 10/3 - t/6 > 0
    # exactly when t < 20, always: E = sum_t (t + 10/3 - t/6)/6 over t=2..6 = 50/9 + 10/3*5/6...
    exp = Fraction(0)
    for t in range(2, 7):
        exp += Fraction(1, 6) * max(Fraction(t), Fraction(5, 6) * t + Fraction(20, 6))
    assert sol.value[0] == pytest.approx(float(exp))
    assert sol.policy[Pig()] == "roll"
    assert sol.policy[Pig(6, 1)] == "roll"  # 6 < 20


def test_ties_go_to_the_first_action_and_lex_keys_compare_with_tolerance():
    assert lex_better([1.0, 2.0], [1.0 + 1e-15, 1.0])
    assert not lex_better([1.0], [1.0])
    sol = expectimax(Pig(0, 1), lambda p, v: (0.0,))  # indifferent: the first action, "stop"
    assert sol.policy[Pig(0, 1)] == "stop"


def test_play_follows_the_policy():
    sol = expectimax(Pig(), lambda p, v: (v[0],))
    rng = np.random.default_rng(0)
    end = sol.play(Pig(), lambda outs: outs[rng.integers(len(outs))][0])
    assert end.current_player() == TERMINAL


def test_expectimax_extends_an_earlier_solution():
    first = expectimax(Pig(0, 1), lambda p, v: (v[0],))
    known = len(first.values)
    again = expectimax(Pig(), lambda p, v: (v[0],), solution=first)
    assert again is first and again.root == Pig()
    assert again.value == pytest.approx(expectimax(Pig(), lambda p, v: (v[0],)).value)
    assert len(again.values) >= known


def test_lex_better_rows_agrees_with_lex_better():
    rows = [
        ([1.0, 2.0], [1.0 + 1e-15, 1.0]),
        ([1.0], [1.0]),
        ([0.0, 5.0], [1.0, 0.0]),
        ([2.0, 0.0], [1.0, 9.0]),
    ]
    got = lex_better_rows(np.array([a for a, _ in rows[2:]]), np.array([b for _, b in rows[2:]]))
    assert list(got) == [lex_better(a, b) for a, b in rows[2:]] == [False, True]
    assert list(lex_better_rows(np.array([[1.0, 2.0]]), np.array([[1.0 + 1e-15, 1.0]]))) == [True]
