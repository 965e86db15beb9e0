"""Calendar arithmetic for relative dates: what the parts of a phrase mean on a given day.

spec.dates finds a relative phrase and reads its parts (a weekday and its modifier, a count
and a unit, a period); this module turns those parts into days with the rules spec.dates states
(weeks run Monday to Sunday, the working week ends on Friday, months keep their day, clamped),
and gives a clock reading's calendar day. spec.dates re-exports what its users ask it for.

It is also the one place a clock reading becomes a local day or a local time of day, and the
one place that says in which zone: the day zone (day_zone, set_day_zone), the machine's own
zone unless set. A notebook on the demo sets UTC there (ui.nbdir.hold_demo_zone), so its dates
read the same in every zone, and the process's TZ is never changed (lefts39).
"""

from __future__ import annotations

import calendar
import datetime as _dt
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

WEEKDAYS: tuple[str, ...] = (
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
    "sunday",
)
NUMBER_WORDS: dict[str, int] = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
}


@dataclass(frozen=True)
class DateResolution:
    """What a relative phrase means on a given day: the first day it names and how to write it."""

    first_day: _dt.date
    text: str  # the absolute replacement: "2026-11-23", "the week of 2026-11-23", "December 2026"
    exact_day: bool  # True when the phrase names one single day


# The zone local days are counted in: None is the machine's own zone (time.localtime), as
# Claude Code counts them. One slot, so set_day_zone changes no module global binding.
_DAY_ZONE: list[_dt.tzinfo | None] = [None]


def day_zone() -> _dt.tzinfo | None:
    """The zone local days and times of day are counted in; None is the machine's own zone."""
    return _DAY_ZONE[0]


def set_day_zone(zone: _dt.tzinfo | None) -> _dt.tzinfo | None:
    """Count local days (a daily log's date and its entries' times, the dream's "today") in
    zone from now on, None for the machine's own zone; the zone set before. The setting is the
    process's, as TZ is, but nothing else in the process (other libraries, child processes)
    sees it."""
    before, _DAY_ZONE[0] = _DAY_ZONE[0], zone
    return before


@contextmanager
def days_counted_in(zone: _dt.tzinfo | None) -> Iterator[None]:
    """The day zone set to zone inside the block, then put back whatever the block raises.
    For a step that owns the process meanwhile (building the demo dir): another thread reading
    a local day inside the block counts it in zone too."""
    before = set_day_zone(zone)
    try:
        yield
    finally:
        set_day_zone(before)


def _local_fields(seconds: float) -> time.struct_time:
    """A clock reading's calendar fields in the day zone (time.localtime when none is set)."""
    zone = _DAY_ZONE[0]
    if zone is None:
        return time.localtime(seconds)
    return _dt.datetime.fromtimestamp(seconds, zone).timetuple()


def local_date(now_ms: float) -> _dt.date:
    """The local calendar date of a clock reading in milliseconds (in the day zone)."""
    return _calendar_date(_local_fields, now_ms)


def local_time_of_day(now_ms: float) -> str:
    """The local time of day of a clock reading in milliseconds, HH:MM:SS (in the day zone)."""
    return time.strftime("%H:%M:%S", _local_fields(now_ms / 1000))


def local_clock_ms(day: _dt.date, hour: int, minute: int) -> float:
    """The clock reading (ms) of a local wall-clock time on day, in the day zone: local_date's
    inverse. A time a daylight-saving change skips or repeats resolves as the zone's rules do."""
    zone = _DAY_ZONE[0]
    if zone is None:
        return time.mktime((day.year, day.month, day.day, hour, minute, 0, 0, 0, -1)) * 1000
    return _dt.datetime(day.year, day.month, day.day, hour, minute, tzinfo=zone).timestamp() * 1000


def utc_date(now_ms: float) -> _dt.date:
    """The UTC calendar date of a clock reading in milliseconds: a date that is the same on
    every machine (no single moment has one local date from UTC-12 to UTC+14)."""
    return _calendar_date(time.gmtime, now_ms)


def _calendar_date(fields: Callable[[float], time.struct_time], now_ms: float) -> _dt.date:
    """The date of a reading, the calendar's last (or first) day past its ends: a memory's
    `modified: 9999-12-31T23:00:00Z` is in year 10000 east of UTC, and raised out of the dream
    plan there (attack37)."""
    try:
        return _dt.date(*fields(now_ms / 1000)[:3])
    except (ValueError, OverflowError, OSError):
        return _dt.date.max if now_ms > 0 else _dt.date.min


def count_of(raw: str) -> int | None:
    word = " ".join(raw.lower().split())
    if word.isdigit():
        return int(word)
    return NUMBER_WORDS.get(word)  # "a few", "a couple of", "several": no single number


def add_months(day: _dt.date, months: int) -> _dt.date:
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = calendar.monthrange(year, month + 1)[1]
    return _dt.date(year, month + 1, min(day.day, last))


def shift(today: _dt.date, n: int, unit: str) -> _dt.date:
    unit = unit.lower().rstrip("s")
    if unit == "month":
        return add_months(today, n)
    return today + _dt.timedelta(days=n * (7 if unit == "week" else 1))


def weekday_date(today: _dt.date, mod: str, name: str) -> _dt.date:
    target = WEEKDAYS.index(name.lower())
    if mod == "this":
        return today + _dt.timedelta(days=target - today.weekday())
    if mod in ("last", "past"):
        return today - _dt.timedelta(days=(today.weekday() - target) % 7 or 7)
    return today + _dt.timedelta(days=(target - today.weekday()) % 7 or 7)  # next, coming, bare


def period_of(today: _dt.date, offset: int, period: str) -> DateResolution | None:
    period = period.lower()
    if period in ("week", "weekend"):
        monday = today - _dt.timedelta(days=today.weekday()) + _dt.timedelta(weeks=offset)
        if period == "weekend":
            saturday = monday + _dt.timedelta(days=5)
            return DateResolution(saturday, f"the weekend of {saturday.isoformat()}", False)
        return DateResolution(monday, f"the week of {monday.isoformat()}", False)
    if period == "month":
        first = add_months(today.replace(day=1), offset)
        return DateResolution(first, first.strftime("%B %Y"), False)
    if period == "quarter":
        q_index = (today.year * 4 + (today.month - 1) // 3) + offset
        year, q = divmod(q_index, 4)
        return DateResolution(_dt.date(year, q * 3 + 1, 1), f"Q{q + 1} {year}", False)
    if period == "year":
        first = _dt.date(today.year + offset, 1, 1)
        return DateResolution(first, str(first.year), False)
    return None  # sprint: its length is not known


def end_of(today: _dt.date, offset: int, period: str) -> _dt.date:
    start = period_of(today, offset, period)
    assert start is not None  # week, month, quarter and year always resolve
    first = start.first_day
    if period == "week":
        return first + _dt.timedelta(days=4)  # Friday: the end of the working week
    if period == "month":
        return add_months(first, 1) - _dt.timedelta(days=1)
    if period == "quarter":
        return add_months(first, 3) - _dt.timedelta(days=1)
    return _dt.date(first.year, 12, 31)


OFFSETS = {"this": 0, "the": 0, "coming": 1, "next": 1, "last": -1, "past": -1}
