"""Many games between two armies: per-game seeds spawned from one seed, run on any number of
workers (``engine.batch.parallel_map``), and their statistics (win rates with Wilson intervals,
mean scores, per-unit survival and points killed)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from grimdice.engine.batch import Progress, parallel_map, wilson
from grimdice.engine.board import Table, generate_table
from grimdice.engine.options import MAX_SEED, MAX_WORKERS, _whole
from grimdice.errors import ScenarioError
from grimdice.systems.onepage.game.cache import LawCache
from grimdice.systems.onepage.game.play import play
from grimdice.systems.onepage.game.players import PLAYERS
from grimdice.systems.onepage.game.setup import ArmySide, Setup

MAX_GAMES = 100_000


def game_seeds(seed: int, n: int) -> list[int]:
    """``n`` independent per-game seeds spawned from ``seed`` (game ``i`` is the same in any batch
    of at least ``i + 1`` games with that seed)."""
    return [int(c.generate_state(1)[0]) % 1_000_000_000 for c in np.random.SeedSequence(seed).spawn(n)]


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
        for i, p in enumerate(self.players):
            if p not in PLAYERS:
                raise ScenarioError(f"--players.{i}", f"unknown player {p!r}; allowed: {', '.join(PLAYERS)}")

    def __call__(self, seed: int) -> dict[str, Any]:
        table = self.table if self.table is not None else generate_table(seed % (2**32))
        setup = Setup(self.armies, table, self.cache)
        log = play(setup, seed, self.players)
        log["kills"] = kills(log)
        if not self.keep_log:  # the statistics need only the scores, units and kills: memory stays
            # ~1 kB a game (the events are ~97 % of a log: 3 GB over the 100 000 games allowed)
            log = {k: v for k, v in log.items() if k not in ("setup", "actions", "events")}
        return log


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
) -> list[dict[str, Any]]:
    if not 1 <= games <= MAX_GAMES:
        raise ScenarioError("--games", f"1 to {MAX_GAMES} games, got {games}")
    seed = _whole(seed, "--seed", 0, MAX_SEED, "the seed")  # SeedSequence refuses negative seeds
    if workers is not None:
        workers = _whole(workers, "--workers", 1, MAX_WORKERS, "worker processes")
    return parallel_map(job, game_seeds(seed, games), workers=workers, scheduler=scheduler, progress=progress)


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


__all__ = ["GameJob", "game_seeds", "kills", "run_games", "summarise"]
