"""Background recall: selection runs in a thread while the turn goes on, and can be cancelled."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING

from memdir_nb.clock import system_clock_ms
from memdir_nb.recall.base import RelevantMemory, Selector
from memdir_nb.recall.find import recall_memories
from memdir_nb.recall.request import RecallRequest

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.storage.scan import ScanCache


class MemoryPrefetch:
    """Handle on a background find_relevant_memories; leaving its `with` block cancels it."""

    def __init__(
        self,
        query: str,
        memory_dir: str | os.PathLike[str],
        *,
        recent_tools: Sequence[str] = (),
        already_surfaced: Collection[str] = frozenset(),
        selector: Selector | None = None,
        now_ms: float | None = None,
        clock: Callable[[], float] | None = None,
        scan_cache: ScanCache | None = None,
    ) -> None:
        self.query = query
        self.memory_dir = memory_dir
        self._clock = clock or system_clock_ms
        self._cancel = threading.Event()
        self.request = RecallRequest.build(
            query,
            memory_dir,
            recent_tools=recent_tools,
            already_surfaced=already_surfaced,
            selector=selector,
            now_ms=now_ms,
            cancel=self._cancel,
            scan_cache=scan_cache,
        )
        self._settled = threading.Event()
        self._lock = threading.Lock()
        self._result: list[RelevantMemory] | None = None
        self.error: str | None = None
        self.settled_at: float | None = None
        self.started_at: float = self._clock()
        self.consumed = False
        self._thread = threading.Thread(
            target=self._run, name="memdir-recall-prefetch", daemon=True
        )
        self._thread.start()

    # -- background -------------------------------------------------------------------------

    def _run(self) -> None:

        selector = self.request.selector
        result: list[RelevantMemory] = []
        error: str | None = None
        try:
            result = recall_memories(self.request)
            error = getattr(selector, "last_error", None) if selector is not None else None
        except Exception as err:  # a broken selector or scan must not reach the turn
            error = f"{type(err).__name__}: {err}"
            result = []
        self._settle(result, error)

    def _settle(self, result: list[RelevantMemory], error: str | None) -> None:
        with self._lock:
            if self._settled.is_set():
                return
            self._result = [] if self._cancel.is_set() else result
            self.error = error
            self.settled_at = self._clock()
            self._settled.set()

    # -- the turn's side --------------------------------------------------------------------

    @property
    def done(self) -> bool:
        """True once a result (possibly empty) is available, or the prefetch was cancelled."""
        return self._settled.is_set()

    @property
    def cancelled(self) -> bool:
        """True once cancel() was called (or the with block was left before it settled)."""
        return self._cancel.is_set()

    def result_if_ready(self) -> list[RelevantMemory] | None:
        """The memories if selection has finished, else None; never waits."""
        if not self._settled.is_set():
            return None
        self.consumed = True
        return list(self._result or [])

    def result(self, timeout: float | None = None) -> list[RelevantMemory] | None:
        """Wait up to timeout seconds for the memories; None if still not ready."""
        if not self._settled.wait(timeout):
            return None
        return self.result_if_ready()

    def cancel(self) -> None:
        """Stop: no further API request is sent and any late answer is discarded."""
        self._cancel.set()
        self._settle([], "cancelled")

    def join(self, timeout: float | None = None) -> bool:
        """Wait for the background thread itself to end (tests and shutdown); True if it did."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def __enter__(self) -> MemoryPrefetch:
        return self

    def __exit__(self, *exc: object) -> None:
        if not self._settled.is_set():
            self.cancel()
        else:
            self._cancel.set()  # settled already; still make sure nothing else goes out

    def __repr__(self) -> str:
        state = "cancelled" if self.cancelled else ("done" if self.done else "running")
        return f"MemoryPrefetch({self.query!r}, {state})"


def start_relevant_memory_prefetch(
    query: str,
    memory_dir: str | os.PathLike[str],
    *,
    recent_tools: Sequence[str] = (),
    already_surfaced: Collection[str] = frozenset(),
    selector: Selector | None = None,
    now_ms: float | None = None,
    clock: Callable[[], float] | None = None,
    scan_cache: ScanCache | None = None,
) -> MemoryPrefetch:
    """Start selecting memories in the background and return at once with a handle."""
    return MemoryPrefetch(
        query,
        memory_dir,
        recent_tools=recent_tools,
        already_surfaced=already_surfaced,
        selector=selector,
        now_ms=now_ms,
        clock=clock,
        scan_cache=scan_cache,
    )
