"""Notebook clients whose kernels talk over Unix sockets in a folder of their own, for tests.

nbclient's default kernel manager picks five TCP ports by binding port 0 and closing it, then
hands them to the kernel. Under pytest-xdist two workers start kernels at the same moment, and
one kernel could find a port the other had just been given taken ("ZMQError: Address already in
use", then "Kernel died before replying to kernel_info"): a clean-clone CI run failed that way
once in the thirty-sixth session. Over the `ipc` transport every socket is a file under a fresh
folder that only this client uses, so no two kernels of the machine can ask for the same one.
The folder sits under /tmp when there is one, because a Unix socket's path must stay under 108
bytes and a test's tmp_path is often longer.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from nbclient import NotebookClient
from nbformat import NotebookNode
from traitlets.config import Config

# A Unix socket's path holds at most 107 bytes; the socket names add "k-" and a small number.
_SOCKET_PATH_ROOM = 90


def _socket_parent() -> str | None:
    """A folder short enough to hold the sockets' folder: the temp dir, else /tmp."""
    for parent in (tempfile.gettempdir(), "/tmp"):
        if os.path.isdir(parent) and len(os.fsencode(parent)) + 16 < _SOCKET_PATH_ROOM:
            return parent
    return None


@contextmanager
def notebook_client(nb: NotebookNode, **kwargs: Any) -> Iterator[NotebookClient]:
    """A NotebookClient for nb (kwargs as nbclient takes them) whose kernel uses ipc sockets."""
    folder = tempfile.mkdtemp(prefix="nbk-", dir=_socket_parent())
    # Configured, not handed over as `km=`: a client given a kernel manager does not own it, so
    # it neither shuts the kernel down at the end nor stops a cell at its timeout.
    sockets = Config({"KernelManager": {"transport": "ipc", "ip": f"{folder}/k"}})
    try:
        yield NotebookClient(nb, config=sockets, **kwargs)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


@contextmanager
def ipc_kernel_flags() -> Iterator[list[str]]:
    """Command-line flags that put a Jupyter app's kernels on ipc sockets in a folder of their own.

    For the programs a test starts as a child (a Jupyter or Voila server, `jupyter nbconvert`):
    each kernel such a program starts gets its sockets under a fresh folder, as a
    `notebook_client` kernel does, so it never takes a TCP port another worker was just given.
    """
    folder = tempfile.mkdtemp(prefix="nbk-", dir=_socket_parent())
    try:
        yield ["--KernelManager.transport=ipc", f"--KernelManager.ip={folder}/k"]
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def execute_notebook(nb: NotebookNode, **kwargs: Any) -> NotebookNode:
    """nb, executed in place in a fresh ipc kernel (kwargs as NotebookClient takes them)."""
    with notebook_client(nb, **kwargs) as client:
        client.execute()
    return nb
