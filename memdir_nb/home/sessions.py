"""Session transcripts on disk: reading one as a Session, and listing a Claude home's sessions.

Claude Code keeps each session as ``<claude home>/projects/<key>/<session id>.jsonl``, beside
the project's memory dir ``<key>/memory/``. A subagent's own transcript lives at
``<key>/<session id>/subagents/agent-<id>.jsonl`` (2.1.x) or ``<key>/agent-<id>.jsonl``
(2.0.x); 1.0.x wrote subagents into the main file (``isSidechain`` records). The agents a
Workflow script starts (2.1.27x) live one level further down, one folder per run:
``<key>/<session id>/subagents/workflows/wf_<run id>/agent-<id>.jsonl``, beside the run's
``journal.jsonl`` (the script's own log, not a transcript).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.formats.session_builder import SessionBuilder
from memdir_nb.formats.session_model import Session, cli_agent_kind, timestamp_ms
from memdir_nb.formats.transcript_paths import key_fold, project_memory_keys
from memdir_nb.formats.transcript_records import is_pane_teammate_record, parse_record_line
from memdir_nb.home.git_root import project_key_root_of
from memdir_nb.home.moved_keys import moved_keys
from memdir_nb.home.path_rules import is_project_key, sanitize_path
from memdir_nb.home.transcript_folders import WORKFLOWS_DIRNAME, project_transcripts
from memdir_nb.home.transcript_head import read_transcript_head
from memdir_nb.security.secret_scan import redact_secrets
from memdir_nb.spec.bounded_cache import bounded_cache
from memdir_nb.spec.constants import (
    CACHE_MAX_BYTES,
    PROJECT_MEMORY_DIRNAME,
    PROJECTS_DIRNAME,
    SESSION_NOTE_MAX_CHARS,
    SESSION_READ_MAX_BYTES,
    TRANSCRIPT_LINE_MAX_BYTES,
)
from memdir_nb.spec.dates import utc_date
from memdir_nb.spec.text import cap_text, clip, one_line, terminal_line
from memdir_nb.storage.containment import real_path
from memdir_nb.storage.fsutil import is_folder
from memdir_nb.storage.line_reader import iter_lines

TITLE_SHOWN_MAX_CHARS = 60  # a title in a listing's row, cut (the whole one is in --json)
UNKNOWN_KIND = "unknown"  # a top-level transcript not read (or unreadable): main or teammate
_PATH_INPUTS = ("file_path", "path", "notebook_path")  # tool inputs that name one file or folder


def read_session(
    path: str | os.PathLike[str],
    *,
    max_line_bytes: int = TRANSCRIPT_LINE_MAX_BYTES,
    max_bytes: int = SESSION_READ_MAX_BYTES,
) -> Session:
    """Read a transcript file as a Session, streaming it line by line.

    One bad line is a problem in `.problems`, never an exception. A path that is not a
    readable regular file raises ReadRefused (an OSError) naming why.
    """
    builder = SessionBuilder(os.fspath(path))
    _feed_file(builder, max_line_bytes=max_line_bytes, max_bytes=max_bytes)
    return builder.finish()


def _feed_file(builder: SessionBuilder, *, max_line_bytes: int, max_bytes: int) -> None:
    """Stream the builder's file into it, line by line (read_session's rule)."""
    session = builder.session
    text = session.path
    last_line = 0
    for line in iter_lines(text, max_line_bytes=max_line_bytes, max_total_bytes=max_bytes):
        last_line = line.line_no
        session.bytes_read += line.size
        if line.data is None:
            builder.problem(
                line.line_no,
                f"line is {line.size:,} bytes, over the {max_line_bytes:,}-byte line limit; skipped",
            )
            continue
        if not line.data.strip():
            continue
        records, problem = parse_record_line(line.data, max_bytes=max_line_bytes)
        if problem is not None:
            builder.problem(line.line_no, problem)
        for record in records:
            builder.feed(record, line.line_no)
    session.lines = last_line
    if session.bytes_read >= max_bytes and os.path.getsize(text) > session.bytes_read:
        builder.problem(
            last_line, f"only the first {max_bytes:,} bytes were read; later lines were not"
        )
    if _is_subagent_path(text):
        session.is_sidechain = True
        if session.agent_id is None and Path(text).name.startswith(AGENT_FILE_PREFIX):
            session.agent_id = Path(text).stem.removeprefix(AGENT_FILE_PREFIX)  # from the name


AGENT_FILE_PREFIX = "agent-"  # agent-<agentId>.jsonl


def _is_subagent_path(path: str) -> bool:
    p = Path(path)
    return p.name.startswith(AGENT_FILE_PREFIX) or p.parent.name == "subagents"


def _file_kind(path: Path) -> str | None:
    """A transcript's kind by its path: 'subagent', or the CLI's own agent by its file name:
    'compaction' (agent-acompact-*.jsonl), 'suggestion' (agent-aprompt_suggestion-*). None
    for a top-level file: a main session's or a pane teammate's, which only its records tell."""
    if path.name.startswith(AGENT_FILE_PREFIX):
        own = cli_agent_kind(path.stem.removeprefix(AGENT_FILE_PREFIX))
        if own:
            return own
    return "subagent" if _is_subagent_path(str(path)) else None


def head_kind(path: str | os.PathLike[str]) -> str:
    """A top-level transcript's kind from its first SESSION_HEAD_READ_MAX_BYTES, for a listing
    that does not read it whole: 'teammate' when a record before its first main-thread user or
    assistant record, or that record, names a teammate beside its team
    (transcript_records.is_pane_teammate_record: a pane teammate writes its name on every
    record, beginning with the lead's task); 'main' when that record does not, or the file ends
    before one; UNKNOWN_KIND when the head holds none and the file goes on, or it cannot be
    read. The line the cap cuts is not parsed (home.transcript_head)."""
    try:
        head = read_transcript_head(path)
    except OSError:
        return UNKNOWN_KIND
    for record in head.records():
        if is_pane_teammate_record(record):
            return "teammate"
        if record.get("type") in ("user", "assistant") and not record.get("isSidechain"):
            return "main"
    return "main" if head.ended else UNKNOWN_KIND


# ------------------------------------------------------------------------------- listing


@dataclass(frozen=True)
class SessionFile:
    """One transcript in a Claude home, with what a listing shows about it."""

    project: str  # the project folder's name (the sanitised cwd)
    path: str
    session_id: str
    is_subagent: bool  # a subagent the user's agent started (not the compaction agent)
    size: int
    mtime_ms: float
    turns: int | None = None
    first_timestamp: str | None = None
    problems: int = 0
    # "main" | "teammate" (a pane teammate's own file) | "subagent" | the CLI's own agent:
    # "compaction" | "suggestion"; UNKNOWN_KIND for a top-level file not read (or unreadable)
    kind: str = "main"
    forked_from: str | None = None  # the session a `/fork` copied its history from
    recap: str | None = None  # the last recap the CLI wrote on the user's return (away_summary)
    title: str | None = None  # Session.title: its /rename name, else its latest ai-title, ...
    agent_name: str | None = None  # its last `agent-name` record (session_notices, real42b)
    tag: str | None = None  # its last `tag` record
    # its last `last-prompt` record, else the last prompt typed in its turns (sessions44)
    last_prompt: str | None = None

    def shown_title(self, width: int = TITLE_SHOWN_MAX_CHARS, *, show_secrets: bool = False) -> str:
        """The title as a listing shows it: a credential in it redacted unless show_secrets
        (a name the user typed may quote one), on one line, cut to width characters, every
        control and bidi character an escape (spec.text.terminal_line); '' when it has none."""
        if not self.title:
            return ""
        title = self.title if show_secrets else redact_secrets(self.title)
        return terminal_line(clip(one_line(title), width))

    @property
    def date(self) -> str:
        """The UTC date of the session's first timestamp, else of the file's modification time.
        Read as a time, not cut from the text: a record's "hello world" or "9999999-01-01" was
        shown as the date "hello worl" or "9999999-01" (attack39)."""
        ms = timestamp_ms(self.first_timestamp)
        return utc_date(self.mtime_ms if ms is None else ms).isoformat()


def projects_dir(claude_home: str | os.PathLike[str]) -> Path:
    """`<claude home>/projects`."""
    return Path(claude_home) / PROJECTS_DIRNAME


# A transcript's place in its project folder: home.transcript_folders (WORKFLOWS_DIRNAME).


def project_folder(path: str | os.PathLike[str]) -> Path:
    """The project folder a transcript belongs to (a subagent's and a workflow agent's too)."""
    folder = Path(os.path.abspath(path)).parent
    if folder.parent.name == WORKFLOWS_DIRNAME and folder.parent.parent.name == "subagents":
        folder = folder.parent.parent  # a workflow run's folder: up to subagents/
    if folder.name == "subagents":
        folder = folder.parent.parent
    return folder


def _recorded_keys(session: Session) -> Iterator[str]:
    """Project keys of the memory paths the CLI's own records name (the indexes it says it
    loaded; then, turn by turn, what its recall surfaced and the memory files it saw change or
    its background agents saved), then of the memory paths the session's own tool calls name,
    in call order. With per-turn recall on, the CLI loads no index, so its recall and saves may
    be the only record of the memory dir it used."""
    cli_named = [
        *session.memory_indexes,
        *(p for t in session.turns for p in t.cli_recalled),
        *(c.input.get("file_path") for t in session.turns for c in t.outside_edits),
    ]
    for path in cli_named:
        if isinstance(path, str):
            yield from (key for key in project_memory_keys(path) if is_project_key(key))
    for turn in session.turns:
        calls = turn.tool_calls + turn.sidechain_calls
        for call in calls:
            for name in _PATH_INPUTS:
                raw = call.input.get(name)
                if isinstance(raw, str):
                    keys = project_memory_keys(raw)
                    yield from (key for key in keys if is_project_key(key))


def memory_dir_for_transcript(
    path: str | os.PathLike[str], session: Session | None = None, *, git: str | None = "git"
) -> Path:
    """The memory dir a transcript's session used: by default the one beside its project folder.

    Claude Code files a transcript under the folder the session ran in, but keys the project's
    memory by the canonical git root (the main checkout). A session started in a subfolder or a
    linked worktree therefore has its memory in another project folder. Given the session, that
    folder is found, when it exists under the same projects folder, from:
    1. the memory index the CLI says it loaded for the session (2.1.25x) and the memory files
       its own recall surfaced or its background agents saved, then the memory paths the
       session's own tool calls name (``…/projects/<key>/memory/…``);
    2. the session's working folder, when it exists on this machine: its canonical git root's key.
    A key of 1. that names no folder here and is the key the working folder or one above it had
    before the project moved is read as that folder's key now (home.moved_keys). Otherwise the
    memory dir beside the transcript's project folder.
    """
    if session is None:
        return project_folder(path) / PROJECT_MEMORY_DIRNAME
    return _memory_dir_from(path, _pointers(session), git)


def _pointers(session: Session) -> tuple[tuple[str, ...], str | None]:
    """What in a session names its memory dir: the keys of the index the CLI loaded and of the
    paths its tool calls name, in that order, and its working folder."""
    return tuple(dict.fromkeys(_recorded_keys(session))), session.cwd


def _memory_dir_from(
    path: str | os.PathLike[str], pointers: tuple[tuple[str, ...], str | None], git: str | None
) -> Path:
    """memory_dir_for_transcript's rule, from the session's pointers (see there)."""
    folder = project_folder(path)
    beside = folder / PROJECT_MEMORY_DIRNAME
    keys, cwd = list(pointers[0]), pointers[1]
    # a relative cwd would be read against this process's folder, not the session's
    if cwd and os.path.isabs(cwd) and os.path.isdir(cwd):
        keys.append(sanitize_path(project_key_root_of(cwd, git=git)))
    # the key each folder up from its working one has now, when the project moved (moved_keys)
    moved = {key_fold(old): now for old, now in moved_keys(cwd, folder.name)}
    for key in keys:
        for named in (key, moved.get(key_fold(key))):
            if named is None:
                continue
            if key_fold(named) == key_fold(folder.name):
                return beside
            candidate = folder.parent / _folder_named(folder.parent, named) / PROJECT_MEMORY_DIRNAME
            if candidate.is_dir():
                return candidate
    return beside


def _folder_named(projects: Path, key: str) -> str:
    """The project folder a key names: itself, or for a Windows key written in another case
    (transcript_paths.key_fold) the folder under projects that is that key."""
    if key_fold(key) == key or (projects / key).is_dir():
        return key
    try:
        names = [e.name for e in os.scandir(projects) if e.is_dir()]
    except OSError:
        return key
    return next((name for name in names if key_fold(name) == key_fold(key)), key)


# A transcript names as many keys as its tool calls do (thousands in a long session), so the
# answers are bounded in bytes as well as in files.
@bounded_cache(max_entries=4096, max_bytes=CACHE_MAX_BYTES)
def _pointers_of_file(
    path: str, identity: tuple[int, int, int, int]
) -> tuple[tuple[str, ...], str | None] | None:
    """A transcript's pointers, read once per file identity (device, inode, size, mtime): a
    view listing a project's sessions again reads only what changed. None: not readable."""
    try:
        return _pointers(read_session(path))
    except OSError:
        return None


def iter_session_files(
    claude_home: str | os.PathLike[str], *, heads: bool = True
) -> Iterator[SessionFile]:
    """Every transcript under `<claude home>/projects`, project by project, not read: a
    top-level file's kind is told from its head (head_kind), or with heads=False left
    UNKNOWN_KIND for a caller that reads the file next (described)."""
    root = projects_dir(claude_home)
    try:
        projects = [e for e in os.scandir(root) if e.is_dir(follow_symlinks=False)]
    except OSError:
        return
    for project in sorted(projects, key=lambda e: e.name):
        for path in project_transcripts(Path(project.path)):
            try:
                st = path.stat()
            except OSError:
                continue
            kind = _file_kind(path) or (head_kind(path) if heads else UNKNOWN_KIND)
            yield SessionFile(
                project=project.name,
                path=str(path),
                session_id=path.stem,
                is_subagent=kind == "subagent",
                size=st.st_size,
                mtime_ms=st.st_mtime_ns / 1e6,
                kind=kind,
            )


def list_sessions(claude_home: str | os.PathLike[str], *, read: bool = True) -> list[SessionFile]:
    """Every transcript of a Claude home; with read=True each is read for its turns, date and
    title, else only a top-level one's head, for its kind (head_kind), and no title: titles are
    written anywhere in a file, again as they change, so a head cannot tell the latest.

    A transcript that cannot be read is listed with turns=None (and a top-level one's kind
    UNKNOWN_KIND), never dropped.
    """
    files = iter_session_files(claude_home, heads=not read)
    return [described(info) for info in files] if read else list(files)


def described(info: SessionFile) -> SessionFile:
    """info with what reading its transcript tells: turns, first date, bad lines, kind, title.

    A transcript that cannot be read is returned as it was given (turns=None). The file is
    read with a count-only builder (formats.session_builder): the same turns as read_session,
    without keeping them, so the memory a listing takes does not follow the file's turns.
    """
    builder = SessionBuilder(info.path, count_only=True)
    try:
        _feed_file(
            builder, max_line_bytes=TRANSCRIPT_LINE_MAX_BYTES, max_bytes=SESSION_READ_MAX_BYTES
        )
    except OSError:
        return info
    session = builder.finish()
    return SessionFile(
        **{
            **info.__dict__,
            "turns": builder.turn_count,
            "first_timestamp": session.first_timestamp,
            "problems": len(session.problems) + session.more_problems,
            "is_subagent": session.kind == "subagent",
            "kind": session.kind,
            "forked_from": session.forked_from,
            "recap": session.notices.latest_recap,
            "title": session.title,
            "agent_name": session.notices.agent_name,
            "tag": session.notices.tag,
            "last_prompt": _last_prompt(session),
        }
    )


def _last_prompt(session: Session) -> str | None:
    """The session's last prompt: its last `last-prompt` record's (what the CLI's own session
    picker shows), else, for a version that wrote none, the last prompt typed in a main
    session's turns (a slash command, a scheduled or channel prompt is none; an agent's turns
    hold the task it was given, not what the user typed), cut as a note is."""
    if session.notices.last_prompt:
        return session.notices.last_prompt
    if session.kind != "main" or not session.last_typed:
        return None
    return cap_text(session.last_typed, SESSION_NOTE_MAX_CHARS)


def sessions_using(
    memory_dir: str | os.PathLike[str], *, git: str | None = "git", heads: bool = True
) -> list[SessionFile]:
    """The transcripts whose session used memory_dir, newest first ([] outside a Claude home).

    Those beside it (its own project folder), and those of the project folders Claude Code
    names after its subfolders and in-repo worktrees (``<key>-…``) whose session used this dir
    by the rule of :func:`memory_dir_for_transcript`. A session started in ``repo/web/`` is
    filed under ``<key>-web`` but reads and writes the repo's memory, so it belongs here.
    A transcript that cannot be read is left to its own folder's listing. `heads` as for
    iter_session_files (off: the caller reads each file next).
    """
    memory = Path(os.path.abspath(os.fspath(memory_dir)))
    project = memory.parent
    if project.parent.name != PROJECTS_DIRNAME:
        return []
    found = []
    key = key_fold(project.name)
    same = _SameFolder(memory)
    for info in iter_session_files(project.parent.parent, heads=heads):
        folded = key_fold(info.project)
        if folded == key:
            found.append(info)
        elif folded.startswith(key + "-") or same.names_it(project.parent / info.project):
            try:
                st = os.stat(info.path)
            except OSError:
                continue
            identity = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)
            pointers = _pointers_of_file(info.path, identity)
            if pointers is not None and same(_memory_dir_from(info.path, pointers, git)):
                found.append(info)
    return sorted(found, key=lambda s: s.mtime_ms, reverse=True)


class _SameFolder:
    """Whether a memory dir path is one folder (a symlink to it, or it through one) with the
    dir a listing is for. A hook may link a worktree's project folder to the main checkout's
    memory (``<worktree key>/memory -> ../<main key>/memory``): a session filed there used the
    main dir through the link, and the main dir's sessions used the linked name's folder.
    Nothing is read through the link; each project folder costs one resolve, kept per folder."""

    def __init__(self, memory: Path) -> None:
        self._memory = memory
        self._real = _resolved(memory)
        self._named: dict[Path, bool] = {}

    def __call__(self, path: Path) -> bool:
        return path == self._memory or (self._real is not None and _resolved(path) == self._real)

    def names_it(self, project: Path) -> bool:
        """Whether a project folder's own memory dir is this folder under its name or a link."""
        if project not in self._named:
            entry = project / PROJECT_MEMORY_DIRNAME
            linked = os.path.islink(entry) or os.path.islink(self._memory)
            self._named[project] = linked and self(entry)
        return self._named[project]


def _resolved(path: Path) -> str | None:
    """The folder a path names after its links, None when it is no folder (or cannot be told)."""
    try:
        return real_path(path) if is_folder(path) else None
    except OSError:  # a path that keeps changing while it is resolved: not known to be one
        return None
