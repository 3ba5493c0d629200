"""VIII KNOCKBACK off an edge on a table (reading ``knockback_edge``): "If they move past a railing
(no roof) or off an edge, they fall." V FALLING: "For every 4" you fall, take 1 hit (graze = stun)."."""

from __future__ import annotations

import json

from grimdice.systems.crusade.damage import NONE, STUNNED
from grimdice.systems.crusade.game.combat import PUSH_DEFENDER, cached_law
from grimdice.systems.crusade.game.state import invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER
from tests.crusade_game.table_helpers import active, put, rect, table, table_state

GUN = dict(MARINE, weapons=[{"name": "gun", "dice": "2R+2W", "kind": "ranged", "effects": ["KB", "S"]}])


def _pushed_unharmed(height):
    """The marine on a block ``height``" high shoots the stealer at the block's west edge, away
    from it; the law's end where the stealer is knocked back unharmed."""
    crate = {"name": "crate", "kind": "block", "shape": rect(4, 2, 8, 6), "height": height}
    s = table_state(
        table(terrain=[crate]),
        [put("Marine", 6, 3, height)],
        [put("Stealer", 4, 3, height)],
        profiles=[GUN, STEALER],
    )
    fired = active(s).apply(("shoot", 1, "gun"))
    assert json.loads(fired.pending[4])["knockback_into"] == "open"  # off the edge: no wall, no stun
    law = cached_law(fired.pending[4])
    k = next(n for n, ((ds, *_, push), _) in enumerate(law) if push & PUSH_DEFENDER and ds[0] == NONE)
    return fired.apply(("attack", k))


def test_knocked_off_a_5_inch_edge_the_model_falls_and_is_stunned():
    after = _pushed_unharmed(5)
    assert after.tokens[1].sq == (3, 3, 0) and after.tokens[1].cond == STUNNED  # 1 hit: a graze
    assert not invariant_errors(after)


def test_knocked_off_a_3_inch_edge_the_model_lands_unharmed():
    after = _pushed_unharmed(3)
    assert after.tokens[1].sq == (3, 3, 0) and after.tokens[1].cond == NONE
