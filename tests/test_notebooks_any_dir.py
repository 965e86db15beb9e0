"""Every notebook runs to the end, with no error output, on real-shaped memory dirs.

Each notebook is executed (nbclient, a real kernel) with MEMDIR_NB_DIR pointing at a dir built
by the realdirs builders in tests/conftest.py: private-only, team-only, empty, no index, 500
files, a dir holding a named pipe and a socket, and 230 header-less reports past the scan cap
(the shape benchmarks/sweep_notebooks.py met in a published dir). What counts as broken is
that script's rule (one home, shared with the sweep over real dirs): a cell that raises, a
traceback or a Python warning on stderr, a control character in an output, or a notebook
00-08 that does not name the dir it opened.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sweep_notebooks import notebook_problems

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DIR_KINDS = (
    "private-only",
    "team-only",
    "empty",
    "no-index",
    "many-files",
    "special-files",
    "untyped-past-cap",
)
NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"


def _run(notebook: Path, memory_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The notebook executed in a real kernel with MEMDIR_NB_DIR set to memory_dir."""
    monkeypatch.setenv("MEMDIR_NB_DIR", str(memory_dir))
    nb = nbformat.read(notebook, as_version=4)
    client = nbclient.NotebookClient(
        nb,
        timeout=300,
        allow_errors=True,
        resources={"metadata": {"path": str(notebook.parent)}},
    )
    client.execute()
    return nb


def _printed(nb: Any) -> str:
    """Everything the notebook printed to stdout."""
    return "".join(
        out.get("text", "")
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("name") == "stdout"
    )


@pytest.mark.slow
@pytest.mark.parametrize("kind", DIR_KINDS)
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_clean_on_a_real_shaped_dir(
    notebook: Path, kind: str, real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_dir = real_dir(kind)
    nb = _run(notebook, memory_dir, monkeypatch)
    assert notebook_problems(nb, notebook.stem, memory_dir) == []


@pytest.mark.slow
def test_the_tour_and_the_explorer_describe_a_dir_past_the_cap_as_it_is(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_dir = real_dir("untyped-past-cap")

    tour = _printed(_run(NOTEBOOK_DIR / "00_tour.ipynb", memory_dir, monkeypatch))
    explorer = _printed(
        _run(NOTEBOOK_DIR / "09_explore_your_memory_dir.ipynb", memory_dir, monkeypatch)
    )

    assert "the newest 200 of 230 found" in tour and "200 memories in all" not in tour
    assert "(no type)" in explorer and "Empty DataFrame" not in explorer
    assert " NaN " not in explorer and " None " not in explorer
    assert max(len(line) - len(line.rstrip("#")) for line in explorer.splitlines()) <= 40


@pytest.mark.slow
def test_the_explorer_says_why_an_empty_dir_has_no_table(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    memory_dir = real_dir("empty")

    nb = _run(NOTEBOOK_DIR / "09_explore_your_memory_dir.ipynb", memory_dir, monkeypatch)

    explorer = _printed(nb)
    assert "Nothing to show for the table of memories" in explorer
    assert "Empty DataFrame" not in explorer
