"""storage/step_reads: a store step rewrites only what it read once the file stood still, and
undoes a rename whose replaced file an in-place save wrote into after the read (race39)."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from memdir_nb.storage.settled_read import SETTLE_S, SETTLE_TRIES, Sightings, identity
from memdir_nb.storage.step_reads import HINT_ENTRIES, Published, read_settled_at
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.transaction import open_transaction
from memdir_nb.storage.write_errors import ChangedMeanwhileError, StillBeingWrittenError


def _dir_with(tmp_path: Path, text: str = "# Index\n- [a](a.md) — a\n") -> tuple[int, Path]:
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / "MEMORY.md").write_text(text, encoding="utf-8")
    return os.open(mem, os.O_RDONLY | os.O_DIRECTORY), mem


def test_a_file_last_changed_long_ago_is_read_at_once(tmp_path: Path) -> None:
    dfd, mem = _dir_with(tmp_path)
    waits: list[float] = []
    ctime = os.stat(mem / "MEMORY.md").st_ctime_ns

    def clock() -> int:
        return ctime + 10**9  # a second after the change

    data = read_settled_at(
        dfd, "MEMORY.md", 1000, "MEMORY.md", Published(), clock_ns=clock, sleep=waits.append
    )
    assert data.startswith(b"# Index") and waits == []


def test_a_file_changed_just_now_is_read_again_once_it_is_settle_s_old(tmp_path: Path) -> None:
    dfd, mem = _dir_with(tmp_path)
    waits: list[float] = []
    ctime = os.stat(mem / "MEMORY.md").st_ctime_ns

    def clock() -> int:
        return ctime + 10**8  # 0.1 s after the change

    read_settled_at(
        dfd, "MEMORY.md", 1000, "MEMORY.md", Published(), clock_ns=clock, sleep=waits.append
    )
    assert waits == [pytest.approx(SETTLE_S - 0.1)]  # what is left of SETTLE_S, not SETTLE_S again


def test_the_read_taken_is_the_one_after_the_editors_last_write(tmp_path: Path) -> None:
    """The editor's second write lands during the pause: the step reads the whole file."""
    dfd, mem = _dir_with(tmp_path, "# Index\n- edit")  # the editor's first write
    path = mem / "MEMORY.md"

    pauses: list[float] = []

    def second_write(pause: float) -> None:
        pauses.append(pause)
        if len(pauses) == 1:
            with open(path, "a", encoding="utf-8") as f:
                f.write("or line 00001\n")

    data = read_settled_at(dfd, "MEMORY.md", 1000, "MEMORY.md", Published(), sleep=second_write)
    assert data == b"# Index\n- editor line 00001\n" and len(pauses) == 2


def test_a_file_that_never_stands_still_is_refused_naming_the_fix(tmp_path: Path) -> None:
    dfd, mem = _dir_with(tmp_path)
    n = [0]

    def rewrite(_: float) -> None:
        n[0] += 1
        (mem / "MEMORY.md").write_text("v" * n[0], encoding="utf-8")

    with pytest.raises(StillBeingWrittenError, match="retry once it is saved") as err:
        read_settled_at(dfd, "MEMORY.md", 1000, "MEMORY.md", Published(), sleep=rewrite)
    assert n[0] == SETTLE_TRIES and isinstance(err.value, ChangedMeanwhileError)
    assert err.value.rel == "MEMORY.md"


def test_a_file_a_step_put_in_place_is_read_at_once_however_recent(tmp_path: Path) -> None:
    dfd, mem = _dir_with(tmp_path)
    published, waits = Published(), list[float]()
    published.note(dfd, "MEMORY.md")
    ctime = os.stat(mem / "MEMORY.md").st_ctime_ns
    read_settled_at(
        dfd, "MEMORY.md", 1000, "MEMORY.md", published, clock_ns=lambda: ctime, sleep=waits.append
    )
    assert waits == []


def test_a_file_written_in_place_after_a_step_put_it_there_is_no_longer_known(
    tmp_path: Path,
) -> None:
    dfd, mem = _dir_with(tmp_path)
    published = Published()
    published.note(dfd, "MEMORY.md")
    time.sleep(0.01)  # past the file system's time grain
    with open(mem / "MEMORY.md", "r+", encoding="utf-8") as f:
        f.truncate(0)
        f.write("# Index\n- edit")
    assert not published.knows(identity(os.stat(mem / "MEMORY.md")))


def test_the_files_a_step_published_are_known_to_the_next_step(tmp_path: Path) -> None:
    """Kept in the store lock file at commit: a second process's step reads them too."""
    mem = tmp_path / "memory"
    with open_transaction(mem) as tx:
        tx.write("MEMORY.md", "# Index\n")
    st = os.stat(mem / "MEMORY.md")
    fd = os.open(mem / ".memdir.lock", os.O_RDONLY)
    dfd = os.open(mem, os.O_RDONLY | os.O_DIRECTORY)
    try:
        later, waits = Published(), list[float]()
        later.fd = fd
        assert later.knows(identity(st))
        data = read_settled_at(
            dfd,
            "MEMORY.md",
            100,
            "MEMORY.md",
            later,
            clock_ns=lambda: st.st_ctime_ns,
            sleep=waits.append,
        )
        assert data == b"# Index\n" and waits == []  # no wait, though written just now
    finally:
        os.close(dfd)
        os.close(fd)


def test_the_hint_keeps_the_newest_entries_and_ignores_a_damaged_lock_file(
    tmp_path: Path,
) -> None:
    mem = tmp_path / "memory"
    mem.mkdir()
    (mem / ".memdir.lock").write_bytes(b"not a hint\n1 2 3\n\xff\xfe\n")
    fd = os.open(mem / ".memdir.lock", os.O_RDWR)
    try:
        p = Published()
        p.fd = fd
        assert not p.knows((1, 2, 3, 4, 5))
        p._new = [(i, i, i, i, i) for i in range(HINT_ENTRIES + 5)]
        p.save()
        later = Published()
        later.fd = fd
        assert later.knows((HINT_ENTRIES + 4,) * 5) and not later.knows((4,) * 5)
    finally:
        os.close(fd)


def test_a_save_during_an_in_place_save_of_the_index_keeps_the_persons_line_whole(
    tmp_path: Path,
) -> None:
    """The race's read, for real: a person's editor saves MEMORY.md in place and pauses 0.1 s
    between its two writes; a save made in that pause read the half index (and its rename put
    the editor's second write aside). It now reads the index once it stood still."""
    _, mem = _dir_with(tmp_path)
    store = MemoryStore(mem)
    store.save("Warm", "An import of everything a save needs", "reference", "Warm.")
    editor = open(mem / "MEMORY.md", "r+", encoding="utf-8")  # noqa: SIM115 - closed by the thread
    editor.truncate(0)
    editor.write("# Index\n- [a](a.md) — a\n- a per")
    editor.flush()

    def second_write() -> None:
        time.sleep(0.1)
        editor.write("son's line\n")
        editor.close()

    thread = threading.Thread(target=second_write)
    thread.start()
    try:
        store.save("Deploys", "When deploys go out", "reference", "Weekdays.")
    finally:
        thread.join()
    text = (mem / "MEMORY.md").read_text(encoding="utf-8")
    assert "- a person's line\n" in text and "(reference_deploys.md)" in text
    assert "- a per\n" not in text


def test_an_in_place_save_into_the_replaced_file_undoes_the_step(tmp_path: Path) -> None:
    """An editor's save that lands after the step's `based_on` check, in the file its rename
    moves aside: the step is refused and rolled back, so that file (with the save) is live
    again, and the editor's further writes land where a reader sees them."""
    _, mem = _dir_with(tmp_path)
    path = mem / "MEMORY.md"
    ino = os.stat(path).st_ino
    editor = open(path, "r+", encoding="utf-8")  # noqa: SIM115 - held across the step, as an editor does

    def hook(point: str) -> None:
        if point == "write:MEMORY.md:backed-up":  # after the check, before the rename
            editor.truncate(0)
            editor.write("# Index\n- [a](a.md) — a\n- a per")
            editor.flush()

    try:
        with (
            pytest.raises(ChangedMeanwhileError, match="that change was kept"),
            open_transaction(mem, crash_hook=hook) as tx,
        ):
            read = tx.read_text("MEMORY.md")
            tx.write_edit("MEMORY.md", read, (read or "") + "- [b](b.md) — b\n")
        editor.write("son's line\n")  # the editor's second write
        editor.flush()
    finally:
        editor.close()
    assert os.stat(path).st_ino == ino
    assert path.read_text(encoding="utf-8") == "# Index\n- [a](a.md) — a\n- a person's line\n"
    assert sorted(p.name for p in mem.iterdir()) == [".memdir.lock", "MEMORY.md"]


def _old_empty(mem: Path, name: str) -> int:
    """An empty file in mem; returns a clock a second after its last change."""
    (mem / name).write_bytes(b"")
    return os.stat(mem / name).st_ctime_ns + 10**9


def test_an_old_empty_file_seen_settle_s_before_its_read_costs_no_pause_of_its_own(
    tmp_path: Path,
) -> None:
    """§68: the second look of §66 may be a sighting the step took before (look_ahead): an
    import over thousands of empty files pays one pause, not one each."""
    dfd, mem = _dir_with(tmp_path)
    later = _old_empty(mem, "a.md")
    now = [100.0]
    seen = Sightings(monotonic=lambda: now[0])
    seen.note(os.stat(mem / "a.md"))  # the step's look ahead
    waits: list[float] = []
    now[0] += 0.1  # read 0.1 s after it was seen: only the rest of SETTLE_S is waited
    args = (dfd, "a.md", 100, "a.md", Published())
    assert read_settled_at(*args, sightings=seen, clock_ns=lambda: later, sleep=waits.append) == b""
    assert waits == [pytest.approx(SETTLE_S - 0.1)]
    waits.clear()
    now[0] += SETTLE_S  # read SETTLE_S after it was seen, unchanged: no pause at all
    assert read_settled_at(*args, sightings=seen, clock_ns=lambda: later, sleep=waits.append) == b""
    assert waits == []


def test_an_empty_file_that_changed_since_it_was_seen_gets_a_second_look_of_its_own(
    tmp_path: Path,
) -> None:
    """A truncate whose times landed after the sighting made another identity: the old
    sighting proves nothing about it, so it pays the whole pause."""
    dfd, mem = _dir_with(tmp_path)
    _old_empty(mem, "a.md")
    now = [100.0]
    seen = Sightings(monotonic=lambda: now[0])
    seen.note(os.stat(mem / "a.md"))
    (mem / "a.md").write_bytes(b"")  # new times: the file changed since the sighting
    later = os.stat(mem / "a.md").st_ctime_ns + 10**9
    now[0] += 10 * SETTLE_S
    waits: list[float] = []
    args = (dfd, "a.md", 100, "a.md", Published())
    assert read_settled_at(*args, sightings=seen, clock_ns=lambda: later, sleep=waits.append) == b""
    assert waits == [SETTLE_S]


def test_a_steps_look_ahead_is_the_second_look_of_the_empty_files_it_names(
    tmp_path: Path,
) -> None:
    """A file the look ahead named is read at once SETTLE_S later; one it did not name pays its
    own pause. Paths it cannot look at (a FIFO, a link out, `..`, absent) are passed over."""
    _dfd, mem = _dir_with(tmp_path)
    _old_empty(mem, "named.md")
    _old_empty(mem, "unnamed.md")
    os.mkfifo(mem / "pipe.md")
    (tmp_path / "outside.md").write_bytes(b"")
    (mem / "link.md").symlink_to(tmp_path / "outside.md")
    time.sleep(SETTLE_S)  # both files' times are old
    with open_transaction(mem) as tx:
        tx.look_ahead(["named.md", "pipe.md", "link.md", "../outside.md", "gone.md", "x/y.md"])
        time.sleep(SETTLE_S)
        start = time.monotonic()
        assert tx.read_bytes("named.md") == b""
        named = time.monotonic() - start
        start = time.monotonic()
        assert tx.read_bytes("unnamed.md") == b""
        unnamed = time.monotonic() - start
    assert named < SETTLE_S / 2 <= SETTLE_S <= unnamed, (named, unnamed)
