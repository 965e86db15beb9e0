"""What a Claude Code transcript's records are: their content, and what a `user` record really is.

A transcript is JSONL: one record per line. Only about a quarter of the `type: "user"` records
are things a person typed; the rest carry tool results, harness notes (`isMeta`), interrupt
markers, bash-mode (`!`) input and output, built-in command wrappers, compaction summaries and
background-task notifications. :func:`classify_user` sorts them, in the order that is safe for
every CLI version seen (1.0.x to 2.1.2xx); docs/sessions.md lists the shapes.

Parsing a line into records is formats.transcript_lines (re-exported here:
``parse_record_line``, ``TranscriptProblem``, ``record_id``, ``RECORD_ID_MAX_CHARS``).
"""

from __future__ import annotations

import re
import sys
from collections.abc import Mapping
from typing import Any

from memdir_nb.formats.transcript_lines import RECORD_ID_MAX_CHARS as RECORD_ID_MAX_CHARS
from memdir_nb.formats.transcript_lines import TranscriptProblem as TranscriptProblem
from memdir_nb.formats.transcript_lines import parse_record_line as parse_record_line
from memdir_nb.formats.transcript_lines import record_id as record_id
from memdir_nb.spec.constants import PATH_MAX_BYTES

# What a user record is, from classify_user.
TOOL_RESULT = "tool_result"
COMPACT_SUMMARY = "compact_summary"
META = "meta"
INTERRUPT = "interrupt"
BASH_INPUT = "bash_input"
BASH_OUTPUT = "bash_output"
LOCAL_COMMAND = "local_command"
LOCAL_COMMAND_OUTPUT = "local_command_output"
SLASH_COMMAND = "slash_command"
TASK_NOTIFICATION = "task_notification"  # a background task's, or another agent's, message
COORDINATOR = "coordinator"  # what the agent that started a subagent sends it (see below)
COMMAND_ECHO = "command_echo"  # the typed `/compact`, written before its command wrapper
SCHEDULED = "scheduled"  # a prompt the user scheduled (/loop, CronCreate), sent when it fired
CHANNEL = "channel"  # a person's message through an MCP channel (Telegram, Slack, a phone)
PROMPT = "prompt"
EMPTY = "empty"

INTERRUPT_MARKERS = ("[Request interrupted by user]", "[Request interrupted by user for tool use]")
CONTINUATION_PREAMBLE = "This session is being continued from a previous conversation"
_IDE_PREFIXES = ("<ide_opened_file>", "<ide_selection>")
_CAVEAT_PREFIXES = ("<local-command-caveat>", "Caveat: The messages below were generated")
# What reaches the agent without a person typing it: a background task's notification (2.0.7x
# wrote a background shell's as <bash-notification>), and (agent teams, 2.1.2xx) a message from
# another agent of the team, written as a user record or queued. `origin.kind` says so too
# where the CLI writes it (2.1.23x).
_NOTIFICATION_PREFIXES = (
    "<task-notification>",
    "<bash-notification>",
    "[SYSTEM NOTIFICATION",
    "<agent-message",
    "<teammate-message",
    "Another Claude session sent a message:",
)
# `coordinator` (2.1.2xx): the agent that started a subagent sending it more (SendMessage),
# written into the subagent's file as a harness note (isMeta) with this origin and the words
# "The coordinator sent a message while you were working:". In real files it came after the
# subagent had answered (a response without tool calls ended its task), minutes or hours
# later, whatever its promptId: then it is the subagent's next task, a turn; between tool
# calls it would be a note the subagent reads while it works (the session builder decides).
_NOT_TYPED_ORIGINS = ("task-notification", "peer")
_COORDINATOR_ORIGIN = "coordinator"
# An in-process teammate's own file (agent teams, 2.1.25x: subagents/agent-a<name>-<hex>.jsonl,
# every record a sidechain one) receives each task from the team lead in this wrapper, and so
# does a teammate run as a process of its own (tmux or iTerm2 panes: a top-level file whose
# records carry agentName and teamName). There it is the teammate's prompt, as the Agent tool's
# prompt is a subagent's; in the lead's file the same wrapper is another agent's message, a
# notification.
_TEAMMATE_TASK_PREFIX = "<teammate-message"
# A scheduled prompt firing (2.1.28x: `/loop`, CronCreate, ScheduleWakeup): the CLI writes a
# `system/scheduled_task_fire` note, then the prompt the user set up as a user record marked
# isMeta, `promptSource: system`, `turnOrigin: scheduled` and `scheduledTaskId` (not on the
# wakeups of a self-paced /loop). Nobody typed it then, but the agent answers it as a turn of
# its own, and recall runs on it as on any prompt.
_SCHEDULED_ORIGIN = "scheduled"
# A message a person sends the session through an MCP channel (a Telegram or Slack bridge, a
# phone; 2.1.2xx) is written as an isMeta user record with `origin: {kind: channel, server}`
# and its text in `<channel source=… chat_id=…>…</channel>`. When the agent is free it is
# what the agent answers, a turn (of kind `channel`); while it works the CLI queues it.
_CHANNEL_ORIGIN = "channel"
# The user kinds that start a turn, with the kind of the turn they start.
TURN_KINDS = {
    PROMPT: "prompt",
    SLASH_COMMAND: "slash_command",
    SCHEDULED: "scheduled",
    CHANNEL: "channel",
}
_COMPACT_ECHO = re.compile(r"/compact(?:\s.*)?", re.DOTALL)
# The CLI's answer to a `/name` it has no command or skill for (2.1.1x to 2.1.8x at least):
# written as a plain user record right after a local-command caveat, never answered by the
# model. The name alone is kept; what followed it on the typed line is not written.
_UNKNOWN_COMMAND = re.compile(r"Unknown skill: (\S{1,200})")
# A fork subagent's task (2.1.x: the Agent tool with no subagent type) is the CLI's fixed text
# in `<fork-boilerplate>` tags (rules for a forked worker), then "Your directive: " and what
# the parent asked. The directive is the prompt; the fixed text is the same in every fork.
_FORK_OPEN, _FORK_CLOSE = "<fork-boilerplate>", "</fork-boilerplate>"
_FORK_DIRECTIVE = "Your directive:"
# ---------------------------------------------------------------------------- content helpers


def content_blocks(content: object) -> list[dict[str, Any]]:
    """A message's content as blocks: a string becomes one text block; non-dicts are dropped."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if isinstance(content, list):
        return [b for b in content if isinstance(b, dict)]
    return []


def block_text(block: Mapping[str, Any]) -> str:
    """The text of a text block, or of a tool_result's content (string or text blocks)."""
    if block.get("type") == "text":
        text = block.get("text")
        return text if isinstance(text, str) else ""
    if block.get("type") == "tool_result":
        inner = block.get("content")
        if isinstance(inner, str):
            return inner
        return "\n".join(block_text(b) for b in content_blocks(inner) if b.get("type") == "text")
    return ""


def content_text(content: object) -> str:
    """All text blocks of a content value, joined by newlines."""
    return "\n".join(
        t for b in content_blocks(content) if b.get("type") == "text" and (t := block_text(b))
    )


def count_images(content: object) -> int:
    """Image blocks in a content value, including those inside tool results."""
    n = 0
    for b in content_blocks(content):
        if b.get("type") == "image":
            n += 1
        elif b.get("type") == "tool_result":
            n += count_images(b.get("content"))
    return n


def tag_value(text: str, tag: str) -> str | None:
    """The text between <tag> and </tag>, or None when the tag is absent."""
    start = text.find(f"<{tag}>")
    if start < 0:
        return None
    start += len(tag) + 2
    end = text.find(f"</{tag}>", start)
    return text[start:] if end < 0 else text[start:end]


def unknown_command(text: str) -> str | None:
    """'/name' when text is the CLI's "Unknown skill: name" answer to a typed `/name`, else None."""
    match = _UNKNOWN_COMMAND.fullmatch(text.strip())
    return "/" + match.group(1).lstrip("/") if match else None


def command_line(text: str) -> str:
    """'/name args' from a command wrapper's <command-name> and <command-args> tags."""
    name = (tag_value(text, "command-name") or "").strip()
    if name and not name.startswith("/"):
        name = "/" + name
    args = (tag_value(text, "command-args") or "").strip()
    return f"{name} {args}".strip()


def _fork_directive(text: str) -> str:
    """A fork's task without the CLI's fixed `<fork-boilerplate>` text: its directive (the
    text as it is when it does not open with the tag)."""
    if not text.lstrip().startswith(_FORK_OPEN):
        return text
    _, closed, after = text.partition(_FORK_CLOSE)
    if not closed:  # no closing tag: the directive follows its label
        _, _, after = text.partition(_FORK_DIRECTIVE)
    after = after.lstrip()
    return after[len(_FORK_DIRECTIVE) :] if after.startswith(_FORK_DIRECTIVE) else after


def prompt_text(content: object) -> str:
    """What a person typed: the text blocks of a prompt, leaving out IDE context blocks and a
    fork's fixed boilerplate (its directive is the prompt)."""
    parts = []
    for b in content_blocks(content):
        if b.get("type") != "text":
            continue
        text = block_text(b)
        if text.lstrip().startswith(_IDE_PREFIXES):
            continue
        parts.append(_fork_directive(text))
    return "\n".join(parts).strip()


# ---------------------------------------------------------------------------- classification


def _message_content(record: Mapping[str, Any]) -> object:
    message = record.get("message")
    return message.get("content") if isinstance(message, dict) else None


def snapshot_time(record: Mapping[str, Any]) -> str | None:
    """When a `file-history-snapshot` record's snapshot was taken: such a record has no
    top-level timestamp, only its snapshot's; None for any other record."""
    snap = record.get("snapshot") if record.get("type") == "file-history-snapshot" else None
    stamp = snap.get("timestamp") if isinstance(snap, dict) else None
    return stamp if isinstance(stamp, str) and stamp else None


def record_cwd(record: Mapping[str, Any]) -> str | None:
    """The folder the record was written in, shared between records (interned); None when
    absent, not a string, or longer than any real path."""
    cwd = record.get("cwd")
    if not isinstance(cwd, str) or not cwd or len(cwd) > PATH_MAX_BYTES:
        return None
    return sys.intern(cwd)


def forked_from(record: Mapping[str, Any]) -> str | None:
    """The parent session a record was copied from when its session was forked, or None.

    `/fork` (2.1.2x) starts the new session's file with the parent's records copied, uuids and
    timestamps kept, the fork's own `sessionId`, and `forkedFrom: {sessionId, messageUuid}`
    naming the parent; what the fork does after that carries no `forkedFrom`. A record whose
    `forkedFrom` names its own session copies nothing.
    """
    fork = record.get("forkedFrom")
    parent = record_id(fork.get("sessionId")) if isinstance(fork, dict) else None
    if parent is not None and parent != record.get("sessionId"):
        return parent
    return None


def classify_user(record: Mapping[str, Any]) -> str:
    """What a `type: "user"` record is: one of the kind constants of this module.

    Order matters: a tool-result carrier is never a prompt (but for a fork's task in the
    fork's own file, written beside the result of the call that launched it); a compaction summary, meta
    text and a record holding only IDE context blocks are never typed; a task the team lead
    hands a teammate is the teammate's prompt in its own (sidechain) file; a record's origin
    may say what it is, isMeta as it may be (a scheduled prompt that fired, a message through a
    channel, a notification, the coordinator's message); then interrupts,
    bash mode, local commands, prompt-expanding slash commands, notifications (a background
    task's, another agent's) and the typed echo of `/compact`; what is left with text or an
    image is a prompt.
    """
    content = _message_content(record)
    blocks = content_blocks(content)
    text = content_text(content).strip()
    if any(b.get("type") == "tool_result" for b in blocks):
        return PROMPT if _fork_task(record, text) else TOOL_RESULT
    if record.get("isCompactSummary") or text.startswith(CONTINUATION_PREAMBLE):
        return COMPACT_SUMMARY
    if text.startswith(_TEAMMATE_TASK_PREFIX) and _teammates_own(record):
        return PROMPT  # a task handed to a teammate, in the teammate's own file
    by_origin = _kind_by_origin(record, text)
    if by_origin is not None:
        return by_origin  # even when isMeta: it arrived, and may start a turn or end a dequeue
    if record.get("isMeta") or text.startswith(_CAVEAT_PREFIXES):
        return META
    if text.startswith(_IDE_PREFIXES) and not prompt_text(content) and not _has_media(blocks):
        return META  # only IDE context (the file open, the selection): nothing was typed
    if text in INTERRUPT_MARKERS or (
        text.startswith("[Request interrupted by user") and len(text) < 80
    ):
        return INTERRUPT
    return _classify_text(text, blocks)


def _teammates_own(record: Mapping[str, Any]) -> bool:
    """Whether a record is in a teammate's own file: a sidechain file (an in-process teammate,
    2.1.25x), or a top-level one whose records name the teammate and its team (`agentName`
    beside `teamName`: a teammate run as a process of its own, in a tmux or iTerm2 pane). The
    lead's records name the team only."""
    return record.get("isSidechain") is True or is_pane_teammate_record(record)


def is_pane_teammate_record(record: Mapping[str, Any]) -> bool:
    """Whether a top-level record is a teammate's run as a process of its own (a tmux or
    iTerm2 pane): it names the teammate (`agentName`) beside its team (`teamName`). The lead's
    records name the team only; an in-process teammate's are sidechain records."""
    if record.get("isSidechain") is True:
        return False
    name, team = record.get("agentName"), record.get("teamName")
    return isinstance(name, str) and bool(name) and isinstance(team, str) and bool(team)


def _fork_task(record: Mapping[str, Any], text: str) -> bool:
    """A fork's task in the fork's own file (2.1.20x: written in the same user record as the
    "started" result of the parent's call that launched the fork; the file opens with that
    call, copied from the parent): a tool-result carrier that is the fork's prompt."""
    return record.get("isSidechain") is True and text.startswith(_FORK_OPEN)


def _kind_by_origin(record: Mapping[str, Any], text: str) -> str | None:
    """The kind a user record's origin gives it (isMeta as it may be), else None: a scheduled
    prompt that fired, a message through a channel, another agent's or a background task's
    notification, or what the agent that started a subagent sends it."""
    if text and (
        record.get("turnOrigin") == _SCHEDULED_ORIGIN
        or isinstance(record.get("scheduledTaskId"), str)
    ):
        return SCHEDULED
    origin = record.get("origin")
    kind = origin.get("kind") if isinstance(origin, dict) else None
    if kind in _NOT_TYPED_ORIGINS:
        return TASK_NOTIFICATION
    if kind == _COORDINATOR_ORIGIN:
        return COORDINATOR
    return CHANNEL if kind == _CHANNEL_ORIGIN and text else None


def _classify_text(text: str, blocks: list[dict[str, Any]]) -> str:
    if text.startswith("<bash-input>"):
        return BASH_INPUT
    if text.startswith(("<bash-stdout>", "<bash-stderr>")):
        return BASH_OUTPUT
    if text.startswith("<local-command-stdout>") or text.startswith("<local-command-stderr>"):
        return LOCAL_COMMAND_OUTPUT
    if unknown_command(text) and not _has_media(blocks):
        return LOCAL_COMMAND_OUTPUT  # the CLI's answer to an unknown `/name`, not typed
    if text.startswith("<command-name>"):
        return LOCAL_COMMAND
    if text.startswith("<command-message>"):
        return SLASH_COMMAND
    if is_notification(text):
        return TASK_NOTIFICATION
    if _COMPACT_ECHO.fullmatch(text) and not _has_media(blocks):
        return COMMAND_ECHO  # 2.1.23x: the wrapper (<command-name>/compact) follows
    if text or _has_media(blocks):
        return PROMPT
    return EMPTY


def _has_media(blocks: list[dict[str, Any]]) -> bool:
    return any(b.get("type") in ("image", "document") for b in blocks)


def is_notification(text: str) -> bool:
    """Whether text reached the agent without a person typing it (a user record, or a queued
    command): a background task's notification, or another agent's message (agent teams)."""
    return text.lstrip().startswith(_NOTIFICATION_PREFIXES)


def is_interrupt_result(text: str) -> bool:
    """Whether a tool result's text carries the interrupt marker (Esc at a tool prompt)."""
    return INTERRUPT_MARKERS[1] in text


def api_error_text(record: Mapping[str, Any]) -> str | None:
    """The error text of a record that says the API call failed, else None.

    Two shapes: an assistant record with ``isApiErrorMessage: true`` (model ``<synthetic>``;
    its text is what the user saw, e.g. "Credit balance is too low", "Not logged in · Please
    run /login"), and a ``system`` record of subtype ``api_error`` (written at each retry;
    the message sits in ``error.error.error.message`` or a shallower ``message``). Newer CLIs
    (2.1.16x) also write ``error.formatted``, the line the user saw ("529 Overloaded"); it is
    taken first, since their ``message`` is the raw response with each retry's own request id
    and would make every retry of one failed call a different text.
    """
    if record.get("type") == "assistant" and record.get("isApiErrorMessage") is True:
        text = content_text(_message_content(record)).strip()
        return text or str(record.get("error") or "API error")
    if record.get("type") != "system" or record.get("subtype") != "api_error":
        return None
    error: object = record.get("error")
    formatted = error.get("formatted") if isinstance(error, dict) else None
    if isinstance(formatted, str) and formatted.strip():
        return formatted.strip()
    for _ in range(4):  # error -> error -> error -> message, as far as the record goes
        if not isinstance(error, dict):
            break
        message = error.get("message")
        if isinstance(message, str) and message.strip():
            return message.strip()
        error = error.get("error")
    return "API error"
