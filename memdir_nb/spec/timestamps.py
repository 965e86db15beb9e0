"""A memory's own time: the `modified:` value of its header, read as ms and written as ISO UTC.

Apart from spec.dates (relative dates in memory text, with its regexes and calendar rules), so
reading a header (formats.frontmatter, every scan) loads only these two rules.
"""

from __future__ import annotations

import re

from memdir_nb.spec import datetime_types as _dt
from memdir_nb.spec.lazy_regex import compiled_on_first_use

# Earliest and latest moments a `modified:` time may name: before the epoch or past 9999 is not
# a memory's time but a typo, and the file's mtime is used instead.
_MODIFIED_MIN_MS = 0.0
_MODIFIED_MAX_MS = 253_402_300_799_000.0  # 9999-12-31T23:59:59Z


def modified_time_ms(value: object) -> float | None:
    """The moment a frontmatter `modified:` value names, in ms since the epoch; None if invalid.

    Claude Code (2.1.214+) writes an ISO 8601 time (``2026-05-01T10:00:00.000Z``). YAML may hand
    it over as a datetime or a date (midnight UTC); a string is parsed as ISO, ``Z`` allowed. A
    time without a zone is UTC. Anything else (a number, prose, an impossible date) is invalid.
    """
    moment: _dt.datetime | None
    if isinstance(value, _dt.datetime):
        moment = value
    elif isinstance(value, _dt.date):
        moment = _dt.datetime(value.year, value.month, value.day)
    elif isinstance(value, str):
        text = value.strip()
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}([Tt ][0-9:.,]+)?([Zz]|[+-]\d{2}:?\d{2})?", text):
            return None
        try:
            moment = _dt.datetime.fromisoformat(text.replace("z", "Z"))
        except ValueError:
            return None
    else:
        return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_dt.UTC)
    try:
        ms = moment.timestamp() * 1000.0
    except (OverflowError, ValueError, OSError):
        return None
    return ms if _MODIFIED_MIN_MS <= ms <= _MODIFIED_MAX_MS else None


def iso_utc(ms: float) -> str:
    """A UTC ISO time with milliseconds and a trailing Z, as Claude Code writes `modified:`."""
    whole_ms = int(ms)
    moment = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC) + _dt.timedelta(milliseconds=whole_ms)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def trash_stamp(ms: float, *, with_ms: bool = False) -> str:
    """The UTC time in a trash batch's or set-aside file's name: ``20261130T145320Z``.

    UTC, never the local zone: `dream.apply.list_trash_batches` orders batches by this stamp and
    a restore of one file takes the newest batch holding it, so a stamp in local time put an
    hour-later batch first after a change of zone (a laptop that travels, a container without
    TZ, the hour repeated when daylight saving ends). with_ms adds the milliseconds
    (``20261130T145320123Z``), for names that must differ within one second.
    """
    moment = _dt.datetime(1970, 1, 1, tzinfo=_dt.UTC) + _dt.timedelta(milliseconds=int(ms))
    millis = f"{moment.microsecond // 1000:03d}" if with_ms else ""
    return moment.strftime("%Y%m%dT%H%M%S") + millis + "Z"


# compiled on first use: a scan imports this module for modified_time_ms and reads no trash stamp
_TRASH_STAMP = compiled_on_first_use(r"(\d{4})(\d\d)(\d\d)T(\d\d)(\d\d)(\d\d)(\d{3})?(Z?)")


def trash_stamp_seconds(text: str) -> float | None:
    """The moment a trash stamp at the start of text names, in seconds since the epoch.

    A stamp ending in ``Z`` is UTC (trash_stamp, from the twenty-sixth session on). One without
    is in the local zone of the machine that wrote it, as dreams, the memory tool and
    rebuild-index named their batches before: read in this machine's zone, the only guess left,
    so a dir's older batches still sort before the ones written since. None if text opens with
    no stamp.
    """
    found = _TRASH_STAMP().match(text)
    if found is None:
        return None
    zone = _dt.UTC if found.group(8) else None  # naive: local
    try:  # (no strptime: its module is imported on first use, and a reader may not reach it)
        year, month, day, hour, minute, second = (int(part) for part in found.groups()[:6])
        moment = _dt.datetime(year, month, day, hour, minute, second, tzinfo=zone)
        seconds = moment.timestamp()
    except (OverflowError, ValueError, OSError):  # 20261399T… : digits, but no date
        return None
    return seconds + int(found.group(7) or 0) / 1000.0
