"""cli/args.py: the argparse types the commands share (here: recall's --timeout)."""

from __future__ import annotations

import argparse

import pytest

from memdir_nb.cli.args import selector_timeout


@pytest.mark.parametrize(
    ("raw", "seconds"),
    [("1e3", 1000.0), (" 5 ", 5.0), ("5_0", 50.0), ("\u0661\u0660", 10.0), ("3600", 3600.0)],
)
def test_a_timeout_is_the_number_python_reads_from_its_numeral(raw: str, seconds: float) -> None:
    # attack44: odd numerals are read as float() reads them (Arabic-Indic digits are digits)
    assert selector_timeout(raw) == seconds


@pytest.mark.parametrize(
    "raw", ["0x10", "inf", "-inf", "nan", "-0", "0", "1e-400", "3600.5", "1e400", "5\x1b[2J", ""]
)
def test_a_timeout_not_above_0_and_at_most_the_cap_is_refused_and_shown_safely(raw: str) -> None:
    with pytest.raises(argparse.ArgumentTypeError) as refused:
        selector_timeout(raw)
    assert "\x1b" not in str(refused.value) and "give e.g." in str(refused.value)
