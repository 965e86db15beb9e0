"""What may come out of a memory archive: each entry refused by name and reason, or read.

`path_refusal` is the archive's path rule (also what export leaves out); `entry_refusal` adds
what an entry's header says (encrypted, a link or device, a duplicate, a file that is also a
folder of other entries, over a cap); `read_entry` unpacks it through a counted stream, so a
compression bomb is stopped by the bytes it produces; `content_refusal` what its bytes say.
`export_refusal` and `export_compression` keep export to what import takes: an archive export
wrote was once refused by its own import (a Latin-1 memory, a repetitive daily log read as a
compression bomb; security.md §39). Split from memdir_nb.storage.archive, which packs and unpacks.
"""

from __future__ import annotations

import copy
import datetime as _dt
import lzma
import stat
import zipfile
import zlib

from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.formats.names import (
    component_problem,
    folders_problem,
    is_index_name,
    name_problem,
    normal_twin,
    normal_twin_problem,
    tilde_free,
    tilde_problem,
)
from memdir_nb.security.secret_scan import format_findings, scan_memory_file
from memdir_nb.spec.constants import (
    ARCHIVE_MANIFEST_MAX_BYTES,
    ARCHIVE_MANIFEST_MAX_VALUES,
    ARCHIVE_MANIFEST_NAME,
    ARCHIVE_MAX_ENTRIES,
    ARCHIVE_MAX_ENTRY_BYTES,
    ARCHIVE_MAX_RATIO,
    ARCHIVE_MAX_TOTAL_BYTES,
    ARCHIVE_RATIO_MIN_BYTES,
    TEAM_DIRNAME,
)

NOT_UTF8_TEXT = "is not UTF-8 text"
_READ_CHUNK = 64 * 1024  # how much of an entry is unpacked at a time, then counted


def path_refusal(rel: str) -> str | None:
    """Why a '/'-separated path may not be a file of a memory archive, else None.

    Folders must be plain, visible names; the file must be MEMORY.md or pass the name gate; no
    part may start with '~' (a shell reads it as a home folder).
    """
    if rel.startswith(("/", "\\")) or (len(rel) > 1 and rel[1] == ":"):
        return "is an absolute path; an archive holds paths relative to the memory dir"
    if "\\" in rel:
        return "holds a backslash; archive paths are '/'-separated"
    parts = rel.split("/")
    if ".." in parts:
        return "climbs out of the memory dir with '..'"
    problem = folders_problem(parts[:-1])
    if problem is not None:
        return f"is not a memory path: {problem}"
    last = parts[-1]
    if is_index_name(last) and not last.startswith("."):
        problem = None if component_problem(last) is None else "is not a usable file name"
    else:
        problem = name_problem(last)
        problem = None if problem is None else f"has a file name that {problem}"
    return problem or _tilde_refusal(rel)


def _tilde_refusal(rel: str) -> str | None:
    """Why import makes no file at rel, a part of which starts with '~' (the name gate's
    tilde_problem), with the fix; export leaves such a file out in the same words."""
    problem = tilde_problem(rel)
    if problem is None:
        return None
    return (
        f"is not a memory path: {problem}, so import makes no such name; rename it to "
        f"{tilde_free(rel)} in the memory dir the archive was made from, and export again"
    )


def folders_of(name: str) -> list[str]:
    """The folders an entry's path passes through ('a/b/x.md': 'a', 'a/b')."""
    parts = name.split("/")
    return ["/".join(parts[:i]) for i in range(1, len(parts))]


def _layout_refusal(name: str, seen: set[str]) -> str | None:
    """Why an entry cannot sit beside the entries before it: a file and a folder of one name.

    seen holds the earlier entries' names and the folders they pass through (as 'x/').
    """
    for folder in folders_of(name):
        if folder in seen:
            return f"needs {folder!r} as a folder, but the archive holds it as a file"
    if name + "/" in seen:
        return "is a folder of other entries in the archive, so it cannot be a file too"
    return None


# What unpacking one entry's bytes can raise on a damaged or crafted stream: zipfile's own
# errors, and the decompressors' (zlib.error and lzma.LZMAError are neither OSError nor
# ValueError, so a corrupt deflate stream ended `import` in a traceback; attack round 29).
_UNPACK_ERRORS = (
    zipfile.BadZipFile,
    OSError,
    EOFError,
    NotImplementedError,
    ValueError,
    zlib.error,
    lzma.LZMAError,
)

# Compression methods zipfile unpacks with no bound on one call's output: it hands bzip2 and
# LZMA a chunk of at least 4 KiB of packed bytes and takes all they give (deflate and stored
# are asked for no more than the read wants). Every export writes deflate or stored.
_UNBOUNDED_METHODS = {zipfile.ZIP_BZIP2: "bzip2", zipfile.ZIP_LZMA: "LZMA"}

# What zipfile's constructor can raise on a crafted central directory besides BadZipFile and
# OSError: a name flagged UTF-8 that is not (UnicodeDecodeError, a ValueError), a "version
# needed to extract" past what it reads (NotImplementedError), a record cut short (EOFError).
OPEN_ERRORS = (zipfile.BadZipFile, OSError, ValueError, NotImplementedError, EOFError)


def open_problem(exc: BaseException) -> str:
    """Why zipfile could not list an archive (one of OPEN_ERRORS), in an import's words."""
    if isinstance(exc, UnicodeDecodeError):
        return (
            f"an entry's name is marked as UTF-8 but is not UTF-8 (byte {exc.start + 1} of "
            "the name)"
        )
    if isinstance(exc, NotImplementedError):
        return f"it needs a zip feature this reader lacks ({exc})"
    return f"{type(exc).__name__}: {exc}" if isinstance(exc, EOFError) else str(exc)


def is_folder_entry(info: zipfile.ZipInfo) -> bool:
    """Whether an entry is a folder record (its name ends in '/'); an empty name is not one.

    zipfile's own `is_dir` indexes the name's last character, so an entry with an empty name
    raised IndexError out of the import (attack round 29); entry_refusal refuses that entry.
    """
    return info.filename.endswith("/")


def entry_refusal(info: zipfile.ZipInfo, seen: set[str], unpacked: int = 0) -> str | None:
    """Why one archive entry is refused before it is read, else None.

    unpacked: the bytes the entries accepted before it gave. Sizes are judged here by the
    header's word only, a cheap early refusal; `read_entry` then holds the entry to what it
    declared. There is no ratio test: an entry is bounded by the bytes it produces, so a
    repetitive daily log 300 times smaller packed than unpacked is read like any file.
    """
    if info.flag_bits & 0x1:
        return "is encrypted"
    if not info.filename:
        return "has an empty name; every entry names a memory file"
    problem = path_refusal(info.filename)
    if problem is not None:
        return problem
    kind = stat.S_IFMT(info.external_attr >> 16)
    if kind == stat.S_IFLNK:
        return "is a symlink; only regular files are imported"
    if kind not in (0, stat.S_IFREG):
        return "is a device, FIFO or socket; only regular files are imported"
    if info.filename in seen:
        return "appears twice in the archive"
    twin = normal_twin(info.filename, seen)
    if twin is not None:
        return "its name " + normal_twin_problem(info.filename, twin, "is in the archive too")
    layout = _layout_refusal(info.filename, seen)
    if layout is not None:
        return layout
    if info.file_size > ARCHIVE_MAX_ENTRY_BYTES:
        return (
            f"unpacks to {info.file_size:,} bytes, over the {ARCHIVE_MAX_ENTRY_BYTES:,}-byte cap "
            "for one file"
        )
    if unpacked + info.file_size > ARCHIVE_MAX_TOTAL_BYTES:
        return f"would take the unpacked total over the {ARCHIVE_MAX_TOTAL_BYTES:,}-byte cap"
    return None


def looks_like_a_bomb(size: int, packed: int) -> bool:
    """Whether an import before archive33 refused an entry unpacking to size bytes from packed
    as a compression bomb (ratio over ARCHIVE_MAX_RATIO). Import now bounds every entry by the
    bytes it produces, not by its ratio (security.md §41); export still stores such a file
    (`export_compression`), so an archive it writes is one those older imports take too."""
    return size >= ARCHIVE_RATIO_MIN_BYTES and size / max(packed, 1) > ARCHIVE_MAX_RATIO


def export_compression(data: bytes) -> int:
    """How export packs a file: deflated, or stored when deflate would shrink it so far that an
    import before archive33 read it as a compression bomb (a daily log of one line repeated,
    660 KB from 2 KB).

    The deflated size is measured as zipfile makes it (raw deflate, default level), and half
    the ratio is the line, so a stream that differs by a few bytes stays on the right side.
    """
    if len(data) < ARCHIVE_RATIO_MIN_BYTES:
        return zipfile.ZIP_DEFLATED
    deflated = len(zlib.compress(data, zlib.Z_DEFAULT_COMPRESSION, -15))
    return (
        zipfile.ZIP_STORED if looks_like_a_bomb(len(data), deflated * 2) else zipfile.ZIP_DEFLATED
    )


def export_refusal(rel: str, data: bytes, packed: int, total: int) -> str | None:
    """Why export leaves out a file it has read, because import would refuse it, else None.

    packed: how many files the archive holds already; total: their bytes. The manifest is an
    entry of its own, so an archive holds one file fewer than import's entry cap.
    """
    if packed >= ARCHIVE_MAX_ENTRIES - 1:
        return (
            f"the archive already holds {packed:,} files, the most import takes in one archive; "
            "export the rest of the dir's files in another archive"
        )
    if total + len(data) > ARCHIVE_MAX_TOTAL_BYTES:
        return (
            f"would take the archive past the {ARCHIVE_MAX_TOTAL_BYTES:,} bytes import unpacks "
            "from one archive; export the rest in another archive"
        )
    problem = content_refusal(rel, data)
    if problem == NOT_UTF8_TEXT:
        return (
            f"{problem}, which import refuses (a memory file is UTF-8 Markdown); re-save it as "
            "UTF-8 (e.g. iconv -f latin1 -t utf-8, or your editor's encoding menu) and export again"
        )
    if problem is None:
        return None
    return f"{problem}, which import refuses; take the secret out of the file and export again"


def read_entry(
    zf: zipfile.ZipFile,
    info: zipfile.ZipInfo,
    *,
    cap: int = ARCHIVE_MAX_ENTRY_BYTES,
    unpacked: int = 0,
) -> tuple[bytes | None, str | None]:
    """The entry's bytes, or why not: unpacked through a counted stream, bounded by the bytes it
    really produces, never by its header's word alone.

    zipfile stops an entry at the size its header declares and checks the CRC only at that
    point, so an entry whose header understated its size was cut short there, its bytes past it
    never seen (the old "more bytes than its header declares" test could not fire). Here the
    entry is opened as declaring one byte more than it may give (the least of its declared
    size, the cap and the room the `unpacked` bytes leave under the total cap), read in chunks
    and counted, and refused the moment the count passes that bound: memory stays within the
    bound plus one chunk, and nothing of the entry is kept. Its CRC is then checked here, over all of
    it, so a damaged stream is still refused. bzip2 and LZMA entries (the manifest too) are
    refused unread: zipfile gives no bound on what one of their chunks unpacks to.
    """
    if info.compress_type in _UNBOUNDED_METHODS:
        return None, (
            f"cannot be unpacked in bounded memory: it is packed with "
            f"{_UNBOUNDED_METHODS[info.compress_type]}, which this reader unpacks a whole "
            "chunk at a time (330 bytes of bzip2 gave 256 MiB at once); memdir-nb export "
            "writes deflate: re-zip the memory dir with deflate (zip -r -Z deflate) and import that"
        )
    room = ARCHIVE_MAX_TOTAL_BYTES - unpacked
    bound = max(min(info.file_size, cap, room), 0)
    counted = copy.copy(info)
    counted.file_size = bound + 1
    # without a CRC zipfile checks none (ZipExtFile has asked hasattr(info, 'CRC') since 2.7):
    # its own check would fall one byte past the bound; the CRC is checked below instead
    del counted.CRC
    chunks: list[bytes] = []
    produced = 0
    try:
        with zf.open(counted) as fh:
            while chunk := fh.read(min(_READ_CHUNK, bound + 1 - produced)):
                produced += len(chunk)
                if produced > bound:
                    return None, _overrun(info.file_size, cap, room)
                chunks.append(chunk)
    except _UNPACK_ERRORS as exc:
        return None, f"cannot be unpacked ({type(exc).__name__}: {exc})"
    data = b"".join(chunks)
    if len(data) != info.file_size:
        return None, (
            f"cannot be unpacked (it ends after {len(data):,} bytes, but its header declares "
            f"{info.file_size:,}; the archive is damaged)"
        )
    if zlib.crc32(data) != info.CRC:
        return (
            None,
            "cannot be unpacked (its bytes fail the header's CRC-32; the archive is damaged)",
        )
    return data, None


def _overrun(declared: int, cap: int, room: int) -> str:
    """Why an entry whose unpacking passed its bound is refused, naming the bound it passed."""
    if declared <= min(cap, room):
        return (
            f"unpacks to more bytes than the {declared:,} its header declares (a header that "
            "understates its size is how a compression bomb hides); nothing of it was written"
        )
    if cap <= room:
        return f"unpacks past the {cap:,}-byte cap for one file; nothing of it was written"
    return f"would take the unpacked total over the {ARCHIVE_MAX_TOTAL_BYTES:,}-byte cap"


def content_refusal(name: str, data: bytes) -> str | None:
    """Why an entry's bytes may not be written (not text; a secret bound for team/), else None."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return NOT_UTF8_TEXT
    if name.split("/")[0] == TEAM_DIRNAME:
        findings = scan_memory_file(name, text)
        if findings:
            return f"would put a secret into team memory: {format_findings(findings)}"
    return None


def manifest_mtimes(zf: zipfile.ZipFile) -> dict[str, int]:
    """Exact mtimes (ns) from the archive's manifest; {} when absent or unusable."""
    try:
        info = zf.getinfo(ARCHIVE_MANIFEST_NAME)
    except KeyError:
        return {}
    if info.file_size > ARCHIVE_MANIFEST_MAX_BYTES:
        return {}
    data, problem = read_entry(zf, info, cap=ARCHIVE_MANIFEST_MAX_BYTES)
    if problem is not None or data is None:
        return {}
    try:
        doc = loads_bounded(
            data,
            max_bytes=ARCHIVE_MANIFEST_MAX_BYTES,
            what="archive manifest",
            max_values=ARCHIVE_MANIFEST_MAX_VALUES,
        )
    except ValueError:
        return {}
    files = doc.get("files") if isinstance(doc, dict) else None
    out: dict[str, int] = {}
    for name, meta in (files or {}).items() if isinstance(files, dict) else ():
        ns = meta.get("mtime_ns") if isinstance(meta, dict) else None
        if type(ns) is int and 0 <= ns < 2**62:
            out[str(name)] = ns
    return out


def zip_mtime_ns(info: zipfile.ZipInfo) -> int | None:
    """The entry's header date in ns, or None when it names no real moment.

    A DOS date holds month and day as bare fields: 0 (what a tool writes for "no date", read
    as 1980-00-00), month 13, day 31 of February or hour 25 are no date, and the file keeps
    the time it is written at. datetime's ValueError ended the whole import (attack round 29).
    """
    try:
        moment = _dt.datetime(*info.date_time, tzinfo=_dt.UTC)
    except ValueError:
        return None
    return int(moment.timestamp()) * 1_000_000_000
