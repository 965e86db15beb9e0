"""spec/counted_spans.py: a number beside a relative phrase that makes it a count, no day."""

from __future__ import annotations

import re

import pytest

from memdir_nb.spec.counted_spans import counted_not_dated

# the groups spec.dates' phrase pattern gives these phrases
_IN_N = re.compile(
    r"in\s+(?P<in_n>\d+|three)\s+days|(?P<eo>end\s+of\s+week)|(?P<day_word>today|tomorrow)"
)


def _counted(line: str) -> bool:
    m = _IN_N.search(line)
    assert m is not None
    return counted_not_dated(line, m)


@pytest.mark.parametrize(
    "line",
    [
        "Only 10 signals in 56 days",
        "+29.3% in 9 days",
        "8 PRs in 3 days",
        "by end of week 20",
        "end of week\t3",
    ],
)
def test_a_tally_before_or_a_number_after_makes_the_phrase_a_count(line: str) -> None:
    assert _counted(line)


@pytest.mark.parametrize(
    "line", ["ship v2 in 3 days", "ship in 3 days", "by end of week.", "ship 2 PR in 3 days"]
)
def test_a_phrase_with_no_such_number_is_a_day(line: str) -> None:
    assert not _counted(line)


@pytest.mark.parametrize(
    "line",
    [
        "- [Scaffolding](retro.md) \u2014 project zero \u2192 first deploy in 4 days",
        "empty repo -> first release in 4 days",
        'went from "genre hints: AI" to "switch providers" in three days',
        "Shipped \u2014 the whole app from zero in 4 days",
        "rebuilt from scratch in 4 days",
    ],
)
def test_a_start_before_in_n_days_makes_it_the_time_a_change_took(line: str) -> None:
    assert _counted(line)


@pytest.mark.parametrize(
    "line",
    [
        "move off the old host from Monday in 4 days",
        "we went from A to B. The audit is in 4 days",
        "Zero downtime; the cut-over is in 4 days",
    ],
)
def test_a_bare_from_or_a_start_in_another_clause_leaves_the_day(line: str) -> None:
    assert not _counted(line)


@pytest.mark.parametrize(
    "line",
    [
        "save it as `blog/YYYY-MM-DD-NN-slug.md` with today's date, 01 if none today",
        "notes/yyyymmdd.md: tomorrow's file is made at midnight",
        "the sheet is named DD/MM/YYYY of today",
    ],
)
def test_today_beside_a_date_template_is_the_day_the_step_is_done(line: str) -> None:
    assert _counted(line)


@pytest.mark.parametrize("line", ["Hit the lock today", "MODE=today YYYYY", "see MMDD today"])
def test_today_with_no_date_template_is_a_day(line: str) -> None:
    assert not _counted(line)
