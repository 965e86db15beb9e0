"""KAIROS daily logs: file location, entry format, whole-entry appends across processes, prompt."""

from __future__ import annotations

import datetime as dt
import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from zoneinfo import ZoneInfo

import pytest

from memdir_nb.prompts.daily_log import build_assistant_daily_log_prompt
from memdir_nb.spec.calendar_days import days_counted_in
from memdir_nb.storage import daily_log as kairos
from memdir_nb.storage.daily_log import DailyLogError, append_daily_log, read_daily_log_entries
from tests.support.file_size_limit import file_size_limit
from tests.support.nobody import NOBODY, as_nobody

REPO = Path(__file__).resolve().parents[2]


def _ms(y: int, mo: int, d: int, h: int = 12, mi: int = 0, s: int = 0) -> float:
    return dt.datetime(y, mo, d, h, mi, s).timestamp() * 1000  # local time, as the logs use


@pytest.fixture()
def memdir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    d.mkdir()
    return d


def test_append_goes_to_logs_year_month_local_date_file(memdir: Path) -> None:
    path = append_daily_log(memdir, "User prefers short answers.", now_ms=_ms(2026, 4, 1, 9, 30))
    assert path == memdir / "logs" / "2026" / "04" / "2026-04-01.md"
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# Daily log 2026-04-01\n")
    assert "## 09:30:00\n\nUser prefers short answers.\n" in text


def test_second_append_same_day_keeps_first_entry_and_adds_after_it(memdir: Path) -> None:
    append_daily_log(memdir, "first", now_ms=_ms(2026, 4, 1, 9))
    path = append_daily_log(memdir, "second\nwith two lines", now_ms=_ms(2026, 4, 1, 17, 5, 9))
    assert read_daily_log_entries(path) == [
        ("09:00:00", "first"),
        ("17:05:09", "second\nwith two lines"),
    ]
    assert path.read_text(encoding="utf-8").count("# Daily log") == 1


def test_a_log_written_without_entry_headings_reads_as_one_entry_with_no_time(
    memdir: Path,
) -> None:
    # A nightly job writes its own prose log into the logs/YYYY/MM/ tree: a title, then
    # paragraphs, no `## HH:MM:SS` heading. It read as no entries at all (real40b).
    log = memdir / "logs" / "2026" / "04" / "2026-04-20.md"
    log.parent.mkdir(parents=True)
    log.write_text(
        "# Ship's diary, 2026-04-20\nOnly a merge today.\n\nTomorrow: the parser.\n",
        encoding="utf-8",
    )
    assert read_daily_log_entries(log) == [("", "Only a merge today.\n\nTomorrow: the parser.")]

    append_daily_log(memdir, "an entry after", now_ms=_ms(2026, 4, 20, 21))
    assert read_daily_log_entries(log) == [
        ("", "Only a merge today.\n\nTomorrow: the parser."),
        ("21:00:00", "an entry after"),
    ]


def test_entries_on_different_days_go_to_different_files(memdir: Path) -> None:
    a = append_daily_log(memdir, "before midnight", now_ms=_ms(2026, 12, 31, 23, 59, 59))
    b = append_daily_log(memdir, "after midnight", now_ms=_ms(2027, 1, 1, 0, 0, 1))
    assert a == memdir / "logs/2026/12/2026-12-31.md"
    assert b == memdir / "logs/2027/01/2027-01-01.md"
    assert read_daily_log_entries(a) == [("23:59:59", "before midnight")]


def test_an_entry_written_across_midnight_has_its_files_day_and_time(
    memdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the wall clock read once per append: read twice, the date came from 23:59:59.9 and the
    # heading from 00:00:00.1, a next-day time in the day before's log (polish30b)
    readings = iter([_ms(2026, 12, 31, 23, 59, 59) + 900, _ms(2027, 1, 1, 0, 0, 0) + 100])

    def clock(now_ms: float | None = None) -> float:  # the wall clock when none is given
        return next(readings) if now_ms is None else now_ms

    monkeypatch.setattr(kairos, "resolve_now_ms", clock)
    path = append_daily_log(memdir, "at midnight")
    assert path == memdir / "logs/2026/12/2026-12-31.md"
    assert read_daily_log_entries(path) == [("23:59:59", "at midnight")]


def test_a_set_day_zone_names_the_file_and_times_the_heading(memdir: Path) -> None:
    # lefts39: the heading read the machine's zone itself (datetime.fromtimestamp), so with the
    # day zone set the file's date and its entry's time could come from two zones
    late = dt.datetime(2026, 3, 31, 23, 30, tzinfo=dt.UTC).timestamp() * 1000
    with days_counted_in(ZoneInfo("Pacific/Kiritimati")):  # UTC+14
        path = append_daily_log(memdir, "east of the date line", now_ms=late)
    assert path == memdir / "logs" / "2026" / "04" / "2026-04-01.md"
    assert read_daily_log_entries(path) == [("13:30:00", "east of the date line")]


@pytest.mark.parametrize(
    "ending", ["no-final-newline", "crlf-no-final-newline"], ids=lambda e: str(e)
)
def test_an_append_after_a_hand_edit_without_a_final_newline_starts_on_its_own_line(
    memdir: Path, ending: str
) -> None:
    """A person edited today's log by hand in an editor that writes no final newline (VS Code's
    default): the next entry's heading was glued to their last line, so their note and the new
    entry read as one (fresh30)."""
    now = _ms(2026, 3, 4, 9)
    log = append_daily_log(memdir, "first entry", now_ms=now)
    nl = "\r\n" if ending.startswith("crlf") else "\n"
    hand = f"# Daily log 2026-03-04{nl}{nl}## 09:00:00{nl}{nl}first entry, and my own note"
    log.write_bytes(hand.encode("utf-8"))

    append_daily_log(memdir, "the next entry", now_ms=now + 60_000)

    text = log.read_bytes()
    assert text.startswith(hand.encode("utf-8"))  # every byte the person wrote, as written
    assert read_daily_log_entries(log) == [
        ("09:00:00", "first entry, and my own note"),
        ("09:01:00", "the next entry"),
    ]


def test_text_line_that_looks_like_a_heading_is_indented_not_a_new_entry(memdir: Path) -> None:
    path = append_daily_log(memdir, "note\n## 10:00:00\nnot a heading", now_ms=_ms(2026, 4, 1))
    entries = read_daily_log_entries(path)
    assert len(entries) == 1
    assert entries[0][1] == "note\n ## 10:00:00\nnot a heading"


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "empty"),
        ("  \n\t\n", "empty"),
        (b"bytes", "must be a str"),
        ("a\x00b", "NUL"),
        ("x" * 20_001, "limit"),
    ],
)
def test_bad_text_is_refused_and_nothing_is_written(
    memdir: Path, text: object, fragment: str
) -> None:
    with pytest.raises(DailyLogError, match=fragment):
        append_daily_log(memdir, text, now_ms=_ms(2026, 4, 1))  # type: ignore[arg-type]
    assert not (memdir / "logs").exists()


def test_missing_memory_dir_is_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(DailyLogError, match="does not exist; create it first"):
        append_daily_log(tmp_path / "nope", "hello", now_ms=_ms(2026, 4, 1))
    assert not (tmp_path / "nope").exists()


def test_symlinked_logs_folder_leading_outside_is_refused(memdir: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (memdir / "logs").symlink_to(outside, target_is_directory=True)
    with pytest.raises(ValueError):
        append_daily_log(memdir, "escape attempt", now_ms=_ms(2026, 4, 1))
    assert list(outside.rglob("*.md")) == []


_WORKER = textwrap.dedent(
    """
    import sys
    from memdir_nb.storage.daily_log import append_daily_log
    memdir, worker, count, now_ms = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    # Long multi-line entries make torn writes visible if appends were not serialised.
    for i in range(count):
        body = "\\n".join(f"worker {worker} entry {i} line {j} " + "x" * 300 for j in range(8))
        append_daily_log(memdir, body, now_ms=now_ms)
    """
)


def test_an_append_the_disk_cuts_short_leaves_the_log_as_it_was_never_half_an_entry(
    memdir: Path,
) -> None:
    """A full disk (here the file-size limit) stops the write part-way: the log keeps every
    earlier entry byte for byte and does not end in the start of the new one."""
    now = _ms(2026, 3, 4, 9)
    log = append_daily_log(memdir, "first entry, kept", now_ms=now)
    before = log.read_bytes()
    with file_size_limit(len(before) + 40), pytest.raises(OSError) as caught:
        append_daily_log(memdir, "a long entry " * 20, now_ms=now + 1000)
    assert caught.value.errno == errno.EFBIG
    assert log.read_bytes() == before
    next_day = now + 86_400_000
    with file_size_limit(40), pytest.raises(OSError):  # the day's first entry: no file is left
        append_daily_log(memdir, "a long entry " * 20, now_ms=next_day)
    assert sorted(p.name for p in log.parent.iterdir()) == [log.name]
    append_daily_log(memdir, "after the disk was freed", now_ms=now + 2000)
    assert [t for _, t in read_daily_log_entries(log)] == [
        "first entry, kept",
        "after the disk was freed",
    ]


def test_concurrent_processes_append_whole_entries_and_lose_none(
    memdir: Path, tmp_path: Path
) -> None:
    script = tmp_path / "append_worker.py"
    script.write_text(_WORKER, encoding="utf-8")
    workers, per_worker = 6, 25
    now = _ms(2026, 4, 1, 8)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    procs = [
        subprocess.Popen(
            [sys.executable, str(script), str(memdir), str(w), str(per_worker), str(now)], env=env
        )
        for w in range(workers)
    ]
    assert [p.wait(timeout=120) for p in procs] == [0] * workers
    log = kairos.daily_log_file(memdir, now_ms=now)
    entries = read_daily_log_entries(log)
    assert len(entries) == workers * per_worker
    seen = set()
    for _, body in entries:
        lines = body.split("\n")
        assert len(lines) == 8
        worker, entry = lines[0].split()[1], lines[0].split()[3]
        for j, line in enumerate(lines):
            assert line == f"worker {worker} entry {entry} line {j} " + "x" * 300
        seen.add((int(worker), int(entry)))
    assert seen == {(w, i) for w in range(workers) for i in range(per_worker)}
    assert log.read_text(encoding="utf-8").count("# Daily log") == 1


def test_prompt_names_todays_file_and_the_append_only_rules(memdir: Path) -> None:
    prompt = build_assistant_daily_log_prompt(memdir, now_ms=_ms(2026, 4, 1, 10))
    assert str(memdir / "logs/2026/04/2026-04-01.md") in prompt
    lowered = prompt.lower()
    assert "append" in lowered and "never rewrite" in lowered
    assert "memory.md" in lowered and "do not touch" in lowered
    assert "dream" in lowered
    for excluded in ("git history", "claude.md", "code patterns", "secrets"):
        assert excluded in lowered


def test_prompt_follows_the_clock_to_the_next_day(memdir: Path) -> None:
    prompt = build_assistant_daily_log_prompt(memdir, now_ms=_ms(2026, 4, 2, 0, 0, 5))
    assert "2026-04-02.md" in prompt and "2026-04-01" not in prompt


def test_importing_kairos_loads_no_heavy_library() -> None:
    code = "import sys, memdir_nb.storage.daily_log; print(sorted(m for m in ('anthropic','pandas','numpy','rapidfuzz') if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert out.stdout.strip() == "[]"


def _append_as_another_user(memdir: Path, text: str, now_ms: float) -> str:
    """append_daily_log run as a user the permission bits bind: this process when it is not
    root, else a forked child dropped to nobody (uid 65534, owner of memdir's files). Returns
    "" on success, or the DailyLogError's message."""
    if os.geteuid() != 0:
        try:
            append_daily_log(memdir, text, now_ms=now_ms)
        except DailyLogError as exc:
            return str(exc)
        return ""
    for p in [memdir, *memdir.rglob("*")]:
        os.chown(p, NOBODY, NOBODY, follow_symlinks=False)

    def append() -> bytes:
        try:
            append_daily_log(memdir, text, now_ms=now_ms)
        except DailyLogError as exc:
            return str(exc).encode()
        return b""

    return as_nobody(append).decode()


@pytest.mark.parametrize("hand_edit", [False, True], ids=["as-written", "no-final-newline"])
def test_a_log_the_user_may_write_but_not_read_is_appended_to(
    shared_dir: Path, hand_edit: bool
) -> None:
    """The append opened the log read-write to see its last byte, so a write-only log (mode
    0200) was refused where it used to be appended (polish31). It is opened write-only then,
    and the heading starts a line of its own whatever the unseen last byte is."""
    memdir = shared_dir / "memory"
    memdir.mkdir()
    now = _ms(2026, 3, 4, 9)
    log = append_daily_log(memdir, "first entry", now_ms=now)
    if hand_edit:
        log.write_bytes(log.read_bytes().rstrip(b"\n") + b", and my own note")
    before = log.read_bytes()
    log.chmod(0o200)
    assert _append_as_another_user(memdir, "the next entry", now + 60_000) == ""
    log.chmod(0o600)
    assert log.read_bytes().startswith(before)
    first = "first entry, and my own note" if hand_edit else "first entry"
    assert read_daily_log_entries(log) == [("09:00:00", first), ("09:01:00", "the next entry")]


def test_a_log_the_user_may_not_write_is_refused_naming_the_permission(shared_dir: Path) -> None:
    memdir = shared_dir / "memory"
    memdir.mkdir()
    now = _ms(2026, 3, 4, 9)
    log = append_daily_log(memdir, "first entry", now_ms=now)
    before = log.read_bytes()
    log.chmod(0o400)
    said = _append_as_another_user(memdir, "the next entry", now + 60_000)
    assert "permission denied" in said and "chmod u+w 2026-03-04.md" in said
    assert log.read_bytes() == before
