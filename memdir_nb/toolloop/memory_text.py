"""The memory tool's answers as text: the strings and edit rules of the API's memory tool.

The Claude API's client-side memory tool (`memory_20250818`) is answered by code on the client,
and the model is trained on the answers of the anthropic SDK's reference backend. This module
holds those answers (success texts, error texts, the numbered file view, the directory listing,
the str_replace snippet and the insert rule) as pure functions, so the memory dir backend in
memory_commands.py answers byte for byte as the reference does on well-formed memory files.
Nothing here touches the disk. See docs/memory_tool.md.
"""

from __future__ import annotations

import codecs
from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from memdir_nb.spec.constants import MEMORY_TOOL_ROOT
from memdir_nb.spec.quoted import shown_input, shown_problem, shown_text, shown_value
from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.taxonomy import TYPE_NAMES
from memdir_nb.spec.text import terminal_line

if TYPE_CHECKING:
    from memdir_nb.storage.link_report import LinksLeft

ROOT = MEMORY_TOOL_ROOT
MAX_VIEW_LINES = 999_999
LINE_NUMBER_WIDTH = len(str(MAX_VIEW_LINES))
# The most line numbers a refused str_replace lists (attack round 14): the reference lists one
# per occurrence, each found by counting the lines before it again (quadratic: a 1 MiB file of
# one repeated character held the store lock for minutes and answered with megabytes).
REPLACE_LINES_SHOWN = 100


class MemoryCommandError(Exception):
    """A command the tool refuses; its text goes to the model as an error tool_result."""

    def __init__(self, message: str) -> None:
        super().__init__(shown_problem(message))  # a path the model sent is in it (attack38)


# The commands the model may send (memory_20250818), in the order the API's documentation lists.
COMMANDS = ("view", "create", "str_replace", "insert", "delete", "rename")

# --- the reference's texts ------------------------------------------------------------------


def must_start_with_root(path: object) -> MemoryCommandError:
    """The reference's refusal of a path outside /memories, the path quoted cut (shown_input):
    a 1 MB path, list or object came back whole (attack38)."""
    return MemoryCommandError(f"Path must start with {ROOT}, got: {shown_input(path)}")


def unknown_command(name: object) -> MemoryCommandError:
    """The reference's "Unknown command: X" (raised there as NotImplementedError, so the model
    read `NotImplementedError('Unknown command: X')`), with the commands there are (fresh36)."""
    known = ", ".join(COMMANDS[:-1]) + f" and {COMMANDS[-1]}"
    if name is None:
        return MemoryCommandError(f"The command has no 'command' field; give one of {known}")
    shown = terminal_line(shown_value(name))
    return MemoryCommandError(f"Unknown command: {shown}; the memory tool's commands are {known}")


# What each path-like field holds, for a command sent without it (fresh36: a `create` with no
# `path` was "Path must start with /memories, got: None", a `rename` without `new_path` too).
FIELD_WORDS = {
    "path": f"the {ROOT}/... path it acts on",
    "old_path": f"the {ROOT}/... path to rename",
    "new_path": f"the {ROOT}/... path to rename it to",
    "insert_line": "the line to insert after, 0 for the top of the file",
}


def missing_field(command: str, field: str) -> MemoryCommandError:
    """A command sent without a field it needs: named, with what it holds."""
    return MemoryCommandError(f"{command} needs {field} ({FIELD_WORDS[field]})")


def would_escape(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"Path {path} would escape {ROOT} directory")


def does_not_exist_valid(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"The path {path} does not exist. Please provide a valid path.")


def does_not_exist(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"The path {path} does not exist")


def not_a_file(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"The path {path} is not a file.")


def already_exists(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"File {path} already exists")


def destination_exists(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"The destination {path} already exists")


def unsupported_type(path: str) -> MemoryCommandError:
    return MemoryCommandError(f"Unsupported file type for {path}")


CANNOT_DELETE_ROOT = f"Cannot delete the {ROOT} directory itself"
CANNOT_RENAME_ROOT = f"Cannot rename the {ROOT} directory itself"
ALL_CLEARED = "All memory cleared"


def created(path: str) -> str:
    return f"File created successfully at: {path}"


def inserted(path: str) -> str:
    return f"The file {path} has been edited."


def deleted(path: str) -> str:
    return f"Successfully deleted {path}"


def renamed(old: str, new: str) -> str:
    return f"Successfully renamed {old} to {new}"


def links_left(left: LinksLeft, what: str) -> str:
    """The note after a delete or rename that left other memories' `[[name]]` links naming no
    memory: which files and links, to fix with str_replace (storage.link_report); "" when none."""
    if not left:
        return ""
    return f"\n\nNote: {left.message(what, prefix=ROOT + '/')} (str_replace edits a link)."


def name_changed(shown: str, name: str | None) -> str:
    """How a links note names a memory whose `name:` an edit changed to name (None: removed),
    the `what` of links_left."""
    now = f"now named {terminal_line(repr(name))}" if name else "now with no name:"
    return f"{shown}, {now},"


def not_utf8(shown: str, offset: int) -> str:
    return (
        f"{shown} is not valid UTF-8 text (byte {offset}); memory files are UTF-8 "
        "Markdown. Delete it and create it again as text."
    )


def decoded(data: bytes | memoryview, shown: str, *, cut: bool = False) -> str:
    """data as UTF-8 text, or the error naming the first byte that is not.

    cut: data is a file's first bytes, stopped by a read bound, so a character the bound
    split in two at its end is dropped, not taken for an invalid byte. A valid file whose
    first line ran past the bound was "not valid UTF-8 ... Delete it" (api39)."""
    try:
        return codecs.utf_8_decode(data, "strict", not cut)[0]
    except UnicodeDecodeError as exc:
        raise MemoryCommandError(not_utf8(shown, exc.start)) from exc


def folder_left(path: str, standing: bool) -> str:
    """The note for a folder a delete or rename emptied of its files but left standing: it
    holds a `.DS_Store` a Mac synced in, or a link to a folder (which a trash batch could not
    put back: restore writes memory names only). "deleted" alone was untrue (attack round 18)."""
    if not standing:
        return ""
    return (
        f"\n\nNote: {path} still holds items the memory tool does not move (hidden names such "
        "as .DS_Store, or links to folders), so the folder stays; the user can remove them by "
        "hand."
    )


# --- sizes, numbering, views ------------------------------------------------------------------


# A file written with no header: one line naming all it needs (lefts37b: the note listed "no
# frontmatter" and then the empty name, description and type it implies, three more lines
# saying the same thing).
NO_FRONTMATTER = (
    "it has no frontmatter: start it with a '---' line, then name:, description: and type: "
    f"lines (the type one of {', '.join(TYPE_NAMES)}), and a closing '---'"
)


def format_note(problems: Sequence[str], done: str, *, has_frontmatter: bool = True) -> str:
    """The note after a write's success text ('' when the file follows the format): each
    problem once, one a line (done: "saved", or "moved" for a rename)."""
    listed = list(dict.fromkeys(problems if has_frontmatter else (NO_FRONTMATTER, *problems)))
    if not listed:
        return ""
    lines = "\n".join(f"- {p}" for p in listed)
    return (
        f"\n\nNote: the file was {done}, but it does not yet follow the memory-file format "
        f"(fix it with str_replace):\n{lines}"
    )


def format_file_size(n: int) -> str:
    """'0B', '6B', '1K', '1.5K', '4K', '3.0M': powers of 1024, one decimal unless whole."""
    if n == 0:
        return "0B"
    i = min((n.bit_length() - 1) // 10, 3)
    size = n / (1024**i)
    unit = "BKMG"[i]
    return f"{int(size)}{unit}" if size == int(size) else f"{size:.1f}{unit}"


def numbered(lines: Sequence[str], start: int) -> str:
    """Lines numbered from start: the number right-aligned in six columns, a tab, the line."""
    return "\n".join(
        f"{str(i + start).rjust(LINE_NUMBER_WIDTH)}\t{line}" for i, line in enumerate(lines)
    )


def is_range(view_range: object) -> bool:
    """Whether `view` was given a range to show (two values; any other shape shows the file)."""
    return isinstance(view_range, list | tuple) and len(view_range) == 2


def range_bounds(view_range: object) -> tuple[int, int] | None:
    """(first, last) of a range as sent (last -1: the end), None for any other shape."""
    if not isinstance(view_range, list | tuple) or len(view_range) != 2:  # as is_range
        return None
    try:
        return int(view_range[0]), int(view_range[1])
    except (TypeError, ValueError, OverflowError) as exc:
        # OverflowError: a number JSON reads as infinity (1e400), which the SDK passes on
        # unchecked; it escaped as a crash of the call (attack round 29). The value is
        # quoted cut, as every value in a problem's text is (a model may send 1 MB).
        raise MemoryCommandError(
            f"view_range must be two line numbers [first, last] (last -1 for the end of "
            f"the file), got {shown_value(view_range)}"
        ) from exc


def shown_bytes(line: str) -> int:
    """What one line takes in a view's answer: its number, a tab, the line and a newline."""
    return LINE_NUMBER_WIDTH + 2 + len(line.encode())


class FileView(NamedTuple):
    """A file view's answer, and what the bound on one answer left out of it."""

    answer: str
    last: int | None  # the last line shown, when the lines asked for did not all fit
    shown: int  # bytes of the file's lines shown
    long_line: bool  # the one line shown is cut at the bound
    more: bool  # lines asked for follow the last line shown


def file_view(path: str, content: str, view_range: object, max_bytes: int) -> FileView:
    """The answer to `view` on a file: every line numbered (split on LF only), or a range,
    at most max_bytes of numbered lines.

    The bound counts what the answer holds, numbers included: 256 KiB of empty lines came
    back as 2 MiB of numbers (api39). The lines shown stop, whole, before the bound; a line
    longer than the bound on its own is shown cut at it (it came back whole, up to 1 MiB)."""
    if content.count("\n") >= MAX_VIEW_LINES:  # counted before a list of a million lines
        raise MemoryCommandError(
            f"File {path} exceeds maximum line limit of {MAX_VIEW_LINES:,} lines."
        )
    lines = content.split("\n")
    shown, start = lines, 1
    bounds = range_bounds(view_range)
    if bounds is not None:
        first, last = bounds
        begin = max(1, first) - 1
        end = len(lines) if last == -1 else last
        shown, start = lines[begin:end], begin + 1
    kept, size = 0, 0
    for line in shown:
        if size + shown_bytes(line) > max_bytes:
            break
        size += shown_bytes(line)
        kept += 1
    answer = f"Here's the content of {path} with line numbers:\n" + numbered(shown[:kept], start)
    text_bytes = size - kept * (LINE_NUMBER_WIDTH + 1)  # each line with its newline
    if kept == len(shown):
        return FileView(answer, None, text_bytes, False, False)
    if kept:
        return FileView(answer, start + kept - 1, text_bytes, False, True)
    room = max(max_bytes - shown_bytes(""), 0)
    head = codecs.utf_8_decode(shown[0].encode()[:room], "strict", False)[0]
    answer += numbered([head], start)
    return FileView(answer, start, len(head.encode()), True, len(shown) > 1)


def range_within(view_range: object, lines_read: int) -> bool:
    """Whether a range ends within the whole lines read, so a file cut after them loses
    nothing the range asked for. An end of -1 (or one past them) reaches beyond."""
    try:
        bounds = range_bounds(view_range)
    except MemoryCommandError:
        return False
    return bounds is not None and 0 <= bounds[1] <= lines_read


def view_note(path: str, view: FileView, max_bytes: int, size: int | None) -> str:
    """The note after a view the bound on one answer cut; size: the file's size when the
    read stopped before its end (it is said then, as before)."""
    if view.last is None:
        return ""
    rest = f"view_range [{view.last + 1}, -1]"
    if view.long_line:
        after = f" View the lines after it with {rest}." if view.more else ""
        return (
            f"\n\nNote: line {view.last:,} is longer than {max_bytes:,} bytes, the most the "
            f"memory tool shows at once; only its first {view.shown:,} bytes are shown. "
            f"Memory files should be short: split this one into topics.{after}"
        )
    what = f"{path} is {size:,} bytes; only" if size is not None else "Only"
    return (
        f"\n\nNote: {what} the first {view.shown:,} bytes of the lines asked for are shown "
        f"(lines up to {view.last:,}): the memory tool shows at most {max_bytes:,} bytes "
        f"at once, line numbers included. View the rest with {rest}."
    )


def range_unreadable(path: str, first: int, lines_read: int, size: int, cap: int) -> str:
    """The refusal of a range that begins past what the tool reads of a long file (api39):
    it had come back as the file's header over no lines at all."""
    said = f"{first:,}" if first <= MAX_VIEW_LINES else shown_value(first)  # 10**4000 was 5 KB
    return (
        f"Lines from {said} of {path} cannot be viewed: the file is {size:,} bytes and "
        f"the memory tool reads at most {cap:,} bytes of a file, which hold its lines 1 to "
        f"{lines_read:,}. Memory files should be short: view those lines, save what matters "
        "in short topic files, then delete this one (delete moves it to the trash)."
    )


def listing_view(path: str, root_size: int, items: Sequence[tuple[int, str]]) -> str:
    """The answer to `view` on a folder: the folder, then (size, relative path) per entry.

    Each path passes spec.shown_names.terminal_name: a name the name gate refuses (a newline,
    a bidi control, ESC) is shown with that character as an escape, on its own line. Listed
    raw, a teammate's `team/x\n54B\t/memories/team/...` forged entries, or instructions, in
    the listing the model reads (attack round 24). A backslash run before an escape, or before
    text that reads as one, is doubled, so a folder `dir<0xff>` and a folder `dir\\udcff` are
    two lines, not one line twice (attack36). The name gate leaves every name it accepts
    unchanged, so well-formed listings are still the reference's byte for byte."""
    header = (
        f"Here're the files and directories up to 2 levels deep in {path}, excluding hidden items:"
    )
    lines = [f"{format_file_size(root_size)}\t{path}"]
    lines.extend(f"{format_file_size(size)}\t{path}/{terminal_name(rel)}" for size, rel in items)
    return f"{header}\n" + "\n".join(lines)


# --- the edit rules ----------------------------------------------------------------------------


def replace_once(path: str, content: str, old: str, new: str) -> tuple[str, str]:
    """(new content, answer) for str_replace; refuses no match or several matches."""
    count = content.count(old)
    if count == 0:
        raise MemoryCommandError(
            f"No replacement was performed, old_str `{shown_text(old)}` did not appear verbatim "
            f"in {path}."
        )
    if count > 1:
        raise MemoryCommandError(
            f"No replacement was performed. Multiple occurrences of old_str `{shown_text(old)}` "
            "in lines: "
            f"{_occurrence_lines(content, old, count)}. Please ensure it is unique"
        )
    changed = content[: content.find(old)].count("\n")
    updated = content.replace(old, new)
    new_lines = updated.split("\n")
    first = max(0, changed - 2)
    last = min(len(new_lines), changed + 3)
    snippet = numbered(new_lines[first:last], first + 1)
    return updated, (
        "The memory file has been edited. Here is the snippet showing the change (with line "
        "numbers):\n" + snippet
    )


def _occurrence_lines(content: str, old: str, count: int) -> str:
    """The 1-based line of each occurrence of old (overlapping ones too, as the reference
    finds them), counted in one pass and listed up to REPLACE_LINES_SHOWN."""
    found: list[str] = []
    line, last = 1, 0
    pos = content.find(old)
    while pos != -1 and len(found) < REPLACE_LINES_SHOWN:
        line += content.count("\n", last, pos)
        found.append(str(line))
        last = pos
        pos = content.find(old, pos + 1)
    if pos != -1:  # count does not count overlapping occurrences, hence "at least"
        found.append(f"and more (at least {count:,} occurrences in all)")
    return ", ".join(found)


def insert_at(content: str, line: object, text: str) -> str:
    """The file after `insert`: text (trailing LFs dropped) before 0-based line `line`."""
    lines = content.split("\n")
    if lines[-1] == "":
        lines.pop()
    if not isinstance(line, int) or isinstance(line, bool) or line < 0 or line > len(lines):
        raise MemoryCommandError(
            f"Invalid `insert_line` parameter: {shown_input(line)}. It should be within the range "
            f"[0, {len(lines)}]."
        )
    lines.insert(line, text.rstrip("\n"))
    updated = "\n".join(lines)
    return updated if updated.endswith("\n") else updated + "\n"
