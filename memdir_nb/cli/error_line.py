"""The one line a command that could not act prints on stderr, never a traceback.

Input the command cannot act on (a folder that vanished, a permission, a bad value) ends the
command with exit status 2 and `error: ` followed by the system's own words and the file they
name. A write the disk stopped also says what that means for the memory dir: nothing was left
half-written. cli.main imports this module only when a command fails.
"""

from __future__ import annotations

import errno
import os

from memdir_nb.spec.text import terminal_line


def error_line(exc: ValueError | OSError) -> str:
    """`error: ` and what went wrong: an OSError's strerror and file (else the exception's text),
    then what a full disk means. The names it quotes (a path, a manifest's file) may hold a
    newline: terminal_line keeps them on the one line (attack round 23)."""
    detail = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
    return f"error: {terminal_line(detail + where)}{_out_of_space(exc)}"


_OUT_OF_SPACE = frozenset({errno.ENOSPC, errno.EDQUOT, errno.EFBIG})


def _out_of_space(exc: BaseException) -> str:
    """What a write the disk (or a quota, or `ulimit -f`) stopped means, after the system's own
    words: every write is all or nothing (temp file and rename; the store's journal rolls a
    step back), so nothing was left half-written. The store's own EFBIG refusals (a file over a
    read cap) carry their own words and fix, and get nothing added."""
    if not isinstance(exc, OSError) or exc.errno not in _OUT_OF_SPACE:
        return ""
    if exc.strerror != os.strerror(exc.errno):
        return ""
    return (
        "; the disk is full or a size limit was reached, and nothing was left half-written: "
        "free some space and run the command again"
    )
