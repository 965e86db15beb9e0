"""The bounded JSON reader: size and nesting are refused before the parser runs."""

from __future__ import annotations

import pytest

from memdir_nb.formats.jsonio import JSONLimitError, loads_bounded, nesting_depth


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
