"""Shared recall types: the recalled-memory record, the selector protocol and small helpers."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.spec.constants import MAX_RELEVANT_MEMORIES


class RecallCancelled(Exception):
    """Raised inside a selector when its prefetch was cancelled; never reaches the turn."""


@dataclass(frozen=True)
class RelevantMemory:
    """A memory chosen for this turn: its absolute path and its mtime in ms."""

    path: str
    mtime_ms: float


@runtime_checkable
class Selector(Protocol):
    """Anything that picks up to five manifest filenames for a query."""

    last_error: str | None

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        """Return the filenames (as in MemoryHeader.filename) judged relevant, best first."""
        ...


def keep_known_filenames(
    selected: Iterable[object], known: Iterable[str], *, limit: int = MAX_RELEVANT_MEMORIES
) -> list[str]:
    """Keep only strings that name a known filename, first occurrence wins, at most `limit`."""
    known_set = set(known)
    kept: list[str] = []
    for item in selected:
        if isinstance(item, str) and item in known_set and item not in kept:
            kept.append(item)
            if len(kept) >= limit:
                break
    return kept


def check_headers(headers: object, call: str) -> None:
    """Refuse anything but a scan's headers (a memory dir's path is the usual slip), naming the fix."""
    if isinstance(headers, (str, bytes, os.PathLike)):
        raise TypeError(
            f"{call} takes the memory headers of a scan, not a path: "
            f"pass scan_memory_files({os.fsdecode(headers)!r})"
        )
    if isinstance(headers, Sequence):
        wrong = next((h for h in headers if not isinstance(h, MemoryHeader)), None)
        if wrong is not None:
            raise TypeError(
                f"{call} takes a list of MemoryHeader (from scan_memory_files(dir)), "
                f"got an item of type {type(wrong).__name__}"
            )


def selector_inputs(
    selector: str, query: str, headers: Sequence[MemoryHeader], recent_tools: Sequence[str]
) -> dict[str, object]:
    """What an offline selector ranked, as its `last_request` (the twin of the API request)."""
    check_headers(headers, f"{selector} selector's select()")
    return {
        "selector": selector,
        "query": query,
        "recent_tools": list(recent_tools),
        "candidates": [h.filename for h in headers],
    }
