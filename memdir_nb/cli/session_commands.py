"""The commands about recorded sessions: `sessions` (list them) and `replay` (turn by turn).

Everything printed comes from transcripts, which hold whatever a person or a tool typed, so
every line goes through spec.text.terminal_safe before it reaches the terminal.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

from memdir_nb.cli.home_commands import _claude_homes
from memdir_nb.formats.jsonio import dumps_output
from memdir_nb.home.claude_homes import is_claude_home, no_claude_home
from memdir_nb.home.sessions import (
    TITLE_SHOWN_MAX_CHARS,
    UNKNOWN_KIND,
    SessionFile,
    described,
    list_sessions,
    memory_dir_for_transcript,
    project_folder,
    read_session,
    sessions_using,
)
from memdir_nb.home.subagent_meta import SubagentMeta, subagent_meta
from memdir_nb.home.transcript_folders import owning_session
from memdir_nb.recall.selectors import make_selector
from memdir_nb.reports.replay import NotATranscriptError, StreamedReplay, iter_replay
from memdir_nb.reports.replay_ledger import ledger_notes, ledger_totals
from memdir_nb.reports.replay_table import CAPS_FOOTNOTE, TABLE_HEADER, turn_lines
from memdir_nb.security.secret_scan import redact_secrets
from memdir_nb.spec.constants import PROJECTS_DIRNAME
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import clip, one_line, plural, terminal_line, terminal_safe
from memdir_nb.storage.access import ReadRefused

_KIND_NAMES = {
    "main": "main",
    "teammate": "teammate",
    "subagent": "subagent",
    "compaction": "compaction agent",
    "suggestion": "prompt-suggestion agent",
}


def _say(text: str) -> None:
    print(terminal_safe(text))


def _say_line(text: str) -> None:
    """Print one line: a newline inside it (a transcript's file name, its session id, a path
    it read) is shown as an escape, never the start of a line of its own."""
    print(terminal_line(text))


def _size(n: int) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024  # type: ignore[assignment]
    return f"{n} B"


def _sessions_of_dir(args: argparse.Namespace) -> list[tuple[Path, SessionFile]] | None:
    """The rows of `sessions --dir`, or None after saying why there are none to list."""
    memory_dir = Path(args.dir).absolute()
    home = memory_dir.parent.parent.parent
    if args.home:
        message = "--dir and --home both name where to look; pass one of them"
    elif memory_dir.parent.parent.name != PROJECTS_DIRNAME:
        message = (
            f"{memory_dir} is not a project's memory dir under a Claude home; pass "
            "<claude home>/projects/<key>/memory (such as one `memdir-nb list` prints)"
        )
    else:
        found = sorted(sessions_using(memory_dir, heads=False), key=lambda s: (s.project, s.path))
        return [(home, described(s)) for s in found]
    print(terminal_safe(f"error: {message}"), file=sys.stderr)
    return None


def cmd_sessions(args: argparse.Namespace) -> int:
    """List each project's session transcripts (with --dir: those that used one memory dir)."""
    if args.dir is not None:
        of_dir = _sessions_of_dir(args)
        if of_dir is None:
            return 2
        return _print_sessions(args, of_dir, f"sessions that used {args.dir}")
    homes = _claude_homes(args.home)
    rows: list[tuple[Path, SessionFile]] = []
    for home in homes:
        if not is_claude_home(home):
            problem = (
                no_claude_home(home)
                if not home.is_dir()
                else f"{home} holds no projects/ folder and is not a Claude home; pass a "
                "Claude home (such as ~/.claude) with --home"
            )
            print(terminal_safe(f"error: {problem}"), file=sys.stderr)
            return 2
        if (home / PROJECTS_DIRNAME).is_dir():  # a Claude home with no sessions yet has none
            rows.extend((home, s) for s in list_sessions(home))
    return _print_sessions(args, rows, f"session transcripts under {', '.join(map(str, homes))}")


def _print_sessions(
    args: argparse.Namespace, rows: list[tuple[Path, SessionFile]], what: str
) -> int:
    """The listing, project by project, or as JSON; 'No <what>.' when there is none."""
    metas = {s.path: _meta_of(s) for _, s in rows}
    if not args.show_secrets:  # a recap quoting a credential shows it redacted (attack40b)
        rows = [(h, _redacted(s)) for h, s in rows]
    if args.json:
        print(
            dumps_output(
                [
                    {"home": str(h), **s.__dict__, "date": s.date, **_meta_fields(metas[s.path])}
                    for h, s in rows
                ],
                indent=2,
            )
        )
        return 0
    if not rows:
        _say(f"No {what}.")
        return 0
    project = None
    sessions: set[str] = set()  # the project's sessions named so far, by their own row or not
    for _, s in rows:
        if s.project != project:
            project, sessions = s.project, set()
            _say_line(f"{terminal_name(project)}/")  # a folder `p<0xff>` and `p\\udcff`: two
        owner = owning_session(s.path)
        if owner is not None and owner not in sessions and _main_is_absent(s.path, owner):
            # its session's own transcript is not here: say so, or its agents read as the
            # agents of the row above them (real40)
            _say_line(f"  {terminal_name(owner):<40} (no transcript of its own; its agents:)")
        sessions.add(owner or s.session_id)
        turns = "? turns" if s.turns is None else plural(s.turns, "turn")
        # how the user knows the session (its credentials were redacted above, unless asked)
        note = f"  {s.shown_title(show_secrets=True)}" if s.title else ""
        note += f"  ({plural(s.problems, 'bad line')})" if s.problems else ""
        note += _name_note(s)
        note += f"  (fork of {terminal_name(s.forked_from)})" if s.forked_from else ""
        note += f"  (recap: {terminal_line(clip(one_line(s.recap), 72))})" if s.recap else ""
        meta = metas[s.path]
        note += f"  {meta.shown}" if meta is not None else ""  # what the subagent was for
        _say_line(
            f"  {terminal_name(s.session_id):<40} {s.date}  {turns:>11}  {s.kind:<10} {_size(s.size):>9}{note}"
        )
    _say(_listing_total([s for _, s in rows]))
    return 0


def _redacted(s: SessionFile) -> SessionFile:
    """s with its recap and title redacted (security.secret_scan): a name the user gave the
    session, or a recap, may quote a credential."""
    return replace(
        s,
        recap=s.recap and redact_secrets(s.recap),
        title=s.title and redact_secrets(s.title),
        agent_name=s.agent_name and redact_secrets(s.agent_name),
        tag=s.tag and redact_secrets(s.tag),
        last_prompt=s.last_prompt and redact_secrets(s.last_prompt),
    )


def _name_note(s: SessionFile) -> str:
    """The session's `agent-name` when it is not its title, its tag and its last prompt, as a
    row shows them: on one line, cut, every control and bidi character an escape (real42b)."""
    note = ""
    if s.agent_name and s.agent_name != s.title:
        note += f"  (name: {terminal_line(clip(one_line(s.agent_name), TITLE_SHOWN_MAX_CHARS))})"
    if s.tag:
        note += f"  (tag: {terminal_line(clip(one_line(s.tag), TITLE_SHOWN_MAX_CHARS))})"
    if s.last_prompt:  # the last thing the user asked (sessions44)
        shown = terminal_line(clip(one_line(s.last_prompt), TITLE_SHOWN_MAX_CHARS))
        note += f"  (last prompt: {shown})"
    return note


def _main_is_absent(agent_path: str, session_id: str) -> bool:
    """Whether the project folder holds no `<session id>.jsonl` beside the agent's session
    folder (a snapshot that left it out, or a session whose transcript was deleted)."""
    return not (project_folder(agent_path) / f"{session_id}.jsonl").exists()


def _meta_of(info: SessionFile) -> SubagentMeta | None:
    """A subagent's meta file (home.subagent_meta), None for any other transcript."""
    return subagent_meta(info.path) if info.kind == "subagent" else None


def _meta_fields(meta: SubagentMeta | None) -> dict[str, str | None]:
    """A row's JSON fields from its meta file: None where there is none."""
    if meta is None:
        return {"description": None, "agent_type": None}
    return {"description": meta.description or None, "agent_type": meta.agent_type or None}


def _listing_total(files: list[SessionFile]) -> str:
    """'5 transcripts: 3 main, 1 subagent, 1 compaction agent.' (kinds with none left out)."""
    counts = [
        plural(sum(f.kind == kind for f in files), word, many)
        for kind, word, many in (
            ("main", "main", "main"),
            ("teammate", "teammate", "teammates"),
            ("subagent", "subagent", "subagents"),
            ("compaction", "compaction agent", "compaction agents"),
            ("suggestion", "prompt-suggestion agent", "prompt-suggestion agents"),
            (UNKNOWN_KIND, "unreadable", "unreadable"),
        )
        if any(f.kind == kind for f in files)
    ]
    return f"{plural(len(files), 'transcript')}: {', '.join(counts)}."


def cmd_replay(args: argparse.Namespace) -> int:
    """Print the turn table of a session replayed against its memory dir."""
    transcript = Path(args.transcript)
    try:
        session = read_session(transcript)
    except ReadRefused as exc:
        print(terminal_safe(f"error: cannot read {transcript}: {exc.detail}"), file=sys.stderr)
        return 2
    memory_dir = (
        args.dir if args.dir is not None else memory_dir_for_transcript(transcript, session)
    )
    try:
        stream = iter_replay(
            session,
            memory_dir,
            selector=make_selector(args.selector),
            now_ms=args.now_ms,
            turns_between=args.turns_between,
            show_secrets=args.show_secrets,
        )
        if args.json:
            _print_json_replay(transcript, stream)
            return 0
    except ReadRefused as exc:
        print(terminal_safe(f"error: cannot read {transcript}: {exc.detail}"), file=sys.stderr)
        return 2
    except NotATranscriptError as exc:
        print(terminal_safe(f"error: {exc}"), file=sys.stderr)
        return 2
    replay = stream.replay
    _say_line(
        f"Session {session.session_id or transcript.stem} ({_KIND_NAMES[session.kind]}),"
        f" memory dir {replay.memory_dir}"
    )
    if args.dir is None and Path(memory_dir) != memory_dir_for_transcript(transcript):
        _say(
            "  (not the folder beside the transcript: the session ran in a subfolder or a "
            "worktree, and its memory is keyed by the git root; pass --dir to choose another)"
        )
    for problem in replay.problem_lines():
        _say_line(f"  {problem}")  # each reason says what became of its line ("...; skipped")
    _say_line(TABLE_HEADER)
    for turn in stream.turns:  # each row printed as it is made, then let go
        for line in turn_lines(turn):
            _say_line(line)
    if replay.totals.truncated:
        _say_line(CAPS_FOOTNOTE)
    _say("")
    _say(replay.summary())
    for note in ledger_notes(replay):  # the snapshots and tokens, as the replay widget lists them
        _say_line(note)
    return 0


def _print_json_replay(transcript: Path, stream: StreamedReplay) -> None:
    """`replay --json`: print the text dumps_output makes of the replay's dict, its `turns`
    rows written to a spool file as they are made (the counts before them are known only at
    the end) and copied out from there, so the rows are not all held at once."""
    with tempfile.SpooledTemporaryFile(max_size=1024 * 1024, mode="w+", encoding="utf-8") as rows:
        for n, turn in enumerate(stream.turns):
            row = dumps_output(turn.row(), indent=2).replace("\n", "\n    ")
            rows.write(("" if n == 0 else ",\n") + "    " + row)
        replay = stream.replay
        head = dumps_output(
            {
                "transcript": str(transcript),
                "memory_dir": replay.memory_dir,
                "likely_miss_turns": replay.likely_miss_turns,
                "recall_turns": replay.recall_turns,
                "problems": replay.problem_lines(),
                "ledger": ledger_totals(replay.session.ledger),
                "ledger_notes": ledger_notes(replay),
                "turns": [],
            },
            indent=2,
        )
        if not replay.totals.turns:
            print(head)
            return
        rows.seek(0)
        sys.stdout.write(head.removesuffix("[]\n}") + "[\n")
        while chunk := rows.read(1024 * 1024):
            sys.stdout.write(chunk)
        print("\n  ]\n}")
