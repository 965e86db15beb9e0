"""The replay's notes on what the CLI told the user beside the conversation (formats.session_notices).

A recap (away_summary) is listed with the turn it followed; an informational line of a
level that stands out (anything but "info": notice, suggestion, warning...) with the turn it
came in; "info" lines (a hook that completed, each turn) are counted in one note, as a
terminal shows them only in its transcript view. A mode other than "normal" is named, and
so are the session's metadata: its name (`agent-name`) when it is not its title, its
permission modes other than "default", the agent it ran as, the worktrees it entered, its tag, its last task summary, the pull requests it
linked. None of them is a turn. The notes are plain text: the table makes each one safe to print.
A turn's own notices (turn_notice_notes) are the same notes, for the replay view's turn detail.
"""

from __future__ import annotations

from memdir_nb.formats.session_model import Session
from memdir_nb.formats.session_notices import RECAP, Notice
from memdir_nb.spec.text import one_line, plural

_QUIET_LEVEL = "info"
_PLAIN_MODE = "normal"
_PLAIN_PERMISSIONS = "default"


def notice_notes(session: Session) -> list[str]:
    """The replay's notes for the session's recaps, informational lines and modes."""
    notices = session.notices
    notes = [_note(n) for n in notices.kept if n.kind == RECAP or n.level != _QUIET_LEVEL]
    quiet = sum(1 for n in notices.kept if n.kind != RECAP and n.level == _QUIET_LEVEL)
    if quiet:
        notes.append(
            f"{plural(quiet, 'informational line')} at level info (hooks that completed and "
            "the like) left out"
        )
    gone = notices.recaps + notices.informational - len(notices.kept)
    if gone > 0:
        notes.insert(
            0,
            f"{plural(gone, 'earlier recap or informational line', 'earlier recaps or informational lines')}"
            f" not kept: only the last {len(notices.kept)} are",
        )
    modes = [m for m in notices.modes if m != _PLAIN_MODE]
    if modes:
        notes.append(f"the session's mode records name: {', '.join(modes)}")
    return notes + _metadata_notes(session)


def _metadata_notes(session: Session) -> list[str]:
    """The notes on the session's metadata records (formats.session_notices, real42b)."""
    n, notes = session.notices, []
    if n.agent_name and n.agent_name != session.title:
        notes.append(f"the session's name (agent-name): {one_line(n.agent_name)}")
    permissions = [m for m in n.permission_modes if m != _PLAIN_PERMISSIONS]
    if permissions:
        notes.append(f"permission modes the session ran in: {', '.join(permissions)}")
    if n.agent_setting:
        notes.append(f"the agent the session ran as (agent-setting): {one_line(n.agent_setting)}")
    if n.worktrees:
        notes.append(f"worktrees the session entered: {', '.join(n.worktrees)}")
    if n.tag:
        notes.append(f"the session's tag: {one_line(n.tag)}")
    if n.task_summary:
        notes.append(f"the CLI's last summary of the task: {one_line(n.task_summary)}")
    if n.pull_requests:
        notes.append(f"pull requests the session linked: {', '.join(n.pull_requests)}")
    return notes


def turn_notice_notes(session: Session, turn: int) -> list[str]:
    """The notes of the recaps and informational lines that came in turn `turn` (1-based, as
    Notice.turn counts; 0: before the first prompt), worded as notice_notes words them, the
    "info" ones counted in one note; only those the session kept (the last
    SESSION_NOTICES_KEPT)."""
    here = [n for n in session.notices.kept if n.turn == turn]
    notes = [_note(n) for n in here if n.kind == RECAP or n.level != _QUIET_LEVEL]
    quiet = len(here) - len(notes)
    if quiet:
        notes.append(f"{plural(quiet, 'informational line')} at level info left out")
    return notes


def _note(notice: Notice) -> str:
    """One recap or informational line, with its turn."""
    text = one_line(notice.text)
    if notice.kind == RECAP:
        where = f"after turn {notice.turn}" if notice.turn else "before the first prompt"
        return f"{where}, the recap the CLI showed the user on their return: {text}"
    where = f"turn {notice.turn}" if notice.turn else "before the first prompt"
    return f"{where}: the CLI told the user ({notice.level or 'no level'}): {text}"
