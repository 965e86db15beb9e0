"""Test helpers shared across test suites: memory-dir builders and a local Messages API."""

from __future__ import annotations

import os
from pathlib import Path

import yaml

DAY_MS = 86_400_000


def write_memory(
    memory_dir: Path,
    filename: str,
    *,
    name: str,
    description: str,
    type: str = "project",
    body: str = "Body text.",
    age_days: float = 0.0,
    now_ms: float,
) -> Path:
    """Write a memory file with YAML frontmatter and set its mtime to age_days before now_ms."""
    path = Path(memory_dir) / filename
    path.parent.mkdir(parents=True, exist_ok=True)
    header = yaml.safe_dump(
        {"name": name, "description": description, "type": type},
        sort_keys=False,
        allow_unicode=True,
    )
    path.write_text(f"---\n{header}---\n\n{body}\n", encoding="utf-8")
    mtime_s = (now_ms - age_days * DAY_MS) / 1000.0
    os.utime(path, (mtime_s, mtime_s))
    return path
