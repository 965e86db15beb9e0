"""Where a session's context was compacted, and which old-style summary titles are its own.

A compaction point is a ``system`` boundary record (``compact_boundary``,
``microcompact_boundary``), the summary the CLI writes as a user record after ``/compact``, or
an old-style ``summary`` line, which is a title. 2.0.x files carry hundreds of ``summary`` lines
naming other sessions' records: one is this session's only when its ``leafUuid`` is a record of
this file, before or after it, or it names none (checked at the end, :meth:`Compactions.finish`).
A count-only read (``SessionBuilder(count_only=True)``) keeps none of them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memdir_nb.formats.session_model import CompactionPoint, Session
from memdir_nb.spec.constants import SESSION_NOTE_MAX_CHARS
from memdir_nb.spec.text import cap_text


class Compactions:
    """The compaction points of the session being read, and its summaries' leaf uuids."""

    def __init__(self, session: Session, *, kept: bool = True) -> None:
        self._session = session
        self._kept = kept  # off: a count-only read, which asks nothing of them
        self._summaries: list[tuple[CompactionPoint, int]] = []  # with their leafUuid's hash

    def point(
        self, kind: str, line_no: int, record: Mapping[str, Any], before_turn: int, text: str = ""
    ) -> None:
        """A compaction point of `kind` before turn `before_turn` (the turns read so far)."""
        if not self._kept:
            return
        meta = record.get("compactMetadata") or record.get("microcompactMetadata")
        meta = meta if isinstance(meta, dict) else {}
        pre = meta.get("preTokens")
        stamp = record.get("timestamp")
        self._session.compactions.append(
            CompactionPoint(
                kind=kind,
                line_no=line_no,
                before_turn=before_turn,
                timestamp=stamp if isinstance(stamp, str) else None,
                trigger=meta.get("trigger") if isinstance(meta.get("trigger"), str) else None,
                pre_tokens=pre if isinstance(pre, int) else None,
                text=cap_text(text, SESSION_NOTE_MAX_CHARS),
            )
        )

    def summary(self, record: Mapping[str, Any], line_no: int, before_turn: int) -> None:
        """An old-style `summary` line: a title, kept until finish tells whose it is."""
        if not self._kept:
            return
        text = record.get("summary")
        self.point("summary_title", line_no, record, before_turn, str(text or ""))
        leaf = record.get("leafUuid")
        if isinstance(leaf, str) and leaf:
            self._summaries.append((self._session.compactions[-1], hash(leaf)))

    def finish(self, uuids: set[int]) -> None:
        """Leave out the summary titles whose leafUuid is no record of this file (`uuids`: the
        hashes of every record uuid read): titles the CLI keeps for other sessions."""
        foreign = {id(point) for point, leaf in self._summaries if leaf not in uuids}
        if foreign:
            s = self._session
            s.compactions = [c for c in s.compactions if id(c) not in foreign]
