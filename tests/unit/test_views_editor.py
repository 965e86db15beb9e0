"""The editor view-model: body composition, draft checks, relative dates."""

from __future__ import annotations

from memdir_nb.views import editor as view


def test_compose_body_adds_why_and_how_only_for_types_that_need_them():
    assert (
        view.compose_body("feedback", "Rule.", "Because.", "Always.")
        == "Rule.\n\n**Why:** Because.\n\n**How to apply:** Always."
    )
    assert view.compose_body("reference", "Board x.", "ignored", "ignored") == "Board x."


def test_check_draft_reports_unknown_type_and_names_the_four(demo_mem):
    c = view.check_draft(demo_mem, name="a", description="b", type="opinion", rule="c")
    assert c.errors == [
        "unknown memory type 'opinion': the type must be one of user, feedback, project, reference"
    ]
    assert c.preview_file == ""


def test_check_draft_warns_when_the_file_name_is_taken(demo_mem):
    c = view.check_draft(
        demo_mem, name="Role at Isobar Labs", description="x", type="user", rule="y"
    )
    assert c.relative_path == "user_role_at_isobar_labs.md"
    c2 = view.check_draft(
        demo_mem, name="Misc", description="x", type="reference", rule="y", scope="private"
    )
    assert any("reference_misc.md already exists" in w for w in c2.warnings)


def test_relative_dates_only_matter_for_project_memories(demo_mem, demo_now_ms):
    base = dict(name="n", description="d", rule="Ship it tomorrow", why="w", how="h")
    assert any(
        "'tomorrow'" in e
        for e in view.check_draft(demo_mem, type="project", now_ms=demo_now_ms, **base).errors
    )
    assert view.check_draft(demo_mem, type="feedback", now_ms=demo_now_ms, **base).errors == []


def test_absolute_dates_are_computed_from_the_clock(demo_now_ms):
    # 2026-02-02T02:40Z: the local date is 02-01 or 02-02 depending on the zone; both map Thursday to 02-05
    assert view.absolute_date_for("next Thursday", now_ms=demo_now_ms) == "2026-02-05"
    assert view.absolute_date_for("in 2 weeks", now_ms=demo_now_ms) in ("2026-02-15", "2026-02-16")
    assert view.absolute_date_for("next sprint", now_ms=demo_now_ms) is None
    assert view.find_relative_dates("Due Thursday 2026-03-05.", now_ms=demo_now_ms) == []
