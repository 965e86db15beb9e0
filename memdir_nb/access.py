"""The one contained, bounded reader for every read of a memory dir.

A path is opened one component at a time from a descriptor on the memory dir's real path,
each with O_NOFOLLOW, so a symlink or a swapped folder can never lead the open outside the
dir. A path that does contain a symlink is resolved once, refused if its real path leaves the
dir, and then opened the same way along its real path. The last component is checked with
lstat before it is opened (nothing but a regular file is ever opened), opened with
O_NONBLOCK|O_NOCTTY (a FIFO swapped in cannot block us) and checked again with fstat, whose
(st_dev, st_ino) must be the one lstat saw. At most `cap` bytes are read, in chunks.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat as _stat
from dataclasses import dataclass
from functools import cached_property
from typing import Literal

__all__ = [
    "MissingFile",
    "ReadRefused",
    "ReadResult",
    "RefusalKind",
    "file_kind",
    "holds_exactly",
    "read_contained",
    "try_read_contained",
]

RefusalKind = Literal["missing", "outside", "not-regular", "changed", "unreadable", "symlink"]

_CHUNK = 64 * 1024
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_FILE_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_NOCTTY", 0)
    | _NOFOLLOW
)


class ReadRefused(OSError):
    """A memory-dir read that was refused; `kind` is a short rule id, str(exc) the human reason."""

    def __init__(self, kind: RefusalKind, path: str, reason: str, err: int = errno.EPERM) -> None:
        super().__init__(err, reason)
        self.kind: RefusalKind = kind
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return self.reason

    @property
    def detail(self) -> str:
        """The reason without the leading path: 'is a FIFO, not a regular file'."""
        prefix = f"{self.path} "
        return self.reason[len(prefix) :] if self.reason.startswith(prefix) else self.reason

    def __reduce__(self) -> tuple[object, ...]:
        return (type(self), (self.kind, self.path, self.reason, self.errno))


class MissingFile(ReadRefused, FileNotFoundError):
    """The file does not exist (also a FileNotFoundError, so existing handlers keep working)."""

    def __init__(self, kind: RefusalKind, path: str, reason: str, err: int = errno.ENOENT) -> None:
        super().__init__(kind, path, reason, err)


@dataclass(frozen=True)
class ReadResult:
    """What one bounded read got: the bytes, the file's size, and whether the cap cut it."""

    path: str  # the path as asked
    rel: str  # '/'-separated, relative to the memory dir's real path
    data: bytes
    total_size: int  # fstat size (at least what was read)
    bytes_read: int
    truncated: bool  # the file holds more than `cap` bytes
    cap: int
    stat: os.stat_result

    @cached_property
    def valid_utf8(self) -> bool:
        """Whether the bytes read decode as UTF-8 (a character cut by the cap does not count)."""
        return self._decoded[1]

    @cached_property
    def text(self) -> str:
        """The bytes decoded as UTF-8, invalid bytes replaced, a character cut by the cap dropped."""
        return self._decoded[0]

    @cached_property
    def _decoded(self) -> tuple[str, bool]:
        final = not self.truncated
        try:
            return codecs.getincrementaldecoder("utf-8")("strict").decode(self.data, final), True
        except UnicodeDecodeError:
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            return decoder.decode(self.data, final), False

    def cut_note(self) -> str:
        """A sentence saying what the cap cut, or '' when the whole file was read."""
        if not self.truncated:
            return ""
        return (
            f"{self.rel} is {self.total_size} bytes; only the first {self.bytes_read} "
            f"bytes were read (cap {self.cap} bytes)"
        )


def file_kind(mode: int) -> str:
    """A human name for a file type: 'a FIFO', 'a socket', 'a directory', ..."""
    if _stat.S_ISFIFO(mode):
        return "a FIFO"
    if _stat.S_ISSOCK(mode):
        return "a socket"
    if _stat.S_ISCHR(mode):
        return "a character device"
    if _stat.S_ISBLK(mode):
        return "a block device"
    if _stat.S_ISDIR(mode):
        return "a directory"
    if _stat.S_ISLNK(mode):
        return "a symlink"
    if _stat.S_ISREG(mode):
        return "a regular file"
    return "not a regular file"


def _inside(real: str, real_root: str) -> bool:
    """Whether a resolved path lies strictly under the resolved root."""
    return real.startswith(real_root.rstrip(os.sep) + os.sep)


def _relative(path: str, roots: tuple[str, ...]) -> str | None:
    """path relative to the first root it lies lexically under, or None."""
    for root in roots:
        prefix = root.rstrip(os.sep) + os.sep
        if path.startswith(prefix) and len(path) > len(prefix):
            return path[len(prefix) :]
    return None


def _is_link(name: str, dfd: int) -> bool:
    """Whether name (relative to the folder dfd) is a symlink."""
    try:
        return _stat.S_ISLNK(os.stat(name, dir_fd=dfd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _open_along(real_root: str, parts: list[str]) -> tuple[int, os.stat_result]:
    """Open parts under real_root with no symlink followed; (fd, lstat of the last part).

    Raises OSError(ELOOP) when a component is a symlink, ReadRefused for a non-regular file.
    """
    dfd = os.open(real_root, _DIR_FLAGS)
    try:
        for part in parts[:-1]:
            try:
                nfd = os.open(part, _DIR_FLAGS | _NOFOLLOW, dir_fd=dfd)
            except OSError as exc:  # O_DIRECTORY|O_NOFOLLOW on a symlink fails with ENOTDIR
                if exc.errno == errno.ENOTDIR and _is_link(part, dfd):
                    raise OSError(errno.ELOOP, "symlink") from exc
                raise
            os.close(dfd)
            dfd = nfd
        last = parts[-1]
        lst = os.stat(last, dir_fd=dfd, follow_symlinks=False)
        if _stat.S_ISLNK(lst.st_mode):
            raise OSError(errno.ELOOP, "symlink")
        if not _stat.S_ISREG(lst.st_mode):
            raise ReadRefused("not-regular", last, f"{file_kind(lst.st_mode)}, not a regular file")
        return os.open(last, _FILE_FLAGS, dir_fd=dfd), lst
    finally:
        os.close(dfd)


def _read_fd(fd: int, cap: int) -> tuple[bytes, bool]:
    """At most cap bytes from fd in bounded chunks, and whether more remain."""
    chunks: list[bytes] = []
    left = cap
    while left > 0:
        try:
            chunk = os.read(fd, min(_CHUNK, left))
        except BlockingIOError:  # pragma: no cover - regular files do not block
            break
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)
        left -= len(chunk)
    try:
        more = bool(os.read(fd, 1))
    except BlockingIOError:  # pragma: no cover
        more = False
    return b"".join(chunks), more


def _resolve(path: str, root: str, real_root: str) -> tuple[str, str]:
    """(display name, path relative to real_root) after resolving symlinks; refuses escapes."""
    shown = _relative(path, (root, real_root)) or os.path.basename(path)
    try:
        real = os.path.realpath(path, strict=True)
    except FileNotFoundError as exc:
        dangling = os.path.islink(path)
        why = f"{shown} is a dangling symlink" if dangling else f"{shown} does not exist"
        raise MissingFile("missing", shown, why) from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise ReadRefused("unreadable", shown, f"{shown} is a symlink loop", exc.errno) from exc
        raise
    if real == real_root.rstrip(os.sep) or real == real_root:
        raise ReadRefused("not-regular", shown, f"{shown} is a directory, not a regular file")
    if not _inside(real, real_root):
        if os.path.islink(path):
            why = f"{shown} is a symlink to a file outside the memory dir"
        else:
            why = f"{shown} resolves to a path outside the memory dir"
        raise ReadRefused("outside", shown, why)
    return shown, real[len(real_root.rstrip(os.sep)) + 1 :]


def read_contained(
    memory_dir: str | os.PathLike[str],
    path: str | os.PathLike[str],
    cap: int,
    *,
    real_root: str | None = None,
    follow_symlinks: bool = True,
) -> ReadResult:
    """Read at most cap bytes of a regular file inside memory_dir; raise ReadRefused otherwise.

    path is absolute or relative to memory_dir. Pass real_root (the realpath of memory_dir)
    when reading many files, to resolve it once. follow_symlinks=False refuses a path that
    holds any symlink (kind 'symlink', errno ELOOP) instead of resolving it.
    """
    if cap < 0:
        raise ValueError(f"cap must be 0 or more bytes, got {cap}")
    root = os.path.abspath(os.fspath(memory_dir))
    if real_root is None:
        real_root = os.path.realpath(root)
    full = os.path.abspath(os.path.join(root, os.fspath(path)))
    rel = _relative(full, (root, real_root))
    shown = rel if rel is not None else os.fspath(path)
    try:
        if rel is None:  # not lexically inside: only a symlinked base path can make it inside
            shown, rel = _resolve(full, root, real_root)
        try:
            fd, lst = _open_along(real_root, rel.split(os.sep))
        except OSError as exc:
            if exc.errno != errno.ELOOP or isinstance(exc, ReadRefused):
                raise
            if not follow_symlinks:
                raise ReadRefused(
                    "symlink", shown, f"{shown} is reached through a symlink", errno.ELOOP
                ) from exc
            shown, rel = _resolve(full, root, real_root)
            try:
                fd, lst = _open_along(real_root, rel.split(os.sep))
            except OSError as again:
                if again.errno == errno.ELOOP and not isinstance(again, ReadRefused):
                    raise ReadRefused(
                        "changed", shown, f"{shown} was replaced by a symlink while being read"
                    ) from again
                raise
    except ReadRefused as exc:
        if exc.kind == "not-regular":
            raise ReadRefused("not-regular", shown, f"{shown} is {exc.reason}") from None
        raise
    except FileNotFoundError as exc:
        raise MissingFile("missing", shown, f"{shown} does not exist") from exc
    except OSError as exc:
        if exc.errno == errno.ENXIO:  # a socket (or a device with no driver) cannot be opened
            raise ReadRefused("not-regular", shown, f"{shown} is not a regular file") from exc
        if exc.errno == errno.ENOTDIR:
            raise MissingFile("missing", shown, f"{shown} does not exist", exc.errno) from exc
        raise ReadRefused(
            "unreadable", shown, f"{shown} cannot be read: {exc.strerror or exc}", exc.errno or 0
        ) from exc
    try:
        st = os.fstat(fd)
        if not _stat.S_ISREG(st.st_mode):
            raise ReadRefused(
                "not-regular", shown, f"{shown} is {file_kind(st.st_mode)}, not a regular file"
            )
        if (st.st_dev, st.st_ino) != (lst.st_dev, lst.st_ino):
            raise ReadRefused("changed", shown, f"{shown} was replaced while being opened")
        data, more = _read_fd(fd, cap)
    except ReadRefused:
        raise
    except OSError as exc:
        raise ReadRefused(
            "unreadable", shown, f"{shown} cannot be read: {exc.strerror or exc}", exc.errno or 0
        ) from exc
    finally:
        os.close(fd)
    n = len(data)
    total = max(st.st_size, n + (1 if more else 0))
    return ReadResult(
        path=os.fspath(path),
        rel=rel.replace(os.sep, "/"),
        data=data,
        total_size=total,
        bytes_read=n,
        truncated=more,
        cap=cap,
        stat=st,
    )


def try_read_contained(
    memory_dir: str | os.PathLike[str],
    path: str | os.PathLike[str],
    cap: int,
    *,
    real_root: str | None = None,
    follow_symlinks: bool = True,
) -> ReadResult | ReadRefused:
    """Like read_contained, but returns the refusal instead of raising it."""
    try:
        return read_contained(
            memory_dir, path, cap, real_root=real_root, follow_symlinks=follow_symlinks
        )
    except ReadRefused as exc:
        return exc


def holds_exactly(
    memory_dir: str | os.PathLike[str],
    path: str | os.PathLike[str],
    data: bytes,
    *,
    real_root: str | None = None,
) -> bool:
    """Whether path is a regular file inside memory_dir holding exactly data (reads len(data)+1 bytes at most)."""
    res = try_read_contained(memory_dir, path, len(data), real_root=real_root)
    return isinstance(res, ReadResult) and not res.truncated and res.data == data
