"""extractMemories: the per-turn background extractor, its scheduler and its tool sandbox.

Three parts, each usable alone:

- `read_transcript` / `has_memory_writes_since` / `ExtractionScheduler`: when to extract. A
  cursor (the uuid of the last message already considered) walks the transcript; if the main
  agent itself wrote into the memory dir since the cursor, the extractor skips and advances;
  turn throttling; while a run is in progress new requests coalesce into one pending request
  that a single trailing run processes.
- `can_use_tool`: the sandbox. Read/Grep/Glob allowed; Bash only for read-only commands;
  Write/Edit only inside the memory dir (team_paths validation, as the store); all else denied.
- `run_extraction`: a Claude tool-use loop (anthropic SDK, at most 5 turns) whose tool calls run
  locally through `ToolRunner`, and only after `can_use_tool` allowed them. The first call is
  exactly `build_extraction_request(...)` (notebooks show it without sending it); the loop itself
  is `run_tool_loop`, shared with dream's Claude-driven consolidation. Without a client, one is
  built from `MemdirConfig.anthropic_api_key` (`client_from_config`).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import subprocess
import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdir_nb import team_paths
from memdir_nb.access import ReadRefused, read_regular_file
from memdir_nb.bounded_tools import ToolReader, grep_files, read_numbered, run_pipeline
from memdir_nb.constants import (
    ENTRYPOINT_NAME,
    TEAM_DIRNAME,
    TOOL_BASH_MAX_OUTPUT_BYTES,
    TRANSCRIPT_READ_MAX_BYTES,
)

if TYPE_CHECKING:
    from memdir_nb.store import MemoryStore
    from memdir_nb.transaction import StoreTransaction, Target

READ_ONLY_COMMANDS = frozenset({"ls", "find", "grep", "cat", "stat", "wc", "head", "tail"})
READ_TOOLS = frozenset({"Read", "Grep", "Glob"})
WRITE_TOOLS = frozenset({"Write", "Edit"})
# find's actions that write files or run other programs
FIND_WRITING_FLAGS = frozenset(
    {"-delete", "-exec", "-execdir", "-ok", "-okdir", "-fprint", "-fprint0", "-fprintf", "-fls"}
)
# chain operators allowed between two read-only commands; anything else is refused
CHAIN_OPERATORS = frozenset({"|", "&&", "||"})
MAX_TURNS = 5


# --------------------------------------------------------------------------- sandbox


@dataclass(frozen=True)
class ToolVerdict:
    """Whether the sandbox lets a tool call run, and why (or why not)."""

    allowed: bool
    reason: str

    def __bool__(self) -> bool:
        return self.allowed


def _deny(reason: str) -> ToolVerdict:
    return ToolVerdict(False, reason)


class BashRefused(ValueError):
    """A Bash command the sandbox will not run; the message says why."""


@dataclass(frozen=True)
class ParsedCommand:
    """A Bash command split into argv segments joined by operators ('|', '&&', '||')."""

    segments: tuple[tuple[str, ...], ...]
    operators: tuple[str, ...]


_OPERATOR_CHARS = set(";&|<>()")


def parse_bash_command(command: object) -> ParsedCommand:
    """Tokenise with shlex into segments and operators; raise BashRefused on anything unsafe or unparsable."""
    if not isinstance(command, str) or not command.strip():
        raise BashRefused("Bash needs a non-empty 'command' string")
    if "\n" in command or "\r" in command:
        raise BashRefused("multi-line commands are not allowed; run one command at a time")
    if "`" in command or "$(" in command:
        raise BashRefused("command substitution ($(...) or backticks) is not allowed")
    lexer = shlex.shlex(command, posix=True, punctuation_chars=";&|<>()")
    lexer.whitespace_split = True
    lexer.commenters = ""
    try:
        tokens = list(lexer)
    except ValueError as exc:
        raise BashRefused(f"cannot parse the command ({exc}); refusing it") from None
    segments: list[list[str]] = [[]]
    operators: list[str] = []
    for tok in tokens:
        if tok and set(tok) <= _OPERATOR_CHARS:
            if tok == ";":
                raise BashRefused("';' command lists are not allowed; run one read-only command")
            if tok not in CHAIN_OPERATORS:
                if set(tok) & set("<>"):
                    raise BashRefused(f"redirection {tok!r} is not allowed (it can write files)")
                raise BashRefused(f"shell operator {tok!r} is not allowed")
            if not segments[-1]:
                raise BashRefused(f"operator {tok!r} has no command before it")
            operators.append(tok)
            segments.append([])
        else:
            segments[-1].append(tok)
    if not segments[-1]:
        raise BashRefused("the command ends with an operator and no command after it")
    for argv in segments:
        _check_read_only_segment(argv)
    return ParsedCommand(tuple(tuple(a) for a in segments), tuple(operators))


def _check_read_only_segment(argv: list[str]) -> None:
    name = argv[0]
    if name not in READ_ONLY_COMMANDS:
        raise BashRefused(
            f"{name!r} is not a read-only command; Bash here allows only "
            f"{', '.join(sorted(READ_ONLY_COMMANDS))}"
        )
    for arg in argv[1:]:
        if name == "find" and (arg in FIND_WRITING_FLAGS or arg.startswith("-fprint")):
            raise BashRefused(f"find {arg} can change files or run programs; it is not allowed")
        if re.search(r"\$[A-Za-z_{]", arg):
            raise BashRefused("variable expansion is not allowed; write the value out")


def check_bash_command(command: object) -> ToolVerdict:
    """Allow only read-only commands, optionally piped/chained into other read-only commands."""
    try:
        parse_bash_command(command)
    except BashRefused as exc:
        return _deny(str(exc))
    return ToolVerdict(True, "read-only command")


def _in_team_dir(resolved: str, memory_dir: str) -> bool:
    """Team-ness on the resolved path: an alias folder that links to team/ is team too."""
    real = team_paths.realpath_deepest_existing(resolved)
    team = team_paths.realpath_deepest_existing(
        os.path.join(os.path.abspath(memory_dir), TEAM_DIRNAME)
    )
    return real == team or team_paths.is_real_path_within(real, team)


def check_memory_write(
    tool_name: str, tool_input: Mapping[str, Any], memory_dir: str | os.PathLike[str]
) -> ToolVerdict:
    """Allow a Write/Edit only when its file_path passes the store's memory-dir validation."""
    raw = tool_input.get("file_path")
    if not isinstance(raw, str) or not raw:
        return _deny(f"{tool_name} needs a 'file_path' string")
    if not os.path.isabs(raw):
        return _deny(
            f"{tool_name} file_path {raw!r} must be absolute (inside {os.fspath(memory_dir)})"
        )
    mem = os.fspath(memory_dir)
    try:
        resolved = team_paths.validate_memory_write_path(raw, mem)
    except ValueError as exc:  # PathTraversalError is a ValueError
        return _deny(f"{tool_name} outside the memory dir is not allowed: {exc}")
    rel_parts = Path(os.path.relpath(resolved, os.path.abspath(mem))).parts
    if any(part.startswith(".") for part in rel_parts):
        return _deny(
            f"{tool_name} into dot-files or dot-folders of the memory dir (locks, trash) is not allowed"
        )
    if _in_team_dir(resolved, mem):
        try:  # the team rules on the resolved path (an alias folder linking to team/ is team)
            team_paths.validate_team_mem_write_path(
                team_paths.realpath_deepest_existing(resolved),
                team_paths.realpath_deepest_existing(os.path.join(mem, TEAM_DIRNAME)),
            )
        except ValueError as exc:
            return _deny(f"{tool_name} into team memory refused: {exc}")
        text = tool_input.get("content") if tool_name == "Write" else tool_input.get("new_string")
        if isinstance(text, str) and text:
            from memdir_nb import secret_scan

            findings = secret_scan.scan_for_secrets({"body": text})
            if findings:
                return _deny(
                    f"{tool_name} into team memory refused: it looks like it holds a secret "
                    f"({secret_scan.format_findings(findings)}); never share credentials"
                )
    return ToolVerdict(True, f"{tool_name} inside the memory dir")


def can_use_tool(
    tool_name: str, tool_input: Mapping[str, Any], memory_dir: str | os.PathLike[str]
) -> ToolVerdict:
    """The extraction sandbox: which tool calls may run, with the reason."""
    if not isinstance(tool_input, Mapping):
        return _deny(f"{tool_name} input must be an object")
    if tool_name in READ_TOOLS:
        return ToolVerdict(True, f"{tool_name} is read-only")
    if tool_name == "Bash":
        return check_bash_command(tool_input.get("command"))
    if tool_name in WRITE_TOOLS:
        return check_memory_write(tool_name, tool_input, memory_dir)
    return _deny(
        f"tool {tool_name!r} is not available to the memory extractor "
        "(only Read, Grep, Glob, read-only Bash, and Write/Edit inside the memory dir)"
    )


# --------------------------------------------------------------------------- transcript


@dataclass(frozen=True)
class TranscriptMessage:
    """One user/assistant record of a Claude Code transcript."""

    uuid: str
    parent_uuid: str | None
    type: str  # "user" | "assistant"
    role: str
    content: str | list[dict[str, Any]]
    timestamp: str | None = None
    session_id: str | None = None
    line_no: int = 0

    def blocks(self) -> list[dict[str, Any]]:
        """The content as a list of blocks (a plain string becomes one text block)."""
        if isinstance(self.content, str):
            return [{"type": "text", "text": self.content}]
        return [b for b in self.content if isinstance(b, dict)]


@dataclass(frozen=True)
class TranscriptProblem:
    """A transcript line that could not be used, with its 1-based line number."""

    line_no: int
    reason: str

    def __str__(self) -> str:
        return f"line {self.line_no}: {self.reason}"


@dataclass(frozen=True)
class Transcript:
    """The messages of a transcript, plus the lines skipped as unusable and the count of other records."""

    messages: list[TranscriptMessage]
    problems: list[TranscriptProblem]
    other_records: int


MESSAGE_TYPES = ("user", "assistant")


def parse_transcript_lines(lines: Iterable[str]) -> Transcript:
    """Parse JSONL lines; bad lines are reported by number, never fatal."""
    messages: list[TranscriptMessage] = []
    problems: list[TranscriptProblem] = []
    other = 0
    for line_no, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError as exc:
            problems.append(
                TranscriptProblem(line_no, f"not JSON ({exc.msg} at column {exc.colno}); skipped")
            )
            continue
        if not isinstance(record, dict):
            problems.append(TranscriptProblem(line_no, "not a JSON object; skipped"))
            continue
        if record.get("type") not in MESSAGE_TYPES:
            other += 1  # summary, file-history-snapshot, system records...
            continue
        msg = record.get("message")
        uuid = record.get("uuid")
        if not isinstance(uuid, str) or not uuid:
            problems.append(
                TranscriptProblem(line_no, f"{record['type']} record without a 'uuid'; skipped")
            )
            continue
        if not isinstance(msg, dict) or not isinstance(msg.get("content"), (str, list)):
            problems.append(
                TranscriptProblem(
                    line_no, f"{record['type']} record without message.content; skipped"
                )
            )
            continue
        messages.append(
            TranscriptMessage(
                uuid=uuid,
                parent_uuid=record.get("parentUuid"),
                type=record["type"],
                role=str(msg.get("role") or record["type"]),
                content=msg["content"],
                timestamp=record.get("timestamp"),
                session_id=record.get("sessionId"),
                line_no=line_no,
            )
        )
    return Transcript(messages, problems, other)


def read_transcript(path: str | os.PathLike[str]) -> Transcript:
    """Read a Claude Code transcript JSONL file (invalid UTF-8 is replaced, not fatal).

    A regular file only (a FIFO is refused, never waited on), at most TRANSCRIPT_READ_MAX_BYTES;
    a cut transcript keeps its whole lines and says so in `problems`.
    """
    res = read_regular_file(path, TRANSCRIPT_READ_MAX_BYTES)
    lines = res.text.split("\n")
    if res.truncated:
        lines = lines[:-1]  # the last line was cut mid-record
    transcript = parse_transcript_lines(lines)
    if res.truncated:
        transcript.problems.append(
            TranscriptProblem(len(lines), f"{res.cut_note()}; later records were not read")
        )
    return transcript


def messages_since(
    messages: Sequence[TranscriptMessage], since_uuid: str | None
) -> list[TranscriptMessage]:
    """Messages after the one with `since_uuid`; all of them when it is None or no longer present."""
    if since_uuid is not None:
        for i, m in enumerate(messages):
            if m.uuid == since_uuid:
                return list(messages[i + 1 :])
    return list(messages)


def _is_memory_path(raw: object, memory_dir: str | os.PathLike[str]) -> bool:
    if not isinstance(raw, str) or not raw:
        return False
    try:
        team_paths.validate_memory_write_path(raw, os.fspath(memory_dir))
    except ValueError:
        return False
    return True


def memory_writes(
    messages: Iterable[TranscriptMessage], memory_dir: str | os.PathLike[str]
) -> list[str]:
    """file_paths of the assistant's Write/Edit tool calls that target the memory dir."""
    found = []
    for m in messages:
        if m.type != "assistant":
            continue
        for b in m.blocks():
            if b.get("type") == "tool_use" and b.get("name") in WRITE_TOOLS | {
                "MultiEdit",
                "NotebookEdit",
            }:
                path = (
                    (b.get("input") or {}).get("file_path")
                    if isinstance(b.get("input"), dict)
                    else None
                )
                if isinstance(path, str) and _is_memory_path(path, memory_dir):
                    found.append(path)
    return found


def has_memory_writes_since(
    messages: Sequence[TranscriptMessage],
    since_uuid: str | None,
    memory_dir: str | os.PathLike[str],
) -> bool:
    """True when the main agent wrote into the memory dir after the cursor (so extraction skips)."""
    return bool(memory_writes(messages_since(messages, since_uuid), memory_dir))


# --------------------------------------------------------------------------- scheduler


@dataclass(frozen=True)
class ExtractionRequest:
    """What one extraction run gets: the whole conversation and the new part since the cursor."""

    messages: tuple[TranscriptMessage, ...]
    new_messages: tuple[TranscriptMessage, ...]
    is_trailing: bool


@dataclass(frozen=True)
class SchedulerDecision:
    """What the scheduler did with one turn end."""

    action: str  # "ran" | "failed" | "skipped_main_agent_wrote" | "throttled" | "queued" | "nothing_new"
    detail: str
    is_trailing: bool = False
    result: Any = None


class ExtractionScheduler:
    """Decides when the extractor runs: cursor, main-agent mutual exclusion, throttling, coalescing."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        extract: Callable[[ExtractionRequest], Any],
        *,
        turns_between: int = 1,
    ) -> None:
        if not isinstance(turns_between, int) or turns_between < 1:
            raise ValueError(f"turns_between must be a whole number >= 1, got {turns_between!r}")
        self.memory_dir = Path(memory_dir)
        self.extract = extract
        self.turns_between = turns_between
        self.cursor: str | None = None
        self.turns_since_last = 0
        self.history: list[SchedulerDecision] = []
        self.problems: list[TranscriptProblem] = []
        self._lock = threading.Lock()
        self._in_progress = False
        self._pending: tuple[TranscriptMessage, ...] | None = None

    @property
    def in_progress(self) -> bool:
        """True while an extraction run (or its trailing run) is going."""
        return self._in_progress

    def on_transcript(self, path: str | os.PathLike[str]) -> SchedulerDecision:
        """Read a transcript file and treat it as a turn end; bad lines are recorded in `problems`."""
        transcript = read_transcript(path)
        self.problems = list(transcript.problems)
        return self.on_turn_end(transcript.messages)

    def on_turn_end(self, messages: Sequence[TranscriptMessage]) -> SchedulerDecision:
        """Handle one turn end; runs the extractor in this thread unless a run is already going."""
        snapshot = tuple(messages)
        with self._lock:
            if self._in_progress:
                replaced = self._pending is not None
                self._pending = snapshot  # later requests overwrite earlier ones
                return self._record(
                    SchedulerDecision(
                        "queued",
                        "a run is in progress; "
                        + (
                            "replaced the pending request"
                            if replaced
                            else "will run once it finishes"
                        ),
                    )
                )
            self._in_progress = True
        try:
            first = self._run_once(snapshot, trailing=False)
            while True:
                with self._lock:
                    pending, self._pending = self._pending, None
                    if pending is None:
                        self._in_progress = False
                        return first
                self._run_once(pending, trailing=True)
        except BaseException:
            with self._lock:
                self._in_progress = False
            raise

    def _run_once(
        self, messages: tuple[TranscriptMessage, ...], *, trailing: bool
    ) -> SchedulerDecision:
        new = messages_since(messages, self.cursor)
        if not new:
            return self._record(
                SchedulerDecision("nothing_new", "no messages since the cursor", trailing)
            )
        writes = memory_writes(new, self.memory_dir)
        if writes:
            self.cursor = messages[-1].uuid
            self.turns_since_last = 0
            return self._record(
                SchedulerDecision(
                    "skipped_main_agent_wrote",
                    f"the main agent already wrote {', '.join(writes)}; cursor advanced",
                    trailing,
                )
            )
        if not trailing:
            self.turns_since_last += 1
            if self.turns_since_last < self.turns_between:
                return self._record(
                    SchedulerDecision(
                        "throttled",
                        f"turn {self.turns_since_last} of {self.turns_between} since the last run",
                    )
                )
            self.turns_since_last = 0
        request = ExtractionRequest(messages, tuple(new), trailing)
        try:
            result = self.extract(request)
        except Exception as exc:  # a failed run keeps the cursor, so the next turn retries it
            return self._record(
                SchedulerDecision("failed", f"{type(exc).__name__}: {exc}", trailing)
            )
        self.cursor = messages[-1].uuid
        return self._record(
            SchedulerDecision("ran", f"{len(new)} new message(s)", trailing, result)
        )

    def _record(self, decision: SchedulerDecision) -> SchedulerDecision:
        self.history.append(decision)
        return decision


# --------------------------------------------------------------------------- tool runner

MAX_TOOL_OUTPUT_CHARS = 30_000
BASH_TIMEOUT_S = 30.0
MAX_GREP_MATCHES = 200
MAX_GLOB_RESULTS = 100


@dataclass(frozen=True)
class ToolOutcome:
    """The result of one tool call, as it goes back to the model."""

    content: str
    is_error: bool = False
    verdict: ToolVerdict | None = None


_TRAILING_NOTES = re.compile(r"(?:\n\[[^\n]{1,300}\])+\Z")


def _clip(text: str) -> str:
    """Cut text to MAX_TOOL_OUTPUT_CHARS, keeping the tools' trailing '[...]' notes whole."""
    if len(text) <= MAX_TOOL_OUTPUT_CHARS:
        return text
    m = _TRAILING_NOTES.search(text[-8000:])
    notes = m.group(0) if m else ""
    body = text[: len(text) - len(notes)]
    cut = f"\n[output cut at {MAX_TOOL_OUTPUT_CHARS} characters]"
    return body[:MAX_TOOL_OUTPUT_CHARS] + cut + notes


class ToolRunner:
    """Runs the extractor's tool calls locally, each only after `can_use_tool` allowed it."""

    def __init__(
        self,
        memory_dir: str | os.PathLike[str],
        *,
        cwd: str | os.PathLike[str] | None = None,
        crash_hook: Callable[[str], None] | None = None,
    ) -> None:
        self.memory_dir = Path(memory_dir)
        self.cwd = Path(cwd) if cwd is not None else self.memory_dir
        self.written: list[str] = []
        self.refused: list[tuple[str, dict[str, Any], str]] = []
        self.crash_hook = crash_hook  # passed to the store's transaction (tests kill there)
        self._reader = ToolReader(self.memory_dir)

    def run(self, name: str, tool_input: Mapping[str, Any]) -> ToolOutcome:
        """Check the call with the sandbox, then run it; refusals and failures become error results.

        Nothing raises out of here: any exception a check or a tool raises becomes an error result.
        """
        try:
            verdict = can_use_tool(name, tool_input, self.memory_dir)
        except Exception as exc:  # a malformed call must not take the agent loop down
            return ToolOutcome(f"{name} failed: {type(exc).__name__}: {exc}", True, None)
        if not verdict.allowed:
            self.refused.append(
                (name, dict(tool_input) if isinstance(tool_input, Mapping) else {}, verdict.reason)
            )
            return ToolOutcome(f"Permission denied: {verdict.reason}", True, verdict)
        try:
            handler = getattr(self, f"_tool_{str(name).lower()}")
            return ToolOutcome(_clip(handler(tool_input)), False, verdict)
        except ReadRefused as exc:
            return ToolOutcome(f"{name} refused: {exc}", True, verdict)
        except Exception as exc:
            return ToolOutcome(f"{name} failed: {type(exc).__name__}: {exc}", True, verdict)

    def _path(self, raw: object, what: str = "file_path") -> Path:
        if not isinstance(raw, str) or not raw:
            raise ValueError(f"'{what}' must be a non-empty string")
        p = Path(raw)
        return p if p.is_absolute() else self.cwd / p

    def _tool_read(self, inp: Mapping[str, Any]) -> str:
        path = self._path(inp.get("file_path"))
        offset = max(int(inp.get("offset") or 1), 1)
        limit = max(int(inp.get("limit") or 2000), 1)
        return read_numbered(self._reader, path, offset, limit)

    def _tool_glob(self, inp: Mapping[str, Any]) -> str:
        pattern = inp.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError("'pattern' must be a non-empty string")
        base = self._path(inp.get("path") or str(self.cwd), "path")
        hits = [p for p in base.glob(pattern) if p.is_file()]
        hits.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        return "\n".join(str(p) for p in hits[:MAX_GLOB_RESULTS]) or "No files found"

    def _tool_grep(self, inp: Mapping[str, Any]) -> str:
        pattern = inp.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError("'pattern' must be a non-empty string")
        regex = re.compile(pattern, re.IGNORECASE if inp.get("-i") else 0)
        base = self._path(inp.get("path") or str(self.cwd), "path")
        name_glob = inp.get("glob")
        return grep_files(
            self._reader,
            regex,
            str(base),
            name_glob=name_glob if isinstance(name_glob, str) else None,
            max_matches=MAX_GREP_MATCHES,
        )

    def _tool_bash(self, inp: Mapping[str, Any]) -> str:
        parsed = parse_bash_command(inp.get("command"))
        # No shell: each segment runs as an argv list, so what was checked is exactly what runs.
        pipelines: list[list[tuple[str, ...]]] = [[parsed.segments[0]]]
        joins: list[str] = []
        for op, seg in zip(parsed.operators, parsed.segments[1:], strict=False):
            if op == "|":
                pipelines[-1].append(seg)
            else:
                joins.append(op)
                pipelines.append([seg])
        code, out = self._run_pipeline(pipelines[0])
        outputs = [out]
        for op, pipeline in zip(joins, pipelines[1:], strict=False):
            # as in the shell: && runs after a success, || after a failure; a skip keeps the status
            if (op == "&&") == (code == 0):
                code, out = self._run_pipeline(pipeline)
                outputs.append(out)
        text = "".join(outputs)
        return text if code == 0 else f"{text}\n[exit code {code}]"

    def _run_pipeline(self, argvs: list[tuple[str, ...]]) -> tuple[int, str]:
        res = run_pipeline(argvs, cwd=self.cwd, timeout_s=BASH_TIMEOUT_S)
        if res.timed_out:
            raise subprocess.TimeoutExpired(
                " | ".join(" ".join(a) for a in argvs), BASH_TIMEOUT_S, output=res.output
            )
        if res.cut:
            note = f"\n[output cut at {TOOL_BASH_MAX_OUTPUT_BYTES} bytes; the command was stopped]"
            return res.code, res.output + note  # killed: a chain's && stops here
        return res.code, res.output

    def _store_target(self, tx: StoreTransaction, path: Path) -> Target:
        """The write-time check of a Write/Edit target (the sandbox checked it when planned)."""
        target = tx.resolve(path)
        if target.hidden:
            raise ValueError(
                f"{path} resolves to {target.rel}, a dot-file or dot-folder of the memory dir "
                "(locks, trash); write a memory file instead"
            )
        return target

    def _tool_write(self, inp: Mapping[str, Any]) -> str:
        path = self._path(inp.get("file_path"))
        content = inp.get("content")
        if not isinstance(content, str):
            raise ValueError("'content' must be a string")
        with self._store().transaction() as tx:
            target = self._store_target(tx, path)
            existed = tx.exists(target.path)
            tx.write(target.path, content)  # team/: the whole file and its name are scanned
        self.written.append(str(path))
        return f"{'Updated' if existed else 'Created'} {path}"

    def _tool_edit(self, inp: Mapping[str, Any]) -> str:
        path = self._path(inp.get("file_path"))
        old, new = inp.get("old_string"), inp.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            raise ValueError("'old_string' and 'new_string' must be strings")
        with self._store().transaction() as tx:
            target = self._store_target(tx, path)
            text = tx.read_text(target.path)
            if text is None:
                raise FileNotFoundError(f"{path} does not exist; use Write to create it")
            count = text.count(old) if old else 0
            if count == 0:
                raise ValueError(
                    f"old_string not found in {path}; Read the file and copy the text exactly"
                )
            if count > 1 and not inp.get("replace_all"):
                raise ValueError(
                    f"old_string occurs {count} times in {path}; give more context or set replace_all"
                )
            edited = text.replace(old, new) if inp.get("replace_all") else text.replace(old, new, 1)
            tx.write(
                target.path, edited
            )  # team/: the file the Edit produces is scanned, not the fragment
        self.written.append(str(path))
        return f"Edited {path}"

    def _store(self) -> MemoryStore:
        from memdir_nb.store import MemoryStore

        return MemoryStore(self.memory_dir, crash_hook=self.crash_hook)


TOOL_SCHEMAS: list[dict[str, Any]] = [
    {
        "name": "Read",
        "description": "Read a text file; lines come back numbered.",
        "input_schema": {
            "type": "object",
            "properties": {
                "file_path": {"type": "string"},
                "offset": {"type": "integer"},
                "limit": {"type": "integer"},
            },
            "required": ["file_path"],
        },
    },
    {
        "name": "Grep",
        "description": "Search file contents with a regular expression.",
        "input_schema": {
            "type": "object",
            "properties": {
                "pattern": {"type": "string"},
                "path": {"type": "string"},
                "glob": {"type": "string"},
                "-i": {"type": "boolean"},
            },
            "required": ["pattern"],
        },
    },
    {
        "name": "Glob",
        "description": "List files matching a glob pattern, newest first.",
        "input_schema": {
            "type": "object",
            "properties": {"pattern": {"type": "string"}, "path": {"type": "string"}},
            "required": ["pattern"],
        },
    },
    {
        "name": "Bash",
        "description": "Run one read-only command (ls, find, grep, cat, stat, wc, head, tail), "
        "optionally piped; no redirection, no shell expansion, no globbing.",
        "input_schema": {
            "type": "object",
            "properties": {"command": {"type": "string"}},
            "required": ["command"],
        },
    },
    {
        "name": "Write",
        "description": "Create or overwrite a file inside the memory directory.",
        "input_schema": {
            "type": "object",
            "properties": {"file_path": {"type": "string"}, "content": {"type": "string"}},
            "required": ["file_path", "content"],
        },
    },
    {
        "name": "Edit",
        "description": "Replace exact text in a file inside the memory directory.",
        "input_schema": {
            "type": "object",
            "properties": {
                "file_path": {"type": "string"},
                "old_string": {"type": "string"},
                "new_string": {"type": "string"},
                "replace_all": {"type": "boolean"},
            },
            "required": ["file_path", "old_string", "new_string"],
        },
    },
]


# --------------------------------------------------------------------------- extractor

DEFAULT_MODEL = "claude-sonnet-4-6"
DEFAULT_MAX_TOKENS = 4096
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
    root = Path(memory_dir)
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


@dataclass
class ExtractionResult:
    """What one extractor run did."""

    turns: int
    stop_reason: str | None
    written: list[str] = field(default_factory=list)
    refused: list[tuple[str, dict[str, Any], str]] = field(default_factory=list)
    hit_turn_cap: bool = False
    final_text: str = ""


def _block_to_param(block: Any) -> dict[str, Any]:
    if block.type == "text":
        return {"type": "text", "text": block.text}
    if block.type == "tool_use":
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    return block.model_dump(exclude_none=True)


class MissingAPIKeyError(ValueError):
    """No Anthropic client was given and the config holds no API key."""


def client_from_config(config: Any = None, **client_options: Any) -> Any:
    """An anthropic.Anthropic client built from config.anthropic_api_key (config None: from the environment)."""
    if config is None:
        from memdir_nb.config import MemdirConfig

        config = MemdirConfig.from_environment()
    key = getattr(config, "anthropic_api_key", None)
    if not key:
        raise MissingAPIKeyError(
            "no Anthropic API key: set ANTHROPIC_API_KEY in the environment (or pass a MemdirConfig "
            "with anthropic_api_key, or an anthropic client as client=) to run the extractor"
        )
    import anthropic

    return anthropic.Anthropic(api_key=key, **client_options)


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
    from memdir_nb.scan import format_memory_manifest, scan_memory_files

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


def run_tool_loop(
    request: Mapping[str, Any],
    runner: Any,
    *,
    client: Any,
    max_turns: int = MAX_TURNS,
) -> ExtractionResult:
    """Send `request`, run each tool call through `runner.run` (sandboxed), repeat until no calls or max_turns."""
    convo: list[dict[str, Any]] = list(request["messages"])
    result = ExtractionResult(turns=0, stop_reason=None)
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
    return result


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
            from memdir_nb.config import MemdirConfig

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
