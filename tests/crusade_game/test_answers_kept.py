"""``answers.kept``: an answer worked out once per key, the store started afresh at its limit."""

from __future__ import annotations

from grimdice.systems.crusade.game.answers import kept


def test_an_answer_is_worked_out_once_and_the_full_store_starts_afresh():
    store: dict[int, list[int]] = {}
    calls: list[int] = []

    def work(k: int):
        return lambda: calls.append(k) or [k]

    assert kept(store, 1, work(1), 2) == [1] and kept(store, 1, work(1), 2) == [1]
    assert calls == [1]  # the second answer was the kept one
    assert kept(store, 2, work(2), 2) == [2] and len(store) == 2
    assert kept(store, 3, work(3), 2) == [3] and store == {3: [3]}  # full: started afresh
    empty: dict[int, list[int]] = {}
    assert kept(empty, 0, lambda: [], 2) == [] and kept(empty, 0, lambda: [9], 2) == []  # [] is kept
