"""Exact and Monte Carlo engines agree within a stated statistical bound.

Bound (as for 40k): with n trials, every stage's sample mean is within 5 standard errors
(sd/sqrt(n)) of the exact mean, and every outcome's frequency within 5*sqrt(p(1-p)/n) + 2/n of its
exact probability. With fixed seeds the tests are deterministic; a correct engine breaks the
bound with probability far below 1e-4 per scenario.
"""

import pytest

from grimdice.dice import Dist
from tests.agreement import assert_agree
from tests.heresy.helpers import melee, model, run, weapon

N = 30_000
Z = 5.0

CASES = {
    "precision, breaching, gets hot into a mixed squad in cover": (
        [
            weapon(name="bolter", A=2, S=4, AP=5),
            weapon(name="plasma", A=2, S=7, AP=4, rules=["Breaching (4+)", "Gets Hot"]),
            weapon(name="artificer", A=2, S=4, AP=5, rules=["Precision (5+)"]),
        ],
        [
            model(count=4, Sv=3),
            model(name="heavy", count=2, W=2, Sv=2, FNP=5),
            model(name="sgt", W=2, Sv=3, invulnerable=4, character=True),
        ],
        dict(count=2, shooter={"BS": 5, "Sv": 3}, defender={"cover": 4}),
    ),
    "melee: rending, unwieldy fist, precision strikes, eternal warrior": (
        [
            melee(name="claw", rules=["Rending (5+)", "Shred", "Precision (6+)"]),
            melee(name="fist", S="x2", AP=2, rules=["Unwieldy", "Brutal (2)"]),
        ],
        [
            model(count=3, T=4, W=1, Sv=3, FNP=6),
            model(name="champion", T=4, W=3, Sv=2, invulnerable=4, eternal_warrior=True, character=True),
        ],
        dict(count=2, shooter={"A": 3, "WS": 5, "I": 4}, conditions={"charged": True}),
    ),
    "challenge with instant death and poisoned": (
        [melee(name="blade", S=4, rules=["Poisoned (3+)", "Instant Death", "Precision (4+)"])],
        [model(count=4), model(name="praetor", T=5, W=4, Sv=2, invulnerable=4, FNP=5)],
        dict(shooter={"A": 5, "WS": 6}, conditions={"challenge": "praetor"}),
    ),
    "blast, template, twin-linked gets hot against shrouded": (
        [
            weapon(name="frag", A=1, S=4, AP=6, rules=["Blast", "Gets Hot", "Twin-linked"], hits="D3"),
            weapon(name="flamer", A=1, S=4, AP=5, rules=["Template"], hits="D6"),
            weapon(name="rifle", A=3, S=5, AP=None, rules=["Twin-linked"]),
        ],
        [model(count=8, T=3, Sv=5, invulnerable=5, shrouded=4, FNP=6)],
        dict(count=2, shooter={"Sv": 4}, defender={"cover": 5, "heavy": True}),
    ),
    "BS8 rending armourbane against a dreadnought talon": (
        [
            weapon(name="lascannon", A=1, S=9, AP=2, rules=["Armourbane", "Rending (6+)"]),
            weapon(name="autocannon", A=2, S=7, AP=4, rules=["Precision (4+)"]),
        ],
        [
            model(name="contemptor", count=2, T=7, W=6, Sv=2, invulnerable=5),
            model(name="leader", T=7, W=6, Sv=2, invulnerable=5),
        ],
        dict(count=2, shooter={"BS": 8}, defender={"type": "dreadnought"}),
    ),
    "precision target in the middle of the queue, multi-wound, S8 instant death": (
        [
            weapon(name="a", A=3, S=5, AP=4, rules=["Precision (4+)", "Breaching (6+)"]),
            weapon(name="b", A=2, S=8, AP=None),
        ],
        [
            model(name="x", count=2, W=2, Sv=4),
            model(name="mid", W=3, Sv=3, FNP=5),
            model(name="y", count=2, W=1, Sv=5, shrouded=5),
        ],
        dict(count=3, conditions={"precision_target": "mid"}),
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_exact_matches_simulation(name):
    weapons, defenders, kw = CASES[name]
    exact = run(weapons, defenders, **kw)
    sim = run(weapons, defenders, simulate=N, seed=2024, **kw)
    assert list(exact.stages) == list(sim.stages)
    assert_agree(exact.stages, sim.stages, N, Z)
    assert exact.extra.keys() == sim.extra.keys()
    if "gets_hot" in exact.extra:
        for part in ("wounds", "unsaved"):
            e = Dist(exact.extra["gets_hot"][part]["pmf"])
            s = Dist(sim.extra["gets_hot"][part]["pmf"])
            assert_agree({part: e}, {part: s}, N, Z)


def test_simulation_is_reproducible_from_seed():
    weapons, defenders, kw = CASES["precision, breaching, gets hot into a mixed squad in cover"]
    a = run(weapons, defenders, simulate=2000, seed=7, **kw)
    b = run(weapons, defenders, simulate=2000, seed=7, **kw)
    c = run(weapons, defenders, simulate=2000, seed=8, **kw)
    assert a.to_json() == b.to_json()
    assert a.to_json() != c.to_json()


def test_the_monte_carlo_counts_every_save_re_roll_and_mitigation_die_it_reads():
    """``Outcomes.tally``: per wound, the failed save (low bits) and the dice rolled (above
    ``TALLY``): the save die, the Heavy re-roll wherever the first save failed (even when the re-roll
    passes), the Feel No Pain die wherever the save failed. Blast at AP 5 into Sv 3+ (re-rolled:
    Heavy), FNP 5+: faces (re-roll, save) = (5, 2) are 2 dice, saved; (2, 2) 3 dice, failed; (5, 5) 1."""
    from grimdice.io.scenario import validate
    from grimdice.systems.heresy.profiles import Scenario
    from grimdice.systems.heresy.rolls import WOUND
    from grimdice.systems.heresy.simulate import TALLY, Outcomes
    from grimdice.systems.heresy.units import resolve
    from tests.heresy.helpers import scenario

    def tally(sc):
        target, groups = resolve(validate(Scenario, sc))
        t = Outcomes.of(target, groups[0]).tally.reshape(-1, 3, 6, 6, 6)[0, WOUND]
        return lambda b, a, c: (int(t[b - 1, a - 1, c - 1]) >> TALLY, int(t[b - 1, a - 1, c - 1]) & 0xFFFF)

    heavy = tally(scenario(weapon(S=4, AP=5, rules=["Blast"]), model(Sv=3, FNP=5), defender={"heavy": True}))
    assert heavy(5, 2, 1) == (2, 0)
    assert heavy(2, 2, 6) == heavy(2, 2, 1) == (3, 1)
    assert heavy(5, 5, 1) == heavy(1, 5, 1) == (1, 0)
    plain = tally(scenario(weapon(S=4, AP=5), model(Sv=3)))
    assert plain(1, 2, 1) == (1, 1) and plain(1, 3, 1) == (1, 0)


@pytest.mark.parametrize("name", list(CASES))
def test_dice_counts_are_flushed_before_the_tally_word_fills(name, monkeypatch):
    """A strike counts its dice above ``TALLY`` bits of an int32 word per trial, flushed into the
    sampler's count every ``TallyWords.room(3 * Brutal)`` wounds. With a word holding only 7 dice
    above its low bits (``TALLY`` 28), the seeded run and the dice it counts are the same as with
    the real word (without the flushes the small word overflows)."""
    from grimdice.engine.options import RunOptions
    from grimdice.systems.heresy import simulate as sim

    weapons, defenders, kw = CASES[name]
    counted: list[int] = []
    run_trials = RunOptions.run

    def counting(self, trial):
        tally = run_trials(self, trial)
        counted.append(tally.dice)
        return tally

    monkeypatch.setattr(RunOptions, "run", counting)
    wide = run(weapons, defenders, simulate=3000, seed=5, **kw).to_json()
    monkeypatch.setattr(sim, "TALLY", 28)
    narrow = run(weapons, defenders, simulate=3000, seed=5, **kw).to_json()
    assert narrow == wide
    assert counted[0] == counted[1] > 0
