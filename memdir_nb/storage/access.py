"""The one contained, bounded reader for every read of a memory dir.

A path is opened one component at a time from a descriptor on the memory dir's real path,
each with O_NOFOLLOW, so a symlink or a swapped folder can never lead the open outside the
dir. A path that does contain a symlink is resolved once, refused if its real path leaves the
dir, and then opened the same way along its real path. The last component is lstat'ed before
it is opened (a non-regular file is refused unopened; a caller whose walk has just lstat'ed it
may skip this), opened with O_NONBLOCK|O_NOCTTY (a FIFO swapped in cannot block us) and checked
with fstat, whose (st_dev, st_ino) must be the one lstat saw. At most `cap` bytes are read, in
chunks, so memory never grows with the file.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat as _stat

from memdir_nb.formats.names import depth_problem
from memdir_nb.spec.quoted import shown_text
from memdir_nb.spec.records import Record, field
from memdir_nb.storage.containment import is_real_path_within, real_path, symlink_loop_words

__all__ = [
    "ContainedReader",
    "MissingFile",
    "ReadRefused",
    "ReadResult",
    "file_kind",
    "holds_exactly",
    "read_contained",
    "try_read_contained",
]

TYPE_CHECKING = False  # typing stays unimported at run time (every `memdir-nb scan` reads here)
if TYPE_CHECKING:  # a type for the checker only: ReadRefused.kind's values
    from typing import Literal

    # "too-deep": a path with more folders than any memory route goes into
    # (formats.names.depth_problem)
    RefusalKind = Literal[
        "missing", "outside", "not-regular", "changed", "unreadable", "symlink", "too-deep"
    ]

_CHUNK = 64 * 1024
_MAX_OPEN_DIRS = 64  # folder descriptors a ContainedReader keeps open at most
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


class ReadResult(
    Record, slots=True
):  # not frozen: built once per read on hot paths; treat it as read-only
    """What one bounded read got: the bytes, the file's size, and whether the cap cut it."""

    path: str  # the path as asked
    rel: str  # '/'-separated, relative to the memory dir's real path
    data: bytes
    total_size: int  # fstat size (at least what was read)
    bytes_read: int
    truncated: bool  # the file holds more than `cap` bytes
    cap: int
    stat: os.stat_result
    _decoded: tuple[str, bool] | None = field(default=None, repr=False, compare=False)

    @property
    def valid_utf8(self) -> bool:
        """Whether the bytes read decode as UTF-8 (a character cut by the cap does not count)."""
        return self._decode()[1]

    @property
    def text(self) -> str:
        """The bytes decoded as UTF-8, invalid bytes replaced, a character cut by the cap dropped."""
        return self._decode()[0]

    def _decode(self) -> tuple[str, bool]:
        if self._decoded is None:
            self._decoded = _decode(self.data, self.truncated)
        return self._decoded

    def cut_note(self) -> str:
        """A sentence saying what the cap cut, or '' when the whole file was read."""
        if not self.truncated:
            return ""
        return (
            f"{self.rel} is {self.total_size} bytes; only the first {self.bytes_read} "
            f"bytes were read (cap {self.cap} bytes)"
        )


def _decode(data: bytes, truncated: bool) -> tuple[str, bool]:
    """(text, valid UTF-8) of data; a character cut by the cap is dropped, not counted as invalid."""
    try:
        return data.decode("utf-8"), True
    except UnicodeDecodeError as exc:
        cut = truncated and exc.reason == "unexpected end of data"
        if cut and exc.end == len(data):  # only the character cut by the cap is incomplete
            head = data[: exc.start]
            try:
                return head.decode("utf-8"), True
            except UnicodeDecodeError:
                return head.decode("utf-8", "replace"), False
        if truncated:
            return codecs.getincrementaldecoder("utf-8")("replace").decode(data), False
        return data.decode("utf-8", "replace"), False


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


def _prefixes(*roots: str) -> tuple[str, ...]:
    """Each root with exactly one trailing separator."""
    return tuple(root.rstrip(os.sep) + os.sep for root in roots)


def _relative(path: str, prefixes: tuple[str, ...]) -> str | None:
    """path relative to the first root prefix it lies lexically under, or None."""
    for prefix in prefixes:
        if path.startswith(prefix) and len(path) > len(prefix):
            return path[len(prefix) :]
    return None


def _is_link(name: str, dfd: int) -> bool:
    """Whether name (relative to the folder dfd) is a symlink."""
    try:
        return _stat.S_ISLNK(os.stat(name, dir_fd=dfd, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _read_fd(fd: int, cap: int, size: int) -> tuple[bytes, bool]:
    """At most cap bytes from fd in bounded chunks, and whether more remain.

    size is the fstat size: a read that ends exactly there is taken as the end of the file
    (one syscall fewer); any other short read is not trusted as an end (FUSE, NFS).
    """
    chunks: list[bytes] = []
    got = 0
    while got < cap:
        want = min(_CHUNK, cap - got)
        try:
            chunk = os.read(fd, want)
        except BlockingIOError:  # pragma: no cover - regular files do not block
            break
        if not chunk:
            return b"".join(chunks), False
        chunks.append(chunk)
        got += len(chunk)
        if got == size and len(chunk) < want:
            return b"".join(chunks), False
    try:
        more = bool(os.read(fd, 1))
    except BlockingIOError:  # pragma: no cover
        more = False
    return b"".join(chunks), more


def _absolute(root: str, path: str) -> str:
    """path made absolute against root and normalised (no '.', '..' or '//' parts left)."""
    full = path if path.startswith(os.sep) else os.path.join(root, path)
    if "/." in full or "//" in full or full.endswith("/") or os.sep != "/":
        full = os.path.normpath(full)
    return full


def _resolve(path: str, root: str, real_root: str) -> tuple[str, str]:
    """(display name, path relative to real_root) after resolving symlinks; refuses escapes."""
    shown = _relative(path, _prefixes(root, real_root)) or os.path.basename(path)
    try:
        real = real_path(path, strict=True)
    except FileNotFoundError as exc:
        dangling = os.path.islink(path)
        why = f"{shown} is a dangling symlink" if dangling else f"{shown} does not exist"
        raise MissingFile("missing", shown, why) from exc
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            why = f"{shown} is a {symlink_loop_words(exc)}"
            raise ReadRefused("unreadable", shown, why, exc.errno) from exc
        raise
    if real == real_root.rstrip(os.sep) or real == real_root:
        shown = shown or "."  # the root itself: '' is _named_refusal's mark for "no name yet"
        raise ReadRefused("not-regular", shown, f"{shown} is a directory, not a regular file")
    if not is_real_path_within(real, real_root):
        if os.path.islink(path):
            why = f"{shown} is a symlink to a file outside the memory dir"
        else:
            why = f"{shown} resolves to a path outside the memory dir"
        raise ReadRefused("outside", shown, why)
    return shown, real[len(real_root.rstrip(os.sep)) + 1 :]


def _named_refusal(shown: str, exc: OSError) -> OSError:
    """The refusal to raise for an open that failed, named by what the path is (exc when it is one)."""
    if isinstance(exc, ReadRefused):
        if exc.path == "":  # raised by ContainedReader._open, which does not know the shown name
            return ReadRefused(
                exc.kind, shown, f"{shown} is {exc.reason}", exc.errno or errno.EPERM
            )
        return exc
    if isinstance(exc, FileNotFoundError):
        return MissingFile("missing", shown, f"{shown} does not exist")
    if exc.errno == errno.ENXIO:  # a socket (or a device with no driver) cannot be opened
        return ReadRefused("not-regular", shown, f"{shown} is not a regular file")
    if exc.errno == errno.ENOTDIR:
        return MissingFile("missing", shown, f"{shown} does not exist", exc.errno)
    # a caller's path of any length (too long for the system) is quoted cut (attack38)
    reason = f"{shown_text(shown)} cannot be read: {exc.strerror or exc}"
    return ReadRefused("unreadable", shown, reason, exc.errno or 0)


class ContainedReader:
    """Reads files of one memory dir; used as a context manager it keeps its folders open between reads."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        real_root: str | None = None,
        check_before_open: bool = True,
    ) -> None:
        self.root = os.path.abspath(os.fspath(memory_dir))
        self.real_root = real_root if real_root is not None else real_path(self.root)
        self._roots = (self.root, self.real_root)
        self._prefixes = _prefixes(self.root, self.real_root)
        self._dirs: dict[tuple[str, ...], int] | None = None  # open folders, only inside `with`
        # lstat before open (refuse devices unopened; compare identities). The no-follow walk
        # alone already keeps every open inside the dir, so hot paths may turn this off.
        self.check_before_open = check_before_open

    def __enter__(self) -> ContainedReader:
        self._dirs = {}
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the folder descriptors held since __enter__."""
        dirs, self._dirs = self._dirs, None
        for fd in (dirs or {}).values():
            os.close(fd)

    def _folder(self, parts: tuple[str, ...]) -> int:
        """A descriptor on real_root/parts, each step opened with O_NOFOLLOW (ELOOP at a symlink)."""
        dirs = self._dirs
        if dirs is not None and parts in dirs:
            return dirs[parts]
        if not parts:
            fd = os.open(self.real_root, _DIR_FLAGS)
        else:
            parent = self._folder(parts[:-1])
            try:
                fd = os.open(parts[-1], _DIR_FLAGS | _NOFOLLOW, dir_fd=parent)
            except OSError as exc:  # O_DIRECTORY|O_NOFOLLOW on a symlink fails with ENOTDIR
                if exc.errno == errno.ENOTDIR and _is_link(parts[-1], parent):
                    raise OSError(errno.ELOOP, "symlink") from exc
                raise
            finally:
                if dirs is None:
                    os.close(parent)
        if dirs is not None:
            if len(dirs) >= _MAX_OPEN_DIRS:
                self.close()
                self._dirs = dirs = {}
            dirs[parts] = fd
        return fd

    def _open(self, rel: str, check: bool) -> tuple[int, os.stat_result | None]:
        """Open rel under real_root with no symlink followed; (fd, lstat of the last part or None).

        check=True lstats the last part first: a non-regular file is refused without being
        opened at all, and the caller compares the opened file's identity with that lstat.
        """
        parts = rel.split(os.sep)
        too_deep = depth_problem(len(parts) - 1)
        if too_deep is not None:  # its folders are never opened (one descriptor a level)
            raise ReadRefused("too-deep", "", f"in a folder that {too_deep}", errno.ENAMETOOLONG)
        dfd = self._folder(tuple(parts[:-1]))
        last = parts[-1]
        try:
            lst = os.stat(last, dir_fd=dfd, follow_symlinks=False) if check else None
            if lst is not None and _stat.S_ISLNK(lst.st_mode):
                raise OSError(errno.ELOOP, "symlink")
            if lst is not None and not _stat.S_ISREG(lst.st_mode):
                raise ReadRefused(
                    "not-regular", "", f"{file_kind(lst.st_mode)}, not a regular file"
                )
            return os.open(last, _FILE_FLAGS, dir_fd=dfd), lst
        except OSError as exc:
            if exc.errno == errno.ENXIO:  # a socket cannot be opened: name what it is
                try:
                    mode = os.stat(last, dir_fd=dfd, follow_symlinks=False).st_mode
                except OSError:
                    raise exc from None
                raise ReadRefused(
                    "not-regular", "", f"{file_kind(mode)}, not a regular file"
                ) from exc
            raise
        finally:
            if self._dirs is None:
                os.close(dfd)

    def _locate(
        self, path: str | os.PathLike[str], follow_symlinks: bool
    ) -> tuple[str, str, int, os.stat_result | None]:
        """(shown, rel, fd, lstat) for path, or ReadRefused saying why not."""
        root, real_root = self._roots
        full = _absolute(root, os.fspath(path))
        rel = _relative(full, self._prefixes)
        shown = rel if rel is not None else os.fspath(path)
        try:
            if rel is None:  # not lexically inside: only a symlinked base path can make it inside
                shown, rel = _resolve(full, root, real_root)
            try:
                return (shown, rel, *self._open(rel, self.check_before_open))
            except OSError as exc:
                if exc.errno != errno.ELOOP or isinstance(exc, ReadRefused):
                    raise
                if not follow_symlinks:
                    raise ReadRefused(
                        "symlink", shown, f"{shown} is reached through a symlink", errno.ELOOP
                    ) from exc
                shown, rel = _resolve(full, root, real_root)
                try:
                    return (shown, rel, *self._open(rel, True))
                except OSError as again:
                    if again.errno == errno.ELOOP and not isinstance(again, ReadRefused):
                        raise ReadRefused(
                            "changed", shown, f"{shown} was replaced by a symlink while being read"
                        ) from again
                    raise
        except OSError as exc:
            named = _named_refusal(shown, exc)
            if named is exc:
                raise
            raise named from (None if isinstance(exc, ReadRefused) else exc)

    def read(
        self, path: str | os.PathLike[str], cap: int, *, follow_symlinks: bool = True
    ) -> ReadResult:
        """Read at most cap bytes of a regular file inside the dir; raise ReadRefused otherwise."""
        if cap < 0:
            raise ValueError(f"cap must be 0 or more bytes, got {cap}")
        shown, rel, fd, lst = self._locate(path, follow_symlinks)
        try:
            st = os.fstat(fd)
            if not _stat.S_ISREG(st.st_mode):
                raise ReadRefused(
                    "not-regular", shown, f"{shown} is {file_kind(st.st_mode)}, not a regular file"
                )
            if lst is not None and (st.st_ino != lst.st_ino or st.st_dev != lst.st_dev):
                raise ReadRefused("changed", shown, f"{shown} was replaced while being opened")
            data, more = _read_fd(fd, cap, st.st_size)
        except ReadRefused:
            raise
        except OSError as exc:
            raise ReadRefused(
                "unreadable",
                shown,
                f"{shown} cannot be read: {exc.strerror or exc}",
                exc.errno or 0,
            ) from exc
        finally:
            os.close(fd)
        n = len(data)
        return ReadResult(
            path=os.fspath(path),
            rel=rel if os.sep == "/" else rel.replace(os.sep, "/"),
            data=data,
            total_size=max(st.st_size, n + 1 if more else n),
            bytes_read=n,
            truncated=more,
            cap=cap,
            stat=st,
        )

    def try_read(
        self, path: str | os.PathLike[str], cap: int, *, follow_symlinks: bool = True
    ) -> ReadResult | ReadRefused:
        """Like read, but returns the refusal instead of raising it."""
        try:
            return self.read(path, cap, follow_symlinks=follow_symlinks)
        except ReadRefused as exc:
            return exc


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
    when reading many files, to resolve it once, or use a ContainedReader. follow_symlinks=False
    refuses a path that holds any symlink (kind 'symlink', errno ELOOP) instead of resolving it.
    """
    reader = ContainedReader(memory_dir, real_root=real_root)
    return reader.read(path, cap, follow_symlinks=follow_symlinks)


def try_read_contained(
    memory_dir: str | os.PathLike[str],
    path: str | os.PathLike[str],
    cap: int,
    *,
    real_root: str | None = None,
    follow_symlinks: bool = True,
) -> ReadResult | ReadRefused:
    """Like read_contained, but returns the refusal instead of raising it."""
    reader = ContainedReader(memory_dir, real_root=real_root)
    return reader.try_read(path, cap, follow_symlinks=follow_symlinks)


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
