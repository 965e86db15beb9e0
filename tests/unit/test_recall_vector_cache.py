"""VectorCache: vectors by text key, snippets by file identity, bounded, never fatal."""

from __future__ import annotations

import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import pytest

from memdir_nb.recall.vector_cache import VectorCache, file_identity, text_key
from memdir_nb.spec.constants import CACHE_BODIES_MAX_BYTES
from memdir_nb.spec.text import terminal_line


def _vec(seed: int) -> np.ndarray:
    return np.random.default_rng(seed).standard_normal(384).astype(np.float32)


def test_vectors_survive_a_new_cache_object_on_the_same_file(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    key = text_key("model", "hello")
    VectorCache(path).put_vectors({key: _vec(1)})
    again = VectorCache(path).get_vectors([key, text_key("model", "absent")])
    assert list(again) == [key]
    assert np.array_equal(again[key], _vec(1))


def test_the_model_hash_is_part_of_the_key() -> None:
    assert text_key("model-a", "same text") != text_key("model-b", "same text")


def test_a_snippet_is_reused_only_while_the_file_identity_holds(tmp_path: Path) -> None:
    f = tmp_path / "m.md"
    f.write_text("one", encoding="utf-8")
    cache_file = tmp_path / "c.sqlite3"
    VectorCache(cache_file).put_snippets({str(f): (file_identity(os.stat(f)), "one")})
    fresh = VectorCache(cache_file)
    assert fresh.get_snippets({str(f): file_identity(os.stat(f))}) == {str(f): "one"}
    f.write_text("two!", encoding="utf-8")
    assert VectorCache(cache_file).get_snippets({str(f): file_identity(os.stat(f))}) == {}


def test_the_oldest_vectors_are_dropped_beyond_the_bound(tmp_path: Path) -> None:
    cache = VectorCache(tmp_path / "c.sqlite3", max_vectors=3)
    keys = [text_key("m", str(i)) for i in range(5)]
    for i, key in enumerate(keys):
        cache.put_vectors({key: _vec(i)})
    reopened = VectorCache(tmp_path / "c.sqlite3", max_vectors=3)
    assert set(reopened.get_vectors(keys)) == set(keys[2:])


def _files(tmp_path: Path, n: int) -> dict[str, tuple[tuple[int, int, int, int], str]]:
    out = {}
    for i in range(n):
        f = tmp_path / f"m{i}.md"
        f.write_text(f"body {i}", encoding="utf-8")
        out[str(f)] = (file_identity(os.stat(f)), f"body {i}")
    return out


def test_the_oldest_snippets_are_dropped_beyond_the_bound(tmp_path: Path) -> None:
    # A renamed or deleted file's rows are never asked for again: without a bound they pile up.
    files = _files(tmp_path, 5)
    cache = VectorCache(tmp_path / "c.sqlite3", max_snippets=3)
    for path, held in files.items():
        cache.put_snippets({path: held})
    wanted = {path: held[0] for path, held in files.items()}
    assert set(cache.get_snippets(wanted)) == set(list(files)[2:])  # in memory
    reopened = VectorCache(tmp_path / "c.sqlite3", max_snippets=3)
    assert set(reopened.get_snippets(wanted)) == set(list(files)[2:])  # in the file


def test_a_snippet_written_again_is_the_newest(tmp_path: Path) -> None:
    files = _files(tmp_path, 4)
    first, second, third, fourth = files
    cache = VectorCache(tmp_path / "c.sqlite3", max_snippets=3)
    cache.put_snippets({p: files[p] for p in (first, second, third)})
    cache.put_snippets({first: files[first]})  # read again after an edit, say
    cache.put_snippets({fourth: files[fourth]})
    wanted = {path: held[0] for path, held in files.items()}
    for kept in (cache, VectorCache(tmp_path / "c.sqlite3", max_snippets=3)):
        assert set(kept.get_snippets(wanted)) == {first, third, fourth}


def test_a_memory_only_cache_keeps_the_same_bound(tmp_path: Path) -> None:
    files = _files(tmp_path, 4)
    cache = VectorCache(None, max_snippets=2)
    cache.put_snippets(files)
    assert set(cache.get_snippets({p: h[0] for p, h in files.items()})) == set(list(files)[2:])


def test_an_unusable_cache_path_keeps_working_in_memory_and_says_why(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x", encoding="utf-8")
    cache = VectorCache(blocker / "c.sqlite3")
    assert cache.problem and "MEMDIR_NB_CACHE_DIR" in cache.problem
    key = text_key("m", "t")
    cache.put_vectors({key: _vec(3)})
    assert np.array_equal(cache.get_vectors([key])[key], _vec(3))


def test_a_file_dated_past_2262_keeps_its_snippet_in_memory_and_the_cache_working(
    tmp_path: Path,
) -> None:
    # st_mtime_ns past 2**63 (a file `touch -d 2400-01-01`'d) made sqlite3 raise OverflowError
    # out of put_snippets, so the whole semantic recall failed with a traceback.
    f = tmp_path / "m.md"
    f.write_text("far", encoding="utf-8")
    far_ns = 13_569_465_600 * 10**9  # 2400-01-01, past 2**63 ns
    os.utime(f, ns=(far_ns, far_ns))
    ident = file_identity(os.stat(f))
    assert ident[3] >= 2**63
    cache = VectorCache(tmp_path / "c.sqlite3")
    cache.put_snippets({str(f): (ident, "far")})
    assert cache.get_snippets({str(f): ident}) == {str(f): "far"}
    assert cache.problem is None
    assert VectorCache(tmp_path / "c.sqlite3").get_snippets({str(f): ident}) == {}


def test_a_cache_an_older_version_wrote_says_to_move_it_aside(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "semantic-vectors.sqlite3"
    with sqlite3.connect(path) as old:  # a vectors table without the vec column
        old.execute("CREATE TABLE vectors (key TEXT PRIMARY KEY, embedding BLOB)")
    cache = VectorCache(path)
    cache.put_vectors({"k": np.ones(3, dtype=np.float32)})
    assert cache.problem is not None and "has no column named vec" in cache.problem
    assert "move it aside or delete it" in cache.problem
    assert cache.get_vectors(["k"])["k"].tolist() == [1.0, 1.0, 1.0]  # kept in memory


def test_rows_read_back_count_towards_the_in_memory_bound(tmp_path: Path) -> None:
    # Rows read from the database were kept in memory without the bound put_* applies: a
    # kernel that only reads a cache another process keeps full held all of it
    path = tmp_path / "c.sqlite3"
    keys = [text_key("m", str(i)) for i in range(6)]
    VectorCache(path).put_vectors({key: _vec(i) for i, key in enumerate(keys)})
    files = _files(tmp_path, 6)
    VectorCache(path).put_snippets(files)
    reader = VectorCache(path, max_vectors=2, max_snippets=2)
    assert set(reader.get_vectors(keys)) == set(keys)  # every row found is answered
    wanted = {p: ident for p, (ident, _) in files.items()}
    assert len(reader.get_snippets(wanted)) == 6
    assert len(reader._vectors) == 2 and len(reader._snippets) == 2


def test_snippets_held_in_memory_stay_within_their_byte_bound() -> None:
    """A long-lived kernel's semantic cache: 40 files of 1 MiB bodies used to stay in memory
    (20,000 snippets of up to 1 MiB each could hold 20 GB); now at most CACHE_BODIES_MAX_BYTES
    (with a file, one dropped from memory is read back from it)."""
    cache = VectorCache(None)
    ident = (1, 2, 3, 4)
    tracemalloc.start()
    try:
        for i in range(40):
            cache.put_snippets({f"/m/{i}.md": (ident, f"{i:04d}" + "b" * (1024 * 1024 - 4))})
        held, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert held < CACHE_BODIES_MAX_BYTES + 2 * 1024 * 1024
    assert cache.get_snippets({"/m/39.md": ident})["/m/39.md"].startswith("0039b")


_HOLD_LOCK = """
import sqlite3, sys
conn = sqlite3.connect(sys.argv[1], isolation_level=None)
conn.execute("BEGIN EXCLUSIVE")
print("held", flush=True)
sys.stdin.read()
conn.execute("ROLLBACK")
"""


def test_a_cache_another_process_has_locked_says_so_and_to_wait_not_to_delete(
    tmp_path: Path,
) -> None:
    # A second process encoding the same dir held SQLite's lock past the timeout: the message
    # told the user to delete a cache that is fine.
    path = tmp_path / "semantic-vectors.sqlite3"
    VectorCache(path).close()  # the tables exist, as after an earlier run
    holder = subprocess.Popen(
        [sys.executable, "-c", _HOLD_LOCK, str(path)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        cache = VectorCache(path, lock_timeout_s=0.2)
    finally:
        holder.communicate("", timeout=30)
    assert cache.problem is not None
    assert "another process holds the lock" in cache.problem and str(path) in cache.problem
    assert "in memory this time" in cache.problem and "wait" in cache.problem
    assert "delete" not in cache.problem
    cache.put_vectors({"k": _vec(1)})
    assert np.array_equal(cache.get_vectors(["k"])["k"], _vec(1))  # recall goes on
    assert VectorCache(path).problem is None  # the lock let go: the same file works again


@pytest.mark.parametrize("kind", ["a FIFO", "a character device"])
def test_a_cache_folder_that_is_a_fifo_or_a_device_is_named_and_never_to_be_deleted(
    tmp_path: Path, kind: str
) -> None:
    # attack round 26: MEMDIR_NB_CACHE_DIR=/dev/null said "FileExistsError … move it aside
    # or delete it", advice that run as root would delete the device
    folder = Path("/dev/null") if kind == "a character device" else tmp_path / "fifo"
    if kind == "a FIFO":
        os.mkfifo(folder)
    cache = VectorCache(folder / "semantic-vectors.sqlite3")
    assert cache.problem is not None
    assert f"{folder} is {kind}, not a folder" in cache.problem
    assert "delete" not in cache.problem and "MEMDIR_NB_CACHE_DIR" in cache.problem
    assert folder.exists()


@pytest.mark.parametrize("kind", ["a symlink loop", "a symlink to a path that does not exist"])
def test_a_cache_folder_that_is_a_link_leading_nowhere_is_named_as_such(
    tmp_path: Path, kind: str
) -> None:
    # attack40: the cache folder a symlink loop (or a link to a missing path) was "cannot be
    # used (OSError: …)" with "move it aside or delete it" about the cache file
    folder = tmp_path / "cache"
    folder.symlink_to(folder if kind == "a symlink loop" else tmp_path / "gone" / "cache")
    cache = VectorCache(folder / "semantic-vectors.sqlite3")
    assert cache.problem is not None
    assert f"{folder} is {kind}, not a folder" in cache.problem
    assert "MEMDIR_NB_CACHE_DIR" in cache.problem and folder.is_symlink()


def test_an_unusable_cache_path_is_named_in_one_safe_terminal_line(tmp_path: Path) -> None:
    # The path and the OS message reach terminals and notebooks: an escape sequence or a
    # newline in them must not rewrite the terminal or forge a line.
    odd = tmp_path / "cache\x1b[2J\nforged line"
    odd.write_text("a file where the cache folder belongs", encoding="utf-8")
    cache = VectorCache(odd / "semantic-vectors.sqlite3")
    assert cache.problem is not None and "MEMDIR_NB_CACHE_DIR" in cache.problem
    assert "\x1b" not in cache.problem and "\n" not in cache.problem
    assert terminal_line(odd) in cache.problem
