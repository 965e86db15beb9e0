"""storage/settled_read: a read counts once the file stood still across it (attack38b)."""

from __future__ import annotations

import os
from pathlib import Path

from memdir_nb.storage.access import ContainedReader, ReadRefused, ReadResult
from memdir_nb.storage.settled_read import (
    SETTLE_S,
    SETTLE_TRIES,
    Unsettled,
    identity,
    read_settled,
    unmoved,
)


def _file(tmp_path: Path, text: str = "whole\n") -> tuple[ContainedReader, Path]:
    mem = tmp_path / "memory"
    mem.mkdir()
    path = mem / "a.md"
    path.write_text(text, encoding="utf-8")
    return ContainedReader(mem), path


def test_a_file_last_changed_long_ago_is_read_once_without_waiting(tmp_path: Path) -> None:
    reader, path = _file(tmp_path)
    waits: list[float] = []
    ctime = os.stat(path).st_ctime_ns
    res = read_settled(reader, path, 100, clock_ns=lambda: ctime + 10**9, sleep=waits.append)
    assert isinstance(res, ReadResult) and res.data == b"whole\n" and waits == []


def test_a_file_changed_just_now_is_read_again_after_a_pause(tmp_path: Path) -> None:
    reader, path = _file(tmp_path)
    waits: list[float] = []
    ctime = os.stat(path).st_ctime_ns
    res = read_settled(reader, path, 100, clock_ns=lambda: ctime, sleep=waits.append)
    assert isinstance(res, ReadResult) and waits == [SETTLE_S]


def test_a_ctime_ahead_of_the_clock_does_not_hold_the_read_back(tmp_path: Path) -> None:
    """A clock set back must not make every file look as if it were being written."""
    reader, path = _file(tmp_path)
    waits: list[float] = []
    res = read_settled(reader, path, 100, clock_ns=lambda: 0, sleep=waits.append)
    assert isinstance(res, ReadResult) and waits == []


def test_a_file_changed_between_every_pair_of_reads_is_unsettled(tmp_path: Path) -> None:
    reader, path = _file(tmp_path)
    n = [0]

    def rewrite(_: float) -> None:
        n[0] += 1
        path.write_text("v" * n[0], encoding="utf-8")

    res = read_settled(reader, path, 100, sleep=rewrite)
    assert isinstance(res, Unsettled) and n[0] == SETTLE_TRIES
    assert "export again once it is saved" in res.why


def test_a_refused_read_is_returned_as_the_readers_refusal(tmp_path: Path) -> None:
    reader, path = _file(tmp_path)
    res = read_settled(reader, path.with_name("gone.md"), 100, sleep=lambda _: None)
    assert isinstance(res, ReadRefused) and res.kind == "missing"


def test_a_spent_deadline_ends_the_waiting_at_once(tmp_path: Path) -> None:
    """One deadline for a whole export: a dir where files keep changing costs it half a second,
    not 2 s a file (tests/security/test_race_routes.py's churned dir timed out otherwise)."""
    reader, path = _file(tmp_path)
    waits: list[float] = []
    ctime = os.stat(path).st_ctime_ns
    res = read_settled(reader, path, 100, clock_ns=lambda: ctime, sleep=waits.append, deadline=0.0)
    assert isinstance(res, Unsettled) and waits == []


def test_an_old_empty_file_counts_only_when_seen_unchanged_again_a_pause_later(
    tmp_path: Path,
) -> None:
    """A truncate moves the size before the times: a read inside it finds an empty file whose
    times are old (the export archived such an empty copy of a memory an editor was saving)."""
    reader, path = _file(tmp_path, "")
    waits: list[float] = []
    ctime = os.stat(path).st_ctime_ns
    res = read_settled(reader, path, 100, clock_ns=lambda: ctime + 10**9, sleep=waits.append)
    assert isinstance(res, ReadResult) and res.data == b"" and waits == [SETTLE_S]


def test_an_old_empty_file_whose_save_lands_meanwhile_is_read_whole(tmp_path: Path) -> None:
    reader, path = _file(tmp_path, "")
    waits: list[float] = []

    def the_save_lands(pause: float) -> None:
        waits.append(pause)
        if len(waits) == 1:
            path.write_text("whole\n", encoding="utf-8")

    ctime = os.stat(path).st_ctime_ns
    res = read_settled(reader, path, 100, clock_ns=lambda: ctime + 10**9, sleep=the_save_lands)
    assert isinstance(res, ReadResult) and res.data == b"whole\n"


def test_an_empty_file_is_returned_at_once_when_the_caller_looks_again_itself(
    tmp_path: Path,
) -> None:
    reader, path = _file(tmp_path, "")
    waits: list[float] = []
    ctime = os.stat(path).st_ctime_ns
    res = read_settled(
        reader,
        path,
        100,
        clock_ns=lambda: ctime + 10**9,
        sleep=waits.append,
        confirm_empty=False,
    )
    assert isinstance(res, ReadResult) and res.data == b"" and waits == []


def test_unmoved_is_false_once_the_file_changed_or_went(tmp_path: Path) -> None:
    _, path = _file(tmp_path, "")
    ident = identity(os.lstat(path))
    assert unmoved(path, ident)
    path.write_text("whole\n", encoding="utf-8")
    assert not unmoved(path, ident)
    path.unlink()
    assert not unmoved(path, ident)
