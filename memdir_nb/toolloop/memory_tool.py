"""The Claude API's memory tool, served from a memory dir: MemdirMemoryTool and its async twin.

Subclasses of the anthropic SDK's `BetaAbstractMemoryTool` / `BetaAsyncAbstractMemoryTool`, so
they plug into `client.beta.messages.tool_runner(tools=[...])` or a hand-written loop
(`tool.call(block.input)`). `/memories` is the memory dir and `/memories/team/` its team folder.
The answers are the SDK reference backend's (BetaLocalFilesystemMemoryTool) on well-formed
memory files; the rules underneath are the memory dir's (memory_commands.py). Departures from
the reference, and why: docs/memory_tool.md.

This is the only module that imports anthropic for the memory tool; `import memdir_nb` does not
load it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from anthropic.lib.tools import (
    BetaAbstractMemoryTool,
    BetaAsyncAbstractMemoryTool,
    BetaFunctionToolResultType,
    ToolError,
)
from anthropic.types.beta import (
    BetaCacheControlEphemeralParam,
    BetaMemoryTool20250818CreateCommand,
    BetaMemoryTool20250818DeleteCommand,
    BetaMemoryTool20250818InsertCommand,
    BetaMemoryTool20250818RenameCommand,
    BetaMemoryTool20250818StrReplaceCommand,
    BetaMemoryTool20250818ViewCommand,
)
from anyio.to_thread import run_sync

from memdir_nb.storage.store import MemoryStore
from memdir_nb.toolloop.memory_commands import MemoryDirBackend
from memdir_nb.toolloop.memory_text import (
    COMMANDS,
    MemoryCommandError,
    missing_field,
    unknown_command,
)

if TYPE_CHECKING:
    from memdir_nb.clock import HasClock

__all__ = ["AsyncMemdirMemoryTool", "MemdirMemoryTool"]


def _answer(fn: Callable[..., str], *args: Any) -> str:
    """Run one backend command; a refusal becomes the SDK's ToolError (an is_error tool_result)."""
    try:
        return fn(*args)
    except MemoryCommandError as exc:
        raise ToolError(str(exc)) from exc


def _field(command: object, name: str) -> Any:
    """A command field, None when the model left it out (the SDK builds commands unchecked)."""
    return getattr(command, name, None)


def _needed(command: object, name: str) -> Any:
    """A field the command cannot go without (a path, insert's line): a ToolError naming it
    when the model left it out, rather than a refusal of the path None."""
    value = getattr(command, name, None)
    if value is None:
        raise ToolError(str(missing_field(str(getattr(command, "command", "")), name)))
    return value


def _known(command: object) -> None:
    """A ToolError naming the six commands for any other (the SDK raises NotImplementedError,
    which the tool runner sends as its repr)."""
    name = getattr(command, "command", None)
    if name not in COMMANDS:
        raise ToolError(str(unknown_command(name)))


class _Common:
    """What both classes share: the backend and where it lives."""

    backend: MemoryDirBackend

    @property
    def memory_dir(self) -> str:
        """The memory dir that /memories maps to."""
        return self.backend.memory_dir

    @property
    def store(self) -> MemoryStore:
        """A MemoryStore on the same dir (index_verdict, recover, list, ...)."""
        return self.backend.store


class MemdirMemoryTool(_Common, BetaAbstractMemoryTool):
    """The memory tool (`memory_20250818`) backed by a memory dir, for the sync client.

    `MemdirMemoryTool(memory_dir, config=None, now_ms=None)`; pass it in `tools=[...]` of
    `client.beta.messages.tool_runner(...)`. now_ms fixes the clock (trash batch names,
    relative-date notes); config supplies one (MemdirConfig).
    """

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        config: HasClock | None = None,
        now_ms: float | None = None,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ) -> None:
        super().__init__(cache_control=cache_control)
        self.backend = MemoryDirBackend(memory_dir, config=config, now_ms=now_ms)

    def execute(self, command: Any) -> BetaFunctionToolResultType:
        _known(command)
        return super().execute(command)

    def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        # no path: /memories (the backend's rule), not a refusal (api39)
        return _answer(self.backend.view, _field(command, "path"), _field(command, "view_range"))

    def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return _answer(self.backend.create, _needed(command, "path"), _field(command, "file_text"))

    def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return _answer(
            self.backend.str_replace,
            _needed(command, "path"),
            _field(command, "old_str"),
            _field(command, "new_str"),
        )

    def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return _answer(
            self.backend.insert,
            _needed(command, "path"),
            _needed(command, "insert_line"),
            _field(command, "insert_text"),
        )

    def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return _answer(self.backend.delete, _needed(command, "path"))

    def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return _answer(
            self.backend.rename, _needed(command, "old_path"), _needed(command, "new_path")
        )

    def clear_all_memory(self) -> str:
        """Move every memory (and both indexes) into one restorable trash batch."""
        return _answer(self.backend.clear_all)


class AsyncMemdirMemoryTool(_Common, BetaAsyncAbstractMemoryTool):
    """The async twin of MemdirMemoryTool (same answers; file work runs in worker threads)."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        config: HasClock | None = None,
        now_ms: float | None = None,
        cache_control: BetaCacheControlEphemeralParam | None = None,
    ) -> None:
        super().__init__(cache_control=cache_control)
        self.backend = MemoryDirBackend(memory_dir, config=config, now_ms=now_ms)

    async def execute(self, command: Any) -> BetaFunctionToolResultType:
        _known(command)
        return await super().execute(command)

    async def _run(self, fn: Callable[..., str], *args: Any) -> str:
        return await run_sync(functools.partial(_answer, fn, *args))

    async def view(self, command: BetaMemoryTool20250818ViewCommand) -> str:
        return await self._run(
            self.backend.view, _field(command, "path"), _field(command, "view_range")
        )

    async def create(self, command: BetaMemoryTool20250818CreateCommand) -> str:
        return await self._run(
            self.backend.create, _needed(command, "path"), _field(command, "file_text")
        )

    async def str_replace(self, command: BetaMemoryTool20250818StrReplaceCommand) -> str:
        return await self._run(
            self.backend.str_replace,
            _needed(command, "path"),
            _field(command, "old_str"),
            _field(command, "new_str"),
        )

    async def insert(self, command: BetaMemoryTool20250818InsertCommand) -> str:
        return await self._run(
            self.backend.insert,
            _needed(command, "path"),
            _needed(command, "insert_line"),
            _field(command, "insert_text"),
        )

    async def delete(self, command: BetaMemoryTool20250818DeleteCommand) -> str:
        return await self._run(self.backend.delete, _needed(command, "path"))

    async def rename(self, command: BetaMemoryTool20250818RenameCommand) -> str:
        return await self._run(
            self.backend.rename, _needed(command, "old_path"), _needed(command, "new_path")
        )

    async def clear_all_memory(self) -> str:
        """Move every memory (and both indexes) into one restorable trash batch."""
        return await self._run(self.backend.clear_all)
