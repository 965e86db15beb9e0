"""Notebook 10 on a memory dir named by MEMDIR_NB_DIR: it runs, prints the dir, writes no errors.

nbval checks the committed outputs on the demo; this runs the notebook on another dir (one
inside a Claude home, with a FIFO index and a dangling line) the way a user points it at theirs.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb.home.paths import sanitize_path
from tests.support.notebook_run import clean_printed_text, run_notebook, users_memory_dir

REPO = Path(__file__).resolve().parent.parent
NOTEBOOK = REPO / "notebooks" / "10_where_and_doctor.ipynb"


@pytest.mark.slow
def test_notebook_10_runs_clean_on_a_users_memory_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    w, mem = users_memory_dir(tmp_path, monkeypatch)
    with open(mem / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write("- [Gone](feedback_gone.md) — deleted\n")
    (mem / "team").mkdir()
    os.mkfifo(mem / "team" / "MEMORY.md")
    text = clean_printed_text(run_notebook(NOTEBOOK, w.project))
    assert f"opened {mem}\n" in text  # fresh38: "opened <dir> " ended in a space off the demo
    assert "index-dangling" in text and "index-not-regular" in text
    assert (mem / "MEMORY.md").read_text().count("feedback_gone.md") == 1  # nothing was written


@pytest.mark.slow
def test_notebook_10_explains_the_project_whose_memory_dir_memdir_nb_dir_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # fresh36: run from another folder (lab/ in the checkout, as `make lab` runs it), the
    # notebook explained that folder's memory dir and noted the one asked about as another
    w, _ = users_memory_dir(tmp_path, monkeypatch)
    elsewhere = tmp_path / "lab"
    elsewhere.mkdir()
    text = clean_printed_text(run_notebook(NOTEBOOK, elsewhere))
    assert f"project {w.project} (the project its key names)" in text
    assert "other-dir-checked" not in text and str(elsewhere) not in text


@pytest.mark.slow
def test_notebook_10_says_the_key_names_no_folder_instead_of_explaining_the_working_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # lefts40: a dir whose project was moved or deleted (or copied from another machine): the
    # notebook explained the working folder's project as if it were the dir's
    _, mem = users_memory_dir(tmp_path, monkeypatch, project=tmp_path / "moved_away")
    elsewhere = tmp_path / "lab"
    elsewhere.mkdir()
    text = clean_printed_text(run_notebook(NOTEBOOK, elsewhere))
    assert f"opened {mem}\n" in text
    assert f"its key {mem.parent.name} names no folder on this machine" in text
    assert str(elsewhere) not in text and sanitize_path(str(elsewhere)) not in text
    assert "index-dangling" not in text  # the dir itself is still checked, and is clean
    assert "other-dir-checked" not in text  # it named the home folder's dir as "this project's"
