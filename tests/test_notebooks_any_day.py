"""The notebooks' stored outputs reproduce on any day and in any filesystem order.

The demo is built as of the fixed DEMO_NOW_MS, and every notebook passes that date on as `now`.
Two checks: (1) each notebook, run in a kernel whose wall clock is 400 days ahead, prints what
is stored in it (after nbval's substitutions); (2) the functions the notebooks show (scan,
browser rows, lint, analysis, recall explanations) give the same answer for a demo copied in
the reverse file order, under a clock moved a year ahead.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

import pytest

from memdir_nb.lint import lint_memory_dir
from memdir_nb.recall import LexicalSelector, SemanticSelector
from memdir_nb.recall.explain_selection import format_explanation, selection_explanation
from memdir_nb.reports.analysis import summarize
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.ui.demo import DEMO_NOW_MS, build_demo_memory_dir, notebook_memory_dir
from memdir_nb.ui.nbdir import open_notebook_dir, profile_dir
from memdir_nb.ui.views import memory_rows
from tests.support.notebook_clock import NOTEBOOKS, run_shifted, stored, visible_outputs

YEAR_S = 366 * 86_400.0


def copy_in_reverse_order(src: Path, dst: Path) -> None:
    """Copy a dir creating its entries in the reverse of sorted order, keeping every mtime."""
    entries = sorted(src.rglob("*"), reverse=True)
    for path in entries:
        target = dst / path.relative_to(src)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(path, target)
    for path in sorted(entries, key=lambda p: -len(p.parts)):
        st = path.stat()
        os.utime(dst / path.relative_to(src), ns=(st.st_atime_ns, st.st_mtime_ns))
    st = src.stat()
    os.utime(dst, ns=(st.st_atime_ns, st.st_mtime_ns))


def notebook_views(memory_dir: Path, now_ms: float) -> dict[str, object]:
    """What the notebooks print about a dir, with its own path taken out."""
    root = str(memory_dir)
    headers = scan_memory_files(memory_dir)
    out: dict[str, object] = {
        "scan": [(h.filename, h.mtime_ms, h.description) for h in headers],
        "rows": [(r.filename, r.age, r.badge) for r in memory_rows(memory_dir, now_ms=now_ms)],
        "lint": [
            f.format().replace(root, "<dir>") for f in lint_memory_dir(memory_dir, now_ms=now_ms)
        ],
        "summary": repr(summarize(memory_dir, now_ms=now_ms)).replace(root, "<dir>"),
    }
    for name, selector in (("lexical", LexicalSelector()), ("semantic", SemanticSelector())):
        selector.select("who is on call this week", headers)
        out[name] = format_explanation(selection_explanation(selector), selector_name=name)
    return out


def test_the_demo_is_built_as_of_the_fixed_date(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = notebook_memory_dir(None)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + YEAR_S)
    monkeypatch.delenv("MEMDIR_NB_DIR", raising=False)
    later = notebook_memory_dir(None)
    files = sorted(p.relative_to(first) for p in first.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(later) for p in later.rglob("*") if p.is_file())
    for rel in files:
        assert (first / rel).read_bytes() == (later / rel).read_bytes(), rel
        assert (first / rel).stat().st_mtime_ns == (later / rel).stat().st_mtime_ns, rel
    assert profile_dir(later).now_ms == pytest.approx(DEMO_NOW_MS)


def test_open_notebook_dir_passes_the_demo_date_on_as_now(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert open_notebook_dir(None).now_ms == pytest.approx(DEMO_NOW_MS)
    capsys.readouterr()


def test_what_the_notebooks_show_holds_a_year_later_in_another_file_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = build_demo_memory_dir(tmp_path / "a" / "memory", now_ms=DEMO_NOW_MS)
    before = notebook_views(first, profile_dir(first).now_ms)
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + YEAR_S)
    second = tmp_path / "b" / "memory"
    copy_in_reverse_order(first, second)
    after = notebook_views(second, profile_dir(second).now_ms)
    assert profile_dir(second).now_ms == pytest.approx(DEMO_NOW_MS)
    for key, value in before.items():
        assert after[key] == value, key


def test_explanations_never_print_minus_zero(tmp_path: Path) -> None:
    demo = build_demo_memory_dir(tmp_path / "memory", now_ms=DEMO_NOW_MS)
    selector = SemanticSelector()
    for query in ("plan a birthday party for my cat", "who is on call this week"):
        selector.select(query, scan_memory_files(demo))
        assert "-0.00" not in format_explanation(selection_explanation(selector))


@pytest.mark.slow
@pytest.mark.parametrize("notebook", sorted(p.name for p in NOTEBOOKS.glob("*.ipynb")))
def test_notebook_prints_its_stored_outputs_a_year_later(notebook: str) -> None:
    assert visible_outputs(run_shifted(notebook, 400)) == visible_outputs(stored(notebook))


@pytest.mark.slow
def test_the_dream_notebook_prints_the_demo_s_dates_east_of_utc_plus_12(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # fresh38: in Pacific/Kiritimati (UTC+14) notebook 07 listed 2026-06-01.md, wrote the log
    # of 2026-06-02 and resolved 'next Thursday' to 2026-06-04 (2026-05-28 in the stored
    # outputs); nbval's date substitution hid all three
    import nbformat

    from tests.support.kernels import execute_notebook

    monkeypatch.setenv("TZ", "Pacific/Kiritimati")
    monkeypatch.delenv("MEMDIR_NB_DIR", raising=False)
    nb = nbformat.read(NOTEBOOKS / "07_daily_logs_and_dream.ipynb", as_version=4)
    execute_notebook(nb, timeout=600, resources={"metadata": {"path": str(NOTEBOOKS)}})
    printed = "".join(
        o.get("text", "") for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])
    )
    assert "2026-05-31.md" in printed and "# Daily log 2026-06-01\n" in printed
    assert "'next Thursday' -> '2026-05-28'" in printed
    assert "2026-06-02" not in printed and "2026-06-04" not in printed
