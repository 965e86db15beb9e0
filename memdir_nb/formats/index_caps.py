"""MEMORY.md as the loader reads it: what is stripped, the line and byte caps, the verdict.

Claude Code (2.1.211+) strips the YAML frontmatter and block-level HTML comments, then loads
at most MAX_ENTRYPOINT_LINES lines and MAX_ENTRYPOINT_BYTES "bytes" with a warning naming the
cap that fired (`truncate_entrypoint_content`). Its "bytes" are the trimmed text's
JavaScript `String.length`: UTF-16 code units (`cap_units`), one per character but two for a
character past U+FFFF. For ASCII text they are bytes; an index in Cyrillic, CJK or with an
em-dash on each line holds fewer of them than UTF-8 bytes, and Claude Code loads it whole
where a UTF-8 count would say it is cut. Every write path that edits an index tells
the writer where the result stands against those caps (`index_cap_verdict`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from memdir_nb.spec.constants import (
    ENTRYPOINT_NAME,
    FENCE,
    INDEX_NEAR_CAP_FRACTION,
    INDEX_REWRITE_TARGET_FRACTION,
    MAX_ENTRYPOINT_BYTES,
    MAX_ENTRYPOINT_LINES,
    MAX_HOOK_CHARS,
)
from memdir_nb.spec.text import as_lf, fence_change

__all__ = [
    "COMMENT_CLOSE",
    "EntrypointTruncation",
    "IndexCapVerdict",
    "StrippedEntrypoint",
    "block_left_open",
    "cap_units",
    "ends_in_open_comment",
    "entry_line_flags",
    "entrypoint_size",
    "format_size",
    "index_cap_verdict",
    "index_file_lines",
    "loaded_line_flags",
    "strip_entrypoint_extras",
    "truncate_entrypoint_content",
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
    def unloaded_line_count(self) -> int:
        """How many of the index's lines never reach the prompt (past the line or byte cap)."""
        return self.line_count - self.kept_line_count

    @property
    def stripped_anything(self) -> bool:
        """True when frontmatter or a block-level HTML comment was taken out before counting."""
        return bool(self.stripped_frontmatter or self.stripped_comments)


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


def cap_units(text: str) -> int:
    """The size Claude Code holds MEMORY.md's byte cap against: the text's UTF-16 code units
    (JavaScript's `String.length`, which its `byteCount` is). A character past U+FFFF (most
    emoji) is two, every other character one, whatever its UTF-8 length."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


# What JavaScript's String.prototype.trim takes off both ends (ECMA-262 WhiteSpace and
# LineTerminator): Claude Code counts and loads content.trim(). Python's str.strip differs: it
# also takes U+001C..U+001F and U+0085, and leaves U+FEFF (attack round 23: an index ending in
# 30,000 U+001C was "loaded whole" here, 30,017 units and cut in the CLI).
_JS_TRIM_CHARS = (
    "\t\n\v\f\r \xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + "\u2028\u2029\u202f\u205f\u3000\ufeff"
)


def _js_trim(text: str) -> str:
    """text.trim() as JavaScript does it (`_JS_TRIM_CHARS` off both ends)."""
    return text.strip(_JS_TRIM_CHARS)


def _cut_to_units(text: str, max_units: int) -> str:
    """Cut text to at most max_units UTF-16 code units at the last newline, as Claude Code
    does (`lastIndexOf('\\n', cap)`), else to the longest run of whole characters that fits."""
    if cap_units(text) <= max_units:
        return text
    # k: the most whole characters within the cap. Each character is one or two units, so
    # the first max_units characters are at least that many units; drop from their end.
    k = min(len(text), max_units)
    units = cap_units(text[:k])
    while units > max_units:
        k -= 1
        units -= 2 if ord(text[k]) > 0xFFFF else 1
    # A newline may stand at unit position max_units itself (lastIndexOf counts it).
    cut = text.rfind("\n", 0, k + 1)
    return text[:cut] if cut > 0 else text[:k]


@dataclass(frozen=True)
class StrippedEntrypoint:
    """MEMORY.md without what Claude Code (2.1.211+) strips before counting and loading it."""

    text: str  # what is counted against the caps and loaded
    frontmatter: str  # the leading YAML block, fences included ("" when none)
    comments: tuple[str, ...]  # each block-level HTML comment, as written
    # the file's 1-based line number of each line of text, as every other reader numbers the
    # file's lines (spec.text.as_lf): a lone CR in a file with LFs, where the loader ends a
    # line, stays inside its file line, so two lines of text may share a number
    line_map: tuple[int, ...]
    # the file line the frontmatter ends inside (its start is frontmatter, the rest loaded); 0
    # when the frontmatter ends with a whole line or there is none
    cut_line: int = 0
    comment_lines: tuple[int, ...] = ()  # the file line each of comments starts on

    @property
    def lines(self) -> list[str]:
        """The lines of text, one for each entry of line_map: none when nothing is loaded (an
        index that is all block comment or frontmatter), where "".split("\n") gives one empty
        line and a reader pairing the two with zip(strict=True) raised (attack round 29)."""
        return self.text.split("\n") if self.line_map else []

    @property
    def entry_lines(self) -> frozenset[int]:
        """The file lines whose index entries are loaded: the lines of text, but for the line
        the frontmatter ends inside, whose entry stands before the dashes that end it."""
        return frozenset(self.line_map) - {self.cut_line}


_COMMENT_OPEN = re.compile(r"^ {0,3}<!--")
_CODE_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _frontmatter_end(lines: list[str]) -> tuple[int, int]:
    r"""Where MEMORY.md's frontmatter ends, as Claude Code's pattern
    ``/^---\s*\n([\s\S]*?)---\s*\n?/`` ends it: (the line it ends in, the offset in that line
    where what is loaded begins), or (0, 0) when there is none. The first '---' after the
    opening line closes it wherever it stands, inside a line too, and the whitespace after it
    goes with it; a close that takes its whole line is (the next line, 0)."""
    if not lines or lines[0].rstrip() != FENCE:
        return 0, 0
    for i in range(1, len(lines)):
        at = lines[i].find(FENCE)
        if at < 0:
            continue
        rest = lines[i][at + len(FENCE) :]
        if not rest.strip():
            return i + 1, 0
        return i, at + len(FENCE) + len(rest) - len(rest.lstrip())
    return 0, 0


def loaded_line_flags(text: str) -> list[bool]:
    """For each line of text split at '\n', whether the loader keeps it (it is neither
    frontmatter nor inside a block-level HTML comment)."""
    return _kept_flags(text, strip_entrypoint_extras(text))


def _kept_flags(text: str, stripped: StrippedEntrypoint) -> list[bool]:
    kept = frozenset(stripped.line_map)
    return [no in kept for no in range(1, text.count("\n") + 2)]


def entry_line_flags(text: str) -> list[bool]:
    """For each line of text split at '\n', whether it can hold an index entry: the loader keeps
    it (loaded_line_flags) and it is prose, neither a fence line nor inside a fenced code block.

    The fence rule is the one of every Markdown reader here (spec.text.fence_change: links,
    lint's code lines, the date rewrite). A `[[x]]` or `- [t](x.md)` line in a ``` block is an
    example a person or a template wrote (`Link related memory with [[other-slug]]`), which
    the model reads as code: lint called it a dangling entry and the plan offered to drop it
    (§43). A fence left open runs to the end, as a Markdown reader runs it.
    """
    flags = loaded_line_flags(text)
    _fence_after(text, flags)
    return flags


def _fence_after(text: str, flags: list[bool]) -> str:
    """The run of the fenced block text ends inside ("" when none); flags (loaded_line_flags)
    set False on the fence lines and the lines inside a block."""
    fence = ""
    for no, line in enumerate(text.split("\n")):
        if not flags[no]:
            continue
        change = fence_change(line.rstrip("\r"), fence) if ("`" in line or "~" in line) else None
        if change is not None:
            fence = change
        if change is not None or fence:
            flags[no] = False
    return fence


# The line an edit adds to close a block comment left open to the end of an index, before the
# line it appends (the comment still ends where the text ended).
COMMENT_CLOSE = "-->"


def block_left_open(text: str) -> str:
    """The line that closes what text ends inside, for an edit to add before a line it appends
    (so that line is loaded, and read as an entry): COMMENT_CLOSE for a block comment left
    open, the opening run for a fenced code block left open; "" when text ends in neither.
    Without it the line appended was never loaded, or was code, and the next rebuild added it
    again."""
    if ends_in_open_comment(text):
        return COMMENT_CLOSE
    return _fence_after(text, loaded_line_flags(text))


def entry_flags_and_closer(text: str) -> tuple[list[bool], str]:
    """(entry_line_flags(text), block_left_open(text)) from one strip of text, not three
    (IndexText reads both of every index it parses; plan40)."""
    stripped = strip_entrypoint_extras(text)
    flags = _kept_flags(text, stripped)
    fence = _fence_after(text, flags)
    return flags, COMMENT_CLOSE if _open_comment(stripped.comments) else fence


def _file_line_numbers(lines: list[str], text: str) -> list[int]:
    """For each of the loader's lines (text split at every CR and LF), the file line it stands
    on as `spec.text.as_lf` numbers them: the same but in a file with LFs, where a lone CR
    ends a loader's line (a Markdown parser's rule) and no line of the file."""
    if "\n" not in text or "\r" not in text.replace("\r\n", ""):
        return list(range(1, len(lines) + 1))
    out: list[int] = []
    for no, line in enumerate(as_lf(text).split("\n"), start=1):
        out.extend([no] * (1 + line.count("\r")))
    return out


def ends_in_open_comment(text: str) -> bool:
    """Whether text ends inside a block-level HTML comment never closed: the loader drops
    everything from its `<!--` on, so a line appended after it would never be loaded."""
    return _open_comment(strip_entrypoint_extras(text).comments)


def _open_comment(comments: tuple[str, ...]) -> bool:
    if not comments:
        return False
    last = comments[-1]
    return "-->" not in last[last.find("<!--") + 4 :]


def strip_entrypoint_extras(raw: str) -> StrippedEntrypoint:
    """Take out MEMORY.md's YAML frontmatter and its block-level HTML comments.

    A block-level comment starts a line (up to three spaces in, as in CommonMark) with `<!--`
    and runs through the line holding the closing `-->`; the whole lines go. A comment inside
    a line of text, or inside a fenced code block, stays: it is part of what is loaded.
    """
    text = raw[1:] if raw.startswith("\ufeff") else raw
    # The loader ends a line at every CR, as a Markdown parser does (a lone CR too): its own
    # rule, not the file's lines (file_no maps its lines to those).
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    file_no = _file_line_numbers(lines, text)
    start, offset = _frontmatter_end(lines)
    frontmatter = lines[:start]
    if offset:  # closed inside this line: the part before goes with the frontmatter
        frontmatter.append(lines[start][:offset].rstrip())
        lines = [*lines[:start], lines[start][offset:], *lines[start + 1 :]]
    kept: list[str] = []
    line_map: list[int] = []
    comments: list[str] = []
    comment_lines: list[int] = []
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
            comment_lines.append(file_no[i])
            i = end + 1
            continue
        if opener is not None:
            mark = opener.group(1)
            if fence is None:
                fence = mark[0] * 3
            elif mark.startswith(fence):
                fence = None
        kept.append(line)
        line_map.append(file_no[i])
        i += 1
    return StrippedEntrypoint(
        text="\n".join(kept),
        frontmatter="\n".join(frontmatter),
        cut_line=file_no[start] if offset else 0,
        comments=tuple(comments),
        line_map=tuple(line_map),
        comment_lines=tuple(comment_lines),
    )


_FILE_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def index_file_lines(raw: str) -> list[str]:
    """MEMORY.md's lines as written, ends kept (for a diff): a line ends where the loader ends
    one (\n, \r\n or a lone \r), never at the other characters str.splitlines also breaks at
    (VT, FF, \x1c-\x1e, NEL, U+2028, U+2029), which the loader keeps inside a line."""
    return _FILE_LINE.findall(raw)


def counted_text(raw: str) -> str:
    """MEMORY.md's text as Claude Code counts it against the caps and loads it: frontmatter and
    block comments stripped, then JavaScript's trim. The one place that text is made: a figure
    beside the caps' (`memdir-nb index`'s UTF-8 size) is of this text, or it counts another
    one (attack round 24: Python's strip, an index ending in 30,000 U+FEFF was "20 units and
    90,023 bytes in UTF-8")."""
    return _js_trim(strip_entrypoint_extras(raw).text)


def counted_line_numbers(raw: str) -> tuple[int, ...]:
    """The file's 1-based line number of each line of `counted_text(raw)`, in order: where a
    line the caps keep or cut stands in MEMORY.md. Counted past what JavaScript's trim takes
    off the start, not Python's lstrip (attack round 24: an index opening with a U+001C line,
    or with a U+FEFF line, had every line past the caps named one line off)."""
    stripped = strip_entrypoint_extras(raw)
    lead = len(stripped.text) - len(stripped.text.lstrip(_JS_TRIM_CHARS))
    first = stripped.text[:lead].count("\n")
    text = _js_trim(stripped.text)
    return stripped.line_map[first : first + (text.count("\n") + 1 if text else 0)]


def entrypoint_size(raw: str) -> tuple[int, int]:
    """(lines, "bytes") of MEMORY.md as Claude Code counts them against the caps: its bytes
    are UTF-16 code units (`cap_units`)."""
    trimmed = counted_text(raw)
    return (len(trimmed.split("\n")) if trimmed else 0), cap_units(trimmed)


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
    trimmed = _js_trim(stripped.text)
    lines = trimmed.split("\n")
    line_count = len(lines) if trimmed else 0
    byte_count = cap_units(trimmed)

    was_line_truncated = line_count > max_lines
    kept = "\n".join(lines[:max_lines]) if was_line_truncated else trimmed
    after_lines = kept
    kept = _cut_to_units(kept, max_bytes)
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
    INDEX_NEAR_CAP_FRACTION of either cap but within both (the reminder of 2.1.186, from 80%
    since 2.1.212 at the latest). lines and bytes are counted as the loader counts them
    (frontmatter and block comments stripped; bytes in UTF-16 code units, `cap_units`).
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
        # only the cap passed is named: "over its cap of 200 lines and 25,000 bytes" for 8,869
        # bytes read as if both were passed (fresh36)
        passed = " and ".join(
            cap
            for cap, past in (
                (f"{MAX_ENTRYPOINT_LINES} lines", lines > MAX_ENTRYPOINT_LINES),
                (f"{MAX_ENTRYPOINT_BYTES:,} bytes", size > MAX_ENTRYPOINT_BYTES),
            )
            if past
        )
        message = (
            f"Error: {ENTRYPOINT_NAME} is over its read limit: it is {now}, over its cap of "
            f"{passed}, and only that much is loaded into a conversation. The write was kept. "
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
