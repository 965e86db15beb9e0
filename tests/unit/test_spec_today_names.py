"""spec/today_names.py: a capitalised "Today" that names a part of an app, not a day."""

from __future__ import annotations

import pytest

from memdir_nb.spec.today_names import today_as_a_name


def _named(line: str) -> bool:
    start = line.lower().index("today")
    return today_as_a_name(line, start, start + len("today"))


@pytest.mark.parametrize(
    "line",
    [
        "Today view lists what is due",
        "Today Views are cached per user",
        "**Today** tab: the tasks due now",
        "_Today_ widget refreshes each minute",
        "Today\tscreen, then Inbox",
        "see [Today](today.md)",
        "see [the Today list](lists.md)",
        "pin it to [[Today]]",
    ],
)
def test_a_capitalised_today_before_a_part_of_an_app_or_in_a_link_is_a_name(line: str) -> None:
    assert _named(line)


@pytest.mark.parametrize(
    "line",
    [
        "Today we moved the runner",
        "today view counts rose",
        "Today: froze at noon",
        "Today viewers doubled",
        "Today-view",
        "see [docs](x.md) Today",
        "[Today is release day",
        "Today ](x.md)",
    ],
)
def test_a_today_before_anything_else_is_not_a_name(line: str) -> None:
    assert not _named(line)


def test_a_link_text_is_looked_for_within_a_bounded_stretch_of_the_line() -> None:
    # each phrase reads at most 80 characters each way for its link's brackets, so a line of
    # many phrases costs no more than its length times that
    near = "[" + "a " * 30 + "Today" + " b" * 30 + "](x.md)"
    assert _named(near)
    far = "[" + "a " * 50 + "Today" + " b" * 50 + "](x.md)"
    assert not _named(far)
