"""The hostile-input harness: run a case under a wall-clock bound and judge its outcome.

An outcome is acceptable when it is either a :class:`~grimdice.errors.GrimdiceError` whose message
is one short line naming a field (``field: what is allowed``), or a valid result: every stage's
pmf sums to 1 within 1e-9, has no negative or NaN value, its mean is the pmf's mean, and counts
stay within what the scenario allows (no negative count, no more models destroyed than it has).
"""

from __future__ import annotations

import math
import signal
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import yaml

from grimdice.errors import GrimdiceError, ScenarioError
from grimdice.result import Result

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASE_SECONDS = 20.0  # wall-clock bound of one case (a few examples take ~1 s exact on a slow core)
MAX_ERROR_CHARS = 1200


class CaseTimeout(AssertionError):
    """A case ran past its wall-clock bound."""


@contextmanager
def time_limit(seconds: float = CASE_SECONDS) -> Iterator[None]:
    """Raise :class:`CaseTimeout` in the running code once ``seconds`` of wall time have passed."""

    def _alarm(signum: int, frame: Any) -> None:
        raise CaseTimeout(f"case ran longer than {seconds} s")

    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def examples() -> dict[str, dict[str, Any]]:
    """The bundled example scenarios, by file name."""
    return {p.name: yaml.safe_load(p.read_text()) for p in sorted(EXAMPLES.glob("*.yaml"))}


def check_error(exc: GrimdiceError) -> None:
    """A user-facing error: one short line that names a field (``field: message``)."""
    text = str(exc)
    assert "\n" not in text and "\r" not in text, text[:200]
    assert len(text) <= MAX_ERROR_CHARS, f"error of {len(text)} characters: {text[:200]}"
    assert all(ch.isprintable() for ch in text), repr(text[:200])
    if isinstance(exc, ScenarioError):
        assert exc.field, text
    assert ": " in text, text  # "field: what is allowed" (a RuleError names its rule the same way)


def models_in(data: Any) -> int:
    """An upper bound on the models a scenario can lose: every mapping with a W or T (a model or an
    operative) counts ``count`` (default 1) models; a One Page unit (a mapping with ``quality``)
    counts ``size`` (default 1); any other mapping with ``hits`` (a Rules Crusade model) counts one."""
    n = 0
    stack = [data]
    while stack:
        v = stack.pop()
        if isinstance(v, Mapping):
            if "W" in v or "T" in v:
                c = v.get("count", 1)
                n += c if isinstance(c, int) and not isinstance(c, bool) and c > 0 else 1
            elif "quality" in v:  # a One Page unit: size models (1 when left out, as a Hero)
                c = v.get("size", 1)
                n += c if isinstance(c, int) and not isinstance(c, bool) and c > 0 else 1
            elif "hits" in v:
                n += 1
            stack.extend(v.values())
        elif isinstance(v, list):
            stack.extend(v)
    return n


def check_result(result: Result, data: Any) -> None:
    """Every stage (of the result and its per-target sub-results) is a valid count distribution."""
    assert isinstance(result, Result)
    bound = models_in(data)
    for name, d in result.stages.items():
        pmf = d.pmf_from_zero()
        assert d.min >= 0, f"{name}: negative count {d.min}"
        assert all(not math.isnan(p) and p >= 0.0 for p in pmf), f"{name}: pmf has a negative or NaN"
        assert abs(sum(pmf) - 1.0) <= 1e-9, f"{name}: pmf sums to {sum(pmf)!r}"
        mean = sum(i * p for i, p in enumerate(pmf))
        assert math.isclose(d.mean(), mean, rel_tol=1e-9, abs_tol=1e-9), f"{name}: mean {d.mean()} vs {mean}"
        if name == "models_destroyed":
            assert d.max <= bound, f"models_destroyed reaches {d.max} of at most {bound} models"
    for sub in result.targets.values():
        check_result(sub, data)


def judge(run: Callable[[], Result], data: Any, seconds: float = CASE_SECONDS) -> str:
    """Run one case within ``seconds``; return ``"error"`` or ``"result"`` after checking it."""
    t0 = time.monotonic()
    with time_limit(seconds):
        try:
            result = run()
        except GrimdiceError as exc:
            check_error(exc)
            return "error"
    assert time.monotonic() - t0 <= seconds
    check_result(result, data)
    return "result"
