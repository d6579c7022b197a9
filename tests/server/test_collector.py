"""The server process's collector setting (:mod:`folkdeck.server.collector`).

Each test installs a :class:`Collector` of its own and uninstalls it, whatever happens:
the setting is the process's, and the rest of the suite runs with CPython's own.
"""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from folkdeck.server.collector import Collector


class Node:
    """An object that can be part of a cycle, and be watched by a weak reference."""

    def __init__(self) -> None:
        self.other: object = None


@pytest.fixture
def collector() -> Iterator[Collector]:
    if not gc.isenabled():
        pytest.skip("the collector is disabled in this process")
    before = gc.get_threshold()
    made = Collector(collect_after=500)
    try:
        yield made
    finally:
        made.uninstall()
        assert gc.get_threshold() == before


def _cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def _young_collection() -> None:
    """Enough new objects that a young collection of a 500 threshold runs."""
    _ = [[n] for n in range(2_000)]


def test_what_survives_a_young_collection_is_frozen_and_never_collected_by_the_thresholds(collector: Collector) -> None:
    collector.install()
    assert gc.get_threshold()[0] == 500
    kept = [Node() for _ in range(2_000)]
    assert gc.get_freeze_count() >= len(kept)
    # a middle or oldest generation never reaches its threshold: only the young one runs
    assert gc.get_threshold()[1] > 10**8 and gc.get_threshold()[2] > 10**8


def test_a_cycle_that_dies_young_is_freed_by_the_next_young_collection(collector: Collector) -> None:
    collector.install()
    watched = _cycle()
    _young_collection()
    assert watched() is None


def test_a_frozen_cycle_waits_for_the_full_collection_and_is_freed_by_it(collector: Collector) -> None:
    collector.install()
    watched = _cycle()
    gc.freeze()  # as if it had survived a young collection, still alive then
    _young_collection()
    assert watched() is not None  # garbage now, but frozen: no young collection sees it
    collector.collect_full()
    assert watched() is None
    assert collector.full_collections == 1


def test_a_full_collection_is_asked_of_the_event_loop_once_the_heap_grew_past_its_limit(collector: Collector) -> None:
    collector.growth, collector.every = 0.0, 0.0  # any growth, at any time, asks for one
    collector.install()

    async def main() -> tuple[int, int]:
        kept = [[n] for n in range(20_000)]  # the heap grows; a young collection runs in the loop
        asked = collector.full_collections
        await asyncio.sleep(0)  # the loop runs the full collection it was asked for
        assert kept
        return asked, collector.full_collections

    assert asyncio.run(main()) == (0, 1)


def test_outside_an_event_loop_a_grown_heap_asks_for_nothing(collector: Collector) -> None:
    collector.growth, collector.every = 0.0, 0.0
    collector.install()
    kept = [[n] for n in range(20_000)]
    assert kept and collector.full_collections == 0


def test_a_full_collection_waits_its_interval_and_a_grown_heap(collector: Collector) -> None:
    collector.growth, collector.every = 0.0, 3600.0
    collector.install()
    kept = [[n] for n in range(20_000)]
    assert kept and not collector.full_due()  # grown, but the last full collection was just now
    collector.every, collector.growth = 0.0, 1000.0
    assert not collector.full_due()  # due by the time, but not grown as much
    collector.growth = 0.0
    assert collector.full_due()


def test_uninstall_gives_back_cpythons_setting_with_nothing_frozen(collector: Collector) -> None:
    before = gc.get_threshold()
    collector.install()
    collector.install()  # twice is once
    assert gc.callbacks.count(collector._after_collection) == 1
    _ = [Node() for _ in range(2_000)]
    collector.uninstall()
    assert gc.get_threshold() == before
    assert collector._after_collection not in gc.callbacks
    assert gc.get_freeze_count() == 0
    assert not collector.installed
