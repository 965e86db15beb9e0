"""On-disk cache of the semantic channel: memory vectors and the body snippets they were made from.

Two tables in one SQLite file under the cache root (never inside a memory dir, which only the
store writes):

* `vectors`: key = SHA-256 of (model weights hash, text) -> the 384 float32 values. A text is
  encoded once per model, whichever file or dir it came from.
* `snippets`: a file's real path -> its (device, inode, size, mtime_ns) and the start of its
  body. While that identity holds, the file is not read again to learn its snippet.

An unchanged dir re-opened in a new process therefore reads no body and encodes nothing. The
cache holds at most `max_vectors` vectors and `max_snippets` snippets, in the file and in memory
(the oldest written dropped first): rows of files that were renamed, deleted or edited are
never looked up again, so the bound is what keeps them from piling up. In memory the snippets
are also bounded in bytes (spec.bounded_cache: a long-lived kernel keeps the cache). If the file cannot be opened or
written (read-only home, disk full), the cache keeps working in memory and `problem` says why.

A row read back is used only in the shape this module writes it (a vector: 384 finite float32
values; a snippet: text of at most SNIPPET_MAX_CHARS); any other row (a NULL, a number, text
where bytes belong, a cut blob, a huge value: a corrupt file, or one another program wrote) is
treated as missing, so the file is read or the text encoded again and the row replaced.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
import threading
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from memdir_nb.recall.embedding import EMBEDDING_DIM
from memdir_nb.spec.bounded_cache import ByteBoundedLRU
from memdir_nb.spec.constants import CACHE_BODIES_MAX_BYTES, MEMORY_FILE_READ_MAX_BYTES
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.folder_blocker import folder_blocker

FileIdentity = tuple[int, int, int, int]  # (st_dev, st_ino, st_size, st_mtime_ns)
DEFAULT_MAX_VECTORS = 50_000
# Snippets are keyed by path; the semantic channel stores two per memory file (its body and its
# full-text terms), so this keeps those of the 10,000 files most recently read.
DEFAULT_MAX_SNIPPETS = 20_000
CACHE_FILENAME = "semantic-vectors.sqlite3"
# The longest snippet kept: a body is at most MEMORY_FILE_READ_MAX_BYTES characters, and its
# packed full-text terms at most about 1.4 times that (CJK text, whose every character starts
# a pair).
SNIPPET_MAX_CHARS = 4 * MEMORY_FILE_READ_MAX_BYTES
# How long a read or write waits for SQLite's lock on the cache file while another process (a
# second kernel encoding the same dir) holds it, before this process keeps vectors in memory.
LOCK_TIMEOUT_S = 10.0


def file_identity(st: os.stat_result) -> FileIdentity:
    """The stat fields a cached snippet is tied to."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _fits_sqlite(ident: FileIdentity) -> bool:
    """Whether SQLite's INTEGER (64-bit signed) holds every part of an identity.

    A file dated after 2262 (`touch -d 2400-01-01`, a clock gone wrong) has an mtime_ns past
    2**63, and some filesystems hand out inode numbers that high: such a file's snippet is kept
    in memory for this process only, not written (sqlite3 raises OverflowError on them).
    """
    return all(-(2**63) <= part < 2**63 for part in ident)


def text_key(model_sha256: str, text: str) -> str:
    """Cache key of one text's vector under one model."""
    return hashlib.sha256(f"{model_sha256}\0{text}".encode()).hexdigest()


def _keep_newest(held: dict[str, Any], bound: int) -> None:
    """Drop the oldest entries of an in-memory table past its bound (insertion order): rows
    read back from the database count as well as rows written, or a kernel that only reads a
    cache another process keeps full would hold all of it (attack round 17)."""
    if len(held) > bound:
        for key in list(held)[: len(held) - bound]:
            del held[key]


def _stored_vector(blob: object) -> np.ndarray | None:
    """A vector row's value as written (EMBEDDING_DIM finite float32 values), else None."""
    if not isinstance(blob, bytes) or len(blob) != EMBEDDING_DIM * 4:
        return None
    vec = np.frombuffer(blob, dtype=np.float32)
    return vec if bool(np.isfinite(vec).all()) else None


def _stored_snippet(value: object) -> str | None:
    """A snippet row's value as written (text of at most SNIPPET_MAX_CHARS), else None."""
    return value if isinstance(value, str) and len(value) <= SNIPPET_MAX_CHARS else None


def _locked(err: BaseException) -> bool:
    """Whether SQLite gave up waiting for a lock another connection holds (SQLITE_BUSY/LOCKED)."""
    code = getattr(err, "sqlite_errorcode", None)
    return isinstance(err, sqlite3.OperationalError) and code in (
        sqlite3.SQLITE_BUSY,
        sqlite3.SQLITE_LOCKED,
    )


class VectorCache:
    """Vectors by text key and snippets by file identity, in SQLite (or memory only if path is None)."""

    def __init__(
        self,
        path: Path | None,
        *,
        max_vectors: int = DEFAULT_MAX_VECTORS,
        max_snippets: int = DEFAULT_MAX_SNIPPETS,
        lock_timeout_s: float = LOCK_TIMEOUT_S,
    ) -> None:
        if max_vectors < 1:
            raise ValueError(f"max_vectors must be at least 1, got {max_vectors}")
        if max_snippets < 1:
            raise ValueError(f"max_snippets must be at least 1, got {max_snippets}")
        self.path = path
        self.max_vectors = max_vectors
        self.max_snippets = max_snippets
        self.lock_timeout_s = lock_timeout_s
        self.problem: str | None = None
        self._lock = threading.Lock()
        self._conn: sqlite3.Connection | None = None
        self._vectors: dict[str, np.ndarray] = {}
        # in memory, CACHE_BODIES_MAX_BYTES of them at most (a snippet may be a 256 KiB body);
        # one not held here is read from the file
        self._snippets: ByteBoundedLRU[str, tuple[FileIdentity, str]] = ByteBoundedLRU(
            max_entries=max_snippets, max_bytes=CACHE_BODIES_MAX_BYTES
        )
        if path is not None:
            self._open(path)

    def _open(self, path: Path) -> None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), timeout=self.lock_timeout_s, check_same_thread=False)
            conn.execute("CREATE TABLE IF NOT EXISTS vectors (key TEXT PRIMARY KEY, vec BLOB)")
            conn.execute(
                "CREATE TABLE IF NOT EXISTS snippets (path TEXT PRIMARY KEY, dev INTEGER, "
                "ino INTEGER, size INTEGER, mtime_ns INTEGER, snippet TEXT)"
            )
            conn.commit()
            self._conn = conn
        except (OSError, sqlite3.Error) as err:
            self._fail(err)

    def _fail(self, err: BaseException) -> None:
        """Keep vectors in memory from now on; `problem` says why, in one line a terminal shows
        as it is (the path and the OS message may hold an escape sequence or a newline)."""
        path = terminal_line(self.path)
        blocker = folder_blocker(self.path.parent) if self.path is not None else None
        if blocker is not None:  # never "delete it": it may be /dev/null (attack round 26)
            self.problem = (
                f"the vector cache {path} cannot be made: {terminal_line(blocker[0])} is "
                f"{blocker[1]}, not a folder; vectors are kept in memory only. Set "
                "MEMDIR_NB_CACHE_DIR to a writable folder."
            )
        elif _locked(err):
            self.problem = (
                f"another process holds the lock on the vector cache {path} (SQLite locks "
                f"that file itself) and kept it past {self.lock_timeout_s:g} s, as a second "
                "kernel encoding the same memory dir does; recall goes on with vectors kept "
                "in memory this time. The cache is fine: wait for that process, or run again."
            )
        else:
            self.problem = (
                f"the vector cache {path} cannot be used ({type(err).__name__}: "
                f"{terminal_line(err)}); vectors are kept in memory only. It holds nothing "
                "that cannot be made again: move it aside or delete it (one an older version "
                "wrote, or a damaged one, is then made anew), or set MEMDIR_NB_CACHE_DIR to "
                "another writable folder."
            )
        if self._conn is not None:
            self._conn.close()
        self._conn = None

    def close(self) -> None:
        """Close the database (the in-memory copies stay usable)."""
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    # -- vectors ----------------------------------------------------------------------------

    def get_vectors(self, keys: Iterable[str]) -> dict[str, np.ndarray]:
        """The cached vectors among keys (missing keys are absent from the result)."""
        wanted = list(dict.fromkeys(keys))
        found = {k: self._vectors[k] for k in wanted if k in self._vectors}
        missing = [k for k in wanted if k not in found]
        if missing and self._conn is not None:
            with self._lock:
                try:
                    for start in range(0, len(missing), 500):
                        part = missing[start : start + 500]
                        marks = ",".join("?" * len(part))
                        rows = self._conn.execute(
                            f"SELECT key, vec FROM vectors WHERE key IN ({marks})", part
                        ).fetchall()
                        for key, blob in rows:
                            vec = _stored_vector(blob)
                            if vec is not None:
                                found[key] = self._vectors[key] = vec
                except sqlite3.Error as err:
                    self._fail(err)
            _keep_newest(self._vectors, self.max_vectors)  # rows read back count too
        return found

    def put_vectors(self, items: Mapping[str, np.ndarray]) -> None:
        """Store vectors by key, then drop the oldest rows beyond max_vectors."""
        for key, vec in items.items():
            self._vectors[key] = np.asarray(vec, dtype=np.float32)
        _keep_newest(self._vectors, self.max_vectors)
        if not items or self._conn is None:
            return
        rows = [(k, np.asarray(v, dtype=np.float32).tobytes()) for k, v in items.items()]
        with self._lock:
            try:
                with self._conn:
                    self._conn.executemany(
                        "INSERT OR REPLACE INTO vectors (key, vec) VALUES (?, ?)", rows
                    )
                    self._conn.execute(
                        "DELETE FROM vectors WHERE rowid IN (SELECT rowid FROM vectors "
                        "ORDER BY rowid DESC LIMIT -1 OFFSET ?)",
                        (self.max_vectors,),
                    )
            except sqlite3.Error as err:
                self._fail(err)

    # -- snippets ---------------------------------------------------------------------------

    def get_snippets(self, identities: Mapping[str, FileIdentity]) -> dict[str, str]:
        """Snippets of the files (by real path) whose stored identity still matches."""
        found: dict[str, str] = {}
        missing: list[str] = []
        for path, ident in identities.items():
            held = self._snippets.get(path)
            if held is not None and held[0] == ident:
                found[path] = held[1]
            else:
                missing.append(path)
        if missing and self._conn is not None:
            with self._lock:
                try:
                    for start in range(0, len(missing), 500):
                        part = missing[start : start + 500]
                        marks = ",".join("?" * len(part))
                        rows = self._conn.execute(
                            "SELECT path, dev, ino, size, mtime_ns, snippet FROM snippets "
                            f"WHERE path IN ({marks})",
                            part,
                        ).fetchall()
                        for path, dev, ino, size, mtime_ns, value in rows:
                            ident = (dev, ino, size, mtime_ns)
                            snippet = _stored_snippet(value)
                            if snippet is not None and identities.get(path) == ident:
                                found[path] = snippet
                                self._snippets.put(path, (ident, snippet))
                except sqlite3.Error as err:
                    self._fail(err)
        return found

    def put_snippets(self, items: Mapping[str, tuple[FileIdentity, str]]) -> None:
        """Remember each file's snippet under the identity it was read with, then drop the
        oldest written beyond max_snippets."""
        for path, item in items.items():  # written again: now the newest, as in the file's table
            self._snippets.put(path, item)
        if not items or self._conn is None:
            return
        rows = [  # one past the bound would not be used when read back: it is not written
            (path, *ident, snippet)
            for path, (ident, snippet) in items.items()
            if len(snippet) <= SNIPPET_MAX_CHARS and _fits_sqlite(ident)
        ]
        with self._lock:
            try:
                with self._conn:
                    # REPLACE deletes a path's old row and inserts a new one, with a new rowid:
                    # rowid order is the order of writing.
                    self._conn.executemany(
                        "INSERT OR REPLACE INTO snippets (path, dev, ino, size, mtime_ns, "
                        "snippet) VALUES (?, ?, ?, ?, ?, ?)",
                        rows,
                    )
                    self._conn.execute(
                        "DELETE FROM snippets WHERE rowid IN (SELECT rowid FROM snippets "
                        "ORDER BY rowid DESC LIMIT -1 OFFSET ?)",
                        (self.max_snippets,),
                    )
            except sqlite3.Error as err:
                self._fail(err)
