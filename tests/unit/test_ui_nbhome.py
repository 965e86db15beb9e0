"""memdir_nb.ui.nbhome: the notebooks' pickers find a Claude home wherever home.claude_homes does."""

from __future__ import annotations

import shutil
from pathlib import Path

from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.paths import sanitize_path
from memdir_nb.ui.nbdir import profile_dir
from memdir_nb.ui.nbhome import (
    claude_homes_named,
    home_with_sessions,
    memory_dirs_named,
    project_of_memory_dir,
    sessions_beside_memory_dir,
    why_the_sample,
)

SAMPLE_HOME = Path(__file__).resolve().parents[2] / "notebooks" / "data" / "sample_claude_home"
SHOP_KEY = "-home-sam-src-shop"


def _xdg_only_home(tmp_path: Path) -> tuple[Path, Path]:
    """A home folder whose only Claude home is ~/.config/claude, holding the sample sessions."""
    home = tmp_path / "home"
    xdg = home / ".config" / "claude"
    shutil.copytree(SAMPLE_HOME, xdg)
    return home, xdg


def test_a_home_folder_whose_claude_home_is_xdg_shows_its_memory_dirs(tmp_path: Path) -> None:
    home, xdg = _xdg_only_home(tmp_path)
    assert claude_homes_named(home) == [xdg]
    assert memory_dirs_named(home) == [xdg / "projects" / SHOP_KEY / "memory"]
    assert memory_dirs_named(xdg) == memory_dirs_named(home)  # the Claude home named itself


def test_the_memory_dir_picker_hint_names_the_xdg_homes_dirs(tmp_path: Path) -> None:
    """MEMDIR_NB_DIR pointed at the home folder: no memories there, and the notebook says
    where they are, in ~/.config/claude as it would in ~/.claude."""
    home, xdg = _xdg_only_home(tmp_path)
    profile = profile_dir(home, config=MemdirConfig.from_environment({}, home=home, cwd=home))
    assert profile.total_files == 0
    assert any(str(xdg / "projects" / SHOP_KEY / "memory") in hint for hint in profile.hints)


def test_the_session_picker_finds_the_sessions_of_an_xdg_home(tmp_path: Path) -> None:
    home, xdg = _xdg_only_home(tmp_path)
    assert home_with_sessions(home) == xdg
    (home / ".claude").mkdir()  # an empty ~/.claude beside it: the XDG one still has them
    assert claude_homes_named(home) == [home / ".claude", xdg]
    assert home_with_sessions(home) == xdg


def test_the_users_own_home_folder_names_the_claude_config_dir_home(tmp_path: Path) -> None:
    """CLAUDE_CONFIG_DIR moves the Claude home anywhere (here ~/.config/claude on an XDG
    layout): ``~`` given to a picker names that home, as `memdir-nb list` finds it."""
    home = tmp_path / "home"
    custom = tmp_path / "elsewhere" / "claude"
    shutil.copytree(SAMPLE_HOME, custom)
    (home / ".claude").mkdir(parents=True)  # what Claude Code no longer reads
    env = {"CLAUDE_CONFIG_DIR": str(custom)}
    config = MemdirConfig.from_environment(env, home=home, cwd=home)
    assert claude_homes_named("~", config=config) == [custom]
    assert home_with_sessions(home, config=config) == custom
    plain = MemdirConfig.from_environment({}, home=home, cwd=home)
    assert claude_homes_named("~", config=plain) == [home / ".claude"]


def test_a_folder_that_names_no_claude_home_gives_nothing(tmp_path: Path) -> None:
    (tmp_path / "notes").mkdir()
    assert claude_homes_named(tmp_path / "notes") == []
    assert memory_dirs_named(tmp_path / "notes") == []
    assert home_with_sessions(tmp_path / "notes") is None


def test_a_memory_dir_in_a_projects_folder_names_the_sessions_beside_it(tmp_path: Path) -> None:
    # keep35: notebook 11 replays these when MEMDIR_NB_DIR names <home>/projects/<key>/memory
    home = tmp_path / "home" / ".claude"
    shutil.copytree(SAMPLE_HOME, home)
    memory = home / "projects" / SHOP_KEY / "memory"
    other = home / "projects" / "-home-sam-src-other"
    other.mkdir()
    shutil.copy(next((home / "projects" / SHOP_KEY).glob("*.jsonl")), other / "copied.jsonl")
    config = MemdirConfig.from_environment(
        {"MEMDIR_NB_DIR": str(memory)}, home=tmp_path, cwd=tmp_path
    )

    found = sessions_beside_memory_dir(config=config)

    assert found is not None and found.home == home and found.project == memory.parent
    assert {s.project for s in found.sessions} == {SHOP_KEY}
    assert any(s.is_subagent for s in found.sessions) and any(s.turns for s in found.sessions)
    # a dir elsewhere, or a project with no session that has a prompt: the sample instead
    assert sessions_beside_memory_dir(tmp_path, config=config) is None
    (other / "memory").mkdir()
    (other / "copied.jsonl").write_text("", "utf-8")
    assert sessions_beside_memory_dir(other / "memory", config=config) is None


def test_a_memory_dir_in_a_projects_folder_names_the_project_its_sessions_ran_in(
    tmp_path: Path,
) -> None:
    # fresh36: notebook 10 asks here, so it explains the project of MEMDIR_NB_DIR's dir
    project = tmp_path / "src" / "kiln"
    project.mkdir(parents=True)
    key = sanitize_path(str(project))
    memory = tmp_path / "home" / ".claude" / "projects" / key / "memory"
    memory.mkdir(parents=True)
    config = MemdirConfig.from_environment({}, home=tmp_path, cwd=tmp_path)
    assert project_of_memory_dir(memory, config=config) == project
    assert project_of_memory_dir(tmp_path / "src", config=config) is None  # not so placed
    project.rmdir()  # a key that names no folder here: cannot be told
    assert project_of_memory_dir(memory, config=config) is None


def test_why_the_sample_names_the_dir_given_and_says_nothing_for_the_demo_or_no_dir(
    tmp_path: Path,
) -> None:
    # fresh38: the replay notebook showed its sample for a named dir without saying why
    from memdir_nb.ui.demo import build_demo_memory_dir

    config = MemdirConfig.from_environment({}, home=tmp_path, cwd=tmp_path)
    loose = tmp_path / "loose"
    loose.mkdir()
    assert why_the_sample(loose, config=config) == (
        f"{loose} is not a project's memory dir in a Claude home (<home>/projects/<key>/memory), "
        "so no session transcripts are kept beside it: the bundled sample is replayed instead "
        "(set CLAUDE_HOME above to pick a home)"
    )
    project = tmp_path / ".claude" / "projects" / "-home-jo-kiln"
    (project / "memory").mkdir(parents=True)
    said = why_the_sample(project / "memory", config=config)
    assert said is not None and said.startswith(
        f"no session with a prompt is kept beside {project / 'memory'} (in {project}): "
    )
    demo = tmp_path / "demo_memory"
    build_demo_memory_dir(demo)
    assert why_the_sample(demo, config=config) is None  # `make lab` names the demo dir
    assert why_the_sample(config=config) is None  # MEMDIR_NB_DIR not set
