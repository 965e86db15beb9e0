"""Which folders are Claude homes: ~/.claude, CLAUDE_CONFIG_DIR's, and the XDG one of 1.0.x."""

from __future__ import annotations

from pathlib import Path

from memdir_nb.home.claude_homes import (
    claude_homes_in,
    claude_homes_of,
    discovered_homes,
    is_claude_home,
    unread_xdg_home,
    xdg_claude_home,
)
from memdir_nb.home.config import MemdirConfig


def _xdg_home(home: Path) -> Path:
    """A home folder whose ~/.config/claude holds a project, as 1.0.30 left one."""
    xdg = home / ".config" / "claude"
    (xdg / "projects" / "-home-me-app" / "memory").mkdir(parents=True)
    return xdg


def test_a_home_folder_names_its_dot_claude_and_its_xdg_home_when_that_holds_projects(
    tmp_path: Path,
) -> None:
    (tmp_path / ".claude").mkdir()
    assert claude_homes_in(tmp_path) == [tmp_path / ".claude"]
    (tmp_path / ".config" / "claude").mkdir(parents=True)  # empty: not a home yet
    assert claude_homes_in(tmp_path) == [tmp_path / ".claude"]
    xdg = _xdg_home(tmp_path)
    assert claude_homes_in(tmp_path) == [tmp_path / ".claude", xdg]
    assert claude_homes_in(xdg) == [xdg] and is_claude_home(xdg)
    empty = tmp_path / "nobody"
    empty.mkdir()
    assert claude_homes_in(empty) == [empty]


def test_the_xdg_home_is_discovered_beside_the_claude_home_unless_config_dir_names_it(
    tmp_path: Path,
) -> None:
    xdg = _xdg_home(tmp_path)
    env = {"HOME": str(tmp_path)}
    plain = MemdirConfig.from_environment(env, cwd=tmp_path, home=tmp_path)
    assert discovered_homes(plain) == [tmp_path / ".claude", xdg]
    assert unread_xdg_home(plain) == xdg
    named = MemdirConfig.from_environment({**env, "CLAUDE_CONFIG_DIR": str(xdg)}, cwd=tmp_path)
    assert discovered_homes(named) == [xdg] and unread_xdg_home(named) is None


def test_an_absolute_xdg_config_home_moves_the_xdg_home_and_a_relative_one_does_not(
    tmp_path: Path,
) -> None:
    def xdg_for(value: str) -> Path:
        env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": value}
        return xdg_claude_home(MemdirConfig.from_environment(env, cwd=tmp_path, home=tmp_path))

    assert xdg_for(str(tmp_path / "cfg")) == tmp_path / "cfg" / "claude"
    assert xdg_for("cfg") == tmp_path / ".config" / "claude"


def test_an_xdg_home_that_cannot_be_looked_at_is_no_home_and_takes_nothing_down(
    tmp_path: Path,
) -> None:
    # a name past NAME_MAX made doctor, list, sessions and export end in "File name too long"
    # though ~/.claude itself was fine
    env = {"HOME": str(tmp_path), "XDG_CONFIG_HOME": str(tmp_path / ("x" * 300))}
    config = MemdirConfig.from_environment(env, cwd=tmp_path, home=tmp_path)
    assert discovered_homes(config) == [config.claude_home]
    assert unread_xdg_home(config) is None
    folder = tmp_path / ("y" * 300)
    assert claude_homes_in(folder) == [folder] and not is_claude_home(folder)


def test_homes_named_twice_or_under_another_name_are_each_read_once(tmp_path: Path) -> None:
    claude = tmp_path / ".claude"
    (claude / "projects").mkdir(parents=True)
    mirror = tmp_path / ".claude-quaternary"
    mirror.symlink_to(claude)
    other = tmp_path / "other" / ".claude"
    other.mkdir(parents=True)
    folders = [claude, mirror, tmp_path, other, claude]
    assert claude_homes_of(folders) == [claude, other]
