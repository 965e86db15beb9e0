"""Full dates as people write them (a year, a month and a day): where each sits and its weekday.

spec.dates asks this module whether a bare weekday ("Friday") is simply the weekday of a date
written beside it or on the line before: "2026-12-25 (Friday): office closed", "Friday, 25
December 2026", a heading "## 2026-12-25" and then "Friday: office closed" (real44: holiday and
schedule notes). Only a date with its year has a weekday to check; "Mar 5" has none, and
spec.dates keeps its own rule for a weekday beside such a date.

The forms read: 2026-12-25 (also with '/' or '.'), 25 December 2026, 25th of Dec 2026,
December 25, 2026, Dec. 25th 2026, and 12/25/2026 or 25/12/2026 (a day and a month in either
order: each reading that is a real day counts). A form naming no real day (2026-02-30) is no date.
"""

from __future__ import annotations

import datetime as _dt
import re
from dataclasses import dataclass

_MONTH_NAME = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
_MONTH_NUMBER = {
    name: i + 1
    for i, name in enumerate(
        ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
    )
}
_ORDINAL = r"(?:st|nd|rd|th)?"
FULL_DATE = re.compile(
    r"(?<![\w.])(?:"
    r"(?P<iso_y>\d{4})(?P<sep>[-/.])(?P<iso_m>\d{1,2})(?P=sep)(?P<iso_d>\d{1,2})"
    rf"|(?P<dm_d>\d{{1,2}}){_ORDINAL}\s+(?:of\s+)?(?P<dm_m>{_MONTH_NAME})\.?,?\s+(?P<dm_y>\d{{4}})"
    rf"|(?P<md_m>{_MONTH_NAME})\.?\s+(?P<md_d>\d{{1,2}}){_ORDINAL},?\s+(?P<md_y>\d{{4}})"
    r"|(?P<sl_a>\d{1,2})/(?P<sl_b>\d{1,2})/(?P<sl_y>\d{4})"
    r")(?![\w])",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class FullDate:
    """A full date found in a line: its span and the weekdays it may fall on (0 is Monday).

    One weekday, but for a slash date whose day and month read both ways (3/5/2026)."""

    start: int
    end: int
    weekdays: frozenset[int]


def _day(year: str, month: int | str, day: str) -> _dt.date | None:
    try:
        return _dt.date(int(year), int(month), int(day))
    except ValueError:  # no such day (2026-02-30, month 13)
        return None


def _readings(m: re.Match[str]) -> list[_dt.date | None]:
    g = m.groupdict()
    if g["iso_y"] is not None:
        return [_day(g["iso_y"], g["iso_m"], g["iso_d"])]
    if g["dm_y"] is not None:
        return [_day(g["dm_y"], _MONTH_NUMBER[g["dm_m"][:3].lower()], g["dm_d"])]
    if g["md_y"] is not None:
        return [_day(g["md_y"], _MONTH_NUMBER[g["md_m"][:3].lower()], g["md_d"])]
    return [_day(g["sl_y"], g["sl_a"], g["sl_b"]), _day(g["sl_y"], g["sl_b"], g["sl_a"])]


def full_dates(line: str) -> list[FullDate]:
    """Each full date written in line, in order, with the weekdays it falls on."""
    if not any(ch.isdigit() for ch in line):
        return []
    found = []
    for m in FULL_DATE.finditer(line):
        days = {d.weekday() for d in _readings(m) if d is not None}
        if days:
            found.append(FullDate(m.start(), m.end(), frozenset(days)))
    return found
