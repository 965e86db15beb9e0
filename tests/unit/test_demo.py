"""Tests for memdir_nb.ui.demo: the bundled demo memory dir, built in real tmp dirs."""

from __future__ import annotations

import datetime as dt
import json
import os
import re
import stat
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.index import (
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    parse_index,
    truncate_entrypoint_content,
)
from memdir_nb.spec.freshness import memory_age_days
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.daily_log import read_daily_log_entries
from memdir_nb.storage.headers import read_frontmatter
from memdir_nb.storage.scan import scan_memory_dir, scan_memory_files
from memdir_nb.ui import demo
from memdir_nb.ui.demo.session import build_demo_session
from tests.support import snapshot
from tests.support.kernels import execute_notebook
from tests.support.time_zone import in_zone

# A fixed clock: 2026-03-28 14:30 UTC (afternoon everywhere from UTC-10 to UTC+9).
NOW_MS = 1_774_708_200_000.0
DAY_MS = 86_400_000


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One demo dir shared by the read-only tests."""
    return demo.build_demo_memory_dir(tmp_path_factory.mktemp("demo") / "memory", now_ms=NOW_MS)


def _snapshot(root: Path) -> dict[str, tuple[Any, ...]]:
    """Every file, link and folder under root with its content and mtime_ns."""
    return snapshot(root, ignore=(), mtimes=True)


def _index_targets(path: Path) -> list[str]:
    return [e.target for e in parse_index(path.read_text(encoding="utf-8"))]


# ---- contents ---------------------------------------------------------------------------


def test_demo_has_about_forty_memories_of_all_four_types_in_both_scopes(built: Path) -> None:
    headers = scan_memory_files(built)
    assert 36 <= len(headers) <= 44
    kinds = Counter(
        ("team" if h.filename.startswith("team/") else "private", h.type) for h in headers
    )
    for t in (MemoryType.FEEDBACK, MemoryType.PROJECT, MemoryType.REFERENCE):
        assert kinds[("private", t)] >= 2, t
        assert kinds[("team", t)] >= 2, t
    assert 8 <= kinds[("private", MemoryType.USER)] <= 10
    per_type = Counter(h.type for h in headers)
    assert 10 <= per_type[MemoryType.FEEDBACK] <= 11
    assert 10 <= per_type[MemoryType.PROJECT] <= 12
    assert 8 <= per_type[MemoryType.REFERENCE] <= 10


def test_no_user_memory_lives_in_team_scope(built: Path) -> None:
    team = [h for h in scan_memory_files(built) if h.filename.startswith("team/")]
    assert team, "the demo must have team memories"
    assert all(h.type is not MemoryType.USER for h in team)


def test_files_on_disk_match_the_exposed_memory_list(built: Path) -> None:
    memories = demo.demo_memories(NOW_MS)
    assert len({m.path for m in memories}) == len(memories)
    for mem in memories:
        fm = read_frontmatter(built / mem.path)
        assert (fm.name, fm.description, fm.type) == (mem.name, mem.description, mem.type), mem.path
        assert fm.malformed is mem.malformed, mem.path
        _, body = parse_frontmatter((built / mem.path).read_text(encoding="utf-8"))
        assert body.strip() == mem.body.strip(), mem.path


def test_feedback_and_project_bodies_give_why_then_how_to_apply(built: Path) -> None:
    for mem in demo.demo_memories(NOW_MS):
        if mem.type not in (MemoryType.FEEDBACK, MemoryType.PROJECT):
            continue
        body = mem.body
        why, how = body.find("**Why:**"), body.find("**How to apply:**")
        assert 0 < why < how, f"{mem.path} lacks the rule / Why / How to apply order"
        assert body[:why].strip(), f"{mem.path} has no rule or fact before **Why:**"


def test_project_dates_are_absolute_and_move_with_now_ms(tmp_path: Path) -> None:
    later = NOW_MS + 10 * DAY_MS
    a = {m.path: m for m in demo.demo_memories(NOW_MS)}
    b = {m.path: m for m in demo.demo_memories(later)}
    shifted = 0
    for path, mem in a.items():
        dates_a = re.findall(r"\d{4}-\d{2}-\d{2}", mem.body + mem.description)
        dates_b = re.findall(r"\d{4}-\d{2}-\d{2}", b[path].body + b[path].description)
        assert len(dates_a) == len(dates_b)
        for x, y in zip(dates_a, dates_b, strict=False):
            assert (dt.date.fromisoformat(y) - dt.date.fromisoformat(x)).days == 10, path
            shifted += 1
    assert shifted >= 10
    freeze = a["team/project_merge_freeze.md"]
    today = dt.datetime.fromtimestamp(NOW_MS / 1000, dt.UTC).date()
    assert (today + dt.timedelta(days=9)).isoformat() in freeze.description


def _memories_in_zone(zone: str) -> list[tuple[str, str, str]]:
    """The demo's memories (path, description, body) built as of DEMO_NOW_MS with TZ=zone."""
    with in_zone(zone):
        return [(m.path, m.description, m.body) for m in demo.demo_memories(demo.DEMO_NOW_MS)]


@pytest.mark.parametrize("zone", ["Pacific/Auckland", "Pacific/Kiritimati", "Etc/GMT+12"])
def test_the_demo_says_the_same_dates_in_every_time_zone(zone: str) -> None:
    # New Zealand is UTC+12 in June: the demo's noon-UTC "now" is already the next day there,
    # and its memories named other dates, so notebook 03's scores moved (0.17 -> 0.18).
    assert _memories_in_zone(zone) == _memories_in_zone("UTC")


def test_recall_playground_queries_have_a_clear_target(built: Path) -> None:
    by_name = {h.filename: h for h in scan_memory_files(built)}
    expected = {
        "team/reference_deploy_runbook.md": ("deploy", "production"),
        "team/feedback_billing_tests.md": ("tests", "billing service"),
        "team/reference_oncall.md": ("on call", "this week"),
        "team/reference_latency_dashboards.md": ("API latency dashboards",),
    }
    for filename, words in expected.items():
        description = (by_name[filename].description or "").lower()
        for word in words:
            assert word.lower() in description, (filename, word)


# ---- ages and mtimes --------------------------------------------------------------------


def test_ages_span_today_to_over_a_year(built: Path) -> None:
    headers = scan_memory_files(built)
    ages = {h.filename: memory_age_days(h.mtime_ms, NOW_MS) for h in headers}
    assert min(ages.values()) == 0
    assert max(ages.values()) > 365
    assert {0, 1, 2, 5, 12, 30, 47, 90, 200} <= set(ages.values())
    for mem in demo.demo_memories(NOW_MS):
        assert ages[mem.path] == mem.age_days, mem.path


def test_mtimes_sit_two_hours_past_whole_days(built: Path) -> None:
    for mem in demo.demo_memories(NOW_MS):
        mtime_ms = (built / mem.path).stat().st_mtime_ns / 1e6
        assert mtime_ms == pytest.approx(NOW_MS - mem.age_days * DAY_MS - 2 * 3_600_000, abs=0.01)
        # an hour later the age has not moved
        assert memory_age_days(mtime_ms, NOW_MS + 3_600_000) == mem.age_days


def test_scan_returns_memories_only_not_indexes_logs_or_marker(built: Path) -> None:
    report = scan_memory_dir(built)
    names = [h.filename for h in report.headers]
    assert len(names) == len(demo.demo_memories(NOW_MS))
    assert not [n for n in names if n.endswith("MEMORY.md") or n.startswith("logs/")]
    assert demo.MARKER_NAME not in names
    assert (built / demo.MARKER_NAME).is_file()
    assert (built / "MEMORY.md").is_file() and (built / "team" / "MEMORY.md").is_file()


# ---- indexes ----------------------------------------------------------------------------


def test_team_index_triggers_both_caps_but_keeps_real_entries(built: Path) -> None:
    raw = (built / "team" / "MEMORY.md").read_text(encoding="utf-8")
    assert len(raw.splitlines()) > MAX_ENTRYPOINT_LINES
    assert len(raw.encode("utf-8")) > MAX_ENTRYPOINT_BYTES
    cut = truncate_entrypoint_content(raw)
    assert cut.was_line_truncated and cut.was_byte_truncated
    assert cut.warning
    kept_targets = {e.target for e in parse_index(cut.content)}
    team_files = {m.filename for m in demo.demo_memories(NOW_MS) if m.scope == "team"}
    assert team_files <= kept_targets
    # the cut lands inside the pasted notes, after the real entries
    assert "planning call" in cut.content
    assert "(recording in the shared drive" not in cut.content


def test_private_index_triggers_neither_cap_and_has_well_formed_lines(built: Path) -> None:
    raw = (built / "MEMORY.md").read_text(encoding="utf-8")
    cut = truncate_entrypoint_content(raw)
    assert not cut.was_line_truncated and not cut.was_byte_truncated
    assert cut.warning == ""
    lines = [ln for ln in raw.splitlines() if ln.strip()]
    entries = parse_index(raw)
    assert len(entries) == len(lines)
    assert all(re.fullmatch(r"- \[[^\]]+\]\([^)]+\.md\) — .+", ln) for ln in lines)
    assert all(len(ln) <= 200 for ln in lines)


def test_team_index_links_are_relative_to_the_team_folder(built: Path) -> None:
    team_files = {m.filename for m in demo.demo_memories(NOW_MS) if m.scope == "team"}
    targets = _index_targets(built / "team" / "MEMORY.md")
    assert set(targets) == team_files
    assert all((built / "team" / t).is_file() for t in targets)


# ---- the malformed file and the daily log ------------------------------------------------


def test_malformed_file_is_flagged_but_fields_are_recovered(built: Path) -> None:
    (path,) = demo.DEMO_QUIRKS["malformed_frontmatter"].paths
    text = (built / path).read_text(encoding="utf-8")
    header = text.split("---\n")[1]
    with pytest.raises(yaml.YAMLError):
        yaml.safe_load(header)
    (h,) = [h for h in scan_memory_files(built) if h.filename == path]
    assert h.malformed
    assert h.name == "Release checklist"
    assert h.description == "Release steps: tag, build, canary, promote"
    assert h.type is MemoryType.REFERENCE
    others = [x for x in scan_memory_files(built) if x.filename != path]
    assert not [x.filename for x in others if x.malformed]


def test_daily_log_is_at_yesterdays_utc_date(built: Path) -> None:
    yesterday = dt.datetime.fromtimestamp(NOW_MS / 1000, dt.UTC).date() - dt.timedelta(days=1)
    log = built / "logs" / f"{yesterday:%Y}" / f"{yesterday:%m}" / f"{yesterday.isoformat()}.md"
    assert log.is_file()
    assert demo.daily_log_relpath(NOW_MS) == log.relative_to(built).as_posix()
    entries = read_daily_log_entries(log)
    assert len(entries) >= 3
    stamps = [s for s, _ in entries]
    assert stamps == sorted(stamps)
    assert all(text for _, text in entries)
    mtime = dt.datetime.fromtimestamp(log.stat().st_mtime, dt.UTC)
    assert mtime.date() == yesterday
    assert mtime.strftime("%H:%M:%S") == stamps[-1]  # the last entry's time, in UTC
    assert len(list((built / "logs").rglob("*.md"))) == 1


def _daily_log_in_zone(tmp_path: Path, zone: str) -> tuple[str, str, int]:
    """The demo's daily log (path, text, mtime_ns) built as of NOW_MS with TZ=zone."""
    with in_zone(zone):
        root = demo.build_demo_memory_dir(tmp_path / zone.replace("/", "_"), now_ms=NOW_MS)
    log = root / demo.daily_log_relpath(NOW_MS)
    return log.relative_to(root).as_posix(), log.read_text(encoding="utf-8"), log.stat().st_mtime_ns


def test_the_demo_daily_log_is_the_same_file_at_the_same_time_in_every_zone(
    tmp_path: Path,
) -> None:
    # lefts39: its entries were written at local wall-clock times, so its mtime moved by the
    # zone's offset (a day apart between Kiritimati and Adak)
    assert _daily_log_in_zone(tmp_path, "Pacific/Kiritimati") == _daily_log_in_zone(
        tmp_path, "America/Adak"
    )


# ---- determinism and safety -------------------------------------------------------------


def test_same_now_ms_gives_identical_files_and_mtimes(tmp_path: Path) -> None:
    a = demo.build_demo_memory_dir(tmp_path / "a", now_ms=NOW_MS)
    b = demo.build_demo_memory_dir(tmp_path / "b", now_ms=NOW_MS)
    snap_a, snap_b = _snapshot(a), _snapshot(b)
    assert snap_a == snap_b
    assert sum(1 for v in snap_a.values() if v[0] == "file") >= 44


def test_returns_absolute_path_and_leaves_no_staging_dirs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    out = demo.build_demo_memory_dir("nested/memory", now_ms=NOW_MS)
    assert out == tmp_path / "nested" / "memory" and out.is_absolute()
    assert sorted(p.name for p in (tmp_path / "nested").iterdir()) == ["memory"]
    mask = os.umask(0)  # the demo asks for the store's 0755 and the user's umask takes bits off
    os.umask(mask)
    assert oct(out.stat().st_mode & 0o777) == oct(0o755 & ~mask)


def test_builds_into_an_existing_empty_dir(tmp_path: Path) -> None:
    target = tmp_path / "memory"
    target.mkdir()
    demo.build_demo_memory_dir(target, now_ms=NOW_MS)
    assert (target / "MEMORY.md").is_file()


def test_refuses_a_non_demo_dir_and_writes_nothing(tmp_path: Path) -> None:
    target = tmp_path / "memory"
    target.mkdir()
    (target / "user_me.md").write_text("my real memory\n", encoding="utf-8")
    for overwrite in (False, True):
        with pytest.raises(demo.DemoDirError, match="not a memdir_nb demo dir"):
            demo.build_demo_memory_dir(target, now_ms=NOW_MS, overwrite=overwrite)
    assert sorted(p.name for p in target.iterdir()) == ["user_me.md"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["memory"]


def test_refuses_a_file_or_a_symlink_as_target(tmp_path: Path) -> None:
    afile = tmp_path / "memory.md"
    afile.write_text("x", encoding="utf-8")
    with pytest.raises(demo.DemoDirError, match="not a directory"):
        demo.build_demo_memory_dir(afile, now_ms=NOW_MS)
    real = tmp_path / "real"
    real.mkdir()
    link = tmp_path / "link"
    link.symlink_to(real)
    with pytest.raises(demo.DemoDirError, match="symlink"):
        demo.build_demo_memory_dir(link, now_ms=NOW_MS)
    assert list(real.iterdir()) == []


def test_existing_demo_needs_overwrite_and_overwrite_replaces_an_unchanged_one(
    tmp_path: Path,
) -> None:
    target = demo.build_demo_memory_dir(tmp_path / "memory", now_ms=NOW_MS)
    with pytest.raises(demo.DemoDirError, match="overwrite=True"):
        demo.build_demo_memory_dir(target, now_ms=NOW_MS)
    os.utime(target / "MEMORY.md")  # opened and saved unchanged: only its mtime moves
    later = NOW_MS + 3 * DAY_MS
    built = demo.build_demo(target, now_ms=later, overwrite=True)
    assert built == demo.DemoBuild(target)
    assert _snapshot(target) == _snapshot(
        demo.build_demo_memory_dir(tmp_path / "fresh", now_ms=later)
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh", "memory"]


def test_overwrite_keeps_an_earlier_demo_a_person_added_to_or_edited(tmp_path: Path) -> None:
    target = demo.build_demo_memory_dir(tmp_path / "memory", now_ms=NOW_MS)
    stray = target / "user_added_by_hand.md"
    stray.write_text("---\nname: x\ndescription: y\ntype: user\n---\nmine\n", encoding="utf-8")
    edited = sorted(target.glob("feedback_*.md"))[0]
    edited.write_text(edited.read_text(encoding="utf-8") + "\nA line I added.\n", encoding="utf-8")
    os.mkfifo(target / "a_pipe.md")  # listed, never opened (opening would wait for a writer)
    (target / "gone.md").symlink_to(tmp_path / "nowhere")
    (target / "team" / "MEMORY.md").unlink()  # a deletion holds nothing of theirs: not listed
    before = snapshot(target, ignore=("a_pipe.md",), mtimes=True)  # opening the FIFO would wait
    later = NOW_MS + 3 * DAY_MS
    built = demo.build_demo(target, now_ms=later, overwrite=True)
    assert built.path == target and built.kept is not None
    assert built.edited == ("a_pipe.md", edited.name, "gone.md", "user_added_by_hand.md")
    assert built.kept.parent == tmp_path and built.kept.name.startswith("memory.kept-")
    assert snapshot(built.kept, ignore=("a_pipe.md",), mtimes=True) == before  # whole, as it was
    assert stat.S_ISFIFO(os.lstat(built.kept / "a_pipe.md").st_mode)
    assert _snapshot(target) == _snapshot(
        demo.build_demo_memory_dir(tmp_path / "fresh", now_ms=later)
    )


def test_overwrite_keeps_everything_when_the_markers_time_was_changed(tmp_path: Path) -> None:
    target = demo.build_demo_memory_dir(tmp_path / "memory", now_ms=NOW_MS)
    os.utime(target / demo.MARKER_NAME, ns=(0, 0))  # no longer says when the demo was built
    built = demo.build_demo(target, now_ms=NOW_MS, overwrite=True)
    assert built.kept is not None and {"MEMORY.md", "user_role.md"} <= set(built.edited)


def test_default_clock_builds_a_current_demo(tmp_path: Path) -> None:
    before = time.time() * 1000
    out = demo.build_demo_memory_dir(tmp_path / "memory")
    ages = [memory_age_days(h.mtime_ms, before) for h in scan_memory_files(out)]
    assert min(ages) == 0 and max(ages) > 365


# ---- the deliberate quirks --------------------------------------------------------------


def test_quirk_list_is_the_documented_set() -> None:
    assert set(demo.DEMO_QUIRKS) == {
        "malformed_frontmatter",
        "relative_date",
        "derivable_content",
        "near_duplicate",
        "dangling_index_entry",
        "missing_from_index",
        "vague_description",
        "oversized_index",
        "stale_project",
    }
    with pytest.raises(TypeError):
        demo.DEMO_QUIRKS["new"] = demo.DemoQuirk(("x",), "y")  # type: ignore[index]


def test_quirk_relative_date_only_in_its_project_memory(built: Path) -> None:
    (path,) = demo.DEMO_QUIRKS["relative_date"].paths
    relative = re.compile(
        r"\b(next|last|this) (monday|tuesday|wednesday|thursday|friday|week|month)\b|"
        r"\btomorrow\b|\byesterday\b",
        re.I,
    )
    assert relative.search((built / path).read_text(encoding="utf-8"))
    for mem in demo.demo_memories(NOW_MS):
        if mem.type is MemoryType.PROJECT and mem.path != path:
            assert not relative.search(mem.body + mem.description), mem.path


def test_quirk_derivable_content_names_a_file_and_line(built: Path) -> None:
    (path,) = demo.DEMO_QUIRKS["derivable_content"].paths
    assert re.search(r"\b[\w/]+\.py:\d+\b", (built / path).read_text(encoding="utf-8"))


def test_quirk_near_duplicates_are_close_in_wording(built: Path) -> None:
    from rapidfuzz import fuzz

    a, b = (read_frontmatter(built / p) for p in demo.DEMO_QUIRKS["near_duplicate"].paths)
    assert a.type == b.type and a.description and b.description
    assert fuzz.token_set_ratio(a.description, b.description) >= 85
    assert all("/" not in p for p in demo.DEMO_QUIRKS["near_duplicate"].paths)  # same scope


def test_quirk_dangling_index_entry_points_at_a_missing_file(built: Path) -> None:
    index_rel, missing = demo.DEMO_QUIRKS["dangling_index_entry"].paths
    targets = _index_targets(built / index_rel)
    assert missing in targets and not (built / missing).exists()
    dangling = [t for t in targets if not (built / t).exists()]
    assert dangling == [missing]


def test_quirk_missing_from_index_is_the_only_unindexed_private_file(built: Path) -> None:
    (path,) = demo.DEMO_QUIRKS["missing_from_index"].paths
    assert (built / path).is_file()
    targets = set(_index_targets(built / "MEMORY.md"))
    private_files = {p.name for p in built.glob("*.md") if p.name != "MEMORY.md"}
    assert private_files - targets == {path}


def test_quirk_vague_description_is_vague(built: Path) -> None:
    (path,) = demo.DEMO_QUIRKS["vague_description"].paths
    assert read_frontmatter(built / path).description == "misc notes"


def test_quirk_oversized_and_stale_entries_point_at_real_cases(built: Path) -> None:
    (index_rel,) = demo.DEMO_QUIRKS["oversized_index"].paths
    assert truncate_entrypoint_content(
        (built / index_rel).read_text(encoding="utf-8")
    ).was_byte_truncated
    (stale,) = demo.DEMO_QUIRKS["stale_project"].paths
    fm = read_frontmatter(built / stale)
    assert fm.type is MemoryType.PROJECT
    mtime_ms = (built / stale).stat().st_mtime_ns / 1e6
    assert memory_age_days(mtime_ms, NOW_MS) > 365


def test_quirk_paths_exist_except_the_dangling_target(built: Path) -> None:
    dangling = demo.DEMO_QUIRKS["dangling_index_entry"].paths[1]
    for name, quirk in demo.DEMO_QUIRKS.items():
        assert quirk.what, name
        for p in quirk.paths:
            assert (built / p).is_file() or p == dangling, (name, p)


def test_demo_queries_recall_their_target_with_the_offline_selector(built: Path) -> None:
    from memdir_nb.recall import LexicalSelector, find_relevant_memories

    assert len(demo.DEMO_QUERIES) >= 4
    for query, expected in demo.DEMO_QUERIES.items():
        assert (built / expected).is_file(), expected
        found = find_relevant_memories(query, built, selector=LexicalSelector(), now_ms=NOW_MS)
        paths = [Path(r.path).relative_to(built).as_posix() for r in found]
        assert expected in paths, (query, paths)


@pytest.mark.parametrize(
    "bad", [float("nan"), float("inf"), "1774708200000", True, 1e20, 1e300, -1e15]
)
def test_bad_clock_is_refused_before_anything_is_written(tmp_path: Path, bad: object) -> None:
    # attack round 11 added the times no file can be given (past 2262, before 1970): 1e300
    # raised OverflowError from the date code, 1e20 EOVERFLOW from utime after the first files
    with pytest.raises(ValueError, match="now_ms .*(finite|milliseconds since the epoch)"):
        demo.build_demo_memory_dir(tmp_path / "memory", now_ms=bad)  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


def test_notebook_dir_prefers_the_parameter_then_the_env_then_a_fresh_demo(tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.ui.demo import notebook_memory_dir

    chosen = tmp_path / "chosen"
    chosen.mkdir()
    from_env = tmp_path / "from_env"
    from_env.mkdir()
    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, demo_dir=str(from_env))
    assert notebook_memory_dir(chosen, config=config) == chosen.resolve()
    assert notebook_memory_dir(None, config=config) == from_env.resolve()
    fresh = notebook_memory_dir(None, config=MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path))
    assert (fresh / ".memdir-nb-demo").is_file() and (fresh / "MEMORY.md").is_file()


def test_notebook_dir_names_the_source_of_a_missing_dir(tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.ui.demo import DemoDirError, notebook_memory_dir

    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, demo_dir=str(tmp_path / "gone"))
    with pytest.raises(DemoDirError, match="MEMDIR_NB_DIR"):
        notebook_memory_dir(None, config=config)


@pytest.mark.parametrize(
    ("make", "said"),
    [
        ("missing", "does not exist; point it at a memory dir"),
        ("file", "is a regular file, not a directory; point it at a memory dir"),
        ("under-file", "is not a directory: {tmp}/f is a regular file; point it"),
        ("relative", "does not exist (a relative path is taken from the kernel's folder, {tmp})"),
    ],
)
def test_a_notebook_dir_that_is_no_folder_says_what_is_there_and_the_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: str, said: str
) -> None:
    # fresh29: missing, a file and a relative name were all "is not a directory"
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.ui.demo import DemoDirError, notebook_memory_dir

    monkeypatch.chdir(tmp_path)
    (tmp_path / "f").write_text("x", encoding="utf-8")
    value = {"missing": f"{tmp_path}/gone", "file": f"{tmp_path}/f"}.get(make)
    value = value or {"under-file": f"{tmp_path}/f/memory", "relative": "memory"}[make]
    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, demo_dir=value)
    with pytest.raises(DemoDirError) as raised:
        notebook_memory_dir(None, config=config)
    assert str(raised.value).startswith(f"{value} (from MEMDIR_NB_DIR) ")
    assert said.format(tmp=tmp_path) in str(raised.value)
    assert str(raised.value).endswith("or unset it to use the bundled demo")


def test_notebook_dir_too_long_for_the_filesystem_is_named_with_the_fix(tmp_path: Path) -> None:
    # attack round 13: a name past the filesystem's limit raised pathlib's bare OSError
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.ui.demo import DemoDirError, notebook_memory_dir

    long_name = str(tmp_path / ("d" * 300))
    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, demo_dir=long_name)
    with pytest.raises(DemoDirError, match=r"MEMDIR_NB_DIR\) cannot be opened .*unset it"):
        notebook_memory_dir(None, config=config)
    with pytest.raises(DemoDirError, match="parameters cell"):
        notebook_memory_dir(long_name, config=config)


# --------------------------------------------------------------------------- the demo Claude home (branch doctor)


def test_demo_claude_home_seeds_the_problems_doctor_explains(tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.reports.doctor import diagnose
    from memdir_nb.ui.demo import build_demo_claude_home

    d = build_demo_claude_home(tmp_path / "demo-home", now_ms=1_790_000_000_000.0)
    config = MemdirConfig.from_environment(
        {}, home=d.home, cwd=d.project, policy_settings_path=d.policy_settings
    )
    report = diagnose(config)
    assert report.where.memory_dir.rstrip("/") == str(d.memory_dir)
    codes = {f.code for f in report.findings}
    assert {"auto-memory-disabled", "dir-setting-ignored", "index-past-caps"} <= codes
    assert report.exit_code == 1


def test_demo_claude_home_refuses_a_folder_with_files(tmp_path: Path) -> None:
    import pytest

    from memdir_nb.ui.demo import DemoDirError, build_demo_claude_home

    (tmp_path / "keep.txt").write_text("x")
    with pytest.raises(DemoDirError, match="not an empty directory"):
        build_demo_claude_home(tmp_path)


def test_the_bundled_sample_session_is_what_the_sample_builder_writes(tmp_path: Path) -> None:
    bundled = Path(__file__).resolve().parents[2] / "notebooks" / "data" / "sample_claude_home"
    built = build_demo_session(tmp_path / "claude").claude_home
    files = sorted(p.relative_to(built) for p in built.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(bundled) for p in bundled.rglob("*") if p.is_file())
    for rel in files:
        assert (bundled / rel).read_bytes() == (built / rel).read_bytes(), rel


def test_the_sample_sessions_memory_files_get_fixed_times(tmp_path: Path) -> None:
    memory = build_demo_session(tmp_path / "claude").memory_dir
    assert (memory / "user_role.md").stat().st_mtime == 1770717600.0  # 2026-02-10T10:00:00Z


def test_a_notebook_that_opens_its_dir_prints_escape_sequences_as_text(tmp_path: Path) -> None:
    # attack round 13: JupyterLab renders colour codes and a carriage return in printed output,
    # so a memory's text could hide or overwrite a line of what a notebook prints about it
    nbformat = pytest.importorskip("nbformat")
    pytest.importorskip("nbclient")
    memory_dir = tmp_path / "memory"
    memory_dir.mkdir()
    opens = f"from memdir_nb.ui.demo import notebook_memory_dir\nnotebook_memory_dir({str(memory_dir)!r})"
    prints = "import sys\nprint('name \\x1b[31mred\\rover')\nprint('\\x1b]0;title\\x07', file=sys.stderr)"
    nb = nbformat.v4.new_notebook(
        cells=[nbformat.v4.new_code_cell(opens), nbformat.v4.new_code_cell(prints)]
    )
    execute_notebook(nb, timeout=60)
    printed = "".join(o.get("text", "") for o in nb.cells[1].outputs)
    assert "\x1b" not in printed and "\r" not in printed
    assert "name \\x1b[31mred\\x0dover" in printed and "\\x1b]0;title\\x07" in printed


def _demo_modes_under_umask(target: Path, umask: int, *, overwrite: bool = False) -> dict[str, int]:
    """Build the demo at target in a forked child under umask; the mode of every entry by path."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # child: never returns into pytest
        code = 1
        try:
            os.close(read_end)
            os.umask(umask)
            root = demo.build_demo_memory_dir(target, now_ms=NOW_MS, overwrite=overwrite)
            modes = {
                str(p.relative_to(root)): stat.S_IMODE(os.lstat(p).st_mode)
                for p in [root, *root.rglob("*")]
            }
            with os.fdopen(write_end, "w") as out:
                json.dump(modes, out)
            code = 0
        finally:
            os._exit(code)
    os.close(write_end)
    with os.fdopen(read_end) as got:
        text = got.read()
    _, status = os.waitpid(pid, 0)
    assert os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0, "the demo build failed"
    return {path: int(mode) for path, mode in json.loads(text).items()}


@pytest.mark.parametrize("overwrite", [False, True])
def test_the_demo_has_the_stores_modes_whatever_the_umask_and_never_more_open(
    tmp_path: Path, overwrite: bool
) -> None:
    # Under umask 002 logs/ (made by the daily-log writer) was 0755 and its log 0644 while the
    # builder's own folders were 0775 and files 0664; under 077 the dir itself was forced 0755.
    def kinds(modes: dict[str, int], folder: int, file: int) -> None:
        for rel, mode in modes.items():
            want = folder if (tmp_path / "d" / rel).is_dir() else file
            assert mode == want, f"{rel} is {oct(mode)}, want {oct(want)}"

    if overwrite:
        demo.build_demo_memory_dir(tmp_path / "d", now_ms=NOW_MS)
    usual = _demo_modes_under_umask(tmp_path / "d", 0o022, overwrite=overwrite)
    assert "logs" in usual and "team" in usual and "." in usual
    kinds(usual, 0o755, 0o644)
    shared = _demo_modes_under_umask(tmp_path / "d", 0o002, overwrite=True)
    assert shared == usual  # what a notebook could show is the same under either umask
    private = _demo_modes_under_umask(tmp_path / "d", 0o077, overwrite=True)
    assert private.keys() == usual.keys()
    kinds(private, 0o700, 0o600)
