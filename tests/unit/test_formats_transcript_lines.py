"""One transcript line parsed into records: bounded, glued records split, encodings named."""

from __future__ import annotations

import json

import pytest

from memdir_nb.formats.transcript_lines import parse_record_line


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
