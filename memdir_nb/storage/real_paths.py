"""The package's one resolver of symlinks: `real_path`, os.path.realpath's answer with the
kernel's bound on the links it follows, and the words for a path that passes that bound.

storage.containment re-exports these; its second pass (the real path of a write's deepest
existing ancestor) is their main user, and an architecture test keeps os.path.realpath and
Path.resolve() out of every other module.
"""

from __future__ import annotations

import errno
import os
import stat

from memdir_nb.spec.constants import PATH_MAX_BYTES
from memdir_nb.spec.quoted import shown_text

_REALPATH_RACE_TRIES = 8
# The most symlinks one resolution follows: the kernel's own bound (Linux MAXSYMLINKS), past
# which it answers ELOOP. Python 3.11's os.path.realpath has none: it recurses once per link
# in a chain and reads each link anew, so a chain of 1,100 links (a cloned repository, a team
# dir, a `.git` pointer) raised RecursionError out of lint, rebuild-index and doctor, and many
# distinct links cost millions of lstat calls (attack round 20).
MAX_SYMLINKS_FOLLOWED = 40


class PathTooLongError(OSError):
    """real_path was given a path longer than PATH_MAX_BYTES: errno ENAMETOOLONG, as the
    kernel answers for any such path, raised before any part of it is looked at."""


def size_past_path_max(path: str) -> int | None:
    """The path's size in bytes when it is longer than the system allows (PATH_MAX_BYTES),
    else None: the one test of the whole-path cap, which refuse_too_long and containment's
    check_whole_path_length each raise in their own words."""
    if len(path) <= PATH_MAX_BYTES // 4:  # UTF-8 takes at most four bytes a character
        return None
    try:
        size = len(os.fsencode(path))
    except UnicodeEncodeError:  # a lone surrogate: counted as a character each
        size = len(path)
    return size if size > PATH_MAX_BYTES else None


def refuse_too_long(path: str) -> None:
    """Raise PathTooLongError for a path no system call takes (PATH_MAX_BYTES, in bytes).

    Resolving is quadratic in a path's number of parts, as os.path.realpath is (each part is
    joined onto the whole path resolved so far): 300,000 one-letter folders (600 KB, from a
    caller, a settings value or an @-import in a CLAUDE.md) took some 20 s (polish38)."""
    size = size_past_path_max(path)
    if size is not None:
        raise PathTooLongError(
            errno.ENAMETOOLONG,
            f"path is {size:,} bytes, longer than the system allows ({PATH_MAX_BYTES:,}); "
            "no file or folder can have it, so it is not resolved",
            shown_text(path),
        )


class SymlinkChainTooLongError(OSError):
    """real_path(strict=True) met more than MAX_SYMLINKS_FOLLOWED links: errno ELOOP, as the
    kernel answers for a chain that long too, but no link leads back to itself."""


# How an ELOOP is worded (no article): a real loop, or a chain longer than the kernel follows.
_LOOP_WORDS = "symlink loop"
_CHAIN_WORDS = (
    f"chain of more than {MAX_SYMLINKS_FOLLOWED} symlinks (the most the kernel follows; not a loop)"
)


def symlink_loop_words(exc: OSError) -> str:
    """What an ELOOP of real_path(strict=True) was, in a user's words: the one place either
    is worded."""
    return _CHAIN_WORDS if isinstance(exc, SymlinkChainTooLongError) else _LOOP_WORDS


def eloop_words(path: str | os.PathLike[str]) -> str:
    """symlink_loop_words for a path the kernel answered ELOOP for (it says the same of both):
    the path is resolved again, following at most MAX_SYMLINKS_FOLLOWED links, to tell. A
    path that resolves here holds no loop: the kernel followed one link many times (it counts
    each time, real_path each link once: `l/l/…/l/x` with `l -> .`), a chain too long too."""
    try:
        real_path(path, strict=True)
    except SymlinkChainTooLongError:
        return _CHAIN_WORDS
    except OSError as exc:
        return _LOOP_WORDS if exc.errno == errno.ELOOP else _CHAIN_WORDS
    return _CHAIN_WORDS


class _Budget:
    """The links one resolution may still follow."""

    def __init__(self) -> None:
        self.left = MAX_SYMLINKS_FOLLOWED


def _parent_of(path: str) -> str:
    """The lexical '..' step of posixpath._joinrealpath (path is already resolved)."""
    if not path:
        return os.pardir
    head, name = os.path.split(path)
    return os.path.join(head, os.pardir, os.pardir) if name == os.pardir else head


def _is_link(path: str, strict: bool) -> bool:
    """Whether path is a symlink; a part that cannot be lstat'ed is none (strict: it raises)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        if strict:
            raise
        return False


def _join_real(
    path: str, rest: str, strict: bool, seen: dict[str, str | None], budget: _Budget
) -> tuple[str, bool]:
    """Python 3.11's posixpath._joinrealpath, with a bound on the links it follows: past it
    the path is a loop (strict: OSError ELOOP; else the rest is joined unresolved, as a loop is)."""
    if rest.startswith(os.sep):
        rest, path = rest[1:], os.sep
    while rest:
        name, _, rest = rest.partition(os.sep)
        if not name or name == os.curdir:
            continue
        if name == os.pardir:
            path = _parent_of(path)
            continue
        newpath = os.path.join(path, name)
        if not _is_link(newpath, strict):
            path = newpath
            continue
        known = seen.get(newpath)
        if known is not None:
            path = known
            continue
        if newpath in seen or budget.left == 0:  # a loop, or more links than the kernel follows
            if strict:
                error = OSError if newpath in seen else SymlinkChainTooLongError
                raise error(errno.ELOOP, os.strerror(errno.ELOOP), newpath)
            return os.path.join(newpath, rest), False
        budget.left -= 1
        seen[newpath] = None
        path, ok = _join_real(path, os.readlink(newpath), strict, seen, budget)
        if not ok:
            return os.path.join(path, rest), False
        seen[newpath] = path
    return path, True


def _real_path_once(path: str | os.PathLike[str], strict: bool) -> str:
    """os.path.realpath(path, strict=strict), following at most MAX_SYMLINKS_FOLLOWED links."""
    found, _ = _join_real("", os.fspath(path), strict, {}, _Budget())
    return os.path.abspath(found)


def real_path(path: str | os.PathLike[str], *, strict: bool = False) -> str:
    """The one `os.path.realpath` of the package: the same answer, but it follows at most
    MAX_SYMLINKS_FOLLOWED links, as the kernel does (more is a loop: ELOOP when strict, the
    path left unresolved from there when not), and it survives a symlink changing while it
    is resolved.

    realpath lstat's each component and then reads the link it found; when another process
    removes or replaces that link in between, it raises (ENOENT, EINVAL) although a missing
    part is otherwise no error. Resolving again sees the new state; after a few tries the
    OSError is raised (the path kept changing under us). strict raises at once.

    A path longer than the system allows (PATH_MAX_BYTES) is refused with PathTooLongError
    (ENAMETOOLONG) before anything is resolved, strict or not: no system call takes it, and
    resolving it cost time quadratic in its parts.
    """
    path = os.fspath(path)
    refuse_too_long(path)
    if strict:
        return _real_path_once(path, True)
    for attempt in range(_REALPATH_RACE_TRIES):
        try:
            return _real_path_once(path, False)
        except OSError:
            if attempt == _REALPATH_RACE_TRIES - 1:
                raise
    raise AssertionError("unreachable")  # the loop returns or raises


def real_path_or_none(path: str | os.PathLike[str]) -> str | None:
    """real_path(path), or None for a path longer than the system allows (PathTooLongError):
    it names no file, so it is no file another path is compared with. For a path read from
    a file (a CLAUDE.md's @-import, a .git pointer's gitdir or core.worktree), which must
    not turn the refusal into an error out of doctor or the git-root look-up."""
    try:
        return real_path(path)
    except PathTooLongError:
        return None


def same_real_path(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    """Whether a and b name one file or folder after their links (real_path_or_none): a path
    past the system's limit names none, so it is the same as no other path. For the checks
    that compare two folders (doctor, the settings layers, the Claude homes): a project
    folder near the limit makes some paths under it pass it, and real_path refuses those."""
    real_a = real_path_or_none(a)
    return real_a is not None and real_a == real_path_or_none(b)
