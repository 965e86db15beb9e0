"""Editing MEMORY.md's lines: one entry line put in place of a memory's old one (kept where a
person placed it, with their list marker) or appended, and a memory's entry lines taken out;
every other line kept as it was, line ends in the file's own style.

Reading lines is formats.index_lines; formats.index_batch makes many such edits in one pass.
"""

from __future__ import annotations

import re

from memdir_nb.formats.index_caps import COMMENT_CLOSE as COMMENT_CLOSE  # re-exported
from memdir_nb.formats.index_caps import block_left_open, entry_line_flags
from memdir_nb.formats.index_lines import norm_target, parse_entry_line
from memdir_nb.spec.text import as_lf, in_style, line_end_style


def split_keep_end(text: str) -> tuple[list[str], bool]:
    """Lines of text (CRLF and a CR-only file's CR ends made LF: as_lf), and whether it ended
    with a line end."""
    text = as_lf(text)
    ends = text.endswith("\n")
    body = text[:-1] if ends else text
    return (body.split("\n") if body else []), ends


_LIST_LEAD = re.compile(r"^(?P<lead>[ \t]*(?:[-*+\u2022]|\d+[.)])[ \t]+)")


def in_place_of(old_line: str, entry_line: str) -> str:
    """entry_line (a `- [Title](file.md)` line) as it replaces old_line: with old_line's indent
    and list marker, so an entry a person nested under another bullet, or numbered, stays where
    it stands in their list. A line that is no list item (a table row, a heading) gets the
    plain entry line, as before."""
    m = _LIST_LEAD.match(old_line)
    if m is None or not entry_line.startswith("- "):
        return entry_line
    return m.group("lead") + entry_line[2:]


def upsert_index_entry(text: str, entry_line: str, target: str) -> str:
    """Replace the entry line for target (dropping duplicates of it), or append one."""
    if "\n" in entry_line.strip("\n"):
        raise ValueError("an index entry must be a single line; use format_index_entry to build it")
    entry_line = entry_line.strip("\n")
    want = norm_target(target)
    lines, ends = split_keep_end(text)
    prose = entry_line_flags("\n".join(lines))
    out: list[str] = []
    replaced = False
    for no, line in enumerate(lines, start=1):
        # a line inside a comment or a code block is no entry: replacing it there would leave
        # the memory unloaded, or listed by a line of code
        entry = parse_entry_line(line, no) if prose[no - 1] else None
        if entry is not None and entry.target == want:
            if not replaced:
                out.append(in_place_of(line, entry_line))
                replaced = True
            continue
        out.append(line)
    if not replaced:
        if closer := block_left_open(text):  # a line after it would be unloaded or code
            out.append(closer)
        out.append(entry_line)
        ends = True
    return in_style("\n".join(out) + ("\n" if ends else ""), line_end_style(text))


def _split_entries(text: str, target: str) -> tuple[list[str], list[bool], bool]:
    """text's lines (LF), whether each is a loaded entry line for target, and whether text
    ended with a line end: what remove_index_entry drops and entry_lines_for keeps."""
    want = norm_target(target)
    lines, ends = split_keep_end(text)
    prose = entry_line_flags("\n".join(lines))
    hits = [
        prose[no - 1] and (entry := parse_entry_line(line, no)) is not None and entry.target == want
        for no, line in enumerate(lines, start=1)
    ]
    return lines, hits, ends


def remove_index_entry(text: str, target: str) -> str:
    """MEMORY.md text without the loaded entry line(s) for target; everything else kept as it
    was, a copy a person commented out (or left in the frontmatter) too: it is no entry."""
    lines, hits, ends = _split_entries(text, target)
    out = [line for line, hit in zip(lines, hits, strict=True) if not hit]
    if not out:
        return ""
    return in_style("\n".join(out) + ("\n" if ends else ""), line_end_style(text))


def entry_lines_for(text: str, target: str) -> list[str]:
    """The loaded entry line(s) for target as written (without their line ends): the very
    lines remove_index_entry drops, so a forget can keep them (storage.index_writes)."""
    lines, hits, _ends = _split_entries(text, target)
    return [line for line, hit in zip(lines, hits, strict=True) if hit]


def append_entry_lines(text: str, entry_lines: list[str]) -> str:
    """text with entry_lines added at its end as written, as upsert_index_entry adds a line
    for a memory the index does not list (a comment or code block left open closed first),
    line ends in text's style."""
    lines, _ends = split_keep_end(text)
    if closer := block_left_open(text):
        lines.append(closer)
    return in_style("\n".join([*lines, *entry_lines]) + "\n", line_end_style(text))
