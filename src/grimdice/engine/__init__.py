"""The shared machinery every rule system configures (game-agnostic, above :mod:`grimdice.dice`).

* :mod:`~grimdice.engine.rules` — rule tables: each rule as data, one parser, the rule index.
* :mod:`~grimdice.engine.pipeline` — a roll written once as a predicate, exact and sampled.
* :mod:`~grimdice.engine.allocation` — wounds allocated model by model: the exact chain, sampled queues.
* :mod:`~grimdice.engine.packing` — two per-trial counts in one machine word (tally words).
* :mod:`~grimdice.engine.montecarlo` — the chunked, seeded, multi-core Monte Carlo runner.
* :mod:`~grimdice.engine.heap` — the allocator setting the processes grimdice starts make.
* :mod:`~grimdice.engine.game` — game states, chance nodes and an exact expectimax solver.
* :mod:`~grimdice.engine.table` — the game table: bases, terrain, sight, swept moves, coherency.
* :mod:`~grimdice.engine.options` — run options (exact or simulated), validated once for all.
"""
