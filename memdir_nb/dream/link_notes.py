"""The notes a plan's rewrites earn: the links other memories keep that a renamed or retired
file leaves naming no memory (storage.link_report), one line a file, for Claude's plan as it is
proposed (dream.claude) and for any plan as it is applied (dream.apply: a plan built by hand
through the public API, a `WriteFile` that changes a `name:` or writes a file anew under a new
file name and retires the old one). Nothing is rewritten for them (links33's rule): the plan
is what the person approved.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from memdir_nb.spec.text import terminal_line
from memdir_nb.storage.headers import header_of_text
from memdir_nb.storage.link_report import LinkSnapshot, links_left_by_rewrites
from memdir_nb.toolloop.memory_text import name_changed


def what_was_done(rel: str, after: Mapping[str, str | None]) -> str:
    """How a links note names rel: retired, or now under its proposed `name:`."""
    text = after.get(rel)
    if text is None:
        return f"{terminal_line(rel)}, which this plan retires,"
    return name_changed(terminal_line(rel), header_of_text(text).name)


def rewrite_link_notes(
    memory_dir: str | os.PathLike[str],
    before: Mapping[str, str | None],
    after: Mapping[str, str | None],
) -> list[str]:
    """One note for each file (sorted) that after renames or retires while other memories link
    it by a name nothing answers to once every rewrite in after is made (before: each rel's text
    now, None: absent). Nothing is read unless a rewrite changes a `name:` or removes a file;
    the dir is read once, and once more to name them file by file when the plan leaves some."""
    if not links_left_by_rewrites(memory_dir, before, after):  # the plan as a whole
        return []
    snapshot = LinkSnapshot.read(memory_dir)  # read again only when it leaves some
    out = []
    for rel in sorted(after):
        left = links_left_by_rewrites(memory_dir, before, after, (rel,), snapshot)
        if left:
            out.append(left.message(what_was_done(rel, after)))
    return out
