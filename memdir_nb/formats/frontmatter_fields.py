"""A header's three core fields (name, description, type) by parse_frontmatter's rules, for a
whole-dir pass that reads nothing else of it (the consolidation planner).

parse_frontmatter also cuts the body out and builds the whole Frontmatter (its fields, lines
and problems): about a third of its cost on a three-line header. `core_header` takes the same
cut (frontmatter_window.header_span) and, where the fast path reads the header, the same fields
(frontmatter.core_fields); every other header goes through parse_frontmatter itself. So the
answer is always parse_frontmatter's (tests/unit/test_frontmatter_fields.py checks it).
"""

from __future__ import annotations

from memdir_nb.formats.frontmatter import core_fields, only_str_keys, parse_frontmatter
from memdir_nb.formats.frontmatter_fast import fast_parse
from memdir_nb.formats.frontmatter_window import _yaml_lines, header_span, header_window_problem
from memdir_nb.spec.constants import FRONTMATTER_MAX_LINES
from memdir_nb.spec.taxonomy import MemoryType

__all__ = ["core_header"]

CoreHeader = tuple[str | None, str | None, MemoryType | None, str | None]


def core_header(text: str, *, max_lines: int = FRONTMATTER_MAX_LINES) -> CoreHeader:
    """(name, description, type, raw_type) of parse_frontmatter(text)[0]."""
    _, lines, close = header_span(text, max_lines)
    if not lines:
        return None, None, None, None  # no header: Frontmatter()'s fields
    if close is not None:
        header_lines = _yaml_lines(lines[1:close])
        if header_window_problem(header_lines) is None:
            fast = fast_parse(header_lines)
            if isinstance(fast, dict) and only_str_keys(fast):
                name, description, raw_type, _, kind = core_fields(fast, header_lines, [])
                return name, description, kind, raw_type
    fm, _ = parse_frontmatter(text, max_lines=max_lines)
    return fm.name, fm.description, fm.type, fm.raw_type
