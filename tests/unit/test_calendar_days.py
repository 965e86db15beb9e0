"""spec/calendar_days.py: what a relative phrase's parts mean on a given day."""

from __future__ import annotations

import datetime as dt
import os
import time
from zoneinfo import ZoneInfo

import pytest

from memdir_nb.spec.calendar_days import (
    add_months,
    day_zone,
    days_counted_in,
    end_of,
    local_clock_ms,
    local_date,
    local_time_of_day,
    period_of,
    set_day_zone,
    shift,
    utc_date,
    weekday_date,
)

WEDNESDAY = dt.date(2026, 11, 18)


def test_a_month_later_keeps_the_day_clamped_to_the_months_last() -> None:
    assert add_months(dt.date(2026, 1, 31), 1) == dt.date(2026, 2, 28)
    assert add_months(dt.date(2028, 1, 31), 1) == dt.date(2028, 2, 29)  # a leap year
    assert add_months(dt.date(2026, 12, 15), 1) == dt.date(2027, 1, 15)
    assert shift(dt.date(2026, 3, 31), -1, "months") == dt.date(2026, 2, 28)
    assert shift(WEDNESDAY, 2, "weeks") == dt.date(2026, 12, 2)


def test_this_weekday_is_in_the_current_monday_to_sunday_week() -> None:
    assert weekday_date(WEDNESDAY, "this", "monday") == dt.date(2026, 11, 16)  # two days ago
    assert weekday_date(WEDNESDAY, "this", "sunday") == dt.date(2026, 11, 22)


def test_next_is_the_first_such_day_after_today_and_last_the_last_before() -> None:
    assert weekday_date(WEDNESDAY, "next", "thursday") == dt.date(2026, 11, 19)
    assert weekday_date(WEDNESDAY, "next", "wednesday") == dt.date(2026, 11, 25)
    assert weekday_date(WEDNESDAY, "last", "wednesday") == dt.date(2026, 11, 11)
    assert weekday_date(WEDNESDAY, "past", "tuesday") == dt.date(2026, 11, 17)


def test_a_week_is_named_by_its_monday_and_ends_on_the_working_weeks_friday() -> None:
    week = period_of(WEDNESDAY, 1, "week")
    assert week is not None and week.text == "the week of 2026-11-23" and not week.exact_day
    assert end_of(WEDNESDAY, 0, "week") == dt.date(2026, 11, 20)
    assert end_of(WEDNESDAY, 0, "quarter") == dt.date(2026, 12, 31)
    month = period_of(WEDNESDAY, -1, "month")
    assert month is not None and month.text == "October 2026"
    assert period_of(WEDNESDAY, 1, "sprint") is None  # a sprint's length is the team's own


def test_local_date_reads_the_clock_it_is_given() -> None:
    noon = dt.datetime(2026, 11, 18, 12, 0).timestamp() * 1000  # local noon
    assert local_date(noon) == WEDNESDAY


@pytest.mark.parametrize("tz", ["UTC", "Asia/Tokyo", "Pacific/Kiritimati", "America/Adak"])
def test_a_reading_past_the_calendars_ends_is_its_last_or_first_day_in_any_time_zone(
    tz: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # attack37: `modified: 9999-12-31T23:00:00Z` is in year 10000 east of UTC; local_date
    # raised out of the dream plan there ("year 10000 is out of range")
    monkeypatch.setenv("TZ", tz)
    time.tzset()
    try:
        last = dt.datetime(9999, 12, 31, 23, tzinfo=dt.UTC).timestamp() * 1000
        assert local_date(last) in (dt.date(9999, 12, 31), dt.date.max)
        assert utc_date(last) == dt.date(9999, 12, 31)
        for reading in (1e20, 1e300, float("inf")):
            assert local_date(reading) == utc_date(reading) == dt.date.max
        for reading in (-1e20, -1e300, float("-inf")):
            assert local_date(reading) == utc_date(reading) == dt.date.min
    finally:
        monkeypatch.undo()
        time.tzset()


KIRITIMATI = ZoneInfo("Pacific/Kiritimati")  # UTC+14: its day is ahead of every other zone's
ADAK = ZoneInfo("America/Adak")  # UTC-10 (UTC-9 in summer)


def test_local_days_and_times_are_counted_in_the_day_zone_when_one_is_set() -> None:
    # lefts39: the demo's notebooks set UTC here instead of the process's TZ
    late = dt.datetime(2026, 11, 18, 23, 30, tzinfo=dt.UTC).timestamp() * 1000
    before = set_day_zone(KIRITIMATI)
    try:
        assert day_zone() is KIRITIMATI
        assert local_date(late) == dt.date(2026, 11, 19)
        assert local_time_of_day(late) == "13:30:00"
        assert local_clock_ms(dt.date(2026, 11, 19), 13, 30) == late
        with days_counted_in(ADAK):
            assert local_date(late) == dt.date(2026, 11, 18)
            assert local_time_of_day(late) == "13:30:00"
            assert local_clock_ms(dt.date(2026, 11, 18), 13, 30) == late
        assert day_zone() is KIRITIMATI
    finally:
        set_day_zone(before)


def test_without_a_day_zone_local_days_are_the_machines_own_and_tz_is_never_changed() -> None:
    tz = os.environ.get("TZ")
    noon = dt.datetime(2026, 11, 18, 12, 0).timestamp() * 1000  # the machine's local noon
    assert day_zone() is None
    assert local_time_of_day(noon) == "12:00:00"
    assert local_clock_ms(WEDNESDAY, 12, 0) == noon
    with days_counted_in(dt.UTC):
        assert local_date(dt.datetime(2026, 11, 18, 23, 59, tzinfo=dt.UTC).timestamp() * 1000) == (
            WEDNESDAY
        )
    assert day_zone() is None
    assert os.environ.get("TZ") == tz


@pytest.mark.parametrize("zone", [dt.UTC, ZoneInfo("Asia/Tokyo"), KIRITIMATI, ADAK])
def test_a_reading_past_the_calendars_ends_is_its_last_or_first_day_in_any_day_zone(
    zone: dt.tzinfo,
) -> None:
    with days_counted_in(zone):
        last = dt.datetime(9999, 12, 31, 23, tzinfo=dt.UTC).timestamp() * 1000
        assert local_date(last) in (dt.date(9999, 12, 31), dt.date.max)
        for reading in (1e20, float("inf")):
            assert local_date(reading) == dt.date.max
        for reading in (-1e20, float("-inf")):
            assert local_date(reading) == dt.date.min
