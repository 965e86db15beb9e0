"""The bounded JSON reader: size and nesting are refused before the parser runs."""

from __future__ import annotations

import json

import pytest

from memdir_nb.formats.jsonio import JSONLimitError, json_error_cause, loads_bounded, nesting_depth


def test_ordinary_json_parses() -> None:
    assert loads_bounded('{"a": [1, {"b": "x"}]}', max_bytes=100) == {"a": [1, {"b": "x"}]}


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert nesting_depth('{"a": "[[[[{{{{\\"]]"}') == 1


def test_deep_nesting_is_refused_before_python_recursion_can_fail() -> None:
    with pytest.raises(JSONLimitError, match="levels deep"):
        loads_bounded("[" * 100_000 + "]" * 100_000, max_bytes=10**6, what="transcript line")


def test_text_over_the_byte_cap_is_refused_unread() -> None:
    with pytest.raises(JSONLimitError, match="settings file is 101 bytes"):
        loads_bounded(b" " * 100 + b"1", max_bytes=100, what="settings file")


def test_bad_json_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        loads_bounded("{nope", max_bytes=100)


def _cause(text: str) -> str | None:
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return json_error_cause(text, exc)
    raise AssertionError("the text parsed")


@pytest.mark.parametrize(
    "text",
    ['{\n  // why\n  "a": 1\n}', '{"a": 1, // why\n"b": 2}', '{"a": 1 /* why */}', "/* x */ {}"],
)
def test_a_comment_is_named_as_the_cause(text: str) -> None:
    assert _cause(text) == "a comment (JSON has no comments)"


@pytest.mark.parametrize("text", ['{"a": 1,\n}', "[1, 2, ]", '{"a": [1,],\n "b": 2}'])
def test_a_trailing_comma_is_named_as_the_cause(text: str) -> None:
    assert _cause(text) == "a trailing comma before the closing bracket (JSON allows none)"


@pytest.mark.parametrize("text", ['{"a": }', "{'a': 1}", '{"a": 1', "[1 2]"])
def test_other_syntax_errors_have_no_guessed_cause(text: str) -> None:
    assert _cause(text) is None
