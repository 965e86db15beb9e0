"""The store's transaction: the one writer of a memory dir (lock, write-time checks, journal, rollback).

`MemoryStore.transaction()` yields a `StoreTransaction`. Every write of the package goes
through one: save, update, forget, promote, demote, dream apply and restore,
`rebuild_index(write=True)` and the extractor's Write and Edit.

- **Lock.** The store lock (`constants.STORE_LOCK_NAME`, an `flock`) is opened relative to
  the memory dir's descriptor with O_NOFOLLOW; a step naming a daily log holds the appends' lock
  too (storage.log_lock), so an append never lands in a file the step is replacing.
- **Checked when written.** Every target is resolved again at the moment it is written: both
  containment passes of `team_paths`, the realpath of the deepest existing ancestor, team-ness
  decided on that resolved path. The write then walks the resolved path one folder at a time
  with O_DIRECTORY|O_NOFOLLOW relative to the parent's descriptor, creates its temp file with
  O_CREAT|O_EXCL|O_NOFOLLOW in the final folder and renames it relative to that descriptor. A
  folder swapped for a symlink at any moment makes the write fail; it never lands outside.
- **Settled reads.** A file a step reads is read once it stands still, and a rename whose
  replaced file was written into since is undone (storage.step_reads: an editor saving in place).
- **Secret guard.** A write into team memory is scanned whole (every frontmatter key,
  comments, body), with its file name; for a team MEMORY.md, the lines it adds. A move into
  team scans the raw file being moved.
- **Journal.** Before a step changes a file it appends a record to `.memdir.journal` and
  fsyncs it; an overwritten file is first hard-linked to a backup name. A failure rolls the
  step back from the records; a crash (kill -9) leaves the journal, and the next transaction
  (or `MemoryStore.recover()`) rolls the unfinished step back, or finishes a committed one.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import json
import os
import secrets
import stat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from memdir_nb.spec import constants
from memdir_nb.spec.text import lone_surrogate_problem
from memdir_nb.storage import folder_blocker, fsutil
from memdir_nb.storage.access import file_kind
from memdir_nb.storage.journal import (
    content_identity,
    file_identity_at,
    finish_records,
    keep_old,
    recover_journal,
    side_name,
    undo_records,
)
from memdir_nb.storage.journal import journal_damage as journal_damage  # re-exported
from memdir_nb.storage.journal import journal_problem as journal_problem  # re-exported
from memdir_nb.storage.lock_file import lock_at
from memdir_nb.storage.log_lock import StepLogsLock
from memdir_nb.storage.step_reads import Published, check_replaced, read_settled_at
from memdir_nb.storage.targets import Target as Target  # re-exported
from memdir_nb.storage.targets import resolve_target
from memdir_nb.storage.team_guard import guard_team_write
from memdir_nb.storage.write_errors import ChangedMeanwhileError as ChangedMeanwhileError
from memdir_nb.storage.write_errors import NotTextError as NotTextError  # re-exported
from memdir_nb.storage.write_errors import NotUTF8Error as NotUTF8Error
from memdir_nb.storage.write_errors import TooLargeToWriteError as TooLargeToWriteError
from memdir_nb.storage.write_errors import TransactionError as TransactionError
from memdir_nb.storage.write_errors import appeared_meanwhile, require_utf8
from memdir_nb.storage.write_errors import write_size_problem as write_size_problem

CrashHook = Callable[[str], None]


class StoreTransaction:
    """One locked step over a memory dir: resolve, read, write, move; committed or rolled back as a whole."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        crash_hook: CrashHook | None = None,
        lock_timeout_s: float = constants.STORE_LOCK_TIMEOUT_S,
        owner_only: bool = False,
    ) -> None:
        self.memory_dir = Path(os.path.abspath(os.fspath(memory_dir)))
        self.crash_hook = crash_hook
        # owner_only: every file written is 0600 and every folder created 0700, whatever the umask
        self.owner_only = owner_only
        self.lock_timeout_s = lock_timeout_s
        self.recovered: list[str] = []  # what the journal of an interrupted step repaired
        self._root_fd: int | None = None
        self._lock_fd: int | None = None
        self._logs_lock = StepLogsLock(str(self.memory_dir))  # taken at the first daily log
        self._journal_fd: int | None = None
        self._records: list[dict[str, Any]] = []
        self._made_dirs: list[tuple[str, ...]] = []  # folders this step created, for a rollback
        self._txid = f"{os.getpid()}-{secrets.token_hex(4)}"
        self._seqs = itertools.count(1)  # side files' sequence numbers in this step
        self._published = Published()  # files steps renamed into place (step_reads)

    # -- life cycle

    def begin(self) -> None:
        """Take the lock, then repair whatever an interrupted step left (see recover_journal)."""
        if self._root_fd is not None:
            raise TransactionError("this transaction is already open; do not nest transactions")
        folder_blocker.make_memory_dir(self.memory_dir)
        real_root, self._root_fd = fsutil.open_real_dir(self.memory_dir)
        try:
            self._lock_fd = lock_at(
                self._root_fd, constants.STORE_LOCK_NAME, self.lock_timeout_s, real_root
            )
            self.recovered = recover_journal(self._root_fd, real_root)  # with the logs' lock
            self._published.fd = self._lock_fd
        except BaseException:
            self.close()
            raise

    def commit(self) -> None:
        """Mark the step done in the journal, drop the backups, then the journal."""
        self._made_dirs = []
        if self._journal_fd is None:
            return
        self._log({"op": "commit"})
        self._hook("commit:journaled")
        finish_records(self._need_root(), self._records)
        self._hook("commit:cleaned")
        self._drop_journal()
        self._published.save()

    def rollback(self) -> list[str]:
        """Undo every change of this step, newest first; return what could not be undone.

        Then the folders the step created are removed again when empty, deepest first.
        """
        failed, kept = (
            ([], []) if self._journal_fd is None else undo_records(self._need_root(), self._records)
        )
        if self._journal_fd is not None and not failed:
            self._drop_journal()  # else keep it: the next transaction retries the repair
        self._remove_made_dirs()
        return failed + kept

    def _remove_made_dirs(self) -> None:
        made, self._made_dirs = self._made_dirs, []
        for parts in sorted(made, key=len, reverse=True):
            with contextlib.suppress(OSError):  # not empty, or already gone: left as it is
                pfd = fsutil.open_dir_nofollow(self._need_root(), parts[:-1], create=False)
                try:
                    os.rmdir(parts[-1], dir_fd=pfd)
                finally:
                    os.close(pfd)

    def close(self) -> None:
        """Release the locks and every descriptor (idempotent)."""
        self._logs_lock.release()
        for name in ("_journal_fd", "_lock_fd", "_root_fd"):
            fd = getattr(self, name)
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
                setattr(self, name, None)

    # -- reading (contained, non-blocking, bounded)

    def resolve(self, path: str | os.PathLike[str], *, follow_final: bool = True) -> Target:
        """Check a target now (containment, symlinks, team rules); paths are relative to the memory dir or absolute."""
        t = resolve_target(self.memory_dir, path, follow_final=follow_final)
        self._logs_lock.hold_for(self._need_root(), t.parts)  # before it is read or changed
        return t

    def read_bytes(
        self,
        path: str | os.PathLike[str],
        *,
        max_bytes: int = constants.STORE_READ_MAX_BYTES,
        settled: bool = True,
    ) -> bytes | None:
        """A regular file's bytes (None when absent); refuses symlinked folders, FIFOs and files over
        max_bytes. Read once the file stands still (step_reads); settled=False: as it is now."""
        t = self.resolve(path)
        try:
            dfd = fsutil.open_dir_nofollow(self._need_root(), t.parts[:-1], create=False)
        except FileNotFoundError:
            return None
        try:
            if not settled:
                return fsutil.read_at(dfd, t.parts[-1], max_bytes)
            return read_settled_at(dfd, t.parts[-1], max_bytes, t.rel, self._published)
        except FileNotFoundError:
            return None
        finally:
            os.close(dfd)

    def read_text(
        self, path: str | os.PathLike[str], *, max_bytes: int = constants.STORE_READ_MAX_BYTES
    ) -> str | None:
        """read_bytes decoded as UTF-8; a file that is not UTF-8 raises NotUTF8Error.

        Text read here is about to be rewritten: replacing bad bytes would lose what a person
        wrote, so the step is refused instead (and rolled back).
        """
        data = self.read_bytes(path, max_bytes=max_bytes)
        if data is None:
            return None
        return require_utf8(self.resolve(path).rel, data)

    def exists(self, path: str | os.PathLike[str]) -> bool:
        """True when the target exists (a symlink counts)."""
        t = self.resolve(path)
        try:
            dfd = fsutil.open_dir_nofollow(self._need_root(), t.parts[:-1], create=False)
        except FileNotFoundError:
            return False
        try:
            return fsutil.exists_at(dfd, t.parts[-1])
        finally:
            os.close(dfd)

    # -- writing

    def write(
        self,
        path: str | os.PathLike[str],
        data: str | bytes,
        *,
        max_bytes: int = constants.STORE_WRITE_MAX_BYTES,
        create_only: bool = False,
        based_on: bytes | None = None,
        mtime_ns: int | None = None,
    ) -> Path:
        """Replace (or create) one file atomically; returns its real path.

        mtime_ns: the time the new version carries (an import keeps the archive's), set
        before it takes the name, so a later save by another program keeps its own time.

        based_on: the bytes the new text was made from. If the file holds anything else just
        before it is replaced (another program edited it meanwhile), ChangedMeanwhileError and
        nothing is written, rather than losing that edit.

        A visible file (not the store's own dot-files) over max_bytes is refused before
        anything is written: no later step could read it back to edit it. A write that creates
        a file never replaces one another program (Claude Code, an editor) made at that name
        while it ran: FileExistsError, that file kept. create_only: the file must not exist.
        """
        t = self.resolve(path)
        not_text = lone_surrogate_problem(data) if isinstance(data, str) else None
        if not_text is not None:
            raise NotTextError(f"the text for {t.rel} {not_text}")
        payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
        too_large = None if t.hidden else write_size_problem(t.rel, len(payload), max_bytes)
        if too_large is not None:
            raise TooLargeToWriteError(too_large)
        if t.team:
            self._guard(t, payload)
        self._hook(f"checked:{t.rel}")
        dfd = fsutil.open_dir_nofollow(
            self._need_root(),
            t.parts[:-1],
            create=True,
            dir_mode=self._dir_mode,
            made=self._made_dirs,
        )
        try:
            name = t.parts[-1]
            mode = fsutil.OWNER_FILE_MODE if self.owner_only else fsutil.existing_mode_at(dfd, name)
            fsutil.check_replaceable_at(dfd, name, t.rel)  # a folder, FIFO, socket or device
            seq = next(self._seqs)
            existed = fsutil.exists_at(dfd, name)
            if existed and create_only:
                raise FileExistsError(errno.EEXIST, f"{t.rel} already exists; nothing was written")
            backup = side_name(name, self._txid, seq, ".bak") if existed else None
            tmp = side_name(name, self._txid, seq, ".tmp")
            record = {"op": "write", "path": t.rel, "backup": backup, "tmp": tmp}
            self._log(record | content_identity(payload))
            self._hook(f"write:{t.rel}:journaled")
            fsutil.write_new_at(dfd, tmp, [payload], mode=mode, mtime_ns=mtime_ns)
            if based_on is not None and not fsutil.holds_at(dfd, name, based_on):
                os.unlink(tmp, dir_fd=dfd)
                self._records.pop()
                raise ChangedMeanwhileError(t.rel)
            if backup is not None:
                keep_old(dfd, name, backup)
            self._hook(f"write:{t.rel}:backed-up")
            if existed or not self._link_new(dfd, tmp, name, t.rel):
                os.rename(tmp, name, src_dir_fd=dfd, dst_dir_fd=dfd)
            self._published.note(dfd, name)
            if based_on is not None and backup is not None:  # an in-place save since the read
                check_replaced(dfd, backup, based_on, t.rel)
            fsutil.fsync_fd(dfd)
            self._hook(f"write:{t.rel}:done")
        finally:
            os.close(dfd)
        return t.path

    def write_edit(self, path: str | os.PathLike[str], read: str | None, data: str) -> Path:
        """`write` of text made from `read` (what read_text gave; None: there was no file),
        which the file must still hold (or still not exist): an edit made meanwhile is kept."""
        if read is None:
            return self.write(path, data, create_only=True)
        return self.write(path, data, based_on=read.encode("utf-8"))

    def _link_new(self, dfd: int, tmp: str, name: str, rel: str) -> bool:
        """Publish a new file under a name that must still be free (fsutil.link_new_at); a file
        that appeared there is kept, and this step's record of the write is dropped, so a
        rollback never takes that file for the step's own."""
        try:
            return fsutil.link_new_at(dfd, tmp, name)
        except FileExistsError:
            self._records.pop()
            raise FileExistsError(
                errno.EEXIST,
                f"{rel} appeared while it was being written (another program made it); "
                "it was kept as it is and nothing was written",
            ) from None

    def _move_new(
        self, sfd: int, s: Target, dfd: int, d: Target, scanned: bytes | None = None
    ) -> bool:
        """Move by a link under a name that must still be free (fsutil.move_new_at); a file
        that appeared there is kept, the source stays, and this step's record is dropped.

        scanned: what the secret guard passed, for a move into team. The new name is checked
        to hold it once linked, before the old name goes: a save renamed over the source after
        `_still_scanned` and before the link would otherwise reach the team unscanned (attack
        round 28 raced it). The linked file's inode no longer changes with the source's name.
        """

        def linked(step: str) -> None:
            self._hook(f"move:{s.rel}:{step}")
            if scanned is not None and not fsutil.holds_at(dfd, d.parts[-1], scanned):
                os.unlink(d.parts[-1], dir_fd=dfd)
                self._records.pop()
                raise ChangedMeanwhileError(s.rel)

        try:
            return fsutil.move_new_at(sfd, s.parts[-1], dfd, d.parts[-1], hook=linked)
        except FileExistsError:
            self._records.pop()
            raise appeared_meanwhile(s.rel, d.rel, "moved") from None

    def move(self, src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> Path:
        """Rename a file (or a symlink to one inside) to a name that must not exist yet.

        Into team, the raw file being moved is scanned for secrets first.
        """
        s, d = self.resolve(src, follow_final=False), self.resolve(dst, follow_final=False)
        scanned = self._scanned_into(d, src)
        root = self._need_root()
        self._hook(f"checked:{s.rel}")
        sfd = fsutil.open_dir_nofollow(root, s.parts[:-1], create=False)
        try:
            st = os.stat(s.parts[-1], dir_fd=sfd, follow_symlinks=False)
            if not (stat.S_ISREG(st.st_mode) or stat.S_ISLNK(st.st_mode)):
                raise IsADirectoryError(
                    errno.EINVAL,
                    f"{s.rel} is {file_kind(st.st_mode)}, not a file, so nothing was moved; "
                    "move it aside (out of the memory dir) and retry",
                )
            dfd = fsutil.open_dir_nofollow(
                root, d.parts[:-1], create=True, dir_mode=self._dir_mode, made=self._made_dirs
            )
            try:
                if fsutil.exists_at(dfd, d.parts[-1]):
                    raise FileExistsError(errno.EEXIST, f"{d.rel} already exists")
                self._log({"op": "move", "src": s.rel, "dst": d.rel, "ino": st.st_ino})
                self._hook(f"move:{s.rel}:journaled")
                if not stat.S_ISREG(st.st_mode):
                    scanned = None  # a symlink to a memory inside is moved as the link it is
                self._still_scanned(sfd, s, scanned)
                # A link under the new name, then the old one dropped: a file another program
                # makes at the new name after the check above is never replaced (a rename
                # would replace it). Where there are no hard links, the check is all there is.
                if not self._move_new(sfd, s, dfd, d, scanned):
                    os.rename(s.parts[-1], d.parts[-1], src_dir_fd=sfd, dst_dir_fd=dfd)
                fsutil.fsync_fd(dfd)
                fsutil.fsync_fd(sfd)
                self._hook(f"move:{s.rel}:done")
            finally:
                os.close(dfd)
        finally:
            os.close(sfd)
        return d.path

    def keep_copy(self, src: str | os.PathLike[str], dst: str | os.PathLike[str]) -> Path:
        """Give the current version of `src` a second, new name `dst` (a hard link, or a copy)."""
        s, d = self.resolve(src), self.resolve(dst)
        root = self._need_root()
        scanned = self._scanned_into(d, src)
        self._hook(f"checked:{d.rel}")
        sfd = fsutil.open_dir_nofollow(root, s.parts[:-1], create=False)
        try:
            dfd = fsutil.open_dir_nofollow(root, d.parts[:-1], create=True, made=self._made_dirs)
            try:
                if fsutil.exists_at(dfd, d.parts[-1]):
                    raise FileExistsError(errno.EEXIST, f"{d.rel} already exists")
                made = file_identity_at(sfd, s.parts[-1])  # what the copy will hold
                self._log({"op": "write", "path": d.rel, "backup": None, "tmp": None} | made)
                self._hook(f"copy:{d.rel}:journaled")
                self._still_scanned(sfd, s, scanned)
                try:
                    os.link(s.parts[-1], d.parts[-1], src_dir_fd=sfd, dst_dir_fd=dfd)
                except FileExistsError:  # made since the check: theirs, never replaced
                    self._records.pop()  # (a rollback of this step would delete it)
                    raise appeared_meanwhile(s.rel, d.rel, "copied") from None
                except OSError:  # no hard links here: copy in bounded chunks
                    part = side_name(d.parts[-1], self._txid, next(self._seqs), ".part")
                    fsutil.write_new_at(dfd, part, fsutil.iter_chunks_at(sfd, s.parts[-1]))
                    os.rename(part, d.parts[-1], src_dir_fd=dfd, dst_dir_fd=dfd)
                fsutil.fsync_fd(dfd)
            finally:
                os.close(dfd)
        finally:
            os.close(sfd)
        return d.path

    # -- internals

    def _scanned_into(self, d: Target, src: str | os.PathLike[str]) -> bytes | None:
        """For a move or copy into team: the source's bytes, which pass the secret guard."""
        if not d.team:
            return None
        scanned = self.read_bytes(src, settled=False) or b""  # _still_scanned checks it again
        self._guard(d, scanned)
        return scanned

    def _still_scanned(self, sfd: int, s: Target, scanned: bytes | None) -> None:
        """Refuse a move or copy into team whose source no longer holds what the guard scanned
        (another program saved it meanwhile): that version would reach the team unscanned."""
        if scanned is not None and not fsutil.holds_at(sfd, s.parts[-1], scanned):
            self._records.pop()
            raise ChangedMeanwhileError(s.rel)

    @property
    def _dir_mode(self) -> int | None:
        return fsutil.OWNER_FOLDER_MODE if self.owner_only else None

    def _need_root(self) -> int:
        if self._root_fd is None:
            raise TransactionError(
                "the transaction is not open; use `with store.transaction() as tx:`"
            )
        return self._root_fd

    def _hook(self, point: str) -> None:
        if self.crash_hook is not None:
            self.crash_hook(point)

    def _guard(self, t: Target, payload: bytes) -> None:
        """The secret guard for a team target (storage.team_guard), with the index it replaces."""
        index = t.parts[-1] == constants.ENTRYPOINT_NAME
        guard_team_write(t, payload, self.read_bytes(t.rel, settled=False) if index else None)

    def _log(self, record: dict[str, Any]) -> None:
        root = self._need_root()
        if self._journal_fd is None:
            self._journal_fd = os.open(
                constants.STORE_JOURNAL_NAME,
                os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | os.O_NOFOLLOW | os.O_CLOEXEC,
                fsutil.FILE_MODE,
                dir_fd=root,
            )  # the first record's fsync makes the new entry durable too (ext4, xfs)
        if record["op"] != "commit":
            self._records.append(record)
        line = (json.dumps(record) + "\n").encode("utf-8")
        os.write(self._journal_fd, line)
        os.fsync(self._journal_fd)

    def _drop_journal(self) -> None:
        root = self._need_root()
        if self._journal_fd is not None:
            os.close(self._journal_fd)
            self._journal_fd = None
        with contextlib.suppress(FileNotFoundError):
            os.unlink(constants.STORE_JOURNAL_NAME, dir_fd=root)
        # no fsync: a committed journal that reappears after a power cut is only finished again
        self._records = []


@contextlib.contextmanager
def open_transaction(
    memory_dir: str | os.PathLike[str],
    *,
    crash_hook: CrashHook | None = None,
    lock_timeout_s: float = constants.STORE_LOCK_TIMEOUT_S,
    owner_only: bool = False,
) -> Iterator[StoreTransaction]:
    """Hold the store lock for one step; commit when the block ends, roll back if it raises."""
    tx = StoreTransaction(
        memory_dir, crash_hook=crash_hook, lock_timeout_s=lock_timeout_s, owner_only=owner_only
    )
    tx.begin()
    try:
        yield tx
    except BaseException as exc:
        for problem in tx.rollback():
            exc.add_note(problem)
        raise
    else:
        tx.commit()
    finally:
        tx.close()
