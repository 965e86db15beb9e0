"""One home for checking that a write is durable before it replaces a file: a spy that
records each fsync (of a file or of a folder) and each rename, in the order they happen."""

from __future__ import annotations

import os

import pytest


def record_fsyncs_and_renames(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on os.fsync and os.replace; the list fills with "fsync-file", "fsync-dir", "rename"."""
    steps: list[str] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd: int) -> None:
        steps.append("fsync-dir" if os.path.isdir(f"/proc/self/fd/{fd}") else "fsync-file")
        real_fsync(fd)

    def replace(src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> None:
        steps.append("rename")
        real_replace(src, dst)

    monkeypatch.setattr(os, "fsync", fsync)
    monkeypatch.setattr(os, "replace", replace)
    return steps
