"""VOLLEY FIRE at several targets (rules-crusade IX): "Then you may apply the roll to any target
within the declared range." Reading ``volley_targets`` (unverified): each "2 dice" roll goes, once
rolled, to the living target the attacker chooses (summed P killed, P KO+, damage, fewer fails)."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import RULES, VOLLEY_EXPLODE
from tests.agreement import assert_agree

from .helpers import close, gun, model, one_hit, run, shoot

WHITE = (0, 0, 0, 0, 1, 2)


def volley(n: int, targets, effects=("S",), **kw):
    return shoot(
        [gun("2W", list(effects), name="lasgun")], model(name="marine"), volley=n, targets=targets, **kw
    )


def test_two_one_hit_targets_by_hand():
    # 1 model, 2 whites: one scoring die 4/9 (its face 1 or 2 evenly + the blank re-rolled), both
    # 2/18 = 1/9 (a kept pair, total >= 2). Target 1 is stunned: a total of 1 grazes it to KO (a
    # KO more than stunning target 0); a total >= 2 kills either (a tie: the first, target 0).
    res = run(volley(1, [model(name="a"), model(name="b", condition="stunned")]))
    one = Fraction(4, 9) * Fraction(1, 2) * Fraction(4, 6)  # 1 + a blank
    kill = Fraction(4, 9) - one + Fraction(1, 9)
    a, b = res.targets["0: a"].extra["end_state"], res.targets["1: b"].extra["end_state"]
    assert close(a["killed"], kill) and kill == Fraction(11, 27) and close(a["unharmed"], 1 - kill)
    assert close(b["ko"], one) and one == Fraction(4, 27) and close(b["stunned"], 1 - one)
    assert close(res["models_destroyed"][1], kill)
    assert close(res.extra["aim"]["1: b"], one) and close(res.extra["aim"]["0: a"], kill)
    assert RULES.note("volley_targets") in res.notes


def _matchings(faces: tuple[int, ...]):
    """Every way to pair ``faces`` with each other (an odd one left out)."""
    if len(faces) < 2:
        yield ()
        return
    if len(faces) % 2:
        for i in range(len(faces)):
            yield from _matchings(faces[:i] + faces[i + 1 :])
        return
    first, rest = faces[0], faces[1:]
    for j in range(len(rest)):
        for m in _matchings(rest[:j] + rest[j + 1 :]):
            yield ((first, rest[j]), *m)


def _brute(n: int, armours: tuple[int, ...], starts: tuple[str, ...]) -> dict[str, Fraction]:
    """Every face of the big roll; every choice of the scoring dice paired with blanks and of how the
    others pair; every order of the pairs and every living target for each rolled total; 1-hit
    targets, graze S (stunned + stun = KO), a KO'd model changes only when killed."""

    def key(v):
        return (v[0], v[1], v[2], -v[3])

    @cache
    def play(pairs, states):  # -> (sum killed, sum KO+, damage, fails)
        if not pairs or all(s == "killed" for s in states):
            return (
                Fraction(sum(s == "killed" for s in states)),
                Fraction(sum(s in ("ko", "killed") for s in states)),
                Fraction(0),
                Fraction(0),
            )
        opts = []
        for i, (kind, f) in enumerate(pairs):
            rest = pairs[:i] + pairs[i + 1 :]
            faces = [(f[0], w) for w in WHITE] if kind == "re" else [f]
            tot = [Fraction(0)] * 4
            for a, b in faces:
                aims = []
                for t, s in enumerate(states):
                    if s == "killed":
                        continue
                    s2, d = one_hit(s, a + b - armours[t])
                    v = play(rest, (*states[:t], s2, *states[t + 1 :]))
                    aims.append((v[0], v[1], v[2] + d, v[3] + (a == 2 and b == 2)))
                best = max(aims, key=key)
                tot = [x + y / len(faces) for x, y in zip(tot, best, strict=True)]
            opts.append(tuple(tot))
        return max(opts, key=key)

    out = [Fraction(0)] * 4
    for big in product(WHITE, repeat=2 * n):
        scoring = tuple(f for f in big if f)
        blanks = len(big) - len(scoring)
        opts = []
        for chosen in combinations(range(len(scoring)), min(len(scoring), blanks)):
            rerolled = tuple(("re", (scoring[i], None)) for i in chosen)
            others = tuple(f for i, f in enumerate(scoring) if i not in chosen)
            for m in _matchings(others):
                opts.append(play(tuple(sorted(rerolled + tuple(("kept", p) for p in m))), starts))
        best = max(opts, key=key)
        out = [x + y / 6 ** len(big) for x, y in zip(out, best, strict=True)]
    return dict(zip(("killed", "ko_or_killed", "dmg", "fails"), out, strict=True))


@pytest.mark.parametrize(
    "n, armours, starts",
    [
        (1, (0, 0), ("unharmed", "stunned")),
        (2, (0, 1), ("unharmed", "stunned")),
        (2, (1, 0), ("ko", "unharmed")),
    ],
)
def test_against_a_literal_brute_force(n, armours, starts):
    targets = [
        model(name=f"t{i}", armour=a, condition=s)
        for i, (a, s) in enumerate(zip(armours, starts, strict=True))
    ]
    res = run(volley(n, targets))
    want = _brute(n, armours, starts)
    ends = [r.extra["end_state"] for r in res.targets.values()]
    assert close(res["models_destroyed"].mean(), want["killed"])
    assert close(sum(e["ko"] + e["killed"] for e in ends), want["ko_or_killed"])
    assert close(res["damage"].mean(), want["dmg"])
    assert close(res["fail"].mean(), want["fails"])


def test_exact_and_monte_carlo_agree():
    """Cover, range, a force field and 2 hits: Monte Carlo plays the same solved policy."""
    targets = [
        {**model(name="sarge", hits=2, abilities=["+F"]), "cover": "full"},
        {**model(name="scout", armour=1, condition="wounded"), "range": 13},
    ]
    sc = volley(2, targets)
    ex, mc = run(sc), run(sc, simulate=4000, seed=5)
    keys = ("damage", "models_destroyed", "fail", "rolls")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 4000)
    for name in ex.targets:
        sub = ("condition", "hits_left", "damage")
        assert_agree({k: ex.targets[name][k] for k in sub}, {k: mc.targets[name][k] for k in sub}, 4000)


def test_rerolls_and_large_volleys_are_refused():
    targets = [model(name="a"), model(name="b")]
    with pytest.raises(ScenarioError, match=r"^volley: .*re-rolls"):
        run(volley(1, targets, effects=("S", "R")))
    big = [model(name=f"m{i}", hits=3) for i in range(3)]
    with pytest.raises(ScenarioError, match=r"^volley: .*states"):
        run(volley(12, big))


def test_explode_with_volley_fire_is_noted_or_refused():
    """VIII EXPLODE's attack on the bearer is not resolved in a volley: a result that may explode
    says so, and models listed near the bearer are refused rather than ignored."""
    plain = run(volley(1, [model(name="a"), model(name="b")]))
    assert VOLLEY_EXPLODE not in plain.notes
    boom = run(volley(1, [model(name="a"), model(name="b")], effects=("S", "EXPLODE")))
    assert boom.extra["fail_effects"]["effects"]["explode"] > 0 and VOLLEY_EXPLODE in boom.notes
    with pytest.raises(ScenarioError) as err:
        run(volley(1, [], effects=("S", "EXPLODE"), explode_near=[model(name="c")]))
    assert err.value.field == "explode_near"
