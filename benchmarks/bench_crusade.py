"""Benchmark: an exact Rules Crusade combined fire of 6 weapons with fails, against a naive icepool
formulation of the same law, in one process (target: under 20 ms per exact run).

Scenario: six weapons (2W+1R, 2W+1R, 1W+1R, 2W, 1R+1, 1W+1R) fired together at 14" (-1) at a
3-hit target with armour 1 in front cover (+1); fails on two or more maxima, the failing weapon
drawn among the six. The naive icepool formulation builds each die as an icepool Die of
(face, is maximum) pairs, sums the pool outcome by outcome and maps the totals to the target's
end state; both must agree before the timings are printed.

Run: ``python benchmarks/bench_crusade.py`` (``--smoke`` for a quick CI check).
"""

from __future__ import annotations

import argparse
import sys
import time

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.contest import _rolls
from grimdice.systems.crusade.rolls import pool_law

WEAPONS = ["2W+1R", "2W+1R", "1W+1R", "2W", "1R+1", "1W+1R"]
SCENARIO = {
    "system": "crusade",
    "action": "shoot",
    "range": 14,
    "cover": "front",
    "attacker": {
        "armour": 2,
        "weapons": [{"name": f"w{i}", "dice": d, "effects": ["J", "S"]} for i, d in enumerate(WEAPONS)],
    },
    "defender": {"armour": 1, "hits": 3},
}
WHITE, RED, PLUS, MODIFIER, ARMOUR, HITS = 8, 5, 1, -1, 2, 3


def grimdice_exact():
    pool_law.cache_clear()  # no help from earlier runs
    _rolls.cache_clear()
    return calculate(SCENARIO)


def icepool_naive():
    """P(killed) and P(fail) with icepool: dice as (face, maximum) pairs summed one by one."""
    import icepool

    def die(faces, top):
        return icepool.Die([(f, int(f == top)) for f in faces])

    w, r = die([0, 0, 0, 0, 1, 2], 2), die([0, 0, 0, 1, 2, 3], 3)
    acc = icepool.Die([(0, 0)])
    for d in [w] * WHITE + [r] * RED:
        acc = icepool.map(lambda a, b: (a[0] + b[0], min(2, a[1] + b[1])), acc, d)
    total = acc.denominator()
    killed = sum(q for (t, m), q in acc.items() if t + PLUS + MODIFIER - ARMOUR > HITS) / total
    failed = sum(q for (t, m), q in acc.items() if m >= 2) / total
    return killed, failed


def best_of(fn, runs):
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def main(argv=None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--smoke", action="store_true", help="one run each, check agreement only")
    args = ap.parse_args(argv)
    res = grimdice_exact()
    killed, failed = icepool_naive()  # imported and warmed outside the timed region
    assert abs(res.extra["end_state"]["killed"] - killed) < 1e-12, (res.extra["end_state"], killed)
    assert abs(res.extra["fail_effects"]["p_fail"] - failed) < 1e-12
    runs = 1 if args.smoke else 7
    t_g = best_of(grimdice_exact, runs)
    t_i = best_of(icepool_naive, runs)
    print(f"combined fire of 6 weapons (13 dice) with fails, exact: grimdice {t_g * 1e3:.2f} ms, "
          f"naive icepool {t_i * 1e3:.2f} ms, ratio {t_i / t_g:.1f}x (best of {runs})")  # fmt: skip
    print(
        f"P(killed) = {killed:.6f}, P(fail) = {failed:.6f};",
        f"target < 20 ms: {'ok' if t_g < 0.02 else 'MISSED'}",
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
