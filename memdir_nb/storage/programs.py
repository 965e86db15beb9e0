"""The one home of "which file does this program name run": git, and the extraction's commands.

A program named without a folder (`git`, `grep`) is looked up in PATH. A PATH entry that is
not absolute (`bin`, `./bin`, `node_modules/.bin`, or the empty entry a stray `:` leaves, which
means the current folder) names a different folder for every process: Python's subprocess
searches it from the folder the child is started in, after the `cwd=` change, and
`shutil.which` from this process's own folder. The package starts git in a project folder (a
repository someone downloaded) and the extraction's commands in the memory dir (whose `team/`
files a teammate writes), so such an entry let a file in that folder run as `git` or `cat`
(forty-first session: a repository's `bin/git`, run by `memdir-nb where` under
`PATH=bin:$PATH`, a habit of Rails and Node projects). Go refuses such a lookup since 1.19
(`exec.ErrDot`); here PATH's relative entries are skipped, and a name holding a folder is made
absolute against this process's folder, once, before any child starts.
"""

from __future__ import annotations

import errno
import os
import shutil

from memdir_nb.spec.quoted import shown_repr


class ProgramNotFoundError(FileNotFoundError):
    """No PATH folder that is absolute holds the program (an OSError, ENOENT)."""


def absolute_exec_path() -> list[str]:
    """PATH's folders that name one place whatever folder a process runs in, in order."""
    return [entry for entry in os.get_exec_path() if os.path.isabs(entry)]


def program_path(name: str) -> str | None:
    """The absolute path of the executable file `name` runs, or None when there is none.

    A bare name is searched only in PATH's absolute folders; a name with a folder in it
    (`./git`, `/usr/bin/git`) is taken against this process's folder, as a shell takes it.
    """
    if not name or "\0" in name:
        return None
    if os.sep in name or (os.altsep is not None and os.altsep in name):
        found = shutil.which(os.path.abspath(name))
        return None if found is None else os.path.abspath(found)
    folders = absolute_exec_path()
    if not folders:
        return None
    found = shutil.which(name, path=os.pathsep.join(folders))
    return None if found is None else os.path.abspath(found)


def require_program(name: str) -> str:
    """program_path, or a ProgramNotFoundError naming the program and what was searched."""
    found = program_path(name)
    if found is None:
        skipped = len(os.get_exec_path()) - len(absolute_exec_path())
        note = (
            f" ({skipped} relative PATH entr{'y' if skipped == 1 else 'ies'} skipped: they name "
            "a different folder for every process; put absolute folders in PATH)"
            if skipped
            else ""
        )
        raise ProgramNotFoundError(
            errno.ENOENT, f"no program {shown_repr(name)} in PATH's absolute folders{note}", name
        )
    return found
