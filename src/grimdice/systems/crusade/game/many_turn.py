"""A shot at more models than one chance node holds, rolled model by model (rules-crusade VIII LINE
EFFECT, BLAST, FLAMER TEMPLATE, X"): every model the template, line or area reaches is rolled at.

VIII LINE EFFECT: "Apply the roll to ALL eligible models in the line"; BLAST: "Center applies the
total roll, and Outside applies highest die only (+modifiers)": one roll, a first chance node (its
total, highest die and fail, the attacker's re-roll and the targets' jinks solved on it for all the
targets, :func:`grimdice.systems.crusade.templates.roll_rerolls`), then one node a model, that
model's law given the roll (its own range, cover, armour and force field die). FLAMER TEMPLATE:
"Roll seperately for each target touched by the template" (X" areas too): one node a model, the
calculator's law of that model's own roll (its jink on it). The joint law is the product of these
laws, never enumerated: the models' parts are drawn in turn and applied together once the last is
drawn, so the knockbacks, fails and grazes are those of the whole shot
(:func:`grimdice.systems.crusade.joint.joint_law`'s, model by model).

Ours (``reached``): a template's or area's rolls in turn give the firer's one re-roll a turn
(VIII R) to its target's roll (the re-roll is his to use or not: this is his play, not a rule); the
re-rolls on a LINE's or BLAST's one roll are solved exactly for every target while the solver's
bounds allow, past them the last targets' IX JINKs are left out first (each model is still rolled
at).

The shot's key is the calculator's many-target scenario (JSON text, every target a row) with the
parts drawn so far (``in_turn``); a key without ``in_turn`` is a one-node shot (:mod:`.many`).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Callable
from functools import lru_cache
from typing import Any

from grimdice.errors import ScenarioError
from grimdice.systems.crusade.attack import Attack, knocks_back
from grimdice.systems.crusade.damage import State, is_graze
from grimdice.systems.crusade.game.combat import reads_grazes
from grimdice.systems.crusade.game.frozen import altered
from grimdice.systems.crusade.game.state import GameState, has_code
from grimdice.systems.crusade.game.volatile import carried
from grimdice.systems.crusade.joint import JointEnd
from grimdice.systems.crusade.profiles import Scenario
from grimdice.systems.crusade.rules import RULES
from grimdice.systems.crusade.template_modes import mode_of
from grimdice.systems.crusade.templates import per_target, rerolls_of, roll_rerolls, target_states
from grimdice.systems.crusade.templates import total_high_law as roll_law

IN_TURN = "in_turn"
#: the modes whose models are rolled at in turn when one node cannot hold them
ONE_ROLL = ("line", "blast")

#: one model's part: (end state, knocked back, graze told apart, a result above zero told apart)
Part = tuple[State, bool, bool, bool]


def key_of(shot: str) -> str:
    """The key of the shot ``shot`` (the calculator's scenario, JSON text) rolled in turn, nothing
    drawn yet."""
    data = json.loads(shot)
    data[IN_TURN] = []
    return json.dumps(data, sort_keys=True)


def in_turn(key: str) -> bool:
    """Whether ``key`` is a shot rolled in turn (not a one-node shot)."""
    return f'"{IN_TURN}"' in key and _split(key)[2]


@lru_cache(maxsize=4096)
def _split(key: str) -> tuple[str, tuple[int, ...], bool]:
    """(the shot's scenario without its draws, the outcomes drawn, rolled in turn)."""
    data = json.loads(key)
    if IN_TURN not in data:
        return key, (), False
    drawn = tuple(int(k) for k in data.pop(IN_TURN))
    return json.dumps(data, sort_keys=True), drawn, True


class Shot:
    """A shot rolled in turn: each target's attack, the mode, and the laws of its nodes."""

    def __init__(self, base: str) -> None:
        data = json.loads(base)
        alone = [_alone(data, row, n) for n, row in enumerate(data["targets"])]
        scs = [Scenario.model_validate(one) for one in alone]
        self.keys = [json.dumps(one, sort_keys=True) for one in alone]
        self.atks: list[Attack] = [per_target(sc)[0] for sc in scs]
        self.mode = mode_of(self.atks[0])
        self.one_roll = self.mode in ONE_ROLL
        targets = [sc.targets[0] for sc in scs]
        self.grazes = any(reads_grazes(*t.abilities) for t in targets) or carried(*targets)  # VIII VOLATILE
        fired = [w for w in scs[0].attacker.weapons if scs[0].weapons is None or w.name in scs[0].weapons]
        self.burn = any(has_code(w.effects, "BURN") for w in fired)  # VIII BURN
        self._given: dict[tuple[int, int], list[tuple[Part, float]]] = {}
        self.roll = _sorted(_roll_law(self.atks, self.mode).items()) if self.one_roll else []

    @property
    def nodes(self) -> int:
        """How many chance nodes the shot takes."""
        return len(self.atks) + self.one_roll

    def check(self) -> None:
        """Raise the calculator's ScenarioError now if a model's own roll is refused (templates)."""
        for n in range(0 if self.one_roll else len(self.atks)):
            self.law((0,) * n)

    def law(self, drawn: tuple[int, ...]) -> list[tuple[Any, float]]:
        """The law of the next node after ``drawn``: the roll, or a model's part."""
        if not self.one_roll:
            from grimdice.systems.crusade.game.many import cached_joint

            return list(cached_joint(self.keys[len(drawn)]))
        if not drawn:
            return self.roll
        return self.given(len(drawn) - 1, self.roll[drawn[0]][0])

    def given(self, n: int, roll: tuple[int, int, bool]) -> list[tuple[Part, float]]:
        """Target ``n``'s part given the one roll (LINE: its total; BLAST: the centre the total,
        the others the highest die)."""
        total = roll[0] if n == 0 or self.mode == "line" else roll[1]
        if (n, total) not in self._given:
            self._given[(n, total)] = _given(self, n, total)
        return self._given[(n, total)]

    def end(self, drawn: tuple[int, ...]) -> JointEnd:
        """The whole shot's end once every node is drawn."""
        if not self.one_roll:
            ends: list[JointEnd] = [self.law(drawn[:n])[k][0] for n, k in enumerate(drawn)]
            states = tuple(e[0][0] for e in ends)
            moved = tuple(e[1][0] for e in ends)
            grazed = tuple(e[3][0] for e in ends)
            return states, moved, any(e[2] for e in ends), grazed, tuple(e[4][0] for e in ends)
        roll = self.roll[drawn[0]][0]
        parts = [self.given(n, roll)[k][0] for n, k in enumerate(drawn[1:])]
        return (
            tuple(p[0] for p in parts),
            tuple(p[1] for p in parts),
            bool(roll[2]),
            tuple(p[2] for p in parts),
            tuple(p[3] for p in parts),
        )

    def marginals(self) -> tuple[list[dict[State, float]], float]:
        """Each target's law of its end state, and the chance that a roll fails (III)."""
        per: list[dict[State, float]] = [defaultdict(float) for _ in self.atks]
        if not self.one_roll:
            ok = 1.0
            for n in range(len(self.atks)):
                law = self.law((0,) * n)
                for (states, *_), p in law:
                    per[n][states[0]] += p
                ok *= 1.0 - sum(p for (_, _, failed, *_), p in law if failed)
            return per, 1.0 - ok
        for roll, p in self.roll:
            for n in range(len(self.atks)):
                for part, q in self.given(n, roll):
                    per[n][part[0]] += p * q
        return per, sum(p for roll, p in self.roll if roll[2])


def _alone(data: dict[str, Any], row: dict[str, Any], n: int) -> dict[str, Any]:
    """The shot at target row ``row`` alone; past the first target of a template's rolls, without
    the firer's re-roll (ours: its one re-roll a turn goes to its target's roll)."""
    one = dict(data, targets=[row])
    if n:
        attacker = dict(data["attacker"])
        attacker["abilities"] = _no_reroll(attacker.get("abilities", []))
        attacker["weapons"] = [dict(w, effects=_no_reroll(w.get("effects", []))) for w in attacker["weapons"]]
        one["attacker"] = attacker
    return one


def _no_reroll(codes: list[str]) -> list[str]:
    """VIII R, RO: the codes that give no re-roll of one's own."""
    return [c for c in codes if not any(k in ("reroll", "ro") for k in RULES.parse([c], "effects"))]


def _roll_law(atks: list[Attack], mode: str) -> dict[tuple[int, int, bool], float]:
    """The one roll's law (total, highest die, failed) with VIII R and IX JINK solved for every
    target (:func:`grimdice.systems.crusade.templates.roll_rerolls`); where the solver's bounds
    refuse so many jinks, the last targets' are left out until it fits."""
    pool = atks[0].spec.att.pool
    own, jinkers = rerolls_of(atks)
    if not own and not jinkers:
        return roll_law(pool.white, pool.red)

    for keep in range(len(jinkers), -1, -1):
        try:
            return roll_rerolls(atks, mode, pool, jinkers[:keep])[0]
        except ScenarioError:
            continue
    return roll_law(pool.white, pool.red)


def _given(shot: Shot, n: int, total: int) -> list[tuple[Part, float]]:
    """Target ``n``'s part when hit by dice ``total``, over its force field die (VIII KNOCKBACK:
    whether it moves; III: a graze; VIII BURN: a result above zero)."""
    atk = shot.atks[n]
    out: dict[Part, float] = defaultdict(float)
    for p, state, dmg in target_states(atk, total):
        grazed = shot.grazes and is_graze(atk.dfd.start, dmg)
        out[(state, knocks_back(atk, total, state), grazed, shot.burn and total > 0)] += p
    return _sorted(out.items())


def _sorted(law: Any) -> list[Any]:
    """A law's outcomes, most likely first (ties by their text)."""
    return sorted(law, key=lambda kv: (-kv[1], repr(kv[0])))


def shot_of(key: str) -> Shot:
    """The shot of ``key`` (its draws left aside)."""
    return _shot(_split(key)[0])


@lru_cache(maxsize=512)
def _shot(base: str) -> Shot:
    return Shot(base)


def outcomes(key: str) -> list[tuple[tuple[str, int], float]]:
    """The chance outcomes of the shot's next node."""
    return [(("attack", k), p) for k, (_, p) in enumerate(shot_of(key).law(_split(key)[1]))]


def advance(s: GameState, k: int) -> GameState | None:
    """The state with outcome ``k`` of the pending shot's next node drawn, another node to come;
    None when that outcome is the last node's (then :func:`end`)."""
    key = s.pending[4]
    base, drawn, _ = _split(key)
    if len(drawn) + 1 >= shot_of(key).nodes:
        return None
    data = json.loads(base)
    data[IN_TURN] = [*drawn, k]
    return altered(s, pending=(*s.pending[:4], json.dumps(data, sort_keys=True), *s.pending[5:]))


def drawn(key: str) -> tuple[int, ...]:
    """The outcomes of the shot's nodes drawn so far."""
    return _split(key)[1]


def end(key: str, k: int) -> JointEnd:
    """The whole shot's end, the last node's outcome ``k`` drawn."""
    return shot_of(key).end((*_split(key)[1], k))


def expected(key: str, worth: Callable[[int, State], float], fail: float) -> float:
    """The expected sum over targets of ``worth(n, end state)`` less ``fail`` times the chance of a
    failed roll (the AI's value: linear in each target's law, so no joint law is needed)."""
    per, failed = shot_of(key).marginals()
    return sum(p * worth(n, st) for n, law in enumerate(per) for st, p in law.items()) - fail * failed


__all__ = [
    "IN_TURN",
    "ONE_ROLL",
    "Shot",
    "advance",
    "drawn",
    "end",
    "expected",
    "in_turn",
    "key_of",
    "outcomes",
    "shot_of",
]
