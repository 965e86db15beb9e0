"""Reading one regular file anywhere: settings, transcripts, git pointer files, model files.

These files are not in a memory dir, so no containment applies (the reader's root is '/'). The
read is still storage.access's: non-blocking, regular files only, at most `cap` bytes. A
refusal names the file by its whole path.
"""

from __future__ import annotations

import errno
import os

from memdir_nb.storage.access import ContainedReader, ReadRefused, ReadResult

__all__ = ["read_regular_file"]


def _shown_under(exc: ReadRefused, root: str) -> ReadRefused:
    """The same refusal with its path shown under root: a reader rooted at '/' names
    'tmp/x/settings.json', which a person reads as relative to where they stand."""
    path = os.path.normpath(os.path.join(root, exc.path))
    reason = exc.reason
    if reason.startswith(exc.path):
        reason = path + reason[len(exc.path) :]
    return type(exc)(exc.kind, path, reason, exc.errno or errno.EPERM)


def read_regular_file(path: str | os.PathLike[str], cap: int) -> ReadResult:
    """At most cap bytes of a regular file anywhere (settings, transcripts, git pointer files).

    No containment (the root is '/'), but the same non-blocking, regular-files-only, bounded read.
    """
    try:
        return ContainedReader(os.sep, real_root=os.sep).read(os.path.abspath(path), cap)
    except ReadRefused as exc:  # named by its whole path, not relative to '/'
        raise _shown_under(exc, os.sep) from exc.__cause__
