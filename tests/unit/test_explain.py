from __future__ import annotations

import os
from pathlib import Path

import pytest

from memdir_nb import explain
from memdir_nb.demo import build_demo_memory_dir
from memdir_nb.index import MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES, format_index_entry
from memdir_nb.store import MemoryStore

NOW = 1_770_000_000_000.0
DAY = 86_400_000


@pytest.fixture
def mem(tmp_path: Path) -> Path:
    return build_demo_memory_dir(tmp_path / "mem", now_ms=NOW)


@pytest.mark.parametrize(
    "days,badge",
    [(0, "fresh"), (1, "fresh"), (2, "aging"), (89, "aging"), (90, "stale"), (400, "stale")],
)
def test_badge_follows_the_caveat_and_the_stale_threshold(days, badge):
    assert explain.freshness_badge(days) == badge


def test_rows_cover_every_memory_beyond_the_scan_cap(tmp_path):
    store = MemoryStore(tmp_path / "big", now_ms=NOW)
    for i in range(205):
        store.save(f"Note {i}", f"note number {i}", "reference", "x")
    assert len(explain.memory_rows(tmp_path / "big", now_ms=NOW)) == 205


def test_rows_carry_the_index_line_of_their_scope(mem):
    rows = {r.filename: r for r in explain.memory_rows(mem, now_ms=NOW)}
    assert rows["team/reference_oncall.md"].index_line.startswith(
        "- [Who is on call](reference_oncall.md)"
    )
    assert rows["user_colour_vision.md"].index_line is None
    assert rows["team/reference_release_steps.md"].malformed


def test_progress_reports_each_row(mem):
    seen = []
    explain.memory_rows(mem, now_ms=NOW, progress=lambda done, total: seen.append((done, total)))
    assert seen[0] == (1, 40) and seen[-1] == (40, 40)


def test_filter_rows_combines_filters(mem):
    rows = explain.memory_rows(mem, now_ms=NOW)
    out = explain.filter_rows(rows, types=["project"], scope="team", badge="stale")
    assert {r.filename for r in out} == {
        "team/project_availability_okr.md",
        "team/project_grib_decoder.md",
        "team/project_v1_sunset.md",
    }
    assert explain.filter_rows(rows, max_age_days=1, min_age_days=1) == [
        r for r in rows if r.age_days == 1
    ]


def test_memory_detail_reads_at_most_the_preview_cap(tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    (d / "huge.md").write_text(
        "---\nname: Huge\ndescription: big\ntype: reference\n---\n"
        + "y" * (explain.MAX_PREVIEW_BYTES * 2)
    )
    row = explain.memory_rows(tmp_path / "m", now_ms=NOW)[0]
    d = explain.memory_detail(row, now_ms=NOW)
    assert d.truncated and len(d.text.encode()) == explain.MAX_PREVIEW_BYTES


def test_compose_body_adds_why_and_how_only_for_types_that_need_them():
    assert (
        explain.compose_body("feedback", "Rule.", "Because.", "Always.")
        == "Rule.\n\n**Why:** Because.\n\n**How to apply:** Always."
    )
    assert explain.compose_body("reference", "Board x.", "ignored", "ignored") == "Board x."


def test_check_draft_reports_unknown_type_and_names_the_four(mem):
    c = explain.check_draft(mem, name="a", description="b", type="opinion", rule="c")
    assert c.errors == [
        "unknown memory type 'opinion': the type must be one of user, feedback, project, reference"
    ]
    assert c.preview_file == ""


def test_check_draft_warns_when_the_file_name_is_taken(mem):
    c = explain.check_draft(mem, name="Role at Isobar Labs", description="x", type="user", rule="y")
    assert c.relative_path == "user_role_at_isobar_labs.md"
    c2 = explain.check_draft(
        mem, name="Misc", description="x", type="reference", rule="y", scope="private"
    )
    assert any("reference_misc.md already exists" in w for w in c2.warnings)


def test_relative_dates_only_matter_for_project_memories(mem):
    base = dict(name="n", description="d", rule="Ship it tomorrow", why="w", how="h")
    assert any(
        "'tomorrow'" in e
        for e in explain.check_draft(mem, type="project", now_ms=NOW, **base).errors
    )
    assert explain.check_draft(mem, type="feedback", now_ms=NOW, **base).errors == []


def test_absolute_dates_are_computed_from_the_clock():
    # 2026-02-02T02:40Z: the local date is 02-01 or 02-02 depending on the zone; both map Thursday to 02-05
    assert explain.absolute_date_for("next Thursday", now_ms=NOW) == "2026-02-05"
    assert explain.absolute_date_for("in 2 weeks", now_ms=NOW) in ("2026-02-15", "2026-02-16")
    assert explain.absolute_date_for("next sprint", now_ms=NOW) is None
    assert explain.find_relative_dates("Due Thursday 2026-03-05.", now_ms=NOW) == []


def test_index_budget_maps_dropped_lines_back_to_file_lines(tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    lines = [
        format_index_entry(f"T{i}", f"f{i}.md", "hook") for i in range(MAX_ENTRYPOINT_LINES + 5)
    ]
    (d / "MEMORY.md").write_text("\n\n" + "\n".join(lines) + "\n")
    b = explain.index_budget(d, "private")
    assert b.was_line_truncated and not b.was_byte_truncated
    assert [x.line_no for x in b.dropped_lines] == [
        203,
        204,
        205,
        206,
        207,
    ]  # two leading blank lines
    assert b.dropped_lines[0].text == lines[200] and {x.reason for x in b.dropped_lines} == {
        "line cap"
    }


def test_index_budget_marks_a_single_line_cut_mid_line(tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    (d / "MEMORY.md").write_text("x" * (MAX_ENTRYPOINT_BYTES + 10))
    b = explain.index_budget(d)
    assert [(x.line_no, x.reason) for x in b.dropped_lines] == [(1, "byte cap (cut mid-line)")]
    assert b.byte_fraction > 1


def test_index_budget_rejects_an_unknown_scope(mem):
    with pytest.raises(ValueError, match="scope must be"):
        explain.index_budget(mem, "shared")  # type: ignore[arg-type]


def test_freshness_data_adds_a_row_for_untyped_memories(tmp_path):
    d = tmp_path / "m"
    d.mkdir()
    (d / "loose.md").write_text("no frontmatter here\n")
    os.utime(d / "loose.md", ns=(int((NOW - 400 * DAY) * 1e6),) * 2)
    data = explain.freshness_data(explain.memory_rows(d, now_ms=NOW))
    assert data.types[-1] == explain.UNTYPED
    assert data.counts[explain.UNTYPED][data.bins.index("over a year")] == 1
    assert data.stale == ["loose.md"]


def test_scope_rules_follow_the_taxonomy():
    rules = {r.type: r for r in explain.scope_rules()}
    assert rules["user"].default_scope == "private" and not rules["user"].allowed_in_team
    assert rules["reference"].default_scope == "team" and rules["project"].allowed_in_team


def test_promotion_verdict_lists_every_reason(mem):
    v = explain.promotion_verdict(mem, "team/reference_oncall.md")
    assert not v.allowed and v.reasons == ["it is already in team memory"]
    MemoryStore(mem, now_ms=NOW).save(
        "Oncall",
        "dup",
        "reference",
        "AKIAIOSFODNN7EXAMPLE is the key",
        filename="reference_oncall.md",
    )
    v = explain.promotion_verdict(mem, "reference_oncall.md")
    assert any("already exists" in r for r in v.reasons) and any("AWS" in r for r in v.reasons)


def test_check_team_key_stops_at_the_first_failure(tmp_path):
    steps = explain.check_team_key("a\\b.md", tmp_path / "team")
    assert [s.status for s in steps] == ["pass"] * 4 + ["fail"] + ["not reached"] * 6
    assert steps[4].rule == "backslash" and "Backslash" in steps[4].detail


def test_percent_encoded_null_byte_fails_the_decoding_step(tmp_path):
    steps = {s.step: s for s in explain.check_team_key("x%00.md", tmp_path / "team")}
    assert steps["null-byte"].status == "pass"
    assert steps["encoded"].status == "fail" and steps["encoded"].rule == "null-byte"


def test_check_team_key_writes_nothing(tmp_path):
    explain.check_team_key("deep/new/dirs/file.md", tmp_path / "team", run_all=True)
    assert list(tmp_path.iterdir()) == []


def test_plant_example_symlink_needs_a_symlink_example(tmp_path):
    plain = next(ex for ex in explain.ATTACK_EXAMPLES if ex.symlink is None)
    with pytest.raises(ValueError, match="needs no symlink"):
        explain.plant_example_symlink(tmp_path / "team", plain)
    assert not (tmp_path / "team").exists()


def test_plant_example_symlink_is_idempotent(tmp_path):
    ex = next(ex for ex in explain.ATTACK_EXAMPLES if ex.symlink and ex.symlink[1] == "outside")
    first = explain.plant_example_symlink(tmp_path / "mem" / "team", ex)
    assert explain.plant_example_symlink(tmp_path / "mem" / "team", ex) == first
    assert os.readlink(first) == str(tmp_path)


def test_request_json_carries_no_key_and_the_manifest(mem):
    from memdir_nb.scan import format_memory_manifest, scan_memory_files

    headers = scan_memory_files(mem)
    text = explain.request_json("deploy", headers, ["Bash"])
    assert format_memory_manifest(headers).replace("\n", "\\n")[:200] in text
    assert "api_key" not in text


def test_is_demo_dir(mem, tmp_path):
    assert explain.is_demo_dir(mem) and not explain.is_demo_dir(tmp_path)
