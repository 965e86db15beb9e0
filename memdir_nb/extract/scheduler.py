"""When to extract: the cursor, turn throttling, and coalescing requests while a run is in progress."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memdir_nb.extract.message_stream import MessageWindow, WindowUpTo, streamed_turn_ends
from memdir_nb.extract.transcript import (
    MessagesUpTo,
    TranscriptMessage,
    memory_writes,
    messages_since,
    turn_prefixes,
    without_copies,
)
from memdir_nb.extract.transcript_tail import FileCursor, LineSpan, TranscriptChunk, read_since
from memdir_nb.formats.session_model import Session, Turn
from memdir_nb.formats.transcript_records import TranscriptProblem
from memdir_nb.home.moved_home import former_keys, former_keys_of_file
from memdir_nb.home.sessions import read_session
from memdir_nb.spec.constants import TRANSCRIPT_READ_MAX_BYTES
from memdir_nb.storage.containment import absolute_dir


@dataclass(frozen=True)
class ExtractionRequest:
    """What one extraction run gets: the whole conversation and the new part since the cursor."""

    messages: Sequence[TranscriptMessage]  # a tuple, or a replay's view of one (MessagesUpTo)
    new_messages: tuple[TranscriptMessage, ...]
    is_trailing: bool


@dataclass(frozen=True)
class SchedulerDecision:
    """What the scheduler did with one turn end."""

    action: str  # "ran" | "failed" | "skipped_main_agent_wrote" | "skipped_subagent" | "skipped_no_model_reply" | "throttled" | "queued" | "nothing_new"
    detail: str
    is_trailing: bool = False
    result: Any = None


def _snapshot(messages: Sequence[TranscriptMessage]) -> Sequence[TranscriptMessage]:
    """messages as a sequence no one can change while a run holds it: a tuple or a view of one
    is taken as it is (a replay's turn ends are views, not a copy each), anything else copied."""
    return messages if isinstance(messages, (tuple, MessagesUpTo, WindowUpTo)) else tuple(messages)


def _all_sidechain(messages: Sequence[TranscriptMessage]) -> bool:
    """Whether there are messages and all are sidechain records: a subagent's transcript. A
    replay's window (WindowUpTo) knows without reading the messages it let go of."""
    if isinstance(messages, WindowUpTo):
        return messages.all_sidechain()
    return bool(messages) and all(m.is_sidechain for m in messages)


class ExtractionScheduler:
    """Decides when the extractor runs: cursor, main-agent mutual exclusion, throttling, coalescing."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        extract: Callable[[ExtractionRequest], Any],
        *,
        turns_between: int = 1,
        max_read_bytes: int = TRANSCRIPT_READ_MAX_BYTES,
    ) -> None:
        if not isinstance(turns_between, int) or turns_between < 1:
            raise ValueError(f"turns_between must be a whole number >= 1, got {turns_between!r}")
        if not isinstance(max_read_bytes, int) or max_read_bytes < 1:
            raise ValueError(f"max_read_bytes must be a whole number >= 1, got {max_read_bytes!r}")
        self.memory_dir = absolute_dir(memory_dir)
        # the keys besides the dir's own whose memory paths are this dir: a moved home's old
        # key (home.moved_home.former_keys), set by on_transcript and replay_session for the
        # session they read; a caller feeding on_turn_end itself may set it the same way
        self.moved_from: tuple[str, ...] = ()
        self._moved_for: str | None = None  # the transcript moved_from was found for
        self.extract = extract
        self.turns_between = turns_between
        self.cursor: str | None = None
        self._cursor_at = -1  # where the cursor's message was when it was set (a search hint)
        self.turns_since_last = 0
        self.history: list[SchedulerDecision] = []
        self.problems: list[TranscriptProblem] = []
        # on_transcript: at most this many bytes a run, read from the cursor's place in the file
        self.max_read_bytes = max_read_bytes
        self.file_cursor: FileCursor | None = None
        self.notes: list[str] = []  # why a read started over, and what a run left for the next
        self.last_chunk: TranscriptChunk | None = None  # what the last on_transcript read
        self._spans: dict[str, LineSpan] = {}
        self._lock = threading.Lock()
        self._in_progress = False
        self._pending: Sequence[TranscriptMessage] | None = None

    @property
    def cursor_index(self) -> int | None:
        """Where the cursor's message was in the messages of the turn end that set it (None:
        no cursor yet): a replay lets go of the messages before it."""
        return self._cursor_at if self.cursor is not None and self._cursor_at >= 0 else None

    @property
    def in_progress(self) -> bool:
        """True while an extraction run (or its trailing run) is going."""
        return self._in_progress

    def on_transcript(self, path: str | os.PathLike[str]) -> SchedulerDecision:
        """Read a transcript file from the cursor and treat it as a turn end.

        Only the lines after the cursor's message are read, at most `max_read_bytes` of them
        (extract.transcript_tail): a long session is taken up run by run, and a note says
        how much is left. A file that was replaced, cut or rewritten since the last run is read
        again from its start, with a note in `notes` and `problems` saying why and which
        messages count as new. Bad lines are recorded in `problems`.
        """
        self._follow_cursor()
        self._moved_for_file(path)
        chunk = read_since(path, self.file_cursor, self.cursor, max_bytes=self.max_read_bytes)
        self.last_chunk = chunk
        self.problems = list(chunk.transcript.problems)
        self._spans = chunk.spans
        if chunk.restart is not None:
            self.notes.append(chunk.restart)
            self.problems.append(TranscriptProblem(0, chunk.restart))
            self.file_cursor = None
        decision = self.on_turn_end(chunk.transcript.messages)
        self._follow_cursor(chunk)
        if not chunk.transcript.messages and chunk.last_line is not None:
            # no message in what was read (progress and other records only): nothing after
            # the cursor was passed over, so the next run starts after these lines
            self.file_cursor = FileCursor(chunk.path, chunk.device, chunk.inode, chunk.last_line)
        if chunk.remaining:
            self.notes.append(
                f"read {chunk.bytes_read:,} bytes of {chunk.path} (the cap is "
                f"{self.max_read_bytes:,} a run); {chunk.remaining:,} bytes after them are left "
                "for the next run"
            )
        return decision

    def _moved_for_file(self, path: str | os.PathLike[str]) -> None:
        """moved_from for a transcript file, found from its head once per path (each run
        reads only the bytes after the cursor, which need not name the working folder)."""
        key = os.path.abspath(path)
        if key != self._moved_for:
            self.moved_from = former_keys_of_file(key, self.memory_dir)
            self._moved_for = key

    def _follow_cursor(self, chunk: TranscriptChunk | None = None) -> None:
        """Point the file cursor at the cursor message's line, when the last read held it."""
        span = self._spans.get(self.cursor) if self.cursor is not None else None
        source = chunk or self.last_chunk
        if span is not None and source is not None:
            self.file_cursor = FileCursor(source.path, source.device, source.inode, span)

    def on_turn_end(self, messages: Sequence[TranscriptMessage]) -> SchedulerDecision:
        """Handle one turn end; runs the extractor in this thread unless a run is already going.

        A subagent's transcript (every message a sidechain record) is never extracted: only
        the main agent's sessions are, and a subagent's writes are not the main agent's.
        """
        snapshot = _snapshot(messages)
        if _all_sidechain(snapshot):
            return self._record(
                SchedulerDecision(
                    "skipped_subagent",
                    "a subagent's transcript (isSidechain records); only main sessions are extracted",
                )
            )
        with self._lock:
            if self._in_progress:
                replaced = self._pending is not None
                self._pending = snapshot  # later requests overwrite earlier ones
                return self._record(
                    SchedulerDecision(
                        "queued",
                        "a run is in progress; "
                        + (
                            "replaced the pending request"
                            if replaced
                            else "will run once it finishes"
                        ),
                    )
                )
            self._in_progress = True
        try:
            first = self._run_once(snapshot, trailing=False)
            while True:
                with self._lock:
                    pending, self._pending = self._pending, None
                    if pending is None:
                        self._in_progress = False
                        return first
                self._run_once(pending, trailing=True)
        except BaseException:
            with self._lock:
                self._in_progress = False
            raise

    def on_session_turn_end(
        self, turn: Turn, messages: Sequence[TranscriptMessage]
    ) -> SchedulerDecision:
        """A turn end as the session model reads it: a turn the API answered with errors only
        (Turn.api_error_only) has no model reply, and Claude Code extracts after the model
        answers, so nothing runs and the cursor stays (the next answered turn sees these
        messages). Any other turn is `on_turn_end(messages)`."""
        if not turn.api_error_only:
            return self.on_turn_end(messages)
        errors = "; ".join(turn.api_errors)
        return self._record(
            SchedulerDecision(
                "skipped_no_model_reply", f"no model reply (API error: {errors}); nothing ran"
            )
        )

    def on_session_end(self, messages: Sequence[TranscriptMessage]) -> SchedulerDecision:
        """The end-of-session flush: extract what throttling held back, so the last turn counts.

        Runs only when turns were throttled since the last run, or the last run failed;
        otherwise returns "nothing_new". Main-agent writes still win ("skipped_main_agent_wrote").
        """
        snapshot = _snapshot(messages)
        if _all_sidechain(snapshot):
            return self.on_turn_end(snapshot)
        failed = bool(self.history) and self.history[-1].action == "failed"
        if self.turns_since_last == 0 and not failed:
            return self._record(
                SchedulerDecision("nothing_new", "no throttled or failed turn is waiting")
            )
        if not self._since(snapshot):
            return self._record(SchedulerDecision("nothing_new", "no messages since the cursor"))
        with self._lock:
            if self._in_progress:
                self._pending = snapshot
                return self._record(
                    SchedulerDecision("queued", "a run is in progress; the flush will follow it")
                )
            self._in_progress = True
        try:
            return self._run_once(snapshot, trailing=False, flush=True)
        finally:
            with self._lock:
                self._in_progress = False

    def replay_session(
        self,
        source: str | os.PathLike[str] | Session,
        messages: Sequence[TranscriptMessage] | None = None,
    ) -> list[tuple[Turn | None, SchedulerDecision]]:
        """Feed a whole session turn by turn (turns from the session model), then flush.

        source: a transcript path or a Session (with messages given, they are used; else its
        file is read). Returns (turn, decision) per turn end and (None, decision) for the flush.

        A file is read as far as its turns are (the session model's 1 GiB, not read_transcript's
        64 MiB, past which the later turns had no messages: lefts37b), a message at a time, and
        only the messages from the cursor on are kept (extract.message_stream, as the report's
        replay does): each request's `messages` is a view that holds those, and asking it for
        an earlier one raises IndexError. Bad lines are recorded in `problems` as they are read.
        """
        path: str | os.PathLike[str] | None
        if isinstance(source, Session):
            session, path = source, source.path
            self.moved_from, self._moved_for = former_keys(session, self.memory_dir), None
            if messages is not None or not path:
                kept = without_copies(session, messages or ())
                return self._replayed(session, turn_prefixes(session, kept), lambda: kept)
        else:
            session, path = read_session(source), source
            self.moved_from = former_keys(session, self.memory_dir)
            self._moved_for = os.path.abspath(source)
        self.problems = []
        window = MessageWindow(path, session, whole=True, problems=self.problems)
        views = (WindowUpTo(window, end) for end in streamed_turn_ends(path, session))
        return self._replayed(
            session, views, lambda: WindowUpTo(window, window.read_all()), window.let_go_before
        )

    def _replayed(
        self,
        session: Session,
        views: Iterable[Sequence[TranscriptMessage]],
        everything: Callable[[], Sequence[TranscriptMessage]],
        let_go: Callable[[int], None] | None = None,
    ) -> list[tuple[Turn | None, SchedulerDecision]]:
        """Each turn's decision on its view of the messages, then the flush on all of them;
        let_go (a streamed replay's) is told the cursor after each turn."""
        decisions: list[tuple[Turn | None, SchedulerDecision]] = []
        for turn, upto in zip(session.turns, views, strict=True):
            decisions.append((turn, self.on_session_turn_end(turn, upto)))
            if let_go is not None and self.cursor_index is not None:
                let_go(self.cursor_index)
        decisions.append((None, self.on_session_end(everything())))
        return decisions

    def _run_once(
        self, messages: Sequence[TranscriptMessage], *, trailing: bool, flush: bool = False
    ) -> SchedulerDecision:
        new = self._since(messages)
        if not new:
            return self._record(
                SchedulerDecision("nothing_new", "no messages since the cursor", trailing)
            )
        writes = memory_writes(new, self.memory_dir, other_keys=self.moved_from)
        if writes:
            self.cursor, self._cursor_at = messages[-1].uuid, len(messages) - 1
            self.turns_since_last = 0
            return self._record(
                SchedulerDecision(
                    "skipped_main_agent_wrote",
                    f"the main agent already wrote {', '.join(writes)}; cursor advanced",
                    trailing,
                )
            )
        if not trailing and not flush:
            self.turns_since_last += 1
            if self.turns_since_last < self.turns_between:
                return self._record(
                    SchedulerDecision(
                        "throttled",
                        f"turn {self.turns_since_last} of {self.turns_between} since the last run",
                    )
                )
            self.turns_since_last = 0
        request = ExtractionRequest(messages, tuple(new), trailing)
        try:
            result = self.extract(request)
        except Exception as exc:  # a failed run keeps the cursor, so the next turn retries it
            return self._record(
                SchedulerDecision("failed", f"{type(exc).__name__}: {exc}", trailing)
            )
        self.cursor, self._cursor_at = messages[-1].uuid, len(messages) - 1
        self.turns_since_last = 0
        detail = f"{len(new)} new message(s)" + (" (end-of-session flush)" if flush else "")
        return self._record(SchedulerDecision("ran", detail, trailing, result))

    def _since(self, messages: Sequence[TranscriptMessage]) -> list[TranscriptMessage]:
        """messages_since the cursor, looked for first where it was set: each turn's messages
        hold the last turn's, so a replay of n turns is not n searches from the start."""
        at = self._cursor_at
        if self.cursor is not None and 0 <= at < len(messages) and messages[at].uuid == self.cursor:
            return list(messages[at + 1 :])
        return messages_since(messages, self.cursor)

    def _record(self, decision: SchedulerDecision) -> SchedulerDecision:
        self.history.append(decision)
        return decision
