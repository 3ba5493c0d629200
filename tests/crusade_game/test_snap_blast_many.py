"""IX SNAP FIRE with a BLAST pistol at a crowd: "Your snap fire attack may only hit the attacking
model, unless it is a BLAST weapon"; VIII BLAST: "Center applies the total roll, and Outside applies
highest die only". Every model the blast reaches is rolled at (reading ``snap_blast``), past one
chance node model by model, as any blast (:mod:`.many_turn`)."""

from __future__ import annotations

import pytest

from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.damage import NONE, STUNNED
from grimdice.systems.crusade.game import many_turn
from grimdice.systems.crusade.game.many import MAX_NODE
from tests.crusade_game.helpers import MARINE, at, state
from tests.crusade_game.test_gaps import HALL, _bare, _blaster

GUNNER = _blaster(["B", "S"])
# the attacker at (3, 2) and five friends in the 3 x 3 blast around it; the gunner at (4, 2)
CROWD = [(3, 2), (2, 1), (2, 2), (2, 3), (3, 1), (3, 3)]


def _snapped():
    s = state(HALL, [at("Marine", x, y) for x, y in CROWD], [at("Stealer", 4, 2)], profiles=[MARINE, GUNNER])
    return s.apply(("activate", 0)).apply(("melee", 6)).apply(("snap", "blaster"))


def test_a_blast_snap_shot_rolls_at_every_model_it_reaches():
    s = _snapped()
    targets = s.pending[6]
    assert len(targets) == 7 > MAX_NODE  # the attacker, its five friends and the gunner itself
    assert targets[0] == 0 and set(targets) == set(range(7)) and s.pending[8:] == ("snap",)
    key = s.pending[4]
    assert many_turn.in_turn(key) and many_turn.shot_of(key).nodes == 1 + 7  # the roll, then each model


def test_the_centre_of_a_crowded_blast_snap_takes_the_point_blank_shot():
    # the attacker, at the centre, takes the total roll: the single shot at range 0, no re-roll
    per, _ = many_turn.shot_of(_snapped().pending[4]).marginals()
    one = calculate(
        {
            "system": "crusade",
            "action": "shoot",
            "attacker": _bare(GUNNER),
            "defender": _bare(MARINE),
            "range": 0,
        }
    ).extra["end_state"]
    stunned = sum(p for st, p in per[0].items() if st[0] == STUNNED)
    assert stunned == pytest.approx(one["stunned"], abs=1e-12)


def test_the_melee_follows_a_crowded_blast_snap_that_leaves_the_attacker_standing():
    s = _snapped()
    while s.pending[1] == "many":  # each node's first outcome that harms nobody
        law = many_turn.shot_of(s.pending[4]).law(many_turn.drawn(s.pending[4]))
        k = next(n for n, (part, _) in enumerate(law) if not isinstance(part[0], tuple) or part[0][0] == NONE)
        s = s.apply(("attack", k))
    assert s.pending[:4] == ("attack", "melee", 0, 6)
    assert [t.sq for t in s.tokens[:6]] == [(x, y) for x, y in CROWD]  # its knockbacks move nobody
