"""The suite keeps off the user's own settings and files: git config, caches (tests/conftest.py)."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from memdir_nb.home.config import MemdirConfig
from tests.support.child_env import child_env
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


def _minimal_environments(root: Path) -> list[str]:
    """Each dict literal under root with a "PATH" key and nothing unpacked into it (`**env`):
    an environment written from scratch."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if path.name == "child_env.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Dict)
                and None not in node.keys
                and any(isinstance(k, ast.Constant) and k.value == "PATH" for k in node.keys)
            ):
                found.append(f"{path.relative_to(root.parent)}:{node.lineno}")
    return found


def test_a_child_environment_written_from_scratch_is_built_by_child_env() -> None:
    # fresh32: nine helpers gave `python -m memdir_nb.cli` {"PATH": ..., "HOME": ...} and so
    # dropped PYTHONDONTWRITEBYTECODE: the children wrote __pycache__ into the checkout
    assert _minimal_environments(Path(__file__).resolve().parent) == []


def test_a_child_given_child_env_writes_no_bytecode_when_the_suite_writes_none(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "probe_module.py").write_text("VALUE = 1\n", encoding="utf-8")
    monkeypatch.setenv("PYTHONDONTWRITEBYTECODE", "1")
    monkeypatch.delenv("PYTHONPYCACHEPREFIX", raising=False)
    done = subprocess.run(
        [sys.executable, "-c", "import probe_module"],
        cwd=tmp_path,
        env=child_env(HOME=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "__pycache__").exists()
