"""Rules of memdir_nb.formats.frontmatter_fast: the headers read without YAML read as YAML reads them."""

from __future__ import annotations

import datetime as dt
import uuid

import pytest
import yaml
from hypothesis import given, settings
from hypothesis import strategies as st

from memdir_nb.formats import frontmatter
from memdir_nb.formats.frontmatter import parse_frontmatter
from memdir_nb.formats.frontmatter_fast import fast_parse
from memdir_nb.spec.timestamps import modified_time_ms

# ---------------------------------------------------------------- fast path agrees with YAML


@pytest.mark.parametrize(
    "line",
    [
        "name: plain words",
        "name: it's got 'quotes' and \"more\"",
        "name: 'single: quoted'",
        'name: "double quoted"',
        "name: ünïcödé — dash",
        "name: a#b",
        "name:",
        "# a comment",
        "",
        "name: trailing spaces   ",
        "name:    many leading spaces",
        "name: a:b and c#d",
    ],
)
def test_fast_path_matches_yaml_when_it_answers(line: str) -> None:
    fast = fast_parse([line])
    assert fast is not None
    assert fast == (yaml.safe_load(line) or {})


@pytest.mark.parametrize(
    "line",
    [
        "name: yes",
        "name: 12",
        "name:   0",
        "name: a: b",
        "name: x # c",
        "name: [1]",
        "on: x",
        "name: -x",
        "name: \tx",
        "name:  'q'x",
    ],
)
def test_fast_path_declines_what_yaml_reads_differently(line: str) -> None:
    assert fast_parse([line]) is None


@settings(max_examples=300, deadline=None)
@given(
    st.text(
        alphabet=st.characters(codec="utf-8", blacklist_characters="\n\r"),
        max_size=40,
    )
)
def test_fast_path_never_disagrees_with_yaml(value: str) -> None:
    line = f"name: {value}"
    fast = fast_parse([line])
    if fast is None:
        return
    assert fast == yaml.safe_load(line)


# ---------------------------------------------------------------- Claude Code's newer headers

NEWER = [
    "name: deploy-checklist",
    'description: "Steps the team follows before a production deploy"',
    "metadata:",
    "  node_type: memory",
    "  type: project",
    "  originSessionId: 3f2a9c1e-4b5d-4e6f-8a7b-9c0d1e2f3a4b",
]


@pytest.mark.parametrize(
    "lines",
    [
        NEWER,
        ["name: a", "metadata: ", "  type: feedback"],  # a trailing space after the key
        ["metadata:", "    type: user", "    node_type: memory", "name: after the block"],
        ["metadata:", "  type:", "  node_type: memory"],  # a child with no value
        ["metadata:", "name: x"],  # no children: null, as before
        ["metadata:", "  type: a", "metadata:", "  type: b"],  # the last one wins
        ["name: a", "originSessionId: 0c4f6e2a-1b3d-4a5c-9e7f-8a6b4c2d0e1f"],
        ["name: a", "originSessionId: 12345678-1234-1234-1234-123456789012"],
        ["name: a", "originSessionId: 1234567E-1234-1234-1234-123456789012"],
    ],
)
def test_nested_metadata_and_session_ids_read_as_yaml_reads_them(lines: list[str]) -> None:
    fast = fast_parse(lines)
    assert fast is not None
    assert fast == yaml.safe_load("\n".join(lines))


@pytest.mark.parametrize(
    "lines",
    [
        ["metadata:", "  type: a", "    node_type: deeper"],  # a deeper indent
        ["metadata:", "    type: a", "  node_type: shallower"],  # an uneven indent
        ["metadata:", "  type: a", " x  node_type: b"],  # not all spaces before the key
        ["metadata:", "", "  type: a"],  # YAML runs the block on past a blank line
        ["metadata:", "  type: a", "# a comment", "  node_type: b"],
        ["metadata:", "\ttype: a"],  # a tab is not an indent to YAML
        ["metadata:", "  - a", "  - b"],  # a list, not a mapping
        ["metadata:", "  note: a: b"],  # a value YAML refuses
        ["metadata:", "  count: 12"],  # a value YAML types
        ["description: one line", "  continued on the next"],  # a continued value
        ["  name: indented first"],
        ["name: a", "originSessionId: 12345678-1234-1234-1234-12345678901"],  # not a full id
    ],
)
def test_shapes_yaml_might_read_differently_go_to_yaml(lines: list[str]) -> None:
    assert fast_parse(lines) is None


def test_a_nested_modified_time_is_kept_as_text_that_reads_as_the_same_time() -> None:
    lines = ["metadata:", "  type: project", "  modified: 2026-03-01T09:30:00.250Z"]
    fast = fast_parse(lines)
    loaded = yaml.safe_load("\n".join(lines))
    assert fast is not None
    assert fast["metadata"] == {"type": "project", "modified": "2026-03-01T09:30:00.250Z"}
    assert isinstance(loaded["metadata"]["modified"], dt.datetime)
    assert modified_time_ms(fast["metadata"]["modified"]) == modified_time_ms(
        loaded["metadata"]["modified"]
    )


@settings(max_examples=300, deadline=None)
@given(st.uuids())
def test_every_session_id_reads_as_its_own_text(value: uuid.UUID) -> None:
    for text in (str(value), str(value).upper()):
        line = f"originSessionId: {text}"
        assert fast_parse([line]) == yaml.safe_load(line) == {"originSessionId": text}


_KEYS = st.sampled_from(["name", "type", "node_type", "metadata", "originSessionId", "on", "x-y"])
_VALUES = st.one_of(
    st.just(""),
    st.sampled_from(["memory", "project", "a: b", "12", "yes", "'q'", '"d"', "# c", "[1]"]),
    st.text(alphabet=st.characters(codec="utf-8", blacklist_characters="\n\r"), max_size=12),
)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from([0, 0, 1, 2, 2, 3, 4]), _KEYS, _VALUES, st.booleans()),
        max_size=8,
    )
)
def test_fast_path_never_disagrees_with_yaml_on_nested_headers(
    rows: list[tuple[int, str, str, bool]],
) -> None:
    lines = [
        "" if blank else f"{' ' * indent}{key}: {value}".rstrip(" ")
        for indent, key, value, blank in rows
    ]
    fast = fast_parse(lines)
    if fast is None:
        return
    assert fast == (yaml.safe_load("\n".join(lines)) or {})


def test_a_newer_header_gives_the_same_frontmatter_with_or_without_yaml(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    text = "---\n" + "\n".join(NEWER) + "\n---\n\nThe body.\n"
    fast, fast_body = parse_frontmatter(text)
    monkeypatch.setattr(frontmatter, "fast_parse", lambda lines: None)
    slow, slow_body = parse_frontmatter(text)
    assert fast == slow and fast_body == slow_body
    assert (fast.type, fast.type_nested) == (slow.type, True)
    assert fast.extra_fields() == {"node_type": "memory", "originSessionId": NEWER[-1][-36:]}


_TRICKY = st.sampled_from(
    ["memory", "a: b", "12", "yes", "'q'", '"d"', "# c", "[1]", "<<", "~", "x #y", "a#b", "-"]
)
_PAIRS = st.lists(st.tuples(_KEYS, st.one_of(_TRICKY, _VALUES)), max_size=3)


@settings(max_examples=300, deadline=None)
@given(
    _PAIRS,
    _KEYS,
    st.integers(1, 4),
    st.lists(st.tuples(_KEYS, st.one_of(_TRICKY, _VALUES)), min_size=1, max_size=5),
    _PAIRS,
)
def test_a_nested_block_of_any_indent_reads_as_yaml_reads_it(
    before: list[tuple[str, str]],
    parent: str,
    indent: int,
    children: list[tuple[str, str]],
    after: list[tuple[str, str]],
) -> None:
    lines = [f"{k}: {v}".rstrip(" ") for k, v in before] + [f"{parent}:"]
    lines += [f"{' ' * indent}{k}: {v}".rstrip(" ") for k, v in children]
    lines += [f"{k}: {v}".rstrip(" ") for k, v in after]
    fast = fast_parse(lines)
    if fast is None:
        return
    assert fast == (yaml.safe_load("\n".join(lines)) or {})
