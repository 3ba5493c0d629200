"""Hypothesis strategies that mutate the bundled example scenarios into hostile ones: wrong types,
huge numbers, non-finite numbers, unknown fields, missing fields, empty and huge lists, duplicate
names, huge texts, control characters and Rich markup, absurd dice."""

from __future__ import annotations

import copy
from typing import Any

from hypothesis import strategies as st

HOSTILE_TEXT = [
    "",
    " ",
    "\x1b[2J\x1b]0;pwned\x07",
    "[bold red]boom[/]",
    "A" * 5000,
    "é" * 1001,
    "D6+" * 30 + "1",
    "999D999",
    "1000D1000",
    "2D6-3D6",
    "D0",
    "-1",
    "3+",
    "7+",
    "1/2",
    "99999999999999999999",
    "nan",
    "Melee",
    "Rending (5+)",
    "Lethal 0+",
]

HOSTILE_VALUES: list[Any] = [
    True,
    False,
    None,
    0,
    -1,
    1,
    7,
    1.5,
    -0.0,
    10**6,
    10**12,
    10**40,
    float("nan"),
    float("inf"),
    [],
    [[]],
    {},
    {"name": "x"},
    {"1": 2},
]

values = st.one_of(
    st.sampled_from(HOSTILE_VALUES),
    st.sampled_from(HOSTILE_TEXT),
    st.integers(min_value=-(10**20), max_value=10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.lists(st.integers(-3, 300), max_size=3),
)

MUTATIONS = ("replace", "replace", "replace", "delete", "unknown", "empty", "duplicate", "grow")


def paths(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value in ``data`` (the root is ``()``)."""
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += paths(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += paths(v, (*prefix, i))
    return out


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for p in path:
        data = data[p]
    return data


def mutate(data: Any, draw: Any) -> tuple[Any, list[str]]:
    """One mutation of a deep copy of ``data``; returns it with a description."""
    data = copy.deepcopy(data)
    path = draw(st.sampled_from(paths(data)))
    kind = draw(st.sampled_from(MUTATIONS))
    target = _at(data, path)
    where = ".".join(map(str, path)) or "(root)"
    if kind == "replace" and path:
        _at(data, path[:-1])[path[-1]] = draw(values)
    elif kind == "delete" and path and isinstance(_at(data, path[:-1]), dict):
        del _at(data, path[:-1])[path[-1]]
    elif kind == "unknown" and isinstance(target, dict):
        target[draw(st.sampled_from(["bogus", "Name", "wepons", "\x1b[31m"]))] = draw(values)
    elif kind == "empty" and isinstance(target, (list, dict)):
        target.clear()
    elif kind == "duplicate" and isinstance(target, list) and target:
        target.append(copy.deepcopy(target[0]))
    elif kind == "grow" and isinstance(target, list) and target:
        target.extend(copy.deepcopy(target[:1]) * draw(st.sampled_from([5, 50, 500])))
    else:
        return data, [f"none at {where}"]
    return data, [f"{kind} at {where}"]


@st.composite
def hostile_scenarios(draw: Any, base: dict[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """``base`` with one to three hostile mutations."""
    data, done = base, []
    for _ in range(draw(st.integers(1, 3))):
        data, what = mutate(data, draw)
        done += what
    return data, done
