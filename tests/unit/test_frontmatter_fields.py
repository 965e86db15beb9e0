"""Rules of memdir_nb.formats.frontmatter_fields: a header's three core fields are the ones
parse_frontmatter gives, whichever path reads the header."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.frontmatter_fields import core_header


def _parsed(text: str) -> tuple[object, ...]:
    fm, _ = parse_frontmatter(text)
    return fm.name, fm.description, fm.type, fm.raw_type


HEADERS = [
    "---\nname: a\ndescription: the hook\ntype: project\n---\nbody\n",  # the fast path
    "---\nname: a\ndescription: hook\ntype: Project \n---\n",  # the type's case and blanks
    "---\nname: a\ndescription: hook\ntype: projekt\n---\nbody",  # an unknown type
    "---\nname: a\nmetadata:\n  type: feedback\n---\nbody",  # the type nested
    "---\nname: a\ntype: user\nmetadata:\n  type: feedback\n---\n",  # the top one wins
    "---\nname: 12\ndescription: 2024-01-02\ntype: true\n---\n",  # not text: the literal line
    "---\nname: [a, b]\ndescription: {x: 1}\n---\n",  # not text at all: None
    "---\nname: '  quoted  '\ndescription: \"double\"\ntype: reference\n---\n",
    "---\nname:\ndescription:   \ntype: project\n---\n",  # empty values
    "---\ndescription: Release steps: tag, build\ntype: project\n---\n",  # YAML refuses ': '
    "---\nname: a # a comment\ndescription: b #c\n---\n",  # inline ' #'
    "---\nname: a\ndescription: >\n  folded\n  text\ntype: project\n---\n",  # YAML's path
    "---\nname: &x a\ndescription: *x\n---\n",  # an alias: recovered line by line
    "---\nname: a\ndescription: never closed\ntype: project\n",  # no closing fence
    "---\n" + "".join(f"k{i}: v\n" for i in range(40)) + "name: late\n---\n",  # past the window
    "---  \nname: a\n---   \nbody",  # fences with trailing blanks
    "\ufeff---\r\nname: crlf\r\ndescription: d\r\ntype: user\r\n---\r\nbody\r\n",  # BOM, CRLF
    "---\rname: cr only\rtype: user\r---\rbody",  # CR-only line ends
    "---\nname: a\rdescription: lone CR\n---\n",  # a lone CR inside a header line
    "---\n---\nbody",  # an empty header
    "---\n- a\n- b\n---\n",  # a list, not a mapping
    "---\nname: [[[[\n---\n",  # an unclosed flow
    "no header\n---\nname: a\n---\n",  # a fence that is not on the first line
    "",
    "---",
]


@pytest.mark.parametrize("text", HEADERS)
def test_core_header_gives_the_fields_parse_frontmatter_gives(text: str) -> None:
    assert core_header(text) == _parsed(text)


def test_core_header_keeps_parse_frontmatters_line_window() -> None:
    text = "---\n" + "".join(f"k{i}: v\n" for i in range(5)) + "name: a\n---\n"
    for max_lines in (3, 7, 8, 30):
        fm, _ = parse_frontmatter(text, max_lines=max_lines)
        assert core_header(text, max_lines=max_lines) == (fm.name, fm.description, fm.type, None)


_VALUE = st.one_of(
    st.sampled_from(["project", "user", "x: y", "'q'", '"d"', "[a]", "1", "no", "a #b", ""]),
    st.text(st.characters(codec="utf-8"), max_size=12),
)
_KEY = st.sampled_from(["name", "description", "type", "metadata", "other", "  type", "- x"])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(_KEY, _VALUE), max_size=6), st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_header_gets_parse_frontmatters_fields(pairs: list[tuple[str, str]], end: str) -> None:
    text = end.join(["---", *(f"{k}: {v}" for k, v in pairs), "---", "body"])
    assert core_header(text) == _parsed(text)
