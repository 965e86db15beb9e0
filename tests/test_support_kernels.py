"""tests/support/kernels.py: notebook kernels that two test workers can start at once."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import nbformat
import pytest
from nbclient.exceptions import CellTimeoutError

from tests.support.kernels import execute_notebook, ipc_kernel_flags

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent

_ASK_TRANSPORT = (
    "from ipykernel.kernelapp import IPKernelApp\n"
    "app = IPKernelApp.instance()\n"
    "import os\n"
    "print(app.transport, app.ip, os.getpid())"
)


def test_a_kernel_talks_over_unix_sockets_in_a_folder_of_its_own() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_ASK_TRANSPORT)])
    execute_notebook(nb, timeout=60)
    transport, ip, pid = nb.cells[0].outputs[0]["text"].split()
    assert transport == "ipc"  # no TCP port another worker's kernel could have been given
    assert Path(ip).name == "k" and Path(ip).parent.name.startswith("nbk-")
    assert len(os.fsencode(ip)) + len("-99999") < 108  # a Unix socket path's limit
    assert not Path(ip).parent.exists()  # the folder goes with the client
    assert not Path(f"/proc/{pid}").exists()  # and the kernel was shut down, not left running


def test_a_jupyter_app_given_the_flags_starts_its_kernel_on_unix_sockets(tmp_path: Path) -> None:
    """The flags the browser tests' servers and the Binder run pass reach the kernel they start."""
    book = tmp_path / "ask.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(_ASK_TRANSPORT)])
    nbformat.write(nb, book)
    jupyter = Path(sys.executable).parent / "jupyter"
    with ipc_kernel_flags() as flags:
        folder = Path(flags[1].split("=", 1)[1]).parent
        subprocess.run(
            [
                str(jupyter),
                "nbconvert",
                "--to",
                "notebook",
                "--execute",
                "--inplace",
                *flags,
                str(book),
            ],
            check=True,
            capture_output=True,
            timeout=120,
            env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path / "runtime")},
        )
        assert folder.is_dir()
    transport, ip, _pid = nbformat.read(book, as_version=4).cells[0].outputs[0]["text"].split()
    assert (transport, Path(ip).parent) == ("ipc", folder)
    assert not folder.exists()  # the folder goes when the flags' block ends


def test_a_cell_past_its_timeout_stops_the_run() -> None:
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("import time; time.sleep(60)")])
    with pytest.raises(CellTimeoutError):
        execute_notebook(nb, timeout=2)


def test_two_kernels_started_at_once_each_run_their_cells() -> None:

    books = [
        nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(f"print({n} * 7)")])
        for n in (3, 5)
    ]
    with ThreadPoolExecutor(2) as pool:
        list(pool.map(lambda nb: execute_notebook(nb, timeout=60), books))
    assert [nb.cells[0].outputs[0]["text"] for nb in books] == ["21\n", "35\n"]


def test_no_test_or_bench_builds_a_notebook_client_of_its_own() -> None:
    """Every kernel a test starts goes through tests/support/kernels.py (its ipc sockets)."""
    found = []
    for root in (TESTS, REPO / "benchmarks"):
        for path in root.rglob("*.py"):
            if path.name == "kernels.py" and path.parent.name == "support":
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, ast.Attribute):
                    name = node.attr
                elif isinstance(node, ast.Name):
                    name = node.id
                else:
                    continue
                if name in {"NotebookClient", "KernelManager"}:
                    found.append(f"{path.relative_to(REPO)}:{node.lineno}")
    assert found == []
