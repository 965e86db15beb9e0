"""Where Claude Code's own header pattern ends a memory's header earlier than this reader does.

Claude Code (2.1.214 to 2.1.278 at least) splits a memory file with
``/^---\\s*\n([\\s\\S]*?)---\\s*\n?/``: the first ``---`` after the opening line closes the
header, even inside a value or quotes, and the rest is body to it. `formats.frontmatter` reads
the header to its first whole ``---`` line, as YAML tools do; lint names the files where the
two differ (`header-ends-early`; docs/decisions.md, thirtieth session).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memdir_nb.formats.frontmatter import Frontmatter
from memdir_nb.spec.constants import FENCE

__all__ = ["EarlyClose", "cli_header_end"]


@dataclass(frozen=True)
class EarlyClose:
    """Where Claude Code ends a header before its closing line (see cli_header_end)."""

    index: int  # the header line (0-based among Frontmatter.header_lines) holding the '---'
    kept: str  # what of that line is still header to Claude Code
    lost: tuple[str, ...]  # the keys of the lines after it, body to Claude Code (parent.key)


_KEY_AT = re.compile(r"([ \t]*)([A-Za-z_][A-Za-z0-9_-]*)[ \t]*:")


def cli_header_end(fm: Frontmatter) -> EarlyClose | None:
    r"""Where Claude Code ends this header when a '---' inside it comes before the closing line.

    Claude Code finds a memory's header with ``/^---\s*\n([\s\S]*?)---\s*\n?/`` (its 2.1.214
    header stamper calls such a close ambiguous; readers of 2.1.278 find the same pattern): the
    first '---' after the opening line closes the header, inside a value or quotes too, and the
    rest is body to it. This reader closes at the first whole '---' line. None when both agree.
    """
    if not fm.closed:
        return None
    for i, line in enumerate(fm.header_lines):
        at = line.find(FENCE)
        if at < 0:
            continue
        lost: list[str] = []
        parent = ""  # the top-level key an indented one is nested under
        for n, later in enumerate(fm.header_lines):
            m = _KEY_AT.match(later)
            if m is None:
                continue
            indent, key = m.groups()
            if not indent:
                parent = key
            if n > i:
                lost.append(f"{parent}.{key}" if indent and parent else key)
        return EarlyClose(i, line[:at].rstrip(), tuple(lost))
    return None
