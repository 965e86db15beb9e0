"""The .md names an index line holds besides its entry: a second link, a backticked name in
prose or a table, and a bare name listed under its folder's line. Lint, the rebuild, the plan
and the browser count each such file as listed (formats.index_lines reads the entries)."""

from __future__ import annotations

import re

from memdir_nb.formats.index_caps import entry_line_flags
from memdir_nb.formats.index_lines import (
    MD_LINK,
    TICKED_MD,
    entry_target,
    is_md_target,
    norm_target,
)
from memdir_nb.spec.text import as_lf


def line_mentions(line: str) -> list[str]:
    """The .md names one index line holds besides its entry's target, in order: each Markdown
    link's target and each backticked name, normalised.

    Only the entry (parse_entry_line) can dangle. But the index is read by a model, and any
    name on a line that names a memory file tells it the file is there: a second link on a line
    (`— kbd: [wrapped](kbd.md)`), a table's backticked file column, "See `analysis.md` for the
    investigation". Lint, the rebuild, the plan and the browser count such a file as listed.
    """
    if "`" not in line and line.count("](") < 2:
        return []  # one link at most, and a line's only .md link is its entry
    found = [(m.start(), m.group("target")) for m in MD_LINK.finditer(line)]
    found += [(t.start(), t.group("target")) for t in TICKED_MD.finditer(line)]
    names = [norm_target(t) for _, t in sorted(found) if is_md_target(t)]
    own = entry_target(line)
    if own in names:
        names.remove(own)  # its first occurrence: the entry itself
    return names


def index_mentions(text: str) -> list[tuple[int, str]]:
    """(line number, target) for every .md name of MEMORY.md text that is no line's entry
    (line_mentions of each line), on the lines parse_index reads (entry_line_flags: no
    frontmatter, block comment or fenced code); and a bare name listed under a folder's line
    as that folder's file (nested_target)."""
    text = as_lf(text)
    prose = entry_line_flags(text)
    lines = text.split("\n")
    found: list[tuple[int, str]] = []
    for no, line in enumerate(lines, start=1):
        if prose[no - 1]:
            found += [(no, target) for target in line_mentions(line)]
            own = entry_target(line) if line[:1] in (" ", "\t") else None
            nested = nested_target(lines, no, own) if own else None
            if nested is not None:
                found.append((no, nested))
    return found


_TICKED_FOLDER = re.compile(r"`(?P<folder>[^`\s]+/)`")


def nested_target(lines: list[str], line_no: int, target: str) -> str | None:
    """A bare name on an indented list line, joined to the folder its parent line names.

    An index lists a subfolder's files under the folder's line ("- `memory/refs/` -- four
    files:" then "  - `hooks.md` -- events"; real41): the name is that folder's file, and
    lint, the rebuild and the plan count it as listed there. None for a name with a folder of
    its own, or a line whose parent (the nearest line above it indented less) names no folder.
    """
    if "/" in target:
        return None
    line = lines[line_no - 1]
    indent = len(line) - len(line.lstrip(" \t"))
    for above in reversed(lines[: line_no - 1]):
        if not above.strip():
            continue
        if len(above) - len(above.lstrip(" \t")) < indent:
            m = _TICKED_FOLDER.search(above)
            return m.group("folder") + target if m else None
    return None
