"""JupyterLab in a real Chromium: the tour notebook opens, runs, and its widget renders."""

from __future__ import annotations

import time
from typing import Any


def run_all_cells(page: Any) -> None:
    """Run > Run All Cells; retried while the kernel has not picked the request up yet.

    Lab renders a long notebook in a window and scrolls to the running cell, so the first
    cell's prompt may leave the DOM: any prompt showing `[*]` or a number means it started.
    """
    prompts = page.locator(".jp-CodeCell .jp-InputPrompt")
    for _ in range(6):
        page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            texts = [t.strip() for t in prompts.all_inner_texts()]
            if any(t not in ("[ ]:", "") for t in texts):
                return
            time.sleep(0.5)
    raise AssertionError("the kernel never started executing the tour's cells")


def test_tour_opens_in_jupyterlab_and_its_browser_widget_renders(page: Any, lab_url: str) -> None:
    page.goto(lab_url, wait_until="domcontentloaded")
    page.wait_for_selector(".jp-Notebook .jp-CodeCell", timeout=120_000)
    page.locator(".jp-StatusBar-Widget", has_text="Idle").first.wait_for(timeout=120_000)
    run_all_cells(page)
    widget = page.locator(".jp-OutputArea-output .memdir-browser")
    widget.first.wait_for(state="visible", timeout=120_000)
    page.locator(".memdir-browser .memdir-browser-table").get_by_text(
        "feedback_no_recap.md"
    ).first.wait_for(timeout=60_000)
    widget.first.scroll_into_view_if_needed()
    errors = page.locator(".jp-OutputArea-output[data-mime-type='application/vnd.jupyter.stderr']")
    assert errors.count() == 0, errors.first.inner_text()
