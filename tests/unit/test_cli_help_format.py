"""The CLI's help width follows shutil's documented rule for COLUMNS and the terminal, read
without importing shutil."""

from __future__ import annotations

import shutil

import pytest

from memdir_nb.cli.help_format import terminal_columns


@pytest.mark.parametrize("columns", [None, "", "0", "-3", "abc", "57", "200"])
def test_help_width_follows_shutils_rule_for_columns(
    monkeypatch: pytest.MonkeyPatch, columns: str | None
) -> None:
    if columns is None:
        monkeypatch.delenv("COLUMNS", raising=False)
    else:
        monkeypatch.setenv("COLUMNS", columns)
    assert terminal_columns() == shutil.get_terminal_size().columns
