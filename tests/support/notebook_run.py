"""Run a committed notebook in a real kernel (nbclient) from a chosen folder, for tests.

The notebook tests that set MEMDIR_NB_DIR or HOME and then read what the cells printed share
these steps: read the notebook, execute it with its working folder set, and check that no
cell raised or wrote to stderr before the test reads the printed text.
"""

from __future__ import annotations

from pathlib import Path

import nbformat
from nbformat import NotebookNode

from tests.support.kernels import execute_notebook


def run_notebook(path: Path, cwd: Path, *, timeout: int = 180) -> NotebookNode:
    """The notebook at path, executed in a fresh kernel whose working folder is cwd."""
    nb: NotebookNode = nbformat.read(path, as_version=4)
    execute_notebook(nb, timeout=timeout, resources={"metadata": {"path": str(cwd)}})
    return nb


def clean_printed_text(nb: NotebookNode) -> str:
    """Every code cell's printed text, after asserting no output is an error or stderr."""
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    bad = [o for o in outputs if o.get("output_type") == "error" or o.get("name") == "stderr"]
    assert not bad, bad
    return "".join(o.get("text", "") for o in outputs if "text" in o)
