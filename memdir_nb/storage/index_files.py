"""MEMORY.md on disk: where it is, and its contained, capped reads (rebuilds: index_rebuild)."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from memdir_nb.formats.index import parse_index
from memdir_nb.formats.index_lines import norm_target
from memdir_nb.formats.names import is_memory_filename
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    INDEX_READ_MAX_BYTES,
    TEAM_DIRNAME,
)
from memdir_nb.storage.access import MissingFile, ReadRefused, read_contained
from memdir_nb.storage.containment import absolute_dir, is_real_path_within

_URL_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*:", re.IGNORECASE)


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


def resolve_index_target(scope_dir: str | os.PathLike[str], target: str) -> str | None:
    """The absolute path an index entry's target names, or None for an anchor or a URL.

    The one resolution lint, the rebuild and the nested-index reader share. A target is
    relative to the index's folder (scope_dir). One written from the repository root names
    that folder first (`memory/SOUL.md` in memory/MEMORY.md): when the target as written is no
    file, and dropping a leading folder named like scope_dir gives an existing memory file,
    that file is the one meant. Whether the path stays inside the dir is the caller's check.
    """
    path = norm_target(target).split("#", 1)[0].strip()
    if not path or _URL_SCHEME.match(path):
        return None
    folder = os.path.abspath(os.fspath(scope_dir))
    resolved = os.path.normpath(os.path.join(folder, path))
    first, _, rest = path.replace(os.sep, "/").partition("/")
    # Only a target that starts with the folder's own name is looked at twice (a stat each): an
    # index of thousands of ordinary lines costs no stat here.
    if rest and first == os.path.basename(folder) and is_memory_filename(rest.rsplit("/", 1)[-1]):
        shorter = os.path.normpath(os.path.join(folder, rest))
        if not os.path.isfile(resolved) and os.path.isfile(shorter):
            return shorter
    return resolved


def nested_index_references(memory_dir: str | os.PathLike[str], files: list[str]) -> frozenset[str]:
    """Files listed by a MEMORY.md of their own sub-folder (an agent's memory dir keeps its own).

    The one answer for lint (not-in-index), rebuild-index, the dream plan (neither adds a line
    to the outer index for such a file) and the tables; see nested_index_lines.
    """
    return frozenset(nested_index_lines(memory_dir, files))


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
        for entry in parse_index(text):
            resolved = resolve_index_target(scope_dir, entry.target)
            if (
                resolved is not None
                and is_real_path_within(resolved, scope_dir, or_equal=True)
                and os.path.isfile(resolved)
            ):
                rel = os.path.relpath(resolved, root).replace(os.sep, "/")
                found.setdefault(rel, entry.raw.strip())
    return found
