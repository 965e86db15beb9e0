"""A dir printed in a command is one shell word on one line (spec.shell_words)."""

from __future__ import annotations

from memdir_nb.spec.shell_words import shell_word


def test_a_shell_word_is_one_quoted_word_on_one_line() -> None:
    assert shell_word("/tmp/plain") == "/tmp/plain"
    assert shell_word("/tmp/my memory") == "'/tmp/my memory'"
    assert shell_word("/tmp/it's") == "'/tmp/it'\"'\"'s'"
    assert "\n" not in shell_word("/tmp/a\nFORGED")
