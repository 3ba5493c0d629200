"""VIII STUN: "On their turn, they may get up and make a half move, and may take no other actions or
movement (not even "free" actions such as digiweapons)": no FURTIVE hide, no PHASE or TELEPORT."""

from __future__ import annotations

from grimdice.systems.crusade.damage import STUNNED
from tests.crusade_game.helpers import STEALER, at, state
from tests.crusade_game.test_powers import game
from tests.crusade_game.test_psychic import dealt

DARK = "##########\n#::......#\n#::......#\n#::......#\n##########"
SNEAK = dict(STEALER, name="Sneak", abilities=["FURTIVE"])


def test_a_furtive_model_getting_up_may_not_hide_for_free():
    s = state(DARK, [at("Sneak", 1, 2)], [at("Stealer", 8, 2)], profiles=[SNEAK, STEALER])
    assert ("hide",) in s.apply(("activate", 0)).legal_actions()
    risen = s.with_token(0, cond=STUNNED).apply(("activate", 0))
    assert ("hide",) not in risen.legal_actions() and any(a[0] == "move" for a in risen.legal_actions())
    # the next activation is free of it
    later = risen.apply(("end",)).apply(("activate", 1)).apply(("end",)).apply(("activate", 0))
    assert ("hide",) in later.legal_actions()


def test_a_psyker_getting_up_may_not_play_a_card_that_takes_no_action():
    # VII: "PHASE, TELEPORT- does not take an action to play": a free action, barred by the stun
    data = game(["PHASE", "HEAL"], [at("Seer", 1, 1)], [at("Gunner", 12, 3)])
    s = dealt(data, [0, 1])
    s = s.apply(("pass",)) if s.psy is not None and s.psy.prompt else s
    assert any(a[0] == "cast" and a[2] == 0 for a in s.apply(("activate", 0)).legal_actions())
    risen = s.with_token(0, cond=STUNNED).apply(("activate", 0))
    assert not any(a[0] == "cast" for a in risen.legal_actions())
