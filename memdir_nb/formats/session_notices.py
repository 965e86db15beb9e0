"""What the CLI told the user beside the conversation: recaps, notices and the session's mode.

Newer Claude Code versions write three kinds of record that are neither a prompt nor an
answer, and so never start or end a turn:

- ``system`` / ``away_summary``: the recap it shows when the user comes back to a session left
  idle for a while (``content``: a sentence or two on what was done and what is next, often
  ending with a hint on how to turn recaps off);
- ``system`` / ``informational``: a line it showed the user (``content``, with a ``level``:
  info, notice, suggestion, warning), such as a hook that completed, a usage limit reached
  or a response a safeguard stopped; the text may hold terminal colour codes;
- ``mode``: a bookkeeping line without uuid or time (``mode``: "normal" in the files seen).

A Session keeps the last SESSION_NOTICES_KEPT of the first two, each with the turn it came
after, and counts all of them; a listing shows the last recap, a replay lists the notices.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from memdir_nb.spec.constants import SESSION_NOTE_MAX_CHARS
from memdir_nb.spec.text import cap_text

RECAP = "away_summary"
INFORMATIONAL = "informational"
MODE_RECORD = "mode"  # a record type, not a system subtype
SESSION_NOTICES_KEPT = 16  # the last ones of a session; the count says how many there were
_MODE_MAX_CHARS = 64  # a mode is a word; a crafted one is cut


@dataclass(frozen=True)
class Notice:
    """One recap or informational line, after `turn` turns had begun."""

    kind: str  # RECAP | INFORMATIONAL
    text: str  # cut at SESSION_NOTE_MAX_CHARS, not yet made safe to show
    turn: int
    level: str | None = None  # an informational line's level, when a short string
    timestamp: str | None = None


@dataclass
class SessionNotices:
    """A session's recaps, informational lines and mode records (see the module doc)."""

    kept: deque[Notice] = field(default_factory=lambda: deque(maxlen=SESSION_NOTICES_KEPT))
    recaps: int = 0
    informational: int = 0
    modes: list[str] = field(default_factory=list)  # each mode named, once, at most 8
    latest_recap: str | None = None  # the last recap's text (kept past the deque)

    def take(self, record: Mapping[str, Any], kind: str, turn: int) -> None:
        """Note one record of any type: a recap, an informational line or a mode record;
        every other record (and a value of the wrong JSON type) is passed over."""
        if kind == MODE_RECORD:
            mode = record.get("mode")
            if isinstance(mode, str) and mode not in self.modes and len(self.modes) < 8:
                self.modes.append(mode[:_MODE_MAX_CHARS])
            return
        sub = record.get("subtype") if kind == "system" else None
        if sub not in (RECAP, INFORMATIONAL):
            return
        text = record.get("content")
        if not isinstance(text, str) or not text.strip():
            return  # a blank recap says nothing and does not replace the last one
        text = cap_text(text.strip(), SESSION_NOTE_MAX_CHARS)
        level = record.get("level")
        stamp = record.get("timestamp")
        self.kept.append(
            Notice(
                sub,
                text,
                turn,
                level[:_MODE_MAX_CHARS] if isinstance(level, str) else None,
                stamp if isinstance(stamp, str) else None,
            )
        )
        if sub == RECAP:
            self.recaps += 1
            self.latest_recap = text
        else:
            self.informational += 1
