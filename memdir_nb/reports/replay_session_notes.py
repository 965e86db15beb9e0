"""What a replay says about a session before its first turn: whose transcript it is (one of
the CLI's own agents), a fork, history written again, a moved home, the turns in which a model
refused, and what the CLI told the user beside the conversation (reports.replay_notices)."""

from __future__ import annotations

from memdir_nb.formats.session_model import Session
from memdir_nb.formats.transcript_paths import key_fold, project_memory_keys
from memdir_nb.reports.replay_notices import notice_notes
from memdir_nb.spec.text import cap_text, first_few, one_line, plural, terminal_line

# What replay says about a transcript of one of the CLI's own agents (Session.kind).
_CLI_AGENT_NOTES = {
    "compaction": "the compaction agent's transcript: its prompt is the CLI's instruction to "
    "summarise the conversation, not the user's; recall is shown as if it ran on it",
    "suggestion": "the prompt-suggestion agent's transcript: its prompt is the CLI's instruction "
    "to guess what the user types next, not the user's; recall is shown as if it ran on it",
}


def moved_note(session: Session, recorded: str, moved_from: tuple[str, ...]) -> list[str]:
    """Say so when the session's calls name the dir under the key its working folder had
    (home.moved_home.former_keys): the header names the dir beside the transcript."""
    folded = {key_fold(key) for key in moved_from}
    if not any(key_fold(key) in folded for key in project_memory_keys(recorded)):
        return []
    return [
        f"the session's own calls name this memory dir as {terminal_line(recorded)}, under the "
        f"key of the folder it ran in ({terminal_line(session.cwd or '')}): its home was "
        "moved or its project folder renamed since, and those calls are read as this dir's"
    ]


def session_notes(session: Session) -> list[str]:
    """What the replay says about the session before its turns: whose transcript it is, a
    fork, history written again, refusals, and what the CLI told the user beside the
    conversation (recaps, notices: reports.replay_notices)."""
    notes = []
    if session.kind in _CLI_AGENT_NOTES:
        notes.append(_CLI_AGENT_NOTES[session.kind])
    if session.forked_from is not None:
        notes.append(
            f"forked from session {terminal_line(session.forked_from)}: the history the fork "
            "copied from it is that session's turns and is left out; recall here starts "
            "as if nothing had been surfaced before the fork"
        )
    elif session.copied_records:
        notes.append(
            f"{session.copied_records} records of this file are history written again (a "
            "resume or fork that names no parent, the parent's call that started a fork worker, "
            "a conversation handed to an agent, or a second /compact writing the session's own "
            "records again); the copies are left out, so each turn is read once"
        )
    return notes + refusal_notes(session) + notice_notes(session) + unanswered_notes(session)


UNANSWERED_SHOWN = 3  # prompts no turn began for that the note names, then a count
_UNANSWERED_CHARS = 200  # each kept to about this (cap_text: a credential goes whole)


def unanswered_notes(session: Session) -> list[str]:
    """The prompts the user typed that no turn began for (Session.unanswered: queued, then the
    file ends; a `-p` run that stopped after its `queue-operation` records), on one line."""
    typed = session.unanswered
    if not typed:
        return []
    count = len(typed) + session.unanswered_more
    named = [f'"{cap_text(one_line(t), _UNANSWERED_CHARS)}"' for t in typed[:UNANSWERED_SHOWN]]
    shown = first_few(named, UNANSWERED_SHOWN, count=count)
    return [
        f"{plural(count, 'prompt')} typed and queued that no turn began for (the "
        f"transcript ends first): {shown}"
    ]


def refusal_notes(session: Session) -> list[str]:
    """One note per turn in which a model refused: what the CLI did, and what was taken back
    (formats.session_refusals; a retracted answer's tool calls count only where they ran)."""
    notes = []
    for turn in session.turns:
        if not turn.refusals:
            continue
        taken = [r for r in turn.responses if r.retracted]
        unrun = sum(1 for r in taken for c in r.tool_calls if not c.has_result)
        calls = f", {plural(unrun, 'tool call')} that never ran" if unrun else ""
        back = f"; the CLI took back {plural(len(taken), 'partial answer')}{calls}" if taken else ""
        notes.append(f"turn {turn.index + 1}: {'; '.join(turn.refusals)}{back}")
    return notes
