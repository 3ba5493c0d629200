"""IX BIG and buildings on a table (reading ``big_entry``): "They may only enter a building directly
through a Forced Entry marker"."""

from __future__ import annotations

from tests.crusade_game.helpers import MARINE, STEALER
from tests.crusade_game.table_helpers import active, put, table, table_state
from tests.crusade_game.test_table_sight import hab

OGRYN = dict(MARINE, name="Ogryn", abilities=["BIG"])


def _at_the_wall(profile, stealer=(12, 7, 0)):
    """A model of ``profile`` at (3, 3), beside the hab's west sector (empty unless ``stealer``)."""
    return active(
        table_state(
            table(w=14, buildings=[hab()]),
            [put(profile["name"], 3, 3)],
            [put("Stealer", *stealer)],
            profiles=[profile, STEALER],
        )
    )


def steps(s):
    """The active model's legal steps."""
    return [a for a in s.legal_actions() if a[0] == "move"]


def test_a_big_model_does_not_step_into_an_empty_building():
    plain, big = _at_the_wall(MARINE), _at_the_wall(OGRYN)
    assert ("move", 4, 3, 0) in steps(plain)
    assert ("move", 4, 3, 0) not in steps(big)


def test_a_big_model_forces_an_entry_and_steps_in_through_its_marker():
    big = _at_the_wall(OGRYN)
    west = big.setup.board.indoors((5, 5, 0))
    assert ("force", west, "bolter") in big.legal_actions()  # even into an empty sector
    assert ("force", west, "bolter") not in _at_the_wall(MARINE).legal_actions()
    made = big.apply(("force", west, "bolter")).apply(("force", 1))
    assert made.breaches == (((3, 3, 0), west),)
    turn = made.apply(("end",)).apply(("activate", 1)).apply(("end",)).apply(("activate", 0))
    assert ("move", 4, 3, 0) in steps(turn)  # from the marker
    away = turn.apply(("move", 3, 4, 0)).apply(("move", 3, 5, 0))  # 2" from the marker
    assert ("move", 4, 5, 0) in steps(_at_the_wall(MARINE).apply(("move", 3, 4, 0)).apply(("move", 3, 5, 0)))
    assert not [k for k in steps(away) if away.setup.board.indoors(k[1:]) == west]
