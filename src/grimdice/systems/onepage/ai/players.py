"""Players: a random legal player (the game's own draw,
:mod:`grimdice.systems.onepage.game.sampling`), and an AI that plays to the scoring rule.

The AI reads the exact engine's laws (cached by situation, see :func:`~.state.combat_law`): it
values an outcome by the points it adds to its score ("the point value of all enemy units they
completely destroyed, or that are pinned") minus the points it gives away, plus a small share for
models killed (attrition towards later kills). The score is taken at the end of the game, and a
Pinned unit recovers by idling in its next activation, so a pin is worth the unit's full points
only when that unit has no activation left (the last round, already activated); otherwise it is
worth :data:`PIN_TEMPO` of them (the activation it loses). It shoots the target with the highest
expected value, walks where its shooting is best (taking cover when it can), assaults only when
the expected melee value is positive, and otherwise closes in on the nearest enemy (not in the
last round: no activation is left to use it; never a lone model, which keeps hidden); a move and an
Assault also weigh the enemy's reply where they end and what its own next activation offers from
there (:mod:`.threat`). In the last round a killed model is worth nothing but its share in
destroying or pinning its unit, and the AI activates first the units that gain nothing by waiting
(:func:`waiting`), so that its pins land on enemy units that have already activated.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np

from grimdice.engine.playing import random_bot
from grimdice.engine.table.blocks import blocks_in_cover
from grimdice.systems.onepage.ai import choices, choosing, footing, threat
from grimdice.systems.onepage.ai.deploying import role
from grimdice.systems.onepage.ai.outlook_bound import Later
from grimdice.systems.onepage.game import consolidation, dangerous, deployment, firing, legs, transport
from grimdice.systems.onepage.game.cache import memo, recall, shot_state
from grimdice.systems.onepage.game.queries import prefetch
from grimdice.systems.onepage.game.setup import Setup
from grimdice.systems.onepage.game.shooting import firing_sights
from grimdice.systems.onepage.game.state import ROUNDS, GameState, combat_law, shot_law_key
from grimdice.systems.onepage.units import UnitState, answer

Player = Callable[[GameState, np.random.Generator], Any]
ATTRITION = 0.3  # value of a killed model as a share of its unit's points per model
COVER = 5.0  # points-equivalent bonus for ending a move in cover
APPROACH = 0.5  # points-equivalent per inch closer to the nearest enemy (units without a shot)
WAIT = 1.0  # weight of a unit's gain from acting after the enemy (waiting), see waiting()
PIN_TEMPO = 0.25  # value of pinning a unit that will recover before the end, as a share of its points
WIN = 200.0  # points-equivalent of a win, weighed in the last round's charges (melee_odds)


def worth(setup: Setup, u: int, s: UnitState, pin: float = 1.0, attrition: float = ATTRITION) -> float:
    """Points the enemy scores for unit ``u`` in state ``s`` (destroyed, or pinned: ``pin`` of its
    points), plus ``attrition`` x its points per model killed."""
    unit = setup.units[u]
    gone = unit.cost if s.destroyed else pin * unit.cost if s.pinned else 0.0
    lost = (unit.size - s.models) / unit.size if unit.size else 0.0
    return gone + attrition * unit.cost * lost


def attrition(state: GameState) -> float:
    """The value of a killed model as a share of its unit's points per model: :data:`ATTRITION`
    while later rounds remain (towards later kills), 0 in the last round, when only the score
    counts ("the point value of all enemy units they completely destroyed, or that are pinned")."""
    return ATTRITION if state.round < ROUNDS else 0.0


def pin_share(state: GameState, u: int) -> float:
    """The share of its points a pin of unit ``u`` is worth (see the module text): the full points
    when it stays pinned to the end (last round and ``u`` activated or activating now)."""
    done = state.activated[u] or u == state.active
    return 1.0 if state.round >= ROUNDS and done else PIN_TEMPO


def shot_value(
    state: GameState, u: int, t: int, anchor: tuple[float, float] | None, action: str, limited: bool = False
) -> float:
    return value_of_shot(state, u, t, state.shot_key(u, t, anchor, action, limited=not limited))


def value_of_shot(state: GameState, u: int, t: int, key: tuple[Any, ...]) -> float:
    """The expected value (see the module text) of ``u`` shooting ``t`` in the situation ``key``
    (:meth:`~.state.GameState.shot_key`), read from the exact law (kept across games)."""
    if key[1] == 0:
        return 0.0
    key = shot_law_key(state.setup, u, t, key)  # situations with the same law share its value
    st, pin, kill = state.units[t], pin_share(state, t), attrition(state)
    ck = ("shot value", u, shot_state(state.units[u], key), t, st, key, pin, kill)

    def compute() -> float:
        base = worth(state.setup, t, st, pin, kill)
        law = combat_law(state.setup, "shoot", u, state.units[u], t, st, key)
        return sum(p * (worth(state.setup, t, s[0], pin, kill) - base) for s, p in law)

    return answer(state.setup.cache, ck, compute)


def melee_value(state: GameState, u: int, t: int) -> float:
    return melee_odds(state, u, t, state.charged(u, t).melee_key(u, t))


def melee_odds(state: GameState, u: int, t: int, key: tuple[Any, ...]) -> float:
    """The expected value to ``u`` of its melee with ``t`` in situation ``key`` (a melee key); in
    the last round also :data:`WIN` x the change in the chance to win it brings (:func:`margin`)."""
    su, st = state.units[u], state.units[t]
    last = state.round >= ROUNDS
    pu, pt, kill = 1.0 if last else PIN_TEMPO, pin_share(state, t), attrition(state)  # u acts now
    lead = margin(state, u) if last else None
    ck = ("melee value", u, su, t, st, key, pu, pt, kill, lead)

    def compute() -> float:
        law = combat_law(state.setup, "melee", u, su, t, st, key)
        bu, bt = worth(state.setup, u, su, pu, kill), worth(state.setup, t, st, pt, kill)
        v = 0.0
        for s, p in law:
            gain = worth(state.setup, t, s[1], pt, kill) - bt - (worth(state.setup, u, s[0], pu, kill) - bu)
            v += p * (gain + (WIN * (won(lead + gain) - won(lead)) if lead is not None else 0.0))
        return v

    return answer(state.setup.cache, ck, compute)


def margin(state: GameState, u: int) -> float:
    """The score of ``u``'s player less the enemy's if the game ended now ("sum the point value of
    all enemy units they completely destroyed, or that are pinned")."""
    scores = state.returns()
    me = state.setup.owner[u]
    return scores[me] - scores[1 - me]


def won(lead: float) -> float:
    """1 for a win ("The player with the highest score wins."), 1/2 for a draw, 0 for a loss."""
    return 1.0 if lead > 1e-9 else 0.5 if lead > -1e-9 else 0.0


def best_shot(
    state: GameState, u: int, anchor: tuple[float, float] | None, action: str
) -> tuple[float, list[Any]]:
    """The best shot's value and action (Limited weapons fired only when they add value); a
    Relentless unit on Hold also weighs its split assignments (``firing.split_actions``: where it
    stands), each worth the sum of its targets' shootings' values (the targets are different units,
    so the expected points removed add up); ties go to the one-target shots, listed first."""
    best, choice = 0.0, ["shoot", -1]
    targets = state.valid_targets(u, anchor, action)
    for a in firing.shoot_actions(state, u, targets, anchor, action):
        v = shot_value(state, u, a[1], anchor, action, len(a) > 2)
        if v > best + 1e-12:
            best, choice = v, a
    for a in firing.split_actions(state, u, targets, action) if anchor is None else ():
        v = sum(value_of_shot(state, u, t, key) for t, key in firing.split_shots(state, u, a, action))
        if v > best + 1e-12:
            best, choice = v, a
    return best, choice


def best_shots(
    state: GameState, u: int, ends: Sequence[tuple[float, float] | None], action: str = "walk"
) -> list[float] | None:
    """``best_shot(state, u, end, action)[0]`` for every candidate of ``ends`` at once (``None``:
    where ``u`` stands), read from the geometry memo :func:`prefetch` filled (sight, cover,
    heights): each distinct situation's value is read once, and only the targets some model sees are
    looked at. ``None`` where the shortcut does not apply (front-mounted weapons, Indirect weapons,
    unspent Limited weapons, a Relentless split on Hold: :func:`best_shot`)."""
    if (
        state.setup.arcs[u]
        or len(firing.split_weapons(state, u, action)) > 1
        or state.weapon_range(u, indirect=True) > 0
        or (firing.has_limited(state, u) and not firing.spent(state, u))
    ):
        return None
    if state.weapon_range(u) <= 0:  # nothing to shoot with
        return [0.0] * len(ends)
    m, alive = memo(state.setup), state.units[u].alive
    firing_sights(state, u, ends)  # every candidate's sight of each enemy in one pass
    enemies = [(t, state.placed(t)) for t in state.enemies(u)]
    values: dict[tuple[Any, ...], float] = {}
    out: list[float] = []
    for end in ends:
        pu, rounded, best = state.placed(u, end), state._rounded(u, end), 0.0
        for t, pt in enemies:  # the order of valid_targets, so ties go as in best_shot
            seen = m.get(("sight", alive, pu, pt))
            if seen is not None and not seen[0]:  # terrain blocks every line (the memo's answer)
                continue
            counts, n = state.firers(u, t, end)  # the models with a weapon in range of what they see
            if not n:
                continue
            where = (
                counts,
                n,
                state.covered(u, t, rounded),
                state.elevated(u, t, rounded),
                False,
            )
            key = state.shot_situation(u, t, rounded, where, action)
            v = values.get((t, key))
            if v is None:
                v = values[t, key] = value_of_shot(state, u, t, key)
            if v > best + 1e-12:
                best = v
        out.append(best)
    return out


def nearest_gap(state: GameState, u: int, anchor: tuple[float, float] | None = None) -> float:
    gaps = [state.gap(u, t, anchor) for t in state.enemies(u)]
    return min(gaps) if gaps else 0.0


def in_cover_at(state: GameState, u: int, anchor: tuple[float, float]) -> bool:
    return recall(
        state.setup,
        ("in cover", state.placed(u, anchor)),
        lambda: bool(blocks_in_cover(state.setup.table, state.models(u, anchor)[None, :, :])[0]),
    )


def danger(state: GameState, u: int, end: tuple[float, float], a: list[Any] | None = None) -> float:
    """:func:`.choices.expected_loss` of a move to ``end``, read from the memo's crossing test
    (filled for all candidates at once by :func:`prefetch`) first: no dangerous piece crossed, no
    loss. ``a``: a two-leg move (``legs.py``), its models counted once over both legs."""
    mid = legs.via(state, u, a) if a is not None else None
    if mid is not None:
        n = dangerous.models_through_legs(state, u, state.models(u), mid.models(u), state.models(u, end))
        return choices.loss_of(state, u, n) if n else 0.0
    here, there = state.placed(u), state.placed(u, end)
    crosses = recall(
        state.setup,
        ("crosses", "dangerous", here, there),
        lambda: state.crosses(u, state.models(u), state.models(u, end), "dangerous"),
    )
    if not crosses:
        return 0.0
    n = recall(
        state.setup,
        ("through", here, there),
        lambda: dangerous.models_through(state, u, state.models(u), state.models(u, end), True),
    )
    return choices.loss_of(state, u, n)


def moved_to(state: GameState, u: int, d: tuple[float, float]) -> tuple[float, float]:
    return state.anchors[u][0] + d[0], state.anchors[u][1] + d[1]


def waiting(state: GameState, acts: list[list[Any]]) -> dict[int, float]:
    """In the last round, what each of the AI's units gains by acting after the enemy's units have
    activated: a pin then lasts to the end and scores the unit's full points ("the point value of
    all enemy units they completely destroyed, or that are pinned"), where a pin on a unit still to
    activate is idled off. Per unit: :data:`WAIT` x the rise ``g`` of its best Hold shot or charge
    when every enemy unit counts as activated; nothing when it has no other unit to act first. Our
    model: a shot worth ``v`` now is still there after waiting with chance ``q`` (worth ``v + g``);
    acting now nets ``v - q (v + g)`` against the ``(1 - q) v'`` of a unit whose value does not
    change, so ``v - g q / (1 - q)`` is compared: with ``q = 1/2``, ``WAIT = 1``."""
    me = state.player
    units = sorted({int(a[1]) for a in acts if a[0] != "idle" and state.on_table(int(a[1]))})
    flags = tuple(x or state.setup.owner[v] != me for v, x in enumerate(state.activated))
    if state.round < ROUNDS or len(units) < 2 or flags == state.activated:
        return {}
    later = replace(state, activated=flags)
    out: dict[int, float] = {}
    for u in units:
        gain = best_shot(later, u, None, "hold")[0] - best_shot(state, u, None, "hold")[0]
        for a in acts:
            if a[0] == "assault" and a[1] == u:
                gain = max(gain, melee_value(later, u, a[2]) - melee_value(state, u, a[2]))
        out[u] = WAIT * max(0.0, gain)
    return out


def ai_player(
    state: GameState, rng: np.random.Generator, reply: float = threat.WEIGHT, reach: float = threat.PROSPECT
) -> Any:
    """The scoring-rule AI (see the module text); ties go to the first legal action. ``reply``: the
    weight of the enemy's reply at a move's end (:mod:`.threat`; 0: the greedy AI); ``reach``: the
    weight of the change in the unit's own best next charge (:func:`.threat.prospect`; 0: the greedy
    AI)."""
    acts = state.legal_actions()
    if state.phase == "side":
        return acts[0]
    if state.phase == "shoot":
        return best_shot(state, state.active, None, state.action)[1]
    if state.phase in deployment.PHASES:
        return choices.deployment_choice(state, acts)
    if state.phase == consolidation.KIND:
        return choices.consolidation_choice(state, acts, reply)
    values: list[float] = []  # each action's value, in legal order
    approach = APPROACH if state.round < ROUNDS else 0.0  # closing in pays only with an activation left
    defer = waiting(state, acts)  # the last round: units whose pins score more later act last
    gaps: dict[int, float] = {}
    later = Later(state)  # the moves whose change of outlook is valued only where it can be the best
    near: dict[tuple[int, tuple[float, float]], float] = {}  # nearest enemy gap at each candidate
    shots: dict[tuple[int, tuple[float, float]], float] = {}  # best Walk shot at each candidate
    for kind in ("walk", "run"):  # every candidate position's gaps (and sight) in one pass per unit
        ends: dict[int, list[tuple[float, float]]] = {}
        for a in acts:
            if a[0] == kind:
                ends.setdefault(a[1], []).append(moved_to(state, a[1], (a[2], a[3])))
        for u, where in ends.items():
            found = prefetch(state, u, where, sight=kind == "walk")
            if found is not None:
                near.update(((u, e), g) for e, g in zip(where, found, strict=True))
                if kind == "walk" and (walked := best_shots(state, u, where)) is not None:
                    shots.update(((u, e), v) for e, v in zip(where, walked, strict=True))
    for a in acts:
        kind, u = a[0], a[1]
        if kind == "idle" and state.units[u].pinned:
            return a
        if u not in gaps:
            gaps[u] = nearest_gap(state, u)
        if kind == "idle":  # an embarked unit staying inside
            v = 0.0
        elif kind in transport.KINDS or not state.on_table(u):
            v = choices.transport_value(state, a, reply)
        elif kind == "assault":
            v = melee_value(state, u, a[2]) - danger(
                state, u, moved_to(state, u, state.charge_vector(u, a[2])), a
            )
            v = v + 1.0 if v > 0 else -np.inf  # charge only when the odds favour it
        elif kind == "hold":
            held = best_shots(state, u, [None], "hold")
            v = (held[0] if held is not None else best_shot(state, u, None, "hold")[0]) + (
                COVER if in_cover_at(state, u, state.anchors[u]) else 0.0
            )
        else:
            end = moved_to(state, u, (a[2], a[3]))
            shot = (
                (shots[u, end] if (u, end) in shots else best_shot(state, u, end, "walk")[0])
                if kind == "walk"
                else 0.0
            )
            nearest = near[u, end] if (u, end) in near else nearest_gap(state, u, end)
            closer = gaps[u] - nearest
            kind_of = role(state, u)
            lone = kind_of == "fragile"  # a lone model keeps hidden: it does not close in
            v = (
                shot
                + (COVER if in_cover_at(state, u, end) else 0.0)
                + (0.0 if lone else approach) * closer * (0.2 if shot else 1.0)
                - danger(state, u, end, a)
            )
            if approach and kind_of == "melee":  # its next move from difficult terrain
                v -= footing.FOOTING * footing.slowed(state, u, end)
            if reach and not lone:  # valued in full only where its bound can be the best (choose)
                values.append(later.add(len(values), u, end, nearest, (v, reach, defer.get(u, 0.0))))
                continue
        values.append(v - defer.get(u, 0.0))
    return choosing.choose(state, acts, values, reply, later.values)  # less the enemy's reply at a move's end


PLAYERS: dict[str, Player] = {
    "ai": ai_player,
    "random": random_bot,  # a legal action by the game's own draw (GameState.random_action)
    "greedy": partial(ai_player, reply=0.0, reach=0.0),  # the AI without the look ahead (threat.py)
}

__all__ = ["PLAYERS", "Player", "ai_player"]
