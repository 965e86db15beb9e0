"""History the VS Code extension 2.0.x writes again on a resume, with new uuids and one time.

On a resume, the extension (entrypoint claude-vscode, 2.0.2 seen; docs/sessions.md, real37 and
resume37) appends the conversation so far again: every record with a fresh uuid, no
`requestId`, and one timestamp, the instant of the resume. A prompt whose record held IDE
context beside the typed text is written as two records (the context, then the text); answers
keep their `message.id`, calls and results their tool_use ids; the copy of an interrupted turn
may end with a harness reply ("No response requested.", model `<synthetic>`, a new id). The
copy rule of formats.session_copies reads a prompt as a copy only at its original time, so
each copied prompt began a turn again (one session: 50 turns, 29 typed).

The rule, one record at a time (the first copied prompt is known only by its answer, so the
builder takes back the turn that prompt began, as it takes back a refused answer):

- A block opens at the first answer record of the running turn when that record has no
  requestId, carries the message.id of an answer read in an earlier turn k, has the same
  timestamp as the prompt that began the running turn, and that prompt's text is turn k's.
  The running turn is then history written again, and so are the records of its prompt's
  time read just before it (the IDE context of the prompt).
- In the block, a user/assistant record with the block's timestamp is a copy when it is a
  prompt whose text is that of a later turn read before the block (in order: the first such
  turn after the last one the block repeated), an answer with no requestId carrying a
  message.id read before the block, or a harness reply (model `<synthetic>`), or any other
  user record (results, context, interrupt markers).
- Anything else ends the block and is read as usual: a record of another time, a prompt that
  repeats no later turn, an answer from the API (it has a requestId) or with a new id.

A prompt typed twice is two turns: the second is answered by the API, with a requestId and a
new message.id. A compacted session and the copies of session_copies never carry an earlier
answer's message.id without a requestId at their prompt's own time.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping
from typing import Any

from memdir_nb.formats import transcript_records as tr
from memdir_nb.formats.session_copies import prompt_key
from memdir_nb.formats.session_model import Session, Turn
from memdir_nb.spec.constants import SESSION_PROMPT_MAX_CHARS
from memdir_nb.spec.text import cap_text

MAX_ANSWERS = 1 << 20  # message ids remembered (past it, later answers open no block)
_MAX_LEAD = 64  # records of a prompt's time read just before it, kept to take back with it

_UNTYPED = ("continuation", "bash")  # turns no prompt record began
NOT_A_COPY, COPY, OPENS = 0, 1, 2  # judge(): read as usual; a copy; a copy that opens a block


def _stamp(record: Mapping[str, Any]) -> str | None:
    stamp = record.get("timestamp")
    return stamp if isinstance(stamp, str) and stamp else None


def _answer(record: Mapping[str, Any]) -> tuple[int | None, bool, bool]:
    """An assistant record's message.id (hashed), whether the API sent it (a requestId), and
    whether the harness made it (model <synthetic>)."""
    message = record.get("message")
    message = message if isinstance(message, dict) else {}
    mid = message.get("id")
    return (
        hash(mid) if isinstance(mid, str) and mid else None,
        isinstance(record.get("requestId"), str),
        message.get("model") == "<synthetic>",
    )


class RewrittenHistory:
    """Which records are a resume's rewrite of the history (see the module docstring)."""

    def __init__(self) -> None:
        self._prompts: list[int] = []  # each turn's prompt text (hashed), in order
        self._turns_of: dict[int, list[int]] = {}  # a prompt text (hashed): its turns, in order
        self._answers: dict[int, int] = {}  # an answer's message.id (hashed): its turn
        self._open: tuple[int, str] | None = None  # the unanswered running turn's prompt, time
        self._lead: list[str] = []  # uuids of the records of one time read since an answer
        self._lead_stamp: str | None = None
        self._open_lead: list[str] = []  # those of the running turn's prompt's time
        self._block: str | None = None  # the block's timestamp
        self._at = -1  # the last turn the block repeated
        self._before = 0  # the turns read before the block
        self.taken_lead: list[str] = []  # after OPENS: the lead records' uuids, copies too

    def started(self, prompt: str, stamp: str | None, kind: str) -> None:
        """A turn of `kind` began (every turn, in order): its prompt text, its first record's
        time. Only a turn a prompt record began may be a block's first."""
        self._prompts.append(hash(prompt))
        self._turns_of.setdefault(self._prompts[-1], []).append(len(self._prompts) - 1)
        typed = kind not in _UNTYPED
        self._open = (self._prompts[-1], stamp) if typed and stamp is not None else None
        self._open_lead = self._lead if stamp == self._lead_stamp else []
        self._lead, self._lead_stamp = [], None

    def judge(self, record: Mapping[str, Any], user_kind: str | None, main: bool) -> int:
        """NOT_A_COPY, COPY, or OPENS (this record is a copy, and the running turn too)."""
        stamp = _stamp(record)
        if self._block is not None:
            if stamp == self._block and self._in_block(record, user_kind):
                return COPY
            self._block = None
        if not main:
            return NOT_A_COPY
        if record.get("type") != "assistant":
            self._note_lead(record, stamp, user_kind)
            return NOT_A_COPY
        mid, from_api, _ = _answer(record)
        opened, self._open, self._lead, self._lead_stamp = self._open, None, [], None
        earlier = self._answers.get(mid) if mid is not None else None
        turn = len(self._prompts) - 1
        if (
            opened is not None
            and not from_api
            and earlier is not None
            and earlier < turn
            and stamp == opened[1]
            and self._prompts[earlier] == opened[0]
        ):
            self._turns_of[self._prompts.pop()].pop()  # the running turn is taken back
            self._block, self._at, self._before = stamp, earlier, turn
            self.taken_lead = self._open_lead
            return OPENS
        if mid is not None and len(self._answers) < MAX_ANSWERS:
            self._answers.setdefault(mid, max(turn, 0))
        return NOT_A_COPY

    def _in_block(self, record: Mapping[str, Any], user_kind: str | None) -> bool:
        if record.get("type") == "assistant":
            mid, from_api, synthetic = _answer(record)
            return not from_api and (synthetic or (mid is not None and mid in self._answers))
        if user_kind not in tr.TURN_KINDS:
            return True
        text = hash(cap_text(prompt_key(record, user_kind), SESSION_PROMPT_MAX_CHARS))
        turns = self._turns_of.get(text, [])
        at = bisect_right(turns, self._at)  # the first turn of this text after the last matched
        if at == len(turns) or turns[at] >= self._before:
            return False
        self._at = turns[at]
        return True

    def _note_lead(self, record: Mapping[str, Any], stamp: str | None, kind: str | None) -> None:
        """A main-thread user record: remembered when it could be a prompt's lead (its IDE
        context, written as a record of its own at the prompt's time)."""
        uuid = tr.record_id(record.get("uuid"))
        if kind in tr.TURN_KINDS or uuid is None or stamp is None:
            return
        if stamp != self._lead_stamp:
            self._lead, self._lead_stamp = [], stamp
        if len(self._lead) < _MAX_LEAD:
            self._lead.append(uuid)


def leave_out_turn(
    session: Session, turn: Turn, records: int, lead: list[str], *, keep_uuids: bool
) -> None:
    """A turn the builder took back (a block's first): its `records` and its `lead` (the
    records of its prompt's time read just before it) counted as copied, its uuids kept as
    copies' with `keep_uuids` (a count-only read names none), its images not counted."""
    session.copied_records += records
    session.images -= turn.images
    if keep_uuids:
        session.copied_uuids.update(u for u in (turn.uuid, turn.last_uuid, *lead) if u)
