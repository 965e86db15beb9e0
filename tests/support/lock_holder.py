"""A second process that takes the consolidation lock and holds it (dream lock and gate tests)."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
ENV = {**os.environ, "PYTHONPATH": str(REPO)}

_HOLDER = textwrap.dedent(
    """
    import sys
    from memdir_nb.dream import ConsolidationLock
    lock = ConsolidationLock(sys.argv[1])
    print("acquired" if lock.try_acquire() else "refused", flush=True)
    sys.stdin.read()  # hold the lock until the parent kills us or closes stdin
    """
)


def set_mtime_ms(path: Path, ms: float) -> None:
    """Set a file's mtime (and atime) to ms milliseconds since the epoch."""
    ns = int(ms * 1e6)
    os.utime(path, ns=(ns, ns))


def spawn_holder(tmp_path: Path, memory_dir: Path) -> subprocess.Popen[str]:
    """Start a process that has acquired the lock on memory_dir; it holds it until stdin closes."""
    script = tmp_path / "holder.py"
    script.write_text(_HOLDER, encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, str(script), str(memory_dir)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=ENV,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "acquired"
    return proc
