"""A read of a file another program may be rewriting in place, taken once the file stands still.

An editor that saves in place (truncate, then write) leaves the file half-written for as long as
its writes take; a copy read in between is a half memory that looks whole. A route that copies
files out without the store's lock (`export --archive`, whose archive is a backup that `import`
puts back) reads each file through `read_settled`: the read counts only when the file's identity
(inode, size, mtime, ctime) is the same before and after it, and the file was last changed at
least SETTLE_S ago, or was seen unchanged SETTLE_S earlier. A file that never stands still
within SETTLE_TRIES reads, or by the caller's `deadline` (one for a whole export, WAIT_BUDGET_S
away, so a dir where files keep changing costs it half a second, not 2 s a file), is `Unsettled`, and the caller
leaves it out and says why. A store step reads every file it rewrites the same way, through
`settle` (storage.step_reads: it refuses a file that never stands still rather than leaving it out).

A truncate changes a file's size before its times (the kernel stamps the times once the size has
moved), so a read inside that window finds an empty file whose times are old: an in-place save
caught at its start. An empty file therefore counts only when it is seen unchanged a second
time, SETTLE_S later (`confirm_empty`); the export asks that of all its empty files at once,
after one pause (`unmoved`), rather than pausing for each. A store step that reads many files
notes the empty ones first, all at once (`Sightings`, `StoreTransaction.look_ahead`), so an
empty file seen SETTLE_S before its read counts at once: an import over thousands of empty
files pays one pause, not one a file (attack45, §68). A truncate to a length other than
zero followed by writes is not caught this way; editors truncate to zero (`open(path, "w")`).

A file that is written by rename (the store, Claude Code) is whole at every read; it pays
nothing but one lstat. A writer that pauses longer than SETTLE_S inside one save is not seen.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from typing import TypeVar

from memdir_nb.spec.records import Record
from memdir_nb.storage.access import ContainedReader, ReadRefused, ReadResult

__all__ = [
    "SETTLE_S",
    "SETTLE_TRIES",
    "SIGHTINGS_MAX",
    "WAIT_BUDGET_S",
    "Identity",
    "Sightings",
    "Unsettled",
    "identity",
    "read_settled",
    "settle",
    "settle_deadline",
    "unmoved",
]

SETTLE_S = 0.25  # longer than one save's writes by an editor, a loaded machine's pauses included
SETTLE_TRIES = 8  # at most 2 s spent on one file that keeps changing
WAIT_BUDGET_S = 2 * SETTLE_S  # a caller reading many files pauses no more once this is spent
SIGHTINGS_MAX = 100_000  # empty files one step notes; past it, each pays its own pause again


class Unsettled(Record, frozen=True):
    """The file changed across every read; `why` says so and what to do."""

    why: str


def settle_deadline() -> float:
    """The time.monotonic() by which a caller reading many files stops waiting for any."""
    return time.monotonic() + WAIT_BUDGET_S


Identity = tuple[int, int, int, int, int]
_R = TypeVar("_R")


def identity(st: os.stat_result) -> Identity:
    """What a read is checked against: device, inode, size, mtime and ctime."""
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def _identity_now(path: str | os.PathLike[str]) -> Identity | None:
    try:
        return identity(os.lstat(path))
    except OSError:
        return None  # gone or swapped: not the file that was read


def unmoved(path: str | os.PathLike[str], ident: Identity) -> bool:
    """Whether the file at path still has the identity a read found (the export's second look
    at its empty files, SETTLE_S after reading them)."""
    return _identity_now(path) == ident


def _never(_: Identity) -> bool:
    return False


class Sightings:
    """When one caller first saw each empty file (by identity), so that a read of it SETTLE_S
    later is its second look (the empty-file rule above) without a pause of its own. Only an
    identity's first sighting counts: any change to the file (a truncate's times landing
    included) gives it another identity. Bounded by SIGHTINGS_MAX."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._at: dict[Identity, float] = {}

    def note(self, st: os.stat_result) -> None:
        """The file of st as it is now; only an empty regular file is kept."""
        if st.st_size == 0 and len(self._at) < SIGHTINGS_MAX:
            self._at.setdefault(identity(st), self._monotonic())

    def waited(self, ident: Identity) -> float:
        """Seconds since ident was first noted (0 for one never noted); notes it now if not."""
        now = self._monotonic()
        if len(self._at) < SIGHTINGS_MAX:
            return now - self._at.setdefault(ident, now)
        return now - self._at.get(ident, now)


def settle(
    read_once: Callable[[], tuple[_R, os.stat_result | None]],
    identity_now: Callable[[], Identity | None],
    *,
    known: Callable[[Identity], bool] = _never,
    clock_ns: Callable[[], int] = time.time_ns,
    sleep: Callable[[float], object] = time.sleep,
    deadline: float | None = None,
    monotonic: Callable[[], float] = time.monotonic,
    confirm_empty: bool = True,
    sightings: Sightings | None = None,
) -> _R | None:
    """The one settle rule (above): read_once() until a read stood still; None if none did.

    read_once gives what it read and the file's stat taken before the read (None: a refusal,
    returned as it is). known(identity): the file is one whose writer is known to have written
    it whole (a store step's rename), so it counts however recent. A recent file is read again
    once it is SETTLE_S old: the pause is what is left of SETTLE_S, not SETTLE_S again. An old
    empty file is read again SETTLE_S later unless confirm_empty is False (the caller then
    looks again itself, with `unmoved`). sightings: when the caller saw empty files before
    (it waits only what is left of SETTLE_S since an old empty file was first seen).
    """
    seen = None  # the identity the previous read found unchanged across it
    for _ in range(SETTLE_TRIES):
        res, st = read_once()
        if st is None:
            return res
        ident = identity(st)
        wait = SETTLE_S
        if identity_now() == ident:
            age_ns = clock_ns() - st.st_ctime_ns  # a ctime ahead of the clock: not recent
            if seen == ident or known(ident):
                return res
            if not 0 <= age_ns < SETTLE_S * 1e9:
                if st.st_size or not confirm_empty:
                    return res
                # empty and old: maybe a truncate whose times have not landed yet
                waited = 0.0 if sightings is None else sightings.waited(ident)
                if waited >= SETTLE_S:
                    return res  # seen unchanged SETTLE_S ago already
                age_ns = int(waited * 1e9)
            seen, wait = ident, SETTLE_S - age_ns / 1e9
        else:
            seen = None
        if deadline is not None and monotonic() >= deadline:
            break  # the caller's time for waiting is spent: no more pauses
        sleep(wait)
    return None


def read_settled(
    reader: ContainedReader,
    path: str | os.PathLike[str],
    cap: int,
    *,
    clock_ns: Callable[[], int] = time.time_ns,
    sleep: Callable[[float], object] = time.sleep,
    deadline: float | None = None,
    monotonic: Callable[[], float] = time.monotonic,
    confirm_empty: bool = True,
) -> ReadResult | ReadRefused | Unsettled:
    """reader.try_read(path, cap), repeated until the file stood still across a read (above)."""

    def read_once() -> tuple[ReadResult | ReadRefused, os.stat_result | None]:
        res = reader.try_read(path, cap)
        return res, res.stat if isinstance(res, ReadResult) else None

    got = settle(
        read_once,
        lambda: _identity_now(path),
        clock_ns=clock_ns,
        sleep=sleep,
        deadline=deadline,
        monotonic=monotonic,
        confirm_empty=confirm_empty,
    )
    if got is not None:
        return got
    return Unsettled(
        "was being written by another program while it was read (its size or times changed "
        "across every read while the export waited), so it was left out rather than archived "
        "half-written; export again once it is saved"
    )
