"""Tests for memdir_nb.reports.where: the memory dir with every step's source, and the list of dirs."""

from __future__ import annotations

import json
import logging
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.home.paths import sanitize_path
from memdir_nb.reports import memory_dirs
from memdir_nb.reports.memory_dirs import MAX_GUESS_NAMES
from memdir_nb.reports.where import (
    format_list,
    format_where,
    guess_project_path,
    list_memory_dirs,
    where,
)
from memdir_nb.spec.text import plural
from tests.support.fake_home import HAS_GIT, NOW_MS, add_memory, git, make_world
from tests.support.long_paths import padded_path, path_bytes

needs_git = pytest.mark.skipif(not HAS_GIT, reason="git is not installed")


# --------------------------------------------------------------------------- the dir


@needs_git
def test_default_dir_is_keyed_by_the_git_root(tmp_path: Path) -> None:
    w = make_world(tmp_path)
    (w.project / "src").mkdir()
    r = where(w.config(cwd=w.project / "src"))
    assert r.source == "default"
    assert r.git_root == os.path.realpath(w.project)
    assert r.key == sanitize_path(os.path.realpath(w.project))
    assert r.memory_dir == os.fspath(w.memory_dir_for(w.project)) + os.sep
    assert not r.exists and not r.is_worktree
    assert r.steps[-1].rule == "default" and r.steps[-1].outcome == "used"


@needs_git
def test_a_worktree_uses_the_main_checkouts_dir_and_says_it_is_a_worktree(tmp_path: Path) -> None:
    w = make_world(tmp_path)
    wt = tmp_path / "wt-feature"
    git(w.project, "worktree", "add", "-q", "-b", "feature", str(wt))
    main, linked = where(w.config()), where(w.config(cwd=wt))
    assert linked.memory_dir == main.memory_dir
    assert linked.is_worktree and linked.checkout_root == os.path.realpath(wt)
    assert linked.git_root == os.path.realpath(w.project)


def test_a_dir_that_cannot_be_made_under_a_fifo_is_named_so_not_as_not_there_yet(
    tmp_path: Path,
) -> None:
    # attack round 26: "(does not exist yet)" for a dir under a FIFO, or that is a device
    w = make_world(tmp_path, repo=False)
    os.mkfifo(tmp_path / "fifo")
    r = where(w.config({"CLAUDE_CONFIG_DIR": str(tmp_path / "fifo")}))
    assert r.blocked_by == (str(tmp_path / "fifo"), "a FIFO")
    first = format_where(r).splitlines()[0]
    assert "does not exist yet" not in first
    assert f"(cannot be made: {tmp_path / 'fifo'} is a FIFO; see memdir-nb doctor)" in first
    device = where(w.config({"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/dev/null"}))
    assert device.blocked_by == ("/dev/null", "a character device")
    assert where(w.config()).blocked_by is None


def test_a_memory_dir_that_is_a_link_leading_nowhere_is_named_so_not_as_not_there_yet(
    tmp_path: Path,
) -> None:
    # attack40: "(does not exist yet)" for a memory dir that is a symlink to a missing path
    # (mkdir answers EEXIST for the link) or under a symlink loop (ELOOP)
    w = make_world(tmp_path, repo=False)
    (tmp_path / "dangling").symlink_to(tmp_path / "gone")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    dangling = where(w.config({"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": str(tmp_path / "dangling")}))
    assert dangling.blocked_by == (
        str(tmp_path / "dangling"),
        "a symlink to a path that does not exist",
    )
    under_loop = where(
        w.config({"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": str(tmp_path / "loop" / "m")})
    )
    first = format_where(under_loop).splitlines()[0]
    assert "does not exist yet" not in first
    assert f"(cannot be made: {tmp_path / 'loop'} is a symlink loop; see memdir-nb doctor)" in first


def test_outside_git_the_project_folder_is_the_key(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    r = where(w.config())
    assert r.git_root is None
    assert r.key == sanitize_path(os.path.realpath(w.project))


def test_an_unfollowed_git_pointer_is_logged_once_and_named_in_the_report(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    w = make_world(tmp_path, repo=False)
    (w.project / ".git").write_text("gitdir: /nowhere/x\n", encoding="utf-8")
    with caplog.at_level(logging.WARNING):
        r = where(w.config())
    logged = [m for m in caplog.messages if "not following a git pointer" in m]
    assert len(logged) == 1 and "/nowhere/x" in (r.git_pointer_problem or "")


@pytest.mark.parametrize("layer", ["policy", "flag", "local", "user"])
def test_a_trusted_layer_chooses_the_dir_and_is_named(tmp_path: Path, layer: str) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings(layer, {"autoMemoryDirectory": "/srv/mem"})
    r = where(w.config())
    assert (r.memory_dir, r.source) == ("/srv/mem/", f"settings:{layer}")
    used = [s for s in r.steps if s.outcome == "used"]
    assert len(used) == 1 and used[0].source.startswith(f"{layer} settings (")


def test_a_newline_in_a_trusted_dir_setting_cannot_split_or_forge_a_report_line(
    tmp_path: Path,
) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings("user", {"autoMemoryDirectory": "/srv/mem\n  chosen by: default"})
    text = format_where(where(w.config()))
    assert "memory dir: /srv/mem\\x0a  chosen by: default/" in text
    assert next(line for line in text.splitlines() if "chosen by:" in line).startswith(
        "memory dir:"
    )


def test_a_lone_surrogate_in_a_dir_setting_is_said_to_be_rewritten_on_its_step_line(
    tmp_path: Path,
) -> None:
    # attack round 26 left this open: the U+FFFD path was shown with no word that the setting's
    # "\ud800" had been rewritten to get it
    w = make_world(tmp_path, repo=False)
    w.settings("user", {"autoMemoryDirectory": "/srv/m\ud800x"})
    r = where(w.config())
    assert r.memory_dir == "/srv/m\ufffdx/"
    (used,) = [s for s in r.steps if s.outcome == "used"]
    assert "lone surrogate (U+D800, character 7)" in used.detail
    assert "Claude Code writes U+FFFD in its place" in used.detail
    step_lines = [line for line in format_where(r).splitlines() if "-> used" in line]
    assert len(step_lines) == 1 and "U+FFFD in its place" in step_lines[0]


def test_a_dir_setting_with_nothing_rewritten_has_no_note(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings("user", {"autoMemoryDirectory": "/srv/caf\u00e9"})
    (used,) = [s for s in where(w.config()).steps if s.outcome == "used"]
    assert used.detail == ""


def test_project_settings_are_listed_as_ignored_for_the_dir(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings("project", {"autoMemoryDirectory": "~/.ssh"})
    r = where(w.config())
    assert r.source == "default"
    (step,) = [s for s in r.steps if s.outcome == "ignored"]
    assert step.source.startswith("project settings (") and step.value == "~/.ssh"
    project = next(f for f in r.settings_files if f.layer == "project")
    assert project.exists and not project.trusted_for_dir and "autoMemoryDirectory" in project.sets


def test_where_says_which_variables_a_repository_env_block_may_not_set(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    path = w.settings("project", {"env": {"MEMDIR_NB_DIR": "/srv/x", "XDG_CACHE_HOME": "/srv/c"}})
    r = where(w.config())
    assert f"ignored: project settings may not set MEMDIR_NB_DIR ({path})" in r.ignored_env
    text = format_where(r)
    assert "ignored: project settings may not set XDG_CACHE_HOME" in text
    assert "may set only CLAUDE_CODE_DISABLE_AUTO_MEMORY, CLAUDE_CODE_SAFE_MODE" in text


def test_a_more_trusted_layer_shadows_a_less_trusted_one(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings("policy", {"autoMemoryDirectory": "/srv/policy"})
    w.settings("user", {"autoMemoryDirectory": "/srv/user"})
    r = where(w.config())
    outcomes = {s.source.split(" ")[0]: s.outcome for s in r.steps if s.value}
    assert outcomes == {"policy": "used", "user": "shadowed"}


def test_cowork_override_from_a_settings_env_block_is_traced_to_the_file(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    path = w.settings("user", {"env": {"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/srv/cowork"}})
    r = where(w.config())
    assert (r.memory_dir, r.source) == ("/srv/cowork/", "cowork-override")
    assert str(path) in r.steps[0].source and "env block" in r.steps[0].source


def test_an_unusable_remote_dir_gives_no_dir_and_no_exception(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    r = where(w.config({"CLAUDE_CODE_REMOTE_MEMORY_DIR": "relative/dir"}))
    assert r.memory_dir == "" and not r.exists
    assert not r.auto_memory.enabled and r.auto_memory.level == 3


# --------------------------------------------------------------------------- the five levels


@pytest.mark.parametrize(
    ("env", "settings", "level", "enabled"),
    [
        ({"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}, {}, 1, False),
        ({"CLAUDE_CODE_SIMPLE": "1"}, {}, 2, False),
        ({"CLAUDE_CODE_REMOTE": "1"}, {}, 3, False),
        ({}, {"local": {"autoMemoryEnabled": False}}, 4, False),
        ({}, {"project": {"autoMemoryEnabled": False}}, 4, False),
        ({}, {"user": {"autoMemoryEnabled": True}}, 4, True),
        ({}, {}, 5, True),
    ],
)
def test_each_level_of_the_enable_chain_is_named(
    tmp_path: Path, env: dict[str, Any], settings: dict[str, Any], level: int, enabled: bool
) -> None:
    w = make_world(tmp_path, repo=False)
    for layer, data in settings.items():
        w.settings(layer, data)
    d = where(w.config(env)).auto_memory
    assert (d.enabled, d.level) == (enabled, level)


def test_disable_written_into_user_settings_env_is_traced_to_that_file(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    path = w.settings("user", {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}})
    d = where(w.config()).auto_memory
    assert not d.enabled and d.level == 1
    assert d.setting == "CLAUDE_CODE_DISABLE_AUTO_MEMORY" and str(path) in d.source


def test_team_and_kairos_follow_auto_memory_then_their_flags(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    on = where(w.config({"MEMDIR_NB_TEAM_MEMORY": "1", "MEMDIR_NB_KAIROS": "1"}))
    assert on.team_memory.enabled and on.kairos.enabled
    assert on.team_memory.setting == "MEMDIR_NB_TEAM_MEMORY"
    off = where(w.config({"MEMDIR_NB_TEAM_MEMORY": "1", "CLAUDE_CODE_SIMPLE": "1"}))
    assert not off.team_memory.enabled and off.team_memory.level == 2
    assert "auto memory is off" in off.team_memory.reason


def test_team_memory_is_explained_in_plain_words_with_the_codename_only_aside(
    tmp_path: Path,
) -> None:
    w = make_world(tmp_path, repo=False)
    for env in ({}, {"MEMDIR_NB_TEAM_MEMORY": "1"}):
        reason = where(w.config(env)).team_memory.reason
        assert reason.startswith("the team memory switch MEMDIR_NB_TEAM_MEMORY is ")
        before, _, aside = reason.partition(" (")
        assert (
            "tengu" not in before and aside == "Claude Code's internal flag: tengu_herring_clock)"
        )


def test_auto_dream_follows_the_setting_claude_code_reads_and_says_when_its_rollout_decides(
    tmp_path: Path,
) -> None:
    # Real user settings hold "autoDreamEnabled" true or false beside autoMemoryEnabled, and
    # setup tools write false so the CLI's own consolidation leaves their memory alone.
    w = make_world(tmp_path, repo=False)
    unset = where(w.config()).auto_dream
    assert unset.enabled is None and "tengu_onyx_plover" in unset.reason
    user = w.settings("user", {"autoMemoryEnabled": True, "autoDreamEnabled": False})
    off = where(w.config())
    assert off.auto_dream.enabled is False and str(user) in off.auto_dream.source
    assert off.auto_dream.setting == "autoDreamEnabled"
    assert "autoDreamEnabled" in {k for f in off.settings_files for k in f.sets}
    w.settings("local", {"autoDreamEnabled": True})
    on = where(w.config()).auto_dream
    assert on.enabled is True and "local settings" in on.source and "rollout" in on.reason
    assert "auto dream   on   autoDreamEnabled=true in local settings" in format_where(
        where(w.config())
    )


@pytest.mark.parametrize(
    ("env", "settings", "why"),
    [
        ({"CLAUDE_CODE_SIMPLE": "1"}, {"user": {"autoDreamEnabled": True}}, "auto memory is off"),
        ({"MEMDIR_NB_KAIROS": "1"}, {"user": {"autoDreamEnabled": True}}, "KAIROS"),
        (
            {"CLAUDE_CODE_REMOTE": "1", "CLAUDE_CODE_REMOTE_MEMORY_DIR": "/mnt/mem"},
            {"user": {"autoDreamEnabled": True}},
            "CLAUDE_CODE_REMOTE",
        ),
        (
            {},
            {"user": {"autoDreamEnabled": True}, "project": {"autoDreamEnabled": False}},
            "project",
        ),
    ],
)
def test_auto_dream_is_off_without_auto_memory_in_kairos_or_remote_and_a_project_may_only_stop_it(
    tmp_path: Path, env: dict[str, str], settings: dict[str, Any], why: str
) -> None:
    w = make_world(tmp_path, repo=False)
    for layer, data in settings.items():
        w.settings(layer, data)
    d = where(w.config(env)).auto_dream
    assert d.enabled is False and why in d.reason + d.source


def test_a_project_cannot_switch_auto_dream_on_and_a_string_value_is_a_settings_problem(
    tmp_path: Path,
) -> None:
    w = make_world(tmp_path, repo=False)
    w.settings("project", {"autoDreamEnabled": True})
    w.settings("user", {"autoDreamEnabled": "false"})
    report = where(w.config())
    assert report.auto_dream.enabled is None
    assert any("autoDreamEnabled must be true or false" in p for p in report.problems)


def test_where_report_is_json_ready(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    payload = json.loads(json.dumps(where(w.config()).to_dict()))
    assert payload["auto_memory"]["level"] == 5 and payload["team_dir"].endswith("team" + os.sep)


# --------------------------------------------------------------------------- list


def test_list_finds_project_and_agent_dirs_with_their_figures(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    mem = w.memory_dir_for(w.project)
    add_memory(mem, "feedback_db.md", age_days=2)
    add_memory(mem, "project_freeze.md", type="project", age_days=40)
    add_memory(mem, "team/reference_board.md", type="reference", age_days=9)
    agent = w.claude_home / "agent-memory" / "code-reviewer"
    add_memory(agent, "feedback_style.md", age_days=1)
    local_agent = w.project / ".claude" / "agent-memory-local" / "tester"
    add_memory(local_agent, "user_role.md", type="user", age_days=0)
    infos = {i.kind: i for i in list_memory_dirs(w.claude_home, now_ms=NOW_MS)}
    assert set(infos) == {"project", "agent:user", "agent:local"}
    proj = infos["project"]
    assert proj.project_path == os.fspath(w.project)
    assert proj.memories == 3
    assert proj.by_type == {"feedback": 1, "project": 1, "reference": 1}
    assert proj.by_scope == {"private": 2, "team": 1}
    assert (proj.newest_age_days, proj.oldest_age_days) == (2, 40)
    assert not proj.truncated and {ix.scope for ix in proj.indexes} == {"private", "team"}
    assert infos["agent:local"].project_path == os.fspath(w.project)
    assert infos["agent:user"].key == "code-reviewer"
    # fresh36: a user-scope agent's dir was "project: (cannot be told from the key
    # code-reviewer)", as if the agent's name were a project key gone wrong
    shown = format_list(list(infos.values()))
    assert "project: every project (the code-reviewer agent's user-scope memory)" in shown
    assert "cannot be told from the key code-reviewer" not in shown


@pytest.mark.parametrize("planted", [".claude", ".claude/agent-memory"])
def test_list_never_counts_agent_memory_a_repository_symlink_leads_out_to(
    tmp_path: Path, planted: str
) -> None:
    # attack round 13: a project whose .claude/ was a symlink to another folder had that
    # folder's agent memory listed (and exported) as this project's
    w = make_world(tmp_path, repo=False)
    add_memory(w.memory_dir_for(w.project), "feedback_db.md")
    outside = tmp_path / "outside"
    add_memory(outside / "agent-memory" / "spy", "user_s.md", type="user")
    link = w.project / planted
    shutil.rmtree(link, ignore_errors=True)
    link.parent.mkdir(exist_ok=True)
    link.symlink_to(outside / planted.removeprefix(".claude").lstrip("/"))
    assert [i.kind for i in list_memory_dirs(w.claude_home, now_ms=NOW_MS)] == ["project"]


def test_list_finds_the_dir_the_user_settings_name_once(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    shared = w.home / "notes" / "claude-memory"
    add_memory(shared, "user_editor.md", type="user")
    w.settings("user", {"autoMemoryDirectory": "~/notes/claude-memory"})
    (info,) = list_memory_dirs(w.claude_home, now_ms=NOW_MS)
    assert (info.kind, info.path, info.memories) == ("settings:user", os.fspath(shared), 1)
    assert "every project (named by autoMemoryDirectory" in format_list([info])
    pinned = w.claude_home / "projects" / "-pinned" / "memory"
    add_memory(pinned, "feedback_x.md")
    w.settings("user", {"autoMemoryDirectory": "~/.claude/projects/-pinned/memory"})
    assert [i.kind for i in list_memory_dirs(w.claude_home)] == ["project"]


def test_list_skips_a_settings_dir_that_is_invalid_missing_or_a_symlink(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    real = w.home / "real"
    add_memory(real, "feedback_x.md")
    (w.home / "link").symlink_to(real)
    for value in ("relative/dir", "~/absent", "~/link", 42):
        w.settings("user", {"autoMemoryDirectory": value})
        assert list_memory_dirs(w.claude_home) == [], value


def test_list_marks_a_truncated_index(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    mem = w.memory_dir_for(w.project)
    for i in range(205):
        add_memory(mem, f"feedback_rule_{i:03d}.md")
    (info,) = list_memory_dirs(w.claude_home, now_ms=NOW_MS)
    assert info.truncated and info.indexes[0].lines == 205


def test_list_skips_a_symlinked_project_folder(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    elsewhere = tmp_path / "elsewhere" / "memory"
    add_memory(elsewhere, "feedback_x.md")
    (w.claude_home / "projects").mkdir()
    (w.claude_home / "projects" / "-evil").symlink_to(elsewhere.parent)
    assert list_memory_dirs(w.claude_home) == []


def test_list_leaves_out_a_project_folder_that_cannot_be_looked_at_and_lists_the_rest(
    tmp_path: Path,
) -> None:
    # `project/memory` past PATH_MAX (as a project folder this user cannot enter, one that
    # `sudo claude` left) raised out of pathlib: `list` ended in "File name too long"
    home = padded_path(tmp_path, 3900, "h") / "claude"
    add_memory(home / "projects" / "-home-me-app" / "memory", "feedback_x.md")
    edge = home / "projects" / ("p" * (4092 - path_bytes(home / "projects") - 1))
    edge.mkdir()
    assert path_bytes(edge) < 4096 <= path_bytes(edge / "memory")
    assert [info.key for info in list_memory_dirs(home)] == ["-home-me-app"]


def test_list_reads_the_project_path_from_a_session_transcript(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    gone = "/no/longer/here-project"
    key_dir = w.claude_home / "projects" / sanitize_path(gone)
    add_memory(key_dir / "memory", "feedback_x.md")
    (key_dir / "session.jsonl").write_text(json.dumps({"cwd": gone + "/sub"}) + "\n")
    (info,) = list_memory_dirs(w.claude_home)
    assert info.project_path == gone


def test_a_transcripts_cwd_is_keyed_in_one_pass_however_many_parts_it_has(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # each parent was keyed anew: a 64 KB cwd of '/a' parts (32,000 parents) took minutes
    w = make_world(tmp_path, repo=False)
    deep = "/gone" + "/a" * 30_000
    project = deep[: len("/gone") + 2 * 40]  # the project: a parent deep in the cwd
    key_dir = w.claude_home / "projects" / sanitize_path(project)
    add_memory(key_dir / "memory", "feedback_x.md")
    (key_dir / "session.jsonl").write_text(json.dumps({"cwd": deep}) + "\n")
    keyed = [0]

    def counted(path: Any) -> str:
        keyed[0] += 1
        return sanitize_path(path)

    monkeypatch.setattr(memory_dirs, "sanitize_path", counted)
    (info,) = list_memory_dirs(w.claude_home)
    assert info.project_path == project
    assert keyed[0] <= 2


def test_a_transcript_record_holding_a_raw_line_separator_still_gives_the_project_path(
    tmp_path: Path,
) -> None:
    # JSONL records end at '\n'; str.splitlines also cut at the raw U+2028 inside the string
    w = make_world(tmp_path, repo=False)
    gone = "/no/longer/here-project"
    key_dir = w.claude_home / "projects" / sanitize_path(gone)
    add_memory(key_dir / "memory", "feedback_x.md")
    record = json.dumps({"note": "a\u2028b", "cwd": gone}, ensure_ascii=False)
    (key_dir / "session.jsonl").write_text(record + "\n", encoding="utf-8")
    (info,) = list_memory_dirs(w.claude_home)
    assert info.project_path == gone


def test_a_key_is_matched_back_to_an_existing_folder(tmp_path: Path) -> None:
    target = tmp_path / "my repo" / "app.v2"
    target.mkdir(parents=True)
    assert guess_project_path(sanitize_path(os.fspath(target))) == os.fspath(target)
    assert guess_project_path("-no-such-place-anywhere") is None


@pytest.mark.parametrize("cut", ["inside a name", "between names", "above the folder"])
def test_a_long_paths_hashed_key_is_matched_back_to_its_folder(tmp_path: Path, cut: str) -> None:
    # past 200 sanitised characters a key is the first 200, a dash and a hash of the whole path
    room = 200 - len(sanitize_path(os.fspath(tmp_path)))
    if cut == "inside a name":
        target = tmp_path / ("a" * (room + 20)) / "app"
    elif cut == "between names":
        target = tmp_path / ("b" * (room - 1)) / "app"
    else:
        target = tmp_path / ("c" * (room - 10)) / "deeper" / "still" / "app"
    target.mkdir(parents=True)
    (target.parent / "app2").mkdir()  # a sibling with the same first 200 has another hash
    key = sanitize_path(os.fspath(target))
    assert len(key) > 200 and key != sanitize_path(os.fspath(target.parent / "app2"))
    assert guess_project_path(key) == os.fspath(target)
    assert guess_project_path(key[:-1] + ("0" if key[-1] != "0" else "1")) is None


def test_a_hashed_keys_search_below_its_200_characters_looks_at_a_bounded_number_of_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # below the cut any name may go on the path: every name there was stat'ed twice and keyed,
    # and a shared listing cache made each key of one `list` walk all the others had listed
    room = 200 - len(sanitize_path(os.fspath(tmp_path)))
    cut = tmp_path / ("a" * (room + 20))
    for i in range(MAX_GUESS_NAMES + 200):
        (cut / f"d{i:04}").mkdir(parents=True)
    stats = [0]
    real_stat, real_lstat = os.stat, os.lstat

    def counted(real: Any) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            stats[0] += 1
            return real(*args, **kwargs)

        return call

    monkeypatch.setattr(os, "stat", counted(real_stat))
    monkeypatch.setattr(os, "lstat", counted(real_lstat))
    listings: dict[str, list[tuple[str, str]]] = {}
    for n in range(3):  # one `list` run: keys of the same long path share the listings
        stats[0] = 0
        assert (
            guess_project_path(sanitize_path(os.fspath(cut / f"gone{n}")), listings=listings)
            is None
        )
        assert stats[0] <= MAX_GUESS_NAMES + 2 * len(cut.parts), n
    monkeypatch.undo()
    assert guess_project_path(sanitize_path(os.fspath(cut / "d0003"))) == os.fspath(cut / "d0003")


def test_list_of_a_missing_home_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="there is no Claude home at .*nope"):
        list_memory_dirs(tmp_path / "nope")
    (tmp_path / "a-file").write_text("", encoding="utf-8")
    with pytest.raises(ValueError, match="a-file is not a directory"):
        list_memory_dirs(tmp_path / "a-file")


@pytest.mark.parametrize(
    ("n", "word", "text"),
    [
        (1, "memory", "1 memory"),
        (2, "memory", "2 memories"),
        (0, "day", "0 days"),
        (1, "day", "1 day"),
    ],
)
def test_plurals_read_right(n: int, word: str, text: str) -> None:
    assert plural(n, word) == text


def test_list_says_when_an_index_is_not_a_regular_file(tmp_path: Path) -> None:
    from memdir_nb.reports.where import format_list

    w = make_world(tmp_path, repo=False)
    mem = w.memory_dir_for(w.project)
    mem.mkdir(parents=True)
    (mem / "note.md").write_text("---\nname: n\ndescription: d\ntype: nonsense\n---\nbody\n")
    (mem / "team").mkdir()
    os.mkfifo(mem / "team" / "MEMORY.md")
    (info,) = list_memory_dirs(w.claude_home)
    team = next(ix for ix in info.indexes if ix.scope == "team")
    assert "FIFO" in (team.problem or "")
    assert info.by_type == {"untyped": 1}
    assert "team index: team/MEMORY.md is a FIFO" in format_list([info])


def test_where_shows_the_pinned_project_folder_step(tmp_path: Path) -> None:
    w = make_world(tmp_path, repo=False)
    cfg_dir = tmp_path / "cfgdir"
    env = {"CLAUDE_CONFIG_DIR": str(cfg_dir), "CLAUDE_CODE_PROJECT_DIR_NAME": "shop"}
    report = where(w.config(env))
    assert report.memory_dir.rstrip(os.sep) == str(cfg_dir / "projects" / "shop" / "memory")
    rules = [s.rule for s in report.steps]
    assert rules.index("CLAUDE_CODE_PROJECT_DIR_NAME") == rules.index("default") - 1


def test_a_key_cut_at_200_characters_is_matched_back_to_its_deep_folder(tmp_path: Path) -> None:
    # A path of more than 200 sanitised characters has a key cut there with a hash after it;
    # the walk found nothing for it, so `list` lost the project (and its local agents) whenever
    # its folder was deep, as in CI's long pytest tmp_path.
    deep = padded_path(tmp_path, path_bytes(tmp_path) + 190, "d")
    target = deep / "my repo" / "app.v2" / "sub"
    target.mkdir(parents=True)
    (deep / "my repo" / "app-v2").mkdir()  # same sanitised characters, another folder
    key = sanitize_path(os.fspath(target))
    assert len(key) > 200
    assert guess_project_path(key) == os.fspath(target)
    assert guess_project_path(key[:-1] + ("0" if key[-1] != "0" else "1")) is None
