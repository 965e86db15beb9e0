"""Tests for memdir_nb.reports.doctor: each reason memory would not load fully, with cause and fix."""

from __future__ import annotations

import os
import re
import shlex
import threading
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.formats.index import entries_past_caps, format_index_entry
from memdir_nb.home.paths import sanitize_path
from memdir_nb.reports.diagnosis import DoctorFinding, DoctorReport, format_doctor
from memdir_nb.reports.doctor import diagnose
from tests.support.fake_home import HAS_GIT, NOW_MS, World, add_memory, git, make_world
from tests.support.long_paths import padded_path, path_bytes

needs_git = pytest.mark.skipif(not HAS_GIT, reason="git is not installed")
FAKE_KEY = "sk-ant-api03-" + "Xq7Lm2Pz9Rt4Vw8Ys1Ab3Cd5Ef6Gh0Jk" * 2 + "AA"


def codes(report: DoctorReport) -> dict[str, str]:
    return {f.code: f.severity for f in report.findings}


def finding(report: DoctorReport, code: str) -> DoctorFinding:
    (f,) = [f for f in report.findings if f.code == code]
    return f


def healthy(tmp_path: Path, **kw: Any) -> tuple[World, Path]:
    w = make_world(tmp_path, **kw)
    mem = w.memory_dir_for(w.project)
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "user_role.md", type="user", body="Backend engineer, new to Rust.")
    return w, mem


def test_a_healthy_dir_exits_0_with_no_action(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    report = diagnose(w.config())
    assert report.exit_code == 0, format_doctor(report)
    assert all(f.severity == "note" for f in report.findings)
    assert "memory would load fully" in format_doctor(report)


def test_disable_in_a_settings_env_block_names_the_file_and_the_fix(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    path = w.settings("user", {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "true"}})
    report = diagnose(w.config())
    f = finding(report, "auto-memory-disabled")
    assert f.severity == "action" and report.exit_code == 1
    assert "CLAUDE_CODE_DISABLE_AUTO_MEMORY" in f.responsible and str(path) in f.responsible
    assert '"env" block' in f.fix and str(path) in f.fix


def test_memory_keys_in_the_homes_settings_local_are_a_note_when_unread(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    path = w.claude_home / "settings.local.json"
    path.write_text(
        '{"autoMemoryEnabled": false, "env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}}',
        encoding="utf-8",
    )
    report = diagnose(w.config())
    f = finding(report, "home-local-settings-unread")
    assert f.severity == "note" and report.exit_code == 0
    assert f.responsible == str(path)
    assert "autoMemoryEnabled" in f.cause and "env.CLAUDE_CODE_DISABLE_AUTO_MEMORY" in f.cause
    assert str(w.claude_home / "settings.json") in f.fix
    # started in the home folder, the same file is the local layer: read, no note
    at_home = diagnose(w.config(cwd=w.home))
    assert "home-local-settings-unread" not in codes(at_home)
    assert "auto-memory-disabled" in codes(at_home)


def test_the_homes_settings_local_without_memory_keys_is_no_note(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    (w.claude_home / "settings.local.json").write_text('{"permissions": {}}', encoding="utf-8")
    assert "home-local-settings-unread" not in codes(diagnose(w.config()))


def test_disable_in_the_shell_says_to_unset_it(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    f = finding(
        diagnose(w.config({"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"})), "auto-memory-disabled"
    )
    assert f.responsible == "CLAUDE_CODE_DISABLE_AUTO_MEMORY in the environment"
    assert f.fix.startswith("unset CLAUDE_CODE_DISABLE_AUTO_MEMORY")


@pytest.mark.parametrize(
    ("env", "layer", "expect"),
    [
        ({"CLAUDE_CODE_SIMPLE": "1"}, None, "--bare"),
        ({"CLAUDE_CODE_REMOTE": "1"}, None, "CLAUDE_CODE_REMOTE_MEMORY_DIR"),
        ({}, "project", "repository setting can only switch memory off"),
        ({}, "policy", '"autoMemoryEnabled": true'),
    ],
)
def test_every_disabling_level_has_its_own_fix(
    tmp_path: Path, env: dict[str, Any], layer: str | None, expect: str
) -> None:
    w, _ = healthy(tmp_path)
    if layer:
        w.settings(layer, {"autoMemoryEnabled": False})
    f = finding(diagnose(w.config(env)), "auto-memory-disabled")
    assert expect in f.fix


def test_a_dir_setting_in_project_settings_is_reported_as_ignored(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    path = w.settings("project", {"autoMemoryDirectory": "~/shared-mem"})
    report = diagnose(w.config())
    f = finding(report, "dir-setting-ignored")
    assert f.severity == "action" and str(path) in f.responsible
    assert "settings.local.json" in f.fix and report.exit_code == 1


def test_a_dir_override_in_a_project_env_block_is_reported_as_ignored(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    w.settings("project", {"env": {"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/srv/x"}})
    report = diagnose(w.config())
    assert report.where.source == "default"
    f = finding(report, "dir-setting-ignored")
    assert "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE" in f.cause


def test_a_cache_dir_in_a_repository_env_block_is_a_note_naming_the_allow_list(
    tmp_path: Path,
) -> None:
    w, _ = healthy(tmp_path)
    w.settings("local", {"env": {"MEMDIR_NB_CACHE_DIR": "/srv/elsewhere"}})
    report = diagnose(w.config())
    f = finding(report, "env-setting-ignored")
    assert f.severity == "note" and report.exit_code == 0
    assert f.cause.startswith("ignored: local settings may not set MEMDIR_NB_CACHE_DIR")
    assert "settings.local.json" in f.responsible and "user settings" in f.fix
    assert "ignored: local settings may not set MEMDIR_NB_CACHE_DIR" in format_doctor(report)


def test_an_unsafe_trusted_dir_setting_is_rejected_with_the_reason(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    w.settings("user", {"autoMemoryDirectory": "~/"})
    f = finding(diagnose(w.config()), "dir-setting-rejected")
    assert "home directory" in f.cause and f.severity == "action"


def test_a_dir_setting_rewritten_for_a_lone_surrogate_is_a_note_naming_it(
    tmp_path: Path,
) -> None:
    # attack round 26 left this open: doctor used the U+FFFD folder without saying why
    w, _ = healthy(tmp_path)
    w.settings("user", {"autoMemoryDirectory": "/srv/m\ud800x"})
    report = diagnose(w.config())
    f = finding(report, "dir-setting-rewritten")
    assert f.severity == "note" and "lone surrogate (U+D800" in f.cause
    assert f.responsible.startswith("autoMemoryDirectory in user settings")
    shown = [line for line in format_doctor(report).splitlines() if "U+FFFD in its place" in line]
    assert len(shown) == 1


def test_a_broken_settings_file_is_an_action(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    (w.claude_home / "settings.json").write_text("{not json", encoding="utf-8")
    f = finding(diagnose(w.config()), "settings-problem")
    assert "not valid JSON" in f.cause and f.severity == "action"


def test_a_settings_file_not_in_utf8_is_charged_to_its_file_not_to_the_whole_message(
    tmp_path: Path,
) -> None:
    # attack round 26: "responsible:" repeated the whole message for a Latin-1 or UTF-16 file
    w, _ = healthy(tmp_path)
    path = w.claude_home / "settings.json"
    path.write_bytes('{"autoMemoryDirectory": "/srv/caf\u00e9"}'.encode("latin-1"))
    f = finding(diagnose(w.config()), "settings-problem")
    assert f.responsible == f"user settings {path}"
    assert "is not UTF-8 text (byte" in f.cause


def test_memory_settings_written_in_the_env_block_are_an_action_naming_where_they_belong(
    tmp_path: Path,
) -> None:
    # realdata31: a published setup guide tells its readers to put both memory keys in the
    # settings file's env block. There they only become environment variables that nothing
    # reads: memory stayed on in the default dir, and doctor said "memory would load fully".
    w, _ = healthy(tmp_path)
    w.settings("user", {"env": {"autoMemoryEnabled": "false", "autoMemoryDirectory": "./notes"}})
    report = diagnose(w.config())
    causes = [f.cause for f in report.findings if f.code == "settings-problem"]
    assert len(causes) == 2 and report.exit_code == 1
    off, moved = sorted(causes)
    assert "autoMemoryDirectory is inside the env block" in off
    assert '"autoMemoryDirectory": "./notes" (an absolute path, or one starting with ~/)' in off
    assert '"autoMemoryEnabled": false' in moved and "CLAUDE_CODE_DISABLE_AUTO_MEMORY" in moved


def test_a_quoted_true_or_false_is_named_as_a_string_with_its_unquoted_spelling(
    tmp_path: Path,
) -> None:
    # "must be true or false, got 'false'" read as a contradiction
    w, _ = healthy(tmp_path)
    w.settings("user", {"autoMemoryEnabled": "false"})
    f = finding(diagnose(w.config()), "settings-problem")
    assert 'got the string "false"; write it without the quotes, as false' in f.cause


def test_no_memory_dir_yet_is_a_note_and_exit_0(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    report = diagnose(w.config())
    assert codes(report) == {"no-memory-dir": "note"} and report.exit_code == 0


@pytest.mark.parametrize("kind", ["a FIFO", "a regular file"])
def test_a_memory_dir_under_a_fifo_or_a_file_is_an_action_naming_it_not_a_dir_made_later(
    tmp_path: Path, kind: str
) -> None:
    # attack round 26: CLAUDE_CONFIG_DIR naming a FIFO or a file was "no memory dir yet ...
    # created at the first session", exit 0 and "would load fully", though every mkdir fails
    w = make_world(tmp_path, repo=False)
    blocker = tmp_path / "claude-home"
    if kind == "a FIFO":
        os.mkfifo(blocker)
    else:
        blocker.write_text("not a folder\n", encoding="utf-8")
    report = diagnose(w.config({"CLAUDE_CONFIG_DIR": str(blocker)}))
    f = finding(report, "memory-dir-not-a-dir")
    assert f.severity == "action" and report.exit_code == 1
    assert f.responsible == str(blocker)
    assert f"a parent of the memory dir is {kind}, not a folder" in f.cause
    assert "CLAUDE_CONFIG_DIR" in f.fix


@pytest.mark.parametrize(
    ("link_to", "kind"),
    [("itself", "a symlink loop"), ("nowhere/home", "a symlink to a path that does not exist")],
)
def test_a_claude_home_that_is_a_link_leading_nowhere_is_an_action_not_a_dir_made_later(
    tmp_path: Path, link_to: str, kind: str
) -> None:
    # attack40: a CLAUDE_CONFIG_DIR that is a symlink loop was "no memory dir yet ... created
    # at the first session", exit 0; mkdir under it fails for good (ELOOP, and EEXIST for a
    # link whose target is missing)
    w = make_world(tmp_path, repo=False)
    home = tmp_path / "claude-home"
    home.symlink_to(home if link_to == "itself" else tmp_path / link_to)
    report = diagnose(w.config({"CLAUDE_CONFIG_DIR": str(home)}))
    f = finding(report, "memory-dir-not-a-dir")
    assert f.severity == "action" and report.exit_code == 1
    assert f.responsible == str(home)
    assert f"a parent of the memory dir is {kind}, not a folder" in f.cause
    assert "no-memory-dir" not in codes(report)


def test_index_entries_past_the_caps_are_named(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    mem = w.memory_dir_for(w.project)
    for i in range(203):
        add_memory(mem, f"feedback_rule_{i:03d}.md", name=f"Rule {i:03d}")
    f = finding(diagnose(w.config()), "index-past-caps")
    assert f.severity == "action"
    assert [item.split(":")[0] for item in f.items] == ["line 201", "line 202", "line 203"]
    assert "feedback_rule_200.md" in f.items[0] and "3 entries" in f.cause


def test_entries_past_caps_counts_lines_after_stripped_blank_lines() -> None:
    lines = [format_index_entry(f"T{i}", f"f{i}.md", "hook") for i in range(201)]
    text = "\n\n" + "\n".join(lines) + "\n"
    (cut,) = entries_past_caps(text)
    assert cut.target == "f200.md"


def test_files_missing_from_the_index_and_lines_pointing_at_nothing(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    add_memory(mem, "feedback_unlisted.md", index=False)
    with open(mem / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write(format_index_entry("Gone", "feedback_gone.md", "deleted") + "\n")
    report = diagnose(w.config())
    assert finding(report, "not-in-index").items == ("feedback_unlisted.md",)
    dangling = finding(report, "index-dangling")
    assert "feedback_gone.md" in dangling.items[0] and "rebuild-index" in dangling.fix


def test_lines_pointing_at_nothing_in_team_memory_name_the_team_index(tmp_path: Path) -> None:
    # A published dir's team/MEMORY.md listed nine deleted files; doctor blamed MEMORY.md.
    w, mem = healthy(tmp_path)
    (mem / "team").mkdir()
    (mem / "team" / "MEMORY.md").write_text(
        format_index_entry("Gone", "gone.md", "deleted") + "\n", encoding="utf-8"
    )
    add_memory(mem, "team/project_unlisted.md", index=False)
    report = diagnose(w.config())
    team_index = str(mem / "team" / "MEMORY.md")
    assert finding(report, "index-dangling").responsible == team_index
    assert finding(report, "not-in-index").responsible == team_index


def test_stale_memories_are_a_note(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    add_memory(mem, "project_old_goal.md", type="project", age_days=500)
    report = diagnose(w.config())
    f = finding(report, "stale-memories")
    assert f.severity == "note" and f.items == ("project_old_goal.md",)
    assert report.exit_code == 0


def test_a_secret_in_team_memory_is_an_action_and_in_private_is_not(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    add_memory(mem, "reference_api.md", type="reference", body=f"The key is {FAKE_KEY}")
    assert "team-secret" not in codes(diagnose(w.config()))
    add_memory(mem, "team/reference_api.md", type="reference", body=f"The key is {FAKE_KEY}")
    f = finding(diagnose(w.config()), "team-secret")
    assert f.items == ("team/reference_api.md",) and FAKE_KEY not in format_doctor(
        diagnose(w.config())
    )


def test_a_symlinked_index_is_an_action(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    real = tmp_path / "elsewhere.md"
    os.replace(mem / "MEMORY.md", real)
    (mem / "MEMORY.md").symlink_to(real)
    f = finding(diagnose(w.config()), "index-symlink")
    assert "OUTSIDE" in f.cause and f.severity == "action"


def test_a_fifo_index_is_reported_without_blocking(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    (mem / "MEMORY.md").unlink()
    os.mkfifo(mem / "MEMORY.md")
    result: list[DoctorReport] = []
    t = threading.Thread(target=lambda: result.append(diagnose(w.config())), daemon=True)
    t.start()
    t.join(30)
    assert result, "diagnose blocked on a FIFO named MEMORY.md"
    f = finding(result[0], "index-not-regular")
    assert "FIFO" in f.cause


def test_an_index_that_is_not_utf8_is_an_action(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    with open(mem / "MEMORY.md", "ab") as fh:
        fh.write(b"- [Caf\xe9](feedback_db.md) \xe2\x80\x94 latin-1 slipped in\n")
    assert codes(diagnose(w.config()))["index-invalid-utf8"] == "action"


@needs_git
def test_memories_orphaned_under_a_worktrees_own_key_are_found(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    wt = tmp_path / "wt-feature"
    git(w.project, "worktree", "add", "-q", "-b", "feature", str(wt))
    orphan = w.claude_home / "projects" / sanitize_path(os.path.realpath(wt)) / "memory"
    add_memory(orphan, "feedback_only_in_worktree.md")
    report = diagnose(w.config(cwd=wt))
    f = finding(report, "worktree-orphan")
    assert f.items == ("feedback_only_in_worktree.md",) and str(mem) in f.fix.rstrip(os.sep)


def test_kairos_and_team_off_are_notes(tmp_path: Path) -> None:
    w, mem = healthy(tmp_path)
    add_memory(mem, "team/reference_board.md", type="reference")
    report = diagnose(w.config({"MEMDIR_NB_KAIROS": "1"}))
    assert codes(report)["kairos-mode"] == "note" and codes(report)["team-memory-off"] == "note"
    assert report.exit_code == 0


def test_another_dir_can_be_checked_with_the_projects_settings(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    other = tmp_path / "other-mem"
    add_memory(other, "feedback_x.md", index=False)
    report = diagnose(w.config(), memory_dir=other, now_ms=NOW_MS)
    assert report.checked_dir == os.fspath(other)
    assert {"other-dir-checked", "index-missing"} <= set(codes(report))


def test_the_missing_index_fix_names_the_dir_shell_quoted(tmp_path: Path) -> None:
    w, _ = healthy(tmp_path)
    other = tmp_path / "other mem"  # a space: one shell word only when quoted
    add_memory(other, "feedback_x.md", index=False)
    report = diagnose(w.config(), memory_dir=other, now_ms=NOW_MS)
    assert finding(report, "index-missing").fix == f"run `memdir-nb rebuild-index '{other}'`"


def test_report_is_json_ready(tmp_path: Path) -> None:
    import json

    w, _ = healthy(tmp_path)
    payload = json.loads(json.dumps(diagnose(w.config()).to_dict()))
    assert payload["exit_code"] == 0 and payload["where"]["source"] == "default"


def test_a_store_step_killed_half_way_needs_action_until_recover(tmp_path: Path) -> None:
    from memdir_nb.storage.store import MemoryStore
    from tests.support.store_crash import promote_killed_at

    w, mem = healthy(tmp_path)
    saved = MemoryStore(mem, now_ms=NOW_MS).save(
        "Deploys go through CI", "How releases reach production", "reference", "CI deploys."
    )
    (mem / "team").mkdir(exist_ok=True)
    promote_killed_at(mem, saved.name, f"move:{saved.name}:done", now_ms=NOW_MS)
    f = finding(diagnose(w.config()), "interrupted-step")
    assert f.severity == "action" and "interrupted" in f.cause
    assert "recover()" in f.fix and f.responsible.endswith(".memdir.journal")

    MemoryStore(mem).recover()
    assert "interrupted-step" not in codes(diagnose(w.config()))


def test_safe_mode_is_named_as_the_cause_with_its_fix(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    report = diagnose(
        w.config({"CLAUDE_CODE_SAFE_MODE": "1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"})
    )
    (finding,) = [f for f in report.findings if f.code == "auto-memory-disabled"]
    assert "safe mode is on (CLAUDE_CODE_SAFE_MODE)" in finding.cause
    assert "unset CLAUDE_CODE_SAFE_MODE" in finding.fix and report.exit_code == 1


def test_memory_forced_on_in_bare_mode_needs_no_action(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    env = {"CLAUDE_CODE_SIMPLE": "1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}
    report = diagnose(w.config(env))
    assert not any(f.code == "auto-memory-disabled" for f in report.findings)
    assert "forces auto memory on" in report.where.auto_memory.reason


def test_memory_dirs_in_an_unread_xdg_home_are_a_note_naming_the_variable_that_reads_them(
    tmp_path: Path,
) -> None:
    w, _ = healthy(tmp_path)
    xdg = w.home / ".config" / "claude"
    (xdg / "projects" / "-home-me-app" / "memory").mkdir(parents=True)
    (xdg / "projects" / "-home-me-old").mkdir()  # transcripts only: no memory dir
    f = finding(diagnose(w.config()), "xdg-home-unread")
    assert f.severity == "note" and f.responsible == str(xdg)
    assert f.items == ("-home-me-app",) and "1 memory dir " in f.cause
    assert f"CLAUDE_CONFIG_DIR={xdg}" in f.fix
    named = diagnose(w.config({"CLAUDE_CONFIG_DIR": str(xdg)}))
    assert "xdg-home-unread" not in codes(named)


def committed_memory(tmp_path: Path, name: str, line: str) -> tuple[World, Path]:
    """A healthy world whose project commits .claude/memory/ holding one memory and its index."""
    w, _ = healthy(tmp_path, repo=False)
    repo_mem = w.project / ".claude" / "memory"
    add_memory(repo_mem, name)
    (repo_mem / "MEMORY.md").write_text(f"{line}\n", encoding="utf-8")
    return w, repo_mem


def test_a_memory_dir_committed_in_the_repository_is_a_note_saying_what_loads_instead(
    tmp_path: Path,
) -> None:
    # Thousands of public repositories commit .claude/memory/MEMORY.md with topic files and a
    # CLAUDE.md that tells Claude to read them; auto memory loads its own dir all the same.
    w, repo_mem = committed_memory(
        tmp_path, "project_phase.md", "- [Phase](project_phase.md) - now"
    )
    mem = w.memory_dir_for(w.project)
    (w.project / "CLAUDE.md").write_text("Read `.claude/memory/MEMORY.md`.\n", encoding="utf-8")
    f = finding(diagnose(w.config()), "repo-memory-unloaded")
    assert f.severity == "note" and f.responsible == str(repo_mem)
    assert "1 memory file" in f.cause and str(mem) in f.cause and "CLAUDE.md names it" in f.cause
    assert f'"autoMemoryDirectory": "{repo_mem}"' in f.fix and f.items == ("project_phase.md",)
    (w.project / "CLAUDE.md").unlink()
    assert (
        "nothing in CLAUDE.md names it"
        in finding(diagnose(w.config()), "repo-memory-unloaded").cause
    )
    w.settings("local", {"autoMemoryDirectory": str(repo_mem)})  # now it is the auto memory
    assert "repo-memory-unloaded" not in codes(diagnose(w.config()))


def test_a_committed_memory_dir_counts_the_team_memories_committed_beside_it(
    tmp_path: Path,
) -> None:
    # A NestJS ERP's repository (realdata25) commits .claude/memory/ with one private memory
    # and team/MEMORY.md with another; the note counted one memory file
    w, repo_mem = committed_memory(tmp_path, "project_stack.md", "- [Stack](project_stack.md) - db")
    add_memory(repo_mem / "team", "project_rbac.md")
    (repo_mem / "team" / "MEMORY.md").write_text("- [RBAC](project_rbac.md) - roles\n", "utf-8")
    f = finding(diagnose(w.config()), "repo-memory-unloaded")
    assert "2 memory files" in f.cause
    assert f.items == ("project_stack.md", "team/project_rbac.md")


def test_a_committed_memory_index_that_claude_md_imports_is_said_to_load_at_every_start(
    tmp_path: Path,
) -> None:
    # Public projects import the committed index from CLAUDE.md or from an AGENTS.md it
    # imports (`@.claude/memory/MEMORY.md`): it loads with the instructions, not by hand
    w, _ = committed_memory(tmp_path, "project_stack.md", "- [Stack](project_stack.md) - db")
    (w.project / "CLAUDE.md").write_text("# App\n@AGENTS.md\n", encoding="utf-8")
    (w.project / "AGENTS.md").write_text("@.claude/memory/MEMORY.md\n", encoding="utf-8")
    cause = finding(diagnose(w.config()), "repo-memory-unloaded").cause
    assert "CLAUDE.md imports its MEMORY.md" in cause and "at every session start" in cause


@pytest.mark.parametrize(
    ("layer", "code"), [("project", "dir-setting-ignored"), ("local", "dir-setting-rejected")]
)
def test_a_relative_memory_dir_setting_is_answered_with_the_absolute_path_it_means(
    tmp_path: Path, layer: str, code: str
) -> None:
    # Bug reports show ".claude/memory" and "./.claude/memory" in project and local settings;
    # moving a relative value to local settings, as the fix said, left it rejected all the same.
    w, _ = healthy(tmp_path, repo=False)
    w.settings(layer, {"autoMemoryDirectory": "./.claude/memory"})
    f = finding(diagnose(w.config()), code)
    assert f'"autoMemoryDirectory": "{w.project / ".claude" / "memory"}"' in f.fix
    w.settings(layer, {"autoMemoryDirectory": "~/notes/memory"})
    assert "most likely means" not in " ".join(x.fix for x in diagnose(w.config()).findings)


def test_a_memory_dir_setting_written_with_a_shell_variable_is_never_read_from_the_project(
    tmp_path: Path,
) -> None:
    # A published setup guide's user settings.json holds "$HOME/.claude/MEMORY/AUTO" as written
    # (realdata29). Claude Code expands no variable there, so the value is rejected as relative;
    # the fix said it "most likely means" <project>/$HOME/.claude/MEMORY/AUTO.
    w, _ = healthy(tmp_path, repo=False)
    w.settings("user", {"autoMemoryDirectory": "$HOME/.claude/MEMORY/AUTO"})
    f = finding(diagnose(w.config()), "dir-setting-rejected")
    assert "$HOME is not expanded" in f.cause
    assert '"autoMemoryDirectory": "~/.claude/MEMORY/AUTO"' in f.fix
    assert str(w.project) not in f.fix
    w.settings("user", {"autoMemoryDirectory": "${VAULT_PATH}/ai/memory"})
    f = finding(diagnose(w.config()), "dir-setting-rejected")
    assert "the absolute path that ${VAULT_PATH} holds" in f.fix
    assert str(w.project) not in f.fix


def test_a_project_folder_in_the_xdg_home_that_cannot_be_looked_at_leaves_the_note_standing(
    tmp_path: Path,
) -> None:
    # `project/memory` past PATH_MAX (as a folder this user cannot enter, say one `sudo claude`
    # left) raised out of pathlib's is_symlink: the whole doctor ended in a traceback
    w, _ = healthy(tmp_path)
    config_home = padded_path(tmp_path, 3900, "c")
    projects = config_home / "claude" / "projects"
    (projects / "-home-me-app" / "memory").mkdir(parents=True)
    edge = projects / ("p" * (4092 - path_bytes(projects) - 1))
    edge.mkdir()
    assert path_bytes(edge) < 4096 <= path_bytes(edge / "memory")
    f = finding(diagnose(w.config({"XDG_CONFIG_HOME": str(config_home)})), "xdg-home-unread")
    assert f.items == ("-home-me-app",)


def test_a_repository_memory_dir_past_path_max_leaves_the_rest_of_the_doctor_standing(
    tmp_path: Path,
) -> None:
    # The repo-memory check tested `.claude/memory/MEMORY.md` with pathlib, which raises for a
    # path past PATH_MAX (or, for another user, a `.claude` they cannot enter): the whole
    # doctor ended in "error: File name too long" though where and every other check were fine
    w, _ = healthy(tmp_path, repo=False)
    root = padded_path(tmp_path, 4096 - len("/.claude/memory") - 2, "r")
    repo_mem = root / ".claude" / "memory"
    repo_mem.mkdir(parents=True)
    assert path_bytes(repo_mem) < 4096 <= path_bytes(repo_mem / "MEMORY.md")
    fd = os.open(repo_mem, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.close(os.open("MEMORY.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    report = diagnose(w.config(cwd=root))
    assert "repo-memory-unloaded" not in codes(report) and "no-memory-dir" in codes(report)


def test_the_settings_line_to_paste_names_a_non_ascii_folder_as_it_is(tmp_path: Path) -> None:
    # json.dumps escaped every letter past ASCII: the fix told a person in /home/jürgen to set
    # "autoMemoryDirectory": "/home/j\u00fcrgen/...", valid JSON but not a path they know.
    w, repo_mem = committed_memory(
        tmp_path / "jürgen", "project_phase.md", "- [Phase](project_phase.md) - now"
    )
    f = finding(diagnose(w.config()), "repo-memory-unloaded")
    assert f'"autoMemoryDirectory": "{repo_mem}"' in f.fix and "\\u00fc" not in f.fix


def test_memories_left_in_the_default_dir_when_a_setting_chose_another_are_an_action(
    tmp_path: Path,
) -> None:
    # realdata33 (anthropics/claude-code#59127): with autoMemoryDirectory set, the model was
    # told to write to projects/<key>/memory all the same; doctor said "memory would load
    # fully" while those memories never load
    w, default = healthy(tmp_path)
    chosen = w.home / "notes-mem"
    add_memory(chosen, "user_profile.md", type="user")
    w.settings("user", {"autoMemoryDirectory": "~/notes-mem"})
    report = diagnose(w.config())
    f = finding(report, "default-dir-unloaded")
    assert f.severity == "action" and report.exit_code == 1
    assert f.items == ("feedback_db.md", "user_role.md") and f.responsible == str(default)
    assert "autoMemoryDirectory makes" in f.cause and "#59127" in f.cause
    assert f.fix.startswith(f"move them into {chosen}")
    # the same setting naming the default dir itself, or no memories left there: nothing
    w.settings("user", {"autoMemoryDirectory": str(default)})
    assert "default-dir-unloaded" not in codes(diagnose(w.config()))
    w.settings("user", {"autoMemoryDirectory": "~/notes-mem"})
    for p in default.iterdir():
        p.unlink()
    assert "default-dir-unloaded" not in codes(diagnose(w.config()))


def test_every_command_a_fix_prints_pastes_into_a_shell_whatever_the_paths_hold(
    tmp_path: Path,
) -> None:
    # lefts37: the fixes printed `memdir-nb rebuild-index /x/my $HOME notes/...` unquoted: a
    # shell split it at the spaces and expanded $HOME, so the command named no such dir
    w, mem = healthy(tmp_path / "my $HOME notes")
    add_memory(mem, "feedback_unlisted.md", index=False)  # not-in-index
    with open(mem / "MEMORY.md", "a", encoding="utf-8") as fh:  # index-dangling
        fh.write(format_index_entry("Gone", "feedback_gone.md", "deleted") + "\n")
    add_memory(mem, "team/reference_api.md", type="reference", body=f"The key is {FAKE_KEY}")
    xdg = w.home / ".config" / "claude"
    (xdg / "projects" / "-home-me-app" / "memory").mkdir(parents=True)  # xdg-home-unread
    report = diagnose(w.config())
    fixes = {f.code: f.fix for f in report.findings}
    assert {"not-in-index", "index-dangling", "team-secret", "xdg-home-unread"} <= set(fixes)
    commands = [c for fix in fixes.values() for c in re.findall(r"`(memdir-nb [^`]*)`", fix)]
    assert len(commands) >= 4
    for command in commands:
        words = shlex.split(command)
        paths = [word for word in words if word.startswith("/")]
        assert paths, command
        for word in paths:
            assert Path(word).is_dir(), f"{command!r} names {word!r}"
    assert f"CLAUDE_CONFIG_DIR={shlex.quote(str(xdg))};" in fixes["xdg-home-unread"]
