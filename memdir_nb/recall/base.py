"""Shared recall types: the recalled-memory record, the selector protocol and small helpers."""

from __future__ import annotations

import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol, runtime_checkable

from memdir_nb.spec.constants import MAX_RELEVANT_MEMORIES

if TYPE_CHECKING:  # pragma: no cover - typing only
    from memdir_nb.formats.manifest import MemoryHeader


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


def selector_inputs(
    selector: str, query: str, headers: Sequence[MemoryHeader], recent_tools: Sequence[str]
) -> dict[str, object]:
    """What an offline selector ranked, as its `last_request` (the twin of the API request)."""
    return {
        "selector": selector,
        "query": query,
        "recent_tools": list(recent_tools),
        "candidates": [h.filename for h in headers],
    }
