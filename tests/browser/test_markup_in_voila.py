"""Attack round 6 in a real Chromium: the Voila dashboard over a dir full of HTML and script.

The dir (tests/conftest.py `build_markup_home`) puts `<img onerror>`, `<svg onload>`,
`<script>`, `<iframe srcdoc>`, `<style>`, quote break-outs, `javascript:` links and LaTeX into
file names, frontmatter, bodies, MEMORY.md, team memories, a daily log and a transcript; each
payload sets `window.__memdir_pwned` if it ever runs. Every tab is opened and driven (a memory's
detail, a recall, a dream plan, a replayed turn), every element is sent the events the inline
handlers wait for, and then nothing may have run, no dialog opened, no element come from data,
and the payloads must be on the page as text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.browser.conftest import serve_voila
from tests.browser.test_voila_dashboard import open_dashboard, open_tab
from tests.conftest import build_markup_home, markup_name_payload

# Elements a payload would add, and MathJax output (data is never typeset).
FROM_DATA = (
    "[onerror], [onload], [onmouseover], [onfocus], script, iframe, object, embed, "
    "a[href^='javascript'], mjx-container, .MathJax"
)
FIRE_HANDLERS = """() => {
  for (const el of document.querySelectorAll('.memdir-dashboard *')) {
    for (const type of ['mouseover', 'focus', 'error', 'load']) el.dispatchEvent(new Event(type));
  }
}"""


@pytest.fixture(scope="module")
def hostile_voila(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[str]:
    mem = build_markup_home(tmp_path_factory.mktemp("markup"))
    with serve_voila(mem, tmp_path_factory.mktemp("voila-markup-home")) as url:
        yield url


def test_markup_in_memory_data_never_runs_in_the_dashboard(page: Any, hostile_voila: str) -> None:
    dialogs: list[str] = []

    def on_dialog(dialog: Any) -> None:
        dialogs.append(dialog.message)
        dialog.dismiss()

    page.on("dialog", on_dialog)
    open_dashboard(page, hostile_voila)
    table = page.locator(".memdir-browser-table table")
    table.wait_for()
    assert "__memdir_pwned='desc'" in table.inner_text()  # shown, as text
    chooser = page.locator(".memdir-browser-list input")
    chooser.fill(f"user_{markup_name_payload('file')}.md")
    chooser.press("Enter")
    page.locator(".memdir-browser-detail").get_by_text("__memdir_pwned='body'").first.wait_for()
    open_tab(page, "Recall")
    page.locator(".memdir-recall-query input").fill("desc body img onerror window")
    page.locator(".memdir-recall-run").click()
    page.locator(".memdir-recall-explanation table").wait_for()
    open_tab(page, "Dream")
    page.locator(".memdir-dream-plan").click()
    page.locator(".memdir-dream-action-label").first.wait_for()
    open_tab(page, "Sessions")
    page.locator(".memdir-replay-turns select").select_option(index=0)
    page.locator(".memdir-replay-detail").get_by_text("__memdir_pwned='prompt'").first.wait_for()
    page.locator(".memdir-replay-notes").get_by_text("__memdir_pwned='recap'").first.wait_for()
    for title in ("Index", "Freshness", "Team", "Save", "Memories"):
        open_tab(page, title)
    page.evaluate(FIRE_HANDLERS)
    page.wait_for_timeout(300)  # an <img src=x> errors asynchronously
    assert page.evaluate("window.__memdir_pwned") is None
    assert dialogs == []
    injected = page.evaluate(
        "sel => [...document.querySelectorAll(sel)].map(e => e.outerHTML.slice(0, 200))",
        f".memdir-dashboard :is({FROM_DATA})",
    )
    assert injected == []
    assert page.evaluate("getComputedStyle(document.body).display") != "none"
    assert (
        "<script>window.__memdir_pwned='body'</script>"
        in page.locator(".memdir-browser-detail").inner_text()
    )
