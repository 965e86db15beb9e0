"""Leave a real pending store journal: promote in a forked child SIGKILLed at a named point."""

from __future__ import annotations

import os
import signal
from pathlib import Path


def promote_killed_at(memory_dir: Path, rel: str, point: str, *, now_ms: float) -> None:
    """Run MemoryStore.promote(rel) in a forked child whose crash hook SIGKILLs it at `point`."""
    from memdir_nb.storage.store import MemoryStore

    def hook(reached: str) -> None:
        if reached == point:
            os.kill(os.getpid(), signal.SIGKILL)

    pid = os.fork()
    if pid == 0:  # the child never returns into pytest
        try:
            MemoryStore(memory_dir, now_ms=now_ms, crash_hook=hook).promote(rel)
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, (
        f"the child was not killed at {point!r} (exit status {status})"
    )
