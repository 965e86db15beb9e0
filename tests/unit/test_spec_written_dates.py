"""spec/written_dates.py: full dates as people write them, and the weekday each falls on."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.spec.written_dates import LineDates, full_dates, weekday_of_a_written_date

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


_PIECES = ["2026-12-25", "2026-12-24", "Friday", "Thursday", " ", ", ", "(", ")", ": ", "x", "\n"]


@given(st.lists(st.sampled_from(_PIECES), max_size=12))
def test_the_dates_beside_a_weekday_are_those_every_date_of_the_line_is_checked_for(
    pieces: list[str],
) -> None:
    # the merge of real44 and redos44: only the nearest date on each side is checked, so a long
    # line of weekdays and dates is read once; the answer is the one checking every date
    line = "".join(pieces)
    dates = LineDates(line, "")
    for m in re.finditer(r"Friday|Thursday", line):
        every = [
            d
            for d in full_dates(line)
            if (d.start >= m.end() and not line[m.end() : d.start].strip(" ,("))
            or (d.end <= m.start() and not line[d.end : m.start()].strip(" ,()"))
        ]
        assert dates.beside(line, m.start(), m.end()) == every


@pytest.mark.parametrize(
    ("line", "above", "named"),
    [
        ("2026-12-25 (Friday)", "", True),
        ("2026-12-25 (Thursday)", "", False),
        ("Friday: office closed", "## 2026-12-25", True),
        ("Friday: office closed", "## 2026-12-24", None),
        ("the demo moved to Friday", "## 2026-12-25", None),
    ],
)
def test_a_full_date_decides_a_weekday_beside_it_or_one_labelling_its_line(
    line: str, above: str, named: bool | None
) -> None:
    word = re.search(r"Friday|Thursday", line)
    assert word is not None
    dates = LineDates(line, above)
    assert weekday_of_a_written_date(line, word.start(), word.end(), dates) is named
