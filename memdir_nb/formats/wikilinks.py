"""A memory's `[[name]]` links to other memories: which names a body links, and pointing them
at another memory.

Claude Code's memory prompt of late 2026 tells the model to link related memories in a body
with `[[name]]`, where name is the other memory's `name:` slug, and says that a link matching no
memory is fine: it marks a memory worth writing later. Real memories link by the other file's
stem as well (`[[project_release_freeze]]`, from before the slug names) and by that stem with
hyphens (`[[project-release-freeze]]`): of the 15 links of one published dir of 19 memories, 3
name a memory's `name:`, 8 its stem, 3 its stem with hyphens and 1 nothing. Some add a label or a
heading after the name (`[[name|label]]`, `[[name#part]]`), as other notes tools write them.
So a link that stops resolving (its memory merged into another) reads as a memory still to be
written, and a later session may write it again. This module is the one home of the link's
shape; `dream.plan` uses it to point a merged-away memory's links at the memory that absorbed
it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

# `[[` + the name (no brackets, line end, `|`, `#` or backslash) + an optional `|label` or
# `#part` (its `|` escaped as `\|` inside a Markdown table) + `]]`. The name is compared with the
# whitespace around it stripped. `[[#part]]` (a heading of the same file) names no memory.
_LINK = re.compile(r"\[\[([^\[\]|#\n\\]+)(\\?[|#][^\[\]\n]*)?\]\]")


def names_linking(name: str, stem: str) -> tuple[str, str, str]:
    """The names a link finds a memory by: its `name:` (its stem when it has none), its file's
    stem, and the stem with hyphens for underscores (the three forms real links use)."""
    return name, stem, stem.replace("_", "-")


def linked_names(text: str) -> set[str]:
    """The names text links with `[[name]]` (any label or heading after the name left out)."""
    if "[[" not in text:
        return set()
    return {name for m in _LINK.finditer(text) if (name := m.group(1).strip())}


def relinked(text: str, renames: Mapping[str, str]) -> tuple[str, int]:
    """text with each `[[old]]` whose name is a key of renames naming renames[old] instead (a
    label or heading after the name kept), and how many links changed."""
    if "[[" not in text or not renames:
        return text, 0
    count = 0

    def swap(m: re.Match[str]) -> str:
        nonlocal count
        new = renames.get(m.group(1).strip())
        if new is None:
            return m.group(0)
        count += 1
        return f"[[{new}{m.group(2) or ''}]]"

    return _LINK.sub(swap, text), count
