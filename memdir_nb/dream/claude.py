"""The Claude-driven planner: the shared tool loop, with Write/Edit captured into a plan by PlanRecorder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from memdir_nb.clock import resolve_now_ms
from memdir_nb.dream.actions import (
    ConsolidationPlan,
    PlanAction,
    PlanError,
    TrashFile,
    WriteFile,
    _sha,
    check_plan_dir,
)
from memdir_nb.dream.link_notes import rewrite_link_notes, what_was_done
from memdir_nb.extract.runner import TOOL_SCHEMAS, ToolOutcome, ToolRunner
from memdir_nb.extract.sandbox import can_use_tool
from memdir_nb.formats.manifest import format_memory_manifest
from memdir_nb.spec.constants import DEFAULT_MODEL, MEMORY_FILE_READ_MAX_BYTES, TRASH_DIRNAME
from memdir_nb.spec.dates import local_date
from memdir_nb.storage.access import MissingFile, ReadRefused, try_read_contained
from memdir_nb.storage.agent_root_index import scopes_joined_problem
from memdir_nb.storage.containment import absolute_dir
from memdir_nb.storage.link_report import LinksLeft, links_left_by_rewrites
from memdir_nb.storage.listing import list_daily_logs
from memdir_nb.storage.scan import scan_memory_files
from memdir_nb.storage.write_errors import edit_size_problem
from memdir_nb.toolloop import agent_loop

CLAUDE_MAX_TURNS = 10
RETIRE_HINT = "an empty Write retires the file"


def build_consolidation_prompt(
    memory_dir: str | os.PathLike[str],
    *,
    now_ms: float | None = None,
    transcripts_dir: str | os.PathLike[str] | None = None,
) -> str:
    """The consolidation agent's system prompt (the four dream phases, in this project's words)."""

    root = absolute_dir(memory_dir)
    logs = list_daily_logs(root)  # gated names, no symlinked folder, bounded depth
    transcripts = Path(transcripts_dir) if transcripts_dir is not None else root.parent
    today = local_date(resolve_now_ms(now_ms)).isoformat()
    return "\n".join(
        [
            "You are consolidating a memory directory: a reflective pass over what has been saved, so",
            f"that future sessions find it accurate, short and easy to scan. The directory is `{root}`;",
            f"today is {today}.",
            "",
            "Your Write and Edit calls are proposals. They are recorded, shown to the user as a diff,",
            "and applied only if the user approves them; nothing you write reaches the disk during this",
            "pass. To retire a file (merged into another, or simply wrong), Write it with empty",
            "content: on approval it is moved to the trash, where it can still be restored.",
            "Read, Grep and Glob work anywhere; Bash allows only read-only commands (ls, find, grep,",
            "cat, stat, wc, head, tail). Write and Edit work only inside the memory directory.",
            "",
            "Work in four phases:",
            "",
            "1. Orient. List the directory, read MEMORY.md, and skim the topic files you may touch.",
            "   Know what is there before you change anything; prefer improving an existing file to",
            "   adding a new one.",
            "2. Gather recent signal. In this order: the daily logs below (notes not yet folded into",
            "   memories); memories that disagree with each other or look out of date; and, only for a",
            f"   specific question you already have, a narrow grep of the session transcripts in `{transcripts}`",
            "   (*.jsonl). Never read transcripts end to end.",
            "3. Consolidate. Fold new facts into the right topic files; merge near-duplicates into one",
            "   file and retire the rest; when two memories contradict each other, keep the one the",
            "   evidence supports and fix or retire the other; write every relative date ('yesterday',",
            "   'next Thursday') as an absolute date. Keep each file's frontmatter (name, description,",
            "   type: user, feedback, project or reference). Memories link each other as `[[name]]`",
            "   (another memory's name, or its file name without .md); when you retire a file that",
            "   others link, point those links at the file that now holds its content: a link that",
            "   names no memory reads as a memory still to be written.",
            "4. Prune and index. MEMORY.md is an index, not a container: one line per file,",
            "   `- [Title](file.md) — hook`, about 150 characters at most; a longer line means the",
            "   detail belongs in the topic file. Keep it under 200 lines and 25,000 bytes. Remove",
            "   pointers to files that do not exist or that you retired; add pointers for files that",
            "   have none. Team memory (team/) has its own MEMORY.md, and never holds secrets.",
            "",
            "When you are done, reply with a short summary of what you proposed and why.",
            "",
            "Daily logs waiting to be folded in:",
            *([f"- {p}" for p in logs] or ["(none)"]),
            "",
            "Existing memories (type, filename, last change, description):",
            format_memory_manifest(scan_memory_files(root)) or "(none yet)",
        ]
    )


class PlanRecorder:
    """A tool runner for consolidation: reads run (sandboxed), Write/Edit are captured, never applied."""

    def __init__(
        self, memory_dir: str | os.PathLike[str], *, cwd: str | os.PathLike[str] | None = None
    ) -> None:
        self.memory_dir = Path(os.path.abspath(os.fspath(memory_dir)))
        self._reader = ToolRunner(self.memory_dir, cwd=cwd)
        self.pending: dict[str, str] = {}  # rel path -> proposed content ("" = retire)
        self.edits: dict[str, int] = {}  # rel path -> number of captured Write/Edit calls
        self.snapshot: dict[str, str | None] = {}  # rel path -> text when first touched
        self.hashes: dict[str, str | None] = {}
        self.written: list[str] = []  # always empty: nothing is written
        self.unreadable: dict[str, str] = {}  # rel path -> why the contained reader refused it
        self.refused = self._reader.refused

    def _rel(self, raw: str) -> str | None:
        """The path relative to the memory dir ('/'-separated), or None when it lies outside."""
        full = os.path.abspath(raw if os.path.isabs(raw) else os.path.join(self._reader.cwd, raw))
        rel = os.path.relpath(full, self.memory_dir)
        return None if rel == "." or rel.startswith("..") else Path(rel).as_posix()

    def _touch(self, rel: str) -> str | None:
        if rel not in self.snapshot:
            res = try_read_contained(self.memory_dir, rel, MEMORY_FILE_READ_MAX_BYTES)
            if isinstance(res, ReadRefused) or res.truncated:  # absent, a FIFO, a link out, too big
                self.snapshot[rel], self.hashes[rel] = None, None
                if not isinstance(res, MissingFile):
                    self.unreadable[rel] = (
                        str(res) if isinstance(res, ReadRefused) else res.cut_note()
                    )
            else:
                self.snapshot[rel], self.hashes[rel] = res.text, _sha(res.data)
        return self.pending.get(rel, self.snapshot[rel])

    def run(self, name: str, tool_input: Any) -> Any:
        """Check the call with the extraction sandbox; capture writes, run everything else."""

        verdict = can_use_tool(name, tool_input, self.memory_dir)
        if not verdict.allowed or name not in ("Write", "Edit", "Read"):
            return self._reader.run(name, tool_input)  # records refusals, runs read-only tools
        rel = self._rel(str(tool_input.get("file_path", "")))
        if name == "Read":
            if rel is not None and rel in self.pending:  # show the model its own proposal
                lines = self.pending[rel].split("\n")
                return ToolOutcome(
                    "\n".join(f"{i + 1:6d}\t{ln}" for i, ln in enumerate(lines)), False, verdict
                )
            if rel is not None:
                self._touch(rel)
            return self._reader.run(name, tool_input)
        if rel is None:  # the sandbox allowed it, so this cannot happen; fail closed anyway
            return ToolOutcome(
                f"{name} refused: {tool_input.get('file_path')!r} is not inside the memory dir",
                True,
                verdict,
            )
        joined = scopes_joined_problem(self.memory_dir, [*self.pending, rel])
        if joined is not None:  # the plan would move a memory between agents' folders
            return ToolOutcome(f"{name} refused: {joined}.", True, verdict)
        current = self._touch(rel)
        if name == "Write":
            content = tool_input.get("content")
            if not isinstance(content, str):
                return ToolOutcome("Write failed: 'content' must be a string", True, verdict)
            self.pending[rel] = content
        else:
            problem = self._edit(rel, current, tool_input)
            if problem is not None:
                return ToolOutcome(f"Edit failed: {problem}", True, verdict)
        self.edits[rel] = self.edits.get(rel, 0) + 1
        left = self._links_left(rel)
        note = (
            f"\n\nNote: {left.message(self._what(rel), f'{self.memory_dir}{os.sep}')} "
            "(Edit them in this plan too, or leave them)."
            if left
            else ""
        )
        return ToolOutcome(
            f"Recorded the proposed {name} of {rel}; it is applied only if the user approves it "
            f"({RETIRE_HINT}).{note}",
            False,
            verdict,
        )

    def _proposed(self) -> dict[str, str | None]:
        """Each file's proposed text (None: retired by an empty Write)."""
        return {rel: text if text.strip() else None for rel, text in self.pending.items()}

    def _links_left(self, rel: str) -> LinksLeft:
        """The links other memories keep to rel that the plan as proposed so far leaves naming
        no memory, by rel's new `name:` or its retirement (storage.link_report; a linking file
        the plan rewrites counts as rewritten). Nothing is read unless one of those changed."""
        return links_left_by_rewrites(self.memory_dir, self.snapshot, self._proposed(), (rel,))

    def _what(self, rel: str) -> str:
        """How a links note names rel: retired, or now under its proposed `name:`."""
        return what_was_done(rel, self._proposed())

    def link_notes(self) -> list[str]:
        """One note a file the plan renames or retires while other memories link it by a name
        nothing answers to after the plan (the plan's notes; nothing is rewritten for them)."""
        return rewrite_link_notes(self.memory_dir, self.snapshot, self._proposed())

    def _edit(self, rel: str, current: str | None, tool_input: Any) -> str | None:
        """Record an Edit's result as the pending text; or why it is refused."""
        old, new = tool_input.get("old_string"), tool_input.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str):
            return "'old_string' and 'new_string' must be strings"
        if current is None:
            return f"{rel} does not exist; use Write to create it"
        count = current.count(old) if old else 0
        if count == 0:
            return f"old_string not found in {rel}; Read it and copy the text exactly"
        if count > 1 and not tool_input.get("replace_all"):
            return f"old_string occurs {count} times in {rel}; give more context or set replace_all"
        times = count if tool_input.get("replace_all") else 1
        too_large = edit_size_problem(rel, current, old, new, times)  # before the text is built
        if too_large is not None:
            return too_large
        self.pending[rel] = current.replace(old, new, times)
        return None

    def actions(self) -> list[PlanAction]:
        """One action per file the model proposed to change (unchanged proposals are dropped)."""
        out = []
        for rel in sorted(self.pending):
            after, before = self.pending[rel], self.snapshot.get(rel)
            n = self.edits[rel]
            if not after.strip():
                if before is None:
                    continue
                out.append(
                    PlanAction(
                        f"claude:{rel}",
                        "claude_retire",
                        f"retire {rel} (moved to {TRASH_DIRNAME}/ on approval)",
                        (rel,),
                        (TrashFile(rel),),
                    )
                )
            elif after != before:
                verb = "create" if before is None else "rewrite"
                out.append(
                    PlanAction(
                        f"claude:{rel}",
                        f"claude_{verb}",
                        f"{verb} {rel} ({n} proposed Write/Edit call(s))",
                        (rel,),
                        (WriteFile(rel, after),),
                    )
                )
        return out


def plan_consolidation_with_claude(
    memory_dir: str | os.PathLike[str],
    *,
    client: Any = None,
    config: Any = None,
    client_options: dict[str, Any] | None = None,
    model: str | None = None,
    max_turns: int = CLAUDE_MAX_TURNS,
    max_tokens: int | None = None,
    transcripts_dir: str | os.PathLike[str] | None = None,
    now_ms: float | None = None,
) -> ConsolidationPlan:
    """Let Claude propose a consolidation through the extraction sandbox; nothing is written until apply_plan."""

    root = absolute_dir(memory_dir)
    check_plan_dir(root)
    if not isinstance(max_turns, int) or max_turns < 1:
        raise PlanError(f"max_turns must be a whole number >= 1, got {max_turns!r}")
    request = {
        "model": model or DEFAULT_MODEL,
        "max_tokens": max_tokens or agent_loop.DEFAULT_MAX_TOKENS,
        "system": build_consolidation_prompt(root, now_ms=now_ms, transcripts_dir=transcripts_dir),
        "messages": [
            {"role": "user", "content": "Consolidate the memory directory now, phase by phase."}
        ],
        "tools": TOOL_SCHEMAS,
    }
    if client is None:
        client = agent_loop.client_from_config(config, **dict(client_options or {}))
    recorder = PlanRecorder(root, cwd=root)
    loop = agent_loop.run_tool_loop(request, recorder, client=client, max_turns=max_turns)
    notes = [f"refused {name}: {reason}" for name, _inp, reason in recorder.refused]
    if loop.refused_dropped:
        notes.append(f"{loop.refused_dropped:,} more refused calls, not listed")
    notes += recorder.link_notes()
    if loop.hit_turn_cap:
        notes.append(
            f"stopped at the {max_turns}-turn cap; the plan holds what was proposed so far"
        )
    if loop.final_text:
        notes.append(f"Claude: {loop.final_text}")
    return ConsolidationPlan(
        root,
        recorder.actions(),
        dict(recorder.snapshot),
        dict(recorder.hashes),
        resolve_now_ms(now_ms),
        source="claude",
        notes=notes,
    )
