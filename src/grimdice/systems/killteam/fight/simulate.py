"""Monte Carlo fights: the dice are rolled (and re-rolled) literally, then the solved policy of
:func:`grimdice.systems.killteam.fight.solver.solve_fight` is played move by move by table lookup,
vectorised over the trials of a block of :func:`grimdice.engine.montecarlo.run_trials`.

It cross-checks the exact engine's propagation of the dice law through the policy: which dice a
re-roll choice picks up, Rending, Stun's discard, the alternation and the early end of the fight.

Speed: each side's attack dice are rolled for all trials and their counts packed into one code
by table look-up (:class:`~grimdice.systems.killteam.simulate.PoolCode`), the first roll's code
naming its place in the exact engine's roll list; a re-roll picks up the dice the chosen option
gives up and rolls as many fresh dice, the code of the hits kept plus the fresh dice's code being
the code after the re-roll. The Resolve Successful
Hits step has no dice: its end is a function of the dice both sides retain, so :func:`play` walks
the solved moves once from every pair of retained dice at set-up (this module's own bookkeeping,
not the exact engine's table of ends) and each trial looks its pair's end up.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import chain

import numpy as np

from grimdice.dice import Sampler
from grimdice.engine.montecarlo import Tally
from grimdice.engine.options import RunOptions
from grimdice.systems.killteam.fight.solver import FightSolution
from grimdice.systems.killteam.fight.state import Move
from grimdice.systems.killteam.rolls import attack_roll
from grimdice.systems.killteam.simulate import PoolCode


def _held(n: int) -> tuple[int, int, int]:
    """The weights of the code ``normal * (n + 1) + crit`` of the hits a re-roll's fresh dice add
    (in the order CRIT, NORMAL, ONE: a one adds nothing)."""
    return (1, n + 1, 0)


@cache
def attack_code_of(bs: int, lethal: int, n: int) -> PoolCode:
    """A first roll of ``n`` attack dice packed as ``c + (n+1) * (h + (n+1) * o)`` (:func:`roll_lookup`)."""
    return PoolCode(attack_roll(bs, lethal), (1, n + 1, (n + 1) ** 2))


def roll_lookup(table: list, n: int) -> np.ndarray:
    """``lookup[c + (n+1) * (h + (n+1) * o)]``: index in the exact engine's roll list ``table`` of
    the first roll of ``n`` dice with ``c`` critical hits, ``h`` normal hits and ``o`` ones."""
    lookup = np.full((n + 1) ** 3, -1, dtype=np.int64)
    for i, (r, _) in enumerate(table):
        lookup[r[0] + (n + 1) * (r[1] + (n + 1) * r[2])] = i
    return lookup


def _option_table(opts: list, choice: np.ndarray) -> np.ndarray:
    """``choice[..., i]`` (option index for own roll ``i``, last axis) as option triples
    ``(normals kept, crits kept, dice re-rolled)``."""
    flat = np.fromiter(chain.from_iterable(chain.from_iterable(opts)), dtype=np.int64).reshape(-1, 3)
    first = np.cumsum([0] + [len(o) for o in opts[:-1]])  # each roll's first option in ``flat``
    return flat[first + choice]


def _moves(*moves: Move) -> np.ndarray:
    """A mask over :class:`Move` values: which moves do it."""
    mask = np.zeros(len(Move), dtype=bool)
    mask[list(moves)] = True
    return mask


_SPENDS_NORMAL = _moves(Move.STRIKE_NORMAL, Move.PARRY_NORMAL)  # the mover's normal hit resolved
_SPENDS_CRIT = _moves(Move.STRIKE_CRIT, Move.PARRY_CRIT_NORMAL, Move.PARRY_CRIT_CRIT)
_STRIKES_CRIT = _moves(Move.STRIKE_CRIT)
_PARRIES_NORMAL = _moves(Move.PARRY_NORMAL, Move.PARRY_CRIT_NORMAL)  # the opponent's normal hit lost
_PARRIES_CRIT = _moves(Move.PARRY_CRIT_CRIT)


def play(sol: FightSolution, starts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The Resolve Successful Hits step from each row of ``starts`` (retained dice after Rending:
    attacker normal, critical, defender normal, critical), under the solved policy move by move:
    ``(wounds left, critical strikes)``, each ``(rows, 2)`` (attacker, defender).

    The dice, wounds, critical strikes, Stun's discard, the alternation and the end are this
    function's own bookkeeping; only the move chosen at each position is asked of the policy
    (:meth:`~grimdice.systems.killteam.fight.resolve.Resolution.moves`, never its table of ends).
    Starts played in lockstep: one policy look-up per move for all of them."""
    att, dfd = sol.attacker, sol.defender
    resolution = sol.tables.resolution
    damage = np.zeros((2, len(Move)), dtype=np.int64)  # [side, move]: wounds the move deals
    damage[:, Move.STRIKE_NORMAL] = att.normal_damage, dfd.normal_damage
    damage[:, Move.STRIKE_CRIT] = att.critical_damage, dfd.critical_damage
    stun = np.array([att.rules.stun, dfd.rules.stun])
    n = starts.shape[0]
    wounds = np.tile(np.array([att.wounds, dfd.wounds]), (n, 1))
    strikes = np.zeros((n, 2), dtype=np.int64)  # critical strikes per side
    # the fights still going, as the policy names a position: side to move, dice (attacker normal,
    # critical, defender normal, critical), wounds, Stun still unused; their rows of ``starts``
    going = np.flatnonzero(starts.sum(axis=1) > 0)
    pos = np.zeros((9, going.size), dtype=np.int64)
    pos[1:5] = starts[going].T
    pos[0] = np.where(pos[1] + pos[2] > 0, 0, 1)
    pos[5:7] = wounds[going].T
    made = np.zeros((2, going.size), dtype=np.int64)  # critical strikes of the fights going
    while going.size:
        pos[7:9] = stun[:, None] & (made == 0)
        a = resolution.moves(pos)
        cols = np.arange(going.size)
        p = pos[0]
        o = 1 - p
        crit = _STRIKES_CRIT[a]
        pos[1 + 2 * p, cols] -= _SPENDS_NORMAL[a]  # the mover's dice: normal, critical
        pos[2 + 2 * p, cols] -= _SPENDS_CRIT[a]
        theirs_n = pos[1 + 2 * o, cols]
        theirs_n -= (crit & stun[p] & (made[p, cols] == 0) & (theirs_n > 0)) + _PARRIES_NORMAL[a]  # Stun
        pos[1 + 2 * o, cols] = theirs_n
        pos[2 + 2 * o, cols] -= _PARRIES_CRIT[a]
        made[p, cols] += crit
        left = np.maximum(pos[5 + o, cols] - damage[p, a], 0)
        pos[5 + o, cols] = left
        theirs = pos[1 + 2 * o, cols] + pos[2 + 2 * o, cols]
        mine = pos[1 + 2 * p, cols] + pos[2 + 2 * p, cols]
        pos[0] = np.where(theirs > 0, o, p)
        over = (left == 0) | (theirs + mine == 0)
        if over.any():  # the fights that end: their wounds and critical strikes
            wounds[going[over]] = pos[5:7, over].T
            strikes[going[over]] = made[:, over].T
            keep = ~over
            going, pos, made = going[keep], pos[:, keep], made[:, keep]
    return wounds, strikes


def simulate_fight(sol: FightSolution, options: RunOptions) -> Tally:
    """``options.simulate`` seeded trials of the fight under the solved policy, on the shared
    runner (:meth:`RunOptions.run`): a tally of the same stages as the exact
    :func:`~grimdice.systems.killteam.fight.report.solution_stages`.

    Every stage is a function of the pair of dice both sides hold after their re-rolls (the cell
    of :func:`end_tables`), so the trials tally only that cell and each stage's histogram is the
    cell histogram summed through the stage's table (the same counts as tallying every stage per
    trial: one histogram per block instead of one per stage)."""
    cells = options.run(fight_trial(sol))
    by_cell = cells.counts.get(CELL, np.zeros(1, dtype=np.int64))
    tally = Tally(trials=cells.trials, dice=cells.dice)
    for name, table in end_tables(sol).items():
        hist = np.zeros(int(table.max()) + 1 if table.size else 1, dtype=np.int64)
        np.add.at(hist, table[: by_cell.size], by_cell)  # integer counts, exact
        tally.counts[name] = hist[: max(int(np.flatnonzero(hist).max(initial=0)) + 1, 1)]  # as bincount
    return tally


CELL = "cell"  # the trials' one output: the cell of end_tables (both sides' dice after re-rolls)


def end_tables(sol: FightSolution) -> dict[str, np.ndarray]:
    """Every stage of the fight's end, per pair of dice both sides hold after their re-rolls
    (flat index ``((an * (A+1) + ac) * (D+1) + dn) * (D+1) + dc``): Rending chosen by the policy,
    then the resolution played move by move (:func:`play`)."""
    att, dfd = sol.attacker, sol.defender
    n_att, n_def = att.attacks, dfd.attacks
    hits = sol.tables.rend.reshape(-1, 4)  # retained: attacker normal, critical, defender normal, critical
    # each distinct pair of retained dice played once (the cells no roll reaches hold no dice)
    code = ((hits[:, 0] * (n_att + 1) + hits[:, 1]) * (n_def + 1) + hits[:, 2]) * (n_def + 1) + hits[:, 3]
    _, first, back = np.unique(code, return_index=True, return_inverse=True)
    wounds, strikes = (a[back] for a in play(sol, hits[first]))
    return {
        "hits": hits[:, 0] + hits[:, 1],
        "damage": dfd.wounds - wounds[:, 1],
        "models_destroyed": (wounds[:, 1] == 0).astype(np.int64),
        "defender_wounds_left": wounds[:, 1],
        "defender_hits": hits[:, 2] + hits[:, 3],
        "damage_taken": att.wounds - wounds[:, 0],
        "attacker_incapacitated": (wounds[:, 0] == 0).astype(np.int64),
        "attacker_wounds_left": wounds[:, 0],
        "critical_strikes": strikes[:, 0],
        "critical_strikes_taken": strikes[:, 1],
        "reap_mortal_wounds": strikes[:, 0] * att.rules.reap,
        "defender_reap_mortal_wounds": strikes[:, 1] * dfd.rules.reap,
        "defender_apl_lost": (att.rules.stun & (strikes[:, 0] >= 2)).astype(np.int64),
        "attacker_apl_lost": (dfd.rules.stun & (strikes[:, 1] >= 2)).astype(np.int64),
    }


def fight_trial(sol: FightSolution) -> Callable[[Sampler, int], dict[str, np.ndarray]]:
    """The trial function: the policy's lookup tables built once, then ``size`` fights per call,
    each giving its cell of :func:`end_tables` (:data:`CELL`)."""
    att, dfd = sol.attacker, sol.defender
    tables = sol.tables
    n_att, n_def = att.attacks, dfd.attacks
    # the re-roll options chosen, flat: attacker [i * J + j], defender [(normal * (A+1) + crit) * J + j]
    att_keep = _option_table(tables.att_opts, tables.att_choice.T).transpose(1, 0, 2).reshape(-1, 3)
    def_keep = _option_table(tables.def_opts, tables.def_choice).reshape(-1, 3)
    n_rolls = len(tables.def_rolls)
    att_index, def_index = roll_lookup(tables.att_rolls, n_att), roll_lookup(tables.def_rolls, n_def)
    att_roll, def_roll = attack_roll(att.hit, att.rules.lethal), attack_roll(dfd.hit, dfd.rules.lethal)

    att_dice, def_dice = (
        attack_code_of(att.hit, att.rules.lethal, n_att),
        attack_code_of(dfd.hit, dfd.rules.lethal, n_def),
    )
    # the dice a re-roll keeps, as the code ``normal * (n + 1) + crit`` its fresh dice add to
    att_kept = att_keep[:, 0] * (n_att + 1) + att_keep[:, 1]
    def_kept = def_keep[:, 0] * (n_def + 1) + def_keep[:, 1]
    att_fresh = PoolCode(att_roll, _held(n_att))
    def_fresh = PoolCode(def_roll, _held(n_def))
    att_full, def_full = np.full(1, n_att), np.full(1, n_def)
    att_rerolled, def_rerolled = att_keep[:, 2].copy(), def_keep[:, 2].copy()

    att_rerolls, def_rerolls = bool(att_rerolled.any()), bool(def_rerolled.any())

    def trial(sm: Sampler, n: int) -> dict[str, np.ndarray]:
        att_first = np.take(att_index, att_dice.sample(sm, np.broadcast_to(att_full, n)))
        def_first = np.take(def_index, def_dice.sample(sm, np.broadcast_to(def_full, n)))
        at = att_first * n_rolls + def_first
        att_held = np.take(att_kept, at)
        if att_rerolls:  # (a side that never re-rolls rolls no fresh dice: nothing drawn)
            att_held += att_fresh.sample(sm, np.take(att_rerolled, at))
        at = att_held * n_rolls + def_first
        def_held = np.take(def_kept, at)
        if def_rerolls:
            def_held += def_fresh.sample(sm, np.take(def_rerolled, at))
        return {CELL: att_held * (n_def + 1) ** 2 + def_held}

    return trial
