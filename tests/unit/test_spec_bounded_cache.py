"""spec.bounded_cache: an LRU bounded in bytes as well as entries, and the function cache on it."""

from __future__ import annotations

import tracemalloc

import pytest

from memdir_nb.spec import byte_weight
from memdir_nb.spec.bounded_cache import ByteBoundedLRU, bounded_cache, weight_of

MB = 1024 * 1024


def test_least_recently_used_entry_is_dropped_first_past_max_bytes() -> None:
    lru: ByteBoundedLRU[str, str] = ByteBoundedLRU(max_entries=100, max_bytes=3000)
    lru.put("a", "x" * 1000)  # about 1,300 bytes with its key and the entry's own cost
    lru.put("b", "y" * 1000)
    assert lru.get("a") == "x" * 1000  # a is now the most recently used
    lru.put("c", "z" * 1000)  # past 3,000 bytes: b goes, not a
    assert "a" in lru and "b" not in lru and "c" in lru
    assert lru.bytes_held <= lru.max_bytes


def test_entry_count_bound_holds_for_small_entries() -> None:
    lru: ByteBoundedLRU[int, int] = ByteBoundedLRU(max_entries=3, max_bytes=MB)
    for i in range(10):
        lru.put(i, i)
    assert len(lru) == 3 and 9 in lru and 6 not in lru


def test_a_value_heavier_than_the_whole_bound_is_not_kept_and_replaces_nothing() -> None:
    lru: ByteBoundedLRU[str, str] = ByteBoundedLRU(max_entries=10, max_bytes=10_000)
    lru.put("k", "small")
    lru.put("k", "x" * 20_000)
    assert "k" not in lru and lru.bytes_held == 0


def test_a_cache_without_room_for_one_entry_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="room for one entry"):
        ByteBoundedLRU(max_entries=10, max_bytes=0)


def test_bounded_function_keeps_a_none_answer_and_runs_again_only_when_dropped() -> None:
    calls: list[str] = []

    @bounded_cache(max_entries=2, max_bytes=MB)
    def nothing(text: str) -> None:
        calls.append(text)

    nothing("a")
    nothing("a")
    assert calls == ["a"] and nothing.cache.misses == 1  # a None answer is an answer
    nothing("b")
    nothing("c")  # past two entries: "a" goes
    nothing("a")
    assert calls == ["a", "b", "c", "a"]
    nothing.cache_clear()
    assert len(nothing.cache) == 0


def test_what_a_full_cache_holds_is_what_it_counts() -> None:
    """The weight is an honest estimate: filled far past its bound with 8 KiB texts, the cache
    holds (by tracemalloc) about max_bytes, not the 3 MB it was given."""
    lru: ByteBoundedLRU[str, str] = ByteBoundedLRU(max_entries=100_000, max_bytes=MB)
    tracemalloc.start()  # no gc.collect: strings go when their count does (it costs 0.2 s here)
    try:
        for i in range(400):
            lru.put(f"key{i}", f"{i:08d}" + "d" * 8000)
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert lru.bytes_held <= MB
    assert 0.8 * MB < held < 1.2 * MB


def test_the_cache_weighs_by_the_one_weighing_rule() -> None:
    # spec.byte_weight is the rule's home (tests/unit/test_spec_byte_weight.py); the cache
    # re-exports it for its callers
    assert weight_of is byte_weight.weight_of
