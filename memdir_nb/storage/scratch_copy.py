"""A copy of a memory dir for a notebook step that writes, so the user's own dir is never changed.

Notebooks 01, 02, 05, 06 and 07 save, plant symlinks or dream on a copy. `shutil.copytree`
alone refuses a dir that holds a named pipe, a socket or a device file (it raises, listing the
file), so one odd entry in a user's dir took every one of those notebooks down. Here symlinks
are copied as symlinks (never followed), a named pipe becomes a new named pipe (never opened:
opening one to read waits for a writer), and sockets and device files are left out: they
hold no memory, and the scan passes over anything that is not a regular file anyway. A file
or folder that cannot be read (its owner made it so) is left out too, and named once in a
ScratchCopyWarning: the scan of the real dir skips it as well, and one such entry must not take
a notebook down. So is a file that is neither a memory nor an index and is larger than
SCRATCH_COPY_OTHER_FILE_MAX_BYTES (a video, a database dump kept beside the memories): no
memory route reads that much of it, and it was copied whole, gigabytes for a notebook cell.
A memory or index that large keeps its size in the copy, but only that much of its bytes.

The copy's owner may write every folder and file in it, whatever the source's modes were (a
read-only dir gave a read-only copy). `set_aside_what_writes_refuse` readies a copy for those
writes further: an index the store would refuse to rewrite (not UTF-8, past the store's read
cap, a pipe, a folder or a dangling link) or a `logs` entry the daily log refuses to write
under (a dangling or outside link) took every later cell of notebooks 01, 05 and 07 down with
it (twenty-ninth session). The store is asked, with its own reads and checks, and each refused
entry is renamed aside in the copy only.
"""

from __future__ import annotations

import errno
import functools
import os
import shutil
import stat
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path

from memdir_nb.formats.names import depth_problem, is_memory_filename
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    LOGS_DIRNAME,
    MEMORY_DIR_MAX_DEPTH,
    SCRATCH_COPY_OTHER_FILE_MAX_BYTES,
    TEAM_DIRNAME,
)
from memdir_nb.spec.text import first_few, terminal_line
from memdir_nb.storage.containment import PathTraversalError
from memdir_nb.storage.targets import resolve_target
from memdir_nb.storage.transaction import open_transaction

# The entries a warning names; the rest are counted ("and 380 more"): one line under a cell.
SCRATCH_WARNING_MAX_NAMES = 20


# What an entry a store write refuses is renamed to in a scratch copy (MEMORY.md.set-aside): no
# scan, index read or write route takes a name with this ending.
SET_ASIDE_SUFFIX = ".set-aside"
# The entries a notebook's writes rewrite or write under, relative to the memory dir.
_INDEXES = (ENTRYPOINT_NAME, f"{TEAM_DIRNAME}/{ENTRYPOINT_NAME}")


class ScratchCopyWarning(UserWarning):
    """Entries of the memory dir that cannot be read were left out of the scratch copy."""


def _too_big(src: str, st: os.stat_result) -> bool:
    """Whether src is a regular file that is no memory nor index, past the copy's cap."""
    name = os.path.basename(src)
    memory = name == ENTRYPOINT_NAME or is_memory_filename(name)
    return (
        stat.S_ISREG(st.st_mode) and not memory and st.st_size > SCRATCH_COPY_OTHER_FILE_MAX_BYTES
    )


def _copy_entry(
    src: str, dst: str, *, strict: bool = False, left_out: list[str], too_big: list[str]
) -> str:
    """copytree's copy_function: regular files copied, pipes recreated; other special files
    left out, or (strict) handed to shutil.copy2, which refuses them and so fails the copy.
    A file that cannot be read, or one too big (_too_big), is left out and listed (strict: it
    fails the copy); a memory or index past the cap keeps its size but not its tail
    (_copy_head)."""
    st = os.lstat(src)
    mode = st.st_mode
    if _too_big(src, st):
        if strict:
            raise shutil.Error(
                [(src, dst, f"{src} is over {SCRATCH_COPY_OTHER_FILE_MAX_BYTES:,} bytes")]
            )
        too_big.append(src)
    elif stat.S_ISFIFO(mode):
        os.mkfifo(dst)
    elif strict or stat.S_ISREG(mode):
        try:
            if stat.S_ISREG(mode):
                _copy_head(src, dst, st.st_size)
            else:
                shutil.copy2(src, dst)  # refuses a socket or device: the strict copy fails
        except PermissionError:
            if strict:
                raise
            left_out.append(src)
    return dst


def _copy_head(src: str, dst: str, size: int) -> None:
    """Copy a regular file's first min(size, SCRATCH_COPY_OTHER_FILE_MAX_BYTES) bytes, size as
    lstat gave it, and give the copy that size (the rest a hole), then src's times and mode.
    Only the runs that hold data are written: a hole in src stays a hole (_data_runs).

    No route reads more than the cap of any file, so a memory or index past it (a 4 GiB
    user_huge.md) reads in the copy as in the dir (the same size, the same first bytes)
    without being written whole (attack round 23: 2 GiB took 16 s and 2.1 GB of disk); a
    file growing while it is copied (a log another program appends to) is copied as it was
    listed. Opened without following a link or blocking on a FIFO swapped in meanwhile."""
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return  # no longer a regular file: left out, as a socket or device is
        with open(dst, "xb") as out:
            for start, end in _data_runs(fd, min(size, SCRATCH_COPY_OTHER_FILE_MAX_BYTES)):
                out.seek(start)
                while start < end:
                    sent = os.sendfile(out.fileno(), fd, start, end - start)
                    if sent == 0:
                        break  # it shrank meanwhile
                    start += sent
            out.truncate(size)
    finally:
        os.close(fd)
    shutil.copystat(src, dst, follow_symlinks=False)


def _data_runs(fd: int, end: int) -> Iterator[tuple[int, int]]:
    """The (start, end) byte runs of the open file that hold data, up to end; its holes are
    passed over (SEEK_DATA, SEEK_HOLE), so the copy keeps them as holes. A file system that
    cannot tell says the whole file is data.

    Copied as zeros, a hole made the copy larger on disk than the dir: 20 memories of 16 MiB
    that are all a hole (80 KB on disk) took 336 MB in the copy, and a thousand 16 GB
    (attack round 24)."""
    pos = 0
    while pos < end:
        try:
            start = os.lseek(fd, pos, os.SEEK_DATA)
            stop = os.lseek(fd, start, os.SEEK_HOLE)
        except OSError as exc:
            if exc.errno == errno.ENXIO:
                return  # no data past pos: the rest is a hole (or the file shrank)
            if exc.errno != errno.EINVAL:
                raise
            start, stop = pos, end  # SEEK_DATA not supported here: copy it all
        if start >= end:
            return
        yield start, min(stop, end)
        pos = stop


def _folders_left_out(
    source: str, strict: bool, unreadable: list[str], too_deep: list[str]
) -> Callable[[str, list[str]], set[str]]:
    """copytree's ignore: the subfolders nested past the depth any memory route goes into
    (formats.names.depth_problem), added to too_deep: copytree recurses once a folder, so
    1,000 nested folders raised RecursionError (attack round 20); with strict, such a folder
    fails the copy (shutil.Error names it). And, but for strict, the subfolders that cannot be
    listed or entered, added to unreadable (a folder of mode 0600 lists its names, but none of
    them can be opened or stat'ed: the copy failed whole on its first file, attack round 19)."""

    def ignore(folder: str, names: list[str]) -> set[str]:
        rel = os.path.relpath(folder, source)
        depth = 1 if rel == os.curdir else rel.count(os.sep) + 2  # of the folders in it
        skipped = set()
        for name in names:
            path = os.path.join(folder, name)
            if not stat.S_ISDIR(os.lstat(path).st_mode):
                continue
            deep = depth_problem(depth)
            if deep is not None:
                if strict:
                    raise shutil.Error([(path, path, f"{os.path.relpath(path, source)} {deep}")])
                skipped.add(name)
                too_deep.append(path)
                continue
            if strict:
                continue
            try:
                os.scandir(path).close()
                os.lstat(os.path.join(path, os.curdir))  # needs the right to enter it
            except PermissionError:
                skipped.add(name)
                unreadable.append(path)
        return skipped

    return ignore


def _named(source: str, paths: list[str]) -> str:
    """The paths relative to source, sorted, at most SCRATCH_WARNING_MAX_NAMES of them and
    the count of the rest; in the one sanitiser's form (a name is someone else's text, shown
    under a notebook cell)."""
    names = sorted(os.path.relpath(p, source) for p in paths)
    return terminal_line(first_few(names, SCRATCH_WARNING_MAX_NAMES))


def copy_memory_dir(
    source: str | os.PathLike[str], dest: str | os.PathLike[str], *, strict: bool = False
) -> Path:
    """Copy the memory dir at source to dest (which must not exist yet); returns dest.

    Symlinks stay symlinks, named pipes stay named pipes, sockets and device files are left
    out, and so are files and folders that cannot be read, folders nested past
    MEMORY_DIR_MAX_DEPTH and files that are no memory nor index larger than
    SCRATCH_COPY_OTHER_FILE_MAX_BYTES (named in one ScratchCopyWarning).
    With strict, each of those fails the copy instead (shutil.Error names it): a sweep
    reports such a dir as not copied.
    """
    unreadable: list[str] = []
    too_deep: list[str] = []
    too_big: list[str] = []
    entry = functools.partial(_copy_entry, strict=strict, left_out=unreadable, too_big=too_big)
    ignore = _folders_left_out(os.fspath(source), strict, unreadable, too_deep)
    copy = Path(shutil.copytree(source, dest, symlinks=True, copy_function=entry, ignore=ignore))
    _owner_can_write(copy)
    said = []
    if unreadable:
        said.append(
            f"as they cannot be read: {_named(os.fspath(source), unreadable)} (the scan skips "
            "them too; give them read permission to include them)"
        )
    if too_deep:
        said.append(
            f"as they are nested past the {MEMORY_DIR_MAX_DEPTH} folders any memory route goes "
            f"into: {_named(os.fspath(source), too_deep)} (the scan skips them too; move what "
            "is in them up)"
        )
    if too_big:
        said.append(
            f"as they are no memory and over the {SCRATCH_COPY_OTHER_FILE_MAX_BYTES:,} bytes "
            f"the copy takes of such a file: {_named(os.fspath(source), too_big)} (no memory "
            "route reads that much of them; copy one by hand if a step needs it)"
        )
    if said:
        warnings.warn(
            "left out of the scratch copy, " + "; and ".join(said), ScratchCopyWarning, stacklevel=2
        )
    return copy


def _owner_can_write(root: Path) -> None:
    """Give the owner the right to write every folder and file of the copy (and to enter every
    folder). copytree keeps the source's modes, so a dir made read-only (`chmod -R a-w`, a
    read-only checkout or share) gave a copy its notebook could not write: 01, 02, 05, 06 and
    07 raised PermissionError on every save (twenty-ninth session). Owner bits are only added,
    never group or other ones; symlinks are left alone (chmod would change their targets)."""
    os.chmod(root, stat.S_IMODE(os.lstat(root).st_mode) | stat.S_IRWXU)
    for folder, folders, files in os.walk(root):
        for name in (*folders, *files):
            path = os.path.join(folder, name)
            mode = os.lstat(path).st_mode
            if stat.S_ISDIR(mode):
                os.chmod(path, stat.S_IMODE(mode) | stat.S_IRWXU)
            elif stat.S_ISREG(mode):
                os.chmod(path, stat.S_IMODE(mode) | stat.S_IRUSR | stat.S_IWUSR)


def set_aside_what_writes_refuse(copy: str | os.PathLike[str]) -> list[tuple[str, str]]:
    """Rename aside, in a scratch copy, each entry a store write would refuse; [(rel, why)].

    The two indexes are read as a save reads them before it rewrites one (the store's
    transaction: contained, regular files only, under the read cap, UTF-8), and the daily
    log's folder is checked as an append checks it. Each entry refused is renamed to
    `<rel>.set-aside` beside itself, and the store's own reason is returned with its name.
    Only for a copy: in a user's dir the refusal is the answer, and nothing is moved.
    """
    root = Path(copy)
    refused: list[tuple[str, str]] = []
    with open_transaction(root) as tx:
        for rel in _INDEXES:
            try:
                tx.read_text(rel)
            except (ValueError, OSError) as exc:  # NotUTF8Error, PathTraversalError, EFBIG...
                refused.append((rel, _reason(exc)))
    try:
        resolve_target(root, f"{LOGS_DIRNAME}/{ENTRYPOINT_NAME}", follow_final=False)
    except PathTraversalError as exc:
        refused.append((LOGS_DIRNAME, _reason(exc)))
    for rel, _ in refused:
        os.rename(root / rel, root / (rel + SET_ASIDE_SUFFIX))
    return refused


def _reason(exc: Exception) -> str:
    """The refusal's own words, without an OSError's "[Errno N]" prefix, on one line."""
    text = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return terminal_line(text)
