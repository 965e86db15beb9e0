"""Every notebook runs to the end, with no error output, on real-shaped memory dirs.

Each notebook is executed (nbclient, a real kernel) with MEMDIR_NB_DIR pointing at a dir built
by the realdirs builders in tests/conftest.py: private-only, team-only, empty, no index, and
500 files. A cell that raises, or prints a traceback to stderr, fails the test.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
OPENING_NOTEBOOKS = {f"0{i}" for i in range(9)}  # 00-08 say which dir they opened
DIR_KINDS = ("private-only", "team-only", "empty", "no-index", "many-files")


def error_outputs(nb: Any) -> list[str]:
    """One line per error output (an exception, or a traceback printed to stderr)."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
            elif out.get("name") == "stderr" and "Traceback" in out.get("text", ""):
                found.append(f"cell {i}: traceback on stderr")
    return found


def test_error_outputs_are_detected() -> None:
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell("1/0"), nbformat.v4.new_code_cell("print('fine')")]
    )
    nbclient.NotebookClient(nb, timeout=60, allow_errors=True).execute()
    assert error_outputs(nb) == ["cell 0: ZeroDivisionError: division by zero"]


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
    assert error_outputs(nb) == []
    opened = [
        out.get("text", "")
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("name") == "stdout"
    ]
    if notebook.stem[:2] in OPENING_NOTEBOOKS:
        assert any(f"opened {memory_dir}" in text for text in opened), "the dir opened is not named"
