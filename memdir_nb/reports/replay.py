"""Replay a recorded session turn by turn: what recall would have surfaced, and what it missed.

For each turn of the session model (formats.session_model), the memory dir is rebuilt as it
stood when the prompt arrived (formats.memory_timeline, from the dir now and the session's own
tool calls on memory paths) and written into a scratch folder (storage.snapshot_dir); recall
then runs there exactly as in a live session: one RecallSession for the whole replay, so what
was surfaced earlier is not surfaced again, the per-memory caps (200 lines, 4 KB) cut long
files and the 60 KB session budget stops recall for good once spent. The files the agent read
itself are marked surfaced, as a live session does. The extractor's scheduler sees each turn
end and the end-of-session flush, with a dry-run extractor that only records.

A **likely recall miss** is a turn where the agent read a memory file itself that existed when
the prompt arrived, that recall had not surfaced (in this turn or before), and that the agent
had not read or written earlier in the session. It needs no labels, so it can be measured on
anyone's own sessions.

The replay sits in the reports layer, not under recall as DESIGN.md first placed it: it uses
recall *and* the extractor's scheduler, and the extract layer comes after recall.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.clock import system_clock_ms
from memdir_nb.extract.message_stream import MessageWindow, WindowUpTo, streamed_turn_ends
from memdir_nb.extract.scheduler import ExtractionRequest, ExtractionScheduler, SchedulerDecision
from memdir_nb.formats.memory_timeline import (
    AsOfFile,
    MemoryPaths,
    Timeline,
    build_timeline,
    is_index,
)
from memdir_nb.formats.names import relative_path_problem
from memdir_nb.formats.session_model import Session, Turn
from memdir_nb.home.moved_home import former_keys
from memdir_nb.home.sessions import read_session
from memdir_nb.recall.base import Selector
from memdir_nb.recall.explain_selection import selection_explanation
from memdir_nb.recall.find import recall_memories
from memdir_nb.recall.request import RecallRequest
from memdir_nb.recall.selectors import OFFLINE_DEFAULT, make_selector
from memdir_nb.recall.session import RecallSession
from memdir_nb.reports.replay_session_notes import moved_note, session_notes
from memdir_nb.reports.replay_table import (
    CLI_SURFACED_SHOWN,
    EXTRACTION_LABELS,
    ReplayTotals,
    SessionReplay,
    SurfacedMemory,
    TurnReplay,
    iter_turn_lines,
    turn_lines,
)
from memdir_nb.spec.constants import MEMORY_FILE_READ_MAX_BYTES
from memdir_nb.spec.freshness import memory_age
from memdir_nb.spec.text import plural, terminal_line
from memdir_nb.storage.access import ReadRefused, read_contained
from memdir_nb.storage.scan import scan_memory_dir
from memdir_nb.storage.snapshot_dir import SnapshotDir

__all__ = [  # the rows, summary and table live in reports.replay_table; named here too
    "CLI_SURFACED_SHOWN",
    "COMPACTED_FLAG",
    "EXTRACTION_LABELS",
    "NotATranscriptError",
    "ReplayTotals",
    "SessionReplay",
    "StreamedReplay",
    "SurfacedMemory",
    "TurnReplay",
    "current_memory",
    "iter_replay",
    "iter_turn_lines",
    "not_a_transcript",
    "recorded_memory_dir",
    "replay_session",
    "turn_lines",
]

PROGRESS_MIN_TURNS = 50  # a progress bar only for sessions at least this long (and on a terminal)
COMPACTED_FLAG = "after compaction"  # the flag a turn that starts after a compaction carries


# ---------------------------------------------------------------------------------- inputs


def current_memory(memory_dir: str | os.PathLike[str]) -> tuple[dict[str, AsOfFile], list[str]]:
    """The memory dir as it is now: {rel: AsOfFile} of its topic files, and notes on what was skipped."""
    notes: list[str] = []
    if not os.path.isdir(memory_dir):
        return {}, [f"{os.fspath(memory_dir)} does not exist; the replay starts from an empty dir"]
    report = scan_memory_dir(memory_dir, limit=None)
    files: dict[str, AsOfFile] = {}
    for header in report.headers:
        try:
            res = read_contained(memory_dir, header.file_path, MEMORY_FILE_READ_MAX_BYTES)
        except (ReadRefused, OSError) as err:
            notes.append(f"{header.filename}: not read ({err})")
            continue
        files[header.filename] = AsOfFile(header.filename, res.text, header.mtime_ms)
    # a skipped file was a bare "loop.md: symlink loop" line at the summary's end (fresh37)
    notes.extend(
        f"{s.path}: skipped while reading ({s.reason}), so no turn sees it" for s in report.skipped
    )
    return files, notes


def _progress(turns: list[Turn], show: bool | None) -> Iterable[Turn]:
    if show is None:
        show = len(turns) >= PROGRESS_MIN_TURNS and sys.stderr.isatty()
    if not show:
        return turns
    from tqdm.auto import tqdm  # only when a bar is shown

    return tqdm(turns, desc="replaying turns", unit="turn", leave=False, file=sys.stderr)


def _as_of_files(
    state: dict[str, AsOfFile], current: dict[str, AsOfFile], default_ms: float
) -> dict[str, tuple[str, float]]:
    """What the scratch folder holds for a turn: topic files with text (best known) and mtime."""
    out: dict[str, tuple[str, float]] = {}
    for rel, f in state.items():
        if is_index(rel):
            continue
        text = f.content
        if text is None:
            now = current.get(rel)
            text = now.content if now is not None and now.content is not None else ""
        out[rel] = (text, f.mtime_ms if f.mtime_ms is not None else default_ms)
    return out


class _Recorder:
    """The dry-run extractor: counts the requests, never calls a model. It keeps none: each
    holds the transcript up to its turn, so keeping them all grew with the square of the
    number of turns (a 100,000-turn transcript took 20 GB)."""

    def __init__(self) -> None:
        self.runs = 0

    def __call__(self, request: ExtractionRequest) -> str:
        self.runs += 1
        return f"dry run: {len(request.new_messages)} new message(s)"


class _Decisions:
    """The dry-run scheduler's decision at each turn end, made as the replay reaches the turn,
    and its end-of-session flush; the messages are read as it asks for them and let go behind
    its cursor (extract.message_stream)."""

    def __init__(self, session: Session, recorded_dir: str, turns_between: int) -> None:
        self._path = session.path
        self._scheduler = ExtractionScheduler(
            recorded_dir, _Recorder(), turns_between=turns_between
        )
        self._ends = streamed_turn_ends(session.path, session) if session.path else []
        self._window = MessageWindow(session.path, session) if session.path else None

    def at(self, turn: Turn) -> SchedulerDecision | None:
        """The decision at this turn's end (None: the session has no file)."""
        if self._window is None:
            return None
        view = WindowUpTo(self._window, self._ends[turn.index])
        decision = self._scheduler.on_session_turn_end(turn, view)
        self._let_go()
        return decision

    def flush(self) -> SchedulerDecision | None:
        """The end-of-session flush, once every turn had its decision."""
        if self._window is None:
            return None
        return self._scheduler.on_session_end(WindowUpTo(self._window, self._window.read_all()))

    def _let_go(self) -> None:
        """Keep the scheduler's last decision only (the flush asks whether it failed), and the
        messages from its cursor on."""
        del self._scheduler.history[:-1]
        at = self._scheduler.cursor_index
        if at is not None and self._window is not None:
            self._window.let_go_before(at)


def recorded_memory_dir(timeline: Timeline, fallback: str) -> str:
    """The memory dir as the transcript named it (the first memory path's folder)."""
    for op in timeline.ops:
        for key in ("file_path", "path"):
            raw = op.call.input.get(key)
            if isinstance(raw, str) and raw.endswith(op.rel) and raw != op.rel:
                return raw[: -len(op.rel)].rstrip("/")
    return fallback


# ---------------------------------------------------------------------------------- replay


def replay_session(
    transcript: str | os.PathLike[str] | Session,
    memory_dir: str | os.PathLike[str],
    *,
    selector: Selector | None = None,
    now_ms: float | None = None,
    turns_between: int = 1,
    progress: bool | None = None,
    show_secrets: bool = False,
) -> SessionReplay:
    """Replay a session against the memory dir as it stood at each turn (see the module doc),
    keeping every turn in `SessionReplay.turns`.

    selector: None uses the offline default (never a model API). now_ms: the time for turns
    whose prompt has no timestamp (default: the clock). turns_between: the extractor's
    throttling, as ExtractionScheduler takes it. show_secrets: see `SessionReplay.shown`.
    """
    stream = iter_replay(
        transcript,
        memory_dir,
        selector=selector,
        now_ms=now_ms,
        turns_between=turns_between,
        progress=progress,
        keep=True,
        show_secrets=show_secrets,
    )
    for _ in stream.turns:
        pass
    return stream.replay


class NotATranscriptError(ValueError):
    """A file handed to a replay holds no user or assistant record, only lines it could not
    use: not a Claude Code transcript, so nothing is replayed."""


def not_a_transcript(session: Session) -> str | None:
    """Why `session` is no Claude Code transcript to replay, or None. The one rule for the CLI's
    `replay`, replay_session and the replay widget (notebook 11, the dashboard's Sessions tab),
    which replayed such a file as "0 turns" without a word (attack39). An empty file is an
    empty session, not refused."""
    counts = session.record_counts
    if session.turns or not session.problems or counts.get("user") or counts.get("assistant"):
        return None
    return (
        f"{terminal_line(session.path or 'the file')} is not a Claude Code transcript: none of "
        f"its {plural(session.lines, 'line')} is a user or assistant record (first problem: "
        f"{terminal_line(str(session.problems[0]))}); pass a <session>.jsonl from "
        "~/.claude/projects/<project>/"
    )


@dataclass
class StreamedReplay:
    """A replay handed out turn by turn: `replay` has the session, the notes known before the
    first turn and, once `turns` is used up, every count, note and the flush."""

    replay: SessionReplay
    turns: Iterator[TurnReplay]


def iter_replay(
    transcript: str | os.PathLike[str] | Session,
    memory_dir: str | os.PathLike[str],
    *,
    selector: Selector | None = None,
    now_ms: float | None = None,
    turns_between: int = 1,
    progress: bool | None = None,
    keep: bool = False,
    show_secrets: bool = False,
) -> StreamedReplay:
    """replay_session, turn by turn: each TurnReplay is made when `turns` asks for it and, with
    keep False, let go once handed out, so what the replay adds to the session it reads does
    not grow with the turns (the CLI prints each row as it comes)."""
    session = transcript if isinstance(transcript, Session) else read_session(transcript)
    refusal = not_a_transcript(session)
    if refusal is not None:
        raise NotATranscriptError(refusal)
    root = os.path.abspath(os.fspath(memory_dir))
    if selector is None:
        selector = make_selector(OFFLINE_DEFAULT)
    label = str(getattr(selector, "name", type(selector).__name__))
    current, notes = current_memory(root)
    moved_from = former_keys(session, root)
    paths = MemoryPaths(root, session.cwd, other_keys=moved_from)
    timeline = build_timeline(session, paths, current)
    recorded = recorded_memory_dir(timeline, root)
    decisions = _Decisions(session, recorded, turns_between)
    notes.extend(session_notes(session))
    notes.extend(moved_note(session, recorded, moved_from))
    # show_secrets: its prompts and notes as typed, else redacted
    replay = SessionReplay(
        session, root, label, [], None, notes + timeline.notes, show_secrets=show_secrets
    )
    rows = _rows(
        replay, timeline, current, paths, selector, decisions, now_ms, progress=progress, keep=keep
    )
    return StreamedReplay(replay, rows)


def _rows(
    replay: SessionReplay,
    timeline: Timeline,
    current: dict[str, AsOfFile],
    paths: MemoryPaths,
    selector: Selector,
    decisions: _Decisions,
    now_ms: float | None,
    *,
    progress: bool | None,
    keep: bool,
) -> Iterator[TurnReplay]:
    """The replay's turns, one at a time, each counted into `replay` (and kept when keep)."""
    session = replay.session
    fallback_ms = now_ms if now_ms is not None else system_clock_ms()
    first_ms = next((t.timestamp_ms for t in session.turns if t.timestamp_ms), None)
    recall = RecallSession()
    resets = session.context_resets
    with SnapshotDir() as scratch:
        seen: set[str] = set()  # read or written by the agent in earlier turns
        told: set[str] = set()  # a file left out is refused again at each turn: noted once
        for turn in _progress(session.turns, progress):
            if turn.index in resets:
                recall.reset()  # the earlier attachments are gone with the compacted messages
            turn_ms = turn.timestamp_ms or fallback_ms
            state = timeline.states[turn.index]
            refused = scratch.sync(_as_of_files(state, current, first_ms or turn_ms))
            for note in (f"{r}: {why}; left out" for r, why in refused.items()):
                if note not in told:
                    told.add(note)
                    replay.notes.append(note)
            spent_before = recall.budget_spent
            row = _replay_turn(
                turn, session, timeline, state, scratch, recall, selector, turn_ms, seen
            )
            row.extraction = decisions.at(turn)
            row.cli_surfaced = _uniq_rels(paths.relative(p) for p in turn.cli_recalled)
            for rel in row.cli_surfaced:  # the CLI offers none of them again this session
                recall.mark_surfaced(scratch.path / rel)
            row.compacted_before = turn.index in resets
            if row.compacted_before:
                row.flags = [*row.flags, COMPACTED_FLAG]
            if recall.budget_spent and not spent_before:
                replay.budget_spent_at = turn.index
            yield replay.add(row, keep=keep)
    replay.flush = decisions.flush()


def _uniq_rels(rels: Iterable[str | None]) -> list[str]:
    """The memory files among rels (None: a path outside the dir), each once, in order: a path
    the name gate refuses (a folder, a name with a newline or ESC, the index) names none."""
    return list(
        dict.fromkeys(r for r in rels if r is not None and relative_path_problem(r) is None)
    )


def _rel(path: str, root: Path) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def _replay_turn(
    turn: Turn,
    session: Session,
    timeline: Timeline,
    state: dict[str, AsOfFile],
    snapshot: SnapshotDir,
    recall: RecallSession,
    selector: Selector,
    turn_ms: float,
    seen: set[str],
) -> TurnReplay:
    previous = session.turns[turn.index - 1].tools_used if turn.index > 0 else []
    scratch, before = snapshot.path, sorted(map(snapshot.name_of, recall.surfaced))
    skipped_before = len(recall.skipped)
    found = recall_memories(
        RecallRequest.build(
            turn.prompt,
            scratch,
            recent_tools=previous,
            already_surfaced=before,  # relative names: matched without resolving paths
            selector=selector,
            now_ms=turn_ms,
            scan_cache=recall.scan_cache,
        )
    )
    explained = selection_explanation(selector) if found or turn.prompt.strip() else []
    by_name = {e.filename: e for e in explained}
    injected = recall.inject(found, now_ms=turn_ms, memory_dir=scratch)
    surfaced = [
        SurfacedMemory(
            rel := _rel(item.path, scratch),
            item.injected_bytes,
            item.file_bytes,
            item.truncated,
            memory_age(item.mtime_ms, turn_ms),
            by_name.get(rel),
        )
        for item in injected
    ]
    budget_cut = [_rel(p, scratch) for p, why in recall.skipped[skipped_before:] if "budget" in why]
    if recall.budget_spent:
        taken = {s.rel for s in surfaced}
        budget_cut += [
            r
            for r in (_rel(m.path, scratch) for m in found)
            if r not in taken and r not in budget_cut
        ]
    read, wrote = timeline.reads(turn.index), timeline.writes(turn.index)
    surfaced_now = set(before) | {s.rel for s in surfaced}
    misses = [
        r
        for r in read
        if not is_index(r) and r in state and r not in surfaced_now and r not in seen
    ]
    for rel in (*read, *wrote):
        seen.add(rel)
        if not is_index(rel):
            recall.mark_surfaced(scratch / rel)
    return TurnReplay(
        index=turn.index,
        prompt=turn.prompt,
        kind=turn.kind,
        timestamp=turn.timestamp,
        flags=turn.flags + timeline.outside_flags(turn.index),
        recent_tools=list(previous),
        existing=sorted(r for r in state if not is_index(r)),
        uncertain=sorted(r for r, f in state.items() if not f.certain),
        already_surfaced=before,
        selected=[_rel(m.path, scratch) for m in found],
        surfaced=surfaced,
        capped=[s.rel for s in surfaced if s.truncated],
        budget_cut=budget_cut,
        budget_used=recall.bytes_used,
        explanation=explained,
        agent_read=read,
        agent_wrote=wrote,
        likely_misses=misses,
        queued_prompts=list(turn.queued_prompts),
    )
