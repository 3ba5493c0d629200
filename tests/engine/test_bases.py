import math

import pytest

from grimdice.engine.table.bases import Base, Polygon, Rect, closest_distance, distance, horizontal_distance


def test_base_to_base_distance_subtracts_radii():
    a = Base(0, 0, 25.4)  # 1" base, radius 0.5"
    b = Base(10, 0, 50.8)  # 2" base, radius 1"
    assert horizontal_distance(a, b) == pytest.approx(8.5)
    assert horizontal_distance(a, Base(0.5, 0, 25.4)) == 0.0


def test_vertical_separation_counts_only_in_3d():
    a = Base(0, 0, 25.4)
    b = Base(3.5, 0, 25.4, z=4.0)
    assert horizontal_distance(a, b) == pytest.approx(2.5)
    assert distance(a, b) == pytest.approx(math.hypot(2.5, 4.0))


def test_closest_distance_empty_is_infinite():
    assert closest_distance(Base(0, 0), []) == math.inf


def test_rect_and_polygon_membership():
    r = Rect(0, 0, 44, 12)
    assert r.contains_base(Base(5, 5))
    assert not r.contains_base(Base(0.1, 5))
    assert r.touches_base(Base(-0.5, 5))
    tri = Polygon.of([(0, 0), (10, 0), (0, 10)])
    assert tri.contains(Base(2, 2).centre)
    assert not tri.contains(Base(8, 8).centre)
    assert tri.contains_base(Base(2, 2, 25.4))
    assert not tri.contains_base(Base(0.2, 2, 25.4))
