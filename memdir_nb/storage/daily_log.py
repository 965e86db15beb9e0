"""KAIROS daily logs: append-only, date-named notes that a later dream distils into memories.

In KAIROS ("assistant") mode the agent does not keep MEMORY.md up to date while it works.
It appends short entries to `logs/YYYY/MM/YYYY-MM-DD.md` (the local date) and leaves the
sorting into topic files to the consolidation pass in `dream.py`.

Appends are serialised by a lock file in logs/ (an flock, as `filelock` takes; storage.log_lock,
which a store step rewriting a log takes too), so several processes writing at once interleave
whole entries: no entry is torn, none is lost. They use
the store's write-time checks (memdir_nb.storage.targets): the target is resolved and contained,
and the folders are opened one by one without following symlinks.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import errno
import os
import stat
from pathlib import Path

from memdir_nb.clock import resolve_now_ms
from memdir_nb.spec import dates
from memdir_nb.spec.calendar_days import local_time_of_day
from memdir_nb.spec.constants import DAILY_LOG_LOCK_NAME, DAILY_LOG_READ_MAX_BYTES, LOGS_DIRNAME
from memdir_nb.spec.text import as_lf, lone_surrogate_problem
from memdir_nb.storage import fsutil
from memdir_nb.storage.access import file_kind, read_contained
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.log_lock import take_logs_lock
from memdir_nb.storage.targets import resolve_target

LOCK_NAME = DAILY_LOG_LOCK_NAME
MAX_ENTRY_CHARS = 20_000
ENTRY_HEADING_PREFIX = "## "


class DailyLogError(ValueError):
    """Raised for a daily-log append that cannot be done as asked; nothing is written."""


def _now_ms(now_ms: float | None) -> float:
    return resolve_now_ms(now_ms)


def local_date(now_ms: float | None = None) -> _dt.date:
    """The local calendar date at `now_ms` (the date a daily log is named after)."""
    return dates.local_date(_now_ms(now_ms))


def daily_log_file(memory_dir: str | os.PathLike[str], *, now_ms: float | None = None) -> Path:
    """Path of the daily log for the local date at `now_ms` (it may not exist yet)."""
    return Path(daily_log_path(absolute_dir(memory_dir), local_date(now_ms)))


def _check_memory_dir(memory_dir: str | os.PathLike[str]) -> Path:
    root = absolute_dir(memory_dir)
    if not root.exists():
        raise DailyLogError(
            f"memory dir {str(root)!r} does not exist; create it first "
            "(memdir_nb.ensure_memory_dir_exists) or pass the right directory"
        )
    if not root.is_dir():
        raise DailyLogError(
            f"memory dir {str(root)!r} is not a directory; pass the memory directory itself"
        )
    return root


def _clean_text(text: object) -> str:
    if not isinstance(text, str):
        raise DailyLogError(
            f"daily log text must be a str, got {type(text).__name__}; pass the note as text"
        )
    if "\x00" in text:
        raise DailyLogError("daily log text contains a NUL byte; remove it and try again")
    not_text = lone_surrogate_problem(text)
    if not_text is not None:
        raise DailyLogError(f"daily log text {not_text}; nothing was written")
    cleaned = as_lf(text).strip("\n")
    if not cleaned.strip():
        raise DailyLogError("daily log text is empty; write at least one non-blank line")
    if len(cleaned) > MAX_ENTRY_CHARS:
        raise DailyLogError(
            f"daily log entry is {len(cleaned)} characters, over the {MAX_ENTRY_CHARS} limit; "
            "log a short note and keep long material in a topic file"
        )
    # A line starting with the heading prefix would read as a new entry; indent it instead.
    lines = [
        (" " + ln) if ln.startswith(ENTRY_HEADING_PREFIX) else ln for ln in cleaned.split("\n")
    ]
    return "\n".join(line.rstrip() for line in lines)


def format_entry(text: str, *, now_ms: float | None = None) -> str:
    """One log entry: a `## HH:MM:SS` heading (local time), the text, and a blank line."""
    # The heading's format is the daily log's own rule (read back by read_daily_log_entries).
    # Local, as the file's date is: both in spec.calendar_days's day zone.
    stamp = local_time_of_day(_now_ms(now_ms))
    return f"{ENTRY_HEADING_PREFIX}{stamp}\n\n{_clean_text(text)}\n\n"


def append_daily_log(
    memory_dir: str | os.PathLike[str], text: str, *, now_ms: float | None = None
) -> Path:
    """Append one entry to today's log under `memory_dir/logs/` and return the log's path."""
    root = _check_memory_dir(memory_dir)
    now = _now_ms(now_ms)  # one reading: the file's date and the entry's time agree at midnight
    day = local_date(now)
    entry = format_entry(text, now_ms=now)
    log_path = Path(daily_log_path(root, day))
    # The store's write-time checks: containment, realpath, then a walk that never follows a
    # symlink, so a logs/ folder swapped for a link (before or during the append) is refused.
    # The log itself is never followed: a symlink at its path is refused by _append_at (O_NOFOLLOW),
    # so a link to a memory (team/ included) cannot take the append, or the lock, elsewhere.
    target = resolve_target(root, log_path, follow_final=False)
    real_root, root_fd = fsutil.open_real_dir(root)
    try:
        lock_fd = take_logs_lock(root_fd, real_root, folder=target.parts[0])
        try:
            day_fd = fsutil.open_dir_nofollow(root_fd, target.parts[:-1], create=True)
            try:
                _append_at(day_fd, target.parts[-1], entry, day)
            finally:
                os.close(day_fd)
        finally:
            os.close(lock_fd)  # closing the descriptor releases the flock
    finally:
        os.close(root_fd)
    return log_path


def _append_at(dir_fd: int, name: str, entry: str, day: _dt.date) -> None:
    """Append one entry to a regular file in the folder (created if absent, never a symlink).

    A FIFO, socket or device at the log's path is refused before it is opened, and the open is
    non-blocking, so one swapped in between cannot make the append wait for a reader.
    """
    not_regular = f"{name} is not a regular file; move it aside and retry"
    existed = True
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        existed = False
    else:
        if not stat.S_ISREG(st.st_mode):
            raise DailyLogError(
                f"{name} is {file_kind(st.st_mode)}, not a regular file; move it aside and retry"
            )
    fd, readable = _open_for_append(dir_fd, name, not_regular)
    try:
        opened = os.fstat(fd)
        if not stat.S_ISREG(opened.st_mode):
            raise DailyLogError(not_regular)
        _refuse_shared_file(name, opened)
        before = opened.st_size
        if before == 0:
            entry = f"# Daily log {day.isoformat()}\n\n" + entry
        elif not readable:
            # a log the user may write but not read: its last byte is unknown, so the heading
            # gets a line of its own whatever it is (one blank line more after a final newline)
            entry = "\n" + entry
        elif os.pread(fd, 1, before - 1) != b"\n":
            # a hand edit left no final newline: the heading starts its own line after a blank
            # one, and the person's last line stays as they wrote it
            entry = "\n\n" + entry
        try:
            _write_whole_or_nothing(fd, entry.encode("utf-8"), before)
        except BaseException:
            with contextlib.suppress(OSError):  # the day's log this append made, left empty
                if not existed and os.fstat(fd).st_size == 0:
                    os.unlink(name, dir_fd=dir_fd)
            raise
    finally:
        os.close(fd)


def _open_for_append(dir_fd: int, name: str, not_regular: str) -> tuple[int, bool]:
    """The log opened to append (created if absent, never through a symlink, never waiting),
    and whether it could be read too: read-write first, since the last byte decides whether the
    entry needs a line break first; write-only when the user may write the log but not read
    it, as the append always could. Neither: DailyLogError naming the permission to give."""
    base = os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK
    for access, readable in ((os.O_RDWR, True), (os.O_WRONLY, False)):
        try:
            return os.open(name, access | base, fsutil.FILE_MODE, dir_fd=dir_fd), readable
        except PermissionError:
            continue
        except OSError as exc:
            if exc.errno in (errno.ENXIO, errno.ELOOP):  # a FIFO with no reader; a symlink
                raise DailyLogError(not_regular) from exc
            raise
    raise DailyLogError(
        f"{name} may not be written by this user (permission denied), so nothing was logged; "
        f"give yourself write permission (chmod u+w {name}) or log as the file's owner"
    )


def _refuse_shared_file(name: str, st: os.stat_result) -> None:
    """The append writes in place, so a log with other names (hard links) would change the
    files they name too, which may be outside the memory dir where no containment check sees
    them (attack round 28): refused, naming the fix, before a byte is written."""
    if st.st_nlink > 1:
        raise DailyLogError(
            f"{name} is a hard link (one file under {st.st_nlink} names), so an append would "
            f"change the other names too; give the log a file of its own "
            f"(cp {name} {name}.new && mv {name}.new {name}) and retry"
        )


def _write_whole_or_nothing(fd: int, payload: bytes, before: int) -> None:
    """Append payload and fsync it; a write that fails part-way (a full disk, a file-size
    limit) cuts the file back to `before`, so the log never ends in half an entry. The cut is
    made only while the file is what this append made of it (`before` plus the bytes written):
    an entry another program appended meanwhile is kept."""
    written = 0
    try:
        data = memoryview(payload)
        while data:
            n = os.write(fd, data)
            written += n
            data = data[n:]
        os.fsync(fd)
    except BaseException:
        with contextlib.suppress(OSError):
            if written and os.fstat(fd).st_size == before + written:
                os.ftruncate(fd, before)
                os.fsync(fd)
        raise


def read_daily_log_entries(log_path: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Parse a daily log into (HH:MM:SS, text) pairs, in file order.

    Text before the first entry heading, other than the file's `# ` title line, is one entry
    with no time (""): a log written by hand or by another tool, with no `## HH:MM:SS`
    headings, read as holding nothing (real40b).
    Read through the contained reader (a regular file, at most DAILY_LOG_READ_MAX_BYTES);
    ReadRefused (an OSError) says why a log was not read.
    """

    entries: list[tuple[str, str]] = []
    stamp = ""
    body: list[str] = []
    folder = os.path.dirname(os.path.abspath(log_path))
    text = read_contained(folder, log_path, DAILY_LOG_READ_MAX_BYTES).text
    lines = as_lf(text).split("\n")  # a log edited on Windows (CRLF) or classic Mac OS
    if lines and lines[0].startswith("# "):
        lines = lines[1:]  # the title (`# Daily log <date>` when an append made the file)
    for line in lines:
        if line.startswith(ENTRY_HEADING_PREFIX):
            if stamp or body:
                entries.append((stamp, "\n".join(body).strip("\n")))
            stamp, body = line[len(ENTRY_HEADING_PREFIX) :].strip(), []
        else:
            body.append(line)
    if stamp or "\n".join(body).strip():
        entries.append((stamp, "\n".join(body).strip("\n")))
    return [(s, t) for s, t in entries if s or t.strip()]


def daily_log_path(memory_dir: str | os.PathLike[str], date: _dt.date) -> Path:
    """The KAIROS daily log file for ``date``: memory_dir/logs/YYYY/MM/YYYY-MM-DD.md."""
    if not isinstance(date, _dt.date):
        raise TypeError(f"date must be a datetime.date, got {type(date).__name__}")
    yyyy, mm, dd = f"{date.year:04d}", f"{date.month:02d}", f"{date.day:02d}"
    return absolute_dir(memory_dir) / LOGS_DIRNAME / yyyy / mm / f"{yyyy}-{mm}-{dd}.md"
