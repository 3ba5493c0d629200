"""What a log records of each model: its origin in the scenario (blips' models included, once
each) and its kills (an enemy taken out of action by its attack; the defender's when the attacker
falls in a melee)."""

from __future__ import annotations

from pathlib import Path

import yaml

from grimdice.systems.crusade.damage import KILLED, KO, NONE, STUNNED, WOUNDED
from grimdice.systems.crusade.game.play import play_game
from grimdice.systems.crusade.game.record import Book
from tests.crusade_game.helpers import at, state

CORRIDOR = "examples/games/crusade-game-corridor.yaml"


def test_every_model_of_the_scenario_is_recorded_once() -> None:
    data = yaml.safe_load(Path(CORRIDOR).read_text())
    expected = []
    for f, force in enumerate(data["forces"]):
        expected += [f"forces.{f}.models.{j}" for j in range(len(force.get("models", [])))]
        for j, b in enumerate(force.get("blips", [])):
            expected += [f"forces.{f}.blips.{j}.models.{k}" for k in range(len(b["models"]))]
    revealed = 0
    for seed in range(4):
        log = play_game(data, ("ai", "ai"), seed)
        assert [m["from"] for m in log["models"]] == expected
        revealed += sum(m["state"] != "unrevealed" and ".blips." in m["from"] for m in log["models"])
        standing = sum(m["state"] not in ("ko", "killed") for m in log["models"] if m["force"] == 0)
        assert standing == len(log["survivors"][data["forces"][0]["name"]])
    assert revealed > 0  # blips were revealed and their models followed


def test_a_melee_kill_goes_to_whoever_took_the_other_out() -> None:
    s0 = state("#####\n#AB.#\n#####", [at("Marine", 1, 1)], [at("Stealer", 2, 1)])
    s = s0.apply(("activate", 0)).apply(("melee", 1))
    assert s.pending[:4] == ("attack", "melee", 0, 1)
    cases = [  # (marine's condition after, stealer's) -> (marine's kills, stealer's)
        ((NONE, KILLED), [1, 0]),
        ((NONE, KO), [1, 0]),
        ((KILLED, NONE), [0, 1]),  # the attacker fell: the defender's kill
        ((WOUNDED, STUNNED), [0, 0]),
    ]
    for (marine, stealer), kills in cases:
        book = Book(s0)
        book.step(s, s.with_token(0, cond=marine).with_token(1, cond=stealer))
        assert book.kills == kills
    taken = [o for o, _ in s.chance_outcomes() if s.apply(o).tokens[1].cond >= KO]
    assert taken  # and in play: an outcome of the melee that takes the stealer out is the marine's
    book = Book(s0)
    book.step(s, s.apply(taken[0]))
    assert book.kills == [1, 0]
