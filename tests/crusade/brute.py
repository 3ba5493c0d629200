"""A literal brute force of a melee re-roll game (rules-crusade IV "attacker must reroll first",
VIII R / RO, III fails): every face of every die, every die a side may re-roll (not only the best
of a chain), a fail judged on the first roll and again after each re-roll (reading
``reroll_fail``). It plays the engine's resolution of the final totals and the engine's
lexicographic objective, so it checks the choice of die (harm first, then the fail risk), not the
damage rules (other tests check those)."""

from __future__ import annotations

from functools import cache
from itertools import product

import numpy as np

from grimdice.engine.game import lex_better
from grimdice.systems.crusade.contest import Spec, objective_for
from grimdice.systems.crusade.rolls import DICE, MAXIMUM


def _maxes(kinds: tuple[str, ...], faces: tuple[int, ...]) -> int:
    return sum(f == MAXIMUM[k] for k, f in zip(kinds, faces, strict=True))


def _rerolled(kinds: tuple[str, ...], faces: tuple[int, ...], i: int):
    return [((*faces[:i], g, *faces[i + 1 :]), 1 / 6) for g in DICE[kinds[i]].faces]


def brute_value(spec: Spec) -> np.ndarray:
    """The expected feature vector of the game played by literal dice and every die choice."""
    lay, obj = spec.layout, objective_for(spec.layout)
    ak, dk = spec.att.pool.kinds, spec.dfd.pool.kinds

    def best(player: int, options: list[np.ndarray]) -> np.ndarray:
        out = options[0]
        for v in options[1:]:  # the first of equals, as the engine (legal actions in order)
            if lex_better(obj(player, v), obj(player, out), 1e-9):
                out = v
        return out

    def end(af, afl, df, dfl, parry, arr, drr) -> np.ndarray:
        afl = afl or _maxes(ak, af) >= 2  # III: a fail once rolled stays
        dfl = dfl or _maxes(dk, df) >= 2
        return spec.resolve(sum(af), sum(df), parry) + lay.onehot(
            att_fail=int(afl), def_fail=int(dfl), parry=int(parry > 0), att_reroll=arr, def_reroll=drr
        )

    @cache
    def defender(af, afl, df, dfl, parry, arr) -> np.ndarray:
        afl, dfl = afl or _maxes(ak, af) >= 2, dfl or _maxes(dk, df) >= 2
        opts = [end(af, afl, df, dfl, parry, arr, 0)]
        if spec.dfd.own:
            for j in range(len(df)):
                opts.append(sum(p * end(af, afl, f, dfl, parry, arr, 1) for f, p in _rerolled(dk, df, j)))
        if spec.dfd.opp:
            for i in range(len(af)):
                opts.append(sum(p * end(f, afl, df, dfl, parry, arr, 2) for f, p in _rerolled(ak, af, i)))
        return best(1, opts)

    def rolled(parry: int) -> np.ndarray:
        total = np.zeros(lay.size)
        for af in product(*(DICE[k].faces for k in ak)):
            for df in product(*(DICE[k].faces for k in dk)):
                afl, dfl = _maxes(ak, af) >= 2, _maxes(dk, df) >= 2
                opts = [defender(af, afl, df, dfl, parry, 0)]
                if spec.att.own:
                    for i in range(len(af)):
                        opts.append(
                            sum(p * defender(f, afl, df, dfl, parry, 1) for f, p in _rerolled(ak, af, i))
                        )
                if spec.att.opp:
                    for j in range(len(df)):
                        opts.append(
                            sum(p * defender(af, afl, f, dfl, parry, 2) for f, p in _rerolled(dk, df, j))
                        )
                total += best(0, opts) / 6 ** (len(af) + len(df))
        return total

    return best(1, [rolled(p) for p in spec.parries])
