"""Tests for memdir_nb.home.config: env vars, settings layers and trust order, flags, clock."""

from __future__ import annotations

import json
import logging
import os
import pwd
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.cli.main import main as cli_main
from memdir_nb.home.config import (
    CONFIG_ENV_VARS,
    FLAG_ENV_VARS,
    REPO_ENV_ALLOWED,
    FeatureFlags,
    HomeNotFoundError,
    MemdirConfig,
    is_env_truthy,
)
from memdir_nb.home.paths import derived_output_problem, resolve_auto_mem_path
from memdir_nb.home.settings_files import SettingsLayers
from memdir_nb.spec.constants import SETTINGS_READ_MAX_BYTES
from memdir_nb.ui.demo import notebook_memory_dir


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    """A fake home, project and policy file location, all under tmp_path."""
    home = tmp_path / "home"
    project = tmp_path / "project"
    (home / ".claude").mkdir(parents=True)
    (project / ".claude").mkdir(parents=True)
    return {
        "home": home,
        "project": project,
        "policy": tmp_path / "etc" / "managed-settings.json",
        "flag": tmp_path / "flag-settings.json",
    }


def write_json(path: Path, data: object) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


def load(world: dict[str, Path], env: dict[str, str] | None = None, **kw: Any) -> MemdirConfig:
    kw.setdefault("policy_settings_path", world["policy"])
    kw.setdefault("cwd", world["project"])
    return MemdirConfig.from_environment(env or {}, home=world["home"], **kw)


# --------------------------------------------------------------------------- env vars


@pytest.mark.parametrize("value", ["1", "true", "TRUE", "yes", "Yes", "on", " on "])
def test_truthy_values_are_1_true_yes_on_any_case(value: str) -> None:
    assert is_env_truthy(value)


@pytest.mark.parametrize("value", [None, "", "0", "false", "no", "off", "2", "enabled"])
def test_other_values_are_not_truthy(value: str | None) -> None:
    assert not is_env_truthy(value)


def test_spec_env_vars_map_to_config_fields(world: dict[str, Path]) -> None:
    cfg = load(
        world,
        {
            "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/srv/cowork/memory",
            "CLAUDE_CODE_REMOTE_MEMORY_DIR": "/mnt/remote",
            "CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1",
            "CLAUDE_CODE_SIMPLE": "true",
            "CLAUDE_CODE_REMOTE": "yes",
            "ANTHROPIC_API_KEY": "sk-ant-test",
            "MEMDIR_NB_SELECTOR": "Anthropic",
            "MEMDIR_NB_DIR": "/data/mem",
        },
    )
    assert cfg.cowork_memory_override == "/srv/cowork/memory"
    assert cfg.remote_memory_dir == "/mnt/remote"
    assert cfg.disable_auto_memory and cfg.simple_mode and cfg.remote_mode
    assert cfg.anthropic_api_key == "sk-ant-test"
    assert cfg.selector == "anthropic"
    assert cfg.demo_dir == "/data/mem"
    assert cfg.settings_problems == ()


def test_absent_env_vars_give_defaults(world: dict[str, Path]) -> None:
    cfg = load(world)
    assert cfg.cowork_memory_override is None and cfg.remote_memory_dir is None
    assert not (
        cfg.disable_auto_memory or cfg.simple_mode or cfg.remote_mode or cfg.non_interactive
    )
    assert cfg.anthropic_api_key is None and cfg.selector is None and cfg.demo_dir is None
    assert cfg.flags == FeatureFlags()


def test_empty_env_vars_count_as_unset(world: dict[str, Path]) -> None:
    cfg = load(
        world,
        {
            "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "",
            "CLAUDE_CODE_REMOTE_MEMORY_DIR": "",
            "ANTHROPIC_API_KEY": "",
            "MEMDIR_NB_DIR": "",
        },
    )
    assert cfg.cowork_memory_override is None
    assert cfg.remote_memory_dir is None
    assert cfg.anthropic_api_key is None
    assert cfg.demo_dir is None


def test_api_key_is_not_shown_in_repr(world: dict[str, Path]) -> None:
    cfg = load(world, {"ANTHROPIC_API_KEY": "sk-ant-secret-value"})
    assert "sk-ant-secret-value" not in repr(cfg)


def test_unknown_selector_is_recorded_and_ignored(world: dict[str, Path]) -> None:
    cfg = load(world, {"MEMDIR_NB_SELECTOR": "magic"})
    assert cfg.selector is None
    assert any("MEMDIR_NB_SELECTOR" in p and "lexical" in p for p in cfg.settings_problems)


def test_semantic_is_a_known_selector_name(world: dict[str, Path]) -> None:
    assert load(world, {"MEMDIR_NB_SELECTOR": "Semantic"}).selector == "semantic"


def test_cache_root_defaults_to_home_cache_and_follows_the_env(world: dict[str, Path]) -> None:
    assert load(world).cache_root() == world["home"] / ".cache" / "memdir_nb"
    xdg = load(world, {"XDG_CACHE_HOME": "/var/cache/u"})
    assert xdg.cache_root() == Path("/var/cache/u/memdir_nb")
    own = load(world, {"MEMDIR_NB_CACHE_DIR": "~/vectors", "XDG_CACHE_HOME": "/var/cache/u"})
    assert own.cache_root() == world["home"] / "vectors"


@pytest.mark.parametrize(
    ("env", "used"),
    [
        ({"MEMDIR_NB_CACHE_DIR": "cache"}, "HOME/.cache/memdir_nb"),
        ({"XDG_CACHE_HOME": ".cache"}, "HOME/.cache/memdir_nb"),
        (
            {"MEMDIR_NB_CACHE_DIR": "cache", "XDG_CACHE_HOME": "/var/cache/u"},
            "/var/cache/u/memdir_nb",
        ),
    ],
)
def test_a_relative_cache_folder_is_refused_with_a_problem_not_taken_from_the_working_folder(
    world: dict[str, Path], env: dict[str, str], used: str
) -> None:
    # attack round 26: MEMDIR_NB_CACHE_DIR=cache put the vector cache and 42 MB of layer
    # matrices under whatever folder the process ran in (a memory dir, a cloned repository)
    cfg = load(world, env)
    assert cfg.cache_root() == Path(used.replace("HOME", str(world["home"])))
    for name, value in env.items():
        if not value.startswith("/"):
            said = [p for p in cfg.settings_problems if p.startswith(f"{name}={value!r}")]
            assert said and "is not an absolute path" in said[0], cfg.settings_problems


@pytest.mark.parametrize("flag_name", sorted(FLAG_ENV_VARS))
def test_each_feature_flag_reads_its_own_env_var(world: dict[str, Path], flag_name: str) -> None:
    cfg = load(world, {FLAG_ENV_VARS[flag_name]: "on"})
    on = {name for name in FLAG_ENV_VARS if getattr(cfg.flags, name)}
    assert on == {flag_name}


def test_feature_flag_env_var_names_match_the_contract() -> None:
    assert set(FLAG_ENV_VARS.values()) == {
        "MEMDIR_NB_TEAM_MEMORY",
        "MEMDIR_NB_EXTRACT_MODE",
        "MEMDIR_NB_EXTRACT_NON_INTERACTIVE",
        "MEMDIR_NB_SEARCH_PAST_CONTEXT",
        "MEMDIR_NB_SKIP_INDEX",
        "MEMDIR_NB_KAIROS",
    }


def test_feature_flag_with_non_truthy_value_stays_off(world: dict[str, Path]) -> None:
    cfg = load(world, {"MEMDIR_NB_TEAM_MEMORY": "0", "MEMDIR_NB_KAIROS": "false"})
    assert not cfg.flags.team_memory and not cfg.flags.kairos


def test_non_interactive_from_keyword_or_env(world: dict[str, Path]) -> None:
    assert load(world, non_interactive=True).non_interactive
    assert load(world, {"MEMDIR_NB_NON_INTERACTIVE": "1"}).non_interactive
    assert not load(
        world, {"MEMDIR_NB_NON_INTERACTIVE": "1"}, non_interactive=False
    ).non_interactive


def test_from_environment_reads_os_environ_when_env_is_none(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SIMPLE", "1")
    monkeypatch.setenv("MEMDIR_NB_SKIP_INDEX", "yes")
    cfg = MemdirConfig.from_environment(
        home=world["home"], cwd=world["project"], policy_settings_path=world["policy"]
    )
    assert cfg.simple_mode and cfg.flags.skip_index


def test_home_defaults_to_env_home(world: dict[str, Path]) -> None:
    cfg = MemdirConfig.from_environment(
        {"HOME": str(world["home"])}, cwd=world["project"], policy_settings_path=world["policy"]
    )
    assert cfg.home == world["home"]
    assert cfg.claude_home == world["home"] / ".claude"


def test_home_falls_back_to_password_database_without_home_var(world: dict[str, Path]) -> None:
    cfg = MemdirConfig.from_environment(
        {}, cwd=world["project"], policy_settings_path=world["policy"]
    )
    assert cfg.home == Path(pwd.getpwuid(os.getuid()).pw_dir)


def test_a_user_id_with_no_passwd_entry_and_no_home_is_a_clear_error(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # `docker run --user 12345` with HOME unset: getpwuid raises KeyError, and every command
    # ended in that traceback
    def no_entry(uid: int) -> pwd.struct_passwd:
        raise KeyError(f"getpwuid(): uid not found: {uid}")

    monkeypatch.setattr(pwd, "getpwuid", no_entry)
    with pytest.raises(HomeNotFoundError, match="HOME is not set and user id .* set HOME"):
        MemdirConfig.from_environment(
            {}, cwd=world["project"], policy_settings_path=world["policy"]
        )
    monkeypatch.delenv("HOME", raising=False)
    assert cli_main(["where"]) == 2
    assert "error: the home folder is unknown" in capsys.readouterr().err
    monkeypatch.setenv("HOME", str(world["home"]))  # HOME set: the passwd entry is not needed
    assert MemdirConfig.from_environment().home == world["home"]


def test_cwd_defaults_to_process_cwd(
    world: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(world["project"])
    cfg = MemdirConfig.from_environment(
        {}, home=world["home"], policy_settings_path=world["policy"]
    )
    assert cfg.cwd == world["project"]


def test_claude_config_dir_moves_claude_home_and_user_settings(
    world: dict[str, Path], tmp_path: Path
) -> None:
    alt = tmp_path / "alt-claude"
    write_json(alt / "settings.json", {"autoMemoryDirectory": "/srv/alt"})
    cfg = load(world, {"CLAUDE_CONFIG_DIR": str(alt)})
    assert cfg.claude_home == alt
    assert cfg.settings.user == {"autoMemoryDirectory": "/srv/alt"}


def test_relative_claude_config_dir_is_reported_and_not_used(world: dict[str, Path]) -> None:
    cfg = load(world, {"CLAUDE_CONFIG_DIR": "relative/dir"})
    assert cfg.claude_home == world["home"] / ".claude"
    assert any("CLAUDE_CONFIG_DIR" in p and "absolute" in p for p in cfg.settings_problems)


# --------------------------------------------------------------------------- settings layers


def test_each_settings_layer_is_read_from_its_file(world: dict[str, Path]) -> None:
    write_json(world["policy"], {"k": "policy"})
    write_json(world["flag"], {"k": "flag"})
    write_json(world["project"] / ".claude" / "settings.local.json", {"k": "local"})
    write_json(world["home"] / ".claude" / "settings.json", {"k": "user"})
    write_json(world["project"] / ".claude" / "settings.json", {"k": "project"})
    cfg = load(world, flag_settings_path=world["flag"])
    s = cfg.settings
    assert (s.policy, s.flag, s.local, s.user, s.project) == (
        {"k": "policy"},
        {"k": "flag"},
        {"k": "local"},
        {"k": "user"},
        {"k": "project"},
    )
    assert s.paths["policy"] == str(world["policy"])
    assert s.paths["project"] == str(world["project"] / ".claude" / "settings.json")


def test_trust_order_is_policy_then_flag_then_local_then_user(world: dict[str, Path]) -> None:
    files = {
        "policy": world["policy"],
        "flag": world["flag"],
        "local": world["project"] / ".claude" / "settings.local.json",
        "user": world["home"] / ".claude" / "settings.json",
    }
    order = ["policy", "flag", "local", "user"]
    for i, winner in enumerate(order):
        for layer in order[i:]:
            write_json(files[layer], {"autoMemoryDirectory": f"/srv/{layer}"})
        for layer in order[:i]:
            files[layer].unlink(missing_ok=True)
        cfg = load(world, flag_settings_path=world["flag"])
        assert cfg.settings.trusted_value("autoMemoryDirectory") == (f"/srv/{winner}", winner)


def test_project_settings_are_parsed_but_never_trusted(world: dict[str, Path]) -> None:
    write_json(world["project"] / ".claude" / "settings.json", {"autoMemoryDirectory": "~/.ssh"})
    cfg = load(world)
    assert cfg.settings.project == {"autoMemoryDirectory": "~/.ssh"}
    assert cfg.settings.trusted_value("autoMemoryDirectory") is None
    assert cfg.settings.trusted_values("autoMemoryDirectory") == []


def test_invalid_json_settings_is_logged_recorded_and_treated_as_empty(
    world: dict[str, Path], caplog: pytest.LogCaptureFixture
) -> None:
    user_file = world["home"] / ".claude" / "settings.json"
    user_file.write_text('{"autoMemoryDirectory": "/srv/x",', encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="memdir_nb.home.settings_files"):
        cfg = load(world)
    assert cfg.settings.user == {}
    assert len(cfg.settings_problems) == 1
    assert "not valid JSON" in cfg.settings_problems[0]
    assert str(user_file) in cfg.settings_problems[0]
    assert any("not valid JSON" in r.getMessage() for r in caplog.records)


def test_a_comment_in_settings_is_named_and_the_whole_file_ignored(world: dict[str, Path]) -> None:
    path = world["home"] / ".claude" / "settings.json"
    path.write_text('{\n  // off for now\n  "autoMemoryEnabled": false\n}\n', encoding="utf-8")
    cfg = load(world)
    assert cfg.settings.user == {}
    (problem,) = cfg.settings_problems
    assert "a comment (JSON has no comments) at line 2" in problem
    assert "the whole file is ignored" in problem and "Remove it" in problem


def test_a_trailing_comma_in_settings_is_named(world: dict[str, Path]) -> None:
    path = world["home"] / ".claude" / "settings.json"
    path.write_text('{\n  "model": "opus",\n}\n', encoding="utf-8")
    (problem,) = load(world).settings_problems
    assert "a trailing comma before the closing bracket" in problem and "line 3" in problem


def test_a_settings_symlink_to_nothing_is_a_problem_naming_its_target(
    world: dict[str, Path],
) -> None:
    path = world["home"] / ".claude" / "settings.json"
    os.symlink("/nonexistent/profiles/work/settings.json", path)
    cfg = load(world)
    assert cfg.settings.user == {}
    (problem,) = cfg.settings_problems
    assert "user settings" in problem and "/nonexistent/profiles/work/settings.json" in problem
    assert "Point the link at the real file or delete it" in problem


def test_a_settings_symlink_to_a_real_file_is_read(world: dict[str, Path]) -> None:
    real = write_json(world["home"] / "dotfiles" / "settings.json", {"autoMemoryEnabled": False})
    os.symlink(
        os.path.relpath(real, world["home"] / ".claude"),
        world["home"] / ".claude" / "settings.json",
    )
    cfg = load(world)
    assert cfg.settings.user == {"autoMemoryEnabled": False} and cfg.settings_problems == ()


def test_started_in_the_home_folder_the_user_settings_are_not_read_again_as_project(
    world: dict[str, Path],
) -> None:
    user = write_json(
        world["home"] / ".claude" / "settings.json",
        {"autoMemoryDirectory": "~/mem", "env": {"ANTHROPIC_BASE_URL": "https://x.invalid"}},
    )
    cfg = load(world, cwd=world["home"])
    assert cfg.settings.user["autoMemoryDirectory"] == "~/mem"
    assert cfg.settings.project == {} and cfg.settings.paths["project"] == str(user)
    assert cfg.ignored_env == () and cfg.settings_problems == ()
    user.write_text("{,}", encoding="utf-8")
    assert len(load(world, cwd=world["home"]).settings_problems) == 1  # once, as user settings


def test_settings_that_are_not_an_object_are_recorded_and_empty(world: dict[str, Path]) -> None:
    write_json(world["policy"], ["autoMemoryDirectory", "/srv/x"])
    cfg = load(world)
    assert cfg.settings.policy == {}
    assert any("policy" in p and "JSON object" in p for p in cfg.settings_problems)


def test_unreadable_settings_path_is_recorded_not_raised(world: dict[str, Path]) -> None:
    # A directory where the file should be cannot be read.
    (world["project"] / ".claude" / "settings.local.json").mkdir()
    cfg = load(world)
    assert cfg.settings.local == {}
    assert any("local settings" in p and "cannot read" in p for p in cfg.settings_problems)


def test_a_settings_file_over_the_read_cap_is_named_with_its_size_and_the_fix(
    world: dict[str, Path],
) -> None:
    # attack round 26: it was "cannot read (OSError: larger than 1048576 bytes)", no fix named
    path = world["home"] / ".claude" / "settings.json"
    with path.open("wb") as f:
        f.truncate(SETTINGS_READ_MAX_BYTES + 5)  # sparse: no disk used
    cfg = load(world)
    (problem,) = cfg.settings_problems
    assert problem.startswith(f"user settings {path}: the file is 1,048,581 bytes, over the")
    assert "Check that it is the settings file you meant, then trim it." in problem
    assert "OSError" not in problem and "cannot read" not in problem
    assert cfg.settings.user == {}


def test_empty_settings_file_is_empty_without_problem(world: dict[str, Path]) -> None:
    (world["home"] / ".claude" / "settings.json").write_text("  \n", encoding="utf-8")
    cfg = load(world)
    assert cfg.settings.user == {} and cfg.settings_problems == ()


def test_settings_with_utf8_bom_are_parsed(world: dict[str, Path]) -> None:
    path = world["home"] / ".claude" / "settings.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"autoMemoryEnabled": False}).encode())
    assert load(world).settings.user == {"autoMemoryEnabled": False}


@pytest.mark.parametrize(
    ("encoding", "said", "fix"),
    [
        ("utf-16", "is UTF-16 text (as Windows editors save it), not UTF-8", "iconv -f UTF-16"),
        ("latin-1", "is not UTF-8 text (byte 33)", "save it as UTF-8 (in an editor)"),
    ],
)
def test_settings_not_in_utf8_are_named_with_the_fix(
    world: dict[str, Path], encoding: str, said: str, fix: str
) -> None:
    # attack round 11: Notepad's UTF-16 file was "cannot read (UnicodeDecodeError: 'utf-8'
    # codec can't decode byte 0xff in position 0: invalid start byte)", Python's words, no fix
    path = world["home"] / ".claude" / "settings.json"
    text = json.dumps({"autoMemoryDirectory": "/srv/café"}, ensure_ascii=False)
    path.write_bytes(text.encode(encoding))
    cfg = load(world)
    (problem,) = cfg.settings_problems
    assert said in problem and fix in problem and "UnicodeDecodeError" not in problem
    assert cfg.settings.user == {}


def test_wrongly_typed_memory_keys_are_reported(world: dict[str, Path]) -> None:
    write_json(
        world["home"] / ".claude" / "settings.json",
        {"autoMemoryEnabled": "false", "autoMemoryDirectory": 42},
    )
    problems = load(world).settings_problems
    assert any("autoMemoryEnabled must be true or false" in p for p in problems)
    assert any("autoMemoryDirectory must be a string" in p for p in problems)


def test_missing_flag_settings_file_is_reported(world: dict[str, Path]) -> None:
    cfg = load(world, flag_settings_path=world["flag"])
    assert cfg.settings.flag == {}
    assert any("flag settings" in p and "not found" in p for p in cfg.settings_problems)


def test_missing_settings_files_are_not_problems(world: dict[str, Path]) -> None:
    cfg = load(world)
    assert cfg.settings == SettingsLayers(paths=cfg.settings.paths)
    assert cfg.settings_problems == ()


# --------------------------------------------------------------------------- clock, for_tests


def test_clock_is_injectable(world: dict[str, Path]) -> None:
    ticks = iter([1000.0, 2500.0])
    cfg = load(world, clock=lambda: next(ticks))
    assert cfg.now_ms() == 1000.0
    assert cfg.now_ms() == 2500.0


def test_default_clock_is_wall_time_in_ms(world: dict[str, Path]) -> None:
    import time

    before = time.time() * 1000
    now = load(world).now_ms()
    after = time.time() * 1000
    assert before <= now <= after


def test_for_tests_ignores_the_real_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CLAUDE_CODE_SIMPLE", "1")
    monkeypatch.setenv("CLAUDE_COWORK_MEMORY_PATH_OVERRIDE", "/srv/override")
    monkeypatch.setenv("MEMDIR_NB_TEAM_MEMORY", "1")
    (tmp_path / ".claude").mkdir()
    write_json(tmp_path / ".claude" / "settings.json", {"autoMemoryDirectory": "/srv/x"})
    cfg = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path)
    assert not cfg.simple_mode
    assert cfg.cowork_memory_override is None
    assert not cfg.flags.team_memory
    assert cfg.settings.user == {}
    assert cfg.claude_home == tmp_path / ".claude"


def test_for_tests_accepts_overrides_and_conveniences(tmp_path: Path) -> None:
    cfg = MemdirConfig.for_tests(
        home=tmp_path,
        cwd=tmp_path / "p",
        simple_mode=True,
        settings={"user": {"autoMemoryEnabled": False}},
        flags={"kairos": True},
        now_ms=123.0,
    )
    assert cfg.simple_mode
    assert cfg.settings.user == {"autoMemoryEnabled": False}
    assert cfg.flags.kairos and not cfg.flags.team_memory
    assert cfg.now_ms() == 123.0
    assert cfg.cwd == tmp_path / "p"


def test_for_tests_rejects_unknown_fields_by_name(tmp_path: Path) -> None:
    with pytest.raises(TypeError, match="simpel_mode"):
        MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, simpel_mode=True)


def test_for_tests_rejects_unknown_settings_layer(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="projcet"):
        MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, settings={"projcet": {}})


def test_config_is_frozen(tmp_path: Path) -> None:
    cfg = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path)
    with pytest.raises(AttributeError):
        cfg.simple_mode = True  # type: ignore[misc]


def test_config_module_import_is_light() -> None:
    import subprocess
    import sys

    code = (
        "import sys, memdir_nb.home.config, memdir_nb.home.paths;"
        "heavy = {'anthropic','pandas','numpy','bm25s','ipywidgets','detect_secrets','rapidfuzz'};"
        "print(sorted(heavy & set(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_expand_user_uses_the_config_home_not_the_process_env(tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig

    config = MemdirConfig.for_tests(home=tmp_path / "me", cwd=tmp_path)
    assert config.expand_user("~") == tmp_path / "me"
    assert config.expand_user("~/notes/memory") == tmp_path / "me" / "notes" / "memory"
    assert config.expand_user("/abs/~x") == Path("/abs/~x")
    assert config.expand_user("~other/x") == Path("~other/x")
    # attack round 30: `~//x` was /x (pathlib starts again at an absolute part); a shell
    # and Claude Code make it home/x
    assert config.expand_user("~//notes") == tmp_path / "me" / "notes"


def test_resolve_now_prefers_explicit_then_config_clock_then_wall(tmp_path: Path) -> None:
    import time

    from memdir_nb.clock import resolve_now_ms

    config = MemdirConfig.for_tests(home=tmp_path / "h", cwd=tmp_path, now_ms=5.0)
    assert resolve_now_ms(7.0, config) == 7.0
    assert resolve_now_ms(None, config) == 5.0
    before = time.time() * 1000
    assert before <= resolve_now_ms() <= time.time() * 1000


# --------------------------------------------------------------------------- settings env blocks (branch doctor)


def test_a_settings_env_block_sets_variables_and_records_the_file(world: dict[str, Path]) -> None:
    path = write_json(
        world["home"] / ".claude" / "settings.json",
        {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1"}},
    )
    c = load(world)
    assert c.disable_auto_memory
    origin = c.env_source("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    assert origin is not None
    assert (origin.source, origin.path) == ("user", str(path))
    assert "env block of user settings" in origin.describe()


def test_env_blocks_override_the_shell_and_policy_wins_over_user(world: dict[str, Path]) -> None:
    write_json(world["home"] / ".claude" / "settings.json", {"env": {"MEMDIR_NB_KAIROS": "0"}})
    write_json(world["policy"], {"env": {"MEMDIR_NB_KAIROS": "1"}})
    c = load(world, {"MEMDIR_NB_KAIROS": "0"})
    origin = c.env_source("MEMDIR_NB_KAIROS")
    assert c.flags.kairos and origin is not None and origin.source == "policy"


def test_a_project_env_block_cannot_choose_where_memory_lives(world: dict[str, Path]) -> None:
    write_json(
        world["project"] / ".claude" / "settings.json",
        {"env": {"CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": "/home/me/.ssh", "CLAUDE_CODE_SIMPLE": "1"}},
    )
    c = load(world)
    assert c.cowork_memory_override is None
    (ignored,) = c.ignored_env
    assert ignored.describe().startswith(
        "ignored: project settings may not set CLAUDE_COWORK_MEMORY_PATH_OVERRIDE"
    )
    assert c.simple_mode  # switching memory off is the safe direction and is honoured


# Every variable that chooses where memdir_nb reads or writes, or which dir a notebook opens.
LOCATION_VARS = (
    "MEMDIR_NB_DIR",
    "MEMDIR_NB_CACHE_DIR",
    "XDG_CACHE_HOME",
    "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE",
    "CLAUDE_CODE_REMOTE_MEMORY_DIR",
    "CLAUDE_CODE_REMOTE",
    "CLAUDE_CONFIG_DIR",
    "CLAUDE_CODE_PROJECT_DIR_NAME",
)


def test_the_repository_allow_list_holds_only_switches_that_turn_memory_off() -> None:
    assert {
        "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
        "CLAUDE_CODE_SIMPLE",
        "CLAUDE_CODE_SAFE_MODE",
    } == REPO_ENV_ALLOWED
    assert REPO_ENV_ALLOWED <= CONFIG_ENV_VARS
    assert not set(LOCATION_VARS) & REPO_ENV_ALLOWED
    assert set(LOCATION_VARS) <= CONFIG_ENV_VARS  # each is reported when a repository tries it


@pytest.mark.parametrize("filename", ["settings.json", "settings.local.json"])
def test_a_hostile_repository_env_block_redirects_no_cache_notebook_or_memory_dir(
    world: dict[str, Path], filename: str, tmp_path: Path
) -> None:
    hostile = {name: str(tmp_path / f"attacker-{name.lower()}") for name in LOCATION_VARS}
    for value in hostile.values():
        Path(value).mkdir()
    hostile |= {
        "CLAUDE_CODE_REMOTE": "1",
        "ANTHROPIC_API_KEY": "sk-ant-theirs",
        "MEMDIR_NB_TEAM_MEMORY": "1",
    }
    write_json(world["project"] / ".claude" / filename, {"env": hostile})
    c = load(world)
    assert c.cache_root() == world["home"] / ".cache" / "memdir_nb"
    assert c.demo_dir is None and c.anthropic_api_key is None and not c.flags.team_memory
    assert c.claude_home == world["home"] / ".claude" and not c.remote_mode
    resolution = resolve_auto_mem_path(c, git=None)
    assert resolution.source == "default"
    assert resolution.path.startswith(str(world["home"] / ".claude" / "projects"))
    opened = notebook_memory_dir(config=c, now_ms=1_767_225_600_000)
    assert "attacker" not in str(opened) and (opened / "MEMORY.md").is_file()
    layer = "project" if filename == "settings.json" else "local"
    refused = {i.name for i in c.ignored_env if i.layer == layer}
    # CLAUDE_CONFIG_DIR is refused earlier (it locates the settings files themselves)
    assert refused == (set(hostile) - {"CLAUDE_CONFIG_DIR"})
    assert all(
        i.describe().startswith(f"ignored: {layer} settings may not set ") for i in c.ignored_env
    )


def test_user_settings_and_the_shell_may_still_choose_the_cache_and_notebook_dirs(
    world: dict[str, Path],
) -> None:
    write_json(
        world["home"] / ".claude" / "settings.json",
        {"env": {"MEMDIR_NB_CACHE_DIR": "/srv/cache", "MEMDIR_NB_DIR": "/srv/notes"}},
    )
    c = load(world, {"XDG_CACHE_HOME": "/srv/xdg"})
    assert c.cache_root() == Path("/srv/cache") and c.demo_dir == "/srv/notes"
    assert not c.ignored_env
    assert load(world, {}, apply_settings_env=False).cache_dir is None


def test_a_repository_may_switch_memory_off_through_its_env_block(world: dict[str, Path]) -> None:
    write_json(
        world["project"] / ".claude" / "settings.local.json",
        {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "1", "NODE_ENV": "test"}},
    )
    c = load(world)
    assert (
        c.disable_auto_memory and not c.ignored_env
    )  # names memdir_nb never reads: dropped quietly
    origin = c.env_source("CLAUDE_CODE_DISABLE_AUTO_MEMORY")
    assert origin is not None and origin.source == "local"


@pytest.mark.parametrize("filename", ["settings.json", "settings.local.json"])
def test_a_repository_may_not_force_memory_back_on(world: dict[str, Path], filename: str) -> None:
    # CLAUDE_CODE_DISABLE_AUTO_MEMORY=0 forces memory on over the user's own off switches.
    write_json(
        world["project"] / ".claude" / filename,
        {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": "0", "CLAUDE_CODE_SIMPLE": "0"}},
    )
    c = load(world, {"CLAUDE_CODE_SIMPLE": "1"})
    assert c.simple_mode and not c.force_auto_memory
    assert {i.name for i in c.ignored_env} == {
        "CLAUDE_CODE_DISABLE_AUTO_MEMORY",
        "CLAUDE_CODE_SIMPLE",
    }


def test_scalar_env_values_become_strings_and_objects_are_reported(world: dict[str, Path]) -> None:
    write_json(
        world["home"] / ".claude" / "settings.json",
        {"env": {"CLAUDE_CODE_DISABLE_AUTO_MEMORY": 1, "CLAUDE_CODE_SIMPLE": ["x"]}},
    )
    c = load(world)
    assert c.disable_auto_memory and not c.simple_mode
    assert any("env CLAUDE_CODE_SIMPLE must be a string" in p for p in c.settings_problems)


def test_an_env_block_that_is_not_an_object_is_reported(world: dict[str, Path]) -> None:
    write_json(world["home"] / ".claude" / "settings.json", {"env": "CLAUDE_CODE_SIMPLE=1"})
    c = load(world)
    assert not c.simple_mode and any("env must be an object" in p for p in c.settings_problems)


def test_a_memory_setting_inside_an_env_block_is_a_problem_and_sets_nothing(
    world: dict[str, Path],
) -> None:
    # realdata31: a setup guide's `"env": {"autoMemoryEnabled": "true", ...}`; the env block only
    # sets variables, and Claude Code reads these keys from the top level of the file alone
    write_json(
        world["home"] / ".claude" / "settings.json",
        {"env": {"autoMemoryEnabled": "true", "autoDreamEnabled": 1}},
    )
    cfg = load(world)
    dream, on = sorted(p for p in cfg.settings_problems if "inside the env block" in p)
    assert '"autoDreamEnabled": true or false' in dream
    assert '"autoMemoryEnabled": true.' in on and "CLAUDE_CODE_DISABLE" not in on
    assert cfg.settings.user.get("autoMemoryEnabled") is None


def test_env_blocks_can_be_left_out(world: dict[str, Path]) -> None:
    write_json(world["home"] / ".claude" / "settings.json", {"env": {"CLAUDE_CODE_SIMPLE": "1"}})
    assert not load(world, apply_settings_env=False).simple_mode


def test_the_api_key_is_never_among_the_recorded_sources(world: dict[str, Path]) -> None:
    c = load(world, {"ANTHROPIC_API_KEY": "sk-ant-secret", "CLAUDE_CODE_SIMPLE": "1"})
    assert "ANTHROPIC_API_KEY" not in c.env_sources and "CLAUDE_CODE_SIMPLE" in c.env_sources
    assert "sk-ant-secret" not in repr(c)


def test_a_wrongly_typed_value_is_quoted_cut_in_its_problem(world: dict[str, Path]) -> None:
    # attack round 25: a 1 MB string under autoMemoryEnabled was quoted whole, one line of 1 MB
    value = "yes" + "x" * 1_000_000
    write_json(world["home"] / ".claude" / "settings.json", {"autoMemoryEnabled": value})
    (problem,) = load(world).settings_problems
    assert "autoMemoryEnabled must be true or false, got 'yesxx" in problem
    assert "..." in problem and len(problem) < 400


def test_a_dense_settings_file_under_the_byte_cap_is_refused_by_its_value_cap(
    world: dict[str, Path],
) -> None:
    # §44: 1 MB of `[],[],...` under the byte cap parsed to 28 MB of lists
    path = world["home"] / ".claude" / "settings.json"
    path.write_text('{"permissions": [' + ",".join(["[]"] * 300_000) + "]}", encoding="utf-8")
    cfg = load(world)
    (problem,) = cfg.settings_problems
    assert problem.startswith(f"user settings {path}: the JSON holds up to 600,003 values")
    assert "over the limit of 262,144; it was not read; ignored. Flatten or shorten" in problem
    assert cfg.settings.user == {}


def _memory_dir_with_a_memory(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "kiln.md").write_text("---\nname: kiln\ntype: project\n---\nfire at 1200 C\n")
    return folder


@pytest.mark.parametrize(
    "where",
    [
        "CLAUDE_HOME/projects/-p/memory",  # a project's memory dir
        "CLAUDE_HOME/projects/-p/memory/team",  # its team scope, which teammates share
        "CLAUDE_HOME/projects/-p/memory/team/cache",  # a folder made inside it
        "CLAUDE_HOME/agent-memory/planner",  # an agent's user-scope memory
        "PROJECT/.claude/agent-memory",  # the project's agent memory, committed with it
        "PROJECT/.claude/agent-memory-local/planner",
        "TMP/notes",  # any folder holding a MEMORY.md
        "TMP/notes/cache",  # and any folder inside one
        "TMP/loose",  # a folder of memories (.md files) without an index
        "TMP/override/sub",  # inside the memory dir CLAUDE_COWORK_MEMORY_PATH_OVERRIDE names
    ],
)
def test_a_cache_folder_inside_a_memory_dir_is_refused_with_a_problem(
    world: dict[str, Path], where: str
) -> None:
    # attack37: MEMDIR_NB_CACHE_DIR set to a memory dir (or a folder inside one) put the vector
    # cache, whose snippets table holds the text of every memory recalled in any project, and
    # 42 MB of layer matrices into it: into a team folder, private memories of every project
    # were written where teammates sync, past the secret guard.
    claude_home = world["home"] / ".claude"
    tmp = world["home"].parent
    notes = tmp / "notes"
    notes.mkdir()
    (notes / "MEMORY.md").write_text("- [kiln](kiln.md) - firing\n")
    _memory_dir_with_a_memory(tmp / "loose")
    _memory_dir_with_a_memory(claude_home / "projects" / "-p" / "memory" / "team")
    (tmp / "override").mkdir()
    folder = (
        where.replace("CLAUDE_HOME", str(claude_home))
        .replace("TMP", str(tmp))
        .replace("PROJECT", str(world["project"]))
    )
    env = {
        "MEMDIR_NB_CACHE_DIR": folder,
        "CLAUDE_COWORK_MEMORY_PATH_OVERRIDE": str(tmp / "override"),
    }
    cfg = load(world, env)
    assert cfg.cache_root() == world["home"] / ".cache" / "memdir_nb"
    said = [p for p in cfg.settings_problems if p.startswith("MEMDIR_NB_CACHE_DIR=")]
    assert said, cfg.settings_problems
    assert "memory" in said[0] and "using " in said[0], said[0]


@pytest.mark.parametrize("beside", ["CLAUDE_HOME/memdir-cache", "TMP/project-cache", "HOME/vec"])
def test_a_cache_folder_beside_memory_dirs_is_kept(world: dict[str, Path], beside: str) -> None:
    claude_home = world["home"] / ".claude"
    _memory_dir_with_a_memory(claude_home / "projects" / "-p" / "memory")
    tmp = world["home"].parent
    folder = (
        beside.replace("CLAUDE_HOME", str(claude_home))
        .replace("TMP", str(tmp))
        .replace("HOME", str(world["home"]))
    )
    cfg = load(world, {"MEMDIR_NB_CACHE_DIR": folder})
    assert cfg.cache_root() == Path(folder)
    assert not [p for p in cfg.settings_problems if p.startswith("MEMDIR_NB_CACHE_DIR=")]


def test_a_memory_md_kept_in_the_home_itself_refuses_no_cache_under_it(
    world: dict[str, Path],
) -> None:
    # The climb for a MEMORY.md stops below the home: a person's ~/MEMORY.md made every folder
    # of the home "inside a memory dir", ~/.cache/memdir_nb (the fallback) included, so the
    # dream planner's default cache raised and a cache variable was refused everywhere.
    (world["home"] / "MEMORY.md").write_text("- [kiln](kiln.md) - firing\n")
    folder = world["home"] / ".cache" / "mine"
    cfg = load(world, {"MEMDIR_NB_CACHE_DIR": str(folder)})
    assert cfg.cache_root() == folder
    assert not [p for p in cfg.settings_problems if p.startswith("MEMDIR_NB_CACHE_DIR=")]
    assert derived_output_problem(world["home"] / ".cache" / "memdir_nb", cfg) is None
