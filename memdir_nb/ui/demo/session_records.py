"""Writing transcript records in the shapes Claude Code writes them (for the demo and tests).

:class:`RecordWriter` keeps the common envelope (uuid/parentUuid chain, isSidechain, cwd,
sessionId, version, gitBranch, promptId) and has one method per record shape: a prompt, an
assistant response split into one record per block, tool results paired by tool_use_id,
interrupt markers, bash mode, built-in commands, a compaction, queue operations. Ids derive
from a seed, and times from a start time and a step, so the same calls give the same bytes.
Everything written is invented; docs/sessions.md describes the shapes.
"""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import uuid
from typing import Any

_NS = uuid.UUID("2d8c1f4e-5a7b-4c3d-9e1f-0a2b3c4d5e6f")


def _b62(seed: str, n: int) -> str:
    alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    digest = hashlib.sha256(seed.encode()).digest()
    return "".join(alphabet[b % 62] for b in digest[:n])


class RecordWriter:
    """Appends records of one transcript to `lines` (JSON text, one record each)."""

    def __init__(
        self,
        session_id: str,
        cwd: str,
        start: str,
        *,
        version: str = "2.1.250",
        branch: str = "main",
        sidechain: bool = False,
        agent_id: str | None = None,
        prompt_ids: bool = True,
        seed: str = "demo",
    ) -> None:
        self.session_id, self.cwd, self.version, self.branch = session_id, cwd, version, branch
        self.sidechain, self.agent_id, self.prompt_ids, self.seed = (
            sidechain,
            agent_id,
            prompt_ids,
            seed,
        )
        self.time = _dt.datetime.fromisoformat(start.replace("Z", "+00:00"))
        self.lines: list[str] = []
        self.last: str | None = None
        self.prompt_id: str | None = None
        self._n = 0

    # -- ids and time ------------------------------------------------------------------------

    def uid(self, what: str = "") -> str:
        """A fresh uuid derived from the seed and a counter."""
        self._n += 1
        return str(uuid.uuid5(_NS, f"{self.seed}/{self._n}/{what}"))

    def stamp(self, seconds: float = 1.5) -> str:
        """The time `seconds` after the previous record, ISO-8601 with milliseconds."""
        self.time += _dt.timedelta(seconds=seconds)
        return self.time.strftime("%Y-%m-%dT%H:%M:%S.") + f"{self.time.microsecond // 1000:03d}Z"

    def tool_id(self) -> str:
        """A tool_use id shaped like the API's."""
        self._n += 1
        return "toolu_01" + _b62(f"{self.seed}/tool/{self._n}", 22)

    def emit(self, record: dict[str, Any]) -> dict[str, Any]:
        """Append one record as a JSON line."""
        self.lines.append(json.dumps(record, ensure_ascii=False, separators=(",", ":")))
        return record

    def envelope(self, kind: str, *, parent: str | bool | None = True) -> dict[str, Any]:
        """The common fields; parent=True chains to the previous record."""
        record: dict[str, Any] = {
            "parentUuid": self.last if parent is True else (parent or None),
            "isSidechain": self.sidechain,
        }
        if self.agent_id:
            record["agentId"] = self.agent_id
        record.update(
            {
                "userType": "external",
                "cwd": self.cwd,
                "sessionId": self.session_id,
                "version": self.version,
                "gitBranch": self.branch,
                "type": kind,
            }
        )
        return record

    def _user(self, content: object, *, seconds: float = 2.0, **extra: Any) -> str:
        record = self.envelope("user")
        record["message"] = {"role": "user", "content": content}
        if self.prompt_ids and self.prompt_id:
            record["promptId"] = self.prompt_id
        record.update(extra)
        record["uuid"] = u = self.uid("user")
        record["timestamp"] = self.stamp(seconds)
        self.emit(record)
        self.last = u
        return u

    # -- shapes ------------------------------------------------------------------------------

    def prompt(self, content: object, **extra: Any) -> str:
        """A typed prompt (a string or text/image blocks); a new promptId."""
        self.prompt_id = self.uid("prompt") if self.prompt_ids else None
        return self._user(content, seconds=20.0, permissionMode="default", **extra)

    def meta(self, text: str) -> str:
        """A harness note the user did not type (isMeta)."""
        return self._user([{"type": "text", "text": text}], seconds=0.2, isMeta=True)

    def user_text(self, text: str, **extra: Any) -> str:
        """A user record with plain string content (wrappers, markers)."""
        return self._user(text, seconds=1.0, **extra)

    def interrupt(self, for_tool: bool = False) -> str:
        """The interrupt marker the CLI writes when the user presses Esc."""
        marker = "[Request interrupted by user" + (" for tool use]" if for_tool else "]")
        return self._user([{"type": "text", "text": marker}], seconds=1.0)

    def response(self, blocks: list[dict[str, Any]], *, model: str = "claude-sonnet-4-5") -> str:
        """One API response written as one record per content block, sharing message.id."""
        mid = "msg_01" + _b62(f"{self.seed}/msg/{self._n}", 22)
        for i, block in enumerate(blocks):
            record = self.envelope("assistant")
            record["message"] = {
                "model": model,
                "id": mid,
                "type": "message",
                "role": "assistant",
                "content": [block],
                "stop_reason": "tool_use"
                if block.get("type") == "tool_use" and i == len(blocks) - 1
                else None,
                "stop_sequence": None,
                "usage": {"input_tokens": 4, "output_tokens": 60},
            }
            record["requestId"] = "req_011C" + _b62(f"{self.seed}/req/{mid}", 20)
            record["uuid"] = u = self.uid("assistant")
            record["timestamp"] = self.stamp(1.3)
            self.emit(record)
            self.last = u
        return mid

    def tool_use(self, name: str, tool_input: dict[str, Any]) -> dict[str, Any]:
        """A tool_use block with a fresh id."""
        return {"type": "tool_use", "id": self.tool_id(), "name": name, "input": tool_input}

    def result(
        self,
        call: dict[str, Any],
        text: str,
        *,
        detail: object = None,
        is_error: bool = False,
    ) -> str:
        """The user record carrying one tool_use's result (paired by tool_use_id)."""
        block: dict[str, Any] = {"tool_use_id": call["id"], "type": "tool_result", "content": text}
        if is_error:
            block["is_error"] = True
        extra: dict[str, Any] = {}
        if detail is not None:
            extra["toolUseResult"] = detail
        return self._user([block], seconds=1.5, **extra)

    def system(self, subtype: str, *, parent: str | bool | None = True, **fields: Any) -> str:
        """A system record (turn_duration, compact_boundary, local_command...)."""
        record = self.envelope("system", parent=parent)
        record["subtype"] = subtype
        record.update(fields)
        record["uuid"] = u = self.uid("system")
        record["timestamp"] = self.stamp(0.4)
        self.emit(record)
        self.last = u
        return u

    def bookkeeping(self, kind: str, **fields: Any) -> None:
        """A line without a uuid (summary, queue-operation, file-history-snapshot)."""
        record: dict[str, Any] = {"type": kind, **fields}
        if kind == "queue-operation":
            record["timestamp"] = self.stamp(0.5)
            record["sessionId"] = self.session_id
        self.emit(record)

    def text(self) -> str:
        """The transcript's text: one record a line, ending with a newline."""
        return "\n".join(self.lines) + "\n"
