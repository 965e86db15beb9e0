"""Percent-escapes in a Markdown link target: `[x](kiln%20days.md)` names `kiln days.md`.

A Markdown reader (a browser, an editor's preview) opens a link target with its `%XX` escapes
decoded, and some tools write a name's space so. Every lookup of a link target (an index
line's, through `storage/index_files.IndexTargets.locate`; a memory body's, through the
dream's merge links) tries the target as written first, so a file whose own name holds
`%20` is still the one its line names, and then the decoded form from here.

A decoded target is a name like any written one, never more: it passes the same containment
as a written target (the caller's), and here it is refused (None) when decoding would change
what the path is made of or hide what the name gate refuses. An escaped separator (`%2F`,
`%5C`: `..%2F..%2Fetc%2Fpasswd.md` keeps the one name it was written as), an escaped control
(`%00`, which no system call takes; `%0A`), bytes that are not UTF-8, an escape left after
decoding (`%2520`: decoded once, never twice), or a file name the name gate refuses.
"""

from __future__ import annotations

import re
from urllib.parse import unquote

from memdir_nb.formats.names import control_problem, name_problem

_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def decoded_link_target(target: str) -> str | None:
    """target (a link's file part, '/'-separated) with its `%XX` escapes decoded, or None when
    it holds none or its decoded form is refused (the module's rules)."""
    if "%" not in target or _ESCAPE.search(target) is None:
        return None
    try:
        decoded = unquote(target, errors="strict")
    except UnicodeDecodeError:
        return None
    if (
        decoded.count("/") != target.count("/")
        or decoded.count("\\") != target.count("\\")
        or _ESCAPE.search(decoded) is not None
        or control_problem(decoded) is not None
        or name_problem(decoded.rsplit("/", 1)[-1]) is not None
    ):
        return None
    return decoded
