"""VOLLEY FIRE (rules-crusade IX): "roll all of the white dice together in one big roll. For each
die that rolls something, you may reroll another one of the dice along with it to generate a "2
dice" roll ... You may reroll each die only once." Reading ``volley_fire`` (unverified): scoring
dice pair with blanks that are re-rolled, extra scoring dice with each other, the attacker choosing
the pairing and the order (beyond a bound without re-rolls: die order, ``volley_die_order``)."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import combinations, product

import pytest

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import RULES
from tests.agreement import assert_agree

from .helpers import close, end, gun, model, one_hit, run, shoot

WHITE = (0, 0, 0, 0, 1, 2)


def volley(n: int, defender=None, dice: str = "2W", **kw):
    return shoot([gun(dice, ["S"], name="lasgun")], defender or model(name="marine"), volley=n, **kw)


def test_one_model_by_hand():
    # 2 whites: no scoring die 4/9 (no roll); one 4/9 (its face, 1 or 2, + the blank re-rolled);
    # both 1/9 (one kept pair, total >= 2). Armour 0, 1 hit: total >= 2 kills, 1 grazes (stun).
    res = run(volley(1, model(name="marine", condition="stunned")))
    kill = Fraction(4, 9) * (Fraction(1, 2) + Fraction(1, 2) * Fraction(2, 6)) + Fraction(1, 9)
    ko = Fraction(4, 9) * Fraction(1, 2) * Fraction(4, 6)  # 1 + blank: a graze; stunned + stun = KO
    assert close(end(res, "killed"), kill) and kill == Fraction(11, 27)
    assert close(end(res, "ko"), ko)
    assert close(res["rolls"][0], Fraction(4, 9)) and close(res["rolls"][1], Fraction(5, 9))
    assert RULES.note("volley_fire") in res.notes


def _oracle(n: int, armour: int, penalty: int) -> dict[str, Fraction]:
    """Every face of the big roll and of the re-rolls, paired literally in die order; a 1-hit target
    (graze = stun, stunned + stun = KO, a KO'd model changes only when killed)."""
    out: dict[str, Fraction] = defaultdict(Fraction)
    for big in product(range(6), repeat=2 * n):
        faces = [WHITE[i] for i in big]
        blanks = [i for i, f in enumerate(faces) if f == 0]
        scorers = [i for i, f in enumerate(faces) if f > 0]
        n_re = min(len(scorers), len(blanks))
        for again in product(range(6), repeat=n_re):
            rolls = [faces[scorers[j]] + WHITE[again[j]] for j in range(n_re)]
            rest = scorers[n_re:]
            rolls += [faces[rest[j]] + faces[rest[j + 1]] for j in range(0, len(rest) - 1, 2)]
            state = "unharmed"
            for total in rolls:
                dmg = total - penalty - armour
                if state == "killed" or dmg <= 0:
                    continue
                if dmg >= 2:
                    state = "killed"
                elif state == "unharmed":
                    state = "stunned"
                elif state == "stunned":
                    state = "ko"
            out[state] += Fraction(1, 6 ** (2 * n + n_re))
    return out


@pytest.mark.parametrize("n, armour, rng", [(1, 0, 0), (2, 0, 0), (2, 1, 13)])
def test_against_a_literal_brute_force(n, armour, rng):
    """Without re-rolls the attacker still chooses the pairing and the order (reading
    ``volley_fire``), as with them: the exact volley is the literal brute force over every face,
    pairing and order (no re-roll, no jink); range 13 takes 1 off like 1 more armour."""
    res = run(volley(n, model(name="marine", armour=armour), range=rng))
    want = _brute_rerolls(n, armour + rng // 12, False, False)
    assert close(end(res, "killed"), want["killed"])
    assert close(end(res, "ko"), want["ko"])
    assert close(res["damage"].mean(), want["dmg"])
    assert close(res["fail"].mean(), want["fails"])
    assert "rerolls" not in res.extra


def test_the_pairing_matters_without_rerolls():
    """Against 2 effective armour the best pairing kills more often than pairing in die order (the
    die-order oracle): e.g. 2, 2, 1 and a blank: 2+2 kept kills, 1 + the blank re-rolled."""
    best = end(run(volley(2, model(name="marine", armour=1), range=13)), "killed")
    die_order = _oracle(2, 1, 1)
    assert sum(die_order.values()) == 1
    assert best > float(die_order["killed"]) + 1e-3


def test_beyond_the_bound_the_dice_pair_in_die_order():
    """8 models at a 1-hit target (12 870 states): pairing in die order (reading
    ``volley_die_order``), exact and Monte Carlo alike."""
    sc = volley(8, model(name="marine", armour=3))
    ex, mc = run(sc), run(sc, simulate=3000, seed=2)
    assert RULES.note("volley_die_order") in ex.notes and RULES.note("volley_die_order") in mc.notes
    keys = ("damage", "condition", "fail", "rolls")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 3000)
    assert RULES.note("volley_die_order") not in run(volley(7, model(name="marine"))).notes


def test_exact_and_monte_carlo_agree():
    sc = volley(4, model(name="marine", armour=1, hits=2, abilities=["+F"]), cover="front", range=5)
    ex, mc = run(sc), run(sc, simulate=6000, seed=3)
    keys = ("damage", "models_destroyed", "condition", "hits_left", "fail", "rolls")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 6000)


def test_fails_count_pairs_of_two_maxima():
    # one model: a re-rolled pair fails when the kept face is 2 and the re-roll is 2 (1/2 * 1/6),
    # the kept pair of two scorers when both show 2 (1/4)
    res = run(volley(1))
    assert close(res["fail"][1], Fraction(4, 9) * Fraction(1, 12) + Fraction(1, 9) * Fraction(1, 4))


@pytest.mark.parametrize("dice", ["2W+1", "1W+1R", "3W"])
def test_only_two_white_basic_weapons_volley(dice):
    with pytest.raises(ScenarioError, match=r"^volley: .*2 whites"):
        run(volley(2, dice=dice))


def test_volley_is_shooting():
    with pytest.raises(ScenarioError, match=r"^volley: "):
        run({**volley(2), "action": "melee"})
    # one listed target (reading ``volley_targets``) is the same volley as at the defender
    one = run(volley(2, targets=[model(name="a", condition="stunned")]))
    at = run(volley(2, model(name="a", condition="stunned")))
    assert one.targets["0: a"].extra["end_state"] == pytest.approx(at.extra["end_state"], abs=1e-12)
    assert one["damage"].mean() == pytest.approx(at["damage"].mean(), abs=1e-12)


def test_volley_reroll_by_hand():
    """VIII R on the volley (reading ``volley_rerolls``): one re-roll for the volley, of a die not yet
    re-rolled. 1 model, armour 0, 1 hit, graze S. One scorer (4/9): a 2 kills whatever its partner
    shows; a 1 with a blank partner is only a stun, so the attacker re-rolls the 1 (the partner was
    re-rolled already): a 2 kills (1/6), a 1 stuns, a 0 leaves it unharmed."""
    res = run(shoot([gun("2W", ["S", "R"], name="lasgun")], model(name="m"), volley=1))
    kill = Fraction(4, 9) * (
        Fraction(1, 2) + Fraction(1, 2) * (Fraction(2, 6) + Fraction(4, 6) * Fraction(1, 6))
    ) + Fraction(1, 9)
    assert kill == Fraction(35, 81)  # 33/81 without the re-roll
    assert close(end(res, "killed"), kill)
    assert close(end(res, "stunned"), Fraction(4, 9) * Fraction(1, 2) * Fraction(4, 6) * Fraction(1, 6))
    assert close(sum(res.extra["rerolls"]["attacker"].values()), Fraction(4, 27))
    assert RULES.note("volley_rerolls") in res.notes


def _matchings(rest: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """Every way to pair scoring dice with each other (an odd one left out)."""
    if len(rest) < 2:
        return [[]]
    if len(rest) % 2:
        return [m for i in range(len(rest)) for m in _matchings(rest[:i] + rest[i + 1 :])]
    out = []
    for j in range(1, len(rest)):
        for m in _matchings(rest[1:j] + rest[j + 1 :]):
            out.append([(rest[0], rest[j]), *m])
    return out


def _brute_rerolls(n: int, armour: int, own: bool, jink: bool) -> dict[str, Fraction]:
    """Every face of the big roll; the attacker picks which scoring dice pair with blanks and how the
    others pair, then which pair to roll next (its blank re-rolled as it is rolled); after each pair
    the attacker re-rolls one die not yet re-rolled (maximising P killed, P KO+, E damage, then fewer
    fails), then the target one die while it is not stunned (minimising its own), each once for the
    volley. A 1-hit target, graze S."""
    order = ("unharmed", "stunned", "ko", "killed")

    def hit(state, total):
        return one_hit(state, total - armour)

    def vec(state):
        return {s: Fraction(int(s == state)) for s in order} | {"dmg": Fraction(0), "fails": Fraction(0)}

    def mix(parts):
        out = {k: Fraction(0) for k in (*order, "dmg", "fails")}
        for q, v in parts:
            for k in out:
                out[k] += q * v[k]
        return out

    def akey(v):
        return (v["killed"], v["killed"] + v["ko"], v["dmg"], -v["fails"])

    def tkey(v):
        return (-v["killed"], -v["killed"] - v["ko"], -v["dmg"])

    @cache
    def play(pairs, rr, jk, state):
        if not pairs:
            return vec(state)
        opts = []
        for i, (kind, first) in enumerate(pairs):  # ("re", scoring face) or ("kept", (face, face))
            rest = pairs[:i] + pairs[i + 1 :]
            faces = [(first, w) for w in WHITE] if kind == "re" else [first]
            parts = [(Fraction(1, len(faces)), att(rest, rr, jk, state, f, kind == "re")) for f in faces]
            opts.append(mix(parts))
        return max(opts, key=akey)

    def att(rest, rr, jk, state, f, re):
        fl = f[0] == 2 and f[1] == 2
        opts = [tgt(rest, rr, jk, state, f, fl)]
        for die in ((0,) if re else (0, 1)) if rr else ():
            opts.append(mix((Fraction(1, 6), tgt(rest, False, jk, state, g, fl or g == (2, 2)))
                            for g in ((w, f[1]) if die == 0 else (f[0], w) for w in WHITE)))  # fmt: skip
        return max(opts, key=akey)

    def tgt(rest, rr, jk, state, f, fl):
        opts = [res(rest, rr, jk, state, f, fl)]
        if jk and state == "unharmed":
            for die in (0, 1):
                opts.append(mix((Fraction(1, 6), res(rest, rr, False, state, g, fl or g == (2, 2)))
                                for g in ((w, f[1]) if die == 0 else (f[0], w) for w in WHITE)))  # fmt: skip
        return max(opts, key=tkey)

    def res(rest, rr, jk, state, f, fl):
        s2, d = hit(state, f[0] + f[1])
        v = dict(play(rest, rr, jk, s2))
        v["dmg"] += d
        v["fails"] += fl
        return v

    total = {k: Fraction(0) for k in (*order, "dmg", "fails")}
    for big in product(range(6), repeat=2 * n):
        faces = [WHITE[i] for i in big]
        scorers = tuple(f for f in faces if f > 0)
        n_re = min(len(scorers), len(faces) - len(scorers))
        options = []
        for chosen in combinations(range(len(scorers)), n_re):
            rest = tuple(f for i, f in enumerate(scorers) if i not in chosen)
            for kept in _matchings(rest):
                pairs = [("re", scorers[i]) for i in chosen] + [("kept", p) for p in kept]
                options.append(play(tuple(sorted(pairs)), own, jink, "unharmed"))
        v = max(options, key=akey)
        for k in total:
            total[k] += Fraction(1, 6 ** (2 * n)) * v[k]
    return total


@pytest.mark.parametrize(
    "n, armour, own, jink", [(1, 0, True, False), (1, 0, False, True), (2, 0, True, True), (2, 1, True, True)]
)
def test_rerolls_and_jink_against_a_literal_brute_force(n, armour, own, jink):
    target = model(name="bike", armour=armour, abilities=["JINK"] if jink else [])
    res = run(shoot([gun("2W", ["S", "R"] if own else ["S"], name="lasgun")], target, volley=n))
    want = _brute_rerolls(n, armour, own, jink)
    # what the attacker maximises (other end states may differ between equally good choices)
    assert close(end(res, "killed"), want["killed"])
    assert close(end(res, "ko"), want["ko"])
    assert close(res["damage"].mean(), want["dmg"])
    assert close(res["fail"].mean(), want["fails"])


def test_volley_rerolls_exact_and_monte_carlo_agree():
    target = model(name="bike", armour=1, hits=2, abilities=["JINK", "+F"])
    sc = shoot([gun("2W", ["S", "R"], name="lasgun")], target, volley=3, range=5)
    ex, mc = run(sc), run(sc, simulate=5000, seed=6)
    keys = ("damage", "models_destroyed", "condition", "hits_left", "fail", "rolls")
    assert_agree({k: ex[k] for k in keys}, {k: mc[k] for k in keys}, 5000)


def test_volley_rerolls_beyond_the_bound_suggest_simulate():
    target = model(name="bike", armour=1, abilities=["JINK"])
    sc = shoot([gun("2W", ["S", "R"], name="lasgun")], target, volley=6)
    with pytest.raises(ScenarioError, match=r"^volley: .*--simulate"):
        run(sc)
    assert run(sc, simulate=300, seed=1)["rolls"].mean() > 0  # Monte Carlo plays the solved policy
    with pytest.raises(ScenarioError, match=r"^volley: .*fewer models"):
        run(shoot([gun("2W", ["S", "R"], name="lasgun")], target, volley=12), simulate=100, seed=1)
