"""RecallRequest: everything one recall needs, carried as one typed value from the API to the selector."""

from __future__ import annotations

import os
import threading
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from memdir_nb.recall.base import Selector
    from memdir_nb.storage.scan import ScanCache


@dataclass(frozen=True)
class RecallRequest:
    """One turn's recall: the query, where to look, what to skip, who selects, and how to stop.

    find_relevant_memories, RecallSession.recall and the prefetch build one of these and hand it
    on whole, so a new option is added here once instead of to every signature on the way.
    """

    query: str
    memory_dir: str | os.PathLike[str]
    recent_tools: tuple[str, ...] = ()
    already_surfaced: frozenset[str] = frozenset()
    selector: Selector | None = None  # None: default_selector() for the environment
    now_ms: float | None = None  # selection ignores the clock; kept so callers pass one request
    cancel: threading.Event | None = field(default=None, compare=False)
    scan_cache: ScanCache | None = field(default=None, compare=False)

    @classmethod
    def build(
        cls,
        query: str,
        memory_dir: str | os.PathLike[str],
        *,
        recent_tools: Sequence[str] = (),
        already_surfaced: Collection[str] = frozenset(),
        selector: Selector | None = None,
        now_ms: float | None = None,
        cancel: threading.Event | None = None,
        scan_cache: ScanCache | None = None,
    ) -> RecallRequest:
        """A request from the public keyword arguments, with the collections frozen."""
        return cls(
            query=query,
            memory_dir=memory_dir,
            recent_tools=tuple(recent_tools),
            already_surfaced=frozenset(os.fspath(s) for s in already_surfaced),
            selector=selector,
            now_ms=now_ms,
            cancel=cancel,
            scan_cache=scan_cache,
        )

    def with_cancel(self, cancel: threading.Event) -> RecallRequest:
        """The same request, stoppable through `cancel` (the prefetch's own event)."""

        return replace(self, cancel=cancel)
