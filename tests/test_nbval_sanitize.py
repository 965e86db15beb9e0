"""The substitutions nbval makes before it compares a notebook's outputs (tests/nbval_sanitize.cfg).

The stored outputs were made with the temp dir at /tmp. A newcomer's temp dir can be macOS's
/var/folders/.../T, a cluster's /scratch/<user>/tmp, or a folder whose name holds a space or a
non-ASCII letter; the notebooks must still print what is stored once these substitutions run.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support.notebook_clock import (
    nbval_substitutions,
    run_shifted,
    stored,
    visible_outputs,
)

TEMP_DIRS = (
    "/tmp",
    "/var/folders/x7/k2_9q1v53mz0000gn/T",
    "/private/var/folders/x7/k2_9q1v53mz0000gn/T",
    "/scratch/jo/tmp",
    "/home/Jo Smith/tmp",
    "/tmp/tmp dir ü 日本",
)


def _sanitised(text: str) -> str:
    for pattern, replacement in nbval_substitutions():
        text = pattern.sub(replacement, text)
    return text


def _outputs(temp_dir: str) -> str:
    """Lines of the shapes the notebooks print with a scratch folder in them."""
    return (
        f"working on a scratch copy: {temp_dir}/memdir-nb-scratch-os780h8i/memory\n"
        f"in `{temp_dir}/memdir-nb-dream-og21vocv`\n"
        f"'{temp_dir}/memdir-nb-security-gh_4qs_r/memory/team/leak/stolen.md' escapes: "
        f"it points to '{temp_dir}/memdir-nb-security-gh_4qs_r/stolen.md'\n"
        f"<h3>opened <code>{temp_dir}/memdir-nb-demo-b9yji989/memory</code></h3>\n"
    )


@pytest.mark.parametrize("temp_dir", TEMP_DIRS)
def test_a_scratch_folder_reads_the_same_whatever_the_temp_dir_is(temp_dir: str) -> None:
    assert _sanitised(_outputs(temp_dir)) == (
        "working on a scratch copy: TMPDIR/memory\n"
        "in `TMPDIR`\n"
        "'TMPDIR/memory/team/leak/stolen.md' escapes: it points to 'TMPDIR/stolen.md'\n"
        "<h3>opened <code>TMPDIR/memory</code></h3>\n"
    )


def test_the_text_before_a_scratch_path_is_kept() -> None:
    text = "1/2 copied, see /tmp/a b/memdir-nb-scan-abcd1234/memory and a/b/memdir-nb-x"
    assert _sanitised(text) == "1/2 copied, see TMPDIR/memory and a/b/memdir-nb-x"


@pytest.mark.parametrize(
    ("budget_line", "surfaced_line"),
    [
        # the temp dir /tmp (the stored outputs), /var/tmp/fresh28 scratch/tmp, and 31 bytes longer
        ("0.7 of 60 KB used (60719 bytes left)", "(21 days ago, 4539 bytes, cut from 14317 bytes"),
        ("0.7 of 60 KB used (60695 bytes left)", "(21 days ago, 4587 bytes, cut from 14317 bytes"),
        ("0.8 of 60 KB used (60657 bytes left)", "(21 days ago, 4601 bytes, cut from 14317 bytes"),
    ],
)
def test_a_count_of_recalled_bytes_reads_the_same_whatever_the_temp_dir_is(
    budget_line: str, surfaced_line: str
) -> None:
    """Recall injects each memory's header, which names its absolute path in the temp dir."""
    assert _sanitised(f"1 memory surfaced, {budget_line}.\n{surfaced_line}") == (
        "1 memory surfaced, RECALLED-BYTES.\n(21 days ago, RECALLED-BYTES, cut from 14317 bytes"
    )


@pytest.mark.slow
@pytest.mark.parametrize(
    "notebook",
    [
        "01_saving.ipynb",
        "03_selection.ipynb",
        "07_daily_logs_and_dream.ipynb",
        "11_session_replay.ipynb",
    ],
)
def test_a_notebook_prints_its_stored_outputs_with_a_temp_dir_of_another_length(
    notebook: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The notebooks that print a scratch folder, a cut of recalled text or a count of recalled
    bytes, run with TMPDIR 40-odd characters longer than /tmp, a space and non-ASCII letters in it."""
    temp_dir = tmp_path / "temp dir ü 日本"
    temp_dir.mkdir()
    monkeypatch.setenv("TMPDIR", str(temp_dir))
    assert visible_outputs(run_shifted(notebook, 0.0)) == visible_outputs(stored(notebook))


def test_dates_and_timestamps_are_compared_as_they_are() -> None:
    # fresh38: two substitutions turned every date and ISO timestamp into one word, so notebook
    # 07's demo dates moving a day (and 'next Thursday' a week) east of UTC+12 passed nbval
    for text in (
        "absolute_dates  project_insurer_demo.md: 'next Thursday' -> '2026-05-28'",
        "# Daily log 2026-06-01",
        "- [user] user_role.md (2025-10-09T08:53:21.000Z): The user is a site reliability engineer",
    ):
        assert _sanitised(text) == text
