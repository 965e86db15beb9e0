"""find_relevant_memories: scan, drop surfaced, select, keep manifest names; default_selector."""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.home.config import MemdirConfig
from memdir_nb.recall import (
    AnthropicSelector,
    LexicalSelector,
    RelevantMemory,
    SelectorConfigError,
    default_selector,
    find_relevant_memories,
)
from tests.support import DAY_MS, write_memory

NOW = 1_760_000_000_000.0


class RecordingSelector:
    def __init__(self, answer: Sequence[Any]) -> None:  # Any: some tests answer non-strings
        self.answer = answer
        self.offered: list[str] | None = None
        self.last_error: str | None = None

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        self.offered = [h.filename for h in headers]
        return list(self.answer)


@pytest.fixture()
def memory_dir(tmp_path: Path) -> Path:
    d = tmp_path / "memory"
    for i in range(8):
        write_memory(
            d, f"project_{i}.md", name=f"P{i}", description=f"project {i}", age_days=i, now_ms=NOW
        )
    write_memory(d, "team/project_t.md", name="T", description="team one", now_ms=NOW)
    return d


def test_returns_relevant_memory_with_absolute_path_and_mtime(memory_dir: Path) -> None:
    found = find_relevant_memories("q", memory_dir, selector=RecordingSelector(["project_2.md"]))
    assert found == [
        # pytest.approx stands in for the float mtime and compares equal to it
        RelevantMemory(str(memory_dir / "project_2.md"), pytest.approx(NOW - 2 * DAY_MS, abs=1000))  # type: ignore[arg-type]
    ]
    assert os.path.isabs(found[0].path)


def test_at_most_five_are_returned_in_selector_order(memory_dir: Path) -> None:
    answer = [f"project_{i}.md" for i in (7, 6, 5, 4, 3, 2, 1)]
    found = find_relevant_memories("q", memory_dir, selector=RecordingSelector(answer))
    assert [os.path.basename(m.path) for m in found] == answer[:5]


def test_surfaced_memories_are_removed_before_selection_by_path_or_filename(
    memory_dir: Path,
) -> None:
    selector = RecordingSelector([])
    find_relevant_memories(
        "q",
        memory_dir,
        already_surfaced={str(memory_dir / "project_0.md"), "team/project_t.md"},
        selector=selector,
    )
    assert selector.offered is not None
    assert "project_0.md" not in selector.offered and "team/project_t.md" not in selector.offered
    assert len(selector.offered) == 7


def test_unknown_names_and_non_strings_are_dropped(memory_dir: Path) -> None:
    found = find_relevant_memories(
        "q", memory_dir, selector=RecordingSelector(["nope.md", 3, "team/project_t.md"])
    )
    assert [m.path for m in found] == [str(memory_dir / "team/project_t.md")]


def test_missing_dir_and_empty_query_return_empty_without_selecting(
    tmp_path: Path, memory_dir: Path
) -> None:
    selector = RecordingSelector(["project_1.md"])
    assert find_relevant_memories("q", tmp_path / "missing", selector=selector) == []
    assert find_relevant_memories("   ", memory_dir, selector=selector) == []
    assert selector.offered is None


def test_default_selector_is_semantic_without_a_key(tmp_path: Path) -> None:
    from memdir_nb.recall.semantic import SemanticSelector

    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path)
    selector = default_selector(config)
    assert isinstance(selector, SemanticSelector)
    assert selector.cache_dir == tmp_path / ".cache" / "memdir_nb"  # outside any memory dir


def test_default_selector_is_anthropic_with_a_key(tmp_path: Path) -> None:
    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, anthropic_api_key="sk-test")
    assert isinstance(default_selector(config), AnthropicSelector)


def test_lexical_choice_wins_over_a_key(tmp_path: Path) -> None:
    config = MemdirConfig.for_tests(
        home=tmp_path, cwd=tmp_path, anthropic_api_key="sk-test", selector="lexical"
    )
    assert isinstance(default_selector(config), LexicalSelector)


def test_anthropic_choice_without_a_key_is_a_clear_error(tmp_path: Path) -> None:
    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path, selector="anthropic")
    with pytest.raises(SelectorConfigError, match="ANTHROPIC_API_KEY is not set"):
        default_selector(config)


def test_a_recall_request_is_the_same_call_as_the_keywords(tmp_path: Path) -> None:
    from memdir_nb.recall import RecallRequest, recall_memories

    write_memory(tmp_path, "a.md", name="Deploy", description="deploy checklist", now_ms=NOW)
    selector = LexicalSelector()
    by_keywords = find_relevant_memories("deploy checklist", tmp_path, selector=selector)
    request = RecallRequest.build("deploy checklist", tmp_path, selector=selector)
    assert by_keywords and recall_memories(request) == by_keywords


def test_every_selector_is_handed_the_cancel_event(tmp_path: Path) -> None:
    seen = []

    class Spy:
        last_error: str | None = None

        def select(
            self,
            query: str,
            headers: Sequence[MemoryHeader],
            *,
            recent_tools: Sequence[str] = (),
            cancel: threading.Event | None = None,
        ) -> list[str]:
            seen.append(cancel)
            return [h.filename for h in headers]

    write_memory(tmp_path, "a.md", name="A", description="a", now_ms=NOW)
    event = threading.Event()
    find_relevant_memories("a", tmp_path, selector=Spy(), cancel=event)
    find_relevant_memories("a", tmp_path, selector=Spy())
    assert seen == [event, None]
