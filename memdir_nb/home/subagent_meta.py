"""A subagent's meta file: what Claude Code 2.x writes beside the subagent's transcript.

Beside ``agent-<id>.jsonl`` (in ``<session id>/subagents/``) Claude Code 2.1 writes
``agent-<id>.meta.json``, a small object holding the subagent's ``agentType`` ("Explore",
"general-purpose", a user's own agent) and the ``description`` the main agent gave the Task
that started it (real38: a home of 2.1.97-2.1.101). `memdir-nb sessions` names a subagent by
it; the file name alone (``agent-a3f…``) says nothing of what the subagent was for.

The file is read as any other file of a home: one bounded read that follows no symlink and
stays in the transcript's own folder (storage.access), then the package's one JSON parser
with its caps (formats.jsonio). A missing, unreadable, oversized or malformed meta file, or
one whose fields are not strings, gives no meta: the listing is as it was without one.
"""

from __future__ import annotations

import os

from memdir_nb.formats.jsonio import loads_bounded
from memdir_nb.spec.constants import SUBAGENT_META_READ_MAX_BYTES
from memdir_nb.spec.records import Record
from memdir_nb.spec.text import clip, one_line
from memdir_nb.storage.access import ReadResult, try_read_contained

TRANSCRIPT_SUFFIX = ".jsonl"
META_SUFFIX = ".meta.json"  # agent-<id>.jsonl -> agent-<id>.meta.json
SHOWN_MAX_CHARS = 80  # a description shown in a listing's row is cut here


class SubagentMeta(Record, frozen=True):
    """What a subagent's meta file says of it ('' for a field it does not hold as a string)."""

    description: str = ""
    agent_type: str = ""

    @property
    def shown(self) -> str:
        """The description in one line, cut at SHOWN_MAX_CHARS, with the agent type after it
        in brackets: '' when there is neither (the caller makes it terminal safe)."""
        text = clip(one_line(self.description), SHOWN_MAX_CHARS)
        kind = f"[{one_line(self.agent_type)[:SHOWN_MAX_CHARS]}]" if self.agent_type else ""
        return " ".join(part for part in (text, kind) if part)


def meta_path(transcript: str | os.PathLike[str]) -> str | None:
    """The meta file beside a transcript (`agent-<id>.jsonl` -> `agent-<id>.meta.json`), or
    None for a path that is no `.jsonl` file."""
    path = os.fspath(transcript)
    if not path.endswith(TRANSCRIPT_SUFFIX):
        return None
    return path[: -len(TRANSCRIPT_SUFFIX)] + META_SUFFIX


def subagent_meta(transcript: str | os.PathLike[str]) -> SubagentMeta | None:
    """The meta file beside a subagent's transcript, or None when there is none it may read
    (see the module: nothing about it is ever an error)."""
    path = meta_path(transcript)
    if path is None:
        return None
    folder = os.path.dirname(os.path.abspath(path))
    res = try_read_contained(folder, path, SUBAGENT_META_READ_MAX_BYTES, follow_symlinks=False)
    if not isinstance(res, ReadResult) or res.truncated:
        return None
    try:
        value = loads_bounded(
            res.data, max_bytes=SUBAGENT_META_READ_MAX_BYTES, what="subagent meta file"
        )
    except (ValueError, RecursionError):  # bad JSON, over a cap (JSONLimitError is one)
        return None
    if not isinstance(value, dict):
        return None
    meta = SubagentMeta(_one_string(value.get("description")), _one_string(value.get("agentType")))
    return meta if meta.shown else None


def _one_string(value: object) -> str:
    """A field's text in one line, '' when it is no string."""
    return one_line(value) if isinstance(value, str) else ""
