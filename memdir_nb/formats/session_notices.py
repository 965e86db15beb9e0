"""What the CLI told the user beside the conversation: recaps, notices and the session's mode.

Newer Claude Code versions write three kinds of record that are neither a prompt nor an
answer, and so never start or end a turn:

- ``system`` / ``away_summary``: the recap it shows when the user comes back to a session left
  idle for a while (``content``: a sentence or two on what was done and what is next, often
  ending with a hint on how to turn recaps off);
- ``system`` / ``informational``: a line it showed the user (``content``, with a ``level``:
  info, notice, suggestion, warning), such as a hook that completed, a usage limit reached
  or a response a safeguard stopped; the text may hold terminal colour codes;
- ``mode``: a bookkeeping line without uuid or time (``mode``: "normal" in the files seen).

A Session keeps the last SESSION_NOTICES_KEPT of the first two, each with the turn it came
after, and counts all of them; a listing shows the last recap, a replay lists the notices.

The CLI's session metadata (2.1.x; none of it carries a uuid, and it is written again after
each compaction, on resume and at exit, so the last one wins) is read here too (real42b):

- ``agent-name`` (``agentName``): the session's name, written by /rename beside its
  ``custom-title``, and by the CLI for a background job (there beside its ``ai-title``);
- ``permission-mode`` (``permissionMode``): default, acceptEdits, plan, bypassPermissions...;
- ``agent-setting`` (``agentSetting``): the agent the session ran as (``--agent``, a
  teammate's type); ``worktree-state`` (``worktreeSession``: ``worktreeName``,
  ``worktreeBranch``...; null or {} when the session left the worktree);
- ``tag`` (``tag``; an empty one clears it), ``task-summary`` (``summary``: what the session
  was doing), ``pr-link`` (``prNumber``, ``prRepository``, ``prUrl``: the pull request it
  linked when one showed up in tool output);
- ``last-prompt`` (``lastPrompt``, with the ``leafUuid`` of the conversation's last record):
  the last prompt the user typed, as the CLI's session picker shows it (sessions44).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memdir_nb.spec.constants import SESSION_NOTE_MAX_CHARS
from memdir_nb.spec.text import cap_text

RECAP = "away_summary"
INFORMATIONAL = "informational"
MODE_RECORD = "mode"  # a record type, not a system subtype
SESSION_NOTICES_KEPT = 16  # the last ones of a session; the count says how many there were
_MODE_MAX_CHARS = 64  # a mode is a word; a crafted one is cut
_LISTED_MAX = 8  # modes, permission modes, pull requests: each once, at most this many
AGENT_NAME = "agent-name"
PERMISSION_MODE = "permission-mode"
TAG = "tag"
TASK_SUMMARY = "task-summary"
PR_LINK = "pr-link"
AGENT_SETTING = "agent-setting"
WORKTREE_STATE = "worktree-state"
LAST_PROMPT = "last-prompt"


@dataclass(frozen=True)
class Notice:
    """One recap or informational line, after `turn` turns had begun."""

    kind: str  # RECAP | INFORMATIONAL
    text: str  # cut at SESSION_NOTE_MAX_CHARS, not yet made safe to show
    turn: int
    level: str | None = None  # an informational line's level, when a short string
    timestamp: str | None = None


@dataclass
class SessionNotices:
    """A session's recaps, informational lines and mode records (see the module doc)."""

    kept: deque[Notice] = field(default_factory=lambda: deque(maxlen=SESSION_NOTICES_KEPT))
    recaps: int = 0
    informational: int = 0
    modes: list[str] = field(default_factory=list)  # each mode named, once, at most 8
    latest_recap: str | None = None  # the last recap's text (kept past the deque)
    agent_name: str | None = None  # the last `agent-name` (blank ones passed over)
    permission_modes: list[str] = field(default_factory=list)  # each once, at most 8
    tag: str | None = None  # the last `tag`; an empty one clears it, as in the CLI
    task_summary: str | None = None  # the last `task-summary`
    pull_requests: list[str] = field(default_factory=list)  # "owner/repo#12", each once
    agent_setting: str | None = None  # the last `agent-setting`: the agent it ran as
    worktrees: list[str] = field(default_factory=list)  # "name (branch)", each once
    last_prompt: str | None = None  # the last `last-prompt` (blank ones passed over)

    def take(self, record: Mapping[str, Any], kind: str, turn: int) -> None:
        """Note one record of any type: a recap, an informational line, a mode record or
        session metadata (the module doc); every other record (and a value of the wrong JSON
        type) is passed over."""
        if kind == MODE_RECORD:
            _listed(self.modes, record.get("mode"))
            return
        if kind in _METADATA:
            self._metadata(record, kind)
            return
        sub = record.get("subtype") if kind == "system" else None
        if sub not in (RECAP, INFORMATIONAL):
            return
        text = record.get("content")
        if not isinstance(text, str) or not text.strip():
            return  # a blank recap says nothing and does not replace the last one
        text = cap_text(text.strip(), SESSION_NOTE_MAX_CHARS)
        level = record.get("level")
        stamp = record.get("timestamp")
        self.kept.append(
            Notice(
                sub,
                text,
                turn,
                level[:_MODE_MAX_CHARS] if isinstance(level, str) else None,
                stamp if isinstance(stamp, str) else None,
            )
        )
        if sub == RECAP:
            self.recaps += 1
            self.latest_recap = text
        else:
            self.informational += 1

    def _metadata(self, record: Mapping[str, Any], kind: str) -> None:
        """One session metadata record (the module doc's second list)."""
        if kind == PERMISSION_MODE:
            _listed(self.permission_modes, record.get("permissionMode"))
        elif kind == PR_LINK:
            _listed(self.pull_requests, _pull_request(record), SESSION_NOTE_MAX_CHARS)
        elif kind == AGENT_SETTING:
            setting = record.get("agentSetting")
            if isinstance(setting, str) and setting.strip():
                self.agent_setting = setting.strip()[:_MODE_MAX_CHARS]
        elif kind == WORKTREE_STATE:
            _listed(self.worktrees, _worktree(record.get("worktreeSession")), _MODE_MAX_CHARS * 2)
        elif kind == TAG:
            tag = record.get("tag")
            if isinstance(tag, str):
                self.tag = cap_text(tag.strip(), SESSION_NOTE_MAX_CHARS) or None
        else:
            text = record.get(_TEXT_FIELDS[kind])
            if not isinstance(text, str) or not text.strip():
                return
            text = cap_text(text.strip(), SESSION_NOTE_MAX_CHARS)
            if kind == AGENT_NAME:
                self.agent_name = text
            elif kind == LAST_PROMPT:
                self.last_prompt = text
            else:
                self.task_summary = text


_TEXT_FIELDS = {AGENT_NAME: "agentName", TASK_SUMMARY: "summary", LAST_PROMPT: "lastPrompt"}
_METADATA = frozenset({PERMISSION_MODE, TAG, PR_LINK, AGENT_SETTING, WORKTREE_STATE, *_TEXT_FIELDS})


def _listed(values: list[str], value: object, width: int = _MODE_MAX_CHARS) -> None:
    """Add value (a non-blank str, cut to width) to values once, while fewer than 8."""
    if isinstance(value, str) and value.strip() and len(values) < _LISTED_MAX:
        value = value.strip()[:width]
        if value not in values:
            values.append(value)


def _pull_request(record: Mapping[str, Any]) -> str | None:
    """A `pr-link` record's pull request: "owner/repo#12", else its URL; None without one."""
    number, repo, url = record.get("prNumber"), record.get("prRepository"), record.get("prUrl")
    if isinstance(repo, str) and repo.strip() and type(number) is int:
        return f"{repo.strip()}#{number}"
    return url if isinstance(url, str) else None


def _worktree(state: object) -> str | None:
    """A `worktree-state` record's worktree: "name (branch)", its name alone, or the last part
    of its path; None when it says the session left one (null, {})."""
    if not isinstance(state, Mapping):
        return None
    name, branch, path = (state.get(k) for k in ("worktreeName", "worktreeBranch", "worktreePath"))
    if not isinstance(name, str) or not name.strip():
        name = (
            path.replace("\\", "/").rstrip("/").rsplit("/", 1)[-1]
            if isinstance(path, str)
            else None
        )
    if not name or not name.strip():
        return None
    return (
        f"{name.strip()} ({branch.strip()})"
        if isinstance(branch, str) and branch.strip()
        else name.strip()
    )
