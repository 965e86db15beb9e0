"""Building the demo memory dir: target checks, staged writes, deterministic mtimes."""

from __future__ import annotations

import datetime as _dt
import filecmp
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.home.config import MemdirConfig
from memdir_nb.security.printed_output import keep_printed_output_safe
from memdir_nb.spec.calendar_days import days_counted_in
from memdir_nb.spec.constants import (
    DAILY_LOG_LOCK_NAME,
    ENTRYPOINT_NAME,
    LOGS_DIRNAME,
    TEAM_DIRNAME,
)
from memdir_nb.spec.text import terminal_line
from memdir_nb.spec.timestamps import trash_stamp
from memdir_nb.storage.containment import real_path
from memdir_nb.storage.daily_log import append_daily_log
from memdir_nb.storage.folder_blocker import folder_blocker
from memdir_nb.storage.fsutil import (
    FILE_MODE,
    FOLDER_MODE,
    replace_file,
    side_stem,
)
from memdir_nb.storage.scratch_folder import scratch_folder
from memdir_nb.ui.demo.memories import demo_memories
from memdir_nb.ui.demo.model import (
    DEMO_NOW_MS,
    MARKER_NAME,
    MARKER_TEXT,
    MTIME_OFFSET_MS,
    TEAM_NOTES_AGE_DAYS,
    DemoDirError,
    DemoDirExistsError,
    demo_clock,
    mtime_for_age,
)
from memdir_nb.ui.demo.render import (
    LOG_ENTRIES,
    daily_log_date,
    daily_log_relpath,
    entry_ms,
    private_index,
    render_file,
    team_index,
)


def write_daily_log(root: Path, now_ms: float) -> Path:
    """Append yesterday's entries through the real KAIROS writer; mtime = the last entry.

    Written with local days counted in UTC, as the demo's memories are dated
    (render.daily_log_date): the log's entry times and mtime are then the same in every zone.
    """

    day = daily_log_date(now_ms)
    log_path = root / daily_log_relpath(now_ms)
    last_ms = 0.0
    with days_counted_in(_dt.UTC):
        for hour, minute, text in LOG_ENTRIES:
            last_ms = entry_ms(day, hour, minute)
            written = append_daily_log(root, text, now_ms=last_ms)
            if written != log_path:
                raise RuntimeError(f"daily log went to {written}, expected {log_path}")
    set_mtime(log_path, last_ms)
    lock = root / LOGS_DIRNAME / DAILY_LOG_LOCK_NAME
    if lock.exists():
        set_mtime(lock, last_ms)
    return log_path


def set_mtime(path: Path, mtime_ms: float) -> None:
    """Set a file's atime and mtime to mtime_ms, with nanosecond precision."""
    ns = int(mtime_ms * 1_000_000)
    os.utime(path, ns=(ns, ns))


def _make_folders(folder: Path) -> None:
    """Create folder and its missing parents with FOLDER_MODE under the umask, as the store
    does (`mkdir(parents=True)` makes parents with the umask's mode alone: 0775 under 002)."""
    missing = []
    while not folder.is_dir():
        missing.append(folder)
        folder = folder.parent
    for made in reversed(missing):
        made.mkdir(FOLDER_MODE)


def write_file(path: Path, text: str, mtime_ms: float) -> None:
    """Write a UTF-8 file with LF endings (FILE_MODE under the umask) and set its mtime."""
    _make_folders(path.parent)
    # no fsync per file: the demo is built in a staging folder, renamed into place whole, and
    # built again with --overwrite (two fsyncs a file made a demo build about half as slow again)
    data = text.encode("utf-8")
    replace_file(path, data, tmp_name=f".{path.name}.writing", mode=FILE_MODE, durable=False)
    set_mtime(path, mtime_ms)


def _check_target(target: Path, overwrite: bool) -> bool:
    """Raise DemoDirError if target may not hold the demo; return True if it must be replaced."""
    if target.is_symlink():
        raise DemoDirError(
            f"{target} is a symlink; pass the real directory path so the demo never writes "
            "through a link"
        )
    if not target.exists():
        return False
    if not target.is_dir():
        raise DemoDirError(f"{target} exists and is not a directory; choose another target path")
    if not any(target.iterdir()):
        return False
    marker = target / MARKER_NAME
    is_demo = marker.is_file() and not marker.is_symlink()
    if not is_demo:
        raise DemoDirError(
            f"{target} is not empty and is not a memdir_nb demo dir (no {MARKER_NAME} marker); "
            "refusing to touch it. Choose an empty or new directory."
        )
    if not overwrite:
        raise DemoDirExistsError(target)
    return True


def _populate(root: Path, now_ms: float) -> None:
    """Write every demo file under root (an empty directory) and set all mtimes."""
    memories = demo_memories(now_ms)
    for mem in memories:
        write_file(root / mem.path, render_file(mem), mem.mtime_ms(now_ms))
    newest_private = min(x.age_days for x in memories if x.scope == "private" and x.in_index)
    write_file(
        root / ENTRYPOINT_NAME, private_index(memories), mtime_for_age(newest_private, now_ms)
    )
    write_file(
        root / TEAM_DIRNAME / ENTRYPOINT_NAME,
        team_index(memories, now_ms),
        mtime_for_age(TEAM_NOTES_AGE_DAYS, now_ms),
    )
    write_daily_log(root, now_ms)
    write_file(root / MARKER_NAME, MARKER_TEXT, mtime_for_age(0, now_ms))
    # Folders last, deepest first, so their mtimes are deterministic too.
    dirs = sorted((p for p in root.rglob("*") if p.is_dir()), key=lambda p: -len(p.parts))
    for folder in [*dirs, root]:
        set_mtime(folder, mtime_for_age(0, now_ms))


@dataclass(frozen=True)
class DemoBuild:
    """What build_demo_memory_dir did: the demo's path and, when it replaced an earlier demo
    that a person had added to or edited, where that earlier demo was kept and what was theirs."""

    path: Path
    kept: Path | None = None  # the earlier demo, moved aside whole (None: nothing of a person's)
    edited: tuple[str, ...] = ()  # its files a person added or changed, relative, sorted


def build_demo_memory_dir(
    target: str | os.PathLike[str], *, now_ms: float | None = None, overwrite: bool = False
) -> Path:
    """Create the demo memory dir at target (new or empty; a previous demo only with overwrite).

    An earlier demo that a person added a file to, or edited, is not deleted by overwrite: it
    is moved aside whole (see build_demo, which also says where)."""
    return build_demo(target, now_ms=now_ms, overwrite=overwrite).path


def build_demo(
    target: str | os.PathLike[str], *, now_ms: float | None = None, overwrite: bool = False
) -> DemoBuild:
    """build_demo_memory_dir, telling what happened to an earlier demo a person had changed.

    With overwrite, the earlier demo is compared with what the builder wrote then (built again
    as of its marker's time): if every file is still the builder's, it is deleted; if a person
    added or changed a file (a memory saved into the demo, a note edited), the whole earlier
    demo is moved beside the new one as ``<name>.kept-<UTC stamp>`` and nothing is deleted.
    """
    now = demo_clock(now_ms)
    dest = Path(os.path.abspath(os.fspath(target)))
    replace = _check_target(dest, overwrite)
    dest.parent.mkdir(parents=True, exist_ok=True)
    # Build beside the target and move it into place, so a failure leaves nothing half-built.
    # mkdtemp's folder is owner-only whatever the umask: the demo is a folder made inside it,
    # FOLDER_MODE under the umask like every folder in it (never more open than the umask).
    holder = Path(tempfile.mkdtemp(prefix=f"{side_stem(dest.name)}.building-", dir=dest.parent))
    staging = holder / "demo"
    try:
        staging.mkdir(FOLDER_MODE)
        _populate(staging, now)
        if not replace:
            os.replace(staging, dest)  # also fine onto an existing empty directory
            return DemoBuild(dest)
        edited = _files_a_person_changed(dest, holder / "reference")
        if edited:
            stem = side_stem(dest.name)[1:]  # bounded like a side file's, but not hidden
            kept = dest.parent / f"{stem}.kept-{trash_stamp(now, with_ms=True)}"
            os.replace(dest, kept)
            os.replace(staging, dest)
            return DemoBuild(dest, kept, edited)
        old = Path(tempfile.mkdtemp(prefix=f"{side_stem(dest.name)}.old-", dir=dest.parent))
        os.replace(dest, old / "demo")
        os.replace(staging, dest)
        shutil.rmtree(old)
        return DemoBuild(dest)
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def _files_a_person_changed(demo_dir: Path, reference: Path) -> tuple[str, ...]:
    """The files of an earlier demo that its builder did not write as they are: added, changed,
    or no longer regular files (compared with the demo built again at `reference` as of the
    earlier one's time). A file the person deleted is not listed: nothing of theirs is in it.
    Everything is listed when the earlier demo's time cannot be read from its marker."""
    built_at = demo_built_at_ms(demo_dir)
    found: list[str] = []
    if built_at is not None:
        reference.mkdir(FOLDER_MODE)
        _populate(reference, built_at)
    for folder, dirs, files in os.walk(demo_dir):  # links are listed, never followed
        for name in [*files, *(d for d in dirs if os.path.islink(os.path.join(folder, d)))]:
            path = os.path.join(folder, name)
            rel = os.path.relpath(path, demo_dir)
            theirs = os.path.join(reference, rel)
            mode = os.lstat(path).st_mode
            if (
                built_at is None
                or not stat.S_ISREG(mode)  # a FIFO is never opened, a link never followed
                or not os.path.isfile(theirs)
                or not filecmp.cmp(path, theirs, shallow=False)  # reads in 8 KiB blocks
            ):
                found.append(rel)
    return tuple(sorted(found))


def demo_files_changed(demo_dir: str | os.PathLike[str]) -> tuple[str, ...]:
    """The files of a demo dir a person added or changed (relative, sorted), as build_demo's
    overwrite finds them: compared with the demo built again, as of the same time, in a
    temporary folder removed after. Every file is listed when demo_dir holds no demo marker.
    `make clean` keeps a demo dir for which this is not empty (keep35)."""
    holder = Path(tempfile.mkdtemp(prefix="memdir-nb-demo-reference-"))
    try:
        return _files_a_person_changed(Path(os.path.abspath(os.fspath(demo_dir))), holder / "ref")
    finally:
        shutil.rmtree(holder, ignore_errors=True)


def print_demo_files_changed(demo_dir: str) -> int:
    """`make clean`'s check: print each file demo_files_changed names (its path, one line,
    terminal-safe); 1 when any, 0 when none."""
    changed = demo_files_changed(demo_dir)
    for rel in changed:
        print(terminal_line(f"  {os.path.join(demo_dir, rel)}"))
    return 1 if changed else 0


def notebook_memory_dir(
    chosen: str | os.PathLike[str] | None = None,
    *,
    config: MemdirConfig | None = None,
    now_ms: float | None = None,
) -> Path:
    """The memory dir a notebook opens: the one chosen, else MEMDIR_NB_DIR, else a fresh demo
    (in a scratch_folder, so it is removed when the kernel exits).

    The fresh demo is built as of now_ms, by default the fixed DEMO_NOW_MS, so what a notebook
    prints about it is the same on every day and machine. From here on the kernel's printed
    output passes the terminal sanitiser (keep_printed_output_safe): the notebook goes on to
    print what the dir's files say, and an escape sequence in them is shown, never run.
    """
    keep_printed_output_safe()
    if config is None:
        config = MemdirConfig.from_environment()
    path: Path | None
    if chosen:
        path = config.expand_user(chosen)
        source = "the notebook's parameters cell"
    else:
        path = config.expand_user(config.demo_dir) if config.demo_dir else None
        source = "MEMDIR_NB_DIR"
    if path is not None:
        try:
            is_dir = path.is_dir()  # a name too long for the filesystem raises, not False
        except OSError as exc:
            raise DemoDirError(
                f"{path} (from {source}) cannot be opened ({exc.strerror}); point it at a "
                "memory dir (the folder that holds MEMORY.md), or unset it to use the bundled demo"
            ) from exc
        if not is_dir:
            raise DemoDirError(
                f"{path} (from {source}) {_why_not_a_dir(path)}; point it at a memory dir "
                "(the folder that holds MEMORY.md), or unset it to use the bundled demo"
            )
        return Path(real_path(path))
    scratch = scratch_folder("demo")  # removed when the kernel exits
    built_at = DEMO_NOW_MS if now_ms is None else now_ms
    return build_demo_memory_dir(scratch / "memory", now_ms=built_at)


def _why_not_a_dir(path: Path) -> str:
    """What is at a chosen dir's path instead of a folder, in words; a relative path also
    names the kernel's folder it was taken from (not the shell's that set it)."""
    blocker = folder_blocker(path)
    if blocker is None:
        said = "does not exist"
    elif blocker[0] == os.path.abspath(path):
        said = f"is {blocker[1]}, not a directory"
    else:
        said = f"is not a directory: {blocker[0]} is {blocker[1]}"
    if not path.is_absolute():
        said += f" (a relative path is taken from the kernel's folder, {os.getcwd()})"
    return said


def demo_built_at_ms(memory_dir: str | os.PathLike[str]) -> float | None:
    """The `now` a demo dir was built as of (from its marker's mtime); None if not a demo dir."""
    marker = Path(memory_dir) / MARKER_NAME
    try:
        if marker.is_symlink() or not marker.is_file():
            return None
        return marker.stat().st_mtime_ns / 1_000_000 + MTIME_OFFSET_MS
    except OSError:
        return None
