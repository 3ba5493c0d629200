"""What needs several rule systems at once, above :mod:`grimdice.systems` and below the front ends
(:mod:`grimdice.cli`, :mod:`grimdice.web`).

* :mod:`~grimdice.adapters.rosters` — roster units (read by :mod:`grimdice.io.rosters`) as each
  system's own scenario input, and every unit of one roster against every unit of another.
"""
