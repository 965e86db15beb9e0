"""A capitalised "Today" that is the name of a part of an app, not a day.

Apps call their daily screen "Today" (a planner's Today view, a habit tracker's Today tab, a
dashboard's Today page), and project memories about such apps name it: "Today view lists the
doses due", "- [x] Today page shows the streak", "**Today** tab: tasks due now". spec.dates
reads "today" as a relative date, and the dream rewrote such a name to a date. So a "Today"
written with a capital is a name when a word naming a part of an app follows it (after a
bold or italic mark that closes it: "**Today** view"), or when it is (in) a link's text,
"[Today](views.md)", "[[Today]]". Lower case stays a date ("as of today", "today view counts
rose" is the ordinary word), and so does a capitalised one before anything else ("Today we
moved the runner", "Today: deploy froze at noon"). A heading names a topic and is left alone
by spec.dates already, as is "the Today page" (a capital inside a sentence: a title).
"""

from __future__ import annotations

import re

__all__ = ["today_as_a_name"]

# What follows a "Today" that names a part of an app: a closing bold or italic mark at most,
# blanks, then one of these nouns (singular or plural, any case: "Today View", "TODAY TAB").
_PART_AFTER = re.compile(
    r"(?:\*{1,2}|_{1,2})?[ \t]+"
    r"(?:page|view|tab|screen|widget|list|panel|pane|card|section|menu|button|tile|dashboard"
    r"|module|component|route)s?\b",
    re.IGNORECASE,
)
# A link's text around the phrase: "[" before it and "](" or "]]" after it, each within this
# many characters with no bracket between, so each phrase reads a bounded stretch of its line.
_LINK_TEXT_SPAN = 80
_LINK_TEXT_BEFORE = re.compile(r"\[[^\[\]\n]*\Z")
_LINK_TEXT_AFTER = re.compile(r"[^\[\]\n]*\](?:\(|\])")


def today_as_a_name(line: str, start: int, end: int) -> bool:
    """Whether line[start:end], a relative-date phrase, is a capitalised "Today" naming a part
    of an app: a part's noun after it, or a link's text around it (see the module docstring)."""
    if not line[start].isupper() or line[start:end].lower() != "today":
        return False
    if _PART_AFTER.match(line, end) is not None:
        return True
    if _LINK_TEXT_BEFORE.search(line, max(0, start - _LINK_TEXT_SPAN), start) is None:
        return False
    return _LINK_TEXT_AFTER.match(line, end, end + _LINK_TEXT_SPAN) is not None
