"""The Rules Crusade skirmish game on a square-grid board (section X) or a table in inches with terrain
and buildings (V, VI; :mod:`.board`, :mod:`.table`): scenario files, immutable game
states on the :mod:`grimdice.engine.game` interface, players and :func:`play_game`. See
``docs/crusade-game.md``."""
