"""spec/counted_spans.py: a number beside a relative phrase that makes it a count, no day."""

from __future__ import annotations

import re

import pytest

from memdir_nb.spec.counted_spans import counted_not_dated

# the two groups spec.dates' phrase pattern gives these phrases
_IN_N = re.compile(r"in\s+(?P<in_n>\d+)\s+days|(?P<eo>end\s+of\s+week)")


def _counted(line: str) -> bool:
    m = _IN_N.search(line)
    assert m is not None
    return counted_not_dated(line, m)


@pytest.mark.parametrize(
    "line",
    ["Only 10 signals in 56 days", "+29.3% in 9 days", "by end of week 20", "end of week\t3"],
)
def test_a_tally_before_or_a_number_after_makes_the_phrase_a_count(line: str) -> None:
    assert _counted(line)


@pytest.mark.parametrize("line", ["ship v2 in 3 days", "ship in 3 days", "by end of week."])
def test_a_phrase_with_no_such_number_is_a_day(line: str) -> None:
    assert not _counted(line)
