"""Fixtures shared by every test suite. Plain helpers (builders, snapshot) live in tests/support."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.config import MemdirConfig
from memdir_nb.demo import build_demo_memory_dir
from tests.support import NOW, AttackTree, build_attack_tree


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    """A freshly built demo memory dir at the fixed clock NOW (a suite may define its own `mem`)."""
    return build_demo_memory_dir(tmp_path / "mem", now_ms=NOW)


@pytest.fixture
def config(tmp_path: Path) -> MemdirConfig:
    """A config that read nothing from the environment: no API key, the fixed clock NOW."""
    return MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, now_ms=NOW)


@pytest.fixture(scope="module")
def attack_tree(tmp_path_factory: pytest.TempPathFactory) -> AttackTree:
    """One symlink attack tree per test module (the tests only read it)."""
    return build_attack_tree(tmp_path_factory.mktemp("attack"))
