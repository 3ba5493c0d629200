"""What a game's log records of each model of the scenario: where it came from (a force's model,
or a model of a blip, revealed during the game), how it ended, and the enemy models it put out of
action. The statistics of ``grimdice play`` are read from it."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from grimdice.systems.crusade.damage import CONDITIONS, KO
from grimdice.systems.crusade.game.arrive import names, waiting
from grimdice.systems.crusade.game.explore import placed, uncovered_at_start, unplaced
from grimdice.systems.crusade.game.powers import is_ghost
from grimdice.systems.crusade.game.state import GameState


class Book:
    """Follows a game step by step: which scenario model each token is (a blip's first model
    keeps the blip's token, its others are appended in order, :func:`.moves.reveal_blip`), and
    each token's kills: an enemy model taken from standing to knocked out or killed by an attack
    is the attacker's kill (in a melee, the defender's when the attacker falls; an explosion,
    area or malfunction roll is the firer's, friends not counted)."""

    def __init__(self, s: GameState) -> None:
        self.pieces: list[str] = []  # each piece of the scenario's
        count = [0, 0]
        blips = [0, 0]
        for pc in s.setup.pieces:
            if pc.blip:
                self.pieces.append(f"forces.{pc.side}.blips.{blips[pc.side]}.models.0")
                blips[pc.side] += 1
            else:
                self.pieces.append(f"forces.{pc.side}.models.{count[pc.side]}")
                count[pc.side] += 1
        at_start = [k for k in range(len(self.pieces)) if k not in s.setup.unplaced]  # X: covered apart
        self.origin = [self.pieces[k] for k in at_start + uncovered_at_start(s)]
        self.kills = [0] * len(self.origin)

    def step(self, before: GameState, after: GameState) -> None:
        """Record what the step from ``before`` to ``after`` did."""
        if not before.pending and not before.control and len(after.tokens) == len(self.kills):
            return  # no roll, no control, no model added: nothing to record
        grown = after.tokens is not before.tokens and len(after.tokens) != len(self.origin)
        late = names(before, after) if grown else []  # X reinforcements, appended last
        size = len(after.tokens) - len(late)
        if grown and after.covered != before.covered:  # X: a covered section's pieces, appended first
            self.origin += [self.pieces[k] for k in placed(before, after)]
        changed = range(len(before.tokens)) if grown else range(0)  # no model appended: nothing to name
        for j in changed:  # revealed blips: their other models were appended
            if before.tokens[j].blip and not after.tokens[j].blip:
                base = self.origin[j].rsplit(".", 1)[0]
                n = len(self.origin)
                extra = len(before.tokens[j].blip) - 1
                self.origin += [f"{base}.{k}" for k in range(1, extra + 1)][: size - n]
        if before.pending[:2] == ("attack", "incursion"):  # VII: a Warp Spawn replaced the psyker
            psyker = self.origin[before.pending[3]]
            self.origin += [f"{psyker}.spawn"] * (size - len(self.origin))
        if before.pending[:1] == ("card",):  # VII PROJECTION: a ghost (no model of the scenario)
            ghost = f"{self.origin[before.pending[1]]}.ghost"
            self.origin += [ghost] * (size - len(self.origin))
        self.origin += late
        self.kills += [0] * (len(after.tokens) - len(self.kills))
        if (
            before.control
            and not after.control
            and after.tokens[before.control[1]].alive
            and before.control[2] < KO
        ):
            self.kills[before.control[0]] -= 1  # IX CONTROL: taken instead of killed
        if before.pending[:1] != ("attack",):
            return
        i, j = before.pending[2], before.pending[3]
        for k, (b, a) in enumerate(zip(before.tokens, after.tokens, strict=False)):
            if b.blip or b.cond >= KO or a.cond < KO:
                continue
            side = b.side
            if before.tokens[i].side != side:
                self.kills[i] += 1
            elif k == i and before.pending[1] != "many" and before.tokens[j].side != side:
                self.kills[j] += 1

    def models(self, s: GameState) -> list[dict[str, Any]]:
        """Every token at the end but PROJECTION's ghosts: its force, profile, origin, condition and
        kills (an unrevealed blip's models are ``unrevealed``)."""
        out = []
        for k, t in enumerate(s.tokens):
            if t.blip:
                base = self.origin[k].rsplit(".", 1)[0]
                for m, p in enumerate(t.blip):
                    name = s.setup.profiles[p].name
                    out.append(_entry(t.side, name, f"{base}.{m}", "unrevealed", 0))
                continue
            if is_ghost(s, t):
                continue
            name = s.setup.profiles[t.profile].name
            side = t.side if t.owner < 0 else t.owner  # IX CONTROL: its own force
            out.append(_entry(side, name, self.origin[k], CONDITIONS[t.cond], self.kills[k]))
        for side, origin, p in waiting(s):  # X reinforcements that never came
            out.append(_entry(side, s.setup.profiles[p].name, origin, "waiting", 0))
        for k in unplaced(s):  # X: still covered
            pc = s.setup.pieces[k]
            for m, p in enumerate(pc.blip or (pc.profile,)):
                origin = self.pieces[k].rsplit(".", 1)[0] + f".{m}" if pc.blip else self.pieces[k]
                out.append(_entry(pc.side, s.setup.profiles[p].name, origin, "covered", 0))
        return sorted(out, key=lambda e: origin_order(e["from"]))


def _entry(side: int, name: str, origin: str, state: str, kills: int) -> dict[str, Any]:
    return {"force": side, "profile": name, "from": origin, "state": state, "kills": kills}


@lru_cache(maxsize=4096)
def origin_order(origin: str) -> tuple[int, ...]:
    """A force's models, then its blips' models, in the scenario's order; then the reinforcements'
    (kept per origin: every log sorts its models by it)."""
    parts = origin.split(".")
    return tuple(int(p) if p.isdigit() else {"blips": 1, "reinforcements": 2}.get(p, 0) for p in parts)


def standing(entry: dict[str, Any]) -> bool:
    """A model still in action at the end: not knocked out or killed (an unrevealed blip stands, and
    so do a reinforcement that never came, ``waiting``, and a model of a section never uncovered,
    ``covered``)."""
    return entry["state"] not in ("ko", "killed")


__all__ = ["Book", "origin_order", "standing"]
