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
)


def test_block_results_give_back_only_what_was_kept_for_the_very_same_texts() -> None:
    kept: BlockResults[str] = BlockResults()
    kept.put(("a", "b"), "ab")
    assert kept.get(("a", "b")) == "ab"
    assert kept.get(("b", "a")) is None and kept.get(("a", "b", "")) is None
    assert kept.get(("ab",)) is None


def test_block_results_are_emptied_when_full_in_entries_or_in_characters() -> None:
    by_entries: BlockResults[int] = BlockResults(max_entries=2, max_chars=100)
    for n in range(3):
        by_entries.put((str(n),), n)
    assert len(by_entries) == 1 and by_entries.get(("2",)) == 2
    by_chars: BlockResults[int] = BlockResults(max_entries=100, max_chars=10)
    by_chars.put(("x" * 6,), 1)
    by_chars.put(("y" * 6,), 2)
    assert len(by_chars) == 1 and by_chars.chars() == 6 and by_chars.get(("y" * 6,)) == 2


def test_a_key_longer_than_the_whole_bound_is_not_kept() -> None:
    kept: BlockResults[int] = BlockResults(max_entries=10, max_chars=10)
    kept.put(("short",), 1)
    kept.put(("x" * 11,), 2)
    assert kept.get(("x" * 11,)) is None and kept.get(("short",)) == 1


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


def test_kept_reads_are_given_back_only_under_the_same_stat_identity(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("one")
    st = path.stat()
    kept = KeptReads()
    kept.put(str(path), st, "one", "sha1", started_ms=st.st_ctime_ns / 1e6 + 10_000)
    assert kept.get(str(path), st) == ("one", "sha1")
    assert kept.get(str(tmp_path / "b.md"), st) is None
    os.chmod(path, 0o600)  # moves the ctime only
    assert kept.get(str(path), path.stat()) is None


def test_kept_reads_keep_nothing_changed_within_the_racy_window(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("one")
    st = path.stat()
    kept = KeptReads()
    kept.put(str(path), st, "one", "sha1", started_ms=st.st_ctime_ns / 1e6 + 1_000)
    assert kept.get(str(path), st) is None and len(kept) == 0


def test_kept_reads_are_emptied_when_full_in_entries_or_in_characters(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text("x")
    st = path.stat()
    later = st.st_ctime_ns / 1e6 + 10_000
    kept = KeptReads(max_entries=2, max_chars=10)
    kept.put("p1", st, "aaaa", "s", later)
    kept.put("p1", st, "aaaaaa", "s", later)  # the same path again: counted once
    assert kept.chars() == 6 and len(kept) == 1
    kept.put("p2", st, "bbbbbb", "s", later)  # past the characters: emptied first
    assert len(kept) == 1 and kept.get("p2", st) == ("bbbbbb", "s")
    kept.put("p3", st, "c", "s", later)
    kept.put("p4", st, "d", "s", later)  # past the entries
    assert len(kept) == 1 and kept.get("p4", st) == ("d", "s")
    kept.put("p5", st, "e" * 11, "s", later)  # longer than the whole bound: not kept
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


def test_kept_calls_are_emptied_when_full_in_entries_or_in_characters() -> None:
    kept = KeptCalls(str.upper, max_entries=2, max_chars=8)
    for text in ("a", "b", "c"):
        kept.get(text)
    assert len(kept) == 1
    kept.get("x" * 8)  # past the characters: emptied first
    assert len(kept) == 1
    assert kept.get("y" * 9) == "Y" * 9 and len(kept) == 0  # longer than the bound: not kept
