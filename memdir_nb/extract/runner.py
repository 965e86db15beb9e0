"""The local tool runner: each call checked by the sandbox, then run bounded or through the store's transaction."""

from __future__ import annotations

import hashlib
import logging
import os
import re
import subprocess
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from memdir_nb.extract.sandbox import (
    ToolVerdict,
    can_use_tool,
    new_file_refusal,
    parse_bash_command,
    write_name_problem,
)
from memdir_nb.formats.index import index_cap_verdict
from memdir_nb.security.log_lines import OneLineRecords
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    REFUSED_CALLS_KEPT,
    TOOL_BASH_MAX_OUTPUT_BYTES,
    TOOL_READ_MAX_BYTES,
)
from memdir_nb.spec.quoted import shown_fields, shown_input, shown_problem
from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.access import ReadRefused
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.fsutil import check_replaceable
from memdir_nb.storage.headers import header_of_text
from memdir_nb.storage.link_report import links_left_by_edit
from memdir_nb.storage.store import MemoryStore
from memdir_nb.storage.targets import resolve_target
from memdir_nb.storage.write_errors import edit_size_problem
from memdir_nb.toolloop.bounded_tools import (
    ToolReader,
    compile_model_regex,
    glob_files,
    grep_files,
    numbered_lines,
    run_pipeline,
)
from memdir_nb.toolloop.memory_text import name_changed

if TYPE_CHECKING:
    from memdir_nb.storage.store import MemoryStore
    from memdir_nb.storage.transaction import StoreTransaction, Target

log = logging.getLogger(__name__)
log.addFilter(OneLineRecords())  # a note names memory names and the dir: one line a record

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
        self.memory_dir = absolute_dir(memory_dir)
        self.cwd = Path(cwd) if cwd is not None else self.memory_dir
        self.written: list[str] = []
        # The refused calls (name, input, reason), each quoted by spec.quoted (never a 1 MB
        # input whole), the first REFUSED_CALLS_KEPT of them; refused_dropped counts the rest.
        self.refused: list[tuple[str, dict[str, Any], str]] = []
        self.refused_dropped = 0
        # One line for each Write/Edit whose new `name:` left other memories' links naming no
        # memory (storage.link_report's message, as a rename's; the tool result says it too)
        self.notes: list[str] = []
        self.crash_hook = crash_hook  # passed to the store's transaction (tests kill there)
        self._reader = ToolReader(self.memory_dir)
        # What each memory file held when this run last Read (or wrote) it whole: its sha256,
        # None when the Read was cut by its cap. Write replaces a file only from that.
        self._seen: dict[str, str | None] = {}
        # Set by a Write/Edit that leaves a MEMORY.md over its cap: the write stands, and the
        # result is an error telling the agent to rewrite the index (Claude Code 2.1.210+).
        self._cap_error: str | None = None

    def run(self, name: str, tool_input: Mapping[str, Any]) -> ToolOutcome:
        """Check the call with the sandbox, then run it; refusals and failures become error results.

        Nothing raises out of here: any exception a check or a tool raises becomes an error result.
        Every result passes _clip, refusals and failures too: they quote the model's own input
        (a path, a tool name), and a 1 MB one came back whole (attack38).
        """
        try:
            verdict = can_use_tool(name, tool_input, self.memory_dir)
        except Exception as exc:  # a malformed call must not take the agent loop down
            return ToolOutcome(_clip(f"{name} failed: {type(exc).__name__}: {exc}"), True, None)
        if not verdict.allowed:
            self._keep_refused(name, tool_input, verdict.reason)
            return ToolOutcome(_clip(f"Permission denied: {verdict.reason}"), True, verdict)
        try:
            handler = getattr(self, f"_tool_{str(name).lower()}")
            self._cap_error = None
            text = handler(tool_input)
            cap_error = self._pop_cap_error()  # set by a write that left MEMORY.md over its cap
            if cap_error is not None:
                return ToolOutcome(_clip(f"{text}\n\n{cap_error}"), True, verdict)
            return ToolOutcome(_clip(text), False, verdict)
        except ReadRefused as exc:
            return ToolOutcome(_clip(f"{name} refused: {exc}"), True, verdict)
        except Exception as exc:
            return ToolOutcome(_clip(f"{name} failed: {type(exc).__name__}: {exc}"), True, verdict)

    def _keep_refused(self, name: object, tool_input: object, reason: str) -> None:
        """Keep a refused call to show, quoted; past REFUSED_CALLS_KEPT only count it."""
        if len(self.refused) >= REFUSED_CALLS_KEPT:
            self.refused_dropped += 1
            return
        self.refused.append((shown_input(name), shown_fields(tool_input), shown_problem(reason)))

    def _pop_cap_error(self) -> str | None:
        """The over-cap error the last write recorded, cleared for the next call."""
        error, self._cap_error = self._cap_error, None
        return error

    def _path(self, raw: object, what: str = "file_path") -> Path:
        if not isinstance(raw, str) or not raw:
            raise ValueError(f"'{what}' must be a non-empty string")
        p = Path(raw)
        return p if p.is_absolute() else self.cwd / p

    def _tool_read(self, inp: Mapping[str, Any]) -> str:
        path = self._path(inp.get("file_path"))
        offset = max(int(inp.get("offset") or 1), 1)
        limit = max(int(inp.get("limit") or 2000), 1)
        res = self._reader.read(path, TOOL_READ_MAX_BYTES)
        try:
            key = resolve_target(self.memory_dir, path).rel
        except ValueError:  # PathTraversalError: outside the memory dir, where no Write goes
            key = None
        if key is not None:
            self._seen[key] = None if res.truncated else hashlib.sha256(res.data).hexdigest()
        return numbered_lines(res, offset, limit)

    def _tool_glob(self, inp: Mapping[str, Any]) -> str:
        pattern = inp.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError("'pattern' must be a non-empty string")
        base = self._path(inp.get("path") or str(self.cwd), "path")
        return glob_files(str(base), pattern, max_results=MAX_GLOB_RESULTS)

    def _tool_grep(self, inp: Mapping[str, Any]) -> str:
        pattern = inp.get("pattern")
        if not isinstance(pattern, str) or not pattern:
            raise ValueError("'pattern' must be a non-empty string")
        regex = compile_model_regex(pattern, ignore_case=bool(inp.get("-i")))
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
        problem = write_name_problem(target.rel)
        if problem is not None:  # checked again on the resolved path, under the lock
            raise ValueError(f"{target.rel!r} is not a memory file name: {problem}")
        return target

    def _tool_write(self, inp: Mapping[str, Any]) -> str:
        path = self._path(inp.get("file_path"))
        content = inp.get("content")
        if not isinstance(content, str):
            raise ValueError("'content' must be a string")
        with self._store().transaction() as tx:
            target = self._store_target(tx, path)
            if tx.exists(target.path):  # a FIFO, socket, device or folder: refused as it is
                check_replaceable(target.path)
            current = tx.read_bytes(target.path)
            existed = current is not None
            if current is None:  # a file another program makes meanwhile is kept
                tilde = new_file_refusal(str(path), target.rel, self.memory_dir)
                if tilde is not None:  # checked again on the resolved path, under the lock
                    raise ValueError(tilde)
                tx.write(target.path, content, create_only=True)
            else:  # only over what the run Read: a person's save since then is kept
                self._check_seen(path, target.rel, current, whole=True)
                tx.write(target.path, content, based_on=current)
            # team/: the whole file and its name are scanned
        self._seen[target.rel] = hashlib.sha256(content.encode("utf-8")).hexdigest()
        self.written.append(str(path))
        done = f"{'Updated' if existed else 'Created'} {path}"
        if current is not None:
            done += self._renamed_links(
                path, target.rel, current.decode("utf-8", "replace"), content
            )
        return self._with_cap_verdict(path, content, done)

    def _renamed_links(self, path: Path, rel: str, before: str, after: str) -> str:
        """The note when a Write or Edit changed the memory's `name:` and other memories' links
        that found it by the old name now find nothing: named, never rewritten, as the memory
        tool's edit and a rename report it (storage.link_report); kept in notes too. The write
        stands whatever the report meets: a dir it cannot list gives no note (lint finds them)."""
        try:
            left = links_left_by_edit(self.memory_dir, rel, before, after)
        except OSError:
            return ""
        if not left:
            return ""
        what = name_changed(terminal_line(str(path)), header_of_text(after).name)
        self.notes.append(left.message(what, prefix=f"{self.memory_dir}{os.sep}"))
        log.warning(self.notes[-1])
        return f"\n\nNote: {self.notes[-1]} (Edit changes a link)."

    def _check_seen(self, path: Path, rel: str, current: bytes, *, whole: bool) -> None:
        """Change a file only as Claude Code's Write (whole=True) and Edit do: one this run has
        Read (whole for a Write, which replaces text a part may not have shown; a part is enough
        for an Edit, which replaces text the model quotes) and that still holds what a whole Read
        showed, else what a person saved since is lost."""
        verb = "writing to" if whole else "editing"
        if rel not in self._seen:
            raise ValueError(
                f"{path} already exists and has not been Read yet; Read it first before {verb} "
                + (
                    "it (or change a part of it with Edit), so nothing in it is lost"
                    if whole
                    else "it"
                )
            )
        seen = self._seen[rel]
        if seen is None and whole:
            raise ValueError(
                f"{path} was too long to Read whole, so a Write would replace text the Read "
                "did not show; change it with Edit instead"
            )
        if seen is not None and seen != hashlib.sha256(current).hexdigest():
            raise ValueError(
                f"{path} has been changed since it was Read (by a person or another program); "
                f"Read it again before {verb} it, so that change is not lost"
            )

    def _with_cap_verdict(self, path: Path, text: str, result: str) -> str:
        """result, plus the near-cap reminder; over the cap, the error is set for run()."""
        if path.name != ENTRYPOINT_NAME:
            return result
        cap = index_cap_verdict(text)
        if cap.over:
            self._cap_error = cap.message
        elif cap.message:
            return f"{result}\n\n{cap.message}"
        return result

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
            # read_text decodes strictly, so these are the bytes it read
            self._check_seen(path, target.rel, text.encode("utf-8"), whole=False)
            count = text.count(old) if old else 0
            if count == 0:
                raise ValueError(
                    f"old_string not found in {path}; Read the file and copy the text exactly"
                )
            if count > 1 and not inp.get("replace_all"):
                raise ValueError(
                    f"old_string occurs {count} times in {path}; give more context or set replace_all"
                )
            times = count if inp.get("replace_all") else 1
            too_large = edit_size_problem(target.rel, text, old, new, times)  # before building
            if too_large is not None:
                raise ValueError(too_large)
            edited = text.replace(old, new, times)
            # team/: the file the Edit produces is scanned, not the fragment; an edit another
            # program made since the read is kept (ChangedMeanwhileError), not overwritten
            tx.write_edit(target.path, text, edited)
        self._seen[target.rel] = hashlib.sha256(edited.encode("utf-8")).hexdigest()
        self.written.append(str(path))
        done = f"Edited {path}" + self._renamed_links(path, target.rel, text, edited)
        return self._with_cap_verdict(path, edited, done)

    def _store(self) -> MemoryStore:
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
