"""The name gate: which file names are memory files, and why a name is refused.

One rule, used by every route that lists, reads, writes or links a memory file: scan, the index
(a link's target), the store, lint, the extraction sandbox and its tools, the memory tool and
archive import. A name is one path component; a relative path is gated component by component.

A memory file name:
- is valid text (a name that is not UTF-8 on disk arrives from ``os.fsdecode`` holding lone
  surrogates, and is refused);
- is at most ``NAME_MAX_BYTES`` (255) bytes long, as the filesystem allows;
- holds no C0 or C1 control character, no DEL, and no bidirectional control (which can make a
  name display as another), no zero-width space, word joiner or BOM (invisible, so the name
  shows as another), no slash, backslash or NUL;
- holds no angle bracket, `<` or `>` (an index line's Markdown link cannot point at such a
  file, so one such name made rebuild-index and dream fail for the whole dir);
- does not start with a dot (hidden files and the store's own files are never memories);
- ends in ``.md`` (lower case, as Claude Code's scan matches it) and is more than ``.md``;
- is not the index, ``MEMORY.md``, in any letter case.
"""

from __future__ import annotations

from functools import lru_cache

from memdir_nb.spec.constants import ENTRYPOINT_NAME, NAME_MAX_BYTES
from memdir_nb.spec.text import first_unsafe_char

MEMORY_SUFFIX = ".md"


# Zero-width characters with no use in a name: each shows as nothing, so `user_a<ZWSP>.md`
# displays exactly as `user_a.md` (joiners, U+200C/U+200D, stay: scripts and emoji need them).
INVISIBLE_IN_NAMES = frozenset("\u200b\u2060\ufeff\u180e")


def control_problem(text: str) -> str | None:
    """Why text cannot be a name on screen: a control, DEL, bidi control or invalid UTF-8, else None."""
    ch = first_unsafe_char(text)
    if ch is None:
        if text.isascii() or INVISIBLE_IN_NAMES.isdisjoint(text):  # one C-level pass per name
            return None
        hidden = next(c for c in text if c in INVISIBLE_IN_NAMES)
        return (
            f"holds the invisible character U+{ord(hidden):04X}, which makes a name display "
            "as another"
        )
    code = ord(ch)
    if 0xD800 <= code <= 0xDFFF:
        return "is not valid UTF-8"
    if code > 0x9F:
        return f"holds the bidirectional control U+{code:04X}, which can make a name display as another"
    return f"holds the control character U+{code:04X}"


def link_problem(name: str) -> str | None:
    """Why a name cannot be an index link's target (an angle bracket), else None."""
    if "<" in name or ">" in name:
        return (
            "holds an angle bracket ('<' or '>'), which an index link cannot point at; "
            "rename it without them"
        )
    return None


def folder_problem(name: str) -> str | None:
    """Why a folder name cannot hold memory files (a bad component or an angle bracket), else None.

    The one folder rule of every route that lists, writes, moves or unpacks folders: a memory
    inside a folder named with '<' or '>' can never be an index link's target either.
    """
    return component_problem(name) or link_problem(name)


def component_problem(name: str) -> str | None:
    """Why one path component is refused anywhere in a memory dir (folders included), else None."""
    if not name:
        return "is empty"
    if name in (".", ".."):
        return "is a relative step ('.' or '..'), not a name"
    if "/" in name or "\\" in name:
        return "holds a slash or backslash; give one name, not a path"
    if "\0" in name:
        return "holds a NUL byte"
    size = len(name.encode("utf-8", "surrogateescape"))
    if size > NAME_MAX_BYTES:
        return (
            f"is {size} bytes long; a name holds at most {NAME_MAX_BYTES} bytes, use a shorter name"
        )
    return control_problem(name)


# A pure function of the name, asked twice per file of every scan (once to report a refused name,
# once to keep a memory): remembered, a warm recall's listing of 200 files costs about 1 ms less.
@lru_cache(maxsize=8192)
def name_problem(name: str) -> str | None:
    """Why a file name is not a memory file name, in words that name the rule; None when it is one."""
    problem = component_problem(name) or link_problem(name)
    if problem:
        return problem
    if name.startswith("."):
        return "starts with a dot, so it is hidden and never scanned"
    if not name.endswith(MEMORY_SUFFIX) or name == MEMORY_SUFFIX:
        return (
            "does not end in .md (memory files are Markdown files named like feedback_testing.md)"
        )
    if is_index_name(name):
        return f"is the index ({ENTRYPOINT_NAME}), not a memory"
    return None


def is_index_name(name: str) -> bool:
    """Whether a file name is the index, MEMORY.md, in any letter case."""
    return name.casefold() == ENTRYPOINT_NAME.casefold()


def is_memory_filename(name: str) -> bool:
    """Whether a file name passes the name gate."""
    return name_problem(name) is None


def relative_path_problem(relative: str) -> str | None:
    """Why a '/'-separated path inside a memory dir cannot name a memory file, else None.

    Folders must be valid components and not hidden; the last part must pass the name gate.
    """
    parts = relative.split("/")
    for folder in parts[:-1]:
        problem = folder_problem(folder)
        if problem:
            return f"folder {folder!r} {problem}"
        if folder.startswith("."):
            return f"folder {folder!r} is hidden (starts with a dot), so nothing in it is scanned"
    problem = name_problem(parts[-1])
    return f"{parts[-1]!r} {problem}" if problem else None
