"""Fake Claude homes for the where/doctor/list/export tests: real folders, real git, real files."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.index import format_index_entry
from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.paths import sanitize_path

HAS_GIT = shutil.which("git") is not None
DAY_MS = 86_400_000
NOW_MS = 1_790_000_000_000.0


def git(cwd: Path, *args: str) -> str:
    """Run git in cwd and return its output (raises on failure)."""
    proc = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True)
    return proc.stdout.strip()


def make_repo(path: Path) -> Path:
    """A real git repository with a local identity and one commit."""
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
    """Write data as JSON, creating the folder."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@dataclass
class World:
    """A home folder, its Claude home, a project, and where policy and flag settings live."""

    root: Path
    home: Path
    project: Path
    policy: Path
    flag: Path

    @property
    def claude_home(self) -> Path:
        return self.home / ".claude"

    def settings(self, layer: str, data: object) -> Path:
        """Write one settings layer's file."""
        paths = {
            "policy": self.policy,
            "flag": self.flag,
            "local": self.project / ".claude" / "settings.local.json",
            "user": self.claude_home / "settings.json",
            "project": self.project / ".claude" / "settings.json",
        }
        return write_json(paths[layer], data)

    def config(self, env: dict[str, str] | None = None, *, cwd: Path | None = None) -> MemdirConfig:
        """The config the real system would see here, with a fixed clock."""
        return MemdirConfig.from_environment(
            env or {},
            home=self.home,
            cwd=cwd or self.project,
            policy_settings_path=self.policy,
            flag_settings_path=self.flag if self.flag.exists() else None,
            clock=lambda: NOW_MS,
        )

    def memory_dir_for(self, project: Path) -> Path:
        """projects/<key>/memory for a project root (not created)."""
        key = sanitize_path(os.path.realpath(project))
        return self.claude_home / "projects" / key / "memory"


def make_world(tmp_path: Path, *, repo: bool = True) -> World:
    """A fresh home and project under tmp_path; the project is a real git repo when asked."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    project = tmp_path / "project"
    if repo and HAS_GIT:
        make_repo(project)
    else:
        project.mkdir()
    return World(tmp_path, home, project, tmp_path / "etc" / "managed.json", tmp_path / "flag.json")


def add_memory(
    memory_dir: Path,
    rel: str,
    *,
    type: str = "feedback",
    name: str | None = None,
    description: str | None = None,
    body: str = "Use the real database.\n\n**Why:** mocks hid a bug.\n**How to apply:** every SQL test.",
    age_days: int = 3,
    index: bool = True,
    now_ms: float = NOW_MS,
) -> Path:
    """Write one memory file (and its index line unless index=False) with a set age."""
    path = memory_dir / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    name = name or Path(rel).stem.replace("_", " ")
    description = description or f"what {name} is about, in a few words"
    path.write_text(render_memory_file(name, description, type, body), encoding="utf-8")
    mtime = (now_ms - age_days * DAY_MS - 3_600_000) / 1000
    os.utime(path, (mtime, mtime))
    if index:
        scope_dir = memory_dir / "team" if rel.startswith("team/") else memory_dir
        target = rel.split("/", 1)[1] if rel.startswith("team/") else rel
        entry = format_index_entry(name, target, description)
        with open(scope_dir / "MEMORY.md", "a", encoding="utf-8") as fh:
            fh.write(entry + "\n")
    return path
