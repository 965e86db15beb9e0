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
from memdir_nb.formats.frontmatter_fast import PlainColon, fast_parse
from memdir_nb.spec.timestamps import modified_time_ms

# ---------------------------------------------------------------- fast path agrees with YAML


def _assert_agrees_with_yaml(lines: list[str]) -> None:
    """Whatever fast_parse answers, both PyYAML loaders answer the same: the same mapping, or an
    error where it says YAML refuses the header. None (unsure) agrees with anything."""
    fast = fast_parse(lines)
    block = "\n".join(lines)
    if isinstance(fast, PlainColon):
        for loader in (yaml.SafeLoader, yaml.CSafeLoader):
            with pytest.raises(yaml.YAMLError):
                yaml.load(block, Loader=loader)
        assert lines[fast.line].lstrip(" ").startswith(fast.key + ":")
    elif fast is not None:
        assert fast == (yaml.safe_load(block) or {})


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
    assert isinstance(fast, dict)
    assert fast == (yaml.safe_load(line) or {})


@pytest.mark.parametrize(
    "line",
    [
        "name: yes",
        "name: 12",
        "name:   0",
        "name: x # c",
        "name: 'a': b",
        "name: [a, yes]",
        "name: [a, 'b']",
        "name: [a: b]",
        "name: [a, [b]]",
        "name: [a,]",
        "name: [a] # c",
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
    _assert_agrees_with_yaml([f"name: {value}"])


@pytest.mark.parametrize(
    ("lines", "where"),
    [
        (["name: a: b"], PlainColon(0, "name")),
        (
            ["name: x", "description: Steps: run the tests", "type: user"],
            PlainColon(1, "description"),
        ),
        (["name: ends in a colon:"], PlainColon(0, "name")),
        (["name: spaced :"], PlainColon(0, "name")),
        (["name: a: # the colon comes first"], PlainColon(0, "name")),
        (["name: http://host: port"], PlainColon(0, "name")),
        (["metadata:", "  type: project: infra"], PlainColon(1, "type")),
    ],
)
def test_a_plain_value_holding_colon_space_is_refused_as_yaml_refuses_it(
    lines: list[str], where: PlainColon
) -> None:
    assert fast_parse(lines) == where
    _assert_agrees_with_yaml(lines)


@pytest.mark.parametrize(
    "lines",
    [
        ["name: a #b: c"],  # the comment starts first: YAML reads 'a'
        ["name: a:b"],  # no space after the colon: one plain word
        ["name: 'quoted: fine'"],
        ["name: [x", "description: a: b"],  # an unsure line first: YAML decides
        ["on: a: b"],  # a key YAML may read otherwise
    ],
)
def test_a_colon_is_refused_only_where_yaml_certainly_refuses(lines: list[str]) -> None:
    assert not isinstance(fast_parse(lines), PlainColon)
    _assert_agrees_with_yaml(lines)


@pytest.mark.parametrize(
    "value",
    ["[deploy, ci]", "[]", "[ spaced , words ]", "[a b, c.d, e/f, g-h, _i]", "[ünï, x]"],
)
def test_a_flow_list_of_plain_words_reads_as_yaml_reads_it(value: str) -> None:
    fast = fast_parse([f"tags: {value}"])
    assert isinstance(fast, dict) and isinstance(fast["tags"], list)
    _assert_agrees_with_yaml([f"tags: {value}"])


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("2026-05-04 fix for the login bug", "2026-05-04 fix for the login bug"),
        ("3d-printing-lessons", "3d-printing-lessons"),
        ("14 applications, 201 outreach actions", "14 applications, 201 outreach actions"),
        ('"Erro \\"Ausência de troco\\" no caixa"', 'Erro "Ausência de troco" no caixa'),
        ('"a \\\\ b"', "a \\ b"),
    ],
)
def test_digit_led_text_and_escaped_quotes_read_as_yaml_reads_them(value: str, text: str) -> None:
    assert fast_parse([f"description: {value}"]) == {"description": text}
    _assert_agrees_with_yaml([f"description: {value}"])


@pytest.mark.parametrize(
    "value", [".claude/settings.json", "~/notes/todo.md", "...and then the deploy", ".", "~x"]
)
def test_dot_and_tilde_led_text_reads_as_yaml_reads_it(value: str) -> None:
    assert fast_parse([f"description: {value}"]) == {"description": value}
    _assert_agrees_with_yaml([f"description: {value}"])


@pytest.mark.parametrize("value", ["~", ".5", "._5", ".5e+3", ".inf", ".NaN", ".INF"])
def test_dot_and_tilde_values_yaml_types_still_go_to_yaml(value: str) -> None:
    assert fast_parse([f"description: {value}"]) is None


_DOTTISH = st.sampled_from([*"0123456789._eE+-~/ ", "inf", "Inf", "nan", "NaN", "NAN", "INF", "a"])


@settings(max_examples=500, deadline=None)
@given(st.sampled_from(".~"), st.lists(_DOTTISH, max_size=8).map("".join))
def test_fast_path_never_disagrees_with_yaml_on_dot_and_tilde_values(first: str, rest: str) -> None:
    _assert_agrees_with_yaml([f"description: {first}{rest}".rstrip(" ")])


@pytest.mark.parametrize("value", ["2026-06-22", "1999-12-31", "2024-02-29"])
def test_a_date_alone_reads_as_the_date_yaml_builds(value: str) -> None:
    fast = fast_parse(["name: Notes", "metadata:", f"  updated: {value}"])
    assert isinstance(fast, dict) and isinstance(fast["metadata"], dict)
    assert fast["metadata"]["updated"] == dt.date.fromisoformat(value)
    _assert_agrees_with_yaml(["name: Notes", "metadata:", f"  updated: {value}"])


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 9999), st.integers(0, 19), st.integers(0, 39))
def test_fast_path_never_disagrees_with_yaml_on_dates(year: int, month: int, day: int) -> None:
    value = f"{year:04d}-{month:02d}-{day:02d}"
    fast = fast_parse([f"created: {value}"])
    try:
        loaded = yaml.safe_load(f"created: {value}")
    except ValueError:  # an impossible date: YAML's constructor raises, the reader must not answer
        assert fast is None
        return
    assert fast is None or fast == loaded


@pytest.mark.parametrize(
    "value",
    ["2026-5-04", "2026-05-04 10:00:00", "1e3", "0x1F", "1_000", "12:30", "1.5", '"a\\nb"'],
)
def test_numbers_times_and_other_escapes_still_go_to_yaml(value: str) -> None:
    assert fast_parse([f"description: {value}"]) is None


_NUMBERISH = st.sampled_from([*"0123456789-+._: eExXabfinTZt", "q", "ü", "#", "'"])


@settings(max_examples=500, deadline=None)
@given(st.sampled_from("0123456789"), st.lists(_NUMBERISH, max_size=12).map("".join))
def test_fast_path_never_disagrees_with_yaml_on_digit_led_values(first: str, rest: str) -> None:
    _assert_agrees_with_yaml([f"description: {first}{rest}".rstrip(" ")])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(["a", " ", '\\"', "\\\\", "\\", '"', "n", "é"]), max_size=8))
def test_fast_path_never_disagrees_with_yaml_on_double_quoted_values(parts: list[str]) -> None:
    _assert_agrees_with_yaml([f'description: "{"".join(parts)}"'])


_FLOW_ALPHABET = st.sampled_from([*"ab _./-:#,'\"[]{}", "yes", "no", "1", "~", "ü"])


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(_FLOW_ALPHABET, max_size=5).map("".join), max_size=4))
def test_fast_path_never_disagrees_with_yaml_on_flow_lists(items: list[str]) -> None:
    _assert_agrees_with_yaml([f"tags: [{', '.join(items)}]"])


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
    assert isinstance(fast, dict)
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
    assert isinstance(fast, dict) and isinstance(fast["metadata"], dict)
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
    _assert_agrees_with_yaml(lines)


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
    _assert_agrees_with_yaml(lines)
