"""The demo's memory texts: every memory of the fictional Isobar Labs engineer, dated from now_ms."""

from __future__ import annotations

from memdir_nb.ui.demo.memories_private import (
    private_memories_1,
    private_memories_2,
    private_memories_3,
    private_memories_4,
    private_memories_5,
)
from memdir_nb.ui.demo.memories_team import (
    team_memories_1,
    team_memories_2,
    team_memories_3,
    team_memories_4,
    team_memories_5,
)
from memdir_nb.ui.demo.model import DemoMemory, date_fn, demo_clock


def demo_memories(now_ms: float | None = None) -> tuple[DemoMemory, ...]:
    """Every memory in the demo, with its dates filled in relative to now_ms."""
    d = date_fn(demo_clock(now_ms))
    parts = (
        private_memories_1,
        private_memories_2,
        private_memories_3,
        private_memories_4,
        private_memories_5,
        team_memories_1,
        team_memories_2,
        team_memories_3,
        team_memories_4,
        team_memories_5,
    )
    return tuple(memory for part in parts for memory in part(d))
