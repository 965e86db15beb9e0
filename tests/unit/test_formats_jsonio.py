"""The bounded JSON reader: size and nesting are refused before the parser runs."""

from __future__ import annotations

import json
import re
import tracemalloc

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.formats import jsonio
from memdir_nb.formats.jsonio import (
    JSONLimitError,
    dumps_output,
    json_error_cause,
    loads_bounded,
    loads_glued,
    nesting_depth,
    raw_decode,
    value_count,
    value_count_over,
)
from memdir_nb.spec.text import terminal_safe


def test_ordinary_json_parses() -> None:
    assert loads_bounded('{"a": [1, {"b": "x"}]}', max_bytes=100) == {"a": [1, {"b": "x"}]}


def test_brackets_inside_strings_do_not_count_as_nesting() -> None:
    assert nesting_depth('{"a": "[[[[{{{{\\"]]"}') == 1


def _depth(value: object) -> int:
    """The nesting of a parsed JSON value: what nesting_depth must find in its text."""
    if isinstance(value, dict):
        return 1 + max(map(_depth, value.values()), default=0)
    if isinstance(value, list):
        return 1 + max(map(_depth, value), default=0)
    return 0


# Strings full of what the depth scan must see past: quotes, backslashes, brackets, a NUL, a
# line break, characters outside ASCII (escaped or not, as json.dumps writes them).
_TRICKY = st.text(alphabet=st.sampled_from('"\\[]{}ab \n\x00é😀'), max_size=12)
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _TRICKY,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TRICKY, inner, max_size=4),
    max_leaves=30,
)


@given(_JSON, st.booleans(), st.sampled_from([None, 1]))
def test_nesting_depth_is_the_parsed_values_nesting(
    value: object, ascii_only: bool, indent: int | None
) -> None:
    text = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    assert nesting_depth(text) == _depth(value)


def test_a_long_string_costs_no_memory_per_character() -> None:
    # A tool's output of a few MB in one transcript line: brackets and escapes inside a string.
    # The depth scan once kept about 120 bytes of regex state per character of such a string.
    text = json.dumps({"content": [{"type": "tool_result", "text": '[{x}] \\ "q" ' * 200_000}]})
    tracemalloc.start()
    try:
        assert nesting_depth(text) == 3
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 4 * len(text)


def test_an_unterminated_string_is_scanned_in_one_pass() -> None:
    # Not JSON (the parser refuses it next); the scan still ends, counting what follows the quote.
    assert nesting_depth('{"a": "' + "[\\" * 1000) == 1001


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


def test_an_integer_past_pythons_digit_limit_is_the_double_javascript_reads() -> None:
    # Python raises a plain ValueError past 4,300 digits; JSON.parse gives a double (Infinity
    # past 1.8e308). Shorter integers stay ints, as the default parser gives them.
    huge = "9" * 5000
    text = '{"a": ' + huge + ', "b": -' + huge + ', "c": 12, "d": ' + "1" * 400 + "}"
    value = loads_bounded(text, max_bytes=1 << 20)
    assert value == {"a": float("inf"), "b": float("-inf"), "c": 12, "d": int("1" * 400)}
    assert raw_decode('x{"a": ' + huge + "}{}", 1) == ({"a": float("inf")}, 5008)
    with pytest.raises(json.JSONDecodeError):
        loads_bounded('{"a": ' + huge + ",}", max_bytes=1 << 20)


def test_output_shows_a_lone_surrogate_as_the_terminals_escape_text() -> None:
    # a name's byte 0xff (surrogateescape) and a transcript's lone "\ud800", in keys and values
    value = {"caf\udcff.md": ["a\ud800b", "caf\u00e9", 3, None], "ok": ("x",)}
    text = dumps_output(value)
    text.encode("utf-8")  # a strict UTF-8 encoding holds it
    assert json.loads(text) == {"caf\\udcff.md": ["a\\ud800b", "caf\u00e9", 3, None], "ok": ["x"]}
    assert terminal_safe("caf\udcff.md") == "caf\\udcff.md"  # what the terminal shows
    assert dumps_output({"a": 1}, indent=None) == json.dumps({"a": 1})


_READ_BACK = re.compile(r"(\\+)(ud[89a-f][0-9a-f]{2})")


def _read_back(text: str) -> str:
    """The string a `--json` string stands for, by the form spec.shown_names.lone_surrogates_shown
    documents (what a script in any language does to get a name's bytes back)."""

    def one(m: re.Match[str]) -> str:
        run, code = m.group(1), m.group(2)
        if len(run) % 2:
            return "\\" * (len(run) // 2) + chr(int(code[1:], 16))
        return "\\" * (len(run) // 2) + code

    return _READ_BACK.sub(one, text)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("bad\udcff", "bad\\udcff"),  # a name's byte 0xff, and a name holding that text
        ("a\\\udcff", "a\\\\udcff"),
        ("x\ud800", "x\\ud800"),
    ],
)
def test_two_different_strings_are_never_written_alike(first: str, second: str) -> None:
    # §43: both were written as `\udcff`, so `list --json` gave two folders one path
    assert dumps_output(first) != dumps_output(second)
    for value in (first, second):
        assert _read_back(json.loads(dumps_output(value))) == value


@given(st.text(alphabet=st.sampled_from(["\\", "u", "d", "c", "f", "8", "x", "\udcff", "\ud800"])))
def test_every_string_reads_back_from_its_output(value: str) -> None:
    text = dumps_output(value)
    text.encode("utf-8")  # only characters
    assert _read_back(json.loads(text)) == value


def test_a_windows_path_and_a_long_run_of_backslashes_are_written_as_they_are() -> None:
    assert json.loads(dumps_output("C:\\Users\\me\\udon.md")) == "C:\\Users\\me\\udon.md"
    run = "\\" * 200_000 + "x"  # passed in one step: the run is possessive
    assert json.loads(dumps_output(run)) == run


def test_values_are_counted_outside_strings_and_over_the_cap_are_refused_unparsed() -> None:
    assert value_count('{"a": [1, 2], "b": "x,y:[{"}') == 1 + 6
    assert value_count("7") == 1 and value_count('"a,b"') == 1
    assert loads_bounded("[[],[]]", max_bytes=100, max_values=5) == [[], []]
    with pytest.raises(JSONLimitError, match="over the limit of 4"):
        loads_bounded("[[],[]]", max_bytes=100, max_values=4)


_MARKED = st.text(alphabet=st.sampled_from(',:[{"\\ab'), max_size=12)  # strings full of marks
_MARKED_JSON = st.recursive(
    st.none() | st.integers() | _MARKED,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_MARKED, inner, max_size=4),
    max_leaves=30,
)


@given(_MARKED_JSON, st.integers(min_value=0, max_value=60), st.booleans())
def test_a_count_past_a_limit_is_the_exact_count_whatever_the_strings_hold(
    value: object, limit: int, as_bytes: bool
) -> None:
    text = json.dumps(value)
    count = value_count(text)
    assert value_count_over(text.encode() if as_bytes else text, limit) == (
        count if count > limit else None
    )


def test_a_text_within_its_limit_by_its_marks_alone_is_not_scanned_for_strings(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """One plus the commas, colons, `[` and `{` of the whole text bounds the count: within the
    limit that way, the strings are not taken out (a cache file's save and read check it)."""

    def scanned(text: str) -> bytes:
        raise AssertionError("the strings were taken out")

    monkeypatch.setattr(jsonio, "_outside_strings", scanned)
    text = json.dumps({"a": [1, 2], "b": "x,y"})  # 7 marks (one in a string), 7 values
    assert value_count_over(text, 8) is None and value_count_over(text.encode(), 8) is None
    assert loads_bounded(text, max_bytes=100, max_values=8) == {"a": [1, 2], "b": "x,y"}
    with pytest.raises(AssertionError):  # past the bound: the exact count
        value_count_over(text, 7)


def test_without_max_values_the_cap_is_one_value_per_four_bytes_of_the_byte_cap() -> None:
    # §44: only the dream cache, transcript lines, the journal and the archive manifest passed
    # max_values; every other caller's cap-sized `[],[],...` took 28x its bytes in objects
    dense = "[" + ",".join(["[]"] * 400) + "]"  # 1,201 bytes, 801 values
    with pytest.raises(
        JSONLimitError, match=r"dense holds up to 801 values, over the limit of 500"
    ):
        loads_bounded(dense, max_bytes=2_000, what="dense")
    assert len(loads_bounded(dense, max_bytes=4_000)) == 400
    assert len(loads_bounded(dense, max_bytes=2_000, max_values=801)) == 400  # its own cap wins
    assert len(loads_glued(dense + dense, max_bytes=8_000)[0]) == 2
    with pytest.raises(JSONLimitError, match="over the limit of 750"):
        loads_glued(dense + dense, max_bytes=3_000)
