"""Each distinct warning is let through once per process; the config's problems keep all."""

from __future__ import annotations

import logging
import tracemalloc
from pathlib import Path

import pytest

from memdir_nb.home.config import MemdirConfig
from memdir_nb.home.warn_once import WarnedOnce


def test_the_same_message_passes_once_and_a_new_one_passes_too() -> None:
    gate = WarnedOnce()

    def record(text: str) -> logging.LogRecord:
        return logging.LogRecord("x", logging.WARNING, __file__, 1, text, None, None)

    assert [gate.filter(record(t)) for t in ("a", "a", "b", "a")] == [True, False, True, False]


def test_a_broken_settings_file_is_warned_once_however_often_the_config_is_built(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text("{", encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="memdir_nb.home.settings_files"):
        configs = [MemdirConfig.from_environment(cwd=tmp_path, home=home) for _ in range(3)]
    warned = [r.getMessage() for r in caplog.records if "not valid JSON" in r.getMessage()]
    assert len(warned) == 1
    assert all(any("not valid JSON" in p for p in c.settings_problems) for c in configs)


def test_the_messages_warned_are_remembered_by_digest_not_by_their_text() -> None:
    # attack round 25: each warning of a settings value that changed (up to 1 MB each) was kept
    gate = WarnedOnce()
    tracemalloc.start()
    try:
        before, _ = tracemalloc.get_traced_memory()
        for i in range(20):
            text = f"{i}" + "x" * 1_000_000
            assert gate.filter(
                logging.LogRecord("x", logging.WARNING, __file__, 1, text, None, None)
            )
            del text
        after, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert after - before < 100_000  # 20 MB of messages went through; a few KB stay
    assert not gate.filter(
        logging.LogRecord("x", logging.WARNING, __file__, 1, "3" + "x" * 1_000_000, None, None)
    )
