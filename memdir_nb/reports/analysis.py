"""A memory dir as a pandas DataFrame, plus the summary figures worth looking at.

Analysis sees every memory file (the scan runs with no cap, unlike the selector's 200 newest)
and reuses lint's single bounded read of each file, so the frame's lint columns and its
size columns come from the same pass. pandas is imported inside the functions.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdir_nb.formats.index import truncate_entrypoint_content
from memdir_nb.home.claude_homes import no_claude_home
from memdir_nb.home.config import MemdirConfig
from memdir_nb.lint import (
    index_should_list,
    indexed_files,
    lint_dir,
    not_text_files,
    read_scope_indexes,
)
from memdir_nb.spec.constants import MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, PROJECTS_DIRNAME
from memdir_nb.spec.freshness import STALE_AFTER_DAYS, memory_age_days
from memdir_nb.storage.agent_root_index import agent_index_owners
from memdir_nb.storage.index_files import loaded_index_references

if TYPE_CHECKING:  # pragma: no cover
    import pandas as pd

    from memdir_nb.home.claude_homes import no_claude_home

COLUMNS = (
    "path",
    "scope",
    "type",
    "name",
    "description",
    "mtime",
    "mtime_ms",
    "file_mtime_ms",
    "modified_ms",
    "times_disagree",
    "age_days",
    "bytes",
    "lines",
    "in_index",
    "malformed",
    "lint_rules",
    "lint_count",
    "lint_errors",
)
# Upper bounds (days, inclusive) of the age buckets, with their labels. A bucket starts at
# STALE_AFTER_DAYS, the views' stale rule (spec.freshness.is_stale_age), as the freshness view
# bins: every age in it and after it is stale, none before (tidy36: it was 31-90 / 91-365).
AGE_BUCKETS: tuple[tuple[float, str], ...] = (
    (1, "0-1 days"),
    (7, "2-7 days"),
    (30, "8-30 days"),
    (STALE_AFTER_DAYS - 1, f"31-{STALE_AFTER_DAYS - 1} days"),
    (365, f"{STALE_AFTER_DAYS}-365 days"),
    (float("inf"), "over a year"),
)


@dataclass(frozen=True)
class IndexBudget:
    """How much of one MEMORY.md's two caps is used."""

    scope: str
    path: str
    exists: bool
    lines: int
    bytes: int
    line_cap: int = MAX_ENTRYPOINT_LINES
    byte_cap: int = MAX_ENTRYPOINT_BYTES
    problem: str = ""  # why a MEMORY.md that is there counts as missing (a FIFO, a link out)

    @property
    def line_use(self) -> float:
        """Fraction of the line cap used (over 1.0 means the loader cuts it)."""
        return self.lines / self.line_cap

    @property
    def byte_use(self) -> float:
        """Fraction of the byte cap used (over 1.0 means the loader cuts it)."""
        return self.bytes / self.byte_cap


@dataclass(frozen=True)
class MemorySummary:
    """The headline figures of one memory dir."""

    total: int
    by_type: dict[str, int]
    by_scope: dict[str, int]
    by_age: dict[str, int]
    index_budget: list[IndexBudget]
    orphans: list[str]  # memory files no index lists
    dangling: list[tuple[str, int, str]]  # (index path, line, target) pointing at nothing
    outside: list[tuple[str, int, str]] = field(default_factory=list)  # links leaving the dir
    findings_by_rule: dict[str, int] = field(default_factory=dict)
    errors: int = 0
    warnings: int = 0
    skipped: list[tuple[str, str]] = field(default_factory=list)


def discover_memory_dirs(
    base: str | os.PathLike[str] | None = None, *, config: MemdirConfig | None = None
) -> list[Path]:
    """Every projects/*/memory folder under a Claude home (default: the config's), sorted."""
    if config is None:
        config = MemdirConfig.from_environment()
    root = config.expand_user(base) if base is not None else config.claude_home
    if not root.is_dir():
        raise ValueError(no_claude_home(root))  # root: base (None by default) named no folder
    projects = root / PROJECTS_DIRNAME
    if not projects.is_dir():
        return []
    found = []
    for project in sorted(projects.iterdir()):
        memory = project / "memory"
        # A symlinked project or memory folder could lead anywhere: only real folders count.
        if project.is_symlink() or memory.is_symlink():
            continue
        if memory.is_dir():
            found.append(memory)
    return found


def age_bucket(age_days: float) -> str:
    """The AGE_BUCKETS label for an age in days."""
    for upper, label in AGE_BUCKETS:
        if age_days <= upper:
            return label
    return AGE_BUCKETS[-1][1]  # pragma: no cover - inf catches everything


def _rows(
    memory_dir: str | os.PathLike[str], now_ms: float | None, progress: bool | None = None
) -> tuple[list[dict[str, Any]], Any]:

    result = lint_dir(memory_dir, now_ms=now_ms, progress=progress)
    by_path: dict[str, list[Any]] = {}
    for f in result.findings:
        by_path.setdefault(f.path, []).append(f)
    read = {m.rel: m for m in result.memories}
    # a file a sub-folder's own MEMORY.md lists (an agent's memory dir) is indexed there, and a
    # file of an agent's folder at an agent memory root only there, as lint says
    referenced = loaded_index_references(
        memory_dir, [h.filename for h in result.headers], indexed_files(result.indexes)
    )
    rows = []
    for h in sorted(result.headers, key=lambda h: h.filename):
        mem = read.get(h.filename)
        found = by_path.get(h.filename, [])
        rows.append(
            {
                "path": h.filename,
                "scope": h.scope,
                "type": h.type.value if h.type is not None else None,
                "name": h.name,
                "description": h.description,
                "mtime_ms": h.mtime_ms,  # the memory's time: `modified:` when written, else mtime
                "file_mtime_ms": h.file_mtime_ms,
                "modified_ms": h.modified_ms,
                "times_disagree": h.times_disagree,
                "age_days": memory_age_days(h.mtime_ms, now_ms),
                "bytes": mem.size if mem else None,
                "lines": mem.lines if mem else None,
                "in_index": h.filename in referenced,
                "malformed": h.malformed,
                "lint_rules": sorted({f.rule for f in found}),
                "lint_count": len(found),
                "lint_errors": sum(f.severity == "error" for f in found),
                **(header_extra_columns(mem.header.extra_fields()) if mem else {}),
            }
        )
    return rows, result


def header_extra_columns(extra: Mapping[str, object]) -> dict[str, object]:
    """Header keys beyond name/description/type (nested `metadata:` keys included) as columns.

    A key that clashes with a built-in column is prefixed 'fm_'; values that are not plain
    scalars (dates, lists, mappings) become text.
    """
    out: dict[str, object] = {}
    for key, value in extra.items():
        col = f"fm_{key}" if key in COLUMNS or key == "project" else key
        plain = value is None or isinstance(value, (str, int, float, bool))
        out[col] = value if plain else str(value)
    return out


def _frame(rows: list[dict[str, Any]], extra: tuple[str, ...] = ()) -> pd.DataFrame:
    """The frame: extra leading columns, COLUMNS, then every header key found in any row."""
    import pandas as pd

    known = {*extra, *COLUMNS}
    header_cols = list(dict.fromkeys(k for r in rows for k in r if k not in known))
    df = pd.DataFrame(rows, columns=[*extra, *COLUMNS, *header_cols])
    df["mtime"] = pd.to_datetime(df["mtime_ms"], unit="ms", utc=True)
    df["in_index"] = df["in_index"].astype(bool)
    df["malformed"] = df["malformed"].astype(bool)
    for col in ("age_days", "lint_count", "lint_errors"):
        df[col] = df[col].astype("int64")
    for col in ("bytes", "lines"):
        df[col] = df[col].astype("Int64")
    return df


def to_dataframe(
    memory_dir: str | os.PathLike[str], *, now_ms: float | None = None, progress: bool | None = None
) -> pd.DataFrame:
    """One row per memory file under memory_dir (every one, not only the newest 200).

    progress: None shows a tqdm bar only for large dirs (lint.PROGRESS_MIN_FILES files or more).
    """
    rows, _ = _rows(memory_dir, now_ms, progress)
    return _frame(rows)


def to_dataframe_many(
    dirs: Iterable[str | os.PathLike[str]] | Mapping[str, str | os.PathLike[str]],
    *,
    now_ms: float | None = None,
    progress: bool | None = None,
) -> pd.DataFrame:
    """One frame for several memory dirs, with a 'project' column (the key, or the dir's parent name)."""
    if isinstance(dirs, Mapping):
        named = [(str(k), Path(v)) for k, v in dirs.items()]
    else:
        named = [(Path(d).parent.name or str(d), Path(d)) for d in dirs]
    rows: list[dict[str, Any]] = []
    for project, d in named:
        for row in _rows(d, now_ms, progress)[0]:
            rows.append({"project": project, **row})
    return _frame(rows, extra=("project",))


def summarize(memory_dir: str | os.PathLike[str], *, now_ms: float | None = None) -> MemorySummary:
    """Counts by type, scope and age, index budget use, orphans, dangling lines and findings."""

    rows, result = _rows(memory_dir, now_ms)
    budgets = []
    for ix in result.indexes:
        t = truncate_entrypoint_content(ix.text)
        budgets.append(
            IndexBudget(
                ix.scope, ix.path, ix.exists, t.line_count, t.byte_count, problem=ix.problem
            )
        )
    dangling = [(ix.path, e.line_no, e.target) for ix in result.indexes for e in ix.dangling]
    outside = [(ix.path, e.line_no, e.target) for ix in result.indexes for e in ix.outside]
    by_scope: dict[str, list[str]] = {}
    for r in rows:
        by_scope.setdefault(r["scope"], []).append(r["path"])
    owners = agent_index_owners(memory_dir, [r["path"] for r in rows])
    not_text = not_text_files(result.findings)  # binary: no index should list one
    expected = index_should_list(result.indexes, by_scope, owners, not_text)  # lint's rule
    orphans = [r["path"] for r in rows if not r["in_index"] and r["path"] in expected]
    by_age = {label: 0 for _, label in AGE_BUCKETS}
    for r in rows:
        by_age[age_bucket(r["age_days"])] += 1
    rules = Counter(f.rule for f in result.findings)
    return MemorySummary(
        total=len(rows),
        by_type=dict(sorted(Counter(r["type"] or "(none)" for r in rows).items())),
        by_scope=dict(sorted(Counter(r["scope"] for r in rows).items())),
        by_age=by_age,
        index_budget=budgets,
        orphans=orphans,
        dangling=dangling,
        outside=outside,
        findings_by_rule=dict(sorted(rules.items(), key=lambda kv: (-kv[1], kv[0]))),
        errors=sum(f.severity == "error" for f in result.findings),
        warnings=sum(f.severity == "warning" for f in result.findings),
        skipped=[(s.path, s.reason) for s in result.skipped],
    )


def index_budget_frame(memory_dir: str | os.PathLike[str]) -> pd.DataFrame:
    """One row per MEMORY.md: lines and bytes against the two caps, with use as a fraction."""
    import pandas as pd

    rows = []
    for ix in read_scope_indexes(memory_dir):
        t = truncate_entrypoint_content(ix.text)
        b = IndexBudget(
            ix.scope, ix.path, ix.exists, t.line_count, t.byte_count, problem=ix.problem
        )
        rows.append(
            {
                "scope": b.scope,
                "path": b.path,
                "exists": b.exists,
                "lines": b.lines,
                "line_cap": b.line_cap,
                "line_use": round(b.line_use, 3),
                "bytes": b.bytes,
                "byte_cap": b.byte_cap,
                "byte_use": round(b.byte_use, 3),
                "problem": b.problem,
            }
        )
    return pd.DataFrame(rows)
