"""Every memory dir of one or many Claude homes, exported to Parquet for an existing engine.

`export_parquet` writes two files into a folder: ``memories.parquet`` (one row per memory)
and ``dirs.parquet`` (one row per memory dir). They are plain Parquet written by pyarrow, so
DuckDB (notebook 09), pandas, Polars or a distributed engine reads them as they are. The
rows come from the same reads `memdir-nb list` makes (where.read_dir_contents); staleness is
lint's rule (lint.is_stale). pyarrow is imported inside the functions.

`export_archive` packs one memory dir into a zip (storage.archive does the packing). Neither
export writes into a memory dir: both hold every memory's text, and a file there is published
by whatever publishes the dir (a team sync, a commit of .claude/agent-memory), past the
secret guard; the store is that folder's only writer (home.paths.derived_output_problem).
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from memdir_nb.home.paths import derived_output_problem
from memdir_nb.lint import index_should_list, is_stale
from memdir_nb.reports.memory_dirs import (
    UNTYPED,
    FoundDir,
    describe_dir,
    find_memory_dirs,
    read_dir_contents,
)
from memdir_nb.spec.freshness import memory_age_days
from memdir_nb.spec.taxonomy import MEMORY_TYPES
from memdir_nb.spec.text import terminal_safe
from memdir_nb.storage.agent_root_index import agent_index_owners
from memdir_nb.storage.archive import ArchiveError, ExportReport
from memdir_nb.storage.archive import export_archive as pack_archive
from memdir_nb.storage.fsutil import check_replaceable, fsync_dir, fsync_file, side_stem
from memdir_nb.storage.index_files import loaded_index_references
from memdir_nb.storage.index_rebuild import binary_memory_files

MEMORIES_FILE = "memories.parquet"
DIRS_FILE = "dirs.parquet"
# An earlier export is known by its first columns: home, dir, kind, project, project_path in
# both files, in every version since the first.
EXPORT_KEY_COLUMNS = 5
TYPE_COLUMNS = tuple(
    t.value for t in MEMORY_TYPES
)  # n_user, n_feedback, ... in the taxonomy's order


@dataclass(frozen=True)
class ExportResult:
    """What export_parquet wrote."""

    memories_path: Path
    dirs_path: Path
    memories: int
    dirs: int
    skipped: tuple[str, ...] = ()  # memory dirs left out, each "path: why" (shown safely)


def _schemas() -> tuple[Any, Any]:
    import pyarrow as pa

    memories = pa.schema(
        [
            ("home", pa.string()),
            ("dir", pa.string()),
            ("kind", pa.string()),
            ("project", pa.string()),
            ("project_path", pa.string()),
            ("file", pa.string()),
            ("scope", pa.string()),
            ("type", pa.string()),
            ("name", pa.string()),
            ("description", pa.string()),
            ("mtime", pa.timestamp("ms", tz="UTC")),
            ("age_days", pa.int32()),
            ("stale", pa.bool_()),
            ("in_index", pa.bool_()),
            ("malformed", pa.bool_()),
        ]
    )
    dirs = pa.schema(
        [
            ("home", pa.string()),
            ("dir", pa.string()),
            ("kind", pa.string()),
            ("project", pa.string()),
            ("project_path", pa.string()),
            ("memories", pa.int32()),
            ("private", pa.int32()),
            ("team", pa.int32()),
            *[(f"n_{t}", pa.int32()) for t in TYPE_COLUMNS],
            ("untyped", pa.int32()),
            ("stale", pa.int32()),
            ("not_in_index", pa.int32()),
            ("newest_age_days", pa.int32()),
            ("oldest_age_days", pa.int32()),
            ("index_lines", pa.int32()),
            ("index_bytes", pa.int32()),
            ("index_line_use", pa.float64()),
            ("index_byte_use", pa.float64()),
            ("index_truncated", pa.bool_()),
            ("team_index_lines", pa.int32()),
            ("team_index_bytes", pa.int32()),
            ("team_index_truncated", pa.bool_()),
            ("skipped", pa.int32()),
        ]
    )
    return memories, dirs


def _rows_for_dir(
    home: str, found: FoundDir, now_ms: float | None
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The memory rows and the dir row of one memory dir, from one read."""

    contents = read_dir_contents(found.path)
    info = describe_dir(found, contents, now_ms=now_ms)
    # lint's answer: a file a sub-folder's own MEMORY.md lists is indexed there, and a file of
    # an agent's folder at an agent memory root only there (the root's index reaches no agent)
    own = frozenset[str]().union(*(ix.referenced for ix in contents.indexes))
    files = [h.filename for h in contents.headers]
    referenced = loaded_index_references(found.path, files, own)
    # not_in_index counts lint's not-in-index: a scope with no index at all is not its files'
    by_scope: dict[str, list[str]] = {}
    for h in contents.headers:
        by_scope.setdefault(h.scope, []).append(h.filename)
    owners = agent_index_owners(found.path, files)
    # binary files no index should list (spec.text.is_not_text, lint's rule): only the files
    # no index lists are read, as the rebuild reads the ones it would add (lefts38)
    unlisted = [f for f in files if f not in referenced]
    not_text = binary_memory_files(found.path, unlisted)
    expected = index_should_list(contents.indexes, by_scope, owners, not_text)
    project = found.project_path or found.key
    rows = []
    stale = not_in_index = 0
    for h in contents.headers:
        age = memory_age_days(h.mtime_ms, now_ms)
        is_old = is_stale(h.type, age)
        listed = h.filename in referenced
        stale += is_old
        not_in_index += not listed and h.filename in expected
        rows.append(
            {
                "home": home,
                "dir": os.fspath(found.path),
                "kind": found.kind,
                "project": project,
                "project_path": found.project_path,
                "file": h.filename,
                "scope": h.scope,
                "type": h.type.value if h.type else None,
                "name": h.name,
                "description": h.description,
                "mtime": int(h.mtime_ms),
                "age_days": age,
                "stale": is_old,
                "in_index": listed,
                "malformed": h.malformed,
            }
        )
    uses = {u.scope: u for u in contents.uses}
    private, team = uses.get("private"), uses.get("team")
    dir_row = {
        "home": home,
        "dir": os.fspath(found.path),
        "kind": found.kind,
        "project": project,
        "project_path": found.project_path,
        "memories": info.memories,
        "private": info.by_scope.get("private", 0),
        "team": info.by_scope.get("team", 0),
        **{f"n_{t}": info.by_type.get(t, 0) for t in TYPE_COLUMNS},
        "untyped": info.by_type.get(UNTYPED, 0),
        "stale": stale,
        "not_in_index": not_in_index,
        "newest_age_days": info.newest_age_days,
        "oldest_age_days": info.oldest_age_days,
        "index_lines": private.lines if private else 0,
        "index_bytes": private.bytes if private else 0,
        "index_line_use": private.lines / private.line_cap if private else 0.0,
        "index_byte_use": private.bytes / private.byte_cap if private else 0.0,
        "index_truncated": bool(private and private.truncated),
        "team_index_lines": team.lines if team else None,
        "team_index_bytes": team.bytes if team else None,
        "team_index_truncated": bool(team and team.truncated),
        "skipped": info.skipped,
    }
    return rows, dir_row


def collect_fleet(
    homes: Iterable[str | os.PathLike[str]],
    *,
    now_ms: float | None = None,
    skipped: list[str] | None = None,
) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(memory rows, dir rows) for every memory dir under each Claude home.

    A dir whose path is not valid UTF-8 cannot be a text column: it is left out, and named
    (with its bad bytes shown as escapes) in ``skipped`` when a list is given. One bad dir
    never takes the export down.
    """
    memory_rows: list[dict[str, Any]] = []
    dir_rows: list[dict[str, Any]] = []
    for home in homes:
        home_text = os.fspath(home)
        for found in find_memory_dirs(home):
            path = os.fspath(found.path)
            problem = _path_problem(path)
            if problem is not None:
                if skipped is not None:
                    skipped.append(f"{terminal_safe(path, keep_newlines=False)}: {problem}")
                continue
            rows, dir_row = _rows_for_dir(home_text, found, now_ms)
            memory_rows += rows
            dir_rows.append(dir_row)
    return memory_rows, dir_rows


def _path_problem(path: str) -> str | None:
    """Why a memory dir's path cannot be stored as text, else None."""
    try:
        path.encode("utf-8")
    except UnicodeEncodeError:
        return "its path is not valid UTF-8, so it cannot be stored as text; rename the folder"
    return None


def _check_targets(out: Path, schemas: Sequence[Any]) -> None:
    """Refuse, before either file is written, anything at their names but an earlier export.

    A folder, FIFO, socket or device is named as such (check_replaceable). A file is replaced
    only when it is a Parquet file whose first columns are the ones every export has begun with
    (home, dir, kind, project, project_path): `--parquet ~/data` wrote over a person's own
    `dirs.parquet` there, with no copy kept (thirty-first session), as the archive export
    already refuses to. Only the file's footer is read.
    """
    import pyarrow.parquet as pq

    for name, schema in zip((MEMORIES_FILE, DIRS_FILE), schemas, strict=True):
        path = out / name
        check_replaceable(
            path,
            fix="nothing was written; move it aside or pass another folder to --parquet",
            aside="or pass another folder to --parquet",
        )
        if not os.path.lexists(path):
            continue
        columns: list[str] = []
        if path.is_file() and not path.is_symlink():
            try:
                columns = list(pq.read_schema(path).names)
            except (OSError, ValueError):  # not Parquet (pyarrow's ArrowInvalid is a ValueError)
                columns = []
        key = list(schema.names[:EXPORT_KEY_COLUMNS])
        if columns[:EXPORT_KEY_COLUMNS] != key:
            raise ValueError(
                f"{path} already exists and is not a {name} that memdir-nb "
                "export wrote, so nothing was written; pass another folder to --parquet, or "
                "move that file aside"
            )


def _write_tables(tables: Sequence[tuple[Any, Path]]) -> None:
    """Write each Parquet file beside its final name, then move them all into place.

    No file is replaced until every one is written, so a failure (a full disk) leaves the old
    pair as it was, never a new file beside an old one; a kill can only fall between the moves.
    """
    import pyarrow.parquet as pq

    written: list[tuple[str, Path]] = []
    try:
        for table, path in tables:
            fd, tmp = tempfile.mkstemp(
                prefix=f"{side_stem(path.name)}.", suffix=".tmp", dir=path.parent
            )
            os.close(fd)
            written.append((tmp, path))
            pq.write_table(table, tmp, compression="zstd")
            fsync_file(tmp)  # durable before it replaces the earlier export
    except BaseException:
        for tmp, _ in written:
            Path(tmp).unlink(missing_ok=True)
        raise
    for tmp, path in written:
        os.replace(tmp, path)
    for folder in {path.parent for _, path in written}:
        fsync_dir(folder)


def export_parquet(
    homes: Iterable[str | os.PathLike[str]],
    out_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
) -> ExportResult:
    """Write memories.parquet and dirs.parquet for every memory dir under the homes into out_dir."""
    import pyarrow as pa

    homes = list(homes)
    if not homes:
        raise ValueError("no Claude home given; pass at least one, such as ~/.claude")
    out = Path(out_dir)
    why = derived_output_problem(out, claude_homes=homes, notes=False)
    if why:
        raise ValueError(
            f"{out} {why}, so nothing was written: memories.parquet holds the text of every "
            "memory exported, and the store is a memory dir's only writer; pass a folder "
            "outside every memory dir to --parquet"
        )
    if out.exists() and not out.is_dir():
        raise ValueError(
            f"{out} exists and is not a folder; pass a folder for the two Parquet files"
        )
    skipped: list[str] = []
    memory_rows, dir_rows = collect_fleet(homes, now_ms=now_ms, skipped=skipped)
    memory_schema, dir_schema = _schemas()
    out.mkdir(parents=True, exist_ok=True)
    _check_targets(out, (memory_schema, dir_schema))
    memories = pa.Table.from_pylist(memory_rows, schema=memory_schema)
    dirs = pa.Table.from_pylist(dir_rows, schema=dir_schema)
    _write_tables([(memories, out / MEMORIES_FILE), (dirs, out / DIRS_FILE)])
    return ExportResult(
        out / MEMORIES_FILE, out / DIRS_FILE, len(memory_rows), len(dir_rows), tuple(skipped)
    )


def export_archive(
    memory_dir: str | os.PathLike[str], archive: str | os.PathLike[str]
) -> ExportReport:
    """Pack a memory dir into a zip at archive (storage.archive.export_archive), never into a
    memory dir: this one, another, or any under the Claude home (ArchiveError, nothing written)."""
    why = derived_output_problem(archive, memory_dirs=(memory_dir,), notes=False)
    if why:
        raise ArchiveError(
            f"{os.fspath(archive)} {why}, so nothing was written: the archive holds the text of "
            "every memory in the dir, and the store is a memory dir's only writer; write the "
            "archive to a folder outside every memory dir"
        )
    return pack_archive(memory_dir, archive)
