"""The recall view-model: a turn keeps the request the selector recorded, never a rebuilt one."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from pathlib import Path

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.recall.lexical import LexicalSelector
from memdir_nb.recall.session import RecallSession
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.ui.views import recall as view


class _NoRecordSelector:
    """A selector that records no request (third-party selectors need not)."""

    name = "plain"
    last_error: str | None = None

    def select(
        self,
        query: str,
        headers: Sequence[MemoryHeader],
        *,
        recent_tools: Sequence[str] = (),
        cancel: threading.Event | None = None,
    ) -> list[str]:
        return []


def test_the_preview_carries_the_request_the_selector_recorded(
    demo_mem: Path, demo_now_ms: float
) -> None:
    selector = LexicalSelector()
    p = view.recall_preview(
        "how do we deploy to production",
        demo_mem,
        RecallSession(),
        selector,
        recent_tools=["Bash", " "],
        now_ms=demo_now_ms,
    )
    assert p.request is selector.last_request  # the very object, not a copy built for display
    assert p.request is not None
    assert p.request["recent_tools"] == ["Bash"]  # blank tool names never reach the selector
    assert p.selector == "lexical" and p.request_note == ""
    assert '"query": "how do we deploy to production"' in p.request_json
    assert p.manifest.count("\n") == 39 and p.selected


def test_a_selector_that_records_nothing_is_named(demo_mem: Path, demo_now_ms: float) -> None:
    p = view.recall_preview(
        "deploy", demo_mem, RecallSession(), _NoRecordSelector(), now_ms=demo_now_ms
    )
    assert p.request is None
    assert p.request_json == "(the plain selector records no request)"


def test_a_stale_request_from_an_earlier_turn_is_not_shown_again(
    demo_mem: Path, demo_now_ms: float
) -> None:
    selector = LexicalSelector()
    session = RecallSession()
    view.recall_preview("deploy", demo_mem, session, selector, now_ms=demo_now_ms)
    for header in scan_memory_dir(demo_mem, limit=None).headers:
        session.mark_surfaced(header.file_path)
    p = view.recall_preview("deploy", demo_mem, session, selector, now_ms=demo_now_ms)
    assert p.request is None and p.manifest == ""
    assert p.request_json.startswith("(no request: every memory was already surfaced")


def test_request_json_keeps_non_ascii_readable() -> None:
    assert view.request_json({"query": "déploiement"}) == '{\n  "query": "déploiement"\n}'
