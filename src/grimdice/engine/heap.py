"""The Monte Carlo's allocator setting: keep its same-sized temporary arrays on the heap (glibc).

A process-wide setting, so the library never makes it by itself: the processes grimdice starts
make it once at their start (the ``grimdice`` command, :func:`grimdice.__main__.main`; its forked
local workers inherit it; a Dask worker started with ``dask worker --preload grimdice.engine.heap``
through :func:`dask_setup`), and a program using grimdice as a library may call
:func:`keep_arrays_on_heap` itself. ``GRIMDICE_KEEP_HEAP=0`` in the environment opts out: the
allocator is then left as it is everywhere. No NumPy here: the command imports this at start-up.
"""

from __future__ import annotations

import os
from typing import Any

HEAP_ARRAYS = 32 << 20  # arrays below this many bytes come from the heap (see keep_arrays_on_heap)
HEAP_KEPT = 128 << 20  # freed heap kept for reuse, at most this many bytes at the top
OPT_OUT = "GRIMDICE_KEEP_HEAP"  # set to 0 to leave the allocator's settings alone

_TUNED: bool | None = None


def keep_arrays_on_heap() -> bool:
    """Serve the Monte Carlo's same-sized temporary arrays from the heap (glibc only; once per
    process; returns whether the allocator was tuned). **Changes the process's malloc settings**
    (``mallopt``), for the whole process: call it only where that is wanted (see the module text);
    a no-op returning False when ``GRIMDICE_KEEP_HEAP=0`` or on other C libraries.

    glibc serves an allocation of at least ``M_MMAP_THRESHOLD`` bytes with a fresh ``mmap``; the
    threshold adapts to the size of the chunks freed, but a request of exactly that size is still
    mapped afresh, so the arrays of equal size a block allocates on every step (a few hundred KB
    to a few MB for 50 000 trials) came back as fresh pages each time: page faults and zeroing,
    25 to 40% of a block's CPU time on the 40k and Heresy examples. Raising the threshold to
    :data:`HEAP_ARRAYS` and the trim threshold to :data:`HEAP_KEPT` (the freed top of the heap is
    returned to the system only beyond it) keeps them on the heap. The process may then keep up
    to :data:`HEAP_KEPT` bytes of freed memory for reuse."""
    global _TUNED
    if os.environ.get(OPT_OUT, "").strip() == "0":
        return bool(_TUNED)  # opted out: tuned only if something tuned it before
    if _TUNED is None:
        _TUNED = False
        try:
            import ctypes

            # glibc only (a cheap check: ctypes.util.find_library would run ldconfig in a subprocess)
            if os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):  # type: ignore[union-attr]
                libc = ctypes.CDLL(None)  # the running process's symbols, libc's mallopt among them
                M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3  # glibc's malloc.h
                _TUNED = bool(libc.mallopt(M_MMAP_THRESHOLD, HEAP_ARRAYS)) and bool(
                    libc.mallopt(M_TRIM_THRESHOLD, HEAP_KEPT)
                )
        except (OSError, ValueError, AttributeError):  # pragma: no cover - no glibc to tune
            _TUNED = False
    return _TUNED


def dask_setup(worker: Any) -> None:
    """Dask's preload hook (``dask worker --preload grimdice.engine.heap``): tune the worker's
    process at its start, as the ``grimdice`` command tunes its own."""
    keep_arrays_on_heap()


__all__ = ["HEAP_ARRAYS", "HEAP_KEPT", "OPT_OUT", "dask_setup", "keep_arrays_on_heap"]
