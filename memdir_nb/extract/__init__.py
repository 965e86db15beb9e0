"""extractMemories: the per-turn background extractor, its scheduler and its tool sandbox.

One module per concern: `sandbox` (can_use_tool), `transcript` (reading and the cursor),
`transcript_tail` (reading a file from the cursor's place in it), `message_stream` (a replay's
messages, kept from the cursor on), `scheduler` (ExtractionScheduler), `runner` (ToolRunner),
`request` (the prompt, the first request, run_extraction); the tool loop itself is memdir_nb.toolloop.agent_loop, shared with dream.
Every public name is re-exported here.

Three parts, each usable alone:

- `read_transcript` / `has_memory_writes_since` / `ExtractionScheduler`: when to extract. A
  cursor (the uuid of the last message already considered) walks the transcript; if the main
  agent itself wrote into the memory dir since the cursor, the extractor skips and advances;
  turn throttling; while a run is in progress new requests coalesce into one pending request
  that a single trailing run processes. Fed from the transcript file (`on_transcript`), a run
  reads only the lines after the cursor's message, at most `max_read_bytes`; a file cut,
  rewritten or replaced since is read again from its start, with a note saying so.
- `can_use_tool`: the sandbox. Read/Grep/Glob allowed; Bash only for read-only commands;
  Write/Edit only inside the memory dir (team_paths validation, as the store); all else denied.
- `run_extraction`: a Claude tool-use loop (anthropic SDK, at most 5 turns) whose tool calls run
  locally through `ToolRunner`, and only after `can_use_tool` allowed them. The first call is
  exactly `build_extraction_request(...)` (notebooks show it without sending it); the loop itself
  is `run_tool_loop`, shared with dream's Claude-driven consolidation. Without a client, one is
  built from `MemdirConfig.anthropic_api_key` (`client_from_config`).
"""

from __future__ import annotations

from memdir_nb.extract.request import (
    MAX_RENDERED_BLOCK_CHARS,
    MAX_TURNS,
    ExtractionResult,
    build_extraction_prompt,
    build_extraction_request,
    make_extractor,
    render_messages,
    run_extraction,
)
from memdir_nb.extract.runner import (
    BASH_TIMEOUT_S,
    MAX_GLOB_RESULTS,
    MAX_GREP_MATCHES,
    MAX_TOOL_OUTPUT_CHARS,
    TOOL_SCHEMAS,
    ToolOutcome,
    ToolRunner,
)
from memdir_nb.extract.sandbox import (
    CHAIN_OPERATORS,
    FIND_WRITING_FLAGS,
    READ_ONLY_COMMANDS,
    READ_TOOLS,
    WRITE_TOOLS,
    BashRefused,
    ParsedCommand,
    ToolVerdict,
    can_use_tool,
    check_bash_command,
    check_memory_write,
    parse_bash_command,
)
from memdir_nb.extract.scheduler import (
    ExtractionRequest,
    ExtractionScheduler,
    SchedulerDecision,
)
from memdir_nb.extract.transcript import (
    MESSAGE_TYPES,
    Transcript,
    TranscriptMessage,
    has_memory_writes_since,
    memory_writes,
    messages_since,
    parse_transcript_lines,
    read_transcript,
    turn_message_ends,
)
from memdir_nb.formats.transcript_records import TranscriptProblem
from memdir_nb.spec.constants import DEFAULT_MODEL
from memdir_nb.toolloop.agent_loop import (
    DEFAULT_MAX_TOKENS,
    MissingAPIKeyError,
    ToolLoopResult,
    client_from_config,
    run_tool_loop,
)

__all__ = [
    "BASH_TIMEOUT_S",
    "CHAIN_OPERATORS",
    "DEFAULT_MAX_TOKENS",
    "DEFAULT_MODEL",
    "FIND_WRITING_FLAGS",
    "MAX_GLOB_RESULTS",
    "MAX_GREP_MATCHES",
    "MAX_RENDERED_BLOCK_CHARS",
    "MAX_TOOL_OUTPUT_CHARS",
    "MAX_TURNS",
    "MESSAGE_TYPES",
    "READ_ONLY_COMMANDS",
    "READ_TOOLS",
    "TOOL_SCHEMAS",
    "WRITE_TOOLS",
    "BashRefused",
    "ExtractionRequest",
    "ExtractionResult",
    "ExtractionScheduler",
    "MissingAPIKeyError",
    "ParsedCommand",
    "SchedulerDecision",
    "ToolLoopResult",
    "ToolOutcome",
    "ToolRunner",
    "ToolVerdict",
    "Transcript",
    "TranscriptMessage",
    "TranscriptProblem",
    "build_extraction_prompt",
    "build_extraction_request",
    "can_use_tool",
    "check_bash_command",
    "check_memory_write",
    "client_from_config",
    "has_memory_writes_since",
    "make_extractor",
    "memory_writes",
    "messages_since",
    "parse_bash_command",
    "parse_transcript_lines",
    "read_transcript",
    "render_messages",
    "run_extraction",
    "run_tool_loop",
    "turn_message_ends",
]
