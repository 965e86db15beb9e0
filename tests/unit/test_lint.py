"""Tests for memdir_nb.lint: each rule with a case that trips it and one that must not."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.dream import plan_consolidation
from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.index import format_index_entry
from memdir_nb.lint import Finding, lint_memory_dir
from memdir_nb.lint.description_audit import VAGUE_FIX
from memdir_nb.spec.dates import find_relative_dates, iso_utc
from memdir_nb.spec.text import fence_change
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.ui.demo import DEMO_QUIRKS, build_demo_memory_dir
from tests.support import link_chain
from tests.support.ascii_locale import ASCII_LOCALE, skip_unless_python_starts
from tests.support.store_crash import promote_killed_at

NOW_MS = 1_780_000_000_000.0
DAY_MS = 86_400_000

WHY_HOW = "\n\n**Why:** it broke production once.\n\n**How to apply:** check it before merging."
# A realistic, clean memory of each type: no rule may fire on these.
CLEAN = {
    "user_role.md": (
        "Role",
        "User is a data engineer who knows Spark well and is new to Rust",
        "user",
        "Works on the ingestion pipeline; explain Rust ownership when it comes up.",
    ),
    "feedback_tests.md": (
        "Real database in tests",
        "Integration tests hit a real Postgres, never mocks",
        "feedback",
        "Do not mock the database in integration tests." + WHY_HOW,
    ),
    "project_freeze.md": (
        "Merge freeze",
        "Merge freeze on mobile from 2026-03-05 to 2026-03-10 for the release",
        "project",
        "No merges to main from Thursday 2026-03-05 through 2026-03-10." + WHY_HOW,
    ),
    "reference_dash.md": (
        "Latency dashboards",
        "Grafana board api-latency is where on-call checks p99 latency",
        "reference",
        "Grafana folder 'API', board `api-latency`; alerts page the primary.",
    ),
}


def write_memory(
    root: Path,
    rel: str,
    name: str,
    desc: str,
    mtype: str,
    body: str,
    *,
    mtime_ms: float | None = None,
) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(render_memory_file(name, desc, mtype, body), encoding="utf-8")
    if mtime_ms is not None:
        import os

        os.utime(path, ns=(int(mtime_ms * 1e6),) * 2)
    return path


def write_index(scope_dir: Path) -> None:
    lines = [
        format_index_entry(p.stem, p.name, "hook")
        for p in sorted(scope_dir.glob("*.md"))
        if p.name != "MEMORY.md"
    ]
    (scope_dir / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")


def clean_dir(root: Path, now_ms: float = NOW_MS) -> Path:
    """The clean memories, changed three days before now_ms (the "now" lint is given)."""
    for rel, (name, desc, mtype, body) in CLEAN.items():
        write_memory(root, rel, name, desc, mtype, body, mtime_ms=now_ms - 3 * DAY_MS)
    write_index(root)
    return root


def lint_one(
    tmp_path: Path,
    body: str,
    *,
    mtype: str = "reference",
    desc: str = "Where the API latency board lives for on-call",
    rel: str = "reference_x.md",
    name: str = "A memory",
) -> list[Finding]:
    clean_dir(tmp_path)
    write_memory(tmp_path, rel, name, desc, mtype, body, mtime_ms=NOW_MS - DAY_MS)
    write_index(tmp_path / Path(rel).parent) if "/" in rel else write_index(tmp_path)
    return [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.path == rel]


def rules(findings: list[Finding]) -> set[str]:
    return {f.rule for f in findings}


def test_clean_realistic_memories_produce_no_findings(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    assert lint_memory_dir(tmp_path, now_ms=NOW_MS) == []


def test_demo_dir_yields_one_finding_per_documented_quirk(tmp_path: Path) -> None:
    root = build_demo_memory_dir(tmp_path / "demo", now_ms=NOW_MS)
    found = lint_memory_dir(root, now_ms=NOW_MS)
    by = {(f.path, f.rule) for f in found}
    assert ("team/reference_release_steps.md", "malformed-frontmatter") in by
    assert ("project_insurer_demo.md", "relative-date") in by
    assert ("reference_forecast_cache_ttl.md", "derivable-file-path") in by
    assert ("MEMORY.md", "index-dangling-entry") in by
    assert ("user_colour_vision.md", "not-in-index") in by
    assert ("reference_misc.md", "vague-description") in by
    assert ("team/MEMORY.md", "index-over-cap") in by
    assert ("team/project_availability_okr.md", "stale-project") in by
    # Errors only for real errors: the dangling line and the index the loader cuts.
    assert {(f.path, f.rule) for f in found if f.severity == "error"} == {
        ("MEMORY.md", "index-dangling-entry"),
        ("team/MEMORY.md", "index-over-cap"),
    }
    quirk_files = {p for q in DEMO_QUIRKS.values() for p in q.paths}
    # No memory outside the quirk list gets a finding: the rules do not trip on ordinary prose.
    assert {f.path for f in found} <= quirk_files | {"team/MEMORY.md", "MEMORY.md"}


# ---------------------------------------------------------------- derivable content


def test_file_path_with_line_number_is_flagged(tmp_path: Path) -> None:
    found = lint_one(
        tmp_path, "The retry limit is set in src/billing/retry.py:142 and nowhere else."
    )
    f = next(f for f in found if f.rule == "derivable-file-path")
    assert f.severity == "warning" and "src/billing/retry.py:142" in f.message and f.line == 7


@pytest.mark.parametrize(
    ("line", "quoted"),
    [
        ("Retries are capped in Billing/Retry.PY:3:7 for now.", "Billing/Retry.PY:3:7"),
        ("The guard sits in handler.ts line 10 of the service.", "handler.ts line 10"),
        ("See utils.go, lines 3-5 for the cut-off.", "utils.go, lines 3"),
        ("Die Grenze steht in café/retry.py:142 (nicht ändern).", "café/retry.py:142"),
    ],
)
def test_file_path_with_line_number_is_flagged_in_each_form(
    tmp_path: Path, line: str, quoted: str
) -> None:
    # Upper-case extensions, "line N" / "lines N" after the name, text outside ASCII: each is
    # still found (the quick whole-text checks before the per-line pass must not skip them).
    found = lint_one(tmp_path, line)
    f = next(f for f in found if f.rule == "derivable-file-path")
    assert quoted in f.message


def test_file_path_without_line_number_and_times_are_not_flagged(tmp_path: Path) -> None:
    found = lint_one(
        tmp_path, "Handoff at 10:30 in #oncall; the runbook is docs/runbook.md on the wiki."
    )
    assert "derivable-file-path" not in rules(found)


def test_fenced_code_block_is_flagged(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "Run this:\n\n```python\nprint('hi')\n```\n")
    assert "derivable-code-block" in rules(found)


def test_a_tilde_fenced_code_block_is_flagged_as_a_backtick_one_is(tmp_path: Path) -> None:
    # the block rule is asked only of a body holding ``` or ~~~: both fences must reach it
    found = lint_one(tmp_path, "Run this:\n\n   ~~~python\nprint('hi')\n   ~~~\n")
    assert "derivable-code-block" in rules(found)


def test_a_fenced_code_block_in_a_list_item_is_flagged(tmp_path: Path) -> None:
    # indented past three spaces under a list item: the one fence rule (spec.text.fence_change)
    found = lint_one(tmp_path, "Steps:\n\n- add:\n\n    ```python\n    print('hi')\n    ```\n")
    assert "derivable-code-block" in rules(found)


def test_a_tilde_line_inside_a_backtick_block_does_not_close_it(tmp_path: Path) -> None:
    # CommonMark closes a block only with its own character, at least as long: the ~~~ line
    # is the recipe's output, the ``` after it closes the recipe, and the python block after
    # is code (polish30b: the ~~~ closed the recipe, so each fence after it was off by one)
    body = "```sh\n$ make\n~~~\n```\n\n```python\ndef f():\n    return 1\n```\n"
    assert "derivable-code-block" in rules(lint_one(tmp_path, body))


def test_inline_code_is_not_a_code_block(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "Use the `stripe_test_clock` fixture rather than sleeping.")
    assert "derivable-code-block" not in rules(found)


def test_git_sha_next_to_commit_is_flagged(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "The bug was introduced in commit 3f9a2c1d and reverted later.")
    assert "derivable-git-history" in rules(found)


def test_list_of_pr_numbers_is_flagged_but_one_ticket_is_not(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "Related: PR #4512, PR #4513 and PR #4520.")
    assert "derivable-git-history" in rules(found)
    found = lint_one(
        tmp_path / "b", "Follow-up is tracked in FCST-388 (see #412 for the discussion)."
    )
    assert "derivable-git-history" not in rules(found)


def test_bare_numbers_citing_issues_are_not_a_list_of_prs(tmp_path: Path) -> None:
    body = (
        "- 6. Fixtures hold no network calls; #1282\n"
        "- 7. Settings load in three layers; #1780\n"
        "- 8. Agent #72 records audio; backlog #52 waits for design\n"
    )
    assert "derivable-git-history" not in rules(lint_one(tmp_path, body))


def test_bare_numbers_where_the_sentence_speaks_of_merges_are_prs(tmp_path: Path) -> None:
    body = "Both halves are merged (#301, and the\nregistry follow-ups #322/#323).\n"
    assert "derivable-git-history" in rules(lint_one(tmp_path, body))
    found = lint_one(tmp_path / "b", "Landed this week: #88, #91 and #95.\n")
    assert "derivable-git-history" in rules(found)


def test_plain_hex_like_word_is_not_a_sha(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "The colour is deadbeef-ish; the board id is 1234567.")
    assert "derivable-git-history" not in rules(found)


def test_function_in_file_presented_as_fact_is_flagged(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "`parse_rates()` in rates.py handles the currency rounding.")
    assert "derivable-code-symbol" in rules(found)


def test_backticked_fixture_name_without_location_is_not_flagged(tmp_path: Path) -> None:
    found = lint_one(
        tmp_path, "Use `pg_container()` for a real database; advance the clock instead of sleeping."
    )
    assert "derivable-code-symbol" not in rules(found)


@pytest.mark.parametrize(
    "phrase",
    [
        "I'm currently working on the parser",
        "TODO: finish the migration",
        "TODO(ann) rename the flag",
        "TODO - drop the shim",
        "Status: in progress",
        "WIP on the exporter",
        "In this session we renamed it",
    ],
)
def test_ephemeral_task_state_is_flagged(tmp_path: Path, phrase: str) -> None:
    assert "ephemeral-task-state" in rules(lint_one(tmp_path, phrase))


@pytest.mark.parametrize(
    "phrase",
    [
        "See [[todo-inventories-are-read-only]] before you touch them.",
        "The todo-list export keeps its order.",
    ],
)
def test_a_todo_slug_or_link_is_not_task_state(tmp_path: Path, phrase: str) -> None:
    assert "ephemeral-task-state" not in rules(lint_one(tmp_path, phrase + WHY_HOW))


def test_dated_in_progress_project_status_is_not_ephemeral(tmp_path: Path) -> None:
    found = lint_one(
        tmp_path,
        "Backfill in progress until 2026-04-02; do not restart workers." + WHY_HOW,
        mtype="project",
        rel="project_backfill.md",
        desc="ERA5 backfill runs until 2026-04-02; no restarts",
    )
    assert "ephemeral-task-state" not in rules(found)


# ---------------------------------------------------------------- secrets


SECRET_BODY = "The staging key is AKIAIOSFODNN7EXAMPLQ with secret in the env."


def test_secret_in_team_memory_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir(parents=True)
    found = lint_one(tmp_path, SECRET_BODY, rel="team/reference_keys.md")
    f = next(f for f in found if f.rule == "secret")
    assert f.severity == "error" and "AKIAIOSFODNN7EXAMPLQ" not in f.message


def test_secret_in_private_memory_is_a_warning(tmp_path: Path) -> None:
    f = next(f for f in lint_one(tmp_path, SECRET_BODY) if f.rule == "secret")
    assert f.severity == "warning"


def test_pointer_to_vault_is_not_a_secret(tmp_path: Path) -> None:
    assert "secret" not in rules(
        lint_one(tmp_path, "The API key lives in 1Password, vault 'Data vendors'.")
    )


# ---------------------------------------------------------------- relative dates


@pytest.mark.parametrize(
    "text",
    [
        "Demo is on Thursday.",
        "Ship next week.",
        "Due in 3 days.",
        "Review tomorrow.",
        "Decided yesterday.",
        "Budget closed last month.",
    ],
)
def test_relative_dates_in_project_memory_are_flagged(tmp_path: Path, text: str) -> None:
    found = lint_one(
        tmp_path,
        text + WHY_HOW,
        mtype="project",
        rel="project_x.md",
        desc="Launch plan for the v3 API",
    )
    assert "relative-date" in rules(found)
    # fresh36: the fix was "e.g. 'Thursday' -> '2026-03-05'" for every phrase ('last month'
    # too), a date that had nothing to do with the memory; it now says where the date comes
    # from and which command works it out
    (hint,) = [f.hint for f in found if f.rule == "relative-date"]
    assert "2026-03-05" not in hint
    assert f"counted from the day the memory was written; `memdir-nb dream {tmp_path}`" in hint


@pytest.mark.parametrize(
    "text",
    [
        "Demo is on Thursday 2026-03-05.",
        "Demo on 2026-03-05 (Thursday).",
        "Handoff every Monday at 10.",
        "Triage happens on Tuesdays.",
    ],
)
def test_anchored_or_recurring_weekdays_are_not_relative_dates(text: str) -> None:
    assert find_relative_dates(text) == []


def test_relative_dates_outside_project_memories_are_not_flagged(tmp_path: Path) -> None:
    assert "relative-date" not in rules(
        lint_one(tmp_path, "Handoff notes go out next week as usual.")
    )


# ---------------------------------------------------------------- structure


def test_feedback_without_why_or_how_to_apply_is_flagged(tmp_path: Path) -> None:
    found = lint_one(
        tmp_path,
        "Never mock the database.",
        mtype="feedback",
        rel="feedback_x.md",
        desc="Never mock the database in integration tests",
    )
    assert {"missing-why", "missing-how-to-apply"} <= rules(found)


def test_plain_why_and_how_lines_satisfy_the_structure_rule(tmp_path: Path) -> None:
    found = lint_one(
        tmp_path,
        "Never mock the database.\nWhy: it hid a bug.\nHow to apply: integration tests only.",
        mtype="feedback",
        rel="feedback_x.md",
        desc="Never mock the database in integration tests",
    )
    assert not {"missing-why", "missing-how-to-apply"} & rules(found)


@pytest.mark.parametrize("desc", ["misc", "notes", "Stuff", "various", "api things"])
def test_vague_or_too_short_description_is_flagged(tmp_path: Path, desc: str) -> None:
    assert "vague-description" in rules(lint_one(tmp_path, "Grafana board.", desc=desc))


def test_description_over_150_chars_is_flagged(tmp_path: Path) -> None:
    found = lint_one(tmp_path, "Board.", desc="Where the board is " + "and more detail " * 10)
    assert "long-description" in rules(found)


def test_missing_description_and_unknown_type(tmp_path: Path) -> None:
    (tmp_path / "reference_bad.md").write_text(
        "---\nname: Bad\ntype: snippet\n---\n\nBody.\n", encoding="utf-8"
    )
    found = [
        f
        for f in lint_memory_dir(clean_dir(tmp_path), now_ms=NOW_MS)
        if f.path == "reference_bad.md"
    ]
    by = {f.rule: f for f in found}
    assert by["unknown-type"].severity == "error" and "'snippet'" in by["unknown-type"].message
    assert by["unknown-type"].line == 3
    assert "missing-description" in by


def test_malformed_header_and_missing_frontmatter(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    (tmp_path / "reference_colon.md").write_text(
        "---\nname: Steps\ndescription: Release steps: tag, build, ship to prod\ntype: reference\n---\nBody\n"
    )
    (tmp_path / "reference_plain.md").write_text("Just a note without a header.\n")
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS)
    (colon,) = [f for f in found if f.rule == "malformed-frontmatter"]
    assert colon.path == "reference_colon.md" and colon.line == 3  # the description's line
    plain = {f.rule for f in found if f.path == "reference_plain.md"}
    assert "missing-frontmatter" in plain and "missing-description" not in plain


def test_user_memory_in_team_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "team").mkdir()
    found = lint_one(
        tmp_path,
        "Prefers terse answers.",
        mtype="user",
        rel="team/user_terse.md",
        desc="User prefers terse answers without recaps",
    )
    assert next(f for f in found if f.rule == "user-memory-in-team").severity == "error"


def test_stale_project_depends_on_the_clock(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    old = NOW_MS - 400 * DAY_MS
    write_memory(
        tmp_path,
        "project_old.md",
        "Old goal",
        "Availability goal of 99.9% for the year",
        "project",
        "Goal set on 2025-01-01." + WHY_HOW,
        mtime_ms=old,
    )
    write_index(tmp_path)
    assert "stale-project" in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))
    assert "stale-project" not in rules(lint_memory_dir(tmp_path, now_ms=old + 30 * DAY_MS))


# ---------------------------------------------------------------- indexes


def test_a_missing_file_named_in_backticks_is_a_warning_since_it_may_be_prose(
    tmp_path: Path,
) -> None:
    clean_dir(tmp_path)
    idx = tmp_path / "MEMORY.md"
    idx.write_text(idx.read_text() + "## Next\n1. Read `docs/SPEC.md`\n")
    found = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.path == "MEMORY.md"]
    (named,) = [f for f in found if f.rule == "index-dangling-name"]
    assert named.severity == "warning" and "`docs/SPEC.md`" in named.message
    assert "index-dangling-entry" not in {f.rule for f in found}


@pytest.mark.parametrize("scope", ["", "team/"])
def test_a_dangling_entry_whose_file_moved_into_a_folder_says_where_it_is(
    tmp_path: Path, scope: str
) -> None:
    clean_dir(tmp_path)
    scope_dir = tmp_path / scope
    (scope_dir / "researcher").mkdir(parents=True)
    (scope_dir / "researcher" / "reference_sdk.md").write_text(
        "---\nname: SDK notes\ndescription: what the SDK does\ntype: reference\n---\nBody.\n"
    )
    idx = scope_dir / "MEMORY.md"
    before = idx.read_text() if idx.exists() else ""
    idx.write_text(before + format_index_entry("SDK notes", "reference_sdk.md", "SDK") + "\n")
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS)
    (dangling,) = [f for f in found if f.rule == "index-dangling-entry"]
    assert dangling.path == f"{scope}MEMORY.md"
    assert dangling.hint.startswith("a memory of that name is at researcher/reference_sdk.md")


def test_index_rules_dangling_missing_long_and_duplicate(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    idx = tmp_path / "MEMORY.md"
    lines = idx.read_text().splitlines()
    lines = [ln for ln in lines if "reference_dash" not in ln]
    lines.append(format_index_entry("Gone", "gone.md", "was deleted"))
    lines.append(format_index_entry("Role again", "user_role.md", "dup"))
    lines.append("- [Long](project_freeze.md) — " + "x" * 220)
    idx.write_text("\n".join(lines) + "\n")
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS)
    by = {(f.path, f.rule): f for f in found}
    assert by[("MEMORY.md", "index-dangling-entry")].severity == "error"
    assert by[("MEMORY.md", "index-dangling-entry")].line == 4
    assert ("reference_dash.md", "not-in-index") in by
    assert ("MEMORY.md", "index-duplicate-entry") in by
    assert by[("MEMORY.md", "index-line-too-long")].line == 6
    assert ("user_role.md", "not-in-index") not in by


def test_a_cr_only_index_is_linted_entry_by_entry(tmp_path: Path) -> None:
    # a classic Mac OS index (CR ends, no LF) holds one entry a line, as the index editor
    # (spec.text.as_lf) and parse_index read it: no line of it is the whole file's length
    clean_dir(tmp_path)
    idx = tmp_path / "MEMORY.md"
    lines = idx.read_text().splitlines()
    lines.append("- [Long](project_freeze.md) \u2014 " + "x" * 220)
    idx.write_bytes(("\r".join(lines) + "\r").encode())
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS)
    (long,) = [f for f in found if f.rule == "index-line-too-long"]
    assert long.line == len(lines)  # the long entry's own line, not line 1 (the whole file)
    assert "is 2" in long.message and "not-in-index" not in {f.rule for f in found}


def test_a_lone_cr_in_an_index_with_lfs_shifts_no_line_number(tmp_path: Path) -> None:
    """A lone CR among LF line ends stays inside its line for lint, as for parse_index and the
    editors (spec.text.as_lf); the loader ends a line there, and lint used to number its
    lines past it one too high, so the last entry was called prose (polish31)."""
    clean_dir(tmp_path)
    idx = tmp_path / "MEMORY.md"
    lines = idx.read_text().splitlines()
    lines.insert(1, "Kept by hand,\rwith a stray carriage return")
    idx.write_bytes(("\n".join(lines) + "\n").encode())
    found = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.path == "MEMORY.md"]
    (prose,) = [f for f in found if f.rule == "index-not-pointer"]
    assert prose.line == 2 and "(line 2)" in prose.message


def test_index_link_leaving_the_dir_is_reported_as_outside(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    with open(tmp_path / "MEMORY.md", "a") as fh:
        fh.write("- [Plan](../../plans/secret.md) — plan\n- [Home](~/.claude/notes.md) — notes\n")
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "index-outside-link"]
    assert [f.line for f in found] == [
        len((tmp_path / "MEMORY.md").read_text().splitlines()) - 1,
        len((tmp_path / "MEMORY.md").read_text().splitlines()),
    ]
    assert all("outside the memory dir" in f.message for f in found)


def test_an_outside_file_named_in_backticks_is_not_said_to_be_linked(tmp_path: Path) -> None:
    # realdata31: a real index keeps a knowledge note as "- `~/.claude/knowledge/<x>.md` — hook";
    # the finding said the line "links" it, where a backticked name in the dir is "names".
    clean_dir(tmp_path)
    with open(tmp_path / "MEMORY.md", "a") as fh:
        fh.write("- `~/.claude/kiln/firing-log.md` \u2014 cone charts kept beside the home\n")
    (found,) = [f for f in lint_memory_dir(tmp_path) if f.rule == "index-outside-link"]
    assert "line names `~/.claude/kiln/firing-log.md` in backticks" in found.message
    assert "links" not in found.message and "outside the memory dir" in found.message


@pytest.mark.parametrize("spelling", ["relative", "absolute"])
def test_an_index_line_into_another_projects_memory_dir_names_that_project_and_the_fix(
    tmp_path: Path, spelling: str
) -> None:
    # A line of one project's MEMORY.md linked a sibling project's memory file: the hint said
    # to mention outside docs in CLAUDE.md, which is no fix for a memory that is elsewhere.
    projects = tmp_path / ".claude" / "projects"
    mine = clean_dir(projects / "-home-u-app" / "memory")
    theirs = projects / "-home-u-other" / "memory"
    write_memory(theirs, "project_x.md", "X", "Their note", "project", "Theirs.")
    target = (
        "../../-home-u-other/memory/project_x.md"
        if spelling == "relative"
        else str(theirs / "project_x.md")
    )
    with open(mine / "MEMORY.md", "a") as fh:
        # an absolute target holding a space (tmp_path may) is linked in <...>, as the store does
        link = f"<{target}>" if any(ch.isspace() for ch in target) else target
        fh.write(f"- [X]({link}) — their note\n- [Plan](../../plans/secret.md) — plan\n")
    found = [f for f in lint_memory_dir(mine) if f.rule == "index-outside-link"]
    assert len(found) == 2
    other, plain = found
    assert "another project's memory dir (projects/-home-u-other/memory)" in other.message
    assert "recall of this project never loads it" in other.message
    assert "copy or move" in other.hint and "drop the line" in other.hint
    assert "CLAUDE.md" not in other.hint
    assert "outside the memory dir" in plain.message and "CLAUDE.md" in plain.hint


def test_index_link_to_a_non_markdown_file_points_at_nothing(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    with open(tmp_path / "MEMORY.md", "a") as fh:
        fh.write("- [Keys](../../.ssh/id_rsa) — keys\n")
    n = len((tmp_path / "MEMORY.md").read_text().splitlines())
    (found,) = [f for f in lint_memory_dir(tmp_path) if f.rule == "index-not-pointer"]
    assert f"1 line points at no memory file (line {n})" in found.message


def test_index_over_line_cap_is_an_error_and_non_pointer_lines_a_warning(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    with open(tmp_path / "MEMORY.md", "a") as fh:
        fh.write("".join(f"note {i}\n" for i in range(210)))
    by = {f.rule: f for f in lint_memory_dir(tmp_path) if f.path == "MEMORY.md"}
    assert by["index-over-cap"].severity == "error"
    assert (
        by["index-not-pointer"].severity == "warning"
        and "210 lines" in by["index-not-pointer"].message
    )


def test_headings_and_blank_lines_in_index_are_fine(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    text = (tmp_path / "MEMORY.md").read_text()
    (tmp_path / "MEMORY.md").write_text("# Memory index\n\n" + text)
    assert lint_memory_dir(tmp_path, now_ms=NOW_MS) == []


def test_a_heading_after_a_byte_order_mark_is_still_a_heading(tmp_path: Path) -> None:
    # A published agent index saved by a Windows editor: BOM, then `# Agent Memory Index`.
    clean_dir(tmp_path)
    text = (tmp_path / "MEMORY.md").read_text()
    (tmp_path / "MEMORY.md").write_text("\ufeff# Agent memory index\n\n" + text)
    assert lint_memory_dir(tmp_path, now_ms=NOW_MS) == []
    (tmp_path / "MEMORY.md").write_text("\ufeffloose prose\n" + text)
    (found,) = [f for f in lint_memory_dir(tmp_path) if f.rule == "index-not-pointer"]
    assert found.line == 1


def test_a_repository_doc_named_twice_in_backticks_is_not_a_duplicate_entry(
    tmp_path: Path,
) -> None:
    # An index kept as notes (published): a plan doc named in two session sections.
    clean_dir(tmp_path)
    with open(tmp_path / "MEMORY.md", "a") as fh:
        fh.write("- `editor/PLAN.md` — the editor plan\n- `editor/PLAN.md` — plan revised\n")
        fh.write("- [Gone](gone.md) — one\n- [Gone](gone.md) — two\n")
    found = [f for f in lint_memory_dir(tmp_path) if f.path == "MEMORY.md"]
    assert [f.rule for f in found].count("index-dangling-name") == 2
    (dup,) = [f for f in found if f.rule == "index-duplicate-entry"]
    assert dup.message.startswith("gone.md is listed again")


def test_missing_index_is_one_finding_not_one_per_file(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    (tmp_path / "MEMORY.md").unlink()
    found = lint_memory_dir(tmp_path, now_ms=NOW_MS)
    assert [f.rule for f in found] == ["index-missing"]


def test_lint_sees_more_than_the_200_newest_files(tmp_path: Path) -> None:
    for i in range(230):
        write_memory(
            tmp_path,
            f"reference_{i:03d}.md",
            f"Ref {i}",
            "misc",
            "reference",
            "Board.",
            mtime_ms=NOW_MS - i * 60_000,
        )
    assert sum(f.rule == "vague-description" for f in lint_memory_dir(tmp_path)) == 230


def test_not_a_directory_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="not a directory"):
        lint_memory_dir(tmp_path / "nope")


# ---------------------------------------------------------------- CLI


def run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args], capture_output=True, text=True, timeout=120
    )


def test_cli_lint_exits_nonzero_on_errors_and_prints_rule_and_hint(tmp_path: Path) -> None:
    root = build_demo_memory_dir(tmp_path / "demo", now_ms=time.time() * 1000)
    proc = run_cli("lint", str(root))
    assert proc.returncode == 1
    line = next(ln for ln in proc.stdout.splitlines() if "index-dangling-entry" in ln)
    assert line.startswith("MEMORY.md:") and "error" in line and "(fix: " in line
    assert proc.stdout.strip().splitlines()[-1].startswith("2 errors,")


def test_cli_lint_exits_zero_on_warnings_only_and_json_is_parseable(tmp_path: Path) -> None:
    # `lint` reads the wall clock, so the dir is dated from it: dated from the fixed NOW_MS
    # (2026-05-28), its project memory turned stale-project on the machine's 2027-05-26 and
    # the test with it (fresh41, found under faketime at 2028-02-29)
    clean_dir(tmp_path, now_ms=time.time() * 1000)
    write_memory(tmp_path, "reference_misc.md", "Misc", "misc", "reference", "Board.")
    write_index(tmp_path)
    proc = run_cli("lint", str(tmp_path), "--json")
    assert proc.returncode == 0
    data = json.loads(proc.stdout)
    assert [(d["path"], d["rule"], d["severity"]) for d in data] == [
        ("reference_misc.md", "vague-description", "warning")
    ]


def test_progress_bar_only_when_asked_or_the_dir_is_large(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from memdir_nb.lint import lint_memory_dir
    from memdir_nb.storage.store import MemoryStore

    store = MemoryStore(tmp_path / "mem")
    store.save(
        "Deploy runbook",
        "Where the production deploy runbook lives",
        "reference",
        "The runbook is the Notion page 'Deploys'.",
    )
    lint_memory_dir(tmp_path / "mem")
    assert "linting mem" not in capsys.readouterr().err
    lint_memory_dir(tmp_path / "mem", progress=True)
    assert "linting mem" in capsys.readouterr().err


# ---- realdirs: shapes found in published memory dirs


def _rules(root: Path) -> set[tuple[str, str]]:
    return {(f.path, f.rule) for f in lint_memory_dir(root, now_ms=NOW_MS)}


def _mem(root: Path, rel: str, *, name: str, description: str, type: str, body: str) -> None:
    write_memory(root, rel, name, description, type, body, mtime_ms=NOW_MS - DAY_MS)
    write_index(root)


def test_nested_metadata_types_are_not_reported_missing(real_dir: Callable[[str], Path]) -> None:
    rules = _rules(real_dir("nested"))
    assert not any(rule in ("missing-type", "not-in-index") for _, rule in rules)
    assert ("project_flaky_outbox_test.md", "missing-why") not in rules


def test_missing_type_only_when_neither_place_has_one(tmp_path: Path) -> None:
    (tmp_path / "MEMORY.md").write_text("- [A](a.md) — a\n- [B](b.md) — b\n")
    (tmp_path / "a.md").write_text(
        "---\nname: A\ndescription: no type anywhere in this header\nmetadata:\n  node_type: memory\n---\n"
    )
    (tmp_path / "b.md").write_text(
        "---\nname: B\ndescription: a custom type under metadata\nmetadata:\n  type: gotcha\n---\n"
    )
    found = {(f.path, f.rule): f for f in lint_memory_dir(tmp_path)}
    assert ("a.md", "missing-type") in found
    assert ("b.md", "missing-type") not in found
    assert found[("b.md", "unknown-type")].line == 5  # the nested `type:` line


def test_a_memory_in_claude_codes_typeless_pinned_shape_is_not_told_to_add_a_type(
    real_dir: Callable[[str], Path],
) -> None:
    """Where Claude Code stamps `pinned:` under `metadata:` (from September 2026) it writes no
    type (realdata29: 20 real memories, none typed); an older header that lost its type still
    gets the warning."""
    rules = _rules(real_dir("pinned-typeless"))
    missing = sorted(path for path, rule in rules if rule == "missing-type")
    assert missing == ["kiln-firing-days.md"]
    assert not [r for r in rules if r[1] in ("unknown-type", "malformed-frontmatter")]


def test_every_index_line_variant_counts_as_indexed(real_dir: Callable[[str], Path]) -> None:
    root = real_dir("index-variants")
    found = lint_memory_dir(root)
    assert not [f for f in found if f.rule in ("not-in-index", "index-dangling-entry")]
    (pointless,) = [f for f in found if f.rule == "index-not-pointer"]
    last = len((root / "MEMORY.md").read_text(encoding="utf-8").splitlines())
    assert pointless.line == last and f"(line {last})" in pointless.message


def test_a_dir_without_memory_md_gets_one_index_missing_warning(
    real_dir: Callable[[str], Path],
) -> None:
    found = lint_memory_dir(real_dir("no-index"))
    assert [f.rule for f in found if f.rule.startswith("index") or f.rule == "not-in-index"] == [
        "index-missing"
    ]


def test_a_folder_of_agent_memory_dirs_is_one_error_naming_them_not_one_dirs_findings(
    real_dir: Callable[[str], Path],
) -> None:
    parent = real_dir("agent-memory-parent")
    (found,) = lint_memory_dir(parent)
    assert (found.path, found.rule, found.severity) == (".", "folder-of-memory-dirs", "error")
    assert "reviewer/, tester/" in found.message
    assert found.hint.startswith("pass agent-memory/<name>")
    assert lint_memory_dir(parent / "reviewer") == []  # each agent's dir lints on its own


def test_index_targets_written_from_the_repository_root_point_at_the_dirs_files(
    real_dir: Callable[[str], Path],
) -> None:
    found = lint_memory_dir(real_dir("repo-root-targets"))
    dangling = [f.message for f in found if f.rule.startswith("index-dangling")]
    assert dangling == ["entry points at memory/GONE.md, which does not exist"]
    assert [f.path for f in found if f.rule == "not-in-index"] == ["NOTES.md"]


def test_a_file_named_besides_any_entry_is_in_the_index(
    real_dir: Callable[[str], Path],
) -> None:
    # Published indexes name files in a second link, a table column or a "See `x.md`" line.
    found = lint_memory_dir(real_dir("names-besides-entries"))
    assert [f.path for f in found if f.rule == "not-in-index"] == []
    assert not [f for f in found if f.rule.startswith("index-dangling")]  # prose is no entry


def test_one_missing_line_or_file_is_counted_in_the_singular(tmp_path: Path) -> None:
    write_memory(tmp_path, "user_role.md", "Role", "the user's role", "user", "A data person.")
    found = {f.rule: f.message for f in lint_memory_dir(tmp_path)}
    assert "although 1 memory file exists in this scope" in found["index-missing"]
    (tmp_path / "MEMORY.md").write_text("- [Role](user_role.md) — role\nstray prose\n")
    found = {f.rule: f.message for f in lint_memory_dir(tmp_path)}
    assert found["index-not-pointer"].startswith("1 line points at no memory file (line 2);")


def test_a_team_only_dir_is_linted_without_private_index_noise(
    real_dir: Callable[[str], Path],
) -> None:
    found = lint_memory_dir(real_dir("team-only"))
    assert [(f.path, f.rule) for f in found] == []


def test_readme_and_license_of_an_exported_dir_are_not_memories(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("exported")
    paths = {f.path for f in lint_memory_dir(root)}
    assert not paths & {"README.md", "LICENSE", "LICENSE-NOTES.md"}
    from memdir_nb.storage.scan import scan_memory_dir

    assert scan_memory_dir(root).ignored == ["LICENSE-NOTES.md", "README.md"]


def test_a_project_local_claude_memory_folder_lints_like_any_memory_dir(
    real_dir: Callable[[str], Path],
) -> None:
    memory = real_dir("project-local")
    assert memory.parts[-2:] == (".claude", "memory")
    assert [f.rule for f in lint_memory_dir(memory)] == []


def test_daily_logs_are_not_linted_as_memories(real_dir: Callable[[str], Path]) -> None:
    assert not [f for f in lint_memory_dir(real_dir("logs")) if f.path.startswith("logs/")]


def test_in_progress_as_a_status_name_or_hook_name_is_not_task_state(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "reference_board.md",
        name="Board columns",
        description="What each column of the team board means",
        type="reference",
        body="| Column | Meaning |\n|---|---|\n| In progress | someone owns it |\n\n"
        'The "in progress" hook posts to chat. Cards move to In Progress status on claim.',
    )
    assert ("reference_board.md", "ephemeral-task-state") not in _rules(tmp_path)


def test_in_progress_in_a_list_of_statuses_is_not_task_state(tmp_path: Path) -> None:
    # A published auditor's note lists a catalog's statuses in a sentence, pipe-separated.
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "reference_statuses.md",
        name="Catalog statuses",
        description="Which statuses the deliverable catalog defines and which are in use",
        type="reference",
        body="The full set: Draft | Ready | In Progress | Validated | Complete.\n"
        "A card goes Backlog -> In progress -> Done.",
    )
    assert ("reference_statuses.md", "ephemeral-task-state") not in _rules(tmp_path)


def test_work_still_in_progress_is_task_state(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "project_migration.md",
        name="Migration",
        description="State of the billing migration to the new ledger",
        type="project",
        body="The migration is still in progress and half the tables are copied.\n\n"
        "**Why:** x\n\n**How to apply:** y",
    )
    assert ("project_migration.md", "ephemeral-task-state") in _rules(tmp_path)


def test_public_values_are_not_secrets_but_passwords_still_are(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "reference_chat.md",
        name="Release channel",
        description="Where release notes are posted and how the VPN peers are set up",
        type="reference",
        body="Post release notes to #releases (channel id C04QX7R2M9K).\n"
        "Server pubkey `q3Vb7Lp0Zx9Wm2Ns8Kd4Rt6Yh1Gf5Jc0Ae3Iu7Ol9Pw=` for the WireGuard peer.\n"
        "Worker secrets: HOLIDAY_API_KEY, BILLING_WEBHOOK_SECRET (values in the vault).\n",
    )
    _mem(
        tmp_path,
        "reference_router.md",
        name="Router login",
        description="How to log in to the office router admin page",
        type="reference",
        body="Admin user `admin`, password: `Qmrtz8841Kv`\n",
    )
    rules = _rules(tmp_path)
    assert ("reference_chat.md", "secret") not in rules
    assert ("reference_router.md", "secret") in rules


def test_a_chain_address_the_line_names_is_public_and_examples_show_what_was_left_out(
    tmp_path: Path,
) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "reference_program.md",
        name="Program id",
        description="The devnet program address the SDK uses",
        type="reference",
        body="`gTHauBMdJHs45tc8tjCKL7MejvBECQHgD184io3hx1C` is defined as `PROGRAM_ID` in "
        "`app/lib/sdk.ts`.\nThe token contract address is "
        "0x52908400098527886E0F7030069857D2E4169EE7.\n",
    )
    _mem(
        tmp_path,
        "reference_keys.md",
        name="Signing key",
        description="Where the deploy signing key is",
        type="reference",
        body="The old `vaultHelper` signs with `gTHauBMdJHs45tc8tjCKL7MejvBECQHgD184io3hx1C`.\n",
    )
    findings = lint_memory_dir(tmp_path, progress=False)
    rules = {(f.path, f.rule) for f in findings}
    assert ("reference_program.md", "secret") not in rules  # the line says what it is
    assert ("reference_keys.md", "secret") in rules  # no such word: still a finding
    secret = next(f for f in findings if f.rule == "secret")
    assert "The old `…` signs" in secret.message  # the masked name shows as left out, not ``


@pytest.mark.parametrize(
    "phrase",
    [
        "Program ID",
        "program_id",
        "mint address",
        "wallet-addr",
        "contract id",
        "vault pubkey",
        "account address",
        "Public Addr",
        "pubkey",
        "wallet",
        "on-chain",
        "onchain",
    ],
)
def test_every_address_context_holds_one_of_its_needles(phrase: str) -> None:
    # The needles only decide whether the context pattern is run: a context they missed would
    # leave an address flagged, so each form the pattern accepts must hold one of them.
    from memdir_nb.lint import secret_context as sc

    assert sc._ADDRESS_CONTEXT.search(phrase)
    assert any(needle in phrase.lower() for needle in sc._ADDRESS_NEEDLES)


def test_why_and_how_lines_are_found_as_headings_and_in_other_languages(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "feedback_heading.md",
        name="Heading style",
        description="Why and how written as section headings",
        type="feedback",
        body="Rule.\n\n## Why\nBecause.\n\n## How to Apply\nAlways.",
    )
    _mem(
        tmp_path,
        "feedback_zh.md",
        name="中文规则",
        description="部署之前必须运行完整的测试套件",
        type="feedback",
        body="规则。\n\n**理由**：上次出过事故。\n\n**如何应用**：每次部署。",
    )
    rules = _rules(tmp_path)
    for path in ("feedback_heading.md", "feedback_zh.md"):
        assert (path, "missing-why") not in rules and (path, "missing-how-to-apply") not in rules


def test_relative_date_words_inside_korean_prose_are_labels(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "project_design.md",
        name="디자인 원칙",
        description="캘린더 화면의 색상과 강조 규칙",
        type="project",
        body="- 강조색은 CTA·today 버튼 등 액센트에만 쓴다\n\n**이유:** 가독성\n\n**적용:** 모든 화면",
    )
    assert ("project_design.md", "relative-date") not in _rules(tmp_path)


def test_document_ids_in_a_memory_about_google_docs_are_not_secrets(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    _mem(
        tmp_path,
        "reference_book_docs.md",
        name="Book drafts",
        description="Where the book chapters live in Google Docs",
        type="reference",
        body="### Google Docs ids\n- plan: `1Qw8ErTy7uIo9pAs0dFg_hJk2lZx3cVb4nM5qWeRtYu`\n"
        "- key for the API: `AIzaSyD4x7Qm2Lp9Vb0Nc3Rt8Kw6Hj1Fg5Ds2Ae`\n",
    )
    found = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "secret"]
    assert len(found) == 1 and "AIza" in found[0].message


def test_a_value_labelled_as_a_drive_id_is_no_secret_on_a_line_naming_a_token_file(
    tmp_path: Path,
) -> None:
    """real39: a note on an agent's two OAuth files lists, in a table row that names its token
    file, the spreadsheet it downloads as "Drive ID `…`". The memory never says "Google Drive",
    and the row says "token", so the Drive context did not apply and the id was a "secret".
    A value right after a Drive, folder, doc or sheet id label names a file; the same value
    under a token label is still one."""
    clean_dir(tmp_path)
    drive_id = "1Qx7pLm2ZrT9vKd4WbN8sYh3JcF6gAe0u"
    _mem(
        tmp_path,
        "reference_oauth_files.md",
        name="Agent OAuth files",
        description="Two separate OAuth files for the sheets and the drive scopes",
        type="reference",
        body="| File | Scope | Use |\n|---|---|---|\n"
        f"| `token_files.json` | `drive.readonly` | fetch the price list (Drive ID `{drive_id}`) |\n"
        "| `token_sheets.json` | `spreadsheets` | write the ledger (sheet id: "
        f"{drive_id[::-1]}) |\n",
    )
    assert [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "secret"] == []
    _mem(
        tmp_path,
        "reference_oauth_files.md",
        name="Agent OAuth files",
        description="Two separate OAuth files for the sheets and the drive scopes",
        type="reference",
        body=f"Drive ID for the refresh: the token is `{drive_id}`\n",
    )
    found = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "secret"]
    assert len(found) == 1


# --------------------------------------------------------------------------- the index file itself (branch doctor)


def test_lint_reports_an_index_that_is_not_utf8(tmp_path: Path) -> None:
    from memdir_nb.lint import lint_memory_dir

    (tmp_path / "MEMORY.md").write_bytes(b"- [Caf\xe9](a.md) \xe2\x80\x94 hook\n")
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "index-invalid-utf8"]
    assert len(found) == 1 and found[0].severity == "error"
    # the fix is a UTF-8 re-save: rebuild-index refuses such an index (fresh30) rather than
    # write U+FFFD over the bytes, so the hint no longer sends the person there
    assert "re-save it as UTF-8" in found[0].hint and "iconv" in found[0].hint


def test_lint_reports_an_index_that_is_a_fifo(tmp_path: Path) -> None:
    import os

    from memdir_nb.lint import lint_memory_dir

    os.mkfifo(tmp_path / "MEMORY.md")
    found = [f for f in lint_memory_dir(tmp_path) if f.rule == "index-refused"]
    assert len(found) == 1 and "FIFO" in found[0].message


def test_missing_index_hint_names_the_rebuild_index_command_on_its_own_dir(
    tmp_path: Path,
) -> None:
    from memdir_nb.lint import lint_memory_dir

    memory_dir = tmp_path / "my memory"  # a space: the command shows it shell-quoted
    memory_dir.mkdir()
    (memory_dir / "feedback_x.md").write_text(
        "---\nname: x\ndescription: a b c\ntype: feedback\n---\nbody\n"
    )
    (hint,) = [f.hint for f in lint_memory_dir(memory_dir) if f.rule == "index-missing"]
    assert f"`memdir-nb rebuild-index '{memory_dir}'`" in hint


def test_a_refused_index_hint_names_the_rebuild_index_command_on_its_own_dir(
    tmp_path: Path,
) -> None:
    from memdir_nb.lint import lint_memory_dir

    memory_dir = tmp_path / "my memory"
    memory_dir.mkdir()
    os.mkfifo(memory_dir / "MEMORY.md")
    (hint,) = [f.hint for f in lint_memory_dir(memory_dir) if f.rule == "index-refused"]
    assert f"`memdir-nb rebuild-index '{memory_dir}'`" in hint


# --- a store step killed half way (issue 10 item 5) -------------------------------------------


def test_pending_store_journal_is_an_error_until_recover_repairs_it(tmp_path: Path) -> None:
    from memdir_nb.spec.constants import STORE_JOURNAL_NAME
    from memdir_nb.storage.store import MemoryStore
    from memdir_nb.storage.transaction import journal_problem

    mem = tmp_path / "mem"
    store = MemoryStore(mem, now_ms=NOW_MS)
    saved = store.save(
        "Real database in tests",
        "Integration tests hit a real Postgres",
        "feedback",
        "Do not mock the database." + WHY_HOW,
    )
    (mem / "team").mkdir(exist_ok=True)
    before = lint_memory_dir(mem, now_ms=NOW_MS)
    assert not [f for f in before if f.rule == "store-journal-pending"]

    promote_killed_at(mem, saved.name, f"move:{saved.name}:done", now_ms=NOW_MS)
    assert (mem / STORE_JOURNAL_NAME).exists(), "the kill left no journal: nothing to lint"
    pending = [f for f in lint_memory_dir(mem, now_ms=NOW_MS) if f.rule == "store-journal-pending"]
    assert len(pending) == 1
    finding = pending[0]
    assert finding.severity == "error" and finding.path == STORE_JOURNAL_NAME
    assert finding.message == journal_problem(mem)
    assert f"MemoryStore({str(mem)!r}).recover()" in finding.hint  # the dir (lefts37b)

    assert MemoryStore(mem).recover(), "recover() reported nothing to repair"
    after = lint_memory_dir(mem, now_ms=NOW_MS)
    assert not [f for f in after if f.rule == "store-journal-pending"]
    assert after == before


# ---------------------------------------------------------------- description audit

GOTCHAS_BODY = """The health poller on the gateway sleeps between probes; it was 30 minutes.

**Why:** on 2026-02-03 a broken node kept serving for 25 minutes before anyone noticed.

**How to apply:**
- Keep the drain timeout at 45 seconds so connections finish cleanly.
- Rollback uses `ansible-playbook rollback.yml -e target=gateway` and takes about eight minutes.
- Certificates for the edge renew through cert-manager twelve days before expiry.

Update 2026-03-01: we changed the poller sleep to 10 minutes after the incident review with Priya.
"""


def test_description_that_names_none_of_the_body_is_flagged_with_its_unseen_lines(
    tmp_path: Path,
) -> None:
    found = lint_one(tmp_path, GOTCHAS_BODY, mtype="project", desc="Deployment gotchas")
    hits = [f for f in found if f.rule == "description-misses-body"]
    assert len(hits) == 1
    finding = hits[0]
    assert finding.severity == "warning"
    assert finding.line == 3  # the description line of the header
    assert "manifest-only selector" in finding.message
    # the quoted sentences carry their file line: the body starts after the 5-line header + blank
    text = (tmp_path / "reference_x.md").read_text(encoding="utf-8").split("\n")
    quoted_line = int(finding.message.split("line ", 1)[1].split(":", 1)[0])
    assert "poller" in text[quoted_line - 1] or "Rollback" in text[quoted_line - 1]


def test_description_audit_quotes_a_sentence_with_its_credential_masked(tmp_path: Path) -> None:
    # a published dir's lint output printed the password in this quote while the secret
    # finding on the same line masked it
    body = (
        "The lab printer console takes the password: Vq8!rTz3Lw2 for the service account.\n\n"
        + GOTCHAS_BODY
    )
    found = lint_one(tmp_path, body, mtype="project", desc="Deployment gotchas")
    quote = next(f for f in found if f.rule == "description-misses-body").message
    secret = next(f for f in found if f.rule == "secret").message
    assert "lab printer console" in quote and "chars]" in quote
    assert "Vq8!rTz3Lw2" not in quote and "Vq8!rTz3Lw2" not in secret


def test_description_that_summarises_the_body_is_not_flagged(tmp_path: Path) -> None:
    desc = (
        "Gateway poller sleep (now 10 min), drain timeout, rollback playbook and certificate "
        "renewal; incident review with Priya"
    )
    found = lint_one(tmp_path, GOTCHAS_BODY, mtype="project", desc=desc)
    assert "description-misses-body" not in rules(found)


def test_short_bodies_are_not_judged_by_the_description_audit(tmp_path: Path) -> None:
    body = "Grafana folder 'API', board `api-latency`; alerts page the primary." + WHY_HOW
    found = lint_one(tmp_path, body, desc="Where on-call looks first")
    assert "description-misses-body" not in rules(found)


def test_description_audit_reads_cjk_bodies_by_character_pieces() -> None:
    from memdir_nb.lint.description_audit import audit_description

    body = "\n\n".join(
        [
            "予約サービスから外部への呼び出しは指数バックオフで再試行し、初回の待ち時間は三秒。",
            "十回失敗するとイベントは退避テーブルに移され、佐藤さんに通知が飛ぶ。",
            "相手先は五百ミリ秒以内に応答しなければならず、遅い応答は失敗として数える。",
            "署名の秘密鍵は金庫のパスに保管され、四半期ごとに更新される。",
        ]
    )
    covered = audit_description(
        "予約APIのリトライ",
        "予約の外部呼び出しの再試行、退避テーブル、応答期限、署名の秘密鍵の保管",
        body,
    )
    missed = audit_description("Notes", "Things to remember about the service", body)
    assert covered.verdict == "covered"
    assert missed.verdict == "misses-body"
    assert len(missed.unseen) == 4 and missed.unseen[0].line == 1


def test_an_unseen_sentence_is_quoted_without_its_bold_label_and_full_width_colon() -> None:
    # A published Chinese memory writes its labels as "**原因**：" (a full-width colon): the
    # quote began with the colon.
    from memdir_nb.lint.description_audit import audit_description

    body = (
        "**原因**：`robot_state_publisher` 在命名空间下订阅的话题名字不一致，导致坐标系从未发布。\n"
        "**修复**：恢复重映射，蓝色机器人重新出现在可视化窗口里。\n"
    )
    audit = audit_description("Notes", "Things to remember", body)
    assert audit.unseen and all(u.text[0] not in "：:*" for u in audit.unseen)


def test_description_audit_flags_no_memory_of_the_demo_dir(tmp_path: Path) -> None:
    root = build_demo_memory_dir(tmp_path / "demo", now_ms=NOW_MS)
    found = lint_memory_dir(root, now_ms=NOW_MS)
    assert not [f for f in found if f.rule == "description-misses-body"]


def test_description_audit_follows_the_description_on_corpus_memories() -> None:
    """On the tune corpus (descriptions written to leave the facts out), most long memories are
    flagged; the same bodies under a description that states their sentences are not."""
    from memdir_nb.lint.description_audit import audit_description

    corpus = json.loads(
        (Path(__file__).resolve().parents[2] / "benchmarks/data/recall_tune.json").read_text(
            encoding="utf-8"
        )
    )
    memories = [m for d in corpus["dirs"] for m in d["memories"] if len(m["body"]) > 1500][:60]
    assert len(memories) == 60
    as_written = [audit_description(m["name"], m["description"], m["body"]) for m in memories]
    as_summary = [audit_description(m["name"], m["body"], m["body"]) for m in memories]
    flagged = sum(a.verdict == "misses-body" for a in as_written)
    assert flagged >= 40, flagged
    assert all(a.verdict == "covered" for a in as_summary)


def test_lint_draws_no_progress_bar_into_a_pipe_even_for_a_large_dir(tmp_path: Path) -> None:
    from memdir_nb.lint import PROGRESS_MIN_FILES

    mem = tmp_path / "mem"
    mem.mkdir()
    text = render_memory_file("Note", "A reference note about deploy windows", "reference", "x")
    for i in range(PROGRESS_MIN_FILES):
        (mem / f"note_{i:04d}.md").write_text(text, encoding="utf-8")
    proc = run_cli("lint", str(mem))  # stderr is a pipe here, as in a pre-commit hook
    assert "linting mem" not in proc.stderr and "file/s" not in proc.stderr
    assert f"in {mem}" in proc.stdout


def test_the_default_bar_needs_a_large_dir_and_a_terminal_or_a_notebook(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from memdir_nb.lint import PROGRESS_MIN_FILES
    from memdir_nb.lint.driver import progress_wanted

    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)  # not inside a notebook

    assert progress_wanted(10, True) is True  # asked for: always
    assert progress_wanted(PROGRESS_MIN_FILES * 10, False) is False
    assert progress_wanted(PROGRESS_MIN_FILES - 1, None) is False
    assert progress_wanted(PROGRESS_MIN_FILES, None) is False  # capsys: stderr is no terminal


def test_stale_project_goes_by_the_modified_time_not_a_restore(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    old = NOW_MS - 400 * DAY_MS
    path = write_memory(
        tmp_path,
        "project_old.md",
        "Old goal",
        "Availability goal of 99.9% for the year",
        "project",
        "Goal set on 2025-01-01." + WHY_HOW,
        mtime_ms=NOW_MS - DAY_MS,  # restored from a backup yesterday
    )
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("type: project\n", f"type: project\nmodified: {iso_utc(old)}\n"))
    os.utime(path, (NOW_MS / 1000 - 86_400, NOW_MS / 1000 - 86_400))
    write_index(tmp_path)
    assert "stale-project" in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))


def test_index_lint_counts_and_reads_the_index_as_claude_code_loads_it(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    index = tmp_path / "MEMORY.md"
    entries = index.read_text(encoding="utf-8")
    padding = "<!--\n" + "old notes kept out of the prompt\n" * 250 + "-->\n"
    stale = "<!-- - [Gone](project_gone.md) — removed last week -->\n"
    index.write_text("---\nowner: noor\n---\n" + padding + stale + entries, encoding="utf-8")
    found = rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))
    assert "index-over-cap" not in found  # 250 commented lines do not count
    assert "index-not-pointer" not in found and "index-dangling-entry" not in found


def test_lint_names_a_file_whose_meaning_depends_on_an_inline_hash(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    path = tmp_path / "reference_brand.md"
    path.write_text(
        "---\nname: Brand colours\ndescription: Logo colour rules (brand #2E86AB)\n"
        "type: reference\n---\n\nUse #2E86AB for the logo.\n",
        encoding="utf-8",
    )
    write_index(tmp_path)
    (finding,) = [
        f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "inline-hash-value"
    ]
    assert finding.path == "reference_brand.md" and finding.line == 3
    assert "'Logo colour rules (brand #2E86AB)'" in finding.message
    assert "'Logo colour rules (brand'" in finding.message
    path.write_text(
        path.read_text()
        .replace("(brand #2E86AB)", "'(brand #2E86AB)'")
        .replace(
            "description: Logo colour rules '(brand #2E86AB)'",
            "description: 'Logo colour rules (brand #2E86AB)'",
        )
    )
    assert "inline-hash-value" not in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))


def test_an_inline_hash_past_the_quote_limit_shows_where_the_two_readings_part(
    tmp_path: Path,
) -> None:
    # realdata31: a real description put its ' #' past the 80 characters a finding quotes
    # ("... six-digit hex (no #)"), so both readings were shown cut to the same 79 characters
    # and the finding named no difference. The quotes now start shortly before the cut.
    clean_dir(tmp_path)
    lead = "Each glaze batch is logged in the kiln book with cone, hold time, and colour code"
    path = tmp_path / "reference_glaze_codes.md"
    path.write_text(
        f"---\nname: Glaze codes\ndescription: {lead} as bare hex (no #)\n"
        "type: reference\n---\n\nCodes are six digits.\n",
        encoding="utf-8",
    )
    write_index(tmp_path)
    (finding,) = [
        f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "inline-hash-value"
    ]
    assert "as bare hex (no #)'" in finding.message  # what Claude Code reads, to its end
    assert "as bare hex (no'" in finding.message  # where older readers stop
    assert finding.message.count("\u2026") == 2  # each quote says it starts mid-value


def test_a_dash_run_inside_a_header_value_is_where_claude_code_ends_the_header(
    tmp_path: Path,
) -> None:
    # Claude Code finds a memory's header with /^---\s*\n([\s\S]*?)---\s*\n?/ (2.1.214's
    # header stamper, and 2.1.278's as read by others): the first '---' after the opening line
    # closes it, inside a value too, and whatever follows is body to it. Here it reads the
    # description cut before the dashes and no type at all.
    clean_dir(tmp_path)
    path = tmp_path / "project_kiln.md"
    path.write_text(
        "---\nname: Kiln firing\ndescription: Bisque first --- then the glaze firing\n"
        "type: project\n---\n\nBisque at 950, glaze at 1220.\n",
        encoding="utf-8",
    )
    write_index(tmp_path)
    (finding,) = [
        f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "header-ends-early"
    ]
    assert finding.path == "project_kiln.md" and finding.line == 3
    assert finding.severity == "warning"
    assert "'description: Bisque first'" in finding.message
    assert "(type)" in finding.message
    path.write_text(path.read_text().replace(" --- ", " \u2014 "), encoding="utf-8")
    assert "header-ends-early" not in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))


def test_an_index_entry_before_the_dashes_that_end_its_frontmatter_is_not_loaded(
    tmp_path: Path,
) -> None:
    # An index opening with a '---' rule: Claude Code's frontmatter runs to the first '---',
    # here inside the first entry's hook, so that entry never loads and its file is unlisted.
    clean_dir(tmp_path)
    index = tmp_path / "MEMORY.md"
    first, *rest = index.read_text(encoding="utf-8").splitlines(keepends=True)
    index.write_text("---\n" + first.rstrip("\n") + " --- still hook\n" + "".join(rest))
    unlisted = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "not-in-index"]
    assert [f.path for f in unlisted] == [first.split("](")[1].split(")")[0]]


def test_quotes_do_not_keep_claude_code_from_ending_a_header_at_a_dash_run(
    tmp_path: Path,
) -> None:
    # the pattern knows nothing of quotes: it cuts inside the quoted value all the same
    found = lint_one(tmp_path, "Body.", desc="Steps: build --- then ship", mtype="project")
    (finding,) = [f for f in found if f.rule == "header-ends-early"]
    assert "Steps: build" in finding.message and "then ship" not in finding.message
    assert "(type)" in finding.message


# ---- shapes from real dirs that lint used to misjudge (fixtures written for this project)


def _one_feedback(root: Path, rel: str, body: str) -> None:
    write_memory(root, rel, "Label check", "How a rule is worded in this dir", "feedback", body)


def test_an_agent_folder_keeps_its_own_index(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    agent = tmp_path / "reviewer"
    _one_feedback(tmp_path, "reviewer/feedback_review_style.md", "Short reviews." + WHY_HOW)
    (agent / "MEMORY.md").write_text(
        "# Reviewer notes\n\n- [Review style](feedback_review_style.md) — keep reviews short\n"
    )
    found = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "not-in-index"]
    assert found == []
    (agent / "MEMORY.md").write_text("# Reviewer notes\n\nnothing listed yet\n")
    found = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "not-in-index"]
    assert [f.path for f in found] == ["reviewer/feedback_review_style.md"]


def test_a_file_named_in_the_index_prose_is_no_entry(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    index = tmp_path / "MEMORY.md"
    prose = "Architecture decisions are in the repo's `design.md`; read `design.md` before big changes.\n"
    steps = "1. Read `design.md` and follow it: tokens, themes and spacing.\n"
    index.write_text(index.read_text() + "\n" + prose + steps)
    found = rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))
    assert "index-dangling-entry" not in found and "index-duplicate-entry" not in found


def test_german_half_translated_labels_count_as_why_and_how(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    body = (
        "**Regel:** Vor jedem Merge die Migrationen lokal prüfen.\n\n"
        "**Warum:** Eine kaputte Migration hat einmal die Staging-Datenbank blockiert.\n\n"
        "**Wie zu apply:** Bei jeder Änderung unter db/migrations."
    )
    _one_feedback(tmp_path, "feedback_migrationen.md", body)
    write_index(tmp_path)
    found = rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))
    assert "missing-why" not in found and "missing-how-to-apply" not in found


def test_a_shell_recipe_and_a_design_table_are_not_code_or_git_history(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    body = (
        "Flash the board before each HIL run.\n\n"
        "```bash\nusbip attach -r hil-01 -b 1-1.4\nmake flash BOARD=nucleo\n```\n\n"
        "| step | id | owner |\n|---|---|---|\n| bring-up | #12 | ana |\n"
        "| soak | #14 | li |\n| sign-off | #19 | ana |\n" + WHY_HOW
    )
    _one_feedback(tmp_path, "feedback_flash_first.md", body)
    write_index(tmp_path)
    found = rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))
    assert "derivable-code-block" not in found and "derivable-git-history" not in found
    code = body.replace(
        "```bash\nusbip attach -r hil-01 -b 1-1.4\nmake flash BOARD=nucleo",
        "```python\ndef flash():\n    return 1",
    )
    _one_feedback(tmp_path, "feedback_flash_first.md", code)
    assert "derivable-code-block" in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))


def test_device_paths_and_serial_numbers_are_not_secrets(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    body = (
        "The probe is /dev/serial/by-id/usb-FTDI_FT232R_USB_UART_A50285BI-if00-port0.\n"
        "Board serial: 0x3f9a2b7c4d1e5f60a1b2, serial_id=E6614C311B8F2A2D.\n" + WHY_HOW
    )
    write_memory(
        tmp_path,
        "team/reference_hil_rig.md",
        "HIL rig",
        "Which USB devices the rig uses",
        "reference",
        body,
    )
    write_index(tmp_path)
    assert not [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if "secret" in f.rule]


def test_a_hand_run_query_and_an_error_text_are_not_repository_code(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    body = (
        "Empty types block new products; clear them once.\n\n"
        "```sql\nUPDATE products SET kind = NULL WHERE kind = '';\n```\n\n"
        "The replicator then stops failing with:\n\n"
        "```\nERROR: Dynamic SQL Error\nColumn unknown EXTRA_COST\nAt line 1, column 3092\n```"
        + WHY_HOW
    )
    _one_feedback(tmp_path, "feedback_empty_kinds.md", body)
    write_index(tmp_path)
    assert "derivable-code-block" not in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))


def test_a_why_question_heading_counts_as_the_why(tmp_path: Path) -> None:
    clean_dir(tmp_path)
    body = "Server state goes through RTK Query.\n\n**Why RTK Query?** Caching and tag invalidation.\n\n**How to apply:** new endpoints."
    write_memory(
        tmp_path,
        "project_state_layer.md",
        "State layer",
        "Where server state lives",
        "project",
        body,
    )
    write_index(tmp_path)
    assert "missing-why" not in rules(lint_memory_dir(tmp_path, now_ms=NOW_MS))


def _audit_sentence_by_sentence(
    name: str, description: str, body: str
) -> tuple[int, int, list[tuple[int, str, tuple[str, ...]]]]:
    """The audit's figures as first written: every line split, each sentence's terms apart."""
    from memdir_nb.lint import description_audit as da

    label = {da._stem(t) for t in da.salient_terms(f"{name} {description} ")}
    total = unseen_terms = 0
    unseen: list[tuple[int, str, tuple[str, ...]]] = []
    fence = ""  # which lines are code: the one fence rule (spec.text.fence_change)
    for no, raw in enumerate(body[: da.MAX_AUDIT_CHARS].split("\n"), start=1):
        change = fence_change(raw.strip(), fence)
        if change is not None:
            fence = change
            continue
        if fence or not raw.strip():
            continue
        for part in da._SENTENCE_END.split(da._LABEL.sub("", raw, count=1).strip()):
            if not part.strip():
                continue
            terms = tuple(dict.fromkeys(da.salient_terms(part.strip())))
            total += len(terms)
            known = sum(t[: da.PREFIX] in label for t in terms)
            if len(terms) < da.MIN_SENTENCE_TERMS or known >= 2 or known / len(terms) >= 0.25:
                continue
            unseen.append((no, part.strip(), terms))
            unseen_terms += len(terms)
    return total, unseen_terms, unseen


@pytest.mark.parametrize("seed", range(8))
def test_description_audit_counts_terms_as_sentence_by_sentence(seed: int) -> None:
    import random

    from memdir_nb.lint.description_audit import audit_description

    rng = random.Random(seed)
    pieces = ["retry", "budget", "queue", "Migrationen", "deploy", "owner", "2026-03-05", "the"]
    pieces += ["内存泄漏", "です", "Ünïcode", "don't", "follow-up", "**Why:**", "- ", "# ", "```"]
    pieces += [". ", "! ", "? ", "。", "！", ".", "\n", "\n", " ", " ", " ", "1. ", "> "]
    # outside ASCII, where the audit reads the words of all lines in one pass: a combining
    # accent after a line break, sigma (final or not), a capital dotted I, other digits, arrows
    pieces += ["\u0301", "ΟΔΟΣ", "Σ", "İstanbul", "١٢٣٤", "→", "Ärger", "’s", "한국어"]
    for _ in range(40):
        body = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
        got = audit_description("Retry budget", "queue deploy owner", body)
        total, unseen_terms, unseen = _audit_sentence_by_sentence(
            "Retry budget", "queue deploy owner", body
        )
        assert got.salient_terms == total and got.unseen_count == len(unseen)
        assert got.unseen_share == (unseen_terms / total if total else 0.0)
        shown = sorted(unseen, key=lambda s: (-len(s[2]), s[0]))[:5]
        assert [(s.line, s.text, s.terms) for s in got.unseen] == sorted(shown, key=lambda s: s[0])


@pytest.mark.parametrize("seed", range(4))
def test_the_label_is_the_stems_of_the_salient_terms_of_name_description_and_filename(
    seed: int,
) -> None:
    import random

    from memdir_nb.lint import description_audit as da

    rng = random.Random(seed)
    pieces = ["Retry", "budget", "the", "2026-03-05", "1234", "don't", "follow-up", "also"]
    pieces += ["Migrationen", "内存泄漏", "です", "İstanbul", "→", "’s", "ΟΔΟΣ", "١٢٣٤", "\u0301"]
    pieces += [" ", " ", "-", "_", ".", "\n"]
    for _ in range(200):
        text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30)))
        assert da._label_stems(text) == {t[: da.PREFIX] for t in da.salient_terms(text)}


def test_the_audits_word_cache_is_emptied_at_its_bound_and_gives_the_same_terms(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from memdir_nb.lint import description_audit as da

    monkeypatch.setattr(da, "_ASCII_STEMS", {})
    monkeypatch.setattr(da, "_MAX_KNOWN_WORDS", 4)
    text = "retry the budget\nqueue budget owner 2026 also deploys"
    first = da._terms_by_line(text, {"budge"})
    assert len(da._ASCII_STEMS) == 8  # every distinct word of the text, once
    second = da._terms_by_line(text, {"budge"})  # emptied first: over its bound
    assert (
        first == second == [(("retry", "budget"), 1), (("queue", "budget", "owner", "deploys"), 1)]
    )
    assert da._label_stems("Retry budgets also") == {"retry", "budge"}


def test_the_audits_word_cache_keeps_no_word_as_long_as_a_pasted_blob(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a "word" is as long as its text: 50,000 of them could hold gigabytes in a kernel
    from memdir_nb.lint import description_audit as da

    monkeypatch.setattr(da, "_ASCII_STEMS", {})
    blob = "q" * 5_000
    got = da._terms_by_line(f"retry {blob}\nbudget", {"retry"})
    assert got == [(("retry", blob), 1), (("budget",), 0)]
    assert blob not in da._ASCII_STEMS and "retry" in da._ASCII_STEMS
    assert da._label_stems(f"retry {blob}") == {"retry", "qqqqq"}


def _mask_every_step(text: str) -> str:
    """mask_public_values with every step run on every text (no quick check in front)."""
    from memdir_nb.lint import identifier_names
    from memdir_nb.lint import secret_context as sc

    text = sc._PUBLIC_KEY.sub(sc._public, text)
    text = sc._DRIVE_ID_LABELLED.sub(
        lambda m: (
            m.group(0) if m.group("v").startswith(identifier_names.KEY_PREFIXES) else sc._public(m)
        ),
        text,
    )
    drive = sc._DRIVE_CONTEXT.search(text) is not None
    lines = text.split("\n")

    def credential(line: str) -> bool:  # a line that speaks of one keeps its context values
        return sc._CREDENTIAL_WORDS.search(line) is not None

    for i, line in enumerate(lines):
        if drive and not credential(line):
            lines[i] = sc._DRIVE_ID.sub(
                lambda m: (
                    m.group(0)
                    if m.group(0).startswith(identifier_names.KEY_PREFIXES)
                    else sc.MASKED
                ),
                lines[i],
            )
        if "channel" in lines[i].lower():
            lines[i] = sc._CHANNEL_ID.sub(sc._public, lines[i])
        if sc._ADDRESS_CONTEXT.search(lines[i]) and not credential(lines[i]):
            lines[i] = sc._CHAIN_ADDRESS.sub(sc._public, lines[i])
    text = "\n".join(lines)
    for pattern in sc._PUBLIC_VALUE_PATTERNS:
        text = pattern.sub(sc._public, text)
    lines = text.split("\n")
    for i, line in enumerate(lines):
        if not credential(line):
            lines[i] = sc._SESSION_ID.sub(sc._public, line)
    for i, line in enumerate(lines):
        masked = sc._IDENTIFIER.sub(
            lambda m: (
                sc.MASKED if identifier_names.looks_like_identifier(m.group(0)) else m.group(0)
            ),
            line,
        )
        if masked != line and not sc._CREDENTIAL_WORDS.search(line):
            lines[i] = masked
    return "\n".join(lines)


_MASK_PIECES = [
    "HOLIDAY_API_KEY",
    "config/settings.yaml",
    "~/.ssh/id_ed25519",
    "/etc/app/",
    "ses_" + "a1B2c3D4e5F6g7H8",
    "prj_" + "Q7wEr9TyU1iOp3AsD5fGh7Jk",
    "team_" + "Z2xC4vB6nM8qW0eR2tY4uI6o",
    "public key is ",
    "AAAAC3NzaC1lZDI1NTE5AAAAIG",
    "channel C024BE91L",
    "Program ID ",
    "gTHauBMdJHs45tc8tjCKL7MejvBECQHgD184io3hx1C",
    "0x52908400098527886E0F7030069857D2E4169EE7",
    "Google Drive folders/",
    "Drive ID `",
    "sheet id: ",
    "1a2B3c4D5e6F7g8H9i0JkLmNoPqRs",
    "AlphaXmfRpt1270LowLiq",
    "Base12RNN_NoNorm_H32",
    "snake_case_name",
    "retryBudget",
    "password",
    "Corbarbar",
    "plain words",
    "x.md",
    "e.g.",
    "Straße",
    "\n",
    " ",
    "_",
    ".",
    "9",
]


@pytest.mark.parametrize("seed", range(30))
def test_masking_with_quick_checks_equals_every_step_run(seed: int) -> None:
    import random

    from memdir_nb.lint.secret_context import mask_public_values

    rng = random.Random(seed)
    for _ in range(40):
        text = "".join(rng.choice(_MASK_PIECES) for _ in range(rng.randint(1, 24)))
        assert mask_public_values(text) == _mask_every_step(text), text


@pytest.mark.parametrize("seed", range(10))
def test_masking_fields_together_equals_masking_each_alone(seed: int) -> None:
    # The quick checks run once on the fields joined; a step left out there must be one that
    # would not have changed any field.
    import random

    from memdir_nb.lint.secret_context import mask_public_values, mask_public_values_each

    pieces = [
        *_MASK_PIECES,
        "PUBLIC KEY = ",
        "Channel G0123ABCD9 ",
        "Wallet ",
        "GOOGLE DOCS ",
        "ſ",
        "é",
    ]
    rng = random.Random(seed)
    for _ in range(40):
        texts = [
            "".join(rng.choice(pieces) for _ in range(rng.randint(0, 8)))
            for _ in range(rng.randint(1, 5))
        ]
        assert mask_public_values_each(texts) == [mask_public_values(t) for t in texts], texts


def test_a_step_ruled_out_on_the_joined_fields_is_left_out_for_each() -> None:
    from memdir_nb.lint.secret_context import MASKED, mask_public_values_each

    assert mask_public_values_each(["plain words", "", "more plain words"]) == [
        "plain words",
        "",
        "more plain words",
    ]
    # one field's hint makes its step run there, and only there does it mask
    got = mask_public_values_each(["set HOLIDAY_API_KEY", "plain words"])
    assert got == [f"set {MASKED}", "plain words"]


def test_every_maskable_identifier_shows_a_lower_case_letter_before_a_break() -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memdir_nb.lint import identifier_names
    from memdir_nb.lint import secret_context as sc

    @settings(
        max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(st.from_regex(r"[A-Za-z][A-Za-z0-9_]{7,30}", fullmatch=True))
    def check(token: str) -> None:
        if identifier_names.looks_like_identifier(token):
            marks = token.encode("ascii", "replace").translate(sc._CASE_MARKS)
            assert sc._LOWER_THEN_BREAK in marks, token

    check()


def test_lint_pauses_the_cycle_collector_only_while_it_runs(tmp_path: Path) -> None:
    import gc

    from memdir_nb.lint import lint_dir

    (tmp_path / "a.md").write_text("---\nname: A\ndescription: a b c\ntype: user\n---\nx\n")
    assert gc.isenabled()
    lint_dir(tmp_path, now_ms=NOW_MS, progress=False)
    assert gc.isenabled()
    with pytest.raises(ValueError, match="not a directory"):
        lint_dir(tmp_path / "a.md", now_ms=NOW_MS, progress=False)
    assert gc.isenabled()  # back on after a refused dir too
    gc.disable()
    try:
        lint_dir(tmp_path, now_ms=NOW_MS, progress=False)
        assert not gc.isenabled()  # a caller's choice to keep it off is kept
    finally:
        gc.enable()


@pytest.mark.parametrize("index", range(3))
def test_every_public_value_match_holds_its_hint(index: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from memdir_nb.lint import secret_context as sc

    pattern, hint = sc._PUBLIC_VALUE_PATTERNS[index], sc._PUBLIC_VALUE_HINTS[index]

    @settings(
        max_examples=200, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(st.from_regex(pattern, alphabet=st.characters(codec="ascii")))
    def check(text: str) -> None:
        for m in pattern.finditer(text):
            assert hint.search(m.group("v")) is not None, text
            if hint is sc._FILE_NAME_HINT:
                assert sc._DOT_LETTER.search(m.group("v")) is not None, text

    check()


# A hang guard only (speed is measured in benchmarks/): about 4 s here alone, and 20 s on a
# machine at load 10 with the suite on both cores, so the limit leaves room for a busy CI.
@pytest.mark.timeout(90)
def test_many_dangling_lines_over_many_files_are_checked_in_one_pass_each(tmp_path: Path) -> None:
    sub = tmp_path / "sub"
    sub.mkdir()
    body = "---\nname: n\ndescription: about one thing\ntype: reference\n---\nbody\n"
    for i in range(3000):
        (sub / f"r{i}.md").write_text(body, encoding="utf-8")
    lines = ["- [One](r7.md) \u2014 moved into sub/"]
    lines += [f"- [x{i}](gone{i}.md) \u2014 missing" for i in range(25_000)]
    (tmp_path / "MEMORY.md").write_text("\n".join(lines) + "\n", encoding="utf-8")
    found = [f for f in lint_memory_dir(tmp_path, progress=False) if f.line == 1]
    assert [f.rule for f in found] == ["index-dangling-entry"]
    assert "a memory of that name is at sub/r7.md" in found[0].hint


def test_an_index_line_at_a_name_the_scan_passed_over_says_what_is_there_not_that_it_is_absent(
    tmp_path: Path,
) -> None:
    # a looping link, a chain past 40 links and a FIFO at an indexed name were each "entry
    # points at x.md, which does not exist" beside the scan's "not read: …" of the same name
    memory = tmp_path / "memory"
    (memory / "team").mkdir(parents=True)
    os.symlink("user_pong.md", memory / "user_ping.md")
    os.symlink("user_ping.md", memory / "user_pong.md")
    os.mkfifo(memory / "project_pipe.md")
    link_chain(memory / "team" / ".links", 100, "../real.md")
    (memory / "team" / "real.md").write_text("x\n", encoding="utf-8")
    os.symlink(".links/c0", memory / "team" / "project_chain.md")
    (memory / "MEMORY.md").write_text(
        "- [Ping](user_ping.md) — a loop\n- [Pipe](project_pipe.md) — a FIFO\n"
        "- [Gone](user_gone.md) — nothing\n",
        encoding="utf-8",
    )
    (memory / "team" / "MEMORY.md").write_text(
        "- [Chain](project_chain.md) — 101 links\n", encoding="utf-8"
    )
    found = lint_memory_dir(memory)
    dangling = {(f.path, f.message) for f in found if f.rule == "index-dangling-entry"}
    skipped = {f.path: f.message for f in found if f.rule == "skipped-by-scan"}
    assert dangling == {
        ("MEMORY.md", "entry points at user_ping.md, which is there but not read: symlink loop"),
        (
            "MEMORY.md",
            f"entry points at project_pipe.md, which is there but not read: {skipped['project_pipe.md'].removeprefix('not read: ')}",
        ),
        ("MEMORY.md", "entry points at user_gone.md, which does not exist"),
        (
            "team/MEMORY.md",
            "entry points at project_chain.md, which is there but not read: chain of more than "
            "40 symlinks (the most the kernel follows; not a loop)",
        ),
    }


def test_an_index_line_at_a_chain_just_past_40_links_is_there_but_not_read(tmp_path: Path) -> None:
    # The index's target check resolves 40 links and the kernel follows the 41st, so the line
    # counted as a file; the scan's stat meets ELOOP and passes the name over.
    memory = tmp_path / "memory"
    link_chain(memory / ".links", 40, "end.txt")
    (memory / ".links" / "end.txt").write_text("x\n", encoding="utf-8")
    os.symlink(".links/c0", memory / "user_chain.md")  # 41 links in all
    (memory / "MEMORY.md").write_text(
        "- [Chain](user_chain.md) \u2014 41 links\n", encoding="utf-8"
    )
    found = lint_memory_dir(memory)
    chain_words = "chain of more than 40 symlinks (the most the kernel follows; not a loop)"
    assert {(f.path, f.message) for f in found if f.rule == "skipped-by-scan"} == {
        ("user_chain.md", f"not read: {chain_words}")
    }
    dangling = [f for f in found if f.rule == "index-dangling-entry"]
    assert [(f.path, f.line, f.message) for f in dangling] == [
        (
            "MEMORY.md",
            1,
            f"entry points at user_chain.md, which is there but not read: {chain_words}",
        )
    ]
    assert dangling[0].hint.startswith("fix what is at that name")
    os.remove(memory / ".links" / "c39")  # 40 links: read, listed, nothing to say
    os.symlink("end.txt", memory / ".links" / "c39")
    os.remove(memory / "user_chain.md")
    os.symlink(".links/c1", memory / "user_chain.md")
    again = lint_memory_dir(memory)
    assert not [f for f in again if f.rule in {"index-dangling-entry", "skipped-by-scan"}]


_LINT_FIXES = (
    "import json, sys; from memdir_nb.lint import lint_memory_dir\n"
    "for f in lint_memory_dir(sys.argv[1]): print(json.dumps([f.rule, f.hint]))"
)


def test_lint_under_a_python_that_reads_names_as_ascii_never_advises_losing_a_memory(
    tmp_path: Path,
) -> None:
    # Under LC_ALL=C with UTF-8 coercion off, "café.md" was refused as "not valid UTF-8" and its
    # good index line reported dangling, with the fixes "rename it" and "remove the line"
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "café.md").write_text("---\nname: c\ndescription: d\ntype: user\n---\nx\n", "utf-8")
    (mem / "MEMORY.md").write_text("- [Café](café.md) — where we meet\n", encoding="utf-8")
    env = {**os.environ, **ASCII_LOCALE}
    skip_unless_python_starts(env)
    out = subprocess.run(
        [sys.executable, "-c", _LINT_FIXES, str(mem)],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    fixes = dict(json.loads(line) for line in out.stdout.splitlines())
    assert set(fixes) == {"index-dangling-entry", "skipped-by-scan"}
    for fix in fixes.values():
        assert "PYTHONUTF8=1" in fix and "remove" not in fix and "rename" not in fix


@pytest.mark.parametrize(
    "index",
    ["<!-- pointers go below -->", "<!-- never closed\n\n- ", "---\nowner: noor\n---"],
    ids=["one-comment", "open-comment", "frontmatter-only"],
)
def test_an_index_that_loads_nothing_is_linted_not_a_crash(tmp_path: Path, index: str) -> None:
    """Failed before the fix (attack round 29): an index that is all block comment or all
    frontmatter, with no final newline, ended the whole lint (API and CLI) with "zip()
    argument 2 is longer than argument 1"; a teammate's team/MEMORY.md did it for everyone."""
    root = tmp_path / "m"
    (root / "team").mkdir(parents=True)
    _mem(root, "user_a.md", name="A", description="likes tea", type="user", body="Likes tea.")
    (root / "team" / "MEMORY.md").write_text(index)
    findings = lint_memory_dir(root, now_ms=NOW_MS)
    assert not [f for f in findings if f.severity == "error"]
    out = subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", "lint", str(root)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 0 and "Traceback" not in out.stderr and "zip()" not in out.stderr


def test_two_files_whose_names_differ_only_in_nfc_and_nfd_are_named_as_a_pair(
    tmp_path: Path,
) -> None:
    """`project_café.md` composed and decomposed are two files on Linux that every listing
    shows alike; lint said nothing of it (polish31). It now names the pair, each name escaped
    so the difference shows, once, on the first of them."""
    clean_dir(tmp_path)
    composed = unicodedata.normalize("NFC", "project_café.md")
    decomposed = unicodedata.normalize("NFD", "project_café.md")
    for name in (composed, decomposed):
        write_memory(tmp_path, name, "Cafe", "The cafe on the corner", "project", "Open at 8.")
    write_index(tmp_path)
    (twins,) = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "name-twins"]
    assert twins.path == min(composed, decomposed) and twins.severity == "warning"
    assert "project_caf\\xe9.md (composed, NFC)" in twins.message
    assert "project_cafe\\u0301.md (decomposed, NFD, as macOS writes names)" in twins.message
    assert twins.message.isascii()  # the pair as escapes, nothing that displays alike
    clean = [f for f in lint_memory_dir(clean_dir(tmp_path / "one"), now_ms=NOW_MS)]
    assert "name-twins" not in {f.rule for f in clean}


def test_an_index_line_naming_a_file_in_its_other_normal_form_says_so_with_both_spellings(
    tmp_path: Path,
) -> None:
    """attack34: a line written `café` composed for a file macOS named decomposed was "entry
    points at project_café.md, which does not exist" beside "project_café.md: not listed":
    one name on screen, both said to be missing. The finding now spells both and the fix,
    whose command names the real dir shell-quoted (tidy36: it said a literal DIR)."""
    composed = unicodedata.normalize("NFC", "project_café.md")
    decomposed = unicodedata.normalize("NFD", "project_café.md")
    memory_dir = tmp_path / "my memory"  # a space: the command shows it shell-quoted
    memory_dir.mkdir()
    write_memory(memory_dir, decomposed, "Cafe", "The cafe on the corner", "project", "Open at 8.")
    (memory_dir / "MEMORY.md").write_text(f"- [Cafe]({composed}) — the corner cafe\n")
    findings = lint_memory_dir(memory_dir, now_ms=NOW_MS)
    (dangling,) = [f for f in findings if f.rule == "index-dangling-entry"]
    assert "project_caf\\xe9.md (composed, NFC), which does not exist" in dangling.message
    assert "project_cafe\\u0301.md (decomposed, NFD, as macOS writes names) is there" in (
        dangling.message
    )
    assert f"`memdir-nb rebuild-index '{memory_dir}' --drop-dangling`" in dangling.hint


def test_an_agent_memory_roots_own_index_is_an_error_naming_the_memories_no_agent_sees(
    real_dir: Callable[[str], Path],
) -> None:
    # realdata33: agent-memory/ read as one memory dir (an index one level too high beside
    # files of its own, or beside an agent folder without an index) linted clean, though
    # Claude Code loads agent-memory/<agent>/MEMORY.md and never the root's
    for kind, stranded in (
        ("agent-beside-index", "builder/reference_cache_host.md"),
        ("agent-root-files", "project_house_glazes.md, project_wheel_slots.md"),
    ):
        found = [f for f in lint_memory_dir(real_dir(kind)) if f.rule == "index-never-loaded"]
        assert len(found) == 1, kind
        assert found[0].path == "MEMORY.md" and found[0].severity == "error"
        assert "never loaded" in found[0].message and stranded in found[0].message
    # an agent's own folder, and a plain memory dir, load their index
    for loads in (real_dir("agent-root-files") / "tester", real_dir("private-only")):
        assert ("MEMORY.md", "index-never-loaded") not in _rules(loads)


def test_a_memory_an_agents_own_index_leaves_out_is_offered_to_that_index_not_the_roots(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35a: at an agent memory root read as one memory dir, the missing line was offered to
    # the root's MEMORY.md, which no agent loads, as `planner/project_freeze_window.md`
    parent = real_dir("agent-root-unlisted")
    (missing,) = [f for f in lint_memory_dir(parent) if f.rule == "not-in-index"]
    assert missing.path == "planner/project_freeze_window.md"
    assert "not listed in planner/MEMORY.md, the index Claude Code loads" in missing.message
    assert "'- [Title](project_freeze_window.md) \u2014 hook' line to planner/MEMORY.md" in (
        missing.hint
    )
    # a line in the root's index is no line for the agent: still missing from planner's
    root_index = parent / "MEMORY.md"
    root_index.write_text(
        root_index.read_text() + "- [Freeze](planner/project_freeze_window.md) \u2014 release\n"
    )
    (still,) = [f for f in lint_memory_dir(parent) if f.rule == "not-in-index"]
    assert still.path == "planner/project_freeze_window.md" and "planner/MEMORY.md" in still.message
    in_agent = [f for f in lint_memory_dir(parent / "planner") if f.rule == "not-in-index"]
    assert [f.path for f in in_agent] == ["project_freeze_window.md"]  # the agent's own dir


def test_a_memory_of_an_agent_folder_without_an_index_is_sent_to_give_it_one_not_to_the_root(
    real_dir: Callable[[str], Path],
) -> None:
    # real38 (an agent's index written one level too high): index-never-loaded said to give
    # builder/ its own index while not-in-index told the user to add a line to the root's
    findings = lint_memory_dir(real_dir("agent-beside-index"))
    (missing,) = [f for f in findings if f.rule == "not-in-index"]
    (never,) = [f for f in findings if f.rule == "index-never-loaded"]
    step = "give builder/ an index of its own: `memdir-nb rebuild-index agent-memory/builder`"
    assert missing.path == "builder/reference_cache_host.md"
    assert (
        "builder/ has no MEMORY.md, the index Claude Code loads for that agent" in missing.message
    )
    assert missing.hint.startswith(step) and step in never.hint  # one step, both findings
    assert "add a '- [Title]" not in missing.hint


def test_a_password_under_a_chinese_label_in_the_index_is_a_secret(tmp_path: Path) -> None:
    # realdata34: a real Chinese memory index (a ~/.claude kept in git) held two passwords as
    # `密码：<value>`, with a full-width colon; lint found none of them
    (tmp_path / "MEMORY.md").write_text(
        "# \u9879\u76ee\u8bb0\u5fc6\n\n- \u8d26\u53f7\uff1astudio@example.com\n"
        "- \u5bc6\u7801\uff1aKiln2026x\n",
        encoding="utf-8",
    )
    (secret,) = [f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "secret"]
    assert secret.line == 4 and "password assignment" in secret.message


def test_an_index_of_wikilinks_lists_its_files_and_names_a_missing_one_as_a_link(
    real_dir: Callable[[str], Path],
) -> None:
    # realdata34: `- [[slug]] — hook` lines read as prose, so each memory was not-in-index and
    # each line index-not-pointer; a link to a memory not written yet is named, never "remove"
    mem = real_dir("wikilink-index")
    found = lint_memory_dir(mem, now_ms=NOW_MS)
    rules = {(f.rule, f.path) for f in found}
    assert ("not-in-index", "clay-supplier.md") in rules
    assert not [r for r in rules if r[0] == "not-in-index" and r[1] != "clay-supplier.md"]
    assert "index-not-pointer" not in {r for r, _ in rules}
    (missing,) = [f for f in found if f.rule == "index-dangling-name"]
    assert missing.line == 12
    assert "line names `glaze-recipes.md` as a [[name]] link" in missing.message


def test_an_index_line_linking_a_memory_by_its_name_lists_that_memory(
    real_dir: Callable[[str], Path],
) -> None:
    # fresh34: `- [[deploy-window]] — hook` over `project_deploy_window.md` (name: deploy-window)
    # was index-dangling-name on every line and not-in-index for every memory, while the same
    # link in a body found the memory; only the link no memory answers to is named now
    mem = real_dir("wikilink-index-by-name")
    found = lint_memory_dir(mem, now_ms=NOW_MS)
    assert not [f for f in found if f.rule == "not-in-index"]
    (missing,) = [f for f in found if f.rule == "index-dangling-name"]
    assert (missing.path, missing.line) == ("MEMORY.md", 6)
    assert "`ingest-retries.md`" in missing.message


def test_an_index_of_plain_file_names_lists_its_files_and_names_a_missing_one_as_plain(
    tmp_path: Path,
) -> None:
    # realdata33: `- file.md: hook` lines read as prose, so each file was not-in-index and
    # every line index-not-pointer; a missing one is now named as a plain name, never "remove"
    for rel, kind in (("feedback_clay_wedging.md", "feedback"), ("user_profile.md", "user")):
        (tmp_path / rel).write_text(render_memory_file(rel[:-3], f"about {rel}", kind, "Body."))
    (tmp_path / "MEMORY.md").write_text(
        "- feedback_clay_wedging.md: wedge fifty turns\n"
        "- user_profile.md \u2014 owner, Tuesdays\n"
        "- gone.md: removed long ago\n"
    )
    found = {f.rule: f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS)}
    assert "not-in-index" not in found and "index-not-pointer" not in found
    missing = found["index-dangling-name"]
    assert missing.line == 3 and "line names `gone.md` as a plain name" in missing.message


def test_a_vague_description_cut_at_a_hash_says_the_comment_marker_cut_it(
    tmp_path: Path,
) -> None:
    # real35: 11 descriptions of one real dir were committed cut to the word before a ' #'
    # (`description: Issue` over a body opening `Issue #184 …`); the fix only asked for a
    # more specific line. The shape of those files, in words of our own:
    clean_dir(tmp_path)
    (tmp_path / "project_crate_sync.md").write_text(
        "---\nname: Crate sync slash ids\ndescription: Issue\nmetadata:\n  type: project\n"
        "  originSessionId: 5b0f3c2e-7d41-4e8a-9c6b-2f1a0e9d8c7b\n---\n"
        "Issue #184 \u2014 the crate sync skipped records whose catalogue id held a slash.\n\n"
        "**Why:** ids like `LP/2041` were read as paths.\n",
        encoding="utf-8",
    )
    (tmp_path / "project_quoted_note.md").write_text(
        '---\nname: Pressing plant\ndescription: "Plant" # Brno pressing plant contacts\n'
        "type: project\n---\n\nThe Brno plant presses the reissues.\n",
        encoding="utf-8",
    )
    (tmp_path / "project_plain_vague.md").write_text(
        "---\nname: Misc\ndescription: misc notes\ntype: project\n---\n\nIssue #12 was closed.\n",
        encoding="utf-8",
    )
    write_index(tmp_path)
    vague = {
        f.path: f for f in lint_memory_dir(tmp_path, now_ms=NOW_MS) if f.rule == "vague-description"
    }
    cut = vague["project_crate_sync.md"]
    assert cut.line == 3 and "cut at ' #', which YAML" in cut.hint
    assert "'Issue' is kept of 'Issue #184 \u2014 the crate sync" in cut.hint
    assert 'write the whole description in quotes (description: "...")' in cut.hint
    quoted = vague["project_quoted_note.md"].hint
    assert "'Plant' is kept of 'Plant # Brno pressing plant contacts'" in quoted
    assert vague["project_plain_vague.md"].hint == VAGUE_FIX  # no ' #' after its text


def test_an_index_line_with_a_percent_escaped_target_lists_its_file(tmp_path: Path) -> None:
    # `[x](kiln%20days.md)` is how a Markdown reader links `kiln days.md`: not-in-index and a
    # dangling entry both called it missing
    write_memory(tmp_path, "kiln days.md", "kiln", "When the kiln is fired", "project", "Why: x")
    (tmp_path / "MEMORY.md").write_text("- [Kiln days](kiln%20days.md) — firing days\n")
    found = _rules(tmp_path)
    assert not {r for _, r in found} & {"not-in-index", "index-dangling-entry"}


def test_an_escaped_target_never_leads_out_of_the_dir_nor_to_a_nul(tmp_path: Path) -> None:
    # docs/security.md section 47: `%2F` makes no folder and `%00` no NUL in a stat
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    (tmp_path / "secret.md").write_text("---\nname: s\ndescription: s\ntype: user\n---\nx\n")
    write_memory(memory_dir, "a.md", "a", "A note about the kiln", "project", "Why: x")
    (memory_dir / "MEMORY.md").write_text(
        "- [A](a.md) — a\n- [Out](..%2Fsecret.md) — out\n- [Nul](a%00.md) — nul\n"
        "- [Up](%2E%2E/secret.md) — up\n"
    )
    found = lint_memory_dir(memory_dir, now_ms=NOW_MS)
    assert [(f.rule, f.line) for f in found if f.path == "MEMORY.md"] == [
        ("index-not-pointer", 2),
        ("index-dangling-entry", 3),
        ("index-dangling-entry", 4),
    ]
    assert [f.message for f in found if f.rule == "index-dangling-entry"] == [
        "entry points at a%00.md, which does not exist",
        "entry points at %2E%2E/secret.md, which does not exist",
    ]


def test_a_dangling_line_whose_file_another_index_lists_is_not_pointed_there(
    real_dir: Callable[[str], Path],
) -> None:
    # real37: an agent root's MEMORY.md was a copy of the researcher's index, its files in
    # researcher/ listed by researcher/MEMORY.md. lint said "point the line there", while the
    # dream and `rebuild-index --drop-dangling` drop such a line (a file an index of its own
    # folder lists belongs there; a root line for it reaches no agent). Lint now says the same.
    root = real_dir("agent-root-stray-index")
    found = [f for f in lint_memory_dir(root, now_ms=NOW_MS) if f.rule == "index-dangling-entry"]
    assert [f.line for f in found] == [3, 4]
    for f in found:
        assert "point the line there" not in f.hint
        assert f.hint.startswith("remove the line: a memory of that name is at glazer/")
        assert "which belongs in a MEMORY.md below this one" in f.hint
    kinds = {a.kind for a in plan_consolidation(root, now_ms=NOW_MS).actions}
    assert "drop_dangling_index_line" in kinds and "repoint_index_line" not in kinds
    kept = rebuild_index(root, write=False, drop_dangling=True)
    assert "](project_studio_move.md)" in kept and "glazer/" not in kept


def test_backtest_tallies_a_ticker_file_name_and_a_form_port_are_no_dates_and_no_secrets(
    real_dir: Callable[[str], Path],
) -> None:
    """real41: a trading project's memories. "14 fills in 40 days" is how long a tally took;
    `project_v4_nqx3m_review.md` is a name of words and tickers, not a high-entropy token;
    "FrmOperatorPassWord: AxOldKnob→Button" names a form and the control swapped in it; a web
    address without its scheme is split into its parts as one with a scheme is."""
    found = lint_memory_dir(real_dir("backtest-notes"))
    assert [f.message for f in found if f.rule in ("secret", "relative-date")] == []


def test_a_warehouse_named_wip_and_a_password_described_by_its_length_are_no_findings(
    real_dir: Callable[[str], Path],
) -> None:
    """real42: an ERP's memories list the stores a guard leaves alone ("Finished Goods, WIP,
    Goods In Transit"), and say the mail password is a "16-char App Password"; lint called the
    first task state and the second a password. A layout that "is WIP" is still task state."""
    found = lint_memory_dir(real_dir("erp-notes"))
    assert [f.message for f in found if f.rule == "secret"] == []
    assert [f.path for f in found if f.rule == "ephemeral-task-state"] == [
        "project_label_printer.md"
    ]


def test_files_listed_by_bare_name_under_their_folders_line_are_listed_there(
    real_dir: Callable[[str], Path],
) -> None:
    """real41: an index names "`memory/cc-reference/` -- four files:" and, indented below it,
    each file by its bare name. Lint said each name was in no file of the memory dir and each
    file was in no line; a name under the folder is that folder's file. A name there with no
    file still dangles."""
    found = lint_memory_dir(real_dir("folder-listed-index"))
    assert [(f.rule, f.path) for f in found if f.rule == "not-in-index"] == []
    dangling = [f.message for f in found if f.rule == "index-dangling-name"]
    assert len(dangling) == 1 and "`clays.md`" in dangling[0]


def test_weekdays_naming_a_full_dates_day_are_no_relative_dates_and_a_wrong_one_is(
    real_dir: Callable[[str], Path],
) -> None:
    """real44: closure notes name the weekday of a full date on its line ("2026-12-25
    (Friday): workshop closed") or under a heading holding the date ("### 24 December 2026",
    then "Thursday: half day"). Lint called each a relative date. A weekday the date does not
    fall on ("2026-12-28 (Tuesday)", a Monday) and "next Friday" beside a date still are."""
    found = lint_memory_dir(real_dir("holiday-notes"))
    dates = sorted((f.path, f.message) for f in found if f.rule == "relative-date")
    assert [path for path, _ in dates] == ["project_budget_review.md", "project_stock_count.md"]
    assert "'next Friday'" in dates[0][1] and "'Tuesday'" in dates[1][1]


def test_a_numbered_week_a_keys_placeholder_and_a_frameworks_call_are_no_findings(
    real_dir: Callable[[str], Path],
) -> None:
    """real44: a staged plan's "by end of week 20" was a relative date, an `.env` example's
    `whsec_xxxxx` and a hosting project's id (`prj_...`) secrets, and "`router.back()` in
    Next.js" a code location; and the dream
    cut an index line's "Full doc: `~/plans/...`" to "Full doc…"."""
    root = real_dir("webapp-notes")
    found = lint_memory_dir(root)
    rules = ("relative-date", "secret", "derivable-code-symbol")
    assert [(f.rule, f.path) for f in found if f.rule in rules] == []
    assert [a.kind for a in plan_consolidation(root).actions] == []


def test_a_changes_span_a_date_templates_today_and_a_numbered_todo_are_no_findings(
    real_dir: Callable[[str], Path],
) -> None:
    """real45: a retro's "from zero in 4 days" and "project zero -> first deploy in 4 days"
    were relative dates, a rule's "today's date ... (01 if no other post today)" beside
    `blog/YYYY-MM-DD-NN-<slug>.md` one the dream rewrote to the memory's own day, "one new
    TODO (#2, ...)" task state, and a model variant's name (`Level15GSF_NoDrop_K16`) a
    high-entropy token."""
    root = real_dir("retro-notes")
    found = lint_memory_dir(root)
    rules = ("relative-date", "ephemeral-task-state", "secret")
    assert [(f.rule, f.path, f.line) for f in found if f.rule in rules] == []
    assert [a.kind for a in plan_consolidation(root).actions] == []
