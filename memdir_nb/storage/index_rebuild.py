"""Rebuilding MEMORY.md without losing what a person wrote: plan both indexes, preview, write.

A rebuild keeps every line of the old index byte for byte (headings, prose, comments, entry
lines with their own titles and hooks), adds an entry for each memory no line points at
under formats.index.REBUILD_HEADING, and removes dangling lines only when asked. Before an
index is rewritten its old version is kept in the trash: `.trash/rebuild-index-<stamp>/`,
with a manifest in the dream batches' format, so `memdir_nb.dream.restore` puts it back.
"""

from __future__ import annotations

import errno
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Literal

from memdir_nb.formats.file_diff import unified_file_diff
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.index import MergedIndex, heading_hook, is_md_target, merge_index
from memdir_nb.formats.index_caps import truncate_entrypoint_content
from memdir_nb.formats.index_lines import link_path
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.spec.constants import (
    HEADER_READ_MAX_BYTES,
    INDEX_READ_MAX_BYTES,
    LOGS_DIRNAME,
    MEMORY_FILE_READ_MAX_BYTES,
    REBUILD_BATCH_PREFIX,
    TEAM_DIRNAME,
    TRASH_DIRNAME,
)
from memdir_nb.spec.text import is_not_text
from memdir_nb.spec.timestamps import trash_stamp
from memdir_nb.storage.access import ContainedReader, read_contained
from memdir_nb.storage.agent_index_lines import carried_root_lines
from memdir_nb.storage.agent_root_index import agent_index_folders, agent_index_owners
from memdir_nb.storage.containment import absolute_dir, is_real_path_within, real_path
from memdir_nb.storage.index_files import (
    IndexTargets,
    IndexTooLargeError,
    default_containment_root,
    entrypoint_path,
    index_scope,
    load_entrypoint,
    nested_index_references,
)
from memdir_nb.storage.listing import folder_of_memory_dirs
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.transaction import StoreTransaction
from memdir_nb.storage.write_errors import require_utf8


@dataclass(frozen=True)
class IndexRebuild:
    """One scope's index before and after a rebuild (nothing written yet)."""

    scope: Literal["private", "team"]
    path: Path  # the scope's MEMORY.md
    old: str  # its text now ('' when there is none, or it was not a readable file)
    existed: bool  # something is at path (a copy of it goes to the trash before a rewrite)
    merged: MergedIndex
    agent: str = ""  # the agent's folder, for an agent's own index below an agent memory root
    carried: tuple[str, ...] = ()  # files whose line the root's index gave the created index

    @property
    def text(self) -> str:
        """The index after the rebuild."""
        return self.merged.text

    @property
    def changed(self) -> bool:
        """Whether the rebuild would change the file (or create it)."""
        return self.merged.text != self.old or (not self.existed and bool(self.merged.text))

    @property
    def label(self) -> str:
        """The index as messages name it: MEMORY.md, team/MEMORY.md, or <agent>/MEMORY.md."""
        if self.agent:
            return f"{self.agent}/{self.path.name}"
        return self.path.name if self.scope == "private" else f"{TEAM_DIRNAME}/{self.path.name}"

    @property
    def lines_it_would_unload(self) -> int:
        """How many more of the index's lines the rebuild leaves past the caps than load now."""
        after = truncate_entrypoint_content(self.text).unloaded_line_count
        return max(0, after - truncate_entrypoint_content(self.old).unloaded_line_count)

    def diff(self, label: str) -> str:
        """A unified diff of the old index against the new one ('' when nothing changes)."""
        return unified_file_diff(self.old, self.text, label)


def check_scope_folder(folder: Path, scope: Literal["private", "team"] | None) -> str:
    """The folder's scope; ValueError when it is not a folder or a team/ link leaving the dir."""
    if not folder.is_dir():
        raise ValueError(
            f"cannot rebuild the index: {folder} is not a folder; "
            "pass an existing memory dir (or its team/ folder)"
        )
    resolved = index_scope(folder, scope)
    if resolved == "private":
        refuse_folder_of_memory_dirs(folder)
    if resolved == "team" and folder.name == TEAM_DIRNAME:  # its files must stay in the memory dir
        try:
            inside = is_real_path_within(real_path(folder), real_path(folder.parent))
        except OSError as exc:  # a link that kept changing while it was resolved
            raise ValueError(
                f"cannot rebuild the index: {folder} kept changing while it was resolved "
                f"({exc.strerror}); nothing was written, run it again once it is settled"
            ) from exc
        if not inside:
            raise ValueError(
                f"cannot rebuild the index: {folder} is a link leading outside the memory dir "
                f"{folder.parent}; remove the link (team/ must be a real folder inside it)"
            )
    return resolved


def refuse_folder_of_memory_dirs(folder: str | os.PathLike[str]) -> None:
    """ValueError when folder holds memory dirs of its own (agent-memory/) instead of memories:
    an index written there would never be loaded."""
    found = folder_of_memory_dirs(folder)
    if found is not None:
        raise ValueError(
            f"cannot rebuild the index: {found.problem}; {found.fix} (nothing was written)"
        )


def _target_finder(folder: Path) -> Callable[[str], str | None]:
    """points_at for merge_index: an entry's file relative to folder, '' when missing, None when not ours."""
    root = os.path.normpath(os.path.abspath(folder))
    targets = IndexTargets(root)

    def points_at(target: str) -> str | None:
        path = link_path(target)
        if not is_md_target(path):
            return None
        found = targets.locate(path)
        if found is None or not found.inside:
            return None  # outside this scope: lint reports it; a rebuild leaves it alone
        if found.is_file:
            return os.path.relpath(found.path, root).replace(os.sep, "/")
        return ""

    return points_at


def _heading_describer(folder: Path) -> Callable[[MemoryHeader], str]:
    """describe for merge_index: the heading a memory file opens with ('' when none, or when
    the file cannot be read now), from one contained read of its head."""
    reader = ContainedReader(folder)

    def describe(header: MemoryHeader) -> str:
        try:
            res = reader.read(header.file_path, HEADER_READ_MAX_BYTES)
        except OSError:  # gone or refused since the scan: the plain placeholder then
            return ""
        return heading_hook(parse_frontmatter(res.text)[1])

    return describe


def binary_memory_files(folder: Path, added: Iterable[str]) -> frozenset[str]:
    """The files of added (paths relative to folder) that are binary (spec.text.is_not_text,
    read as lint reads them: their first MEMORY_FILE_READ_MAX_BYTES): index_should_list's
    not_text for a caller that did not lint, the rebuild and reports.fleet (lefts38). Only
    the files asked about are read, so a rebuild that adds nothing reads no memory file whole.
    One gone or refused since the scan is not in it (its line is as harmless as the scan's
    header)."""
    reader = ContainedReader(folder)
    out = set()
    for rel in added:
        try:
            res = reader.read(os.path.join(folder, rel), MEMORY_FILE_READ_MAX_BYTES)
        except OSError:
            continue
        if is_not_text(res.data):
            out.add(rel)
    return frozenset(out)


def plan_index_rebuild(
    scope_dir: str | os.PathLike[str],
    *,
    scope: Literal["private", "team"] | None = None,
    drop_dangling: bool = False,
    old: str | None = None,
) -> IndexRebuild:
    """A scope's MEMORY.md after a rebuild: every line kept, missing memories added (nothing is written).

    Private scope (the memory dir) indexes its memory files except those under team/, logs/
    and dot-folders, and those a sub-folder's own MEMORY.md lists (an agent's memory dir) or,
    at an agent memory root, belong in it (agent_index_rebuilds rebuilds those indexes); team
    scope (memory_dir/team) every memory file under it. scope=None
    infers team for a folder named 'team'. `old` is the index text when the caller read it
    (the store, under its lock); otherwise it is read here, whole, or IndexTooLargeError. An
    added memory with no description gets the heading its file opens with as its hook.
    """
    folder = absolute_dir(scope_dir)
    resolved = check_scope_folder(folder, scope)
    path = entrypoint_path(folder)
    bad_bytes: bytes | None = None
    if old is None:
        loaded = load_entrypoint(folder)
        if loaded.problem:  # the write refuses it too: a preview must not promise a rebuild
            raise ValueError(f"cannot rebuild {path}: {loaded.problem}; nothing was written")
        if loaded.truncated:
            raise IndexTooLargeError(
                f"cannot rebuild {path}: it is {loaded.total_size} bytes, over the "
                f"{INDEX_READ_MAX_BYTES}-byte read cap, so its lines cannot all be kept; move it "
                "aside (or shorten it by hand) and run rebuild-index again"
            )
        old = loaded.text
        if not loaded.valid_utf8:  # the bytes, to name the first bad one as the write would
            bad_bytes = read_contained(
                default_containment_root(folder), path, INDEX_READ_MAX_BYTES
            ).data
    excluded = (LOGS_DIRNAME, TEAM_DIRNAME) if resolved == "private" else ()
    report = scan_memory_dir(folder, limit=None, exclude_top_level=excluded)
    unlisted = [s.reason for s in report.skipped if s.path == "."]
    if unlisted:  # an index rebuilt from no listing (or half of one) would be wrong
        raise ValueError(f"cannot rebuild {path}: {unlisted[0]}; nothing was written")
    # a sub-folder with its own MEMORY.md (an agent's memory dir) indexes its files there
    names = [h.filename for h in report.headers]
    nested = nested_index_references(folder, names) | agent_index_owners(folder, names).keys()
    headers = [h for h in report.headers if h.filename not in nested]
    find, describe = _target_finder(folder), _heading_describer(folder)
    merged = merge_index(old, headers, find, drop_dangling=drop_dangling, describe=describe)
    binary = binary_memory_files(folder, merged.added)
    if binary:  # no line for a file no reader can read as a memory (lint's `not-text`)
        kept = [h for h in headers if h.filename not in binary]
        merged = merge_index(old, kept, find, drop_dangling=drop_dangling, describe=describe)
    scope_name: Literal["private", "team"] = "team" if resolved == "team" else "private"
    rebuild = IndexRebuild(scope_name, path, old, os.path.lexists(path), merged)
    if bad_bytes is not None:
        refuse_replacing_bytes(rebuild, bad_bytes)
    return rebuild


def agent_index_dirs(memory_dir: str | os.PathLike[str]) -> dict[str, Path]:
    """agent -> its folder, for each agent's own index an agent memory root read as one memory
    dir holds (storage.agent_root_index.agent_index_folders): a rebuild of the root completes
    them too, as the lines for their files belong there, not in the root's index."""
    folder = absolute_dir(memory_dir)
    return {name: folder / name for name in agent_index_folders(folder)}


def plan_agent_index_rebuild(
    agent_dir: Path,
    agent: str,
    *,
    drop_dangling: bool = False,
    old: str | None = None,
    root_text: str | None = None,
) -> IndexRebuild:
    """An agent's own index below an agent memory root after a rebuild (plan_index_rebuild).

    An index created here (none is there yet) opens with the lines the root's MEMORY.md holds
    for the agent's files, re-pointed (agent_root_index.carried_root_lines: the person's title
    and hook, never a generated line); the files with no such line are added as usual.
    root_text: the root's index as the caller read it (the store, under its lock), else read.
    """
    planned = plan_index_rebuild(agent_dir, scope="private", drop_dangling=drop_dangling, old=old)
    if planned.existed or planned.old.strip():
        return replace(planned, agent=agent)
    root = agent_dir.parent
    if root_text is None:
        loaded = load_entrypoint(root)
        root_text = "" if loaded.problem or loaded.truncated else loaded.text
    listed = scan_memory_dir(root, limit=None, exclude_top_level=(LOGS_DIRNAME, TEAM_DIRNAME))
    files = [h.filename for h in listed.headers]
    carried = carried_root_lines(root_text, agent, _target_finder(root), files)
    if not carried:
        return replace(planned, agent=agent)
    seed = "".join(f"{line}\n" for line in carried.values())
    retried = plan_index_rebuild(agent_dir, scope="private", drop_dangling=drop_dangling, old=seed)
    return replace(retried, old="", existed=False, agent=agent, carried=tuple(carried))


def refuse_replacing_bytes(rebuild: IndexRebuild, data: bytes) -> None:
    """NotUTF8Error when the rebuild would rewrite an index whose bytes are not UTF-8: its text
    was read with those bytes replaced, and writing it back would put U+FFFD where a person's
    Latin-1 letters were, as the store's other edits refuse to (StoreTransaction.read_text).
    An index left unchanged is no write, and is let be."""
    if rebuild.changed:
        require_utf8(rebuild.label, data)


def rebuilt_index_text(
    scope_dir: str | os.PathLike[str],
    *,
    scope: Literal["private", "team"] | None = None,
    drop_dangling: bool = False,
) -> str:
    """A scope's MEMORY.md text after a rebuild (see plan_index_rebuild); nothing is written."""
    return plan_index_rebuild(scope_dir, scope=scope, drop_dangling=drop_dangling).text


@dataclass(frozen=True)
class RebuildResult:
    """What a rebuild wrote: the rebuilds of both scopes, and the trash batch holding the old indexes."""

    rebuilds: tuple[IndexRebuild, ...]
    batch: str | None  # '.trash/rebuild-index-...' name, None when nothing was rewritten

    @property
    def written(self) -> dict[str, Path]:
        """scope -> the index written (scopes whose index did not change are left out)."""
        return {r.scope: r.path for r in self.rebuilds if r.changed}


def _read_old(tx: StoreTransaction, rel: str) -> bytes | None:
    """The index's bytes under the lock (None when absent or not a regular file); too large: refused."""
    try:
        data = tx.read_bytes(rel, max_bytes=INDEX_READ_MAX_BYTES)
    except OSError as exc:
        if exc.errno == errno.EFBIG:
            raise IndexTooLargeError(
                f"cannot rebuild {rel}: it is over the {INDEX_READ_MAX_BYTES}-byte read cap, so "
                "its lines cannot all be kept; move it aside (or shorten it by hand) and run "
                "rebuild-index again"
            ) from exc
        return None  # a FIFO or another non-file: the write refuses to replace it
    return data


def _batch_name(memory_dir: Path, now_ms: float) -> str:
    stamp = trash_stamp(now_ms)  # as dreams name theirs
    base = f"{REBUILD_BATCH_PREFIX}{stamp}"
    name, n = base, 2
    while os.path.lexists(memory_dir / TRASH_DIRNAME / name):
        name, n = f"{base}-{n}", n + 1
    return name


class IndexOverCapsError(ValueError):
    """The rebuilt index would leave more of its lines past the caps than it does now."""

    def __init__(self, rebuilds: tuple[IndexRebuild, ...]) -> None:
        self.rebuilds = rebuilds  # every scope's rebuild, none written
        over = ", ".join(
            f"{r.label}: {r.lines_it_would_unload} more lines past the caps"
            for r in rebuilds
            if r.lines_it_would_unload
        )
        super().__init__(
            f"cannot rebuild the index within its caps ({over}); nothing was written: "
            "shorten hooks or merge memories first, or rebuild with keep_within_caps=False"
        )


def rebuild_in_transaction(
    tx: StoreTransaction,
    scope_dirs: dict[Literal["private", "team"], Path],
    *,
    now_ms: float,
    drop_dangling: bool = False,
    keep_within_caps: bool = False,
) -> RebuildResult:
    """Rebuild each scope's index inside one store transaction; old versions go to the trash first.

    keep_within_caps: write nothing, and raise IndexOverCapsError, when a rebuilt index would
    leave more of its lines past the caps than it does now.
    """
    memory_dir = tx.memory_dir
    rebuilds = []
    read: dict[str, bytes | None] = {}  # what each index held as read: the write's base
    folders = [(scope, scope_dir, "") for scope, scope_dir in scope_dirs.items()]
    if scope_dirs.get("private") == memory_dir:  # an agent memory root: each agent's index too
        folders += [("private", d, name) for name, d in agent_index_dirs(memory_dir).items()]
    for scope, scope_dir, agent in folders:
        rel = os.path.relpath(entrypoint_path(scope_dir), memory_dir).replace(os.sep, "/")
        data = read[rel] = _read_old(tx, rel)
        old = "" if data is None else data.decode("utf-8", "replace")
        if agent:
            root_data = read.get(entrypoint_path(memory_dir).name)
            r = plan_agent_index_rebuild(
                scope_dir,
                agent,
                drop_dangling=drop_dangling,
                old=old,
                root_text="" if root_data is None else root_data.decode("utf-8", "replace"),
            )
        else:
            r = plan_index_rebuild(scope_dir, scope=scope, drop_dangling=drop_dangling, old=old)
        rebuilds.append(r)
        if data is not None:
            refuse_replacing_bytes(r, data)
    if keep_within_caps and any(r.lines_it_would_unload for r in rebuilds):
        raise IndexOverCapsError(tuple(rebuilds))
    changed = [r for r in rebuilds if r.changed]
    if not changed:
        return RebuildResult(tuple(rebuilds), None)
    batch = _batch_name(memory_dir, now_ms)
    manifest: dict[str, object] = {"created_ms": now_ms, "actions": ["rebuild-index"]}
    files: dict[str, object] = {}
    for r in changed:
        rel = os.path.relpath(r.path, memory_dir).replace(os.sep, "/")
        if r.existed:
            tx.keep_copy(rel, f"{TRASH_DIRNAME}/{batch}/{rel}")
        # checked again now; into team/ the guard scans the added lines. Written only over
        # what was read: a person's save since then is kept (ChangedMeanwhileError)
        base = read.get(rel)
        if base is None:
            tx.write(rel, r.text, create_only=True)
        else:
            tx.write(rel, r.text, based_on=base)
        files[rel] = {
            "before": r.existed,
            "after_sha": hashlib.sha256(r.text.encode("utf-8")).hexdigest(),
        }
    manifest["files"] = files
    tx.write(f"{TRASH_DIRNAME}/{batch}/manifest.json", json.dumps(manifest, indent=2))
    return RebuildResult(tuple(rebuilds), f"{TRASH_DIRNAME}/{batch}")
