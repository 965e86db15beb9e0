"""The recall playground's view-model: one recall turn, with the request the selector really sent.

The request shown is the one the selector recorded as `last_request` while it ran (the
Messages API arguments for Claude, the inputs it ranked for the offline selector); nothing
here builds a second request for display.
"""

from __future__ import annotations

import dataclasses
import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.recall.explain_selection import quote_window, selection_explanation, window_label
from memdir_nb.recall.find import drop_surfaced
from memdir_nb.storage.scan import scan_memory_files

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.recall.base import Selector
    from memdir_nb.recall.session import InjectedMemory, RecallSession

__all__ = [
    "NOT_RUN_NOTE",
    "RecallPreview",
    "matched_windows",
    "recall_preview",
    "recorded_request",
    "request_json",
    "selector_label",
]

NOT_RUN_NOTE = "(no turn run yet: press Recall to see the request the selector sends)"


@dataclass(frozen=True)
class RecallPreview:
    """One playground run: what the selector was offered and sent, what came back, the session after."""

    selector: str  # the selector's name, e.g. 'lexical' or 'anthropic'
    manifest: str  # the memories offered this turn, one manifest line each
    request: Mapping[str, Any] | None  # the selector's recorded request, None when it sent none
    request_note: str  # why there is no request ('' when there is one)
    selected: list[InjectedMemory]
    rendered: str
    last_error: str | None
    surfaced: list[str]
    bytes_used: int
    budget_bytes: int
    status: str
    matched: Mapping[str, str] = dataclasses.field(default_factory=dict)
    # picked memory -> the body window that matched ("window 3: \"...\""), for body-aware selectors

    @property
    def request_json(self) -> str:
        """The recorded request as indented JSON, or the note saying why there is none."""
        return request_json(self.request) if self.request is not None else self.request_note


def selector_label(selector: object) -> str:
    """A selector's display name: its `name` attribute, else its class name."""
    return str(getattr(selector, "name", type(selector).__name__))


def recorded_request(selector: object) -> Mapping[str, Any] | None:
    """The request the selector recorded on its last select() (None when it records none)."""
    value = getattr(selector, "last_request", None)
    return value if isinstance(value, Mapping) else None


def request_json(request: Mapping[str, Any]) -> str:
    """A recorded request as indented JSON (non-ASCII kept readable)."""
    return json.dumps(request, indent=2, ensure_ascii=False, default=str)


def recall_preview(
    query: str,
    memory_dir: str | os.PathLike[str],
    session: RecallSession,
    selector: Selector,
    *,
    recent_tools: Sequence[str] = (),
    now_ms: float | None = None,
) -> RecallPreview:
    """Run one recall turn in `session` and keep what the selector was offered and what it sent."""

    tools = [t for t in recent_tools if t.strip()]
    candidates = drop_surfaced(scan_memory_files(memory_dir), session.surfaced)
    before = recorded_request(selector)
    injected = session.recall(
        query, memory_dir, recent_tools=tools, selector=selector, now_ms=now_ms
    )
    after = recorded_request(selector)
    sent = after if after is not None and after is not before else None
    if sent is not None:
        note = ""
    elif not hasattr(selector, "last_request"):
        note = f"(the {selector_label(selector)} selector records no request)"
    elif not candidates:
        note = "(no request: every memory was already surfaced this session, so none was offered)"
    else:
        note = "(no request: the selector was not called this turn)"
    return RecallPreview(
        selector=selector_label(selector),
        manifest=format_memory_manifest(candidates),
        request=sent,
        request_note=note,
        selected=list(injected),
        rendered=session.render(injected),
        last_error=session.last_selector_error,
        surfaced=sorted(session.surfaced),
        bytes_used=session.bytes_used,
        budget_bytes=session.max_session_bytes,
        status=session.status,
        matched=matched_windows(selector) if sent is not None else {},
    )


def matched_windows(selector: object) -> dict[str, str]:
    """Picked memory -> the quoted body window that matched, from the selector's last explanation."""
    return {
        r.filename: f"{window_label(r)}: {quote_window(r.window)}"
        for r in selection_explanation(selector)
        if r.selected and r.window
    }
