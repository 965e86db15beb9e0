"""Constants and helpers shared by the widget tests."""

from __future__ import annotations

from pathlib import Path

NOW = 1_770_000_000_000.0  # 2026-02-02, fixed so ages read the same on every run


def snapshot(root: Path) -> dict[str, bytes]:
    """Every file and link under root (links as their target), to prove nothing changed.

    The store's empty lock file is left out: taking the lock before refusing is not a write.
    """
    out: dict[str, bytes] = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root).as_posix()
        if rel == ".memdir.lock":
            continue
        if p.is_symlink():
            out[rel] = b"-> " + str(p.readlink()).encode()
        elif p.is_file():
            out[rel] = p.read_bytes()
        else:
            out[rel] = b"<dir>"
    return out
