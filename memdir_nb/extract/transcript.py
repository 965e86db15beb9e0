"""Reading a Claude Code transcript: messages, the cursor walk, and the main agent's own memory writes."""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from memdir_nb.extract.sandbox import WRITE_TOOLS
from memdir_nb.formats.jsonio import JSONLimitError, loads_bounded
from memdir_nb.spec.constants import TRANSCRIPT_LINE_MAX_BYTES, TRANSCRIPT_READ_MAX_BYTES
from memdir_nb.storage import containment as team_paths
from memdir_nb.storage.access import read_regular_file


@dataclass(frozen=True)
class TranscriptMessage:
    """One user/assistant record of a Claude Code transcript."""

    uuid: str
    parent_uuid: str | None
    type: str  # "user" | "assistant"
    role: str
    content: str | list[dict[str, Any]]
    timestamp: str | None = None
    session_id: str | None = None
    line_no: int = 0

    def blocks(self) -> list[dict[str, Any]]:
        """The content as a list of blocks (a plain string becomes one text block)."""
        if isinstance(self.content, str):
            return [{"type": "text", "text": self.content}]
        return [b for b in self.content if isinstance(b, dict)]


@dataclass(frozen=True)
class TranscriptProblem:
    """A transcript line that could not be used, with its 1-based line number."""

    line_no: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.reason}"


@dataclass(frozen=True)
class Transcript:
    """The messages of a transcript, plus the lines skipped as unusable and the count of other records."""

    messages: list[TranscriptMessage]
    problems: list[TranscriptProblem]
    other_records: int


MESSAGE_TYPES = ("user", "assistant")


def parse_transcript_lines(lines: Iterable[str]) -> Transcript:
    """Parse JSONL lines; bad lines are reported by number, never fatal."""
    messages: list[TranscriptMessage] = []
    problems: list[TranscriptProblem] = []
    other = 0
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = loads_bounded(
                line, max_bytes=TRANSCRIPT_LINE_MAX_BYTES, what="the transcript line"
            )
        except JSONLimitError as exc:
            problems.append(TranscriptProblem(line_no, f"{exc}; skipped"))
            continue
        except json.JSONDecodeError as exc:
            problems.append(
                TranscriptProblem(line_no, f"not JSON ({exc.msg} at column {exc.colno}); skipped")
            )
            continue
        if not isinstance(record, dict):
            problems.append(TranscriptProblem(line_no, "not a JSON object; skipped"))
            continue
        if record.get("type") not in MESSAGE_TYPES:
            other += 1  # summary, file-history-snapshot, system records...
            continue
        msg = record.get("message")
        uuid = record.get("uuid")
        if not isinstance(uuid, str) or not uuid:
            problems.append(
                TranscriptProblem(line_no, f"{record['type']} record without a 'uuid'; skipped")
            )
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("content"), (str, list)):
            problems.append(
                TranscriptProblem(
                    line_no, f"{record['type']} record without message.content; skipped"
                )
            )
            continue
        messages.append(
            TranscriptMessage(
                uuid=uuid,
                parent_uuid=record.get("parentUuid"),
                type=record["type"],
                role=str(msg.get("role") or record["type"]),
                content=msg["content"],
                timestamp=record.get("timestamp"),
                session_id=record.get("sessionId"),
                line_no=line_no,
            )
        )
    return Transcript(messages, problems, other)


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read a Claude Code transcript JSONL file (invalid UTF-8 is replaced, not fatal).

    A regular file only (a FIFO is refused, never waited on), at most TRANSCRIPT_READ_MAX_BYTES;
    a cut transcript keeps its whole lines and says so in `problems`.
    """
    res = read_regular_file(path, TRANSCRIPT_READ_MAX_BYTES)
    lines = res.text.split("\n")
    if res.truncated:
        lines = lines[:-1]  # the last line was cut mid-record
    transcript = parse_transcript_lines(lines)
    if res.truncated:
        transcript.problems.append(
            TranscriptProblem(len(lines), f"{res.cut_note()}; later records were not read")
        )
    return transcript


def messages_since(
    messages: Sequence[TranscriptMessage], since_uuid: str | None
) -> list[TranscriptMessage]:
    """Messages after the one with `since_uuid`; all of them when it is None or no longer present."""
    if since_uuid is not None:
        for i, m in enumerate(messages):
            if m.uuid == since_uuid:
                return list(messages[i + 1 :])
    return list(messages)


def _is_memory_path(raw: object, memory_dir: str | os.PathLike[str]) -> bool:
    if not isinstance(raw, str) or not raw:
        return False
    try:
        team_paths.validate_memory_write_path(raw, os.fspath(memory_dir))
    except ValueError:
        return False
    return True


def memory_writes(
    messages: Iterable[TranscriptMessage], memory_dir: str | os.PathLike[str]
) -> list[str]:
    """file_paths of the assistant's Write/Edit tool calls that target the memory dir."""
    found = []
    for m in messages:
        if m.type != "assistant":
            continue
        for b in m.blocks():
            if b.get("type") == "tool_use" and b.get("name") in WRITE_TOOLS | {
                "MultiEdit",
                "NotebookEdit",
            }:
                path = (
                    (b.get("input") or {}).get("file_path")
                    if isinstance(b.get("input"), dict)
                    else None
                )
                if isinstance(path, str) and _is_memory_path(path, memory_dir):
                    found.append(path)
    return found


def has_memory_writes_since(
    messages: Sequence[TranscriptMessage],
    since_uuid: str | None,
    memory_dir: str | os.PathLike[str],
) -> bool:
    """True when the main agent wrote into the memory dir after the cursor (so extraction skips)."""
    return bool(memory_writes(messages_since(messages, since_uuid), memory_dir))
