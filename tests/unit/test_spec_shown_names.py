"""spec.shown_names: a name shown to a reader reads back, so two names never show alike."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from memdir_nb.spec.shown_names import terminal_name
from memdir_nb.spec.text import terminal_line, terminal_safe

_ESCAPE_TEXT = re.compile(r"(\\+)(x[0-9a-f]{2}|u[0-9a-f]{4})")


def _read_back(shown: str) -> str:
    """The name a shown name stands for, by the rule the module documents."""

    def one(m: re.Match[str]) -> str:
        run, code = m.group(1), m.group(2)
        if len(run) % 2:
            return "\\" * (len(run) // 2) + chr(int(code[1:], 16))
        return "\\" * (len(run) // 2) + code

    return _ESCAPE_TEXT.sub(one, shown)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("dir\udcff", "dir\\udcff"),  # a name's byte 0xff, and a name holding that text
        ("bad\x1b.md", "bad\\x1b.md"),  # ESC, and the text of its escape
        ("a\u202eb", "a\\u202eb"),  # a bidi override, and its text
        ("a\nb", "a\\x0ab"),  # a newline, and its text
        ("a\\\udcff", "a\\\\udcff"),  # a backslash before the byte, and two before the text
    ],
)
def test_a_name_and_the_text_of_its_escape_show_as_two_names(first: str, second: str) -> None:
    # attack36: terminal_line showed both alike, so scan, lint, list and the memory tool's
    # `view /memories` listed two different files as one name twice
    assert terminal_line(first) == terminal_line(second)  # the idempotent sanitiser cannot tell
    assert terminal_name(first) != terminal_name(second)
    assert _read_back(terminal_name(first)) == first
    assert _read_back(terminal_name(second)) == second


_PIECES = ["\\", "x", "u", "d", "c", "f", "1", "b", "0", "\udcff", "\x1b", "\n", "\u202e", "a"]


@given(st.text(alphabet=st.sampled_from(_PIECES)))
def test_every_name_reads_back_from_how_it_is_shown(name: str) -> None:
    shown = terminal_name(name)
    assert _read_back(shown) == name
    assert terminal_safe(shown) == shown  # the print boundary's own pass leaves it as it is
    assert "\n" not in shown


def test_a_name_with_no_escape_text_is_shown_as_terminal_line_shows_it() -> None:
    for name in ("user_a.md", "team/x.md", "C:\\Users\\jo", "caf\u00e9.md", "a\\\\b", "x\\"):
        assert terminal_name(name) == terminal_line(name)
