"""``engine.frozen.replace`` makes what ``dataclasses.replace`` makes: the same class, the same field
values, nothing else carried over (unless the class names answers that still hold for the copy);
unknown fields refused; classes with a ``__post_init__`` handed to ``dataclasses.replace``."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from functools import cached_property

import pytest

from grimdice.engine.frozen import replace


@dataclass(frozen=True)
class Point:
    x: float
    y: float = 0.0
    tags: tuple[str, ...] = ()

    @cached_property
    def norm(self) -> float:
        return (self.x * self.x + self.y * self.y) ** 0.5


@dataclass(frozen=True)
class Checked:
    x: int
    seen: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        if self.x < 0:
            raise ValueError("x < 0")


def test_the_same_object_as_dataclasses_replace() -> None:
    p = Point(3.0, 4.0, ("a",))
    assert p.norm == 5.0  # cached in p.__dict__
    q = replace(p, y=0.0)
    assert type(q) is Point and q == dataclasses.replace(p, y=0.0) and q == Point(3.0, 0.0, ("a",))
    assert q.norm == 3.0  # the cache is not carried over
    assert p == Point(3.0, 4.0, ("a",)) and hash(q) == hash(Point(3.0, 0.0, ("a",)))
    with pytest.raises(dataclasses.FrozenInstanceError):
        q.x = 1.0  # type: ignore[misc]
    with pytest.raises(TypeError):
        replace(p, z=1.0)


def test_a_post_init_still_runs() -> None:
    c = Checked(1)
    assert replace(c, x=2) == Checked(2)
    with pytest.raises(ValueError):
        replace(c, x=-1)


def test_game_states_and_unit_states() -> None:
    from grimdice.engine.table.terrain import Table
    from grimdice.systems.onepage.game.setup import load_army_side, make_setup
    from grimdice.systems.onepage.game.state import deploy
    from grimdice.systems.onepage.units import UnitState

    s = deploy(make_setup(load_army_side(MARINES), load_army_side(ORKS), Table()), 0, 0)
    s.legal_actions()  # kept in the state's __dict__
    t = replace(s, active=2, round=3)
    assert t == dataclasses.replace(s, active=2, round=3) and "_legal" not in t.__dict__
    u = UnitState((3, 1), (0, 0))
    assert hash(u) and replace(u, pinned=True) == UnitState((3, 1), (0, 0), pinned=True)
    assert replace(u, alive=(2, 1)).models == 3


MARINES = "examples/armies/onepage-marines-army.yaml"
ORKS = "examples/armies/onepage-orks-army.yaml"


@dataclass(frozen=True)
class Kept:
    """A class whose answer ``_total`` (kept in its ``__dict__``) holds while ``x`` is unchanged."""

    x: int
    y: int = 0

    __carried__ = ("_total",)

    @staticmethod
    def __carries__(src: dict[str, object], changes: dict[str, object]) -> bool:
        return "x" not in changes

    def total(self) -> int:
        if "_total" not in self.__dict__:
            object.__setattr__(self, "_total", self.x * 10)
        return int(self.__dict__["_total"])


def test_a_class_carries_its_answers_only_where_it_says_they_hold() -> None:
    k = Kept(2)
    assert replace(k, y=5).__dict__.get("_total") is None  # nothing computed: nothing carried
    assert k.total() == 20
    kept = replace(k, y=5)
    assert kept == Kept(2, 5) and kept.__dict__["_total"] == 20 and kept.total() == 20
    moved = replace(k, x=3)
    assert "_total" not in moved.__dict__ and moved.total() == 30
