"""Tests for memdir_nb.reports.analysis: the frame's rows and columns, summaries, multi-dir discovery."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.home.config import MemdirConfig
from memdir_nb.reports.analysis import (
    COLUMNS,
    age_bucket,
    discover_memory_dirs,
    index_budget_frame,
    summarize,
    to_dataframe,
    to_dataframe_many,
)
from memdir_nb.spec.freshness import is_stale_age
from memdir_nb.ui.demo import build_demo_memory_dir, demo_memories

NOW_MS = 1_780_000_000_000.0
DAY_MS = 86_400_000


@pytest.fixture
def demo(tmp_path: Path) -> Path:
    return build_demo_memory_dir(tmp_path / "demo", now_ms=NOW_MS)


def test_frame_has_one_row_per_demo_memory_with_the_documented_columns(demo: Path) -> None:
    df = to_dataframe(demo, now_ms=NOW_MS)
    assert list(df.columns) == list(COLUMNS)
    expected = {m.path: m for m in demo_memories(NOW_MS)}
    assert set(df["path"]) == set(expected)
    row = df.set_index("path").loc["team/project_availability_okr.md"]
    assert row["scope"] == "team" and row["type"] == "project" and row["age_days"] == 420
    assert row["bytes"] == (demo / "team/project_availability_okr.md").stat().st_size
    assert row["lines"] == (demo / "team/project_availability_okr.md").read_text().count("\n")
    assert row["lint_rules"] == ["stale-project"] and row["lint_count"] == 1


def test_in_index_and_lint_columns_match_the_demo_quirks(demo: Path) -> None:
    df = to_dataframe(demo, now_ms=NOW_MS).set_index("path")
    assert not df.loc["user_colour_vision.md", "in_index"]
    assert df["in_index"].sum() == len(df) - 1
    assert "vague-description" in df.loc["reference_misc.md", "lint_rules"]
    assert bool(df.loc["team/reference_release_steps.md", "malformed"])
    assert df["lint_errors"].sum() == 0  # the demo's two errors are in the indexes, not in memories


def test_ages_follow_the_clock_passed_in(demo: Path) -> None:
    later = to_dataframe(demo, now_ms=NOW_MS + 10 * DAY_MS).set_index("path")
    assert later.loc["user_role.md", "age_days"] == 440


def test_summary_counts_budget_orphans_and_dangling(demo: Path) -> None:
    s = summarize(demo, now_ms=NOW_MS)
    mems = demo_memories(NOW_MS)
    assert (
        s.total
        == len(mems)
        == sum(s.by_type.values())
        == sum(s.by_scope.values())
        == sum(s.by_age.values())
    )
    assert s.by_scope == {
        "private": sum(m.scope == "private" for m in mems),
        "team": sum(m.scope == "team" for m in mems),
    }
    team = next(b for b in s.index_budget if b.scope == "team")
    assert team.lines > 200 and team.bytes > 25_000 and team.line_use > 1 and team.byte_use > 1
    private = next(b for b in s.index_budget if b.scope == "private")
    assert private.line_use < 1
    assert s.orphans == ["user_colour_vision.md"]
    assert s.dangling == [("MEMORY.md", 9, "user_old_laptop.md")]
    assert s.errors == 2 and s.findings_by_rule["index-over-cap"] == 1


def test_index_budget_frame_has_a_row_per_index(demo: Path) -> None:
    df = index_budget_frame(demo).set_index("scope")
    assert df.loc["team", "byte_use"] > 1 and df.loc["private", "exists"]


@pytest.mark.parametrize(
    ("days", "label"),
    [
        (0, "0-1 days"),
        (1, "0-1 days"),
        (2, "2-7 days"),
        (30, "8-30 days"),
        (89, "31-89 days"),
        (90, "90-365 days"),
        (365, "90-365 days"),
        (366, "over a year"),
    ],
)
def test_age_buckets_edges(days: int, label: str) -> None:
    assert age_bucket(days) == label


def test_an_age_bucket_holds_only_stale_or_only_fresh_ages_by_the_views_stale_rule() -> None:
    """tidy36: the 31-90 bucket held day 89 (fresh) and day 90 (stale by is_stale_age, the
    freshness view's and the browser's rule): the dashboard's bins and its stale list disagreed."""
    stale_by_bucket: dict[str, set[bool]] = {}
    for days in range(0, 2 * 365):
        stale_by_bucket.setdefault(age_bucket(days), set()).add(is_stale_age(days))
    assert all(len(kinds) == 1 for kinds in stale_by_bucket.values()), stale_by_bucket


def test_analysis_sees_every_file_beyond_the_selector_cap(tmp_path: Path) -> None:
    for i in range(250):
        p = tmp_path / f"reference_{i:03d}.md"
        p.write_text(
            render_memory_file(
                f"Ref {i}", f"Reference number {i} for the board", "reference", "Body."
            )
        )
    assert len(to_dataframe(tmp_path)) == 250


def test_empty_dir_gives_an_empty_frame_with_the_columns(tmp_path: Path) -> None:
    df = to_dataframe(tmp_path)
    assert df.empty and list(df.columns) == list(COLUMNS)


def claude_home(tmp_path: Path) -> Path:
    home = tmp_path / ".claude"
    for key in ("-home-a-proj1", "-home-a-proj2"):
        mem = home / "projects" / key / "memory"
        mem.mkdir(parents=True)
        (mem / "user_x.md").write_text(
            render_memory_file("X", f"User profile for {key}", "user", "Body.")
        )
    (home / "projects" / "-home-a-nomem").mkdir()
    outside = tmp_path / "elsewhere" / "memory"
    outside.mkdir(parents=True)
    os.symlink(outside.parent, home / "projects" / "-linked")
    return home


def test_discover_finds_every_project_memory_dir_but_not_symlinked_ones(tmp_path: Path) -> None:
    home = claude_home(tmp_path)
    found = discover_memory_dirs(home)
    assert [p.parent.name for p in found] == ["-home-a-proj1", "-home-a-proj2"]


def test_discover_rejects_a_missing_base_with_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="Claude home"):
        discover_memory_dirs(tmp_path / "missing")


def test_many_frame_has_a_project_column(tmp_path: Path) -> None:
    home = claude_home(tmp_path)
    df = to_dataframe_many(discover_memory_dirs(home))
    assert next(iter(df.columns)) == "project"
    assert sorted(df["project"]) == ["-home-a-proj1", "-home-a-proj2"]
    named = to_dataframe_many({"a": home / "projects/-home-a-proj1/memory"})
    assert list(named["project"]) == ["a"]


def test_importing_analysis_does_not_import_pandas() -> None:
    code = "import sys, memdir_nb.reports.analysis, memdir_nb.lint; print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_discover_defaults_to_the_configured_claude_home(tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.reports.analysis import discover_memory_dirs

    home = tmp_path / "home"
    (home / ".claude" / "projects" / "-repo-a" / "memory").mkdir(parents=True)
    (home / ".claude" / "projects" / "-repo-b").mkdir(parents=True)
    config = MemdirConfig.for_tests(home=home, cwd=tmp_path)
    assert discover_memory_dirs(config=config) == [
        home / ".claude" / "projects" / "-repo-a" / "memory"
    ]
    assert discover_memory_dirs("~/.claude", config=config) == discover_memory_dirs(config=config)


# ---- realdirs: nested header keys as columns, index variants as in_index


def test_nested_metadata_keys_become_columns_and_types_are_kept(
    real_dir: Callable[[str], Path],
) -> None:
    df = to_dataframe(real_dir("nested"))
    assert sorted(df["type"]) == ["feedback", "project", "reference"]
    assert set(df["node_type"]) == {"memory"}
    assert df["originSessionId"].str.startswith("0b6c1d0e").all()
    assert df["modified"].notna().all()


def test_every_index_variant_counts_as_in_index(real_dir: Callable[[str], Path]) -> None:
    df = to_dataframe(real_dir("index-variants"))
    assert df["in_index"].all(), df.loc[~df["in_index"], "path"].tolist()


def test_a_file_an_agent_folder_indexes_itself_is_in_index(
    real_dir: Callable[[str], Path],
) -> None:
    df = to_dataframe(real_dir("agent-beside-index")).set_index("path")
    assert df.loc["planner/project_release_train.md", "in_index"]  # as lint says
    assert not df.loc["builder/reference_cache_host.md", "in_index"]


def test_summary_keeps_links_that_leave_the_dir_apart_from_dangling_ones(
    real_dir: Callable[[str], Path],
) -> None:
    root = real_dir("private-only")
    with open(root / "MEMORY.md", "a", encoding="utf-8") as fh:
        fh.write("- [Plans](../plans/INDEX.md) — outside\n- [Gone](gone.md) — deleted\n")
    s = summarize(root)
    assert s.dangling == [("MEMORY.md", 4, "gone.md")]
    assert s.outside == [("MEMORY.md", 3, "../plans/INDEX.md")]


def test_a_header_integer_too_long_for_decimal_does_not_stop_the_frame(demo: Path) -> None:
    # thirty-second session: `ticket: 0x<3,700 f>` raised "Exceeds the limit (4300 digits)
    # for integer string conversion" out of to_dataframe and summarize for the whole dir
    written = "0x" + "f" * 3700
    (demo / "user_big_number.md").write_text(
        f"---\nname: n\ndescription: a number\ntype: user\nticket: {written}\n---\nx\n"
    )
    df = to_dataframe(demo, now_ms=NOW_MS).set_index("path")
    assert bool(df.loc["user_big_number.md", "malformed"])
    assert df.loc["user_big_number.md", "ticket"] == written  # kept as written
    assert summarize(demo, now_ms=NOW_MS).total == len(df)


def test_discovery_in_a_missing_default_claude_home_names_the_folder(tmp_path: Path) -> None:
    # fresh32: with no base and no ~/.claude the error read "None is not a directory"
    config = MemdirConfig.from_environment({"HOME": str(tmp_path)}, home=tmp_path)
    with pytest.raises(ValueError, match="there is no Claude home at .*\\.claude") as caught:
        discover_memory_dirs(config=config)
    assert "None" not in str(caught.value)


def test_an_agent_file_only_the_agent_roots_index_lists_is_not_in_index(
    real_dir: Callable[[str], Path],
) -> None:
    # fix35c: at an agent memory root read as one memory dir, a line in the root's MEMORY.md
    # (which no agent loads) counted the planner's file as indexed; lint says it is not
    parent = real_dir("agent-root-unlisted")
    root_index = parent / "MEMORY.md"
    root_index.write_text(
        root_index.read_text() + "- [Freeze](planner/project_freeze_window.md) \u2014 release\n"
    )
    df = to_dataframe(parent).set_index("path")
    assert not df.loc["planner/project_freeze_window.md", "in_index"]
    assert df.loc["planner/project_release_train.md", "in_index"]  # its agent's index lists it
    assert df.loc["project_kiln_rota.md", "in_index"]  # the root's own file, in the root's index
    assert summarize(parent).orphans == ["planner/project_freeze_window.md"]


def test_a_binary_file_is_no_orphan_as_lint_asks_no_index_line_for_it(
    real_dir: Callable[[str], Path],
) -> None:
    # index37: lint's not-in-index rule (index_should_list) leaves out a file lint calls not-text
    assert summarize(real_dir("binary-beside")).orphans == ["project_kiln.md"]
