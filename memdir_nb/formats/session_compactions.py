"""Where a session's context was compacted, and which old-style summary titles are its own.

A compaction point is a ``system`` boundary record (``compact_boundary``,
``microcompact_boundary``), the summary the CLI writes as a user record after ``/compact``, or
an old-style ``summary`` line, which is a title. 2.0.x files carry hundreds of ``summary`` lines
naming other sessions' records: one is this session's only when its ``leafUuid`` is a record of
this file, before or after it, or it names none (checked at the end, :meth:`Compactions.finish`).
A count-only read (``SessionBuilder(count_only=True)``) keeps none of them, only what a listing
shows of the summary titles: the last text of each of the latest SUMMARY_TITLE_LEAVES_MAX leaves
named, so that :meth:`Compactions.finish` can tell `Session.summary_title` by the same rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from memdir_nb.formats.session_model import CompactionPoint, Session
from memdir_nb.spec.constants import SESSION_NOTE_MAX_CHARS, SUMMARY_TITLE_LEAVES_MAX
from memdir_nb.spec.text import cap_text


class Compactions:
    """The compaction points of the session being read, and its summaries' leaf uuids."""

    def __init__(self, session: Session, *, kept: bool = True) -> None:
        self._session = session
        self._kept = kept  # off: a count-only read, which asks nothing of them
        self._summaries: list[tuple[CompactionPoint, int]] = []  # with their leafUuid's hash
        # count-only: each leaf's (hash; None: names none) last summary text, the latest last
        self._titles: dict[int | None, str] = {}

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
        text = record.get("summary")
        if not self._kept:
            self._title_of_leaf(record.get("leafUuid"), str(text or ""))
            return
        self.point("summary_title", line_no, record, before_turn, str(text or ""))
        leaf = record.get("leafUuid")
        if isinstance(leaf, str) and leaf:
            self._summaries.append((self._session.compactions[-1], hash(leaf)))

    def finish(self, uuids: set[int]) -> None:
        """Leave out the summary titles whose leafUuid is no record of this file (`uuids`: the
        hashes of every record uuid read): titles the CLI keeps for other sessions. The last
        own one that is not blank is `Session.summary_title` (a count-only read's too)."""
        foreign = {id(point) for point, leaf in self._summaries if leaf not in uuids}
        s = self._session
        if foreign:
            s.compactions = [c for c in s.compactions if id(c) not in foreign]
        own = [c.text for c in s.compactions if c.kind == "summary_title"]
        if not self._kept:
            own = [text for leaf, text in self._titles.items() if leaf is None or leaf in uuids]
        s.summary_title = next((text for text in reversed(own) if text.strip()), None)

    def _title_of_leaf(self, leaf: object, text: str) -> None:
        """Count-only: keep text as the last summary naming leaf (the leaf made the latest);
        past SUMMARY_TITLE_LEAVES_MAX leaves, the one named longest ago is let go. A blank
        text is no title (finish passes over it), so it is not kept."""
        if not text.strip():
            return
        key = hash(leaf) if isinstance(leaf, str) and leaf else None
        self._titles.pop(key, None)
        self._titles[key] = cap_text(text, SESSION_NOTE_MAX_CHARS)
        if len(self._titles) > SUMMARY_TITLE_LEAVES_MAX:
            del self._titles[next(iter(self._titles))]
