"""benchmarks/sweep_notebooks.py: every notebook over copies of foreign dirs; errors, escapes and hangs are reported."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
import sweep_notebooks

from tests.support.kernels import execute_notebook
from tests.support.unix_socket import unix_socket_at

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

OPENS_THE_DIR = "import os\nprint('opened', os.environ['MEMDIR_NB_DIR'])"


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every file under root as {relative path: (size, mtime_ns)}."""
    return {
        str(p.relative_to(root)): (p.stat().st_size, p.stat().st_mtime_ns)
        for p in sorted(root.rglob("*"))
        if p.is_file()
    }


def _notebooks(folder: Path, **cells: str) -> Path:
    """A folder of one-cell notebooks, {stem: source}, as the sweep's --notebook-dir."""
    folder.mkdir()
    for stem, source in cells.items():
        nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
        nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
        nbformat.write(nb, folder / f"{stem}.ipynb")
    return folder


def _executed(*sources: str) -> object:
    """A notebook of these cells, executed in a real kernel (errors kept as outputs)."""
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    execute_notebook(nb, timeout=60, allow_errors=True)
    return nb


def test_a_raise_and_a_traceback_on_stderr_are_error_outputs() -> None:
    nb = _executed(
        "1/0",
        "print('fine')",
        "import sys\nprint('Traceback (most recent call last):', file=sys.stderr)",
    )

    assert sweep_notebooks.error_outputs(nb) == [
        "cell 0: ZeroDivisionError: division by zero",
        "cell 2: traceback on stderr",
    ]


def test_an_escape_sequence_in_an_output_is_reported_but_a_carriage_return_is_not() -> None:
    nb = _executed(
        "print('title: \\x1b[2Jcleared')",
        "print('50%\\r100%')",
        "type('Row', (), {'__repr__': lambda self: 'bell \\x07 in a repr'})()",
        "1/0",  # a traceback is coloured with ANSI codes by design: it is an error output
    )

    assert sweep_notebooks.control_character_outputs(nb) == [
        "cell 0: control character U+001B in the output",
        "cell 2: control character U+0007 in the output",
    ]


def test_an_opening_notebook_must_name_the_dir_it_opened(tmp_path: Path) -> None:
    nb = _executed("print('opened the bundled demo dir')")

    assert sweep_notebooks.opened_line_missing(nb, "04_freshness", tmp_path) == [
        "the dir opened is not named"
    ]
    assert sweep_notebooks.opened_line_missing(nb, "dashboard", tmp_path) == []


def test_a_clean_notebook_passes_and_the_dir_is_left_as_it_was(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source = real_dir("nested")
    before = _tree(source)
    folder = _notebooks(tmp_path / "nbs", **{"00_opens": OPENS_THE_DIR, "dashboard": "1 + 1"})

    code = sweep_notebooks.main([str(source), "--notebook-dir", str(folder)])

    out = capsys.readouterr().out
    assert code == 0, out
    assert "1 dirs, 2 notebook runs, 0 failed" in out
    assert _tree(source) == before


def test_a_cell_that_raises_is_one_failure_line_and_exit_one(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _notebooks(tmp_path / "nbs", broken="raise KeyError('type')", fine="1")

    assert sweep_notebooks.main([str(real_dir("nested")), "--notebook-dir", str(folder)]) == 1

    out = capsys.readouterr().out
    assert ":: broken: cell 0: KeyError: 'type'" in out
    assert ":: fine:" not in out and "2 notebook runs, 1 failed" in out


def test_a_notebook_that_hangs_is_stopped_at_its_limit(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _notebooks(tmp_path / "nbs", hangs="import time\ntime.sleep(120)")

    code = sweep_notebooks.main(
        [str(real_dir("nested")), "--notebook-dir", str(folder), "--limit", "5"]
    )

    assert code == 1
    assert ":: hangs: no end within 5 s" in capsys.readouterr().out


def test_a_notebook_that_writes_into_the_dir_it_was_given_is_a_failure(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source = real_dir("nested")
    writes = (
        "import os, pathlib\n(pathlib.Path(os.environ['MEMDIR_NB_DIR']) / 'x.md').write_text('x')"
    )
    folder = _notebooks(tmp_path / "nbs", writes=writes)

    assert sweep_notebooks.main([str(source), "--notebook-dir", str(folder)]) == 1

    assert "the notebook changed the dir it was pointed at" in capsys.readouterr().out
    assert not (source / "x.md").exists()  # only the copy was written to


def test_the_kernel_gets_the_copy_its_own_cache_and_no_api_key(
    tmp_path: Path,
    real_dir: Callable[[str], Path],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-not-a-real-key")
    source = real_dir("nested")
    check = (
        "import os\n"
        "assert 'ANTHROPIC_API_KEY' not in os.environ\n"
        f"assert os.environ['MEMDIR_NB_DIR'] != {str(source)!r}\n"
        "assert os.path.isfile(os.path.join(os.environ['MEMDIR_NB_DIR'], 'MEMORY.md'))\n"
        "assert os.path.isdir(os.environ['MEMDIR_NB_CACHE_DIR'])"
    )
    folder = _notebooks(tmp_path / "nbs", env=check)

    code = sweep_notebooks.main([str(source), "--notebook-dir", str(folder)])

    assert code == 0, capsys.readouterr().out


def test_notebooks_are_chosen_by_name_or_prefix_and_an_unknown_name_is_a_usage_error(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _notebooks(tmp_path / "nbs", **{"03_selection": "1", "04_freshness": "1", "x": "1"})

    chosen = sweep_notebooks.chosen_notebooks(["04", "x"], folder)

    assert [p.stem for p in chosen] == ["04_freshness", "x"]
    argv = [str(real_dir("nested")), "--notebook-dir", str(folder), "--notebooks", "99"]
    assert sweep_notebooks.main(argv) == 2
    assert "no notebook named 99" in capsys.readouterr().err


def test_a_dir_that_cannot_be_copied_is_reported_as_not_swept(
    tmp_path: Path, real_dir: Callable[[str], Path], capsys: pytest.CaptureFixture[str]
) -> None:
    source = real_dir("nested")
    folder = _notebooks(tmp_path / "nbs", fine="1")
    with unix_socket_at(source / "project_socket.md"):  # a socket cannot be copied
        assert sweep_notebooks.main([str(source), "--notebook-dir", str(folder)]) == 1

    assert ":: fine: not swept: the copy failed" in capsys.readouterr().out


def test_a_python_warning_on_stderr_is_reported() -> None:
    nb = _executed(
        "import warnings\nwarnings.warn('No artists with labels found to put in legend.')",
        "import sys\nprint('50% done', file=sys.stderr)",
    )

    assert sweep_notebooks.warning_outputs(nb) == [
        "cell 0: UserWarning on stderr: No artists with labels found to put in legend."
    ]


def test_dirs_that_share_a_name_keep_one_saved_notebook_each(tmp_path: Path) -> None:
    notebook = Path("notebooks/00_tour.ipynb")
    one, two = tmp_path / "a" / "memory", tmp_path / "b" / "memory"

    names = {sweep_notebooks.saved_name(d, notebook) for d in (one, two)}

    assert len(names) == 2
    assert all(n.startswith("memory-") and n.endswith("__00_tour.ipynb") for n in names)


def test_the_opened_line_is_found_when_the_kernel_sends_it_in_two_pieces(tmp_path: Path) -> None:
    cell = nbformat.v4.new_code_cell("print('opened', path)")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="opened "),
        nbformat.v4.new_output("stream", name="stdout", text=f"{tmp_path}\n  2 memories\n"),
    ]
    nb = nbformat.v4.new_notebook(cells=[cell])

    assert sweep_notebooks.opened_line_missing(nb, "04_freshness", tmp_path) == []


def test_a_warning_the_kernel_sends_in_two_pieces_is_still_a_warning_output() -> None:
    cell = nbformat.v4.new_code_cell("import warnings\nwarnings.warn('old call')")
    cell.outputs = [
        nbformat.v4.new_output("stream", name="stderr", text="/tmp/x.py:2: UserWarn"),
        nbformat.v4.new_output("stream", name="stderr", text="ing: old call\n  warnings.warn\n"),
    ]
    nb = nbformat.v4.new_notebook(cells=[cell])

    assert sweep_notebooks.warning_outputs(nb) == ["cell 0: UserWarning on stderr: old call"]
