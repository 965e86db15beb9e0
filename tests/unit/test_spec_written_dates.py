"""spec/written_dates.py: full dates as people write them, and the weekday each falls on."""

from __future__ import annotations

import pytest

from memdir_nb.spec.written_dates import full_dates

FRIDAY = 4


@pytest.mark.parametrize(
    "written",
    [
        "2026-12-25",
        "2026/12/25",
        "2026.12.25",
        "25 December 2026",
        "25th of Dec 2026",
        "December 25, 2026",
        "Dec. 25th 2026",
        "12/25/2026",
        "25/12/2026",
    ],
)
def test_each_written_form_of_a_full_date_gives_its_span_and_weekday(written: str) -> None:
    line = f"closed ({written}) all day"
    [found] = full_dates(line)
    assert line[found.start : found.end] == written
    assert found.weekdays == frozenset({FRIDAY})


def test_a_slash_date_read_both_ways_gives_both_weekdays() -> None:
    [found] = full_dates("3/5/2026")  # 5 March (a Thursday) or 3 May (a Sunday)
    assert found.weekdays == frozenset({3, 6})


@pytest.mark.parametrize(
    "line", ["Mar 5", "2026-02-30", "13/13/2026", "v2026-12-25", "build 12025-12-25", "no digits"]
)
def test_a_date_without_its_year_or_naming_no_real_day_is_no_full_date(line: str) -> None:
    assert full_dates(line) == []
