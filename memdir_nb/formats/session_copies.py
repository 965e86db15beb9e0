"""History copied into a transcript: telling a copied turn from a new one (docs/sessions.md).

Also the parent's conversation that 2.1.8x writes into the file of an agent it hands the
whole conversation (:func:`keep_own_turn`).

Newer CLIs (2.1.1x and later) may append a finished turn again, one content block per record,
with fresh uuids but the original timestamps and tool_use ids. The session builder asks
:class:`CopiedHistory` about every main-thread user/assistant record, in file order, and
tells it the queue records read before the first of them (:meth:`CopiedHistory.queued`).
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Mapping
from typing import Any

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_model import Session, timestamp_ms
from memdir_nb.spec.constants import SESSION_PROMPT_MAX_CHARS
from memdir_nb.spec.text import cap_text

# A main transcript's file name: its session id (subagent files are `agent-<id>.jsonl`).
SESSION_FILE_NAME = re.compile(
    r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.jsonl"
)

# How much older than the queue records that open a file its first conversation records must
# be to be a fork's copy: a genuine first prompt is written just after its dequeue.
FORK_COPY_MIN_AGE_MS = 2000.0


def prompt_key(record: Mapping[str, Any], kind: str) -> str:
    """A prompt record's text as its turn shows it: the typed text, or '/name args'."""
    message = record.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    if kind == tr.SLASH_COMMAND:
        return tr.command_line(tr.content_text(content))
    return tr.prompt_text(content)


class CopiedHistory:
    """Which records are history written again, judged by their times and prompt texts."""

    def __init__(self) -> None:
        self._prompts: dict[str, str] = {}  # prompt text by timestamp, to tell copies
        self._latest_ms: float | None = None  # the newest user/assistant record read
        self._copy_mark: float | None = None  # in a copy: the newest time read before it
        self._opened_ms: float | None = None  # the newest queue record before any prompt
        self._prompted = False  # a prompt record was read

    def queued(self, record: Mapping[str, Any]) -> None:
        """A queue record, which before any user/assistant record may open a fork's file.

        `--resume <id> --fork-session` (2.1.2xx) starts the new file with its own first
        prompt's queue records, stamped at the fork, then copies the parent's conversation
        with its uuids and times kept and its sessionId rewritten, and no `forkedFrom`. When
        the first prompt record is older than those queue records (by more than
        FORK_COPY_MIN_AGE_MS), it and what follows up to their time are the parent's; the
        first newer record, the fork's own prompt, ends the copy. (The VS Code extension
        writes the local commands typed before the first prompt after that prompt's queue
        records with their own, older, times: those are no copy.)
        """
        ms = timestamp_ms(record.get("timestamp"))
        if not self._prompted and ms is not None:
            self._opened_ms = ms if self._opened_ms is None else max(ms, self._opened_ms)

    def is_copy(self, record: Mapping[str, Any], user_kind: str | None) -> bool:
        """Whether a user/assistant record is history the CLI wrote again.

        A prompt record is such a copy when an earlier prompt record has the same timestamp
        and the same text (or holds its text: a copy may write each block of the prompt as
        its own record), and something later than it was already read. Then every record no
        newer than what was read before the copy is part of it; the first newer record (a
        genuine prompt always is one) ends it. The parentUuid chain is not used: real files
        have broken links, and compaction links through logicalParentUuid.
        """
        stamp = record.get("timestamp")
        stamp = stamp if isinstance(stamp, str) else None
        ms = timestamp_ms(stamp)
        if not self._prompted and user_kind in tr.TURN_KINDS:
            self._prompted, opened = True, self._opened_ms
            if opened is not None and ms is not None and ms < opened - FORK_COPY_MIN_AGE_MS:
                self._copy_mark = opened  # a fork's file: the parent's history comes first
        if self._copy_mark is not None:
            if ms is None or ms <= self._copy_mark:
                return True
            self._copy_mark = None
        if stamp is not None and user_kind in tr.TURN_KINDS:
            text = cap_text(prompt_key(record, user_kind), SESSION_PROMPT_MAX_CHARS)
            earlier = self._prompts.get(stamp)
            latest = self._latest_ms
            repeated = earlier is not None and text in earlier
            if repeated and ms is not None and latest is not None and ms < latest:
                self._copy_mark = latest
                return True
            joined = text if earlier is None else f"{earlier}\n{text}"
            self._prompts[stamp] = cap_text(joined, 2 * SESSION_PROMPT_MAX_CHARS)
        if ms is not None and (self._latest_ms is None or ms > self._latest_ms):
            self._latest_ms = ms
        return False


class ForeignPrefix:
    """The parent's records a fork copied with the parent's sessionId (Claude Desktop, 2.1.17x).

    Claude Desktop (`entrypoint: claude-desktop`) forks a conversation into a new file named
    with the fork's id and opens it with the parent's records written again unchanged: queue
    records, prompts and answers, with the parent's uuids, times and `sessionId`, and no
    `forkedFrom`; the fork's own records, carrying its own id, follow. So the records read
    before the first one carrying the file's own id (its name) are the parent's when an
    answer among them (an assistant record) carries another session's id. An answer is what
    tells a copy: after a `/clear`, 2.1.19 writes the user's prompts under the session
    cleared for a while, and the answers under the file's own id. The CLI's interrupt notice
    tells one too: 2.1.5x and 2.1.6x open the session that implements a plan after clearing the
    context with the planning session's last record, "[Request interrupted by user for tool
    use]" under its id (real40: four of a Windows home's transcripts); no user types it.
    """

    def __init__(self, path: str, *, keep_uuids: bool = True) -> None:
        name = os.path.basename(path)
        self._own = name[: -len(".jsonl")] if SESSION_FILE_NAME.fullmatch(name) else None
        self._parent: str | None = None  # the other session, if an answer named it
        self._uuids: list[str] = []  # the user/assistant records read before the own id's
        self._keep_uuids = keep_uuids  # off: only counted (a count-only read names no copies)
        self._read = 0  # how many user/assistant records with a uuid came before the own id's
        self._before = 0  # how many of them came before the record noted last
        self._turns = 0  # the turns built when the last record was noted
        self._opened_at = 0  # how many came before the last turn's first record
        self.copied_turns = 0  # how many turns the copy holds, known when the own id shows

    def note(self, record: Mapping[str, Any], turns: int) -> None:
        """See one record (any type) before the builder takes it; `turns` built so far."""
        sid = record.get("sessionId")
        if self._own is None or not isinstance(sid, str):
            return
        if turns != self._turns:  # the record noted last opened a turn
            self._turns, self._opened_at = turns, self._before
        if sid == self._own:
            self._own = None  # the prefix ends here, whatever it was
            self.copied_turns = turns if self._parent is not None else 0
            if self.copied_turns and record.get("type") == "assistant":
                # An answer under the own id answers a prompt written under another (2.1.19
                # after /clear): that turn is the file's own, and the copy ends before it
                # (attack round 19: a stray answer under the cleared id lost the first turn)
                self.copied_turns -= 1
                del self._uuids[self._opened_at :]
                self._read = self._opened_at
            return
        if record.get("type") == "assistant" or _carried_interrupt(record):
            self._parent = sid
        uuid = tr.record_id(record.get("uuid"))
        self._before = self._read
        if record.get("type") in ("user", "assistant") and uuid is not None:
            self._read += 1
            if self._keep_uuids:
                self._uuids.append(uuid)

    def leave_out(self, session: Session, fed_at_turn: list[int], fed: int) -> None:
        """Drop the copied turns (when the own id showed after a copy); name the parent.
        `fed_at_turn` and `fed`: the builder's counts of records read before each turn's
        first, and in all."""
        kept_from = self.turns_copied(len(session.turns))
        if not kept_from:
            return
        drop_turns(
            session, kept_from, fed_at_turn[kept_from] if kept_from < len(fed_at_turn) else fed
        )
        self.name_parent(session)

    def turns_copied(self, turns: int) -> int:
        """How many of the session's first `turns` turns the copy holds (0: none, or no copy
        the turns read can hold)."""
        return self.copied_turns if self.copied_turns <= turns else 0

    def name_parent(self, session: Session) -> None:
        """After the copied turns were left out: their uuids as copied, the parent named, the
        session's id the file's own."""
        session.copied_uuids.update(self._uuids)
        session.forked_from = session.forked_from or self._parent
        session.session_id = os.path.basename(session.path)[: -len(".jsonl")]


def _carried_interrupt(record: Mapping[str, Any]) -> bool:
    """Whether a record is the CLI's interrupt notice (a user record nobody typed)."""
    return record.get("type") == "user" and tr.classify_user(record) == tr.INTERRUPT


def drop_turns(session: Session, kept_from: int, records_before: int) -> None:
    """Leave out the turns before `kept_from`, history copied into the file: their
    user/assistant records (`records_before` the first kept turn's) count as copied; their
    images and compaction points go with them."""
    session.images -= sum(t.images for t in session.turns[:kept_from])
    session.copied_records += records_before
    session.compactions = [
        dataclasses.replace(c, before_turn=c.before_turn - kept_from)
        for c in session.compactions
        if c.before_turn >= kept_from
    ]
    session.turns = session.turns[kept_from:]
    for index, turn in enumerate(session.turns):
        turn.index = index


def keep_own_turn(session: Session, records_before: int) -> None:
    """Keep only the last turn of an agent the CLI handed the conversation (session_model.
    given_the_conversation): the turns before it are the parent's, copied into the agent's
    file."""
    drop_turns(session, len(session.turns) - 1, records_before)


def leave_out_fork_launch(session: Session, content: object, records_before: int) -> bool:
    """Drop the parent's call a fork worker's file opens with (2.1.20x), at the fork's task.

    The file opens with a `fork-context-ref` line, then the parent's Agent call copied as its
    first record (no parent uuid), then one user record holding that call's "started" result
    and the fork's task (transcript_records: a prompt in a sidechain file). When the only turn
    read before the task is prompt-less and every tool call in it is answered by the task's
    record, that turn is the copy: left out, its records counted as copied. `content` is the
    task record's content; `records_before` the user/assistant records read before it.
    """
    turns = session.turns
    if not session.is_sidechain or len(turns) != 1 or turns[0].kind != "continuation":
        return False
    blocks = tr.content_blocks(content)
    answered = {b.get("tool_use_id") for b in blocks if b.get("type") == "tool_result"}
    calls = [c.id for r in turns[0].responses for c in r.tool_calls]
    if not calls or not answered.issuperset(calls):
        return False
    session.copied_uuids.update(u for u in (turns[0].uuid, turns[0].last_uuid) if u)
    drop_turns(session, 1, records_before)
    return True
