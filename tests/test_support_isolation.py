"""The suite keeps off the user's own settings and files: git config, caches (tests/conftest.py)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from memdir_nb.home.config import MemdirConfig
from tests.support.fake_home import HAS_GIT, git, make_repo


@pytest.mark.skipif(not HAS_GIT, reason="git is not installed")
def test_a_global_hook_path_in_the_users_gitconfig_does_not_reach_the_suites_commits(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    hooks = tmp_path / "hooks"
    hooks.mkdir()
    (hooks / "pre-commit").write_text("#!/bin/sh\necho refused >&2\nexit 1\n", encoding="utf-8")
    (hooks / "pre-commit").chmod(0o755)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        f"[core]\n\thooksPath = {hooks}\n[init]\n\tdefaultBranch = trunk\n", encoding="utf-8"
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    repo = make_repo(tmp_path / "repo")  # its commit ran no hook
    assert git(repo, "log", "--format=%s") == "initial"
    with pytest.raises(subprocess.CalledProcessError):  # git config --get: nothing set
        git(repo, "config", "--get", "core.hooksPath")


def test_the_caches_are_a_folder_of_this_run_never_the_users() -> None:
    # set before collection: three modules load the encoder in a skipif while being imported
    root = MemdirConfig.from_environment().cache_root()
    assert root == Path(os.environ["MEMDIR_NB_CACHE_DIR"])
    assert root.parent == Path(tempfile.gettempdir()) and root.name.startswith("memdir-nb-cache-")
