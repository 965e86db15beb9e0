"""A session's ledger: its file-history snapshots and the tokens its answers used.

Two kinds of record carry it, both read in the reader's one pass (formats.session_builder
feeds each record here, within read_session's line and byte caps):

- ``file-history-snapshot`` (2.x): the CLI's checkpoint of the files the agent edited, for
  /rewind; no uuid. ``snapshot`` holds ``trackedFileBackups``, a map from each tracked path
  to ``{"backupFileName", "version", "backupTime"}``; ``isSnapshotUpdate`` is true when the
  record amends the snapshot of an earlier message rather than opening one;
- ``assistant`` records: ``message.usage`` holds ``input_tokens``, ``output_tokens``,
  ``cache_creation_input_tokens`` and ``cache_read_input_tokens`` (with more fields beside
  them, left alone); early versions (1.0.x) also wrote the record's ``costUSD``. One API
  message is written as several records, one per content block, each with the message's
  ``id`` and usage: a message is counted once, with the usage of its last record.

A value of the wrong JSON type (a string, a negative or non-integral number, a bool) or past
TOKENS_MAX or COST_USD_MAX is counted in ``bad_fields`` and left out; a message with no usage at all in ``no_usage``; a snapshot that
is not a map in ``bad_snapshots``. Nothing here raises on a record's content.
"""

from __future__ import annotations

import math
from collections import OrderedDict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

FILE_HISTORY_SNAPSHOT = "file-history-snapshot"
TOKEN_FIELDS = (
    "input_tokens",
    "output_tokens",
    "cache_creation_input_tokens",
    "cache_read_input_tokens",
)
TRACKED_FILES_KEPT = 200  # the distinct tracked paths kept, in the order first named
_PATH_MAX_CHARS = 1_000  # a tracked path kept is cut here (a crafted one may be any length)
_OPEN_MESSAGES = 16  # messages whose records may still come (interleaved agents), by id
_ID_MAX_CHARS = 200
# One message's largest believable count and cost (attack44): a crafted record's 1e308 dollars
# summed to inf, which the kernel's JSON refuses (the replay widget's `ledger` state), and a
# count of 10**30 tokens is past what the page's numbers hold exactly; either is a bad field.
TOKENS_MAX = 2**31  # every context window and answer is far smaller
COST_USD_MAX = 10_000.0


@dataclass(frozen=True)
class SessionLedger:
    """What a session's snapshots and answers recorded (see the module doc)."""

    snapshots: int = 0  # file-history-snapshot records
    snapshot_updates: int = 0  # of them, those with isSnapshotUpdate true
    tracked_files: tuple[str, ...] = ()  # distinct tracked paths, first named first (capped)
    more_tracked_files: bool = False  # more distinct paths were named than were kept
    bad_snapshots: int = 0  # snapshot records without a readable map of tracked files
    messages: int = 0  # assistant API messages counted (records of one message id: one)
    input_tokens: int = 0
    output_tokens: int = 0
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    no_usage: int = 0  # messages with no usage map
    bad_fields: int = 0  # usage or cost fields of the wrong JSON type, left out
    cost_usd: float | None = None  # the sum of costUSD, when any record carried one
    costed_messages: int = 0  # messages whose cost was summed

    @property
    def total_tokens(self) -> int:
        """Every token counted: input, output, cache writes and cache reads."""
        return (
            self.input_tokens
            + self.output_tokens
            + self.cache_creation_input_tokens
            + self.cache_read_input_tokens
        )

    @property
    def is_empty(self) -> bool:
        """No snapshot and no assistant message was read."""
        return not (self.snapshots or self.messages)


@dataclass
class _Message:
    """One API message's last record's usage and cost, as written (read when it is counted:
    the records before it are passed over unread)."""

    usage: object
    cost: object


class LedgerTally:
    """Counts the ledger record by record (take), with bounded memory; result() gives it."""

    def __init__(self) -> None:
        self._snapshots = 0
        self._updates = 0
        self._bad_snapshots = 0
        self._tracked: dict[str, None] = {}
        self._more_tracked = False
        self._open: OrderedDict[str, _Message] = OrderedDict()
        self._messages = 0
        self._tokens = [0] * len(TOKEN_FIELDS)
        self._no_usage = 0
        self._bad_fields = 0
        self._cost: float | None = None
        self._costed = 0

    def take(self, record: Mapping[str, Any], kind: str) -> None:
        """Note one record of type `kind`; any type but the two above is passed over."""
        if kind == FILE_HISTORY_SNAPSHOT:
            self._snapshot(record)
        elif kind == "assistant":
            self._assistant(record)

    def _snapshot(self, record: Mapping[str, Any]) -> None:
        self._snapshots += 1
        self._updates += record.get("isSnapshotUpdate") is True
        snapshot = record.get("snapshot")
        tracked = snapshot.get("trackedFileBackups") if isinstance(snapshot, dict) else None
        if not isinstance(tracked, dict):
            self._bad_snapshots += 1
            return
        for path in tracked:
            if not isinstance(path, str) or not path.strip():
                continue
            path = _kept_path(path)
            if not path or path in self._tracked:
                continue
            if len(self._tracked) >= TRACKED_FILES_KEPT:
                self._more_tracked = True
                return
            self._tracked[path] = None

    def _assistant(self, record: Mapping[str, Any]) -> None:
        message = record.get("message")
        if not isinstance(message, dict):
            return  # not an answer this reader can tell; the session reader says so
        seen = _Message(message.get("usage"), record.get("costUSD"))
        mid = message.get("id")
        if not isinstance(mid, str) or not mid:
            self._count(seen)  # no id: a message of its own
            return
        mid = mid[:_ID_MAX_CHARS]
        if mid in self._open:
            self._open[mid] = seen  # a later record of the same message: its usage wins
            self._open.move_to_end(mid)
            return
        if len(self._open) >= _OPEN_MESSAGES:
            self._count(self._open.popitem(last=False)[1])
        self._open[mid] = seen

    def _count(self, m: _Message) -> None:
        self._messages += 1
        if isinstance(m.usage, dict):
            tokens, bad = _tokens(m.usage)
            self._tokens = [a + b for a, b in zip(self._tokens, tokens, strict=True)]
            self._bad_fields += bad
        else:
            self._no_usage += 1
        cost, bad = _cost(m.cost)
        self._bad_fields += bad
        if cost is not None:
            self._cost = (self._cost or 0.0) + cost
            self._costed += 1

    def result(self) -> SessionLedger:
        """The ledger so far, the messages still open counted."""
        while self._open:
            self._count(self._open.popitem(last=False)[1])
        return SessionLedger(
            snapshots=self._snapshots,
            snapshot_updates=self._updates,
            tracked_files=tuple(self._tracked),
            more_tracked_files=self._more_tracked,
            bad_snapshots=self._bad_snapshots,
            messages=self._messages,
            input_tokens=self._tokens[0],
            output_tokens=self._tokens[1],
            cache_creation_input_tokens=self._tokens[2],
            cache_read_input_tokens=self._tokens[3],
            no_usage=self._no_usage,
            bad_fields=self._bad_fields,
            cost_usd=self._cost,
            costed_messages=self._costed,
        )


def _kept_path(path: str) -> str:
    """path, or for one past _PATH_MAX_CHARS its folders within the cap and "/…" ("" with no
    folder there): cut inside a name, its kept head (a credential's first characters) was no
    longer the shape the masker redacts where the note is shown (attack44). A real file's
    name is at most NAME_MAX (255) bytes, so the cut drops one name only."""
    if len(path) <= _PATH_MAX_CHARS:
        return path
    folders, slash, _ = path[:_PATH_MAX_CHARS].rpartition("/")
    return folders + "/…" if slash else ""


def _tokens(usage: Mapping[str, Any]) -> tuple[tuple[int, ...], int]:
    """The usage's four counts (a missing one is 0) and how many were of the wrong type."""
    counts, bad = [], 0
    for name in TOKEN_FIELDS:
        value = usage.get(name)
        if value is None:
            counts.append(0)
        elif type(value) is int and 0 <= value <= TOKENS_MAX:
            counts.append(value)
        else:
            counts.append(0)
            bad += 1
    return tuple(counts), bad


def _cost(value: object) -> tuple[float | None, int]:
    """A record's costUSD as a number of dollars, and 1 when it was there but not one."""
    if value is None:
        return None, 0
    if isinstance(value, bool) or not isinstance(value, int | float):
        return None, 1
    return (float(value), 0) if math.isfinite(value) and 0 <= value <= COST_USD_MAX else (None, 1)


def ledger_of(records: Iterable[Mapping[str, Any]]) -> SessionLedger:
    """The ledger of records (each a parsed transcript line), for a caller holding them."""
    tally = LedgerTally()
    for record in records:
        kind = record.get("type")
        tally.take(record, kind if isinstance(kind, str) else "?")
    return tally.result()
