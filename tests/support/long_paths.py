"""One home for building a path of an exact length in bytes under a test's tmp_path.

Tests of PATH_MAX (4096 bytes with its NUL on Linux) pad tmp_path out to a chosen length. They
counted characters and assumed tmp_path itself was short: a basetemp holding a non-ASCII letter
(two bytes in UTF-8) or of 130 characters left their folders past the limit or short of it.
"""

from __future__ import annotations

import os
from pathlib import Path

NAME_MAX = 255  # bytes in one name on Linux filesystems
_PART = 250  # the padding's longest component, under NAME_MAX


def path_bytes(path: Path) -> int:
    """The length of path as the kernel counts it: bytes in the file-system encoding."""
    return len(os.fsencode(path))


def padded_path(base: Path, length: int, char: str = "d") -> Path:
    """base joined with folders of `char` (ASCII) so the whole path is `length` bytes long."""
    if len(char.encode()) != 1:
        raise ValueError(f"pad with one ASCII character, not {char!r}")
    room = length - path_bytes(base)
    if room < 2:
        raise ValueError(f"{base} is already {path_bytes(base)} bytes; no room to pad to {length}")
    parts = -(-room // (_PART + 1))  # each part costs its '/' and at most _PART characters
    chars, extra = divmod(room - parts, parts)
    padded = base.joinpath(*(char * (chars + (i < extra)) for i in range(parts)))
    assert path_bytes(padded) == length
    return padded
