"""How old a memory is, and the staleness caveat shown next to recalled memories."""

from __future__ import annotations

import math

from memdir_nb.clock import resolve_now_ms

MS_PER_DAY = 86_400_000

# The age at which the views call a memory stale (worth checking): at least this many whole days
# old. The one boundary: the browser's badge, the freshness view's stale list and its age bins
# (one bin starts here) all follow it; the widgets' slider moves it for the stale list only.
STALE_AFTER_DAYS = 90

# The opening sentence is fixed by the spec ("This memory is N days old."); the caveat after it
# is the project's own wording of the same rule.
_STALE_CAVEAT = (
    "It records what was true when it was saved, not the live state of the project: "
    "statements about how code behaves and file:line references may have changed since. "
    "Check them against the current code before presenting them as fact."
)


def _now(now_ms: float | None) -> float:
    """The given clock reading, or the wall clock in milliseconds."""
    return resolve_now_ms(now_ms)


def memory_age_days(mtime_ms: float, now_ms: float | None = None) -> int:
    """Whole days since mtime_ms, floored; a future mtime (clock skew) counts as 0."""
    elapsed = _now(now_ms) - float(mtime_ms)
    if math.isnan(elapsed):
        raise ValueError("mtime_ms and now_ms must be numbers of milliseconds, not NaN")
    return max(0, math.floor(elapsed / MS_PER_DAY))


def is_stale_age(age_days: int, stale_after_days: int = STALE_AFTER_DAYS) -> bool:
    """The views' stale rule: at least stale_after_days whole days old (day 90 is stale at 90)."""
    return age_days >= stale_after_days


def memory_age(mtime_ms: float, now_ms: float | None = None) -> str:
    """'today', 'yesterday' or 'N days ago': models reason about these better than timestamps."""
    days = memory_age_days(mtime_ms, now_ms)
    if days == 0:
        return "today"
    if days == 1:
        return "yesterday"
    return f"{days} days ago"


def memory_freshness_text(mtime_ms: float, now_ms: float | None = None) -> str:
    """The staleness caveat for memories older than a day, '' for today's and yesterday's."""
    days = memory_age_days(mtime_ms, now_ms)
    if days <= 1:
        return ""
    return f"This memory is {days} days old. {_STALE_CAVEAT}"


def memory_freshness_note(mtime_ms: float, now_ms: float | None = None) -> str:
    """The caveat wrapped in <system-reminder> tags plus a newline, or '' when fresh."""
    text = memory_freshness_text(mtime_ms, now_ms)
    if not text:
        return ""
    return f"<system-reminder>{text}</system-reminder>\n"


def memory_header(path: str, mtime_ms: float, now_ms: float | None = None) -> str:
    """The line placed above a recalled memory's content; stale ones lead with the caveat."""
    text = memory_freshness_text(mtime_ms, now_ms)
    if text:
        return f"{text}\n\nMemory: {path}:"
    return f"Memory (saved {memory_age(mtime_ms, now_ms)}): {path}:"
