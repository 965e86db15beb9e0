"""One file of derived results under the cache root, kept between processes: key -> JSON value.

For work a later process can reuse when its inputs are the same bytes (the dream planner's
header fields and block comparisons): the caller keys every value by a digest of exactly the
content it was computed from, and names the code that computed it in `version`. The file is
never inside a memory dir (it lives under MemdirConfig.cache_root(), as the recall vector
cache does), and nothing in it is trusted:

* It is read once, at most `max_bytes`, never through a symlink nor from anything but a
  regular file (storage.fsutil.read_at), and parsed by the one JSON parser under that cap
  and under `max_values` values (formats.jsonio.loads_bounded), which bounds the memory the
  parse takes: 16 MB of `[],[],...` was 441 MB of lists (§43). A file that is missing, cut, corrupt, too large, not this
  kind or of another version holds nothing: every value is computed again and the file is
  written anew. A value of the wrong shape is the caller's to refuse (`get` callers check).
* It is written whole, to a temp file of this process's own (mode 0600, O_EXCL|O_NOFOLLOW)
  renamed over the old one (storage.fsutil.replace_file), so a reader sees the old file or the
  new one, never half of one, and two processes writing at once each leave a whole file (the
  last rename wins; the other's new entries are made again next time).
* At most `max_entries` entries are kept: those used or made by this process last, then the
  newest of the rest; an entry not used for a while is dropped. A file that would pass
  `max_bytes` or `max_values` keeps its newer half.
* If the folder cannot be made or the file cannot be written (a read-only home, a full disk),
  the caller goes on without it; `problem` says why, in one line.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from memdir_nb.formats.jsonio import loads_bounded, value_count_over
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.fsutil import (
    OWNER_FILE_MODE,
    OWNER_FOLDER_MODE,
    read_at,
    replace_file,
    unique_tmp_name,
)

# The header's first field: a file of another kind (or another program's) is not read.
_KIND = "kind"


class DerivedCache:
    """The entries of one cache file, read when made; `save` writes the ones used or new."""

    def __init__(
        self,
        path: Path,
        *,
        kind: str,
        version: str,
        max_entries: int,
        max_bytes: int,
        max_values: int,
    ) -> None:
        self.path = path
        self.kind = kind
        self.version = version
        self.max_entries = max_entries
        self.max_bytes = max_bytes
        self.max_values = max_values
        self.problem: str | None = None
        self._lock = threading.Lock()  # a plan on another thread may use the same cache
        self.damaged = False  # the file was there but not usable (rebuilt on save)
        self._old: dict[str, Any] = self._load()
        self._used: dict[str, Any] = {}  # looked up or made by this process, in that order
        self._new = False  # something was put since the last save

    def _load(self) -> dict[str, Any]:
        try:
            fd = os.open(self.path.parent, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except OSError:
            return {}  # no folder yet: nothing kept
        try:
            raw = read_at(fd, self.path.name, self.max_bytes)
            doc = loads_bounded(
                raw,
                max_bytes=self.max_bytes,
                max_depth=8,
                what="cache file",
                max_values=self.max_values,
            )
        except FileNotFoundError:
            return {}
        except (OSError, ValueError):  # a symlink, a folder, too large, not JSON: rebuilt
            self.damaged = True
            return {}
        finally:
            os.close(fd)
        if not isinstance(doc, dict):
            self.damaged = True
            return {}
        entries = doc.get("entries")
        if doc.get(_KIND) != self.kind or doc.get("version") != self.version:
            entries = None
        if not isinstance(entries, dict):
            self.damaged = True
            return {}
        return entries

    def get(self, key: str) -> Any:
        """The value kept under key (as JSON gives it back: check its shape), or None."""
        # each step one dict operation (atomic under the GIL): a plan on another thread can
        # only change which entries count as used
        value = self._used.get(key)
        if value is None:
            value = self._old.pop(key, None)
            if value is not None:
                self._used[key] = value
        return value

    def put(self, key: str, value: Any) -> None:
        """Keep value (JSON: lists, strings, numbers, null) under key, for `save`."""
        self._used[key] = value
        self._new = True

    def put_many(self, entries: Sequence[tuple[str, Any]]) -> None:
        """put each (key, value), in order."""
        if entries:
            self._used.update(entries)
            self._new = True

    def holds_earlier(self) -> bool:
        """Whether any entry read from the file (or kept by the last save) is still unused: when
        not, `get` finds only what this process used or put since."""
        return bool(self._old)

    def __len__(self) -> int:
        return len(self._old) + len(self._used)

    def save(self) -> None:
        """Write the file when something was made or the file was not usable; set `problem`
        (and write nothing) when that fails."""
        with self._lock:
            if not (self._new or self.damaged):
                return
            keep = max(0, self.max_entries - len(self._used))
            entries = dict(list(self._old.items())[len(self._old) - keep :] if keep else [])
            entries.update(list(self._used.items())[-self.max_entries :])
            # what stays in memory is what the file holds: bounded as it is
            self._old, self._used, self._new = entries, {}, False
        data = self._encode(entries)
        while self._too_big(data) and entries:  # keep the newer half
            entries = dict(list(entries.items())[len(entries) // 2 :])
            data = self._encode(entries)
            self._old = entries
        tmp = unique_tmp_name(self.path.name)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True, mode=OWNER_FOLDER_MODE)
            replace_file(self.path, data, tmp_name=tmp, mode=OWNER_FILE_MODE, durable=False)
        except OSError as err:
            with contextlib.suppress(OSError):
                (self.path.parent / tmp).unlink()
            self.problem = (
                f"the cache file {terminal_line(self.path)} cannot be written "
                f"({type(err).__name__}: {terminal_line(err)}); this went on without it, so "
                "the next run does all its work again. Set MEMDIR_NB_CACHE_DIR to a writable "
                "folder."
            )
            return
        self.damaged = False

    def _too_big(self, data: bytes) -> bool:
        """Whether the reader would refuse data: over max_bytes or max_values."""
        if len(data) > self.max_bytes:
            return True
        return value_count_over(data, self.max_values) is not None

    def _encode(self, entries: dict[str, Any]) -> bytes:
        doc = {_KIND: self.kind, "version": self.version, "entries": entries}
        # ASCII, every other character escaped: a lone surrogate comes back as it went in
        return json.dumps(doc, separators=(",", ":")).encode("ascii")
