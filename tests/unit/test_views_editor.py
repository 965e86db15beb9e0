"""The editor view-model: body composition, the store's verdict on the form, the previews."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from memdir_nb.storage.draft import validate_draft
from memdir_nb.ui.views import editor as view


def test_compose_body_adds_why_and_how_only_for_types_that_need_them() -> None:
    assert (
        view.compose_body("feedback", "Rule.", "Because.", "Always.")
        == "Rule.\n\n**Why:** Because.\n\n**How to apply:** Always."
    )
    assert view.compose_body("reference", "Board x.", "ignored", "ignored") == "Board x."


def test_check_draft_reports_unknown_type_and_names_the_four(demo_mem: Path) -> None:
    c = view.check_draft(demo_mem, name="a", description="b", type="opinion", rule="c")
    assert c.errors == [
        "unknown memory type 'opinion': the type must be one of user, feedback, project, "
        "reference (the taxonomy is closed)"
    ]
    assert c.preview_file == ""


def test_check_draft_warns_when_the_file_name_is_taken(demo_mem: Path) -> None:
    c = view.check_draft(
        demo_mem, name="Role at Isobar Labs", description="x", type="user", rule="y"
    )
    assert c.relative_path == "user_role_at_isobar_labs.md"
    c2 = view.check_draft(
        demo_mem, name="Misc", description="x", type="reference", rule="y", scope="private"
    )
    assert any("reference_misc.md already exists" in w for w in c2.warnings)
    assert view.FILE_NAME_TAKEN in {n.code for n in c2.notes}
    assert c2.ok


def test_the_verdict_is_the_stores_verdict(demo_mem: Path, demo_now_ms: float) -> None:
    """Whatever the form holds, its errors and warnings are validate_draft's, in its words."""
    forms: list[dict[str, Any]] = [
        dict(name="", description=" ", type="feedback", rule="Run the linters"),
        dict(name="n", description="d", type="user", rule="Tea", scope="team"),
        dict(name="n", description="d", type="project", rule="Ship tomorrow", why="w", how="h"),
        dict(name="n\nm", description="d", type=None, rule=""),
        dict(name="n", description="d", type="reference", rule="x", scope="galaxy"),
    ]
    for form in forms:
        c = view.check_draft(demo_mem, now_ms=demo_now_ms, **form)
        expected = validate_draft(
            form["name"],
            form["description"],
            form["type"],
            c.body,
            scope=form.get("scope", "private"),
            now_ms=demo_now_ms,
        )
        assert c.verdict == expected
        assert c.errors == expected.error_messages
        assert c.warnings == expected.warning_messages  # no notes: no file name is taken


def test_each_problem_is_named_once(demo_mem: Path, demo_now_ms: float) -> None:
    c = view.check_draft(
        demo_mem,
        name="Launch",
        description="d",
        type="project",
        rule="Ship it tomorrow, tomorrow at the latest",
        now_ms=demo_now_ms,
    )
    messages = c.errors + c.warnings
    assert len(messages) == len(set(messages))
    assert sum("'tomorrow'" in m for m in messages) == 1


def test_missing_why_and_how_are_warnings_not_errors(demo_mem: Path) -> None:
    c = view.check_draft(demo_mem, name="n", description="d", type="feedback", rule="Lint first")
    assert c.ok and c.errors == []
    assert {"missing-why", "missing-how-to-apply"} <= c.verdict.codes()
    assert c.preview_file.startswith("---\nname: n\n")


def test_relative_dates_warn_only_in_project_memories(demo_mem: Path, demo_now_ms: float) -> None:
    base = dict(name="n", description="d", rule="Ship it tomorrow", why="w", how="h")
    project = view.check_draft(demo_mem, type="project", now_ms=demo_now_ms, **base)
    assert project.ok
    assert any("'tomorrow'" in w and "write 2026-02-0" in w for w in project.warnings)
    feedback = view.check_draft(demo_mem, type="feedback", now_ms=demo_now_ms, **base)
    assert feedback.errors == [] and feedback.warnings == []


def test_the_view_keeps_no_date_rules_of_its_own() -> None:
    assert not hasattr(view, "absolute_date_for")
    assert not hasattr(view, "find_relative_dates")
