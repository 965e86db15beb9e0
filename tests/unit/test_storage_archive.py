"""storage/archive: memory that moves between machines, and what a crafted archive cannot do.

Every refusal is tested by both routes: the API (import_archive) and the command line
(`memdir-nb import`), with zips built here entry by entry.
"""

from __future__ import annotations

import difflib
import json
import os
import stat
import subprocess
import sys
import time
import tracemalloc
import zipfile
from pathlib import Path
from typing import Any, BinaryIO
from unittest import mock

import pytest

from memdir_nb.dream.apply import list_trash_batches, restore
from memdir_nb.formats.file_diff import DIFF_SHOWN_LINES, bounded_file_diff
from memdir_nb.lint import lint_memory_dir
from memdir_nb.spec.constants import (
    ARCHIVE_MANIFEST_NAME,
    ARCHIVE_MAX_ENTRIES,
    ARCHIVE_MAX_ENTRY_BYTES,
    ARCHIVE_MAX_TOTAL_BYTES,
    STORE_LOCK_NAME,
)
from memdir_nb.storage.archive import (
    ArchiveError,
    export_archive,
    import_archive,
)
from memdir_nb.storage.import_report import format_import_report
from memdir_nb.storage.rebuild import rebuild_index
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.settled_read import SETTLE_S
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.zip_directory import count_central_entries
from memdir_nb.ui.demo import DEMO_NOW_MS, build_demo_memory_dir
from tests.conftest import DeepFolders, build_folder_blocker
from tests.support.durability import record_fsyncs_and_renames

GOOD = "---\nname: Deploys\ndescription: How we deploy\ntype: reference\n---\n\nArgo CD.\n"
FAKE_KEY = "sk-ant-api03-" + "Zq9xW2vB7nR4tY6uI8oP1aS3dF5gH7jK9lM0" * 2


def _files(root: Path) -> dict[str, tuple[bytes, int]]:
    """Every non-hidden file: relative path -> (bytes, mtime_ns)."""
    out = {}
    for p in sorted(root.rglob("*")):
        rel = p.relative_to(root)
        if p.is_file() and not any(part.startswith(".") for part in rel.parts):
            out[rel.as_posix()] = (p.read_bytes(), p.stat().st_mtime_ns)
    return out


def _zip(path: Path, entries: list[tuple[zipfile.ZipInfo | str, bytes]]) -> Path:
    with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for info, data in entries:
            zf.writestr(info, data)
    return path


def _info(name: str, mode: int) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name)
    info.external_attr = mode << 16
    return info


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", *args], capture_output=True, text=True, timeout=120
    )


# ---- the round trip


def test_a_round_trip_is_identical_team_included_hidden_files_out(tmp_path: Path) -> None:
    src = build_demo_memory_dir(tmp_path / "a" / "memory", now_ms=DEMO_NOW_MS)
    MemoryStore(src, now_ms=DEMO_NOW_MS).save("Deploys", "How we deploy", "reference", "Argo.")
    assert (src / STORE_LOCK_NAME).exists() and (src / "team").is_dir()
    report = export_archive(src, tmp_path / "m.zip")
    assert any(f.startswith("team/") for f in report.files)
    assert not any(part.startswith(".") for f in report.files for part in f.split("/"))
    dst = tmp_path / "b" / "memory"
    result = import_archive(tmp_path / "m.zip", dst)
    assert result.ok and sorted(result.written) == sorted(report.files)
    assert _files(dst) == _files(src)
    again = import_archive(tmp_path / "m.zip", dst)
    assert again.written == [] and sorted(again.unchanged) == sorted(report.files)


def test_the_cli_round_trip_matches_the_api(tmp_path: Path) -> None:
    src = build_demo_memory_dir(tmp_path / "a" / "memory", now_ms=DEMO_NOW_MS)
    out = _cli("export", "--archive", str(tmp_path / "m.zip"), "--dir", str(src))
    assert out.returncode == 0 and "wrote" in out.stdout, out.stderr
    out = _cli("import", str(tmp_path / "m.zip"), "--dir", str(tmp_path / "b"))
    assert out.returncode == 0 and "0 conflicts, 0 refused" in out.stdout, out.stderr
    assert _files(tmp_path / "b") == _files(src)


def test_a_demo_dir_and_an_archive_with_long_valid_names_are_written(tmp_path: Path) -> None:
    # each wrote beside its name first, under `.` + the whole name + a suffix: a 246-byte demo
    # dir or a 250-byte archive name (valid) ended in "File name too long", naming the temp
    src = build_demo_memory_dir(tmp_path / ("d" * 246), now_ms=DEMO_NOW_MS)
    report = export_archive(src, tmp_path / ("a" * 246 + ".zip"))
    assert report.files and zipfile.is_zipfile(tmp_path / ("a" * 246 + ".zip"))
    assert sorted(p.name[:1] for p in tmp_path.iterdir()) == ["a", "d"]  # no side file left


def test_export_refuses_to_write_the_archive_inside_the_dir(tmp_path: Path) -> None:
    (tmp_path / "m").mkdir()
    with pytest.raises(ArchiveError, match="inside the memory dir"):
        export_archive(tmp_path / "m", tmp_path / "m" / "x.zip")


# ---- conflicts: never overwritten silently


def _conflicting(tmp_path: Path) -> tuple[Path, Path]:
    dst = tmp_path / "memory"
    dst.mkdir()
    (dst / "reference_deploys.md").write_text("mine\n")
    return _zip(tmp_path / "c.zip", [("reference_deploys.md", GOOD.encode())]), dst


def test_a_conflict_is_named_and_left_alone(tmp_path: Path) -> None:
    archive, dst = _conflicting(tmp_path)
    report = import_archive(archive, dst)
    assert report.conflicts == ["reference_deploys.md"] and not report.ok
    assert (dst / "reference_deploys.md").read_text() == "mine\n"
    out = _cli("import", str(archive), "--dir", str(dst))
    assert out.returncode == 1 and "conflict: reference_deploys.md exists" in out.stdout


def test_overwrite_moves_the_replaced_file_to_trash(tmp_path: Path) -> None:
    archive, dst = _conflicting(tmp_path)
    report = import_archive(archive, dst, overwrite=True)
    assert report.replaced == ["reference_deploys.md"] and report.trash_dir
    assert (dst / "reference_deploys.md").read_text() == GOOD
    assert (dst / report.trash_dir / "reference_deploys.md").read_text() == "mine\n"


def test_overwrite_of_a_symlinked_memory_keeps_the_link_and_the_old_text(tmp_path: Path) -> None:
    # the replaced name was moved into .trash/ as a link (pointing nowhere from there) and a
    # regular file written in its place: the person's link was silently a file
    archive, dst = _conflicting(tmp_path)
    (dst / "notes").mkdir()
    os.replace(dst / "reference_deploys.md", dst / "notes" / "deploys.md")
    (dst / "reference_deploys.md").symlink_to("notes/deploys.md")
    report = import_archive(archive, dst, overwrite=True)
    assert report.replaced == ["reference_deploys.md"] and report.trash_dir
    assert os.readlink(dst / "reference_deploys.md") == "notes/deploys.md"
    assert (dst / "notes" / "deploys.md").read_text() == GOOD
    kept = dst / report.trash_dir / "reference_deploys.md"
    assert not kept.is_symlink() and kept.read_text() == "mine\n"


def test_overwrite_keeps_a_save_a_person_made_while_it_ran(tmp_path: Path) -> None:
    # a guard for the route above (a copy kept, then a write over the name): the write goes
    # only over the bytes compared. (The older route, a move then a fresh file, kept it too.)
    archive, dst = _conflicting(tmp_path)
    target = dst / "reference_deploys.md"

    def a_person_saves_it(point: str) -> None:
        if point == "write:reference_deploys.md:journaled":
            (dst / ".swp").write_text("mine, saved again\n")
            os.replace(dst / ".swp", target)

    store = MemoryStore(dst, crash_hook=a_person_saves_it)
    with (
        mock.patch("memdir_nb.storage.archive.MemoryStore", return_value=store),
        pytest.raises((ValueError, OSError), match="another program"),
    ):
        import_archive(archive, dst, overwrite=True)
    assert target.read_text() == "mine, saved again\n"


def test_overwrite_by_the_cli_names_where_the_old_file_went(tmp_path: Path) -> None:
    archive, dst = _conflicting(tmp_path)
    out = _cli("import", str(archive), "--dir", str(dst), "--overwrite")
    assert (
        out.returncode == 0 and "replaced: reference_deploys.md (old file in .trash/" in out.stdout
    )


def test_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    archive, dst = _conflicting(tmp_path)
    before = _files(dst)
    for report in (import_archive(archive, dst, overwrite=True, dry_run=True),):
        assert report.replaced == ["reference_deploys.md"] and report.dry_run
    out = _cli("import", str(archive), "--dir", str(dst), "--overwrite", "--dry-run")
    assert "would be replaced" in out.stdout and "nothing was written" in out.stdout
    assert _files(dst) == before and not (dst / ".trash").exists()


def test_import_shows_the_diff_of_each_file_it_replaces_dry_run_and_real_run(
    tmp_path: Path,
) -> None:
    # lefts37b: the dry run named the file it would replace and showed none of its text; the
    # person could not see what --overwrite would take away (the old copy goes to .trash/)
    archive, dst = _conflicting(tmp_path)
    dry = _cli("import", str(archive), "--dir", str(dst), "--overwrite", "--dry-run")
    assert "would replace: reference_deploys.md\n" in dry.stdout
    diff = (
        "--- a/reference_deploys.md\n",
        "+++ b/reference_deploys.md\n",
        "-mine\n",
        "+Argo CD.\n",
    )
    assert all(line in dry.stdout for line in diff), dry.stdout
    assert (dst / "reference_deploys.md").read_text() == "mine\n"
    real = _cli("import", str(archive), "--dir", str(dst), "--overwrite")
    assert real.returncode == 0 and all(line in real.stdout for line in diff), real.stdout
    assert real.stdout.index(
        "replaced: reference_deploys.md (old file in .trash/"
    ) < real.stdout.index("-mine")


def test_a_conflict_left_alone_previews_the_diff_overwrite_would_apply(tmp_path: Path) -> None:
    # lefts38: without --overwrite the conflict was named with none of its text, so a person
    # had to pass --overwrite (or --dry-run with it) to see what it would replace
    archive, dst = _conflicting(tmp_path)
    diff = bounded_file_diff(b"mine\n", GOOD.encode(), "reference_deploys.md")
    assert diff.startswith("--- a/reference_deploys.md\n") and "\n-mine\n" in diff
    heading = "what --overwrite would change in reference_deploys.md:\n"
    for args in ((), ("--dry-run",)):
        out = _cli("import", str(archive), "--dir", str(dst), *args)
        assert out.returncode == 1 and "conflict: reference_deploys.md exists" in out.stdout
        assert heading + diff in out.stdout, out.stdout
        assert (dst / "reference_deploys.md").read_text() == "mine\n"
    overwrite = _cli("import", str(archive), "--dir", str(dst), "--overwrite", "--dry-run")
    assert "would replace: reference_deploys.md\n" + diff in overwrite.stdout  # the same diff


def test_an_import_diff_is_capped_per_file_and_its_text_shown_safely(tmp_path: Path) -> None:
    dst = tmp_path / "memory"
    dst.mkdir()
    old = [f"line {i}\n" for i in range(300)]
    new = [f"new {i} \x1b]0;owned\x07\n" if i % 10 == 0 else line for i, line in enumerate(old)]
    (dst / "notes.md").write_text("".join(old))
    archive = _zip(tmp_path / "c.zip", [("notes.md", "".join(new).encode())])
    out = format_import_report(import_archive(archive, dst, overwrite=True, dry_run=True))
    assert "\x1b" not in out and "\x07" not in out  # no control reaches the terminal
    assert "would replace: notes.md\n--- a/notes.md\n+++ b/notes.md\n@@ " in out
    assert "+new 0 \\x1b]0;owned\\x07\n" in out  # shown as escapes, as every print is
    shown = out.split("would replace: notes.md\n")[1].split("\n")
    whole = len(list(difflib.unified_diff(old, new)))
    assert shown[DIFF_SHOWN_LINES] == (
        f"… and {whole - DIFF_SHOWN_LINES} more lines of this diff (not shown)"
    )


# ---- crafted archives: each entry refused by name, nothing written outside the dir

# case -> (the archive's entries, words the refusal must hold)
CRAFTED: dict[str, tuple[list[tuple[zipfile.ZipInfo | str, bytes]], str]] = {
    "absolute": ([("/etc/cron.d/evil.md", GOOD.encode())], "absolute path"),
    "dotdot": ([("../escape.md", GOOD.encode())], "climbs out"),
    "nested-dotdot": ([("team/../../escape.md", GOOD.encode())], "climbs out"),
    "backslash": ([("..\\escape.md", GOOD.encode())], "backslash"),
    "symlink": ([(_info("user_link.md", stat.S_IFLNK | 0o777), b"/etc/passwd")], "symlink"),
    "device": ([(_info("user_dev.md", stat.S_IFCHR | 0o600), b"")], "device"),
    "fifo": ([(_info("user_fifo.md", stat.S_IFIFO | 0o600), b"")], "FIFO"),
    "bad-name": ([("notes.txt", b"x")], "does not end in .md"),
    "hidden-folder": ([(".trash/user_x.md", GOOD.encode())], "hidden"),
    "hidden-file": ([(".memdir.lock", b"1")], "hidden"),
    "oversize": ([("user_big.md", b"a" * (ARCHIVE_MAX_ENTRY_BYTES + 1))], "cap for one file"),
    # a true bomb: 8 MiB of NULs deflate to 8 KB, and unpack past the cap for one file
    "bomb": ([("user_bomb.md", b"\0" * (2 * ARCHIVE_MAX_ENTRY_BYTES))], "cap for one file"),
    "team-secret": (
        [("team/reference_gateway.md", GOOD.replace("Argo CD.", f"key {FAKE_KEY}").encode())],
        "secret into team memory",
    ),
    "not-text": ([("user_bin.md", b"\xff\xfe\x00binary")], "not UTF-8"),
    # attack round 13: written, then skipped by every listing (past MEMORY_DIR_MAX_DEPTH)
    "too-deep": ([("d/" * 65 + "user_deep.md", GOOD.encode())], "nested 65 folders deep"),
}


@pytest.mark.parametrize("case", sorted(CRAFTED))
def test_a_crafted_entry_is_refused_by_the_api(tmp_path: Path, case: str) -> None:
    entries, why = CRAFTED[case]
    archive = _zip(tmp_path / "x.zip", [*entries, ("user_fine.md", GOOD.encode())])
    dst = tmp_path / "box" / "memory"
    report = import_archive(archive, dst)
    assert [r.name for r in report.refused] == [
        e[0] if isinstance(e[0], str) else e[0].filename for e in entries
    ]
    assert why in report.refused[0].reason
    assert report.written == ["user_fine.md"]  # the good entry still arrives
    outside = sorted(p.relative_to(tmp_path) for p in tmp_path.rglob("*") if p.is_file())
    assert all(p.parts[0] == "x.zip" or p.parts[:2] == ("box", "memory") for p in outside)
    assert not any(p.is_symlink() for p in dst.rglob("*"))


@pytest.mark.parametrize(
    "first, second, why",
    [
        ("user_a.md", "user_a.md/user_b.md", "holds it as a file"),
        ("user_a.md/user_b.md", "user_a.md", "is a folder of other entries"),
    ],
)
def test_an_entry_that_is_a_file_and_a_folder_at_once_is_refused_and_the_rest_arrive(
    tmp_path: Path, first: str, second: str, why: str
) -> None:
    # attack round 13: the second entry's write failed inside the import's one transaction
    # ("'user_a.md' is a regular file, not a folder…"), so nothing at all was imported
    entries: list[tuple[zipfile.ZipInfo | str, bytes]] = [
        (first, GOOD.encode()),
        (second, GOOD.encode()),
        ("user_fine.md", GOOD.encode()),
    ]
    archive = _zip(tmp_path / "x.zip", entries)
    dst = tmp_path / "memory"
    dry = import_archive(archive, dst, dry_run=True)
    report = import_archive(archive, dst)
    for got in (dry, report):
        assert [(r.name, why in r.reason) for r in got.refused] == [(second, True)]
        assert got.written == [first, "user_fine.md"]
    assert sorted(_files(dst)) == sorted([first, "user_fine.md"])


@pytest.mark.parametrize("case", ["dotdot", "symlink", "bomb", "team-secret", "bad-name"])
def test_a_crafted_entry_is_refused_by_the_cli(tmp_path: Path, case: str) -> None:
    entries, why = CRAFTED[case]
    archive = _zip(tmp_path / "x.zip", entries)
    out = _cli("import", str(archive), "--dir", str(tmp_path / "box"))
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "refused: " in out.stdout and why in out.stdout
    assert not (tmp_path / "escape.md").exists()


def test_the_unpacked_total_is_capped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("memdir_nb.storage.archive_entries.ARCHIVE_MAX_TOTAL_BYTES", 100)
    archive = _zip(tmp_path / "x.zip", [("user_a.md", GOOD.encode()), ("user_b.md", GOOD.encode())])
    report = import_archive(archive, tmp_path / "m")
    assert report.written == ["user_a.md"] and "unpacked total" in report.refused[0].reason
    assert ARCHIVE_MAX_TOTAL_BYTES > ARCHIVE_MAX_ENTRY_BYTES


def test_a_file_that_is_not_a_zip_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "x.zip").write_text("not a zip")
    with pytest.raises(ArchiveError, match="not a zip archive"):
        import_archive(tmp_path / "x.zip", tmp_path / "m")
    out = _cli("import", str(tmp_path / "x.zip"), "--dir", str(tmp_path / "m"))
    assert (
        out.returncode == 2 and "not a zip archive" in out.stderr and "Traceback" not in out.stderr
    )
    assert not (tmp_path / "m").exists()


def test_import_never_writes_through_a_symlinked_folder(tmp_path: Path) -> None:
    dst = tmp_path / "memory"
    dst.mkdir()
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", dst / "team")
    archive = _zip(tmp_path / "x.zip", [("team/reference_x.md", GOOD.encode())])
    with pytest.raises((OSError, ValueError)):
        import_archive(archive, dst)
    assert list((tmp_path / "elsewhere").iterdir()) == []


@pytest.mark.parametrize("kind", ["a FIFO", "a symlink loop"])
@pytest.mark.parametrize("route", ["import_archive", "dry run", "memdir-nb import"])
def test_import_into_a_dir_that_cannot_be_made_is_refused_naming_what_blocks_it(
    tmp_path: Path, kind: str, route: str
) -> None:
    # attack40: under a FIFO the import said "Not a directory (<dir>)", and its dry run
    # "1 would be written": a preview promising what the import then refuses
    blocker = build_folder_blocker(tmp_path, kind)
    archive = _zip(tmp_path / "x.zip", [("reference_x.md", GOOD.encode())])
    said = f"cannot be made: {blocker} is {kind}, not a folder, so nothing was written"
    if route == "memdir-nb import":
        out = _cli("import", str(archive), "--dir", str(blocker / "memory"))
        assert out.returncode == 2 and said in out.stderr, out.stderr
    else:
        with pytest.raises(ArchiveError, match=said):
            import_archive(archive, blocker / "memory", dry_run=route == "dry run")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["home", "x.zip"]


# ---- export never replaces what it did not write (attack round 5)


def test_export_never_replaces_a_file_that_is_not_a_memory_archive(tmp_path: Path) -> None:
    src = build_demo_memory_dir(tmp_path / "m", now_ms=DEMO_NOW_MS)
    notes = tmp_path / "notes.md"
    notes.write_text("my own notes, not an archive\n")
    with pytest.raises(ArchiveError, match="is not a memory archive.*nothing was written"):
        export_archive(src, notes)
    out = _cli("export", "--archive", str(notes), "--dir", str(src))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert "choose a new file name" in out.stderr
    assert notes.read_text() == "my own notes, not an archive\n"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left
    # exporting the same dir again to the same name: nothing differs, so nothing is kept
    export_archive(src, tmp_path / "m.zip")
    again = export_archive(src, tmp_path / "m.zip")
    assert again.files and again.kept is None
    assert sorted(p.name for p in tmp_path.glob("m.*")) == ["m.zip"]


def test_export_keeps_the_earlier_archive_it_replaces_beside_it(tmp_path: Path) -> None:
    """An archive may be a person's only copy of a dir: exporting another dir (or the same one
    changed) to its name moves the earlier archive to <stem>.kept-<UTC stamp>.zip, whole, and
    both routes say where (before the thirtieth session it was replaced and lost)."""
    first = tmp_path / "first"
    first.mkdir()
    (first / "reference_a.md").write_text(GOOD)
    target = tmp_path / "m.zip"
    export_archive(first, target)
    earlier = target.read_bytes()
    (first / "reference_a.md").unlink()  # the dir is gone: the archive is its only copy
    second = build_demo_memory_dir(tmp_path / "second", now_ms=DEMO_NOW_MS)
    report = export_archive(second, target)
    assert report.kept is not None and report.kept.parent == tmp_path
    assert report.kept.name.startswith("m.kept-") and report.kept.name.endswith("Z.zip")
    assert report.kept.read_bytes() == earlier
    assert "reference_a.md" in zipfile.ZipFile(report.kept).namelist()
    assert "reference_a.md" not in zipfile.ZipFile(target).namelist()
    out = _cli("export", "--archive", str(target), "--dir", str(first))
    assert out.returncode == 0, out.stderr
    kept = [p for p in tmp_path.glob("m.kept-*.zip") if p != report.kept]
    assert len(kept) == 1 and f"kept the earlier archive as {kept[0]}" in out.stdout
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp left


def test_export_to_a_folder_or_a_fifo_is_a_clear_error(tmp_path: Path) -> None:
    src = build_demo_memory_dir(tmp_path / "m", now_ms=DEMO_NOW_MS)
    (tmp_path / "out").mkdir()
    with pytest.raises(ArchiveError, match="is a folder; give the archive a file name"):
        export_archive(src, tmp_path / "out")
    os.mkfifo(tmp_path / "pipe.zip")
    with pytest.raises(ArchiveError, match="is not a memory archive"):
        export_archive(src, tmp_path / "pipe.zip")
    assert stat.S_ISFIFO(os.lstat(tmp_path / "pipe.zip").st_mode)


def test_export_leaves_out_a_file_over_the_import_cap_without_reading_it(tmp_path: Path) -> None:
    src = build_demo_memory_dir(tmp_path / "m", now_ms=DEMO_NOW_MS)
    with open(src / "reference_huge.md", "wb") as fh:
        fh.truncate(ARCHIVE_MAX_ENTRY_BYTES * 8)  # sparse: big on paper, cheap on disk
    report = export_archive(src, tmp_path / "m.zip")
    assert "reference_huge.md" not in report.files
    why = dict(report.skipped)["reference_huge.md"]
    assert f"over the {ARCHIVE_MAX_ENTRY_BYTES:,}-byte cap" in why


def test_export_leaves_out_a_folder_whose_path_is_too_long_and_packs_the_rest(
    tmp_path: Path, deep_folders: DeepFolders
) -> None:
    # attack round 11: folders nested past the system's path limit stopped the whole export
    # with "File name too long" (pathlib's is_symlink), where scan and lint skip them and go
    # on; past 64 levels they are now left out before that (MEMORY_DIR_MAX_DEPTH)
    src = build_demo_memory_dir(tmp_path / "m", now_ms=DEMO_NOW_MS)
    deep_folders(src, 1_000, name="dddd", file="user_deep.md")  # 5,000 characters of path
    report = export_archive(src, tmp_path / "m.zip")
    assert "user_meteorology_background.md" in report.files
    assert any("nested 65 folders deep" in why for _, why in report.skipped)
    assert zipfile.ZipFile(tmp_path / "m.zip").testzip() is None


@pytest.mark.parametrize("depth", [100, 1_800])
def test_a_tree_nested_deeper_than_any_route_goes_is_skipped_by_every_listing_route(
    tmp_path: Path, deep_folders: DeepFolders, depth: int
) -> None:
    # attack round 11: 1,800 one-letter folders (3,600 characters, within PATH_MAX) made scan,
    # lint, rebuild-index and export fail with RecursionError (Python 3.11's os.walk and the
    # contained reader's folder descriptors recurse a level at a time)
    src = build_demo_memory_dir(tmp_path / "m", now_ms=DEMO_NOW_MS)
    deep_folders(src, depth, file="user_deep.md")
    report = scan_memory_dir(src)
    assert any("nested 65 folders deep" in s.reason for s in report.skipped)
    assert "user_meteorology_background.md" in {h.filename for h in report.headers}
    assert any(f.rule == "skipped-by-scan" for f in lint_memory_dir(src, progress=False))
    assert "user_deep.md" not in rebuild_index(src, write=False)
    assert any("nested 65" in why for _, why in export_archive(src, tmp_path / "m.zip").skipped)


def test_an_export_killed_mid_write_leaves_the_earlier_archive_whole(tmp_path: Path) -> None:
    """kill -9 while the new zip is being written: the archive at the target is the old one."""
    src = tmp_path / "m"
    src.mkdir()
    for i in range(400):  # random text (export packs UTF-8 only), so the write takes a while
        (src / f"reference_{i:03d}.md").write_text(os.urandom(100_000).hex())
    target = tmp_path / "m.zip"
    export_archive(build_demo_memory_dir(tmp_path / "demo", now_ms=DEMO_NOW_MS), target)
    old = target.read_bytes()
    code = (
        "import sys; from memdir_nb.storage.archive import export_archive as e; "
        "e(sys.argv[1], sys.argv[2])"
    )
    proc = subprocess.Popen([sys.executable, "-c", code, str(src), str(target)])
    try:
        deadline = 60.0
        while deadline > 0 and not any(
            p.stat().st_size > 1_000_000 for p in tmp_path.glob(".m.zip.*.tmp")
        ):
            time.sleep(0.005)
            deadline -= 0.005
        assert deadline > 0, "the export never started writing"
        proc.kill()
    finally:
        proc.wait(timeout=60)
    assert target.read_bytes() == old  # never a half-written archive at the target
    with zipfile.ZipFile(target) as zf:
        assert zf.testzip() is None


def test_an_export_is_on_disk_before_it_replaces_the_earlier_archive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The new zip is fsynced before the rename: a power cut after it leaves the whole new
    archive, never an empty file where the person's earlier archive was."""
    src = build_demo_memory_dir(tmp_path / "demo", now_ms=DEMO_NOW_MS)
    export_archive(src, tmp_path / "m.zip")
    steps = record_fsyncs_and_renames(monkeypatch)
    export_archive(src, tmp_path / "m.zip")
    assert steps[-3:] == ["fsync-file", "rename", "fsync-dir"]


@pytest.mark.parametrize("kind", ["fifo", "folder", "link-out", "dangling"])
def test_import_onto_a_fifo_folder_or_link_is_refused_and_writes_nothing(
    tmp_path: Path, kind: str
) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "reference_d.md").write_text(GOOD)
    export_archive(src, tmp_path / "a.zip")
    outside = tmp_path / "outside.md"
    outside.write_text("outside\n")
    dest = tmp_path / "dest"
    dest.mkdir()
    target = dest / "reference_d.md"
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    else:
        target.symlink_to(outside if kind == "link-out" else dest / "gone.md")
    for overwrite in (False, True):
        with pytest.raises(
            (OSError, ValueError), match="move it aside|Remove the symlink|remove the link"
        ):
            import_archive(tmp_path / "a.zip", dest, overwrite=overwrite)
    assert sorted(p.name for p in dest.iterdir()) == [STORE_LOCK_NAME, "reference_d.md"]
    assert outside.read_text() == "outside\n"


def test_an_archive_listing_too_many_entries_is_refused_before_they_are_parsed(
    tmp_path: Path,
) -> None:
    # attack round 8: zipfile builds one ZipInfo per entry when it opens an archive, and the
    # entry cap was checked after that: 200,000 empty entries (18 MB) took 137 MB, the
    # 512 MB archive cap allows millions
    archive = tmp_path / "many.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        for i in range(5 * ARCHIVE_MAX_ENTRIES):
            zf.writestr(f"{i:x}.md", b"")
    tracemalloc.start()
    try:
        with pytest.raises(ArchiveError, match="20,000"):
            import_archive(archive, tmp_path / "m", dry_run=True)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * 1024 * 1024, peak
    assert not (tmp_path / "m").exists()


def test_export_clamps_a_date_no_zip_can_hold_and_writes_the_archive(tmp_path: Path) -> None:
    # A zip entry's year runs from 1980 to 2107; a file dated later made export stop with a
    # struct.error traceback (earlier dates were already clamped to 1980).
    mem = tmp_path / "mem"
    mem.mkdir()
    for name, year_s in (("user_far.md", 13_569_465_600), ("user_old.md", -2_177_452_800)):
        path = mem / name
        path.write_text(f"---\nname: x\ndescription: {name}\ntype: user\n---\nb\n", "utf-8")
        os.utime(path, ns=(year_s * 10**9, year_s * 10**9))
    archive = tmp_path / "m.zip"
    export_archive(mem, archive)
    with zipfile.ZipFile(archive) as zf:
        dates = {i.filename: i.date_time for i in zf.infolist()}
    assert dates["user_far.md"] == (2107, 12, 31, 23, 59, 58)
    assert dates["user_old.md"] == (1980, 1, 1, 0, 0, 0)
    report = import_archive(archive, tmp_path / "again")
    assert sorted(report.written) == ["user_far.md", "user_old.md"]


@pytest.mark.parametrize("swap", ["another-zip", "fifo"])
def test_an_archive_is_read_through_the_one_open_its_checks_were_made_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, swap: str
) -> None:
    # attack round 26: import checked the archive's size and counted its entries on one open,
    # then let zipfile open the path again: a file swapped in between was imported unchecked,
    # and a FIFO swapped in blocked the second open for good
    zip_path = _zip(tmp_path / "m.zip", [("user_checked.md", GOOD.encode())])
    other = _zip(tmp_path / "other.zip", [("user_swapped_in.md", GOOD.encode())])
    counted = count_central_entries
    real_zipfile = zipfile.ZipFile

    def count_then_swap(fp: BinaryIO, size: int, cap: int) -> int | None:
        listed = counted(fp, size, cap)
        zip_path.unlink()
        if swap == "fifo":
            os.mkfifo(zip_path)
        else:
            other.rename(zip_path)
        return listed

    def no_open_of_a_fifo(file: Any, *args: Any, **kwargs: Any) -> zipfile.ZipFile:
        # the old code blocked on it: fail fast instead of hanging the suite
        if isinstance(file, (str, os.PathLike)) and stat.S_ISFIFO(os.stat(file).st_mode):
            raise AssertionError(f"{file} was opened again by name after its checks")
        return real_zipfile(file, *args, **kwargs)

    monkeypatch.setattr("memdir_nb.storage.archive.count_central_entries", count_then_swap)
    monkeypatch.setattr("zipfile.ZipFile", no_open_of_a_fifo)
    report = import_archive(zip_path, tmp_path / "memory")
    assert report.written == ["user_checked.md"]
    assert (tmp_path / "memory" / "user_checked.md").read_text() == GOOD


# ---- export packs only what its own import takes (security.md §39)

LOG_LINE = "- 10:00 ran the tests, all green\n"


@pytest.mark.parametrize(
    ("rel", "data", "packed"),
    [
        ("logs/2026/12/2026-12-01.md", (LOG_LINE * 20_000).encode(), True),  # 660 KB from 2 KB
        ("user_long.md", (GOOD + "x" * 200_000).encode(), True),
        ("user_latin.md", GOOD.replace("deploy", "d\xe9ploy").encode("latin-1"), False),
        ("user_utf16.md", GOOD.encode("utf-16"), False),
        ("team/reference_key.md", (GOOD + f"key {FAKE_KEY}\n").encode(), False),
    ],
    ids=["repetitive-log", "one-letter-run", "latin-1", "utf-16", "team-secret"],
)
def test_every_file_export_packs_is_one_its_own_import_takes(
    tmp_path: Path, rel: str, data: bytes, packed: bool
) -> None:
    src = tmp_path / "m"
    (src / rel).parent.mkdir(parents=True, exist_ok=True)
    (src / "user_a.md").write_text(GOOD)
    (src / rel).write_bytes(data)
    report = export_archive(src, tmp_path / "m.zip")
    imported = import_archive(tmp_path / "m.zip", tmp_path / "n")
    assert imported.refused == [] and imported.ok
    assert sorted(imported.written) == sorted(report.files)
    if packed:
        assert (tmp_path / "n" / rel).read_bytes() == data
    else:
        why = dict(report.skipped)[rel]
        assert "which import refuses" in why and "export again" in why, why
        assert (src / rel).read_bytes() == data  # left where it was, as it was


def test_export_leaves_out_what_would_pass_imports_entry_and_total_caps(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from memdir_nb.storage import archive, archive_entries

    src = tmp_path / "m"
    src.mkdir()
    for i in range(6):
        (src / f"user_{i}.md").write_text(GOOD)
    for module in (archive, archive_entries):
        monkeypatch.setattr(module, "ARCHIVE_MAX_ENTRIES", 5)  # the manifest is the fifth
    report = export_archive(src, tmp_path / "m.zip")
    assert len(report.files) == 4 and all("another archive" in w for _, w in report.skipped)
    assert import_archive(tmp_path / "m.zip", tmp_path / "n").ok
    monkeypatch.undo()
    # the total cap's one home: export_refusal and import's entry_refusal and read_entry
    monkeypatch.setattr(archive_entries, "ARCHIVE_MAX_TOTAL_BYTES", len(GOOD) * 3)
    report = export_archive(src, tmp_path / "t.zip")
    assert len(report.files) == 3 and len(report.skipped) == 3
    assert "another archive" in report.skipped[0][1]
    assert import_archive(tmp_path / "t.zip", tmp_path / "o").ok


def test_the_files_an_overwriting_import_replaced_are_a_batch_restore_lists_and_puts_back(
    tmp_path: Path,
) -> None:
    # the old file was kept in .trash/import-…/, but `restore` said ".trash holds no batch"
    src, dst = tmp_path / "src", tmp_path / "dst"
    src.mkdir()
    dst.mkdir()
    (src / "user_a.md").write_text(GOOD.replace("Argo CD", "new text"))
    (dst / "user_a.md").write_text(GOOD)
    export_archive(src, tmp_path / "a.zip")
    report = import_archive(tmp_path / "a.zip", dst, overwrite=True)
    assert report.replaced == ["user_a.md"] and report.trash_dir is not None
    (batch,) = list_trash_batches(dst)
    assert report.trash_dir.endswith(batch)
    assert restore(dst, batch) == ["user_a.md"]
    assert (dst / "user_a.md").read_text() == GOOD
    again = import_archive(tmp_path / "a.zip", dst, overwrite=True)  # the same second
    assert again.trash_dir is not None and again.trash_dir != report.trash_dir
    assert len(list_trash_batches(dst)) == 2


def test_export_leaves_out_a_tilde_folder_import_refuses_naming_the_rename(tmp_path: Path) -> None:
    # A `~` folder already in the dir stays (the gate keeps it readable), but import refuses
    # such a name (a shell reads it as a home), so export leaves it out and says how to keep it.
    src = tmp_path / "m"
    (src / "~").mkdir(parents=True)
    (src / "user_a.md").write_text(GOOD)
    (src / "~" / "user_x.md").write_text(GOOD)
    report = export_archive(src, tmp_path / "m.zip")
    assert list(report.files) == ["user_a.md"]
    why = dict(report.skipped)["~/user_x.md"]
    assert "starts with '~'" in why and "rename it to user_x.md" in why, why
    imported = import_archive(tmp_path / "m.zip", tmp_path / "n")
    assert imported.ok and imported.written == ["user_a.md"]
    assert (src / "~" / "user_x.md").read_text() == GOOD  # left where it was, as it was


# ---- an archive an earlier export made of a repetitive file imports whole (security.md §41)


@pytest.mark.parametrize(
    ("rel", "data"),
    [
        ("logs/2026/12/2026-12-01.md", (LOG_LINE * 20_000).encode()),  # 660 KB from 2 KB
        ("user_long.md", (GOOD + "x" * 200_000).encode()),
        ("user_zeros.md", b"\0" * (2 * 1024 * 1024)),  # 2 MiB from 2 KB, within the cap
    ],
    ids=["repetitive-log", "one-letter-run", "two-mib-of-nuls"],
)
def test_an_old_archive_with_a_highly_compressed_entry_imports_whole(
    tmp_path: Path, rel: str, data: bytes
) -> None:
    """Failed before the fix: refused as "a compression bomb ... (ratio over 100)", so an
    archive earlier exports wrote (deflating everything) could not be read back. Now the entry
    is bounded by the bytes it produces, and it is within its declared size and the caps."""
    archive = _zip(tmp_path / "old.zip", [(rel, data), ("user_a.md", GOOD.encode())])
    with zipfile.ZipFile(archive) as zf:
        assert zf.getinfo(rel).file_size > 100 * zf.getinfo(rel).compress_size
    report = import_archive(archive, tmp_path / "n")
    assert report.refused == [] and report.ok
    assert sorted(report.written) == sorted([rel, "user_a.md"])
    assert (tmp_path / "n" / rel).read_bytes() == data
    out = _cli("import", str(archive), "--dir", str(tmp_path / "cli"))
    assert out.returncode == 0 and "0 refused" in out.stdout, out.stdout + out.stderr


def test_a_manifest_longer_than_one_files_cap_still_gives_the_exact_mtimes(tmp_path: Path) -> None:
    """Failed before the fix: the manifest (up to 16 MiB) was read through the 4 MiB cap for
    one memory file, cut short, so its JSON was unreadable and every file took the zip header's
    two-second time. read_entry now takes the cap of what it reads."""
    exact = 1_700_000_000_123_456_789
    files = {"user_a.md": {"mtime_ns": exact}, "pad": {"note": "p" * (ARCHIVE_MAX_ENTRY_BYTES + 1)}}
    body = json.dumps({"version": 1, "files": files}).encode()
    archive = _zip(
        tmp_path / "x.zip", [("user_a.md", GOOD.encode()), (ARCHIVE_MANIFEST_NAME, body)]
    )
    assert import_archive(archive, tmp_path / "m").written == ["user_a.md"]
    assert os.stat(tmp_path / "m" / "user_a.md").st_mtime_ns == exact


def test_a_manifest_of_many_values_is_passed_over_unparsed(tmp_path: Path) -> None:
    # §43: a manifest of 16 MB of `{},{},...` packed into a 38 KB archive took import to
    # 467 MB; past its value cap it is passed over as past its byte cap (mtimes not kept)
    src = build_demo_memory_dir(tmp_path / "a" / "memory", now_ms=DEMO_NOW_MS)
    export_archive(src, tmp_path / "m.zip")
    body = '{"version": 1, "files": {"x": [' + ",".join(["{}"] * 1_000_000) + "]}}"
    with (
        zipfile.ZipFile(tmp_path / "m.zip") as old,
        zipfile.ZipFile(tmp_path / "bad.zip", "w", zipfile.ZIP_DEFLATED) as new,
    ):
        for info in old.infolist():
            data = body.encode() if info.filename == ARCHIVE_MANIFEST_NAME else old.read(info)
            new.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED)
    tracemalloc.start()
    try:
        result = import_archive(tmp_path / "bad.zip", tmp_path / "b" / "memory")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.ok and _files(tmp_path / "b" / "memory") == _files(src)
    assert peak < 12 * len(body)  # the text and a few copies; no object per value


def _half_saved(path: Path, text: str) -> Any:
    """An editor's in-place save caught halfway: truncated, the first half written, the file
    still open; the returned thread writes the rest 30 ms later."""
    import threading

    f = path.open("r+", encoding="utf-8")
    f.truncate(0)
    f.write(text[: len(text) // 2])
    f.flush()

    def finish() -> None:
        time.sleep(0.03)
        f.write(text[len(text) // 2 :])
        f.close()

    return threading.Thread(target=finish)


def test_a_memory_an_editor_is_saving_in_place_is_never_archived_half_written(
    tmp_path: Path,
) -> None:
    """attack38b: export read each file once, so a memory an editor was saving in place
    (truncate, then write) went into the archive cut in half, with no note; the archive is the
    backup `import` puts back."""
    mem = tmp_path / "memory"
    mem.mkdir()
    path = mem / "runbook.md"
    whole = "---\nname: runbook\ndescription: d\ntype: reference\n---\n" + "step\n" * 400 + "END\n"
    path.write_text(whole, encoding="utf-8")
    finisher = _half_saved(path, whole.replace("step", "STEP"))
    finisher.start()
    report = export_archive(mem, tmp_path / "a.zip")
    finisher.join()
    with zipfile.ZipFile(tmp_path / "a.zip") as zf:
        assert zf.read("runbook.md").decode() == whole.replace("step", "STEP")
    assert report.skipped == ()


def test_a_memory_that_never_stands_still_is_left_out_and_named(tmp_path: Path) -> None:
    """A file rewritten in place without a pause for the whole export is left out, with the
    reason and the fix, rather than archived as whatever half it held."""
    import threading

    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "calm.md").write_text("---\nname: calm\ndescription: d\ntype: user\n---\nc\n")
    busy = mem / "busy.md"
    busy.write_text("x")
    done = threading.Event()

    def rewrite() -> None:
        i = 0
        while not done.is_set():
            busy.write_text(f"version {i}\n" * 50, encoding="utf-8")  # open(w): truncate, write
            i += 1
            time.sleep(0.005)

    writer = threading.Thread(target=rewrite)
    writer.start()
    try:
        report = export_archive(mem, tmp_path / "a.zip")
    finally:
        done.set()
        writer.join()
    assert report.files == ("calm.md",)
    [(rel, why)] = report.skipped
    assert rel == "busy.md" and "being written by another program" in why
    assert why.endswith("export again once it is saved")


def test_export_packs_an_empty_file_only_once_it_stayed_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An editor's in-place save starts with a truncate, which empties the file before its times
    move: the export looks at each empty file again a pause later, and archives what the save
    wrote rather than the empty copy of its first instant."""
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "kept-empty.md").write_bytes(b"")
    saved = mem / "being-saved.md"
    saved.write_bytes(b"")
    real_sleep = time.sleep

    def the_save_lands(pause: float) -> None:  # the export's one pause for its empty files
        if not saved.stat().st_size:
            saved.write_text(GOOD, encoding="utf-8")
        real_sleep(pause)

    monkeypatch.setattr(time, "sleep", the_save_lands)  # the settle rule's pauses are bound
    report = export_archive(mem, tmp_path / "a.zip")
    with zipfile.ZipFile(report.archive) as zf:
        assert zf.read("being-saved.md") == GOOD.encode()
        assert zf.read("kept-empty.md") == b""


# ---- a step over many empty files pauses once (attack45, security §68)

EMPTY_MANY = 40  # one pause each would be EMPTY_MANY * SETTLE_S = 10 s under the store's lock


def _old_empty_files(mem: Path, body: bytes = b"") -> list[str]:
    """EMPTY_MANY memories, empty in mem; an archive of them (holding body) at mem/../x.zip.
    Their times are then over SETTLE_S old: each read of one asks for a second look (§66)."""
    src = mem.parent / "src"
    src.mkdir()
    mem.mkdir()
    names = [f"user_empty_{i:03d}.md" for i in range(EMPTY_MANY)]
    for name in names:
        (mem / name).write_bytes(b"")
        (src / name).write_bytes(body)
    export_archive(src, mem.parent / "x.zip")
    time.sleep(SETTLE_S + 0.05)
    return names


def test_an_import_over_many_old_empty_files_pauses_once_not_once_a_file(tmp_path: Path) -> None:
    """Re-importing an archive of empty memories read each under the store's lock with a
    pause of SETTLE_S of its own (§66's second look): 40 files held the lock 10 s, 240 past
    the 60 s other writers wait for it. The step notes them all first and pauses once."""
    mem = tmp_path / "memory"
    names = _old_empty_files(mem)
    start = time.monotonic()
    report = import_archive(tmp_path / "x.zip", mem)
    took = time.monotonic() - start
    assert report.unchanged == names and not report.written
    assert took < EMPTY_MANY * SETTLE_S / 4, took  # 0.3 s here; 10 s before


def test_an_import_over_many_old_empty_files_pauses_once_by_the_cli(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    _old_empty_files(mem)
    start = time.monotonic()
    out = _cli("import", str(tmp_path / "x.zip"), "--dir", str(mem))
    took = time.monotonic() - start
    assert out.returncode == 0, out.stderr
    assert took < EMPTY_MANY * SETTLE_S / 2, took  # the interpreter's start included


def test_restoring_a_batch_of_many_old_empty_files_pauses_once(tmp_path: Path) -> None:
    """The files an overwriting import replaced were empty: restore reads each kept copy."""
    mem = tmp_path / "memory"
    names = _old_empty_files(mem, GOOD.encode())
    report = import_archive(tmp_path / "x.zip", mem, overwrite=True)
    assert report.replaced == names
    (batch,) = list_trash_batches(mem)
    time.sleep(SETTLE_S + 0.05)  # the imported files are old too: each step may read them
    start = time.monotonic()
    assert restore(mem, batch) == names
    took = time.monotonic() - start
    assert all((mem / name).read_bytes() == b"" for name in names)
    assert took < EMPTY_MANY * SETTLE_S / 2, took  # 1.0 s here (40 writes); 10 s before


def test_restoring_a_batch_of_many_old_empty_files_pauses_once_by_the_cli(tmp_path: Path) -> None:
    mem = tmp_path / "memory"
    names = _old_empty_files(mem, GOOD.encode())
    assert import_archive(tmp_path / "x.zip", mem, overwrite=True).replaced == names
    (batch,) = list_trash_batches(mem)
    time.sleep(SETTLE_S + 0.05)
    start = time.monotonic()
    out = _cli("restore", str(mem), batch)
    took = time.monotonic() - start
    assert out.returncode == 0, out.stderr
    assert all((mem / name).read_bytes() == b"" for name in names)
    assert took < EMPTY_MANY * SETTLE_S * 3 / 4, took  # 2.6 s here, the start included
