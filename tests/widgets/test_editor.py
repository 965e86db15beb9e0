from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.formats.index import parse_index
from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.ui.widgets import MemoryEditor
from tests.support import NOW, snapshot

SECRET = "the deploy key is sk-ant-api03-" + "Zq9xW2vB7nR4tY6uI8oP1aS3dF5gH7jK9lM0"


def fill_lint_feedback(e: MemoryEditor) -> None:
    """The form filled with one valid feedback memory ("Lint before commit")."""
    e.fill(
        type="feedback",
        name="Lint before commit",
        description="Run ruff before every commit",
        body="Run ruff before committing.",
        why="CI rejects lint errors.",
        how="Any Python change.",
    )


def test_type_sets_guidance_and_default_scope(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.type_select.value = "reference"
    assert e.scope_toggle.value == "team"
    assert "usually team" in e.scope_rule.value
    assert e.why_how.layout.display == "none"
    e.type_select.value = "feedback"
    assert e.scope_toggle.value == "private"
    assert e.why_how.layout.display == "flex"
    assert "When to save" in e.guidance.value


def test_no_type_chosen_is_an_error_and_save_writes_nothing(
    mem: Path, config: MemdirConfig
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.name_input.value = "x"
    before = snapshot(mem)
    e.save_button.click()
    assert any("no memory type given" in err for err in e.errors)
    assert e.last_saved is None and snapshot(mem) == before


def test_empty_fields_block_the_save_and_missing_why_how_only_warn(
    mem: Path, config: MemdirConfig
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(type="feedback", name="", description=" ", body="Run the linters first")
    assert e.error_codes == ["name", "description"]
    assert any("name is empty" in x for x in e.errors)
    assert any("description is empty" in x for x in e.errors)
    assert e.warning_codes == ["missing-why", "missing-how-to-apply"]
    assert not any("Why" in x for x in e.errors)
    assert e.save_button.disabled
    assert "Not saved until fixed" in e.errors_box.value
    assert "name is empty" in e.errors_box.value and "should say Why" not in e.errors_box.value
    assert "Saved anyway" in e.warnings_box.value and "should say Why" in e.warnings_box.value


def test_missing_why_how_warns_and_the_save_goes_ahead(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(type="feedback", name="Lint", description="Run ruff", body="Run ruff first.")
    assert e.errors == [] and not e.save_button.disabled
    e.save_button.click()
    assert e.last_saved == mem / "feedback_lint.md"
    assert e.warning_codes == ["missing-why", "missing-how-to-apply"]
    assert len(e.warnings) == 2  # the store's copy of the same warnings is not added again


def test_the_editor_shows_the_stores_verdict(mem: Path, config: MemdirConfig) -> None:
    from memdir_nb.storage.draft import validate_draft

    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(type="user", name="Tea", description="x\ny", body="Green tea.", scope="team")
    verdict = validate_draft(
        "Tea", "x\ny", "user", e.update_preview().body, scope="team", now_ms=NOW
    )
    assert e.errors == verdict.error_messages and e.warnings == verdict.warning_messages
    assert e.error_codes == [p.code for p in verdict.errors]


def test_live_preview_shows_file_and_index_line(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    fill_lint_feedback(e)
    assert e.errors == []
    assert (
        e.preview_index_line
        == "- [Lint before commit](feedback_lint_before_commit.md) \u2014 Run ruff before every commit"
    )
    assert e.preview_file.startswith("---\nname: Lint before commit\n")
    assert "**Why:** CI rejects lint errors." in e.preview_file
    assert "**How to apply:** Any Python change." in e.preview_file


def test_save_writes_the_file_and_its_index_line(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    fill_lint_feedback(e)
    preview = e.preview_file
    e.save_button.click()
    assert e.last_saved == mem / "feedback_lint_before_commit.md"
    assert e.last_saved.read_text() == preview
    targets = {x.target: x.raw for x in parse_index(read_entrypoint(mem))}
    assert targets["feedback_lint_before_commit.md"] == e.preview_index_line
    assert "Saved feedback_lint_before_commit.md" in e.status_text
    assert "feedback_lint_before_commit.md" in e.forget_choice.options


def test_team_save_goes_to_team_dir_and_team_index(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(
        type="reference",
        name="SLO budget board",
        description="Error budget lives on Grafana board slo-budget",
        body="Grafana board slo-budget tracks the monthly error budget.",
    )
    assert e.scope_toggle.value == "team"
    e.save_button.click()
    assert e.last_saved == mem / "team" / "reference_slo_budget_board.md"
    assert "its line in team/MEMORY.md" in e.status_text
    assert "reference_slo_budget_board.md" in {
        x.target for x in parse_index(read_entrypoint(mem / "team"))
    }


def test_secret_in_team_scope_shows_error_and_writes_nothing(
    mem: Path, config: MemdirConfig
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(
        type="reference",
        name="Deploy key",
        description="Where the deploy key is",
        body=SECRET,
        scope="team",
    )
    assert any("Anthropic API key" in x and "refused" in x for x in e.errors)
    assert "Zq9xW2vB7nR4tY6uI8oP1aS3" not in " ".join(e.errors)  # redacted, never echoed whole
    before = snapshot(mem)
    e.save_button.click()
    assert e.last_saved is None and snapshot(mem) == before


def test_secret_in_private_scope_only_warns(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(
        type="reference",
        name="Deploy key",
        description="Where the deploy key is",
        body=SECRET,
        scope="private",
    )
    assert e.errors == []
    assert any("credentials do not belong" in w for w in e.warnings)


def test_relative_date_in_project_memory_is_a_warning_naming_the_date(
    mem: Path, config: MemdirConfig
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(
        type="project",
        name="Insurer demo day",
        description="Demo for the insurer pilot",
        body="The demo is next Thursday.",
        why="Pilot contract.",
        how="Freeze demo branch.",
    )
    # NOW is 2026-02-02T02:40Z: Monday in UTC and east of it, Sunday in the Americas; Thursday is 02-05 in both
    assert e.errors == []
    assert any("'next Thursday'" in x and "write 2026-02-05" in x for x in e.warnings)
    assert e.warning_codes == ["relative-date"]
    e.body_input.value = "The demo is on 2026-02-05."
    assert e.errors == [] and e.warnings == []


def test_user_memory_in_team_scope_is_refused(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(
        type="user", name="Likes tea", description="User likes tea", body="Green tea.", scope="team"
    )
    assert any("always private" in x for x in e.errors)


def test_forget_moves_the_file_to_trash_and_drops_the_index_line(
    mem: Path, config: MemdirConfig
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.forget_choice.value = "team/reference_oncall.md"
    e.forget_button.click()
    assert not (mem / "team/reference_oncall.md").exists()
    assert e.last_forgotten is not None and e.last_forgotten.parent == mem / ".trash"
    assert e.last_forgotten.read_text().startswith("---\nname: Who is on call")
    assert "reference_oncall.md" not in {
        x.target for x in parse_index(read_entrypoint(mem / "team"))
    }
    assert "team/reference_oncall.md" not in e.forget_choice.options


def test_forget_names_the_memories_still_linking_it_in_the_status_line(
    real_dir: Callable[[str], Path], config: MemdirConfig
) -> None:
    root = real_dir("wikilinked")
    glaze = (root / "reference_glaze_sheet.md").read_bytes()
    e = MemoryEditor(root, now_ms=NOW, config=config)
    e.forget_choice.value = "project_kiln_schedule.md"
    e.forget_button.click()
    assert e.status_text.startswith("Forgot project_kiln_schedule.md: moved to .trash/")
    assert "2 memories still link it by a name no memory answers to now: " in e.status_text
    assert "reference_glaze_sheet.md ([[kiln-schedule]])" in e.status_text
    assert not e.status_error and (root / "reference_glaze_sheet.md").read_bytes() == glaze
    assert "[[kiln-schedule]]" in e.status.value  # shown escaped, as every status is


def test_forget_with_nothing_chosen_says_so(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    before = snapshot(mem)
    e.forget_button.click()
    assert "Choose a memory" in e.status_text and snapshot(mem) == before


@pytest.mark.parametrize("scope", ["private", "team"])
def test_a_save_bumps_disk_revision_for_observers(
    mem: Path, config: MemdirConfig, scope: str
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    calls = []
    e.observe(lambda change: calls.append(change["new"]), names="disk_revision")
    e.fill(
        type="reference",
        name=f"Board {scope}",
        description="A board",
        body="Grafana board x.",
        scope=scope,
    )
    e.save_button.click()
    assert calls == [1] and e.disk_revision == 1


def test_an_untouched_blank_form_shows_no_errors(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    assert e.errors  # the verdict is known: nothing is filled in
    assert not e.show_errors
    assert e.errors_box.value == "" and e.warnings_box.value == ""
    assert not e.save_button.disabled  # pressing Save is how a user asks what is missing


def test_errors_appear_once_a_field_is_committed(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.name_input.value = "Tea"
    assert e.show_errors
    assert "no memory type given" in e.errors_box.value
    assert e.save_button.disabled


def test_errors_appear_when_save_is_pressed_on_a_blank_form(
    mem: Path, config: MemdirConfig
) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    before = snapshot(mem)
    e.save_button.click()
    assert "no memory type given" in e.errors_box.value
    assert "Not saved" in e.status_text and e.last_saved is None
    assert f"fix the {len(e.errors)} errors listed above" in e.status_text
    assert snapshot(mem) == before


def test_a_refresh_from_another_tab_does_not_reveal_errors(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.refresh()
    assert e.errors_box.value == "" and not e.show_errors


def test_a_single_error_is_counted_in_the_singular(mem: Path, config: MemdirConfig) -> None:
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    e.fill(type="reference", name="Board", description="", body="Grafana board x.")
    e.save_button.click()
    assert e.error_codes == ["description"]
    assert "fix the 1 error listed above" in e.status_text


def test_a_save_or_forget_the_disk_refuses_is_a_status_line_not_a_traceback(
    mem: Path, config: MemdirConfig
) -> None:
    """A FIFO where MEMORY.md should be: the store refuses with an OSError naming the fix."""
    e = MemoryEditor(mem, now_ms=NOW, config=config)
    (mem / "MEMORY.md").unlink()
    os.mkfifo(mem / "MEMORY.md")
    fill_lint_feedback(e)
    e.save_button.click()
    assert e.last_saved is None and "Not saved" in e.status_text
    assert any("move it aside" in err for err in e.errors)
    assert not (mem / "feedback_lint_before_commit.md").exists()
    private = next(o for o in e.forget_choice.options if o and "/" not in o)
    e.forget_choice.value = private
    e.forget_button.click()
    assert e.last_forgotten is None and "Not forgotten" in e.status_text
    assert (mem / private).is_file()
