"""The injection side of recall: per-memory caps, the session budget, and the attachment text."""

from __future__ import annotations

import os
import threading
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memdir_nb.recall.base import RelevantMemory, Selector
from memdir_nb.recall.find import recall_memories
from memdir_nb.recall.request import RecallRequest
from memdir_nb.recall.selectors import default_selector, make_selector
from memdir_nb.spec.constants import (
    MAX_SESSION_BYTES,
    RECALL_MAX_BYTES,
    RECALL_MAX_LINES,
    RECALL_READ_SLACK_BYTES,
)
from memdir_nb.spec.freshness import memory_header
from memdir_nb.spec.text import as_lf, first_lines, plural
from memdir_nb.storage.access import ReadRefused, read_contained
from memdir_nb.storage.scan import ScanCache

if TYPE_CHECKING:  # pragma: no cover
    from memdir_nb.home.config import MemdirConfig
    from memdir_nb.storage.scan import ScanCache


@dataclass(frozen=True)
class InjectedMemory:
    """One memory as it goes into the turn: header, (possibly cut) content and its size."""

    path: str
    mtime_ms: float
    header: str
    content: str
    truncated: bool
    file_bytes: int  # size of the file on disk
    injected_bytes: int  # UTF-8 bytes of header + blank line + content

    @property
    def text(self) -> str:
        """Header, a blank line, then the content: one message of the attachment."""
        return f"{self.header}\n\n{self.content}"


@dataclass(frozen=True)
class CappedText:
    """The result of applying the per-memory line and byte caps."""

    text: str
    truncated: bool
    kept_lines: int
    kept_bytes: int


def _utf8_len(text: str) -> int:
    return len(text.encode("utf-8"))


def cap_memory_text(
    text: str, *, max_lines: int = RECALL_MAX_LINES, max_bytes: int = RECALL_MAX_BYTES
) -> CappedText:
    """Keep at most max_lines lines and max_bytes UTF-8 bytes, cutting at a line end.

    Lines end at '\n' only (spec.text.first_lines, the line cap every route shares); a single
    line longer than the byte cap is cut on a character boundary instead.
    """
    head = first_lines(text, max_lines)
    truncated = len(head) < len(text)
    data = head.encode("utf-8")
    if len(data) > max_bytes:
        truncated = True
        cut = data.rfind(b"\n", 0, max_bytes)
        # at the last line end that fits; else one long line, cut on a character boundary
        keep = data[: cut + 1] if cut >= 0 else data[:max_bytes]
        head = keep.decode("utf-8", "ignore")
        data = head.encode("utf-8")
    kept_lines = head.count("\n") + (0 if not head or head.endswith("\n") else 1)
    return CappedText(head, truncated, kept_lines, len(data))


def truncation_note(path: str, capped: CappedText, file_bytes: int) -> str:
    """The line appended to a cut memory, saying how much was kept and where the rest is."""
    return (
        f"[Memory truncated: only the first {capped.kept_lines} lines ({capped.kept_bytes} of "
        f"{file_bytes} bytes) are shown. Read {path} for the full text.]"
    )


def budget_spent_note(max_session_bytes: int) -> str:
    """What the attachment says once the session's recall budget is used up."""
    return (
        f"The memory recall budget for this session ({max_session_bytes // 1024} KB) is used up, "
        "so no further memories will be added automatically. Read memory files directly if "
        "one is needed."
    )


class RecallSession:
    """Tracks what a session has surfaced and how many bytes of memory it has injected."""

    def __init__(
        self,
        *,
        max_memory_lines: int = RECALL_MAX_LINES,
        max_memory_bytes: int = RECALL_MAX_BYTES,
        max_session_bytes: int = MAX_SESSION_BYTES,
        scan_cache: ScanCache | None = None,
    ) -> None:
        for label, value in (
            ("max_memory_lines", max_memory_lines),
            ("max_memory_bytes", max_memory_bytes),
            ("max_session_bytes", max_session_bytes),
        ):
            if not isinstance(value, int) or value <= 0:
                raise ValueError(f"{label} must be a positive integer, got {value!r}")
        self.max_memory_lines = max_memory_lines
        self.max_memory_bytes = max_memory_bytes
        self.max_session_bytes = max_session_bytes
        self._lock = threading.Lock()
        # One scan cache for the session's life: each turn rereads only headers that changed.
        self.scan_cache = scan_cache if scan_cache is not None else ScanCache()
        self._selector: Selector | None = None
        self._selector_config: object = None
        self.reset()

    # -- state ------------------------------------------------------------------------------

    def reset(self) -> None:
        """Forget everything surfaced and give the full budget back (a new session)."""
        with self._lock:
            self._surfaced: set[str] = set()
            self._bytes_used = 0
            self._budget_spent = False
            self.skipped: list[tuple[str, str]] = []
            self.last_selector_error: str | None = None

    @property
    def surfaced(self) -> frozenset[str]:
        """Absolute paths already injected (or marked as read) in this session."""
        with self._lock:
            return frozenset(self._surfaced)

    @property
    def bytes_used(self) -> int:
        """UTF-8 bytes of memory text injected so far."""
        return self._bytes_used

    @property
    def budget_left(self) -> int:
        """Bytes still available before the session budget is reached (0 once spent)."""
        return 0 if self._budget_spent else max(0, self.max_session_bytes - self._bytes_used)

    @property
    def budget_spent(self) -> bool:
        """True once a memory did not fit: nothing more is injected this session."""
        return self._budget_spent

    @property
    def status(self) -> str:
        """A one-line summary a widget can show."""
        used_kb = self._bytes_used / 1024
        total_kb = self.max_session_bytes / 1024
        if self._budget_spent:
            return f"Recall budget spent ({used_kb:.1f} of {total_kb:.0f} KB); no more memories this session."
        return (
            f"{plural(len(self._surfaced), 'memory')} surfaced, {used_kb:.1f} of {total_kb:.0f} KB used "
            f"({self.budget_left} bytes left)."
        )

    def mark_surfaced(self, path: str | os.PathLike[str]) -> None:
        """Record a memory the model already saw another way (e.g. it read the file)."""
        with self._lock:
            self._surfaced.add(os.path.abspath(os.fspath(path)))

    # -- the turn ---------------------------------------------------------------------------

    def recall(
        self,
        query: str,
        memory_dir: str | os.PathLike[str],
        *,
        recent_tools: Sequence[str] = (),
        selector: Selector | None = None,
        now_ms: float | None = None,
        config: MemdirConfig | None = None,
    ) -> list[InjectedMemory]:
        """Select fresh memories for the query and inject what the budget allows."""
        if self._budget_spent:
            return []
        if selector is None:
            selector = self._default_selector(config)
        found = recall_memories(
            RecallRequest.build(
                query,
                memory_dir,
                recent_tools=recent_tools,
                already_surfaced=self.surfaced,
                selector=selector,
                now_ms=now_ms,
                scan_cache=self.scan_cache,
            )
        )
        self.last_selector_error = getattr(selector, "last_error", None)
        return self.inject(found, now_ms=now_ms, memory_dir=memory_dir)

    def _default_selector(self, config: MemdirConfig | None) -> Selector:
        """The session's own default selector, built once per config so its caches last the session."""
        if self._selector is None or self._selector_config is not config:
            self._selector = default_selector(config)
            self._selector_config = config
        return self._selector

    def inject(
        self,
        memories: Iterable[RelevantMemory],
        *,
        now_ms: float | None = None,
        memory_dir: str | os.PathLike[str] | None = None,
    ) -> list[InjectedMemory]:
        """Read, cap and account for each memory; stop for good when the budget runs out.

        Each file is read through the contained reader: inside memory_dir (default: the
        file's own folder), a regular file, at most the memory cap plus a few bytes.
        """

        injected: list[InjectedMemory] = []
        for memory in memories:
            path = os.path.abspath(memory.path)
            with self._lock:
                if self._budget_spent:
                    break
                if path in self._surfaced:
                    continue
            root = memory_dir if memory_dir is not None else os.path.dirname(path)
            try:
                file_bytes, raw = _read_capped(root, path, self.max_memory_bytes)
            except ReadRefused as err:  # a FIFO, a link out of the dir, a vanished file
                self.skipped.append((path, f"unreadable: {err}"))
                continue
            except OSError as err:
                self.skipped.append((path, f"unreadable: {type(err).__name__}: {err}"))
                continue
            item = self.admit(path, memory.mtime_ms, file_bytes, raw, now_ms=now_ms)
            if item is None:
                break
            injected.append(item)
        return injected

    def admit(
        self, path: str, mtime_ms: float, file_bytes: int, raw: str, *, now_ms: float | None = None
    ) -> InjectedMemory | None:
        """Cap one memory's text and count it against the budget; None once the budget is spent.

        `raw` is the file's text (at least the cap plus a few bytes when the file is longer);
        inject() reads it from disk, a session replay passes the text as of an earlier turn.
        """
        capped = cap_memory_text(
            raw, max_lines=self.max_memory_lines, max_bytes=self.max_memory_bytes
        )
        truncated = capped.truncated or file_bytes > capped.kept_bytes
        content = capped.text.rstrip("\n")
        if truncated:
            content += "\n\n" + truncation_note(path, capped, file_bytes)
        header = memory_header(path, mtime_ms, now_ms)
        item = InjectedMemory(
            path=path,
            mtime_ms=mtime_ms,
            header=header,
            content=content,
            truncated=truncated,
            file_bytes=file_bytes,
            injected_bytes=_utf8_len(f"{header}\n\n{content}"),
        )
        with self._lock:
            if self._budget_spent:
                return None
            if self._bytes_used + item.injected_bytes > self.max_session_bytes:
                self._budget_spent = True
                self.skipped.append((path, "session recall budget spent"))
                return None
            self._bytes_used += item.injected_bytes
            self._surfaced.add(path)
        return item

    def render(self, injected: Sequence[InjectedMemory]) -> str:
        """The relevant_memories attachment: each memory in its own <system-reminder> block."""
        blocks = [f"<system-reminder>\n{item.text}\n</system-reminder>" for item in injected]
        if self._budget_spent:
            blocks.append(
                f"<system-reminder>\n{budget_spent_note(self.max_session_bytes)}\n</system-reminder>"
            )
        return "\n".join(blocks)


def _read_capped(root: str | os.PathLike[str], path: str, max_bytes: int) -> tuple[int, str]:
    """(file size, text of at most max_bytes + slack bytes) from one contained read; line ends by spec.text.as_lf."""
    res = read_contained(root, path, max_bytes + RECALL_READ_SLACK_BYTES)
    text = res.text
    if text.startswith("\ufeff"):
        text = text[1:]
    return res.total_size, as_lf(text)


def render_recall(
    query: str,
    memory_dir: str | os.PathLike[str],
    *,
    tools: Sequence[str] = (),
    selector_name: str | None = None,
    now_ms: float | None = None,
    config: MemdirConfig | None = None,
    selector: Selector | None = None,
) -> str:
    """What `memdir-nb recall` prints: the attachment, or a sentence saying why there is none."""

    if selector is None:
        selector = (
            make_selector(selector_name, config) if selector_name else default_selector(config)
        )
    label = getattr(selector, "name", type(selector).__name__)
    session = RecallSession()
    injected = session.recall(
        query, memory_dir, recent_tools=tools, selector=selector, now_ms=now_ms
    )
    lines: list[str] = []
    if session.last_selector_error:
        lines.append(f"The {label} selector failed: {session.last_selector_error}")
    fallback = getattr(selector, "fallback_reason", None)
    if fallback:
        lines.append(f"The {label} selector answered lexically (no model): {fallback}")
    for path, reason in session.skipped:
        lines.append(f"Skipped {path}: {reason}")
    if not injected:
        lines.append(
            f"No memory in {os.fspath(memory_dir)} clearly helps with this query (selector: {label})."
        )
        return "\n".join(lines) + "\n"
    count = len(injected)
    lines.append(f"{count} {'memory' if count == 1 else 'memories'} recalled (selector: {label}):")
    lines.append("")
    lines.append(session.render(injected))
    return "\n".join(lines) + "\n"
