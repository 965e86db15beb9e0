"""The browser view-model: rows, badges, filters and a bounded detail read."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.storage.store import MemoryStore
from memdir_nb.ui.views import browser as view


@pytest.mark.parametrize(
    "days,badge",
    [(0, "fresh"), (1, "fresh"), (2, "aging"), (89, "aging"), (90, "stale"), (400, "stale")],
)
def test_badge_follows_the_caveat_and_the_stale_threshold(days: int, badge: str) -> None:
    assert view.freshness_badge(days) == badge


def test_rows_cover_every_memory_beyond_the_scan_cap(tmp_path: Path, demo_now_ms: float) -> None:
    store = MemoryStore(tmp_path / "big", now_ms=demo_now_ms)
    for i in range(205):
        store.save(f"Note {i}", f"note number {i}", "reference", "x")
    assert len(view.memory_rows(tmp_path / "big", now_ms=demo_now_ms)) == 205


def test_rows_carry_the_index_line_of_their_scope(demo_mem: Path, demo_now_ms: float) -> None:
    rows = {r.filename: r for r in view.memory_rows(demo_mem, now_ms=demo_now_ms)}
    line = rows["team/reference_oncall.md"].index_line
    assert line is not None and line.startswith("- [Who is on call](reference_oncall.md)")
    assert rows["user_colour_vision.md"].index_line is None
    assert rows["team/reference_release_steps.md"].malformed


def test_a_row_named_besides_an_entry_shows_the_line_naming_it(
    real_dir: Callable[[str], Path], demo_now_ms: float
) -> None:
    mem = real_dir("names-besides-entries")
    rows = {r.filename: r.index_line for r in view.memory_rows(mem, now_ms=demo_now_ms)}
    assert rows["keyboard.md"] == rows["desktop.md"] and "([kbd](keyboard.md))" in (
        rows["keyboard.md"] or ""
    )
    assert rows["deploy.md"] == "| Deploy steps | `deploy.md` |"
    assert rows["sse.md"] == "- See `sse.md` for the detailed investigation (Feb 2026)"


def test_a_cr_only_index_gives_each_row_its_own_line(tmp_path: Path, demo_now_ms: float) -> None:
    # CR line ends only (classic Mac OS): a line naming a file besides its entry is found by
    # its line number in the same lines index_mentions counts (spec.text.as_lf), not past the end
    store = MemoryStore(tmp_path, now_ms=demo_now_ms)
    store.save("A", "the a note", "user", "A.", filename="a.md")
    store.save("D", "the d note", "user", "D.", filename="d.md")
    text = "- [A](a.md) \u2014 the a note\rSee `d.md` for the older notes\r"
    (tmp_path / "MEMORY.md").write_bytes(text.encode())
    rows = {r.filename: r.index_line for r in view.memory_rows(tmp_path, now_ms=demo_now_ms)}
    assert rows == {
        "a.md": "- [A](a.md) \u2014 the a note",
        "d.md": "See `d.md` for the older notes",
    }


def test_rows_find_their_index_line_the_way_lint_resolves_targets(
    real_dir: Callable[[str], Path], demo_now_ms: float
) -> None:
    mem = real_dir("repo-root-targets")  # memory/MEMORY.md names `memory/SOUL.md`
    (mem / "MEMORY.md").write_text(
        (mem / "MEMORY.md").read_text(encoding="utf-8")
        + "- [Notes](NOTES.md#loose) \u2014 a section of the notes\n",
        encoding="utf-8",
    )
    rows = {r.filename: r.index_line for r in view.memory_rows(mem, now_ms=demo_now_ms)}
    assert rows["SOUL.md"] == "- `memory/SOUL.md` \u2014 identity"
    assert rows["JOE.md"] == "- [Joe](memory/JOE.md) \u2014 profile"
    assert rows["NOTES.md"] == "- [Notes](NOTES.md#loose) \u2014 a section of the notes"


def test_a_wikilink_index_line_naming_a_memory_by_its_name_is_that_rows_index_line(
    real_dir: Callable[[str], Path], demo_now_ms: float
) -> None:
    # fresh34 taught lint, the rebuild and the dream that `- [[deploy-window]]` lists the memory
    # named deploy-window in project_deploy_window.md; the browser still showed it unindexed
    mem = real_dir("wikilink-index-by-name")
    rows = {r.filename: r.index_line for r in view.memory_rows(mem, now_ms=demo_now_ms)}
    assert rows["project_deploy_window.md"] == "- [[deploy-window]] \u2014 Tue to Thu only"
    assert rows["feedback_no_force_push.md"] == (
        "- [[no-force-push|No force push]] \u2014 rebase, push a new branch"
    )
    assert rows["team/feedback_review_rules.md"] == (
        "- [[review-rules]] \u2014 two approvals for billing"
    )


def test_a_team_index_line_pointing_out_of_its_scope_indexes_nothing(
    tmp_path: Path, demo_now_ms: float
) -> None:
    mem = tmp_path / "m"
    (mem / "team").mkdir(parents=True)
    (mem / "mine.md").write_text(
        "---\nname: Mine\ndescription: kept privately\ntype: user\n---\nx\n", encoding="utf-8"
    )
    (mem / "team" / "MEMORY.md").write_text(
        "- [Up](../mine.md) \u2014 not a team file\n", encoding="utf-8"
    )
    rows = view.memory_rows(mem, now_ms=demo_now_ms)
    assert [(r.filename, r.index_line) for r in rows] == [("mine.md", None)]


def test_a_row_an_agent_folder_indexes_itself_carries_that_line(
    real_dir: Callable[[str], Path], demo_now_ms: float
) -> None:
    # lint counts it as indexed by planner/MEMORY.md; the browser showed it as unindexed
    rows = {
        r.filename: r for r in view.memory_rows(real_dir("agent-beside-index"), now_ms=demo_now_ms)
    }
    line = rows["planner/project_release_train.md"].index_line
    assert line is not None and line.startswith("- [Release train](project_release_train.md)")
    assert rows["builder/reference_cache_host.md"].index_line is None


def test_progress_reports_each_row(demo_mem: Path, demo_now_ms: float) -> None:
    seen = []
    view.memory_rows(
        demo_mem, now_ms=demo_now_ms, progress=lambda done, total: seen.append((done, total))
    )
    assert seen[0] == (1, 40) and seen[-1] == (40, 40)


def test_filter_rows_combines_filters(demo_mem: Path, demo_now_ms: float) -> None:
    rows = view.memory_rows(demo_mem, now_ms=demo_now_ms)
    out = view.filter_rows(rows, types=["project"], scope="team", badge="stale")
    assert {r.filename for r in out} == {
        "team/project_availability_okr.md",
        "team/project_grib_decoder.md",
        "team/project_v1_sunset.md",
    }
    assert view.filter_rows(rows, max_age_days=1, min_age_days=1) == [
        r for r in rows if r.age_days == 1
    ]


def test_memory_detail_reads_at_most_the_preview_cap(tmp_path: Path, demo_now_ms: float) -> None:
    d = tmp_path / "m"
    d.mkdir()
    (d / "huge.md").write_text(
        "---\nname: Huge\ndescription: big\ntype: reference\n---\n"
        + "y" * (view.MAX_PREVIEW_BYTES * 2)
    )
    row = view.memory_rows(tmp_path / "m", now_ms=demo_now_ms)[0]
    detail = view.memory_detail(row, now_ms=demo_now_ms)
    assert detail.truncated and len(detail.text.encode()) == view.MAX_PREVIEW_BYTES


def test_rows_summary_counts_shown_total_team_and_stale(demo_mem: Path, demo_now_ms: float) -> None:
    rows = view.memory_rows(demo_mem, now_ms=demo_now_ms)
    team = view.filter_rows(rows, scope="team")
    shown, total, n_team, stale = view.rows_summary(rows, team, 90)
    assert (shown, total, n_team) == (len(team), 40, len(team))
    assert stale == sum(r.age_days >= 90 for r in rows)


def test_index_problems_names_the_scope_whose_index_is_a_fifo(tmp_path: Path) -> None:
    import os

    d = tmp_path / "m"
    (d / "team").mkdir(parents=True)
    os.mkfifo(d / "team" / "MEMORY.md")
    problems = view.index_problems(d)
    assert list(problems) == ["team"]
    assert problems["team"].endswith("treated as missing")


AUDIT_BODY = """The health poller on the gateway sleeps between probes; it was 30 minutes.

**Why:** on 2026-02-03 a broken node kept serving for 25 minutes before anyone noticed.

**How to apply:**
- Keep the drain timeout at 45 seconds so connections finish cleanly.
- Rollback uses `ansible-playbook rollback.yml -e target=gateway` and takes about eight minutes.
- Certificates for the edge renew through cert-manager twelve days before expiry.

Update 2026-03-01: we changed the poller sleep to 10 minutes after the incident review with Priya.
"""


def _audit_dir(tmp_path: Path, demo_now_ms: float) -> Path:
    store = MemoryStore(tmp_path / "audit", now_ms=demo_now_ms)
    store.save("Deploy gotchas", "Deployment gotchas", "project", AUDIT_BODY)
    store.save(
        "Gateway poller",
        "Gateway poller sleep (now 10 min), drain timeout, rollback playbook and certificate "
        "renewal; incident review with Priya",
        "project",
        AUDIT_BODY,
    )
    return tmp_path / "audit"


def test_rows_carry_the_description_audit_verdict(tmp_path: Path, demo_now_ms: float) -> None:
    rows = {r.name: r for r in view.memory_rows(_audit_dir(tmp_path, demo_now_ms))}
    assert rows["Deploy gotchas"].audit == "misses-body"
    assert rows["Deploy gotchas"].audit_note.startswith("misses-body: ")
    assert rows["Gateway poller"].audit == "covered"


def test_demo_rows_are_audited_and_none_misses_its_body(demo_mem: Path, demo_now_ms: float) -> None:
    rows = view.memory_rows(demo_mem, now_ms=demo_now_ms)
    verdicts = {r.audit for r in rows}
    assert verdicts <= {"covered", "partly"} and "covered" in verdicts


def test_detail_lists_the_body_sentences_the_manifest_cannot_see(
    tmp_path: Path, demo_now_ms: float
) -> None:
    rows = {r.name: r for r in view.memory_rows(_audit_dir(tmp_path, demo_now_ms))}
    detail = view.memory_detail(rows["Deploy gotchas"], now_ms=demo_now_ms)
    assert detail.audit_note.startswith("misses-body")
    assert 3 <= len(detail.unseen) <= 5
    lines = detail.text.split("\n")
    for entry in detail.unseen:  # "line N: sentence", N the line in the file
        number, sentence = entry.removeprefix("line ").split(": ", 1)
        assert sentence in lines[int(number) - 1]
    covered = view.memory_detail(rows["Gateway poller"], now_ms=demo_now_ms)
    assert covered.audit_note == "covered"


def test_rows_show_where_the_mtime_and_the_modified_time_disagree(tmp_path: Path) -> None:
    day = 86_400_000
    now = 1_790_000_000_000.0
    store = MemoryStore(tmp_path, now_ms=now - 300 * day)
    store.save("Old note", "Saved long ago", "user", "Body.")
    store.save("Fresh note", "Saved just now", "user", "Body.", filename="user_fresh.md")
    # a restore: every file gets today's mtime, the old note keeps its modified: time
    for p in tmp_path.glob("user_*.md"):
        os.utime(p, (now / 1000, now / 1000))
    fresh = tmp_path / "user_fresh.md"
    fresh.write_text(fresh.read_text().replace("modified:", "x-was-modified:"))
    os.utime(fresh, (now / 1000, now / 1000))
    rows = {r.filename: r for r in view.memory_rows(tmp_path, now_ms=now)}
    old = rows["user_old_note.md"]
    assert old.age == "300 days ago" and old.times_disagree
    assert old.time_note(now) == (
        "modified: says 300 days ago; the file's mtime says today (restored or copied?)"
    )
    assert rows["user_fresh.md"].age == "today" and not rows["user_fresh.md"].times_disagree
    assert rows["user_fresh.md"].time_note(now) == ""
