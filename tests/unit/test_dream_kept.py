"""dream.kept: a bounded store of what pure functions of texts gave, and its pairs' places."""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.dream.kept import (
    BlockResults,
    KeptCalls,
    KeptReads,
    across_by_block,
    across_in_mems,
    kept_modified_ms,
    read_weight,
)
from memdir_nb.spec.bounded_cache import ENTRY_OVERHEAD_BYTES, weight_of
from memdir_nb.storage.scan import stat_key


def test_block_results_give_back_only_what_was_kept_for_the_very_same_texts() -> None:
    kept: BlockResults[str] = BlockResults()
    kept.put(("a", "b"), "ab")
    assert kept.get(("a", "b")) == "ab"
    assert kept.get(("b", "a")) is None and kept.get(("a", "b", "")) is None
    assert kept.get(("ab",)) is None


def test_block_results_drop_the_least_recently_used_past_their_entries_or_bytes() -> None:
    by_entries: BlockResults[int] = BlockResults(max_entries=2, max_bytes=10_000)
    for n in range(3):
        by_entries.put((str(n),), n)
    assert len(by_entries) == 2 and by_entries.get(("0",)) is None and by_entries.get(("2",)) == 2
    one = BlockResults[int]().weight(("x" * 600,), 1)
    by_bytes: BlockResults[int] = BlockResults(max_entries=100, max_bytes=one + one // 2)
    by_bytes.put(("x" * 600,), 1)
    by_bytes.put(("y" * 600,), 2)
    assert len(by_bytes) == 1 and by_bytes.bytes_held == one and by_bytes.get(("y" * 600,)) == 2


def test_a_key_heavier_than_the_whole_bound_is_not_kept() -> None:
    kept: BlockResults[int] = BlockResults(max_entries=10, max_bytes=1_000)
    kept.put(("short",), 1)
    kept.put(("x" * 1_000,), 2)
    assert kept.get(("x" * 1_000,)) is None and kept.get(("short",)) == 1


def test_a_blocks_pairs_kept_by_place_come_back_at_the_indexes_its_sides_hold_later() -> None:
    blocks: list[tuple[tuple[str, ...], list[int], list[int]]] = [
        (("k1",), [5, 1], [0, 7]),
        (("k2",), [2], [9, 3]),
    ]
    found = [(0, 5), (1, 7), (2, 3)]
    split = across_by_block(blocks, found)
    assert split == [(("k1",), ((0, 0), (1, 1))), (("k2",), ((0, 1),))]
    assert sorted(across_in_mems(split[0][1], [5, 1], [0, 7])) == [(0, 5), (1, 7)]
    # The same texts at other places in a later plan: the pairs follow them.
    assert sorted(across_in_mems(split[0][1], [10, 2], [11, 4])) == [(2, 4), (10, 11)]


def _kept_read(tmp_path: Path, plan_started_after_ms: float) -> tuple[KeptReads, Path]:
    """A store given one read of a.md ("one"), by a plan that started that long after its
    last change."""
    path = tmp_path / "a.md"
    path.write_text("one")
    st = path.stat()
    kept = KeptReads()
    kept.put(str(path), st, "one", "sha1", st.st_ctime_ns / 1e6 + plan_started_after_ms)
    return kept, path


def test_kept_reads_are_given_back_only_under_the_same_stat_identity(tmp_path: Path) -> None:
    kept, path = _kept_read(tmp_path, plan_started_after_ms=10_000)
    st = path.stat()
    assert kept.get(str(path), st) == ("one", "sha1")
    assert kept.get(str(tmp_path / "b.md"), st) is None
    os.chmod(path, 0o600)  # moves the ctime only
    assert kept.get(str(path), path.stat()) is None


def test_kept_reads_keep_nothing_changed_within_the_racy_window(tmp_path: Path) -> None:
    kept, path = _kept_read(tmp_path, plan_started_after_ms=1_000)
    assert kept.get(str(path), path.stat()) is None and len(kept) == 0


def test_kept_reads_stay_within_their_entries_and_bytes(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("x")
    st = path.stat()
    later = st.st_ctime_ns / 1e6 + 10_000
    kept = KeptReads(max_entries=2, max_bytes=3_000)
    kept.put("p1", st, "a" * 100, "s", later)
    kept.put("p1", st, "a" * 600, "s", later)  # the same path again: counted once
    one = kept.bytes_held
    assert len(kept) == 1 and 600 < one < 1_500
    kept.put("p2", st, "b" * 600, "s", later)
    kept.put("p3", st, "c" * 600, "s", later)  # past the entries: the least recent goes
    assert len(kept) == 2 and kept.get("p1", st) is None and kept.get("p3", st) == ("c" * 600, "s")
    kept.put("p4", st, "d" * 1_500, "s", later)  # past the bytes: the older ones go
    assert kept.bytes_held <= 3_000 and kept.get("p4", st) == ("d" * 1_500, "s")
    kept.put("p5", st, "e" * 3_000, "s", later)  # heavier than the whole bound: not kept
    assert kept.get("p5", st) is None


def test_kept_calls_call_the_function_once_per_arguments() -> None:
    calls: list[tuple[str, int]] = []

    def shout(text: str, times: int) -> str:
        calls.append((text, times))
        return text.upper() * times

    kept = KeptCalls(shout)
    assert kept.get("ab", 2) == "ABAB" and kept.get("ab", 2) == "ABAB"
    assert kept.get("ab", 3) == "ABABAB" and kept.get("b", 2) == "BB"
    assert calls == [("ab", 2), ("ab", 3), ("b", 2)]


def test_kept_calls_stay_within_their_entries_and_bytes() -> None:
    kept = KeptCalls(str.upper, max_entries=2, max_bytes=2_000)
    for text in ("a", "b", "c"):
        kept.get(text)
    assert len(kept) == 2
    kept.get("x" * 800)  # past the bytes with its answer: the older ones go
    assert 1 <= len(kept) <= 2
    assert kept.get("y" * 2_000) == "Y" * 2_000 and kept.get("x" * 800) == "X" * 800


class _Text(str):
    """A str subclass (getsizeof counts its instance dict and collector header)."""


def test_a_kept_read_weighs_what_the_general_weighing_gives_it(tmp_path: Path) -> None:
    # KeptReads weighs its entries by their shape (three getsizeof calls); the sum must stay
    # weight_of's, for every kind of string a read keeps (ASCII, Latin-1, wider, empty).
    path = tmp_path / "a.md"
    path.write_text("x")
    st = path.stat()
    texts = ["", "plain text\n" * 40, "caf\u00e9 na\u00efve", "\u65e5\u672c\u8a9e", "\U0001f600 x"]
    for where in ("", str(path), "/m/\u00e9t\u00e9.md", "/\U0001f600/a.md"):
        for text in texts:
            value = (stat_key(st), text, "0" * 64)
            assert read_weight(where, value) == weight_of(where) + weight_of(value)
            subclassed = (stat_key(st), _Text(text), "0" * 64)  # weighed as weight_of weighs it
            assert read_weight(_Text(where), subclassed) == weight_of(_Text(where)) + weight_of(
                subclassed
            )
    kept = KeptReads()
    kept.put(str(path), st, texts[2], "0" * 64, st.st_ctime_ns / 1e6 + 10_000)
    expected = weight_of(str(path)) + weight_of((stat_key(st), texts[2], "0" * 64))
    assert kept.bytes_held == expected + ENTRY_OVERHEAD_BYTES


def test_a_memorys_modified_time_is_read_from_its_header_and_kept_by_its_hash() -> None:
    # lead, thirty-fifth session: an over-cap index sorts every memory by its time, and a
    # repeat plan parsed all 2,000 headers again for it (about 50% of a repeat plan)
    text = "---\nname: kiln\nmodified: 2026-01-02T03:04:05.000Z\n---\nbody\n"
    escaped = '---\nname: kiln\n"modi\\x66ied": 2026-01-02T03:04:05.000Z\n---\nbody\n'
    assert kept_modified_ms("", text) == 1767323045000.0
    assert kept_modified_ms("", escaped) == 1767323045000.0  # a quoted key's escape still counts
    assert kept_modified_ms("", "---\nname: kiln\n---\nno such key\n") is None
    sha = "f" * 64
    assert kept_modified_ms(sha, text) == 1767323045000.0
    # the same hash is the same bytes: its time is the kept one, the text not parsed again
    assert kept_modified_ms(sha, text.replace("2026-01-02", "2030-01-01")) == 1767323045000.0
    # an unknown hash ("") is never kept
    assert kept_modified_ms("", text.replace("2026-01-02", "2030-01-01")) != 1767323045000.0
