"""Reading a Claude Code transcript: messages, the cursor walk, and the main agent's own memory writes."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import islice
from operator import attrgetter
from typing import Any, overload

from memdir_nb.extract.sandbox import WRITE_TOOLS
from memdir_nb.formats.memory_timeline import MemoryPaths
from memdir_nb.formats.session_model import Session
from memdir_nb.formats.transcript_records import TranscriptProblem, parse_record_line, record_id
from memdir_nb.spec.constants import (
    SESSION_READ_MAX_BYTES,
    TRANSCRIPT_LINE_MAX_BYTES,
    TRANSCRIPT_READ_MAX_BYTES,
)
from memdir_nb.storage.line_reader import iter_lines
from memdir_nb.storage.regular_file import read_regular_file


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
    is_sidechain: bool = False  # a subagent's record (its own file, or inline in 1.0.x)

    def blocks(self) -> list[dict[str, Any]]:
        """The content as a list of blocks (a plain string becomes one text block)."""
        if isinstance(self.content, str):
            return [{"type": "text", "text": self.content}]
        return [b for b in self.content if isinstance(b, dict)]


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
        records, problem = parse_record_line(line, max_bytes=TRANSCRIPT_LINE_MAX_BYTES)
        if problem is not None:
            problems.append(TranscriptProblem(line_no, problem))
        for record in records:
            message = message_of(record, line_no, problems)
            if message is None:
                other += record.get("type") not in MESSAGE_TYPES
            else:
                messages.append(message)
    return Transcript(messages, problems, other)


def message_of(
    record: dict[str, Any], line_no: int, problems: list[TranscriptProblem]
) -> TranscriptMessage | None:
    """The message of a user/assistant record; None for other records and unusable ones."""
    if record.get("type") not in MESSAGE_TYPES:
        return None  # summary, file-history-snapshot, system records...
    msg = record.get("message")
    uuid = record_id(record.get("uuid"))
    if uuid is None:  # absent, or too long to be one (a session leaves out no such record)
        problems.append(
            TranscriptProblem(line_no, f"{record['type']} record without a 'uuid'; skipped")
        )
        return None
    if not isinstance(msg, dict) or not isinstance(msg.get("content"), (str, list)):
        problems.append(
            TranscriptProblem(line_no, f"{record['type']} record without message.content; skipped")
        )
        return None
    return TranscriptMessage(
        uuid=uuid,
        parent_uuid=record.get("parentUuid"),
        type=record["type"],
        role=str(msg.get("role") or record["type"]),
        content=msg["content"],
        timestamp=record.get("timestamp"),
        session_id=record.get("sessionId"),
        line_no=line_no,
        is_sidechain=bool(record.get("isSidechain")),
    )


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
        transcript.problems.append(TranscriptProblem(len(lines), too_large_note(res.cut_note())))
    return transcript


def too_large_note(cut: str) -> str:
    """What a transcript past read_transcript's cap lost, the cap, and what to do (lefts37: it
    said only how many bytes were read). The cap is the text and records held at once; the
    session model and a replay stream a transcript line by line up to SESSION_READ_MAX_BYTES."""
    cap = TRANSCRIPT_READ_MAX_BYTES // (1024 * 1024)
    return (
        f"{cut}; later records were not read: the extractor holds at most {cap} MiB of a "
        "transcript at once. Feed a longer one to ExtractionScheduler.on_transcript, which "
        f"reads it from its cursor, {cap} MiB a run, until it is all read; `memdir-nb replay` "
        "and ExtractionScheduler.replay_session read it whole "
        f"(up to {SESSION_READ_MAX_BYTES // (1024 * 1024 * 1024)} GiB)"
    )


_UUID = attrgetter("uuid")
_WRITING_TOOLS = WRITE_TOOLS | {"MultiEdit", "NotebookEdit"}
# A UTF-8 character is at most 4 bytes: a line of TRANSCRIPT_LINE_MAX_BYTES characters, the cap
# read_transcript's text applies, is at most this many bytes.
LINE_MAX_UTF8_BYTES = 4 * TRANSCRIPT_LINE_MAX_BYTES


def read_message_skeletons(path: str | os.PathLike[str]) -> list[TranscriptMessage]:
    """read_transcript's messages with only what a dry-run scheduler reads of them: ids, type,
    time and sidechain flag, and as content the main agent's writing tool calls, each reduced
    to its name and file_path (what memory_writes looks at). The file is streamed line by line,
    whole lines only, up to the session model's cap (SESSION_READ_MAX_BYTES), as the replay's
    turns are: under read_transcript's cap (64 MiB) a replay of a longer session showed its
    later turns with no message, and the extractor doing nothing (lefts37). A skeleton holds no
    content, so the longer read keeps little.

    A replay's extractor only records (reports.replay); read_transcript held the transcript's
    text, its lines and every record's content for the whole replay: 341 MB of a 116 MB
    transcript of 4,800 turns with 20 KB tool results (thirty-third session)."""
    return list(iter_message_skeletons(path))


def iter_message_skeletons(path: str | os.PathLike[str]) -> Iterator[TranscriptMessage]:
    """read_message_skeletons, one message at a time (extract.message_stream keeps only the
    messages a replay's scheduler still needs)."""
    return (_skeleton(m) for m in iter_messages(path))


class _Dropped(list[TranscriptProblem]):
    """Where the problems go when no one asked for them: nowhere (a 1 GiB read keeps none)."""

    def append(self, _problem: TranscriptProblem, /) -> None:
        return None


def iter_messages(
    path: str | os.PathLike[str], problems: list[TranscriptProblem] | None = None
) -> Iterator[TranscriptMessage]:
    """read_transcript's messages, whole, one at a time: the file streamed line by line up to
    the session model's cap (SESSION_READ_MAX_BYTES), whole lines only, each decoded as
    read_transcript's text is. problems (when given) gets what read_transcript's would: a bad
    line, a record without a uuid, a line past its cap, and a transcript cut at the cap.

    ExtractionScheduler.replay_session reads its messages so (lefts37b): under read_transcript's
    64 MiB its later turns had none; what it holds is the messages from its cursor on."""
    said = _Dropped() if problems is None else problems
    total = 0
    for line in iter_lines(
        path, max_line_bytes=LINE_MAX_UTF8_BYTES, max_total_bytes=SESSION_READ_MAX_BYTES
    ):
        total += line.size
        if total > SESSION_READ_MAX_BYTES:  # whole lines of the cap, as the session model
            cap = SESSION_READ_MAX_BYTES // (1024 * 1024 * 1024)
            said.append(
                TranscriptProblem(
                    line.line_no, f"the transcript is past {cap} GiB; later records were not read"
                )
            )
            break
        if line.data is None:
            said.append(
                TranscriptProblem(
                    line.line_no,
                    f"a line of {line.size:,} bytes, over the {LINE_MAX_UTF8_BYTES:,}-byte cap "
                    "of one record; skipped",
                )
            )
            continue
        if not line.data.strip():
            continue
        text = line.data.decode("utf-8", "replace")  # as read_transcript's text decodes it
        records, problem = parse_record_line(text, max_bytes=TRANSCRIPT_LINE_MAX_BYTES)
        if problem is not None:
            said.append(TranscriptProblem(line.line_no, problem))
        for record in records:
            message = message_of(record, line.line_no, said)
            if message is not None:
                yield message


def _skeleton(message: TranscriptMessage) -> TranscriptMessage:
    """message with its content reduced to its writing tool calls' names and file_paths."""
    calls: list[dict[str, Any]] = []
    if message.type == "assistant" and not message.is_sidechain:
        for b in message.blocks():
            name, given = b.get("name"), b.get("input")
            if b.get("type") == "tool_use" and isinstance(name, str) and name in _WRITING_TOOLS:
                path = given.get("file_path") if isinstance(given, dict) else None
                calls.append({"type": "tool_use", "name": name, "input": {"file_path": path}})
    return TranscriptMessage(
        uuid=message.uuid,
        parent_uuid=None,
        type=message.type,
        role=message.type,  # a role or time of any JSON shape is not held for the whole replay
        content=calls,
        timestamp=message.timestamp if isinstance(message.timestamp, str) else None,
        session_id=None,
        line_no=message.line_no,
        is_sidechain=message.is_sidechain,
    )


def messages_since(
    messages: Sequence[TranscriptMessage], since_uuid: str | None
) -> list[TranscriptMessage]:
    """Messages after the one with `since_uuid`; all of them when it is None or no longer present."""
    if since_uuid is not None:
        try:  # the first one with that uuid, found at C speed (a replay asks at every turn)
            i = list(map(_UUID, messages)).index(since_uuid)
        except ValueError:
            return list(messages)
        return list(messages[i + 1 :])
    return list(messages)


def memory_writes(
    messages: Iterable[TranscriptMessage],
    memory_dir: str | os.PathLike[str],
    *,
    other_keys: Sequence[str] = (),
) -> list[str]:
    """file_paths of the main agent's Write/Edit tool calls that target the memory dir.

    Subagent (sidechain) records are left out: the main agent did not write those. Which
    paths are in the memory dir is decided as the replay's rebuild of the dir decides it
    (formats.memory_timeline.MemoryPaths): a Windows path counts only when it points into
    the dir's own project folder, and a relative path is never joined onto the memory dir.
    other_keys: keys besides the dir's own whose memory paths are this dir (a moved home's
    old key, home.moved_home.former_keys).
    """
    paths = MemoryPaths(memory_dir, other_keys=other_keys)
    found = []
    for m in messages:
        if m.type != "assistant" or m.is_sidechain:  # a subagent's write is not the main agent's
            continue
        for b in m.blocks():
            name = b.get("name")  # any JSON value in a hostile transcript: a list is unhashable
            if b.get("type") == "tool_use" and isinstance(name, str) and name in _WRITING_TOOLS:
                path = (
                    (b.get("input") or {}).get("file_path")
                    if isinstance(b.get("input"), dict)
                    else None
                )
                if isinstance(path, str) and paths.relative(path) is not None:
                    found.append(path)
    return found


def has_memory_writes_since(
    messages: Sequence[TranscriptMessage],
    since_uuid: str | None,
    memory_dir: str | os.PathLike[str],
    *,
    other_keys: Sequence[str] = (),
) -> bool:
    """True when the main agent wrote into the memory dir after the cursor (so extraction skips).

    other_keys: the keys besides the dir's own whose memory paths are this dir, as
    memory_writes takes them: a moved home's former keys (home.moved_home.former_keys, which
    ExtractionScheduler.moved_from holds), so a write the session recorded under the key its
    project had then counts."""
    new = messages_since(messages, since_uuid)
    return bool(memory_writes(new, memory_dir, other_keys=other_keys))


def without_copies(
    session: Session, messages: Sequence[TranscriptMessage]
) -> list[TranscriptMessage]:
    """The messages less the history the CLI wrote again (Session.copied_uuids, and a record
    written a second time under its own uuid, kept where it was first written) and the answers
    it took back after a model refused (Session.retracted_uuids): a live session never held
    the first twice and removed the second, so its extractor never saw either as new."""
    gone, seen = session.copied_uuids | session.retracted_uuids, set()
    kept = []
    for m in messages:
        if m.uuid not in gone and m.uuid not in seen:
            seen.add(m.uuid)
            kept.append(m)
    return kept


class MessagesUpTo(Sequence[TranscriptMessage]):
    """The first `end` messages of a tuple, as a sequence that copies none of them: the
    conversation as it stood at one turn end. A replay hands one to the scheduler at each turn;
    a copy of the prefix per turn made a replay cost the square of its length (64,000 records:
    23 s, attack round 22)."""

    __slots__ = ("_end", "_messages")

    def __init__(self, messages: tuple[TranscriptMessage, ...], end: int) -> None:
        self._messages = messages
        self._end = max(0, min(end, len(messages)))

    def __len__(self) -> int:
        return self._end

    def __iter__(self) -> Iterator[TranscriptMessage]:
        return islice(self._messages, self._end)

    @overload
    def __getitem__(self, index: int) -> TranscriptMessage: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[TranscriptMessage, ...]: ...

    def __getitem__(self, index: int | slice) -> TranscriptMessage | tuple[TranscriptMessage, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._end)
            if step == 1:
                return self._messages[start:stop]
            return tuple(self._messages[i] for i in range(start, stop, step))
        return self._messages[range(self._end)[index]]  # IndexError past the end, as a tuple


def turn_prefixes(
    session: Session, messages: Sequence[TranscriptMessage]
) -> Iterator[MessagesUpTo]:
    """The messages as they stood at each turn end of the session model (turn_message_ends),
    each a view of one tuple of them, none copied."""
    whole = tuple(messages)
    for end in turn_message_ends(session, whole):
        yield MessagesUpTo(whole, end)


def turn_message_ends(session: Session, messages: Sequence[TranscriptMessage]) -> list[int]:
    """For each turn of the session model, how many messages run up to its end.

    messages[:n] is the conversation as it stood when that turn ended, the prefix a scheduler
    is handed at each turn end. A turn whose last record is not among the messages ends where
    the turn before it ended.
    """
    index = {m.uuid: i for i, m in enumerate(messages)}
    ends: list[int] = []
    for turn in session.turns:
        at = index.get(turn.last_uuid or "") if turn.last_uuid else None
        previous = ends[-1] if ends else 0
        ends.append(max(previous, at + 1) if at is not None else previous)
    return ends
