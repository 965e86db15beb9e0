"""Crash-safe file writes shared by every module that changes a memory dir."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

from memdir_nb.storage.containment import real_path


def fsync_dir(path: Path) -> None:
    """Flush a folder's entries to disk, so a rename inside it survives a crash."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some filesystems refuse fsync on a directory; the rename itself is still atomic
    finally:
        os.close(fd)


def open_real_dir(path: str | os.PathLike[str]) -> tuple[str, int]:
    """A folder's real path and a read-only descriptor on it (raises OSError); the caller closes it."""
    real = real_path(path)
    return real, os.open(real, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)


# --- writes relative to directory descriptors, never through a symlink ---------------------

_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
COPY_CHUNK_BYTES = 64 * 1024
# The modes a memory dir's writers ask for (the store, the daily log, the demo builder); the
# umask then takes bits away, so a dir is never more open than the user's umask allows, and
# never group-writable under umask 002 either (one mode whichever writer made a file).
FOLDER_MODE = 0o755
FILE_MODE = 0o644
# The modes of what only its owner may read, whatever the umask: the memory tool's writes
# (StoreTransaction(owner_only=True)) and the folders made for them, a scratch folder's lock.
OWNER_FOLDER_MODE = 0o700
OWNER_FILE_MODE = 0o600


class SymlinkSwapError(OSError):
    """A folder on the way to a write is (now) a symlink or not a folder: the write is refused."""


def open_dir_nofollow(
    root_fd: int,
    parts: list[str] | tuple[str, ...],
    *,
    create: bool,
    dir_mode: int | None = None,
    made: list[tuple[str, ...]] | None = None,
) -> int:
    """Open root/parts... one component at a time, never following a symlink; returns a new fd.

    Missing folders are created when `create` is true (with `dir_mode` whatever the umask, when
    given; else FOLDER_MODE under the umask). A component that is a symlink (or was
    swapped for one after the caller's checks) raises SymlinkSwapError, so no write can land
    outside the folder tree that `root_fd` names. Each folder created is appended to `made` (its
    parts), so a step that fails can remove what it made.
    """
    fd = os.dup(root_fd)
    try:
        for depth, part in enumerate(parts, start=1):
            if part in ("", ".", "..") or "/" in part:
                raise SymlinkSwapError(errno.EINVAL, f"refusing path component {part!r}")
            try:
                nxt = os.open(part, _DIR_FLAGS, dir_fd=fd)
            except FileNotFoundError:
                if not create:
                    raise
                made_here = False
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, FOLDER_MODE if dir_mode is None else dir_mode, dir_fd=fd)
                    made_here = True
                nxt = _open_child_dir(part, fd, "/".join(parts[:depth]))
                if made_here and made is not None:
                    made.append(tuple(parts[:depth]))
                if made_here and dir_mode is not None:
                    os.fchmod(nxt, dir_mode)  # the umask may have taken bits away
            except (NotADirectoryError, OSError) as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR):
                    raise _swap_error(part, exc, fd, "/".join(parts[:depth])) from exc
                raise
            os.close(fd)
            fd = nxt
    except BaseException:
        os.close(fd)
        raise
    return fd


def _open_child_dir(part: str, fd: int, shown: str) -> int:
    try:
        return os.open(part, _DIR_FLAGS, dir_fd=fd)
    except OSError as exc:
        if exc.errno in (errno.ELOOP, errno.ENOTDIR):
            raise _swap_error(part, exc, fd, shown) from exc
        raise


def _swap_error(part: str, exc: OSError, parent_fd: int, shown: str) -> SymlinkSwapError:
    """The refusal for a component that is not a real folder; shown is the path up to it."""
    try:
        mode = os.stat(part, dir_fd=parent_fd, follow_symlinks=False).st_mode
    except OSError:
        mode = stat.S_IFLNK
    if not stat.S_ISLNK(mode):  # a plain file (or FIFO...) where the path needs a folder
        kind = "a regular file" if stat.S_ISREG(mode) else "a FIFO, device or socket"
        return SymlinkSwapError(
            exc.errno or errno.ENOTDIR,
            f"{shown!r} is {kind}, not a folder, so nothing was written under it; move it "
            "aside (or rename it), or choose a path whose folders are folders",
        )
    return SymlinkSwapError(
        exc.errno or errno.ELOOP,
        f"folder {part!r} on the way to the write is a symlink or not a folder (it may have "
        "been swapped after the path was checked); nothing was written through it. Remove the "
        "symlink and retry",
    )


# the bytes of a file's name that a side file named after it keeps (a temp file, a backup, a
# staging folder): with a dot and a tail of at most about 40 bytes (`.<pid>-<8 hex>-<seq>.bak.part`,
# mkstemp's 8 random characters and `.tmp`), within NAME_MAX's 255
SIDE_STEM_MAX_BYTES = 180


def side_stem(name: str) -> str:
    """`.` and the start of `name` for a hidden side file named after it: at most
    SIDE_STEM_MAX_BYTES bytes of it, cut at a character's end, so the side name stays within
    NAME_MAX whatever the name's script. Cut by characters, a valid 242-byte name of CJK
    characters made a 265-byte temp name: the store's write failed, and its record could not
    be rolled back, so every later write in the dir failed too."""
    size = 0
    for at, ch in enumerate(name):
        size += len(ch.encode("utf-8", "surrogateescape"))
        if size > SIDE_STEM_MAX_BYTES:
            return "." + name[:at]
    return "." + name


def is_folder(path: str | os.PathLike[str], *, follow: bool = True) -> bool:
    """Whether path is a folder (with follow=False, a real one, not a symlink to one). One
    that cannot be looked at (a name past NAME_MAX or a path past PATH_MAX, a parent this user
    cannot enter, an I/O error) is none: pathlib's is_dir and is_symlink raise for all but
    "absent", and one such folder took a whole listing down."""
    try:
        return stat.S_ISDIR(os.stat(path, follow_symlinks=follow).st_mode)
    except (OSError, ValueError):
        return False


def is_regular_file(path: str | os.PathLike[str], *, follow: bool = True) -> bool:
    """is_folder's rule for a regular file (with follow=False, not a symlink to one): one that
    cannot be looked at (past NAME_MAX or PATH_MAX, not enterable, an I/O error) is none."""
    try:
        return stat.S_ISREG(os.stat(path, follow_symlinks=follow).st_mode)
    except (OSError, ValueError):
        return False


def exists_at(dir_fd: int, name: str) -> bool:
    """True when `name` exists in the folder (a symlink counts, it is not followed); a name
    past NAME_MAX cannot."""
    try:
        os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return False
    except OSError as exc:
        if exc.errno == errno.ENAMETOOLONG:
            return False
        raise
    return True


def write_new_at(
    dir_fd: int,
    name: str,
    chunks: Iterable[bytes],
    *,
    mode: int | None = None,
    mtime_ns: int | None = None,
) -> None:
    """Create `name` fresh in the folder (O_CREAT|O_EXCL|O_NOFOLLOW), fill it and fsync it.

    mtime_ns: the modification (and access) time the file is given through its descriptor,
    before any other name can lead to it (an import's dates; see StoreTransaction.write).
    """
    fd = os.open(
        name,
        os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC,
        FILE_MODE if mode is None else mode,
        dir_fd=dir_fd,
    )
    try:
        if mode is not None:
            os.fchmod(fd, mode)  # an overwrite keeps the file's permissions
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                view = view[os.write(fd, view) :]
        if mtime_ns is not None:
            os.utime(fd, ns=(mtime_ns, mtime_ns))
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        with contextlib.suppress(FileNotFoundError):
            os.unlink(name, dir_fd=dir_fd)
        raise
    os.close(fd)


# where a file system has no hard links (FAT, some network and FUSE mounts): rename instead
_NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOTSUP, errno.EMLINK, errno.ENOSYS}


def link_new_at(dir_fd: int, src: str, dst: str) -> bool:
    """Give the file `src` the name `dst`, which must still be free, then drop `src`: a file
    that appeared at `dst` meanwhile (another program's) is never replaced, FileExistsError
    (and `src` is removed). False, with nothing done, where the file system has no hard links:
    the caller renames then, as before."""
    try:
        return move_new_at(dir_fd, src, dir_fd, dst)
    except FileExistsError:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(src, dir_fd=dir_fd)
        raise


def move_new_at(
    src_dir_fd: int, src: str, dst_dir_fd: int, dst: str, hook: Callable[[str], None] | None = None
) -> bool:
    """Move the file (or symlink) `src` to the name `dst`, which must still be free: a hard link
    under the new name, then the old name dropped. A name that appeared at `dst` after the
    caller's check (another program's file) is never replaced: FileExistsError, and `src` is
    left where it was. `hook("linked")` runs between the two steps (a crash test's point: both
    names then hold the file). False, with nothing done, where the file system has no hard
    links: the caller renames then."""
    try:
        os.link(src, dst, src_dir_fd=src_dir_fd, dst_dir_fd=dst_dir_fd, follow_symlinks=False)
    except OSError as exc:  # FileExistsError (a name made meanwhile) goes to the caller
        if exc.errno in _NO_HARD_LINKS:
            return False
        raise
    if hook is not None:
        hook("linked")
    os.unlink(src, dir_fd=src_dir_fd)
    return True


def names_in_nofollow(path: str | os.PathLike[str], parts: list[str]) -> list[str]:
    """The names in the folder path/parts..., opened one component at a time without following
    a link: SymlinkSwapError when one is a link or not a folder, FileNotFoundError when missing."""
    _real, root_fd = open_real_dir(path)
    try:
        fd = open_dir_nofollow(root_fd, parts, create=False)
    finally:
        os.close(root_fd)
    try:
        return os.listdir(fd)
    finally:
        os.close(fd)


def existing_mode_at(dir_fd: int, name: str) -> int | None:
    """Permission bits of a regular file `name`, None when absent or not a regular file."""
    try:
        st = os.stat(name, dir_fd=dir_fd, follow_symlinks=False)
    except FileNotFoundError:
        return None
    return stat.S_IMODE(st.st_mode) if stat.S_ISREG(st.st_mode) else None


def check_replaceable_at(
    dir_fd: int,
    name: str,
    shown: str,
    *,
    fix: str = "choose a file name",
    aside: str = "out of the memory dir",
) -> None:
    """Refuse to replace `name` when it is there as anything but a file (or a link to one).

    A write renames its new file over the old one: over a folder that fails late, and over a
    FIFO, socket or device it would silently remove what a person or a process put there.
    `fix` is what to do about a folder, `aside` where to move anything else, in the words of
    the caller's interface.
    """
    try:
        mode = os.stat(name, dir_fd=dir_fd, follow_symlinks=False).st_mode
    except FileNotFoundError:
        return
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, f"{shown} is a folder, not a file; {fix}")
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        raise OSError(
            errno.EINVAL,
            f"{shown} is not a regular file (a FIFO, device or socket), so nothing was written "
            f"over it; move it aside ({aside}) and retry",
        )


def check_replaceable(
    path: str | os.PathLike[str],
    *,
    fix: str = "choose a file name",
    aside: str = "out of the memory dir",
) -> None:
    """check_replaceable_at for a path outside a transaction (an export's own files)."""
    folder, name = os.path.split(os.path.abspath(os.fspath(path)))
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        check_replaceable_at(fd, name, os.fspath(path), fix=fix, aside=aside)
    finally:
        os.close(fd)


def open_regular_at(dir_fd: int, name: str) -> int:
    """Open `name` for reading without following a symlink or blocking on a FIFO; regular files only."""
    fd = os.open(name, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, dir_fd=dir_fd)
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(
                errno.EISDIR,
                f"{name!r} is a folder, not a file, so nothing was written; move it aside "
                "(or rename it) and retry",
            )
        raise OSError(
            errno.EINVAL,
            f"{name!r} is not a regular file (a FIFO, device or socket), so it was not read and "
            "nothing was written; move it aside and retry",
        )
    return fd


def holds_at(dir_fd: int, name: str, expected: bytes) -> bool:
    """True when the regular file `name` holds exactly `expected` (read at most one byte more)."""
    try:
        return read_at(dir_fd, name, len(expected)) == expected
    except OSError:  # gone, grown past it, or no longer a regular file: not what was read
        return False


def read_at(dir_fd: int, name: str, max_bytes: int) -> bytes:
    """Read a regular file at most `max_bytes` long; a longer one raises instead of being cut."""
    fd = open_regular_at(dir_fd, name)
    try:
        size = os.fstat(fd).st_size
        if size > max_bytes:
            raise OSError(
                errno.EFBIG,
                f"{name!r} is {size:,} bytes, over the {max_bytes:,}-byte limit for it, so it was "
                "not read and nothing was written; shorten it (or move it aside) and retry",
            )
        parts: list[bytes] = []
        total = 0
        while total <= max_bytes:
            chunk = os.read(fd, min(COPY_CHUNK_BYTES, max_bytes + 1 - total))
            if not chunk:
                break
            parts.append(chunk)
            total += len(chunk)
        if total > max_bytes:
            raise OSError(
                errno.EFBIG,
                f"{name!r} grew past the {max_bytes:,}-byte limit while it was read, so nothing "
                "was written; shorten it (or move it aside) and retry",
            )
        return b"".join(parts)
    finally:
        os.close(fd)


def iter_chunks_at(dir_fd: int, name: str) -> Iterator[bytes]:
    """Yield a regular file's bytes in fixed-size chunks (memory does not grow with the file)."""
    fd = open_regular_at(dir_fd, name)
    try:
        while chunk := os.read(fd, COPY_CHUNK_BYTES):
            yield chunk
    finally:
        os.close(fd)


def fsync_file(path: str | os.PathLike[str]) -> None:
    """Flush a file written by a library (zipfile, pyarrow) to disk before it is renamed over an
    older one: a power cut after the rename then leaves the whole new file, never an empty one."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def fsync_fd(fd: int) -> None:
    """fsync a folder descriptor, ignoring filesystems that refuse it."""
    with contextlib.suppress(OSError):
        os.fsync(fd)


def unique_tmp_name(name: str) -> str:
    """A temp file name for replace_file beside a file called name that no other writer uses:
    the process id and random bytes. replace_file removes a leftover at the temp name before it
    creates its own, so two threads of one process that shared `.<name>.<pid>.tmp` could each
    take the other's half-written file and rename it into place (recall's model files did:
    attack37b left it, the lead fixed it)."""
    return f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"


def replace_file(
    path: Path,
    data: bytes,
    *,
    tmp_name: str,
    mode: int = FILE_MODE,
    durable: bool = True,
    mtime_ns: int | None = None,
) -> None:
    """Write data to a fresh file `tmp_name` beside path, fsync it, then rename it over path.

    A leftover temp file (or a symlink planted at its name) is removed first and the temp file is
    created with O_EXCL|O_NOFOLLOW, so nothing is ever written through a link; the rename
    replaces a symlink at path itself, never its target. A write that fails (a full disk, a
    file-size limit) removes its temp file and leaves path as it was; the fsync before the
    rename means a power cut leaves the old file or the whole new one, never an empty one.
    durable=False skips both fsyncs, for a file in a staging folder that is renamed into place
    whole and may be built again (the demo's files). mtime_ns: the time the new file is given
    through its descriptor before it takes path's name, so no later step by path can date
    what another program put there meanwhile (the consolidation lock's rollback, attack
    round 30).
    """
    tmp = path.with_name(tmp_name)
    with contextlib.suppress(FileNotFoundError):
        tmp.unlink()
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, mode)
    try:
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view) :]
            if mtime_ns is not None:
                os.utime(fd, ns=(mtime_ns, mtime_ns))
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    if durable:
        fsync_dir(path.parent)
