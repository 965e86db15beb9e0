"""Why a configured folder can never be made or used: a file, a FIFO or a device where the
folder or one of its parents should be, or a symlink that leads nowhere.

The one rule for a folder that is configured, not listed: a memory dir under a CLAUDE_CONFIG_DIR
or an autoMemoryDirectory (`where`, `doctor`), the dir a store step or the memory tool makes
(`blocked_folder_error`), the vector cache's folder (MEMDIR_NB_CACHE_DIR), a demo's chosen dir.
A bare isdir calls such a path "not there yet", though every mkdir under it fails (ENOTDIR,
EEXIST, ELOOP).
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Callable

from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.access import file_kind


def _link_kind(path: str, error: OSError) -> str | None:
    """What a symlink at path is that stat could not follow; None when no link is there.

    mkdir does not follow a link that leads nowhere: it answers "exists" (EEXIST) for the link
    itself, and ELOOP under a loop, so such a link blocks the folder for good (attack40:
    `where` said "does not exist yet" and doctor "created at the first session")."""
    try:
        if not stat.S_ISLNK(os.lstat(path).st_mode):
            return None
    except (OSError, ValueError):
        return None
    if error.errno == errno.ELOOP:
        return "a symlink loop"
    if error.errno == errno.ENOENT:
        return "a symlink to a path that does not exist"
    return f"a symlink that cannot be followed ({os.strerror(error.errno or errno.EIO)})"


def folder_blocker(path: str | os.PathLike[str]) -> tuple[str, str] | None:
    """Why no folder can ever be made or used at path: the path itself, or the deepest of its
    parents that exists, is not a folder, or is a symlink that leads nowhere (a loop, a missing
    target). (That path, its kind: "a FIFO", "a symlink loop"), else None. A link to a folder
    is a folder, as mkdir sees it."""
    current = os.path.abspath(os.fspath(path))
    while True:
        try:
            st = os.stat(current)
        except ValueError:  # unnamable (a NUL, a lone surrogate): look at the folder above
            pass
        except OSError as exc:  # missing, or a link that leads nowhere
            if (kind := _link_kind(current, exc)) is not None:
                return current, kind
        else:
            return None if stat.S_ISDIR(st.st_mode) else (current, file_kind(st.st_mode))
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def blocked_folder_problem(path: str | os.PathLike[str]) -> str | None:
    """Why the memory dir at path can never be made, with what to do; None if nothing blocks
    it. One wording for every route that makes or previews a memory dir (attack40)."""
    blocker = folder_blocker(path)
    if blocker is None:
        return None
    where, kind = blocker
    return (
        f"the memory dir {terminal_line(os.fspath(path))} cannot be made: "
        f"{terminal_line(where)} is {kind}, not a folder, so nothing was written; move it "
        "away, or pass a memory dir that is (or can be) a folder"
    )


def blocked_folder_error(path: str | os.PathLike[str], error: OSError) -> OSError:
    """The error for a memory dir that could not be made (error, from mkdir): blocked_folder_
    problem's words when something blocks it; else error as it was. The memory tool's
    constructor and the store's step said only "[Errno 20] Not a directory: '<dir>'", naming
    the dir and not the FIFO or link above it (attack40)."""
    problem = blocked_folder_problem(path)
    return error if problem is None else NotADirectoryError(errno.ENOTDIR, problem)


def _makedirs(path: str) -> None:
    os.makedirs(path, exist_ok=True)


def make_memory_dir(
    path: str | os.PathLike[str], mkdirs: Callable[[str], None] = _makedirs
) -> None:
    """mkdir -p the memory dir (with mkdirs: the memory tool makes its folders 0700); a dir
    that cannot be made is refused by blocked_folder_error's words, before anything is written."""
    try:
        mkdirs(os.fspath(path))
    except OSError as exc:
        raise blocked_folder_error(path, exc) from exc
