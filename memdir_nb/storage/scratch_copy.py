"""A copy of a memory dir for a notebook step that writes, so the user's own dir is never changed.

Notebooks 01, 02, 05, 06 and 07 save, plant symlinks or dream on a copy. `shutil.copytree`
alone refuses a dir that holds a named pipe, a socket or a device file (it raises, listing the
file), so one odd entry in a user's dir took every one of those notebooks down. Here symlinks
are copied as symlinks (never followed), a named pipe becomes a new named pipe (never opened:
opening one to read waits for a writer), and sockets and device files are left out: they
hold no memory, and the scan passes over anything that is not a regular file anyway. A file
or folder that cannot be read (its owner made it so) is left out too, and named once in a
ScratchCopyWarning: the scan of the real dir skips it as well, and one such entry must not take
a notebook down.
"""

from __future__ import annotations

import functools
import os
import shutil
import stat
import warnings
from collections.abc import Callable
from pathlib import Path

from memdir_nb.spec.text import terminal_line


class ScratchCopyWarning(UserWarning):
    """Entries of the memory dir that cannot be read were left out of the scratch copy."""


def _copy_entry(src: str, dst: str, *, strict: bool = False, left_out: list[str]) -> str:
    """copytree's copy_function: regular files copied, pipes recreated; other special files
    left out, or (strict) handed to shutil.copy2, which refuses them and so fails the copy.
    A file that cannot be read is left out and listed (strict: it fails the copy)."""
    mode = os.lstat(src).st_mode
    if stat.S_ISFIFO(mode):
        os.mkfifo(dst)
    elif strict or stat.S_ISREG(mode):
        try:
            shutil.copy2(src, dst)
        except PermissionError:
            if strict:
                raise
            left_out.append(src)
    return dst


def _unreadable_folders(left_out: list[str]) -> Callable[[str, list[str]], set[str]]:
    """copytree's ignore: the subfolders that cannot be listed or entered, each added to
    left_out (a folder of mode 0600 lists its names, but none of them can be opened or stat'ed:
    the copy failed whole on its first file, attack round 19)."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        skipped = set()
        for name in names:
            path = os.path.join(folder, name)
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                continue
            try:
                os.scandir(path).close()
                os.lstat(os.path.join(path, os.curdir))  # needs the right to enter it
            except PermissionError:
                skipped.add(name)
                left_out.append(path)
        return skipped

    return ignore


def copy_memory_dir(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], *, strict: bool = False
) -> Path:
    """Copy the memory dir at source to dest (which must not exist yet); returns dest.

    Symlinks stay symlinks, named pipes stay named pipes, sockets and device files are left
    out, and so are files and folders that cannot be read (named in one ScratchCopyWarning).
    With strict, each of those fails the copy instead (shutil.Error names it): a sweep
    reports such a dir as not copied.
    """
    left_out: list[str] = []
    entry = functools.partial(_copy_entry, strict=strict, left_out=left_out)
    ignore = None if strict else _unreadable_folders(left_out)
    copy = Path(shutil.copytree(source, dest, symlinks=True, copy_function=entry, ignore=ignore))
    if left_out:
        # a name is someone else's text, shown under a notebook cell: the one sanitiser's form
        names = terminal_line(", ".join(sorted(os.path.relpath(p, source) for p in left_out)))
        warnings.warn(
            f"left out of the scratch copy, as they cannot be read: {names} (the scan skips "
            "them too; give them read permission to include them)",
            ScratchCopyWarning,
            stacklevel=2,
        )
    return copy
