"""Wound allocation model by model, shared by every system that allocates that way.

* :mod:`~grimdice.engine.allocation.chain` — the exact law: one Markov chain over the defending
  unit's queues of models (:class:`Chain`, :class:`Queue`).
* :mod:`~grimdice.engine.allocation.sampled` — the same queue model rolled literally, per trial
  (:class:`~grimdice.engine.allocation.sampled.ModelQueue`), for the Monte Carlo engines.
"""

from grimdice.engine.allocation.chain import (
    Acting,
    Chain,
    Hold,
    Law,
    Queue,
    Route,
    TokenLaw,
    upper,
)

__all__ = ["Acting", "Chain", "Hold", "Law", "Queue", "Route", "TokenLaw", "upper"]
