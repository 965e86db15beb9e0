"""A replay's messages for a scheduler, read as it asks for them and let go behind its cursor.

reports.replay hands the scheduler, at each turn end, the conversation as it stood then (the
messages of read_message_skeletons less without_copies's, up to turn_message_ends's end).
Kept as one tuple, those messages grew with the session (thirty-fourth session): this keeps
only the messages from the scheduler's cursor on, read from the file a line at a time, and a
turn's end comes from a first pass over the file that keeps the places of the turns' last
messages only. What is still kept per message is one 64-bit digest of its uuid (to leave out a
record written a second time under its own uuid, as without_copies does).

ExtractionScheduler.replay_session, whose runs are real, reads the messages whole (content and
all: `whole=True`, extract.transcript.iter_messages) the same way (lefts37b: it read them with
read_transcript, so past 64 MiB its later turns had none).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterator, Sequence
from typing import overload

from memdir_nb.extract.transcript import TranscriptMessage, iter_message_skeletons, iter_messages
from memdir_nb.formats.session_model import Session
from memdir_nb.formats.transcript_records import TranscriptProblem


def _key(uuid: str) -> int:
    return int.from_bytes(hashlib.blake2b(uuid.encode(), digest_size=8).digest(), "big")


def own_messages(
    path: str | os.PathLike[str],
    session: Session,
    *,
    whole: bool = False,
    problems: list[TranscriptProblem] | None = None,
) -> Iterator[TranscriptMessage]:
    """without_copies(session, read_message_skeletons(path)), one message at a time; with
    whole, the messages as read_transcript gives them (content and all; problems gets its
    problems), for a scheduler whose runs are real (ExtractionScheduler.replay_session)."""
    gone, seen = session.copied_uuids | session.retracted_uuids, set()
    source = iter_messages(path, problems) if whole else iter_message_skeletons(path)
    for m in source:
        key = _key(m.uuid)
        if m.uuid not in gone and key not in seen:
            seen.add(key)
            yield m


def streamed_turn_ends(path: str | os.PathLike[str], session: Session) -> list[int]:
    """turn_message_ends(session, own messages of path), from one pass that keeps only where
    each turn's last message is."""
    wanted = {t.last_uuid for t in session.turns if t.last_uuid}
    at: dict[str, int] = {}
    for i, m in enumerate(own_messages(path, session)):
        if m.uuid in wanted:
            at[m.uuid] = i
    ends: list[int] = []
    for turn in session.turns:
        found = at.get(turn.last_uuid) if turn.last_uuid else None
        previous = ends[-1] if ends else 0
        ends.append(max(previous, found + 1) if found is not None else previous)
    return ends


class MessageWindow:
    """The own messages of a transcript, read on demand and kept from `floor` on (skeletons,
    or with whole the messages themselves: own_messages)."""

    def __init__(
        self,
        path: str | os.PathLike[str],
        session: Session,
        *,
        whole: bool = False,
        problems: list[TranscriptProblem] | None = None,
    ) -> None:
        self._source = own_messages(path, session, whole=whole, problems=problems)
        self._kept: list[TranscriptMessage] = []
        self.floor = 0  # the index of _kept[0]
        self._first_main: int | None = None  # the first message not a sidechain record
        self._read = 0

    def read_to(self, end: int) -> int:
        """Read until `end` messages are read (or the file ends); how many are."""
        while self._read < end:
            m = next(self._source, None)
            if m is None:
                break
            if self._first_main is None and not m.is_sidechain:
                self._first_main = self._read
            self._kept.append(m)
            self._read += 1
        return self._read

    def read_all(self) -> int:
        """Read to the end of the file; how many messages it has."""
        return self.read_to(1 << 62)

    def let_go_before(self, index: int) -> None:
        """Forget the messages before `index` (the scheduler's cursor)."""
        drop = min(index, self._read) - self.floor
        if drop > 0:
            del self._kept[:drop]
            self.floor += drop

    def all_sidechain(self, end: int) -> bool:
        """Whether the first `end` messages are all sidechain records (and there are some)."""
        return end > 0 and (self._first_main is None or self._first_main >= end)

    def get(self, index: int) -> TranscriptMessage:
        if not self.floor <= index < self._read:
            raise IndexError(f"message {index} is not kept (kept: {self.floor} to {self._read})")
        return self._kept[index - self.floor]

    def between(self, start: int, stop: int) -> tuple[TranscriptMessage, ...]:
        if start < self.floor and start < stop:
            raise IndexError(f"message {start} is not kept (kept from {self.floor})")
        return tuple(self._kept[max(0, start - self.floor) : max(0, stop - self.floor)])


class WindowUpTo(Sequence[TranscriptMessage]):
    """The first `end` messages of a MessageWindow, as the scheduler reads a turn end's
    messages: from its cursor on (an earlier one is not kept, and asking for it raises)."""

    __slots__ = ("_end", "_window")

    def __init__(self, window: MessageWindow, end: int) -> None:
        self._window = window
        self._end = min(end, window.read_to(end))

    def __len__(self) -> int:
        return self._end

    def all_sidechain(self) -> bool:
        """Whether every message is a sidechain record (a subagent's transcript)."""
        return self._window.all_sidechain(self._end)

    def __iter__(self) -> Iterator[TranscriptMessage]:
        return iter(self._window.between(0, self._end))

    @overload
    def __getitem__(self, index: int) -> TranscriptMessage: ...

    @overload
    def __getitem__(self, index: slice) -> tuple[TranscriptMessage, ...]: ...

    def __getitem__(self, index: int | slice) -> TranscriptMessage | tuple[TranscriptMessage, ...]:
        if isinstance(index, slice):
            start, stop, step = index.indices(self._end)
            if step != 1:
                return tuple(self[i] for i in range(start, stop, step))
            return self._window.between(start, stop)
        return self._window.get(range(self._end)[index])
