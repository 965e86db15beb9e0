"""One transcript line parsed into records: bounded, glued records split, encodings named."""

from __future__ import annotations

import json
import tracemalloc

import pytest

from memdir_nb.formats.transcript_lines import parse_record_line
from memdir_nb.spec.constants import TRANSCRIPT_LINE_MAX_BYTES, TRANSCRIPT_LINE_MAX_VALUES


def test_a_clean_line_gives_its_record_and_no_problem() -> None:
    records, problem = parse_record_line('{"type": "user", "uuid": "u1"}')
    assert records == [{"type": "user", "uuid": "u1"}] and problem is None


def test_two_records_glued_on_one_line_are_both_read_and_the_line_is_reported() -> None:
    line = json.dumps({"type": "assistant", "uuid": "a"}) + json.dumps({"type": "summary"})
    records, problem = parse_record_line(line)
    assert [r["type"] for r in records] == ["assistant", "summary"]
    assert problem is not None and "glued" in problem


def test_a_cut_line_is_a_problem_naming_the_column_never_an_exception() -> None:
    records, problem = parse_record_line('{"type": "user", "message": {"ro')
    assert records == [] and problem is not None and "not JSON" in problem and "column" in problem


def test_a_parse_error_names_the_parsers_complaint_and_its_column_once() -> None:
    _, problem = parse_record_line('{"type": "user", "text": "cut here')
    assert problem == "not JSON (Unterminated string starting at column 26); skipped"


@pytest.mark.parametrize("line", [b"\xef\xbb\xbf" + b'{"type": "user"}', '\ufeff{"type": "user"}'])
def test_a_utf8_byte_order_mark_before_the_first_record_is_passed_over(line: str | bytes) -> None:
    assert parse_record_line(line) == ([{"type": "user"}], None)


@pytest.mark.parametrize("bom", [True, False])
def test_utf16_text_is_named_with_the_way_to_convert_it(bom: bool) -> None:
    line = ("\ufeff" if bom else "") + '{"type": "user"}'
    records, problem = parse_record_line(line.encode("utf-16-le"))
    assert records == [] and problem is not None
    assert "UTF-16 text, not UTF-8" in problem and "iconv -f UTF-16 -t UTF-8" in problem


def test_a_line_nested_too_deep_is_refused_before_parsing() -> None:
    records, problem = parse_record_line("[" * 5000 + "]" * 5000)
    assert records == [] and problem is not None and "levels deep" in problem


def test_a_line_over_the_byte_cap_is_refused() -> None:
    records, problem = parse_record_line('{"a": "' + "x" * 200 + '"}', max_bytes=100)
    assert records == [] and problem is not None and "100-byte limit" in problem


def test_a_json_value_that_is_not_an_object_is_refused() -> None:
    assert parse_record_line("[1, 2]") == ([], "not a JSON object; skipped")


def _dense_line(count: int) -> str:
    junk = ",".join(["{}"] * count)
    record = '{"type":"user","uuid":"u1","message":{"role":"user","content":"hi","junk":[%s]}}'
    return record % junk


@pytest.mark.parametrize("glued", [False, True])
def test_a_line_under_the_byte_cap_that_would_make_too_many_values_is_refused_unparsed(
    glued: bool,
) -> None:
    # §43: 8 MB of `{},{},...` in one line passed the byte cap and the parse held 2.8 million
    # dicts, 205 MB (replay of five such lines peaked at 556 MB, sessions at 482 MB)
    line = _dense_line(TRANSCRIPT_LINE_MAX_VALUES)
    if glued:
        line = '{"type":"user","uuid":"u0","message":{"role":"user","content":"a"}}' + line
    assert len(line) < TRANSCRIPT_LINE_MAX_BYTES
    tracemalloc.start()
    try:
        records, problem = parse_record_line(line)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert problem is not None and "over the limit of 1,000,000" in problem, problem
    assert records == []  # the whole line, as over the byte or the depth cap
    assert peak < 12 * len(line)  # the text and a few copies; no object per value


def test_a_real_lines_many_short_strings_are_read() -> None:
    # a Write's structuredPatch of 200,000 one-character lines: 1.2 MB, one value every 6 bytes
    patch = json.dumps({"type": "user", "uuid": "u1", "toolUseResult": {"lines": ["+}"] * 200_000}})
    (record,), problem = parse_record_line(patch)
    assert problem is None and len(record["toolUseResult"]["lines"]) == 200_000
