"""Memory that moves: one memory dir to a zip archive and back, on another machine.

`export_archive` packs every regular, non-hidden file of a memory dir (team/ and logs/
included; the store's lock, journal, trash and other dot-files stay out) with a manifest of
exact sizes, hashes and mtimes, so a round trip gives back the same names, bytes and mtimes.
An earlier archive it replaces with other bytes is moved beside it as
`<stem>.kept-<UTC stamp>.zip`, never lost.

`import_archive` unpacks through the store's transaction and never overwrites silently: a file
that exists with other bytes is a named conflict, unless overwrite=True moves the old one into
.trash/ first. It refuses, entry by entry and with the reason, anything a crafted archive could
use: absolute or `..` paths, symlinks and devices, names the name gate refuses, oversize
entries, compression bombs (each entry unpacked through a counted stream, bounded by its
declared size, the one-file cap and the total cap), and secrets bound for team/. Nothing is
ever written outside the memory dir.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import filecmp
import hashlib
import json
import os
import stat
import tempfile
import time
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from memdir_nb.clock import resolve_now_ms
from memdir_nb.formats.names import depth_problem, normal_twin, normal_twin_problem
from memdir_nb.spec.constants import (
    ARCHIVE_MANIFEST_NAME,
    ARCHIVE_MAX_BYTES,
    ARCHIVE_MAX_ENTRIES,
    ARCHIVE_MAX_ENTRY_BYTES,
    IMPORT_BATCH_PREFIX,
    TRASH_DIRNAME,
)
from memdir_nb.spec.timestamps import trash_stamp
from memdir_nb.storage import fsutil
from memdir_nb.storage.access import ContainedReader, ReadRefused, ReadResult, try_read_contained
from memdir_nb.storage.archive_entries import (
    OPEN_ERRORS,
    content_refusal,
    entry_refusal,
    export_compression,
    export_refusal,
    folders_of,
    is_folder_entry,
    manifest_mtimes,
    open_problem,
    path_refusal,
    read_entry,
    zip_mtime_ns,
)
from memdir_nb.storage.folder_blocker import blocked_folder_problem, make_memory_dir
from memdir_nb.storage.import_report import (
    NOT_A_REGULAR_FILE,
    ImportReport,
    RefusedEntry,
    classify_entry,
)
from memdir_nb.storage.line_reader import open_regular
from memdir_nb.storage.name_twins import new_name_twin
from memdir_nb.storage.settled_read import (
    SETTLE_S,
    Unsettled,
    identity,
    read_settled,
    settle_deadline,
    unmoved,
)
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.zip_directory import count_central_entries

_ZIP_EPOCH = (1980, 1, 1, 0, 0, 0)
_ZIP_LAST = (2107, 12, 31, 23, 59, 58)  # the last date a zip entry can hold (two-second steps)


class ArchiveError(ValueError):
    """The archive (or the dir) cannot be used at all; the message names the problem and the fix."""


@dataclass(frozen=True)
class ExportReport:
    """What export_archive packed: the archive, each file (relative path), total bytes, skips."""

    archive: Path
    files: tuple[str, ...]
    bytes: int
    skipped: tuple[tuple[str, str], ...] = ()  # (relative path, why it was left out)
    kept: Path | None = None  # where the earlier archive at `archive` was moved, if one differed


# ---------------------------------------------------------------------------- export


def _hidden(rel_parts: tuple[str, ...]) -> bool:
    return any(p.startswith(".") for p in rel_parts)


def _folder_refusal(folder: Path) -> str | None:
    """Why the walk does not go into a folder (a symlink; a path it cannot look at), else None."""
    try:
        mode = os.lstat(folder).st_mode
    except OSError as exc:  # a path past the system's limit (ENAMETOOLONG), or gone since
        return f"could not be looked at ({exc.strerror}), so nothing under it was packed"
    return "a symlink (never followed)" if stat.S_ISLNK(mode) else None


def _packable(root: Path) -> tuple[list[tuple[str, Path, os.stat_result]], list[tuple[str, str]]]:
    """Every regular non-hidden file under root (no link followed), and what was left out."""
    files: list[tuple[str, Path, os.stat_result]] = []
    skipped: list[tuple[str, str]] = []
    packed: set[str] = set()
    for folder, dirs, names in os.walk(root, followlinks=False):
        here = Path(folder)
        rel_dir = here.relative_to(root).parts
        dirs[:] = sorted(d for d in dirs if not d.startswith("."))
        for d in list(dirs):
            why = depth_problem(len(rel_dir) + 1) or _folder_refusal(here / d)
            if why is not None:
                skipped.append(("/".join((*rel_dir, d)), why))
                dirs.remove(d)
        for name in sorted(names):
            rel = "/".join((*rel_dir, name))
            if _hidden((*rel_dir, name)):
                continue
            try:
                st = os.lstat(here / name)
            except OSError as exc:  # removed (or its folder swapped) since the walk listed it
                skipped.append((rel, f"could not be looked at as it was listed ({exc.strerror})"))
                continue
            if not stat.S_ISREG(st.st_mode):
                skipped.append((rel, "not a regular file (a symlink, FIFO or device)"))
                continue
            problem = path_refusal(rel)
            twin = normal_twin(rel, packed) if problem is None else None
            if twin is not None:  # import refuses the second of two such names (security §42)
                problem = "its name " + normal_twin_problem(rel, twin, "is packed already")
            if problem is None and st.st_size > ARCHIVE_MAX_ENTRY_BYTES:
                problem = (
                    f"is {st.st_size:,} bytes, over the {ARCHIVE_MAX_ENTRY_BYTES:,}-byte cap "
                    "import takes for one file"
                )
            if problem is not None:  # import would refuse it: leave it out and say so
                skipped.append((rel, problem))
                continue
            files.append((rel, here / name, st))
            packed.add(rel)
    return files, skipped


def _zip_time(mtime_ns: int) -> tuple[int, int, int, int, int, int]:
    """A file's mtime as a zip entry's date, clamped to what a zip can hold (1980 to 2107)."""
    try:
        moment = _dt.datetime.fromtimestamp(mtime_ns / 1e9, tz=_dt.UTC)
    except (OverflowError, OSError, ValueError):  # beyond datetime's years: past either end
        return _ZIP_EPOCH if mtime_ns < 0 else _ZIP_LAST
    if moment.year < 1980:
        return _ZIP_EPOCH
    if moment.year > _ZIP_LAST[0]:
        return _ZIP_LAST
    return (moment.year, moment.month, moment.day, moment.hour, moment.minute, moment.second)


@dataclass
class _Packing:
    """One export's entries as they are read and packed, and what was left out and why."""

    reader: ContainedReader
    deadline: float
    manifest: dict[str, dict[str, object]]
    skipped: list[tuple[str, str]]
    total: int = 0
    empty: list[tuple[str, Path, os.stat_result, ReadResult]] = field(default_factory=list)
    empty_at: float = 0.0

    def pack(self, zf: zipfile.ZipFile, rel: str, path: Path, st: os.stat_result) -> None:
        """Read one file once it stands still and pack it, or say why it was left out. The
        contained reader: no link followed, no FIFO waited on, the cap enforced; settled, so an
        editor's in-place save is never archived half-written (attack38b). An empty file waits
        for the second look of pack_empty_ones (storage.settled_read: a truncate in flight)."""
        res = read_settled(
            self.reader, path, ARCHIVE_MAX_ENTRY_BYTES, deadline=self.deadline, confirm_empty=False
        )
        if isinstance(res, ReadResult) and not res.data and not res.truncated:
            self.empty.append((rel, path, st, res))
            self.empty_at = time.monotonic()
            return
        self._add(zf, rel, st, res)

    def pack_empty_ones(self, zf: zipfile.ZipFile) -> None:
        """Pack each empty file still unchanged SETTLE_S after its read; read again any that
        moved (an in-place save had begun), as pack would with a pause of its own."""
        if not self.empty:
            return
        time.sleep(max(0.0, self.empty_at + SETTLE_S - time.monotonic()))
        for rel, path, st, res in self.empty:
            if unmoved(path, identity(res.stat)):
                self._add(zf, rel, st, res)
            else:
                cap = ARCHIVE_MAX_ENTRY_BYTES
                self._add(zf, rel, st, read_settled(self.reader, path, cap, deadline=self.deadline))

    def _add(
        self,
        zf: zipfile.ZipFile,
        rel: str,
        st: os.stat_result,
        res: ReadResult | ReadRefused | Unsettled,
    ) -> None:
        if isinstance(res, Unsettled):
            self.skipped.append((rel, res.why))
            return
        if not isinstance(res, ReadResult) or res.truncated:
            why = "grew past the cap" if isinstance(res, ReadResult) else str(res)
            self.skipped.append((rel, f"could not be read as it was listed ({why})"))
            return
        data = res.data
        left_out = export_refusal(rel, data, len(self.manifest), self.total)
        if left_out is not None:  # import would refuse it: leave it out, say so
            self.skipped.append((rel, left_out))
            return
        info = zipfile.ZipInfo(rel, date_time=_zip_time(st.st_mtime_ns))
        info.external_attr = (stat.S_IFREG | fsutil.FILE_MODE) << 16
        info.compress_type = export_compression(data)
        zf.writestr(info, data)
        self.manifest[rel] = {
            "size": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "mtime_ns": st.st_mtime_ns,
        }
        self.total += len(data)


def export_archive(
    memory_dir: str | os.PathLike[str], archive: str | os.PathLike[str]
) -> ExportReport:
    """Pack a memory dir into a zip (written beside its target, then moved into place)."""
    root = Path(os.path.abspath(os.fspath(memory_dir)))
    target = Path(os.path.abspath(os.fspath(archive)))
    if not root.is_dir():
        raise ArchiveError(
            f"{root} is not a directory; pass the memory dir (the folder with MEMORY.md)"
        )
    if target == root or root in target.parents:
        raise ArchiveError(f"{target} is inside the memory dir {root}; write the archive elsewhere")
    _check_export_target(target)
    files, skipped = _packable(root)
    manifest: dict[str, dict[str, object]] = {}
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(
        prefix=f"{fsutil.side_stem(target.name)}.", suffix=".tmp", dir=target.parent
    )
    os.close(fd)
    packing = _Packing(ContainedReader(root), settle_deadline(), manifest, skipped)
    try:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for rel, path, st in files:
                packing.pack(zf, rel, path, st)
            packing.pack_empty_ones(zf)
            body = json.dumps({"version": 1, "files": manifest}, indent=1, sort_keys=True)
            zf.writestr(zipfile.ZipInfo(ARCHIVE_MANIFEST_NAME, date_time=_ZIP_EPOCH), body)
        fsutil.fsync_file(tmp)  # durable before it replaces an earlier archive
        kept = _keep_earlier(target, Path(tmp))
        os.replace(tmp, target)
        fsutil.fsync_dir(target.parent)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    packed = tuple(r for r, _, _ in files if r in manifest)
    return ExportReport(target, packed, packing.total, tuple(skipped), kept)


def _keep_earlier(target: Path, new: Path) -> Path | None:
    """Move an earlier archive at target beside it as <stem>.kept-<UTC stamp><suffix>, unless it
    holds the new archive's bytes: an archive may be a person's only copy of a dir (the demo
    keeps an edited earlier demo the same way). None when nothing needed keeping."""
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return None
    # a regular file is compared in blocks; anything else (swapped in since the check) is kept
    if stat.S_ISREG(st.st_mode) and filecmp.cmp(target, new, shallow=False):
        return None
    suffix = target.suffix if len(target.suffix.encode("utf-8", "surrogateescape")) <= 16 else ""
    stem = fsutil.side_stem(target.name[: len(target.name) - len(suffix)])[1:]
    kept = target.with_name(f"{stem}.kept-{trash_stamp(resolve_now_ms(), with_ms=True)}{suffix}")
    if os.path.lexists(kept):
        raise ArchiveError(
            f"{kept} already exists, so the earlier archive at {target} could not be kept beside "
            "it; export again in a moment (nothing was written)"
        )
    os.replace(target, kept)
    return kept


def _check_export_target(target: Path) -> None:
    """Refuse a target export did not write: a folder, or anything but an earlier memory archive."""
    if target.is_dir() and not target.is_symlink():
        raise ArchiveError(
            f"{target} is a folder; give the archive a file name, such as "
            f"{target / 'memory.zip'} (nothing was written)"
        )
    if not os.path.lexists(target):
        return
    earlier = False
    if target.is_file() and not target.is_symlink():
        try:
            with _open_archive(target) as zf:
                earlier = ARCHIVE_MANIFEST_NAME in zf.namelist()
        except ArchiveError:
            earlier = False
    if not earlier:
        raise ArchiveError(
            f"{target} already exists and is not a memory archive written by memdir-nb export, "
            "so nothing was written; choose a new file name, or move that file aside"
        )


# ---------------------------------------------------------------------------- import


@contextlib.contextmanager
def _open_archive(archive: Path) -> Iterator[zipfile.ZipFile]:
    """The archive as a zip, after the whole-file checks; ArchiveError says why not.

    One open serves the checks and the reading (`line_reader.open_regular`: non-blocking, a
    regular file only), so what is read is what was checked: opening the path again let a
    file swapped in after the checks be imported unchecked, and a FIFO block (attack round 26).
    """
    try:
        fd, st = open_regular(archive)
    except ReadRefused as exc:
        if exc.kind == "not-regular":
            raise ArchiveError(
                f"{archive} is not a file ({exc.detail}); pass a .zip written by memdir-nb export"
            ) from None
        raise ArchiveError(f"cannot read {archive}: {exc.detail}") from None
    with os.fdopen(fd, "rb") as fp:
        if st.st_size > ARCHIVE_MAX_BYTES:
            raise ArchiveError(
                f"{archive} is {st.st_size:,} bytes, over the {ARCHIVE_MAX_BYTES:,}-byte cap"
            )
        try:
            # counted before zipfile builds one object per entry (millions: gigabytes of memory)
            listed = count_central_entries(fp, st.st_size, ARCHIVE_MAX_ENTRIES)
            if listed is not None and listed > ARCHIVE_MAX_ENTRIES:
                raise ArchiveError(
                    f"{archive} lists more than {ARCHIVE_MAX_ENTRIES:,} entries, over the cap "
                    "(nothing was written); a memory archive holds one entry per memory file"
                )
            fp.seek(0)
            zf = zipfile.ZipFile(fp)
        except OPEN_ERRORS as exc:
            raise ArchiveError(
                f"{archive} is not a zip archive that can be imported ({open_problem(exc)}); "
                "nothing was written; pass a file written by memdir-nb export"
            ) from None
        with zf:
            yield zf


def _accepted_entries(
    zf: zipfile.ZipFile, report: ImportReport, root: Path
) -> list[tuple[str, bytes, int | None]]:
    """(name, bytes, mtime_ns) of every entry that may be written into root; the rest go to
    report.refused (a new name that root holds in another Unicode normal form too)."""
    infos = zf.infolist()
    if len(infos) > ARCHIVE_MAX_ENTRIES:
        raise ArchiveError(
            f"the archive holds {len(infos):,} entries, over the {ARCHIVE_MAX_ENTRIES:,} cap"
        )
    mtimes = manifest_mtimes(zf)
    seen: set[str] = set()
    total = 0
    out: list[tuple[str, bytes, int | None]] = []
    for position, info in enumerate(infos, start=1):
        if is_folder_entry(info) or info.filename == ARCHIVE_MANIFEST_NAME:
            continue
        problem = entry_refusal(info, seen, total)
        seen.add(info.filename)
        if problem is None:
            seen.update(f"{folder}/" for folder in folders_of(info.filename))
        data: bytes | None = None
        if problem is None:  # total: the bytes really produced so far, counted by read_entry
            data, problem = read_entry(zf, info, unpacked=total)
        if problem is None and data is not None:
            problem = content_refusal(info.filename, data) or new_name_twin(root, info.filename)
        if problem is not None or data is None:
            reason = problem or "could not be read"
            report.refused.append(RefusedEntry(info.filename, reason, position))
            continue
        total += len(data)
        mtime_ns = mtimes.get(info.filename)
        out.append((info.filename, data, zip_mtime_ns(info) if mtime_ns is None else mtime_ns))
    return out


def _prepare_dir(memory_dir: str | os.PathLike[str]) -> Path:
    root = Path(os.path.abspath(os.fspath(memory_dir)))
    if root.is_symlink() or (root.exists() and not root.is_dir()):
        raise ArchiveError(
            f"{root} is not a directory (or is a symlink); pass the real memory dir to import into"
        )
    if (blocked := blocked_folder_problem(root)) is not None:  # a preview refuses it too
        raise ArchiveError(blocked)
    return root


def import_archive(
    archive: str | os.PathLike[str],
    memory_dir: str | os.PathLike[str],
    *,
    overwrite: bool = False,
    dry_run: bool = False,
    now_ms: float | None = None,
) -> ImportReport:
    """Unpack a memory archive into memory_dir through the store's transaction.

    A file that exists with other bytes is a conflict and is left alone, unless overwrite=True,
    which moves it into .trash/import-<time>/ before writing. dry_run=True writes nothing and
    reports what would happen. Refused entries are listed with their reason.
    """
    root = _prepare_dir(memory_dir)
    report = ImportReport(dry_run=dry_run)
    with _open_archive(Path(os.path.abspath(os.fspath(archive)))) as zf:
        entries = _accepted_entries(zf, report, root)
    now = resolve_now_ms(now_ms)
    trash = f"{TRASH_DIRNAME}/{IMPORT_BATCH_PREFIX}{trash_stamp(now)}-{os.getpid()}"
    if dry_run or not entries:
        for name, data, _ in entries:
            classify_entry(report, name, data, _current_bytes(root, name), overwrite)
        return report
    make_memory_dir(root)
    replaced: dict[str, dict[str, object]] = {}  # the batch's manifest, as restore reads it
    with MemoryStore(root).transaction() as tx:
        base, n = trash, 2
        while tx.exists(trash):  # a second import within the second keeps a batch of its own
            trash, n = f"{base}-{n}", n + 1
        tx.look_ahead(name for name, _, _ in entries)  # one pause for all empty files (§68)
        for name, data, mtime_ns in entries:
            current = tx.read_bytes(name, max_bytes=ARCHIVE_MAX_ENTRY_BYTES + 1)
            kind = classify_entry(report, name, data, current, overwrite)
            if kind == "replaced":  # the old version kept; a symlinked memory stays a link
                tx.keep_copy(name, f"{trash}/{name}")
                report.trash_dir = trash
                replaced[name] = {"before": True, "after_sha": hashlib.sha256(data).hexdigest()}
            if kind in ("written", "replaced"):
                # its own entry cap; over the bytes just compared only (a person's save since
                # then is kept), and a file made meanwhile is never replaced
                tx.write(
                    name,
                    data,
                    max_bytes=ARCHIVE_MAX_ENTRY_BYTES,
                    based_on=current,
                    create_only=current is None,
                    # the archive's time, given before the file takes its name (None: the
                    # entry's date names no moment, so it keeps the time of the import); it
                    # was set by path after the commit, where it backdated a save made
                    # meanwhile and raised for a file removed meanwhile (attack round 29)
                    mtime_ns=mtime_ns,
                )
        if replaced:  # `memdir-nb restore` lists the batch and puts the old files back
            manifest = {"created_ms": now, "actions": ["import"], "files": replaced}
            tx.write(f"{trash}/manifest.json", json.dumps(manifest, indent=2))
    return report


def _current_bytes(root: Path, name: str) -> bytes | None:
    """What the dir holds at name now (None: nothing), read contained, for a dry run."""
    if not os.path.lexists(root / name):
        return None
    res = try_read_contained(root, root / name, ARCHIVE_MAX_ENTRY_BYTES + 1)
    return res.data if isinstance(res, ReadResult) else NOT_A_REGULAR_FILE
