"""Building a Session from records fed one at a time (see formats.session_model for the rules)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_copies import (
    CopiedHistory,
    ForeignPrefix,
    keep_own_turn,
    leave_out_fork_launch,
)
from memdir_nb.formats.session_model import (
    ENVELOPE_FACTS,
    AssistantResponse,
    CompactionPoint,
    Session,
    ToolCall,
    Turn,
    cap_text,
    cap_value,
    coordinator_placed,
    given_the_conversation,
    mentions_memory,
    turns_were_sidechain,
)
from memdir_nb.formats.session_queue import InputQueue
from memdir_nb.formats.session_refusals import REFUSAL_SUBTYPES, Retractions
from memdir_nb.formats.session_results import MAX_EARLY_RESULTS, ResultSeen, pair, result_of
from memdir_nb.formats.transcript_records import TranscriptProblem
from memdir_nb.spec.constants import (
    SESSION_MAX_PROBLEMS,
    SESSION_PROMPT_MAX_CHARS,
    SESSION_TOOL_INPUT_MAX_CHARS,
    SESSION_TOOL_RESULT_MAX_CHARS,
)


class SessionBuilder:
    """Builds a Session from records fed one at a time (see the module docstring)."""

    def __init__(self, path: str = "") -> None:
        self.session = Session(path=path)
        self._main_sidechain: bool | None = None
        self._calls: dict[str, ToolCall] = {}
        self._early: dict[str, ResultSeen] = {}  # results written before their call
        self._copies, self._prefix = CopiedHistory(), ForeignPrefix(path)
        self._fed = 0  # user/assistant records read as this session's (not copies)
        self._fed_at_turn: list[int] = []  # how many came before each turn's first record
        self._uuids: set[int] = set()  # hashes of every record uuid, to tell whose a summary is
        self._summaries: list[tuple[CompactionPoint, int]] = []  # with their leafUuid's hash
        self._responses: dict[str, AssistantResponse] = {}
        self._pending_bash: list[str] = []
        self._pending_local: list[str] = []
        self._queue = InputQueue()
        self._retractions = Retractions()  # answers a refusal may take back (this turn's)
        self._idle = True  # no turn is running: none yet, or the last one's answer ended it
        self._ended = False  # the CLI wrote the turn's end (system/turn_duration)
        self._noted: set[int] = set()  # hashes of the notifications counted in this turn
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
        counts = self.session.record_counts
        counts[kind] = counts.get(kind, 0) + 1
        self._prefix.note(record, len(self.session.turns))
        self._note_time(record.get("timestamp"))
        uuid = hash(record["uuid"]) if isinstance(record.get("uuid"), str) else None
        if uuid in self._uuids and kind in ("user", "assistant", "system"):
            # the same record written again (a second /compact in one process re-appends the
            # history it held, uuids kept: anthropics/claude-code#92089): read once, where first
            self.session.copied_records += kind != "system"
            return
        if uuid is not None:
            self._uuids.add(uuid)
        if kind in ("user", "assistant"):
            self._facts(record)
            main = bool(record.get("isSidechain")) == self._main_sidechain
            user_kind = tr.classify_user(record) if kind == "user" and main else None
            if self._copied(record, user_kind):
                return
            self._fed += 1
            if not main:
                self._sidechain(record, line_no)
            elif user_kind is not None:
                self._user(record, line_no, user_kind)
            else:
                self._assistant(record, line_no)
        elif kind == "summary":
            self._summary(record, line_no)
        elif kind in ("ai-title", "custom-title"):
            self.session.note_title(record)
        elif kind == "system":
            self._system(record, line_no)
        elif kind == "queue-operation":
            self._queue_operation(record)
        elif kind == "attachment":
            self._attachment(record, line_no)

    def _copied(self, record: Mapping[str, Any], user_kind: str | None) -> bool:
        """Whether a user/assistant record is a copy, counted and left out: history a `/fork`
        copied from its parent session, or history the CLI wrote again."""
        parent = tr.forked_from(record)
        if parent is None and not self._copies.is_copy(record, user_kind):
            return False
        s = self.session
        if parent is not None and s.forked_from is None:
            s.forked_from = parent
        s.copied_records += 1
        if (uuid := tr.record_id(record.get("uuid"))) is not None:
            s.copied_uuids.add(uuid)
        return True

    def finish(self) -> Session:
        """The session, with commands run after the last prompt listed on the last turn."""
        s = self.session
        foreign = {id(point) for point, leaf in self._summaries if leaf not in self._uuids}
        if foreign:  # titles the CLI keeps for other sessions (see _summary)
            s.compactions = [c for c in s.compactions if id(c) not in foreign]
        if len(s.turns) > 1 and s.is_sidechain and given_the_conversation(s.agent_id or ""):
            keep_own_turn(s, self._fed_at_turn[-1])
        self._prefix.leave_out(s, self._fed_at_turn, self._fed)
        if s.turns:
            s.turns[-1].bash_commands.extend(self._pending_bash)
            s.turns[-1].local_commands.extend(self._pending_local)
            self._pending_bash, self._pending_local = [], []
        return s

    # -- facts -------------------------------------------------------------------------------

    def _note_time(self, stamp: object) -> None:
        if isinstance(stamp, str) and stamp:
            s = self.session
            if s.first_timestamp is None:
                s.first_timestamp = stamp
            if s.last_timestamp is None or stamp > s.last_timestamp:
                s.last_timestamp = stamp

    def _facts(self, record: Mapping[str, Any]) -> None:
        s = self.session
        if self._main_sidechain is None:
            self._main_sidechain = bool(record.get("isSidechain"))
            s.is_sidechain = self._main_sidechain
        elif self._main_sidechain and not record.get("isSidechain"):  # 2.0.x's "Warmup" first
            self._main_sidechain = False
            turns_were_sidechain(s, self._fed)
            self._fed, self._fed_at_turn = 0, []
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
        pid = record.get("promptId")
        turn = Turn(
            index=len(s.turns),
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
        s.turns.append(turn)
        self._fed_at_turn.append(self._fed - 1)  # the records before the one starting it
        return turn

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
            self._pending_bash.append(cap_text(command, 500))
            self._bash_prompt = self._answerable_bash(record, command, line_no)
            return
        if kind == tr.LOCAL_COMMAND:
            line = tr.command_line(tr.content_text(content))
            self._pending_local.append(cap_text(line, 500))
            self._queue.prompt_arrived(line, len(self.session.turns))  # a queued /command ran
            return
        if kind == tr.LOCAL_COMMAND_OUTPUT:
            unknown = tr.unknown_command(tr.content_text(content))
            if unknown:  # the `/name` the CLI did not know: listed on the next turn as run
                self._pending_local.append(cap_text(unknown, 500))
            return
        if kind in (tr.BASH_OUTPUT, tr.META, tr.EMPTY, tr.COMMAND_ECHO):
            return
        if kind == tr.COMPACT_SUMMARY:
            self._compaction("compact_summary", line_no, record, text=tr.content_text(content))
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
            self._results(record, content, turn)

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
            running.queued_prompts.append(cap_text(text, 2000))  # same prompt id
            self._queue.prompt_arrived(text, len(s.turns))  # a dequeue that released it
            running.images += images
            self._touch(running, record)
            return
        slash = kind == tr.SLASH_COMMAND
        text = tr.command_line(tr.content_text(content)) if slash else tr.prompt_text(content)
        turn_kind = tr.TURN_KINDS.get(kind, "prompt")
        if leave_out_fork_launch(s, content, self._fed - 1):  # the parent's call, copied
            self._fed_at_turn = []
        queued = self._queue.prompt_arrived(text, len(s.turns))
        turn = self._start_turn(text, turn_kind, line_no, record, queued=queued)
        turn.images += images
        self._touch(turn, record)

    def _results(self, record: Mapping[str, Any], content: object, turn: Turn) -> None:
        detail = record.get("toolUseResult")
        blocks = [b for b in tr.content_blocks(content) if b.get("type") == "tool_result"]
        for block in blocks:
            text = tr.block_text(block)
            if tr.is_interrupt_result(text):
                turn.interrupted = True
            result = result_of(block, text, detail if len(blocks) == 1 else None)
            call = self._calls.get(result.tool_use_id)
            if call is not None:
                pair(call, result)
                continue
            # Written before its call (Claude Desktop flushes some results first): kept until
            # the call arrives. Bounded, so a hostile file of orphan results cannot grow memory:
            # past MAX_EARLY_RESULTS the oldest waiting result is dropped (real ones wait for
            # the very next record or two).
            if len(self._early) >= MAX_EARLY_RESULTS:
                del self._early[next(iter(self._early))]
            self._early[result.tool_use_id] = result

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
        for call in self._blocks(message.get("content"), response, record, line_no, False):
            response.tool_calls.append(call)

    def _blocks(
        self,
        content: object,
        response: AssistantResponse | None,
        record: Mapping[str, Any],
        line_no: int,
        sidechain: bool,
    ) -> list[ToolCall]:
        calls: list[ToolCall] = []
        for block in tr.content_blocks(content):
            kind = block.get("type")
            if kind == "tool_use":
                if str(block.get("id")) in self._calls:
                    continue  # the same call written again: counted once, where first seen
                raw = block.get("input")
                name = str(block.get("name") or "?")
                keep = (
                    SESSION_TOOL_INPUT_MAX_CHARS
                    if isinstance(raw, dict) and mentions_memory(name, raw)
                    else SESSION_TOOL_RESULT_MAX_CHARS
                )
                call = ToolCall(
                    id=str(block.get("id") or f"line-{line_no}-{len(calls)}"),
                    name=name,
                    input=cap_value(raw, keep) if isinstance(raw, dict) else {},  # type: ignore[arg-type]
                    line_no=line_no,
                    timestamp=record.get("timestamp")
                    if isinstance(record.get("timestamp"), str)
                    else None,
                    is_sidechain=sidechain,
                    cwd=tr.record_cwd(record),
                )
                self._calls[call.id] = call
                early = self._early.pop(call.id, None)
                if early is not None:
                    pair(call, early)
                calls.append(call)
            elif response is None:
                continue
            elif kind == "text":
                text = tr.block_text(block)
                if text and len(response.text) < SESSION_TOOL_RESULT_MAX_CHARS:
                    joined = f"{response.text}\n{text}" if response.text else text
                    response.text = cap_text(joined, SESSION_TOOL_RESULT_MAX_CHARS)
            elif kind in ("thinking", "redacted_thinking"):
                response.thinking_blocks += 1
        return calls

    def _sidechain(self, record: Mapping[str, Any], line_no: int) -> None:
        """An inline subagent record (1.0.x): its tool calls and results, kept apart."""
        self.session.sidechain_records += 1
        if not self.session.turns:
            return
        turn = self.session.turns[-1]
        message = record.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if record.get("type") == "assistant":
            turn.sidechain_calls.extend(self._blocks(content, None, record, line_no, True))
        else:
            self._results(record, content, turn)

    # -- other records -----------------------------------------------------------------------

    def _compaction(
        self, kind: str, line_no: int, record: Mapping[str, Any], *, text: str = ""
    ) -> None:
        meta = record.get("compactMetadata") or record.get("microcompactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        pre = meta.get("preTokens")
        stamp = record.get("timestamp")
        self.session.compactions.append(
            CompactionPoint(
                kind=kind,
                line_no=line_no,
                before_turn=len(self.session.turns),
                timestamp=stamp if isinstance(stamp, str) else None,
                trigger=meta.get("trigger") if isinstance(meta.get("trigger"), str) else None,
                pre_tokens=pre if isinstance(pre, int) else None,
                text=cap_text(text, 500),
            )
        )

    def _summary(self, record: Mapping[str, Any], line_no: int) -> None:
        """An old-style `summary` line: a title, this session's only when its leafUuid is a record
        of this file, before or after it (checked at finish; 2.0.x files carry hundreds naming
        other sessions' records), or it has none."""
        text = record.get("summary")
        self._compaction("summary_title", line_no, record, text=str(text or ""))
        leaf = record.get("leafUuid")
        if isinstance(leaf, str) and leaf:
            self._summaries.append((self.session.compactions[-1], hash(leaf)))

    def _system(self, record: Mapping[str, Any], line_no: int) -> None:
        sub = record.get("subtype")
        if sub == "compact_boundary":
            self._compaction("compact_boundary", line_no, record)
        elif sub == "microcompact_boundary":
            self._compaction("microcompact", line_no, record)
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
                self._pending_local.append(cap_text(tr.command_line(text), 500))

    def _queue_operation(self, record: Mapping[str, Any]) -> None:
        """See formats.session_queue: typed while a turn ran, or a notification."""
        self._copies.queued(record)  # at the top of a file: a fork's own queue records
        op, text = record.get("operation"), record.get("content")
        if op == "enqueue" and isinstance(text, str):
            turns = len(self.session.turns)
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
        if not self.session.turns:
            return
        turn = self.session.turns[-1]
        if tr.is_notification(text):
            if hash(text) not in self._noted:  # the remove and its attachment are one
                self._noted.add(hash(text))
                turn.notifications += 1
        elif text not in turn.queued_prompts:
            turn.queued_prompts.append(cap_text(text, 2000))


def build_session(records: Iterable[tuple[int, Mapping[str, Any]]], path: str = "") -> Session:
    """A Session from (line number, record) pairs already parsed."""
    builder = SessionBuilder(path)
    for line_no, record in records:
        builder.feed(record, line_no)
    return builder.finish()
