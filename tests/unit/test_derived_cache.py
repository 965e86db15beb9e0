"""storage.derived_cache: one bounded file of derived values that is never trusted."""

from __future__ import annotations

import json
import os
import stat
import tracemalloc
from pathlib import Path

import pytest

from memdir_nb.formats import jsonio
from memdir_nb.storage.derived_cache import DerivedCache


def _cache(
    path: Path,
    *,
    version: str = "v1",
    entries: int = 100,
    size: int = 100_000,
    values: int = 100_000,
) -> DerivedCache:
    return DerivedCache(
        path,
        kind="test kind",
        version=version,
        max_entries=entries,
        max_bytes=size,
        max_values=values,
    )


def test_values_come_back_in_a_later_process_under_their_keys_and_version(tmp_path: Path) -> None:
    path = tmp_path / "cache" / "derived.json"
    first = _cache(path)
    first.put("a", [1, "x", None])
    first.put("\ud800", "a lone surrogate key")
    first.save()
    assert first.problem is None
    later = _cache(path)
    assert later.get("a") == [1, "x", None] and later.get("\ud800") == "a lone surrogate key"
    assert later.get("b") is None
    assert _cache(path, version="v2").get("a") is None  # another version's values are not used


def test_the_file_is_the_owners_alone_and_written_by_rename(tmp_path: Path) -> None:
    path = tmp_path / "derived.json"
    cache = _cache(path)
    cache.put("a", 1)
    cache.save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["derived.json"]  # no temp file left


@pytest.mark.parametrize(
    "content",
    [
        b"",
        b"\x00\xff garbage",
        b'{"kind": "test kind", "version": "v1", "entries": {"a": 1',  # cut short
        b'{"kind": "other program", "version": "v1", "entries": {"a": 2}}',
        b'{"kind": "test kind", "version": "v0", "entries": {"a": 2}}',
        b'{"kind": "test kind", "version": "v1", "entries": [["a", 2]]}',
        b"[1, 2, 3]",
        b"[" * 5_000 + b"]" * 5_000,
    ],
    ids=["empty", "garbage", "cut", "foreign", "old-version", "not-a-table", "a-list", "deep"],
)
def test_a_damaged_or_foreign_file_holds_nothing_and_is_written_anew(
    tmp_path: Path, content: bytes
) -> None:
    path = tmp_path / "derived.json"
    path.write_bytes(content)
    cache = _cache(path)
    assert cache.get("a") is None and cache.damaged
    cache.save()  # rebuilt even when nothing new was made
    doc = json.loads(path.read_bytes())
    assert doc == {"kind": "test kind", "version": "v1", "entries": {}}


def test_a_file_past_the_byte_cap_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "derived.json"
    big = _cache(path, size=10_000_000)
    big.put("a", "x" * 50_000)
    big.save()
    small = _cache(path, size=10_000)
    assert small.get("a") is None and small.damaged


@pytest.mark.parametrize("value", ["[]", "{}", "0", '"a"'])
def test_a_file_under_the_byte_cap_that_would_make_too_many_values_is_not_parsed(
    tmp_path: Path, value: str
) -> None:
    # §43: 16 MB of `[],[],...` under the 16 MB cap took 396 MB as lists (`{}` 441 MB); the
    # memory a parse takes is bounded by its values, so those are counted before it runs
    path = tmp_path / "derived.json"
    body = ",".join([value] * 330_000)
    path.write_text('{"kind":"test kind","version":"v1","entries":{"a":[' + body + "]}}")
    tracemalloc.start()
    try:
        cache = _cache(path, size=2_000_000, values=10_000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert cache.get("a") is None and cache.damaged
    assert peak < 12 * path.stat().st_size  # the text and a few copies, no object per value
    assert _cache(path, size=2_000_000, values=700_000).get("a") is not None  # under both caps


def test_a_file_that_would_pass_the_value_cap_keeps_its_newer_half(tmp_path: Path) -> None:
    path = tmp_path / "derived.json"
    cache = _cache(path, values=100)
    for n in range(40):
        cache.put(f"k{n:02d}", [n, n])
    cache.save()
    kept = json.loads(path.read_bytes())["entries"]
    assert "k39" in kept and "k00" not in kept and len(kept) * 4 <= 100
    assert _cache(path, values=100).get("k39") == [39, 39]  # the reader takes what was written


def test_a_file_within_the_value_cap_by_its_marks_alone_is_written_without_a_string_scan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cap is checked by a count of commas, colons, `[` and `{` first (strings included, so
    never under the exact count): a cold plan's two files were scanned for strings on every
    save. Past that bound, the exact count decides: strings full of commas keep every entry."""
    real = jsonio._outside_strings
    path = tmp_path / "derived.json"
    cache = _cache(path, values=100)
    for n in range(10):
        cache.put(f"k{n}", [n, "x"])

    def scanned(text: str) -> bytes:
        raise AssertionError("the strings were taken out")

    monkeypatch.setattr(jsonio, "_outside_strings", scanned)
    cache.save()
    assert len(json.loads(path.read_bytes())["entries"]) == 10
    monkeypatch.setattr(jsonio, "_outside_strings", real)
    for n in range(10):
        cache.put(f"k{n}", [n, ",:[{" * 5])  # 200 marks inside strings, 39 values outside
    cache.save()
    assert len(json.loads(path.read_bytes())["entries"]) == 10
    assert _cache(path, values=100).get("k9") == [9, ",:[{" * 5]


def test_a_symlink_at_the_files_name_is_neither_read_nor_written_through(tmp_path: Path) -> None:
    target = tmp_path / "elsewhere.json"
    real = _cache(target)
    real.put("a", 1)
    real.save()
    before = target.read_bytes()
    path = tmp_path / "derived.json"
    path.symlink_to(target)
    cache = _cache(path)
    assert cache.get("a") is None
    cache.put("b", 2)
    cache.save()
    assert not path.is_symlink() and target.read_bytes() == before
    assert _cache(path).get("b") == 2


def test_entries_are_bounded_the_used_and_new_kept_before_the_old(tmp_path: Path) -> None:
    path = tmp_path / "derived.json"
    first = _cache(path, entries=4)
    for n in range(6):
        first.put(f"k{n}", n)
    first.save()
    assert set(json.loads(path.read_bytes())["entries"]) == {"k2", "k3", "k4", "k5"}
    later = _cache(path, entries=4)
    assert later.get("k2") == 2  # used: kept over the older k3
    later.put("new", 9)
    later.save()
    assert list(json.loads(path.read_bytes())["entries"]) == ["k4", "k5", "k2", "new"]


def test_a_file_that_would_pass_the_byte_cap_keeps_its_newer_half(tmp_path: Path) -> None:
    path = tmp_path / "derived.json"
    cache = _cache(path, size=2_000)
    for n in range(40):
        cache.put(f"k{n:02d}", "x" * 60)
    cache.save()
    kept = json.loads(path.read_bytes())["entries"]
    assert path.stat().st_size <= 2_000 and "k39" in kept and "k00" not in kept
    assert len(cache) == len(kept)  # memory holds what the file holds


def test_an_unwritable_folder_leaves_a_problem_and_no_file(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    cache = _cache(blocker / "cache" / "derived.json")
    cache.put("a", 1)
    cache.save()
    assert cache.problem is not None and "cannot be written" in cache.problem
    assert "MEMDIR_NB_CACHE_DIR" in cache.problem
    assert blocker.read_text() == "not a folder"


def test_a_folder_at_the_files_name_leaves_a_problem(tmp_path: Path) -> None:
    path = tmp_path / "derived.json"
    path.mkdir()
    cache = _cache(path)
    assert cache.damaged
    cache.put("a", 1)
    cache.save()
    assert cache.problem is not None and path.is_dir()
    assert os.listdir(tmp_path) == ["derived.json"]
