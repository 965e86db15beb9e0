"""MEMORY.md, the index: entry lines, the size caps applied when it is loaded, and rebuilds.

MEMORY.md is a list of pointers, one line per memory: ``- [Title](file.md) — hook``. The
topic files are authoritative, but the index is also a page people write: headings, prose,
their own titles and hooks. A rebuild (`merge_index`) therefore keeps every line as written
and only adds the missing entries under a heading of its own (REBUILD_HEADING); dangling
lines go only when asked.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from memdir_nb.formats.manifest import MemoryHeader
from memdir_nb.formats.names import control_problem, is_memory_filename
from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    FENCE,
    INDEX_NEAR_CAP_FRACTION,
    INDEX_REWRITE_TARGET_FRACTION,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
)
from memdir_nb.spec.taxonomy import MEMORY_TYPES
from memdir_nb.spec.text import one_line

MAX_HOOK_CHARS = 150
NO_DESCRIPTION_HOOK = "(no description)"
ENTRY_DASH = "\u2014"  # the em dash between link and hook
REBUILD_HEADING = "## Added by rebuild-index"  # where a rebuild puts the entries it adds

__all__ = [
    "ENTRYPOINT_NAME",
    "MAX_ENTRYPOINT_BYTES",
    "MAX_ENTRYPOINT_LINES",
    "MAX_HOOK_CHARS",
    "REBUILD_HEADING",
    "EntrypointTruncation",
    "IndexCapVerdict",
    "IndexEntry",
    "MergedIndex",
    "StrippedEntrypoint",
    "entries_past_caps",
    "format_index_entry",
    "index_cap_verdict",
    "merge_index",
    "parse_index",
    "remove_index_entry",
    "strip_entrypoint_extras",
    "truncate_entrypoint_content",
    "upsert_index_entry",
]


@dataclass(frozen=True)
class EntrypointTruncation:
    """MEMORY.md as loaded into the prompt, with what was cut and why."""

    content: str
    line_count: int
    byte_count: int
    was_line_truncated: bool
    was_byte_truncated: bool
    kept_line_count: int
    warning: str
    # What Claude Code (2.1.211+) strips before counting and loading: the YAML frontmatter
    # block (fences included; "" when none) and each block-level HTML comment.
    stripped_frontmatter: str = ""
    stripped_comments: tuple[str, ...] = ()

    @property
    def stripped_anything(self) -> bool:
        """True when frontmatter or a block-level HTML comment was taken out before counting."""
        return bool(self.stripped_frontmatter or self.stripped_comments)


@dataclass(frozen=True)
class IndexEntry:
    """One pointer line of MEMORY.md."""

    line_no: int
    title: str
    target: str
    hook: str
    raw: str


# ---------------------------------------------------------------------------- truncation


def format_size(n_bytes: int) -> str:
    """A byte count for people: '812 bytes', '31.2 KB', '1.4 MB' (rounded up, decimal units)."""
    if n_bytes < 1000:
        return f"{n_bytes} bytes"
    if n_bytes < 1_000_000:
        # Rounded up so a size just over a limit never displays as equal to it.
        return f"{math.ceil(n_bytes / 100) / 10:.1f} KB"
    return f"{math.ceil(n_bytes / 100_000) / 10:.1f} MB"


def _limit_size(n_bytes: int) -> str:
    """The byte cap as people say it: 25,000 -> '25 KB'."""
    return f"{n_bytes / 1000:g} KB"


def _cut_to_bytes(text: str, max_bytes: int) -> str:
    """Cut text to at most max_bytes UTF-8 bytes at the last newline, else at a whole character."""
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    cut = data.rfind(b"\n", 0, max_bytes + 1)
    if cut > 0:
        return data[:cut].decode("utf-8")
    # One enormous line: keep the longest prefix that ends on a character boundary.
    return data[:max_bytes].decode("utf-8", errors="ignore")


@dataclass(frozen=True)
class StrippedEntrypoint:
    """MEMORY.md without what Claude Code (2.1.211+) strips before counting and loading it."""

    text: str  # what is counted against the caps and loaded
    frontmatter: str  # the leading YAML block, fences included ("" when none)
    comments: tuple[str, ...]  # each block-level HTML comment, as written
    line_map: tuple[int, ...]  # the original 1-based line number of each line of text


_COMMENT_OPEN = re.compile(r"^ {0,3}<!--")
_CODE_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _frontmatter_end(lines: list[str]) -> int:
    """The index of the line after a leading `---` ... `---` block, or 0 when there is none."""
    if not lines or lines[0].rstrip() != FENCE:
        return 0
    for i in range(1, len(lines)):
        if lines[i].rstrip() == FENCE:
            return i + 1
    return 0


def strip_entrypoint_extras(raw: str) -> StrippedEntrypoint:
    """Take out MEMORY.md's YAML frontmatter and its block-level HTML comments.

    A block-level comment starts a line (up to three spaces in, as in CommonMark) with `<!--`
    and runs through the line holding the closing `-->`; the whole lines go. A comment inside
    a line of text, or inside a fenced code block, stays: it is part of what is loaded.
    """
    text = raw[1:] if raw.startswith("\ufeff") else raw
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    start = _frontmatter_end(lines)
    kept: list[str] = []
    line_map: list[int] = []
    comments: list[str] = []
    fence: str | None = None
    i = start
    while i < len(lines):
        line = lines[i]
        opener = _CODE_FENCE.match(line)
        if fence is None and opener is None and _COMMENT_OPEN.match(line):
            end = i
            tail = line[line.index("<!--") + 4 :]
            while "-->" not in tail and end + 1 < len(lines):
                end += 1
                tail = lines[end]
            comments.append("\n".join(lines[i : end + 1]))
            i = end + 1
            continue
        if opener is not None:
            mark = opener.group(1)
            if fence is None:
                fence = mark[0] * 3
            elif mark.startswith(fence):
                fence = None
        kept.append(line)
        line_map.append(i + 1)
        i += 1
    return StrippedEntrypoint(
        text="\n".join(kept),
        frontmatter="\n".join(lines[:start]),
        comments=tuple(comments),
        line_map=tuple(line_map),
    )


def entrypoint_size(raw: str) -> tuple[int, int]:
    """(lines, bytes) of MEMORY.md as Claude Code counts them against the caps."""
    trimmed = strip_entrypoint_extras(raw).text.strip()
    return (len(trimmed.split("\n")) if trimmed else 0), len(trimmed.encode("utf-8"))


def truncate_entrypoint_content(
    raw: str,
    *,
    max_lines: int = MAX_ENTRYPOINT_LINES,
    max_bytes: int = MAX_ENTRYPOINT_BYTES,
) -> EntrypointTruncation:
    """Apply the line cap, then the byte cap, to MEMORY.md; append a warning naming what fired.

    Frontmatter and block-level HTML comments are stripped first (Claude Code 2.1.211+): they
    neither reach the prompt nor count toward the caps.
    """
    stripped = strip_entrypoint_extras(raw)
    trimmed = stripped.text.strip()
    lines = trimmed.split("\n")
    line_count = len(lines) if trimmed else 0
    byte_count = len(trimmed.encode("utf-8"))

    was_line_truncated = line_count > max_lines
    kept = "\n".join(lines[:max_lines]) if was_line_truncated else trimmed
    after_lines = kept
    kept = _cut_to_bytes(kept, max_bytes)
    was_byte_truncated = kept != after_lines

    if not (was_line_truncated or was_byte_truncated):
        return EntrypointTruncation(
            content=trimmed,
            line_count=line_count,
            byte_count=byte_count,
            was_line_truncated=False,
            was_byte_truncated=False,
            kept_line_count=line_count,
            warning="",
            stripped_frontmatter=stripped.frontmatter,
            stripped_comments=stripped.comments,
        )

    size, limit = format_size(byte_count), _limit_size(max_bytes)
    if was_line_truncated and was_byte_truncated:
        reason = f"{line_count} lines and {size} (limits: {max_lines} lines, {limit})"
    elif was_line_truncated:
        reason = f"{line_count} lines (limit: {max_lines})"
    else:
        reason = f"{size} (limit: {limit}) because index entries are too long"
    warning = (
        f"> WARNING: MEMORY.md is {reason}, so only part of it was loaded. "
        f"To fix it, keep each entry to one short line (about {MAX_HOOK_CHARS} characters) "
        "and move the detail into topic files."
    )
    kept_line_count = kept.count("\n") + 1 if kept else 0
    return EntrypointTruncation(
        content=f"{kept}\n\n{warning}",
        line_count=line_count,
        byte_count=byte_count,
        was_line_truncated=was_line_truncated,
        was_byte_truncated=was_byte_truncated,
        kept_line_count=kept_line_count,
        warning=warning,
        stripped_frontmatter=stripped.frontmatter,
        stripped_comments=stripped.comments,
    )


# ---------------------------------------------------------------------------- the cap verdict


@dataclass(frozen=True)
class IndexCapVerdict:
    """What a writing agent is told after a write leaves MEMORY.md at this size.

    over: past either cap (the write stands, but the index must be rewritten to about
    INDEX_REWRITE_TARGET_FRACTION of the caps; Claude Code 2.1.210+); near: at or past
    INDEX_NEAR_CAP_FRACTION of either cap but within both (the reminder of 2.1.186). lines and
    bytes are counted as the loader counts them (frontmatter and block comments stripped).
    """

    over: bool
    near: bool
    message: str | None
    lines: int
    bytes: int


def index_cap_verdict(text: str) -> IndexCapVerdict:
    """The one cap verdict for MEMORY.md text, shared by every write path that edits an index.

    Over either cap the write stands, but the writer is told the index is over its read limit
    and to rewrite it to about INDEX_REWRITE_TARGET_FRACTION of the cap; from
    INDEX_NEAR_CAP_FRACTION of either cap, a reminder. Counted as the loader counts.
    """
    lines, size = entrypoint_size(text)
    over = lines > MAX_ENTRYPOINT_LINES or size > MAX_ENTRYPOINT_BYTES
    near = not over and (
        lines >= INDEX_NEAR_CAP_FRACTION * MAX_ENTRYPOINT_LINES
        or size >= INDEX_NEAR_CAP_FRACTION * MAX_ENTRYPOINT_BYTES
    )
    caps = f"{MAX_ENTRYPOINT_LINES} lines and {MAX_ENTRYPOINT_BYTES:,} bytes"
    now = f"{lines} lines and {size:,} bytes"
    message: str | None = None
    if over:
        target_lines = int(INDEX_REWRITE_TARGET_FRACTION * MAX_ENTRYPOINT_LINES)
        target_bytes = int(INDEX_REWRITE_TARGET_FRACTION * MAX_ENTRYPOINT_BYTES)
        message = (
            f"Error: {ENTRYPOINT_NAME} is over its read limit: it is {now}, over its cap of "
            f"{caps}, and only that much is loaded into a conversation. The write was kept. "
            f"Rewrite {ENTRYPOINT_NAME} now to about {INDEX_REWRITE_TARGET_FRACTION:.0%} of the "
            f"cap (about {target_lines} lines and {target_bytes:,} bytes): one short line per "
            f"memory (about {MAX_HOOK_CHARS} characters), merge or drop stale entries, and keep "
            "the detail in the topic files."
        )
    elif near:
        message = (
            f"Reminder: {ENTRYPOINT_NAME} is {now}, close to its read limit of {caps} (only "
            "that much is loaded into a conversation). Keep each entry to one short line and "
            "prune stale entries before adding more."
        )
    return IndexCapVerdict(over=over, near=near, message=message, lines=lines, bytes=size)


# ---------------------------------------------------------------------------- entry lines

# An index line points at a topic file when it holds a markdown link to a .md file, or a
# backticked .md file name: whatever the list marker, a leading word ("See"), a './' prefix,
# a table cell or a heading above it. These two patterns are the one recogniser used by
# lint (not-in-index, dangling), analysis (in_index), the index report and the store.
# The title allows one level of nested [brackets] but no bare '[': from any '[' the title stops
# at the next unmatched bracket, so a line of 100,000 '[' is read in linear time.
_MD_LINK = re.compile(
    r"\[(?P<title>(?:\\.|[^\[\]\\]|\[(?:\\.|[^\[\]\\])*\])*)\]"
    r"\((?P<target><[^>\n]*>|[^()\s]*)(?:\s+\"[^\"\n]*\")?\)"
)
_TICKED_MD = re.compile(r"`(?P<target>[^`\s]+\.md)`", re.IGNORECASE)
_URL_SCHEME = re.compile(r"^[a-z][a-z0-9+.\-]*:", re.IGNORECASE)
_HOOK_LEAD = re.compile(r"^[\s\u2014\u2013:|*_)\]-]*")


def is_md_target(target: str) -> bool:
    """Whether a link target names a Markdown file (not a URL; an #anchor is ignored)."""
    path = _norm_target(target).split("#", 1)[0]
    if not path or _URL_SCHEME.match(path) or control_problem(path) is not None:
        return False
    # The last part must be a memory file name by the name gate (so `Notes.MD` and
    # `memory.md` are not pointers); folders may lead outside the dir, which lint reports.
    return is_memory_filename(path.rsplit("/", 1)[-1])


def _clean_title(title: str) -> str:
    """One line, with brackets turned into parentheses so the link syntax stays intact."""
    return one_line(title).replace("[", "(").replace("]", ")")


def shorten_hook(hook: str, max_chars: int = MAX_HOOK_CHARS) -> str:
    """One line of at most max_chars, cut on a word boundary with an ellipsis when longer."""
    text = " ".join(hook.split())
    if len(text) <= max_chars:
        return text
    room = text[: max_chars - 1]
    space = room.rfind(" ")
    if space > max_chars // 2:
        room = room[:space]
    return room.rstrip(" ,;:.-") + "\u2026"


def _format_target(target: str) -> str:
    """The link target, in <angle brackets> when it holds spaces or parentheses."""
    if not target or any(ch in target for ch in "\n\r<>"):
        raise ValueError(
            f"index link target {target!r} is empty or holds a newline or angle bracket; "
            "pass the memory file's path relative to the index, e.g. 'feedback_testing.md'"
        )
    if any(ch in target for ch in " ()\t"):
        return f"<{target}>"
    return target


def format_index_entry(title: str, target: str, hook: str) -> str:
    """'- [Title](file.md) — hook', with the hook cut to about MAX_HOOK_CHARS characters."""
    clean_title = _clean_title(title) or Path(target).stem
    line = f"- [{clean_title}]({_format_target(target)})"
    short = shorten_hook(hook)
    return f"{line} {ENTRY_DASH} {short}" if short else line


def _norm_target(target: str) -> str:
    """A link target compared loosely: no <>, no leading './'."""
    target = target.strip()
    if target.startswith("<") and target.endswith(">"):
        target = target[1:-1]
    while target.startswith("./"):
        target = target[2:]
    return target


def _parse_line(line: str, line_no: int) -> IndexEntry | None:
    """The entry on one line (its first .md link, else its first backticked .md name), or None."""
    for m in _MD_LINK.finditer(line):
        if is_md_target(m.group("target")):
            target = _norm_target(m.group("target"))
            return IndexEntry(
                line_no=line_no,
                title=m.group("title").replace("\\]", "]").replace("\\[", "["),
                target=target,
                hook=_hook_after(line, m.end()),
                raw=line,
            )
    ticked = next((t for t in _TICKED_MD.finditer(line) if is_md_target(t.group("target"))), None)
    if ticked is None or not _leads_the_line(line[: ticked.start()], line[ticked.end() :]):
        return None  # a file named in the middle of prose ("see `design.md` at the root")
    target = _norm_target(ticked.group("target"))
    return IndexEntry(
        line_no=line_no,
        title=Path(target).stem,
        target=target,
        hook=_hook_after(line, ticked.end()),
        raw=line,
    )


_LINE_LEAD = re.compile(r"^[\s>|#*+\-\u2022]*(?:\d+[.)]\s*)?")


_HOOK_START = re.compile(r"^\s*(?:$|[\u2014\u2013|:)(\]-]|\*\*)")


def _leads_the_line(before: str, after: str) -> bool:
    """Whether a backticked name is the line's pointer: it starts the content (after a list
    marker, a table pipe or a heading mark, and at most one leading word such as "See"), and a
    hook separator or the line's end follows ("Read `design.md` and follow it" is prose)."""
    rest = _LINE_LEAD.sub("", before).strip()
    lead_ok = len(rest.split()) <= 1 and not rest.endswith((",", ";"))
    return lead_ok and _HOOK_START.match(after) is not None


def _hook_after(line: str, end: int) -> str:
    """The text after an entry's link: separators before it and a table's closing pipe dropped."""
    return _HOOK_LEAD.sub("", line[end:]).strip().rstrip("|").strip()


def parse_index(text: str) -> list[IndexEntry]:
    """The pointer entries in MEMORY.md text; headings, prose and blank lines are ignored."""
    entries = []
    in_comment = False
    for no, line in enumerate(text.replace("\r\n", "\n").split("\n"), start=1):
        # An HTML comment (often an example entry left for the model) points at nothing.
        if in_comment or line.lstrip().startswith("<!--"):
            in_comment = "-->" not in line
            continue
        entry = _parse_line(line, no)
        if entry is not None:
            entries.append(entry)
    return entries


def _split_keep_end(text: str) -> tuple[list[str], bool]:
    """Lines of text, and whether it ended with a newline."""
    text = text.replace("\r\n", "\n")
    ends = text.endswith("\n")
    body = text[:-1] if ends else text
    return (body.split("\n") if body else []), ends


def upsert_index_entry(text: str, entry_line: str, target: str) -> str:
    """Replace the entry line for target (dropping duplicates of it), or append one."""
    if "\n" in entry_line.strip("\n"):
        raise ValueError("an index entry must be a single line; use format_index_entry to build it")
    entry_line = entry_line.strip("\n")
    want = _norm_target(target)
    lines, ends = _split_keep_end(text)
    out: list[str] = []
    replaced = False
    for no, line in enumerate(lines, start=1):
        entry = _parse_line(line, no)
        if entry is not None and entry.target == want:
            if not replaced:
                out.append(entry_line)
                replaced = True
            continue
        out.append(line)
    if not replaced:
        out.append(entry_line)
        ends = True
    return "\n".join(out) + ("\n" if ends else "")


def remove_index_entry(text: str, target: str) -> str:
    """MEMORY.md text without the entry line(s) for target; everything else kept as it was."""
    want = _norm_target(target)
    lines, ends = _split_keep_end(text)
    out = [
        line
        for no, line in enumerate(lines, start=1)
        if (entry := _parse_line(line, no)) is None or entry.target != want
    ]
    if not out:
        return ""
    return "\n".join(out) + ("\n" if ends else "")


# ---------------------------------------------------------------------------- files


def entries_past_caps(text: str) -> list[IndexEntry]:
    """The entries of MEMORY.md text that the loader's line and byte caps cut off (never seen)."""
    result = truncate_entrypoint_content(text)
    if not result.warning:
        return []
    # Truncation works on the text without frontmatter and block comments, with its leading
    # blank lines trimmed: map the lines it kept back to the file's own line numbers.
    stripped = strip_entrypoint_extras(text)
    lead = len(stripped.text) - len(stripped.text.lstrip())
    first = stripped.text[:lead].count("\n")
    seen = set(stripped.line_map[first : first + result.kept_line_count])
    loaded = set(stripped.line_map)
    return [e for e in parse_index(text) if e.line_no in loaded and e.line_no not in seen]


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


def render_index(headers: list[MemoryHeader]) -> str:
    """MEMORY.md text with one entry per header, sorted by type then title."""
    lines = [
        format_index_entry(
            h.name or Path(h.filename).stem,
            h.filename,
            h.description or NO_DESCRIPTION_HOOK,
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


def merge_index(
    old: str,
    headers: list[MemoryHeader],
    points_at: Callable[[str], str | None],
    *,
    drop_dangling: bool = False,
) -> MergedIndex:
    """The index `old` with an entry added for each memory in `headers` that no line points at.

    Every line of `old` is kept byte for byte: headings, prose, comments, and entry lines with
    their own titles and hooks. `points_at(target)` says what an entry's target is: the
    memory's filename (relative to the index, as in `headers`) when the file exists, "" when
    it is missing (a dangling line), None when it is not a memory of this scope (a URL, a
    file outside). Dangling lines are removed only with drop_dangling. An empty `old` becomes
    the plain rendered index, with no heading.
    """
    if not old.strip():
        fresh = sorted(headers, key=_rebuild_order)
        return MergedIndex(render_index(fresh), tuple(h.filename for h in fresh), (), ())
    out: list[str] = []
    covered: set[str] = set()
    dangling: list[str] = []
    in_comment = False
    for no, line in enumerate(old.split("\n"), start=1):
        if in_comment or line.lstrip().startswith("<!--"):
            in_comment = "-->" not in line
            out.append(line)
            continue
        entry = _parse_line(line.rstrip("\r"), no)
        found = points_at(entry.target) if entry is not None else None
        if entry is not None and found == "":
            dangling.append(entry.target)
            if drop_dangling:
                continue
        elif found:
            covered.add(found)
        out.append(line)
    missing = sorted((h for h in headers if h.filename not in covered), key=_rebuild_order)
    text = "\n".join(out)
    if missing and not text.strip():  # only dropped lines were there: a plain index again
        text = render_index(missing)
    elif missing:
        text = _with_added_entries(out, render_index(missing))
    return MergedIndex(
        text,
        tuple(h.filename for h in missing),
        tuple(dangling),
        tuple(dangling) if drop_dangling else (),
    )


def _with_added_entries(lines: list[str], rendered: str) -> str:
    """lines joined, with the rendered entries at the end of the REBUILD_HEADING section (made if absent)."""
    new = rendered.rstrip("\n").split("\n")
    heading = next(
        (i for i, ln in enumerate(lines) if ln.rstrip("\r").strip() == REBUILD_HEADING), None
    )
    if heading is None:
        text = "\n".join(lines)
        if text and not text.endswith("\n"):
            text += "\n"
        if text.strip() and not text.endswith("\n\n"):
            text += "\n"
        return text + REBUILD_HEADING + "\n\n" + rendered
    end = next((j for j in range(heading + 1, len(lines)) if lines[j].startswith("#")), len(lines))
    at = end
    while at > heading + 1 and not lines[at - 1].strip():
        at -= 1
    if at == heading + 1:  # an empty section: a blank line under the heading first
        new = ["", *new]
    merged = lines[:at] + new + lines[at:]
    if end == len(lines) and at == len(lines):  # the file ended right after the last entry
        merged.append("")
    return "\n".join(merged)
