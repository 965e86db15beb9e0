"""RecallSession: per-memory caps, the 60 KB session budget, surfaced set, rendering."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall import RecallSession, RelevantMemory, render_recall
from memdir_nb.recall.session import cap_memory_text
from memdir_nb.spec.constants import MAX_SESSION_BYTES, RECALL_MAX_BYTES
from tests.support import DAY_MS, write_memory

NOW = 1_760_000_000_000.0


class FixedSelector:
    """Returns the filenames it was built with, if offered."""

    name = "fixed"

    def __init__(self, *names: str) -> None:
        self.names = names
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
        offered = {h.filename for h in headers}
        return [n for n in self.names if n in offered]


def test_memory_over_200_lines_is_cut_to_200_lines() -> None:
    text = "".join(f"l{i}\n" for i in range(300))
    capped = cap_memory_text(text)
    assert capped.truncated and capped.kept_lines == 200
    assert capped.text.splitlines()[-1] == "l199"


def test_byte_cap_cuts_at_last_newline_within_4096_bytes() -> None:
    line = "x" * 99 + "\n"  # 100 bytes
    capped = cap_memory_text(line * 50)
    assert capped.truncated
    assert capped.kept_bytes == 4000 and capped.text.endswith("\n")
    assert len(capped.text.encode()) <= RECALL_MAX_BYTES


def test_byte_cap_counts_utf8_bytes_not_characters() -> None:
    line = "é" * 50 + "\n"  # 101 bytes, 51 characters
    capped = cap_memory_text(line * 60)
    assert capped.kept_bytes <= 4096 and capped.kept_lines == 40


def test_single_overlong_line_is_cut_on_a_character_boundary() -> None:
    capped = cap_memory_text("€" * 3000)
    assert capped.truncated and len(capped.text.encode()) <= 4096
    capped.text.encode("utf-8")  # still valid text


def test_short_memory_is_not_marked_cut() -> None:
    capped = cap_memory_text("a\nb\n")
    assert not capped.truncated and capped.text == "a\nb\n"


@pytest.mark.parametrize("brk", ["\x0b", "\x0c", "\x1c", "\x1e", "\x85", "\u2028", "\u2029"])
def test_line_cap_ends_lines_at_newline_only_not_at_other_unicode_breaks(brk: str) -> None:
    # str.splitlines also breaks at these, so a memory holding one was cut a line early.
    text = f"a{brk}b\nc{brk}d\ne\n"
    capped = cap_memory_text(text, max_lines=2)
    assert capped.text == f"a{brk}b\nc{brk}d\n" and capped.kept_lines == 2 and capped.truncated
    assert not cap_memory_text(text, max_lines=3).truncated


def test_injected_memory_has_header_blank_line_content_and_truncation_note(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    path = write_memory(
        d,
        "project_big.md",
        name="Big",
        description="big one",
        body="y" * 120 + "\n" * 0 + "\n".join("z" * 80 for _ in range(100)),
        age_days=0,
        now_ms=NOW,
    )
    session = RecallSession()
    [item] = session.inject([RelevantMemory(str(path), NOW)], now_ms=NOW)
    assert item.truncated
    assert item.header == f"Memory (saved today): {path}:"
    assert item.text.startswith(item.header + "\n\n---\nname: Big\n")
    assert f"Read {path} for the full text." in item.content
    assert session.bytes_used == item.injected_bytes == len(item.text.encode())


def test_render_wraps_each_memory_in_system_reminder_and_stale_ones_lead_with_age(
    tmp_path: Path,
) -> None:
    d = tmp_path / "memory"
    old = write_memory(d, "project_old.md", name="Old", description="old", age_days=47, now_ms=NOW)
    new = write_memory(d, "project_new.md", name="New", description="new", age_days=0, now_ms=NOW)
    session = RecallSession()
    items = session.inject(
        [RelevantMemory(str(old), NOW - 47 * DAY_MS), RelevantMemory(str(new), NOW)], now_ms=NOW
    )
    text = session.render(items)
    assert text.count("<system-reminder>\n") == 2 and text.count("\n</system-reminder>") == 2
    assert "<system-reminder>\nThis memory is 47 days old." in text
    assert f"\n\nMemory: {old}:\n\n---\nname: Old" in text
    assert f"<system-reminder>\nMemory (saved today): {new}:\n\n---\n" in text
    assert not items[0].truncated


def test_session_remembers_surfaced_and_never_injects_twice(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    write_memory(d, "project_a.md", name="A", description="a", now_ms=NOW)
    write_memory(d, "project_b.md", name="B", description="b", now_ms=NOW)
    session = RecallSession()
    selector = FixedSelector("project_a.md", "project_b.md")
    first = session.recall("q", d, selector=selector, now_ms=NOW)
    assert [Path(i.path).name for i in first] == ["project_a.md", "project_b.md"]
    assert session.surfaced == {str(d / "project_a.md"), str(d / "project_b.md")}
    assert session.recall("q", d, selector=selector, now_ms=NOW) == []
    assert selector.calls == 1  # nothing fresh left: the selector is not even asked


def test_budget_stops_injection_for_the_rest_of_the_session_and_says_so(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    names = []
    for i in range(20):  # 20 memories of ~4 KB each: well over 60 KB
        names.append(f"project_{i:02d}.md")
        write_memory(
            d, names[-1], name=f"M{i}", description="d", body=("w" * 79 + "\n") * 60, now_ms=NOW
        )
    session = RecallSession()
    injected = []
    for start in range(0, 20, 5):
        injected += session.recall(
            "q", d, selector=FixedSelector(*names[start : start + 5]), now_ms=NOW
        )
    assert session.budget_spent and session.budget_left == 0
    assert session.bytes_used <= MAX_SESSION_BYTES
    assert 10 <= len(injected) < 20
    assert "budget spent" in session.status
    assert "recall budget for this session (60 KB) is used up" in session.render([])
    before = session.bytes_used
    assert session.recall("q", d, selector=FixedSelector(names[-1]), now_ms=NOW) == []
    assert session.bytes_used == before


def test_reset_gives_back_budget_and_forgets_surfaced(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    write_memory(d, "project_a.md", name="A", description="a", now_ms=NOW)
    session = RecallSession(max_session_bytes=10)
    assert session.recall("q", d, selector=FixedSelector("project_a.md"), now_ms=NOW) == []
    spent = session.budget_spent  # a local: asserting on the attribute would narrow it past reset()
    assert spent
    session.reset()
    assert not session.budget_spent and session.surfaced == frozenset() and session.bytes_used == 0
    assert session.budget_left == 10


def test_vanished_file_is_skipped_with_a_reason(tmp_path: Path) -> None:
    session = RecallSession()
    assert session.inject([RelevantMemory(str(tmp_path / "gone.md"), NOW)], now_ms=NOW) == []
    assert session.skipped and "unreadable" in session.skipped[0][1]


def test_mark_surfaced_excludes_a_memory_read_another_way(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    write_memory(d, "project_a.md", name="A", description="a", now_ms=NOW)
    session = RecallSession()
    session.mark_surfaced(d / "project_a.md")
    assert session.recall("q", d, selector=FixedSelector("project_a.md"), now_ms=NOW) == []


def test_status_counts_surfaced_memories_in_the_right_number(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    write_memory(d, "project_a.md", name="A", description="a", now_ms=NOW)
    write_memory(d, "project_b.md", name="B", description="b", now_ms=NOW)
    session = RecallSession()
    assert session.status.startswith("0 memories surfaced, ")
    session.recall("q", d, selector=FixedSelector("project_a.md"), now_ms=NOW)
    assert session.status.startswith("1 memory surfaced, ")
    session.recall("q", d, selector=FixedSelector("project_b.md"), now_ms=NOW)
    assert session.status.startswith("2 memories surfaced, ")


def test_bad_caps_are_refused() -> None:
    with pytest.raises(ValueError, match="max_session_bytes must be a positive integer"):
        RecallSession(max_session_bytes=0)


def test_render_recall_prints_the_attachment_for_the_cli(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    write_memory(
        d,
        "feedback_testing.md",
        name="Integration tests use a real database",
        description="Integration tests hit a real Postgres, never mocks",
        type="feedback",
        now_ms=NOW,
    )
    out = render_recall(
        "write integration tests for the database layer", d, selector_name="lexical", now_ms=NOW
    )
    assert out.startswith("1 memory recalled (selector: lexical):\n\n<system-reminder>\n")
    assert str(d / "feedback_testing.md") in out


def test_render_recall_says_when_nothing_helps(tmp_path: Path) -> None:
    d = tmp_path / "memory"
    write_memory(
        d,
        "feedback_testing.md",
        name="Real DB",
        description="Integration tests hit a real Postgres",
        type="feedback",
        now_ms=NOW,
    )
    out = render_recall("write a limerick about a cat", d, selector_name="lexical", now_ms=NOW)
    assert out == f"No memory in {d} clearly helps with this query (selector: lexical).\n"


def test_render_recall_unknown_selector_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown selector 'magic'"):
        render_recall("q", tmp_path, selector_name="magic")


def test_session_reuses_its_scan_cache_across_turns(tmp_path: Path) -> None:
    from memdir_nb.recall import LexicalSelector, RecallSession
    from memdir_nb.storage.store import MemoryStore

    store = MemoryStore(tmp_path / "mem")
    store.save(
        "Deploy runbook",
        "How to deploy the API to production with Argo CD",
        "reference",
        "Merge to main, then promote the release tag.",
    )
    store.save(
        "Testing policy",
        "Integration tests use a real Postgres, never mocks",
        "feedback",
        "Use the real database.\n\n**Why:** mocks hid a broken migration.\n**How to apply:** SQL tests.",
    )
    from memdir_nb.storage.scan import ScanCache

    session = RecallSession(scan_cache=ScanCache(racy_window_ms=0))
    session.recall("deploy to production", tmp_path / "mem", selector=LexicalSelector())
    first = session.scan_cache.stats()
    session.recall("integration tests with postgres", tmp_path / "mem", selector=LexicalSelector())
    second = session.scan_cache.stats()
    assert second.misses == first.misses  # no header was read again on the second turn
    assert second.hits > first.hits


def test_session_builds_its_default_selector_once(tmp_path: Path) -> None:
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.recall import RecallSession
    from memdir_nb.storage.store import MemoryStore

    MemoryStore(tmp_path / "mem").save(
        "Deploy runbook",
        "How to deploy the API to production",
        "reference",
        "Merge to main, then promote the tag.",
    )
    config = MemdirConfig.for_tests(home=tmp_path, cwd=tmp_path)
    session = RecallSession()
    session.recall("deploy to production", tmp_path / "mem", config=config)
    first = session._default_selector(config)
    session.recall("deploy again", tmp_path / "mem", config=config)
    from memdir_nb.recall.semantic import SemanticSelector

    assert isinstance(first, SemanticSelector)  # the offline default
    assert session._default_selector(config) is first
