"""Many games between two armies: per-game seeds spawned from one seed, run on any number of
workers (``engine.batch.parallel_map``), and their statistics (win rates with Wilson intervals,
mean scores, per-unit survival and points killed); with a ``save`` folder each game's log is
written there as the game finishes (``grimdice play --save``)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from grimdice.engine.batch import Progress, game_seeds, play_games, wilson
from grimdice.engine.table.layout import generate_table
from grimdice.engine.table.terrain import Table
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.game.cache import LawCache
from grimdice.systems.onepage.game.places import deploy
from grimdice.systems.onepage.game.play import play
from grimdice.systems.onepage.game.setup import ArmySide, Setup

KEPT_OUT = ("setup", "actions", "events")  # ~97 % of a log; the statistics do not read them


@dataclass
class GameJob:
    """One game from its seed: the armies, a fixed table or a generated one per game (from the
    game's seed), both players; exact laws cached across the games a worker plays (a bounded
    :class:`~grimdice.systems.onepage.game.cache.LawCache`)."""

    armies: tuple[ArmySide, ArmySide]
    table: Table | None = None
    players: tuple[str, str] = ("ai", "ai")
    keep_log: bool = False
    cache: dict[Any, Any] = field(default_factory=LawCache, repr=False)

    def __post_init__(self) -> None:
        from grimdice.systems.onepage.ai import PLAYERS

        for i, p in enumerate(self.players):
            if p not in PLAYERS:
                raise ScenarioError(f"--players.{i}", f"unknown player {p!r}; allowed: {', '.join(PLAYERS)}")

    def check_deployment(self) -> None:
        """Refuse armies that cannot deploy before any game starts (a worker's error would only
        come after forking): both sides deployed on the fixed table, or with a table generated per
        game on an open table (terrain can only take room away)."""
        setup = Setup(self.armies, self.table if self.table is not None else Table(), self.cache)
        for south in (0, 1):
            deploy(setup, 0, south)

    def __call__(self, seed: int) -> dict[str, Any]:
        table = self.table if self.table is not None else generate_table(seed % (2**32))
        setup = Setup(self.armies, table, self.cache)
        log = play(setup, seed, self.players)
        log["kills"] = kills(log)
        return log if self.keep_log else brief(log)


def brief(log: dict[str, Any]) -> dict[str, Any]:
    """What the statistics read of a game (scores, winner, units, kills): ~1 kB a game, where the
    whole logs of the 100 000 games allowed would take ~3 GB."""
    return {k: v for k, v in log.items() if k not in KEPT_OUT}


def saved_text(log: dict[str, Any]) -> str:
    """A game's log as ``grimdice play --save`` writes it (what ``grimdice replay`` reads): the
    log without the kills the batch adds."""
    return json.dumps({k: v for k, v in log.items() if k != "kills"})


def kills(log: dict[str, Any]) -> list[float]:
    """Points of enemy units each unit destroyed (the unit whose attack removed the last model)."""
    units = log["units"]
    alive = [u["started"] for u in units]
    out = [0.0] * len(units)
    for e in log["events"]:
        if e.get("phase") != "combat":
            continue
        u, t = e["unit"], e["target"]
        mu, mt = e["models"]
        if e["kind"] in ("dangerous", "transport"):  # automatic hits from no enemy: nobody's kill
            alive[u], alive[t] = mu, mt
            continue
        if alive[t] > 0 and mt == 0:
            out[u] += units[t]["cost"]
        if e["kind"] == "melee" and alive[u] > 0 and mu == 0:
            out[t] += units[u]["cost"]
        alive[u], alive[t] = mu, mt
    return out


def run_games(
    job: GameJob,
    games: int,
    seed: int,
    *,
    workers: int | None = None,
    scheduler: str | None = None,
    progress: Progress | None = None,
    save: Path | None = None,
) -> list[dict[str, Any]]:
    """The games' logs in seed order (:func:`brief` ones unless ``job.keep_log``). With ``save``,
    each game's whole log is written to ``save/game-NNNN.json`` (:func:`saved_text`) as it
    finishes, in whatever order the workers finish them, and only its brief log is kept."""

    def split(log: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        return saved_text(log), brief(log)

    keep = (save, replace(job, keep_log=True), split) if save is not None else None
    return play_games(
        job,
        games,
        seed,
        workers=workers,
        scheduler=scheduler,
        progress=progress,
        save=keep,
        ready=job.check_deployment,
    )


def summarise(logs: list[dict[str, Any]], names: tuple[str, str]) -> dict[str, Any]:
    n = len(logs)
    wins = [sum(1 for g in logs if g["winner"] == p) for p in (0, 1)]
    draws = n - sum(wins)

    def rate(k: int) -> dict[str, float]:
        lo, hi = wilson(k, n)
        return {"rate": k / n, "low": lo, "high": hi}

    units = []
    for i, u in enumerate(logs[0]["units"]):
        units.append(
            {
                "army": u["army"],
                "unit": u["name"],
                "cost": u["cost"],
                "survival": sum(1 for g in logs if not g["units"][i]["destroyed"]) / n,
                "mean_models_left": sum(g["units"][i]["models"] for g in logs) / n,
                "mean_points_killed": sum(g["kills"][i] for g in logs) / n,
            }
        )
    return {
        "games": n,
        "armies": list(names),
        "army_a": {"win": rate(wins[0]), "draw": rate(draws), "loss": rate(wins[1])},
        "mean_scores": [sum(g["scores"][p] for g in logs) / n for p in (0, 1)],
        "units": units,
    }


__all__ = ["GameJob", "brief", "game_seeds", "kills", "run_games", "saved_text", "summarise"]
