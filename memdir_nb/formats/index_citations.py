"""Citations on MEMORY.md's entry lines: where a person says a hook's fact comes from.

People who keep an index by hand cite after the hook (real44): a source in brackets, "(source:
the ops wiki)", "[source: supplier email of 2026-03-02]", "(ref: RFC 9110)", "(see kiln-log.md)",
"(according to the landlord)"; a label, "Source: the 2025 audit", or one naming where the
detail is written, "Full doc: `~/plans/kiln.md`"; a link, "([style guide](https://...))" or a
bare address; a footnote marker, "[^1]", whose text sits at the index's foot; or a
numbered reference at the line's end, "[3]". A tool that rewrites such a line (the dream's
shortened hook, a fit's 80-character hook) cuts the citation first, since it comes last; and a
tool that drops the line loses it. So a cited entry line is kept byte for byte by the dream and
the rebuild, never shortened, fitted or dropped by them (lint still reports what it finds on
it; a person decides). IndexEntry.cited asks this module.
"""

from __future__ import annotations

import re

__all__ = ["cites"]

_CITING_WORD = (
    r"(?:sources?|src|refs?|references?|citations?|cited(?:\s+(?:in|from))?|cf\.?|see(?:\s+also)?"
    r"|according\s+to|quoted\s+from|from\s+(?:the\s+)?(?:docs?|wiki|rfc|spec|email|thread))"
)
_CITATION = re.compile(
    # (source: ...), [source: ...], (see ...), (per ...): a citing word opens a bracket
    rf"[(\[]\s*{_CITING_WORD}\b[^()\[\]\n]*[)\]]"
    # Source: ..., Ref: ... (a label with a colon, after the hook's text)
    r"|(?:^|[\s.;,\u2014\u2013-])(?:sources?|src|refs?|references?|citations?)\s*:\s*\S"
    # Full doc: `path`, Approved plan: `path` (a label and where the detail is written)
    r"|\b(?:full\s+docs?|docs?|details?|spec|(?:approved\s+)?plan|write-?up|handoff)\s*:\s*[`\[<]"
    # a footnote marker: [^1], [^glaze-test]; no "[" in the label, so a run of "[^" is read
    # once, not again from each "[^" to the end (attack44: 100,000 characters took 7.5 s)
    r"|\[\^[^\[\]\s]+\]"
    r"|\bhttps?://\S"  # a source's address, bare or as a link's target
    r"|\]\([^()\s]+\)"  # a markdown link in the hook: to a page or another file
    r"|\[\d{1,3}\]\W*$",  # a numbered reference ending the hook: [3]
    re.IGNORECASE,
)
# Not "per" nor "via": "(per week)", "(via SSH)" say how, not where from.
# Every citation holds one of these; a hook holding none is not searched (a fit asks this of
# every line of an index).
_NEEDLES = ("(", "[", ":")


def cites(hook: str) -> bool:
    """Whether an entry line's hook carries a citation (see the module's docstring)."""
    if not any(needle in hook for needle in _NEEDLES):
        return False
    return _CITATION.search(hook) is not None
