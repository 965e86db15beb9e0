"""A second process that saves a file in place, as an editor does: truncate, then write.

Its write waits until the file's name is gone (a move into team/ is done) or 0.2 s passed,
whichever is first: under SETTLE_S, so a settled read must wait for it (attack45, §68).
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

_IN_PLACE_SAVE = """
import os, sys, time
path, text = sys.argv[1], sys.argv[2]
with open(path, "w", encoding="utf-8") as f:
    print("truncated", flush=True)
    end = time.monotonic() + 0.2
    while os.path.lexists(path) and time.monotonic() < end:
        time.sleep(0.002)
    f.write(text)
"""


def start_in_place_save(path: Path, text: str) -> subprocess.Popen[str]:
    """Start the editor's save of text into path; return once it has truncated the file."""
    editor = subprocess.Popen(
        [sys.executable, "-c", _IN_PLACE_SAVE, str(path), text], stdout=subprocess.PIPE, text=True
    )
    assert editor.stdout is not None and editor.stdout.readline() == "truncated\n"
    return editor
