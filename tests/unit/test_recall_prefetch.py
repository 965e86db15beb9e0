"""start_relevant_memory_prefetch: background selection that never blocks the turn."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall import start_relevant_memory_prefetch
from tests.support import write_memory

NOW = 1_760_000_000_000.0


class BlockingSelector:
    """Blocks inside select() until released; records whether it saw the cancel event."""

    name = "blocking"

    def __init__(self, answer: Sequence[str] = ("project_a.md",)) -> None:
        self.entered = threading.Event()
        self.release = threading.Event()
        self.answer = list(answer)
        self.last_error: str | None = None
        self.calls = 0

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        self.calls += 1
        self.entered.set()
        self.release.wait(30)
        return self.answer


def make_dir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    write_memory(d, "project_a.md", name="A", description="alpha", now_ms=NOW)
    return d


def test_caller_is_not_blocked_while_the_selector_is_stuck(tmp_path: Path) -> None:
    selector = BlockingSelector()
    with start_relevant_memory_prefetch("q", make_dir(tmp_path), selector=selector) as prefetch:
        assert selector.entered.wait(10)
        assert prefetch.result_if_ready() is None
        # compared as a pair: an assert on prefetch.done would narrow it for the checks below
        assert (prefetch.done, prefetch.settled_at) == (False, None)
    # leaving the block cancelled it while the selector was still stuck
    assert prefetch.cancelled and prefetch.done
    assert prefetch.result_if_ready() == []
    selector.release.set()
    assert prefetch.join(10)
    assert prefetch.result_if_ready() == []  # the late answer was discarded


def test_result_is_ready_after_the_selector_answers(tmp_path: Path) -> None:
    selector = BlockingSelector()
    d = make_dir(tmp_path)
    with start_relevant_memory_prefetch("q", d, selector=selector, clock=lambda: 42.0) as prefetch:
        selector.release.set()
        found = prefetch.result(timeout=10)
        assert found is not None
        assert [m.path for m in found] == [str(d / "project_a.md")]
        assert prefetch.done and not prefetch.cancelled
        assert prefetch.settled_at == 42.0
        assert prefetch.result_if_ready() == found


def test_result_with_timeout_returns_none_when_not_ready(tmp_path: Path) -> None:
    selector = BlockingSelector()
    with start_relevant_memory_prefetch("q", make_dir(tmp_path), selector=selector) as prefetch:
        assert selector.entered.wait(10)
        assert prefetch.result(timeout=0.01) is None
        selector.release.set()
        assert prefetch.result(timeout=10) is not None


def test_missing_dir_settles_empty_without_calling_the_selector(tmp_path: Path) -> None:
    selector = BlockingSelector()
    prefetch = start_relevant_memory_prefetch("q", tmp_path / "missing", selector=selector)
    assert prefetch.join(10)
    assert prefetch.result_if_ready() == [] and selector.calls == 0


def test_selector_crash_is_recorded_not_raised(tmp_path: Path) -> None:
    class Broken:
        last_error: str | None = None

        def select(
            self,
            query: str,
            headers: Sequence[MemoryHeader],
            *,
            recent_tools: Sequence[str] = (),
            cancel: threading.Event | None = None,
        ) -> list[str]:
            raise RuntimeError("selector exploded")

    prefetch = start_relevant_memory_prefetch("q", make_dir(tmp_path), selector=Broken())
    assert prefetch.result(timeout=10) == []
    assert "selector exploded" in (prefetch.error or "")
