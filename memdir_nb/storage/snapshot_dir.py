"""A scratch folder that holds a memory dir as it stood at some point (a session replay's turn).

The replay rebuilds the memory dir as of each turn in memory; recall then runs on a real
folder so every selector (those that read bodies too) sees exactly that state. Only what
changed since the last sync is written or removed, and each file gets its as-of mtime, so a
scan cache keyed on stat identity stays valid between turns.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from memdir_nb.formats.names import relative_path_problem


class SnapshotDir:
    """A temporary folder kept equal to {rel path: (text, mtime_ms)} by sync(); close() removes it."""

    def __init__(self, prefix: str = "memdir-nb-replay-") -> None:
        self.path = Path(tempfile.mkdtemp(prefix=prefix))
        self._held: dict[str, tuple[str, float]] = {}

    def __enter__(self) -> SnapshotDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the folder and everything in it."""
        shutil.rmtree(self.path, ignore_errors=True)
        self._held = {}

    def sync(self, files: Mapping[str, tuple[str, float]]) -> list[str]:
        """Make the folder hold exactly `files`; returns the rel paths refused as unsafe names."""
        refused = []
        for rel in [r for r in self._held if r not in files]:
            (self.path / rel).unlink(missing_ok=True)
            del self._held[rel]
        for rel, (text, mtime_ms) in files.items():
            if self._held.get(rel) == (text, mtime_ms):
                continue
            if relative_path_problem(rel) is not None:
                refused.append(rel)
                continue
            target = self.path / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
            stamp = int(mtime_ms * 1_000_000)
            os.utime(target, ns=(stamp, stamp))
            self._held[rel] = (text, mtime_ms)
        return refused
