"""Run a committed notebook in a real kernel (nbclient) from a chosen folder, for tests.

The notebook tests that set MEMDIR_NB_DIR or HOME and then read what the cells printed share
these steps: read the notebook, execute it with its working folder set, and check that no
cell raised or wrote to stderr before the test reads the printed text. Most of them point the
notebook at a user's memory dir first (users_memory_dir).
"""

from __future__ import annotations

from pathlib import Path

import nbformat
import pytest
from nbformat import NotebookNode

from tests.support.fake_home import World, add_memory, make_world
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


def users_memory_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, *, project: Path | None = None
) -> tuple[World, Path]:
    """A Claude home in tmp_path (fake_home.make_world, no git repository) and the memory dir
    of project (else the world's project) in it, holding feedback_db.md; MEMDIR_NB_DIR names
    that dir and HOME the world's home, as a user points a notebook at their own dir."""
    world = make_world(tmp_path, repo=False)
    mem = world.memory_dir_for(world.project if project is None else project)
    add_memory(mem, "feedback_db.md")
    monkeypatch.setenv("MEMDIR_NB_DIR", str(mem))
    monkeypatch.setenv("HOME", str(world.home))
    return world, mem
