"""Many games of one scenario between two players: per-game seeds spawned from one seed, run on
any number of workers or a Dask cluster (:func:`grimdice.engine.batch.play_games`: the same seed
gives the same games however they are run), and their statistics: the first force's wins, draws
and losses with 95 % Wilson intervals, each model's survival and mean kills (``grimdice play``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from grimdice.engine.batch import play_games, wilson
from grimdice.errors import ScenarioError
from grimdice.systems.crusade.ai.players import PLAYERS
from grimdice.systems.crusade.game.play import play_game, readings
from grimdice.systems.crusade.game.record import origin_order, standing
from grimdice.systems.crusade.game.scenario import Setup

KEPT_OUT = ("scenario", "actions", "events", "notes")  # the statistics do not read them


@dataclass(frozen=True)
class GameJob:
    """One game of ``setup`` from its seed between ``players``; the whole log with ``keep_log``,
    else :func:`brief`."""

    setup: Setup
    players: tuple[str, str] = ("ai", "ai")
    keep_log: bool = False

    def __post_init__(self) -> None:
        for i, p in enumerate(self.players):
            if p not in PLAYERS:
                raise ScenarioError(f"--players.{i}", f"unknown player {p!r}; allowed: {', '.join(PLAYERS)}")

    def __call__(self, seed: int) -> dict[str, Any]:
        log = play_game(self.setup, self.players, seed)
        return log if self.keep_log else brief(log)


def brief(log: dict[str, Any]) -> dict[str, Any]:
    """What the statistics read of a game (winner, rounds, models)."""
    return {k: v for k, v in log.items() if k not in KEPT_OUT}


def run_games(
    job: GameJob, games: int, seed: int, save: Path | None = None, **where: Any
) -> list[dict[str, Any]]:
    """The games' :func:`brief` logs in seed order; with ``save`` each whole log is written to
    ``save/game-NNNN.json`` as it finishes (what ``grimdice replay`` reads). ``where``: the
    ``workers``, ``scheduler`` and ``progress`` of :func:`~grimdice.engine.batch.play_games`."""

    def split(log: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return json.dumps(log), brief(log)

    keep = (save, replace(job, keep_log=True), split) if save is not None else None
    return play_games(job, games, seed, save=keep, **where)


def summarise(logs: list[dict[str, Any]], setup: Setup, seed: int) -> dict[str, Any]:
    """Win/draw/loss of the first force (95 % Wilson intervals), mean rounds, and per model of
    the scenario (a force's models, then its blips' models) its survival (still standing at the
    end; an unrevealed blip's models stand) and mean kills (enemy models it took out of action)."""
    n = len(logs)
    forces = [f.name for f in setup.scenario.forces]
    wins = [sum(1 for g in logs if g["returns"][side] > 0) for side in (0, 1)]  # by side, not name

    def rate(k: int) -> dict[str, float]:
        lo, hi = wilson(k, n)
        return {"rate": k / n, "low": lo, "high": hi}

    models: dict[str, dict[str, Any]] = {}
    for g in logs:
        for m in g["models"]:
            row = models.setdefault(
                m["from"], {"force": m["force"], "model": m["profile"], "from": m["from"], "up": 0, "k": 0}
            )
            row["up"] += standing(m)
            row["k"] += m["kills"]
    rows = [
        {
            "force": forces[r["force"]],
            "model": r["model"],
            "from": r["from"],
            "survival": r["up"] / n,
            "mean_kills": r["k"] / n,
        }
        for r in sorted(models.values(), key=lambda r: origin_order(r["from"]))
    ]
    return {
        "system": "crusade",
        "title": setup.scenario.title,
        "games": n,
        "seed": seed,
        "players": list(logs[0]["players"]),
        "forces": forces,
        "force_a": {"win": rate(wins[0]), "draw": rate(n - sum(wins)), "loss": rate(wins[1])},
        "mean_rounds": sum(g["rounds"] for g in logs) / n,
        "models": rows,
        "notes": readings(setup),
    }


__all__ = ["GameJob", "brief", "run_games", "summarise"]
