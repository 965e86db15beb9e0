"""Run a notebook with the wall clock moved, and compare what it prints with its stored outputs.

The notebooks build the demo as of a fixed date and pass that date on as `now`, so whatever
day they run on, their outputs must not change. `run_shifted` executes a notebook in a fresh
kernel whose `time.time` runs `shift_days` ahead (every "now" in memdir_nb comes from
`memdir_nb.clock`, which reads `time.time`); `visible_outputs` reduces a notebook to the text
nbval compares, after the same substitutions nbval makes.
"""

from __future__ import annotations

import configparser
import copy
import re
from pathlib import Path
from typing import Any

import nbformat

from tests.support.kernels import execute_notebook

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
SANITIZE = REPO / "tests" / "nbval_sanitize.cfg"

_SHIFT_CELL = """\
import time as _clock_time
_clock_time.time = lambda _real=_clock_time.time: _real() + {seconds!r}
"""


def nbval_substitutions() -> list[tuple[re.Pattern[str], str]]:
    """The (pattern, replacement) pairs of tests/nbval_sanitize.cfg, in order, as nbval applies them."""
    parser = configparser.ConfigParser()
    parser.read(SANITIZE, encoding="utf-8")
    return [(re.compile(parser[s]["regex"]), parser[s]["replace"]) for s in parser.sections()]


def _ignored(cell: Any) -> bool:
    return "NBVAL_IGNORE_OUTPUT" in cell.source


def visible_outputs(nb: Any) -> list[str]:
    """Each code cell's text outputs (stream, text/plain, text/html), sanitised as nbval does."""
    subs = nbval_substitutions()
    out: list[str] = []
    for cell in nb.cells:
        if cell.cell_type != "code" or _ignored(cell):
            continue
        parts = []
        for output in cell.get("outputs", []):
            if output.get("output_type") == "stream":
                parts.append(output.get("text", ""))
            data = output.get("data", {})
            for mime in ("text/plain", "text/html"):
                if mime in data and "application/vnd.jupyter.widget-view+json" not in data:
                    parts.append(str(data[mime]))
        text = "".join(parts)
        for pattern, repl in subs:
            text = pattern.sub(repl, text)
        out.append(text)
    return out


def run_shifted(name: str, shift_days: float, *, timeout: int = 600) -> Any:
    """Execute notebooks/<name> in a new kernel whose wall clock runs shift_days ahead."""
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    shifted = copy.deepcopy(nb)
    shifted.cells.insert(
        0, nbformat.v4.new_code_cell(_SHIFT_CELL.format(seconds=shift_days * 86_400.0))
    )
    execute_notebook(
        shifted, timeout=timeout, kernel_name="python3", resources={"metadata": {"path": NOTEBOOKS}}
    )
    shifted.cells.pop(0)
    return shifted


def stored(name: str) -> Any:
    """The committed notebook."""
    return nbformat.read(NOTEBOOKS / name, as_version=4)
