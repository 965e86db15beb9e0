"""The store's transaction: the one writer of a memory dir (lock, write-time checks, journal, rollback).

`MemoryStore.transaction()` yields a `StoreTransaction`. Every write of the package goes
through one: save, update, forget, promote, demote, dream apply and restore,
`rebuild_index(write=True)` and the extractor's Write and Edit. The step it is (its lock, the
repair of an interrupted step, its journal, commit and rollback, settled reads) is
storage.transaction_step; here are the changes it makes: write, move, copy.

- **Checked when written.** Every target is resolved again at the moment it is written: both
  containment passes of `team_paths`, the realpath of the deepest existing ancestor, team-ness
  decided on that resolved path. The write then walks the resolved path one folder at a time
  with O_DIRECTORY|O_NOFOLLOW relative to the parent's descriptor, creates its temp file with
  O_CREAT|O_EXCL|O_NOFOLLOW in the final folder and renames it relative to that descriptor. A
  folder swapped for a symlink at any moment makes the write fail; it never lands outside.
- **Secret guard.** A write into team memory is scanned whole (every frontmatter key,
  comments, body), with its file name; for a team MEMORY.md, the lines it adds. A move into
  team scans the raw file being moved.
- **Journaled.** Each change is written to the step's journal before it is made
  (storage.transaction_step), an overwritten file hard-linked to a backup name first.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path

from memdir_nb.spec import constants
from memdir_nb.spec.text import lone_surrogate_problem
from memdir_nb.storage import fsutil
from memdir_nb.storage.access import file_kind
from memdir_nb.storage.journal import content_identity, file_identity_at, keep_old, side_name
from memdir_nb.storage.journal import journal_damage as journal_damage  # re-exported
from memdir_nb.storage.journal import journal_problem as journal_problem  # re-exported
from memdir_nb.storage.step_reads import check_replaced
from memdir_nb.storage.targets import Target as Target  # re-exported
from memdir_nb.storage.team_guard import guard_team_write
from memdir_nb.storage.transaction_step import CrashHook as CrashHook  # re-exported
from memdir_nb.storage.transaction_step import TransactionStep
from memdir_nb.storage.write_errors import ChangedMeanwhileError as ChangedMeanwhileError
from memdir_nb.storage.write_errors import NotTextError as NotTextError  # re-exported
from memdir_nb.storage.write_errors import NotUTF8Error as NotUTF8Error
from memdir_nb.storage.write_errors import TooLargeToWriteError as TooLargeToWriteError
from memdir_nb.storage.write_errors import TransactionError as TransactionError
from memdir_nb.storage.write_errors import appeared_meanwhile
from memdir_nb.storage.write_errors import write_size_problem as write_size_problem


class StoreTransaction(TransactionStep):
    """One locked step over a memory dir: resolve, read, write, move; committed or rolled back as a whole."""

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
        """For a move or copy into team: the source's bytes, which pass the secret guard. Read
        once the file stands still (step_reads): a file an editor had just truncated read empty,
        passed, and the editor's write landed in team/ (attack45, §68)."""
        if not d.team:
            return None
        scanned = self.read_bytes(src) or b""  # _still_scanned checks it again
        self._guard(d, scanned)
        return scanned

    def _still_scanned(self, sfd: int, s: Target, scanned: bytes | None) -> None:
        """Refuse a move or copy into team whose source no longer holds what the guard scanned
        (another program saved it meanwhile): that version would reach the team unscanned."""
        if scanned is not None and not fsutil.holds_at(sfd, s.parts[-1], scanned):
            self._records.pop()
            raise ChangedMeanwhileError(s.rel)

    def _guard(self, t: Target, payload: bytes) -> None:
        """The secret guard for a team target (storage.team_guard), with the index it replaces."""
        index = t.parts[-1] == constants.ENTRYPOINT_NAME
        guard_team_write(t, payload, self.read_bytes(t.rel, settled=False) if index else None)


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
