"""Run every notebook over memory dirs that someone else wrote, and report what broke.

The notebook side of benchmarks/sweep_dirs.py: each dir is copied into a temporary folder
(sweep_dirs.copy_dir: symlinks and named pipes kept, a dir that cannot be copied reported as
not swept), then each notebook is executed with nbclient in a real kernel with MEMDIR_NB_DIR
pointing at a fresh copy, as a user who points the notebooks at their own dir would run them.
The kernel gets its own encoder cache folder for the whole run (MEMDIR_NB_CACHE_DIR) and no
ANTHROPIC_API_KEY.

A row (one notebook over one dir) fails when a cell raises, a traceback or a Python warning
is printed to stderr, an output holds a control character (an escape sequence copied from a
file's text), a notebook that opens the dir does not say which dir it opened, the notebook
changes the dir it was pointed at, the kernel dies, or the notebook runs past its time limit.
It prints one line per failure and a summary, and exits 1 if there was any failure.

  python benchmarks/sweep_notebooks.py /tmp/realdirs                 # every notebook
  python benchmarks/sweep_notebooks.py DIR --notebooks 00_tour 04    # names or prefixes
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from sweep_dirs import Outcome, copy_dir, memory_dirs, report

NOTEBOOK_DIR = Path(__file__).resolve().parents[1] / "notebooks"
OPENING_NOTEBOOKS = frozenset(f"0{i}" for i in range(9))  # 00-08 say which dir they opened
# C0 controls and DEL (and the one-byte CSI), but not tab, newline or carriage return: progress
# bars redraw with \r, while an ESC or a backspace in an output came from some file's text.
CONTROL_CHARACTER = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\x9b]")
# What Python's warnings module prints: "path:line: SomeWarning: message".
PYTHON_WARNING = re.compile(r":\d+: (\w*Warning): (.*)")


def _stderr(cell: Any) -> str:
    """What the cell printed to stderr, its stream outputs joined: the kernel flushes on a timer,
    so one message can arrive in pieces, and a check of each piece alone could miss it."""
    return "".join(o.get("text", "") for o in cell.get("outputs", []) if o.get("name") == "stderr")


def error_outputs(nb: Any) -> list[str]:
    """One line per error output (an exception), and per cell that printed a traceback to stderr."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                found.append(f"cell {i}: {out.get('ename')}: {out.get('evalue')}")
        if "Traceback" in _stderr(cell):
            found.append(f"cell {i}: traceback on stderr")
    return found


def warning_outputs(nb: Any) -> list[str]:
    """One line per Python warning printed to stderr (a library complaining about our call)."""
    return [
        f"cell {i}: {match.group(1)} on stderr: {match.group(2)[:120]}"
        for i, cell in enumerate(nb.cells)
        for match in PYTHON_WARNING.finditer(_stderr(cell))
    ]


def _output_texts(out: Any) -> list[str]:
    """The text a reader sees in one output: a stream's text and any plain or HTML rendering."""
    if out.get("output_type") == "stream":
        return [out.get("text", "")]
    data = out.get("data", {})
    return [str(data[kind]) for kind in ("text/plain", "text/html") if kind in data]


def control_character_outputs(nb: Any) -> list[str]:
    """One line per output that shows a control character (error outputs are ANSI by design)."""
    found = []
    for i, cell in enumerate(nb.cells):
        for out in cell.get("outputs", []):
            if out.get("output_type") == "error":
                continue
            for text in _output_texts(out):
                if match := CONTROL_CHARACTER.search(text):
                    code = f"U+{ord(match.group()):04X}"
                    found.append(f"cell {i}: control character {code} in the output")
                    break
    return found


def opened_line_missing(nb: Any, stem: str, memory_dir: Path) -> list[str]:
    """For notebooks 00-08: a problem line unless some output says `opened <memory_dir>`."""
    if stem[:2] not in OPENING_NOTEBOOKS:
        return []
    # One print can reach the notebook as several stream outputs (the kernel flushes stdout on a
    # timer, so a busy machine splits "opened <dir>" in two): search the text they make together.
    printed = "".join(
        out.get("text", "")
        for cell in nb.cells
        for out in cell.get("outputs", [])
        if out.get("name") == "stdout"
    )
    if f"opened {memory_dir}" in printed:
        return []
    return ["the dir opened is not named"]


def notebook_problems(nb: Any, stem: str, memory_dir: Path) -> list[str]:
    """Everything wrong with an executed notebook that was pointed at memory_dir."""
    return [
        *error_outputs(nb),
        *warning_outputs(nb),
        *control_character_outputs(nb),
        *opened_line_missing(nb, stem, memory_dir),
    ]


def _tree(root: Path) -> dict[str, tuple[int, int]]:
    """Every entry under root as {relative path: (size, mtime_ns)}, links not followed."""
    entries = {}
    for path in sorted(root.rglob("*")):
        st = path.lstat()
        entries[str(path.relative_to(root))] = (st.st_size, st.st_mtime_ns)
    return entries


def execute_notebook(path: Path, env: dict[str, str], limit: float) -> tuple[Any, str]:
    """Execute the notebook at path in a fresh kernel with env; (the notebook, "" or why not)."""
    import nbformat
    from nbclient.exceptions import CellTimeoutError, DeadKernelError

    from tests.support.kernels import notebook_client

    nb = nbformat.read(path, as_version=4)
    deadline = time.monotonic() + limit
    with notebook_client(
        nb,
        # Each cell may use what is left of the notebook's limit (nbclient stops it after that).
        timeout_func=lambda _cell: max(1, int(deadline - time.monotonic())),
        allow_errors=True,
        resources={"metadata": {"path": str(path.parent)}},
    ) as client:
        try:
            client.execute(env=env)
        except CellTimeoutError:
            return nb, f"no end within {limit:g} s"
        except DeadKernelError as exc:
            return nb, f"the kernel died: {exc}"[:300]
    return nb, ""


def saved_name(source: Path, notebook: Path) -> str:
    """`<dir name>-<hash of its path>__<notebook>.ipynb`: dirs that share a name (every
    `memory/`) keep one saved notebook each."""
    digest = hashlib.sha256(str(source.resolve()).encode("utf-8", "surrogateescape")).hexdigest()
    return f"{source.name}-{digest[:8]}__{notebook.name}"


def sweep_notebook(
    source: Path, notebook: Path, cache_dir: Path, limit: float, save_to: Path | None = None
) -> Outcome:
    """One notebook over a fresh copy of source; the copy must be left as it was.

    With save_to, the executed notebook is written there (as `saved_name(source, notebook)`)
    for a reader to look over what it printed.
    """
    with tempfile.TemporaryDirectory(prefix="nbsweep-") as tmp:
        copy = Path(tmp) / "memory"
        problem = copy_dir(source, copy)
        if problem:
            return Outcome(str(source), notebook.stem, 0.0, problem)
        before = _tree(copy)
        env = {k: v for k, v in os.environ.items() if k != "ANTHROPIC_API_KEY"}
        env.update(MEMDIR_NB_DIR=str(copy), MEMDIR_NB_CACHE_DIR=str(cache_dir))
        t0 = time.perf_counter()
        nb, problem = execute_notebook(notebook, env, limit)
        seconds = time.perf_counter() - t0
        problems = [problem] if problem else []
        problems += notebook_problems(nb, notebook.stem, copy)
        if _tree(copy) != before:
            problems.append("the notebook changed the dir it was pointed at")
        if save_to is not None:
            import nbformat

            save_to.mkdir(parents=True, exist_ok=True)
            nbformat.write(nb, save_to / saved_name(source, notebook))
    return Outcome(str(source), notebook.stem, seconds, "; ".join(problems)[:500])


def chosen_notebooks(names: list[str] | None, folder: Path = NOTEBOOK_DIR) -> list[Path]:
    """The notebooks named (a stem or its start, such as `04`), or every one in folder."""
    every = sorted(folder.glob("*.ipynb"))
    if not names:
        return every
    chosen = [nb for nb in every if any(nb.stem.startswith(n) for n in names)]
    unknown = [n for n in names if not any(nb.stem.startswith(n) for nb in every)]
    if unknown:
        raise ValueError(f"no notebook named {', '.join(unknown)} in {folder}")
    return chosen


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("paths", nargs="+", type=Path, help="memory dirs, or folders holding them")
    parser.add_argument(
        "--notebooks", nargs="+", metavar="NAME", help="notebooks to run (default: all)"
    )
    parser.add_argument(
        "--notebook-dir", type=Path, default=NOTEBOOK_DIR, help="where the notebooks are"
    )
    parser.add_argument("--limit", type=float, default=900.0, help="seconds per notebook")
    parser.add_argument(
        "--save-to", type=Path, help="write each executed notebook into this folder"
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="print every run")
    args = parser.parse_args(argv)
    try:
        notebooks = chosen_notebooks(args.notebooks, args.notebook_dir)
    except ValueError as exc:
        print(exc, file=sys.stderr)
        return 2
    dirs = list(memory_dirs(args.paths))
    if not dirs or not notebooks:
        print("no memory dir (a folder holding MEMORY.md) or no notebook to run", file=sys.stderr)
        return 2
    outcomes = []
    with tempfile.TemporaryDirectory(prefix="nbsweep-cache-") as cache:
        for d in dirs:
            for nb in notebooks:
                outcome = sweep_notebook(d, nb, Path(cache), args.limit, args.save_to)
                if args.verbose:
                    mark = "FAIL" if outcome.problem else "ok"
                    print(f"{mark} {outcome.seconds:6.1f} s {nb.stem} {d}", flush=True)
                outcomes.append(outcome)
    return report(dirs, outcomes, "notebook runs")


if __name__ == "__main__":
    sys.exit(main())
