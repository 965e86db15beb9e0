"""A number beside a relative-date phrase that makes it a count or a plan's period, no day.

spec.dates finds "in 56 days" and "end of week" and asks here whether a number beside the
phrase says it names no calendar day: a tally before "in N days" gives the span the tally
covers, and a number after "end of week" names a plan's own numbered week. The phrase's
match (spec.dates._PHRASE) is passed with its groups: `in_n` for "in N days", `eo` for "end of".
"""

from __future__ import annotations

import re

__all__ = ["a_numbered_period", "a_tallys_span", "counted_not_dated"]

# After a tally, "in N days" is the span the tally covers, not a day: "Only 10 signals in 56
# days", "+29.3% in 9 days", "68 events in 12 months", "+$450 in 3 days" (real41: a trading
# project's backtests; the dream rewrote "10 signals in 56 days" to "10 signals 2027-01-28").
# A tally is a number standing alone (not the end of a name, `v2`) followed by a percent sign
# or by a plural noun (one word may come between: "12 new trades"), or an amount of money.
_TALLY_BEFORE = re.compile(
    r"(?<![\w.])[+\-\u2212]?(?:[$\u20ac\u00a3]\d[\d,]*(?:\.\d+)?[kKmM]?"
    r"|\d[\d,]*(?:\.\d+)?(?:\s*%|\s+(?:[A-Za-z-]+\s+)?[A-Za-z-]*[a-z]s))\s+\Z"
)
# After "end of week" (month, quarter, year) on its line, a number names a plan's own period:
# "10 paying customers by end of week 20" (real44: a startup's staged plan), no calendar week.
_NUMBER_AFTER = re.compile(r"[ \t]*\d")


def counted_not_dated(line: str, m: re.Match[str]) -> bool:
    """Whether a number beside m makes it a span or a plan's period, no day: a tally's "in N
    days" (a_tallys_span) or "end of week N" (a_numbered_period)."""
    return a_tallys_span(line, m) or a_numbered_period(line, m)


def a_tallys_span(line: str, m: re.Match[str]) -> bool:
    """Whether m is "in N days" right after a tally ("10 signals in 56 days"): the span the
    tally covers, no day (see _TALLY_BEFORE)."""
    start = m.start()
    return m.start("in_n") != -1 and bool(_TALLY_BEFORE.search(line, max(0, start - 40), start))


def a_numbered_period(line: str, m: re.Match[str]) -> bool:
    """Whether m is "end of week N" (month, quarter, year N) on its line: a plan's own period."""
    return m.start("eo") != -1 and _NUMBER_AFTER.match(line, m.end()) is not None
