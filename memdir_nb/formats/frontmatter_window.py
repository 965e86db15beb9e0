"""The header window: how many lines and bytes, and how deep, a header may be before YAML sees it.

Every YAML parse of a memory header goes through `header_window_problem` first. libyaml
recurses once per nesting level, so a few thousand ``[`` would crash the process (issue 18);
`yaml_nesting_depth` bounds the depth in one linear pass, and returns at once for the flat
headers most memories have.
"""

from __future__ import annotations

import re

from memdir_nb.spec.constants import (
    FENCE,
    FRONTMATTER_MAX_BYTES,
    FRONTMATTER_MAX_LINES,
    YAML_MAX_DEPTH,
)
from memdir_nb.spec.lazy_regex import compiled_on_first_use
from memdir_nb.spec.text import as_lf

__all__ = [
    "header_block_end",
    "header_span",
    "header_window_problem",
    "normalise_newlines",
    "yaml_nesting_depth",
]

_FLOW_OPEN = frozenset("[{")
_FLOW_CLOSE = frozenset("]}")
_BLOCK_ENTRY = compiled_on_first_use(r"(?:[-?:][ \t]+)+")
_ENTRY_INDICATOR = compiled_on_first_use(r"[-?:](?=[ \t])")
_FLOW_CHAR = re.compile(r"[\[\]{}]")
_NOT_FLAT_STARTS = (" ", "-", "?", ":")
_LINE_STARTS_ENTRY = re.compile(r"\n[ \-?:]")  # a '\n' is found fast: a literal start


def _is_flat(block: str) -> bool:
    """Whether no line of block starts with ' ', '-', '?' or ':' and no bracket is in it."""
    return not (
        block[:1] in _NOT_FLAT_STARTS
        or _LINE_STARTS_ENTRY.search(block) is not None
        or "[" in block
        or "]" in block
        or "{" in block
        or "}" in block
    )


def yaml_nesting_depth(block: str) -> int:
    """An upper bound on how deep a YAML block nests, in one linear pass over its characters.

    Block nesting is the stack of indentation levels plus compact entries on one line
    (``- - - x``, ``? ? x``); flow nesting is every ``[`` or ``{`` not yet closed (brackets
    inside quoted strings count too, so the bound can only be too high, never too low).
    """
    lines = block.split("\n")
    if _is_flat(block):
        # No bracket, and no line starting with a space or an entry indicator: every line
        # that counts opens one level at column 0, and no line goes deeper.
        for line in lines:
            if line.strip() and line[0] != "#":
                return 1
        return 0
    indents: list[int] = []
    flow = deepest = 0
    for line in lines:
        stripped = line.lstrip(" ")
        if not stripped.strip() or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        if flow == 0:
            while indents and indents[-1] >= indent:
                indents.pop()
            indents.append(indent)
        # Only a line starting with '-', '?' or ':' can open compact entries, and only a line
        # holding a bracket changes the flow depth: other lines skip both steps (same result).
        lead = _BLOCK_ENTRY().match(stripped) if stripped[0] in "-?:" else None
        compact = len(_ENTRY_INDICATOR().findall(lead.group(0))) if lead else 0
        if _FLOW_CHAR.search(stripped) is not None:
            for ch in stripped:
                if ch in _FLOW_OPEN:
                    flow += 1
                    deepest = max(deepest, len(indents) + compact + flow)
                elif ch in _FLOW_CLOSE and flow:
                    flow -= 1
        deepest = max(deepest, len(indents) + compact + flow)
    return deepest


def header_window_problem(lines: list[str]) -> str | None:
    """Why header lines are too big or too deep to hand to the YAML parser, else None.

    Every YAML parse of a header goes through this check: the header window
    (FRONTMATTER_MAX_LINES lines, FRONTMATTER_MAX_BYTES bytes) and YAML_MAX_DEPTH levels of
    nesting. libyaml recurses once per level, so a few thousand ``[`` crash the process.
    """
    if len(lines) > FRONTMATTER_MAX_LINES:
        return f"the header is {len(lines)} lines, over the {FRONTMATTER_MAX_LINES}-line window"
    block = "\n".join(lines)
    # every line's UTF-8 bytes and its line break: the joined block's bytes and one more
    size = (len(block) if block.isascii() else len(block.encode("utf-8", "surrogatepass"))) + 1
    if size > FRONTMATTER_MAX_BYTES and lines:
        return f"the header is {size:,} bytes, over the {FRONTMATTER_MAX_BYTES:,}-byte window"
    depth = yaml_nesting_depth(block)
    if depth > YAML_MAX_DEPTH:
        return f"the header nests {depth} levels deep, over the limit of {YAML_MAX_DEPTH}"
    return None


# ---------------------------------------------------------------------------- the cut


def normalise_newlines(text: str) -> str:
    """Strip a byte-order mark and give the text LF line ends by the one rule, `spec.text.as_lf`
    (CRLF and a CR-only file's CRs become LF; a lone CR in a file that has LFs stays inside its
    line, as Claude Code's line reader, which splits at '\n', keeps it)."""
    if text.startswith("\ufeff"):
        text = text[1:]
    return as_lf(text) if "\r" in text else text


def _yaml_lines(lines: list[str]) -> list[str]:
    """Header lines as YAML reads them: YAML ends a line at a lone CR too (Claude Code's parser
    does), so a header line holding one is two lines to it."""
    if not any("\r" in line for line in lines):
        return lines
    return [piece for line in lines for piece in line.split("\r")]


def header_span(text: str, max_lines: int) -> tuple[str, list[str], int | None]:
    """parse_frontmatter's cut of a memory file: (the text with LF line ends; its first
    max_lines lines and then the rest, [] when it has no header; the closing fence's line)."""
    text = normalise_newlines(text)
    first_nl = text.find("\n")
    if (text if first_nl < 0 else text[:first_nl]).rstrip() != FENCE:
        return text, [], None
    lines = text.split("\n", max_lines)
    window = min(len(lines), max_lines)
    try:
        close: int | None = lines.index(FENCE, 1, window)
    except ValueError:  # maybe a fence with trailing spaces
        close = next((i for i in range(1, window) if lines[i].rstrip() == FENCE), None)
    return text, lines, close


def header_block_end(text: str, max_lines: int = FRONTMATTER_MAX_LINES) -> int:
    """Where a memory file's body starts in its text as written: just after the line end of the
    line that closes its header by header_span's cut (so a file kept on Windows, with CRLF line
    ends, or one opening with a byte order mark, is cut where parse_frontmatter cuts it); 0 when
    the file has no closed header. Edits that keep the header as written split here (real35:
    the dream read a CRLF file's header as body and rewrote its description)."""
    if text.startswith("---\n") and "\r" not in text:
        # The common shape, cut as below without splitting the text into lines: with no CR and
        # no byte order mark the text is as header_span reads it, and the first "\n---\n" after
        # the opening fence ends the first line that is the fence exactly (a fence with trailing
        # spaces counts only when no exact one is in the window; a fence ending the text has no
        # line end after it). Past the window, or with neither, the general cut decides.
        fence = text.find("\n---\n", 3)
        if fence != -1 and text.count("\n", 0, fence + 1) < max_lines:
            return fence + 5
    _, lines, close = header_span(text, max_lines)
    if not lines or close is None:
        return 0
    sep = "\n" if "\n" in text else "\r"  # a file with no LF at all breaks its lines at CRs
    pos = 0
    for _ in range(close + 1):
        pos = text.find(sep, pos) + 1
        if pos == 0:  # the closing fence is the last line, with no line end after it
            return len(text)
    return pos
