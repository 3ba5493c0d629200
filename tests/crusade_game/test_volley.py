"""IX VOLLEY FIRE in the grid game (optional, ``options: {volley_fire: true}``; reading
``volley_fire``): who may fire, at what, and the chance node equal to ``calculate()``'s volley at
the same targets built by hand."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
import yaml

from grimdice.errors import ScenarioError
from grimdice.systems.crusade import calculate
from grimdice.systems.crusade.ai.players import ai_player, attack_value
from grimdice.systems.crusade.damage import CONDITIONS
from grimdice.systems.crusade.game.many import cached_joint
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.replay import replay
from grimdice.systems.crusade.game.sampling import support
from grimdice.systems.crusade.game.state import JAMMED, READY, UNLOADED, GameState, invariant_errors
from tests.crusade_game.helpers import MARINE, STEALER, at, state
from tests.crusade_game.test_many import _bare

FIELD = "\n".join(["#" * 31] + ["#" + "." * 29 + "#"] * 6 + ["#" * 31])
WALLED = "\n".join(
    ["#" * 31]
    + ["#" + "." * 29 + "#"] * 2
    + ["#....#" + "." * 24 + "#"]
    + ["#" + "." * 29 + "#"] * 3
    + ["#" * 31]
)


def _guard(dice: str = "2W", effects: tuple[str, ...] = ("J",), name: str = "Guard") -> dict:
    weapon = {"name": "lasgun", "dice": dice, "kind": "ranged", "effects": list(effects)}
    return dict(MARINE, name=name, armour=0, abilities=[], weapons=[weapon])


ORK = dict(STEALER, name="Ork", armour=0, hits=1)


def _game(guards, orks, profiles=None, board=FIELD, on=True) -> GameState:
    return state(
        board, [at("Guard", *q) for q in guards], [at("Ork", *q) for q in orks],
        profiles=profiles or [_guard(), ORK], options={"volley_fire": on},
    ).apply(("activate", 0))  # fmt: skip


def _volleys(s: GameState) -> list[tuple]:
    return [a for a in s.legal_actions() if a[0] == "volley"]


GUARDS = [(2, 2), (2, 3), (2, 4), (2, 5)]


def test_volleys_are_offered_only_with_the_option():
    # "VOLLEY FIRE: (Optional)": off by default
    assert _volleys(_game(GUARDS, [(8, 3)]))
    assert not _volleys(_game(GUARDS, [(8, 3)], on=False))


def test_only_basic_weapons_rolling_two_whites_are_eligible():
    # "basic weapons that roll only 2 whites (no pluses)"
    for dice, effects in (("2W+1R", ("J",)), ("3W", ()), ("2W", ("BURN",)), ("2W", ("KB",)), ("2W", ("*",))):
        assert not _volleys(_game(GUARDS, [(8, 3)], profiles=[_guard(dice, effects), ORK])), (dice, effects)


def test_the_firers_see_every_target_at_the_same_declared_range():
    # "they must have LOS and the same declared range to all the targets"
    s = _game([(2, 2), (2, 3), (20, 2)], [(12, 3)])  # the third guard is 8 squares off: the same foot
    assert _volleys(s) == [("volley", "lasgun", 1, 3, 2, 1)]  # the friends nearest the target first
    far = _game([(2, 2), (2, 3), (27, 3)], [(13, 3)])  # 14 squares: the next foot
    assert _volleys(far) == [("volley", "lasgun", 1, 3, 1)]
    # the wall at (5, 3) hides the ork at (8, 3) from the guard at (2, 3)
    hid = _game([(2, 1), (2, 3)], [(8, 3)], board=WALLED)
    assert hid.setup.board.sight((2, 1), (8, 3), {}, hid.occupied())
    assert not hid.setup.board.sight((2, 3), (8, 3), {}, hid.occupied())
    assert not _volleys(hid)


def test_targets_fit_under_a_3_inch_template():
    # "Eligible targets must fit under a 3" template": 2 squares apart fit, 3 do not
    near = _game(GUARDS[:2], [(10, 2), (10, 4)])
    assert ("volley", "lasgun", 2, 2, 3, 1) in _volleys(near)
    apart = _game(GUARDS[:2], [(10, 1), (10, 4)])
    assert all(a[2] == 1 for a in _volleys(apart))


def test_the_volley_is_the_calculators_at_the_targets():
    # "roll all of the white dice together in one big roll ... apply the roll to any target"
    s = _game(GUARDS[:3], [(10, 2), (10, 4)])
    a = ("volley", "lasgun", 2, 3, 4, 1, 2)
    assert a in _volleys(s)
    fired = s.apply(a)
    law = cached_joint(fired.pending[4])
    assert sum(p for _, p in law) == pytest.approx(1.0)
    rows = [dict(_bare(ORK), name=f"target {n}", range=8) for n in range(2)]
    by_hand = {"system": "crusade", "action": "shoot", "attacker": _bare(_guard()), "defender": _bare(ORK),
               "targets": rows, "volley": 3}  # fmt: skip
    res = calculate(by_hand)
    for n, target in enumerate(res.targets.values()):
        for c, cond in enumerate(CONDITIONS):
            got = sum(p for (states, *_), p in law if states[n][0] == c)
            assert got == pytest.approx(target.extra["end_state"][cond], abs=1e-12), (n, cond)
    failed = sum(p for (_, _, f, *_), p in law if f)
    assert failed == pytest.approx(1 - res.stages["fail"].to_dict().get(0, 0.0), abs=1e-12)


def test_the_firers_spend_their_activations_and_a_failed_pair_fails_one_firers_weapon():
    # III: "If using combined fire, randomize which weapon fails": each firer's weapon 1/3
    s = _game(GUARDS[:3], [(10, 3)])
    a = _volleys(s)[0]
    firers = (0, *a[4:])
    fired = s.apply(a)
    assert fired.acted and fired.tokens[1].done and fired.tokens[2].done
    assert not fired.tokens[0].done  # the declaring model goes on with its activation
    outcomes = dict(fired.chance_outcomes())
    assert sum(outcomes.values()) == pytest.approx(1.0)
    law = cached_joint(fired.pending[4])
    k = next(n for n, (end, _) in enumerate(law) if end[2])
    for f, firer in enumerate(firers):
        assert outcomes[("attack", k, f)] == pytest.approx(law[k][1] / 3)
        after = fired.apply(("attack", k, f))
        want = [(JAMMED,) if m == firer else (READY,) for m in firers]
        assert [after.tokens[m].arms for m in firers] == want
    ok = next(n for n, (end, _) in enumerate(law) if not end[2])
    assert outcomes[("attack", ok)] == law[ok][1]
    for outcome in outcomes:
        assert not invariant_errors(fired.apply(outcome))


def test_a_malfunction_falls_on_the_firer_whose_weapon_failed():
    # VIII MALFUNCTION: "roll the weapon dice against the user": the firer drawn, not the declarer
    s = _game(GUARDS[:3], [(10, 3)], profiles=[_guard(effects=("MALFUNCTION",)), ORK])
    a = _volleys(s)[0]
    fired = s.apply(a)
    law = cached_joint(fired.pending[4])
    k = next(n for n, (end, _) in enumerate(law) if end[2])
    for f, firer in enumerate((0, *a[4:])):
        after = fired.apply(("attack", k, f))
        assert after.pending[:3] == ("attack", "malfunction", firer)


def test_every_firers_reload_weapon_is_unloaded():
    # VIII RELOAD: "an action to reload for each shot": each firer fired its weapon
    s = _game(GUARDS[:3], [(10, 3)], profiles=[_guard(effects=("J", "RELOAD")), ORK])
    a = _volleys(s)[0]
    fired = s.apply(a)
    law = cached_joint(fired.pending[4])
    ok = next(n for n, (end, _) in enumerate(law) if not end[2])
    after = fired.apply(("attack", ok))
    assert [after.tokens[m].arms for m in (0, *a[4:])] == [(UNLOADED,)] * 3


def test_a_sniper_that_moved_volleys_with_the_range_penalty():
    # IX SNIPER: no range penalty "if the firer did not move": the declarer stepped first
    sniper = dict(_guard(), abilities=["SNIPER"])
    s = _game([(2, 3), (2, 4)], [(16, 3)], profiles=[sniper, ORK]).apply(("move", 3, 3))
    a = ("volley", "lasgun", 1, 2, 1)
    assert a in _volleys(s)
    law = cached_joint(s.apply(a).pending[4])
    killed = sum(p for (states, *_), p in law if states[0][0] == CONDITIONS.index("killed"))

    def by_hand(moved: bool) -> float:
        row = dict(_bare(ORK), name="target 0", range=13)
        sc = {"system": "crusade", "action": "shoot", "attacker": _bare(sniper), "defender": _bare(ORK),
              "targets": [row], "volley": 2, "moved": moved}  # fmt: skip
        return next(iter(calculate(sc).targets.values())).extra["end_state"]["killed"]

    assert by_hand(True) < by_hand(False)
    assert killed == pytest.approx(by_hand(True), abs=1e-12)


def test_the_option_names_the_forces_that_volley():
    # IX: "speed up mass enemy attacks ... Declare which enemy models are participating"
    assert _volleys(_game(GUARDS, [(8, 3)], on=[0]))
    assert not _volleys(_game(GUARDS, [(8, 3)], on=[1]))
    for bad in ([2], [0, 0], [1, 0, 1]):
        with pytest.raises(ScenarioError) as err:
            _game(GUARDS, [(8, 3)], on=bad)
        assert err.value.field == "options.volley_fire"


def test_blips_refuse_the_option_naming_it():
    # "In Battle games": a game with blips is a blip game
    with pytest.raises(ScenarioError) as err:
        state(FIELD, [at("Guard", 2, 2)], [], profiles=[_guard(), ORK], options={"volley_fire": True},
              force_b={"blips": [{"at": [10, 3], "models": ["Ork"]}]})  # fmt: skip
    assert err.value.field == "options.volley_fire"


def test_the_random_player_draws_a_volley_as_a_kind():
    s = _game(GUARDS, [(8, 3)])
    got = support(s)
    assert got is not None and "volley" in got and "shoot" in got
    rng = np.random.default_rng(0)
    kinds = len(got)
    drawn = sum(s.random_action(rng)[0] == "volley" for _ in range(400))
    assert 400 / kinds / 2 < drawn < 400 / kinds * 2


def test_the_ai_volleys_when_it_does_more_than_the_shots_one_by_one():
    s = _game(GUARDS, [(8, 2), (8, 4)])
    values = {a: attack_value(s, a) for a in s.legal_actions() if a[0] in ("shoot", "volley")}
    best = max(values, key=values.get)
    assert best[0] == "volley"
    assert ai_player(s, np.random.default_rng(0)) == best


@pytest.mark.slow
def test_volleys_on_a_table_keep_the_invariants_and_replay():
    data = yaml.safe_load(Path("examples/games/crusade-game-skirmish.yaml").read_text())
    data["options"] = {"volley_fire": True}
    volleys = 0
    for seed in (0, 1):
        log = play_game(data, ("ai", "random"), seed)
        volleys += sum(a[0] == "volley" for a in log["actions"])
        again, _, problems = replay(json.loads(json.dumps(log)))
        assert problems == [] and again == log
    assert volleys > 0


def test_every_volley_offered_at_a_hurt_target_is_solved():
    # the volley's bound counts each target's states from its full hits, as the calculator does
    big = dict(ORK, hits=2)
    s = _game(GUARDS, [(8, 3), (9, 4)], profiles=[_guard(), big])
    s = s.with_token(5, hits=0)  # a hit lost: fewer states left, the calculator counts them all
    offered = [a for a in _volleys(s) if a[2] == 2]
    assert offered
    for a in offered:
        attack_value(s, a)  # its joint law is solved, not refused
