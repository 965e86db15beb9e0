"""One home for making a Unix socket file at a path of any length in a test.

``bind()`` takes at most 107 bytes of path on Linux, and pytest's tmp_path grows with its
run counter (``pytest-1079``) and the test's name, so a bind on the full path passes on one
machine and fails on another. Binding through the folder's ``/proc/self/fd`` entry keeps
the path short whatever the folder's own path is.
"""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def unix_socket_at(path: Path) -> Iterator[socket.socket]:
    """Bind a Unix stream socket at ``path``; the socket file stays after the block ends."""
    folder = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.bind(f"/proc/self/fd/{folder}/{path.name}")
            yield sock
    finally:
        os.close(folder)
