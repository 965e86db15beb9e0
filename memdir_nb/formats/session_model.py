"""A Claude Code session as turns: one per real prompt, with its responses and tool calls.

:class:`SessionBuilder` takes records one at a time (the reader streams them from disk, see
memdir_nb.home.sessions.read_session) and keeps only what the model needs, each string capped
(spec.constants SESSION_*), so its memory follows the number of records and never their size.

- A turn starts at each real prompt (formats.transcript_records.classify_user), or at a new
  ``promptId`` where the CLI writes one. Tool results, meta notes, interrupts and queue
  records belong to the turn that is running. Bash-mode (``!``) input and built-in commands
  (``/clear``, ``/mcp``...) run between turns; they are listed on the next turn.
- Assistant records that share ``message.id`` are one response (the CLI writes one record per
  content block). Tool calls pair with their results by ``tool_use_id``, never by position.
- Records whose ``isSidechain`` differs from the file's first message are an inline subagent
  (1.0.x); their tool calls go to ``Turn.sidechain_calls``.
- A file that starts mid-session (tool results before any prompt) gets a first turn of kind
  ``continuation`` with an empty prompt.
"""

from __future__ import annotations

import datetime as _dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.transcript_records import TranscriptProblem
from memdir_nb.spec.constants import (
    SESSION_MAX_PROBLEMS,
    SESSION_PROMPT_MAX_CHARS,
    SESSION_TOOL_INPUT_MAX_CHARS,
    SESSION_TOOL_RESULT_MAX_CHARS,
)


def _cap(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit] + " [...]"


def _cap_value(value: object, depth: int = 0) -> object:
    """A tool input with every string capped (and nesting cut at 6 levels)."""
    if isinstance(value, str):
        return _cap(value, SESSION_TOOL_INPUT_MAX_CHARS)
    if depth >= 6:
        return None
    if isinstance(value, dict):
        return {str(k): _cap_value(v, depth + 1) for k, v in list(value.items())[:64]}
    if isinstance(value, list):
        return [_cap_value(v, depth + 1) for v in value[:64]]
    return value


def timestamp_ms(stamp: str | None) -> float | None:
    """Milliseconds since the epoch of an ISO-8601 timestamp, or None when it cannot be read."""
    if not isinstance(stamp, str) or not stamp:
        return None
    try:
        moment = _dt.datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.UTC)
    return moment.timestamp() * 1000.0


def _whole_read(file: Mapping[str, Any]) -> bool:
    """Whether a Read result holds the whole file (not one page of it)."""
    total, lines = file.get("totalLines"), file.get("numLines")
    start = file.get("startLine", 1)
    return total is None or (start in (None, 1) and lines == total)


@dataclass
class ToolCall:
    """One tool_use block and, once seen, its result (text preview, error flag, detail)."""

    id: str
    name: str
    input: dict[str, Any]
    line_no: int
    timestamp: str | None = None
    is_sidechain: bool = False
    has_result: bool = False
    result: str = ""
    is_error: bool = False
    result_type: str | None = None  # toolUseResult.type: "create", "update", "text"...
    original_file: str | None = None  # toolUseResult.originalFile(Contents), when short enough

    @property
    def succeeded(self) -> bool:
        """A result was seen and it was not an error (a rejected or failed call changed nothing)."""
        return self.has_result and not self.is_error


@dataclass
class AssistantResponse:
    """One API response: every record that shares its message.id."""

    message_id: str
    model: str | None
    line_no: int
    text: str = ""
    thinking_blocks: int = 0
    tool_calls: list[ToolCall] = field(default_factory=list)
    records: int = 0

    @property
    def synthetic(self) -> bool:
        """A harness-made record (model '<synthetic>': 'No response requested.', API errors)."""
        return self.model == "<synthetic>"


@dataclass
class Turn:
    """One real prompt and everything the agent did for it."""

    index: int
    prompt: str
    kind: str  # "prompt" | "slash_command" | "continuation"
    line_no: int
    timestamp: str | None = None
    prompt_id: str | None = None
    uuid: str | None = None
    responses: list[AssistantResponse] = field(default_factory=list)
    sidechain_calls: list[ToolCall] = field(default_factory=list)
    interrupted: bool = False
    queued: bool = False  # the prompt itself was typed while the agent worked (dequeued)
    queued_prompts: list[str] = field(default_factory=list)  # absorbed into this running turn
    bash_commands: list[str] = field(default_factory=list)  # `!` commands run before it
    local_commands: list[str] = field(default_factory=list)  # /clear, /mcp... run before it
    notifications: int = 0  # background-task notifications that arrived during it
    images: int = 0
    last_uuid: str | None = None  # the last user/assistant record of the turn (main thread)
    end_timestamp: str | None = None

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The main agent's tool calls, in order."""
        return [c for r in self.responses for c in r.tool_calls]

    @property
    def tools_used(self) -> list[str]:
        """Names of the main agent's tools, first use order, each once."""
        return list(dict.fromkeys(c.name for c in self.tool_calls))

    @property
    def bash_mode(self) -> bool:
        """The user ran `!` commands before this prompt."""
        return bool(self.bash_commands)

    @property
    def local_command(self) -> bool:
        """The user ran built-in commands before this prompt (or the prompt is one)."""
        return bool(self.local_commands) or self.kind == "slash_command"

    @property
    def has_queued_prompt(self) -> bool:
        """Text typed while the agent worked is part of this turn."""
        return self.queued or bool(self.queued_prompts)

    @property
    def timestamp_ms(self) -> float | None:
        """The prompt's time in milliseconds since the epoch (None when unknown)."""
        return timestamp_ms(self.timestamp)

    @property
    def flags(self) -> list[str]:
        """Short labels for the turn's flags, for tables."""
        marks = [
            ("interrupted", self.interrupted),
            ("queued", self.has_queued_prompt),
            ("bash", self.bash_mode),
            ("command", self.local_command),
            ("images", self.images > 0),
            ("continuation", self.kind == "continuation"),
        ]
        return [name for name, on in marks if on]


@dataclass(frozen=True)
class CompactionPoint:
    """Where the context was compacted, or a title line of the old `summary` kind."""

    kind: str  # "summary_title" | "compact_boundary" | "compact_summary" | "microcompact"
    line_no: int
    before_turn: int  # index of the next turn (= number of turns before it)
    timestamp: str | None = None
    trigger: str | None = None
    pre_tokens: int | None = None
    text: str = ""


@dataclass
class Session:
    """A transcript file read as a session; see the module docstring."""

    path: str = ""
    session_id: str | None = None
    cwd: str | None = None
    git_branch: str | None = None
    version: str | None = None
    versions: list[str] = field(default_factory=list)
    slug: str | None = None
    is_sidechain: bool = False
    agent_id: str | None = None
    turns: list[Turn] = field(default_factory=list)
    compactions: list[CompactionPoint] = field(default_factory=list)
    images: int = 0
    problems: list[TranscriptProblem] = field(default_factory=list)
    more_problems: int = 0  # problems beyond SESSION_MAX_PROBLEMS, counted only
    lines: int = 0
    bytes_read: int = 0
    record_counts: dict[str, int] = field(default_factory=dict)
    sidechain_records: int = 0
    first_timestamp: str | None = None
    last_timestamp: str | None = None

    @property
    def titles(self) -> list[str]:
        """The short titles of old-style `summary` records."""
        return [c.text for c in self.compactions if c.kind == "summary_title"]

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Every main-agent tool call of the session, in order."""
        return [c for t in self.turns for c in t.tool_calls]


class SessionBuilder:
    """Builds a Session from records fed one at a time (see the module docstring)."""

    def __init__(self, path: str = "") -> None:
        self.session = Session(path=path)
        self._main_sidechain: bool | None = None
        self._calls: dict[str, ToolCall] = {}
        self._responses: dict[str, AssistantResponse] = {}
        self._pending_bash: list[str] = []
        self._pending_local: list[str] = []
        self._enqueued: list[str] = []
        self._next_queued = False

    # -- input -------------------------------------------------------------------------------

    def problem(self, line_no: int, reason: str) -> None:
        """Record a bad line (the first SESSION_MAX_PROBLEMS are kept, the rest counted)."""
        s = self.session
        if len(s.problems) < SESSION_MAX_PROBLEMS:
            s.problems.append(TranscriptProblem(line_no, reason))
        else:
            s.more_problems += 1

    def feed(self, record: Mapping[str, Any], line_no: int) -> None:
        """Take one record; unknown types are counted and otherwise ignored."""
        kind = record.get("type")
        kind = kind if isinstance(kind, str) else "?"
        counts = self.session.record_counts
        counts[kind] = counts.get(kind, 0) + 1
        self._note_time(record.get("timestamp"))
        if kind in ("user", "assistant"):
            self._facts(record)
            if bool(record.get("isSidechain")) != self._main_sidechain:
                self._sidechain(record, line_no)
            elif kind == "user":
                self._user(record, line_no)
            else:
                self._assistant(record, line_no)
        elif kind == "summary":
            text = record.get("summary")
            self._compaction("summary_title", line_no, record, text=str(text or ""))
        elif kind == "system":
            self._system(record, line_no)
        elif kind == "queue-operation":
            self._queue(record)
        elif kind == "attachment":
            self._attachment(record)

    def finish(self) -> Session:
        """The session, with commands run after the last prompt listed on the last turn."""
        s = self.session
        if s.turns:
            s.turns[-1].bash_commands.extend(self._pending_bash)
            s.turns[-1].local_commands.extend(self._pending_local)
            self._pending_bash, self._pending_local = [], []
        return s

    # -- facts -------------------------------------------------------------------------------

    def _note_time(self, stamp: object) -> None:
        if isinstance(stamp, str) and stamp:
            s = self.session
            if s.first_timestamp is None:
                s.first_timestamp = stamp
            if s.last_timestamp is None or stamp > s.last_timestamp:
                s.last_timestamp = stamp

    def _facts(self, record: Mapping[str, Any]) -> None:
        s = self.session
        if self._main_sidechain is None:
            self._main_sidechain = bool(record.get("isSidechain"))
            s.is_sidechain = self._main_sidechain
        for attr, key in (
            ("session_id", "sessionId"),
            ("cwd", "cwd"),
            ("git_branch", "gitBranch"),
            ("slug", "slug"),
        ):
            value = record.get(key)
            if getattr(s, attr) is None and isinstance(value, str):
                setattr(s, attr, value)
        version = record.get("version")
        if isinstance(version, str) and version not in s.versions and len(s.versions) < 32:
            s.versions.append(version)
            s.version = s.version or version
        agent = record.get("agentId")
        if s.is_sidechain and s.agent_id is None and isinstance(agent, str):
            s.agent_id = agent

    # -- turns -------------------------------------------------------------------------------

    def _current(self, line_no: int, record: Mapping[str, Any]) -> Turn:
        """The running turn; a file that starts mid-session gets a continuation turn."""
        if not self.session.turns:
            self._start_turn("", "continuation", line_no, record)
        return self.session.turns[-1]

    def _start_turn(self, prompt: str, kind: str, line_no: int, record: Mapping[str, Any]) -> Turn:
        s = self.session
        pid = record.get("promptId")
        turn = Turn(
            index=len(s.turns),
            prompt=_cap(prompt, SESSION_PROMPT_MAX_CHARS),
            kind=kind,
            line_no=line_no,
            timestamp=record.get("timestamp") if isinstance(record.get("timestamp"), str) else None,
            prompt_id=pid if isinstance(pid, str) else None,
            uuid=record.get("uuid") if isinstance(record.get("uuid"), str) else None,
            bash_commands=self._pending_bash,
            local_commands=self._pending_local,
            queued=self._next_queued,
        )
        self._pending_bash, self._pending_local, self._next_queued = [], [], False
        self._responses = {}
        s.turns.append(turn)
        return turn

    def _touch(self, turn: Turn, record: Mapping[str, Any]) -> None:
        uuid = record.get("uuid")
        if isinstance(uuid, str):
            turn.last_uuid = uuid
        stamp = record.get("timestamp")
        if isinstance(stamp, str):
            turn.end_timestamp = stamp

    def _user(self, record: Mapping[str, Any], line_no: int) -> None:
        kind = tr.classify_user(record)
        content = (
            record.get("message", {}).get("content")
            if isinstance(record.get("message"), dict)
            else None
        )
        images = tr.count_images(content)
        self.session.images += images
        if kind in (tr.PROMPT, tr.SLASH_COMMAND):
            self._prompt(record, line_no, kind, content, images)
            return
        if kind == tr.BASH_INPUT:
            self._pending_bash.append(
                _cap((tr.tag_value(tr.content_text(content), "bash-input") or "").strip(), 500)
            )
            return
        if kind == tr.LOCAL_COMMAND:
            self._pending_local.append(_cap(tr.command_line(tr.content_text(content)), 500))
            return
        if kind in (tr.BASH_OUTPUT, tr.LOCAL_COMMAND_OUTPUT, tr.META, tr.EMPTY):
            return
        if kind == tr.COMPACT_SUMMARY:
            self._compaction("compact_summary", line_no, record, text=tr.content_text(content))
            return
        turn = self._current(line_no, record)
        turn.images += images
        self._touch(turn, record)
        if kind == tr.INTERRUPT:
            turn.interrupted = True
        elif kind == tr.TASK_NOTIFICATION:
            turn.notifications += 1
        elif kind == tr.TOOL_RESULT:
            self._results(record, content, turn)

    def _prompt(
        self, record: Mapping[str, Any], line_no: int, kind: str, content: object, images: int
    ) -> None:
        s = self.session
        pid = record.get("promptId")
        running = s.turns[-1] if s.turns else None
        if running is not None and isinstance(pid, str) and pid == running.prompt_id:
            running.queued_prompts.append(_cap(tr.prompt_text(content), 2000))  # same prompt id
            running.images += images
            self._touch(running, record)
            return
        if kind == tr.SLASH_COMMAND:
            text = tr.command_line(tr.content_text(content))
            turn_kind = "slash_command"
        else:
            text, turn_kind = tr.prompt_text(content), "prompt"
        turn = self._start_turn(text, turn_kind, line_no, record)
        turn.images += images
        self._touch(turn, record)

    def _results(self, record: Mapping[str, Any], content: object, turn: Turn) -> None:
        detail = record.get("toolUseResult")
        blocks = [b for b in tr.content_blocks(content) if b.get("type") == "tool_result"]
        for block in blocks:
            call = self._calls.get(str(block.get("tool_use_id")))
            text = tr.block_text(block)
            if tr.is_interrupt_result(text):
                turn.interrupted = True
            if call is None:
                continue
            call.has_result = True
            call.result = _cap(text, SESSION_TOOL_RESULT_MAX_CHARS)
            call.is_error = bool(block.get("is_error"))
            if len(blocks) == 1 and isinstance(detail, dict):
                kind = detail.get("type")
                call.result_type = kind if isinstance(kind, str) else None
                original = detail.get("originalFile", detail.get("originalFileContents"))
                read = detail.get("file")
                if original is None and isinstance(read, dict) and _whole_read(read):
                    original = read.get("content")  # a Read of a whole file: its text then
                if isinstance(original, str) and len(original) <= SESSION_TOOL_INPUT_MAX_CHARS:
                    call.original_file = original
            elif len(blocks) == 1 and isinstance(detail, str) and detail.startswith("Error"):
                call.is_error = True

    def _assistant(self, record: Mapping[str, Any], line_no: int) -> None:
        message = record.get("message")
        if not isinstance(message, dict):
            self.problem(line_no, "assistant record without a message; skipped")
            return
        turn = self._current(line_no, record)
        self._touch(turn, record)
        mid = message.get("id")
        mid = mid if isinstance(mid, str) and mid else f"line-{line_no}"
        response = self._responses.get(mid)
        if response is None:
            model = message.get("model")
            response = AssistantResponse(mid, model if isinstance(model, str) else None, line_no)
            self._responses[mid] = response
            turn.responses.append(response)
        response.records += 1
        for call in self._blocks(message.get("content"), response, record, line_no, False):
            response.tool_calls.append(call)

    def _blocks(
        self,
        content: object,
        response: AssistantResponse | None,
        record: Mapping[str, Any],
        line_no: int,
        sidechain: bool,
    ) -> list[ToolCall]:
        calls = []
        for block in tr.content_blocks(content):
            kind = block.get("type")
            if kind == "tool_use":
                raw = block.get("input")
                call = ToolCall(
                    id=str(block.get("id") or f"line-{line_no}-{len(calls)}"),
                    name=str(block.get("name") or "?"),
                    input=_cap_value(raw) if isinstance(raw, dict) else {},  # type: ignore[arg-type]
                    line_no=line_no,
                    timestamp=record.get("timestamp")
                    if isinstance(record.get("timestamp"), str)
                    else None,
                    is_sidechain=sidechain,
                )
                self._calls[call.id] = call
                calls.append(call)
            elif response is None:
                continue
            elif kind == "text":
                text = tr.block_text(block)
                if text and len(response.text) < SESSION_TOOL_RESULT_MAX_CHARS:
                    joined = f"{response.text}\n{text}" if response.text else text
                    response.text = _cap(joined, SESSION_TOOL_RESULT_MAX_CHARS)
            elif kind in ("thinking", "redacted_thinking"):
                response.thinking_blocks += 1
        return calls

    def _sidechain(self, record: Mapping[str, Any], line_no: int) -> None:
        """An inline subagent record (1.0.x): its tool calls and results, kept apart."""
        self.session.sidechain_records += 1
        if not self.session.turns:
            return
        turn = self.session.turns[-1]
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "assistant":
            turn.sidechain_calls.extend(self._blocks(content, None, record, line_no, True))
        else:
            self._results(record, content, turn)

    # -- other records -----------------------------------------------------------------------

    def _compaction(
        self, kind: str, line_no: int, record: Mapping[str, Any], *, text: str = ""
    ) -> None:
        meta = record.get("compactMetadata") or record.get("microcompactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        pre = meta.get("preTokens")
        stamp = record.get("timestamp")
        self.session.compactions.append(
            CompactionPoint(
                kind=kind,
                line_no=line_no,
                before_turn=len(self.session.turns),
                timestamp=stamp if isinstance(stamp, str) else None,
                trigger=meta.get("trigger") if isinstance(meta.get("trigger"), str) else None,
                pre_tokens=pre if isinstance(pre, int) else None,
                text=_cap(text, 500),
            )
        )

    def _system(self, record: Mapping[str, Any], line_no: int) -> None:
        sub = record.get("subtype")
        if sub == "compact_boundary":
            self._compaction("compact_boundary", line_no, record)
        elif sub == "microcompact_boundary":
            self._compaction("microcompact", line_no, record)
        elif sub == "local_command":
            text = record.get("content")
            if isinstance(text, str) and text.lstrip().startswith("<command-name>"):
                self._pending_local.append(_cap(tr.command_line(text), 500))

    def _queue(self, record: Mapping[str, Any]) -> None:
        op, text = record.get("operation"), record.get("content")
        if op == "enqueue" and isinstance(text, str):
            self._enqueued.append(text)
        elif op == "remove" and self._enqueued:
            gone = text if isinstance(text, str) and text in self._enqueued else self._enqueued[0]
            self._enqueued.remove(gone)
            if self.session.turns and gone not in self.session.turns[-1].queued_prompts:
                self.session.turns[-1].queued_prompts.append(_cap(gone, 2000))
        elif op == "dequeue" and self._enqueued:
            self._enqueued.pop(0)
            self._next_queued = True
        elif op == "popAll":
            self._enqueued.clear()

    def _attachment(self, record: Mapping[str, Any]) -> None:
        att = record.get("attachment")
        if not isinstance(att, dict) or att.get("type") != "queued_command":
            return
        text = att.get("prompt")
        if isinstance(text, str) and self.session.turns:
            queued = self.session.turns[-1].queued_prompts
            if text not in queued:
                queued.append(_cap(text, 2000))


def build_session(records: Iterable[tuple[int, Mapping[str, Any]]], path: str = "") -> Session:
    """A Session from (line number, record) pairs already parsed."""
    builder = SessionBuilder(path)
    for line_no, record in records:
        builder.feed(record, line_no)
    return builder.finish()
