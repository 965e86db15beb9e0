"""Rules of memdir_nb.spec.freshness: day counting, the age words, the freshness caveat and header."""

from __future__ import annotations

import time

import pytest

from memdir_nb.spec.freshness import (
    MS_PER_DAY,
    memory_age,
    memory_age_days,
    memory_freshness_note,
    memory_freshness_text,
    memory_header,
)

NOW = 1_774_693_800_000.0  # 2026-03-28T10:30:00Z


def days_ago(days: float) -> float:
    return NOW - days * MS_PER_DAY


def test_day_is_86_400_000_ms() -> None:
    assert MS_PER_DAY == 86_400_000


@pytest.mark.parametrize(
    "age_days, expected",
    [(0, 0), (0.999, 0), (1, 1), (1.5, 1), (1.999, 1), (2, 2), (47.2, 47), (400, 400)],
)
def test_age_days_floors(age_days: float, expected: int) -> None:
    assert memory_age_days(days_ago(age_days), NOW) == expected


def test_future_mtime_clamps_to_zero() -> None:
    assert memory_age_days(NOW + 5 * MS_PER_DAY, NOW) == 0
    assert memory_age(NOW + 5 * MS_PER_DAY, NOW) == "today"


def test_nan_is_refused_with_a_clear_error() -> None:
    with pytest.raises(ValueError, match="NaN"):
        memory_age_days(float("nan"), NOW)


def test_default_clock_is_wall_time() -> None:
    assert memory_age_days(time.time() * 1000 - 3.5 * MS_PER_DAY) == 3


@pytest.mark.parametrize(
    "age_days, word",
    [
        (0, "today"),
        (0.5, "today"),
        (1, "yesterday"),
        (1.9, "yesterday"),
        (2, "2 days ago"),
        (47, "47 days ago"),
    ],
)
def test_age_words(age_days: float, word: str) -> None:
    assert memory_age(days_ago(age_days), NOW) == word


@pytest.mark.parametrize("age_days", [0, 1, 1.99])
def test_freshness_text_is_empty_for_today_and_yesterday(age_days: float) -> None:
    assert memory_freshness_text(days_ago(age_days), NOW) == ""
    assert memory_freshness_note(days_ago(age_days), NOW) == ""


def test_freshness_text_opens_with_fixed_phrase_and_carries_the_caveat() -> None:
    text = memory_freshness_text(days_ago(47), NOW)
    assert text.startswith("This memory is 47 days old. ")
    lowered = text.lower()
    assert "not the live state" in lowered
    assert "file:line" in lowered
    assert "current code" in lowered
    assert "\n" not in text


def test_two_days_is_the_first_stale_age() -> None:
    assert memory_freshness_text(days_ago(2), NOW).startswith("This memory is 2 days old.")


def test_freshness_note_wraps_text_in_system_reminder() -> None:
    note = memory_freshness_note(days_ago(47), NOW)
    text = memory_freshness_text(days_ago(47), NOW)
    assert note == f"<system-reminder>{text}</system-reminder>\n"


def test_header_for_today_and_yesterday() -> None:
    assert (
        memory_header("/m/feedback_terse.md", days_ago(0.2), NOW)
        == "Memory (saved today): /m/feedback_terse.md:"
    )
    assert memory_header("/m/x.md", days_ago(1.2), NOW) == "Memory (saved yesterday): /m/x.md:"


def test_header_for_stale_memory_leads_with_caveat() -> None:
    header = memory_header("/m/project_freeze.md", days_ago(47), NOW)
    text = memory_freshness_text(days_ago(47), NOW)
    assert header == f"{text}\n\nMemory: /m/project_freeze.md:"
