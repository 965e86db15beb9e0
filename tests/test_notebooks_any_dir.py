"""Every notebook runs to the end, with no error output, on real-shaped memory dirs.

Each notebook is executed (nbclient, a real kernel) with MEMDIR_NB_DIR pointing at a dir built
by the realdirs builders in tests/conftest.py: private-only, team-only, empty, no index, and
500 files. What counts as broken is benchmarks/sweep_notebooks.py's rule (one home, shared with
the sweep over real dirs): a cell that raises, a traceback on stderr, a control character in an
output, or a notebook 00-08 that does not name the dir it opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from sweep_notebooks import notebook_problems

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DIR_KINDS = ("private-only", "team-only", "empty", "no-index", "many-files")


@pytest.mark.slow
@pytest.mark.parametrize("kind", DIR_KINDS)
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_clean_on_a_real_shaped_dir(
    notebook: Path, kind: str, real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_dir = real_dir(kind)
    monkeypatch.setenv("MEMDIR_NB_DIR", str(memory_dir))
    nb = nbformat.read(notebook, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        allow_errors=True,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    client.execute()
    assert notebook_problems(nb, notebook.stem, memory_dir) == []
