"""Attack round 29: archives whose zip structure is damaged or crafted, through `import`.

Earlier rounds tried the entries' names, kinds and sizes; these try the fields zipfile itself
decodes (the compressed stream, the DOS date, the name's length and encoding flag, the version
needed). Each was a traceback or an error naming neither the archive nor the fix, and one bad
entry stopped the whole import. Now a damaged entry is refused by name and the rest arrive; an
archive zipfile cannot list is an ArchiveError naming it, with nothing written.
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import struct
import subprocess
import sys
import time
import tracemalloc
import zipfile
import zlib
from pathlib import Path

import pytest

from memdir_nb.storage.archive import ArchiveError, import_archive
from memdir_nb.storage.import_report import ImportReport
from memdir_nb.storage.transaction import StoreTransaction

MEMORY = "---\nname: a\ndescription: d\ntype: user\n---\n" + "body words here\n" * 8


def _zip_bytes(
    entries: list[tuple[zipfile.ZipInfo | str, str]], method: int = zipfile.ZIP_DEFLATED
) -> bytearray:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", compression=method) as zf:
        for info, text in entries:
            zf.writestr(info, text)
    return bytearray(buf.getvalue())


def _first_data_offset(data: bytearray) -> int:
    """Where the first entry's compressed bytes start (after its local header)."""
    name_len, extra_len = struct.unpack("<HH", data[26:30])
    return 30 + int(name_len) + int(extra_len)


def _corrupt_stream(method: int) -> bytearray:
    """user_a.md's compressed stream scrambled, user_b.md whole (deflated: archive33 refuses
    every LZMA entry before unpacking it, since zipfile unpacks LZMA unbounded)."""
    whole = zipfile.ZipInfo("user_b.md")
    whole.compress_type = zipfile.ZIP_DEFLATED
    data = _zip_bytes([("user_a.md", MEMORY), (whole, MEMORY)], method)
    start = _first_data_offset(data)
    for i in range(start, start + 16):
        data[i] ^= 0x5A
    return data


def _write(tmp_path: Path, data: bytes | bytearray) -> Path:
    path = tmp_path / "in.zip"
    path.write_bytes(bytes(data))
    return path


def _cli_import(archive: Path, memory_dir: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "memdir_nb.cli", "import", str(archive), "--dir", str(memory_dir)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _flood_declared_small(name: str, method: int) -> bytearray:
    """An archive whose first entry unpacks to 64 MiB of NULs while both its headers declare
    270 bytes (small, so it is not passed over unread), then an ordinary `user_b.md`."""
    info = zipfile.ZipInfo(name)
    info.compress_type = method
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        with zf.open(info, "w") as fh:
            for _ in range(64):
                fh.write(bytes(1024 * 1024))
        zf.writestr("user_b.md", MEMORY)
    data = bytearray(buf.getvalue())
    data[22:26] = struct.pack("<I", 270)
    central = data.index(b"PK\x01\x02")
    data[central + 24 : central + 28] = struct.pack("<I", 270)
    return data


def _import_with_peak(archive: Path, memory_dir: Path) -> tuple[ImportReport, int]:
    """Import through the API, with the peak of Python's own allocations while it ran."""
    tracemalloc.start()
    try:
        report = import_archive(archive, memory_dir)
        return report, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def _cli_refuses(archive: Path, memory_dir: Path, *said: str) -> list[str]:
    """Import through the CLI: no traceback, exit 1, each of `said` in its output; returns the
    names it wrote (dot-files aside)."""
    out = _cli_import(archive, memory_dir)
    assert "Traceback" not in out.stderr and out.returncode == 1, out.stderr
    for fragment in said:
        assert fragment in out.stdout, out.stdout
    return sorted(n for n in os.listdir(memory_dir) if n[0] != ".")


@pytest.mark.parametrize("method", [zipfile.ZIP_DEFLATED, zipfile.ZIP_LZMA], ids=["zlib", "lzma"])
def test_an_entry_whose_compressed_stream_is_damaged_is_refused_and_the_rest_arrive(
    tmp_path: Path, method: int
) -> None:
    """Failed before the fix: zlib.error / LZMAError escaped read_entry (neither is an OSError
    nor a ValueError), so `import` ended in a traceback and nothing at all was imported."""
    archive = _write(tmp_path, _corrupt_stream(method))
    report = import_archive(archive, tmp_path / "api")
    assert report.written == ["user_b.md"]
    assert [r.name for r in report.refused] == ["user_a.md"]
    assert "cannot be unpacked" in report.refused[0].reason
    written = _cli_refuses(archive, tmp_path / "cli", "user_a.md: cannot be unpacked")
    assert written == ["user_b.md"]


def test_an_entry_whose_dos_date_names_no_day_is_written_with_the_time_of_the_import(
    tmp_path: Path,
) -> None:
    """Failed before the fix: datetime raised "month must be in 1..12" for the date a tool
    writes when it has none (DOS date 0: 1980-00-00), and the whole import stopped there with
    that line as its only error."""
    entries: list[tuple[zipfile.ZipInfo | str, str]] = [
        (zipfile.ZipInfo("user_a.md", date_time=(1980, 0, 0, 0, 0, 0)), MEMORY),
        (zipfile.ZipInfo("user_b.md", date_time=(2020, 2, 31, 25, 61, 0)), MEMORY),
        (zipfile.ZipInfo("user_c.md", date_time=(2020, 5, 1, 12, 0, 0)), MEMORY),
    ]
    archive = _write(tmp_path, _zip_bytes(entries))
    before = time.time_ns() - 5_000_000_000
    report = import_archive(archive, tmp_path / "m")
    assert sorted(report.written) == ["user_a.md", "user_b.md", "user_c.md"] and not report.refused
    assert (tmp_path / "m" / "user_a.md").stat().st_mtime_ns >= before
    assert (tmp_path / "m" / "user_b.md").stat().st_mtime_ns >= before
    assert time.gmtime((tmp_path / "m" / "user_c.md").stat().st_mtime)[:3] == (2020, 5, 1)


def _with_empty_name(before: tuple[str, ...] = ("user_a.md",)) -> bytearray:
    """An archive of the entries `before` and, last, an entry whose central record names nothing."""
    data = _zip_bytes([*((name, MEMORY) for name in before), ("x", MEMORY)])
    record = bytes(data).rfind(b"PK\x01\x02")
    data = data[: record + 28] + b"\0\0" + data[record + 30 : record + 46] + data[record + 47 :]
    end = bytes(data).rfind(b"PK\x05\x06")
    (size,) = struct.unpack("<I", data[end + 12 : end + 16])
    data[end + 12 : end + 16] = struct.pack("<I", size - 1)
    return data


def test_an_entry_with_an_empty_name_is_refused_and_the_rest_arrive(tmp_path: Path) -> None:
    """Failed before the fix: zipfile's is_dir() indexes the name's last character, so the
    import ended in IndexError (a traceback from the CLI) and wrote nothing."""
    archive = _write(tmp_path, _with_empty_name())
    report = import_archive(archive, tmp_path / "api")
    assert report.written == ["user_a.md"]
    assert [(r.name, r.reason) for r in report.refused] == [
        ("", "has an empty name; every entry names a memory file")
    ]
    _cli_refuses(archive, tmp_path / "cli", "has an empty name")


def test_the_report_names_an_entry_with_no_name_by_its_position_in_the_archive(
    tmp_path: Path,
) -> None:
    """Failed before polish31b: the line read `refused: : has an empty name…`, which does not
    say which entry it was; the position counts every entry, folder records included."""
    archive = _write(tmp_path, _with_empty_name(("user_a.md", "notes/", "notes/user_b.md")))
    report = import_archive(archive, tmp_path / "api")
    assert [(r.label, r.position) for r in report.refused] == [("entry #4 (no name)", 4)]
    out = _cli_import(archive, tmp_path / "cli")
    assert out.returncode == 1, out.stderr
    assert (
        "refused: entry #4 (no name): has an empty name; every entry names a memory file"
        in out.stdout.splitlines()
    ), out.stdout


def _name_flagged_utf8_but_not() -> bytearray:
    data = _zip_bytes([("user_\u00e9.md", MEMORY), ("user_b.md", MEMORY)])
    return bytearray(bytes(data).replace("user_\u00e9.md".encode(), b"user_\xff\xfe.md"))


def _version_past_zipfile() -> bytearray:
    data = _zip_bytes([("user_a.md", MEMORY)])
    record = bytes(data).rfind(b"PK\x01\x02")
    data[record + 6 : record + 8] = struct.pack("<H", 255)  # version needed to extract: 25.5
    return data


@pytest.mark.parametrize(
    ("build", "words"),
    [
        (_name_flagged_utf8_but_not, "marked as UTF-8 but is not UTF-8"),
        (_version_past_zipfile, "needs a zip feature this reader lacks"),
    ],
    ids=["utf8-flag", "version"],
)
def test_an_archive_zipfile_cannot_list_is_named_with_the_reason_and_nothing_is_written(
    tmp_path: Path, build: object, words: str
) -> None:
    """Failed before the fix: UnicodeDecodeError ("error: 'utf-8' codec can't decode byte
    0xff…", no archive named, no fix) and NotImplementedError (a traceback) came out of
    zipfile's constructor, past the ArchiveError the one open turns BadZipFile into."""
    assert callable(build)
    archive = _write(tmp_path, build())
    with pytest.raises(ArchiveError, match=words) as caught:
        import_archive(archive, tmp_path / "api")
    assert str(archive) in str(caught.value) and "nothing was written" in str(caught.value)
    out = _cli_import(archive, tmp_path / "cli")
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
    assert words in out.stderr and "pass a file written by memdir-nb export" in out.stderr
    assert not (tmp_path / "api").exists() and not (tmp_path / "cli").exists()


def test_random_damage_to_an_archive_is_an_archive_error_or_a_report_never_another_error(
    tmp_path: Path,
) -> None:
    """The class, not the cases: 400 archives with one to four bytes changed anywhere (fixed
    seed). Before the fix about 30% of them raised zlib.error, ValueError, IndexError,
    NotImplementedError or UnicodeDecodeError (measured on 3,000)."""
    rng = random.Random(29)
    entries: list[tuple[zipfile.ZipInfo | str, str]] = [
        (f"user_{i}.md", MEMORY + str(i)) for i in range(3)
    ]
    base = _zip_bytes([*entries, ("team/project_x.md", MEMORY)])
    for n in range(400):
        data = bytearray(base)
        for _ in range(rng.randint(1, 4)):
            data[rng.randrange(len(data))] = rng.choice([0, 0xFF, 0x80, rng.randrange(256)])
        archive = _write(tmp_path, data)
        with contextlib.suppress(ArchiveError):  # any other exception fails the test
            import_archive(archive, tmp_path / f"m{n}", dry_run=True)


@pytest.mark.parametrize("meanwhile", ["saved", "removed"])
def test_a_file_changed_right_after_the_import_commits_is_never_retimed_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, meanwhile: str
) -> None:
    """The archive's dates are given to each file before it takes its name, inside the step.

    Failed before the fix: the import set them afterwards by path (os.utime after the store's
    lock was released), so a person's save landing in between was dated to 2020 (a stale
    memory to freshness and the dream), and a file removed in between made the finished
    import raise FileNotFoundError ("error: …" from the CLI, though every file was written).
    """
    entry = zipfile.ZipInfo("user_a.md", date_time=(2020, 5, 1, 12, 0, 0))
    archive = _write(tmp_path, _zip_bytes([(entry, MEMORY)]))
    target = tmp_path / "m" / "user_a.md"
    real_close = StoreTransaction.close

    def close_then_a_person_acts(tx: StoreTransaction) -> None:
        real_close(tx)
        if target.exists():
            if meanwhile == "removed":
                target.unlink()
            else:
                saved = target.with_name(".person-save.tmp")
                saved.write_text(MEMORY + "edited by a person\n")
                os.replace(saved, target)

    monkeypatch.setattr(StoreTransaction, "close", close_then_a_person_acts)
    before = time.time_ns() - 5_000_000_000
    report = import_archive(archive, tmp_path / "m")
    assert report.written == ["user_a.md"]
    if meanwhile == "saved":
        assert target.read_text().endswith("edited by a person\n")
        assert target.stat().st_mtime_ns >= before
    else:
        assert not target.exists()


def test_an_imported_file_carries_the_archives_time_from_the_moment_it_has_its_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The time is part of the write, not a step after it: at close the file already has it."""
    entry = zipfile.ZipInfo("user_a.md", date_time=(2020, 5, 1, 12, 0, 0))
    archive = _write(tmp_path, _zip_bytes([(entry, MEMORY)]))
    target = tmp_path / "m" / "user_a.md"
    seen: list[tuple[int, int, int]] = []
    real_close = StoreTransaction.close

    def close_and_look(tx: StoreTransaction) -> None:
        if target.exists():
            seen.append(time.gmtime(target.stat().st_mtime)[:3])
        real_close(tx)

    monkeypatch.setattr(StoreTransaction, "close", close_and_look)
    import_archive(archive, tmp_path / "m")
    assert seen and seen[-1] == (2020, 5, 1)


@pytest.mark.parametrize(
    ("entry", "fixed"),
    [
        ("~/user_x.md", "user_x.md"),
        ("~user_x.md", "user_x.md"),
        ("notes/~old/user_x.md", "notes/old/user_x.md"),
        ("~/MEMORY.md", "MEMORY.md"),
    ],
)
def test_an_entry_with_a_part_starting_with_a_tilde_is_refused_by_name_and_the_rest_arrive(
    tmp_path: Path, entry: str, fixed: str
) -> None:
    """Failed before the fix: import made a folder (or file) named `~...` in the memory dir,
    which a shell reads as a home (`rm -r ~` typed there removes the home), though the memory
    tool refuses to make one (security.md §39)."""
    archive = _write(tmp_path, _zip_bytes([("user_a.md", MEMORY), (entry, MEMORY)]))
    report = import_archive(archive, tmp_path / "api")
    assert report.written == ["user_a.md"]
    assert [r.name for r in report.refused] == [entry]
    reason = report.refused[0].reason
    assert "starts with '~'" in reason and "home folder" in reason
    assert f"rename it to {fixed}" in reason and "export again" in reason
    _cli_refuses(archive, tmp_path / "cli", f"{entry}: is not a memory path: ", "starts with '~'")
    for root in (tmp_path / "api", tmp_path / "cli"):
        made = sorted(str(p.relative_to(root)) for p in root.rglob("*"))
        assert not any("~" in p for p in made), made
        assert "user_a.md" in made


# ---- archive33: an entry is bounded by the bytes it produces, not by its header's word


def _understated(flood: int) -> tuple[bytearray, bytes]:
    """user_liar.md, a memory followed by `flood` bytes of 'x', deflated, whose local and central
    headers declare only the memory plus 100 bytes, with the CRC of exactly that prefix (what a
    crafted archive does so that a reader stopping at the declared size sees nothing wrong);
    user_b.md whole. Returns the archive and the declared prefix."""
    body = MEMORY.encode() + b"x" * flood
    data = _zip_bytes([("user_liar.md", body.decode()), ("user_b.md", MEMORY)])
    prefix = body[: len(MEMORY) + 100]
    crc_and_sizes = struct.pack("<I", zlib.crc32(prefix))
    assert data[:4] == b"PK\x03\x04"
    data[14:18] = crc_and_sizes  # local header: CRC, then (at 22) the unpacked size
    data[22:26] = struct.pack("<I", len(prefix))
    central = data.index(b"PK\x01\x02")  # the first central record is user_liar.md's
    data[central + 16 : central + 20] = crc_and_sizes
    data[central + 24 : central + 28] = struct.pack("<I", len(prefix))
    return data, prefix


@pytest.mark.parametrize("flood", [64 * 1024 * 1024, 1000], ids=["64-mib-bomb", "1000-bytes"])
def test_an_entry_that_unpacks_past_its_declared_size_is_refused_by_name_in_bounded_memory(
    tmp_path: Path, flood: int
) -> None:
    """Failed before the fix: zipfile stops an entry at its declared size and checked the CRC
    over that much, so the first 100 bytes past the memory were written as user_liar.md and the
    rest of the stream was never looked at. Now the entry is read through a counted stream that
    stops one byte past the declared size: refused by name, nothing of it written."""
    data, prefix = _understated(flood)
    archive = _write(tmp_path, data)
    with zipfile.ZipFile(archive) as zf:  # zipfile itself takes the declared size's word
        assert zf.read("user_liar.md") == prefix
    report, peak = _import_with_peak(archive, tmp_path / "api")
    assert [r.name for r in report.refused] == ["user_liar.md"]
    assert "more bytes than the" in report.refused[0].reason
    assert report.written == ["user_b.md"]
    assert not (tmp_path / "api" / "user_liar.md").exists()
    assert peak < 2 * 1024 * 1024, peak  # 64 MiB behind the header: never unpacked
    written = _cli_refuses(
        archive, tmp_path / "cli", "refused: user_liar.md: unpacks to more bytes"
    )
    assert written == ["user_b.md"]


def test_an_entry_that_ends_before_its_declared_size_is_refused_as_damaged(
    tmp_path: Path,
) -> None:
    """The other way round: a header overstating the size (its CRC that of the real bytes)."""
    data = _zip_bytes([("user_short.md", MEMORY), ("user_b.md", MEMORY)])
    data[22:26] = struct.pack("<I", len(MEMORY) + 50)
    central = data.index(b"PK\x01\x02")
    data[central + 24 : central + 28] = struct.pack("<I", len(MEMORY) + 50)
    report = import_archive(_write(tmp_path, data), tmp_path / "m")
    assert [r.name for r in report.refused] == ["user_short.md"]
    assert "its header declares" in report.refused[0].reason
    assert report.written == ["user_b.md"]


@pytest.mark.parametrize("method", [zipfile.ZIP_BZIP2, zipfile.ZIP_LZMA], ids=["bzip2", "lzma"])
def test_an_entry_packed_with_bzip2_or_lzma_is_refused_by_name_before_it_is_unpacked(
    tmp_path: Path, method: int
) -> None:
    """Failed before the fix: zipfile hands bzip2 and LZMA at least 4 KiB of packed bytes at
    a time and keeps all they give, whatever the read asked for. 64 MiB of NULs in a few
    hundred bytes of bzip2, behind a header declaring 270, took 148 MB to refuse (256 MiB in
    330 bytes took 584 MB; 4 KiB of it would be gigabytes). Export writes deflate only."""
    data = _flood_declared_small("user_liar.md", method)
    report, peak = _import_with_peak(_write(tmp_path, data), tmp_path / "m")
    assert [r.name for r in report.refused] == ["user_liar.md"]
    assert "bounded memory" in report.refused[0].reason
    assert "re-zip" in report.refused[0].reason
    assert report.written == ["user_b.md"] and peak < 2 * 1024 * 1024, peak


def test_a_manifest_packed_with_bzip2_is_passed_over_unread(tmp_path: Path) -> None:
    """Failed before the fix (148 MB): the manifest is read by the same read_entry, so a bzip2
    one (64 MiB of NULs in 201 bytes, declaring 270) is now passed over unread, its mtimes not
    used, in bounded memory; the files still arrive."""
    data = _flood_declared_small(".memdir-nb-archive.json", zipfile.ZIP_BZIP2)
    report, peak = _import_with_peak(_write(tmp_path, data), tmp_path / "m")
    assert report.written == ["user_b.md"] and report.ok
    assert peak < 2 * 1024 * 1024, peak
