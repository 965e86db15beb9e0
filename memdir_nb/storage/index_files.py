"""MEMORY.md on disk: where it is, and its contained, capped reads (rebuilds: index_rebuild)."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memdir_nb.formats.index import index_mentions, parse_index
from memdir_nb.formats.index_lines import URL_SCHEME, link_path
from memdir_nb.formats.link_escapes import decoded_link_target
from memdir_nb.formats.names import is_memory_filename
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    INDEX_READ_MAX_BYTES,
    TEAM_DIRNAME,
)
from memdir_nb.spec.text import as_lf
from memdir_nb.storage.access import MissingFile, ReadRefused, read_contained
from memdir_nb.storage.agent_root_index import agent_index_owners
from memdir_nb.storage.containment import absolute_dir, is_real_path_within, real_path


def entrypoint_path(scope_dir: str | os.PathLike[str]) -> Path:
    """Where a scope's index lives: scope_dir / MEMORY.md."""
    return absolute_dir(scope_dir) / ENTRYPOINT_NAME


@dataclass(frozen=True)
class EntrypointRead:
    """A scope's MEMORY.md as the contained reader found it; text is '' when it counts as missing."""

    path: str
    text: str
    exists: bool  # a regular file inside the memory dir was read
    problem: str  # why an index that is there was not used ('' when read, or simply absent)
    truncated: bool  # the file is larger than the read cap; text holds its start
    total_size: int
    valid_utf8: bool = True  # False: invalid bytes were replaced in text

    def note(self) -> str:
        """What a view should say about this index beyond its content ('' when nothing)."""
        if self.problem:
            return f"{self.problem}; treated as missing"
        if self.truncated:
            return (
                f"{ENTRYPOINT_NAME} is {self.total_size} bytes; only the first "
                f"{INDEX_READ_MAX_BYTES} bytes were read"
            )
        return ""


def read_entrypoint_checked(scope_dir: str | os.PathLike[str]) -> EntrypointRead:
    """A scope's MEMORY.md as doctor, lint and the CLI report it (the contained reader's view)."""
    return load_entrypoint(scope_dir)


class IndexTooLargeError(ValueError):
    """MEMORY.md is larger than the read cap, so it cannot be edited without losing lines."""


def default_containment_root(scope_dir: str | os.PathLike[str]) -> str:
    """The memory dir a scope's files must stay inside: the parent of a team/ folder, else itself."""
    folder = os.path.abspath(os.fspath(scope_dir))
    return os.path.dirname(folder) if os.path.basename(folder) == TEAM_DIRNAME else folder


def load_entrypoint(
    scope_dir: str | os.PathLike[str],
    *,
    memory_dir: str | os.PathLike[str] | None = None,
    cap: int = INDEX_READ_MAX_BYTES,
) -> EntrypointRead:
    """Read a scope's MEMORY.md through the contained reader, with the reason when it is refused.

    memory_dir is the dir the index must stay inside (default: scope_dir, or its parent when
    scope_dir is a team/ folder). A FIFO, a device, or a symlink leaving the memory dir counts
    as missing, and `problem` says why.
    """
    path = entrypoint_path(scope_dir)
    root = memory_dir if memory_dir is not None else default_containment_root(scope_dir)
    try:
        res = read_contained(root, path, cap)
    except MissingFile as exc:
        problem = "" if exc.detail == "does not exist" else str(exc)
        return EntrypointRead(str(path), "", False, problem, False, 0)
    except ReadRefused as exc:
        return EntrypointRead(str(path), "", False, str(exc), False, 0)
    return EntrypointRead(
        str(path), res.text, True, "", res.truncated, res.total_size, res.valid_utf8
    )


def read_entrypoint(
    scope_dir: str | os.PathLike[str], *, memory_dir: str | os.PathLike[str] | None = None
) -> str:
    """The text of a scope's MEMORY.md (contained, bounded), or '' when there is none or it is refused."""
    return load_entrypoint(scope_dir, memory_dir=memory_dir).text


def read_entrypoint_whole(
    scope_dir: str | os.PathLike[str], *, memory_dir: str | os.PathLike[str] | None = None
) -> str:
    """MEMORY.md's full text for an edit; raises IndexTooLargeError rather than drop lines past the cap."""
    loaded = load_entrypoint(scope_dir, memory_dir=memory_dir)
    if loaded.truncated:
        raise IndexTooLargeError(
            f"{loaded.path} is {loaded.total_size} bytes, over the {INDEX_READ_MAX_BYTES}-byte "
            "read cap, so it cannot be edited without losing lines; shorten it by hand or "
            "rebuild it from the topic files with rebuild_index"
        )
    return loaded.text


def index_scope(folder: Path, scope: str | None) -> Literal["private", "team"]:
    """The scope a folder's index belongs to: as given, else team for a folder named team/."""
    if scope is None:
        scope = "team" if folder.name == TEAM_DIRNAME else "private"
    if scope not in ("private", "team"):
        raise ValueError(f"scope must be 'private' or 'team', got {scope!r}")
    return "team" if scope == "team" else "private"


@dataclass(frozen=True)
class IndexTarget:
    """Where an index entry's target leads: its path, and whether it stays in the index's folder."""

    path: str  # absolute and normalised as written (symlinks not resolved)
    inside: bool  # in the folder: not through '..', an absolute path, '~' or a link leading out
    is_file: bool  # a regular file (or a link to one) in the folder; never looked at when outside


class IndexTargets:
    """The one resolution of index targets that lint, the rebuild, the nested-index reader and the
    browser view share, for the index of one folder (scope_dir).

    A target is relative to the folder. One written from the repository root names the folder
    first (`memory/SOUL.md` in memory/MEMORY.md): when the target as written is no file, and
    dropping a leading folder named like the folder gives a memory file, that file is meant.
    Nothing outside the folder is stat'ed: a target that leaves it as written ('..', absolute,
    '~') is outside without a look at the disk, and one inside is looked at only once the real
    path of its folder is known to stay in it (a symlinked folder leading out makes it outside).
    The folder's own real path must stay inside its memory dir (memory_dir, by default the
    folder, or its parent for a team/ folder).
    """

    def __init__(
        self,
        scope_dir: str | os.PathLike[str],
        *,
        memory_dir: str | os.PathLike[str] | None = None,
    ) -> None:
        self.folder = os.path.abspath(os.fspath(scope_dir))
        root = memory_dir if memory_dir is not None else default_containment_root(self.folder)
        real_root = real_path(root)
        try:  # the shared real path: a team/ swapped for a link while it is resolved made
            real = real_path(self.folder)  # os.path.realpath raise ENOENT (attack round 14)
        except OSError:
            real = None  # it kept changing: no folder to read targets in, as when outside
        inside = real is not None and is_real_path_within(real, real_root, or_equal=True)
        self._real_folder = real if inside else None
        self._real_parents: dict[str, str] = {}

    def locate(self, target: str) -> IndexTarget | None:
        """Where target leads, or None for an anchor or a URL: as written, else with its
        percent-escapes decoded (formats.link_escapes: `kiln%20days.md` is `kiln days.md`),
        which passes the same containment."""
        path = link_path(target)
        if not path or URL_SCHEME.match(path):
            return None
        found = self._located(path)
        if not found.is_file and (decoded := decoded_link_target(path)) is not None:
            other = self._located(decoded)
            if other.is_file:
                return other
        return found

    def _located(self, path: str) -> IndexTarget:
        """Where a link's file part leads (a name that repeats the folder's own looked at twice)."""
        found = self._place(path)
        first, _, rest = path.partition("/")
        # Only a target that starts with the folder's own name is looked at twice: an index of
        # thousands of ordinary lines costs one lstat a line.
        if (
            not found.is_file
            and rest
            and first == os.path.basename(self.folder)
            and is_memory_filename(rest.rsplit("/", 1)[-1])
        ):
            shorter = self._place(rest)
            if shorter.is_file or (
                not shorter.inside and is_real_path_within(shorter.path, self.folder)
            ):
                return shorter  # the file meant, or a link out of the folder that it names
        return found

    def _place(self, written: str) -> IndexTarget:
        path = os.path.normpath(os.path.join(self.folder, written))
        if (
            self._real_folder is None
            or written.startswith("~")
            or not is_real_path_within(path, self.folder)
        ):
            return IndexTarget(path, False, False)
        parent = os.path.dirname(path)
        real_parent = self._real_parents.get(parent)
        if real_parent is None:
            try:
                real_parent = real_path(parent)
            except OSError:  # a folder on the way kept changing as it was resolved
                return IndexTarget(path, False, False)
            self._real_parents[parent] = real_parent
        if not is_real_path_within(real_parent, self._real_folder, or_equal=True):
            return IndexTarget(path, False, False)  # through a symlinked folder leading out
        try:
            st = os.lstat(path)
        except (OSError, ValueError):  # missing, a name too long, a NUL
            return IndexTarget(path, True, False)
        if stat.S_ISLNK(st.st_mode):
            try:
                real = real_path(path)
            except OSError:  # the link kept changing as it was resolved
                return IndexTarget(path, False, False)
            if not is_real_path_within(real, self._real_folder):
                return IndexTarget(path, False, False)
            return IndexTarget(path, True, os.path.isfile(real))
        return IndexTarget(path, True, stat.S_ISREG(st.st_mode))


def nested_index_references(memory_dir: str | os.PathLike[str], files: list[str]) -> frozenset[str]:
    """Files listed by a MEMORY.md of their own sub-folder (an agent's memory dir keeps its own).

    The one answer for lint (not-in-index), rebuild-index, the dream plan (neither adds a line
    to the outer index for such a file) and the tables; see nested_index_lines.
    """
    return frozenset(nested_index_lines(memory_dir, files))


def loaded_index_references(
    folder: str | os.PathLike[str], files: Iterable[str], listed: Iterable[str]
) -> frozenset[str]:
    """The memory files (folder relative) an index some session loads lists: those their own
    sub-folder's MEMORY.md lists (nested_index_references), and those the folder's own indexes
    list (listed) unless agent_index_owners sends them to an agent's index, which the agent
    loads instead of the root's. The tables' in_index, as lint's not-in-index says it.

    Here, not in agent_root_index, whose few imports `memdir-nb scan` pays for: this needs the
    index readers (formats.index), about 30 ms of a command process's start (lead, 35th)."""
    names = list(files)
    owned = agent_index_owners(folder, names)
    nested = nested_index_references(folder, names)
    return nested | frozenset(rel for rel in listed if rel not in owned)


def nested_index_lines(memory_dir: str | os.PathLike[str], files: list[str]) -> dict[str, str]:
    """file -> the line of its own sub-folder's MEMORY.md that lists it (first line wins).

    A folder below the memory dir (other than team/, which has its own scope index) holding a
    MEMORY.md is read as that folder's index; a file it points at is indexed there. `files` are
    relative to memory_dir, and so are the keys.
    """
    root = os.path.abspath(os.fspath(memory_dir))
    folders = {
        "/".join(rel.split("/")[:i]) for rel in files for i in range(1, rel.count("/") + 1)
    } - {TEAM_DIRNAME}
    found: dict[str, str] = {}
    for folder in sorted(folders):
        scope_dir = os.path.join(root, *folder.split("/"))
        if not os.path.isfile(os.path.join(scope_dir, ENTRYPOINT_NAME)):
            continue
        text = load_entrypoint(scope_dir, memory_dir=root).text
        targets = IndexTargets(scope_dir, memory_dir=root)
        raw = as_lf(text).split("\n")  # the lines index_mentions numbers
        named = [(e.target, e.raw) for e in parse_index(text)]  # entries, then other names
        named += [(name, raw[no - 1]) for no, name in index_mentions(text)]
        for name, line in named:
            target = targets.locate(name)
            if target is not None and target.inside and target.is_file:
                rel = os.path.relpath(target.path, root).replace(os.sep, "/")
                found.setdefault(rel, line.strip())
    return found
