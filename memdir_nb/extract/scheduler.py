"""When to extract: the cursor, turn throttling, and coalescing requests while a run is in progress."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from memdir_nb.extract.transcript import (
    TranscriptMessage,
    TranscriptProblem,
    memory_writes,
    messages_since,
    read_transcript,
)
from memdir_nb.storage.containment import absolute_dir


@dataclass(frozen=True)
class ExtractionRequest:
    """What one extraction run gets: the whole conversation and the new part since the cursor."""

    messages: tuple[TranscriptMessage, ...]
    new_messages: tuple[TranscriptMessage, ...]
    is_trailing: bool


@dataclass(frozen=True)
class SchedulerDecision:
    """What the scheduler did with one turn end."""

    action: str  # "ran" | "failed" | "skipped_main_agent_wrote" | "throttled" | "queued" | "nothing_new"
    detail: str
    is_trailing: bool = False
    result: Any = None


class ExtractionScheduler:
    """Decides when the extractor runs: cursor, main-agent mutual exclusion, throttling, coalescing."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        extract: Callable[[ExtractionRequest], Any],
        *,
        turns_between: int = 1,
    ) -> None:
        if not isinstance(turns_between, int) or turns_between < 1:
            raise ValueError(f"turns_between must be a whole number >= 1, got {turns_between!r}")
        self.memory_dir = absolute_dir(memory_dir)
        self.extract = extract
        self.turns_between = turns_between
        self.cursor: str | None = None
        self.turns_since_last = 0
        self.history: list[SchedulerDecision] = []
        self.problems: list[TranscriptProblem] = []
        self._lock = threading.Lock()
        self._in_progress = False
        self._pending: tuple[TranscriptMessage, ...] | None = None

    @property
    def in_progress(self) -> bool:
        """True while an extraction run (or its trailing run) is going."""
        return self._in_progress

    def on_transcript(self, path: str | os.PathLike[str]) -> SchedulerDecision:
        """Read a transcript file and treat it as a turn end; bad lines are recorded in `problems`."""
        transcript = read_transcript(path)
        self.problems = list(transcript.problems)
        return self.on_turn_end(transcript.messages)

    def on_turn_end(self, messages: Sequence[TranscriptMessage]) -> SchedulerDecision:
        """Handle one turn end; runs the extractor in this thread unless a run is already going."""
        snapshot = tuple(messages)
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

    def _run_once(
        self, messages: tuple[TranscriptMessage, ...], *, trailing: bool
    ) -> SchedulerDecision:
        new = messages_since(messages, self.cursor)
        if not new:
            return self._record(
                SchedulerDecision("nothing_new", "no messages since the cursor", trailing)
            )
        writes = memory_writes(new, self.memory_dir)
        if writes:
            self.cursor = messages[-1].uuid
            self.turns_since_last = 0
            return self._record(
                SchedulerDecision(
                    "skipped_main_agent_wrote",
                    f"the main agent already wrote {', '.join(writes)}; cursor advanced",
                    trailing,
                )
            )
        if not trailing:
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
        self.cursor = messages[-1].uuid
        return self._record(
            SchedulerDecision("ran", f"{len(new)} new message(s)", trailing, result)
        )

    def _record(self, decision: SchedulerDecision) -> SchedulerDecision:
        self.history.append(decision)
        return decision
