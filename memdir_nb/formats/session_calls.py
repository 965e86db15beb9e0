"""Tool calls by their tool_use id: built from tool_use blocks, paired with their results.

A result meets its call by ``tool_use_id``, never by position. Each id counts once, where it
is first seen (the CLI writes history again with the call ids kept). A result written before
its call (Claude Desktop flushes some results first) waits for it, bounded
(``session_results.MAX_EARLY_RESULTS``). A count-only read (``SessionBuilder(count_only=True)``)
lets go of a finished turn's calls and keeps only their ids' hashes, which later records are
still checked against.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_model import ToolCall, cap_value, mentions_memory
from memdir_nb.formats.session_results import MAX_EARLY_RESULTS, ResultSeen, pair
from memdir_nb.spec.constants import SESSION_TOOL_INPUT_MAX_CHARS, SESSION_TOOL_RESULT_MAX_CHARS


def tool_call(
    block: Mapping[str, Any], record: Mapping[str, Any], line_no: int, sidechain: bool, n: int
) -> ToolCall:
    """The call a tool_use block makes (`n`: the calls read before it in the record); its input
    keeps whole texts only when the call may touch memory (session_model.mentions_memory)."""
    raw = block.get("input")
    name = str(block.get("name") or "?")
    keep = (
        SESSION_TOOL_INPUT_MAX_CHARS
        if isinstance(raw, dict) and mentions_memory(name, raw)
        else SESSION_TOOL_RESULT_MAX_CHARS
    )
    stamp = record.get("timestamp")
    return ToolCall(
        id=str(block.get("id") or f"line-{line_no}-{n}"),
        name=name,
        input=cap_value(raw, keep) if isinstance(raw, dict) else {},  # type: ignore[arg-type]  # cap_value keeps a dict a dict
        line_no=line_no,
        timestamp=stamp if isinstance(stamp, str) else None,
        is_sidechain=sidechain,
        cwd=tr.record_cwd(record),
    )


class ToolCallBook:
    """The calls read so far by id, the results waiting for theirs, the ids let go."""

    def __init__(self) -> None:
        self._calls: dict[str, ToolCall] = {}
        self._early: dict[str, ResultSeen] = {}  # results written before their call
        self._gone: set[int] = set()  # hashes of the ids of calls let go (count-only reads)

    def seen(self, tool_use_id: str) -> bool:
        """Whether a call with this id was read already (the same call written again)."""
        return tool_use_id in self._calls or hash(tool_use_id) in self._gone

    def add(self, call: ToolCall) -> None:
        """A new call; a result that came before it is paired now."""
        self._calls[call.id] = call
        early = self._early.pop(call.id, None)
        if early is not None:
            pair(call, early)

    def result(self, result: ResultSeen) -> None:
        """A tool_result: paired with its call, or kept until the call arrives. Bounded, so a
        hostile file of orphan results cannot grow memory: past MAX_EARLY_RESULTS the oldest
        waiting result is dropped (real ones wait for the very next record or two)."""
        call = self._calls.get(result.tool_use_id)
        if call is not None:
            pair(call, result)
            return
        if hash(result.tool_use_id) in self._gone:
            return  # its call's turn was let go: nothing left to pair it with
        if len(self._early) >= MAX_EARLY_RESULTS:
            del self._early[next(iter(self._early))]
        self._early[result.tool_use_id] = result

    def let_go(self, calls: Iterable[ToolCall]) -> None:
        """Forget these calls (a finished turn's, in a count-only read), keeping their ids'
        hashes so a repeat of one is still known."""
        for call in calls:
            if self._calls.pop(call.id, None) is not None:
                self._gone.add(hash(call.id))
