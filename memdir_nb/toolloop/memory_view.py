"""The memory tool's `view` command: a folder's listing and a file's numbered lines, bounded.

MemoryDirBackend.view (memory_commands.py) resolves the path and calls view_folder or
view_file. Every read goes through the contained reader or descriptors opened without
following a link; every answer is bounded (LISTING_MAX_ENTRIES entries, VIEW_MAX_BYTES of
numbered lines, a file read to STORE_READ_MAX_BYTES at most), and what a bound left out is
said in a note or, for a range past the read, in the refusal (docs/memory_tool.md, rows 10
and 10b). The texts are memory_text.py's; nothing here imports anthropic.
"""

from __future__ import annotations

import itertools
import os
import stat
from collections.abc import Iterator

from memdir_nb.spec.constants import MEMORY_FILE_READ_MAX_BYTES, STORE_READ_MAX_BYTES
from memdir_nb.storage.access import ContainedReader, MissingFile, ReadRefused
from memdir_nb.storage.containment import is_real_path_within, real_path
from memdir_nb.storage.fsutil import open_dir_nofollow, open_real_dir
from memdir_nb.toolloop import memory_text as text
from memdir_nb.toolloop.memory_paths import ToolPath
from memdir_nb.toolloop.memory_text import MemoryCommandError

VIEW_MAX_BYTES = MEMORY_FILE_READ_MAX_BYTES  # the most `view` shows of one file
LISTING_MAX_ENTRIES = 2_000  # the most entries a folder `view` lists


def view_folder(real_root: str, tp: ToolPath, st: os.stat_result) -> str:
    """The listing of a folder, two levels deep, at most LISTING_MAX_ENTRIES entries."""
    items = list(itertools.islice(_listing(real_root, tp.real, "", 1), LISTING_MAX_ENTRIES + 1))
    answer = text.listing_view(tp.shown, st.st_size, items[:LISTING_MAX_ENTRIES])
    if len(items) > LISTING_MAX_ENTRIES:
        answer += (
            f"\n\nNote: {tp.shown} holds more than {LISTING_MAX_ENTRIES:,} entries two "
            "levels deep; only the first are listed. View a subfolder to see the rest."
        )
    return answer


def view_file(memory_dir: str, real_root: str, tp: ToolPath, view_range: object) -> str:
    """A file's numbered lines, at most VIEW_MAX_BYTES of them with their numbers.

    A range may lie past the first VIEW_MAX_BYTES: it is read as far as an edit reads,
    and what is shown is bounded instead (a range there had come back empty; api38). A
    range that begins past even that is refused in words (it came back empty; api39)."""
    ranged = text.is_range(view_range)
    limit = STORE_READ_MAX_BYTES if ranged else VIEW_MAX_BYTES
    try:
        res = ContainedReader(memory_dir, real_root=real_root).read(tp.real, limit)
    except MissingFile as exc:
        raise MemoryCommandError(
            f"The file {tp.shown} no longer exists (may have been deleted or renamed concurrently)."
        ) from exc
    except ReadRefused as exc:
        if exc.kind == "not-regular":
            raise text.unsupported_type(tp.shown) from exc
        raise MemoryCommandError(f"{tp.shown} cannot be read: {exc.detail}") from exc
    data = res.data
    # A read the bound cut shows whole lines only; the newline ending them is not a line of
    # its own (it was shown as an empty line N+1, the next line's number over nothing;
    # api39). A first line longer than the read may stop inside a character: cut drops it.
    # The bytes are viewed, not copied: each copy of a 1 MiB read counted in the peak.
    newline = data.rfind(b"\n") if res.truncated else -1
    shown_end = newline if newline >= 0 else len(data)
    lines_read = data.count(b"\n", 0, shown_end + 1) or 1
    bounds = text.range_bounds(view_range)
    if res.truncated and bounds is not None and bounds[0] > lines_read:
        raise MemoryCommandError(
            text.range_unreadable(tp.shown, bounds[0], lines_read, res.total_size, limit)
        )
    content = text.decoded(memoryview(data)[:shown_end], tp.shown, cut=res.truncated)
    view = text.file_view(tp.shown, content, view_range, VIEW_MAX_BYTES)
    if view.last is not None:
        size = res.total_size if res.truncated else None
        return view.answer + text.view_note(tp.shown, view, VIEW_MAX_BYTES, size)
    if res.truncated and not (ranged and text.range_within(view_range, lines_read)):
        # no range: the lines after these can be asked for (a range reads further)
        go_on = "" if ranged else f" View the rest with view_range [{lines_read + 1}, -1]."
        kept = shown_end + 1 if newline >= 0 else shown_end
        return view.answer + (
            f"\n\nNote: {tp.shown} is {res.total_size:,} bytes; only the first "
            f"{kept:,} bytes {'can be viewed' if ranged else 'are shown'} (the "
            f"memory tool reads at most {limit:,} bytes of a file). Memory files should "
            f"be short: split this one into topics.{go_on}"
        )
    return view.answer


def _listing(real_root: str, real_dir: str, rel: str, depth: int) -> Iterator[tuple[int, str]]:
    """(size, path relative to the viewed folder) two levels deep, as the reference lists.

    Each folder is opened from the memory dir down without following a link and listed
    through its descriptor; a link is followed only when the shared real path of it stays
    inside the dir and out of its hidden parts. Listing by path after checking the real path
    let a folder swapped for a link in between list an outside folder, and a link removed
    while it was resolved raised FileNotFoundError out of the tool (attack round 14).
    """
    if depth > 2:
        return
    inner = os.path.relpath(real_dir, real_root)
    parts = [] if inner == "." else inner.split(os.sep)
    try:
        _, root_fd = open_real_dir(real_root)
        try:
            dir_fd = open_dir_nofollow(root_fd, parts, create=False)
        finally:
            os.close(root_fd)
    except OSError:
        return  # gone, or no longer a real folder inside the dir: nothing to list
    try:
        entries = [
            (name, _entry(real_root, dir_fd, real_dir, name)) for name in sorted(os.listdir(dir_fd))
        ]
    finally:
        os.close(dir_fd)
    for name, found in entries:
        if found is None:
            continue
        st, real_item = found
        item_rel = f"{rel}/{name}" if rel else name
        if stat.S_ISDIR(st.st_mode):
            yield st.st_size, f"{item_rel}/"
            if depth < 2:
                yield from _listing(real_root, real_item, item_rel, depth + 1)
        elif stat.S_ISREG(st.st_mode):
            yield st.st_size, item_rel


def _entry(
    real_root: str, dir_fd: int, real_dir: str, name: str
) -> tuple[os.stat_result, str] | None:
    """(stat, real path) of one listed entry, or None to leave it out (hidden, gone, or a
    link leading out of the dir or into its hidden parts)."""
    if name.startswith("."):
        return None
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
        if not stat.S_ISLNK(st.st_mode):
            return st, os.path.join(real_dir, name)
        target = real_path(os.path.join(real_dir, name))
        if target != real_root and not is_real_path_within(target, real_root):
            return None
        if any(p.startswith(".") for p in os.path.relpath(target, real_root).split(os.sep)):
            return None
        return os.stat(target), target
    except OSError:
        return None
