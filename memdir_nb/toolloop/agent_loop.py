"""The Claude tool-use loop shared by the extractor and dream's Claude planner, and its client."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from memdir_nb.home.config import MemdirConfig

DEFAULT_MAX_TOKENS = 4096


class ToolCallOutcome(Protocol):
    """What a runner returns for one tool call: the text sent back and whether it is an error."""

    @property
    def content(self) -> str: ...

    @property
    def is_error(self) -> bool: ...


class LoopRunner(Protocol):
    """Runs one tool call locally (sandboxed); `written`, `refused` and `notes` lists are read if present."""

    def run(self, name: str, tool_input: dict[str, Any]) -> ToolCallOutcome: ...


@dataclass
class ToolLoopResult:
    """What one tool-use loop did: turns, the last stop reason, written and refused calls."""

    turns: int
    stop_reason: str | None
    written: list[str] = field(default_factory=list)
    refused: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    refused_dropped: int = 0  # refused calls past the runner's REFUSED_CALLS_KEPT, only counted
    hit_turn_cap: bool = False
    final_text: str = ""
    # what the runner's writes left for a person to see (a new `name:` that left other
    # memories' links naming nothing: storage.link_report)
    notes: list[str] = field(default_factory=list)


def _block_to_param(block: Any) -> dict[str, Any]:
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    dumped: dict[str, Any] = block.model_dump(exclude_none=True)
    return dumped


class MissingAPIKeyError(ValueError):
    """No Anthropic client was given and the config holds no API key."""


def client_from_config(config: Any = None, **client_options: Any) -> Any:
    """An anthropic.Anthropic client built from config.anthropic_api_key (config None: from the environment).

    Built by security.api_replies, so each reply is bounded in time and bytes."""
    if config is None:
        config = MemdirConfig.from_environment()
    key = getattr(config, "anthropic_api_key", None)
    if not key:
        raise MissingAPIKeyError(
            "no Anthropic API key: set ANTHROPIC_API_KEY in the environment (or pass a MemdirConfig "
            "with anthropic_api_key, or an anthropic client as client=) to run the extractor"
        )
    # local: it imports the SDK and httpx2 (about a second), needed only once a client is
    # built; its module bounds every reply in time and bytes
    from memdir_nb.security.api_replies import messages_client

    return messages_client(api_key=key, **client_options)


def run_tool_loop(
    request: Mapping[str, Any],
    runner: LoopRunner,
    *,
    client: Any,
    max_turns: int,
) -> ToolLoopResult:
    """Send `request`, run each tool call through `runner.run` (sandboxed), repeat until no calls or max_turns."""
    convo: list[dict[str, Any]] = list(request["messages"])
    result = ToolLoopResult(turns=0, stop_reason=None)
    calls: list[Any] = []
    for _ in range(max_turns):
        response = client.messages.create(**{**request, "messages": convo})
        result.turns += 1
        result.stop_reason = response.stop_reason
        blocks = list(response.content)
        convo.append({"role": "assistant", "content": [_block_to_param(b) for b in blocks]})
        result.final_text = "\n".join(b.text for b in blocks if b.type == "text")
        calls = [b for b in blocks if b.type == "tool_use"]
        if not calls:
            break
        results = []
        for call in calls:
            outcome = runner.run(call.name, call.input if isinstance(call.input, dict) else {})
            results.append(
                {
                    "type": "tool_result",
                    "tool_use_id": call.id,
                    "content": outcome.content,
                    "is_error": outcome.is_error,
                }
            )
        convo.append({"role": "user", "content": results})
    else:
        result.hit_turn_cap = bool(calls)
    result.written = list(getattr(runner, "written", []))
    result.refused = list(getattr(runner, "refused", []))
    result.refused_dropped = int(getattr(runner, "refused_dropped", 0))
    result.notes = list(getattr(runner, "notes", []))
    return result
