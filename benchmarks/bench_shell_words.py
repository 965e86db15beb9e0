"""Benchmark shell splitting: Python's shlex, configured as the package configured it, against
formats.shell_lexer.shell_words, on long words, punctuation runs and quoted strings.

shlex grows each token a character at a time (`self.token += c`, not done in place on an
attribute), so its time is quadratic in a token's length. For each shape and size this checks
that both give the same tokens, then prints each side's median CPU time, the ratio, and each
side's growth per 10x of length (~10 linear, ~100 quadratic). Usage:

  python benchmarks/bench_shell_words.py [--sizes 10000 100000 1000000] [--runs 5] [--json]

shlex at sizes over --slow-from characters runs once (a million-character word takes it
tens of seconds).
"""

from __future__ import annotations

import argparse
import itertools
import json
import shlex
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from memdir_nb.formats.shell_lexer import shell_words

PUNCTUATION = ";&|<>()"  # extract.sandbox.parse_bash_command's configuration

# each shape: a text of about n characters
SHAPES: dict[str, Callable[[int], str]] = {
    "word": lambda n: "cat " + "a" * n,
    "punctuation run": lambda n: "ls " + ";" * n + " x",
    "single-quoted": lambda n: "echo '" + "a b" * (n // 3) + "'",
    "double-quoted, escapes": lambda n: 'echo "' + 'a\\"' * (n // 3) + '"',
    "escapes": lambda n: "\\;" * (n // 2),
    "short words": lambda n: "a | " * (n // 4),
}


def shlex_tokens(text: str) -> list[str]:
    lexer = shlex.shlex(text, posix=True, punctuation_chars=PUNCTUATION)
    lexer.whitespace_split, lexer.commenters = True, ""
    return list(lexer)


def lexer_tokens(text: str) -> list[str]:
    return list(shell_words(text, PUNCTUATION))


def _median_cpu(fn: Callable[[str], object], text: str, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.process_time()
        fn(text)
        times.append(time.process_time() - start)
    return statistics.median(times)


def _growth(times: list[float]) -> list[float]:
    return [later / max(earlier, 1e-6) for earlier, later in itertools.pairwise(times)]


def compare(sizes: Iterable[int], runs: int, slow_from: int) -> list[dict[str, object]]:
    """One row per shape: each side's median CPU seconds per size, the ratio, the growth."""
    rows: list[dict[str, object]] = []
    for shape, make in SHAPES.items():
        old: list[float] = []
        new: list[float] = []
        for n in sizes:
            text = make(n)
            if lexer_tokens(text) != shlex_tokens(text):
                raise SystemExit(f"{shape} at {n:,}: the tokens differ from shlex's")
            old.append(_median_cpu(shlex_tokens, text, 1 if n > slow_from else runs))
            new.append(_median_cpu(lexer_tokens, text, runs))
        rows.append(
            {
                "shape": shape,
                "shlex_s": old,
                "shell_words_s": new,
                "ratio": [o / max(w, 1e-6) for o, w in zip(old, new, strict=True)],
                "shlex_growth": _growth(old),
                "shell_words_growth": _growth(new),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000, 1_000_000])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--slow-from", type=int, default=300_000)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rows = compare(args.sizes, args.runs, args.slow_from)
    if args.json:
        print(json.dumps({"sizes": args.sizes, "rows": rows}, indent=2))
        return
    print(f"{'shape':24s} {'chars':>9s} {'shlex ms':>10s} {'lexer ms':>10s} {'ratio':>8s}")
    for row in rows:
        for i, n in enumerate(args.sizes):
            old = row["shlex_s"][i]  # type: ignore[index]
            new = row["shell_words_s"][i]  # type: ignore[index]
            ratio = row["ratio"][i]  # type: ignore[index]
            print(f"{row['shape']:24s} {n:9,d} {old * 1e3:10.2f} {new * 1e3:10.2f} {ratio:7.0f}x")
        old_growth = " ".join(f"x{g:.0f}" for g in row["shlex_growth"])  # type: ignore[attr-defined]
        new_growth = " ".join(f"x{g:.0f}" for g in row["shell_words_growth"])  # type: ignore[attr-defined]
        print(f"{'':24s} growth per step: shlex {old_growth}, shell_words {new_growth}")


if __name__ == "__main__":
    main()
