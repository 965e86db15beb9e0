"""dream/plan, actions and apply: the offline plan, applying it and restoring it."""

from __future__ import annotations

# --------------------------------------------------------------------------- plan / apply / restore
import datetime as dt
import hashlib
import json
import os
import random
import sys
import time
from collections.abc import Callable
from concurrent import futures
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from memdir_nb.clock import system_clock_ms
from memdir_nb.dream import (
    ConsolidationPlan,
    PlanError,
    PlanStaleError,
    RestoreError,
    apply_plan,
    compare,
    convert_relative_dates,
    list_dreams,
    plan_consolidation,
    restore,
)
from memdir_nb.dream import actions as actions_module
from memdir_nb.dream import index_repairs as index_repairs_module
from memdir_nb.dream.actions import IndexFit, PlanAction, WriteFile
from memdir_nb.dream.apply import list_trash_batches
from memdir_nb.dream.kept import BlockResults
from memdir_nb.spec.constants import MAX_INDEX_LINE_CHARS
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.write_errors import NotUTF8Error
from tests.conftest import CITED_INDEX_LINES, MOVED_CITED_LINE
from tests.support import snapshot, write_memory
from tests.support.benchmarks import load_benchmark
from tests.support.calls import count_calls
from tests.support.cpu_growth import growth_ratio
from tests.support.long_paths import padded_path, path_bytes

PLAN_NOW = dt.datetime(2026, 3, 28, 12, 0).timestamp() * 1000
DAY = 86_400_000.0


def _tree(project_memdir: Path) -> dict[str, tuple[Any, ...]]:
    """The memories themselves: everything outside the dot-folders (trash, locks)."""
    return snapshot(project_memdir, ignore=(), skip_dot_paths=True)


def _the_merge(plan: ConsolidationPlan) -> PlanAction:
    """The plan's one merge_duplicates action (the test fails when it has none, or more)."""
    (merge,) = [a for a in plan.actions if a.kind == "merge_duplicates"]
    return merge


def _append(path: Path, text: str) -> None:
    """Add text at the end of a memory file."""
    path.write_text(path.read_text(encoding="utf-8") + text, encoding="utf-8")


@pytest.fixture()
def messy(project_memdir: Path) -> Path:
    write_memory(
        project_memdir,
        "feedback_testing.md",
        name="Integration tests hit a real database",
        description="integration tests must use a real database, not mocks",
        type="feedback",
        body="Integration tests must hit a real database, not mocks.\nWhy: mocked tests passed while the migration failed.",
        age_days=1,
        now_ms=PLAN_NOW,
    )
    write_memory(
        project_memdir,
        "feedback_testing_db.md",
        name="Integration tests hit a real database",
        description="integration tests must use a real database, not mocks",
        type="feedback",
        body="Integration tests must hit a real database, not mocks.\nHow to apply: use the docker compose db.",
        age_days=20,
        now_ms=PLAN_NOW,
    )
    write_memory(
        project_memdir,
        "project_freeze.md",
        name="Merge freeze",
        description="mobile release freeze",
        type="project",
        body="Merge freeze starts next Thursday; decided yesterday.\n```\necho yesterday\n```",
        age_days=0,
        now_ms=PLAN_NOW,
    )
    write_memory(
        project_memdir,
        "user_role.md",
        name="User role",
        description="data scientist new to the frontend",
        type="user",
        body="Ten years of Python, first week with React.",
        age_days=3,
        now_ms=PLAN_NOW,
    )
    write_memory(
        project_memdir,
        "reference_dashboard.md",
        name="Grafana board",
        description="where the latency dashboard lives",
        type="reference",
        body="grafana.internal/d/api-latency is what on-call watches.",
        age_days=5,
        now_ms=PLAN_NOW,
    )
    long_hook = "the mobile team freezes merges for the release; " * 6
    (project_memdir / "MEMORY.md").write_text(
        "- [Integration tests hit a real database](feedback_testing.md) — real db, no mocks\n"
        "- [Integration tests hit a real database](feedback_testing_db.md) — real db, no mocks\n"
        f"- [Merge freeze](project_freeze.md) — {long_hook}\n"
        "- [Grafana board](reference_dashboard.md) — latency dashboard\n"
        "- [Old deploy notes](project_deploy_old.md) — deleted long ago\n",
        encoding="utf-8",
    )
    return project_memdir


def test_relative_dates_become_absolute_against_the_file_date_outside_code() -> None:
    base = dt.date(2026, 3, 28)  # a Saturday
    text, changes = convert_relative_dates(
        "Decided yesterday; ship in 3 days, review last week, freeze next Thursday, `today` stays.\n```\ntoday\n```",
        base,
    )
    assert text.startswith(
        "Decided 2026-03-27; ship 2026-03-31, review the week of 2026-03-16, freeze 2026-04-02,"
    )
    assert "`today` stays" in text and text.endswith("```\ntoday\n```")
    assert len(changes) == 4


def test_only_project_memories_get_absolute_dates(project_memdir: Path) -> None:
    # The project type's guidance asks for absolute dates; in feedback, "today" is the present.
    hypothetical = 'Ask: "if I wrote this series from scratch today, would it exist?"'
    for kind, body in (
        ("feedback", "If I wrote this series from scratch today, would this commit exist?"),
        ("user", "Works from Lisbon; moved there last month."),
        ("project", f"### The Problem Today\n{hypothetical}\nThe freeze starts tomorrow."),
    ):
        write_memory(
            project_memdir,
            f"{kind}_note.md",
            name=f"{kind} note",
            description=f"a {kind} note",
            type=kind,
            body=body,
            age_days=1,
            now_ms=PLAN_NOW,
        )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    dates = [a for a in plan.actions if a.kind == "absolute_dates"]
    assert [a.files for a in dates] == [("project_note.md",)]
    assert dates[0].summary == "project_note.md: 'tomorrow' -> '2026-03-28'"


def test_a_plan_diff_splits_lines_where_the_loader_does_as_every_file_diff(
    project_memdir: Path,
) -> None:
    # lefts38: DreamPlan.diff kept its own difflib call over str.splitlines, which also breaks
    # at a form feed and U+2028: a line the loader reads as one was shown as two removed lines
    # the file does not have. It is formats.file_diff's diff now, as rebuild-index and import's.
    write_memory(
        project_memdir,
        "project_note.md",
        name="Freeze note",
        description="when the freeze starts",
        type="project",
        body="The freeze starts tomorrow.\x0cSee page two.\u2028Ask Ana.",
        age_days=1,
        now_ms=PLAN_NOW,
    )
    diff = plan_consolidation(project_memdir, now_ms=PLAN_NOW).diff()
    old = "The freeze starts tomorrow.\x0cSee page two.\u2028Ask Ana.\n"
    assert "\n-" + old in diff and "\n+" + old.replace("tomorrow", "2026-03-28") in diff, diff
    assert "\n-See page two." not in diff and "\n-Ask Ana." not in diff


def test_a_checkout_s_tied_times_drop_project_pointers_lowest_first_and_no_heading_is_left_empty(
    project_memdir: Path,
) -> None:
    # A git checkout gives every file one mtime: the file name must not decide which of the
    # person's standing rules lose their pointer.
    lines = ["# Memory"]
    for i in range(60):
        name = f"feedback_rule_{i:02d}.md"
        write_memory(
            project_memdir,
            name,
            name=f"Rule {i}",
            description=f"rule {i}",
            type="feedback",
            now_ms=PLAN_NOW,
        )
        lines += [f"## Rule {i}", f"- [Rule {i}]({name}) — rule {i}", ""]
    lines.append("## Projects")
    for i in range(45):
        name = f"project_item_{i:02d}.md"
        write_memory(
            project_memdir,
            name,
            name=f"Item {i}",
            description=f"item {i}",
            type="project",
            now_ms=PLAN_NOW,
        )
        lines.append(f"- [Item {i}]({name}) — item {i}")
    (project_memdir / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    fit = next(a for a in plan.actions if a.kind == "fit_index_caps")
    fitted = plan.result()["MEMORY.md"] or ""
    assert all(f"feedback_rule_{i:02d}.md" in fitted for i in range(60))
    dropped = [
        f"project_item_{i:02d}.md" for i in range(45) if f"project_item_{i:02d}.md" not in fitted
    ]
    assert dropped == [f"project_item_{i:02d}.md" for i in range(45 - len(dropped), 45)]  # lowest
    assert dropped and "project and reference pointers go before feedback" in fit.summary
    kept = fitted.rstrip("\n").split("\n")
    assert len(kept) <= 200 and kept.count("## Projects") == 1


def test_a_missing_index_line_for_a_file_without_a_description_is_hooked_by_its_heading(
    project_memdir: Path,
) -> None:
    # The same hook rebuild-index writes (index.heading_hook), not "(no description)".
    (project_memdir / "landing_plan.md").write_text(
        "# Landing page: **sections** and [copy](copy.md)\n\nHero, pricing, FAQ.\n",
        encoding="utf-8",
    )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    add = next(a for a in plan.actions if a.id.endswith(":landing_plan.md"))
    line = (plan.result()["MEMORY.md"] or "").split("landing_plan.md")[1].split("\n")[0]
    assert add.kind == "add_missing_index_line" and "Landing page: sections and copy" in line


def test_plan_is_a_dry_run_listing_every_kind_of_fix(messy: Path) -> None:
    before = _tree(messy)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    assert _tree(messy) == before and not (messy / ".trash").exists()
    kinds = {a.kind: a for a in plan.actions}
    assert set(kinds) >= {
        "merge_duplicates",
        "absolute_dates",
        "drop_dangling_index_line",
        "add_missing_index_line",
        "shorten_index_line",
    }
    merge = kinds["merge_duplicates"]
    assert merge.files[:2] == (
        "feedback_testing.md",
        "feedback_testing_db.md",
    )  # the newest absorbs the older
    assert "project_freeze.md" in kinds["absolute_dates"].files
    assert "project_deploy_old.md" in kinds["drop_dangling_index_line"].summary
    assert kinds["add_missing_index_line"].files == ("MEMORY.md", "user_role.md")
    diff = plan.diff()
    assert "--- a/feedback_testing_db.md\n+++ /dev/null" in diff
    assert "+Merge freeze starts 2026-04-02; decided 2026-03-27." in diff
    assert "-- [Old deploy notes](project_deploy_old.md)" in diff
    assert "+- [User role](user_role.md)" in diff
    assert "+How to apply: use the docker compose db." in diff


def test_apply_all_then_restore_brings_every_file_back(messy: Path) -> None:
    before = _tree(messy)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    expected = plan.result()
    result = apply_plan(plan)
    assert result.trashed == ("feedback_testing_db.md",)
    assert not (messy / "feedback_testing_db.md").exists()
    trashed = messy / ".trash" / result.batch / "feedback_testing_db.md"
    assert trashed.read_bytes() == before["feedback_testing_db.md"][1]
    for rel, text in expected.items():
        assert (
            (messy / rel).read_text(encoding="utf-8") == text
            if text is not None
            else not (messy / rel).exists()
        )
    index_text = (messy / "MEMORY.md").read_text(encoding="utf-8")
    assert "project_deploy_old.md" not in index_text and "feedback_testing_db.md" not in index_text
    assert all(len(line) <= 200 for line in index_text.split("\n"))
    assert list_dreams(messy) == [result.batch]
    restored = restore(messy, result.batch)
    assert set(restored) == set(expected)
    assert _tree(messy) == before
    with pytest.raises(RestoreError, match="already restored"):
        restore(messy, result.batch)


def test_a_plan_applied_again_after_its_restore_gets_a_batch_of_its_own(messy: Path) -> None:
    # a fixed clock, the same process and the same result repeat the batch name: the second
    # batch takes the next free suffix, and the first (restored) is kept as it was
    # (the clock is passed: two applies a second apart on a loaded host would stamp two names)
    first = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW, clock=lambda: PLAN_NOW))
    restore(messy, first.batch)
    kept = snapshot(messy / ".trash" / first.batch)
    second = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW, clock=lambda: PLAN_NOW))
    third_plan = plan_consolidation(messy, now_ms=PLAN_NOW, clock=lambda: PLAN_NOW)
    assert second.batch == f"{first.batch}-2" and not third_plan.actions
    assert snapshot(messy / ".trash" / first.batch) == kept
    assert list_dreams(messy) == [first.batch, second.batch]


def test_apply_changes_only_the_approved_actions(messy: Path) -> None:
    before = _tree(messy)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    dates = next(a for a in plan.actions if a.kind == "absolute_dates")
    result = apply_plan(plan, approve=[dates.id])
    after = _tree(messy)
    assert result.changed == ("project_freeze.md",) and result.trashed == ()
    assert {k for k in before if before[k] != after.get(k)} == {"project_freeze.md"}
    assert "2026-03-27" in after["project_freeze.md"][1].decode()


def test_plan_applied_twice_is_refused(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    apply_plan(plan)
    snapshot = _tree(messy)
    with pytest.raises(PlanError, match="already applied"):
        apply_plan(plan)
    plan.applied = False  # even a copy that forgot it was applied is caught by the hashes
    with pytest.raises(PlanStaleError, match="changed since the plan was made"):
        apply_plan(plan)
    assert _tree(messy) == snapshot


def test_plan_refused_when_a_file_changed_underneath_and_names_it(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    before = _tree(messy)
    (messy / "feedback_testing_db.md").write_text("edited by the user meanwhile\n")
    (messy / "MEMORY.md").unlink()
    with pytest.raises(PlanStaleError) as err:
        apply_plan(plan)
    assert "feedback_testing_db.md (modified)" in str(err.value) and "MEMORY.md (deleted)" in str(
        err.value
    )
    after = _tree(messy)
    assert after["feedback_testing.md"] == before["feedback_testing.md"]
    assert not (messy / ".trash").exists()


def _saves_by_rename(path: Path, text: str) -> Callable[[str], None]:
    """A crash hook: once the step has journaled its write of `path`, a person's editor saves
    `text` there by renaming a new file over it (as vim and most editors do)."""
    done: list[bool] = []

    def hook(point: str) -> None:
        if point == f"write:{path.name}:journaled" and not done:
            done.append(True)
            (path.parent / f".{path.name}.swp").write_text(text)
            os.replace(path.parent / f".{path.name}.swp", path)

    return hook


def test_apply_refuses_to_rewrite_a_memory_that_is_not_utf8_and_changes_nothing(
    tmp_path: Path,
) -> None:
    # the plan read a Latin-1 memory with its bad bytes replaced, so applying its date fix wrote
    # U+FFFD over the person's "é" in the name, the description and the body, though the diff
    # showed only the date (the old bytes only in .trash/); the store's edits refuse (fresh30)
    mem = tmp_path / "memory"
    mem.mkdir()
    latin1 = (
        b"---\nname: Caf\xe9 rule\ndescription: caf\xe9 deploys\ntype: project\n---\n\n"
        b"Yesterday we moved the caf\xe9 deploy to Friday.\n"
    )
    (mem / "project_cafe.md").write_bytes(latin1)
    (mem / "MEMORY.md").write_text("- [Cafe](project_cafe.md) — cafe\n", "utf-8")
    plan = plan_consolidation(mem, now_ms=system_clock_ms())
    assert any("project_cafe.md" in a.files for a in plan.actions)

    with pytest.raises(NotUTF8Error, match="project_cafe.md is not valid UTF-8 text"):
        apply_plan(plan)

    assert (mem / "project_cafe.md").read_bytes() == latin1
    assert not (mem / ".trash").exists() or not any((mem / ".trash").iterdir())


def test_apply_keeps_a_file_a_person_saved_after_the_plans_check(messy: Path) -> None:
    # the apply checked every file against the plan, kept a copy of feedback_testing.md in the
    # trash, then a person saved it: the merged text went over that save, which was lost
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    assert plan.result().get("feedback_testing.md") is not None  # the merge rewrites it
    target = messy / "feedback_testing.md"
    store = MemoryStore(messy, crash_hook=_saves_by_rename(target, "saved by hand meanwhile\n"))
    with pytest.raises(ValueError, match="feedback_testing.md was changed by another program"):
        apply_plan(plan, store=store)
    assert target.read_text() == "saved by hand meanwhile\n"
    assert (messy / "feedback_testing_db.md").exists()  # the step was rolled back whole


def test_restore_keeps_a_file_a_person_saved_after_its_check(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    result = apply_plan(plan)
    target = messy / "feedback_testing.md"
    store = MemoryStore(messy, crash_hook=_saves_by_rename(target, "saved by hand meanwhile\n"))
    with pytest.raises(ValueError, match="feedback_testing.md was changed by another program"):
        restore(messy, result.batch, store=store)
    assert target.read_text() == "saved by hand meanwhile\n"


def test_unknown_approved_action_is_refused_and_nothing_changes(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    before = _tree(messy)
    with pytest.raises(PlanError, match="not in this plan"):
        apply_plan(plan, approve=["merge:nope.md"])
    assert _tree(messy) == before


def test_contradicting_memories_are_flagged_not_changed(project_memdir: Path) -> None:
    write_memory(
        project_memdir,
        "feedback_tabs.md",
        name="Indent Go with tabs",
        description="use tabs to indent Go code",
        type="feedback",
        body="Use tabs to indent Go code in this repo.",
        now_ms=PLAN_NOW,
    )
    write_memory(
        project_memdir,
        "feedback_spaces.md",
        name="Go indentation",
        description="never use tabs to indent Go code",
        type="feedback",
        body="Never use tabs to indent Go code here; spaces only.",
        now_ms=PLAN_NOW,
    )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    flags = [a for a in plan.actions if a.kind == "flag_contradiction"]
    assert len(flags) == 1 and set(flags[0].files) == {"feedback_tabs.md", "feedback_spaces.md"}
    assert flags[0].ops == ()
    assert not any(a.kind == "merge_duplicates" for a in plan.actions)


def test_numbered_runs_of_one_template_are_not_merged(project_memdir: Path) -> None:
    # Shaped after a published agent dir: one record per simulation run, written from one
    # template, each with its own chain id and work dir.
    for run, chain in (("r2", "5249cae6"), ("r3", "c2a94ebb")):
        write_memory(
            project_memdir,
            f"project_{run}_chain.md",
            name=f"project-{run}-equil-chain",
            description=(
                f"{run.upper()} atactic polymer equilibration: 9-stage glassy chain, PCFF, "
                f"temp=550 K, chain_id={chain}; engine=kokkos, gpu_ids=1, mpi=1"
            ),
            type="project",
            body=(
                f"{run.upper()} polymer equilibration submitted.\n\n"
                "**Key params:** temp=550 K, max_temp=630 K, engine=kokkos, gpu_ids=1.\n\n"
                f"**chain_id:** {chain}\n**work_dir:** data/{run}/equil/\n\n"
                "**Why:** glassy polymer, so the 9-stage chain is needed.\n"
                f"**How to apply:** when re-running {run}, use temp=550 K."
            ),
            now_ms=PLAN_NOW,
        )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert not any(a.kind == "merge_duplicates" for a in plan.actions)
    text = (project_memdir / "project_r2_chain.md").read_text(encoding="utf-8")
    (project_memdir / "project_r2_chain_again.md").write_text(
        text.replace("submitted.", "submitted (recorded twice)."), encoding="utf-8"
    )  # the same run's record written twice is still merged
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    merge = _the_merge(plan)
    assert "project_r3_chain.md" not in merge.files


def test_the_plan_drops_dangling_link_lines_only_never_prose_naming_a_file(
    project_memdir: Path,
) -> None:
    write_memory(
        project_memdir,
        "project_ship.md",
        name="Release process",
        description="tags, never Friday",
        now_ms=PLAN_NOW,
    )
    (project_memdir / "MEMORY.md").write_text(
        "- [Release process](project_ship.md) — tags, never Friday\n"
        "- [Old plan](project_old_plan.md) — the file was deleted\n"
        "1. Read `docs/SPEC.md`\n"
        "### [Venue list](venues.md)\n"
        "**Description**: a block under its heading\n",
        encoding="utf-8",
    )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    drops = [a for a in plan.actions if a.kind == "drop_dangling_index_line"]
    assert [a.id for a in drops] == ["unindex:MEMORY.md:project_old_plan.md"]


def test_a_folder_of_agent_memory_dirs_is_refused_with_nothing_written(
    real_dir: Callable[[str], Path],
) -> None:
    # Planned on a published .claude/agent-memory/, a merge across two agents' records removed
    # a line from a top-level MEMORY.md that did not exist (the agent's own line was left
    # dangling) and, applied, wrote that empty index.
    parent = real_dir("agent-memory-parent")
    before = snapshot(parent, ignore=())
    with pytest.raises(PlanError, match="folder of memory dirs.*pass agent-memory/<name>"):
        plan_consolidation(parent, now_ms=PLAN_NOW)
    assert snapshot(parent, ignore=()) == before
    plan_consolidation(parent / "reviewer", now_ms=PLAN_NOW)  # each agent's dir plans as before


def test_the_plan_adds_no_line_for_a_file_the_index_names_besides_an_entry(
    real_dir: Callable[[str], Path],
) -> None:
    plan = plan_consolidation(real_dir("names-besides-entries"), now_ms=PLAN_NOW)
    assert not [a for a in plan.actions if "index" in a.kind]


def test_lines_written_from_the_repository_root_are_not_dangling(
    real_dir: Callable[[str], Path],
) -> None:
    mem = real_dir("repo-root-targets")  # memory/MEMORY.md lists `memory/SOUL.md`, memory/JOE.md
    plan = plan_consolidation(mem, now_ms=PLAN_NOW)
    kinds = {
        (a.kind, a.files[-1] if a.kind == "add_missing_index_line" else a.id) for a in plan.actions
    }
    assert kinds == {
        ("drop_dangling_index_line", "unindex:MEMORY.md:memory/GONE.md"),
        ("add_missing_index_line", "NOTES.md"),
    }
    after = plan.result()["MEMORY.md"] or ""
    assert "- [Joe](memory/JOE.md) \u2014 profile" in after and after.count("SOUL.md") == 1


def test_a_dangling_line_whose_file_moved_into_a_sub_folder_is_repointed_as_written(
    project_memdir: Path,
) -> None:
    write_memory(
        project_memdir, "ops/project_cache.md", name="Cache", description="d", now_ms=PLAN_NOW
    )
    written = "* **[Build cache](./project_cache.md)** \u2014 where the runners keep it (my words)"
    (project_memdir / "MEMORY.md").write_text(f"# Index\n\n{written}\n", encoding="utf-8")
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert [a.kind for a in plan.actions] == ["repoint_index_line"]
    assert "a memory of that name is at ops/project_cache.md" in plan.actions[0].summary
    apply_plan(plan)
    assert (project_memdir / "MEMORY.md").read_text(encoding="utf-8") == (
        "# Index\n\n* **[Build cache](ops/project_cache.md)** \u2014 where the runners keep it (my words)\n"
    )
    assert plan_consolidation(project_memdir, now_ms=PLAN_NOW).actions == []


def test_a_dangling_line_is_dropped_when_its_name_is_ambiguous_or_already_listed(
    project_memdir: Path,
) -> None:
    topics = {
        "a/project_x.md": "kiln firing",
        "b/project_x.md": "tax filing",
        "c/project_y.md": "bus routes",
    }
    for rel, topic in topics.items():
        write_memory(
            project_memdir,
            rel,
            name=topic,
            description=f"all about {topic}",
            body=topic,
            now_ms=PLAN_NOW,
        )
    (project_memdir / "MEMORY.md").write_text(
        "- [X](project_x.md) \u2014 two files have that name\n"
        "- [Y](c/project_y.md) \u2014 listed\n"
        "- [Y again](project_y.md) \u2014 a stale copy of the line above\n"
        "- [A](a/project_x.md) \u2014 a\n- [B](b/project_x.md) \u2014 b\n",
        encoding="utf-8",
    )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert sorted(a.id for a in plan.actions) == [
        "unindex:MEMORY.md:project_x.md",
        "unindex:MEMORY.md:project_y.md",
    ]


def test_a_non_ascii_index_under_the_cap_in_utf16_units_is_not_cut_down(
    project_memdir: Path,
) -> None:
    # Claude Code holds MEMORY.md to 25,000 UTF-16 code units, not UTF-8 bytes: a Cyrillic
    # index of 150 pointers and 12 more to add is about 29 KB in UTF-8 and 17,500 units. It
    # loads whole, so the plan adds the 12 lines and shortens or drops nothing.
    lines = ["# Память проекта", ""]
    for i in range(162):
        name = f"feedback_rule_{i:03d}.md"
        write_memory(
            project_memdir,
            name,
            name=f"Правило {i}",
            description=f"правило сборки {i}",
            type="feedback",
            now_ms=PLAN_NOW,
        )
        if i < 150:
            lines.append(
                f"- [Правило {i:03d}]({name}) — правило сборки и проверки номер {i}, "
                "короткое пояснение к нему и к его причине"
            )
    (project_memdir / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    kinds = [a.kind for a in plan.actions]
    assert "fit_index_caps" not in kinds and kinds.count("add_missing_index_line") == 12
    fitted = plan.result()["MEMORY.md"] or ""
    assert len(fitted.encode()) > 25_000 > len(fitted)
    assert all(line in fitted for line in lines)  # every hook kept as written


def test_the_plan_adds_no_index_line_its_own_fit_drops_and_a_second_dream_has_none_to_add(
    real_dir: Callable[[str], Path],
) -> None:
    """real39: an index kept as a notebook (notes under headings) near its 200-line cap, and
    memories without a line. The plan proposed a line for each, and its fit_index_caps step then
    dropped the pointers to the oldest memories, those new lines first: a second dream proposed
    the same 65 lines again and kept 3. A line the fit drops is no line to add."""
    root = real_dir("notes-index-near-cap")
    plan = plan_consolidation(root)
    fitted = plan.result()["MEMORY.md"] or ""
    adds = [a.files[1] for a in plan.actions if a.kind == "add_missing_index_line"]
    assert adds and all(f"({rel})" in fitted for rel in adds), adds
    assert any("7 memories without a line in MEMORY.md get none" in n for n in plan.notes)
    assert "(project_glaze_49.md)" not in fitted and "(project_glaze_21.md)" in fitted
    kept = fitted.rstrip("\n").split("\n")
    assert len(kept) <= 200 and all(
        f"- batch {k} note 3: cone 6, slow cool" in kept for k in range(30)
    )
    apply_plan(plan)
    again = plan_consolidation(root)
    assert [a.kind for a in again.actions if a.files[0] == "MEMORY.md"] == []


def test_the_adds_a_fit_drops_are_left_out_without_comparing_each_add_with_each_dropped_one(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """plan39b: the adds the fit drops were taken out with `a not in left`, a dataclass __eq__
    for each add and each dropped one (940,000 calls on the 2,000-file bench dir, about 180 ms
    of a first plan). They are left out by place: the same adds, and no action is compared."""
    root = real_dir("notes-index-near-cap")
    expected = plan_consolidation(root)

    def compared(self: PlanAction, other: object) -> bool:
        raise AssertionError(f"{self.id} compared with another action")

    monkeypatch.setattr(PlanAction, "__eq__", compared)
    plan = plan_consolidation(root)
    assert [a.id for a in plan.actions] == [a.id for a in expected.actions]
    assert plan.notes == expected.notes
    assert any("7 memories without a line in MEMORY.md get none" in n for n in plan.notes)


def test_an_index_over_its_caps_is_simulated_once_per_fit_and_planned_as_before(
    real_dir: Callable[[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """plan39b: the text the fit leaves was found by simulating every action on the index again
    with the fit; without a Relink on the index it is the fit applied to the text the first
    simulation gave. Two simulations for the index (the fit, and the fit again over the adds
    kept), not three; the same actions and notes as the full simulation gives."""
    root = real_dir("notes-index-near-cap")
    calls = count_calls(monkeypatch, actions_module, "_simulate")
    plan = plan_consolidation(root)
    assert len(calls) == 2
    # every op taken for a Relink: the full simulation, as before
    monkeypatch.setattr(index_repairs_module, "Relink", object)
    full = plan_consolidation(root)
    assert len(calls) == 2 + 3
    assert [a.id for a in plan.actions] == [a.id for a in full.actions]
    assert plan.notes == full.notes and plan.result() == full.result()


def test_a_fit_that_keeps_every_added_line_is_not_simulated_again(
    project_memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """plan40: the fit was made again over the adds it kept, a second simulation of the index,
    also when it kept them all (the same actions: the same fit). Over the line cap by old
    pointers, with the newest memory unlisted: one simulation, and the fit's counts are those
    of the index the other actions leave."""
    for i in range(205):
        write_memory(
            project_memdir,
            f"project_note_{i:03d}.md",
            name=f"Note {i}",
            description=f"topic number {i}",
            type="project",
            body=f"body {i}",
            age_days=10 + i,
            now_ms=PLAN_NOW,
        )
    write_memory(
        project_memdir,
        "feedback_newest.md",
        name="Newest",
        description="the newest rule",
        type="feedback",
        body="body",
        age_days=0,
        now_ms=PLAN_NOW,
    )
    lines = [f"- [Note {i}](project_note_{i:03d}.md) \u2014 topic number {i}" for i in range(205)]
    (project_memdir / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    calls = count_calls(monkeypatch, actions_module, "_simulate")
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert len(calls) == 1
    kinds = [a.kind for a in plan.actions if a.files[0] == "MEMORY.md"]
    assert kinds == ["add_missing_index_line", "fit_index_caps"]
    fit = plan.actions[-1]
    before = plan.result([a for a in plan.actions if a is not fit])["MEMORY.md"] or ""
    n_lines = len(before.rstrip("\n").split("\n"))
    assert f"would be {n_lines} lines / {len(before)} bytes" in fit.summary
    fitted = plan.result()["MEMORY.md"] or ""
    assert "(feedback_newest.md)" in fitted and "(project_note_204.md)" not in fitted
    assert not any("without a line" in n for n in plan.notes)


def test_the_fit_made_again_over_the_kept_adds_keeps_the_first_fits_order(
    project_memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """plan40: the fit made again over the adds the first one kept sorted every memory of the
    index again, on the same files and lines: it takes the first fit's order. Over the line
    cap by its own lines, with the three oldest memories unlisted (the fit drops their lines
    first): one sort, and the fit keeps the line and byte counts of the index without them."""
    for i in range(208):
        listed = i < 205
        write_memory(
            project_memdir,
            f"project_note_{i:03d}.md",
            name=f"Note {i}",
            description=f"topic number {i}",
            type="project",
            body=f"body {i}",
            age_days=10 + i if listed else 500 + i,
            now_ms=PLAN_NOW,
        )
    lines = [f"- [Note {i}](project_note_{i:03d}.md) \u2014 topic number {i}" for i in range(205)]
    (project_memdir / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    calls = count_calls(monkeypatch, index_repairs_module, "_fit_order")
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert len(calls) == 1
    assert any("3 memories without a line in MEMORY.md get none" in n for n in plan.notes)
    fit = plan.actions[-1]
    assert fit.kind == "fit_index_caps"
    assert [a.kind for a in plan.actions if a.files[0] == "MEMORY.md"] == ["fit_index_caps"]
    before = (project_memdir / "MEMORY.md").read_text(encoding="utf-8")
    assert f"would be 205 lines / {len(before)} bytes" in fit.summary
    (op,) = fit.ops
    assert isinstance(op, IndexFit) and op.order[:4] == (
        "project_note_207.md",
        "project_note_206.md",
        "project_note_205.md",
        "project_note_204.md",
    )


def test_index_over_both_caps_is_brought_back_under_them(project_memdir: Path) -> None:

    rng = random.Random(7)
    vocab = [
        f"{a}{b}"
        for a in ("ka", "lo", "mi", "nu", "pe", "ro", "su", "ti", "va", "ze")
        for b in ("bar", "cor", "dun", "fel", "gim", "hox", "jup", "kel", "mor", "nix")
    ]
    lines = []
    for i in range(230):
        words = rng.sample(vocab, 8)
        write_memory(
            project_memdir,
            f"project_note_{i:03d}.md",
            name=" ".join(words[:3]),
            description=" ".join(words[3:6]),
            type="project",
            body=" ".join(rng.sample(vocab, 12)),
            age_days=i,
            now_ms=PLAN_NOW,
        )
        lines.append(f"- [Note {i}](project_note_{i:03d}.md) — topic number {i} " + "q" * 120)
    (project_memdir / "MEMORY.md").write_text("\n".join(lines) + "\n")
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    assert any(a.kind == "fit_index_caps" for a in plan.actions)
    result = apply_plan(plan)
    text = (project_memdir / "MEMORY.md").read_text(encoding="utf-8")
    # the written index is under both caps, but near one: the result carries the reminder
    verdict = result.index_verdicts["MEMORY.md"]
    assert not verdict.over and verdict.near, verdict
    assert result.index_messages == [f"MEMORY.md: {verdict.message}"]
    assert len(text.rstrip("\n").split("\n")) <= 200 and len(text.encode()) <= 25_000
    assert (
        "project_note_000.md" in text and "project_note_229.md" not in text
    )  # the oldest pointers go
    assert (project_memdir / "project_note_229.md").exists()  # files are never removed by fitting


def test_restore_single_file_and_refuse_when_it_was_edited_after(messy: Path) -> None:
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    original = (messy / "feedback_testing_db.md").read_bytes()
    apply_plan(plan)
    assert restore(messy, "feedback_testing_db.md") == ["feedback_testing_db.md"]
    assert (messy / "feedback_testing_db.md").read_bytes() == original
    (messy / "project_freeze.md").write_text("user edit after the dream\n")
    with pytest.raises(RestoreError, match="project_freeze.md changed after dream-"):
        restore(messy, "project_freeze.md")
    assert (messy / "project_freeze.md").read_text() == "user edit after the dream\n"
    with pytest.raises(RestoreError, match="nothing named"):
        restore(messy, "never_existed.md")


def test_plan_of_missing_dir_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(PlanError, match="does not exist"):
        plan_consolidation(tmp_path / "nope")


def test_a_plan_applies_with_its_own_clock(messy: Path) -> None:
    fixed = dt.datetime(2026, 3, 30, 9, 0, 0, tzinfo=dt.UTC).timestamp() * 1000
    plan = plan_consolidation(messy, now_ms=PLAN_NOW, clock=lambda: fixed)
    result = apply_plan(plan)
    assert result.batch.startswith("dream-20260330T090000Z-")  # UTC, whatever the local zone
    manifest = json.loads((messy / ".trash" / result.batch / "manifest.json").read_text())
    assert manifest["created_ms"] == fixed


def test_two_plans_on_one_fixed_clock_get_distinct_batches(messy: Path) -> None:
    clock = lambda: PLAN_NOW  # noqa: E731
    first = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW, clock=clock))
    (messy / "project_extra.md").write_text(
        "---\nname: Extra\ndescription: An extra note about the freeze\ntype: project\n---\n\nShip yesterday.\n"
    )
    second = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW, clock=clock))
    assert first.batch != second.batch


# --------------------------------------------------------------------------- scaling (issue 10)


from rapidfuzz import fuzz  # noqa: E402

from memdir_nb.dream import (  # noqa: E402
    CONTRADICTION_THRESHOLD,
    DUPLICATE_BODY_THRESHOLD,
    DUPLICATE_HEAD_THRESHOLD,
)
from memdir_nb.dream.actions import _split_front  # noqa: E402
from memdir_nb.dream.compare import _NEGATION  # noqa: E402
from memdir_nb.formats.frontmatter import parse_frontmatter  # noqa: E402


def _corpus_module() -> ModuleType:
    return load_benchmark("whole_dir_corpus")


# One memory as the all-pairs reference reads it: (rel, name, description, type, body).
_RefMemory = tuple[str, str, str, str, str]


def _all_pairs_reference(root: Path) -> tuple[set[frozenset[str]], set[tuple[str, ...]]]:
    """Near-duplicate groups and contradiction pairs by comparing every pair (the old loop)."""
    mems = _reference_memories(root)
    dup_groups = _reference_duplicate_groups(mems)
    merged: set[str] = set().union(*dup_groups) if dup_groups else set()
    return dup_groups, _reference_contradictions(mems, merged)


def _reference_memories(root: Path) -> list[_RefMemory]:
    mems = []
    for path in sorted(root.rglob("*.md")):
        rel = path.relative_to(root).as_posix()
        if rel.endswith("MEMORY.md"):
            continue
        text = path.read_text(encoding="utf-8")
        fm, _ = parse_frontmatter(text)
        body = _split_front(text)[1]
        mems.append((rel, fm.name or path.stem, fm.description or "", str(fm.type or ""), body))
    return mems


def _reference_duplicate_groups(mems: list[_RefMemory]) -> set[frozenset[str]]:
    """Every pair of one scope and type whose heads and bodies are near-duplicates, unioned."""
    parent: dict[str, str] = {m[0]: m[0] for m in mems}

    def find(x: str) -> str:
        while parent[x] != x:
            x = parent[x]
        return x

    for i, a in enumerate(mems):
        for b in mems[i + 1 :]:
            if a[0].startswith("team/") != b[0].startswith("team/") or a[3] != b[3]:
                continue
            if bool(_NEGATION.search(a[2])) != bool(_NEGATION.search(b[2])):
                continue
            head = fuzz.token_sort_ratio(f"{a[1]} {a[2]}".lower(), f"{b[1]} {b[2]}".lower())
            if (
                head >= DUPLICATE_HEAD_THRESHOLD
                and fuzz.token_set_ratio(a[4].lower(), b[4].lower()) >= DUPLICATE_BODY_THRESHOLD
            ):
                parent[find(a[0])] = find(b[0])
    groups: dict[str, set[str]] = {}
    for rel in parent:
        groups.setdefault(find(rel), set()).add(rel)
    return {frozenset(g) for g in groups.values() if len(g) > 1}


def _reference_contradictions(mems: list[_RefMemory], merged: set[str]) -> set[tuple[str, ...]]:
    """Every pair of one type, not both merged, where one negates what the other says."""
    flags = set()
    for i, a in enumerate(mems):
        for b in mems[i + 1 :]:
            if (a[0] in merged and b[0] in merged) or a[3] != b[3]:
                continue
            ta, tb = f"{a[2]} {a[4]}", f"{b[2]} {b[4]}"
            if bool(_NEGATION.search(ta)) == bool(_NEGATION.search(tb)):
                continue
            sa, sb = _NEGATION.sub(" ", ta).lower(), _NEGATION.sub(" ", tb).lower()
            if fuzz.token_set_ratio(sa, sb) >= CONTRADICTION_THRESHOLD:
                flags.add(tuple(sorted((a[0], b[0]))))
    return flags


def _corpus_dir(tmp_path: Path) -> tuple[ModuleType, Path]:
    """The bench corpus module and a 400-file dir of it (both kinds of pair occur in it)."""
    corpus = _corpus_module()
    root = tmp_path / "memory"
    root.mkdir()
    corpus.build_dir(root, 400, seed=5)
    return corpus, root


def test_blocked_planning_finds_what_comparing_every_pair_finds(tmp_path: Path) -> None:
    corpus, root = _corpus_dir(tmp_path)
    plan = plan_consolidation(root, now_ms=corpus.NOW_MS)
    groups = {frozenset(a.files[:-1]) for a in plan.actions if a.kind == "merge_duplicates"}
    flags = {tuple(sorted(a.files)) for a in plan.actions if a.kind == "flag_contradiction"}
    want_groups, want_flags = _all_pairs_reference(root)
    assert want_groups and want_flags  # the corpus has both kinds
    assert groups == want_groups
    assert flags == want_flags


@pytest.mark.parametrize("join", ["matrices", "postings"])
def test_every_shortcut_on_still_finds_what_comparing_every_pair_finds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, join: str
) -> None:
    # A 400-file dir is below the sizes where batching, the head bound and the matrix join
    # start: turned on here (and the posting probe forced), the plan must still be the
    # all-pairs one.
    from memdir_nb.dream import compare
    from memdir_nb.spec import similarity

    corpus, root = _corpus_dir(tmp_path)
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 0)
    monkeypatch.setattr(similarity, "DENSE_MIN_PAIRS", 0)
    if join == "postings":
        monkeypatch.setattr(similarity, "DENSE_MAX_COST", -1)
    plan = plan_consolidation(root, now_ms=corpus.NOW_MS)
    groups = {frozenset(a.files[:-1]) for a in plan.actions if a.kind == "merge_duplicates"}
    flags = {tuple(sorted(a.files)) for a in plan.actions if a.kind == "flag_contradiction"}
    assert (groups, flags) == _all_pairs_reference(root)


def test_planning_pauses_the_cycle_collector_only_while_it_runs(messy: Path) -> None:
    import gc

    assert gc.isenabled()
    plan_consolidation(messy, now_ms=PLAN_NOW)
    assert gc.isenabled()
    with pytest.raises(PlanError, match="does not exist"):
        plan_consolidation(messy / "nope", now_ms=PLAN_NOW)
    assert gc.isenabled()  # back on after a refused dir too
    gc.disable()
    try:
        plan_consolidation(messy, now_ms=PLAN_NOW)
        assert not gc.isenabled()  # a caller's choice to keep it off is kept
    finally:
        gc.enable()


def test_merge_groups_come_in_the_order_of_their_first_file(tmp_path: Path) -> None:
    corpus = _corpus_module()
    root = tmp_path / "memory"
    root.mkdir()
    corpus.build_dir(root, 300, seed=9)
    first = [plan_consolidation(root, now_ms=corpus.NOW_MS).actions for _ in range(2)]
    assert [a.id for a in first[0]] == [a.id for a in first[1]]


def test_a_plan_action_refuses_an_untyped_operation() -> None:
    from memdir_nb.dream import PlanAction, WriteFile

    with pytest.raises(PlanError, match="ops must be WriteFile"):
        PlanAction("x", "write", "rewrite", ("a.md",), (("write", "a.md", "text"),))  # type: ignore[arg-type]
    assert PlanAction("x", "write", "rewrite", ("a.md",), (WriteFile("a.md", "t"),)).ops


@pytest.mark.parametrize(
    "files",
    [
        {"feedback_testing_db.md": 5},
        {"feedback_testing_db.md": {"after_sha": None}},
        {"feedback_testing_db.md": {"before": "yes", "after_sha": None}},
        {"feedback_testing_db.md": {"before": True, "after_sha": 7}},
        {"feedback_testing_db.md": {"before": False}},  # attack round 22: a KeyError traceback
    ],
    ids=["entry-not-object", "no-before", "before-not-bool", "sha-not-text", "no-sha"],
)
def test_restore_from_a_manifest_of_the_wrong_shape_is_a_clear_refusal(
    messy: Path, files: dict[str, Any]
) -> None:
    result = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW))
    manifest = messy / ".trash" / result.batch / "manifest.json"
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["files"] = files
    manifest.write_text(json.dumps(data), encoding="utf-8")
    before = _tree(messy)
    with pytest.raises(RestoreError, match="manifest.json is unreadable.*copy its files back"):
        restore(messy, result.batch)
    assert _tree(messy) == before


def _plan_with_contradictions(
    root: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> tuple[ConsolidationPlan, list[str]]:
    """The plan, with its contradiction step run `way` ("here", "thread" or "fork"); and which
    ways it actually ran (a thread and a fork are recorded as they start)."""
    from memdir_nb import machine

    ran: list[str] = []
    real_beside, real_pool = machine.beside_this_process, ThreadPoolExecutor

    def forking(work: Any) -> Any:
        ran.append("fork")
        return real_beside(work)

    def threading_pool(n: int, **kwargs: Any) -> Any:
        ran.append("thread")
        return real_pool(n, **kwargs)

    monkeypatch.setattr(compare, "fork_pays", lambda n, least: way == "fork")
    monkeypatch.setattr(compare, "beside_this_process", forking)
    monkeypatch.setattr(futures, "ThreadPoolExecutor", threading_pool)
    monkeypatch.setattr(compare, "usable_cpus", lambda: 1 if way == "here" else 2)
    monkeypatch.setattr(compare, "_BATCH_MIN_PAIRS", 0)  # the 400-file dir has fewer candidates
    monkeypatch.setattr(compare, "_CONTRADICTION_BLOCKS", BlockResults())  # nothing kept
    return plan_consolidation(root, now_ms=_corpus_module().NOW_MS), ran


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="forks on Linux only")
@pytest.mark.parametrize("way", ["thread", "fork"])
def test_contradictions_found_beside_the_plan_are_the_ones_found_in_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, way: str
) -> None:
    # A large dir's contradictions are scored on a thread, or found in a forked child, while
    # this process plans the rest; the plan (every action, in order, and its diff) is the same.
    _, root = _corpus_dir(tmp_path)
    here, ran_here = _plan_with_contradictions(root, monkeypatch, "here")
    beside, ran = _plan_with_contradictions(root, monkeypatch, way)
    assert (ran_here, ran) == ([], [way])
    assert any(a.kind == "flag_contradiction" for a in here.actions)
    assert beside.actions == here.actions
    assert beside.diff() == here.diff()


def test_plan_adds_no_line_for_a_file_an_agent_folder_indexes_itself(
    real_dir: Callable[[str], Path],
) -> None:
    # the one answer lint and rebuild-index give: planner/MEMORY.md indexes planner's file
    parent = real_dir("agent-beside-index")
    plan = plan_consolidation(parent, now_ms=PLAN_NOW)
    added = [a.files for a in plan.actions if a.kind == "add_missing_index_line"]
    # lefts38b (real38): builder/ has no index yet; its file's line goes to the one the builder
    # loads, created there, never re-pointed from the root's index, which no agent loads
    assert added == [("builder/MEMORY.md", "builder/reference_cache_host.md")]
    after = plan.result()
    assert "builder/" not in (after["MEMORY.md"] or "") and "planner/" not in (
        after["MEMORY.md"] or ""
    )
    assert (after["builder/MEMORY.md"] or "").startswith("- [Cache host](reference_cache_host.md)")
    applied = apply_plan(plan)
    assert (parent / "builder" / "MEMORY.md").is_file()
    restore(parent, applied.batch)  # the index the dream created goes again
    assert not (parent / "builder" / "MEMORY.md").exists()


def test_plan_gives_an_agents_new_index_the_persons_line_from_the_root(
    real_dir: Callable[[str], Path],
) -> None:
    # lefts38c: the line the dream adds to the index it creates is the root's, re-pointed, not
    # one generated from the description (the root's line, dangling, goes to the trash)
    parent = real_dir("agent-beside-index")
    plan = plan_consolidation(parent, now_ms=PLAN_NOW)
    after = plan.result()
    assert (
        after["builder/MEMORY.md"] == "- [Cache host](reference_cache_host.md) \u2014 runner pool\n"
    )
    apply_plan(plan)
    assert (parent / "builder" / "MEMORY.md").read_text() == after["builder/MEMORY.md"]


def test_plan_adds_an_agents_missing_line_to_the_agents_own_index(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35a: as lint and rebuild-index: planner's unlisted file gets its line in
    # planner/MEMORY.md, the index Claude Code loads for the planner, not in the root's
    parent = real_dir("agent-root-unlisted")
    plan = plan_consolidation(parent, now_ms=PLAN_NOW)
    added = [a for a in plan.actions if a.kind == "add_missing_index_line"]
    assert [a.files for a in added] == [("planner/MEMORY.md", "planner/project_freeze_window.md")]
    result = plan.result()
    assert "MEMORY.md" not in result
    assert "- [Freeze window](project_freeze_window.md)" in (result["planner/MEMORY.md"] or "")
    before = (parent / "planner" / "MEMORY.md").read_text()
    applied = apply_plan(plan)
    text = (parent / "planner" / "MEMORY.md").read_text()
    assert "(project_release_train.md)" in text and "(project_freeze_window.md)" in text
    assert "freeze" not in (parent / "MEMORY.md").read_text()
    restore(parent, applied.batch)  # the agent's index is put back as the root's would be
    assert (parent / "planner" / "MEMORY.md").read_text() == before


def test_a_merge_drops_the_trashed_copys_line_from_the_agents_own_index(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35a: the merge removed the copy's line from the root's index only, leaving the line
    # in planner/MEMORY.md, the one the planner loads, pointing at a file sent to the trash
    parent = real_dir("agent-root-unlisted")
    train = parent / "planner" / "project_release_train.md"
    copy = train.with_name("project_release_train_copy.md")
    copy.write_text(train.read_text())
    os.utime(copy, (train.stat().st_mtime - 60, train.stat().st_mtime - 60))
    agent_index = parent / "planner" / "MEMORY.md"
    agent_index.write_text(
        agent_index.read_text() + "- [Release train](project_release_train_copy.md) \u2014 copy\n"
    )
    plan = plan_consolidation(parent, now_ms=PLAN_NOW)
    merge = _the_merge(plan)
    assert merge.files[:2] == (
        "planner/project_release_train.md",
        copy.relative_to(parent).as_posix(),
    )
    assert "planner/MEMORY.md" in merge.files
    after = plan.result()["planner/MEMORY.md"] or ""
    assert "(project_release_train.md)" in after and "_copy.md" not in after


def test_a_merge_never_joins_two_agents_folders_but_still_joins_one_agents_copies(
    real_dir: Callable[[str], Path],
) -> None:
    # lefts36: the same memory in planner/ and reviewer/ at an agent memory root was merged
    # into one, moving the reviewer's memory into the planner's folder (out of its prompt)
    parent = real_dir("agent-root-unlisted")
    train = parent / "planner" / "project_release_train.md"
    other = parent / "reviewer" / train.name
    other.parent.mkdir()
    other.write_text(train.read_text())
    (parent / "reviewer" / "MEMORY.md").write_text(f"- [Release train]({train.name}) \u2014 t\n")
    os.utime(other, (train.stat().st_mtime - 60, train.stat().st_mtime - 60))
    plan = plan_consolidation(parent, now_ms=PLAN_NOW)
    assert [a for a in plan.actions if a.kind == "merge_duplicates"] == []
    copy = train.with_name("project_release_train_copy.md")  # one agent's copies still merge
    copy.write_text(train.read_text())
    os.utime(copy, (train.stat().st_mtime - 90, train.stat().st_mtime - 90))
    plan = plan_consolidation(parent, now_ms=PLAN_NOW)
    merge = _the_merge(plan)
    assert merge.files[:2] == ("planner/project_release_train.md", "planner/" + copy.name)
    assert not any(f.startswith("reviewer/") for f in merge.files)


def test_a_hand_built_plan_that_renames_a_linked_memory_names_the_links_it_leaves(
    real_dir: Callable[[str], Path],
) -> None:
    # lefts36: a PlanAction built through the public API with a WriteFile that changes a
    # `name:`, or writes the memory under a new file name and retires the old, left other
    # memories' links naming nothing with no word (Claude's plans and the extractor said so)
    from memdir_nb.dream import PlanAction, TrashFile

    mem = real_dir("linked-by-name")
    kiln = mem / "project_kiln_schedule.md"
    text = kiln.read_text()
    plan = plan_consolidation(mem, now_ms=PLAN_NOW)
    new = text.replace("name: firing-calendar", "name: kiln-days")
    plan.actions = [PlanAction("me", "rename", "x", (kiln.name,), (WriteFile(kiln.name, new),))]
    plan.snapshot[kiln.name], plan.hashes[kiln.name] = text, _sha_of(kiln)
    (note,) = apply_plan(plan).link_notes
    assert note.startswith("2 memories still link project_kiln_schedule.md, now named 'kiln-days',")
    assert "feedback_glaze.md ([[firing-calendar]] -> [[kiln-days]])" in note
    assert "reference_shelf.md ([[Firing-Calendar]] -> [[kiln-days]])" in note
    assert "user_potter.md" not in note  # its [[kiln-schedule]] still finds the memory
    assert "[[firing-calendar]]" in (mem / "feedback_glaze.md").read_text()  # left as written

    # a rename by file name: the same `name:` under a new file; only the stem's link is left
    plan = plan_consolidation(mem, now_ms=PLAN_NOW)
    moved = "project_kiln_days.md"
    ops = (WriteFile(moved, new), TrashFile(kiln.name))
    plan.actions = [PlanAction("me", "move", "x", (kiln.name, moved), ops)]
    plan.snapshot[kiln.name], plan.hashes[kiln.name] = new, _sha_of(kiln)
    plan.snapshot[moved] = plan.hashes[moved] = None
    (note,) = apply_plan(plan).link_notes
    assert note.startswith("1 memory still links project_kiln_schedule.md, which this plan retires")
    assert "user_potter.md ([[kiln-schedule]] -> [[kiln-days]])" in note
    # a plan that renames nothing anyone links is quiet
    plan = plan_consolidation(mem, now_ms=PLAN_NOW)
    shelf = mem / "reference_shelf.md"
    quiet = shelf.read_text().replace("name: reference_shelf", "name: shelf-map")
    plan.actions = [PlanAction("me", "r", "x", (shelf.name,), (WriteFile(shelf.name, quiet),))]
    plan.snapshot[shelf.name], plan.hashes[shelf.name] = shelf.read_text(), _sha_of(shelf)
    assert apply_plan(plan).link_notes == ()


def _sha_of(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_apply_refuses_a_planned_write_to_a_name_the_gate_refuses(messy: Path) -> None:
    from memdir_nb.dream import PlanAction, WriteFile

    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    plan.actions.append(PlanAction("dev", "write", "x", ("con.md",), (WriteFile("con.md", "t"),)))
    before = _tree(messy)
    with pytest.raises(PlanError, match="Windows device name CON.*nothing was written"):
        apply_plan(plan)
    assert _tree(messy) == before


def test_restore_refuses_to_put_back_a_file_whose_name_the_gate_refuses(messy: Path) -> None:
    result = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW))
    batch = messy / ".trash" / result.batch
    data = json.loads((batch / "manifest.json").read_text(encoding="utf-8"))
    data["files"]["nul.md"] = {"before": True, "after_sha": None}
    (batch / "manifest.json").write_text(json.dumps(data), encoding="utf-8")
    (batch / "nul.md").write_text("planted", encoding="utf-8")
    before = _tree(messy)
    with pytest.raises(RestoreError, match="Windows device name NUL.*back by hand"):
        restore(messy, result.batch)
    assert _tree(messy) == before


def test_a_batch_the_contained_reader_refuses_is_that_batchs_refusal_not_the_listings(
    messy: Path, tmp_path: Path
) -> None:
    # a batch folder linking out of the dir stopped `memdir-nb restore DIR` at that batch
    good = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW)).batch
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "manifest.json").write_text('{"files": {}}', encoding="utf-8")
    bad = "memory-tool-20990101T000000-1-abcdef"
    (messy / ".trash" / bad).symlink_to(outside)
    with pytest.raises(RestoreError, match="manifest.json cannot be read.*by hand"):
        restore(messy, bad, dry_run=True)
    files = restore(messy, good, dry_run=True)
    assert files and restore(messy, files[0], dry_run=True) == files[:1]  # found past the bad one


@pytest.mark.parametrize("restored", [["user_a.md"], 5, "user_a.md"])
def test_a_manifest_whose_restored_record_is_not_an_object_is_that_batchs_refusal(
    messy: Path, restored: object
) -> None:
    # attack round 14: only `files` was checked, so `"restored": 5` (or a list) ended
    # `memdir-nb restore DIR` (the listing) and restoring that batch in a TypeError or
    # AttributeError traceback, and a string answered "already restored" by substring
    good = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW)).batch
    bad = "memory-tool-20990101T000000-1-abcdef"
    (messy / ".trash" / bad).mkdir()
    manifest = {"files": {"user_a.md": {"before": False, "after_sha": None}}, "restored": restored}
    (messy / ".trash" / bad / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    before = sorted(p.name for p in messy.iterdir())
    for dry_run in (True, False):
        with pytest.raises(RestoreError, match="restored is not an object.*by hand"):
            restore(messy, bad, dry_run=dry_run)
    assert sorted(p.name for p in messy.iterdir()) == before
    assert restore(messy, good, dry_run=True)  # the other batches are still listed and restorable


def _same_head_memories(memory_dir: Path, bodies: list[str]) -> None:
    for i, body in enumerate(bodies):
        write_memory(
            memory_dir,
            f"deploy_{'abcdefgh'[i]}.md",
            name="deploy notes",
            description="how we deploy the service to production",
            body=body,
            now_ms=PLAN_NOW - i * 1000.0,
        )


def _timed_plan(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tag: str, bodies: list[str]
) -> Callable[[], ConsolidationPlan]:
    """A dir of alike memories with these bodies, and a plan of it whose every run compares
    again: the blocks' comparisons are kept between plans (dream.kept), so each run starts
    with none kept, as a first plan in a process does."""
    memory_dir = tmp_path / f"{tag}-{len(list(tmp_path.iterdir()))}" / "project" / "memory"
    memory_dir.mkdir(parents=True)
    _same_head_memories(memory_dir, bodies)

    def run() -> ConsolidationPlan:
        monkeypatch.setattr(compare, "_DUPLICATE_BLOCKS", BlockResults())
        monkeypatch.setattr(compare, "_CONTRADICTION_BLOCKS", BlockResults())
        return plan_consolidation(memory_dir, now_ms=PLAN_NOW)

    return run


def test_long_bodies_of_alike_memories_are_compared_on_a_bounded_prefix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # three 200 KB bodies of distinct words under one head: each pair's score took 6 s. The
    # plan of three 25 KB bodies against three 200 KB ones: bounded, the larger took 1.2 times
    # the CPU here; each body compared whole, 62 times (3.4 s).
    def plan_of(n_words: int) -> Callable[[], ConsolidationPlan]:
        words = random.Random(7)
        bodies = [" ".join(f"w{words.getrandbits(40):x}" for _ in range(n_words)) for _ in range(3)]
        return _timed_plan(tmp_path, monkeypatch, f"bodies-{n_words}", bodies)

    assert growth_ratio(plan_of, 2_000, 16_000) < 20
    plan = plan_of(16_000)()
    assert not any(a.kind == "merge_duplicates" for a in plan.actions)


def test_merging_two_long_near_duplicates_is_bounded_and_keeps_every_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same words, each line's two swapped: near-duplicates, every line new to the other
    # (4,000 lines took 22 s: each line was scored against every kept line). 500 lines against
    # 4,000: bounded, the larger took 3 times the CPU here; every line scored, 46 times.
    def plan_of(n: int) -> Callable[[], ConsolidationPlan]:
        bodies = [
            "\n".join(f"t{2 * i} t{2 * i + 1}" for i in range(n)),
            "\n".join(f"t{2 * i + 1} t{2 * i}" for i in range(n)),
        ]
        return _timed_plan(tmp_path, monkeypatch, f"lines-{n}", bodies)

    n = 4_000
    assert growth_ratio(plan_of, n // 8, n) < 20
    plan = plan_of(n)()
    merge = next(a for a in plan.actions if a.kind == "merge_duplicates")
    written = next(op for op in merge.ops if isinstance(op, WriteFile))
    kept = set(written.text.split("\n"))
    assert {f"t{2 * i + 1} t{2 * i}" for i in range(n)} <= kept  # nothing written is lost
    assert {f"t{2 * i} t{2 * i + 1}" for i in range(n)} <= kept


def test_a_trash_folder_that_is_a_symlink_is_refused_not_listed(
    messy: Path, tmp_path: Path
) -> None:
    # the listing followed a .trash linking to another folder and showed that folder's batch names
    elsewhere = tmp_path / "elsewhere"
    (elsewhere / "dream-20990101T000000-1-abcdef").mkdir(parents=True)
    (elsewhere / "dream-20990101T000000-1-abcdef" / "manifest.json").write_text('{"files": {}}')
    (messy / ".trash").symlink_to(elsewhere)
    with pytest.raises(RestoreError, match=r"\.trash is not a folder of the memory dir's own"):
        list_trash_batches(messy)
    with pytest.raises(RestoreError, match="move it aside"):
        restore(messy, "dream-20990101T000000-1-abcdef", dry_run=True)


def test_apply_refuses_a_trash_folder_linking_to_another_folder_of_the_dir(messy: Path) -> None:
    # attack round 30: with `.trash -> archive`, apply put the merged-away memory in
    # archive/dream-*/, where scan and recall list it as a live memory again, and restore
    # refused that trash (a symlink), so the batch could not be brought back
    (messy / "archive").mkdir()
    (messy / ".trash").symlink_to("archive", target_is_directory=True)
    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    assert plan.actions
    before = snapshot(messy)  # archive/ is inside it
    with pytest.raises(PathTraversalError, match="not a folder of the memory dir's own"):
        apply_plan(plan)
    assert snapshot(messy) == before


def test_a_trash_batch_that_cannot_be_looked_at_is_left_out_and_the_rest_listed(
    tmp_path: Path,
) -> None:
    # Each batch's manifest was tested with pathlib's is_file, which raises for a path past
    # PATH_MAX (for another user, a batch folder they cannot enter): the whole listing, and
    # restore with it, ended in "File name too long" though the other batches were fine
    memory = padded_path(tmp_path, 3830, "m")
    trash = memory / ".trash"
    kept = trash / "dream-20990101T000000-1-abcdef"
    kept.mkdir(parents=True)
    (kept / "manifest.json").write_text('{"files": {}}')
    edge = trash / ("dream-20990102T000000-1-" + "f" * (4090 - path_bytes(trash) - 25))
    edge.mkdir()
    assert path_bytes(edge) < 4096 <= path_bytes(edge / "manifest.json")
    assert list_trash_batches(memory) == [kept.name]


def test_a_link_to_a_memory_is_one_memory_not_a_duplicate_of_it(tmp_path: Path) -> None:
    # attack round 18: a symlink beside its target was read as a second memory with the same
    # text, so the two were "near-duplicates": the plan kept the link (it sorted first) and
    # trashed the file it leads to, leaving the memory only in the trash behind a dead link
    target = write_memory(
        tmp_path, "user_tabs.md", name="Tabs", description="the user prefers tabs",
        type="user", body="The user prefers tabs over spaces. " * 4, now_ms=PLAN_NOW,
    )  # fmt: skip
    (tmp_path / "0_tabs.md").symlink_to("user_tabs.md")
    before = target.read_text()
    plan = plan_consolidation(tmp_path, now_ms=PLAN_NOW)
    assert not [a for a in plan.actions if a.kind == "merge_duplicates"]
    assert "0_tabs.md is another name of user_tabs.md" in " ".join(plan.notes)
    apply_plan(plan)
    assert target.read_text() == before and (tmp_path / "0_tabs.md").read_text() == before


def test_a_merge_drops_the_heading_it_emptied_never_one_a_person_left_empty(
    project_memdir: Path,
) -> None:
    body = (
        "Deploys go out by tag from main; never on a Friday.\n\n"
        "**Why:** a Friday deploy broke billing twice.\n"
        "**How to apply:** tag from main, Monday to Thursday."
    )
    for filename, age in (("project_deploys.md", 1.0), ("project_deploys_again.md", 9.0)):
        write_memory(
            project_memdir,
            filename,
            name="Deploy rules",
            description="deploys go out by tag, never on a Friday",
            body=body,
            age_days=age,
            now_ms=PLAN_NOW,
        )
    (project_memdir / "MEMORY.md").write_text(
        "# Memory\n\n## Deploys\n- [Deploy rules](project_deploys.md) — by tag, never Friday\n\n"
        "## Old notes\n- [Deploy rules again](project_deploys_again.md) — the same\n\n"
        "## Later\n\n## Gone\n- [Old plan](project_old_plan.md) — the file was deleted\n",
        encoding="utf-8",
    )
    plan = plan_consolidation(project_memdir, now_ms=PLAN_NOW)
    merge = _the_merge(plan)
    assert merge.id == "merge:project_deploys.md"
    kept = "# Memory\n\n## Deploys\n- [Deploy rules](project_deploys.md) — by tag, never Friday\n\n"
    gone = "## Gone\n- [Old plan](project_old_plan.md) — the file was deleted\n"
    assert plan.result([merge])["MEMORY.md"] == kept + "## Later\n\n" + gone
    (drop,) = [a for a in plan.actions if a.kind == "drop_dangling_index_line"]
    assert plan.result([merge, drop])["MEMORY.md"] == kept + "## Later\n"


def test_a_merge_points_the_links_to_the_merged_away_memory_at_the_one_that_absorbed_it(
    real_dir: Callable[[str], Path],
) -> None:
    # realdata32: Claude Code's memory prompt asks for `[[name]]` links between memories and
    # reads one that matches no memory as a memory still to be written. A merge that trashed
    # `kiln-schedule` left every link to it naming nothing, so a later session would write the
    # merged-away memory again.
    root = real_dir("wikilinked")
    before = _tree(root)
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    merge = _the_merge(plan)
    assert merge.id == "merge:project_kiln_firing.md"
    assert "5 [[name]] link(s) to them in feedback_short_answers.md, reference_glaze_sheet.md" in (
        merge.summary
    )
    assert {"feedback_short_answers.md", "reference_glaze_sheet.md"} <= set(merge.files)
    result = plan.result([merge])
    sheet, answers = result["reference_glaze_sheet.md"], result["feedback_short_answers.md"]
    assert sheet is not None and answers is not None
    # by the slug, with a label and in the header's related list; a link to a memory not yet
    # written, and one to a memory that stays, are left as they were
    assert '    - "[[kiln-firing]]"\n' in sheet
    assert "slow cool of [[kiln-firing]]; tenmoku too ([[kiln-firing|the firing notes]])" in sheet
    assert "[[clay-supplier]]" in sheet and "kiln-schedule" not in sheet
    # by the file's stem, and by the stem with hyphens: the absorbing file's, in the same form
    assert "quote [[project_kiln_firing]] and [[glaze-sheet#cone 6]] (cooling:" in answers
    assert "(cooling: [[project-kiln-firing]])." in answers
    applied = apply_plan(plan, approve=[merge])
    assert set(applied.changed) == {
        "MEMORY.md", "reference_glaze_sheet.md", "feedback_short_answers.md",
    }  # fmt: skip
    assert (root / "reference_glaze_sheet.md").read_text(encoding="utf-8") == sheet
    restore(root, applied.batch)
    assert _tree(root) == before


def test_a_merge_points_a_link_by_the_stem_without_its_type_too(
    real_dir: Callable[[str], Path],
) -> None:
    # thirty-third session: a published dir links `[[no-fabrication]]` for
    # feedback_no-fabrication.md; here `[[kiln_schedule]]` for project_kiln_schedule.md
    answers = _answers_after_the_merge(real_dir("wikilinked"), "\nSee also [[kiln_schedule]].\n")
    assert "See also [[kiln_firing]]." in answers and "kiln_schedule" not in answers


def _answers_after_the_merge(root: Path, extra: str) -> str:
    """feedback_short_answers.md, with extra appended, as the plan's one merge leaves it."""
    _append(root / "feedback_short_answers.md", extra)
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    merge = _the_merge(plan)
    answers = plan.result([merge])["feedback_short_answers.md"]
    assert answers is not None
    return answers


def test_a_merge_points_a_link_in_other_capitals_too(
    real_dir: Callable[[str], Path],
) -> None:
    # attack34: `[[Kiln-Schedule]]` finds kiln-schedule (links compare case-folded and in NFC,
    # formats.wikilinks.link_key), but the merge pointed only exact names, so it was left
    # naming the merged-away memory, read as a memory still to write
    answers = _answers_after_the_merge(
        real_dir("wikilinked"), "\nSee [[Kiln-Schedule]] and [[KILN_SCHEDULE]].\n"
    )
    assert "See [[kiln-firing]] and [[kiln_firing]]." in answers


def test_a_merge_points_a_link_in_other_capitals_and_leaves_brackets_in_code(
    real_dir: Callable[[str], Path],
) -> None:
    # links34: lint finds a memory by a link in any capitals and skips `[[` in code; the relink
    # did the opposite, so after a merge lint called `[[Kiln-Schedule]]` dangling while the
    # code span naming the merged-away memory was rewritten
    extra = "\nCooling: [[Kiln-Schedule]]; the search `grep '[[kiln-schedule]]'` lists them.\n"
    answers = _answers_after_the_merge(real_dir("wikilinked"), extra)
    assert "Cooling: [[kiln-firing]]; the search `grep '[[kiln-schedule]]'` lists them." in answers


@pytest.mark.parametrize("name", ["kiln|firing", "kiln#firing"])
def test_a_merge_points_links_by_the_stem_when_the_absorbing_name_cannot_be_a_link(
    real_dir: Callable[[str], Path], name: str
) -> None:
    # attack36: the absorbing memory's `name: kiln|firing` was written into the links, and
    # `[[kiln|firing]]` is a link to `kiln` labelled `firing`, a memory that is not there
    root = real_dir("wikilinked")
    keep = root / "project_kiln_firing.md"
    keep.write_text(keep.read_text(encoding="utf-8").replace("name: kiln-firing", f"name: {name}"))
    answers = _answers_after_the_merge(root, "\nCooling: [[kiln-schedule]].\n")
    assert "Cooling: [[project_kiln_firing]]." in answers
    assert f"[[{name}]]" not in answers


def test_a_markdown_link_pointed_at_a_file_named_with_spaces_stays_a_link(
    real_dir: Callable[[str], Path],
) -> None:
    # attack36: the absorbing file `project kiln (firing).md` was written into the link bare,
    # `[the schedule](project kiln (firing).md)`, which no Markdown reader takes for a link
    root = real_dir("wikilinked")
    (root / "project_kiln_firing.md").rename(root / "project kiln (firing).md")
    answers = _answers_after_the_merge(
        root, "\nCooling: [the schedule](project_kiln_schedule.md).\n"
    )
    assert "Cooling: [the schedule](<project kiln (firing).md>)." in answers


def test_a_merge_points_a_percent_escaped_link_to_the_merged_away_file(
    real_dir: Callable[[str], Path],
) -> None:
    # polish36: `[the schedule](project%20kiln%20schedule.md)` names `project kiln schedule.md`
    # for a Markdown reader, but the merge read it as a file of that name, not there, and left
    # it pointing at the file it put in .trash/
    root = real_dir("wikilinked")
    (root / "project_kiln_schedule.md").rename(root / "project kiln schedule.md")
    answers = _answers_after_the_merge(
        root, "\nCooling: [the schedule](project%20kiln%20schedule.md).\n"
    )
    assert "Cooling: [the schedule](project_kiln_firing.md)." in answers


def test_a_merge_points_markdown_links_to_the_merged_away_file_at_the_one_that_absorbed_it(
    real_dir: Callable[[str], Path],
) -> None:
    # keep35: the merge pointed `[[name]]` links only; `[the schedule](project_kiln_schedule.md)`
    # in another memory was left naming a file in .trash/, silently (lint does not read
    # Markdown links). Now it is pointed in the plan (its text, `#part` and title kept), shown in
    # the diff and the summary, its old text kept in the dream's trash batch.
    root = real_dir("wikilinked")
    _append(
        root / "feedback_short_answers.md",
        '\nCooling: [the schedule](project_kiln_schedule.md#cooling "slow"), '
        "[again](./project_kiln_schedule.md), `[code](project_kiln_schedule.md)`, "
        "[the newer one](project_kiln_firing.md).\n",
    )
    (root / "team").mkdir()
    team_note = root / "team" / "reference_studio.md"
    team_note.write_text(
        "---\nname: studio\ndescription: the studio\ntype: reference\n---\n\n"
        "Firing: [kiln](../project_kiln_schedule.md).\n",
        encoding="utf-8",
    )
    before = _tree(root)

    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    merge = _the_merge(plan)

    assert "3 Markdown link(s) to them in" in merge.summary
    assert {"feedback_short_answers.md", "team/reference_studio.md"} <= set(merge.files)
    result = plan.result([merge])
    answers, team = result["feedback_short_answers.md"], result["team/reference_studio.md"]
    assert answers is not None and team is not None
    assert (
        'Cooling: [the schedule](project_kiln_firing.md#cooling "slow"), '
        "[again](project_kiln_firing.md), `[code](project_kiln_schedule.md)`, "
        "[the newer one](project_kiln_firing.md)." in answers
    )
    assert "[[project_kiln_firing]]" in answers  # the [[name]] links are pointed as before
    assert team.endswith("Firing: [kiln](../project_kiln_firing.md).\n")
    assert "+Firing: [kiln](../project_kiln_firing.md)." in plan.diff([merge])
    applied = apply_plan(plan, approve=[merge])
    assert team_note.read_text(encoding="utf-8") == team
    restore(root, applied.batch)
    assert _tree(root) == before


def test_links_in_a_file_another_merge_rewrites_are_pointed_whatever_the_order(
    tmp_path: Path,
) -> None:
    # two merges: the memory that absorbs the second group links the first group's merged-away
    # memory. The second merge writes that file whole from what the plan read, so a link
    # pointed before it was lost; links are pointed last, on the file as the merges leave it.
    # Approving only the second merge leaves the link alone (the memory it names stays).
    def put(filename: str, name: str, body: str, age: float) -> None:
        write_memory(
            tmp_path, filename, name=name, description=f"{name.replace('-', ' ')} notes",
            type="reference", body=body, age_days=age, now_ms=PLAN_NOW,
        )  # fmt: skip

    clay = "Stoneware comes from the co-op on Mill Street, ordered by the fifty pound box."
    glaze = "Glaze recipes are on the shared sheet, tab cone six, tested in September. "
    put("clay_old.md", "clay-co-op", clay, 9)
    put("clay_new.md", "clay-co-ops", clay + "\n\nPick-up on Thursdays.", 1)
    put("glaze_old.md", "glaze-recipe-sheet", glaze, 8)
    put("glaze_new.md", "glaze-recipe-sheets", glaze + "\n\nBody clay: [[clay-co-op]].", 2)
    plan = plan_consolidation(tmp_path, now_ms=PLAN_NOW)
    merges = [a for a in plan.actions if a.kind == "merge_duplicates"]
    # the clay merge comes first: the glaze merge then writes glaze_new.md whole
    assert [a.id for a in merges] == ["merge:clay_new.md", "merge:glaze_new.md"]
    both = plan.result(merges)["glaze_new.md"]
    assert both is not None and "Body clay: [[clay-co-ops]]." in both
    assert "glaze_new.md" not in plan.result([merges[1]])  # the clay memory stays: link kept


def test_a_memory_whose_dates_are_made_absolute_also_gets_its_links_pointed(
    real_dir: Callable[[str], Path],
) -> None:
    # the date step replaces the body as the plan read it; the links are pointed after it, so
    # approving both keeps both changes
    root = real_dir("wikilinked")
    (root / "project_studio_move.md").write_text(
        "---\nname: studio-move\ndescription: the studio moves to the new building\n"
        "metadata:\n  type: project\n---\n\nWe chose yesterday to move the kiln; see [[kiln-schedule]].\n",
        encoding="utf-8",
    )
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    kinds = {a.kind for a in plan.actions}
    assert {"merge_duplicates", "absolute_dates"} <= kinds
    moved = plan.result()["project_studio_move.md"]
    assert moved is not None and "see [[kiln-firing]]." in moved and "yesterday" not in moved


def test_apply_refuses_a_planned_new_file_with_a_part_starting_with_a_tilde(messy: Path) -> None:
    # Failed before the fix: a plan (a model's proposed Write) made `~/x.md`, a folder a shell
    # reads as a home; the extractor's sandbox refuses it when planning, apply checks again.
    from memdir_nb.dream import PlanAction, WriteFile

    plan = plan_consolidation(messy, now_ms=PLAN_NOW)
    plan.actions.append(
        PlanAction("t", "write", "x", ("~/user_x.md",), (WriteFile("~/user_x.md", "t"),))
    )
    before = _tree(messy)
    with pytest.raises(PlanError, match=r"'~' starts with '~'.*nothing was written.*e\.g\. user_x"):
        apply_plan(plan)
    assert _tree(messy) == before


def test_memories_kept_with_windows_line_ends_keep_their_headers_and_line_ends(
    real_dir: Callable[[str], Path],
) -> None:
    # real35: a published dir kept on Windows (CRLF in 72 of its 78 files); the plan read each
    # header as body, so the date step rewrote a description, and a merge appended LF lines
    root = real_dir("windows-line-ends")
    before = {p.name: p.read_bytes().decode("utf-8") for p in root.glob("*.md")}
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    assert sorted(a.kind for a in plan.actions) == ["absolute_dates", "merge_duplicates"]
    result = {rel: text or "" for rel, text in plan.result().items()}
    for rel in ("project_kiln_cone.md", "project_glaze_review.md", "MEMORY.md"):
        new = result[rel]
        assert new and new.count("\n") == new.count("\r\n"), rel
    for rel in ("project_kiln_cone.md", "project_glaze_review.md"):
        header = before[rel][: before[rel].index("---\r\n", 5) + 5]
        assert result[rel].startswith(header), rel  # the header as written, description and all
    assert "Shelf three holds the witness cones.\r\n" in result["project_kiln_cone.md"]
    review = result["project_glaze_review.md"]
    assert "yesterday, covering the last week of firings" in review and " the the " not in review
    assert "The celadon was remixed today." not in review  # the body's own date is still fixed


def test_relative_dates_count_from_the_memorys_modified_time_not_a_clones_mtime(
    real_dir: Callable[[str], Path],
) -> None:
    # real35: in a cloned memory dir every file has the checkout's mtime; the plan made "today"
    # the day of the plan though `modified:` (2026-09-08, which survives a clone) dates it
    plan = plan_consolidation(real_dir("cloned"), now_ms=PLAN_NOW)
    summaries = sorted(a.summary for a in plan.actions if a.kind == "absolute_dates")
    assert summaries == [
        "project_celadon_batch.md: 'today' -> '2026-09-08'; 'yesterday' -> '2026-09-07'",
        "project_kiln_element.md: 'today' -> '2026-09-08'",
        "project_post_catalogue.md: 'yesterday' -> '2026-09-07'",  # not the title's Yesterday's
    ]
    kiln = plan.result()["project_kiln_element.md"] or ""
    assert "replaced 2026-09-08.\r\n" in kiln and "modified: 2026-09-08T10:00:00.000Z\r\n" in kiln
    # no `modified:`, and the body names 2025-07-16: the clone's mtime is not the day it was
    # written, so its "today" stays as written, and the plan says so
    assert [n for n in plan.notes if "project_studio_move.md" in n] == [
        "relative dates left as written in project_studio_move.md: each names a day over 30 "
        "days before its file's time and has no `modified:`, so the day it was written is not "
        "known (a clone or a copy gives its files the day they were made); date them by hand "
        "(lint's relative-date lists them)"
    ]


def test_restore_from_a_dense_manifest_under_its_byte_cap_is_a_clear_refusal(messy: Path) -> None:
    # §44: 4 MB of `[],[],...` under the manifest's byte cap parsed to 112 MB of lists
    result = apply_plan(plan_consolidation(messy, now_ms=PLAN_NOW))
    manifest = messy / ".trash" / result.batch / "manifest.json"
    manifest.write_text('{"files": [' + ",".join(["[]"] * 1_100_000) + "]}", encoding="utf-8")
    before = _tree(messy)
    with pytest.raises(
        RestoreError, match=r"manifest.json is unreadable \(the manifest holds up to 2,200,003 "
    ):
        restore(messy, result.batch)
    assert _tree(messy) == before


def test_a_merge_keeps_the_memory_newest_by_its_modified_time_not_a_clones_mtime(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35a: the merge kept the member with the newest file mtime; in a clone that is the
    # order of the checkout, so the copy last changed in June absorbed October's
    plan = plan_consolidation(real_dir("cloned-duplicates"), now_ms=PLAN_NOW)
    merges = [a for a in plan.actions if a.kind == "merge_duplicates"]
    assert [a.files[:2] for a in merges] == [("project_kiln_cone.md", "project_kiln_cone_old.md")]
    result = plan.result()
    assert result["project_kiln_cone_old.md"] is None  # to the trash; October's file stays
    assert "project_kiln_cone.md" not in result  # nothing to carry over: left as it is


def test_an_index_over_its_cap_drops_the_pointer_oldest_by_modified_not_by_a_clones_mtime(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35c: fitting an index to its caps dropped the pointer of the file with the oldest
    # mtime; in a clone that is the checkout's order, so November's kiln element went first
    plan = plan_consolidation(real_dir("cloned-over-cap"), now_ms=PLAN_NOW)
    (fit,) = [op for a in plan.actions for op in a.ops if isinstance(op, IndexFit)]
    assert fit.order[0] == "project_wheel_rota.md"  # `modified:` 2026-03-09
    fitted = plan.result()["MEMORY.md"] or ""
    assert "(project_wheel_rota.md)" not in fitted
    for rel in ("project_kiln_element.md", "project_clay_order.md", "project_glaze_shelf.md"):
        assert f"({rel})" in fitted
    assert len(fitted.rstrip("\n").split("\n")) == 200


def test_a_repeat_plan_dates_a_merged_line_by_the_members_day_now(tmp_path: Path) -> None:
    # A merge's bodies are made absolute through the kept conversions (by body and day): a plan
    # after a member's day moved, in the same process, dates its line by the new day
    shared = "The kiln moves to the annex on Friday, with the glaze shelves and both wheels."
    for filename, body, age in (
        ("project_kiln_move.md", f"{shared}\nThe old shed is cleared out.", 0),
        ("project_kiln_moving.md", f"{shared}\nWe decided yesterday at the studio meeting.", 10),
    ):
        write_memory(
            tmp_path,
            filename,
            name="Kiln move",
            description="the kiln moves to the annex on Friday",
            body=body,
            age_days=age,
            now_ms=PLAN_NOW,
        )

    def merged_text() -> str:
        plan = plan_consolidation(tmp_path, now_ms=PLAN_NOW)
        merge = _the_merge(plan)
        (write,) = [op for op in merge.ops if isinstance(op, WriteFile)]
        return write.text

    day_ms = 86_400_000
    for age in (10, 30, 10):
        moved = PLAN_NOW - age * day_ms
        os.utime(tmp_path / "project_kiln_moving.md", ns=(int(moved * 1e6), int(moved * 1e6)))
        day = dt.datetime.fromtimestamp((moved - day_ms) / 1000).date().isoformat()
        assert f"We decided {day} at the studio meeting." in merged_text()


@pytest.mark.parametrize(
    ("modified", "tz"),
    [
        ("9999-12-31T00:00:00Z", "UTC"),
        ("9999-12-31", "UTC"),
        ("9999-12-31T23:00:00Z", "Asia/Tokyo"),
    ],
)
def test_a_memory_dated_at_the_calendars_end_leaves_its_dates_and_the_rest_of_the_plan_stands(
    tmp_path: Path, modified: str, tz: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # attack37: one memory saying `modified: 9999-12-31` (a teammate's, an import) and "next
    # year" stopped `memdir-nb dream`, the planner widget and the API with "year 10000 is out
    # of range", naming no file; no other memory's dates were made absolute
    memdir = tmp_path / "memory"
    memdir.mkdir()
    (memdir / "project_far.md").write_text(
        "---\nname: far\ndescription: the kiln firing plan\ntype: project\n"
        f"modified: {modified}\n---\nWe fire next year, and again in 999 months.\n",
        encoding="utf-8",
    )
    write_memory(
        memdir,
        "project_glaze.md",
        name="glaze",
        description="the glaze test batch",
        body="The celadon was mixed yesterday.",
        now_ms=PLAN_NOW,
    )
    (memdir / "MEMORY.md").write_text(
        "- [far](project_far.md) - kiln\n- [glaze](project_glaze.md) - glaze\n", encoding="utf-8"
    )
    monkeypatch.setenv("TZ", tz)  # east of UTC, 9999-12-31T23:00Z is in year 10000
    time.tzset()
    try:
        plan = plan_consolidation(memdir, now_ms=PLAN_NOW)
    finally:
        monkeypatch.undo()
        time.tzset()
    summaries = [a.summary for a in plan.actions if a.kind == "absolute_dates"]
    assert summaries == ["project_glaze.md: 'yesterday' -> '2026-03-27'"]


@pytest.mark.parametrize("inside", ["cache", "team/cache", "."])
def test_a_plan_cache_dir_inside_the_memory_dir_is_refused_before_anything_is_written(
    tmp_path: Path, inside: str
) -> None:
    # bounds37: cache_dir= was not held to MEMDIR_NB_CACHE_DIR's rule, so the plan's cache
    # (every memory's text, derived) went into the memory dir it was asked to read
    mem = tmp_path / "memory"
    (mem / "team").mkdir(parents=True)
    (mem / "feedback_db.md").write_text("---\nname: db\ntype: feedback\n---\nreal db\n")
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(PlanError, match="is inside .*nothing was written"):
        plan_consolidation(mem, cache_dir=mem / inside)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before
    assert isinstance(plan_consolidation(mem, cache_dir=tmp_path / "cache"), ConsolidationPlan)


def test_a_long_line_is_shortened_to_fit_its_title_and_a_second_dream_has_nothing_to_shorten(
    real_dir: Callable[[str], Path],
) -> None:
    # real40: lines past 200 characters whose hooks were under 150 got a shorten action that
    # wrote the same line back, and every later dream proposed it again.
    root = real_dir("long-titles-index")
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    shorten = [a for a in plan.actions if a.kind == "shorten_index_line"]
    assert sorted(a.id for a in shorten) == [
        "shorten:MEMORY.md:project_firing_log.md",
        "shorten:MEMORY.md:reference_shelf_wash.md",
    ]
    apply_plan(plan)
    lines = (root / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    firing = next(ln for ln in lines if "project_firing_log.md" in ln)
    assert len(firing) <= MAX_INDEX_LINE_CHARS and firing.endswith("\u2026")
    shelf = next(ln for ln in lines if "reference_shelf_wash.md" in ln)
    assert shelf.endswith("(reference_shelf_wash.md)")  # no room left for a hook: it goes
    again = plan_consolidation(root, now_ms=PLAN_NOW)
    assert [a for a in again.actions if a.kind == "shorten_index_line"] == []


def test_a_line_added_for_a_long_titled_memory_fits_and_a_second_dream_leaves_it(
    real_dir: Callable[[str], Path],
) -> None:
    """real42: the plan (and rebuild-index) added a 225-character line for an unlisted memory
    whose title ran to 56 characters and whose hook was under its own cap; the next plan then
    offered to shorten the line the first had written."""
    root = real_dir("long-title-unlisted")
    assert all(
        len(ln) <= MAX_INDEX_LINE_CHARS for ln in rebuild_index(root, write=False).split("\n")
    )
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    assert [a.kind for a in plan.actions] == ["add_missing_index_line"]
    apply_plan(plan)
    lines = (root / "MEMORY.md").read_text(encoding="utf-8").splitlines()
    added = next(ln for ln in lines if "project_open_studio_demos.md" in ln)
    assert len(added) <= MAX_INDEX_LINE_CHARS and added.endswith("\u2026")
    assert plan_consolidation(root, now_ms=PLAN_NOW).actions == []


def test_a_backtest_tally_over_n_days_gets_no_absolute_date(
    real_dir: Callable[[str], Path],
) -> None:
    """real41: the dream rewrote "Only 10 signals in 56 days" to "Only 10 signals 2027-01-28";
    after a tally "in N days" is the span it covers, so the plan leaves the memory as written."""
    plan = plan_consolidation(real_dir("backtest-notes"))
    assert [a.files for a in plan.actions if a.kind == "absolute_dates"] == []


def test_files_listed_under_their_folders_line_get_no_second_line(
    real_dir: Callable[[str], Path],
) -> None:
    """real41: the plan offered a new index line for each file an index lists by bare name
    under its folder's line (`memory/cc-reference/`, then `  - hook-events.md`), and so did
    rebuild-index: each would have been listed twice."""
    mem = real_dir("folder-listed-index")
    plan = plan_consolidation(mem)
    assert [a.kind for a in plan.actions if a.kind == "add_missing_index_line"] == []
    old = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert rebuild_index(mem, write=False) == old


def test_an_index_over_its_caps_by_notes_alone_gets_no_fit_that_changes_nothing(
    real_dir: Callable[[str], Path],
) -> None:
    """real41: an index over 200 lines by its notes, naming its files without links. The plan
    proposed fit_index_caps, which rewrote those names as links (dropped by the next plan);
    a fit that leaves them as written changes nothing, and is not proposed."""
    mem = real_dir("unlinked-over-cap")
    plan = plan_consolidation(mem)
    assert [a.kind for a in plan.actions if a.kind == "fit_index_caps"] == []


def test_the_actions_touching_an_index_are_those_with_an_op_on_it_in_plan_order() -> None:
    # plan41: _touching walks each action's ops in a plain loop (it was any() over a
    # generator per action); the same actions, once each, in the plan's order
    from memdir_nb.dream.actions import IndexAdd, IndexRemove, TrashFile

    rng = random.Random(41)
    rels = ["MEMORY.md", "team/MEMORY.md", "a.md"]
    made: list[PlanAction] = []
    for i in range(300):
        ops: list[IndexAdd | IndexRemove | TrashFile] = []
        for _ in range(rng.randint(0, 4)):
            rel = rng.choice(rels)
            if not rel.endswith("MEMORY.md"):
                ops.append(TrashFile(rel))
            elif rng.random() < 0.5:
                ops.append(IndexAdd(rel, f"f{i}.md", f"- [f](f{i}.md)"))
            else:
                ops.append(IndexRemove(rel, "x.md"))
        made.append(PlanAction(f"a{i}", "kind", "s", ("x",), tuple(ops)))
    for irel in rels:
        expected = [a for a in made if any(op.rel == irel for op in a.ops)]
        assert index_repairs_module._touching(irel, made) == expected


def test_applying_a_plan_then_planning_again_proposes_no_index_action(
    real_dir: Callable[[str], Path],
) -> None:
    """settle42 (real42's ERP dir): an over-cap index of one-pointer sections with blank lines
    between them. The first plan's fit dropped a section's pointer and heading and left the
    blank lines around them as a run, so it dropped more pointers than the cap needed; the
    second plan collapsed the runs and added those pointers back, and fitted again."""
    root = real_dir("sectioned-over-cap")
    kept = [line for line in (root / "MEMORY.md").read_text().split("\n") if "note" in line]
    first = plan_consolidation(root)
    kinds = [a.kind for a in first.actions]
    assert kinds.count("drop_dangling_index_line") == 2 and "fit_index_caps" in kinds
    apply_plan(first)
    fitted = (root / "MEMORY.md").read_text()
    assert "\n\n\n" not in fitted  # no blank run a later collapse would free
    assert [line for line in fitted.split("\n") if "note" in line] == kept  # notes all stay
    assert fitted.count("](project_firing_week_") == 8  # 6 sections of 14 went, not 9
    again = plan_consolidation(root)
    assert [a.kind for a in again.actions if "MEMORY.md" in a.files] == []


def test_a_dream_keeps_each_cited_index_line_byte_for_byte(
    real_dir: Callable[[str], Path],
) -> None:
    """real44: the plan shortened a 230-character index line whose hook ended in "(source:
    https://...)", cutting the source first ("...thin…"), and proposed to drop a dangling
    line that cited a receipt. A cited line (IndexEntry.cited) is kept as written: no
    shorten, fit or drop for it (one whose memory moved into a folder is pointed there, its
    target alone changed); the uncited long line is still shortened, the unlisted memory
    still added, and after applying, a second plan proposes nothing."""
    root = real_dir("cited-notes")
    plan = plan_consolidation(root, now_ms=PLAN_NOW)
    assert sorted((a.kind, a.id.rsplit(":", 1)[-1]) for a in plan.actions) == [
        ("add_missing_index_line", "user_potter.md"),
        ("repoint_index_line", "reference_cone_chart.md"),
        ("shorten_index_line", "project_studio_hours.md"),
    ]
    apply_plan(plan)
    lines = (root / "MEMORY.md").read_text(encoding="utf-8").split("\n")
    moved = MOVED_CITED_LINE.replace("](reference", "](charts/reference")
    assert all(line in lines for line in (*CITED_INDEX_LINES, moved))
    assert "[^1]: the March glaze test" in lines
    assert plan_consolidation(root, now_ms=PLAN_NOW).actions == []


def test_applying_a_plan_over_many_old_empty_memories_pauses_once_not_once_each(
    tmp_path: Path,
) -> None:
    """A plan (Claude's, here built through the API) that retires 40 empty memories: apply
    read each under the store's lock with a second look of its own, SETTLE_S each (§66),
    10 s in all. The step notes them first and pauses once (attack45, §68)."""
    from memdir_nb.dream import TrashFile
    from memdir_nb.storage.settled_read import SETTLE_S

    mem = tmp_path / "memory"
    mem.mkdir()
    names = [f"user_empty_{i:03d}.md" for i in range(40)]
    for name in names:
        (mem / name).write_bytes(b"")
    time.sleep(SETTLE_S + 0.05)  # their times are old
    plan = plan_consolidation(mem, now_ms=PLAN_NOW)
    ops = tuple(TrashFile(name) for name in names)
    plan.actions = [PlanAction("empty", "trash", "retire the empty ones", tuple(names), ops)]
    for name in names:
        plan.snapshot[name], plan.hashes[name] = "", hashlib.sha256(b"").hexdigest()
    start = time.monotonic()
    apply_plan(plan)
    took = time.monotonic() - start
    assert not any((mem / name).exists() for name in names)
    assert took < len(names) * SETTLE_S / 4, took  # 0.4 s here; 10 s before
