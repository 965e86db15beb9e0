"""storage/read_view: the lock-free, read-only look listing and previewing use."""

from __future__ import annotations

from pathlib import Path

import pytest

from memdir_nb.storage.read_view import open_read_only
from memdir_nb.storage.transaction import TransactionError


def test_a_read_only_view_reads_takes_no_lock_and_refuses_every_write(tmp_path: Path) -> None:
    (tmp_path / "user_a.md").write_text("kept\n", encoding="utf-8")
    with open_read_only(tmp_path) as view:
        assert view.read_text("user_a.md") == "kept\n" and view.exists("user_a.md")
        with pytest.raises(TransactionError, match="read-only view"):
            view.write("user_b.md", "x")
        with pytest.raises(TransactionError, match="read-only view"):
            view.move("user_a.md", "user_c.md")
        with pytest.raises(TransactionError, match="read-only view"):
            view.keep_copy("user_a.md", "user_d.md")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["user_a.md"]  # no lock file either


def test_a_read_only_view_reads_a_daily_log_without_its_lock(tmp_path: Path) -> None:
    day = tmp_path / "logs" / "2026" / "12"
    day.mkdir(parents=True)
    (day / "2026-12-02.md").write_text("# Daily log 2026-12-02\n", encoding="utf-8")
    with open_read_only(tmp_path) as view:
        assert view.read_text("logs/2026/12/2026-12-02.md") == "# Daily log 2026-12-02\n"
    assert sorted(p.name for p in (tmp_path / "logs").iterdir()) == ["2026"]  # no lock made
