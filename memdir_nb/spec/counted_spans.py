"""Words beside a relative-date phrase that make it a count, a span or a step's day, no date.

spec.dates finds "in 56 days", "end of week" and "today" and asks here whether the words
around the phrase say it names no calendar day: a tally before "in N days" gives the span the
tally covers, a start before it ("from zero", "from A to B", "A -> B") the time a change took,
a number after "end of week" names a plan's own numbered week, and a date template on the
line ("blog/YYYY-MM-DD-slug.md") makes "today" the day the step is done. The phrase's match
(spec.dates._PHRASE) is passed with its groups: `in_n` for "in N days", `eo` for "end of",
`day_word` for today, tonight, tomorrow and yesterday.
"""

from __future__ import annotations

import functools
import re

__all__ = [
    "a_numbered_period",
    "a_span_from_a_start",
    "a_steps_day",
    "a_tallys_span",
    "counted_not_dated",
]

# After a tally, "in N days" is the span the tally covers, not a day: "Only 10 signals in 56
# days", "+29.3% in 9 days", "68 events in 12 months", "+$450 in 3 days" (real41: a trading
# project's backtests; the dream rewrote "10 signals in 56 days" to "10 signals 2027-01-28").
# A tally is a number standing alone (not the end of a name, `v2`) followed by a percent sign
# or by a plural noun (one word may come between: "12 new trades"; an acronym's plural, "8 PRs
# in one day", real45), or an amount of money.
_TALLY_BEFORE = re.compile(
    r"(?<![\w.])[+\-\u2212]?(?:[$\u20ac\u00a3]\d[\d,]*(?:\.\d+)?[kKmM]?"
    r"|\d[\d,]*(?:\.\d+)?(?:\s*%|\s+(?:[A-Za-z-]+\s+)?(?:[A-Za-z-]*[a-z]|[A-Z]{2,})s))\s+\Z"
)
# After "end of week" (month, quarter, year) on its line, a number names a plan's own period:
# "10 paying customers by end of week 20" (real44: a startup's staged plan), no calendar week.
_NUMBER_AFTER = re.compile(r"[ \t]*\d")
# Before "in N days" in its clause, a start makes it the time a change took, no day: "project
# zero -> first deploy in 4 days", "went from a prototype to two providers in three days", "the
# whole app from zero in 4 days" (real45: a project's retrospectives). A clause ends at . ! ? or
# ; before a space; a bare "from" is no start ("move off the old host from Monday in 2 weeks").
_CLAUSE_END = re.compile(r"[.!?;]\s")
_CLAUSE_REACH = 240
_A_START = re.compile(
    r"\bfrom\s+(?:zero|scratch|nothing)\b|\bfrom\b.*\bto\b|\u2192|->", re.IGNORECASE
)
# A date template on the line makes "today" the day a step is done, whenever it is: "name the
# post blog/YYYY-MM-DD-NN-slug.md with today's date (01 if no other post today)" (real45: a
# standing rule; the dream wrote the memory's own day into it).
_DATE_TEMPLATE = re.compile(
    r"(?<![A-Za-z])(?:YYYY|yyyy)[-_/.]?(?:MM|mm)(?:[-_/.]?(?:DD|dd))?(?![A-Za-z])"
    r"|(?<![A-Za-z])(?:DD|dd)[-/.](?:MM|mm)[-/.](?:YYYY|yyyy|YY|yy)(?![A-Za-z])"
)


def counted_not_dated(line: str, m: re.Match[str]) -> bool:
    """Whether the words beside m make it a span, a plan's period or a step's day, no date: a
    tally's "in N days" (a_tallys_span), a change's "from A to B in N days"
    (a_span_from_a_start), "end of week N" (a_numbered_period), or "today" beside a date
    template (a_steps_day)."""
    return (
        a_tallys_span(line, m)
        or a_span_from_a_start(line, m)
        or a_numbered_period(line, m)
        or a_steps_day(line, m)
    )


def a_span_from_a_start(line: str, m: re.Match[str]) -> bool:
    """Whether m is "in N days" after a start in its clause ("from zero", "from A to B", an
    arrow): the time a change took, no day (see _A_START)."""
    if m.start("in_n") == -1:
        return False
    # the clause is read back at most _CLAUSE_REACH characters, so a line of many phrases
    # costs each one a bounded look (a start further back is no longer this phrase's)
    start = max(0, m.start() - _CLAUSE_REACH)
    ends = [e.end() for e in _CLAUSE_END.finditer(line, start, m.start())]
    return _A_START.search(line, ends[-1] if ends else start, m.start()) is not None


def a_steps_day(line: str, m: re.Match[str]) -> bool:
    """Whether m is today, tonight, tomorrow or yesterday on a line holding a date template
    (YYYY-MM-DD): the day a step is done, whenever it is done (see _DATE_TEMPLATE)."""
    return m.start("day_word") != -1 and _holds_a_date_template(line)


@functools.lru_cache(maxsize=4)
def _holds_a_date_template(line: str) -> bool:
    """Whether line holds a date template: looked for once a line, however many phrases it has."""
    return _DATE_TEMPLATE.search(line) is not None


def a_tallys_span(line: str, m: re.Match[str]) -> bool:
    """Whether m is "in N days" right after a tally ("10 signals in 56 days"): the span the
    tally covers, no day (see _TALLY_BEFORE)."""
    start = m.start()
    return m.start("in_n") != -1 and bool(_TALLY_BEFORE.search(line, max(0, start - 40), start))


def a_numbered_period(line: str, m: re.Match[str]) -> bool:
    """Whether m is "end of week N" (month, quarter, year N) on its line: a plan's own period."""
    return m.start("eo") != -1 and _NUMBER_AFTER.match(line, m.end()) is not None
