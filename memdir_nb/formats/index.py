"""MEMORY.md, the index: a page people write, rebuilt without losing what they wrote.

MEMORY.md is a list of pointers, one line per memory: ``- [Title](file.md) — hook``. The
topic files are authoritative, but the index is also a page people write: headings, prose,
their own titles and hooks. A rebuild (`merge_index`) therefore keeps every line as written
and only adds the missing entries under a heading of its own (REBUILD_HEADING); dangling
lines go only when asked.

The entry lines live in memdir_nb.formats.index_lines and the loader's caps in
memdir_nb.formats.index_caps; their public names are re-exported here, where callers have
always found them.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from memdir_nb.formats.index_caps import (
    EntrypointTruncation,
    IndexCapVerdict,
    StrippedEntrypoint,
    block_left_open,
    cap_units,
    counted_line_numbers,
    counted_text,
    entry_line_flags,
    entrypoint_size,
    format_size,
    index_cap_verdict,
    strip_entrypoint_extras,
    truncate_entrypoint_content,
)
from memdir_nb.formats.index_edits import remove_index_entry, upsert_index_entry
from memdir_nb.formats.index_lines import (
    ENTRY_DASH,
    MAX_HOOK_CHARS,
    NO_DESCRIPTION_HOOK,
    IndexEntry,
    format_index_entry,
    in_style,
    is_md_target,
    line_end_style,
    parse_entry_line,
    parse_index,
    retarget_entry_line,
    shorten_hook,
    wiki_entry_memory,
)
from memdir_nb.formats.index_mentions import index_mentions, line_mentions, nested_target
from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.moved_files import MovedFiles
from memdir_nb.formats.wikilinks import LinkTargets
from memdir_nb.spec.constants import ENTRYPOINT_NAME, MAX_ENTRYPOINT_BYTES, MAX_ENTRYPOINT_LINES
from memdir_nb.spec.taxonomy import MEMORY_TYPES
from memdir_nb.spec.text import as_lf, one_line, unsafe_in_text

REBUILD_HEADING = "## Added by rebuild-index"  # where a rebuild puts the entries it adds

__all__ = [
    "ENTRYPOINT_NAME",
    "ENTRY_DASH",
    "MAX_ENTRYPOINT_BYTES",
    "MAX_ENTRYPOINT_LINES",
    "MAX_HOOK_CHARS",
    "NO_DESCRIPTION_HOOK",
    "REBUILD_HEADING",
    "EntrypointTruncation",
    "IndexCapVerdict",
    "IndexEntry",
    "MergedIndex",
    "StrippedEntrypoint",
    "cap_units",
    "counted_line_numbers",
    "counted_text",
    "entries_past_caps",
    "entrypoint_size",
    "format_index_entry",
    "format_size",
    "heading_hook",
    "index_cap_verdict",
    "index_mentions",
    "is_md_target",
    "merge_index",
    "parse_index",
    "remove_index_entry",
    "render_index",
    "shorten_hook",
    "strip_entrypoint_extras",
    "truncate_entrypoint_content",
    "upsert_index_entry",
    "with_added_lines",
]


# ---------------------------------------------------------------------------- files


def entries_past_caps(text: str) -> list[IndexEntry]:
    """The entries of MEMORY.md text that the loader's line and byte caps cut off (never seen)."""
    result = truncate_entrypoint_content(text)
    if not result.warning:
        return []
    # Truncation works on the text without frontmatter and block comments, trimmed: map the
    # lines it kept back to the file's own line numbers.
    seen = set(counted_line_numbers(text)[: result.kept_line_count])
    loaded = strip_entrypoint_extras(text).entry_lines
    return [e for e in parse_index(text) if e.line_no in loaded and e.line_no not in seen]


_INLINE_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
_EMPHASIS = re.compile(r"\*\*|__|`")


def _opening_heading_text(line: str) -> str | None:
    """The text of an ATX heading line (up to 3 spaces, 1-6 '#', a space or tab, the text, an
    optional closing run of '#'), else None. String steps, no backtracking: a line of any
    length costs one pass."""
    stripped = line.lstrip(" ")
    if len(line) - len(stripped) > 3:
        return None
    rest = stripped.lstrip("#")
    if not 1 <= len(stripped) - len(rest) <= 6 or (rest and rest[0] not in " \t"):
        return None
    text = rest.strip(" \t")
    unclosed = text.rstrip("#")
    if unclosed != text and (not unclosed or unclosed[-1] in " \t"):
        text = unclosed.rstrip(" \t")  # the closing sequence ("## Title ##")
    return text


def heading_hook(body: str) -> str:
    """The hook of a memory with no description: the heading its body opens with, as one
    plain line cut to MAX_HOOK_CHARS ('' when the first line that holds anything is no heading).

    Link syntax, bold, and backticks go; so do characters no line may carry raw.
    """
    for line in body.split("\n"):
        if not line.strip():
            continue
        text = _opening_heading_text(line.rstrip("\r"))
        if text is None:
            return ""
        text = text[: 4 * MAX_HOOK_CHARS]  # a hook is cut to MAX_HOOK_CHARS anyway
        text = _EMPHASIS.sub("", _INLINE_LINK.sub(r"\1", text))
        return shorten_hook(one_line(unsafe_in_text().sub("", text)))
    return ""


_TYPE_ORDER = {t: i for i, t in enumerate(MEMORY_TYPES)}


def _rebuild_order(header: MemoryHeader) -> tuple[int, str, str]:
    """Sort by type (the taxonomy's order, unknown last), then title, then filename."""
    title = header.name or Path(header.filename).stem
    rank = (
        _TYPE_ORDER.get(header.type, len(_TYPE_ORDER))
        if header.type is not None
        else len(_TYPE_ORDER)
    )
    return (rank, title.casefold(), header.filename)


def render_index(
    headers: list[MemoryHeader], describe: Callable[[MemoryHeader], str] | None = None
) -> str:
    """MEMORY.md text with one entry per header, sorted by type then title.

    A header with no description gets describe(header) as its hook (the rebuild passes the
    file's opening heading, heading_hook), else NO_DESCRIPTION_HOOK.
    """
    lines = [
        format_index_entry(
            h.name or Path(h.filename).stem,
            h.filename,
            h.description or (describe(h) if describe else "") or NO_DESCRIPTION_HOOK,
        )
        for h in sorted(headers, key=_rebuild_order)
    ]
    return "".join(line + "\n" for line in lines)


# ---------------------------------------------------------------------------- rebuild


@dataclass(frozen=True)
class MergedIndex:
    """An index after a rebuild: its text, and what the rebuild added, found dangling or dropped."""

    text: str
    added: tuple[str, ...]  # memory files that had no line and got one under REBUILD_HEADING
    dangling: tuple[str, ...]  # targets of lines pointing at no file (kept unless dropped)
    dropped: tuple[str, ...]  # the dangling lines' targets removed (drop_dangling=True)
    # dangling lines never dropped, even with drop_dangling: they cannot be told from prose (a
    # name without a link), head a block (an entry heading) or cite a source; see
    # IndexEntry.removable
    kept: tuple[str, ...] = ()
    # dangling lines pointed at where their file moved: (old target, new target)
    repointed: tuple[tuple[str, str], ...] = ()


def merge_index(
    old: str,
    headers: list[MemoryHeader],
    points_at: Callable[[str], str | None],
    *,
    drop_dangling: bool = False,
    describe: Callable[[MemoryHeader], str] | None = None,
) -> MergedIndex:
    """The index `old` with an entry added for each memory in `headers` that no line points at
    or names (a second link on a line, a backticked name in prose or a table: line_mentions).

    Every line of `old` is kept byte for byte: headings, prose, comments, and entry lines with
    their own titles and hooks. `points_at(target)` says what an entry's target is: the
    memory's filename (relative to the index, as in `headers`) when the file exists, "" when
    it is missing (a dangling line), None when it is not a memory of this scope (a URL, a
    file outside). Dangling lines are removed only with drop_dangling, and then only those an
    IndexEntry calls removable; the others are always kept, and listed in `kept`. An empty `old` becomes
    the plain rendered index, with no heading. `describe` gives the hook of an added memory
    with no description (see render_index); it is asked only for those.

    A repointable dangling line (IndexEntry.repointable: a cited one too) whose file moved
    (the one memory of its name elsewhere in the scope, `MovedFiles`, that no other line
    lists) is re-pointed there instead: the line as the person wrote it with only its target
    changed, listed in `repointed`. The dream plan
    does the same (`repoint_index_line`); without it the rebuild kept the dead line and added
    a generated one for the moved file, so the person's title and hook were left on nothing.
    An index in classic-Mac CR-only line ends is merged as LF text and given its CRs back.
    """
    if line_end_style(old) == "\r":  # one line to a split at '\n' (polish30)
        merged = _merged(as_lf(old), headers, points_at, drop_dangling, describe)
        return replace(merged, text=in_style(merged.text, "\r"))
    return _merged(old, headers, points_at, drop_dangling, describe)


def _merged(
    old: str,
    headers: list[MemoryHeader],
    points_at: Callable[[str], str | None],
    drop_dangling: bool,
    describe: Callable[[MemoryHeader], str] | None,
) -> MergedIndex:
    """merge_index of an index whose lines end in LF or CRLF."""
    if not old.strip():
        fresh = sorted(headers, key=_rebuild_order)
        return MergedIndex(render_index(fresh, describe), tuple(h.filename for h in fresh), (), ())
    out: list[str] = []
    dangling: list[str] = []
    dropped: list[str] = []
    kept: list[str] = []
    repointed: list[tuple[str, str]] = []
    lines, covered = _read_lines(old, points_at, headers)
    moved: MovedFiles | None = None  # made at the first dangling line
    for line, entry, found in lines:
        if entry is not None and found == "" and entry.repointable:
            moved = moved or MovedFiles(h.filename for h in headers)
            to = moved.find(entry.target)
            new_line = retarget_entry_line(line, to) if to and to not in covered else None
            if to and new_line is not None:  # its file moved: the line follows it
                covered.add(to)
                repointed.append((entry.target, to))
                out.append(new_line)
                continue
        if entry is not None and found == "":
            dangling.append(entry.target)
            if not entry.removable:
                kept.append(entry.target)
            elif drop_dangling:
                dropped.append(entry.target)
                continue
        out.append(line)
    missing = sorted((h for h in headers if h.filename not in covered), key=_rebuild_order)
    text = "\n".join(out)
    if missing:  # where added lines go: the one rule the dream's added lines follow too
        text = with_added_lines(text, render_index(missing, describe), line_end_style(old))
    return MergedIndex(
        text,
        tuple(h.filename for h in missing),
        tuple(dangling),
        tuple(dropped),
        tuple(kept),
        tuple(repointed),
    )


def _read_lines(
    old: str, points_at: Callable[[str], str | None], headers: list[MemoryHeader]
) -> tuple[list[tuple[str, IndexEntry | None, str | None]], set[str]]:
    """Each line of old with its entry and what the entry points at (both None on a line that
    is never loaded, frontmatter or a block comment, or is code in a fenced block), and every
    file the other lines list, by their entries or by a name besides (line_mentions). A `[[name]]` line with no file of
    that stem points at the memory its name finds (wiki_entry_memory)."""
    read: list[tuple[str, IndexEntry | None, str | None]] = []
    covered: set[str] = set()
    names: LinkTargets | None = None  # made at the first `[[name]]` line with no file
    prose = entry_line_flags(old)
    lines = old.split("\n")
    for no, line in enumerate(lines, start=1):
        if not prose[no - 1]:
            read.append((line, None, None))
            continue
        entry = parse_entry_line(line.rstrip("\r"), no)
        found = points_at(entry.target) if entry is not None else None
        if found == "" and entry is not None and entry.wiki:
            names = names or LinkTargets((h.filename, "private", h.name) for h in headers)
            found = wiki_entry_memory(entry, names, "private") or ""
        if entry is not None and not found and not entry.linked:
            nested = nested_target(lines, no, entry.target)  # a folder's file listed under it
            found = (points_at(nested) if nested else None) or found
        if found:
            covered.add(found)
        covered.update(f for f in map(points_at, line_mentions(line.rstrip("\r"))) if f)
        read.append((line, entry, found))
    return read, covered


def with_added_lines(text: str, rendered: str, end: str | None = None) -> str:
    """An index with rendered (entry lines, each ending in a line end) added where a tool adds
    lines: the one rule of rebuild-index's missing entries and the dream's (index37). An index
    holding nothing but blank lines becomes rendered (a plain index); any other gets them at
    the end of its REBUILD_HEADING section, the heading added at the end when there is none,
    so an added line never lands inside a section a person wrote (under their `## TODO`,
    after their table). No line of text moves or changes. A comment or code block left open
    at the end is closed first (a line added inside it would never be loaded, or be code, and
    the next rebuild would add it again); lines end in end, by default as text's do
    (line_end_style; a rebuild passes its old index's, of which only dropped lines may be left)."""
    style = line_end_style(text) if end is None else end
    if not text.strip():
        return in_style(rendered, style)
    lines = as_lf(text).split("\n")
    if closer := block_left_open(as_lf(text)):
        lines.insert(len(lines) - 1 if lines[-1] == "" else len(lines), closer)
    return in_style(_with_added_entries(lines, rendered), style)


def _with_added_entries(lines: list[str], rendered: str) -> str:
    """lines joined, with the rendered entries at the end of the REBUILD_HEADING section (made if absent)."""
    new = rendered.rstrip("\n").split("\n")
    prose = entry_line_flags("\n".join(lines))  # a `#` line in a code block is no heading
    heading = next(
        (
            i
            for i, ln in enumerate(lines)
            if prose[i] and ln.rstrip("\r").strip() == REBUILD_HEADING
        ),
        None,
    )
    if heading is None:
        text = "\n".join(lines)
        if text and not text.endswith("\n"):
            text += "\n"
        if text.strip() and not text.endswith("\n\n"):
            text += "\n"
        return text + REBUILD_HEADING + "\n\n" + rendered
    end = next(
        (j for j in range(heading + 1, len(lines)) if prose[j] and lines[j].startswith("#")),
        len(lines),
    )
    at = end
    while at > heading + 1 and not lines[at - 1].strip():
        at -= 1
    if at == heading + 1:  # an empty section: a blank line under the heading first
        new = ["", *new]
    merged = lines[:at] + new + lines[at:]
    if end == len(lines) and at == len(lines):  # the file ended right after the last entry
        merged.append("")
    return "\n".join(merged)
