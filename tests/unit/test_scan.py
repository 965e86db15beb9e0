"""Rules of memdir_nb.storage.scan: what is a memory file, order, cap, symlink containment, manifest."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.formats.frontmatter_render import render_memory_file
from memdir_nb.formats.manifest import MemoryHeader, format_memory_manifest, iso_timestamp
from memdir_nb.spec.constants import MAX_MEMORY_FILES
from memdir_nb.spec.taxonomy import MemoryType
from memdir_nb.storage.scan import ScanCache, scan_memory_dir, scan_memory_files
from tests.conftest import flat_memory, nested_memory
from tests.support.nobody import as_nobody

BASE_S = 1_774_693_800  # 2026-03-28T10:30:00Z


def memory(
    root: Path,
    rel: str,
    *,
    age_s: int = 0,
    name: str | None = None,
    type_: str = "project",
    description: str | None = None,
) -> Path:
    """Write a memory file at root/rel with an mtime age_s seconds before BASE_S."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    stem = Path(rel).stem
    path.write_text(render_memory_file(name or stem, description or f"about {stem}", type_, "body"))
    os.utime(path, (BASE_S - age_s, BASE_S - age_s))
    return path


def names(headers: list[MemoryHeader]) -> list[str]:
    return [h.filename for h in headers]


# ---------------------------------------------------------------- what counts as a memory


def test_missing_dir_returns_empty_list(tmp_path: Path) -> None:
    assert scan_memory_files(tmp_path / "nope") == []
    report = scan_memory_dir(tmp_path / "nope")
    assert report.headers == [] and report.skipped == [] and report.total_found == 0


def test_path_that_is_a_file_gives_empty_report_with_reason(tmp_path: Path) -> None:
    (tmp_path / "f").write_text("x")
    report = scan_memory_dir(tmp_path / "f")
    assert report.headers == []
    assert report.skipped and "cannot list" in report.skipped[0].reason


def test_scan_is_recursive_and_uses_relative_slash_paths(tmp_path: Path) -> None:
    memory(tmp_path, "a.md", age_s=1)
    memory(tmp_path, "team/b.md", age_s=2)
    memory(tmp_path, "topics/deep/c.md", age_s=3)
    headers = scan_memory_files(tmp_path)
    assert names(headers) == ["a.md", "team/b.md", "topics/deep/c.md"]
    assert headers[1].file_path == str(tmp_path / "team" / "b.md")


def test_memory_md_is_excluded_at_every_level(tmp_path: Path) -> None:
    memory(tmp_path, "a.md")
    (tmp_path / "MEMORY.md").write_text("- [a](a.md) — x\n")
    (tmp_path / "team").mkdir()
    (tmp_path / "team" / "MEMORY.md").write_text("- [b](b.md) — y\n")
    assert names(scan_memory_files(tmp_path)) == ["a.md"]


def test_non_markdown_files_are_ignored(tmp_path: Path) -> None:
    memory(tmp_path, "a.md")
    (tmp_path / "notes.txt").write_text("x")
    (tmp_path / "a.md.bak").write_text("x")
    (tmp_path / "upper.MD").write_text("x")
    assert names(scan_memory_files(tmp_path)) == ["a.md"]


def test_dot_folders_and_dot_files_are_skipped(tmp_path: Path) -> None:
    memory(tmp_path, "a.md")
    memory(tmp_path, ".trash/old.md")
    memory(tmp_path, ".git/x.md")
    memory(tmp_path, "team/.trash/t.md")
    memory(tmp_path, ".a.md.tmp.md")
    assert names(scan_memory_files(tmp_path)) == ["a.md"]


def test_top_level_logs_folder_is_skipped_but_nested_logs_is_not(tmp_path: Path) -> None:
    memory(tmp_path, "a.md", age_s=1)
    memory(tmp_path, "logs/2026/03/2026-03-28.md")
    memory(tmp_path, "topics/logs/b.md", age_s=2)
    assert names(scan_memory_files(tmp_path)) == ["a.md", "topics/logs/b.md"]


def test_headers_carry_frontmatter_and_file_mtime(tmp_path: Path) -> None:
    path = memory(
        tmp_path, "feedback_x.md", name="Terse replies", type_="feedback", description="No recap"
    )
    os.utime(path, ns=(BASE_S * 10**9 + 123_456_789, BASE_S * 10**9 + 123_456_789))
    (h,) = scan_memory_files(tmp_path)
    assert (h.name, h.description, h.type, h.malformed) == (
        "Terse replies",
        "No recap",
        MemoryType.FEEDBACK,
        False,
    )
    assert h.mtime_ms == pytest.approx(BASE_S * 1000 + 123.456789)


def test_file_without_frontmatter_is_listed_with_empty_fields(tmp_path: Path) -> None:
    (tmp_path / "plain.md").write_text("just text\n")
    (tmp_path / "broken.md").write_text("---\ndescription: steps: a, b\n---\n")
    by_name = {h.filename: h for h in scan_memory_files(tmp_path)}
    assert by_name["plain.md"].name is None and by_name["plain.md"].type is None
    assert by_name["broken.md"].malformed and by_name["broken.md"].description == "steps: a, b"


# ---------------------------------------------------------------- order and cap


def test_newest_first(tmp_path: Path) -> None:
    memory(tmp_path, "old.md", age_s=300)
    memory(tmp_path, "new.md", age_s=1)
    memory(tmp_path, "mid.md", age_s=100)
    assert names(scan_memory_files(tmp_path)) == ["new.md", "mid.md", "old.md"]


def test_equal_mtimes_are_ordered_by_filename(tmp_path: Path) -> None:
    for rel in ["c.md", "a.md", "team/b.md", "b.md"]:
        memory(tmp_path, rel, age_s=5)
    assert names(scan_memory_files(tmp_path)) == ["a.md", "b.md", "c.md", "team/b.md"]


def test_cap_keeps_the_200_newest(tmp_path: Path) -> None:
    for i in range(MAX_MEMORY_FILES + 5):
        memory(tmp_path, f"m{i:03d}.md", age_s=i)
    report = scan_memory_dir(tmp_path)
    assert len(report.headers) == MAX_MEMORY_FILES
    assert report.total_found == MAX_MEMORY_FILES + 5
    assert report.headers[0].filename == "m000.md"
    assert report.headers[-1].filename == f"m{MAX_MEMORY_FILES - 1:03d}.md"


def test_limit_can_be_lowered_or_lifted(tmp_path: Path) -> None:
    for i in range(5):
        memory(tmp_path, f"m{i}.md", age_s=i)
    assert names(scan_memory_files(tmp_path, limit=2)) == ["m0.md", "m1.md"]
    assert len(scan_memory_files(tmp_path, limit=None)) == 5
    with pytest.raises(ValueError, match="limit must be 0 or more"):
        scan_memory_files(tmp_path, limit=-1)


# ---------------------------------------------------------------- symlinks


def test_symlinked_file_outside_the_dir_is_skipped(tmp_path: Path) -> None:
    mem, outside = tmp_path / "memory", tmp_path / "secret"
    memory(mem, "a.md")
    target = memory(outside, "ssh_key.md", name="SECRET NAME")
    os.symlink(target, mem / "planted.md")
    report = scan_memory_dir(mem)
    assert names(report.headers) == ["a.md"]
    assert [(s.path, s.reason) for s in report.skipped] == [
        ("planted.md", "symlink leaves the memory dir")
    ]
    assert "SECRET" not in format_memory_manifest(report.headers)


def test_relative_symlink_escaping_with_dotdot_is_skipped(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    memory(tmp_path, "outside.md")
    memory(mem, "a.md")
    os.symlink("../outside.md", mem / "rel.md")
    report = scan_memory_dir(mem)
    assert names(report.headers) == ["a.md"]
    assert report.skipped[0].reason == "symlink leaves the memory dir"


def test_symlinked_file_inside_the_dir_is_read(tmp_path: Path) -> None:
    memory(tmp_path, "topics/real.md", name="Real one", age_s=10)
    os.symlink("topics/real.md", tmp_path / "alias.md")
    report = scan_memory_dir(tmp_path)
    by_name = {h.filename: h for h in report.headers}
    assert by_name["alias.md"].name == "Real one"
    assert by_name["alias.md"].file_path == str(tmp_path / "alias.md")
    assert report.skipped == []


def test_symlinked_folder_is_not_followed(tmp_path: Path) -> None:
    mem, outside = tmp_path / "memory", tmp_path / "other_project"
    memory(mem, "a.md")
    memory(outside, "b.md")
    memory(mem, "inner/c.md")
    os.symlink(outside, mem / "linked")
    os.symlink(mem / "inner", mem / "inner_again")  # even one pointing inside
    report = scan_memory_dir(mem)
    assert names(report.headers) == ["a.md", "inner/c.md"]
    assert {(s.path, s.reason) for s in report.skipped} == {
        ("linked", "symlinked folder is not followed"),
        ("inner_again", "symlinked folder is not followed"),
    }


@pytest.mark.timeout(30)
def test_symlink_loops_do_not_hang(tmp_path: Path) -> None:
    memory(tmp_path, "a.md")
    os.symlink("self.md", tmp_path / "self.md")
    os.symlink("pong.md", tmp_path / "ping.md")
    os.symlink("ping.md", tmp_path / "pong.md")
    (tmp_path / "sub").mkdir()
    os.symlink("..", tmp_path / "sub" / "up")
    os.symlink(tmp_path, tmp_path / "sub" / "root")
    report = scan_memory_dir(tmp_path)
    assert names(report.headers) == ["a.md"]
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["self.md"] == reasons["ping.md"] == reasons["pong.md"] == "symlink loop"
    assert reasons["sub/up"] == reasons["sub/root"] == "symlinked folder is not followed"


def test_dangling_symlink_is_reported(tmp_path: Path) -> None:
    memory(tmp_path, "a.md")
    os.symlink(tmp_path / "gone.md", tmp_path / "dangling.md")
    report = scan_memory_dir(tmp_path)
    assert names(report.headers) == ["a.md"]
    assert [(s.path, s.reason) for s in report.skipped] == [("dangling.md", "dangling symlink")]


def test_memory_dir_reached_through_a_symlink_still_works(tmp_path: Path) -> None:
    real = tmp_path / "real_memory"
    memory(real, "a.md", age_s=2)
    memory(real, "b.md", age_s=1)
    os.symlink("b.md", real / "alias.md")
    os.symlink(real, tmp_path / "link_to_memory")
    report = scan_memory_dir(tmp_path / "link_to_memory")
    assert names(report.headers) == ["alias.md", "b.md", "a.md"]
    assert report.skipped == []


# ---------------------------------------------------------------- unreadable files (as another user)


def scan_as_unprivileged(memory_dir: Path, limit: int = MAX_MEMORY_FILES) -> dict[str, Any]:
    """Run scan_memory_dir in a forked child that has dropped to uid/gid 65534 (nobody)."""

    def scan() -> bytes:
        report = scan_memory_dir(memory_dir, limit=limit)
        payload = {
            "headers": [h.filename for h in report.headers],
            "skipped": [[s.path, s.reason] for s in report.skipped],
            "total": report.total_found,
        }
        return json.dumps(payload).encode()

    result: dict[str, Any] = json.loads(as_nobody(scan))
    return result


def make_unreadable(path: Path) -> None:
    path.chmod(0o000)


def test_unreadable_file_is_skipped_not_raised(shared_dir: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to drop to another uid; as non-root the chmod test below covers it")
    mem = shared_dir / "memory"
    for rel in ("a.md", "locked.md", "team/b.md"):
        memory(mem, rel, age_s=len(rel))
    for folder in (mem, mem / "team"):
        folder.chmod(0o755)
    for p in mem.rglob("*.md"):
        p.chmod(0o644)
    make_unreadable(mem / "locked.md")
    (mem / "closed").mkdir()
    memory(mem, "closed/hidden.md")
    (mem / "closed").chmod(0o000)
    result = scan_as_unprivileged(mem)
    assert result["headers"] == ["a.md", "team/b.md"]
    assert ["locked.md", "unreadable: PermissionError"] in result["skipped"]
    assert ["closed", "unreadable folder: PermissionError"] in result["skipped"]


def test_unreadable_file_does_not_shrink_a_capped_scan(shared_dir: Path) -> None:
    if os.geteuid() != 0:
        pytest.skip("needs root to drop to another uid")
    mem = shared_dir / "memory"
    for i in range(4):
        memory(mem, f"m{i}.md", age_s=i).chmod(0o644)
    mem.chmod(0o755)
    make_unreadable(mem / "m0.md")
    result = scan_as_unprivileged(mem, limit=3)
    assert result["headers"] == ["m1.md", "m2.md", "m3.md"]
    assert result["total"] == 4


def test_unreadable_file_skipped_when_not_root(tmp_path: Path) -> None:
    if os.geteuid() == 0:
        pytest.skip(
            "root reads chmod-000 files; the forked unprivileged tests above cover this case"
        )
    memory(tmp_path, "a.md")
    make_unreadable(memory(tmp_path, "locked.md"))
    report = scan_memory_dir(tmp_path)
    assert names(report.headers) == ["a.md"]
    assert report.skipped[0].reason == "unreadable: PermissionError"


# ---------------------------------------------------------------- manifest


def test_iso_timestamp_matches_javascript_to_iso_string() -> None:
    assert iso_timestamp(BASE_S * 1000) == "2026-03-28T10:30:00.000Z"
    assert (
        iso_timestamp(BASE_S * 1000 + 123.9) == "2026-03-28T10:30:00.123Z"
    )  # truncated, not rounded
    assert iso_timestamp(0) == "1970-01-01T00:00:00.000Z"
    assert iso_timestamp(-1) == "1969-12-31T23:59:59.999Z"


def test_manifest_line_format(tmp_path: Path) -> None:
    headers = [
        MemoryHeader(
            "feedback_tests.md",
            "/m/feedback_tests.md",
            BASE_S * 1000.0,
            "T",
            "Real DB in tests",
            MemoryType.FEEDBACK,
        ),
        MemoryHeader(
            "team/odd.md", "/m/team/odd.md", BASE_S * 1000.0 - 1, None, "no type here", None
        ),
        MemoryHeader("bare.md", "/m/bare.md", 0.0, None, None, MemoryType.USER),
        MemoryHeader("multi.md", "/m/multi.md", 0.0, None, "line one\nline two", None),
    ]
    assert format_memory_manifest(headers).split("\n") == [
        "- [feedback] feedback_tests.md (2026-03-28T10:30:00.000Z): Real DB in tests",
        "- team/odd.md (2026-03-28T10:29:59.999Z): no type here",
        "- [user] bare.md (1970-01-01T00:00:00.000Z)",
        "- multi.md (1970-01-01T00:00:00.000Z): line one line two",
    ]


def test_manifest_of_a_scan(tmp_path: Path) -> None:
    memory(
        tmp_path, "reference_linear.md", type_="reference", description="Bugs live in Linear INGEST"
    )
    assert format_memory_manifest(scan_memory_files(tmp_path)) == (
        "- [reference] reference_linear.md (2026-03-28T10:30:00.000Z): Bugs live in Linear INGEST"
    )


def test_manifest_of_nothing_is_empty() -> None:
    assert format_memory_manifest([]) == ""


# ---- one read per file: the listing and the header derived from a whole-file read


def _odd_headers(root: Path) -> None:
    """Files whose header a whole read and an 8 KB header read could see differently."""
    (root / "sub").mkdir(parents=True)
    (root / "plain.md").write_text("---\nname: Plain\ndescription: d\ntype: user\n---\nbody\n")
    (root / "crlf.md").write_bytes(
        b"\xef\xbb\xbf---\r\nname: Crlf\r\ntype: project\r\n---\r\nx\r\n"
    )
    (root / "bad-utf8.md").write_bytes(b"---\nname: Bad \xff byte\ntype: user\n---\nbody\n")
    long_value = "v" * 9000  # the header runs past the 8 KB a scan reads
    (root / "long.md").write_text(f"---\nname: Long\ndescription: {long_value}\ntype: user\n---\n")
    (root / "exact.md").write_bytes(b"---\nname: E\n---\n" + b"x" * (8192 - 16))
    (root / "sub" / "yaml.md").write_text("---\nname: Y\ntags: [a, b]\ntype: reference\n---\n")
    (root / "none.md").write_text("no header at all\n")


def test_listing_finds_what_a_scan_reads_without_opening_a_file(tmp_path: Path) -> None:
    from memdir_nb.storage.scan import list_memory_files

    _odd_headers(tmp_path)
    os.mkfifo(tmp_path / "fifo.md")
    listing = list_memory_files(tmp_path)
    report = scan_memory_dir(tmp_path, limit=None)
    assert [f.rel for f in listing.files] == [h.filename for h in report.headers]
    assert listing.skipped == report.skipped  # the FIFO, with the scan's reason
    assert {f.scope for f in listing.files} == {"private"}


def test_header_from_a_whole_read_is_the_header_a_scan_reads(tmp_path: Path) -> None:
    from memdir_nb.formats.frontmatter import normalise_newlines, parse_frontmatter
    from memdir_nb.storage.access import ContainedReader
    from memdir_nb.storage.headers import header_from_read, read_header

    _odd_headers(tmp_path)
    with ContainedReader(tmp_path) as reader:
        for h in scan_memory_dir(tmp_path, limit=None).headers:
            res = reader.read(h.filename, 256 * 1024)
            parsed, _ = parse_frontmatter(normalise_newlines(res.text))
            for reuse in (parsed, None):
                fm = header_from_read(res, reuse)
                expected, _ = read_header(tmp_path / h.filename, root=tmp_path)
                got = (fm.name, fm.description, fm.type, fm.malformed)
                assert got == (
                    expected.name,
                    expected.description,
                    expected.type,
                    expected.malformed,
                ), h.filename


# ---- the memory's time: `modified:` when present and valid, else the file's mtime


def _dated(path: Path, modified: str | None, mtime_s: float) -> None:
    extra = f"modified: {modified}\n" if modified else ""
    path.write_text(f"---\nname: n\ndescription: {path.stem}\ntype: user\n{extra}---\nb\n")
    os.utime(path, (mtime_s, mtime_s))


def test_a_restored_dir_is_dated_by_modified_not_by_the_restore(tmp_path: Path) -> None:
    restore_day = 1_790_000_000.0  # every file's mtime: the day of the restore
    _dated(tmp_path / "user_old.md", "2025-01-01T00:00:00.000Z", restore_day)
    _dated(tmp_path / "user_new.md", "2026-05-01T00:00:00.000Z", restore_day)
    _dated(tmp_path / "user_plain.md", None, restore_day - 10)
    headers = {h.filename: h for h in scan_memory_files(tmp_path)}
    old = headers["user_old.md"]
    assert old.mtime_ms == 1_735_689_600_000.0 and old.modified_ms == old.mtime_ms
    assert old.file_mtime_ms == restore_day * 1000 and old.times_disagree
    assert old.time_source == "modified"
    plain = headers["user_plain.md"]
    assert plain.mtime_ms == plain.file_mtime_ms and plain.modified_ms is None
    assert not plain.times_disagree and plain.time_source == "mtime"
    order = [h.filename for h in scan_memory_files(tmp_path)]
    assert order == ["user_plain.md", "user_new.md", "user_old.md"]
    assert "(2025-01-01T00:00:00.000Z)" in format_memory_manifest([old])


def test_an_invalid_modified_falls_back_to_the_mtime(tmp_path: Path) -> None:
    _dated(tmp_path / "user_x.md", "last tuesday", 1_790_000_000.0)
    (h,) = scan_memory_files(tmp_path)
    assert h.mtime_ms == 1_790_000_000_000.0 and h.modified_ms is None


def test_the_scan_cache_keeps_the_modified_time(tmp_path: Path) -> None:
    _dated(tmp_path / "user_old.md", "2025-01-01T00:00:00.000Z", 1_700_000_000.0)
    cache = ScanCache()
    first = scan_memory_dir(tmp_path, cache=cache).headers
    again = scan_memory_dir(tmp_path, cache=cache).headers
    assert first == again and again[0].modified_ms == 1_735_689_600_000.0


_PLAIN_HEADERS = {
    "user_plain.md": flat_memory("Plain", "One plain line", "user", "body"),
    "project_nested.md": nested_memory(
        "Nested", "Type under metadata", "project", "body", session=str(uuid.UUID(int=7))
    ),
    "reference_tags.md": "---\nname: Tags\ndescription: d\ntype: reference\ntags: [ci, deploy]\n---\n",
    "feedback_colon.md": "---\nname: Colon\ndescription: Steps: run it\ntype: feedback\n---\n",
}
_WHO_IMPORTED_YAML = (
    "import sys\n"
    "from memdir_nb.storage.scan import scan_memory_files\n"
    "headers = scan_memory_files(sys.argv[1])\n"
    "print(len(headers), 'yaml' in sys.modules)\n"
)


@pytest.mark.parametrize(("extra", "imports_yaml"), [(None, False), ("count: 12", True)])
def test_a_scan_imports_pyyaml_only_for_a_header_that_needs_it(
    tmp_path: Path, extra: str | None, imports_yaml: bool
) -> None:
    for name, text in _PLAIN_HEADERS.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    if extra is not None:  # a value YAML types: only YAML can read this header
        (tmp_path / "user_typed.md").write_text(f"---\nname: Typed\ntype: user\n{extra}\n---\n")
    out = subprocess.run(
        [sys.executable, "-c", _WHO_IMPORTED_YAML, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    count = len(_PLAIN_HEADERS) + (extra is not None)
    assert out.stdout.split() == [str(count), str(imports_yaml)]


def test_hand_written_headers_from_published_dirs_read_as_yaml_reads_them(
    real_dir: Callable[[str], Path],
) -> None:
    headers = {h.filename: h for h in scan_memory_files(real_dir("hand-written-headers"))}
    assert headers["project_release_fix.md"].description == (
        "2026-05-04 fix for the flaky login test in the release pipeline"
    )
    merge = headers["feedback_merge_steps.md"]
    assert merge.malformed and merge.type is MemoryType.FEEDBACK
    assert merge.description == "Before merging: run the linters, then the whole test suite"
    assert headers["reference_dump_bucket.md"].description == (
        'The "staging" bucket keeps nightly dumps'
    )
    roadmap = headers["project_roadmap.md"]
    assert (roadmap.type, roadmap.malformed) == (MemoryType.PROJECT, False)
    assert headers["user_reading_list.md"].type is MemoryType.USER
    assert (
        headers["feedback_windows_notes.md"].description == "Paths on the build box use backslashes"
    )
    assert headers["reference_bom.md"].type is MemoryType.REFERENCE
    assert headers["project_workflow.md"].type is None  # not one of the four types
    assert headers["scratch_notes.md"].description is None
    clean = set(headers) - {"feedback_merge_steps.md"}
    assert not any(headers[name].malformed for name in clean)


def test_a_folder_past_the_systems_path_limit_is_skipped_naming_the_limit_and_the_fix(
    tmp_path: Path,
) -> None:
    # within the depth cap, 17 folders of 250 bytes take a path past PATH_MAX: the walk's
    # listing of the deepest one fails with ENAMETOOLONG, which read "unreadable folder:
    # OSError" (polish31); made through descriptors, as no path can name it
    mem = tmp_path / "memory"
    memory(mem, "a.md")
    fd = os.open(mem, os.O_RDONLY)
    try:
        for _ in range(17):
            os.mkdir("x" * 250, dir_fd=fd)
            deeper = os.open("x" * 250, os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = deeper
        os.close(os.open("deep.md", os.O_WRONLY | os.O_CREAT, 0o644, dir_fd=fd))
    finally:
        os.close(fd)
    report = scan_memory_dir(mem)
    assert names(report.headers) == ["a.md"]
    (skip,) = report.skipped
    assert "OSError" not in skip.reason
    assert "longer than the system allows (4,095)" in skip.reason
    assert "move the memory dir nearer the root or give its folders shorter names" in skip.reason


def test_a_link_to_a_file_past_the_depth_cap_is_skipped_naming_the_cap_and_the_fix(
    tmp_path: Path,
) -> None:
    # the walk stops at 64 folders, but a symlinked file is read at its target: the contained
    # reader's depth check refused it with ENAMETOOLONG, and the skip read "unreadable:
    # OSError" (polish31b; fails on the code before it)
    mem = tmp_path / "memory"
    memory(mem, "a.md")
    deep = mem.joinpath(*["d"] * 65)
    deep.mkdir(parents=True)
    memory(deep, "user_deep.md")
    (mem / "user_link.md").symlink_to(deep.relative_to(mem) / "user_deep.md")
    report = scan_memory_dir(mem)
    assert names(report.headers) == ["a.md"]
    reasons = {s.path: s.reason for s in report.skipped}
    assert reasons["user_link.md"] == (
        "in a folder that is nested 65 folders deep, past the 64 any memory route goes into; "
        "move what is in it up"
    )
