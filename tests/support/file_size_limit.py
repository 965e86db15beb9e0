"""One home for a full disk in a test: the process's file-size limit (RLIMIT_FSIZE), lowered.

A write that would take a file past the limit fails with EFBIG after writing what fits, as a
write onto a full disk fails with ENOSPC after a part of it: the case "nothing is left
half-written" is about. SIGXFSZ (which would kill the process) is ignored for the block, and
both the soft limit and the signal's handler are put back when it ends. Only the soft limit
moves, so a non-root process can raise it again. Keep the block short: pytest's own capture
files are files of this process too.
"""

from __future__ import annotations

import resource
import signal
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def file_size_limit(max_bytes: int) -> Iterator[None]:
    """No file written inside the block may grow past max_bytes (EFBIG when one would)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    handler = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (max_bytes, hard))
    try:
        yield
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, (soft, hard))
        signal.signal(signal.SIGXFSZ, handler)
