from __future__ import annotations

import html
from pathlib import Path

import ipywidgets as widgets

from memdir_nb.home.config import MemdirConfig
from memdir_nb.ui.widgets import MemoryBrowser
from tests.support import NOW


def test_browser_lists_every_memory_with_scope_age_and_badge(
    mem: Path, config: MemdirConfig
) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    assert len(b.rows) == 40
    assert b.visible_rows == b.rows
    okr = next(r for r in b.rows if r.filename == "team/project_availability_okr.md")
    assert (okr.scope, okr.type, okr.age, okr.badge) == ("team", "project", "420 days ago", "stale")
    colour = next(r for r in b.rows if r.filename == "user_colour_vision.md")
    assert (colour.scope, colour.age, colour.badge) == ("private", "yesterday", "fresh")
    assert 'class="memdir-badge memdir-badge-stale"' in b.table.value
    assert b.progress.value == b.progress.max == 40


def test_filters_by_type_scope_age_and_text(mem: Path, config: MemdirConfig) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    b.type_filter.value = "user"
    assert {r.type for r in b.visible_rows} == {"user"} and len(b.visible_rows) == 9
    b.type_filter.value = "all"
    b.scope_filter.value = "team"
    assert b.visible_rows and all(r.filename.startswith("team/") for r in b.visible_rows)
    b.age_filter.value = "stale"
    assert b.visible_rows and all(r.age_days >= 90 for r in b.visible_rows)
    b.scope_filter.value = "all"
    b.age_filter.value = "all"
    b.search.value = "grafana"
    assert [r.filename for r in b.visible_rows] == ["team/reference_latency_dashboards.md"]
    assert len(b.chooser.options) == 1


def test_selecting_a_row_shows_file_index_line_and_freshness_note(
    mem: Path, config: MemdirConfig
) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    b.select("team/reference_deploy_runbook.md")
    d = b.selected
    assert d is not None
    assert d.text == (mem / "team/reference_deploy_runbook.md").read_text()
    assert d.index_line.startswith(
        "- [How we deploy to production](reference_deploy_runbook.md) \u2014 "
    )
    assert d.freshness_note.startswith("<system-reminder>This memory is 47 days old.")
    assert "47 days old" in b.detail.value and "Argo CD" in b.detail.value


def test_unindexed_memory_says_it_is_missing_from_the_index(
    mem: Path, config: MemdirConfig
) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    b.select("user_colour_vision.md")
    assert b.selected is not None
    assert b.selected.row.index_line is None
    assert b.selected is not None
    assert "not listed in MEMORY.md" in b.selected.index_line
    assert b.selected is not None
    assert "no staleness caveat" in b.selected.freshness_note


def test_filtering_out_the_selected_row_clears_the_selection(
    mem: Path, config: MemdirConfig
) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    b.select("user_role.md")
    b.type_filter.value = "reference"
    assert b.selected is None and b.detail.value == ""


def test_rescan_picks_up_a_new_file_and_keeps_the_selection(
    mem: Path, config: MemdirConfig
) -> None:
    from memdir_nb.storage.store import MemoryStore

    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    b.select("user_role.md")
    MemoryStore(mem, now_ms=NOW).save(
        "Tea", "User drinks green tea", "user", "Green tea, no sugar."
    )
    b.refresh_button.click()
    assert len(b.rows) == 41
    assert b.selected is not None and b.selected.row.filename == "user_role.md"


def test_output_is_deterministic_for_a_dir_and_clock(mem: Path, config: MemdirConfig) -> None:
    a = MemoryBrowser(mem, now_ms=NOW, config=config)
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    assert a.table.value == b.table.value and a.summary.value == b.summary.value
    assert repr(a) == "MemoryBrowser(VBox, memory_dir='mem')"
    assert "memdir-browser-list" in a.chooser._dom_classes


def test_the_list_of_memories_is_drawn_once(mem: Path, config: MemdirConfig) -> None:
    # the table is the list; the chooser is a combobox whose suggestions stay hidden until asked
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    assert isinstance(b.chooser, widgets.Combobox) and b.chooser.ensure_option
    assert "user_role.md" in b.chooser.options
    assert b.table.value.count("<code>user_role.md</code>") == 1
    shown_elsewhere = [
        c
        for c in b.children
        if isinstance(c, widgets.HTML) and c is not b.table and "user_role.md" in c.value
    ]
    assert shown_elsewhere == []


def test_rows_and_selection_are_traits_that_drive_the_display(
    mem: Path, config: MemdirConfig
) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    seen = []
    b.observe(lambda change: seen.append(change["name"]), names=["visible_rows", "selected"])
    b.search.value = "grafana"
    b.select("team/reference_latency_dashboards.md")
    assert seen == ["visible_rows", "selected"]
    assert "<b>1</b> of 40 memories shown" in b.summary.value
    assert "Grafana folder" in b.detail.value


def test_a_refused_index_shows_the_readers_reason(
    mem: Path, tmp_path: Path, config: MemdirConfig
) -> None:
    outside = tmp_path / "outside.md"
    outside.write_text("- [Stolen](x.md) - not ours\n")
    (mem / "MEMORY.md").unlink()
    (mem / "MEMORY.md").symlink_to(outside)
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    assert set(b.index_problems) == {"private"}
    reason = b.index_problems["private"]
    assert "MEMORY.md" in b.problems_box.value and html.escape(reason) in b.problems_box.value
    assert all(r.index_line is None for r in b.rows if r.scope == "private")


def test_readable_indexes_show_no_problem(mem: Path, config: MemdirConfig) -> None:
    b = MemoryBrowser(mem, now_ms=NOW, config=config)
    assert b.index_problems == {} and b.problems_box.value == ""


def test_table_has_a_manifest_column_and_the_detail_shows_unseen_sentences(
    tmp_path: Path, config: MemdirConfig
) -> None:
    from memdir_nb.storage.store import MemoryStore

    store = MemoryStore(tmp_path / "audit", now_ms=NOW)
    body = "\n\n".join(
        [
            "The health poller on the gateway sleeps between probes; it was 30 minutes.",
            "**Why:** on 2026-02-03 a broken node kept serving for 25 minutes unnoticed.",
            "**How to apply:**\n- Keep the drain timeout at 45 seconds so connections finish.\n"
            "- Rollback uses `ansible-playbook rollback.yml` and takes about eight minutes.\n"
            "- Certificates for the edge renew through cert-manager twelve days early.",
            "Update 2026-03-01: we changed the poller sleep to 10 minutes with Priya.",
        ]
    )
    store.save("Deploy gotchas", "Deployment gotchas", "project", body)
    b = MemoryBrowser(tmp_path / "audit", now_ms=NOW, config=config)
    assert "<th>manifest sees</th>" in b.table.value and "<b>little</b>" in b.table.value
    b.select(b.rows[0].filename)
    assert 'class="memdir-browser-unseen"' in b.detail.value
    assert "cannot see" in b.detail.value and "drain timeout" in html.unescape(b.detail.value)
