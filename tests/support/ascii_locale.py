"""A Python that reads file names as ASCII, for the tests of what memdir_nb does under it.

`ASCII_LOCALE` is the environment that makes one: LC_ALL=C with Python's UTF-8 mode and its
locale coercion both off. Such a Python may not start at all from some checkouts: Python 3.11's
site module reads each .pth file in the locale's encoding, and the editable install's .pth
names the checkout's path, so a checkout at a path with a non-ASCII letter ("/home/jürgen/…")
stops every start with "Fatal Python error: init_import_site … UnicodeDecodeError", before any
code of ours runs (Python 3.13 reads .pth files as UTF-8 first). `make test` from such a clone
failed four tests on that (twenty-ninth session); they are skipped there, with that reason.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Mapping

import pytest

ASCII_LOCALE = {"LC_ALL": "C", "LANG": "C", "PYTHONUTF8": "0", "PYTHONCOERCECLOCALE": "0"}


def skip_unless_python_starts(env: Mapping[str, str]) -> None:
    """Skip the test, saying why, when this Python cannot even start with env (above)."""
    probe = subprocess.run(
        [sys.executable, "-c", "pass"], env=dict(env), capture_output=True, timeout=60
    )
    if probe.returncode != 0 and b"init_import_site" in probe.stderr:
        pytest.skip(
            f"this Python ({sys.executable}) cannot start under an ASCII locale: its site "
            "module reads the editable install's .pth file, which names a checkout path that "
            "is not ASCII, in the locale's encoding (Python before 3.13)"
        )
