"""One home for a free TCP port on 127.0.0.1 in a test: the browser tests' servers and the
`make lab` runs of tests/test_makefile.py (another lab on the machine may hold 8888).

A port the kernel hands out for `bind(("127.0.0.1", 0))` comes from the ephemeral range
(/proc/sys/net/ipv4/ip_local_port_range, 32768-60999 on Linux), the same range every kernel,
Messages API stand-in and outgoing connection on the machine draws from. Between the moment a
test learns such a port and the moment its server binds it, another process may take it, and a
Jupyter server that retries on the next port then leaves the test talking to a stranger (the
fortieth session's CI: the dashboard's first page load hung for 60 s). So the port is drawn at
random from below the ephemeral range, where nothing is handed out unasked, and checked free.
"""

from __future__ import annotations

import random
import socket
from pathlib import Path

EPHEMERAL_RANGE_FILE = Path("/proc/sys/net/ipv4/ip_local_port_range")
LOWEST = 20000  # above the registered services people run on a dev machine (8888, 9000, ...)
FALLBACK_EPHEMERAL_START = 32768  # Linux's default, when /proc does not say
ATTEMPTS = 200


def ephemeral_start() -> int:
    """The first port of this machine's ephemeral range."""
    try:
        return int(EPHEMERAL_RANGE_FILE.read_text(encoding="ascii").split()[0])
    except (OSError, ValueError, IndexError):
        return FALLBACK_EPHEMERAL_START


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port(rng: random.Random | None = None) -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now, outside the ephemeral range."""
    top = ephemeral_start()
    if top - LOWEST < 1000:  # an unusual range: fall back to whatever the kernel hands out
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", 0))
            port: int = sock.getsockname()[1]
            return port
    rng = rng or random.SystemRandom()
    for _ in range(ATTEMPTS):
        port = rng.randrange(LOWEST, top)
        if _bindable(port):
            return port
    raise RuntimeError(
        f"no free port on 127.0.0.1 between {LOWEST} and {top} after {ATTEMPTS} tries"
    )
