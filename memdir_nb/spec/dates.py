"""Relative dates: find them in memory text and resolve them against a day. One home for the rules.

Lint flags relative dates in project memories, the editor refuses them, and dream rewrites them to
absolute ones: all three use this module, so "this monday" means the same day everywhere.
The rules (weeks run Monday to Sunday; `today` is the local date of the clock reading):

- today, tonight, this morning/afternoon/evening: today. tomorrow / yesterday: +1 / -1 day.
- this <weekday>: that day of the current week (on a Wednesday, "this monday" is two days ago).
- next / coming <weekday>, and a bare capitalised weekday ("Thursday"): the first such day after today.
- last / past <weekday>: the last such day before today.
- in N days/weeks/months, N days/weeks/months ago: calendar arithmetic (months keep the day, clamped).
- this/next/last week: "the week of <its Monday>"; weekend: "the weekend of <its Saturday>";
  month: "November 2026"; year: "2026". "next quarter" and "next sprint" are not flagged (a
  fiscal or sprint calendar is the team's own, and lint stays narrow on ordinary prose).
- end of (the|this) week/month/quarter/year: its last day (the week ends on Friday, the working
  week); "end of next ..." is the same for the following period.
- "a few days", "a couple of weeks": found, but name no single date (resolution None).

A weekday written next to an absolute date ("Thursday 2026-03-05"), a recurring one ("every
Monday", "Tuesdays", a range "Tuesday to Thursday", a recurring meeting's slot "Monday 10:00
standup"), a generic one ("on a Friday", "any Friday") and a kind of day ("Monday mornings",
"bad Friday longs") is not a relative date. A weekday with a clock time alone ("Thursday
14:00") is one: a one-off reads the same. A bare weekday that is the day a full date falls on,
written beside it ("2026-12-25 (Friday): office closed") or labelling a line under it (a
heading "## 25 December 2026" over "Friday: office closed"), names that date and is no relative
date; a weekday the date does not fall on still is one (spec.written_dates reads the date).
A capitalised "Today" naming a part of an app ("Today view", "Today tab", "[Today](x.md)") is
a name, no date (spec.today_names); "Today we moved…" and "as of today" are dates.
"""

from __future__ import annotations

import datetime as _dt
import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from memdir_nb.spec.calendar_days import (
    OFFSETS,
    count_of,
    end_of,
    period_of,
    shift,
    weekday_date,
)
from memdir_nb.spec.calendar_days import (
    WEEKDAYS as WEEKDAYS,  # re-exported: dates users ask here
)
from memdir_nb.spec.calendar_days import (
    DateResolution as DateResolution,
)
from memdir_nb.spec.calendar_days import (
    local_date as local_date,
)
from memdir_nb.spec.calendar_days import (
    utc_date as utc_date,
)
from memdir_nb.spec.counted_spans import counted_not_dated
from memdir_nb.spec.text import fence_change, has_ascii_fold
from memdir_nb.spec.timestamps import iso_utc as iso_utc  # re-exported: dates users ask here
from memdir_nb.spec.timestamps import modified_time_ms as modified_time_ms
from memdir_nb.spec.today_names import today_as_a_name
from memdir_nb.spec.written_dates import LineDates, weekday_of_a_written_date

_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_CAP_WEEKDAY = r"(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)"
_MONTH = (
    r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|"
    r"Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)"
)
# An absolute date in any common written form: 2026-03-05, Mar 5, 5 March, 3/5, 3/5/26.
ABSOLUTE_DATE = re.compile(
    rf"\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b{_MONTH}\.? \d{{1,2}}\b|\b\d{{1,2}} {_MONTH}\b"
    r"|\b\d{1,2}/\d{1,2}(?:/\d{2,4})?\b"
)
_COUNT = r"(?:\d{1,3}|an?|one|two|three|four|five|six|seven|eight|nine|ten|a\s+few|a\s+couple\s+of|several)"
_UNIT = r"(?:day|week|month)s?"
_PERIOD = r"(?:week(?:end)?|month|year)"  # not quarter or sprint: see docs/decisions.md
_PHRASE = re.compile(
    r"\b(?:"
    r"(?P<day_word>today|tonight|tomorrow|yesterday)"
    r"|this\s+(?P<part>morning|afternoon|evening)"
    rf"|(?P<wd_mod>this|next|last|coming|past)\s+(?P<wd>{_WEEKDAY})"
    rf"|(?P<p_mod>this|next|last|coming|past)\s+(?P<period>{_PERIOD})"
    rf"|in\s+(?P<in_n>{_COUNT})\s+(?P<in_unit>{_UNIT})"
    rf"|(?P<ago_n>{_COUNT})\s+(?P<ago_unit>{_UNIT})\s+ago"
    r"|end\s+of\s+(?:(?P<eo_mod>the|this|next)\s+)?(?P<eo>week|month|quarter|year)"
    r")\b",
    re.IGNORECASE,
)
# _PHRASE without IGNORECASE, for lower-cased ASCII text: every letter in _PHRASE is lower-case,
# and on ASCII, case-insensitive matching is matching the lower-cased text (which keeps every
# offset), so both find the same spans. Case-sensitive matching is about twice as fast.
_PHRASE_LOWER = re.compile(_PHRASE.pattern)
_BARE_WEEKDAY = re.compile(rf"\b{_CAP_WEEKDAY}\b")  # capitalised only: "monday" alone is too loose
# Before a weekday, these make it any such day, not one date: "every Monday", and also "on a
# Friday", "any Friday", "no Friday deploys" (an article or "any"/"no" names no single day).
_RECURRING_BEFORE = re.compile(
    r"\b(?:every|each|on alternate|most|some|weekly|bi-?weekly|fortnightly|a|any|no)\s+$",
    re.IGNORECASE,
)
# After a weekday, a plural that makes it a kind of day, not one date: a part of the day ("peaks
# on Monday mornings", "Tuesday afternoons are teaching") or a trading position ("bad Friday
# longs", real41). Not after "the": "the Friday longs were stopped out" names one Friday's. No
# other plural: "Monday works" is a verb, and "Hold Friday deploys" may name this week's
# (docs/decisions.md, forty-second session, lefts42).
_KIND_OF_DAY_AFTER = re.compile(r"\s(?:mornings|afternoons|evenings|nights|longs|shorts)\b")
# Two weekdays as a range name a weekly schedule, not a date: "deploys run Tuesday to Thursday",
# "on call Monday-Friday" (fresh34: a deploy window a project memory states as it should).
_WEEKDAY_RANGE = re.compile(
    rf"\b{_CAP_WEEKDAY}(?:\s*[-\u2013\u2014]\s*|\s+(?:to|through|thru|till|until)\s+){_CAP_WEEKDAY}\b"
)
# A weekday beside a meeting that recurs by its nature names the meeting's weekly slot, not a
# date: "Monday 10:00 standup", "standup Monday 10:00", "Rotation hands over Monday 10:00 UTC",
# "the Friday retro" (lefts37). A weekday with a time and nothing else ("Client demo Thursday
# 14:00") stays a relative date: a one-off reads the same, and is what the rule is for.
_RECURRING_EVENT = (
    r"(?:stand-?ups?|syncs?|retros?|retrospectives?|1:1s?|one-on-ones?|office\s+hours|"
    r"check-ins?|all-hands|rotation|on-call)"
)
_CLOCK_TIME = (
    r"(?:at\s+)?\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\.?)?"
    r"(?:\s*(?:-|\u2013|to)\s*\d{1,2}(?:[:.]\d{2})?(?:\s*[ap]\.?m\.?)?)?(?:\s+(?-i:[A-Z]{2,5}))?"
)
_EVENT_AFTER = re.compile(
    rf"\s*,?\s*(?:{_CLOCK_TIME}\s*)?(?:(?:team|weekly|daily|sprint|planning)\s+)?{_RECURRING_EVENT}\b",
    re.IGNORECASE,
)
# Before the weekday "sync" must be a named one ("weekly sync Tuesday"): "we sync Thursday"
# is a verb, and a one-off.
_EVENT_BEFORE = re.compile(
    r"\b(?:stand-?ups?|retros?|retrospectives?|1:1s?|one-on-ones?|office\s+hours|check-ins?|"
    r"all-hands|rotation|on-call|(?:weekly|team|daily)\s+syncs?)"
    r"(?:\s*[:,\u2013-]\s*|\s+(?:(?:is|are|on|at|runs?|happens?|hands\s+over)(?:\s+on)?\s+)?)$",
    re.IGNORECASE,
)
_INLINE_CODE = re.compile(r"`[^`\n]*`")
# A heading names a topic ("### The Problem Today") and a blockquote repeats words said then:
# neither states when something happens, so their relative words are left as written.
_LABEL_LINE = re.compile(r"^\s{0,3}(?:#{1,6}(?:\s|$)|>)")
# Words in double quotes are someone's words or a name for something ("yesterday UTC").
_QUOTED = re.compile('"[^"\n]*"|\u201c[^\u201d\n]*\u201d')
_POSSESSIVE = ("'s", "\u2019s")  # "today's teams" is the present, not a day
# After "the", a modified week, month or weekday is a span or a rule, not the calendar one:
# "the last week of changes" is the seven days before the day written, "the past month" thirty,
# "the next week" the seven after, "the last Friday of the month" any month's. The rewrite
# leaves them as written (real35: it gave "covering the the week of 2026-04-27 of changes").
_MODIFIERS = frozenset({"this", "next", "last", "coming", "past"})
_THE_BEFORE = re.compile(r"\bthe\s+$", re.IGNORECASE)  # searched in the 12 characters before


@dataclass(frozen=True)
class RelativeDate:
    """A relative date phrase found in text: its line (0-based) and span within that line."""

    line: int
    start: int
    end: int
    phrase: str


def _weekday_anchored(line: str, start: int, end: int) -> bool:
    """Whether a weekday name sits right next to an absolute date ('Thursday 2026-03-05')."""
    after = line[end : end + 24]
    before = line[max(0, start - 24) : start]
    m_after = ABSOLUTE_DATE.search(after)
    if m_after and not after[: m_after.start()].strip(" ,(").strip():
        return True
    return any(not before[m.end() :].strip(" ,()").strip() for m in ABSOLUTE_DATE.finditer(before))


class _Spans:
    """Spans of a line (start, end), asked whether one covers a position in O(log n): each
    phrase of a line asked every span before (`any(...)`), quadratic on a line of many phrases
    and quotes ("Monday " 36,000 times: 200 s; redos44)."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        merged: list[list[int]] = []
        for start, end in sorted(spans):
            if start >= end:
                continue  # covers nothing
            if merged and start <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], end)
            else:
                merged.append([start, end])
        self._starts = [start for start, _ in merged]
        self._ends = [end for _, end in merged]

    def covers(self, pos: int) -> bool:
        """Whether some span has start <= pos < end."""
        at = bisect_right(self._starts, pos) - 1
        return at >= 0 and pos < self._ends[at]


def _set_apart(line: str, start: int, end: int, quoted: _Spans) -> bool:
    """Whether the phrase at line[start:end] is quoted (or in inline code: _line_hits passes
    both as quoted), or is "today" used as a possessive."""
    if quoted.covers(start):
        return True
    return line[end : end + 2] in _POSSESSIVE and line[start:end].lower() == "today"


def _in_a_title(line: str, start: int) -> bool:
    """Whether the phrase at start opens with a capital inside a sentence (after a letter or
    digit, not after '.', ':', '|' or a list mark): "Turn Yesterday's Commits Into a Daily
    Standup" is a title (real35: a blog's catalogue table), as a heading is."""
    if not line[start].isupper():
        return False
    before = line[max(0, start - 40) : start].rstrip()
    return bool(before) and before[-1].isalnum()


def _a_name(line: str, start: int, end: int) -> bool:
    """Whether the phrase at line[start:end] is (in) a name: a title's capital inside a
    sentence, or a "Today" naming a part of an app ("Today view", "[Today](x.md)")."""
    return _in_a_title(line, start) or today_as_a_name(line, start, end)


# A comparison between a name and the phrase (`endDate>today`, `due <= tomorrow`, `x == today`)
# or a value set with no space (`status=today`): code, whose "today" means the day it runs.
_COMPARED_BEFORE = re.compile(r"[\w)\]](?: ?(?:[<>]=?|[=!]==?) ?|=)\Z")
_COMPARED_AFTER = re.compile(r"(?: ?(?:[<>]=?|[=!]==?) ?)[\w(]")


def _in_a_compound(line: str, start: int, end: int) -> bool:
    """Whether the phrase at line[start:end] is joined to a word by a hyphen or a slash, or is
    an operand of a comparison.

    "safe-today usage", "a today-only price", "tomorrow-ish" are words, not dates (real35: the
    rewrite gave "safe-2026-12-02 usage"), "the day-before-yesterday build" is no day "yesterday"
    names, and "today/EOM", "/api/today" are a setting's values or a route (real39); in
    "endDate>today" the rewrite fixed a rule's moving day to the memory's (real40b)."""
    joined_before = start >= 2 and line[start - 1] in "-/" and line[start - 2].isalnum()
    if joined_before or (line[end : end + 1] in ("-", "/") and line[end + 1 : end + 2].isalnum()):
        return True
    if _COMPARED_BEFORE.search(line, max(0, start - 6), start) is not None:
        return True
    return _COMPARED_AFTER.match(line, end) is not None


def _a_meetings_slot(line: str, start: int, end: int) -> bool:
    """Whether the weekday at line[start:end] is a recurring meeting's slot: the meeting named
    right after it (a clock time between) or right before it (see _RECURRING_EVENT)."""
    if _EVENT_AFTER.match(line, end) is not None:
        return True
    return _EVENT_BEFORE.search(line, max(0, start - 40), start) is not None


def _recurring_before(line: str, start: int) -> bool:
    """Whether _RECURRING_BEFORE ("every", "each", "a", ... then spaces) ends right at start.
    Its match must end where the spaces before start begin, so only the 12 characters before
    them (the longest cue, "on alternate") are searched, not the whole line before start."""
    spaces = start
    while spaces > 0 and line[spaces - 1].isspace():  # re's \s is str.isspace
        spaces -= 1
    return _RECURRING_BEFORE.search(line, max(0, spaces - 12), start) is not None


def _a_kind_of_day(line: str, start: int, end: int) -> bool:
    """Whether the weekday at line[start:end] names a kind of day by the plural after it
    ("Monday mornings", "Friday longs"), and no "the" makes it one day's (_KIND_OF_DAY_AFTER)."""
    if _KIND_OF_DAY_AFTER.match(line, end) is None:
        return False
    return _THE_BEFORE.search(line, max(0, start - 12), start) is None


def _a_dated_weekday(line: str, start: int, end: int, dates: LineDates) -> bool:
    """Whether the bare weekday at line[start:end] is the weekday of a date written with it: a
    full date decides (spec.written_dates); else a date without its year beside it does."""
    named = weekday_of_a_written_date(line, start, end, dates)
    return _weekday_anchored(line, start, end) if named is None else named


def _line_hits(line: str, before: str = "") -> Iterator[tuple[int, int, str]]:
    """(start, end, phrase) of each relative date in one line, in order; `before` is the last
    line above it that is not blank, which may hold the full date a bare weekday names.

    A heading or blockquote line has none, nor has text in double quotes (see _LABEL_LINE and
    _QUOTED) or in inline code (`getDate/Tomorrow` is a name, which the rewrite leaves as
    written, so lint does not ask for one), nor "today's", nor a phrase capitalised inside a
    sentence or a "Today" naming a part of an app (_a_name), nor one joined to a word by a
    hyphen or a slash (_in_a_compound).
    """
    if _LABEL_LINE.match(line):
        return
    marks = [m.span() for m in _QUOTED.finditer(line)] if '"' in line or "\u201c" in line else []
    if "`" in line:
        marks += [m.span() for m in _INLINE_CODE.finditer(line)]
    quoted = _Spans(marks)
    spans: list[tuple[int, int, str]] = []
    found = _PHRASE_LOWER.finditer(line.lower()) if line.isascii() else _PHRASE.finditer(line)
    for m in found:
        wd = m.start("wd")
        if wd != -1 and _weekday_anchored(line, wd, m.end("wd")):
            continue
        if _set_apart(line, m.start(), m.end(), quoted) or _a_name(line, m.start(), m.end()):
            continue
        if _in_a_compound(line, m.start(), m.end()) or counted_not_dated(line, m):
            continue
        spans.append((m.start(), m.end(), line[m.start() : m.end()]))
    # a range opened by a relative phrase ("next Tuesday to Thursday") is one week's days
    phrases = _Spans((s, e) for s, e, _ in spans)
    ranges = _Spans(
        r.span() for r in _WEEKDAY_RANGE.finditer(line) if not phrases.covers(r.start())
    )
    dates: LineDates | None = None
    for m in _BARE_WEEKDAY.finditer(line):  # (a weekday found here is after every span before)
        if phrases.covers(m.start()) or ranges.covers(m.start()):
            continue
        if _recurring_before(line, m.start()) or line[m.end() : m.end() + 1] == "s":
            continue
        if _a_meetings_slot(line, m.start(), m.end()) or _a_kind_of_day(line, m.start(), m.end()):
            continue
        dates = dates or LineDates(line, before)
        if _a_dated_weekday(line, m.start(), m.end(), dates) or _set_apart(
            line, m.start(), m.end(), quoted
        ):
            continue
        spans.append((m.start(), m.end(), m.group(0)))
    yield from sorted(spans)


def may_hold_relative_date(text: str) -> bool:
    """False when no line of text can hold a relative date: one quick pass over all of it.

    Every phrase find_relative_dates reports on a line also matches here (a line break
    bounds a word as a line's end does), so a whole body is checked once before its lines.
    On text without spec.text.FOLDS_TO_ASCII (the letters that case-insensitive matching takes
    for ASCII ones) the phrase pattern is only tried near each needle (see
    _phrase_near_needle), and the bare-weekday pattern only when a capitalised weekday name is
    in the text: lower-casing such text keeps every length and every word, space and digit
    character, and makes no ASCII letter that was not one.
    """
    if not has_ascii_fold(text):
        low = text.lower()
        if not any(w in low for w in _PHRASE_NEEDLES):
            return False
        if _phrase_near_needle(" ".join(low.split())):
            return True
        return any(w in text for w in _CAP_WEEKDAYS) and _BARE_WEEKDAY.search(text) is not None
    return _PHRASE.search(text) is not None or _BARE_WEEKDAY.search(text) is not None


# Every relative-date phrase holds one of these (weekdays, today and yesterday end in 'day').
_PHRASE_NEEDLES = (
    "day",
    "tonight",
    "tomorrow",
    "morning",
    "afternoon",
    "evening",
    "week",
    "month",
    "year",
    "quarter",
)
_CAP_WEEKDAYS = tuple(day.capitalize() for day in WEEKDAYS)
# The longest text _PHRASE matches once every whitespace run is one space ("a couple of
# months ago"); tests/unit/test_dates.py checks it against every phrase the pattern allows.
_PHRASE_MAX_CHARS = 22


def _phrase_near_needle(norm: str) -> bool:
    """Whether _PHRASE_LOWER matches norm: lower-cased ASCII text, every whitespace run one space.

    Each whitespace run of a match is then one space, so a match is at most _PHRASE_MAX_CHARS
    long and holds a needle: it lies within _PHRASE_MAX_CHARS of each end of that needle's
    occurrence. So the pattern is tried only in such a window around each occurrence. A
    window's end reads as the text's end, so a match reaching it is confirmed on the whole
    text (its start sees the character before it, as a whole-text search does).
    (Collapsing whitespace changes no match: a phrase's words are joined by whitespace runs
    and bounded by non-word characters, and a space is one as much as any whitespace.)
    """
    for needle in _PHRASE_NEEDLES:
        at = norm.find(needle)
        while at != -1:
            start = max(0, at + len(needle) - _PHRASE_MAX_CHARS)
            end = at + _PHRASE_MAX_CHARS
            while (m := _PHRASE_LOWER.search(norm, start, end)) is not None:
                if m.end() < end or _PHRASE_LOWER.match(norm, m.start()) is not None:
                    return True
                start = m.start() + 1
            at = norm.find(needle, at + 1)
    return False


def find_relative_dates(text: str, before: str = "") -> list[RelativeDate]:
    """Every relative date in text that has no absolute date beside it, in reading order.

    Each line is read with the last line above it that is not blank (a bare weekday may name
    the day of a full date written there); `before` is that line for text's first line, when
    text is one line of a longer text (lint reads a memory line by line)."""
    hits: list[RelativeDate] = []
    for i, line in enumerate(text.split("\n")):
        hits.extend(RelativeDate(i, s, e, phrase) for s, e, phrase in _line_hits(line, before))
        if line.strip():
            before = line
    return hits


def resolve_relative_date(phrase: str, today: _dt.date) -> DateResolution | None:
    """What a relative date phrase means on `today`, or None when it names no definite date.

    A date past the calendar's ends (year 1 to 9999) is no date either: `today` comes from a
    memory's `modified:`, which anyone writing a memory sets, and "next year" on 9999-12-31
    raised out of the whole dream plan, naming no file (attack37). Such a phrase is left as
    written, as one naming no single day is."""
    try:
        return _resolved(phrase, today)
    except (ValueError, OverflowError):  # date(10000, 1, 1), date.max + a day
        return None


def _resolved(phrase: str, today: _dt.date) -> DateResolution | None:
    m = _PHRASE.fullmatch(phrase.strip())
    if m is None:
        bare = _BARE_WEEKDAY.fullmatch(phrase.strip())
        if bare is None:
            return None
        coming = weekday_date(today, "next", bare.group(0))
        return DateResolution(coming, coming.isoformat(), True)
    g = {k: v for k, v in m.groupdict().items() if v is not None}
    day: _dt.date | None = None
    if "day_word" in g:
        word = g["day_word"].lower()
        day = today + _dt.timedelta(days={"tomorrow": 1, "yesterday": -1}.get(word, 0))
    elif "part" in g:
        day = today
    elif "wd" in g:
        day = weekday_date(today, g["wd_mod"].lower(), g["wd"])
    elif "period" in g:
        return period_of(today, OFFSETS[g["p_mod"].lower()], g["period"])
    elif "in_n" in g or "ago_n" in g:
        sign, key = (1, "in") if "in_n" in g else (-1, "ago")
        n = count_of(g[f"{key}_n"])
        if n is None:
            return None
        day = shift(today, sign * n, g[f"{key}_unit"])
    elif "eo" in g:
        day = end_of(today, OFFSETS[g.get("eo_mod", "the").lower()], g["eo"].lower())
    if day is None:
        return None
    return DateResolution(day, day.isoformat(), True)


def names_a_span(line: str, start: int, phrase: str) -> bool:
    """Whether the relative phrase at line[start:] follows "the", and so names a span from the
    day written ("the last week", "the past month") or a rule ("the last Friday of the month"),
    which no single date or calendar period replaces (see _THE_BEFORE)."""
    return phrase.split(None, 1)[0].lower() in _MODIFIERS and (
        _THE_BEFORE.search(line, max(0, start - 12), start) is not None
    )


def convert_relative_dates(text: str, today: _dt.date) -> tuple[str, list[str]]:
    """Replace resolvable relative dates outside code with absolute ones.

    Returns (new text, ["'yesterday' -> '2026-03-27'", ...]). Fenced code is left alone, and so
    is what find_relative_dates does not report (headings, blockquotes, quoted words, inline
    code, "today's"); a bare weekday ("Thursday") is reported by find_relative_dates but not
    rewritten, since it is as often a recurring day as a date.
    """
    changes: list[str] = []
    if not may_hold_relative_date(text):
        return text, changes  # nothing to convert on any line (one quick pass)
    out: list[str] = []
    fence = ""  # the run that opened the fenced block the line is in
    for line in text.split("\n"):
        change = fence_change(line, fence)
        if change is not None:
            fence = change
        if fence or change is not None:
            out.append(line)
            continue
        out.append(_convert_line(line, today, changes))
    return "\n".join(out), changes


def _convert_line(line: str, today: _dt.date, changes: list[str]) -> str:
    result: list[str] = []
    pos = 0
    for start, end, phrase in _line_hits(line):  # none in inline code (see there)
        if _BARE_WEEKDAY.fullmatch(phrase):
            continue
        if names_a_span(line, start, phrase):
            continue
        resolved = resolve_relative_date(phrase, today)
        if resolved is None:
            continue
        result.append(line[pos:start] + resolved.text)
        changes.append(f"{phrase!r} -> {resolved.text!r}")
        pos = end
    result.append(line[pos:])
    return "".join(result)
