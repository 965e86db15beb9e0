"""Shared checks for the reliability tests: is a memory dir consistent with its two indexes?"""

from __future__ import annotations

from pathlib import Path

from memdir_nb.index import parse_index
from memdir_nb.scan import scan_memory_dir

BODY_END = "END-OF-BODY"


def index_targets(scope_dir: Path) -> list[str]:
    """Every entry target in a scope's MEMORY.md, duplicates kept."""
    path = scope_dir / "MEMORY.md"
    text = path.read_text(encoding="utf-8") if path.exists() else ""
    return [e.target for e in parse_index(text)]


def check_consistent(memory_dir: Path) -> list[str]:
    """Problems found: files without exactly one index line, lines pointing at nothing."""
    problems = []
    headers = scan_memory_dir(memory_dir, limit=None).headers
    for scope, scope_dir in (("private", memory_dir), ("team", memory_dir / "team")):
        targets = index_targets(scope_dir)
        files = [
            h.filename for h in headers if (h.filename.startswith("team/")) == (scope == "team")
        ]
        rel = [f.split("/", 1)[1] if scope == "team" else f for f in files]
        for name in rel:
            n = targets.count(name)
            if n != 1:
                problems.append(f"{scope}/{name}: {n} index lines")
        for t in set(targets) - set(rel):
            problems.append(f"{scope} index points at missing {t}")
    return problems
