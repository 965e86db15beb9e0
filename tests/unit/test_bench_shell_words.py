"""benchmarks/bench_shell_words.py: shlex and formats.shell_lexer on the same long inputs."""

from __future__ import annotations

import bench_shell_words
import pytest


def test_every_shape_gives_the_same_tokens_and_a_row_per_shape_with_each_size() -> None:
    rows = bench_shell_words.compare([300, 3_000], runs=1, slow_from=1_000)
    assert [row["shape"] for row in rows] == list(bench_shell_words.SHAPES)
    for row in rows:
        assert len(row["shlex_s"]) == len(row["shell_words_s"]) == len(row["ratio"]) == 2  # type: ignore[arg-type]
        assert len(row["shlex_growth"]) == 1  # type: ignore[arg-type]


def test_tokens_that_differ_from_shlex_s_stop_the_benchmark(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bench_shell_words, "lexer_tokens", lambda text: [])
    with pytest.raises(SystemExit, match="differ from shlex"):
        bench_shell_words.compare([300], runs=1, slow_from=1_000)
