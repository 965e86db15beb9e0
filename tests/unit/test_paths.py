"""Tests for memdir_nb.home.paths: resolution chain, validation, git roots, gates, agent/log dirs."""

from __future__ import annotations

import datetime as dt
import json
import logging
import os
import pwd
import random
import shutil
import subprocess
import unicodedata
from pathlib import Path
from typing import Any, Literal

import pytest

from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.path_rules import folder_keyed, is_project_key
from memdir_nb.home.paths import (
    auto_memory_decision,
    auto_memory_status,
    derived_output_problem,
    ensure_memory_dir_exists,
    find_canonical_git_root,
    get_agent_memory_dir,
    get_auto_mem_path,
    get_memory_base_dir,
    get_team_mem_path,
    is_auto_memory_enabled,
    is_extract_mode_active,
    is_team_memory_enabled,
    memory_path_problem,
    resolve_auto_mem_path,
    sanitize_agent_type_for_path,
    sanitize_path,
    validate_memory_path,
)
from memdir_nb.prompts.build import build_agent_memory_prompt
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.daily_log import daily_log_path
from tests.conftest import build_folder_blocker

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
NO_GIT = "memdir-nb-no-such-git-binary"


# --------------------------------------------------------------------------- helpers


def git(cwd: Path, *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def make_repo(path: Path) -> Path:
    """A real git repository with local identity and one commit."""
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q", "-b", "main")
    git(path, "config", "user.name", "Memdir Test")
    git(path, "config", "user.email", "memdir@example.invalid")
    git(path, "config", "commit.gpgsign", "false")
    (path / "README.md").write_text("hello\n", encoding="utf-8")
    git(path, "add", "README.md")
    git(path, "commit", "-q", "-m", "initial")
    return path


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def cfg(tmp_path: Path, cwd: Path | None = None, **overrides: Any) -> MemdirConfig:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    return MemdirConfig.for_tests(home=home, cwd=cwd or tmp_path / "project", **overrides)


def expected_default(home: Path, root: Path) -> str:
    return (
        str(home / ".claude" / "projects" / sanitize_path(os.path.realpath(root)) / "memory")
        + os.sep
    )


# --------------------------------------------------------------------------- validate_memory_path


@pytest.mark.parametrize(
    "raw, expand, reason",
    [
        (None, False, "empty"),
        ("", True, "empty"),
        ("relative/memory", False, "not an absolute path"),
        ("./memory", True, "not an absolute path"),
        ("/", False, "too short"),
        ("/a", False, "too short"),
        ("//", False, "UNC"),
        ("C:", False, "drive root"),
        ("C:\\", False, "drive root"),
        ("c:/", False, "drive root"),
        ("\\\\server\\share", False, "UNC"),
        ("//server/share", False, "UNC"),
        ("/tmp/mem\0ory", False, "null byte"),
        ("~", True, "relative"),
        ("~/", True, "home directory or one of its ancestors"),
        ("~/.", True, "home directory or one of its ancestors"),
        ("~/..", True, "home directory or one of its ancestors"),
        ("~/../..", True, "home directory or one of its ancestors"),
        ("~//", True, "home directory or one of its ancestors"),
        ("~///..", True, "home directory or one of its ancestors"),
        ("~/notes/../..", True, "home directory or one of its ancestors"),
        ("~\\..", True, "home directory or one of its ancestors"),
        ("~/notes", False, "relative"),
        ("~alice/notes", True, "relative"),
        ("$HOME/.claude/memory", True, "$HOME is not expanded"),
        ("${VAULT_PATH}/memory", True, "${VAULT_PATH} is not expanded"),
        ("%USERPROFILE%\\memory", True, "%USERPROFILE% is not expanded"),
        ("C:/Dev/app/.claude/memory", True, "a Windows path (drive C:)"),
        ("d:\\notes\\memory", False, "a Windows path (drive d:)"),
    ],
)
def test_validate_memory_path_rejects_unsafe_values(
    tmp_path: Path, raw: str | None, expand: bool, reason: str
) -> None:
    assert validate_memory_path(raw, expand, home=tmp_path) is None
    valid, problem = memory_path_problem(raw, expand, home=tmp_path)
    assert valid is None and problem is not None and reason in problem


def test_validate_memory_path_strips_trailing_separators_and_adds_one() -> None:
    assert validate_memory_path("/srv/memory///", False) == "/srv/memory/"
    assert validate_memory_path("/srv/memory", False) == "/srv/memory/"


def test_validate_memory_path_normalizes_dot_segments() -> None:
    assert validate_memory_path("/srv/./a//b/../memory", False) == "/srv/a/memory/"


def test_validate_memory_path_nfc_normalizes() -> None:
    decomposed = "/srv/cafe\u0301/memory"
    assert unicodedata.is_normalized("NFD", decomposed) and not unicodedata.is_normalized(
        "NFC", decomposed
    )
    assert validate_memory_path(decomposed, False) == "/srv/caf\u00e9/memory/"


@pytest.mark.parametrize(
    ("raw", "expand", "used"),
    [
        ("HOME/m\ud800x", False, "HOME/m\ufffdx/"),  # JSON's "\ud800" in a settings value
        ("HOME/caf\udce9", False, "HOME/caf\ufffd/"),  # the byte 0xE9 of an environment variable
        ("~/m\udfff", True, "HOME/m\ufffd/"),
    ],
)
def test_a_lone_surrogate_in_a_memory_path_is_the_ufffd_claude_code_writes(
    tmp_path: Path, raw: str, expand: bool, used: str
) -> None:
    # attack round 26: the path was kept with its surrogate, so `where` and `doctor` named a
    # folder Claude Code never uses ("no memory dir yet"), and ensure_memory_dir_exists raised
    # UnicodeEncodeError
    raw, expected = (text.replace("HOME", os.fspath(tmp_path)) for text in (raw, used))
    assert memory_path_problem(raw, expand, home=tmp_path) == (expected, None)
    ensure_memory_dir_exists(expected)
    assert Path(expected).is_dir()


def test_validate_memory_path_expands_tilde_only_when_asked(tmp_path: Path) -> None:
    assert validate_memory_path("~/notes/mem", True, home=tmp_path) == f"{tmp_path}/notes/mem/"
    assert validate_memory_path("~/notes/mem", False, home=tmp_path) is None


@pytest.mark.parametrize("raw", ["~//etc/cron.d", "~///etc/cron.d", "~/./etc/cron.d"])
def test_a_tilde_path_with_doubled_slashes_stays_under_home(tmp_path: Path, raw: str) -> None:
    # attack round 30: os.path.join started again from the root, so `~//etc/cron.d` was the
    # memory dir /etc/cron.d/; Claude Code's path.join (and a shell) make it ~/etc/cron.d
    assert memory_path_problem(raw, True, home=tmp_path) == (f"{tmp_path}/etc/cron.d/", None)


def test_validate_memory_path_allows_dotted_names_under_home(tmp_path: Path) -> None:
    assert validate_memory_path("~/.memory", True, home=tmp_path) == f"{tmp_path}/.memory/"


def test_validate_memory_path_home_defaults_to_password_database(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("HOME", "/nonexistent-home-from-env")
    pw_home = pwd.getpwuid(os.getuid()).pw_dir
    assert validate_memory_path("~/mem", True) == os.path.join(pw_home, "mem") + os.sep


def test_validate_memory_path_shortest_accepted_is_three_chars() -> None:
    assert validate_memory_path("/ab", False) == "/ab/"


# --------------------------------------------------------------------------- sanitize_path


def test_every_key_sanitize_path_gives_is_a_project_key_and_nothing_else_is() -> None:
    for p in ("/home/me/My Project_v2.0", "C:\\w\\app", "/srv/" + "x" * 400, "/日本/リポ"):
        assert is_project_key(sanitize_path(p)), p
    for text in ("", "..", ".", "a b", "a/b", "-home-x\n", "k" * 209, "-home-é"):
        assert not is_project_key(text), text


def test_folder_keyed_is_the_deepest_of_a_path_and_its_parents_whose_key_it_is() -> None:
    # one pass over the text gives what keying pathlib's parents one by one gives
    rng = random.Random(21)
    pieces = ["a", "Z9", "/", "//", ".", "-", "_", "é", "😀", "x" * 90]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) for _ in range(rng.choice([1, 4, 12, 40])))
        text = rng.choice(["", "/", "//"]) + text
        folders = [Path(text), *Path(text).parents]
        target = rng.choice(folders)
        for key in (sanitize_path(target), sanitize_path(target)[:-1] + "!", "-", "--"):
            expected = next((os.fspath(f) for f in folders if sanitize_path(f) == key), None)
            assert folder_keyed(text, key) == expected, (text, key)


def test_sanitize_path_replaces_every_non_alphanumeric_with_dash() -> None:
    assert sanitize_path("/home/me/My Project_v2.0") == "-home-me-My-Project-v2-0"


def test_sanitize_path_replaces_non_ascii_letters() -> None:
    assert sanitize_path("/srv/café") == "-srv-caf-"


def test_sanitize_path_counts_astral_characters_as_two_units_like_javascript() -> None:
    assert sanitize_path("/a\U0001f600b") == "-a--b"


def test_sanitize_path_short_path_has_no_hash() -> None:
    p = "/" + "x" * 199
    assert sanitize_path(p) == "-" + "x" * 199


def test_sanitize_path_long_path_keeps_200_chars_plus_hash() -> None:
    p = "/a" * 150
    out = sanitize_path(p)
    assert out.startswith(("-a" * 100)[:200] + "-")
    # Hash value cross-checked against Claude Code's JavaScript djb2 fallback under Node.
    assert out == ("-a" * 100)[:200] + "-g3ckr0"


def test_sanitize_path_distinct_long_paths_stay_distinct() -> None:
    base = "/very/long/" + "segment/" * 40
    a, b = sanitize_path(base + "alpha"), sanitize_path(base + "beta")
    assert a[:200] == b[:200]
    assert a != b


def test_sanitize_path_is_stable() -> None:
    p = "/home/é/\U0001f600/" + "x" * 300
    assert sanitize_path(p) == sanitize_path(p)
    assert sanitize_path(p).endswith("-3vmev9")  # same value Node computes


# --------------------------------------------------------------------------- git roots


@needs_git
def test_git_root_of_a_subfolder_is_the_repo_root(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    sub = repo / "src" / "pkg"
    sub.mkdir(parents=True)
    assert find_canonical_git_root(sub) == repo


@needs_git
def test_worktree_resolves_to_main_checkout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    wt = tmp_path / "wt-feature"
    git(repo, "worktree", "add", "-q", "-b", "feature", str(wt))
    assert (wt / ".git").is_file()
    assert find_canonical_git_root(wt) == repo
    assert find_canonical_git_root(wt, git=NO_GIT) == repo


@needs_git
def test_outside_git_there_is_no_git_root(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    assert find_canonical_git_root(plain) is None
    assert find_canonical_git_root(plain, git=NO_GIT) is None


@needs_git
def test_git_root_found_without_git_binary_by_walking_up(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / "deep" / "er").mkdir(parents=True)
    assert find_canonical_git_root(repo / "deep" / "er", git=NO_GIT) == repo


@needs_git
def test_git_root_of_a_file_path_uses_its_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    assert find_canonical_git_root(repo / "README.md") == repo


@needs_git
def test_submodule_keeps_its_own_root(tmp_path: Path) -> None:
    lib = make_repo(tmp_path / "lib")
    app = make_repo(tmp_path / "app")
    git(app, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib), "vendor/lib")
    assert find_canonical_git_root(app / "vendor" / "lib") == app / "vendor" / "lib"
    assert find_canonical_git_root(app / "vendor" / "lib", git=NO_GIT) == app / "vendor" / "lib"


@needs_git
def test_worktrees_of_a_bare_repo_share_the_bare_dir(tmp_path: Path) -> None:
    src = make_repo(tmp_path / "src")
    bare = tmp_path / "proj.git"
    git(tmp_path, "clone", "-q", "--bare", str(src), str(bare))
    git(bare, "worktree", "add", "-q", str(tmp_path / "w1"), "main")
    git(bare, "worktree", "add", "-q", "-b", "other", str(tmp_path / "w2"))
    assert find_canonical_git_root(tmp_path / "w1") == bare
    assert find_canonical_git_root(tmp_path / "w2") == bare
    assert find_canonical_git_root(tmp_path / "w2", git=NO_GIT) == bare


@needs_git
def test_git_root_is_realpath_of_a_symlinked_checkout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    link = tmp_path / "link-to-repo"
    link.symlink_to(repo)
    assert find_canonical_git_root(link) == repo


# --------------------------------------------------------------------------- get_auto_mem_path


def test_default_path_outside_git_uses_project_root(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    c = cfg(tmp_path, project)
    assert get_auto_mem_path(c) == expected_default(tmp_path / "home", project)
    assert resolve_auto_mem_path(c).source == "default"


def test_auto_mem_path_has_exactly_one_trailing_separator(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    for c in (
        cfg(tmp_path),
        cfg(tmp_path, cowork_memory_override="/srv/cowork//"),
        cfg(tmp_path, settings={"user": {"autoMemoryDirectory": "/srv/user///"}}),
    ):
        path = get_auto_mem_path(c)
        assert path.endswith(os.sep) and not path.endswith(os.sep * 2)


@needs_git
def test_default_path_uses_git_root_from_a_subfolder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    (repo / "src").mkdir()
    assert get_auto_mem_path(cfg(tmp_path, repo / "src")) == expected_default(
        tmp_path / "home", repo
    )


@needs_git
def test_worktree_shares_memory_dir_with_main_checkout(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    wt = tmp_path / "repo-wt"
    git(repo, "worktree", "add", "-q", "-b", "topic", str(wt))
    main_dir = get_auto_mem_path(cfg(tmp_path, repo))
    wt_dir = get_auto_mem_path(cfg(tmp_path, wt))
    assert main_dir == wt_dir == expected_default(tmp_path / "home", repo)


def test_cowork_override_wins_over_settings(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        cowork_memory_override="/srv/cowork/mem",
        settings={"policy": {"autoMemoryDirectory": "/srv/policy"}},
    )
    res = resolve_auto_mem_path(c)
    assert (res.path, res.source) == ("/srv/cowork/mem/", "cowork-override")


def test_cowork_override_is_not_tilde_expanded_and_falls_through(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    c = cfg(
        tmp_path,
        cowork_memory_override="~/cowork",
        settings={"user": {"autoMemoryDirectory": "/srv/user"}},
    )
    with caplog.at_level(logging.WARNING, logger="memdir_nb.home.paths"):
        res = resolve_auto_mem_path(c)
    assert (res.path, res.source) == ("/srv/user/", "settings:user")
    assert any("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE" in s for s in res.skipped)
    assert any("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE" in r.getMessage() for r in caplog.records)


def test_invalid_override_falls_through_to_default(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    c = cfg(tmp_path, cowork_memory_override="relative/dir")
    assert get_auto_mem_path(c) == expected_default(tmp_path / "home", tmp_path / "project")


def test_policy_settings_beat_user_settings(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        settings={
            "policy": {"autoMemoryDirectory": "/srv/policy"},
            "user": {"autoMemoryDirectory": "/srv/user"},
        },
    )
    assert resolve_auto_mem_path(c).source == "settings:policy"
    assert get_auto_mem_path(c) == "/srv/policy/"


def test_flag_and_local_settings_beat_user_settings(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        settings={
            "flag": {"autoMemoryDirectory": "/srv/flag"},
            "local": {"autoMemoryDirectory": "/srv/local"},
            "user": {"autoMemoryDirectory": "/srv/user"},
        },
    )
    assert get_auto_mem_path(c) == "/srv/flag/"
    c2 = cfg(
        tmp_path,
        settings={
            "local": {"autoMemoryDirectory": "/srv/local"},
            "user": {"autoMemoryDirectory": "/srv/user"},
        },
    )
    assert get_auto_mem_path(c2) == "/srv/local/"


def test_settings_directory_expands_tilde_against_config_home(tmp_path: Path) -> None:
    c = cfg(tmp_path, settings={"user": {"autoMemoryDirectory": "~/my-memory"}})
    assert get_auto_mem_path(c) == f"{tmp_path / 'home' / 'my-memory'}/"


def test_invalid_settings_value_is_skipped_for_the_next_source(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        settings={
            "policy": {"autoMemoryDirectory": "~/"},
            "local": {"autoMemoryDirectory": 7},
            "user": {"autoMemoryDirectory": "/srv/user"},
        },
    )
    res = resolve_auto_mem_path(c)
    assert (res.path, res.source) == ("/srv/user/", "settings:user")
    assert len(res.skipped) == 2
    assert "policy" in res.skipped[0] and "local" in res.skipped[1]


def test_project_settings_directory_is_ignored(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    c = cfg(tmp_path, settings={"project": {"autoMemoryDirectory": "/srv/evil"}})
    assert get_auto_mem_path(c) == expected_default(tmp_path / "home", tmp_path / "project")


@needs_git
def test_repo_settings_pointing_memory_at_ssh_are_ignored(tmp_path: Path) -> None:
    """Issue 3 item 5: a cloned repo's .claude/settings.json cannot move memory to ~/.ssh."""
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    repo = make_repo(tmp_path / "evil-repo")
    write_json(repo / ".claude" / "settings.json", {"autoMemoryDirectory": "~/.ssh"})
    git(repo, "add", ".claude/settings.json")
    git(repo, "commit", "-q", "-m", "add settings")
    c = MemdirConfig.from_environment(
        {}, home=home, cwd=repo, policy_settings_path=tmp_path / "no-policy.json"
    )
    assert c.settings.project == {"autoMemoryDirectory": "~/.ssh"}
    resolved = get_auto_mem_path(c)
    assert resolved == expected_default(home, repo)
    assert ".ssh" not in resolved
    assert resolve_auto_mem_path(c).source == "default"


@needs_git
def test_user_settings_file_on_disk_moves_memory(tmp_path: Path) -> None:
    home = tmp_path / "home"
    repo = make_repo(tmp_path / "repo")
    write_json(home / ".claude" / "settings.json", {"autoMemoryDirectory": "~/notes/memory"})
    write_json(repo / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/project"})
    c = MemdirConfig.from_environment(
        {}, home=home, cwd=repo, policy_settings_path=tmp_path / "no-policy.json"
    )
    assert get_auto_mem_path(c) == f"{home / 'notes' / 'memory'}/"


def test_remote_memory_dir_is_the_base(tmp_path: Path) -> None:
    (tmp_path / "project").mkdir()
    c = cfg(tmp_path, remote_memory_dir="/mnt/remote-mem")
    key = sanitize_path(os.path.realpath(tmp_path / "project"))
    assert get_memory_base_dir(c) == Path("/mnt/remote-mem")
    assert get_auto_mem_path(c) == f"/mnt/remote-mem/projects/{key}/memory/"


def test_relative_remote_memory_dir_is_a_clear_error(tmp_path: Path) -> None:
    c = cfg(tmp_path, remote_memory_dir="remote/mem")
    with pytest.raises(ValueError, match="CLAUDE_CODE_REMOTE_MEMORY_DIR.*absolute"):
        get_auto_mem_path(c)


def test_team_path_is_auto_path_plus_team(tmp_path: Path) -> None:
    c = cfg(tmp_path, cowork_memory_override="/srv/mem")
    assert get_team_mem_path(c) == "/srv/mem/team/"


# --------------------------------------------------------------------------- ensure_memory_dir_exists


def test_ensure_memory_dir_creates_nested_dirs_and_is_idempotent(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "memory"
    assert ensure_memory_dir_exists(target)
    assert target.is_dir()
    (target / "keep.md").write_text("x", encoding="utf-8")
    assert ensure_memory_dir_exists(str(target) + os.sep)
    assert (target / "keep.md").read_text(encoding="utf-8") == "x"


def test_ensure_memory_dir_under_a_file_returns_false_and_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "x" / "file.txt"
    blocker.parent.mkdir()
    blocker.write_text("not a dir", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="memdir_nb.home.paths"):
        assert ensure_memory_dir_exists(blocker / "sub") is False
    assert any("cannot create memory dir" in r.getMessage() for r in caplog.records)
    assert blocker.read_text(encoding="utf-8") == "not a dir"


@pytest.mark.parametrize(
    "kind", ["a FIFO", "a symlink loop", "a symlink to a path that does not exist"]
)
def test_ensure_memory_dir_under_a_blocker_logs_what_blocks_it(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    # attack40: the prompt builders' mkdir logged "Not a directory: <dir>" (or "File exists",
    # ELOOP), naming the dir and not the FIFO or the link above it
    blocker = build_folder_blocker(tmp_path, kind)
    with caplog.at_level(logging.WARNING, logger="memdir_nb.home.paths"):
        assert ensure_memory_dir_exists(blocker / "memory") is False
    assert any(f"{blocker} is {kind}, not a folder" in r.getMessage() for r in caplog.records)


def test_ensure_memory_dir_when_path_is_a_file_returns_false(tmp_path: Path) -> None:
    f = tmp_path / "memory"
    f.write_text("", encoding="utf-8")
    assert ensure_memory_dir_exists(f) is False


# --------------------------------------------------------------------------- enable gates


def test_auto_memory_is_on_by_default(tmp_path: Path) -> None:
    assert auto_memory_status(cfg(tmp_path)) == (True, "enabled by default")


def test_disable_env_turns_memory_off_even_if_settings_enable_it(tmp_path: Path) -> None:
    c = cfg(tmp_path, disable_auto_memory=True, settings={"policy": {"autoMemoryEnabled": True}})
    assert not is_auto_memory_enabled(c)
    assert "CLAUDE_CODE_DISABLE_AUTO_MEMORY" in auto_memory_status(c)[1]


def test_simple_mode_turns_memory_off(tmp_path: Path) -> None:
    c = cfg(tmp_path, simple_mode=True, settings={"user": {"autoMemoryEnabled": True}})
    assert auto_memory_status(c) == (False, "CLAUDE_CODE_SIMPLE (bare mode) is set")


def test_remote_mode_without_remote_dir_turns_memory_off(tmp_path: Path) -> None:
    assert not is_auto_memory_enabled(cfg(tmp_path, remote_mode=True))


def test_remote_mode_with_remote_dir_keeps_memory_on(tmp_path: Path) -> None:
    assert is_auto_memory_enabled(cfg(tmp_path, remote_mode=True, remote_memory_dir="/mnt/mem"))


def test_invalid_remote_dir_turns_memory_off(tmp_path: Path) -> None:
    enabled, why = auto_memory_status(cfg(tmp_path, remote_memory_dir="rel"))
    assert not enabled and "CLAUDE_CODE_REMOTE_MEMORY_DIR" in why


def test_user_settings_can_disable_memory(tmp_path: Path) -> None:
    c = cfg(tmp_path, settings={"user": {"autoMemoryEnabled": False}})
    assert auto_memory_status(c) == (False, "autoMemoryEnabled=false in user settings")


def test_policy_setting_beats_user_setting_for_enabled(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        settings={"policy": {"autoMemoryEnabled": True}, "user": {"autoMemoryEnabled": False}},
    )
    assert is_auto_memory_enabled(c)


def test_project_settings_may_turn_memory_off(tmp_path: Path) -> None:
    c = cfg(tmp_path, settings={"project": {"autoMemoryEnabled": False}})
    assert auto_memory_status(c) == (False, "autoMemoryEnabled=false in project settings")


def test_project_settings_cannot_turn_on_what_the_user_disabled(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        settings={"project": {"autoMemoryEnabled": True}, "user": {"autoMemoryEnabled": False}},
    )
    assert not is_auto_memory_enabled(c)


def test_local_settings_beat_project_opt_out(tmp_path: Path) -> None:
    c = cfg(
        tmp_path,
        settings={"project": {"autoMemoryEnabled": False}, "local": {"autoMemoryEnabled": True}},
    )
    assert is_auto_memory_enabled(c)


def test_non_boolean_enabled_setting_is_ignored(tmp_path: Path) -> None:
    c = cfg(tmp_path, settings={"user": {"autoMemoryEnabled": "false"}})
    assert is_auto_memory_enabled(c)


def test_team_memory_needs_flag_and_auto_memory(tmp_path: Path) -> None:
    assert not is_team_memory_enabled(cfg(tmp_path))
    assert is_team_memory_enabled(cfg(tmp_path, flags={"team_memory": True}))
    assert not is_team_memory_enabled(cfg(tmp_path, flags={"team_memory": True}, simple_mode=True))


@pytest.mark.parametrize(
    "extract, non_interactive_flag, non_interactive, expected",
    [
        (False, False, False, False),
        (False, True, True, False),
        (True, False, False, True),
        (True, False, True, False),
        (True, True, True, True),
        (True, True, False, True),
    ],
)
def test_extract_mode_needs_flag_and_interactive_or_its_own_flag(
    tmp_path: Path, extract: bool, non_interactive_flag: bool, non_interactive: bool, expected: bool
) -> None:
    c = cfg(
        tmp_path,
        non_interactive=non_interactive,
        flags={"extract_mode": extract, "extract_non_interactive": non_interactive_flag},
    )
    assert is_extract_mode_active(c) is expected


# --------------------------------------------------------------------------- agent memory


@pytest.mark.parametrize(
    "raw, expected",
    [
        ("code-reviewer", "code-reviewer"),
        ("plugin:reviewer", "plugin-reviewer"),
        ("a/b\\c", "a-b-c"),
        ("nul\0byte", "nul-byte"),
        ("..", "--"),
        (".hidden", "-hidden"),
        ("../../etc", "---..-etc"),
    ],
)
def test_sanitize_agent_type_makes_one_safe_segment(raw: str, expected: str) -> None:
    out = sanitize_agent_type_for_path(raw)
    assert out == expected
    assert "/" not in out and "\\" not in out and not out.startswith(".")


@pytest.mark.parametrize("raw", ["", "   "])
def test_sanitize_agent_type_rejects_empty(raw: str) -> None:
    with pytest.raises(ValueError, match="agent type"):
        sanitize_agent_type_for_path(raw)


@pytest.mark.parametrize("raw", ["rev\u202eweiver", "rev\x9b2J", "r" * 300, "aux"])
def test_an_agent_type_the_folder_gate_refuses_names_no_memory_folder(
    tmp_path: Path, raw: str
) -> None:
    # attack round 13: a bidi or C1 control, a name past 255 bytes or a Windows device name
    # became the folder's name (over-long: a logged OSError and a prompt anyway)
    c = cfg(tmp_path)
    with pytest.raises(ValueError, match="cannot name its memory folder"):
        build_agent_memory_prompt(raw, "user", c)
    assert not (tmp_path / "home" / ".claude" / "agent-memory").exists()


def test_agent_memory_dir_per_scope(tmp_path: Path) -> None:
    project = tmp_path / "project"
    c = cfg(tmp_path, project)
    home = tmp_path / "home"
    assert (
        get_agent_memory_dir("plugin:rev", "user", c)
        == home / ".claude" / "agent-memory" / "plugin-rev"
    )
    assert (
        get_agent_memory_dir("plugin:rev", "project", c)
        == project / ".claude" / "agent-memory" / "plugin-rev"
    )
    assert (
        get_agent_memory_dir("plugin:rev", "local", c)
        == project / ".claude" / "agent-memory-local" / "plugin-rev"
    )


@pytest.mark.parametrize("scope", ["user", "project", "local"])
@pytest.mark.parametrize("there, sent", [("NFD", "NFC"), ("NFC", "NFD")])
def test_an_agent_type_in_the_other_normal_form_is_the_agents_folder_already_there(
    tmp_path: Path, scope: str, there: Literal["NFC", "NFD"], sent: Literal["NFC", "NFD"]
) -> None:
    # §43: `café` decomposed (as macOS writes it) and then composed (as it is typed) made two
    # folders, listed as two identical lines; the second agent never saw the first's memories
    project = tmp_path / "project"
    project.mkdir()
    c = cfg(tmp_path, project)
    first = get_agent_memory_dir(unicodedata.normalize(there, "café-reviewer"), scope, c)
    first.mkdir(parents=True)
    (first / "MEMORY.md").write_text("- [Style](user_style.md) — tabs, never spaces\n")
    agent = unicodedata.normalize(sent, "café-reviewer")
    assert get_agent_memory_dir(agent, scope, c) == first
    prompt = build_agent_memory_prompt(agent, scope, c)
    assert os.listdir(first.parent) == [first.name]  # no second folder
    assert "tabs, never spaces" in prompt


def test_agent_memory_dir_stays_inside_its_parent(tmp_path: Path) -> None:
    c = cfg(tmp_path)
    parent = tmp_path / "project" / ".claude" / "agent-memory"
    got = get_agent_memory_dir("../../../etc", "project", c)
    assert got.parent == parent


@pytest.mark.parametrize("planted", [".claude", ".claude/agent-memory", ".claude/agent-memory/rev"])
def test_a_repository_symlink_never_places_project_agent_memory_outside_the_project(
    tmp_path: Path, planted: str
) -> None:
    # attack round 13: a repository committing `.claude/agent-memory -> <another project's
    # memory>` had that project's MEMORY.md loaded into this agent's prompt, and the prompt
    # build created the agent's folder over there (os.makedirs follows the link)
    project, outside = tmp_path / "project", tmp_path / "outside"
    (outside / "agent-memory" / "rev").mkdir(parents=True)
    (outside / "agent-memory" / "rev" / "MEMORY.md").write_text("- [k](k.md) - private elsewhere\n")
    link = project / planted
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(outside / planted.removeprefix(".claude").lstrip("/"))
    before = sorted(p.relative_to(outside) for p in outside.rglob("*"))
    c = cfg(tmp_path, project)
    with pytest.raises(PathTraversalError, match="cannot choose where agent memory lives") as err:
        build_agent_memory_prompt("rev", "project", c)
    assert err.value.rule == "symlink-escape" and "Remove the symlink" in str(err.value)
    if not planted.endswith("/rev"):  # a new agent's folder is never made over there
        with pytest.raises(PathTraversalError):
            build_agent_memory_prompt("new", "project", c)
    assert sorted(p.relative_to(outside) for p in outside.rglob("*")) == before
    inside = tmp_path / "inside"
    (inside / ".claude" / "shared").mkdir(parents=True)
    (inside / ".claude" / "agent-memory").symlink_to("shared")  # a link within the project
    assert "rev" in build_agent_memory_prompt("rev", "project", cfg(tmp_path, inside))


def test_agent_memory_unknown_scope_lists_the_three(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="user, project, local"):
        get_agent_memory_dir("rev", "team", cfg(tmp_path))


# --------------------------------------------------------------------------- daily log


def test_daily_log_path_is_year_month_date(tmp_path: Path) -> None:
    assert (
        daily_log_path(tmp_path, dt.date(2026, 3, 7))
        == tmp_path / "logs" / "2026" / "03" / "2026-03-07.md"
    )


def test_daily_log_path_accepts_str_memory_dir_with_trailing_sep(tmp_path: Path) -> None:
    got = daily_log_path(str(tmp_path) + os.sep, dt.date(2025, 12, 31))
    assert got == tmp_path / "logs" / "2025" / "12" / "2025-12-31.md"


def test_daily_log_path_rejects_non_dates(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="datetime.date"):
        daily_log_path(tmp_path, "2026-03-07")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- 2026 environment


def _env_cfg(tmp_path: Path, env: dict[str, str], **kw: Any) -> MemdirConfig:
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    return MemdirConfig.from_environment(
        env, home=home, cwd=project, policy_settings_path=tmp_path / "no-policy.json", **kw
    )


@pytest.mark.parametrize("value", ["0", "false", "OFF"])
def test_disable_auto_memory_zero_forces_memory_on_over_bare_mode_and_settings(
    tmp_path: Path, value: str
) -> None:
    (tmp_path / "home" / ".claude").mkdir(parents=True)
    (tmp_path / "home" / ".claude" / "settings.json").write_text('{"autoMemoryEnabled": false}')
    c = _env_cfg(tmp_path, {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": value, "CLAUDE_CODE_SIMPLE": "1"})
    d = auto_memory_decision(c)
    assert d.enabled and d.level == 1 and "forces auto memory on" in d.reason
    assert "environment" in d.source


def test_disable_auto_memory_one_still_turns_memory_off(tmp_path: Path) -> None:
    d = auto_memory_decision(_env_cfg(tmp_path, {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}))
    assert not d.enabled and d.reason == "CLAUDE_CODE_DISABLE_AUTO_MEMORY is set"


def test_safe_mode_turns_memory_off_even_when_forced_on(tmp_path: Path) -> None:
    env = {"CLAUDE_CODE_SAFE_MODE": "1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}
    d = auto_memory_decision(_env_cfg(tmp_path, env))
    assert not d.enabled and d.level == 1 and "safe mode" in d.reason
    assert not is_auto_memory_enabled(_env_cfg(tmp_path, {"CLAUDE_CODE_SAFE_MODE": "true"}))


def test_forcing_memory_on_does_not_invent_a_remote_dir(tmp_path: Path) -> None:
    env = {"CLAUDE_CODE_REMOTE": "1", "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0"}
    assert auto_memory_decision(_env_cfg(tmp_path, env)).level == 3


def test_project_dir_name_with_config_dir_pins_the_project_folder(tmp_path: Path) -> None:
    config_dir = tmp_path / "cfg"
    env = {"CLAUDE_CONFIG_DIR": str(config_dir), "CLAUDE_CODE_PROJECT_DIR_NAME": "shop-api"}
    r = resolve_auto_mem_path(_env_cfg(tmp_path, env), git=None)
    assert r.path == str(config_dir / "projects" / "shop-api" / "memory") + os.sep
    assert r.key == "shop-api"
    step = next(s for s in r.steps if s.rule == "CLAUDE_CODE_PROJECT_DIR_NAME")
    assert step.outcome == "used" and "CLAUDE_CONFIG_DIR" in step.detail


def test_project_dir_name_without_config_dir_is_ignored_and_says_why(tmp_path: Path) -> None:
    r = resolve_auto_mem_path(
        _env_cfg(tmp_path, {"CLAUDE_CODE_PROJECT_DIR_NAME": "shop-api"}), git=None
    )
    assert "shop-api" not in r.path
    step = next(s for s in r.steps if s.rule == "CLAUDE_CODE_PROJECT_DIR_NAME")
    assert step.outcome == "ignored" and "only together with CLAUDE_CONFIG_DIR" in step.detail


@pytest.mark.parametrize("bad", ["../escape", "a/b", "..", ".hidden"])
def test_a_project_dir_name_that_is_not_one_folder_name_is_rejected(
    tmp_path: Path, bad: str
) -> None:
    env = {"CLAUDE_CONFIG_DIR": str(tmp_path / "cfg"), "CLAUDE_CODE_PROJECT_DIR_NAME": bad}
    r = resolve_auto_mem_path(_env_cfg(tmp_path, env), git=None)
    assert r.key != bad and r.path.startswith(str(tmp_path / "cfg" / "projects"))
    step = next(s for s in r.steps if s.rule == "CLAUDE_CODE_PROJECT_DIR_NAME")
    assert step.outcome == "rejected"


def test_a_derived_file_is_refused_in_any_claude_home_given_and_a_dir_it_is_made_from(
    tmp_path: Path,
) -> None:
    # bounds37: the cache rule of MEMDIR_NB_CACHE_DIR (attack37) is the one every explicit
    # output goes through; the homes and memory dirs of the call join the config's
    cfg = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path / "project")
    other_home = tmp_path / "other" / ".claude"
    mem = tmp_path / "mem"
    mem.mkdir()
    inside_other = other_home / "projects" / "-p" / "memory" / "out.zip"
    assert derived_output_problem(inside_other, cfg) is None
    assert "is inside" in (
        derived_output_problem(inside_other, cfg, claude_homes=[other_home]) or ""
    )
    assert derived_output_problem(mem / "sub", cfg) is None
    assert "is inside" in (derived_output_problem(mem / "sub", cfg, memory_dirs=[mem]) or "")
    own = tmp_path / "home" / ".claude" / "agent-memory" / "planner" / "cache"
    assert "is inside" in (derived_output_problem(own, cfg) or "")


def test_a_folder_of_markdown_refuses_a_cache_but_not_an_export(tmp_path: Path) -> None:
    cfg = MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path / "project")
    repo = tmp_path / "repo"
    repo.mkdir()
    (repo / "README.md").write_text("# a repository\n")
    assert "holds memory files (README.md)" in (derived_output_problem(repo, cfg) or "")
    assert derived_output_problem(repo, cfg, notes=False) is None
    (repo / "MEMORY.md").write_text("- [a](a.md) - a\n")
    assert "holds MEMORY.md" in (derived_output_problem(repo / "x.zip", cfg, notes=False) or "")
