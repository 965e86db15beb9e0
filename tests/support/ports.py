"""One home for a free TCP port on 127.0.0.1 in a test: the browser tests' servers and the
`make lab` runs of tests/test_makefile.py (another lab on the machine may hold 8888)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port
