"""DreamPlanner: gates shown, plan as actions and diff, apply only the approved subset, restore."""

from __future__ import annotations

import dataclasses
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.dream import (
    LOCK_NAME,
    ConsolidationLock,
    ConsolidationPlan,
    PlanAction,
    WriteFile,
    list_dreams,
    plan_consolidation,
)
from memdir_nb.home.config import MemdirConfig
from memdir_nb.storage.index_files import read_entrypoint
from memdir_nb.ui.widgets.dream_planner import DreamPlanner
from tests.conftest import build_forgotten_dir
from tests.support import NOW, snapshot

HOUR_MS = 3_600_000.0


def _sessions(project_dir: Path, n: int, mtime_ms: float) -> None:
    for i in range(n):
        p = project_dir / f"session-{i}.jsonl"
        p.write_text('{"type": "summary"}\n', encoding="utf-8")
        os.utime(p, ns=(int(mtime_ms * 1e6),) * 2)


def _visible(mem: Path) -> dict[str, tuple[Any, ...]]:
    """Every file outside the dot-folders (trash, locks), to compare the memories themselves."""
    return {
        k: v
        for k, v in snapshot(mem).items()
        if not any(part.startswith(".") for part in k.split("/"))
    }


def test_gates_show_sessions_closed_when_too_few_transcripts(
    mem: Path, config: MemdirConfig
) -> None:
    _sessions(mem.parent, 2, NOW - HOUR_MS)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    assert w.gate is not None and not w.gate.open and w.gate.gate == "sessions"
    html = w.gates_html.value
    assert "never consolidated" in html
    assert "2 session(s) since then (needs 5)" in html
    assert "memdir-dream-gate-sessions" in html and "would not run" in html
    assert "memdir-dream-gates" in w.gates_html._dom_classes


def test_gates_open_with_enough_sessions_and_the_lock_is_not_taken(
    mem: Path, config: MemdirConfig
) -> None:
    _sessions(mem.parent, 5, NOW - HOUR_MS)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    assert w.gate is not None
    assert w.gate.open and w.lock_status == "free"
    assert "A dream would run now." in w.gates_html.value
    assert not (mem / LOCK_NAME).exists()  # showing the gates never takes the lock


def test_claude_codes_auto_dream_setting_off_closes_the_gates_of_an_open_dir(
    mem: Path, config: MemdirConfig
) -> None:
    _sessions(mem.parent, 5, NOW - HOUR_MS)
    user = {"autoDreamEnabled": False}
    off = dataclasses.replace(config, settings=dataclasses.replace(config.settings, user=user))
    w = DreamPlanner(mem, now_ms=NOW, config=off)
    assert w.gate is not None and w.gate.open  # the dir's own gates are open
    html = w.gates_html.value
    assert "memdir-dream-gate-setting" in html and "autoDreamEnabled=false in user settings" in html
    assert "would not run" in html


def test_time_gate_closed_after_a_recent_consolidation(mem: Path, config: MemdirConfig) -> None:
    lock = mem / LOCK_NAME
    lock.write_text("", encoding="ascii")
    os.utime(lock, ns=(int((NOW - 3 * HOUR_MS) * 1e6),) * 2)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    assert w.gate is not None
    assert w.gate.gate == "time"
    assert "last consolidation 3.0 h ago (needs 24 h)" in w.gates_html.value


def test_plan_lists_actions_and_writes_nothing(mem: Path, config: MemdirConfig) -> None:
    before = snapshot(mem)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    w.plan_button.click()
    assert w.plan is not None
    kinds = {a.kind for a in w.plan.actions}
    assert {"drop_dangling_index_line", "add_missing_index_line", "fit_index_caps"} <= kinds
    assert w.plan is not None
    assert set(w.action_boxes) == {a.id for a in w.plan.actions}
    assert all("memdir-dream-action" in b._dom_classes for b in w.action_boxes.values())
    assert w.plan is not None
    assert w.approved == {a.id for a in w.plan.actions if a.ops}
    assert "user_old_laptop.md" in w.diff_text and w.diff_text.startswith("--- a/")
    assert not w.apply_button.disabled
    assert snapshot(mem) == before


def test_unticking_an_action_removes_it_from_the_diff(mem: Path, config: MemdirConfig) -> None:
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    w.make_plan()
    assert w.plan is not None
    fit = next(a.id for a in w.plan.actions if a.kind == "fit_index_caps")
    assert "team/MEMORY.md" in w.diff_text
    w.action_boxes[fit].value = False
    assert fit not in w.approved
    assert "team/MEMORY.md" not in w.diff_text


def test_apply_changes_only_the_approved_actions_and_restore_undoes_it(
    mem: Path, config: MemdirConfig
) -> None:
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    w.make_plan()
    team_before = read_entrypoint(mem / "team")
    visible_before = _visible(mem)
    assert w.plan is not None
    dangling = next(a.id for a in w.plan.actions if a.kind == "drop_dangling_index_line")
    w.set_approved({dangling})
    assert w.diff_text.count("+++ ") == 1  # only MEMORY.md
    w.apply_button.click()
    assert w.last_result is not None and w.last_result.changed == ("MEMORY.md",)
    private = read_entrypoint(mem)
    assert "user_old_laptop.md" not in private
    assert "user_colour_vision.md" not in private  # its action was not approved
    assert read_entrypoint(mem / "team") == team_before
    changed = {k for k in _visible(mem) if _visible(mem)[k] != visible_before.get(k)}
    assert changed == {"MEMORY.md"}
    # the apply counts as a consolidation: the lock is released and its mtime closes the time gate
    assert ConsolidationLock(mem).read_state().holder_pid is None
    assert w.gate is not None
    assert w.gate.gate == "time"
    assert w.apply_button.disabled  # a plan applies once
    assert w.dreams == list_dreams(mem) and len(w.dreams) == 1
    assert w.dreams_select.value == w.dreams[0]

    w.restore_button.click()
    assert _visible(mem) == visible_before
    assert "Restored 1 file(s): MEMORY.md" in w.status_text


def test_apply_refused_while_another_process_holds_the_lock(
    mem: Path, config: MemdirConfig
) -> None:
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    w.make_plan()
    before = _visible(mem)
    (mem / LOCK_NAME).write_text("1", encoding="ascii")  # PID 1 is alive, and the lock is fresh
    assert w.apply() is None
    assert "another process is consolidating" in w.status_text
    assert _visible(mem) == before
    assert list_dreams(mem) == []


def test_apply_on_a_stale_plan_changes_nothing_and_keeps_the_time_gate_open(
    mem: Path, config: MemdirConfig
) -> None:
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    w.make_plan()
    (mem / "MEMORY.md").write_text(
        read_entrypoint(mem) + "- [New](new.md) — added meanwhile\n", encoding="utf-8"
    )
    before = _visible(mem)
    assert w.apply() is None
    assert "changed since the plan was made" in w.status_text
    assert _visible(mem) == before
    assert not (mem / LOCK_NAME).exists()  # rolled back: the lock file was absent before


def test_set_approved_rejects_unknown_ids(mem: Path, config: MemdirConfig) -> None:
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    with pytest.raises(ValueError, match="no plan yet"):
        w.set_approved({"x"})
    w.make_plan()
    with pytest.raises(ValueError, match="unknown action id"):
        w.set_approved({"nope"})


def test_restore_with_no_dreams_says_so(mem: Path, config: MemdirConfig) -> None:
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    assert w.restore_button.disabled
    assert w.restore() == []
    assert "no dream has been applied" in w.status_text


def test_restore_with_a_dream_applied_but_none_selected_says_none_is_selected(
    mem: Path, config: MemdirConfig
) -> None:
    # the browser can clear the dreams list (index None); "no dream has been applied" was
    # wrong then, since one had been (security.md §38, §39)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    w.make_plan()
    assert w.plan is not None
    w.set_approved({next(a.id for a in w.plan.actions if a.kind == "drop_dangling_index_line")})
    w.apply_button.click()
    before = _visible(mem)
    w.dreams_select.set_state({"index": None})
    assert w.restore() == []
    assert "no dream is selected; pick one in the list" in w.status_text
    assert _visible(mem) == before


def test_planning_a_missing_dir_reports_the_error(tmp_path: Path, config: MemdirConfig) -> None:
    w = DreamPlanner(tmp_path / "absent", now_ms=NOW, config=config)
    assert w.make_plan() is None
    assert "does not exist" in w.status_text


def test_a_custom_planner_plan_is_shown_with_its_notes_and_applies_the_same_way(
    mem: Path, config: MemdirConfig
) -> None:
    from memdir_nb.dream import ConsolidationPlan, PlanAction, WriteFile

    text = (mem / "MEMORY.md").read_text(encoding="utf-8")

    def planner(root: Path) -> ConsolidationPlan:
        action = PlanAction(
            "claude:MEMORY.md",
            "claude_rewrite",
            "rewrite MEMORY.md",
            ("MEMORY.md",),
            (WriteFile("MEMORY.md", text + "- [X](x.md) — proposed by a model\n"),),
        )
        import hashlib

        return ConsolidationPlan(
            root,
            [action],
            {"MEMORY.md": text},
            {"MEMORY.md": hashlib.sha256(text.encode()).hexdigest()},
            NOW,
            source="claude",
            notes=["refused Bash: 'rm' is not a read-only command"],
        )

    w = DreamPlanner(mem, planner=planner, now_ms=NOW, config=config)
    w.make_plan()
    assert "Plan ready (claude): 1 action(s)" in w.status_text and "refused Bash" in w.status_text
    assert "+- [X](x.md) — proposed by a model" in w.diff_text
    w.apply()
    assert (mem / "MEMORY.md").read_text(encoding="utf-8").endswith("proposed by a model\n")
    w.restore()
    assert (mem / "MEMORY.md").read_text(encoding="utf-8") == text


def test_a_plan_keeps_its_derived_work_under_the_configs_cache_root_never_in_the_dir(
    mem: Path, config: MemdirConfig, tmp_path: Path
) -> None:
    """The first plan after a kernel restart reuses what an earlier kernel derived, as recall
    reuses its vectors; the file lives under the cache root and the memory dir is untouched."""
    config = dataclasses.replace(config, cache_dir=str(tmp_path / "cache"))
    before = snapshot(mem)
    first = DreamPlanner(mem, now_ms=NOW, config=config)
    first.plan_button.click()
    assert (tmp_path / "cache" / "dream-plan.json").is_file()
    again = DreamPlanner(mem, now_ms=NOW, config=config)
    again.plan_button.click()
    assert first.plan is not None and again.plan is not None
    assert [a.id for a in again.plan.actions] == [a.id for a in first.plan.actions]
    assert again.diff_text == first.diff_text
    assert snapshot(mem) == before


def test_applying_a_plan_that_renames_a_linked_memory_says_which_links_it_left(
    real_dir: Callable[[str], Path], config: MemdirConfig
) -> None:
    # lefts36: the apply's status said what changed, never the links the rename left
    mem = real_dir("linked-by-name")
    kiln = mem / "project_kiln_schedule.md"

    def planner(root: Path) -> ConsolidationPlan:
        plan = plan_consolidation(root, now_ms=NOW)
        new = kiln.read_text().replace("name: firing-calendar", "name: kiln-days")
        plan.snapshot[kiln.name] = kiln.read_text()
        plan.hashes[kiln.name] = hashlib.sha256(kiln.read_bytes()).hexdigest()
        plan.actions = [PlanAction("me", "r", "x", (kiln.name,), (WriteFile(kiln.name, new),))]
        return plan

    w = DreamPlanner(mem, now_ms=NOW, config=config, planner=planner)
    w.make_plan()
    w.apply_button.click()
    assert w.last_result is not None and w.last_result.changed == (kiln.name,)
    assert "Note: 2 memories still link project_kiln_schedule.md, now named 'kiln-days'," in (
        w.status_text
    )


def test_a_cache_root_inside_the_planned_dir_plans_without_the_cache_and_says_so(
    mem: Path, config: MemdirConfig
) -> None:
    """A home kept inside the dir being planned puts the default cache root there, which the
    planner must not write; the plan is the same without its cache, so it is made and the
    status says why the cache was not used (it said only "Planning failed" before)."""
    config = dataclasses.replace(config, cache_dir=str(mem / "claude-home" / ".cache"))
    before = snapshot(mem)
    planner = DreamPlanner(mem, now_ms=NOW, config=config)
    planner.plan_button.click()
    assert planner.plan is not None, planner.status_text
    assert "the plan's cache was not used" in planner.status_text
    assert "where memory lives" in planner.status_text
    assert snapshot(mem) == before


def test_restore_by_name_puts_a_forgotten_memory_back(tmp_path: Path, config: MemdirConfig) -> None:
    mem = build_forgotten_dir(tmp_path)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    assert w.restore("kiln.md") == ["kiln.md"]
    assert w.status_text == "Restored 1 file(s): kiln.md."
    assert "the new kiln controller" in (mem / "kiln.md").read_text()
    assert "(kiln.md)" in (mem / "MEMORY.md").read_text()


def test_the_restore_list_offers_forgotten_memories_with_a_preview_before_restoring(
    tmp_path: Path, config: MemdirConfig
) -> None:
    mem = build_forgotten_dir(tmp_path)
    w = DreamPlanner(mem, now_ms=NOW, config=config)
    assert w.forgotten == ["team/glaze.md", "kiln.md"]
    assert list(w.dreams_select.options) == [
        ("team/glaze.md (forgotten)", "team/glaze.md"),
        ("kiln.md (forgotten)", "kiln.md"),
    ]
    assert not w.restore_button.disabled
    before = _visible(mem)
    assert w.restore_preview == "Restoring team/glaze.md would put back 1 file(s): team/glaze.md."
    w.dreams_select.value = "kiln.md"
    assert "kiln.md would put back 1 file(s): kiln.md" in w.restore_preview_html.value
    assert _visible(mem) == before  # the preview wrote nothing
    w.restore_button.click()
    assert w.status_text == "Restored 1 file(s): kiln.md."
    assert (mem / "kiln.md").is_file()
    w.dreams_select.value = "kiln.md"  # its older copy is still there: the preview says why not
    assert w.restore_preview.startswith(
        "kiln.md cannot be restored: cannot restore kiln.md: a file"
    )
    w.dreams_select.set_state({"index": None})
    assert w.restore() == []
    assert "no dream or forgotten memory is selected" in w.status_text
