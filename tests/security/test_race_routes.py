"""Attack round 10: routes raced by a second, real process (files vanishing, growing, swapped).

A churning child process removes, recreates, grows and swaps files in a memory dir while the
route under test runs again and again in this process; each route must finish every time with
its ordinary result (what vanished is left out, with the reason where the route lists skips).
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from memdir_nb.storage.archive import export_archive

_CHURN = textwrap.dedent(
    """
    import os, sys, time
    root, seconds = sys.argv[1], float(sys.argv[2])
    body = "---\\nname: n\\ndescription: d\\ntype: reference\\n---\\n" + "word " * 40 + "\\n"
    print("ready", flush=True)
    end = time.time() + seconds
    i = 0
    while time.time() < end:
        path = os.path.join(root, f"churn_{i % 200}.md")
        try:
            if os.path.lexists(path):
                os.unlink(path)
            else:
                with open(path, "w") as fh:
                    fh.write(body)
        except OSError:
            pass
        i += 1
    """
)


@pytest.fixture
def churned_dir(tmp_path: Path) -> Iterator[Path]:
    """A memory dir whose files a second process removes and recreates for a few seconds."""
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (memory_dir / "kept.md").write_text("---\nname: kept\n---\nKept.\n", encoding="utf-8")
    proc = subprocess.Popen(
        [sys.executable, "-c", _CHURN, str(memory_dir), "20"],
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == "ready"
    try:
        yield memory_dir
    finally:
        proc.kill()
        proc.wait()


@pytest.mark.timeout(60)
def test_export_of_a_dir_whose_files_vanish_while_it_is_listed_leaves_them_out(
    churned_dir: Path, tmp_path: Path
) -> None:
    deadline = time.monotonic() + 6
    runs = 0
    while time.monotonic() < deadline and runs < 150:
        report = export_archive(churned_dir, tmp_path / "out.zip")
        assert "kept.md" in report.files
        runs += 1
    assert runs >= 10
