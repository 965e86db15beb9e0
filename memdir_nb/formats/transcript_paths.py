"""How a transcript names files: separators, roots, and a project's memory dir.

A transcript records paths as the machine that wrote it spelled them, POSIX or Windows. Two
readers need the same rules: the memory timeline (which of a session's tool calls touched its
memory dir) and the search for a session's own memory dir (``home.sessions``). Both read a
memory path as ``…/projects/<key>/<memory dir name>[/<rest>]`` under any Claude home, so a
transcript copied from another machine still matches. This module is that rule's one home,
and holds :class:`MemoryPaths`, which applies it (with the memory tool's ``/memories/`` and a
shell's working folder) to each path a session's tool calls name.
"""

from __future__ import annotations

import copy
import functools
import os
import posixpath
import re
from collections.abc import Iterator, Sequence

from memdir_nb.formats.shell_script import EXPANDED
from memdir_nb.spec.constants import PROJECT_MEMORY_DIRNAME

_DRIVE_ROOT = re.compile(r"^[A-Za-z]:/")  # a Windows drive, once backslashes are slashes


def slashed(path: str) -> str:
    """A path with '/' for every separator and an upper-case drive letter (c:\\x -> C:/x)."""
    path = path.replace("\\", "/")
    return path[0].upper() + path[1:] if _DRIVE_ROOT.match(path) else path


_WINDOWS_KEY = re.compile(r"^[A-Za-z]--")  # the key of a project on a Windows drive


def key_fold(key: str) -> str:
    """A project key as keys are compared: a Windows one (a drive letter, then '--') case-folded.

    Windows names files case-insensitively, so `d--ws` and `D--ws` are one folder there: a
    session opened at `d:\\ws` names `d--ws\\memory` while the folder keeps the case it was made
    with (which a copy or a git checkout of the home keeps). Other keys stay case-sensitive.
    """
    return key.casefold() if _WINDOWS_KEY.match(key) else key


def rooted(path: str) -> bool:
    """Absolute in POSIX or in Windows form (a drive or a UNC share), on any system."""
    return path.startswith("/") or bool(_DRIVE_ROOT.match(path))


@functools.lru_cache(maxsize=16)
def _project_memory_pattern(dirname: str) -> re.Pattern[str]:
    # the key is one path part; the memory dir's name is the next part, whole
    return re.compile(r"/projects/([^/]+)/" + re.escape(dirname) + r"(?:/|$)")


def project_memory_parts(
    path: str, dirname: str = PROJECT_MEMORY_DIRNAME
) -> Iterator[tuple[str, str]]:
    """Each (key, rest) where path reads ``…/projects/<key>/<dirname>[/<rest>]``, first first.

    ``rest`` is what follows the memory dir ('' for the dir itself), not yet normalised: the
    caller decides what a ``..`` in it means. Backslashes count as separators. A path can hold
    ``/projects/`` more than once (``/home/u/projects/app/.claude/projects/<key>/memory``), so
    every place is tried, not only the first.
    """
    path = slashed(path)
    for key, at in _project_memory_ends(path, dirname):
        yield key, path[at:]


def _project_memory_ends(path: str, dirname: str) -> Iterator[tuple[str, int]]:
    """(key, where the rest starts) of each place in a slashed path: the rest is cut only
    where a caller wants it. Cutting it at every place was quadratic in a path naming many
    (`/projects/a/memory/x` 12,800 times, 256 KiB: 0.7 s to list them; redos44)."""
    for found in _project_memory_pattern(dirname).finditer(path):
        yield found.group(1), found.end()


def project_memory_keys(path: str, dirname: str = PROJECT_MEMORY_DIRNAME) -> Iterator[str]:
    """The keys of project_memory_parts, without the rest of the path after each."""
    return (key for key, _ in _project_memory_ends(slashed(path), dirname))


def other_project_memory_key(path: str, memory_dir: str) -> str | None:
    """The key folder of the project memory dir path is in, when that is not memory_dir's own.

    Lint names it for an index line that links a sibling project's memory file
    (``../../<key>/memory/x.md``): recall of this project never loads that file. The innermost
    ``projects/<key>/memory`` of path counts; None when path is in none, or in one with
    memory_dir's own key (another copy of this project's memory is not another project).
    """
    found = list(project_memory_keys(path))
    if not found:
        return None
    own = [key_fold(key) for key in project_memory_keys(memory_dir)]
    return None if own and own[-1] == key_fold(found[-1]) else found[-1]


class MemoryPaths:
    """Maps a path seen in a transcript to a path relative to the memory dir (or None)."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        cwd: str | None = None,
        extra_roots: Sequence[str] = (),
        other_keys: Sequence[str] = (),
    ):
        """other_keys: project keys besides the dir's own whose ``…/projects/<key>/memory``
        paths are this dir too (a moved home's old key; see home.moved_home.former_keys)."""
        given = slashed(os.fspath(memory_dir))
        root = posixpath.normpath(given if rooted(given) else slashed(os.path.abspath(given)))
        self.roots = [r.rstrip("/") + "/" for r in (root, *map(slashed, extra_roots))]
        own = posixpath.basename(posixpath.dirname(root))
        self._keys = frozenset(map(key_fold, (own, *other_keys)))
        self._dirname = posixpath.basename(root)
        self.cwd = slashed(cwd) if cwd else None

    def after_cd(self, args: Sequence[str]) -> MemoryPaths:
        """The same dir seen from where `cd ARGS` leaves the shell: a relative path is joined
        onto this cwd, `~/x` kept as such; a `cd` to an unknown place (no argument, `-`, an
        option, a variable, two arguments) leaves no cwd, so relative paths match nothing."""
        moved = copy.copy(self)
        target = args[0] if len(args) == 1 else ""
        if not target or target.startswith("-") or EXPANDED.search(target):
            moved.cwd = None
        elif rooted(slashed(target)) or target == "~" or target.startswith("~/"):
            moved.cwd = slashed(target)
        else:
            moved.cwd = posixpath.join(self.cwd, slashed(target)) if self.cwd else None
        return moved

    def relative(self, raw: object) -> str | None:
        """The memory-relative path of raw, or None when it is not inside the memory dir."""
        if not isinstance(raw, str) or not raw or "\x00" in raw:
            return None
        path = slashed(raw)
        if path.startswith("/memories/"):  # as the memory tool reads it: empty steps dropped
            rel = path[len("/memories/") :].lstrip("/")  # (`/memories//tmp/x.md` is tmp/x.md)
        else:
            if not rooted(path) and not path.startswith("~/") and self.cwd:
                path = posixpath.join(self.cwd, path)
            if path.startswith("~/"):
                path = "/~" + path[1:]
            path = posixpath.normpath(path)
            rel = next((path[len(r) :] for r in self.roots if path.startswith(r)), "")
            if not rel:
                path = slashed(path)  # as project_memory_parts reads it
                ends = _project_memory_ends(path, self._dirname)
                rel = next((path[at:] for key, at in ends if key_fold(key) in self._keys), "")
        rel = posixpath.normpath(rel) if rel else ""
        if not rel or rel == "." or rel.startswith("../") or rel == "..":
            return None
        return rel
