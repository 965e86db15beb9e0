"""The Voila dashboard in a real Chromium: tabs render, recall finds the expected memory,
a save shows up in the browser tab and on disk, and the path lab rejects an attack key."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memdir_nb.ui.demo import DEMO_QUERIES

TABS = (
    "Memories",
    "Save",
    "Index",
    "Recall",
    "Freshness",
    "Team",
    "Path security",
    "Dream",
    "Sessions",
)


def open_dashboard(page: Any, url: str) -> None:
    # Voila streams the page while the kernel runs the dashboard, so the document is complete
    # only when the notebook has run: wait for the first bytes here, and for the widget below
    page.goto(url, wait_until="commit")
    page.wait_for_selector(".memdir-dashboard", timeout=120_000)


def open_tab(page: Any, title: str) -> None:
    page.locator(".memdir-dashboard-tabs .lm-TabBar-tab", has_text=title).first.click()


def test_dashboard_renders_every_tab(page: Any, voila_url: str) -> None:
    open_dashboard(page, voila_url)
    titles = page.locator(".memdir-dashboard-tabs .lm-TabBar-tab").all_inner_texts()
    assert [t.strip() for t in titles] == list(TABS)
    page.wait_for_selector(".memdir-browser-table table")
    assert "feedback_no_recap.md" in page.locator(".memdir-browser-table").inner_text()
    for title, css in (
        ("Index", ".memdir-inspector"),
        ("Freshness", ".memdir-freshness-histogram svg"),
        ("Team", ".memdir-team"),
        ("Path security", ".memdir-lab"),
        ("Dream", ".memdir-dream-gates"),
    ):
        open_tab(page, title)
        page.locator(css).first.wait_for(state="visible")


def test_recall_playground_finds_the_expected_memory(page: Any, voila_url: str) -> None:
    query, expected = next(iter(DEMO_QUERIES.items()))
    open_dashboard(page, voila_url)
    open_tab(page, "Recall")
    page.locator(".memdir-recall-query input").fill(query)
    page.locator(".memdir-recall-run").click()
    result = page.locator(".memdir-recall-result")
    result.get_by_text(Path(expected).name).first.wait_for()
    assert Path(expected).name in result.inner_text()


def test_saving_in_the_editor_shows_in_browser_and_on_disk(
    page: Any, voila_url: str, demo_dir: Path
) -> None:
    target = demo_dir / "feedback_lint_before_pushing.md"
    assert not target.exists()
    open_dashboard(page, voila_url)
    open_tab(page, "Save")
    page.locator(".memdir-editor-type select").select_option("feedback")
    for css, text in (
        (".memdir-editor-name input", "Lint before pushing"),
        (".memdir-editor-description input", "Run ruff and the fast tests before every git push"),
        (".memdir-editor-body textarea", "Run ruff check and make test-fast before pushing."),
        (".memdir-editor-why textarea", "CI takes twenty minutes; a lint failure wastes a run."),
        (".memdir-editor-how textarea", "Before any git push on this repo."),
    ):
        field = page.locator(css)
        field.fill(text)
        field.blur()  # the editor's fields sync on commit (blur/Enter), not on every keystroke
    page.locator(".memdir-editor-save").click()
    page.locator(".memdir-editor-status").get_by_text("Saved").wait_for()
    assert target.is_file()
    assert "name: Lint before pushing" in target.read_text(encoding="utf-8")
    assert "(feedback_lint_before_pushing.md)" in (demo_dir / "MEMORY.md").read_text(
        encoding="utf-8"
    )
    open_tab(page, "Memories")
    page.locator(".memdir-browser-table").get_by_text(
        "feedback_lint_before_pushing.md"
    ).first.wait_for()


def test_path_security_lab_rejects_an_attack_key(page: Any, voila_url: str) -> None:
    open_dashboard(page, voila_url)
    open_tab(page, "Path security")
    page.locator(".memdir-lab-key input").fill("../../.ssh/authorized_keys")
    verdict = page.locator(".memdir-lab-verdict")
    verdict.get_by_text("rejected").wait_for()
    assert "parent-segment" in verdict.inner_text()
    assert page.locator(".memdir-lab-steps .memdir-step-fail").count() == 1


def test_the_browser_tab_draws_its_list_once(page: Any, voila_url: str) -> None:
    open_dashboard(page, voila_url)
    page.wait_for_selector(".memdir-browser-table table")
    shown = page.locator(".memdir-browser").get_by_text("feedback_no_recap.md")
    assert shown.count() == 1  # the table row; the chooser lists nothing until it is opened


def test_the_index_tab_private_panel_is_readable_at_dashboard_width(
    page: Any, voila_url: str
) -> None:
    open_dashboard(page, voila_url)
    open_tab(page, "Index")
    private = page.locator(".memdir-inspector-private").first
    private.wait_for(state="visible")
    tabs = page.locator(".memdir-dashboard-tabs").first.bounding_box()
    box = private.bounding_box()
    team = page.locator(".memdir-inspector-team").first.bounding_box()
    assert box["width"] >= 0.4 * tabs["width"], (box, tabs)
    assert abs(box["width"] - team["width"]) < 0.1 * tabs["width"], (box, team)


def test_the_recall_tab_tool_input_is_a_usable_size(page: Any, voila_url: str) -> None:
    open_dashboard(page, voila_url)
    open_tab(page, "Recall")
    tools = page.locator(".memdir-recall-tools").first
    text_box = tools.locator("input").first
    text_box.wait_for(state="visible")
    box = text_box.bounding_box()  # the box one types into, not just its container
    assert box["width"] >= 200 and box["height"] >= 16, box
    text_box.fill("kubectl")
    text_box.press("Enter")
    tools.locator(".jupyter-widget-tag", has_text="kubectl").first.wait_for()


def test_the_save_tab_opens_with_no_errors(page: Any, voila_url: str) -> None:
    open_dashboard(page, voila_url)
    open_tab(page, "Save")
    page.locator(".memdir-editor-name").first.wait_for(state="visible")
    assert page.locator(".memdir-editor-errors li").count() == 0


def test_the_buttons_icons_draw_with_no_request_beyond_this_machine(
    page: Any, voila_url: str
) -> None:
    # the page fixture aborts every request for another host (Voila's template asks a CDN)
    asked: list[str] = []
    failed: set[str] = set()
    page.on("request", lambda r: asked.append(r.url))
    page.on("requestfailed", lambda r: failed.add(r.url))
    open_dashboard(page, voila_url)
    open_tab(page, "Recall")
    icon = page.locator(".memdir-recall-run i").first
    icon.wait_for(state="visible")
    font = icon.evaluate("e => getComputedStyle(e, '::before').fontFamily")
    glyph = icon.evaluate("e => getComputedStyle(e, '::before').content")
    box = icon.bounding_box()
    assert "awesome" in font.lower() and glyph not in ("none", "normal", ""), (font, glyph)
    assert box is not None and box["width"] > 4, box
    loaded = page.evaluate(
        "() => [...document.fonts].filter(f => /awesome/i.test(f.family) && f.status === 'loaded')"
        ".map(f => f.family)"
    )
    assert loaded, "no Font Awesome face loaded from this machine"
    outside = [
        u for u in asked if u.startswith("http") and u.split("/")[2].split(":")[0] != "127.0.0.1"
    ]
    assert {u.split("/")[2] for u in outside} <= {"cdn.jsdelivr.net"}, outside
    assert set(outside) <= failed  # each was aborted, never fetched
