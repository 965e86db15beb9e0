"""A copy of a memory dir for a notebook step that writes, so the user's own dir is never changed.

Notebooks 01, 02, 05, 06 and 07 save, plant symlinks or dream on a copy. `shutil.copytree`
alone refuses a dir that holds a named pipe, a socket or a device file (it raises, listing the
file), so one odd entry in a user's dir took every one of those notebooks down. Here symlinks
are copied as symlinks (never followed), a named pipe becomes a new named pipe (never opened:
opening one to read waits for a writer), and sockets and device files are left out: they
hold no memory, and the scan passes over anything that is not a regular file anyway.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
from pathlib import Path


def _copy_entry(src: str, dst: str, *, strict: bool = False) -> str:
    """copytree's copy_function: regular files copied, pipes recreated; other special files
    left out, or (strict) handed to shutil.copy2, which refuses them and so fails the copy."""
    mode = os.lstat(src).st_mode
    if stat.S_ISFIFO(mode):
        os.mkfifo(dst)
    elif strict or stat.S_ISREG(mode):
        shutil.copy2(src, dst)
    return dst


def copy_memory_dir(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], *, strict: bool = False
) -> Path:
    """Copy the memory dir at source to dest (which must not exist yet); returns dest.

    Symlinks stay symlinks, named pipes stay named pipes, sockets and device files are left
    out (with strict, they fail the copy instead: a sweep reports such a dir as not copied);
    a file that cannot be read still fails the copy (shutil.Error names it).
    """
    entry = functools.partial(_copy_entry, strict=strict)
    return Path(shutil.copytree(source, dest, symlinks=True, copy_function=entry))
