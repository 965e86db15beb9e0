"""What a store step reads a file it will rewrite from, and the check that its rename lost nothing.

A person's editor that saves in place (truncate, then write, with a pause between its writes)
raced `rebuild-index` (attack38b, §55): the step read the half file, the write's `based_on`
check found it unchanged (the editor had not written again yet), the rename put an index built
from that half in place, and the editor's second write went into the old file, which the rename
had moved aside. Two rules close that window, for every step (the memory tool, dream apply,
import, rebuilds), since all of them read through `StoreTransaction.read_bytes`:

- **A settled read** (`read_settled_at`): the read counts once the file stood still, by the one
  settle rule of storage.settled_read. A file last changed over SETTLE_S ago pays two lstats;
  one changed since is read again once it is that old. One that never stands still within
  SETTLE_TRIES reads is refused (StillBeingWrittenError), and nothing is written. An old
  empty file is read again SETTLE_S later (a truncate in flight, §66), unless the step saw it
  that long before: a step that reads many files notes them first (`look_ahead`), so it pays
  one pause, not one an empty file (§68).
- **Files a step published** (`Published`) count at once, however recent: after each rename the
  step notes the new file's identity (device, inode, size, mtime, ctime), and at commit keeps
  the last HINT_ENTRIES of them in the store's lock file, which every step holds and nothing
  else reads. A write in place changes mtime and ctime, so an edited file is no longer known.
  A save right after a save (the memory tool editing what it just wrote, a process saving in a
  loop, another process's step) therefore never waits. The hint is only ever a reason not to
  wait: a damaged or foreign one is ignored.
- **After the rename** (`check_replaced`): the old file, still held under the step's backup name,
  must hold what the step read. An in-place save that began after the read wrote into it; the
  step then raises ChangedMeanwhileError, and its rollback puts that file back under its name,
  where the editor's further writes land.

Not seen: an editor that opened the file before the rename but first writes after the check
(the gap is the check's own few microseconds), and a writer pausing longer than SETTLE_S
inside one save.
"""

from __future__ import annotations

import contextlib
import os
import time
from collections.abc import Callable

from memdir_nb.storage import fsutil
from memdir_nb.storage.settled_read import Identity, Sightings, identity, settle
from memdir_nb.storage.write_errors import ChangedMeanwhileError, StillBeingWrittenError

__all__ = ["HINT_ENTRIES", "Published", "check_replaced", "read_settled_at"]

HINT_ENTRIES = 64  # files the last steps wrote that a step reads at once, however recent
_HINT_MAX_BYTES = HINT_ENTRIES * 5 * 21  # five integers of at most 20 digits, a space each


class Published:
    """The identities of the files recent store steps put in place by rename (above).

    Kept in the lock file `fd` (the store lock's, opened O_RDWR and held by the step), read at
    the first recent file and written at commit; no fsync (a hint lost in a power cut costs a
    wait). fd None: nothing is kept across steps.
    """

    def __init__(self) -> None:
        self.fd: int | None = None
        self._known: list[Identity] | None = None  # read from the lock file when first needed
        self._new: list[Identity] = []

    def knows(self, ident: Identity) -> bool:
        """Whether a store step wrote the file with this identity (and nothing changed it since)."""
        return ident in self._new or ident in self._load()

    def note(self, dir_fd: int, name: str) -> None:
        """The file at name, as this step just put it in place."""
        with contextlib.suppress(OSError):  # gone already: nothing to know
            self._new.append(identity(os.stat(name, dir_fd=dir_fd, follow_symlinks=False)))

    def save(self) -> None:
        """At commit: keep this step's files and the newest of those known before."""
        if not self._new or self.fd is None:
            return
        keep = [i for i in self._load() if i not in self._new] + self._new
        data = "".join(" ".join(map(str, i)) + "\n" for i in keep[-HINT_ENTRIES:]).encode()
        with contextlib.suppress(OSError):  # a lock file that cannot be written: waits, later
            os.pwrite(self.fd, data, 0)
            os.ftruncate(self.fd, len(data))
        self._known, self._new = keep[-HINT_ENTRIES:], []

    def _load(self) -> list[Identity]:
        if self._known is None:
            self._known = []
            if self.fd is not None:
                with contextlib.suppress(OSError):
                    self._known = _parse(os.pread(self.fd, _HINT_MAX_BYTES, 0))
        return self._known


def _parse(data: bytes) -> list[Identity]:
    """The hint's lines, five integers each; anything else is skipped."""
    out: list[Identity] = []
    for line in data.decode("ascii", "replace").split("\n"):
        fields = line.split(" ")
        if len(fields) == 5 and all(f.isdigit() for f in fields):
            a, b, c, d, e = (int(f) for f in fields)
            out.append((a, b, c, d, e))
    return out


def read_settled_at(
    dir_fd: int,
    name: str,
    max_bytes: int,
    rel: str,
    published: Published,
    *,
    sightings: Sightings | None = None,
    clock_ns: Callable[[], int] = time.time_ns,
    sleep: Callable[[float], object] = time.sleep,
) -> bytes:
    """fsutil.read_at once the file stands still (above); its errors (absent, too large, not a
    regular file) as read_at raises them; StillBeingWrittenError when it never stood still."""

    def read_once() -> tuple[bytes, os.stat_result]:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        return fsutil.read_at(dir_fd, name, max_bytes), st

    def identity_now() -> Identity | None:
        try:
            return identity(os.stat(name, dir_fd=dir_fd, follow_symlinks=False))
        except OSError:
            return None  # gone or swapped: not the file that was read

    data = settle(
        read_once,
        identity_now,
        known=published.knows,
        clock_ns=clock_ns,
        sleep=sleep,
        sightings=sightings,
    )
    if data is None:
        raise StillBeingWrittenError(rel)
    return data


def check_replaced(dir_fd: int, backup: str, based_on: bytes, rel: str) -> None:
    """After a write's rename: the replaced file (the backup name's) still holds what the step
    read, or ChangedMeanwhileError (the step's rollback puts that file back in place)."""
    if not fsutil.holds_at(dir_fd, backup, based_on):
        raise ChangedMeanwhileError(rel)
