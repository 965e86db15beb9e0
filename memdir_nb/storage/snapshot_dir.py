"""A scratch folder that holds a memory dir as it stood at some point (a session replay's turn).

The replay rebuilds the memory dir as of each turn in memory; recall then runs on a real
folder so every selector (those that read bodies too) sees exactly that state. Only what
changed since the last sync is written or removed, and each file gets its as-of mtime, so a
scan cache keyed on stat identity stays valid between turns.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Mapping
from pathlib import Path

from memdir_nb.formats.names import relative_path_problem
from memdir_nb.spec.text import without_lone_surrogates


class SnapshotDir:
    """A temporary folder kept equal to {rel path: (text, mtime_ms)} by sync(); close() removes it."""

    def __init__(self, prefix: str = "memdir-nb-replay-") -> None:
        self.path = Path(tempfile.mkdtemp(prefix=prefix))
        self._held: dict[str, tuple[str, float]] = {}
        self._names: dict[str | os.PathLike[str], str] = {}  # name_of's, one per path asked

    def __enter__(self) -> SnapshotDir:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Remove the folder and everything in it."""
        shutil.rmtree(self.path, ignore_errors=True)
        self._held = {}

    def name_of(self, path: str | os.PathLike[str]) -> str:
        """A path in the folder as its relative name ("notes/a.md"), the same string each time:
        a replay lists at every turn the memories surfaced before it, and a new string per
        name and turn grew with turns times memories (15.7 MB of 1,500 turns on 200 memories,
        thirty-third session). Only paths recall surfaced are asked, so as many as it holds."""
        name = self._names.get(path)
        if name is None:
            name = os.path.relpath(path, self.path).replace(os.sep, "/")
            self._names[path] = name
        return name

    def sync(self, files: Mapping[str, tuple[str, float]]) -> dict[str, str]:
        """Make the folder hold exactly `files`; returns the rel paths left out, with why.

        The files come from a transcript, so one of them may not fit beside the others (a
        path that is a file in one record and a folder in another) or may hold a lone
        surrogate: each is left out or written as Claude Code would have (U+FFFD), never
        allowed to stop the replay.
        """
        refused: dict[str, str] = {}
        for rel in [r for r in self._held if r not in files]:
            with contextlib.suppress(OSError):
                (self.path / rel).unlink(missing_ok=True)
            del self._held[rel]
        for rel, (text, mtime_ms) in files.items():
            if self._held.get(rel) == (text, mtime_ms):
                continue
            problem = relative_path_problem(rel)
            if problem is not None:
                refused[rel] = f"not a memory file name ({problem})"
                continue
            try:
                self._write(rel, text, mtime_ms)
            except OSError as exc:  # a file where a folder is needed, or the reverse
                self._held.pop(rel, None)
                refused[rel] = f"cannot be laid out beside the other files ({exc.strerror or exc})"
                continue
            self._held[rel] = (text, mtime_ms)
        return refused

    def _write(self, rel: str, text: str, mtime_ms: float) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        # Claude Code writes a JS string's lone surrogate as U+FFFD, so the file held that.
        target.write_text(without_lone_surrogates(text), encoding="utf-8")
        stamp = int(mtime_ms * 1_000_000)
        os.utime(target, ns=(stamp, stamp))
