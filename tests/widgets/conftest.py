"""Fixtures for the widget tests: a demo memory dir at a fixed clock and a config with no API key."""

from __future__ import annotations

from pathlib import Path

import pytest
from widget_helpers import NOW

from memdir_nb.config import MemdirConfig
from memdir_nb.demo import build_demo_memory_dir


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    """A freshly built demo memory dir."""
    return build_demo_memory_dir(tmp_path / "mem", now_ms=NOW)


@pytest.fixture
def config(tmp_path: Path) -> MemdirConfig:
    """A config that read nothing from the environment: no API key, fixed clock."""
    return MemdirConfig.for_tests(home=tmp_path / "home", cwd=tmp_path, now_ms=NOW)
