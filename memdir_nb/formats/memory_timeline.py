"""The memory dir as of each turn of a session, rebuilt from the session's own tool calls.

Start from the dir as it is now (rel path -> text and mtime) and undo the session's memory
operations from last to first: a file a Write created did not exist before it; a Write that
replaced a file, an Edit or a MultiEdit takes back the text the transcript recorded
(``originalFile``), or reverses the edit (new text -> old text) when that text is found; an
``rm`` brings the file back (its text is known only if the session wrote it earlier); a
``mv`` moves it back. A forward pass then fills what the backward pass could not know from
writes earlier in the session. What cannot be rebuilt is marked ``certain=False`` with a
note; docs/sessions.md lists the cases.

Which paths are memory paths is decided by :class:`MemoryPaths`: the memory dir itself, the
same project folder under any other Claude home (``.../projects/<key>/memory/``, so a
transcript recorded on another machine still matches), and the memory tool's ``/memories/``.
It reads Windows paths too (``C:\\Users\\me\\.claude\\projects\\C--w\\memory\\a.md``): backslashes
become slashes and a drive letter counts as a root, so ``c:/w/README.md`` is outside the dir
on any system. The extractor's test of the main agent's own memory writes
(extract.transcript.memory_writes) asks the same object, so the two always agree.
"""

from __future__ import annotations

import posixpath
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from memdir_nb.formats.names import is_index_name
from memdir_nb.formats.session_model import Session, ToolCall, timestamp_ms
from memdir_nb.formats.shell_ops import bash_ops
from memdir_nb.formats.timeline_folders import folder_changes, folder_touched, move_folder
from memdir_nb.formats.timeline_states import TurnStates
from memdir_nb.formats.transcript_attachments import MEMORY_SAVED, OUTSIDE_EDIT
from memdir_nb.formats.transcript_paths import MemoryPaths
from memdir_nb.spec.constants import (
    STORE_WRITE_MAX_BYTES,
    TIMELINE_REBUILT_MAX_CHARS,
    TIMELINE_SEARCHED_MAX_CHARS,
)

__all__ = ["AsOfFile", "MemoryOp", "MemoryPaths", "Timeline", "build_timeline", "memory_ops"]

WRITE_KINDS = ("write", "edit", "delete", "rename", "outside")
OUTSIDE_NOTE = (
    "changed outside the session's own calls (another session, an editor or a background "
    "agent; the CLI told the agent) before a later point; its text before then is not known"
)
SAVED_NOTE = (
    "saved by the CLI's background memory agent (extraction or dream: a `memory_saved` "
    "record) at a later point; whether it was there before, and its text then, are not known"
)
OUTSIDE_FLAGS = {OUTSIDE_EDIT: "memory changed outside", MEMORY_SAVED: "memory saved in background"}


@dataclass(frozen=True)
class MemoryOp:
    """One tool call on a memory path: a read, or a change the rebuild can undo."""

    turn: int
    seq: int
    kind: str  # "read" | "write" | "edit" | "delete" | "rename" | "outside" (changed by another)
    rel: str
    tool: str
    call: ToolCall
    new_rel: str | None = None  # a rename's target
    edits: tuple[tuple[str, str, bool], ...] = ()  # (old, new, replace_all)
    content: str | None = None  # a write's whole new text
    created: bool | None = None  # a write made a new file (True), replaced one (False), unknown
    folder: bool = False  # a delete or rename of a folder: of the files under it (timeline_folders)

    @property
    def time_ms(self) -> float | None:
        """When the call was made (ms since the epoch)."""
        return timestamp_ms(self.call.timestamp)


def _edits_of(inp: Mapping[str, object]) -> tuple[tuple[str, str, bool], ...]:
    raw = inp.get("edits")
    items = raw if isinstance(raw, list) else [inp]
    out = []
    for e in items:
        if isinstance(e, dict):
            old = e.get("old_string", e.get("old_str"))
            new = e.get("new_string", e.get("new_str"))
            if isinstance(old, str) and isinstance(new, str):
                out.append((old, new, bool(e.get("replace_all"))))
    return tuple(out)


def _created(call: ToolCall) -> bool | None:
    if call.result_type in ("create", "update"):
        return call.result_type == "create"
    if call.result.startswith("File created successfully"):
        return True
    if "has been updated" in call.result or "overwritten" in call.result:
        return False
    return None


def _file_tool_ops(call: ToolCall, paths: MemoryPaths) -> list[tuple[str, str, dict[str, object]]]:
    """(kind, rel, extra) for Read/Write/Edit/MultiEdit/NotebookEdit calls."""
    rel = paths.relative(call.input.get("file_path") or call.input.get("notebook_path"))
    if rel is None:
        return []
    if call.name == "Read":
        return [("read", rel, {})]
    if call.name == "Write":
        content = call.input.get("content")
        return [("write", rel, {"content": content if isinstance(content, str) else None})]
    if call.name in ("Edit", "MultiEdit", "NotebookEdit"):
        return [("edit", rel, {"edits": _edits_of(call.input)})]
    return []


def _memory_tool_ops(
    call: ToolCall, paths: MemoryPaths
) -> list[tuple[str, str, dict[str, object]]]:
    """The memory tool's commands: view, create, str_replace, insert, delete, rename."""
    inp = call.input
    command = inp.get("command")
    rel = paths.relative(inp.get("path") or inp.get("old_path"))
    if rel is None:
        return []
    if command == "view":
        return [("read", rel, {})]
    if command == "create":
        text = inp.get("file_text")
        return [("write", rel, {"content": text if isinstance(text, str) else None})]
    if command == "str_replace":
        return [("edit", rel, {"edits": _edits_of(inp)})]
    if command == "insert":
        text = inp.get("insert_text")
        return [("edit", rel, {"edits": (("", text, False),) if isinstance(text, str) else ()})]
    if command == "delete":
        return [("delete", rel, {})]
    if command == "rename":
        target = paths.relative(inp.get("new_path"))
        return [("rename", rel, {"new_rel": target})] if target else [("delete", rel, {})]
    return []


def memory_ops(session: Session, paths: MemoryPaths) -> list[MemoryOp]:
    """Every read and successful change of a memory path in the session, in order.

    Subagent (sidechain) calls count as changes to the dir; failed or rejected calls do not.
    """
    ops: list[MemoryOp] = []
    for turn in session.turns:
        calls = sorted(
            [*turn.tool_calls, *turn.sidechain_calls, *turn.outside_edits], key=lambda c: c.line_no
        )
        for call in calls:
            if call.name in OUTSIDE_FLAGS:  # the CLI saw the file change: new text not known
                rel = paths.relative(call.input.get("file_path"))
                found: list[tuple[str, str, dict[str, object]]] = (
                    [("outside", rel, {})] if rel is not None else []
                )
            elif call.name == "memory":
                found = _memory_tool_ops(call, paths)
            elif call.name == "Bash":
                found = bash_ops(call, paths)
            else:
                found = _file_tool_ops(call, paths)
            if found and call.has_result and call.is_error:
                continue
            for kind, rel, extra in found:
                ops.append(
                    MemoryOp(
                        turn=turn.index,
                        seq=len(ops),
                        kind=kind,
                        rel=rel,
                        tool=call.name,
                        call=call,
                        new_rel=extra.get("new_rel"),  # type: ignore[arg-type]
                        edits=extra.get("edits", ()),  # type: ignore[arg-type]
                        content=extra.get("content"),  # type: ignore[arg-type]
                        created=_created(call) if kind == "write" else None,
                    )
                )
    return ops


@dataclass(frozen=True)
class AsOfFile:
    """One memory file as it stood at some point: text (None if unknown), mtime, certainty."""

    rel: str
    content: str | None
    mtime_ms: float | None
    certain: bool = True
    note: str = ""


@dataclass
class Timeline:
    """The memory dir at the start of each turn, and each turn's memory reads and writes."""

    states: Sequence[dict[str, AsOfFile]]  # one per turn, at the turn's start
    final: dict[str, AsOfFile]  # after the last turn (= the dir as given)
    ops: list[MemoryOp]
    notes: list[str] = field(default_factory=list)

    def reads(self, turn: int, *, main_only: bool = True) -> list[str]:
        """Memory files read in a turn (by the main agent unless main_only=False)."""
        return _uniq(
            o.rel
            for o in self.ops
            if o.turn == turn and o.kind == "read" and not (main_only and o.call.is_sidechain)
        )

    def writes(self, turn: int, *, main_only: bool = True) -> list[str]:
        """Memory files the agent changed in a turn (rename: both names)."""
        found = []
        for o in self.ops:
            mine = o.kind not in ("read", "outside") and not (main_only and o.call.is_sidechain)
            if o.turn == turn and mine:
                found.extend([o.rel] + ([o.new_rel] if o.new_rel else []))
        return _uniq(found)

    def changed_outside(self, turn: int) -> list[str]:
        """Memory files the CLI said changed outside the session's calls during a turn."""
        return _uniq(o.rel for o in self.ops if o.turn == turn and o.kind == "outside")

    def outside_flags(self, turn: int) -> list[str]:
        """The replay's flags for a turn's outside changes: changed by something else, and
        saved by the CLI's own background memory agents (each once)."""
        return _uniq(
            OUTSIDE_FLAGS[o.tool] for o in self.ops if o.turn == turn and o.kind == "outside"
        )


def _uniq(items: object) -> list[str]:
    return list(dict.fromkeys(items))  # type: ignore[call-overload]


# A text the rebuild would make longer than any file a write step writes was not a memory: a
# crafted transcript whose edits swap one letter for a long run (undone, the run for the letter)
# multiplies the text by that run's length at each edit, until it fills the machine's memory.
TIMELINE_TEXT_MAX_CHARS = STORE_WRITE_MAX_BYTES


class _TooLong(Exception):
    """An edit whose result would pass TIMELINE_TEXT_MAX_CHARS, or the session's budget."""


@dataclass
class _Budget:
    """What the rebuild may still make of texts, and search through, in characters, for the
    whole session. Under the cap of one text, a crafted edit still made 1 MiB from 1 KB of
    transcript (`a` -> `aa`, replace-all, 20 times): 500 of them held 280 MB, 5,000 would hold
    3 GB. And each edit searches its file's text: 1,000 records of 64 edits that match nothing
    (3.6 MB of transcript) searched a 256 KB file for 21 s, a 1 GiB transcript for hours."""

    made: int = field(default_factory=lambda: TIMELINE_REBUILT_MAX_CHARS)
    searched: int = field(default_factory=lambda: TIMELINE_SEARCHED_MAX_CHARS)

    def search(self, chars: int) -> None:
        if chars > self.searched:
            raise _TooLong(
                f"the session's edits would search more than {TIMELINE_SEARCHED_MAX_CHARS:,} "
                "characters in all; not rebuilt"
            )
        self.searched -= chars

    def make(self, chars: int) -> None:
        if chars > TIMELINE_TEXT_MAX_CHARS:
            raise _TooLong(
                f"its rebuilt text would pass {TIMELINE_TEXT_MAX_CHARS:,} characters; not rebuilt"
            )
        if chars > self.made:
            raise _TooLong(
                "the session's rebuilt texts would pass "
                f"{TIMELINE_REBUILT_MAX_CHARS:,} characters in all; not rebuilt"
            )
        self.made -= chars


def _replaced(text: str, old: str, new: str, replace_all: bool, budget: _Budget) -> str | None:
    """text with old replaced by new (every one, or the first), or None when old is not in it.
    Raises _TooLong, before searching or making it, when that does not fit in the budget."""
    if not old:
        return None
    budget.search(len(text))
    count = text.count(old) if replace_all else int(old in text)
    if not count:
        return None
    budget.make(len(text) + count * (len(new) - len(old)))
    return text.replace(old, new) if replace_all else text.replace(old, new, 1)


def _undo_edits(text: str, edits: Sequence[tuple[str, str, bool]], budget: _Budget) -> str:
    """The text before the edits. Raises LookupError, naming why, when an edit's new text is
    not found or undoing it would make a text too long to be a memory."""
    for old, new, replace_all in reversed(edits):
        try:
            before = _replaced(text, new, old, replace_all, budget)
        except _TooLong as why:
            raise LookupError(str(why)) from None
        if before is None:
            raise LookupError("an edit could not be undone (its new text was not found)")
        text = before
    return text


def _undo(op: MemoryOp, state: dict[str, AsOfFile], budget: _Budget) -> None:
    """Turn the state after op into the state before it (in place)."""
    after = state.get(op.rel)
    if op.kind == "read":  # a whole-file Read tells the text at that moment
        if after is not None and after.content is None and op.call.original_file is not None:
            state[op.rel] = replace(after, content=op.call.original_file, certain=True, note="")
    elif op.kind == "write":
        if op.created:
            state.pop(op.rel, None)
        else:
            state[op.rel] = _before_write(op)
    elif op.kind == "edit":
        state[op.rel] = _before_edit(op, after, budget)
    elif op.folder:  # a deleted folder's files are not known by name: none is made up
        if op.new_rel:
            move_folder(state, op.new_rel, op.rel, _renamed)
    elif op.kind == "delete":
        state[op.rel] = AsOfFile(op.rel, None, None, False, "deleted later; text not known")
    elif op.kind == "outside":  # it was there when it changed; what it held before is unknown
        state[op.rel] = AsOfFile(op.rel, None, None, False, _outside_note(op))
    elif op.kind == "rename" and op.new_rel:
        moved = state.pop(op.new_rel, None)
        state[op.rel] = replace(moved, rel=op.rel) if moved else AsOfFile(op.rel, None, None, False)


def _renamed(f: AsOfFile, rel: str) -> AsOfFile:
    return replace(f, rel=rel)


def _outside_note(op: MemoryOp) -> str:
    return SAVED_NOTE if op.tool == MEMORY_SAVED else OUTSIDE_NOTE


def _before_write(op: MemoryOp) -> AsOfFile:
    """A file before a Write replaced it: known only when the transcript kept the old text."""
    if op.call.original_file is not None:
        return AsOfFile(op.rel, op.call.original_file, None)
    why = "a write replaced or added to it; its earlier text is not in the transcript"
    return AsOfFile(op.rel, None, None, False, why)


def _before_edit(op: MemoryOp, after: AsOfFile | None, budget: _Budget) -> AsOfFile:
    """A file before an Edit: the transcript's copy, else the edits undone on the text after."""
    if op.call.original_file is not None:
        return AsOfFile(op.rel, op.call.original_file, None)
    text = after.content if after is not None else None
    try:
        if after is None or text is None:
            raise LookupError("an edit could not be undone (its new text was not found)")
        before = _undo_edits(text, op.edits, budget)
    except LookupError as why:
        return AsOfFile(op.rel, text, None, False, str(why))
    return AsOfFile(op.rel, before, None, after.certain)


def _redo(op: MemoryOp, state: dict[str, AsOfFile], budget: _Budget) -> None:
    """Apply op forward where its result is fully known (fills what undo left unknown)."""
    stamp = op.time_ms
    if op.kind == "read":
        return
    if op.folder:
        move_folder(state, op.rel, op.new_rel, _renamed)
    elif op.kind == "write" and op.content is not None:
        state[op.rel] = AsOfFile(op.rel, op.content, stamp)
    elif op.kind == "delete":
        state.pop(op.rel, None)
    elif op.kind == "outside":  # what a read or write earlier told is no longer its text
        state[op.rel] = AsOfFile(op.rel, None, stamp, False, _outside_note(op))
    elif op.kind == "rename" and op.new_rel and op.rel in state:
        state[op.new_rel] = replace(state.pop(op.rel), rel=op.new_rel, mtime_ms=stamp)
    elif op.kind == "edit" and op.rel in state:
        cur = state[op.rel]
        try:
            text = None if cur.content is None else _redo_edits(cur.content, op.edits, budget)
        except _TooLong as why:
            state[op.rel] = AsOfFile(op.rel, None, stamp, False, str(why))
            return
        state[op.rel] = replace(cur, content=text, mtime_ms=stamp)


def _redo_edits(text: str, edits: Sequence[tuple[str, str, bool]], budget: _Budget) -> str:
    """The text after the edits (one whose old text is not found is passed over)."""
    for old, new, replace_all in edits:
        after = _replaced(text, old, new, replace_all, budget)
        text = text if after is None else after
    return text


def _merge(back: AsOfFile | None, fwd: AsOfFile | None) -> AsOfFile | None:
    if back is None:
        return None
    if fwd is None:
        return back
    content = back.content if back.content is not None else fwd.content
    certain = back.certain or (back.content is None and fwd.content is not None and fwd.certain)
    mtime = fwd.mtime_ms if fwd.mtime_ms is not None else back.mtime_ms
    return AsOfFile(back.rel, content, mtime, certain, "" if certain else back.note)


def _touched(op: MemoryOp, *states: dict[str, AsOfFile]) -> Iterable[str]:
    """The paths undoing or redoing op can change (a folder's: its files in states)."""
    if op.folder:
        return folder_touched(op.rel, op.new_rel, *states)
    return (op.rel, op.new_rel) if op.new_rel else (op.rel,)


def _undo_turns(
    changes: Sequence[MemoryOp], n_turns: int, state: dict[str, AsOfFile], budget: _Budget
) -> list[dict[str, AsOfFile | None]]:
    """Undo every change, last turn first, turning state (the dir now) into the dir at the first
    turn's start; returns, for each turn, what its undoing changed, as it stood after the turn
    (None: absent), so the dir at each turn's start can be made again from the first's."""
    after_turn: list[dict[str, AsOfFile | None]] = [{} for _ in range(n_turns)]
    i = len(changes)
    for turn in range(n_turns - 1, -1, -1):
        while i > 0 and changes[i - 1].turn >= turn:
            i -= 1
            for rel in _touched(changes[i], state):
                after_turn[turn].setdefault(rel, state.get(rel))
            _undo(changes[i], state, budget)
    return after_turn


def _marked_folders(changes: list[MemoryOp], seen: Iterable[str]) -> list[MemoryOp]:
    """changes with each delete or rename of a folder marked (seen: the dir's files and the
    paths every call of the session names, reads too)."""
    found = folder_changes([(o.kind, o.rel, o.new_rel) for o in changes], seen)
    return [
        replace(o, folder=True, new_rel=new) if folder else o
        for o, (folder, new) in zip(changes, found, strict=True)
    ]


def build_timeline(
    session: Session, paths: MemoryPaths, current: Mapping[str, AsOfFile]
) -> Timeline:
    """The dir at each turn's start, from the dir now (`current`) and the session's ops.

    Each turn's dir is kept as what changed since the turn before (timeline_states): a copy of
    the dir per turn grew with the turns times the files (see there)."""
    ops = memory_ops(session, paths)
    changes = _marked_folders(
        [o for o in ops if o.kind in WRITE_KINDS or (o.kind == "read" and o.call.original_file)],
        [*current, *(o.rel for o in ops)],
    )
    n_turns = len(session.turns)
    if not n_turns:
        return Timeline(TurnStates.empty(), dict(current), ops, [])
    back = dict(current)
    budget = _Budget()
    after_turn = _undo_turns(
        changes, n_turns, back, budget
    )  # back: the dir at the 1st turn's start
    forward = dict(back)

    def merged(rel: str) -> AsOfFile | None:
        return _merge(back.get(rel), forward.get(rel))

    first = {rel: m for rel in back if (m := merged(rel)) is not None}
    uncertain = any(not f.certain for f in first.values())
    steps: list[dict[str, AsOfFile | None]] = []
    j = 0
    for turn in range(1, n_turns):
        touched = set(after_turn[turn - 1])
        for rel, f in after_turn[turn - 1].items():
            if f is None:
                back.pop(rel, None)
            else:
                back[rel] = f
        while j < len(changes) and changes[j].turn < turn:
            touched.update(_touched(changes[j], forward, back))
            _redo(changes[j], forward, budget)
            j += 1
        step = {rel: merged(rel) for rel in touched}
        uncertain = uncertain or any(f is not None and not f.certain for f in step.values())
        steps.append(step)
    notes = ["some files could not be rebuilt exactly; see each file's note"] if uncertain else []
    return Timeline(TurnStates(first, steps), dict(current), ops, notes)


def is_index(rel: str) -> bool:
    """Whether a memory-relative path is an index file (MEMORY.md at any level, any case)."""
    return is_index_name(posixpath.basename(rel))
