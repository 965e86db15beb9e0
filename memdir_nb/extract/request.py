"""The extractor itself: its prompt, its first request, and the runs the scheduler calls."""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from memdir_nb.extract.runner import TOOL_SCHEMAS, ToolRunner
from memdir_nb.extract.scheduler import ExtractionRequest
from memdir_nb.extract.transcript import TranscriptMessage
from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.home.config import MemdirConfig
from memdir_nb.spec.constants import DEFAULT_MODEL, ENTRYPOINT_NAME
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.toolloop.agent_loop import (
    DEFAULT_MAX_TOKENS,
    ToolLoopResult,
    client_from_config,
    run_tool_loop,
)

MAX_TURNS = 5  # the extractor's cap on model calls per run
MAX_RENDERED_BLOCK_CHARS = 2_000


def _index_step_lines(root: Path, skip_index: bool) -> list[str]:
    """The save step about MEMORY.md: add a pointer line, or (skip-index mode) write no index."""
    if skip_index:
        return [
            "  feedback, project, reference), then the body. There is no index to maintain: do not",
            "  create or edit the index; the description in the frontmatter is what recall reads.",
        ]
    return [
        "  feedback, project, reference), then the body. Add a one-line entry for each new file to",
        f"  `{root / ENTRYPOINT_NAME}` in the form `- [Title](file.md) — one-line hook`.",
    ]


def _read_first_lines(skip_index: bool) -> list[str]:
    """Why turn 1 Reads what turn 2 changes (as Claude Code's, the runner's Edit refuses a file
    this run has not Read, and its Write one not Read whole), and, when there is an index, that
    MEMORY.md is one of them."""
    if skip_index:
        return [
            "  A file that exists can be edited only once this run has Read it, and written",
            "  only after this run has Read it whole.",
        ]
    return [
        f"  Read `{ENTRYPOINT_NAME}` then too, as you will add to it: a file that exists can be edited",
        "  only once this run has Read it, and written only after this run has Read it whole.",
    ]


def build_extraction_prompt(
    memory_dir: str | os.PathLike[str],
    manifest: str,
    new_message_count: int,
    *,
    skip_index: bool = False,
) -> str:
    """The extractor's system prompt, in this project's own words, with the manifest pre-injected.

    skip_index follows the config flag of the same name, as the memory prompts do.
    """
    root = absolute_dir(memory_dir)
    return "\n".join(
        [
            "You are the background memory extractor. The conversation excerpt in the user message",
            f"is the newest part of a session; your job is to keep the memory directory `{root}` up to date",
            "with what that excerpt taught us that a future session could not work out for itself.",
            "",
            f"Scope: use only the last ~{new_message_count} messages shown. Earlier history has already",
            "been processed; do not revisit it.",
            "",
            "What to save: who the user is (user), corrections or confirmed preferences about how to work",
            "(feedback, with why and how to apply it), decisions, deadlines and context about the project",
            "that the code does not show (project, with relative dates written as absolute dates), and",
            "pointers to outside systems (reference).",
            "Do not save anything derivable from the code or git: code patterns, file layout, history,",
            "how a bug was fixed, or what is already in CLAUDE.md. Do not save secrets.",
            "",
            "How to work, within a budget of a few turns:",
            "- Do not investigate: no reading source files, no grepping the project, no git. The excerpt",
            "  is all the evidence you need.",
            "- Turn 1: issue every Read you need at once (existing memory files you might update).",
            *_read_first_lines(skip_index),
            "- Turn 2: issue every Write/Edit at once. Then stop.",
            "- Prefer updating an existing memory over creating a near-duplicate.",
            "- Each memory is one Markdown file with frontmatter (name, description, type: one of user,",
            *_index_step_lines(root, skip_index),
            "- If nothing in the excerpt is worth remembering, reply briefly and write nothing.",
            "",
            "Existing memories (filename, type, last change, description); you need not list the folder:",
            manifest or "(none yet)",
        ]
    )


def _render_block(block: Mapping[str, Any]) -> str:
    kind = block.get("type")
    if kind == "text":
        text = str(block.get("text", ""))
    elif kind == "tool_use":
        text = (
            f"<tool call {block.get('name')}> {json.dumps(block.get('input'), ensure_ascii=False)}"
        )
    elif kind == "tool_result":
        raw = block.get("content")
        if isinstance(raw, list):
            raw = "\n".join(str(b.get("text", "")) for b in raw if isinstance(b, dict))
        text = f"<tool result> {raw}"
    else:
        return ""
    return (
        text
        if len(text) <= MAX_RENDERED_BLOCK_CHARS
        else text[:MAX_RENDERED_BLOCK_CHARS] + " [...]"
    )


def render_messages(messages: Sequence[TranscriptMessage]) -> str:
    """The excerpt shown to the extractor: one paragraph per message, tool traffic shortened."""
    parts = []
    for m in messages:
        body = "\n".join(t for t in (_render_block(b) for b in m.blocks()) if t)
        if body:
            parts.append(f"[{m.role}]\n{body}")
    return "\n\n".join(parts)


def build_extraction_request(
    memory_dir: str | os.PathLike[str],
    new_messages: Sequence[TranscriptMessage],
    *,
    model: str = DEFAULT_MODEL,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    skip_index: bool = False,
) -> dict[str, Any]:
    """The keyword arguments of the extractor's first messages.create call (built, not sent).

    skip_index=True (the config's skip_index flag) leaves MEMORY.md out of the save steps.
    """

    if not new_messages:
        raise ValueError(
            "no new messages to extract from; the scheduler should have skipped this run"
        )
    system = build_extraction_prompt(
        memory_dir,
        format_memory_manifest(scan_memory_files(memory_dir)),
        len(new_messages),
        skip_index=skip_index,
    )
    return {
        "model": model,
        "max_tokens": max_tokens,
        "system": system,
        "messages": [{"role": "user", "content": render_messages(new_messages)}],
        "tools": TOOL_SCHEMAS,
    }


# What one extractor run did (the shared loop's result).
ExtractionResult = ToolLoopResult


def run_extraction(
    memory_dir: str | os.PathLike[str],
    new_messages: Sequence[TranscriptMessage],
    *,
    client: Any = None,
    config: Any = None,
    client_options: Mapping[str, Any] | None = None,
    model: str = DEFAULT_MODEL,
    max_turns: int = MAX_TURNS,
    max_tokens: int = DEFAULT_MAX_TOKENS,
    cwd: str | os.PathLike[str] | None = None,
    skip_index: bool | None = None,
) -> ExtractionResult:
    """Run the Claude tool-use loop (at most `max_turns` model calls) over the new messages.

    Without `client`, one is built from `config` (or the environment) with `client_options`.
    skip_index None follows `config.flags.skip_index` (the environment's when config is None).
    """
    if not 1 <= max_turns <= MAX_TURNS:
        raise ValueError(f"max_turns must be between 1 and {MAX_TURNS}, got {max_turns}")
    if skip_index is None:
        if config is None:
            config = MemdirConfig.from_environment()
        skip_index = bool(config.flags.skip_index)
    request = build_extraction_request(
        memory_dir, new_messages, model=model, max_tokens=max_tokens, skip_index=skip_index
    )
    if client is None:
        client = client_from_config(config, **dict(client_options or {}))
    return run_tool_loop(
        request, ToolRunner(memory_dir, cwd=cwd), client=client, max_turns=max_turns
    )


def make_extractor(
    memory_dir: str | os.PathLike[str], *, client: Any = None, config: Any = None, **kwargs: Any
) -> Callable[[ExtractionRequest], ExtractionResult]:
    """An `extract` callable for ExtractionScheduler that runs the Claude loop on each request."""
    if client is None:  # fail now, not on the first turn, when there is no key
        client = client_from_config(config, **dict(kwargs.pop("client_options", None) or {}))

    def extract(request: ExtractionRequest) -> ExtractionResult:
        return run_extraction(
            memory_dir, request.new_messages, client=client, config=config, **kwargs
        )

    return extract
