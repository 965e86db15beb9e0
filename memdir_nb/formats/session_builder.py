"""Building a Session from records fed one at a time (see formats.session_model for the rules).

A count-only builder (``count_only=True``, what a listing of sessions reads) runs the same rules
and lets go of each turn when the next one starts: it keeps the running turn, how many turns
came before it, and what later records are checked against (record uuids and tool_use ids as
hashes, prompt texts by time), never the turns' calls, texts or compaction points.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memdir_nb.formats import session_rewrites as rw
from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_blocks import read_blocks, read_results
from memdir_nb.formats.session_calls import ToolCallBook
from memdir_nb.formats.session_compactions import Compactions
from memdir_nb.formats.session_copies import (
    CopiedHistory,
    ForeignPrefix,
    drop_turns,
    keep_own_turn,
    leave_out_fork_launch,
)
from memdir_nb.formats.session_ledger import FILE_HISTORY_SNAPSHOT, LedgerTally
from memdir_nb.formats.session_model import (
    ENVELOPE_FACTS,
    AssistantResponse,
    Session,
    Turn,
    coordinator_placed,
    given_the_conversation,
    timestamp_ms,
    turns_were_sidechain,
)
from memdir_nb.formats.session_queue import MAX_QUEUED, InputQueue, absorb, is_typed
from memdir_nb.formats.session_refusals import REFUSAL_SUBTYPES, Retractions
from memdir_nb.formats.transcript_records import TranscriptProblem
from memdir_nb.spec.constants import (
    SESSION_MAX_PROBLEMS,
    SESSION_NOTE_MAX_CHARS,
    SESSION_PROMPT_MAX_CHARS,
    SESSION_QUEUED_PROMPT_MAX_CHARS,
)
from memdir_nb.spec.text import cap_text


class SessionBuilder:
    """Builds a Session from records fed one at a time (see the module docstring)."""

    def __init__(self, path: str = "", *, count_only: bool = False) -> None:
        self.session = Session(path=path)
        self._count_only = count_only
        self._turns_gone = 0  # turns let go by a count-only builder, before the running one
        self._main_sidechain: bool | None = None
        self._calls = ToolCallBook()
        self._copies, self._prefix = CopiedHistory(), ForeignPrefix(path, keep_uuids=not count_only)
        self._rewrites = rw.RewrittenHistory()  # a VS Code resume's copy, new uuids and one time
        self._gone_last: Turn | None = None  # count-only: the turn let go last (a take-back's)
        self._fed = 0  # user/assistant records read as this session's (not copies)
        self._fed_at_turn: list[int] = []  # how many came before each turn's first record
        self._uuids: set[int] = set()  # hashes of every record uuid, to tell whose a summary is
        self._compactions = Compactions(self.session, kept=not count_only)
        self._responses: dict[str, AssistantResponse] = {}
        self._pending_bash: list[str] = []
        self._pending_local: list[str] = []
        self._queue = InputQueue()
        self._ledger = LedgerTally()  # snapshots, token use: counted, never kept record by record
        self._retractions = Retractions()  # answers a refusal may take back (this turn's)
        self._idle = True  # no turn is running: none yet, or the last one's answer ended it
        self._ended = False  # the CLI wrote the turn's end (system/turn_duration)
        self._noted: set[int] = set()  # hashes of the notifications counted in this turn
        self._snap_first: str | None = None  # snapshots' times, for a file of them only
        self._snap_last = ""
        # a `!` command the model may answer (2.1.23x): its prompt text, line and record
        self._bash_prompt: tuple[str, int, Mapping[str, Any]] | None = None

    # -- input -------------------------------------------------------------------------------

    def problem(self, line_no: int, reason: str) -> None:
        """Record a bad line (the first SESSION_MAX_PROBLEMS are kept, the rest counted)."""
        s = self.session
        if len(s.problems) < SESSION_MAX_PROBLEMS:
            s.problems.append(TranscriptProblem(line_no, reason))
        else:
            s.more_problems += 1

    def feed(self, record: Mapping[str, Any], line_no: int) -> None:
        """Take one record; unknown types are counted and otherwise ignored."""
        kind = record.get("type")
        kind = kind if isinstance(kind, str) else "?"
        self.session.note_record_type(kind)
        self._prefix.note(record, self.turn_count)
        self._note_time(record)
        uuid = hash(record["uuid"]) if isinstance(record.get("uuid"), str) else None
        if uuid in self._uuids and kind in ("user", "assistant", "system"):
            # the same record written again (a second /compact in one process re-appends the
            # history it held, uuids kept: anthropics/claude-code#92089): read once, where first
            self.session.copied_records += kind != "system"
            return
        if uuid is not None:
            self._uuids.add(uuid)
        self.session.notices.take(record, kind, self.turn_count)  # recaps, notices: no turns
        if kind in ("user", "assistant"):
            self._facts(record)
            main = bool(record.get("isSidechain")) == self._main_sidechain
            user_kind = tr.classify_user(record) if kind == "user" and main else None
            if self._copied(record, user_kind, main):
                return
            self._fed += 1
            self._ledger.take(record, kind)  # the session's own answers' usage, copies left out
            if not main:
                self._sidechain(record, line_no)
            elif user_kind is not None:
                self._user(record, line_no, user_kind)
            else:
                self._assistant(record, line_no)
        elif kind == "summary":
            self._compactions.summary(record, line_no, self.turn_count)
        elif kind in ("ai-title", "custom-title"):
            self.session.note_title(record)
        elif kind == "system":
            self._system(record, line_no)
        else:
            self._other(record, kind, line_no)

    def _other(self, record: Mapping[str, Any], kind: str, line_no: int) -> None:
        """A record of a type feed does not route itself: a queue operation, an attachment, a
        file-history snapshot (the ledger's); any other is only counted."""
        if kind == "queue-operation":
            self._queue_operation(record)
        elif kind == "attachment":
            self._attachment(record, line_no)
        elif kind == FILE_HISTORY_SNAPSHOT:
            self._ledger.take(record, kind)

    def _copied(self, record: Mapping[str, Any], user_kind: str | None, main: bool) -> bool:
        """Whether a user/assistant record is a copy, counted and left out: history a `/fork`
        copied from its parent session, or history the CLI wrote again."""
        parent = tr.forked_from(record)
        if parent is None and not self._copies.is_copy(record, user_kind):
            verdict = self._rewrites.judge(record, user_kind, main)
            if verdict == rw.NOT_A_COPY:
                return False
            if verdict == rw.OPENS:
                self._take_back(self._rewrites.taken_lead)
        s = self.session
        if parent is not None and s.forked_from is None:
            s.forked_from = parent
        s.copied_records += 1
        if (uuid := tr.record_id(record.get("uuid"))) is not None and not self._count_only:
            s.copied_uuids.add(uuid)
        return True

    @property
    def turn_count(self) -> int:
        """The turns read so far (after finish: the session's), those let go included."""
        return self._turns_gone + len(self.session.turns)

    def finish(self) -> Session:
        """The session, with commands run after the last prompt listed on the last turn."""
        s = self.session
        s.ledger = self._ledger.result()
        self._compactions.finish(self._uuids)
        if s.first_timestamp is None and self._snap_first:  # a file of snapshots only
            s.first_timestamp, s.last_timestamp = self._snap_first, self._snap_last
        if self.turn_count > 1 and s.is_sidechain and given_the_conversation(s.agent_id or ""):
            if self._count_only:
                self._turns_gone = 0  # the running turn is the last: the one kept
            else:
                keep_own_turn(s, self._fed_at_turn[-1])
        if not self._count_only:
            self._prefix.leave_out(s, self._fed_at_turn, self._fed)
        elif copied := self._prefix.turns_copied(self.turn_count):
            gone = min(copied, self._turns_gone)
            self._turns_gone -= gone
            drop_turns(s, copied - gone, 0)  # the running turn too when the copy holds it
            self._prefix.name_parent(s)
        s.unanswered = self._queue.waiting_typed(self.turn_count)  # typed, no turn began
        s.unanswered_more = self._queue.dropped_typed(self.turn_count) if s.unanswered else 0
        s.last_typed = s.unanswered[-1] if s.unanswered else s.last_typed
        if s.turns:
            s.turns[-1].bash_commands.extend(self._pending_bash)
            s.turns[-1].local_commands.extend(self._pending_local)
            self._pending_bash, self._pending_local = [], []
        return s

    # -- facts -------------------------------------------------------------------------------

    def _note_time(self, record: Mapping[str, Any]) -> None:
        stamp = record.get("timestamp")
        if isinstance(stamp, str) and stamp:
            s = self.session  # a stamp that reads as no time dates nothing (attack39)
            if (s.last_timestamp or "") < stamp and timestamp_ms(stamp) is not None:
                s.first_timestamp, s.last_timestamp = s.first_timestamp or stamp, stamp
        elif snap := tr.snapshot_time(record):  # no timestamp of its own (real37)
            self._snap_first, self._snap_last = self._snap_first or snap, max(snap, self._snap_last)

    def _facts(self, record: Mapping[str, Any]) -> None:
        s = self.session
        if self._main_sidechain is None:
            self._main_sidechain = bool(record.get("isSidechain"))
            s.is_sidechain = self._main_sidechain
        elif self._main_sidechain and not record.get("isSidechain"):  # 2.0.x's "Warmup" first
            self._main_sidechain = False
            turns_were_sidechain(s, self._fed)
            self._fed, self._fed_at_turn, self._turns_gone = 0, [], 0
        for attr, key in ENVELOPE_FACTS:
            value = record.get(key)
            if getattr(s, attr) is None and isinstance(value, str):
                setattr(s, attr, value)
        version = record.get("version")
        if isinstance(version, str) and version not in s.versions and len(s.versions) < 32:
            s.versions.append(version)
            s.version = s.version or version
        agent = record.get("agentId")
        if s.is_sidechain and s.agent_id is None and isinstance(agent, str):
            s.agent_id = agent
        s.pane_teammate = s.pane_teammate or tr.is_pane_teammate_record(record)

    # -- turns -------------------------------------------------------------------------------

    def _current(self, line_no: int, record: Mapping[str, Any]) -> Turn:
        """The running turn; a file that starts mid-session gets a continuation turn."""
        if not self.session.turns:
            self._start_turn("", "continuation", line_no, record)
        return self.session.turns[-1]

    def _start_turn(
        self,
        prompt: str,
        kind: str,
        line_no: int,
        record: Mapping[str, Any],
        *,
        queued: bool = False,
    ) -> Turn:
        s = self.session
        if self._count_only and s.turns:
            self._let_go()
        pid = record.get("promptId")
        turn = Turn(
            index=self.turn_count,
            prompt=cap_text(prompt, SESSION_PROMPT_MAX_CHARS),
            kind=kind,
            line_no=line_no,
            timestamp=record.get("timestamp") if isinstance(record.get("timestamp"), str) else None,
            prompt_id=pid if isinstance(pid, str) else None,
            uuid=tr.record_id(record.get("uuid")),
            bash_commands=self._pending_bash,
            local_commands=self._pending_local,
            queued=queued,
        )
        self._pending_bash, self._pending_local, self._bash_prompt = [], [], None
        self._responses, self._noted, self._idle, self._ended = {}, set(), False, False
        self._retractions.start_turn()
        self._rewrites.started(turn.prompt, turn.timestamp, kind)
        s.turns.append(turn)
        self._fed_at_turn.append(self._fed - 1)  # the records before the one starting it
        if kind == "prompt" and turn.prompt.strip():
            s.last_typed = turn.prompt  # what a listing shows when no last-prompt record says
        return turn

    def _let_go(self) -> None:
        """Count-only: forget the finished turn, keeping its place in the count and its calls'
        ids (ToolCallBook.let_go). Only a count is asked of such a session: its images,
        copied records and compaction points are not kept either."""
        s = self.session
        for turn in s.turns:
            self._calls.let_go(c for r in turn.responses for c in r.tool_calls)
            self._calls.let_go(turn.sidechain_calls)
        self._turns_gone += len(s.turns)
        self._gone_last, s.turns = s.turns[-1], []
        del self._fed_at_turn[:]

    def _take_back(self, lead: list[str]) -> None:
        """The running turn was a resume's copy of the history (formats.session_rewrites):
        left out, its records and `lead`'s (its prompt's IDE context) counted as copied; the
        turn before it runs again."""
        s = self.session
        turn = s.turns.pop()
        records = self._fed - (self._fed_at_turn.pop() if self._fed_at_turn else 0) + len(lead)
        self._fed -= records
        rw.leave_out_turn(s, turn, records, lead, keep_uuids=not self._count_only)
        if not s.turns and self._gone_last is not None and self._turns_gone:
            s.turns, self._turns_gone = [self._gone_last], self._turns_gone - 1
        self._pending_bash = turn.bash_commands + self._pending_bash
        self._pending_local = turn.local_commands + self._pending_local

    def _touch(self, turn: Turn, record: Mapping[str, Any]) -> None:
        uuid = tr.record_id(record.get("uuid"))
        if uuid is not None:
            turn.last_uuid = uuid
        stamp = record.get("timestamp")
        if isinstance(stamp, str):
            turn.end_timestamp = stamp

    def _user(self, record: Mapping[str, Any], line_no: int, kind: str) -> None:
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        kind, self._idle = coordinator_placed(kind, self.session.turns, self._idle)
        images = tr.count_images(content)
        self.session.images += images
        if kind not in (tr.BASH_INPUT, tr.BASH_OUTPUT, tr.META, tr.EMPTY):
            self._bash_prompt = None  # what the model answers next is not the `!` command
        if kind in tr.TURN_KINDS:
            self._prompt(record, line_no, kind, content, images)
            return
        if kind == tr.BASH_INPUT:
            command = (tr.tag_value(tr.content_text(content), "bash-input") or "").strip()
            self._pending_bash.append(cap_text(command, SESSION_NOTE_MAX_CHARS))
            self._bash_prompt = self._answerable_bash(record, command, line_no)
            return
        if kind == tr.LOCAL_COMMAND:
            line = tr.command_line(tr.content_text(content))
            self._pending_local.append(cap_text(line, SESSION_NOTE_MAX_CHARS))
            self._queue.prompt_arrived(line, self.turn_count)  # a queued /command ran
            return
        if kind == tr.LOCAL_COMMAND_OUTPUT:
            unknown = tr.unknown_command(tr.content_text(content))
            if unknown:  # the `/name` the CLI did not know: listed on the next turn as run
                self._pending_local.append(cap_text(unknown, SESSION_NOTE_MAX_CHARS))
            return
        if kind in (tr.BASH_OUTPUT, tr.META, tr.EMPTY, tr.COMMAND_ECHO):
            return
        if kind == tr.COMPACT_SUMMARY:
            text = tr.content_text(content)
            self._compactions.point("compact_summary", line_no, record, self.turn_count, text)
            return
        turn = self._current(line_no, record)
        turn.images += images
        self._touch(turn, record)
        if kind == tr.INTERRUPT:
            turn.interrupted = True
        elif kind == tr.TASK_NOTIFICATION:
            turn.notifications += 1
            self._queue.notification_arrived()
        elif kind == tr.TOOL_RESULT:
            self._idle = False
            read_results(self._calls, record, content, turn)

    def _prompt(
        self, record: Mapping[str, Any], line_no: int, kind: str, content: object, images: int
    ) -> None:
        s = self.session
        pid = record.get("promptId")
        running = s.turns[-1] if s.turns else None
        # The running turn's promptId joins a prompt to it only while it works (docs/sessions.md:
        # VS Code 2.1.12x-2.1.14x and 2.1.8x-2.1.9x reuse ids; so does a handed-conversation agent).
        ended = self._ended or self._idle or given_the_conversation(s.agent_id or "")
        if running and not ended and isinstance(pid, str) and pid == running.prompt_id:
            text = tr.prompt_text(content)
            if len(running.queued_prompts) < MAX_QUEUED:  # same prompt id
                running.queued_prompts.append(cap_text(text, SESSION_QUEUED_PROMPT_MAX_CHARS))
            self._typed(text)
            self._queue.prompt_arrived(text, self.turn_count)  # a dequeue that released it
            running.images += images
            self._touch(running, record)
            return
        slash = kind == tr.SLASH_COMMAND
        text = tr.command_line(tr.content_text(content)) if slash else tr.prompt_text(content)
        turn_kind = tr.TURN_KINDS.get(kind, "prompt")
        # (a count-only builder that let turns go has read more than the one turn it looks for)
        if not self._turns_gone and leave_out_fork_launch(s, content, self._fed - 1):
            self._fed_at_turn = []  # the parent's call, copied
        queued = self._queue.prompt_arrived(text, self.turn_count)
        turn = self._start_turn(text, turn_kind, line_no, record, queued=queued)
        turn.images += images
        self._touch(turn, record)

    def _answerable_bash(
        self, record: Mapping[str, Any], command: str, line_no: int
    ) -> tuple[str, int, Mapping[str, Any]] | None:
        """A `!` command typed with no turn running, with a prompt id of its own: 2.1.23x sends
        it to the model, whose answer makes it a turn (see _assistant); older CLIs never did."""
        pid = record.get("promptId")
        running = self.session.turns[-1].prompt_id if self.session.turns else None
        if not self._idle or not isinstance(pid, str) or pid == running:
            return None
        return f"! {command}", line_no, record

    def _assistant(self, record: Mapping[str, Any], line_no: int) -> None:
        message = record.get("message")
        if not isinstance(message, dict):
            self.problem(line_no, "assistant record without a message; skipped")
            return
        if self._bash_prompt is not None:  # the model answers a `!` command: its own turn
            prompt, at, bash_record = self._bash_prompt
            self._start_turn(prompt, "bash", at, bash_record)
        turn = self._current(line_no, record)
        self._touch(turn, record)
        mid = message.get("id")
        mid = mid if isinstance(mid, str) and mid else f"line-{line_no}"
        response = self._responses.get(mid)
        if response is None:
            model = message.get("model")
            response = AssistantResponse(mid, model if isinstance(model, str) else None, line_no)
            self._responses[mid] = response
            turn.responses.append(response)
        response.records += 1
        self._retractions.saw(record, response, self.session)
        self.session.note_api_error(tr.api_error_text(record))
        self._idle = message.get("stop_reason") in ("end_turn", "stop_sequence")
        for call in read_blocks(
            self._calls, message.get("content"), response, record, line_no, False
        ):
            response.tool_calls.append(call)

    def _sidechain(self, record: Mapping[str, Any], line_no: int) -> None:
        """An inline subagent record (1.0.x): its tool calls and results, kept apart."""
        self.session.sidechain_records += 1
        if not self.session.turns:
            return
        turn = self.session.turns[-1]
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "assistant":
            turn.sidechain_calls.extend(
                read_blocks(self._calls, content, None, record, line_no, True)
            )
        else:
            read_results(self._calls, record, content, turn)

    # -- other records -----------------------------------------------------------------------

    def _system(self, record: Mapping[str, Any], line_no: int) -> None:
        sub = record.get("subtype")
        # a list or an object there is no subtype; as a set member it raised TypeError out of
        # read_session, `sessions` and `replay` (attack round 29), as feed() keeps "type" a str
        sub = sub if isinstance(sub, str) else None
        if sub == "compact_boundary":
            self._compactions.point("compact_boundary", line_no, record, self.turn_count)
        elif sub == "microcompact_boundary":
            self._compactions.point("microcompact", line_no, record, self.turn_count)
        elif sub == "turn_duration":
            self._idle = self._ended = True  # written when a turn ends
        elif sub == "api_error":
            self.session.note_api_error(tr.api_error_text(record))
        elif sub == "memory_saved":
            self.session.note_memory_saved(record, line_no)
        elif sub in REFUSAL_SUBTYPES:
            self._retractions.refused(record, self.session)
        elif sub == "local_command":
            text = record.get("content")
            if isinstance(text, str) and text.lstrip().startswith("<command-name>"):
                self._pending_local.append(cap_text(tr.command_line(text), SESSION_NOTE_MAX_CHARS))

    def _queue_operation(self, record: Mapping[str, Any]) -> None:
        """See formats.session_queue: typed while a turn ran, or a notification."""
        self._copies.queued(record)  # at the top of a file: a fork's own queue records
        op, text = record.get("operation"), record.get("content")
        if op == "enqueue" and isinstance(text, str):
            turns = self.turn_count
            self._queue.enqueue(text, bool(turns) and not self._idle, turns)
        elif op == "remove" and (gone := self._queue.remove(text)) is not None:
            self._absorbed(gone)
        elif op == "dequeue":
            self._queue.dequeue()
        elif op == "popAll":
            self._queue.pop_all()

    def _attachment(self, record: Mapping[str, Any], line_no: int) -> None:
        att = record.get("attachment")
        text = att.get("prompt") if isinstance(att, dict) else None
        if isinstance(att, dict) and att.get("type") == "queued_command" and isinstance(text, str):
            self._absorbed(text)
        self.session.note_attachment(att, line_no, record.get("timestamp"))

    def _absorbed(self, text: str) -> None:
        """Queued input taken into the running turn (a remove, then its attachment)."""
        if self.session.turns:
            absorb(self.session.turns[-1], text, self._noted)
            self._typed(text)

    def _typed(self, text: str) -> None:
        """A prompt typed while a turn ran, taken into it: the last typed so far (sessions45)."""
        if is_typed(text):
            self.session.last_typed = cap_text(text, SESSION_PROMPT_MAX_CHARS)


def build_session(records: Iterable[tuple[int, Mapping[str, Any]]], path: str = "") -> Session:
    """A Session from (line number, record) pairs already parsed."""
    builder = SessionBuilder(path)
    for line_no, record in records:
        builder.feed(record, line_no)
    return builder.finish()
