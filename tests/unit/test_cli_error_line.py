"""error_line: a failed command's one line names what went wrong and, for a full disk, what it means."""

from __future__ import annotations

import errno
import os

from memdir_nb.cli.error_line import error_line

FULL_DISK_NOTE = "nothing was left half-written: free some space and run the command again"


def test_a_system_error_is_its_own_words_and_the_file_it_names() -> None:
    gone = FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), "/m/memory")
    assert error_line(gone) == f"error: {os.strerror(errno.ENOENT)} (/m/memory)"
    assert error_line(ValueError("--limit must be at least 1")) == (
        "error: --limit must be at least 1"
    )


def test_a_file_name_holding_a_newline_stays_on_the_one_line() -> None:
    line = error_line(PermissionError(errno.EACCES, "Permission denied", "/m/a\nerror: forged"))
    assert "\n" not in line and line.startswith("error: Permission denied (/m/a")


def test_a_write_the_disk_or_a_limit_stopped_says_nothing_was_left_half_written() -> None:
    for code in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        line = error_line(OSError(code, os.strerror(code), "/m/MEMORY.md"))
        assert line.startswith(f"error: {os.strerror(code)} (/m/MEMORY.md); the disk is full")
        assert line.endswith(FULL_DISK_NOTE)


def test_a_size_refusal_in_words_of_its_own_gets_nothing_added() -> None:
    # the store's EFBIG refusals (a file over a read cap) carry their own words and fix
    own = OSError(errno.EFBIG, "MEMORY.md is over the 1 MiB read cap: shorten it", "/m/MEMORY.md")
    assert FULL_DISK_NOTE not in error_line(own)
    assert FULL_DISK_NOTE not in error_line(ValueError("no space"))
