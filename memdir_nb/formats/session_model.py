"""A Claude Code session as turns: one per real prompt, with its responses and tool calls.

formats.session_builder.SessionBuilder takes records one at a time (the reader streams them from disk, see
memdir_nb.home.sessions.read_session) and keeps only what the model needs, each string capped
(spec.constants SESSION_*), so its memory follows the number of records and never their size.

- A turn starts at each real prompt (formats.transcript_records.classify_user), or at a new
  ``promptId`` where the CLI writes one. Tool results, meta notes, interrupts and queue
  records belong to the turn that is running. Bash-mode (``!``) input and built-in commands
  (``/clear``, ``/mcp``...) run between turns; they are listed on the next turn.
- Assistant records that share ``message.id`` are one response (the CLI writes one record per
  content block). Tool calls pair with their results by ``tool_use_id``, never by position.
- History the CLI wrote again (fresh uuids, original timestamps) is not read twice: each
  tool_use id counts once, and a repeated prompt record starts no turn (docs/sessions.md);
  nor is the VS Code 2.0.x resume's copy, at one new time (formats.session_rewrites).
- Records whose ``isSidechain`` differs from the file's first message are an inline subagent
  (1.0.x); their tool calls go to ``Turn.sidechain_calls``.
- A file that starts mid-session (tool results before any prompt) gets a first turn of kind
  ``continuation`` with an empty prompt.
"""

from __future__ import annotations

import datetime as _dt
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memdir_nb.formats.session_ledger import SessionLedger
from memdir_nb.formats.session_notices import SessionNotices
from memdir_nb.formats.transcript_attachments import (
    MEMORY_SAVED,
    OUTSIDE_EDIT,
    loaded_memory_indexes,
    outside_edit_path,
    recalled_memory_paths,
    saved_memory_paths,
)
from memdir_nb.formats.transcript_records import (
    COORDINATOR,
    PROMPT,
    TASK_NOTIFICATION,
    TranscriptProblem,
)
from memdir_nb.spec.constants import (
    SESSION_CLI_RECALLS_MAX,
    SESSION_NOTE_MAX_CHARS,
    SESSION_OTHER_RECORD_TYPES,
    SESSION_OUTSIDE_EDITS_MAX,
    SESSION_RECORD_TYPE_MAX_CHARS,
    SESSION_RECORD_TYPES_MAX,
)
from memdir_nb.spec.text import cap_text


def cap_value(value: object, limit: int, depth: int = 0) -> object:
    """A tool input with every string cut to `limit` characters (and nesting cut at 6 levels)."""
    if isinstance(value, str):
        return cap_text(value, limit)
    if depth >= 6:
        return None
    if isinstance(value, dict):
        return {str(k): cap_value(v, limit, depth + 1) for k, v in list(value.items())[:64]}
    if isinstance(value, list):
        return [cap_value(v, limit, depth + 1) for v in value[:64]]
    return value


MEMORY_PATH_MARKS = ("/memory/", "/memories/")


def mentions_memory(tool: str, tool_input: Mapping[str, Any]) -> bool:
    """Whether a tool call may touch a memory dir: the memory tool, or a memory-looking path.

    Only such calls keep their whole text (a Write's content, an Edit's original file), so a
    session's memory follows the number of its records, not the size of what they carried.
    """
    if tool == "memory":
        return True
    return any(
        isinstance(v, str) and any(mark in v for mark in MEMORY_PATH_MARKS)
        for v in tool_input.values()
    )


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
    cwd: str | None = None  # the record's cwd: where a Bash call's relative paths start

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
    retracted: bool = False  # taken back after the model refused (formats.session_refusals)

    @property
    def synthetic(self) -> bool:
        """A harness-made record (model '<synthetic>': 'No response requested.', API errors)."""
        return self.model == "<synthetic>"


@dataclass
class Turn:
    """One real prompt and everything the agent did for it."""

    index: int
    prompt: str
    # "prompt" | "slash_command" | "bash" (a `!` command answered) | "continuation" |
    # "scheduled" (a prompt the user scheduled, sent when it fired) | "channel" (a message a
    # person sent through an MCP channel)
    kind: str
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
    api_errors: list[str] = field(default_factory=list)  # failed API calls' texts, each once
    images: int = 0
    last_uuid: str | None = None  # the last user/assistant record of the turn (main thread)
    end_timestamp: str | None = None
    refusals: list[str] = field(default_factory=list)  # a model refused: what the CLI did next
    # files the CLI said changed outside the agent's file tools while it ran (`edited_text_file`),
    # as pseudo calls named OUTSIDE_EDIT: the memory timeline's changes of unknown text
    outside_edits: list[ToolCall] = field(default_factory=list)
    # memory files the CLI's own recall surfaced in this turn (`relevant_memories`), as written
    cli_recalled: list[str] = field(default_factory=list)

    @property
    def tool_calls(self) -> list[ToolCall]:
        """The main agent's tool calls, in order; a retracted response's only where they ran."""
        return [c for r in self.responses for c in r.tool_calls if c.has_result or not r.retracted]

    @property
    def tools_used(self) -> list[str]:
        """Names of the main agent's tools, first use order, each once."""
        return list(dict.fromkeys(c.name for c in self.tool_calls))

    @property
    def answered(self) -> bool:
        """The agent's last response so far called no tool: its answer, which ends the turn."""
        standing = [r for r in self.responses if not r.retracted]
        return bool(standing) and not standing[-1].tool_calls

    @property
    def bash_mode(self) -> bool:
        """The user ran `!` commands before this prompt."""
        return bool(self.bash_commands)

    @property
    def local_command(self) -> bool:
        """The user ran built-in commands before this prompt (or the prompt is one)."""
        return bool(self.local_commands) or self.kind == "slash_command"

    @property
    def api_error_only(self) -> bool:
        """The API failed and the model never answered ("Credit balance is too low"): every
        response is harness-made (model '<synthetic>') or taken back after a refusal, and an
        API error was recorded."""
        return bool(self.api_errors) and all(r.synthetic or r.retracted for r in self.responses)

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
            ("scheduled", self.kind == "scheduled"),
            ("channel", self.kind == "channel"),
            ("api_error", self.api_error_only),
            ("refused", bool(self.refusals)),
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


COMPACTION_AGENT_PREFIX = (
    "acompact"  # agentId of the CLI's compaction agent (agent-acompact-*.jsonl)
)
# agentId of the CLI's prompt-suggestion agent (agent-aprompt_suggestion-*.jsonl, 2.1.2x): it
# guesses what the user will type next; its prompt is the CLI's "[SUGGESTION MODE: ...]".
SUGGESTION_AGENT_PREFIX = "aprompt_suggestion"


# agentId of the agent `/btw` asks a side question with (agent-aside_question-*.jsonl). It stays
# a subagent: its prompt holds what the user typed.
SIDE_QUESTION_AGENT_PREFIX = "aside_question"


def given_the_conversation(agent_id: str) -> bool:
    """Whether the CLI hands this agent the whole conversation before its own instruction: the
    compaction, prompt-suggestion and side-question agents. 2.1.8x writes that conversation
    into the agent's file (the parent's records, uuids and times kept) ahead of the one prompt
    that is the agent's; later versions write the prompt alone."""
    return cli_agent_kind(agent_id) is not None or _cli_agent(agent_id, SIDE_QUESTION_AGENT_PREFIX)


_HEX_ID = re.compile(r"[0-9a-f]{1,64}")


def _cli_agent(agent_id: str, prefix: str) -> bool:
    """Whether agent_id is `<prefix>-<hex>`, the id the CLI gives its own agent of that kind.
    2.1.25x gives a named agent or teammate `a<name>-<16 hex>`, so a name that starts like one
    of the CLI's kinds (`compact-audit`: `acompact-audit-…`) is still the user's agent."""
    kind, dash, rest = agent_id.partition("-")
    return kind == prefix and bool(dash) and _HEX_ID.fullmatch(rest) is not None


def cli_agent_kind(agent_id: str) -> str | None:
    """'compaction' or 'suggestion' for an agentId of one of the CLI's own agents (whose
    prompt is the CLI's instruction, not a task the user's agent handed over), else None."""
    if _cli_agent(agent_id, COMPACTION_AGENT_PREFIX):
        return "compaction"
    if _cli_agent(agent_id, SUGGESTION_AGENT_PREFIX):
        return "suggestion"
    return None


# The compaction points after which the conversation's earlier messages are gone, attachments
# included. Claude Code counts what recall has surfaced, and the bytes it has injected, by
# scanning the conversation's messages for relevant_memories attachments, so both start over
# here. A microcompaction only clears old tool output in place, and a `summary` title line
# names a session; neither drops an attachment.
CONTEXT_RESET_KINDS = frozenset({"compact_boundary", "compact_summary"})


# The session facts read from the envelope of its records: (Session attribute, record key).
ENVELOPE_FACTS: tuple[tuple[str, str], ...] = (
    ("session_id", "sessionId"),
    ("cwd", "cwd"),
    ("git_branch", "gitBranch"),
    ("slug", "slug"),
)


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
    pane_teammate: bool = False  # a top-level file whose records name a teammate and its team
    turns: list[Turn] = field(default_factory=list)
    compactions: list[CompactionPoint] = field(default_factory=list)
    images: int = 0
    problems: list[TranscriptProblem] = field(default_factory=list)
    more_problems: int = 0  # problems beyond SESSION_MAX_PROBLEMS, counted only
    lines: int = 0
    bytes_read: int = 0
    record_counts: dict[str, int] = field(default_factory=dict)
    sidechain_records: int = 0
    copied_records: int = 0  # user/assistant records of history written again (not read twice)
    copied_uuids: set[str] = field(default_factory=set)  # their uuids, to leave them out elsewhere
    # records of answers the CLI took back after a refusal (formats.session_refusals)
    retracted_uuids: set[str] = field(default_factory=set)
    forked_from: str | None = None  # the parent session a `/fork` copied records from (also copied)
    first_timestamp: str | None = None
    last_timestamp: str | None = None
    ai_titles: list[str] = field(default_factory=list)  # `ai-title` records, each text once
    custom_titles: list[str] = field(default_factory=list)  # `custom-title` (/rename), each once
    # the latest of each (a title written again, or back to an older one, is the one now), and
    # the last old-style summary title that is the session's own (formats.session_compactions)
    custom_title: str | None = None
    ai_title: str | None = None
    summary_title: str | None = None
    # the memory indexes the CLI says it loaded (2.1.25x `instructions` notes), each once, at most 8
    memory_indexes: list[str] = field(default_factory=list)
    # recaps, informational lines and mode records (formats.session_notices): never turns
    notices: SessionNotices = field(default_factory=SessionNotices)
    ledger: SessionLedger = field(default_factory=SessionLedger)  # formats.session_ledger
    last_typed: str | None = None  # the last prompt typed: a turn's (kind "prompt") or queued
    unanswered: list[str] = field(default_factory=list)  # typed, queued, no turn began for them
    unanswered_more: int = 0  # more of them than the queue kept (formats.session_queue)

    outside_edit_count: int = (
        0  # `edited_text_file` notes kept on turns (SESSION_OUTSIDE_EDITS_MAX)
    )

    def note_outside_edit(
        self, path: str | None, line_no: int, stamp: object, by: str = OUTSIDE_EDIT
    ) -> None:
        """A file the CLI said changed on disk outside the agent's file tools (`by`: an
        `edited_text_file` note, or MEMORY_SAVED for its background memory agents), kept on the
        running turn (at most SESSION_OUTSIDE_EDITS_MAX in a session; none before a prompt)."""
        if path is None or not self.turns or self.outside_edit_count >= SESSION_OUTSIDE_EDITS_MAX:
            return
        self.outside_edit_count += 1
        when = stamp if isinstance(stamp, str) else None
        call = ToolCall("", by, {"file_path": path}, line_no, when, has_result=True)
        self.turns[-1].outside_edits.append(call)

    def note_memory_saved(self, record: Mapping[str, Any], line_no: int) -> None:
        """A `memory_saved` system record: each file the CLI's extractor or dream wrote is a
        change of unknown text at this point (their own calls are in no transcript)."""
        for path in saved_memory_paths(record):
            self.note_outside_edit(path, line_no, record.get("timestamp"), by=MEMORY_SAVED)

    cli_recall_count: int = 0  # paths kept on turns from `relevant_memories` records

    def note_attachment(self, attachment: object, line_no: int, stamp: object) -> None:
        """What an `attachment` record tells (formats.transcript_attachments): the memory
        indexes loaded, a file changed outside the agent's tools, the CLI's own recall."""
        self.note_memory_indexes(loaded_memory_indexes(attachment))
        self.note_outside_edit(outside_edit_path(attachment), line_no, stamp)
        self.note_cli_recall(recalled_memory_paths(attachment))

    def note_cli_recall(self, paths: list[str]) -> None:
        """Memory files the CLI's own recall surfaced, kept on the running turn, each once
        (at most SESSION_CLI_RECALLS_MAX in a session; none before a prompt)."""
        if not self.turns:
            return
        kept = self.turns[-1].cli_recalled
        for path in paths:
            if self.cli_recall_count >= SESSION_CLI_RECALLS_MAX:
                return
            if path not in kept:
                kept.append(path)
                self.cli_recall_count += 1

    def note_api_error(self, text: str | None) -> None:
        """A failed API call's text (an isApiErrorMessage reply or a system/api_error retry
        record) on the running turn: each retry writes one, kept once, at most 8."""
        if text is None or not self.turns:
            return
        errors, text = self.turns[-1].api_errors, cap_text(text, SESSION_NOTE_MAX_CHARS)
        if text not in errors and len(errors) < 8:
            errors.append(text)

    def note_record_type(self, kind: str) -> None:
        """Count one record of type kind: each of the first SESSION_RECORD_TYPES_MAX types (of
        at most SESSION_RECORD_TYPE_MAX_CHARS) on its own, any other under
        SESSION_OTHER_RECORD_TYPES, so a crafted file of a million distinct types keeps a few
        dozen counts, adding up all the same."""
        counts = self.record_counts
        if len(kind) > SESSION_RECORD_TYPE_MAX_CHARS or (
            kind not in counts and len(counts) >= SESSION_RECORD_TYPES_MAX
        ):
            kind = SESSION_OTHER_RECORD_TYPES
        counts[kind] = counts.get(kind, 0) + 1

    def note_title(self, record: Mapping[str, Any]) -> None:
        """An `ai-title` or `custom-title` (/rename) record, often written again; kept once."""
        custom = record.get("type") == "custom-title"
        titles = self.custom_titles if custom else self.ai_titles
        title = record.get("customTitle" if custom else "aiTitle")
        if not isinstance(title, str) or not title.strip():
            return
        title = cap_text(title, SESSION_NOTE_MAX_CHARS)
        if custom:
            self.custom_title = title
        else:
            self.ai_title = title
        if title not in titles and len(titles) < 32:
            titles.append(title)

    def note_memory_indexes(self, paths: list[str]) -> None:
        """Add the memory indexes an attachment says were loaded (each once, at most 8)."""
        for path in paths:
            if path not in self.memory_indexes and len(self.memory_indexes) < 8:
                self.memory_indexes.append(path)

    @property
    def is_compaction_agent(self) -> bool:
        """The transcript of the CLI's compaction agent (agentId 'acompact-...'): its prompt is
        the CLI's summarising instruction, not a task the user's agent handed a subagent."""
        return self.is_sidechain and cli_agent_kind(self.agent_id or "") == "compaction"

    @property
    def kind(self) -> str:
        """'main', 'teammate' (one run as a process of its own, in a tmux or iTerm2 pane),
        'subagent', or the CLI's own agent: 'compaction' or 'suggestion'."""
        if not self.is_sidechain:
            return "teammate" if self.pane_teammate else "main"
        return cli_agent_kind(self.agent_id or "") or "subagent"

    @property
    def titles(self) -> list[str]:
        """The session's titles: the names the user gave it (`custom-title`, which the CLI shows
        before any other), old-style `summary` records that name one of its records (or name
        none), then its `ai-title` records, each once."""
        summaries = [c.text for c in self.compactions if c.kind == "summary_title"]
        return self.custom_titles + summaries + self.ai_titles

    @property
    def title(self) -> str | None:
        """The one title a listing shows: the latest name the user gave it (/rename), else the
        latest `ai-title`, else its last own old-style summary title; None when it has none."""
        return self.custom_title or self.ai_title or self.summary_title

    @property
    def context_resets(self) -> frozenset[int]:
        """The indexes of the turns that start after a compaction (CONTEXT_RESET_KINDS)."""
        return frozenset(c.before_turn for c in self.compactions if c.kind in CONTEXT_RESET_KINDS)

    @property
    def tool_calls(self) -> list[ToolCall]:
        """Every main-agent tool call of the session, in order."""
        return [c for t in self.turns for c in t.tool_calls]


def turns_were_sidechain(session: Session, records: int) -> None:
    """A file read as a sidechain turned out to be a main session: 2.0.x opens a main session's
    file with the CLI's own sidechain exchange ("Warmup", isSidechain true, no agentId), and a
    later record off the sidechain shows it. What was read as turns (`records` user/assistant
    records) were sidechain records."""
    session.is_sidechain, session.agent_id = False, None
    session.sidechain_records += records
    session.images -= sum(t.images for t in session.turns)
    session.turns, session.compactions = [], []


def coordinator_placed(kind: str, turns: list[Turn], idle: bool) -> tuple[str, bool]:
    """A user record's kind in its turn, and whether the agent is idle; only a message from the
    agent that started a subagent (transcript_records.COORDINATOR) changes: it is the
    subagent's next task (PROMPT) when it came after the subagent answered (its last response
    called no tool, or its turn ended), else a note read between tool calls
    (TASK_NOTIFICATION)."""
    if kind != COORDINATOR:
        return kind, idle
    done = bool(turns) and (idle or turns[-1].answered)
    return (PROMPT if done else TASK_NOTIFICATION), done
