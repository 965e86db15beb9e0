"""A memory's own time: `modified:` read as ms since the epoch, and written as ISO UTC."""

from __future__ import annotations

import datetime as dt

import pytest

from memdir_nb.spec import dates
from memdir_nb.spec.timestamps import iso_utc, modified_time_ms

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
