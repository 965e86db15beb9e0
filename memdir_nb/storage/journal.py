"""The store's crash journal: what a transaction writes before it changes a file, and how the
next transaction repairs a step that a crash (kill -9, power cut) interrupted. (The lock every
write step takes first is storage.lock_file.)

Records are JSON lines, each fsynced before the change it describes:
`{"op": "write", "path", "backup", "tmp", "size", "sha256"}` (backup: a hard link to the version
replaced, None when the file is new; size and sha256: the bytes the step writes) and
`{"op": "move", "src", "dst", "ino"}` (ino: the inode of the file moved); `{"op": "commit"}`
marks the step done. Unfinished steps are undone newest first; committed ones only lose their
backups. Every path is reopened from the memory dir's descriptor without following symlinks.

Undoing never removes or replaces what a person wrote: a file is deleted, overwritten by its
backup or moved back only when it is provably the one the step wrote (its size and sha256, or
its inode, as recorded). Anything else at that name (a person's edit after a crash, a journal
planted or synced from another machine, one from an older version without these fields) is
kept where it is, and recovery says so.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
import stat
from typing import Any

from memdir_nb.clock import system_clock_ms
from memdir_nb.formats.jsonio import JSONLimitError, loads_bounded
from memdir_nb.spec import constants, timestamps
from memdir_nb.storage import containment as team_paths
from memdir_nb.storage import fsutil
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.log_lock import StepLogsLock


def is_dir_at(dfd: int, name: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(name, dir_fd=dfd, follow_symlinks=False).st_mode)
    except FileNotFoundError:
        return False


def _same_file(dfd: int, a: str, b: str) -> bool:
    return _same_file_between((dfd, a), (dfd, b))


def _same_file_between(a: tuple[int, str], b: tuple[int, str]) -> bool:
    """Two names (each a folder's descriptor and a name in it) for one file."""
    try:
        sa = os.stat(a[1], dir_fd=a[0], follow_symlinks=False)
        sb = os.stat(b[1], dir_fd=b[0], follow_symlinks=False)
    except FileNotFoundError:
        return False
    return (sa.st_dev, sa.st_ino) == (sb.st_dev, sb.st_ino)


def keep_old(dfd: int, name: str, backup: str) -> None:
    """Keep the version about to be replaced under `backup` (hard link; bounded copy if links fail)."""
    try:
        os.link(name, backup, src_dir_fd=dfd, dst_dir_fd=dfd, follow_symlinks=False)
    except OSError:
        part = backup + ".part"
        fsutil.write_new_at(dfd, part, fsutil.iter_chunks_at(dfd, name))
        os.rename(part, backup, src_dir_fd=dfd, dst_dir_fd=dfd)
    # the folder is fsynced once, after the rename that follows, which makes both entries durable


def _parent_fd(root_fd: int, rel: str) -> tuple[int, str] | None:
    parts = rel.split("/")
    if any(p in ("", ".", "..") for p in parts):
        raise team_paths.PathTraversalError(
            "escapes-dir", f"journal names {rel!r}, which is not a path inside the memory dir"
        )
    try:
        return fsutil.open_dir_nofollow(root_fd, parts[:-1], create=False), parts[-1]
    except FileNotFoundError:
        return None


def content_identity(payload: bytes) -> dict[str, Any]:
    """The fields of a write record that let recovery prove a file is the one its step wrote."""
    return {"size": len(payload), "sha256": hashlib.sha256(payload).hexdigest()}


def file_identity_at(dfd: int, name: str) -> dict[str, Any]:
    """content_identity of a regular file, read in chunks (memory does not grow with the file)."""
    digest, size = hashlib.sha256(), 0
    for chunk in fsutil.iter_chunks_at(dfd, name):
        digest.update(chunk)
        size += len(chunk)
    return {"size": size, "sha256": digest.hexdigest()}


def _is_logged_content(dfd: int, name: str, rec: dict[str, Any]) -> bool:
    """Whether `name` is a regular file holding exactly the bytes this write record's step wrote.

    The size is compared first, so a large file planted at the name is not read.
    """
    size, sha = rec.get("size"), rec.get("sha256")
    if not isinstance(size, int) or not isinstance(sha, str):
        return False  # a record without them (planted, or from an older version) proves nothing
    try:
        if os.stat(name, dir_fd=dfd, follow_symlinks=False).st_size != size:
            return False
        return file_identity_at(dfd, name) == {"size": size, "sha256": sha}
    except OSError:  # a symlink, FIFO or folder at the name: not what a write step leaves
        return False


def _kept(rel: str, why: str) -> str:
    return (
        f"kept {rel} as it is: {why}, so it may be a person's; check it (an interrupted step "
        "may have left it half-changed)"
    )


def _unlink_quiet(dfd: int, name: str | None) -> None:
    if name and fsutil.exists_at(dfd, name):  # a name past NAME_MAX (an old journal's) is not there
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=dfd)


def _undo_move(root_fd: int, rec: dict[str, Any]) -> str | None:
    src, dst = _parent_fd(root_fd, rec["src"]), _parent_fd(root_fd, rec["dst"])
    try:
        if not (src and dst and fsutil.exists_at(dst[0], dst[1])):
            return None
        if fsutil.exists_at(*src):
            # Stopped between the move's two steps (a link under the new name, then the old
            # name dropped): both names hold the moved file, and the new one goes.
            if _same_file_between(src, dst) and _ino(dst) == rec.get("ino"):
                os.unlink(dst[1], dir_fd=dst[0])
                fsutil.fsync_fd(dst[0])
            return None
        if os.stat(dst[1], dir_fd=dst[0], follow_symlinks=False).st_ino != rec.get("ino"):
            return _kept(rec["dst"], f"it is not the file the step moved there from {rec['src']}")
        os.rename(dst[1], src[1], src_dir_fd=dst[0], dst_dir_fd=src[0])
        fsutil.fsync_fd(src[0])
        return None
    finally:
        for pair in (src, dst):
            if pair:
                os.close(pair[0])


def _ino(where: tuple[int, str]) -> int:
    return os.stat(where[1], dir_fd=where[0], follow_symlinks=False).st_ino


def _undo_write(dfd: int, name: str, rec: dict[str, Any]) -> str | None:
    _unlink_quiet(dfd, rec.get("tmp"))
    backup = rec.get("backup")
    ours = fsutil.exists_at(dfd, name) and _is_logged_content(dfd, name, rec)
    if backup and fsutil.exists_at(dfd, backup):
        if _same_file(dfd, backup, name):  # killed before the rename: the old file is in place
            os.unlink(backup, dir_fd=dfd)  # (rename between two links of one file does nothing)
        elif ours or not fsutil.exists_at(dfd, name):
            os.rename(backup, name, src_dir_fd=dfd, dst_dir_fd=dfd)
        else:
            why = "it is not what the step wrote"
            return _kept(rec["path"], f"{why}; the version before the step is {backup} beside it")
    elif not backup and fsutil.exists_at(dfd, name):
        if not ours:
            return _kept(rec["path"], "the step was creating it, but it is not what the step wrote")
        os.unlink(name, dir_fd=dfd)
    return None


def _undo_one(root_fd: int, rec: dict[str, Any]) -> str | None:
    """Undo one record; a note when a file was kept because it is not provably the step's."""
    if rec["op"] == "move":
        return _undo_move(root_fd, rec)
    where = _parent_fd(root_fd, rec["path"])
    if where is None:
        return None
    dfd, name = where
    try:
        note = _undo_write(dfd, name, rec)
        fsutil.fsync_fd(dfd)
        return note
    finally:
        os.close(dfd)


def undo_records(root_fd: int, records: list[dict[str, Any]]) -> tuple[list[str], list[str]]:
    """Undo records newest first; (what could not be undone, the files kept as not the step's)."""
    failed: list[str] = []
    kept: list[str] = []
    for rec in reversed(records):
        try:
            note = _undo_one(root_fd, rec)
        except OSError as exc:  # keep undoing the rest; report what could not be restored
            failed.append(
                f"could not undo the {rec['op']} of {rec.get('path', rec.get('src'))}: {exc}"
            )
        else:
            if note is not None:
                kept.append(note)
    return failed, kept


def finish_records(root_fd: int, records: list[dict[str, Any]]) -> None:
    """After a commit: drop backups and stray temp files (idempotent)."""
    for rec in records:
        if rec["op"] != "write":
            continue
        where = _parent_fd(root_fd, rec["path"])
        if where is None:
            continue
        dfd, _ = where
        try:
            _unlink_quiet(dfd, rec.get("backup"))
            _unlink_quiet(dfd, rec.get("tmp"))
        finally:
            os.close(dfd)


class CorruptJournal(ValueError):
    """The journal cannot be trusted: not UTF-8, a line that is not a record, or over a cap."""


# The names a write record may give its side files, exactly as the transaction makes them:
# `.<name>.<txid>-<seq>.bak` and `.tmp` (the name cut by side_stem; the txid hex groups
# joined by '-', today `<pid>-<8 hex>`), one hidden component in the file's own folder, named
# after that file. Recovery unlinks and renames them from that folder's descriptor, so a journal
# naming anything else (`../x`, another memory, a person's own hidden `.notes.tmp`) would have it
# delete or pull in a file the step never wrote.
_OPTIONAL_NAMES = {"backup": ".bak", "tmp": ".tmp"}
_SIDE_TAIL = re.compile(r"\.[0-9a-f]+(?:-[0-9a-f]+)*-[0-9]+")  # .<txid>-<seq>


def _relative_problem(rel: str) -> str | None:
    """Why a journal path is not a '/'-separated path inside the memory dir, else None."""
    if "\0" in rel or any(p in ("", ".", "..") for p in rel.split("/")):
        return "is not a path inside the memory dir"
    return None


def side_name(name: str, txid: str, seq: int, suffix: str) -> str:
    """A side file's name for the file `name` (`.<name>.<txid>-<seq>.tmp`, `.bak`, `.part`;
    fsutil.side_stem keeps it within NAME_MAX)."""
    return f"{fsutil.side_stem(name)}.{txid}-{seq}{suffix}"


def _side_name_problem(name: str, suffix: str, path: str) -> str | None:
    """Why a backup or temp name is not one the transaction writes for `path`, else None.
    A journal written before side_stem cut names by bytes cut them at 180 characters."""
    base = path.rsplit("/", 1)[-1]
    for stem in {fsutil.side_stem(base), "." + base[:180]}:
        tail = name[len(stem) : len(name) - len(suffix)]
        if name.startswith(stem) and name.endswith(suffix) and _SIDE_TAIL.fullmatch(tail):
            return None
    return f"is not a hidden {suffix} file a step writes beside it"


def _write_names_problem(rec: dict[str, Any]) -> str | None:
    """Why a write record's path, backup or temp name is not one its step could write, else None."""
    problem = _relative_problem(rec["path"])
    if problem:
        return f"is a write record whose path {rec['path']!r} {problem}"
    for key, suffix in _OPTIONAL_NAMES.items():
        value = rec.get(key)
        if value is None:
            continue
        if not isinstance(value, str):
            return f"is a write record whose {key!r} is not a file name"
        problem = _side_name_problem(value, suffix, rec["path"])
        if problem:
            return f"is a write record whose {key} {value!r} {problem}"
    return None


def record_problem(rec: object) -> str | None:
    """Why one decoded journal line is not a record this store writes, else None.

    Shape and names both: every path is relative and stays inside the memory dir, and a write's
    backup and temp files are hidden names beside the file (what the transaction writes).
    """
    if not isinstance(rec, dict):
        return f"is a JSON {type(rec).__name__}, not a record object"
    op = rec.get("op")
    if op == "commit":
        return None
    if op == "write":
        if not isinstance(rec.get("path"), str) or not rec["path"]:
            return "is a write record without a 'path' string"
        return _write_names_problem(rec)
    if op == "move":
        if not all(isinstance(rec.get(k), str) and rec[k] for k in ("src", "dst")):
            return "is a move record without 'src' and 'dst' strings"
        for key in ("src", "dst"):
            problem = _relative_problem(rec[key])
            if problem:
                return f"is a move record whose {key} {rec[key]!r} {problem}"
        return None
    return f"has op {op!r}; a journal holds only 'write', 'move' and 'commit' records"


def parse_journal(raw: bytes) -> tuple[list[dict[str, Any]], bool]:
    """(change records, committed) of a journal's bytes; raises CorruptJournal naming the line.

    A last line that is not complete JSON is a torn write (its change never started, as
    records are fsynced first) and is dropped; any other bad line makes the journal corrupt.
    """
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorruptJournal(f"it is not UTF-8 text (byte {exc.start})") from None
    lines = text.split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    records: list[dict[str, Any]] = []
    committed = False
    for i, line in enumerate(lines[: last + 1]):
        if not line.strip():
            continue
        try:
            rec = loads_bounded(
                line,
                max_bytes=constants.STORE_JOURNAL_MAX_BYTES,
                what=f"line {i + 1}",
                max_values=constants.STORE_JOURNAL_RECORD_MAX_VALUES,
            )
        except JSONLimitError as exc:
            raise CorruptJournal(str(exc)) from None
        except ValueError:
            if i == last:
                break  # a torn last line
            raise CorruptJournal(f"line {i + 1} is not JSON") from None
        problem = record_problem(rec)
        if problem is not None:
            raise CorruptJournal(f"line {i + 1} {problem}")
        if rec["op"] == "commit":
            committed = True
        else:
            records.append(rec)
    return records, committed


def _read_journal(root_fd: int) -> tuple[list[dict[str, Any]], bool] | None:
    """The journal's records, None when there is none; CorruptJournal when it cannot be trusted."""
    try:
        raw = fsutil.read_at(
            root_fd, constants.STORE_JOURNAL_NAME, constants.STORE_JOURNAL_MAX_BYTES
        )
    except FileNotFoundError:
        return None
    except OSError as exc:  # over the cap, a FIFO or a folder at its name, unreadable
        raise CorruptJournal(f"it cannot be read ({exc.strerror or exc})") from None
    return parse_journal(raw)


def journal_corruption(root_fd: int) -> str | None:
    """Why the journal in this memory dir cannot be trusted, None when it is absent or sound."""
    try:
        _read_journal(root_fd)
    except CorruptJournal as exc:
        return str(exc)
    return None


def set_aside(root_fd: int) -> str:
    """Rename the journal to .memdir.journal.corrupt-<UTC time> (never over another file); the name."""
    stamp = timestamps.trash_stamp(system_clock_ms())
    base = f"{constants.STORE_JOURNAL_NAME}.corrupt-{stamp}"
    name, n = base, 1
    while fsutil.exists_at(root_fd, name):
        n += 1
        name = f"{base}-{n}"
    os.rename(constants.STORE_JOURNAL_NAME, name, src_dir_fd=root_fd, dst_dir_fd=root_fd)
    fsutil.fsync_fd(root_fd)
    return name


def _record_parts(rec: dict[str, Any]) -> list[tuple[str, ...]]:
    """The paths one change record names, each split into its parts."""
    names = [rec["path"]] if rec["op"] == "write" else [rec["src"], rec["dst"]]
    return [tuple(name.split("/")) for name in names]


def recover_journal(root_fd: int, real_root: str | None = None) -> list[str]:
    """Repair after a crash: roll an unfinished step back, or finish a committed one; what was done.

    A repair that renames a daily log's backup back, or drops it, is a store step like any
    other: given the dir's real path, it takes the daily-log lock (storage.log_lock) before it
    touches anything when the journal names a path under logs/, so an append waits for it
    rather than landing in a file about to be replaced; released when the repair is done.
    A corrupt journal is not replayed (its records cannot be trusted): it is renamed to
    .memdir.journal.corrupt-<time>, kept for a person to read, and the store goes on.
    """
    logs_lock = StepLogsLock(real_root)
    try:
        return _recover(root_fd, logs_lock)
    finally:
        logs_lock.release()


def _recover(root_fd: int, logs_lock: StepLogsLock) -> list[str]:
    try:
        found = _read_journal(root_fd)
    except CorruptJournal as exc:
        aside = set_aside(root_fd)
        return [
            f"set aside a corrupt store journal as {aside} ({exc}); nothing in it was "
            "replayed. Check the files it names, then delete it"
        ]
    if found is None:
        return []
    records, committed = found
    for parts in (p for rec in records for p in _record_parts(rec)):
        logs_lock.hold_for(root_fd, parts)  # taken once, before the first change
    if committed:
        finish_records(root_fd, records)
        done = [f"finished a committed step ({len(records)} change(s)) interrupted before cleanup"]
    else:
        failed, kept = undo_records(root_fd, records)
        if failed:
            raise OSError(
                errno.EIO,
                "an interrupted store step could not be rolled back: "
                + "; ".join(failed)
                + f". Fix the named paths, then call MemoryStore.recover() again "
                f"({constants.STORE_JOURNAL_NAME} is kept until then)",
            )
        files = sorted({str(r.get("path") or r.get("dst")) for r in records})
        done = [f"rolled back an interrupted step: {', '.join(files)}", *kept]
    os.unlink(constants.STORE_JOURNAL_NAME, dir_fd=root_fd)
    fsutil.fsync_fd(root_fd)
    return done


def journal_damage(memory_dir: str | os.PathLike[str]) -> str | None:
    """Why the memory dir's store journal cannot be trusted (read-only check), None when sound or absent."""
    try:
        root_fd = fsutil.open_real_dir(absolute_dir(memory_dir))[1]
    except OSError:
        return None
    try:
        return journal_corruption(root_fd)
    finally:
        os.close(root_fd)


def journal_problem(memory_dir: str | os.PathLike[str]) -> str | None:
    """A sentence for lint when an interrupted step awaits repair, None when there is none."""
    path = absolute_dir(memory_dir) / constants.STORE_JOURNAL_NAME
    if not os.path.lexists(path):
        return None
    corrupt = journal_damage(memory_dir)
    if corrupt is not None:
        return (
            f"{path} is corrupt: {corrupt}; the next save, or MemoryStore(...).recover(), sets "
            f"it aside as {constants.STORE_JOURNAL_NAME}.corrupt-<time> without replaying it"
        )
    return (
        f"{path} records a store step that was interrupted (a crash or kill); the next save, "
        "or MemoryStore(...).recover(), rolls it back"
    )
