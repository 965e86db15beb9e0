"""Tests for memdir_nb.reports.fleet: many Claude homes to two Parquet files, read back by DuckDB."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

from memdir_nb.lint import lint_memory_dir  # noqa: E402
from memdir_nb.reports.analysis import summarize  # noqa: E402
from memdir_nb.reports.fleet import (  # noqa: E402
    DIRS_FILE,
    MEMORIES_FILE,
    export_archive,
    export_parquet,
)
from memdir_nb.storage.archive import ArchiveError  # noqa: E402
from tests.support.durability import record_fsyncs_and_renames  # noqa: E402
from tests.support.fake_home import NOW_MS, add_memory, make_world  # noqa: E402


@pytest.fixture
def two_homes(tmp_path: Path) -> list[Path]:
    a = make_world(tmp_path / "a", repo=False)
    mem = a.memory_dir_for(a.project)
    add_memory(mem, "feedback_db.md", age_days=2)
    add_memory(mem, "project_goal.md", type="project", age_days=400)
    add_memory(mem, "team/reference_board.md", type="reference", index=False)
    add_memory(a.claude_home / "agent-memory" / "reviewer", "feedback_style.md")
    b = make_world(tmp_path / "b", repo=False)
    mem_b = b.memory_dir_for(b.project)
    for i in range(205):
        add_memory(mem_b, f"feedback_rule_{i:03d}.md")
    return [a.claude_home, b.claude_home]


def test_export_writes_one_row_per_memory_and_per_dir(
    tmp_path: Path, two_homes: list[Path]
) -> None:
    result = export_parquet(two_homes, tmp_path / "out", now_ms=NOW_MS)
    memories = pq.read_table(result.memories_path).to_pylist()
    dirs = pq.read_table(result.dirs_path).to_pylist()
    assert (result.memories, result.dirs) == (209, 3) == (len(memories), len(dirs))
    goal = next(m for m in memories if m["file"] == "project_goal.md")
    assert goal["stale"] and goal["age_days"] == 400 and goal["in_index"]
    board = next(m for m in memories if m["file"] == "team/reference_board.md")
    assert board["scope"] == "team" and not board["in_index"]
    assert {d["kind"] for d in dirs} == {"project", "agent:user"}
    big = next(d for d in dirs if d["memories"] == 205)
    assert big["index_truncated"] and big["index_lines"] == 205 and big["index_line_use"] > 1
    small = next(d for d in dirs if d["memories"] == 3)
    # the team file is in no index, but team/ has none at all: lint's not-in-index (lefts36)
    assert (small["n_feedback"], small["n_project"], small["stale"], small["not_in_index"]) == (
        1,
        1,
        1,
        0,
    )
    assert small["project_path"] and small["project"] == small["project_path"]


def test_duckdb_answers_memories_per_project_and_stale_share(
    tmp_path: Path, two_homes: list[Path]
) -> None:
    duckdb = pytest.importorskip("duckdb")
    export_parquet(two_homes, tmp_path / "out", now_ms=NOW_MS)
    rows = duckdb.sql(
        f"""
        SELECT project, count(*) AS n, avg(stale::INT) AS stale_share
        FROM read_parquet('{tmp_path / "out" / MEMORIES_FILE}')
        WHERE kind = 'project' GROUP BY project ORDER BY n
        """
    ).fetchall()
    assert [r[1] for r in rows] == [3, 205]
    assert rows[0][2] == pytest.approx(1 / 3)


def test_an_export_is_on_disk_before_it_replaces_the_earlier_files(
    tmp_path: Path, two_homes: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both Parquet files are fsynced before either is renamed over the earlier pair."""
    export_parquet(two_homes, tmp_path / "out", now_ms=NOW_MS)
    steps = record_fsyncs_and_renames(monkeypatch)
    export_parquet(two_homes, tmp_path / "out", now_ms=NOW_MS)
    assert steps == ["fsync-file", "fsync-file", "rename", "rename", "fsync-dir"]


def test_export_refuses_a_file_as_the_output_folder(tmp_path: Path, two_homes: list[Path]) -> None:
    target = tmp_path / "out"
    target.write_text("keep")
    with pytest.raises(ValueError, match="not a folder"):
        export_parquet(two_homes, target)
    assert target.read_text() == "keep"


def test_export_needs_a_home(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no Claude home"):
        export_parquet([], tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_an_empty_home_writes_empty_tables_with_the_schema(tmp_path: Path) -> None:
    home = tmp_path / "h"
    home.mkdir()
    result = export_parquet([home], tmp_path / "out")
    assert result.memories == 0
    table = pq.read_table(tmp_path / "out" / DIRS_FILE)
    assert table.num_rows == 0 and "index_truncated" in table.schema.names


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_folder_or_fifo_at_an_export_file_name_is_named_and_nothing_is_written(
    tmp_path: Path, kind: str
) -> None:
    # attack round 13: a folder at memories.parquet ended in "Is a directory (.memories.
    # parquet.<random>.tmp)", naming the temp file; a FIFO at dirs.parquet was replaced without
    # a word, after memories.parquet had been written
    world = make_world(tmp_path / "a", repo=False)
    add_memory(world.memory_dir_for(world.project), "feedback_db.md")
    out = tmp_path / "out"
    out.mkdir()
    name = MEMORIES_FILE if kind == "folder" else DIRS_FILE
    (out / name).mkdir() if kind == "folder" else os.mkfifo(out / name)
    with pytest.raises(OSError, match=f"{name} is .*pass another folder to --parquet"):
        export_parquet([world.claude_home], out, now_ms=NOW_MS)
    assert sorted(p.name for p in out.iterdir()) == [name]


def test_a_failure_writing_either_file_leaves_the_old_pair_as_it_was(
    tmp_path: Path, two_homes: list[Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    # the disk fills while dirs.parquet is written: memories.parquet had already replaced the
    # old one, so the folder held a new memories file beside an old dirs file
    out = tmp_path / "out"
    export_parquet(two_homes[:1], out, now_ms=NOW_MS)
    before = {p.name: p.read_bytes() for p in out.iterdir()}
    real_write = pq.write_table

    def disk_full_on_dirs(table: object, where: str, **kwargs: object) -> None:
        if DIRS_FILE in os.path.basename(where):
            raise OSError(28, "No space left on device")
        real_write(table, where, **kwargs)

    monkeypatch.setattr(pq, "write_table", disk_full_on_dirs)
    with pytest.raises(OSError, match="No space left"):
        export_parquet(two_homes, out, now_ms=NOW_MS)
    assert {p.name: p.read_bytes() for p in out.iterdir()} == before  # no temp file left either


@pytest.mark.parametrize("kind", ["other-parquet", "not-parquet", "link-to-an-export"])
def test_a_file_export_did_not_write_at_an_export_file_name_is_kept_and_nothing_is_written(
    tmp_path: Path, two_homes: list[Path], kind: str
) -> None:
    # fresh31: `--parquet ~/data` wrote over a person's own dirs.parquet there (a table of
    # theirs, or any file of that name), and kept no copy; only an earlier export is replaced
    out = tmp_path / "out"
    export_parquet(two_homes[:1], out, now_ms=NOW_MS)
    theirs = out / DIRS_FILE
    if kind == "other-parquet":
        theirs.unlink()
        pq.write_table(
            pa.table({"city": ["Oslo", "Lima"], "people": [709_000, 10_000_000]}), theirs
        )
    elif kind == "not-parquet":
        theirs.write_bytes(b"city,people\nOslo,709000\n")
    else:  # a link to an earlier export elsewhere: replacing it would drop the person's link
        elsewhere = tmp_path / "kept.parquet"
        theirs.rename(elsewhere)
        theirs.symlink_to(elsewhere)
    before = {p.name: (p.is_symlink(), p.read_bytes()) for p in out.iterdir()}

    with pytest.raises(ValueError, match=f"{DIRS_FILE} already exists and is not a {DIRS_FILE}"):
        export_parquet(two_homes, out, now_ms=NOW_MS)

    assert {p.name: (p.is_symlink(), p.read_bytes()) for p in out.iterdir()} == before


def test_an_earlier_export_is_replaced_by_a_new_one(tmp_path: Path, two_homes: list[Path]) -> None:
    out = tmp_path / "out"
    export_parquet(two_homes[:1], out, now_ms=NOW_MS)
    first = pq.read_table(out / DIRS_FILE).num_rows

    export_parquet(two_homes, out, now_ms=NOW_MS)

    assert pq.read_table(out / DIRS_FILE).num_rows > first
    assert sorted(p.name for p in out.iterdir()) == sorted([DIRS_FILE, MEMORIES_FILE])


def test_an_agent_file_only_the_agent_roots_index_lists_counts_as_not_in_index(
    tmp_path: Path, real_dir: Callable[[str], Path]
) -> None:
    # fix35c: an agent memory root read as one memory dir (here the dir the user settings
    # name) counted the planner's file as indexed by a line in the root's MEMORY.md, which no
    # agent loads; lint says it is not in the index
    w = make_world(tmp_path / "w", repo=False)
    parent = real_dir("agent-root-unlisted")
    root_index = parent / "MEMORY.md"
    root_index.write_text(
        root_index.read_text() + "- [Freeze](planner/project_freeze_window.md) \u2014 release\n"
    )
    w.settings("user", {"autoMemoryDirectory": os.fspath(parent)})
    result = export_parquet([w.claude_home], tmp_path / "out", now_ms=NOW_MS)
    rows = {m["file"]: m["in_index"] for m in pq.read_table(result.memories_path).to_pylist()}
    assert rows == {
        "project_kiln_rota.md": True,
        "planner/project_release_train.md": True,
        "planner/project_freeze_window.md": False,
    }
    (row,) = pq.read_table(result.dirs_path).to_pylist()
    assert (row["kind"], row["not_in_index"]) == ("settings:user", 1)


def test_not_in_index_counts_a_file_only_where_its_scope_has_an_index_as_lint_and_analysis_do(
    tmp_path: Path,
) -> None:
    # lefts36: fleet counted a file of a scope with no index at all (team/ without its
    # MEMORY.md); analysis's orphans and lint's not-in-index did not: the one rule is lint's
    w = make_world(tmp_path / "w", repo=False)
    mem = w.memory_dir_for(w.project)
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "feedback_unlisted.md", index=False)
    add_memory(mem, "team/reference_board.md", type="reference", index=False)
    add_memory(mem, "team/reference_wiki.md", type="reference", index=False)

    def counts() -> tuple[int, int, int]:
        result = export_parquet([w.claude_home], tmp_path / "out", now_ms=NOW_MS)
        (row,) = pq.read_table(result.dirs_path).to_pylist()
        lint = lint_memory_dir(mem, now_ms=NOW_MS, progress=False)
        found = sum(f.rule == "not-in-index" for f in lint)
        return row["not_in_index"], len(summarize(mem, now_ms=NOW_MS).orphans), found

    assert counts() == (1, 1, 1)  # the private one; team/ has no index: its one problem
    (mem / "team" / "MEMORY.md").write_text("# Team\n", encoding="utf-8")
    assert counts() == (3, 3, 3)  # an index that lists neither leaves both out


def test_not_in_index_leaves_out_a_binary_file_as_lint_and_analysis_do(tmp_path: Path) -> None:
    # lefts38: the index rule skips a binary file (spec.text.is_not_text: no reader can read it
    # as a memory, so no index should list it); fleet still counted one as not in the index
    w = make_world(tmp_path / "w", repo=False)
    mem = w.memory_dir_for(w.project)
    add_memory(mem, "feedback_db.md")
    add_memory(mem, "feedback_unlisted.md", index=False)
    (mem / "reference_dump.md").write_bytes(b"PK\x03\x04\x00\x00binary\x00")
    result = export_parquet([w.claude_home], tmp_path / "out", now_ms=NOW_MS)
    (row,) = pq.read_table(result.dirs_path).to_pylist()
    lint = lint_memory_dir(mem, now_ms=NOW_MS, progress=False)
    found = sum(f.rule == "not-in-index" for f in lint)
    assert any(f.rule == "not-text" for f in lint)
    assert (row["not_in_index"], len(summarize(mem, now_ms=NOW_MS).orphans), found) == (1, 1, 1)


def _inside(where: str, tmp_path: Path, homes: list[Path]) -> Path:
    notes = tmp_path / "notes"
    notes.mkdir(exist_ok=True)
    (notes / "MEMORY.md").write_text("- [kiln](kiln.md) - firing\n")
    project_mem = next((homes[0] / "projects").iterdir()) / "memory"
    return Path(
        where.replace("MEM", str(project_mem))
        .replace("AGENT", str(homes[0] / "agent-memory" / "reviewer"))
        .replace("NOTES", str(notes))
    )


INSIDE_MEMORY = ["MEM", "MEM/team/out", "AGENT", "NOTES/out"]


@pytest.mark.parametrize("where", INSIDE_MEMORY)
def test_export_refuses_an_output_folder_in_a_memory_dir_and_writes_nothing(
    tmp_path: Path, two_homes: list[Path], where: str
) -> None:
    # bounds37: `export --parquet` into a memory dir put memories.parquet, the text of every
    # memory of every home, where a team sync or a commit of .claude/agent-memory publishes it
    out = _inside(where, tmp_path, two_homes)
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(ValueError, match="nothing was written.*outside every memory dir"):
        export_parquet(two_homes, out, now_ms=NOW_MS)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


@pytest.mark.parametrize("where", INSIDE_MEMORY)
def test_an_archive_is_refused_in_any_memory_dir_and_nothing_is_written(
    tmp_path: Path, two_homes: list[Path], where: str
) -> None:
    # bounds37: the archive of the second home's dir, written into the first home's memory
    packed = next((two_homes[1] / "projects").iterdir()) / "memory"
    target = _inside(where, tmp_path, two_homes) / "memory.zip"
    before = sorted(str(p) for p in tmp_path.rglob("*"))
    with pytest.raises(ArchiveError, match="nothing was written.*outside every memory dir"):
        export_archive(packed, target)
    assert sorted(str(p) for p in tmp_path.rglob("*")) == before


def test_an_export_beside_notes_in_a_repository_folder_is_written(
    tmp_path: Path, two_homes: list[Path]
) -> None:
    out = tmp_path / "repo"
    out.mkdir()
    (out / "README.md").write_text("# data\n")
    assert export_parquet(two_homes, out, now_ms=NOW_MS).memories == 209
    packed = next((two_homes[0] / "projects").iterdir()) / "memory"
    assert export_archive(packed, out / "memory.zip").archive == out / "memory.zip"
