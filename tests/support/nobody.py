"""A call run as another user, so that permission bits bind even when the suite runs as root.

`as_nobody(call)` forks; the child drops to uid and gid 65534 (nobody, `NOBODY`), runs `call`
and hands back the bytes it returns through a pipe. A call that raises fails the test with the
child's traceback. What the child needs from root (imports of files only root may read, files
handed to nobody with `os.chown`) the caller does before.
"""

from __future__ import annotations

import os
import traceback
from collections.abc import Callable

NOBODY = 65534  # uid and gid


def as_nobody(call: Callable[[], bytes]) -> bytes:
    """What `call` returns when run in a forked child that has dropped to nobody."""
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test runner
        code = 1
        try:
            os.close(read_fd)
            os.setgroups([])
            os.setgid(NOBODY)
            os.setuid(NOBODY)
            os.write(write_fd, call())
            code = 0
        except BaseException:
            os.write(write_fd, traceback.format_exc().encode())
        finally:
            os._exit(code)
    os.close(write_fd)
    with os.fdopen(read_fd, "rb") as fh:
        data = fh.read()
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0, data.decode(errors="replace")
    return data
