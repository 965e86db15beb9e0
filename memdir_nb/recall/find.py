"""The per-turn read path: scan, drop what was already surfaced, select, map back to files."""

from __future__ import annotations

import os
import threading
from collections.abc import Collection, Sequence
from typing import TYPE_CHECKING

from memdir_nb.recall.base import (
    RecallCancelled,
    RelevantMemory,
    Selector,
    keep_known_filenames,
)
from memdir_nb.recall.request import RecallRequest
from memdir_nb.recall.selectors import default_selector
from memdir_nb.spec.constants import MAX_RELEVANT_MEMORIES
from memdir_nb.storage.containment import real_path
from memdir_nb.storage.scan import scan_memory_files

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.formats.manifest import MemoryHeader
    from memdir_nb.storage.scan import ScanCache


def _surfaced_keys(already_surfaced: Collection[str]) -> set[str]:
    """Normalise surfaced entries so absolute paths, real paths and filenames all match."""
    keys: set[str] = set()
    for entry in already_surfaced:
        text = os.fspath(entry)
        keys.add(text)
        if os.path.isabs(text):
            keys.add(os.path.normpath(text))
            real = _resolved(text)
            if real is not None:
                keys.add(real)
    return keys


def _resolved(path: str) -> str | None:
    """The shared real path of path, or None while it keeps changing (a folder flipped to a
    link: os.path.realpath raised ENOENT or EINVAL out of recall; attack round 14)."""
    try:
        return real_path(path)
    except OSError:
        return None


def drop_surfaced(
    headers: Sequence[MemoryHeader], already_surfaced: Collection[str]
) -> list[MemoryHeader]:
    """Remove headers whose absolute path or relative filename was already surfaced."""
    if not already_surfaced:
        return list(headers)
    keys = _surfaced_keys(already_surfaced)
    absolute = any(os.path.isabs(os.fspath(entry)) for entry in already_surfaced)
    fresh = []
    for header in headers:
        if header.filename in keys or header.file_path in keys:
            continue
        if absolute and (  # resolved forms only when some entry is a path (they cost lstats)
            os.path.normpath(header.file_path) in keys or _resolved(header.file_path) in keys
        ):
            continue
        fresh.append(header)
    return fresh


def run_selector(
    selector: Selector,
    query: str,
    headers: Sequence[MemoryHeader],
    recent_tools: Sequence[str],
    cancel: threading.Event | None,
) -> list[str]:
    """Call selector.select; every selector takes `cancel` (the Selector protocol requires it)."""
    return selector.select(query, headers, recent_tools=tuple(recent_tools), cancel=cancel)


def find_relevant_memories(
    query: str,
    memory_dir: str | os.PathLike[str],
    *,
    recent_tools: Sequence[str] = (),
    already_surfaced: Collection[str] = frozenset(),
    selector: Selector | None = None,
    now_ms: float | None = None,
    cancel: threading.Event | None = None,
    scan_cache: ScanCache | None = None,
) -> list[RelevantMemory]:
    """Pick up to five memories from memory_dir that help with query (never re-surfacing one).

    scan_cache: a ScanCache shared across turns, so unchanged headers are not read again.
    The keywords are those of RecallRequest; recall_memories(request) is the same call on one value.
    """
    return recall_memories(
        RecallRequest.build(
            query,
            memory_dir,
            recent_tools=recent_tools,
            already_surfaced=already_surfaced,
            selector=selector,
            now_ms=now_ms,
            cancel=cancel,
            scan_cache=scan_cache,
        )
    )


def recall_memories(request: RecallRequest) -> list[RelevantMemory]:
    """Run one recall request: scan, drop what was surfaced, select, map names back to files."""

    cancel = request.cancel
    headers = scan_memory_files(request.memory_dir, cache=request.scan_cache)
    candidates = drop_surfaced(headers, request.already_surfaced)
    if not candidates or not request.query.strip():
        return []
    if cancel is not None and cancel.is_set():
        return []
    selector = request.selector
    if selector is None:
        selector = default_selector()
    try:
        chosen = run_selector(selector, request.query, candidates, request.recent_tools, cancel)
    except RecallCancelled:
        return []
    if cancel is not None and cancel.is_set():
        return []
    by_name = {h.filename: h for h in candidates}
    kept = keep_known_filenames(chosen, by_name, limit=MAX_RELEVANT_MEMORIES)
    return [
        RelevantMemory(
            path=os.path.abspath(by_name[name].file_path), mtime_ms=by_name[name].mtime_ms
        )
        for name in kept
    ]
