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
from bisect import bisect_left
from dataclasses import dataclass

from memdir_nb.spec.calendar_days import WEEKDAYS

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


def _beside(line: str, start: int, end: int, d_start: int, d_end: int) -> bool:
    """Whether the span d_start:d_end sits right next to line[start:end], with nothing but
    spaces, commas and brackets between ("Friday, 25 December 2026", "2026-12-25 (Friday)")."""
    if d_start >= end:
        return not line[end:d_start].strip(" ,(")
    return d_end <= start and not line[d_end:start].strip(" ,()")


# A weekday that labels its line: it opens the line (after blanks, a list mark, heading marks
# or emphasis) and a colon, a dash or a comma follows it ("Friday: office closed").
_LABEL_LEAD = re.compile(r"[\s>#*_+\-\u2022]*\Z")
_LABEL_AFTER = re.compile(r"[*_]*\s*[:,\u2014\u2013-]")


class LineDates:
    """The full dates of a line, read once per line, and those of the line above, read only
    when a weekday labels its line. Read again for each weekday, a long line of weekdays and
    dates cost the square of its length (found when real44 met redos44's long-line checks)."""

    def __init__(self, line: str, before: str) -> None:
        self.on_line = full_dates(line)  # in order, never overlapping (one finditer)
        self._starts = [d.start for d in self.on_line]
        self._before = before
        self._above: list[FullDate] | None = None

    def beside(self, line: str, start: int, end: int) -> list[FullDate]:
        """The dates right next to line[start:end]: only the nearest on each side can be."""
        at = bisect_left(self._starts, end)
        near = self.on_line[max(0, at - 1) : at + 1]
        return [d for d in near if _beside(line, start, end, d.start, d.end)]

    def above(self) -> list[FullDate]:
        """The full dates of the last line above that is not blank."""
        if self._above is None:
            self._above = full_dates(self._before) if self._before else []
        return self._above


def weekday_of_a_written_date(line: str, start: int, end: int, dates: LineDates) -> bool | None:
    """Whether the bare weekday at line[start:end] names the day of a full date written with
    it; None when no full date decides (spec.dates then keeps its own rule for a date without
    its year beside it, "Thursday Mar 5", which has no weekday to check).

    A full date right beside the weekday decides alone: the weekday is that date's when it is
    the day the date falls on ("2026-12-25 (Friday)"), and a wrong one is not. A weekday that
    labels its line ("Friday: office closed") is the date's when a full date on its line, or
    on the line above (a heading "## 2026-12-25"), falls on it. A weekday elsewhere in a line
    is no date's ("Standup 2026-06-05: demo moved to Friday" may be the next Friday)."""
    day = WEEKDAYS.index(line[start:end].lower())
    beside = dates.beside(line, start, end)
    if beside:
        return any(day in d.weekdays for d in beside)
    if _LABEL_LEAD.match(line, 0, start) and _LABEL_AFTER.match(line, end):
        dated = (d for part in (dates.on_line, dates.above()) for d in part)
        if any(day in d.weekdays for d in dated):
            return True
    return None
