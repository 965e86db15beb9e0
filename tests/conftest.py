"""Fixtures shared by every test directory."""

from __future__ import annotations

from pathlib import Path

import pytest

# --- branch widgets: the demo dir at a fixed clock, for the view-model tests (tests/unit/test_views_*)

DEMO_NOW_MS = 1_770_000_000_000.0  # 2026-02-02T02:40Z, so ages read the same on every run


@pytest.fixture
def demo_now_ms() -> float:
    """The fixed clock the demo dir fixture was built at."""
    return DEMO_NOW_MS


@pytest.fixture
def demo_mem(tmp_path: Path, demo_now_ms: float) -> Path:
    """A freshly built demo memory dir (40 memories, private and team) at demo_now_ms."""
    from memdir_nb.demo import build_demo_memory_dir

    return build_demo_memory_dir(tmp_path / "mem", now_ms=demo_now_ms)
