"""Wound allocation model by model, shared by every system that allocates that way.

* :mod:`~grimdice.engine.allocation.chain` — the exact law: one Markov chain over the defending
  unit's queues of models (:class:`Chain`), its state, cost and absorbing of tokens;
* :mod:`~grimdice.engine.allocation.queues` — the queues of models (:class:`Queue`) and what a
  system gives the chain: the routing between queues and the law of one token on one model;
* :mod:`~grimdice.engine.allocation.operators` — the operators of one token on the unit's states
  (bands, dense matrices, the thinned operators of the tokens that act), shared by equal chains;
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
