"""Shared fixtures for the security tests: a real memory dir with a team/ folder full of traps."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest


@dataclass(frozen=True)
class AttackTree:
    """Paths of a memory dir whose team/ folder holds symlinks of every kind."""

    root: Path  # holds memory/ and an outside/ folder
    memory: Path  # <root>/memory
    team: Path  # <root>/memory/team
    team_evil: Path  # <root>/memory/team-evil (a sibling that shares the prefix)
    outside: Path  # <root>/outside


def build_attack_tree(root: Path) -> AttackTree:
    """Create the tree; every link is a real symlink on disk."""
    memory = root / "memory"
    team = memory / "team"
    team_evil = memory / "team-evil"
    outside = root / "outside"
    for d in (team / "sub", team / "inner_dir", team_evil, outside):
        d.mkdir(parents=True, exist_ok=True)
    (memory / "private_secret.md").write_text("private\n")
    (team / "existing.md").write_text("team file\n")
    (outside / "target.md").write_text("outside\n")

    links = {
        team / "link_root": "/",
        team / "link_etc": "/etc",
        team / "link_sibling": "../team-evil",
        team / "link_private": "../private_secret.md",
        team / "link_outside_abs": str(outside),
        team / "link_outside_file": str(outside / "target.md"),
        team / "sub" / "up": "../..",
        team / "dangling": str(root / "does-not-exist"),
        team / "dangling_inside": "not_yet_created.md",
        team / "loop_a": "loop_b",
        team / "loop_b": "loop_a",
        team / "self": "self",
        team / "link_inside": "inner_dir",
        team / "link_inside_abs": str(team / "inner_dir"),
        memory / "private_link_out": str(outside),
    }
    for link, target in links.items():
        os.symlink(target, link)
    return AttackTree(root=root, memory=memory, team=team, team_evil=team_evil, outside=outside)


@pytest.fixture(scope="module")
def attack_tree(tmp_path_factory: pytest.TempPathFactory) -> AttackTree:
    """One attack tree per test module (the tests only read it)."""
    return build_attack_tree(tmp_path_factory.mktemp("attack"))
