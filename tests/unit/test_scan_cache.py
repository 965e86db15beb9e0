"""Rules of memdir_nb.storage.scan.ScanCache: a cached scan gives exactly the cold scan's report,
reopens no unchanged file, and never carries a stale header or a security decision over."""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.spec.constants import SCAN_CACHE_MAX_BYTES
from memdir_nb.storage import scan as scan_module
from memdir_nb.storage.scan import (
    ScanCache,
    ScanReport,
    scan_memory_dir,
    scan_memory_files,
    stat_key,
)
from tests.support.nobody import NOBODY, as_nobody

BASE_NS = 1_774_693_800 * 1_000_000_000  # 2026-03-28T10:30:00Z
HOUR_MS = 3_600_000.0


def trusting_cache(**kwargs: object) -> ScanCache:
    """A cache whose clock runs an hour ahead, so every header just read may be kept."""
    return ScanCache(clock=lambda: time.time() * 1000 + HOUR_MS, **kwargs)  # type: ignore[arg-type]


def write(
    root: Path, rel: str, *, name: str = "n", desc: str = "d", mtime_ns: int = BASE_NS
) -> Path:
    """A memory file at root/rel with an exact mtime."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_memory_file(name, desc, "project", "body"))
    os.utime(path, ns=(mtime_ns, mtime_ns))
    return path


def rewrite_visibly(path: Path, text: str, mtime_ns: int) -> None:
    """Rewrite a file in place with a forced mtime, until its stat identity shows the change.

    On filesystems with coarse timestamps two writes in one clock tick can leave every stat
    field equal; only the cache's racy window can catch that (tested on its own below).
    """
    before = stat_key(os.stat(path))
    for _ in range(100):
        with open(path, "r+", encoding="utf-8") as fh:  # same inode: no rename
            fh.truncate(0)
            fh.write(text)
        os.utime(path, ns=(mtime_ns, mtime_ns))
        if stat_key(os.stat(path)) != before:
            return
        time.sleep(0.005)
    raise AssertionError(f"the filesystem never recorded a change to {path}")


def cold(root: Path, limit: int | None = 200) -> ScanReport:
    return scan_memory_dir(root, limit=limit)


@pytest.fixture
def count_opens(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Every file opened through os.open (the scan's reader) or builtins.open from now on."""
    opened: list[str] = []
    real_os_open: Callable[..., int] = os.open
    real_open = open

    def counting_os_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if not flags & os.O_DIRECTORY:  # the contained reader walks folders by descriptor
            dir_fd = kwargs.get("dir_fd")
            where = os.readlink(f"/proc/self/fd/{dir_fd}") if dir_fd is not None else ""
            opened.append(os.path.join(where, os.fspath(path)))
        return real_os_open(path, flags, *args, **kwargs)

    def counting_open(file, *args, **kwargs):  # type: ignore[no-untyped-def]
        opened.append(os.fspath(file) if not isinstance(file, int) else f"fd:{file}")
        return real_open(file, *args, **kwargs)

    monkeypatch.setattr(os, "open", counting_os_open)
    monkeypatch.setattr("builtins.open", counting_open)
    return opened


# ---------------------------------------------------------------- reuse


def test_rescan_of_unchanged_dir_opens_no_file(tmp_path: Path, count_opens: list[str]) -> None:
    for i in range(30):
        write(tmp_path, f"{'team/' if i % 3 == 0 else ''}m{i:02d}.md", mtime_ns=BASE_NS - i)
    cache = trusting_cache()
    first = scan_memory_dir(tmp_path, cache=cache)
    assert len(count_opens) == 30  # the counter does see the scan's reads
    count_opens.clear()
    again = scan_memory_dir(tmp_path, cache=cache)
    assert count_opens == []
    assert again == first


def test_rescan_hit_counter_equals_file_count(tmp_path: Path) -> None:
    for i in range(12):
        write(tmp_path, f"m{i}.md", mtime_ns=BASE_NS - i)
    cache = trusting_cache()
    scan_memory_files(tmp_path, cache=cache)
    assert (cache.stats().hits, cache.stats().misses, cache.stats().entries) == (0, 12, 12)
    scan_memory_files(tmp_path, cache=cache)
    assert (cache.stats().hits, cache.stats().misses) == (12, 12)


def test_a_warm_rescan_hands_back_the_same_headers_until_a_file_changes(tmp_path: Path) -> None:
    # a header made from a cached entry is kept and handed back while the entry and the file's
    # name hold; alias.md opens the same file as a.md, so the name decides which header is which
    write(tmp_path, "a.md", name="first")
    b = write(tmp_path, "b.md", name="second", mtime_ns=BASE_NS - 1)
    os.symlink("a.md", tmp_path / "alias.md")
    cache = trusting_cache()
    scan_memory_files(tmp_path, cache=cache)  # read: the entries are cached
    first = {h.filename: h for h in scan_memory_files(tmp_path, cache=cache)}
    again = scan_memory_files(tmp_path, cache=cache)
    assert again == cold(tmp_path).headers
    assert {h.filename: h.name for h in again} == {
        "a.md": "first",
        "alias.md": "first",
        "b.md": "second",
    }
    assert {h.filename: h for h in again}["b.md"] is first["b.md"]
    rewrite_visibly(b, render_memory_file("changed", "d", "project", "body"), BASE_NS - 1)
    third = scan_memory_files(tmp_path, cache=cache)
    assert third == cold(tmp_path).headers
    assert {h.filename: h.name for h in third}["b.md"] == "changed"
    os.rename(b, tmp_path / "c.md")
    renamed = scan_memory_files(tmp_path, cache=cache)
    assert renamed == cold(tmp_path).headers
    assert sorted(h.filename for h in renamed) == ["a.md", "alias.md", "c.md"]


def test_capped_rescan_reads_only_files_that_enter_the_cap(
    tmp_path: Path, count_opens: list[str]
) -> None:
    for i in range(10):
        write(tmp_path, f"m{i}.md", mtime_ns=BASE_NS - i * 1000)
    cache = trusting_cache()
    scan_memory_dir(tmp_path, limit=3, cache=cache)
    newest = write(tmp_path, "new.md", mtime_ns=BASE_NS + 1000)
    count_opens.clear()
    report = scan_memory_dir(tmp_path, limit=3, cache=cache)
    assert count_opens == [str(newest)]
    assert report == cold(tmp_path, limit=3)
    assert [h.filename for h in report.headers] == ["new.md", "m0.md", "m1.md"]


# ---------------------------------------------------------------- changes are seen


def test_same_size_rewrite_with_equal_mtime_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, "a.md", name="alpha", desc="one")
    cache = trusting_cache()
    scan_memory_dir(tmp_path, cache=cache)
    text = path.read_text().replace("alpha", "omega").replace("one", "two")
    assert len(text) == path.stat().st_size
    rewrite_visibly(path, text, BASE_NS)
    assert path.stat().st_mtime_ns == BASE_NS and path.stat().st_size == len(text)
    report = scan_memory_dir(tmp_path, cache=cache)
    assert report == cold(tmp_path)
    assert (report.headers[0].name, report.headers[0].description) == ("omega", "two")


def test_file_replaced_by_same_size_file_with_equal_mtime_is_read_again(tmp_path: Path) -> None:
    path = write(tmp_path, "a.md", name="alpha")
    cache = trusting_cache()
    scan_memory_dir(tmp_path, cache=cache)
    other = write(tmp_path, ".tmp-a.md", name="omega")  # a dot-file, as the store's temp files are
    assert other.stat().st_size == path.stat().st_size
    os.replace(other, path)
    report = scan_memory_dir(tmp_path, cache=cache)
    assert report == cold(tmp_path)
    assert report.headers[0].name == "omega"


def test_touch_within_the_same_second_is_seen(tmp_path: Path) -> None:
    # mtime_ms is a float of ms (as in the spec), so steps below ~1 us do not change the order.
    write(tmp_path, "a.md", mtime_ns=BASE_NS)
    b = write(tmp_path, "b.md", mtime_ns=BASE_NS + 1000)
    cache = trusting_cache()
    assert [h.filename for h in scan_memory_files(tmp_path, cache=cache)] == ["b.md", "a.md"]
    os.utime(b, ns=(BASE_NS - 1000, BASE_NS - 1000))  # two microseconds back, same second
    report = scan_memory_dir(tmp_path, cache=cache)
    assert report == cold(tmp_path)
    assert [h.filename for h in report.headers] == ["a.md", "b.md"]
    assert report.headers[1].mtime_ms == (BASE_NS - 1000) / 1_000_000
    os.utime(b, ns=(BASE_NS - 999, BASE_NS - 999))  # one nanosecond: same header order, new stat
    assert scan_memory_dir(tmp_path, cache=cache) == cold(tmp_path)


def test_added_and_deleted_files_match_a_cold_scan_and_leave_the_cache(tmp_path: Path) -> None:
    for i in range(5):
        write(tmp_path, f"m{i}.md", mtime_ns=BASE_NS - i)
    cache = trusting_cache()
    scan_memory_dir(tmp_path, cache=cache)
    (tmp_path / "m1.md").unlink()
    (tmp_path / "m3.md").unlink()
    write(tmp_path, "sub/new.md", mtime_ns=BASE_NS)
    report = scan_memory_dir(tmp_path, cache=cache)
    assert report == cold(tmp_path)
    assert cache.stats().entries == 4
    shutil.rmtree(tmp_path / "sub")
    for p in tmp_path.glob("*.md"):
        p.unlink()
    assert scan_memory_dir(tmp_path, cache=cache) == ScanReport()
    assert cache.stats().entries == 0


def test_removed_memory_dir_forgets_its_entries(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    write(mem, "a.md")
    cache = trusting_cache()
    scan_memory_dir(mem, cache=cache)
    assert cache.stats().entries == 1
    shutil.rmtree(mem)
    assert scan_memory_dir(mem, cache=cache) == ScanReport()
    assert cache.stats().entries == 0


def test_a_dir_that_holds_no_header_leaves_nothing_in_the_cache(tmp_path: Path) -> None:
    # A kernel's cache kept a (path, names) key for every dir it was asked about that was
    # empty, gone or unlistable, counted as 0 bytes and never dropped: it grew with the calls
    cache = trusting_cache()
    write(tmp_path / "kept", "a.md")
    scan_memory_dir(tmp_path / "kept", cache=cache)
    (tmp_path / "empty").mkdir()
    for name in ("empty", "gone", "a" * 300):  # empty, absent, past NAME_MAX
        scan_memory_dir(tmp_path / name, cache=cache)
    assert cache.stats().roots == 1 and cache.stats().entries == 1


# ---------------------------------------------------------------- symlinks: re-checked every scan


def test_symlink_retargeted_inside_the_dir_gives_the_new_target(tmp_path: Path) -> None:
    write(tmp_path, "one.md", name="first")
    write(tmp_path, "two.md", name="second")
    os.symlink("one.md", tmp_path / "alias.md")
    cache = trusting_cache()
    assert {h.filename: h.name for h in scan_memory_files(tmp_path, cache=cache)}[
        "alias.md"
    ] == "first"
    (tmp_path / "alias.md").unlink()
    os.symlink("two.md", tmp_path / "alias.md")
    report = scan_memory_dir(tmp_path, cache=cache)
    assert report == cold(tmp_path)
    assert {h.filename: h.name for h in report.headers}["alias.md"] == "second"


def test_symlink_retargeted_outside_is_skipped_although_its_header_was_cached(
    tmp_path: Path,
) -> None:
    mem, outside = tmp_path / "memory", tmp_path / "outside"
    write(mem, "real.md", name="inside")
    os.symlink("real.md", mem / "alias.md")
    cache = trusting_cache()
    assert len(scan_memory_files(mem, cache=cache)) == 2
    # Same content, same size, same mtime: only the containment check can tell.
    outside.mkdir()
    shutil.copy2(mem / "real.md", outside / "real.md")
    (mem / "alias.md").unlink()
    os.symlink(outside / "real.md", mem / "alias.md")
    report = scan_memory_dir(mem, cache=cache)
    assert report == cold(mem)
    assert [h.filename for h in report.headers] == ["real.md"]
    assert [(s.path, s.reason) for s in report.skipped] == [
        ("alias.md", "symlink leaves the memory dir")
    ]


def test_regular_file_swapped_for_an_escaping_symlink_is_skipped(tmp_path: Path) -> None:
    mem, outside = tmp_path / "memory", tmp_path / "outside"
    path = write(mem, "a.md", name="mine")
    cache = trusting_cache()
    scan_memory_dir(mem, cache=cache)
    outside.mkdir()
    os.replace(path, outside / "a.md")  # the same inode, now outside
    os.symlink(outside / "a.md", mem / "a.md")
    report = scan_memory_dir(mem, cache=cache)
    assert report == cold(mem)
    assert report.headers == [] and report.skipped[0].reason == "symlink leaves the memory dir"


# ---------------------------------------------------------------- racy timestamps


class StepClock:
    """A clock in ms that the test moves by hand."""

    def __init__(self, now_ms: float) -> None:
        self.now_ms = now_ms

    def __call__(self) -> float:
        return self.now_ms


def test_file_changed_within_the_racy_window_is_read_again(
    tmp_path: Path, count_opens: list[str]
) -> None:
    path = write(tmp_path, "a.md")
    clock = StepClock(time.time() * 1000)  # the file's ctime is "just now"
    cache = ScanCache(clock=clock)
    scan_memory_dir(tmp_path, cache=cache)
    scan_memory_dir(tmp_path, cache=cache)
    assert count_opens == [str(path), str(path)]
    assert cache.stats().racy == 2 and cache.stats().entries == 0
    clock.now_ms += 2_001  # the racy window has passed
    count_opens.clear()
    scan_memory_dir(tmp_path, cache=cache)
    scan_memory_dir(tmp_path, cache=cache)
    assert count_opens == [str(path)]
    assert cache.stats().hits == 1


def test_zero_racy_window_keeps_a_header_read_just_after_its_change(tmp_path: Path) -> None:
    write(tmp_path, "a.md")
    cache = ScanCache(racy_window_ms=0, clock=lambda: time.time() * 1000 + 1)
    scan_memory_dir(tmp_path, cache=cache)
    assert cache.stats().entries == 1 and cache.stats().racy == 0


# ---------------------------------------------------------------- bounds


def test_max_entries_bounds_the_cache_and_keeps_the_newest(
    tmp_path: Path, count_opens: list[str]
) -> None:
    for i in range(10):
        write(tmp_path, f"m{i}.md", mtime_ns=BASE_NS - i * 1000)
    cache = trusting_cache(max_entries=4)
    scan_memory_dir(tmp_path, limit=None, cache=cache)
    assert cache.stats().entries == 4
    count_opens.clear()
    report = scan_memory_dir(tmp_path, limit=None, cache=cache)
    assert sorted(count_opens) == sorted(str(tmp_path / f"m{i}.md") for i in range(4, 10))
    assert report == cold(tmp_path, limit=None)


def test_least_recently_scanned_dir_is_dropped_first(tmp_path: Path) -> None:
    dirs = [tmp_path / name for name in ("a", "b", "c")]
    for d in dirs:
        for i in range(3):
            write(d, f"m{i}.md")
    cache = trusting_cache(max_entries=7)
    for d in dirs:
        scan_memory_dir(d, cache=cache)
    assert (cache.stats().entries, cache.stats().roots) == (6, 2)
    before = cache.stats().hits
    scan_memory_dir(dirs[2], cache=cache)
    scan_memory_dir(dirs[1], cache=cache)
    assert cache.stats().hits - before == 6


def test_clear_forgets_entries_and_totals(tmp_path: Path) -> None:
    write(tmp_path, "a.md")
    cache = trusting_cache()
    scan_memory_dir(tmp_path, cache=cache)
    cache.clear()
    assert cache.stats() == scan_module.ScanCacheStats(0, 0, 0, 0, 0)
    assert len(cache) == 0


def test_bad_cache_arguments_are_refused_with_the_fix() -> None:
    with pytest.raises(TypeError, match="ScanCache"):
        scan_memory_dir("/nonexistent", cache={})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_entries"):
        ScanCache(max_entries=0)
    with pytest.raises(ValueError, match="racy_window_ms"):
        ScanCache(racy_window_ms=-1)


# ---------------------------------------------------------------- threads


def test_threads_sharing_a_cache_get_the_cold_result(tmp_path: Path) -> None:
    for i in range(60):
        write(tmp_path, f"{'t/' if i % 2 else ''}m{i:02d}.md", name=f"n{i}", mtime_ns=BASE_NS - i)
    cache = trusting_cache()
    stop = threading.Event()
    errors: list[BaseException] = []

    def mutate() -> None:
        i = 0
        while not stop.is_set():
            write(tmp_path, f"churn{i % 7}.md", name=f"c{i}", mtime_ns=BASE_NS - 500 - i)
            if i % 3 == 0:
                (tmp_path / f"churn{(i + 4) % 7}.md").unlink(missing_ok=True)
            i += 1

    def scan_loop() -> None:
        try:
            for _ in range(25):
                scan_memory_dir(tmp_path, limit=None, cache=cache)
        except BaseException as exc:
            errors.append(exc)

    mutator = threading.Thread(target=mutate)
    scanners = [threading.Thread(target=scan_loop) for _ in range(3)]
    mutator.start()
    for t in scanners:
        t.start()
    for t in scanners:
        t.join()
    stop.set()
    mutator.join()
    assert errors == []
    assert scan_memory_dir(tmp_path, limit=None, cache=cache) == cold(tmp_path, limit=None)
    assert cache.stats().hits > 0


# ---------------------------------------------------------------- unreadable (as another user)


def test_file_made_unreadable_after_caching_is_skipped(shared_dir: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to hand the files to another uid")
    mem = shared_dir / "memory"
    for i in range(3):
        write(mem, f"m{i}.md", mtime_ns=BASE_NS - i)
    for p in [mem, *mem.iterdir()]:
        os.chown(p, NOBODY, NOBODY)

    def scan_twice() -> bytes:  # nobody owns the files and can chmod them
        cache = trusting_cache()
        scan_memory_dir(mem, cache=cache)
        os.chmod(mem / "m1.md", 0o000)
        cached = scan_memory_dir(mem, cache=cache)
        fresh = scan_memory_dir(mem)
        payload = {
            "same": cached == fresh,
            "headers": [h.filename for h in cached.headers],
            "skipped": [[s.path, s.reason] for s in cached.skipped],
        }
        return json.dumps(payload).encode()

    result = json.loads(as_nobody(scan_twice))
    assert result == {
        "same": True,
        "headers": ["m0.md", "m2.md"],
        "skipped": [["m1.md", "unreadable: PermissionError"]],
    }


# ---------------------------------------------------------------- property: cached == cold

NAMES = ("a.md", "b.md", "team/c.md", "team/d.md", "deep/x/e.md")
VARIANTS = ("alpha", "omega", "gamma-long-name")  # alpha and omega have the same length

operation = st.one_of(
    st.tuples(
        st.just("write"),
        st.sampled_from(NAMES),
        st.sampled_from(VARIANTS),
        st.sampled_from((-2000, 0, 1, 2000)),
    ),
    st.tuples(st.just("rewrite_same_size"), st.sampled_from(NAMES)),
    st.tuples(st.just("delete"), st.sampled_from(NAMES)),
    st.tuples(st.just("touch"), st.sampled_from(NAMES), st.sampled_from((-5000, -1, 0, 1, 5000))),
    st.tuples(st.just("replace"), st.sampled_from(NAMES), st.sampled_from(NAMES)),
    st.tuples(st.just("link"), st.sampled_from(NAMES), st.sampled_from((*NAMES, "../outside.md"))),
    st.tuples(st.just("scan"), st.sampled_from((None, 1, 2, 200))),
)


def apply(root: Path, op: tuple) -> None:  # type: ignore[type-arg]
    """Carry out one random change under root; changes that make no sense here do nothing."""
    kind = op[0]
    path = root / op[1] if kind != "scan" else root
    if kind == "write":
        if path.is_symlink():
            path.unlink()
        write(root, op[1], name=op[2], mtime_ns=BASE_NS + op[3])
    elif kind == "rewrite_same_size" and path.is_file() and not path.is_symlink():
        text = path.read_text()
        swapped = (
            text.replace("alpha", "omega") if "alpha" in text else text.replace("omega", "alpha")
        )
        rewrite_visibly(path, swapped, path.stat().st_mtime_ns) if swapped != text else None
    elif kind == "delete" and (path.is_symlink() or path.exists()):
        path.unlink()
    elif kind == "touch" and path.exists() and not path.is_symlink():
        t = path.stat().st_mtime_ns + op[2]
        os.utime(path, ns=(t, t))
    elif kind == "replace" and op[1] != op[2] and path.exists():
        (root / op[2]).parent.mkdir(parents=True, exist_ok=True)
        os.replace(path, root / op[2])
    elif kind == "link" and op[1] != op[2] and not path.exists() and not path.is_symlink():
        path.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(os.path.relpath(root / op[2], path.parent), path)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(operation, min_size=1, max_size=25), max_entries=st.sampled_from((3, 1000)))
def test_cached_scan_equals_cold_scan_after_any_sequence_of_changes(
    ops: list[tuple[Any, ...]],
    max_entries: int,
) -> None:
    base = Path(tempfile.mkdtemp(prefix="memdir_prop_"))
    try:
        root = base / "memory"
        root.mkdir()
        write(base, "outside.md", name="alpha")
        cache = trusting_cache(max_entries=max_entries)  # 3: eviction is exercised too
        for op in ops:
            apply(root, op)
            limit = op[1] if op[0] == "scan" else 200
            assert scan_memory_dir(root, limit=limit, cache=cache) == cold(root, limit=limit), op
        assert scan_memory_dir(root, limit=None, cache=cache) == cold(root, limit=None)
    finally:
        shutil.rmtree(base, ignore_errors=True)


# ---------------------------------------------------------------- the benchmark's own check


@pytest.mark.timeout(120)
def test_bench_scale_runs_and_reports_every_operation_as_json() -> None:
    import subprocess
    import sys

    script = Path(__file__).resolve().parents[2] / "benchmarks" / "bench_scale.py"
    done = subprocess.run(
        [sys.executable, str(script), "--json", "--sizes", "30", "--runs-factor", "0.2"],
        capture_output=True,
        text=True,
        timeout=110,
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    rows = {(r["operation"], r["state"]) for r in result["results"]}
    assert rows == {
        ("bare", "cold"),
        ("scan", "cold"),
        ("bare", "warm"),
        ("scan", "warm"),
        ("scan", "cached"),
        ("scan_all", "warm"),
        ("scan_all", "cached"),
        ("recall", "warm"),
        ("validate", "warm"),
    }
    assert all(
        r["files"] == 30 and r["wall_ms"] > 0 and r["ratio_to_bare"] > 0 for r in result["results"]
    )
    assert set(result["machine"]) >= {"cpu_model", "cpus", "python"}
    assert len(result["load_average_1m"]) == 2


def test_scan_cache_holds_at_most_max_bytes_dropping_the_least_recently_scanned_dir(
    tmp_path: Path,
) -> None:
    """Descriptions that fill their 8 KiB headers: entries alone would let 20,000 of them hold
    175 MB in a kernel; the cache's bytes stay within max_bytes (SCAN_CACHE_MAX_BYTES unless
    given) and the oldest dir goes first."""
    assert ScanCache().max_bytes == SCAN_CACHE_MAX_BYTES
    cache = trusting_cache(max_bytes=40_000)
    for d in "abc":
        for i in range(4):
            write(tmp_path / d, f"project_{i}.md", desc=f"{d}{i} " + "long " * 800)
        scan_memory_dir(tmp_path / d, cache=cache)
        assert cache.held_bytes() <= 40_000
    assert cache.stats().roots == 2  # a (four 4 KB descriptions: 19 KB) was dropped for c
    before = cache.stats().misses
    scan_memory_dir(tmp_path / "c", cache=cache)
    assert cache.stats().misses == before  # the newest dir is still whole
    scan_memory_dir(tmp_path / "a", cache=cache)
    assert cache.stats().misses == before + 4


def test_one_dir_past_max_bytes_keeps_its_newest_headers_that_fit(tmp_path: Path) -> None:
    cache = trusting_cache(max_bytes=12_000)
    for i in range(6):
        write(tmp_path, f"project_{i}.md", desc="long " * 800, mtime_ns=BASE_NS + i * 10**9)
    scan_memory_dir(tmp_path, cache=cache)
    assert cache.stats().entries == 2 and cache.held_bytes() <= 12_000
    before = cache.stats().misses
    scan_memory_dir(tmp_path, cache=cache)
    assert cache.stats().misses == before + 6 - cache.stats().entries  # the newest were kept


def test_headers_made_from_a_dropped_dir_are_not_kept_alive(tmp_path: Path) -> None:
    # A warm scan hands back the header it made last time (warm24); those headers hold their
    # cache entries, so a dir dropped for the byte bound must take its made headers with it
    cache = trusting_cache(max_bytes=40_000)
    for d in "abc":
        for i in range(4):
            write(tmp_path / d, f"project_{i}.md", desc=f"{d}{i} " + "long " * 800)
        scan_memory_dir(tmp_path / d, cache=cache)
        scan_memory_dir(tmp_path / d, cache=cache)  # warm: the made headers are kept
    kept = {path for root in cache._roots.values() for path in root}
    assert cache.stats().roots == 2 and set(cache._made) <= kept
