"""A memory's own time: `modified:` read as ms since the epoch, and written as ISO UTC."""

from __future__ import annotations

import datetime as dt

import pytest

from memdir_nb.spec import dates
from memdir_nb.spec.timestamps import (
    iso_utc,
    modified_time_ms,
    trash_stamp,
    trash_stamp_seconds,
)
from tests.support.time_zone import in_zone

MAY_1_10H_MS = 1_777_629_600_000.0  # 2026-05-01T10:00:00Z


def test_an_iso_time_with_z_is_read_as_utc_ms() -> None:
    assert modified_time_ms("2026-05-01T10:00:00.000Z") == MAY_1_10H_MS
    assert modified_time_ms("2026-05-01t10:00:00z") == MAY_1_10H_MS


def test_a_time_without_a_zone_is_utc() -> None:
    assert modified_time_ms("2026-05-01T10:00:00") == MAY_1_10H_MS
    assert modified_time_ms(dt.datetime(2026, 5, 1, 10)) == MAY_1_10H_MS


def test_an_offset_is_honoured() -> None:
    assert modified_time_ms("2026-05-01T12:00:00+02:00") == MAY_1_10H_MS


def test_a_date_yaml_hands_over_is_its_midnight_utc() -> None:
    assert modified_time_ms(dt.date(2026, 5, 1)) == MAY_1_10H_MS - 10 * 3_600_000


@pytest.mark.parametrize(
    "value",
    [
        "yesterday",
        "2026-13-01",
        "2026-05-01T25:00:00Z",
        1_777_629_600,
        None,
        "1969-12-31T23:59:59Z",
    ],
)
def test_anything_else_is_invalid(value: object) -> None:
    assert modified_time_ms(value) is None


def test_iso_utc_writes_milliseconds_and_a_z_and_reads_back() -> None:
    assert iso_utc(MAY_1_10H_MS + 42.9) == "2026-05-01T10:00:00.042Z"
    assert modified_time_ms(iso_utc(MAY_1_10H_MS)) == MAY_1_10H_MS


def test_spec_dates_still_serves_both_names() -> None:
    assert dates.modified_time_ms is modified_time_ms
    assert dates.iso_utc is iso_utc


@pytest.mark.parametrize("zone", ["UTC", "Pacific/Kiritimati", "America/St_Johns", "Etc/GMT+12"])
def test_a_trash_stamp_is_the_utc_time_in_every_zone(zone: str) -> None:
    with in_zone(zone):
        assert trash_stamp(MAY_1_10H_MS) == "20260501T100000Z"
        assert trash_stamp(MAY_1_10H_MS + 123.9, with_ms=True) == "20260501T100000123Z"
        # a leap day, and a moment past 2038's 32-bit time_t
        assert trash_stamp(1_835_438_400_000.0) == "20280229T120000Z"
        assert trash_stamp(2_524_737_600_000.0) == "20500102T120000Z"


def test_trash_stamps_sort_in_time_order_across_a_change_of_zone() -> None:
    with in_zone("Pacific/Kiritimati"):  # UTC+14
        earlier = trash_stamp(MAY_1_10H_MS)
    with in_zone("UTC"):
        later = trash_stamp(MAY_1_10H_MS + 3_600_000)
    assert earlier < later


def test_a_utc_trash_stamp_reads_back_as_its_moment_in_any_zone() -> None:
    ms = 1_796_000_000_123.0
    for zone in ("UTC", "Pacific/Kiritimati", "America/St_Johns"):
        with in_zone(zone):
            assert trash_stamp_seconds(trash_stamp(ms) + "-4242-abcdef") == 1_796_000_000.0
            assert trash_stamp_seconds(trash_stamp(ms, with_ms=True)) == 1_796_000_000.123


def test_a_stamp_without_z_is_read_in_the_local_zone_as_older_versions_wrote_it() -> None:
    # dreams, the memory tool and rebuild-index named batches in local time before
    with in_zone("Pacific/Kiritimati"):  # UTC+14
        assert trash_stamp_seconds("20261130T145320-77-abc") == 1_796_000_000.0
    with in_zone("UTC"):
        assert trash_stamp_seconds("20261130T005320-77-abc") == 1_796_000_000.0


@pytest.mark.parametrize("text", ["", "dream", "2026-11-30", "20261399T000000Z", "20261130T2599"])
def test_text_that_opens_with_no_stamp_names_no_moment(text: str) -> None:
    assert trash_stamp_seconds(text) is None
