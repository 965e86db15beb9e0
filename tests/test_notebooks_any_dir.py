"""Every notebook runs to the end, with no error output, on real-shaped memory dirs.

Each notebook is executed (nbclient, a real kernel) with MEMDIR_NB_DIR pointing at a dir built
by the realdirs builders in tests/conftest.py: private-only, team-only, empty, no index, 500
files, a dir holding a named pipe and a socket, 230 header-less reports past the scan cap
(the shape benchmarks/sweep_notebooks.py met in a published dir), a dir whose MEMORY.md is
Latin-1, not UTF-8, and a dir of bad files (binary, Latin-1, header-less, dangling and looping
links, a pipe and a folder with memory names, indexes the store refuses to rewrite). What counts as broken is that script's rule (one home, shared with the
sweep over real dirs): a cell that raises, a traceback or a Python warning on stderr, a control
character in an output, or a notebook 00-08 that does not name the dir it opened.

The matrix (every notebook on every kind) runs each notebook on the nine dirs in one kernel,
one after the other: the user namespace is cleared and MEMDIR_NB_DIR set before each run, as a
user re-running a notebook on another dir would. Starting a kernel and importing the toolkit
cost more than most notebooks' cells, so one kernel per notebook instead of one per pair cuts
the matrix's time by more than half. A fresh kernel per notebook is still what nbval (the demo),
the any-day run, the hostile-dir run and the two single-dir tests below use.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest
from sweep_notebooks import notebook_problems

from tests.support.kernels import notebook_client

nbformat = pytest.importorskip("nbformat")

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
DIR_KINDS = (
    "private-only",
    "team-only",
    "empty",
    "no-index",
    "many-files",
    "special-files",
    "untyped-past-cap",
    "latin1-index",
    "bad-files",
)
NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"


def _run(notebook: Path, memory_dir: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The notebook executed in a real kernel with MEMDIR_NB_DIR set to memory_dir."""
    monkeypatch.setenv("MEMDIR_NB_DIR", str(memory_dir))
    nb = nbformat.read(notebook, as_version=4)
    with _client(nb, notebook) as client:
        client.execute()
    return nb


def _client(nb: Any, notebook: Path) -> AbstractContextManager[Any]:
    """A client that runs nb as the notebook file would run: in its folder, errors kept."""
    return notebook_client(
        nb, timeout=300, allow_errors=True, resources={"metadata": {"path": str(notebook.parent)}}
    )


def _printed(nb: Any) -> str:
    """Everything the notebook printed to stdout."""
    return "".join(
        out.get("text", "")
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("name") == "stdout"
    )


def _fresh_start(memory_dir: Path) -> str:
    """Kernel code run before each dir: clear the user namespace, point MEMDIR_NB_DIR at the dir,
    and make warnings already shown show again (leaving catch_warnings resets every module's
    record of them), so a later dir's warning is never hidden by an earlier dir's."""
    return (
        "%reset -f\n"
        "import os as _os, warnings as _warnings\n"
        f"_os.environ['MEMDIR_NB_DIR'] = {str(memory_dir)!r}\n"
        "with _warnings.catch_warnings():\n"
        "    _warnings.simplefilter('default')\n"
        "del _os, _warnings\n"
    )


def _run_on_each(notebook: Path, dirs: dict[str, Path]) -> dict[str, Any]:
    """The notebook executed on each dir in turn, in one kernel: {kind: the executed notebook}."""
    template = nbformat.read(notebook, as_version=4)
    runs: dict[str, Any] = {}
    with _client(template, notebook) as client, client.setup_kernel():
        for kind, memory_dir in dirs.items():
            client.reset_execution_trackers()
            client.nb = nbformat.v4.new_notebook(
                cells=[nbformat.v4.new_code_cell(_fresh_start(memory_dir))]
            )
            start = client.execute_cell(client.nb.cells[0], 0, store_history=False)
            assert [o for o in start.outputs if o.output_type == "error"] == [], start.outputs
            nb = copy.deepcopy(template)
            client.nb = nb
            for index, cell in enumerate(nb.cells):
                if cell.cell_type == "code":
                    client.execute_cell(cell, index)
            runs[kind] = nb
    return runs


@pytest.mark.slow
@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs_clean_on_every_real_shaped_dir(
    notebook: Path, real_dir: Callable[[str], Path]
) -> None:
    dirs = {kind: real_dir(kind) for kind in DIR_KINDS}
    runs = _run_on_each(notebook, dirs)
    problems = {
        kind: [*found, f"it printed: {_printed(nb)[:400]!r}"]
        for kind, nb in runs.items()
        if (found := notebook_problems(nb, notebook.stem, dirs[kind]))
    }
    assert problems == {}


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


@pytest.mark.slow
def test_the_shared_kernel_shows_a_library_warning_again_on_each_dir(tmp_path: Path) -> None:
    (tmp_path / "warns_once.py").write_text(
        "import warnings\n\ndef call():\n    warnings.warn('seen on every dir', UserWarning)\n",
        encoding="utf-8",
    )
    notebook = tmp_path / "probe.ipynb"
    code = (
        f"import sys\nsys.path.insert(0, {str(tmp_path)!r})\nimport warns_once\nwarns_once.call()"
    )
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(code)]), notebook)
    dirs = {kind: tmp_path / kind for kind in ("first", "second")}
    runs = _run_on_each(notebook, dirs)
    for kind, nb in runs.items():
        assert any("seen on every dir" in p for p in notebook_problems(nb, "probe", dirs[kind]))


@pytest.mark.slow
def test_the_tours_file_count_leaves_out_the_trash(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # .trash/ holds what a forget or a dream set aside (an index copy, a merged memory): not
    # memory, so the tour's count follows the listing's rule for what a memory file is.
    d = tmp_path / "memory"
    batch = d / ".trash" / "dream-20261201T000000Z"
    batch.mkdir(parents=True)
    header = "---\nname: x\ndescription: a note\ntype: user\n---\nbody\n"
    (d / "user_x.md").write_text(header, encoding="utf-8")
    (d / "MEMORY.md").write_text("- [x](user_x.md) — a note\n", encoding="utf-8")
    (batch / "MEMORY.md").write_text("- [x](user_x.md) — a note\n", encoding="utf-8")
    (batch / "user_y.md").write_text(header, encoding="utf-8")
    nb = nbformat.read(NOTEBOOK_DIR / "00_tour.ipynb", as_version=4)
    nb.cells = nb.cells[:3]  # the parameters, the opening and the count
    monkeypatch.setenv("MEMDIR_NB_DIR", str(d))
    with _client(nb, NOTEBOOK_DIR / "00_tour.ipynb") as client:
        client.execute()

    assert "2 markdown files in it" in _printed(nb)


def _bare_empty_lists(nb: Any) -> list[int]:
    """The code cells whose result is a bare `[]`."""
    return [
        index
        for index, cell in enumerate(nb.cells)
        for out in cell.get("outputs", [])
        if out.get("output_type") == "execute_result"
        and out.get("data", {}).get("text/plain") == "[]"
    ]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("stem", "said", "kept"),
    [
        ("00_tour", ["the ages", "the browser's rows"], []),
        ("02_scanning_and_index", ["a malformed header"], []),
        # cell 6's `[]` is the point: a query about nothing in the dir gets no memory
        ("03_selection", ["the playground's turn"], [6]),
        ("04_freshness", ["the stale memories"], []),
        # the plan's loop printed nothing and its diff a blank line
        ("07_daily_logs_and_dream", ["the dream plan", "the index diff"], []),
    ],
)
def test_a_step_with_nothing_to_show_on_an_empty_dir_says_why_not_a_bare_empty_list(
    stem: str,
    said: list[str],
    kept: list[int],
    real_dir: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # fresh38: on an empty dir these steps showed `[]` with no word, after the opening line
    # promised that "most steps below will say what they would show and why there is nothing"
    memory_dir = real_dir("empty")
    nb = _run(NOTEBOOK_DIR / f"{stem}.ipynb", memory_dir, monkeypatch)
    printed = _printed(nb)
    for what in said:
        assert f"Nothing to show for {what} on {memory_dir}: " in printed
    assert _bare_empty_lists(nb) == kept


@pytest.mark.slow
def test_the_tour_counts_one_markdown_file_in_the_singular(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh38: a dir holding only its MEMORY.md printed "1 markdown files in it"
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (memory_dir / "MEMORY.md").write_text("- [Kettle rota](kettle.md) — who descales it\n")
    nb = _run(NOTEBOOK_DIR / "00_tour.ipynb", memory_dir, monkeypatch)
    printed = _printed(nb)
    assert "\n1 markdown file in it\n" in printed
    assert "markdown files" not in printed


@pytest.mark.slow
def test_the_truncation_step_measures_a_private_index_past_its_caps(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh40: the step measured team/MEMORY.md only, so on a dir whose own MEMORY.md is past the
    # caps (the usual case: team memory is rare) it said there was nothing to show, or that the
    # team index dropped nothing, while the inspector below it counted the private lines dropped.
    memory_dir = real_dir("untyped-past-cap")  # a 240-line MEMORY.md and no team/ folder
    nb = _run(NOTEBOOK_DIR / "02_scanning_and_index.ipynb", memory_dir, monkeypatch)
    printed = _printed(nb)
    assert "private: 240 lines / 200," in printed
    assert "lines dropped: 40 | first dropped line 201 because of the line cap" in printed
    assert "Nothing to show for the team index budget" not in printed


@pytest.mark.slow
def test_the_dashboard_says_in_its_page_why_a_memory_dir_cannot_be_opened(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh40: `MEMDIR_NB_DIR=demo_memory .venv/bin/voila notebooks/dashboard.ipynb` from the
    # checkout (a relative path is taken from the kernel's folder, notebooks/) raised in the cell,
    # and Voila's page hides an exception's message: it said only "There was an error when
    # executing cell [2]. Please run Voilà with --show_tracebacks=True", the reason in the log.
    missing = tmp_path / "no such memory"
    nb = _run(NOTEBOOK_DIR / "dashboard.ipynb", missing, monkeypatch)
    errors = [o for c in nb.cells for o in c.get("outputs", []) if o.output_type == "error"]
    assert errors == []
    printed = _printed(nb)
    assert f"Cannot open the memory dir: {missing} (from MEMDIR_NB_DIR) does not exist" in printed
    assert "unset it to use the bundled demo" in printed
